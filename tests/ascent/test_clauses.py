"""One or more tests per seed clause A1..A18, each on a position that exercises it.

Positions are written in Ascent notation through the ``position`` fixture
(see ``conftest.py``): cells map ``(column, square)`` to a stack, top first,
``*`` marking a flipped stack; every other card stays on its own Start.
Default arrival squares: Fire-eater 2, Troubadour 3, Charlatan 4, Lady 5,
Bishop 6, Prince 7; the upper half is squares 4-7.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from castlerules import ascent
from castlerules.ascent import Card, Rank, Rules
from castlerules.ascent.rules import Tables
from castlerules.ascent.transitions import advances_of, ceiling_violations, game_over_test
from castlerules.core.errors import IllegalMove, NotationError

Builder = Callable[..., ascent.State]
CardOf = Callable[[str], Card]
Play = Callable[..., ascent.State]


def names(state: ascent.State) -> list[str]:
    return [str(m) for m in ascent.legal_moves(state)]


def stack(state: ascent.State, column: int, square: int) -> str:
    return "".join(str(c) for c in ascent.stack_at(state, column, square))


# --------------------------------------------------------------------------- A1


def test_a1_every_card_starts_on_its_owners_start() -> None:
    """A1: cards travel from their Start; at setup each set lies on its owner's Start."""
    s = ascent.new_game(4, seed=1)
    for q in range(4):
        assert ascent.stack_at(s, q, 0) == tuple(Card(q, r) for r in Rank)
        for square in range(1, 8):
            assert ascent.stack_at(s, q, square) == ()


def test_a1_arrival_square_is_value_plus_one() -> None:
    """A1/A6 (rule 4): the arrival square of each rank is its value + 1."""
    rules = Rules()
    assert {r: ascent.arrival(rules, r) for r in Rank} == {r: r.value + 1 for r in Rank}


# --------------------------------------------------------------------------- A2


def test_a2_a_player_advances_only_the_cards_of_their_column() -> None:
    """A2: at setup the Advances of the seat to act are exactly its six cards."""
    s = ascent.new_game(3, first_player=1)
    moves = ascent.legal_moves(s)
    assert {m.card for m in moves if isinstance(m, ascent.Advance)} == {Card(1, r) for r in Rank}


def test_a2_a_taken_card_in_your_column_is_yours_to_move(position: Builder, play: Play) -> None:
    """A2: a card of another set standing in your column moves with your stacks."""
    s = position({(0, 1): "L0T1"}, turn="0")
    assert "T1" in names(s)
    after = play(s, "T1")
    assert stack(after, 0, 2) == "L0T1"


# --------------------------------------------------------------------------- A3


def test_a3_a_card_moves_to_the_next_free_square(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A3: the next higher square, when it is free."""
    s = ascent.new_game(2, first_player=0)
    after = play(s, "F0")
    assert ascent.where(after, card("F0")) == (0, 1)


def test_a3_a_card_jumps_over_occupied_squares(position: Builder, card: CardOf, play: Play) -> None:
    """A3: occupied squares are jumped, straight to the next free one."""
    s = position({(0, 1): "F0", (0, 2): "T0"}, turn="0")
    after = play(s, "L0")
    assert ascent.where(after, card("L0")) == (0, 3)


def test_a3_a_flipped_square_of_another_rank_is_jumped(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A3/A9: a flipped arrival square of another rank counts as occupied."""
    s = position({(0, 1): "T0", (0, 2): "*F0"}, turn="0")
    after = play(s, "C0")
    assert ascent.where(after, card("C0")) == (0, 3)


def test_a3_a_split_moves_the_card_and_everything_above_it(position: Builder, play: Play) -> None:
    """A3: only part of a stack: the chosen card with the cards above it."""
    s = position({(0, 1): "L0T1F1"}, turn="0")
    after = play(s, "T1")
    assert stack(after, 0, 2) == "L0T1"
    assert stack(after, 0, 1) == "F1"


def test_a3_the_bottom_card_moves_the_whole_stack(position: Builder, play: Play) -> None:
    """A3: a whole stack moves when its bottom card is chosen."""
    s = position({(0, 1): "L0T1F1"}, turn="0")
    after = play(s, "F1")
    assert stack(after, 0, 2) == "L0T1F1"
    assert stack(after, 0, 1) == ""


# --------------------------------------------------------------------------- A4


def test_a4_every_advance_goes_up() -> None:
    """A4: in whole random games, an advanced card always ends on a higher square."""
    from castlerules.core import Rng

    rng = Rng.from_seed(4, "a4")
    for game in range(10):
        s = ascent.new_game(4, seed=game)
        while not ascent.is_over(s):
            move, rng = rng.choice(ascent.legal_moves(s))
            after = ascent.apply(s, move)
            if isinstance(move, ascent.Advance):
                before_at = ascent.where(s, move.card)
                after_at = ascent.where(after, move.card)
                assert before_at is not None and after_at is not None
                assert after_at[0] == before_at[0]
                assert after_at[1] > before_at[1]
            s = after


# --------------------------------------------------------------------------- A5


def test_a5_the_path_has_seven_squares(position: Builder, card: CardOf, play: Play) -> None:
    """A5: seven squares above the Start; the Prince arrives on the seventh."""
    assert Rules().squares == 7
    s = position({(0, 6): "P0"}, turn="0")
    after = play(s, "P0")
    assert ascent.where(after, card("P0")) == (0, 7)
    assert ascent.is_flipped(after, card("P0"))


def test_a5_a_longer_path_is_an_option() -> None:
    """A5: the squares option lengthens the path (arrival squares must fit on it)."""
    s = ascent.new_game(2, Rules(squares=9, arrival=(2, 3, 4, 5, 6, 9)), first_player=0)
    assert ascent.stack_at(s, 0, 9) == ()


# --------------------------------------------------------------------------- A6


def test_a6_a_leader_cannot_go_above_its_arrival_square(position: Builder) -> None:
    """A6: the Lady on 4 with square 5 occupied would land on 6: she has no move."""
    s = position({(0, 4): "L0", (0, 5): "B1"}, turn="0")
    assert "L0" not in names(s)


def test_a6_a_card_stops_at_its_arrival_square(position: Builder, card: CardOf, play: Play) -> None:
    """A6: the Fire-eater reaches square 2 and can go no further."""
    s = position({(0, 1): "F0"}, turn="0")
    after = play(s, "F0")
    assert ascent.where(after, card("F0")) == (0, 2)


# --------------------------------------------------------------------------- A7


def test_a7_a_protected_card_goes_above_its_arrival_square(position: Builder, play: Play) -> None:
    """A7: under a Lady, a Fire-eater goes to square 4, above its arrival square 2."""
    s = position({(0, 3): "L0F1"}, turn="0")
    after = play(s, "F1")
    assert stack(after, 0, 4) == "L0F1"
    assert ceiling_violations(after) == ()


def test_a7_a_split_may_not_expose_a_card_above_its_ceiling(position: Builder) -> None:
    """A7 (rule 11): moving the Lady alone would leave the Fire-eater alone on 4."""
    s = position({(0, 4): "L0F1"}, turn="0")
    assert "L0" not in names(s)
    assert "F1" in names(s)


def test_a7_a_split_leaving_a_card_within_its_ceiling_is_legal(
    position: Builder, play: Play
) -> None:
    """A7: the Troubadour left on square 2 is within its ceiling 3."""
    s = position({(0, 2): "L0T1"}, turn="0")
    after = play(s, "L0")
    assert stack(after, 0, 3) == "L0"
    assert stack(after, 0, 2) == "T1"


def test_a7_allow_exposing_split_leaves_the_remainder_in_place(
    position: Builder, play: Play
) -> None:
    """A7, option allow_exposing_split: the exposed Fire-eater stays on 4."""
    s = position({(0, 4): "L0F1"}, turn="0", options="allow_exposing_split=true")
    after = play(s, "L0")
    assert stack(after, 0, 5) == "L0"
    assert stack(after, 0, 4) == "F1"
    assert ascent.removed(after, 0) == ()


def test_a7_without_protection_every_card_keeps_its_own_ceiling(position: Builder) -> None:
    """A7, option protection=False (the wrong, strict reading): the Fire-eater under the
    Lady may not go to square 4."""
    s = position({(0, 3): "L0F1"}, turn="0", options="protection=false")
    assert "F1" not in names(s)
    assert "L0" not in names(s)  # the split would expose F1 on 3 (A7)
    assert position({(0, 3): "L0F1"}, turn="0").moves != s.moves


# --------------------------------------------------------------------------- A8


def test_a8_arriving_flips_the_whole_moving_part(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A8 (rule 12): the Lady and the Fire-eater under her reach square 5: both flip."""
    s = position({(0, 3): "L0F1", (0, 4): "*C0"}, turn="0")
    after = play(s, "F1")
    assert stack(after, 0, 5) == "L0F1"
    assert ascent.is_flipped(after, card("L0"))
    assert ascent.is_flipped(after, card("F1"))


def test_a8_flipped_cards_never_move(position: Builder) -> None:
    """A8: a flipped stack offers no Advance."""
    s = position({(0, 5): "*L0F1"}, turn="0")
    assert "L0" not in names(s)
    assert "F1" not in names(s)


# --------------------------------------------------------------------------- A9


def test_a9_a_flipped_arrival_square_is_free_for_the_same_rank(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A9: a Lady lands on the flipped Lady of square 5, on top, and flips."""
    s = position({(0, 5): "*L0", (0, 4): "L1"}, turn="0")
    after = play(s, "L1")
    assert stack(after, 0, 5) == "L1L0"
    assert ascent.is_flipped(after, card("L1"))


def test_a9_a_flipped_arrival_square_is_occupied_for_a_higher_rank(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A9: a Bishop jumps the Lady's flipped square 5 and lands on 6."""
    s = position({(0, 5): "*L0", (0, 4): "B0"}, turn="0")
    after = play(s, "B0")
    assert ascent.where(after, card("B0")) == (0, 6)


def test_a9_an_unflipped_stack_on_an_arrival_square_occupies_it(position: Builder) -> None:
    """A9/A3: only flipped cards free an arrival square: a Prince on 5 blocks the Lady."""
    s = position({(0, 5): "P0", (0, 4): "L0"}, turn="0")
    assert "L0" not in names(s)


def test_a9_a_card_left_on_its_arrival_square_stays_unflipped(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A8/A9 (Note 'a card left on its own arrival square'): the Bishop leaves L1 alone on
    her arrival square 5; L1 is not flipped, cannot advance, blocks square 5 for the
    Ladies of column 0 (A9 frees only flipped cards) and scores +4."""
    s = position({(0, 5): "B0L1", (0, 4): "L0"}, players=3, turn="0")
    after = play(s, "B0")
    assert stack(after, 0, 6) == "B0"
    assert ascent.is_flipped(after, card("B0"))
    assert stack(after, 0, 5) == "L1"
    assert not ascent.is_flipped(after, card("L1"))
    assert {str(m) for m in advances_of(after, 0)} == {"P0", "C0", "T0", "F0"}  # no Lady
    # B0 now scores +5 instead of -5; L1, on her arrival square, scores +4 before and after
    assert ascent.scores(after)[0] == ascent.scores(s)[0] + 10


def test_a14_an_uncovered_card_on_its_arrival_square_is_unflipped(
    position: Builder, play: Play
) -> None:
    """A14/A10 (Note 'a card left on its own arrival square'): seat 0's last unflipped
    card is L1, stuck on 5. It has reached its arrival square: under the reference
    end test (end_test='unreached', rule 18) seat 0 is out of the race and the game is
    over; under end_test='unflipped' seat 0 still counts, so the game goes on (seat 0
    skipped). Either way L1 may be taken as a favour."""
    cells = {**_all_flipped_but(0, "L"), (0, 5): "L1", (1, 1): "L0"}
    with pytest.raises(NotationError, match=r"the game is over \(A14\)"):
        position(cells, turn="1")
    assert ascent.is_over(position(cells, turn="-"))
    s = position(cells, turn="1", options="end_test=unflipped")
    after = play(s, "P1")
    assert not ascent.is_over(after)
    assert ascent.current_player(after) == 1
    taker = play(position({(0, 5): "L1", (1, 4): "B1"}, turn="1"), "B1")
    assert names(taker) == ["xL1", "end"]


# --------------------------------------------------------------------------- A10


def test_a10_a_favour_takes_a_lower_card_under_the_moved_stack(
    position: Builder, play: Play
) -> None:
    """A10: the Lady arrives on row 1 next to a Troubadour and takes it under her."""
    s = position({(1, 1): "T1"}, turn="0")
    mid = play(s, "L0")
    assert names(mid) == ["xT1", "end"]
    assert ascent.pending_favour(mid)
    after = play(mid, "xT1")
    assert stack(after, 0, 1) == "L0T1"
    assert stack(after, 1, 1) == ""


def test_a10_a_favour_may_take_the_top_part_of_a_stack(position: Builder, play: Play) -> None:
    """A10 (rule 13): choosing the top card takes it alone; the rest stays."""
    s = position({(1, 1): "C1F1"}, turn="0")
    after = play(s, "L0", "xC1")
    assert stack(after, 0, 1) == "L0C1"
    assert stack(after, 1, 1) == "F1"


def test_a10_taking_a_card_takes_every_card_above_it(position: Builder, play: Play) -> None:
    """A10 (rule 13): choosing the bottom card takes the whole stack, in its order."""
    s = position({(1, 1): "C1F1"}, turn="0")
    after = play(s, "L0", "xF1")
    assert stack(after, 0, 1) == "L0C1F1"
    assert stack(after, 1, 1) == ""


def test_a10_taken_cards_go_under_the_moved_part_only(position: Builder, play: Play) -> None:
    """A10: under the moved stack: a split leaves its remainder where it was."""
    s = position({(0, 1): "L0T0", (1, 2): "F1"}, turn="0")
    after = play(s, "L0", "xF1")
    assert stack(after, 0, 2) == "L0F1"
    assert stack(after, 0, 1) == "T0"


def test_a10_an_equal_rank_cannot_be_taken(position: Builder, play: Play) -> None:
    """A10: only a lower rank: a Lady next to a Lady takes nothing, the turn passes."""
    s = position({(1, 1): "L1"}, turn="0")
    after = play(s, "L0")
    assert ascent.current_player(after) == 1
    assert not ascent.pending_favour(after)


def test_a10_taken_cards_flip_with_a_stack_that_just_arrived(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A10 (rule 14): the Troubadour flips on 3 and the Fire-eater it takes flips too."""
    s = position({(0, 2): "T0", (1, 3): "F1"}, turn="0")
    after = play(s, "T0", "xF1")
    assert stack(after, 0, 3) == "T0F1"
    assert ascent.is_flipped(after, card("F1"))


def test_a10_taken_cards_go_above_older_flipped_cards(position: Builder, play: Play) -> None:
    """A10: landing on flipped cards (A9) then taking: the taken part goes right under
    the moved part, above the cards that were already there."""
    s = position({(0, 2): "T0", (0, 3): "*T1", (1, 3): "F1"}, turn="0")
    after = play(s, "T0", "xF1")
    assert stack(after, 0, 3) == "T0F1T1"


def test_a10_favour_after_arrival_can_be_switched_off(position: Builder, play: Play) -> None:
    """A10, option favour_after_arrival=False: a stack that just flipped takes nothing."""
    s = position({(0, 2): "T0", (1, 3): "F1"}, turn="0", options="favour_after_arrival=false")
    after = play(s, "T0")
    assert ascent.current_player(after) == 1


def test_a10_unlimited_favours_take_every_target_of_the_row(position: Builder, play: Play) -> None:
    """A10, option favours_per_move=None: the Lady takes both lower cards of row 1; each
    take goes under the previous one."""
    s = position({(1, 1): "T1", (2, 1): "F2"}, players=3, turn="0", options="favours_per_move=none")
    mid = play(s, "L0", "xT1")
    assert "xF2" in names(mid)
    after = play(mid, "xF2")
    assert stack(after, 0, 1) == "L0T1F2"


def test_a10_one_favour_per_advance_by_default(position: Builder, play: Play) -> None:
    """A10 (rule 13): by default a second favour is not offered."""
    s = position({(1, 1): "T1", (2, 1): "F2"}, players=3, turn="0")
    mid = play(s, "L0", "xT1")
    assert "xF2" not in names(mid)


def test_a10_start_cards_are_never_favour_targets(position: Builder, play: Play) -> None:
    """A10 (Note 'the Start row'): the Prince reaches row 1 next to T1; the lower cards
    waiting on seat 1's Start (C1, F1...) are not offered, only T1 is."""
    s = position({(1, 1): "T1"}, turn="0")
    mid = play(s, "P0")
    assert ascent.stack_at(mid, 1, 0)  # lower-ranked cards wait on the Start
    assert names(mid) == ["xT1", "end"]


def test_a10_no_reachable_favour_step_offers_a_start_card() -> None:
    """A10 (Note 'the Start row'): in whole random games under every preset, no favour
    step offers a card on a Start, although lower-ranked cards often wait there."""
    from castlerules.core import Rng

    rng = Rng.from_seed(10, "a10.start")
    tempting = 0
    for game in range(30):
        preset = sorted(Rules.PRESETS)[game % len(Rules.PRESETS)]
        s = ascent.new_game(2 + game % 5, Rules.preset(preset), seed=game)
        while not ascent.is_over(s):
            if ascent.pending_favour(s):
                actor = ascent.current_player(s)
                assert actor is not None and s.step is not None
                leader = ascent.stack_at(s, actor, s.step[0])[0]
                for q in range(s.players):
                    lower = [c for c in ascent.stack_at(s, q, 0) if c.value < leader.value]
                    tempting += q != actor and bool(lower)
                for move in ascent.legal_moves(s):
                    if isinstance(move, ascent.Favour):
                        at = ascent.where(s, move.card)
                        assert at is not None and at[1] != 0, move
            move, rng = rng.choice(ascent.legal_moves(s))
            s = ascent.apply(s, move)
    assert tempting > 0


# --------------------------------------------------------------------------- A11


def test_a11_only_the_stack_just_moved_takes(position: Builder, play: Play) -> None:
    """A11: the targets are on the row of the stack just moved, not of the player's
    other stacks."""
    s = position({(0, 2): "L0", (1, 2): "T1", (1, 1): "F1"}, turn="0")
    mid = play(s, "B0")
    assert names(mid) == ["xF1", "end"]


def test_a11_a_replay_brings_its_own_favour(position: Builder, play: Play) -> None:
    """A11/A12: after a favour, the replayed stack does the next favour."""
    s = position({(0, 1): "L0", (1, 2): "T1", (1, 3): "F1"}, turn="0")
    after = play(s, "L0", "xT1", "T1")
    assert stack(after, 0, 3) == "L0T1"
    assert names(after) == ["xF1", "end"]


# --------------------------------------------------------------------------- A12


def test_a12_after_a_favour_the_player_may_play_again(position: Builder, play: Play) -> None:
    """A12: after the favour the legal moves are the Advances and EndTurn."""
    s = position({(1, 1): "T1"}, turn="0")
    after = play(s, "L0", "xT1")
    assert ascent.current_player(after) == 0
    moves = names(after)
    assert moves[-1] == "end"
    assert {"P0", "T1", "F0"} <= set(moves)


def test_a12_end_turn_declines_the_replay(position: Builder, play: Play) -> None:
    """A12: EndTurn after a favour passes the turn."""
    s = position({(1, 1): "T1"}, turn="0")
    after = play(s, "L0", "xT1", "end")
    assert ascent.current_player(after) == 1
    assert not ascent.pending_favour(after)


def test_a12_end_turn_declines_the_favour(position: Builder, play: Play) -> None:
    """A12/A10: EndTurn in the favour step declines it; nothing is taken."""
    s = position({(1, 1): "T1"}, turn="0")
    after = play(s, "L0", "end")
    assert ascent.current_player(after) == 1
    assert stack(after, 1, 1) == "T1"


def test_a12_the_turn_ends_by_itself_when_nothing_is_left(position: Builder, play: Play) -> None:
    """A12 (Note 'ending the turn'): after a favour with no Advance and no further
    favour left, the turn passes without an EndTurn."""
    cells = {
        (0, 7): "*P0",
        (0, 6): "*B0",
        (0, 5): "*L0",
        (0, 4): "*C0",
        (0, 2): "*F0",
        (0, 1): "T0",
        (1, 3): "F1",
    }
    s = position(cells, players=3, turn="0")
    after = play(s, "T0", "xF1")
    assert ascent.current_player(after) == 1
    assert not ascent.pending_favour(after)


# --------------------------------------------------------------------------- A13


def test_a13_an_exposed_remainder_in_the_upper_half_is_removed(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A13: the Lady takes the Charlatan off C1F1 on square 4; the Fire-eater, left alone
    above its ceiling 2 in the upper half, leaves the board against seat 1."""
    s = position({(0, 3): "L0", (1, 4): "C1F1"}, turn="0")
    after = play(s, "L0", "xC1")
    assert stack(after, 0, 4) == "L0C1"
    assert stack(after, 1, 4) == ""
    assert ascent.removed(after, 1) == (card("F1"),)
    assert ascent.where(after, card("F1")) is None
    # Column 1 loses C1 (+3 on its arrival square) and F1 (+1, protected), and F1 now
    # counts -1 as a removed card.
    assert ascent.scores(after)[1] == ascent.scores(s)[1] - 3 - 1 - 1


def test_a13_taking_the_whole_stack_removes_nothing(position: Builder, play: Play) -> None:
    """A13: only a partial take exposes a remainder."""
    s = position({(0, 3): "L0", (1, 4): "C1F1"}, turn="0")
    after = play(s, "L0", "xF1")
    assert stack(after, 0, 4) == "L0C1F1"
    assert ascent.removed(after, 1) == ()


def test_a13_a_remainder_within_its_ceiling_stays(position: Builder, play: Play) -> None:
    """A13: in the upper half a remainder whose top is within its ceiling stays."""
    s = position({(0, 3): "B0", (1, 4): "C1L1"}, turn="0")
    after = play(s, "B0", "xC1")
    assert stack(after, 1, 4) == "L1"
    assert ascent.removed(after, 1) == ()


def test_a13_a_remainder_exactly_on_its_arrival_square_stays(position: Builder, play: Play) -> None:
    """A13 (rule 15): only a top strictly above its arrival square is exposed: the Prince
    takes B1 off B1L1 on square 5, and L1, on her own arrival square 5, stays."""
    s = position({(0, 4): "P0", (1, 5): "B1L1"}, turn="0")
    after = play(s, "P0", "xB1")
    assert stack(after, 0, 5) == "P0B1"
    assert stack(after, 1, 5) == "L1"
    assert ascent.removed(after, 1) == ()


def test_a13_the_new_top_of_the_remainder_decides(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A13 (rule 15): the Prince takes B1 off B1F1L1 on square 5; the new top F1 stands
    above its ceiling 2, so the whole remainder leaves, L1 (on her arrival square) too."""
    s = position({(0, 4): "P0", (1, 5): "B1F1L1"}, turn="0")
    after = play(s, "P0", "xB1")
    assert stack(after, 0, 5) == "P0B1"
    assert stack(after, 1, 5) == ""
    assert ascent.removed(after, 1) == (card("L1"), card("F1"))


def test_a13_an_exposed_remainder_in_the_lower_half_stays(position: Builder, play: Play) -> None:
    """A13 (rule 15): on square 3, lower half, the exposed Fire-eater stays where it is."""
    s = position({(0, 1): "F0", (0, 2): "T0", (1, 3): "T1F1"}, turn="0")
    after = play(s, "L0", "xT1")
    assert stack(after, 1, 3) == "F1"
    assert ascent.removed(after, 1) == ()
    assert ceiling_violations(after) == ()


def test_a13_removal_in_the_lower_half_is_an_option(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A13, option removal_in_lower_half=True: the same remainder leaves the board."""
    s = position(
        {(0, 1): "F0", (0, 2): "T0", (1, 3): "T1F1"},
        turn="0",
        options="removal_in_lower_half=true",
    )
    after = play(s, "L0", "xT1")
    assert ascent.removed(after, 1) == (card("F1"),)


def test_a13_the_upper_half_starts_where_the_option_says(position: Builder, play: Play) -> None:
    """A13, option upper_half: with upper_half=5, square 4 is in the lower half."""
    s = position({(0, 3): "L0", (1, 4): "C1F1"}, turn="0", options="upper_half=5")
    after = play(s, "L0", "xC1")
    assert stack(after, 1, 4) == "F1"


# --------------------------------------------------------------------------- A14


def _all_flipped_but(seat: int, keep: str) -> dict[tuple[int, int], str]:
    """Cells flipping every card of ``seat`` on its arrival square but ``keep``."""
    arrival = {"P": 7, "B": 6, "L": 5, "C": 4, "T": 3, "F": 2}
    return {(seat, arrival[x]): f"*{x}{seat}" for x in "PBLCTF" if x != keep}


def _stuck(seat: int) -> dict[tuple[int, int], str]:
    """Cells where ``seat`` keeps one unflipped card, a Fire-eater stuck above its ceiling
    on square 3 (an exposed remainder of the lower half), and cannot move."""
    return {
        (seat, 3): f"F{seat}",
        (seat, 4): f"*C{seat}T{seat}",
        (seat, 5): f"*L{seat}",
        (seat, 6): f"*B{seat}",
        (seat, 7): f"*P{seat}",
    }


def test_a14_the_game_ends_when_one_player_alone_can_move(position: Builder, play: Play) -> None:
    """A14 (rule 18): seat 0 flips its last card; only seat 1 still has unflipped cards."""
    cells = _all_flipped_but(0, "F")
    cells[(0, 1)] = "F0"
    s = position(cells, turn="0")
    after = play(s, "F0")
    assert ascent.is_over(after)
    assert ascent.current_player(after) is None
    assert ascent.legal_moves(after) == ()


def test_a14_the_last_player_may_continue_as_an_option(position: Builder, play: Play) -> None:
    """A14, option last_player_continues=True: seat 1 plays on alone."""
    cells = _all_flipped_but(0, "F")
    cells[(0, 1)] = "F0"
    s = position(cells, turn="0", options="last_player_continues=true")
    after = play(s, "F0")
    assert ascent.current_player(after) == 1
    after = play(after, "F1")
    assert ascent.current_player(after) == 1


def test_a14_a_player_without_a_legal_advance_is_skipped(position: Builder, play: Play) -> None:
    """A14 (rule 17): seat 1's only unflipped card is stuck above its ceiling on 3."""
    s = position(_stuck(1), players=3, turn="0")
    after = play(s, "P0")
    assert ascent.current_player(after) == 2


def _blocked() -> dict[tuple[int, int], str]:
    """Cells where seat 1 (of two) keeps two unfinished cards that cannot move: F1 on
    its Start and T1 on 1, below squares 2 and 3 that hold F0 and T0 left unflipped on
    their own arrival squares (A9 frees an arrival square only for flipped cards); seat
    0 has P0 on its Start, the rest flipped."""
    return {
        (1, 1): "T1",
        (1, 2): "F0",
        (1, 3): "T0",
        (1, 4): "*C1",
        (1, 5): "*L1",
        (1, 6): "*B1",
        (1, 7): "*P1",
        (0, 4): "*C0",
        (0, 5): "*L0",
        (0, 6): "*B0",
    }


def test_a14_the_same_player_plays_again_when_all_others_are_skipped(
    position: Builder, play: Play
) -> None:
    """A14 (rule 17): the turn may come back to the same seat. Seat 1 is still in the
    race (unfinished cards) but has no legal Advance; under end_test='unflipped' a
    stuck card above its ceiling keeps seat 1 in the race the same way."""
    s = position(_blocked(), turn="0")
    assert advances_of(s, 1) == ()
    after = play(s, "P0")
    assert ascent.current_player(after) == 0
    s = position(_stuck(1), turn="0", options="end_test=unflipped")
    after = play(s, "P0")
    assert ascent.current_player(after) == 0


def test_a14_a_stuck_card_above_its_ceiling_has_reached_its_square(position: Builder) -> None:
    """A14 (rule 18, end_test='unreached'): seat 1's last unflipped card stands above
    its arrival square (A15 counts it as arrived), so seat 1 is out of the race: with
    two players the game is over; under end_test='unflipped' it is not."""
    cells = _stuck(1)
    with pytest.raises(NotationError, match=r"the game is over \(A14\)"):
        position(cells, turn="0")
    assert ascent.is_over(position(cells, turn="-"))
    with pytest.raises(NotationError, match="marked over but the end test fails"):
        position(cells, turn="-", options="end_test=unflipped")
    assert ascent.current_player(position(cells, turn="0", options="end_test=unflipped")) == 0


REFEREE = "P0B0L0C0T0F0,T1,-,-,-,-,-,-/-,-,-,F1,*C1,*L1,*B1,*P1/-,-,*F2,*T2,*C2,*L2,*B2,*P2 -/-/-"
"""A referee's position: seat 1's only unflipped card, F1, stands on square 3, above its
arrival square 2 (A15 counts it as arrived); seat 2 is all flipped; seat 0 to move."""


def test_a14_the_referee_position_is_over_under_the_reference_end_test() -> None:
    """A14 (rule 18): 'il ne reste qu'un joueur dont les personnages peuvent se deplacer
    tandis que les personnages des autres joueurs ont atteint leurs cases d'arrivee':
    only seat 0 is left, so the game is over; the old reading (end_test='unflipped')
    keeps seat 1 in the race, and seat 0 plays on alone."""
    over = ascent.from_text(f"{REFEREE} - -")
    assert ascent.is_over(over)
    assert ascent.winners(over) == (2,)
    with pytest.raises(NotationError, match=r"the game is over \(A14\)"):
        ascent.from_text(f"{REFEREE} 0 -")
    for test, ends in (("unreached", True), ("unflipped", False), ("can_move", True)):
        rules = Rules(end_test=test)
        t = Tables.of(rules)
        assert game_over_test(t, over.columns, over.flipped, over.occupied) is ends, test
    s = ascent.from_text(f"{REFEREE} 0 end_test=unflipped")
    after = ascent.apply(s, ascent.parse_move(s, "F0"))
    assert ascent.current_player(after) == 0
    said = [e.text for e in ascent.describe(s, ascent.parse_move(s, "F0"), after)]
    assert "Seat 0 plays again: nobody else can move." in said


def test_a14_a_move_that_leaves_one_player_in_the_race_ends_the_game(
    position: Builder, play: Play
) -> None:
    """A14 (rule 18): seat 0's last unfinished card arrives; seat 1's only unflipped
    card stands above its arrival square; seat 2 still has cards to move. Under the
    reference end test only seat 2 is left in the race and the game is over; under
    'unflipped' seat 1 still counts, is skipped, and seat 2 plays."""
    cells = {**_all_flipped_but(0, "F"), (0, 1): "F0", **_stuck(1)}
    s = position(cells, players=3, turn="0")
    after = play(s, "F0")
    assert ascent.is_over(after)
    said = [e.text for e in ascent.describe(s, ascent.parse_move(s, "F0"), after)]
    assert said[-2] == (
        "The game is over: at most one player still has a card that has not reached its "
        "arrival square."
    )
    old = play(position(cells, players=3, turn="0", options="end_test=unflipped"), "F0")
    assert ascent.current_player(old) == 2
    literal = play(position(cells, players=3, turn="0", options="end_test=can_move"), "F0")
    assert ascent.is_over(literal)


def test_a14_the_literal_end_test_ends_when_one_player_can_move(
    position: Builder, play: Play
) -> None:
    """A14, end_test='can_move': at most one player with a legal Advance ends the game,
    even while another still has unfinished cards. Seat 0 flips its last card; seat 1
    keeps F1 and T1, blocked below F2 and T2 left unflipped on their arrival squares;
    seat 2 can move. Under the reference end test seat 1 is still in the race: it is
    skipped and seat 2 plays."""
    cells = {
        **_all_flipped_but(0, "F"),
        (0, 1): "F0",
        (1, 1): "T1",
        (1, 2): "F2",
        (1, 3): "T2",
        (1, 4): "*C1",
        (1, 5): "*L1",
        (1, 6): "*B1",
        (1, 7): "*P1",
    }
    literal = position(cells, players=3, turn="0", options="end_test=can_move")
    assert advances_of(literal, 1) == ()
    after = play(literal, "F0")
    assert ascent.is_over(after)
    said = [e.text for e in ascent.describe(literal, ascent.parse_move(literal, "F0"), after)]
    assert said[-2] == "The game is over: at most one player has a legal Advance."
    reference = play(position(cells, players=3, turn="0"), "F0")
    assert ascent.current_player(reference) == 2


def test_a14_the_game_ends_when_no_player_can_advance(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A14 (rule 18): two players keep an unflipped card, but neither can move
    (end_test='unflipped': their stuck cards keep both in the race)."""
    cells = {**_stuck(0), **_stuck(1)}
    del cells[(1, 7)]
    cells[(1, 2)] = "P1"
    s = position(cells, turn="1", options="end_test=unflipped")
    after = play(s, "P1")
    assert ascent.where(after, card("P1")) == (1, 7)
    assert ascent.is_over(after)
    # Under the reference end test, the same board is over before P1 moves: seat 0's
    # stuck card has reached its square, and seat 1 alone is left in the race.
    with pytest.raises(NotationError, match=r"the game is over \(A14\)"):
        position(cells, turn="1")


# --------------------------------------------------------------------------- A15-A17


def test_a15_cards_on_or_above_their_arrival_square_score(position: Builder) -> None:
    """A15: a flipped Lady on 5 (+4) and a Fire-eater protected on 4 (+1)."""
    s = position({(0, 5): "*L0", (0, 4): "C0F1"}, turn="0")
    # Column 0: L0 +4, C0 +3, F1 +1; on its Start P0, B0, T0, F0: -6-5-2-1.
    assert ascent.scores(s)[0] == 4 + 3 + 1 - 6 - 5 - 2 - 1


def test_a16_cards_below_arrival_and_removed_cards_are_penalties(position: Builder) -> None:
    """A16: cards on the Start or below their arrival count minus their value, and so
    do removed cards, against the seat they were removed from."""
    s = position({(1, 1): "L1"}, turn="0", removed={1: "F0"})
    # Column 1: L1 on 1 (-4), P1 B1 C1 T1 F1 on the Start (-6-5-3-2-1), removed F0 (-1).
    assert ascent.scores(s) == (-(21 - 1), -4 - 6 - 5 - 3 - 2 - 1 - 1)


def test_a17_the_most_points_win_and_ties_are_shared(position: Builder, play: Play) -> None:
    """A17: winners are the seats with the most points; a tie is a shared win."""
    cells = _all_flipped_but(0, "F")
    cells[(0, 1)] = "F0"
    s = position(cells, turn="0")
    assert ascent.winners(s) == ()  # not over yet
    after = play(s, "F0")
    assert ascent.scores(after) == (21, -21)
    assert ascent.winners(after) == (0,)
    both = {**_all_flipped_but(0, "F"), **_all_flipped_but(1, "F"), (0, 1): "F0", (1, 1): "F1"}
    tie = position(both, turn="0", options="last_player_continues=true")
    end = play(tie, "F0")
    assert not ascent.is_over(end)
    end = play(end, "F1")
    assert ascent.scores(end) == (21, 21)
    assert ascent.winners(end) == (0, 1)


# --------------------------------------------------------------------------- A18


def test_a18_six_sets_of_six_ranks_are_the_36_cards() -> None:
    """A18: with six players every card is in play, six of each value."""
    s = ascent.new_game(6, seed=0)
    cards = [c for q in range(6) for c in ascent.stack_at(s, q, 0)]
    assert len(cards) == len(set(cards)) == 36
    for rank in Rank:
        assert sum(1 for c in cards if c.rank is rank) == 6


def test_a18_the_die_decides_the_first_player() -> None:
    """A18: the first player is a seeded roll of the die, reproducible, covering every
    seat; first_player overrides it and die='none' lets seat 0 begin."""
    for players in range(2, 7):
        firsts = [ascent.current_player(ascent.new_game(players, seed=k)) for k in range(60)]
        assert set(firsts) == set(range(players))
        again = [ascent.current_player(ascent.new_game(players, seed=k)) for k in range(60)]
        assert firsts == again
    assert ascent.current_player(ascent.new_game(5, seed=3, first_player=4)) == 4
    for k in range(10):
        assert ascent.current_player(ascent.new_game(4, Rules(die="none"), seed=k)) == 0


def test_a18_the_die_roll_is_the_documented_chance_outcome() -> None:
    """A18: the first player is the first face 1..n of Rng.from_seed(seed,
    'ascent.die').die(), minus one."""
    from castlerules.core import Rng

    for seed in range(20):
        rng = Rng.from_seed(seed, "ascent.die")
        face, rng = rng.die()
        while face > 4:
            face, rng = rng.die()
        assert ascent.current_player(ascent.new_game(4, seed=seed)) == face - 1


# --------------------------------------------------------------------------- readings of A10, A13


def test_a10_favour_takes_a_stack_whose_top_ranks_lower_or_only_lower_cards(
    position: Builder, play: Play
) -> None:
    """A10 (option favour_takes): L0 arrives on row 4 beside C1 above L1. By default the
    stack's top ranks lower, so any top part may be taken (xL1 takes both); with
    favour_takes='all_lower' only C1, and xL1 is refused (L1 does not rank lower)."""
    cells = {(0, 3): "L0", (1, 4): "C1L1"}
    mid = play(position(cells), "L0")
    assert names(mid) == ["xC1", "xL1", "end"]
    assert stack(play(mid, "xL1"), 0, 4) == "L0C1L1"
    strict = play(position(cells, options="favour_takes=all_lower"), "L0")
    assert names(strict) == ["xC1", "end"]
    with pytest.raises(IllegalMove, match=r"would hold the Lady of set 1 .* \(A10\)"):
        ascent.apply(strict, ascent.Favour(Card(1, Rank.LADY)))
    assert stack(play(strict, "xC1"), 0, 4) == "L0C1"


def test_a13_penalty_to_the_column_or_to_each_cards_owner(
    position: Builder, play: Play, card: CardOf
) -> None:
    """A13 (option penalty_to): P0 takes B1 on row 6, exposing F0 (seat 0's own card) in
    column 1; F0 is removed. By default it counts against seat 1, the column's player;
    with penalty_to='owner' against seat 0, its owner."""
    cells = {(0, 5): "P0", (1, 6): "B1F0"}
    for options, pile, points in (("-", 1, (-15, -17)), ("penalty_to=owner", 0, (-16, -16))):
        after = play(play(position(cells, options=options), "P0"), "xB1")
        assert ascent.removed(after, pile) == (card("F0"),)
        assert ascent.removed(after, 1 - pile) == ()
        assert ascent.scores(after) == points
        said = [
            e.text
            for e in ascent.describe(
                play(position(cells, options=options), "P0"),
                ascent.Favour(card("B1")),
                after,
            )
        ]
        assert said[1].endswith(
            "counts against seat 1."
            if pile == 1
            else "counts against the owner of each card: seat 0."
        )


def test_a3_a6_stack_rank_a_stack_acts_with_its_top_or_its_highest_card(
    position: Builder, play: Play, card: CardOf
) -> None:
    """A3, A6, A8 (option stack_rank): F0 above P0 on square 1, P0 advanced with F0 on it.
    By default the part acts as the Fire-eater: it stops on 2, F0's arrival square, and
    flips (P0 with it, for good). With stack_rank='highest' it acts as the Prince: square
    2 is not its arrival square, so nothing flips."""
    cells = {(0, 1): "F0P0"}
    top = play(position(cells), "P0")
    assert stack(top, 0, 2) == "F0P0" and ascent.is_flipped(top, card("P0"))
    high = play(position(cells, options="stack_rank=highest"), "P0")
    assert stack(high, 0, 2) == "F0P0" and not ascent.is_flipped(high, card("P0"))
    assert advances_of(high, 0) != ()


def test_a7_stack_rank_highest_protects_from_below(position: Builder, play: Play) -> None:
    """A7 (rule 11, option stack_rank): P0 leaves F1 on top of L0 on square 3, above F1's
    arrival square 2. By default F1 would be exposed, so the split is refused; with
    stack_rank='highest' the Lady under it protects it, and the split is legal."""
    cells = {(0, 3): "P0F1L0"}
    with pytest.raises(IllegalMove, match=r"exposed on square 3.*\(A7\)"):
        play(position(cells), "P0")
    after = play(position(cells, options="stack_rank=highest"), "P0")
    assert stack(after, 0, 3) == "F1L0" and stack(after, 0, 4) == "P0"
