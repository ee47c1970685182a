"""The public surface of castlerules.throne (api.md): names, protocol, determinism,
observation (hidden information) and describe (events)."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from castlerules import IllegalMove, NotationError, RulesError, throne
from castlerules.core import CLAUSES, Event
from castlerules.throne import (
    Climb,
    Pass,
    Place,
    Rules,
    State,
    Vote,
    apply,
    current_player,
    describe,
    legal_moves,
    new_game,
    observation,
    phase,
)

OBJECTIVES_3P = [
    ["ABCDEF", "GHIJKL", "ACEGIK"],
    ["ABCDEG", "HIJKLM", "ABCGIK"],
    ["ACDEFG", "BHIJKL", "BDFHJL"],
]

# Throne's own names; the names every game exports are checked in
# tests/core/test_game_protocol.py.
REQUIRED = [
    "Place",
    "Climb",
    "Vote",
    "Pass",
    "floor_of",
    "round_of",
    "no_cards",
    "objective",
    "king",
    "totals",
    "round_scores",
    "phase",
]

Play = Callable[[State, str], State]


def test_public_names() -> None:
    for name in REQUIRED:
        assert hasattr(throne, name), name
        assert name in throne.__all__, name
    assert issubclass(IllegalMove, RulesError) and issubclass(NotationError, ValueError)


def test_legal_move_order(play: Play, fill_3p: str) -> None:
    """Placement: character by character (A first), floor by floor; no duplicates."""
    moves = legal_moves(new_game(3))
    assert moves[:6] == tuple(
        Place(c, f) for c, f in [("A", 1), ("A", 2), ("A", 3), ("A", 4), ("A", 5), ("B", 1)]
    )
    assert len(set(moves)) == len(moves) == 65
    s = play(new_game(3, objectives=OBJECTIVES_3P), fill_3p)
    assert legal_moves(s) == tuple(Climb(c) for c in "IJKLM")
    s = play(s, "M+ M+ M+")
    assert legal_moves(s) == (Vote(True), Vote(False))


def test_seat_argument() -> None:
    s = new_game(3)
    assert apply(s, Place("A", 1), seat=0) == apply(s, Place("A", 1))
    with pytest.raises(IllegalMove):
        apply(s, Place("A", 1), seat=1)


def test_observation_hides_other_objectives_and_votes(play: Play, fill_3p: str) -> None:
    s = play(new_game(3, objectives=OBJECTIVES_3P), fill_3p + " M+ M+ M+ no")
    view = observation(s, 1)
    assert view.seat == 1 and view.phase == "election" and view.turn == 1
    assert view.objective == frozenset("GHIJKL")
    assert view.voted == (True, False, False) and view.vote is None
    assert view.revealed == () and view.round_scores == () and view.kings == ()
    assert view.floors == s.floors and view.no_cards == (4, 4, 4)
    # Another deal for the other seats, another vote cast by seat 0: same view for seat 1.
    other = attrs.evolve(
        s,
        objectives=((s.objectives[0][0] ^ 0b111, s.objectives[0][1], 7), (1, 2, 3), (4, 5, 6)),
        votes=(1, -1, -1),
    )
    assert observation(other, 1) == view
    assert observation(other, 0) != observation(s, 0)
    # Once round 1 is scored its objectives are revealed to all.
    done = play(s, "yes yes L+ L+ L+ L+ yes yes yes")
    assert phase(done) == "placement"
    seen = observation(done, 2)
    assert seen.revealed == ((frozenset("ABCDEF"), frozenset("GHIJKL"), frozenset("ACEGIK")),)
    assert seen.kings == ("L",) and seen.objective == frozenset("ABCGIK")


def test_observation_of_the_current_seat_during_its_vote(play: Play, fill_3p: str) -> None:
    s = play(new_game(3, objectives=OBJECTIVES_3P), fill_3p + " M+ M+ M+")
    assert observation(s, 0).vote is None
    s = apply(s, Vote(False))
    assert observation(s, 0).vote is False
    assert observation(s, 2).voted == (True, False, False)


def test_describe_each_kind_of_move(play: Play, fill_3p: str) -> None:
    s = play(new_game(3, rules=Rules(allow_pass=True), objectives=OBJECTIVES_3P), fill_3p[:-3])
    last = apply(s, Place("M", 4))
    events = describe(s, Place("M", 4), last)
    assert [e.clause for e in events] == ["B6", "B8"]
    assert "movement phase begins with seat 1" in events[1].text
    passed = apply(last, Pass())
    assert describe(last, Pass(), passed) == (Event("B8", "Seat 1 passes."),)
    s = play(passed, "M+ M+ M+")
    voted = apply(s, Vote(False))
    assert describe(s, Vote(False), voted) == (Event("B11", "Seat 1 votes face down."),)
    s = play(voted, "yes")
    out = apply(s, Vote(True))
    texts = [str(e) for e in describe(s, Vote(True), out)]
    assert texts[0] == "The votes are revealed: seat 0 yes, seat 1 no, seat 2 yes. (B11)"
    assert texts[1] == (
        "M is rejected and eliminated for the rest of the round; seat 1 discards a No card. "
        "Play resumes with seat 2. (B13)"
    )
    for event in describe(s, Vote(True), out):
        assert event.clause in CLAUSES


def test_describe_refuses_inconsistent_arguments() -> None:
    s = new_game(3)
    with pytest.raises(ValueError, match="not the result"):
        describe(s, Place("A", 1), apply(s, Place("A", 2)))
    with pytest.raises(ValueError, match="legal move"):
        describe(s, Place("A", 6), s)


def test_seat_0_moves_first_in_every_fresh_game() -> None:
    """B6: placement starts with seat 0, whatever the seed, players and preset."""
    assert current_player(new_game(4, None, 7)) == 0
    for players in throne.PLAYERS:
        for preset in Rules.PRESETS:
            assert current_player(new_game(players, rules=Rules.preset(preset), seed=players)) == 0


def test_a_subclass_of_a_move_class_is_judged_as_its_move() -> None:
    @attrs.frozen(slots=True)
    class MyPlace(Place):
        pass

    s = new_game(3)
    assert apply(s, MyPlace("A", 2)) == apply(s, Place("A", 2))
    with pytest.raises(IllegalMove) as info:
        apply(s, MyPlace("A", 6))
    assert info.value.clause == "B6"


def test_the_engines_fast_constructor_builds_the_same_frozen_state() -> None:
    """build_state (the engine's constructor, state.py) is State(...), only faster."""
    from castlerules.throne.state import build_state

    s = new_game(4, seed=3)
    s = apply(s, legal_moves(s)[5])
    fields = {a.name: getattr(s, a.name) for a in attrs.fields(State)}
    first = [fields.pop(name) for name in ("rules", "players", "round", "phase")]
    built, plain = build_state(*first, **fields), State(*first, **fields)
    with pytest.raises(TypeError):
        build_state(*first, *fields.values())  # past the fourth field, by name only
    assert type(built) is State
    assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.turn = 2  # type: ignore[misc]
    assert attrs.evolve(built, turn=2) == attrs.evolve(plain, turn=2)
