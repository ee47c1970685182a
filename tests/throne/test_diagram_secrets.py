"""throne.svg(state, secrets=False): the board as every seat at the table may see it (B4, B11)."""

from __future__ import annotations

import re

import pytest

from castlerules import ArgumentError, throne


def _favourites(state: throne.State) -> list[str]:
    return ["".join(sorted(throne.objective(state, s))) for s in range(state.players)]


def test_the_referee_board_shows_every_objective() -> None:
    state = throne.new_game(5, seed=2)
    picture = throne.svg(state)
    assert all(f in picture for f in _favourites(state))


def test_the_table_board_shows_no_objective() -> None:
    """B4: the favourites are secret; the seat table says so."""
    state = throne.new_game(5, seed=2)
    picture = throne.svg(state, secrets=False, seat=1)
    assert not [f for f in _favourites(state) if f in picture]
    assert picture.count(">secret") == 5
    ringed = re.compile(r'class="[^"]*\bfavourite\b')  # a token ringed as a favourite
    assert not ringed.search(picture)
    assert ringed.search(throne.svg(state, seat=1))


def test_no_cards_follow_the_rules() -> None:
    """B11: the counts of No cards are drawn only where the rules make them public."""
    public = throne.new_game(4, seed=2)
    hidden = throne.new_game(4, rules=throne.Rules(no_cards_public=False), seed=2)
    assert throne.svg(public, secrets=False).count(">secret") == 4
    assert throne.svg(hidden, secrets=False).count(">secret") == 8
    assert throne.svg(hidden).count(">secret") == 0


def test_bad_arguments() -> None:
    state = throne.new_game(4)
    with pytest.raises(ArgumentError):
        throne.svg(state, secrets="no")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        throne.svg(state, secrets=False, seat=9)
