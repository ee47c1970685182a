"""No option values give a game with no legal move that is not over.

The search: every option ``cards`` of one or two cards of sets 0-2, both deals, 2 and 3
players, a few seeds; each new game is refused (``ArgumentError``) or is over or has a
legal move, and so has every position of a few random plays.  Throne's options are
bounded by its ``Rules`` (every count at least 1) and its own tests play them out.
"""

from __future__ import annotations

import itertools

import pytest

from castlerules import ascent
from castlerules.core import ArgumentError
from castlerules.core.chance import Rng

CARDS = [f"{rank}{owner}" for owner in "012" for rank in "PBLCTF"]


def stuck_games(cards_sets: list[tuple[str, ...]]) -> list[str]:
    """The games (described) that reach a position with no move that is not over."""
    found = []
    for cards, deal, players, seed in itertools.product(
        cards_sets, ("sets", "shuffled"), (2, 3), range(3)
    ):
        rules = ascent.Rules(cards=cards, deal=deal)
        try:
            state = ascent.new_game(players, rules=rules, seed=seed)
        except ArgumentError:
            continue
        rng = Rng.from_seed(seed, "test.stuck")
        while not ascent.is_over(state):
            moves = ascent.legal_moves(state)
            if not moves:
                found.append(f"cards={cards} deal={deal} players={players} seed={seed}")
                break
            move, rng = rng.choice(moves)
            state = ascent.apply(state, move)
    return found


def test_no_options_give_a_game_with_no_move_that_is_not_over() -> None:
    small = [c for n in (1, 2) for c in itertools.combinations(CARDS, n)]
    assert stuck_games(small) == []


def test_no_cards_at_all_is_refused() -> None:
    with pytest.raises(ArgumentError, match="non-empty"):
        ascent.Rules(cards=())


def test_a_seat_without_a_card_is_refused_by_new_game() -> None:
    with pytest.raises(ArgumentError, match="seat 2 is dealt no card"):
        ascent.new_game(3, rules=ascent.Rules(cards=("L0", "T1")))
    with pytest.raises(ArgumentError, match="seat 0 is dealt no card"):
        ascent.new_game(3, rules=ascent.Rules(cards=("L0", "T1"), deal="shuffled"))


def test_the_search_finds_a_planted_stuck_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from castlerules.ascent import transitions

    monkeypatch.setattr(transitions, "check_every_seat_dealt", lambda rules, players: None)
    assert stuck_games([("L0",)]) != []
