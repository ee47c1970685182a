"""Ascent's fast engine judged by its kernel, move by move: the harness the exhaustive
tie (:mod:`proofs.equivalence`) and the full-game tests run.

:func:`check_position` judges every move number of the kernel's universe in one engine
position, by the engine (:func:`castlerules.ascent.transitions.apply`, ``legal_moves``)
and by the kernel on plain values (:func:`castlerules.ascent.kernel.judge`), and raises
:class:`Disagreement` on the first move where they part; :func:`check_game` does so at
every position of one seeded random game.  It lives beside the other checks, so the
kernel imports nothing of what checks it.
"""

from __future__ import annotations

from typing import Any

import attrs

from castlerules.ascent import transitions
from castlerules.ascent.kernel import (
    Board,
    KState,
    Options,
    Position,
    Shape,
    Verdict,
    decode,
    from_state,
    judge,
    winners,
)
from castlerules.ascent.moves import Move
from castlerules.ascent.notation import to_text
from castlerules.ascent.rules import Rules
from castlerules.ascent.state import State
from castlerules.core.chance import Rng
from castlerules.core.errors import IllegalMove
from castlerules.core.ops import CONCRETE


class Disagreement(AssertionError):
    """The engine and the kernel part on a move (:func:`check_position`)."""


def check_position(
    shape: Shape, state: State, position: Position | None = None
) -> list[tuple[int, Verdict, State | None]]:
    """Judge every move of ``shape.moves`` in ``state`` by the kernel and by the engine;
    :class:`Disagreement` on the first move where they part (legality, the clause of a
    refusal, the successor, the scores, the end, the winners of A17).  Returns, per
    move number, the kernel's verdict and the engine's successor (None when refused)."""
    ks = from_state(state)
    p = position or Position(CONCRETE, shape, Options.of(CONCRETE, shape.rules), ks)
    out: list[tuple[int, Verdict, State | None]] = []
    offered = set(transitions.legal_moves(state))
    for (a, move), verdict in zip(enumerate(shape.moves), verdicts(p), strict=True):
        try:
            after: State | None = transitions.apply(state, move)
            clause = None
        except IllegalMove as err:
            after, clause = None, err.clause
        where = _Where(state, move)
        if (after is not None) != verdict.legal or clause != verdict.clause:
            raise Disagreement(
                f"{where}: engine {'accepts' if after is not None else f'refuses ({clause})'}, "
                f"kernel {'accepts' if verdict.legal else f'refuses ({verdict.clause})'}"
            )
        if (move in offered) != verdict.legal:
            raise Disagreement(f"{where}: legal_moves and the kernel part")
        if after is not None:
            outcome = verdict.outcome
            assert outcome is not None
            expected = from_state(after)
            if outcome.post != expected:
                got = outcome.post
                diff = [
                    f"{f.name} (engine {getattr(expected, f.name)}, kernel {getattr(got, f.name)})"
                    for f in attrs.fields(KState)
                    if getattr(expected, f.name) != getattr(got, f.name)
                ]
                raise Disagreement(f"{where}: successor differs in " + ", ".join(diff[:3]))
            if outcome.scores != transitions.scores(after):
                raise Disagreement(
                    f"{where}: scores {transitions.scores(after)} by the engine, "
                    f"{outcome.scores} by the kernel"
                )
            if bool(outcome.over) != transitions.is_over(after):
                raise Disagreement(f"{where}: the engine and the kernel part on the end")
            if outcome.over:
                best = winners(CONCRETE, shape, outcome.post)
                won = tuple(q for q in range(shape.players) if best[q])
                if won != transitions.winners(after):
                    raise Disagreement(
                        f"{where}: winners {transitions.winners(after)} by the engine, "
                        f"{won} by the kernel"
                    )
        out.append((a, verdict, after))
    return out


def verdicts(p: Position) -> list[Verdict]:
    """The kernel's verdict (:func:`~castlerules.ascent.kernel.judge`) on every move
    number of ``p.shape.moves`` in position ``p``.  The kernel reads a move number only
    through its parts (:func:`~castlerules.ascent.kernel.decode`: the kind, the card's
    slot and fields; the guards and the step never read the number itself), so every
    move is decoded and the moves with the same parts share one judgement: the cards
    not in play, one per kind."""
    out: list[Verdict] = []
    judged: dict[tuple[Any, ...], Verdict] = {}
    for a in range(len(p.shape.moves)):
        m = decode(p, a)
        parts = (m.kind, m.k, m.present, m.col, m.sq, m.dep, m.flp)
        if parts not in judged:
            judged[parts] = judge(p.shape, p.s, a, p)
        out.append(judged[parts])
    return out


class _Where:
    """A position and a move, written in notation only when a message needs them."""

    def __init__(self, state: State, move: Move) -> None:
        self.state, self.move = state, move

    def __format__(self, spec: str) -> str:
        return f"{to_text(self.state)} {self.move}"


def check_game(rules: Rules, players: int, seed: int, moves: int = 10_000) -> int:
    """Play a seeded random game of at most ``moves`` moves from ``new_game(players, rules,
    seed)`` and check every move of the universe at every position
    (:func:`check_position`); :class:`Disagreement` on the first.  Returns the number
    of positions checked (for a differential run on full games)."""
    shape = Shape.of(rules, players)
    options = Options.of(CONCRETE, rules)
    boards: dict[tuple[Any, ...], Board] = {}  # a turn's last move builds the next board
    state = transitions.new_game(players, rules, seed=seed)
    rng = Rng.from_seed(seed, "ascent.kernel")
    checked = 0
    for _ in range(moves):
        position = Position(CONCRETE, shape, options, from_state(state), boards=boards)
        check_position(shape, state, position)
        checked += 1
        legal_now = transitions.legal_moves(state)
        if not legal_now:
            break
        move, rng = rng.choice(legal_now)
        state = transitions.apply(state, move)
    return checked
