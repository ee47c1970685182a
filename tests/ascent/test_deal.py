"""A18 and A2 under ``deal="shuffled"``: the 36 cards shuffled by the game's seed and
dealt evenly; each seat moves the cards dealt to it; the cards left over stay out of
play; the notation writes the deal; the default deal stays one set per player."""

from __future__ import annotations

import pytest

from castlerules import ascent
from castlerules.ascent import Advance, Card, Rank
from castlerules.ascent.moves import ADVANCES
from castlerules.ascent.setup import first_player_of
from castlerules.core import ArgumentError, IllegalMove, NotationError, Rng

SHUFFLED = ascent.Rules(deal="shuffled")


@pytest.mark.parametrize("players", list(ascent.PLAYERS))
def test_a18_the_shuffled_deal_gives_each_seat_36_div_n_cards_on_its_start(players: int) -> None:
    hand = 36 // players
    for seed in range(5):
        state = ascent.new_game(players, SHUFFLED, seed=seed)
        owners = state.owners
        assert owners == ascent.deal_of(SHUFFLED, players, seed)
        assert [owners.count(q) for q in range(players)] == [hand] * players
        assert owners.count(-1) == 36 - hand * players  # one card left over with 5 players
        for q in range(players):
            start = ascent.stack_at(state, q, 0)
            assert sorted(map(str, start)) == sorted(
                str(ADVANCES[c].card) for c, o in enumerate(owners) if o == q
            )
            assert all(ascent.owner_of(state, card) == q for card in start)


def test_a18_the_deal_is_the_seeds_and_apart_from_the_die() -> None:
    """The same seed deals the same cards; other seeds deal others; the die (stream
    ascent.die) designates the same first player whichever the deal."""
    deals = {ascent.deal_of(SHUFFLED, 4, seed) for seed in range(20)}
    assert len(deals) == 20
    assert ascent.deal_of(SHUFFLED, 4, 3) == ascent.deal_of(SHUFFLED, 4, 3)
    for seed in range(20):
        shuffled = ascent.new_game(4, SHUFFLED, seed=seed)
        assert ascent.current_player(shuffled) == first_player_of(ascent.Rules(), 4, seed)
        assert ascent.current_player(shuffled) == ascent.current_player(
            ascent.new_game(4, seed=seed)
        )


def test_a18_a_seat_may_hold_two_cards_of_a_rank_and_none_of_another() -> None:
    """What the reading changes: a hand is not a set of the six ranks, so each
    player's total value is a chance outcome (and the score bounds follow it)."""
    hands = []
    for seed in range(10):
        state = ascent.new_game(6, SHUFFLED, seed=seed)
        for q in range(6):
            hands.append(sorted(card.rank.value for card in ascent.stack_at(state, q, 0)))
    assert any(len(set(hand)) < 6 for hand in hands)
    assert len({sum(hand) for hand in hands}) > 1
    assert all(sum(hand) == 21 for hand in _set_hands())


def _set_hands() -> list[list[int]]:
    state = ascent.new_game(6, seed=0)
    return [[card.rank.value for card in ascent.stack_at(state, q, 0)] for q in range(6)]


def test_a18_the_default_deal_is_one_set_per_player() -> None:
    state = ascent.new_game(3, seed=9)
    assert state.owners == (*(c // 6 for c in range(18)), *(-1,) * 18)
    assert ascent.deal_of(ascent.Rules(), 3, 9) == ascent.deal_of(ascent.Rules(), 3, 0)
    assert ascent.owner_of(state, Card(2, Rank.LADY)) == 2


def test_a2_a_seat_moves_only_the_cards_dealt_to_its_column() -> None:
    state = ascent.new_game(4, SHUFFLED, seed=2)
    seat = ascent.current_player(state)
    assert {ascent.owner_of(state, m.card) for m in ascent.legal_moves(state)} == {seat}
    other = next(c for c, q in enumerate(state.owners) if q not in (seat, -1))
    card = ADVANCES[other].card
    with pytest.raises(IllegalMove, match=rf"\({card}\) stands in column .*\(A2\)") as err:
        ascent.apply(state, Advance(card))
    assert err.value.clause == "A2"


def test_a2_a18_a_card_left_over_by_the_deal_is_out_of_play() -> None:
    state = ascent.new_game(5, SHUFFLED, seed=3)
    (left,) = (c for c, q in enumerate(state.owners) if q < 0)
    card = ADVANCES[left].card
    with pytest.raises(IllegalMove, match="left over when the cards were dealt") as err:
        ascent.apply(state, Advance(card))
    assert err.value.clause == "A2"
    for query in (ascent.where, ascent.owner_of):
        with pytest.raises(ArgumentError, match=r"left over when the cards were dealt \(A18\)"):
            query(state, card)


def test_a18_the_notation_writes_the_deal_and_reads_it_back() -> None:
    rng = Rng.from_seed(1, "test_deal")
    for players in ascent.PLAYERS:
        state = ascent.new_game(players, SHUFFLED, seed=players)
        for _ in range(30):
            text = ascent.to_text(state)
            assert text.split(" ")[3] == "deal=shuffled" and len(text.split(" ")) == 5
            assert ascent.from_text(text) == state
            moves = ascent.legal_moves(state)
            if not moves:
                break
            move, rng = rng.choice(moves)
            state = ascent.apply(state, move)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.rsplit(" ", 1)[0], "a fifth field, the deal"),
        (lambda t: t.replace("deal=shuffled", "-"), "written only under deal=shuffled"),
        (lambda t: t.rsplit(" ", 1)[0] + " " + "/".join(["-"] * 4), r"not \[0, 0, 0, 0\]"),
        (lambda t: t[: t.rindex("/")] + "/-/-", "entries for 4 columns"),
    ],
)
def test_a18_a_wrong_deal_field_is_refused_with_the_rule(change: object, message: str) -> None:
    text = ascent.to_text(ascent.new_game(4, SHUFFLED, seed=5))
    with pytest.raises(NotationError, match=message):
        ascent.from_text(change(text))  # type: ignore[operator]


def test_a18_a_card_dealt_twice_is_refused() -> None:
    text = ascent.to_text(ascent.new_game(2, SHUFFLED, seed=5))
    deal = text.split(" ")[4]
    one, two = deal.split("/")
    doubled = text.rsplit(" ", 1)[0] + f" {one}/{one[:2]}{two[2:]}"
    with pytest.raises(NotationError, match=r"card .. is dealt twice \(A18\)"):
        ascent.from_text(doubled)


def test_a18_new_game_checks_a_given_deal() -> None:
    good = ascent.deal_of(SHUFFLED, 3, 0)
    assert ascent.new_game(3, SHUFFLED, owners=good).owners == good
    with pytest.raises(ArgumentError, match="A18"):
        ascent.new_game(3, SHUFFLED, owners=(0,) * 36)
    with pytest.raises(ArgumentError):
        ascent.new_game(3, ascent.Rules(), owners=good)
