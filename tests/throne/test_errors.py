"""Refusals: each illegal move names its clause in plain words and leaves the state alone;
bad arguments are ValueErrors (ArgumentError) naming the allowed values."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from castlerules.core import ArgumentError, IllegalMove, RulesError
from castlerules.throne import (
    FLOOR_NAMES,
    Climb,
    Pass,
    Place,
    Rules,
    State,
    Vote,
    apply,
    floor_of,
    from_text,
    king,
    new_game,
    no_cards,
    objective,
    objectives_of_round,
    observation,
    perft,
    to_text,
)

# Seat 0 has used its four No cards in earlier rounds (they are not restored).
ROUND3 = (
    "throne SEED,no_cards_reset_each_round=false 3 3 election 0 ABCD/G/H/-/IJ/KL/M EF 0/3/3 .yy 0 "
    "ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKM,ACEKLM "
    "10,20,30/5,5,5 AB"
)


Play = Callable[[State, str], State]


@pytest.fixture
def placing(play: Play, objectives_3p: list[list[str]]) -> State:
    """Four characters placed; seat 1 to place."""
    return play(new_game(3, objectives=objectives_3p), "A1 B1 C1 D1")


def over() -> State:
    return apply(from_text(ROUND3), Vote(True))


def refuse(state: State, move: object, clause: str, words: str, seat: int | None = None) -> None:
    """``move`` is refused with ``clause`` and a message containing ``words``; state intact."""
    text = to_text(state)
    copy = from_text(text)
    with pytest.raises(IllegalMove) as info:
        apply(state, move, seat=seat)  # type: ignore[arg-type]
    assert info.value.clause == clause
    message = str(info.value)
    assert message.endswith(f"({clause})")
    assert words in message, message
    assert message[0].isupper()
    assert to_text(state) == text
    assert state == copy


def test_b6_place_on_floor_6_or_7_is_refused() -> None:
    """B6: placing on floor 6 or 7 is refused in plain words."""
    s = new_game(3)
    refuse(
        s,
        Place("C", 6),
        "B6",
        "Character C cannot be placed on floor 6: placement is on floors 1-5 only",
    )
    refuse(s, Place("C", 7), "B6", "floors 1-5 only")
    refuse(s, Place("C", 0), "B6", "floors 1-5 only")
    refuse(s, Place("C", 99), "B6", "floors 1-5 only")
    refuse(new_game(4, rules=Rules.preset("ORIGINAL")), Place("C", 1), "B6", "floors 2-5 only")


def test_b6_place_a_character_twice_or_an_unknown_one(placing: State) -> None:
    """B6: only a character not yet placed, and one that exists."""
    refuse(placing, Place("A", 2), "B6", "Character A is already in the castle (floor 1)")
    refuse(placing, Place("Z", 2), "B6", "There is no character 'Z': the characters are A-M")
    refuse(placing, Place("a", 2), "B6", "There is no character 'a'")


def test_b7_place_onto_a_full_floor_is_refused(placing: State) -> None:
    """B7: a fifth character on floor 1."""
    refuse(
        placing,
        Place("E", 1),
        "B7",
        "Character E cannot be placed on floor 1: it already holds 4",
    )


def test_b8_climb_into_a_full_floor_is_refused(filled: State) -> None:
    """B8: a climb needs room on the floor above."""
    refuse(filled, Climb("A"), "B8", "Character A cannot climb from floor 1 to floor 2")
    refuse(filled, Climb("E"), "B8", "fewer than 4")


def test_b8_climb_from_the_throne_is_refused(electing: State) -> None:
    """B8: nothing is above the throne."""
    refuse(electing, Climb("M"), "B8", "Character M is on the throne, the top floor")


def test_b8_pass_is_refused_unless_allowed(filled: State) -> None:
    """B8: a player must move a character up (allow_pass=False)."""
    refuse(filled, Pass(), "B8", "must move a character up")
    s = from_text(to_text(filled).replace("SEED", "SEED,allow_pass=true"))
    assert apply(s, Pass()).passes == 1


def test_b11_vote_no_without_a_no_card_is_refused() -> None:
    """B11: a player with no No card left can only vote Yes."""
    s = from_text(ROUND3)
    assert no_cards(s, 0) == 0
    refuse(s, Vote(False), "B11", "Seat 0 has no No card left")


def test_out_of_turn_cites_the_turn_order_of_the_phase(
    filled: State, electing: State, placing: State
) -> None:
    """B6, B8, B11: a seat acting out of turn is refused with the turn-order clause."""
    refuse(placing, Place("E", 2), "B6", "It is seat 1's turn to place a character", seat=0)
    refuse(filled, Climb("M"), "B8", "It is seat 1's turn to move a character up", seat=2)
    refuse(electing, Vote(True), "B11", "It is seat 0's turn to vote", seat=1)
    # The right seat may act.
    assert floor_of(apply(placing, Place("E", 2), seat=1), "E") == 2


@pytest.mark.parametrize("seat", [True, False, 1.0, "1", b"1", [1], 7, 3, -1])
def test_the_seat_argument_must_be_a_seat(seat: object, placing: State) -> None:
    """apply(seat=...) takes a whole number in 0..n-1, checked before the turn (B6, B8, B11).

    ``True == 1`` and ``1.0 == 1`` are not seats, even when seat 1 is to act.
    """
    s = placing
    assert s.turn == 1
    text = to_text(s)
    with pytest.raises(ArgumentError, match=re.escape("seat must be a whole number in 0..2")):
        apply(s, Place("E", 2), seat=seat)  # type: ignore[arg-type]
    assert to_text(s) == text
    # Checked before the end of the game too (B3).
    with pytest.raises(ArgumentError, match=re.escape("0..2")):
        apply(over(), Vote(True), seat=seat)  # type: ignore[arg-type]


def test_the_seat_none_claims_nothing(placing: State) -> None:
    assert apply(placing, Place("E", 2), seat=None) == apply(placing, Place("E", 2))


def test_b3_acting_after_the_end_is_refused() -> None:
    """B3: after the third scoring no move can be played."""
    refuse(over(), Climb("A"), "B3", "The game is over")
    refuse(over(), Vote(True), "B3", "The game is over", seat=0)


def test_moves_outside_their_phase(
    play: Play, filled: State, electing: State, placing: State
) -> None:
    """B6, B8, B10, B11, B13: a move of the wrong phase cites the phase's clause."""
    refuse(placing, Climb("A"), "B6", "seat 1 must place a character")
    refuse(placing, Pass(), "B6", "must place a character")
    refuse(filled, Place("A", 2), "B8", "Every character is placed")
    refuse(electing, Climb("I"), "B11", "An election is under way")
    refuse(electing, Place("A", 2), "B11", "must vote Yes or No")
    refuse(filled, Vote(True), "B10", "There is no election to vote in")
    out = play(electing, "no yes yes")
    refuse(out, Climb("M"), "B13", "Character M was eliminated this round")
    refuse(filled, Climb("Q"), "B8", "There is no character 'Q'")


def test_a_non_move_is_an_argument_error(placing: State) -> None:
    with pytest.raises(ValueError, match="Place, Climb, Vote or Pass"):
        apply(new_game(3), "A1")  # type: ignore[arg-type]
    # Also out of turn (B6) and after the end (B3): the argument is at fault first.
    with pytest.raises(ArgumentError, match="Place, Climb, Vote or Pass"):
        apply(placing, "E2", seat=0)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="Place, Climb, Vote or Pass"):
        apply(over(), "yes")  # type: ignore[arg-type]


def full_floor(floor: int) -> State:
    """Round 1, movement, seat 1 to move: floor ``floor`` holds 4, the floor below 4 more."""
    layout = [floor] * 4 + [floor - 1] * 4
    others = [f for f in range(1, 7) if f not in (floor, floor - 1)]
    layout += [others[0]] * 4 + [others[1]]
    castle = "/".join(
        "".join(ch for ch, f in zip("ABCDEFGHIJKLM", layout, strict=True) if f == g) or "-"
        for g in range(1, 8)
    )
    deal = ",".join(["ABCDEF", "GHIJKL", "ACEGIK"])
    return from_text(f"throne SEED 3 1 movement 1 {castle} - 4/4/4 - 0 {deal}/{deal}/{deal} - -")


@pytest.mark.parametrize("floor", [2, 3, 4, 5, 6])
def test_b8_the_climb_refusal_names_the_full_floor(floor: int) -> None:
    """B8: every floor's refusal reads "floor 2 (craftsmen) already holds 4 characters"."""
    s = full_floor(floor)
    below = "E"  # E-H stand on the floor below
    name = FLOOR_NAMES[floor]
    refuse(
        s,
        Climb(below),
        "B8",
        f"Character {below} cannot climb from floor {floor - 1} to floor {floor}: "
        f"floor {floor} ({name}) already holds 4 characters, and a character climbs only "
        "into a floor holding fewer than 4 (B8)",
    )


def test_b7_b8_refusals_with_a_capacity_of_one(play: Play) -> None:
    """B7, B8: one character per floor: "holds 1 character", "an empty floor"."""
    rules = Rules(characters=5, floor_capacity=1, objective_size=1)
    s = new_game(3, rules=rules, objectives=[["A", "B", "C"]] * 3)
    s = play(s, "A1")
    refuse(
        s,
        Place("B", 1),
        "B7",
        "Character B cannot be placed on floor 1: it already holds 1 character, the most a "
        "floor may hold (B7)",
    )
    s = play(s, "B2 C3 D4 E5")
    refuse(
        s,
        Climb("A"),
        "B8",
        "Character A cannot climb from floor 1 to floor 2: floor 2 (craftsmen) already holds "
        "1 character, and a character climbs only into an empty floor (B8)",
    )


def test_bad_player_counts_name_the_allowed_range() -> None:
    for players in (2, 7, 0, -1, "4", 4.0, True, None):
        with pytest.raises(ValueError, match=re.escape("3..6")) as info:
            new_game(players)  # type: ignore[arg-type]
        assert isinstance(info.value, ArgumentError)
        assert isinstance(info.value, RulesError)


@pytest.mark.parametrize(
    ("objectives", "words"),
    [
        ([["ABCDE", "GHIJKL", "ACEGIK"]] * 3, "6 distinct letters from A-M"),
        ([["ABCDEA", "GHIJKL", "ACEGIK"]] * 3, "6 distinct letters"),
        ([["ABCDEZ", "GHIJKL", "ACEGIK"]] * 3, "A-M"),
        ([["abcdef", "GHIJKL", "ACEGIK"]] * 3, "A-M"),
        ([["ABCDEF", "GHIJKL"]] * 3, "3 strings"),
        ([["ABCDEF", "GHIJKL", "ACEGIK"]] * 2, "3 rounds"),
        ([["ABCDEF", "FEDCBA", "ACEGIK"]] * 3, "must differ"),
        ("ABCDEF", "3 rounds"),
        ([["ABCDEF", "GHIJKL", 7]] * 3, "strings"),
        ([None, None, None], "strings"),
    ],
)
def test_bad_objectives_name_the_allowed_values(objectives: object, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        new_game(3, objectives=objectives)  # type: ignore[arg-type]


def test_objectives_letters_in_any_order_are_stored_alphabetically(
    objectives_3p: list[list[str]],
) -> None:
    s = new_game(3, objectives=[["FEDCBA", "LKJIHG", "KIGECA"]] * 3)
    assert objective(s, 0) == frozenset("ABCDEF")
    assert s == new_game(3, objectives=objectives_3p)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 4}, "unknown option 'players'"),
        ({"floor_capacity": 0}, "floor_capacity must be a whole number in 1..26"),
        ({"floor_capacity": True}, "floor_capacity"),
        ({"floors": 8}, "floors must be 7"),
        ({"points": (1, 2)}, "points must be 7 whole numbers"),
        ({"no_cards": (1, 2, 3)}, "no_cards must be 4 whole numbers"),
        ({"no_cards": (1, 2, 3, -1)}, "no_cards must be 4 whole numbers"),
        ({"allow_pass": "yes"}, "allow_pass must be True or False"),
        ({"placement_floors": (3, 2)}, "increasing floor numbers in 1..6"),
        ({"placement_floors": (7,)}, "increasing floor numbers in 1..6"),
        ({"placement_floors": ()}, "at least one"),
        ({"objective_deck": ["ABCDE"]}, "cards of 6 distinct letters from A-M"),
        ({"objective_deck": ["ABCDEF", "FEDCBA"]}, "distinct cards"),
        ({"objective_deck": []}, "non-empty"),
        ({"objective_size": 14}, "at most characters"),
        ({"bonus_rounds": (4,)}, "rounds in 1..3"),
        ({"rounds": 0}, "rounds must be a whole number in 1..99"),
        ({"equal_placement": True}, "leave out floor 1"),
        ({"characters": 27}, "1..26"),
    ],
)
def test_bad_options_name_the_allowed_values(options: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)) as info:
        Rules(**options)
    assert isinstance(info.value, ArgumentError)


def test_rules_that_cannot_host_the_players_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot be played by 3"):
        new_game(3, rules=Rules(floor_capacity=2))  # 13 characters, room for 10
    with pytest.raises(ValueError, match="cannot be played by 3"):
        original = dict(Rules.PRESETS["ORIGINAL"])
        new_game(3, rules=Rules(**original, placements_per_player=(5, 3, 2, 2)))
    with pytest.raises(ValueError, match="leftover"):
        new_game(
            5,
            rules=Rules(
                placement_floors=(2, 3, 4, 5),
                equal_placement=True,
                placements_per_player=(4, 3, 1, 2),
            ),
        )
    with pytest.raises(ValueError, match="at least 4 cards"):
        new_game(4, rules=Rules(objective_deck=("ABCDEF", "GHIJKL", "ACEGIK")))


def test_other_bad_arguments() -> None:
    with pytest.raises(ValueError, match="presets are: SEED, ORIGINAL"):
        Rules.preset("CLASSIC")
    for name in (["SEED"], None, 0, b"SEED"):
        with pytest.raises(ArgumentError, match="presets are: SEED, ORIGINAL"):
            Rules.preset(name)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="by name"):
        Rules(7)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=re.escape("castlerules.throne.Rules")):
        new_game(3, rules="SEED")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be a whole number"):
        new_game(3, seed="7")  # type: ignore[arg-type]
    s = new_game(3)
    with pytest.raises(ValueError, match="A-M"):
        floor_of(s, "Z")
    with pytest.raises(ValueError, match=re.escape("0..2")):
        no_cards(s, 3)
    with pytest.raises(ValueError, match=re.escape("0..2")):
        observation(s, -1)
    with pytest.raises(ValueError, match=">= 0"):
        perft(s, -1)
    with pytest.raises(ValueError, match="capital letter"):
        Place(3, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number"):
        Place("A", "3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="yes=True"):
        Vote("yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="capital letter"):
        Climb(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("number", [True, False, 1.0, "1", 0, 4])
def test_a_round_number_must_be_a_round(number: object) -> None:
    """king(state, round) and objectives_of_round(state, round): a whole number in 1..3."""
    done = over()
    with pytest.raises(ArgumentError, match=re.escape("round must be in 1..3")):
        king(done, number)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=re.escape("round must be in 1..3")):
        objectives_of_round(done, number)  # type: ignore[arg-type]
    assert king(done, 1) == "A" and len(objectives_of_round(done, 1)) == 3
