"""The copies of Ascent's rules outside the kernel, tied to it on every reachable position.

The engine is tied to the kernel by ``tests/ascent/test_kernel.py``.  Here, on the
two smallest scopes of :data:`proofs.equivalence.ASCENT_KERNEL_SCOPES` (every
position reachable from every chance outcome, every move of the kernel's
universe), the other copies are tied too:

- the notation's legality: ``parse_move(state, text)`` accepts a move's text
  exactly where the kernel's guards do, and refuses it citing the clause of the
  kernel's first broken guard;
- the events' account (``describe``): a move reports a removal (A13) exactly
  where the kernel's successor sends a card off the board, a flip (A8) exactly
  where a card is flipped, a favour (A10) for each Favour, the end (A14) and
  the scores (A17) exactly where the kernel says the game is over;
- the invariant's removal test reads the kernel (``kernel.removal_on``) and is
  tied by construction.

Each tie catches a planted mistake in its copy (below).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import pytest

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.core import IllegalMove, NotationError
from castlerules.core.ops import CONCRETE
from proofs import ascent_judged as judged_moves
from proofs.equivalence import ASCENT_KERNEL_SCOPES, Scope, ascent_rules, initial_positions

SCOPES = (ASCENT_KERNEL_SCOPES[0], ASCENT_KERNEL_SCOPES[2])


def _cited(events: Any, clause: str) -> bool:
    return any(e.clause == clause for e in events)


def _account(before: Any, move: Any, after: Any, verdict: Any) -> list[str]:
    """Where the events' account of a legal move differs from the kernel's outcome."""
    pre, outcome = kernel.from_state(before), verdict.outcome
    post = outcome.post
    events = ascent.describe(before, move, after)
    removed = any(
        b == kernel.REMOVED and a != kernel.REMOVED for a, b in zip(pre.sq, post.sq, strict=True)
    )
    flipped = any(b and not a for a, b in zip(pre.flp, post.flp, strict=True))
    over = bool(outcome.over)
    facts = {
        "A13": removed,
        "A8": flipped,
        "A17": over,
    }
    out = [
        f"{clause}: the kernel says {fact}, the events {not fact}"
        for clause, fact in facts.items()
        if _cited(events, clause) != fact
    ]
    if isinstance(move, ascent.Favour) and not _cited(events, "A10"):
        out.append("A10: a favour without its event")
    if over != any(e.clause == "A14" and "game is over" in e.text for e in events):
        out.append(f"A14: the kernel says over={over}, the events disagree")
    return out


def mismatches(scope: Scope, limit: int = 5) -> list[str]:
    """Every disagreement of the notation's legality and the events with the kernel."""
    rules = ascent_rules(scope)
    shape = kernel.Shape.of(rules, scope.players)
    options = kernel.Options.of(CONCRETE, rules)
    starts = initial_positions(scope)
    seen, queue = set(starts), deque(starts)
    bad: list[str] = []
    boards: dict[tuple[Any, ...], kernel.Board] = {}  # one board per card layout
    while queue and len(bad) < limit:
        state = queue.popleft()
        ks = kernel.from_state(state)
        position = kernel.Position(CONCRETE, shape, options, ks, boards=boards)
        written = ""  # the position's notation, written for the first disagreement only
        for move, verdict in zip(shape.moves, judged_moves.verdicts(position), strict=True):
            text = str(move)
            try:
                read = ascent.parse_move(state, text)
                clause = None
            except IllegalMove as err:
                read, clause = None, err.clause
            except NotationError as err:
                written = written or ascent.to_text(state)
                bad.append(f"{written} {text}: the notation cannot read it ({err})")
                continue
            if (read is not None) != verdict.legal or clause != verdict.clause:
                where = f"{written or ascent.to_text(state)} {text}"
                bad.append(
                    f"{where}: notation {'accepts' if read is not None else f'refuses ({clause})'},"
                    f" kernel {'accepts' if verdict.legal else f'refuses ({verdict.clause})'}"
                )
                continue
            if read is None:
                continue
            after = ascent.apply(state, read)
            account = _account(state, read, after, verdict)
            if account:
                written = written or ascent.to_text(state)
                bad += [f"{written} {text}: {p}" for p in account]
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return bad


@pytest.mark.parametrize("scope", SCOPES, ids=lambda s: s.name)
def test_the_notation_and_the_events_are_the_kernel(scope: Scope) -> None:
    assert mismatches(scope) == []


def _planted(monkeypatch: pytest.MonkeyPatch, name: str, wrap: Callable[[Any], Any]) -> None:
    monkeypatch.setattr(ascent, name, wrap(getattr(ascent, name)))


def test_a_notation_that_reads_a_refused_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the notation skips the legality check on a Favour (its own copy of A10)."""

    def wrap(parse: Any) -> Any:
        def lenient(state: Any, text: str, check: bool = True) -> Any:
            move = parse(state, text, check=False)
            return move if isinstance(move, ascent.Favour) else parse(state, text, check=check)

        return lenient

    _planted(monkeypatch, "parse_move", wrap)
    assert any("notation accepts" in m for m in mismatches(SCOPES[0], limit=1))


def test_a_notation_citing_another_clause_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the notation refuses with A6 where the kernel's guard is A7."""

    def wrap(parse: Any) -> Any:
        def misquoting(state: Any, text: str, check: bool = True) -> Any:
            try:
                return parse(state, text, check=check)
            except IllegalMove as err:
                clause = "A6" if err.clause == "A7" else "A7" if err.clause == "A6" else err.clause
                raise IllegalMove(str(err), clause=clause) from None

        return misquoting

    _planted(monkeypatch, "parse_move", wrap)
    assert any("refuses (A" in m for m in mismatches(SCOPES[0], limit=1))


@pytest.mark.parametrize("dropped", ["A13", "A8", "A17"])
def test_events_that_leave_out_what_happened_are_caught(
    monkeypatch: pytest.MonkeyPatch, dropped: str
) -> None:
    """Planted: ``describe`` forgets its removal, flip or scores event."""

    def wrap(describe: Any) -> Any:
        return lambda *args: tuple(e for e in describe(*args) if e.clause != dropped)

    def names_it(line: str) -> bool:
        return line.split(": ")[-2].endswith(dropped) or f" {dropped}:" in line

    _planted(monkeypatch, "describe", wrap)
    found: list[str] = []
    for scope in SCOPES:  # the next scope is searched only while none has caught it
        found += mismatches(scope, limit=1)
        if any(names_it(m) for m in found):
            break
    assert any(names_it(m) for m in found), found
