"""No option values give a game with no legal move that is not over.

The search: every option ``cards`` of one or two cards of sets 0-2, both deals, 2 and 3
players, a few seeds; each new game is refused (``ArgumentError``) or is over or has a
legal move, and so has every position of a few random plays.  Throne's: small castles
(3-6 characters, floor capacities 1, 2, 4, placement floors, placements per player,
No cards, equal placement, passing), each refused by ``Rules`` or by ``new_game`` for
three players, or played out by a random play that always has a move until the end.
"""

from __future__ import annotations

import itertools

import pytest

from castlerules import ascent, throne
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


def stuck_throne_games() -> tuple[int, list[str]]:
    """How many small Throne castles were played, and those whose game reached a
    position with no legal move that is not over."""
    played, found = 0, []
    for (
        characters,
        capacity,
        placement,
        per_player,
        no_cards,
        equal,
        allow_pass,
    ) in itertools.product(
        (3, 4, 5, 6),
        (1, 2, 4),
        ((5,), (4, 5), (1, 2, 3, 4, 5)),
        ((1, 1, 1, 1), (2, 2, 1, 1)),
        ((0, 0, 0, 0), (1, 1, 1, 1)),
        (False, True),
        (False, True),
    ):
        options = {
            "characters": characters,
            "floor_capacity": capacity,
            "placement_floors": placement,
            "placements_per_player": per_player,
            "no_cards": no_cards,
            "objective_size": 2,
            "equal_placement": equal,
            "allow_pass": allow_pass,
            "rounds": 1,
            "bonus_rounds": (1,),
        }
        try:
            state = throne.new_game(3, throne.Rules(**options), seed=0)
        except ArgumentError:
            continue
        played += 1
        rng = Rng.from_seed(0, "test.stuck.throne")
        while not throne.is_over(state):
            moves = throne.legal_moves(state)
            if not moves:
                found.append(str(options))
                break
            move, rng = rng.choice(moves)
            state = throne.apply(state, move)
    return played, found


def test_no_throne_castle_gives_a_game_with_no_move_that_is_not_over() -> None:
    played, found = stuck_throne_games()
    assert found == [] and played >= 100


def test_the_throne_search_finds_a_planted_stuck_castle(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the check of room for the placements, a castle too small for its placements
    # leaves a player with no Place to play (B6, B7).
    monkeypatch.setattr(throne.Rules, "check_players", lambda self, players: players)
    assert stuck_throne_games()[1] != []
