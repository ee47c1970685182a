"""Shared helpers for the Ascent tests: a position builder."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from castlerules import ascent
from castlerules.ascent.rules import Rank

Builder = Callable[..., ascent.State]

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
