"""The casebook: every clause and every reading of both games shown by a real, short game.

A case is *declared* (:mod:`castlerules.casebook.declare`): a key, its clauses,
a one-line statement, the question it settles, and a condition over a move
(``before``, ``move``, ``after``, the events of ``describe``), a finished
game, a refused move, or two readings of the rules.  One generic search
(:mod:`castlerules.casebook.search`: Hypothesis, seeded playouts, then
shortening) finds a game that shows it; the games found are kept in
``found.json`` (:mod:`castlerules.casebook.store`), and every use replays them
from ``new_game`` through the public API and checks them again
(``verify``).

>>> from castlerules import casebook
>>> shown = casebook.show("throne-full-floor")
>>> shown.case.clauses[0], shown.focus.clause
('B7', 'B7')
>>> "the most a floor may hold" in str(shown.focus.error)
True
>>> len(casebook.CASES) >= 60
True

Refresh the found games after a change of the rules::

    python -m castlerules.casebook --refresh
"""

from __future__ import annotations

from collections.abc import Iterable

from castlerules.casebook import ascent_cases, throne_cases
from castlerules.casebook.check import CaseError, Found, Shown, verify
from castlerules.casebook.declare import Case, Claim, Game, Moment, Refusal, Split, claim
from castlerules.casebook.questions import question
from castlerules.casebook.store import load

__all__ = [
    "CASES",
    "Case",
    "CaseError",
    "Claim",
    "Found",
    "Game",
    "Moment",
    "Refusal",
    "Shown",
    "Split",
    "case",
    "cases",
    "claim",
    "question",
    "show",
    "show_all",
    "verify",
]

CASES: tuple[Case, ...] = throne_cases.CASES + ascent_cases.CASES
"""Every case, Throne first, in the order the documentation shows them."""

_BY_KEY = {c.key: c for c in CASES}
assert len(_BY_KEY) == len(CASES), "two cases have the same key"


def case(key: str) -> Case:
    """The case ``key``; ``KeyError`` if there is none."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown case {key!r}") from None


def cases(
    game: str | None = None, clause: str | None = None, option: str | None = None
) -> tuple[Case, ...]:
    """The cases of a game, citing a clause, or whose rules set an option (all if None)."""

    def options_of(c: Case) -> set[str]:
        names = {k for k, _ in c.options}
        if c.preset:
            names |= set(c.module.Rules.PRESETS[c.preset])
        if c.versus is not None:
            preset, extra = c.versus
            names |= {k for k, _ in extra}
            if preset:
                names |= set(c.module.Rules.PRESETS[preset])
        return names

    return tuple(
        c
        for c in CASES
        if (game is None or c.game == game)
        and (clause is None or clause.upper() in c.clauses)
        and (option is None or option in options_of(c))
    )


def show(key: str, found: dict[str, Found] | None = None) -> Shown:
    """Replay the game found for case ``key`` and check it (``CaseError`` if it fails)."""
    known = load() if found is None else found
    item = case(key)
    if key not in known:
        raise CaseError(
            f"case {key!r} has no game yet: run 'python -m castlerules.casebook --refresh'"
        )
    return verify(item, known[key])


def show_all(keys: Iterable[str] | None = None) -> tuple[Shown, ...]:
    """Replay and check every case (or those of ``keys``)."""
    known = load()
    return tuple(show(k, known) for k in (keys if keys is not None else _BY_KEY))
