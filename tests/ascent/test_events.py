"""describe(before, move, after): what each move did, each event citing its clause."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from castlerules import ascent
from castlerules.ascent import Advance, Card, Rank
from castlerules.core import ArgumentError, Event, IllegalMove

Builder = Callable[..., ascent.State]


def events(state: ascent.State, text: str) -> tuple[list[Event], ascent.State]:
    move = ascent.parse_move(state, text)
    after = ascent.apply(state, move)
    return list(ascent.describe(state, move, after)), after


def clauses(evs: list[Event]) -> list[str]:
    return [e.clause for e in evs]


def test_a3_an_advance_and_its_jump(position: Builder) -> None:
    s = position({(0, 1): "F0", (0, 2): "T0"}, turn="0")
    evs, _ = events(s, "L0")
    assert evs[0] == Event(
        "A3", "Seat 0 advances the Lady of set 0 (L0) from the Start to square 3."
    )
    assert Event("A3", "It jumps over the occupied squares 1 and 2.") in evs
    assert evs[-1] == Event("A3", "Seat 1's turn.")


def test_a3_a_split_names_the_card_left_behind(position: Builder) -> None:
    s = position({(0, 1): "L0T1F1"}, turn="0")
    evs, _ = events(s, "T1")
    assert evs[0].text.endswith("with the 1 card above it from square 1 to square 2.")
    assert Event("A3", "The Fire-eater of set 1 (F1) stays on square 1.") in evs


def test_a7_and_a8_protection_and_flip(position: Builder) -> None:
    s = position({(0, 3): "L0F1", (0, 4): "*C0"}, turn="0")
    evs, _ = events(s, "F1")
    assert clauses(evs) == ["A3", "A9", "A7", "A8", "A3"]  # the jump over the flipped C0: A9
    assert "protected by the Lady of set 0 (L0)" in evs[2].text
    assert "the 2 cards are flipped" in evs[3].text


def test_a9_landing_on_flipped_cards(position: Builder) -> None:
    s = position({(0, 5): "*L0", (0, 4): "L1"}, turn="0")
    evs, _ = events(s, "L1")
    assert "A9" in clauses(evs)


def test_a10_to_a13_favour_removal_and_replay(position: Builder) -> None:
    s = position({(0, 3): "L0", (1, 4): "C1F1"}, turn="0")
    evs, mid = events(s, "L0")
    assert evs[-1] == Event(
        "A10",
        "A favour is available on row 4: take xC1, xF1 under the moved stack, or end the turn.",
    )
    evs, after = events(mid, "xC1")
    assert clauses(evs) == ["A10", "A13", "A12"]
    assert "the 1 card of the remainder leaves the board and counts against seat 1" in evs[1].text
    evs, _ = events(after, "end")
    assert clauses(evs) == ["A12", "A3"]


def test_a13_an_exposed_remainder_that_stays(position: Builder) -> None:
    s = position({(0, 1): "F0", (0, 2): "T0", (1, 3): "T1F1"}, turn="0")
    _, mid = events(s, "L0")
    evs, _ = events(mid, "xT1")
    assert "where no removal applies: it stays" in evs[1].text


def test_a13_a_removal_in_the_lower_half_names_its_square(position: Builder) -> None:
    """A13, option removal_in_lower_half: a removal on square 3 is not "in the upper half"."""
    s = position(
        {(0, 1): "F0", (0, 2): "T0", (1, 3): "T1F1"},
        turn="0",
        options="removal_in_lower_half=true",
    )
    _, mid = events(s, "L0")
    evs, _ = events(mid, "xT1")
    assert evs[1] == Event(
        "A13",
        "In the lower half (removal_in_lower_half), the Fire-eater of set 1 (F1) is left "
        "exposed above its arrival square 2 on square 3: the 1 card of the remainder leaves "
        "the board and counts against seat 1.",
    )
    assert "upper half" not in evs[1].text


def test_a13_a_removal_of_several_cards_agrees_in_number(position: Builder) -> None:
    """A13: two removed cards "leave" and "count"; the square is in the upper half."""
    s = position({(0, 4): "P0", (1, 5): "B1F1L1"}, turn="0")
    _, mid = events(s, "P0")
    evs, _ = events(mid, "xB1")
    assert evs[1] == Event(
        "A13",
        "In the upper half, the Fire-eater of set 1 (F1) is left exposed above its arrival "
        "square 2 on square 5: the 2 cards of the remainder leave the board and count "
        "against seat 1.",
    )


def test_a8_taken_cards_flip_with_the_taker(position: Builder) -> None:
    s = position({(0, 2): "T0", (1, 3): "F1"}, turn="0")
    _, mid = events(s, "T0")
    evs, _ = events(mid, "xF1")
    assert "A8" in clauses(evs)


def test_a10_declining_a_favour(position: Builder) -> None:
    s = position({(1, 1): "T1"}, turn="0")
    _, mid = events(s, "L0")
    evs, _ = events(mid, "end")
    assert evs[0] == Event("A10", "Seat 0 ends the turn, declining the favour.")


def test_a14_skips_and_the_end_of_the_game(position: Builder) -> None:
    stuck = {
        (1, 3): "F1",
        (1, 4): "*C1T1",
        (1, 5): "*L1",
        (1, 6): "*B1",
        (1, 7): "*P1",
    }
    s = position(stuck, players=3, turn="0")
    evs, _ = events(s, "P0")
    assert evs[-2:] == [
        Event("A14", "Seat 1 has no legal Advance and is skipped."),
        Event("A3", "Seat 2's turn."),
    ]
    arrival = {"P": 7, "B": 6, "L": 5, "C": 4, "T": 3}
    cells = {(0, a): f"*{x}0" for x, a in arrival.items()}
    s = position({**cells, (0, 1): "F0"}, turn="0")
    evs, _ = events(s, "F0")
    assert evs[-2] == Event(
        "A14",
        "The game is over: at most one player still has a card that has not reached its "
        "arrival square.",
    )
    assert evs[-1] == Event("A17", "Scores: seat 0 +21, seat 1 -21; seat 0 wins.")
    s = position({**cells, (0, 1): "F0"}, turn="0", options="end_test=unflipped")
    evs, _ = events(s, "F0")
    assert evs[-2] == Event(
        "A14", "The game is over: at most one player still has a card that is not flipped."
    )


def test_describe_checks_its_arguments() -> None:
    s = ascent.new_game(2, first_player=0)
    move = Advance(Card(0, Rank.LADY))
    with pytest.raises(ArgumentError):
        ascent.describe(s, move, s)
    with pytest.raises(IllegalMove):
        ascent.describe(s, Advance(Card(1, Rank.LADY)), s)


def test_a9_a_jump_over_flipped_cards_cites_a9(position: Builder) -> None:
    """A9, not A3, makes a flipped arrival square of a lower rank occupied: L0 on 3 jumps
    over the flipped Charlatan on 4 to 5; a plain occupied square stays A3."""
    s = position({(0, 3): "L0", (0, 4): "*C0"}, turn="0")
    evs, _ = events(s, "L0")
    assert (
        Event(
            "A9",
            "It jumps over square 4: the Charlatan's arrival square, holding flipped cards, "
            "counts as occupied for the Lady, a higher rank.",
        )
        in evs
    )
    assert not any(e.clause == "A3" and "jumps" in e.text for e in evs)
    s = position({(0, 2): "L0", (0, 3): "T1", (0, 4): "*C0"}, turn="0")
    evs, _ = events(s, "L0")
    assert Event("A3", "It jumps over the occupied square 3.") in evs
    assert any(e.clause == "A9" and "jumps over square 4" in e.text for e in evs)
