"""Shared helpers for the Ascent tests: a position builder, cards and moves in notation.

The helpers are given to the tests as fixtures (the test modules cannot import this
file under ``--import-mode=importlib``), as in ``tests/throne/conftest.py``.
``position({(1, 3): "F1"}, turn="0")`` builds a State (see :func:`build_text`);
``card("L0")`` is the Lady of set 0; ``play(state, "L0", "xT1", "end")`` applies
moves written in notation, one argument a move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from castlerules import ascent
from castlerules.ascent import Card, Rank

Builder = Callable[..., ascent.State]
CardOf = Callable[[str], Card]
Play = Callable[..., ascent.State]

_LETTERS = [rank.letter for rank in Rank]  # P B L C T F


def build_text(
    cells: Mapping[tuple[int, int], str],
    *,
    players: int = 2,
    turn: str = "0",
    options: str = "-",
    removed: Mapping[int, str] | None = None,
    squares: int = 7,
) -> str:
    """The notation of a position: ``cells`` maps (column, square) to its stack text
    (top first, ``*`` prefix when flipped); every card not placed nor removed stays on
    its own Start."""
    removed = dict(removed or {})
    placed = set()
    for text in [*cells.values(), *removed.values()]:
        body = text.lstrip("*")
        placed.update(body[i : i + 2] for i in range(0, len(body), 2))
    columns = []
    for q in range(players):
        start = "".join(f"{x}{q}" for x in _LETTERS if f"{x}{q}" not in placed) or "-"
        squares_text = [start] + [cells.get((q, s), "-") for s in range(1, squares + 1)]
        columns.append(",".join(squares_text))
    piles = "/".join(removed.get(q, "-") for q in range(players))
    return f"{'/'.join(columns)} {piles} {turn} {options}"


@pytest.fixture(scope="session")
def position() -> Builder:
    """Build a State from cells (see :func:`build_text`)."""

    def make(cells: Mapping[tuple[int, int], str], **kwargs: object) -> ascent.State:
        return ascent.from_text(build_text(cells, **kwargs))  # type: ignore[arg-type]

    return make


def card_of(text: str) -> Card:
    """The card written ``text`` in notation: rank letter then set, e.g. ``L0``."""
    return Card(int(text[1]), Rank.from_letter(text[0]))


def play_moves(state: ascent.State, *moves: str) -> ascent.State:
    """Apply moves written in notation, in order."""
    for text in moves:
        state = ascent.apply(state, ascent.parse_move(state, text))
    return state


@pytest.fixture(scope="session")
def card() -> CardOf:
    """The :func:`card_of` helper."""
    return card_of


@pytest.fixture(scope="session")
def play() -> Play:
    """The :func:`play_moves` helper."""
    return play_moves
