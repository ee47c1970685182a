"""The public surface of castlerules.throne (api.md): names, protocol, determinism,
observation (hidden information) and describe (events)."""

from __future__ import annotations

import inspect

import attrs
import pytest

import castlerules
from castlerules import IllegalMove, NotationError, RulesError, throne
from castlerules.core import CLAUSES, Event, Game, Rng
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
    from_text,
    legal_moves,
    new_game,
    observation,
    parse_move,
    phase,
    to_text,
)

OBJECTIVES_3P = [
    ["ABCDEF", "GHIJKL", "ACEGIK"],
    ["ABCDEG", "HIJKLM", "ABCGIK"],
    ["ACDEFG", "BHIJKL", "BDFHJL"],
]
FILL_3P = "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L3 M4"

REQUIRED = [
    "NAME",
    "PLAYERS",
    "Rules",
    "State",
    "Place",
    "Climb",
    "Vote",
    "Pass",
    "Move",
    "new_game",
    "current_player",
    "legal_moves",
    "apply",
    "is_over",
    "scores",
    "winners",
    "to_text",
    "from_text",
    "parse_move",
    "perft",
    "observation",
    "describe",
    "floor_of",
    "round_of",
    "no_cards",
    "objective",
    "king",
    "totals",
    "round_scores",
    "phase",
    "NOTES",
]


def play(state: State, moves: str) -> State:
    for text in moves.split():
        state = apply(state, parse_move(state, text))
    return state


def test_public_names() -> None:
    for name in REQUIRED:
        assert hasattr(throne, name), name
        assert name in throne.__all__, name
    assert throne.NAME == "throne"
    assert range(3, 7) == throne.PLAYERS
    assert castlerules.throne is throne
    assert issubclass(IllegalMove, RulesError) and issubclass(NotationError, ValueError)


def test_the_module_is_a_game() -> None:
    game: Game = throne  # type-checked by mypy against the protocol
    for name in Game.__annotations__:  # the attributes: NAME, PLAYERS
        assert hasattr(game, name)
    methods = [
        name for name in dir(Game) if not name.startswith("_") and callable(getattr(Game, name))
    ]
    assert {"new_game", "apply", "legal_moves", "describe", "observation"} <= set(methods)
    for name in methods:
        function = getattr(game, name)
        assert callable(function), name
        # The protocol's parameters, in order, lead the function's (extra ones have defaults).
        wanted = list(inspect.signature(getattr(Game, name)).parameters)[1:]  # without self
        given = list(inspect.signature(function).parameters.values())
        assert [p.name for p in given[: len(wanted)]] == wanted, name
        assert all(p.default is not p.empty for p in given[len(wanted) :]), name
    s = game.new_game(4, None, 7)
    assert game.current_player(s) == 0
    assert game.perft(s, 1) == len(game.legal_moves(s))


def test_determinism_and_immutability() -> None:
    a = new_game(4, seed=7)
    b = new_game(4, seed=7)
    assert a == b and hash(a) == hash(b)
    rng_a = rng_b = Rng.from_seed(1)
    for _ in range(80):
        move_a, rng_a = rng_a.choice(legal_moves(a))
        move_b, rng_b = rng_b.choice(legal_moves(b))
        assert move_a == move_b
        text = to_text(a)
        a2 = apply(a, move_a)
        assert to_text(a) == text  # the input is unchanged
        a, b = a2, apply(b, move_b)
        assert a == b
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.turn = 3  # type: ignore[misc]


def test_legal_move_order() -> None:
    """Placement: character by character (A first), floor by floor; no duplicates."""
    moves = legal_moves(new_game(3))
    assert moves[:6] == tuple(
        Place(c, f) for c, f in [("A", 1), ("A", 2), ("A", 3), ("A", 4), ("A", 5), ("B", 1)]
    )
    assert len(set(moves)) == len(moves) == 65
    s = play(new_game(3, objectives=OBJECTIVES_3P), FILL_3P)
    assert legal_moves(s) == tuple(Climb(c) for c in "IJKLM")
    s = play(s, "M+ M+ M+")
    assert legal_moves(s) == (Vote(True), Vote(False))


def test_seat_argument() -> None:
    s = new_game(3)
    assert apply(s, Place("A", 1), seat=0) == apply(s, Place("A", 1))
    with pytest.raises(IllegalMove):
        apply(s, Place("A", 1), seat=1)


def test_observation_hides_other_objectives_and_votes() -> None:
    s = play(new_game(3, objectives=OBJECTIVES_3P), FILL_3P + " M+ M+ M+ no")
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


def test_observation_of_the_current_seat_during_its_vote() -> None:
    s = play(new_game(3, objectives=OBJECTIVES_3P), FILL_3P + " M+ M+ M+")
    assert observation(s, 0).vote is None
    s = apply(s, Vote(False))
    assert observation(s, 0).vote is False
    assert observation(s, 2).voted == (True, False, False)


def test_describe_each_kind_of_move() -> None:
    s = play(new_game(3, rules=Rules(allow_pass=True), objectives=OBJECTIVES_3P), FILL_3P[:-3])
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


def test_from_text_of_to_text_is_identity_for_fresh_games() -> None:
    for players in throne.PLAYERS:
        for preset in Rules.PRESETS:
            s = new_game(players, rules=Rules.preset(preset), seed=players)
            assert from_text(to_text(s)) == s
            assert current_player(s) == 0


def test_a_subclass_of_a_move_class_is_judged_as_its_move() -> None:
    @attrs.frozen(slots=True)
    class MyPlace(Place):
        pass

    s = new_game(3)
    assert apply(s, MyPlace("A", 2)) == apply(s, Place("A", 2))
    with pytest.raises(IllegalMove) as info:
        apply(s, MyPlace("A", 6))
    assert info.value.clause == "B6"
