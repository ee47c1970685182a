"""A12: the limit on replays in a turn (``replays_per_turn``), played on a position.

No scope of the exhaustive tie reaches the limit (a replay spent with a favour still
open needs two targets on one row after a favour and a replay), so the kernel's guard
``ascent-replay-limit`` and the engine's copy are shown here on a position of a full
game, the casebook's (``REPLAYED_THEN_FAVOUR`` of ``tests/casebook/test_refusals.py``),
where seat 1 has played again once and taken a favour since, with another favour to
take: the engine's moves, and the kernel's verdict on every move of the position and
of each position one move on.
"""

from __future__ import annotations

import pytest

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.core import IllegalMove
from proofs import ascent_judged

REPLAYED = "L0T0F0,-,P0,-,L1,-,-,-/C1,F1,T1,B1C0,P1B0,-,-,- -/- 1:4:2:1:1 "
"""Seat 1 mid-turn: one replay played (the last field), a favour (xL1) still open."""


def position(limit: int) -> ascent.State:
    return ascent.from_text(f"{REPLAYED}favours_per_move=none;replays_per_turn={limit}")


def advances(state: ascent.State) -> list[ascent.Advance]:
    return [m for m in ascent.legal_moves(state) if isinstance(m, ascent.Advance)]


def test_a12_with_one_replay_a_turn_no_card_advances_again() -> None:
    """replays_per_turn=1, one replay played: the favour and EndTurn remain, and every
    Advance of the mover's cards is refused under A12, saying why."""
    state = position(1)
    assert advances(state) == []
    assert ascent.legal_moves(state) == (
        ascent.Favour(ascent.Card(1, ascent.Rank.LADY)),
        ascent.EndTurn(),
    )
    for rank in ascent.Rank:
        with pytest.raises(IllegalMove) as info:
            ascent.apply(state, ascent.Advance(ascent.Card(1, rank)))
        assert info.value.clause == "A12"
        assert "plays again at most 1 time (replays_per_turn)" in str(info.value)


def test_a12_a_second_replay_is_allowed_under_a_limit_of_two() -> None:
    """The same position under replays_per_turn=2: the mover may play again (the refusal
    above is the limit's, not another rule's)."""
    assert {m.card for m in advances(position(2))} >= {
        ascent.Card(1, ascent.Rank.BISHOP),
        ascent.Card(1, ascent.Rank.PRINCE),
    }


@pytest.mark.parametrize(("limit", "mover"), [(1, 0), (2, 1)])
def test_a12_the_favour_taken_at_the_limit_ends_the_turn(limit: int, mover: int) -> None:
    """Taking the last favour: at the limit the turn ends and seat 0 plays; one replay
    short of it, seat 1 plays again (A12, rule 16)."""
    after = ascent.apply(position(limit), ascent.Favour(ascent.Card(1, ascent.Rank.LADY)))
    assert ascent.current_player(after) == mover
    assert advances(after)


def test_a12_the_kernel_refuses_each_advance_at_the_limit_by_its_guard() -> None:
    """The kernel on plain values: at the limit every Advance is refused by the guard
    ``ascent-replay-limit`` (A12), one replay short of it none is; the engine agrees with
    the kernel on every move here and one move on."""
    for limit in (1, 2):
        state = position(limit)
        shape = kernel.Shape.of(state.rules, state.players)
        judged = ascent_judged.check_position(shape, state)
        refused = {
            shape.moves[a]
            for a, verdict, _after in judged
            if verdict.refusal == "ascent-replay-limit" and verdict.clause == "A12"
        }
        every_advance = {m for m in shape.moves if isinstance(m, ascent.Advance)}
        assert refused == (every_advance if limit == 1 else set())
        for _a, _verdict, after in judged:
            if after is not None:
                ascent_judged.check_position(shape, after)
