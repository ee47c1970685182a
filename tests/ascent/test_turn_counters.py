"""A12: the counters of the turn in a position's text are read from ``State``'s fields.

The notation writes and reads each field of ``State`` whose metadata holds a
:class:`~castlerules.core.notation.TurnCounter` (today ``replays``), after the turn's
other numbers; a reading that adds a counter adds the field and nothing in the
notation.  Planted here: a ``State`` with one more counter, which round-trips through
``to_text``/``from_text`` with no edit of the notation, and is bounded by the option its
declaration names; and a notation that forgets the counters, which the round trip
catches.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import ascent
from castlerules.ascent import notation, transitions
from castlerules.ascent.state import State
from castlerules.core import ArgumentError, NotationError
from castlerules.core.notation import TURN_COUNTER, TurnCounter, turn_counters

REPLAYED = "L0T0F0,-,P0,-,L1,-,-,-/C1,F1,T1,B1C0,P1B0,-,-,- -/- 1:4:2:1:1 "
"""Seat 1 mid-turn: one replay played (the last number of the turn), a favour open."""
OPTIONS = "favours_per_move=none;replays_per_turn=2"


def test_a12_the_replays_are_the_counter_of_the_turn() -> None:
    assert [name for name, _c in turn_counters(State)] == ["replays"]
    state = ascent.from_text(REPLAYED + OPTIONS)
    assert state.replays == 1
    assert ascent.to_text(state) == REPLAYED + OPTIONS
    none = ascent.to_text(attrs.evolve(state, replays=0))
    assert none.split(" ")[2] == "1:4:2:1"  # at its start, not written


@attrs.frozen(slots=True, weakref_slot=False)
class Counted(State):
    """A ``State`` with a second counter of the turn, ``bonus`` (as a reading adding a
    counter would write it in ``state.py``), bounded by ``replays_per_turn``."""

    bonus: int = attrs.field(
        default=0, metadata={TURN_COUNTER: TurnCounter("A12", at_most="replays_per_turn")}
    )


def _planted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The notation given :class:`Counted`, which the engine's constructor fills (as a
    reading adding a counter would write it in ``transitions.make_state``)."""
    made = transitions.make_state

    def make_state(rules: Any, *, bonus: int = 0, **kw: Any) -> Counted:
        state = made(rules, **kw)
        return Counted(**{f.name: getattr(state, f.name) for f in attrs.fields(State)}, bonus=bonus)

    monkeypatch.setattr(notation, "State", Counted)
    monkeypatch.setattr(notation, "make_state", make_state)


def test_a12_a_counter_added_to_state_round_trips_with_no_edit_of_the_notation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _planted(monkeypatch)
    state = ascent.from_text(REPLAYED + OPTIONS)
    assert isinstance(state, Counted)
    assert (state.replays, state.bonus) == (1, 0)
    assert ascent.to_text(state) == REPLAYED + OPTIONS  # the texts of today unchanged
    for replays, bonus, turn in ((1, 2, "1:4:2:1:1:2"), (0, 1, "1:4:2:1:0:1"), (2, 0, "1:4:2:1:2")):
        planted = attrs.evolve(state, replays=replays, bonus=bonus)
        text = ascent.to_text(planted)
        assert text.split(" ")[2] == turn
        assert ascent.from_text(text) == planted
    # One spelling: the last counter written is not at its start; the bound is the option's.
    with pytest.raises(NotationError, match=r"the bonus of the turn must be in 1\.\."):
        ascent.from_text(REPLAYED.replace("1:1 ", "1:1:0 ") + OPTIONS)
    with pytest.raises(NotationError, match=r"3 bonus this turn, but at most 2 \(A12\)"):
        ascent.from_text(REPLAYED.replace("1:1 ", "1:1:3 ") + OPTIONS)
    with pytest.raises(NotationError, match=r"\(then :replays:bonus, A12\)"):
        ascent.from_text(REPLAYED.replace("1:1 ", "1:1:1:1 ") + OPTIONS)


def test_a_notation_that_forgets_the_counters_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted mistake: the turn's counters not read from ``State`` (none found): the
    replays are lost on writing, and refused on reading."""
    state = ascent.from_text(REPLAYED + OPTIONS)
    monkeypatch.setattr(notation, "turn_counters", lambda _cls: ())
    written = ascent.to_text(state)
    assert written != REPLAYED + OPTIONS
    assert ascent.from_text(written) != state
    with pytest.raises(NotationError, match="seat:square:moved:favours"):
        ascent.from_text(REPLAYED + OPTIONS)


HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.just("x" * 100_000),
    st.recursive(st.none() | st.text(max_size=3), lambda x: st.lists(x, max_size=3), max_leaves=8),
    st.sampled_from([State, ascent.Rules, int, type, ascent, ascent.new_game(2)]),
)


@settings(max_examples=60, deadline=None)
@given(HOSTILE)
def test_turn_counters_and_the_catalogue_take_anything(value: Any) -> None:
    """Either answers (for a state class, a game), or refuses with an ArgumentError."""
    from castlerules.casebook.refusals import catalogue

    for surface in (turn_counters, catalogue):
        try:
            found = surface(value)
        except ArgumentError:
            continue
        assert isinstance(found, tuple)
