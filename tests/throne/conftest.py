"""Shared helpers for the Throne tests: moves in notation and the 3-player deal.

The helpers are given to the tests as fixtures (the test modules cannot
import this file under ``--import-mode=importlib``), as in
``tests/ascent/conftest.py``.  ``play(state, "A1 B1 M+ yes")`` applies
moves written in notation, separated by spaces.  ``objectives_3p`` deals
the same objectives to the 3 seats in every round; ``fill_3p`` places the
13 characters: floor 1 ABCD, floor 2 EFGH, floor 3 IJKL, floor 4 M.  Seat 0
places first and last, so seat 1 moves first.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from castlerules.throne import State, apply, new_game, parse_move

Play = Callable[[State, str], State]

OBJECTIVES_3P = [["ABCDEF", "GHIJKL", "ACEGIK"]] * 3
FILL_3P = "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L3 M4"


def play_moves(state: State, moves: str) -> State:
    """Apply moves written in notation, separated by spaces."""
    for text in moves.split():
        state = apply(state, parse_move(state, text))
    return state


@pytest.fixture(scope="session")
def play() -> Play:
    """The :func:`play_moves` helper."""
    return play_moves


@pytest.fixture
def objectives_3p() -> list[list[str]]:
    """The same objectives for the 3 seats in every round: ABCDEF, GHIJKL, ACEGIK."""
    return [list(deal) for deal in OBJECTIVES_3P]


@pytest.fixture(scope="session")
def fill_3p() -> str:
    """The 13 placements of a 3-player game: floor 1 ABCD, 2 EFGH, 3 IJKL, 4 M."""
    return FILL_3P


@pytest.fixture(scope="session")
def filled() -> State:
    """3 players, every character placed (``fill_3p``): movement, seat 1 to move."""
    return play_moves(new_game(3, objectives=OBJECTIVES_3P), FILL_3P)


@pytest.fixture(scope="session")
def electing(filled: State) -> State:
    """M climbs 4 -> 5 -> 6 -> 7 (seats 1, 2, 0): an election, seat 0 votes first."""
    return play_moves(filled, "M+ M+ M+")
