"""The lanes of castlerules.core.lanes: tuples (plain values, Z3 terms) and an array axis
(castlerules.batch.arrays.AxisLanes) give the same results, lane for lane.

The Ascent kernel states its board's loops over the cards once, through these
operations (A3's stacks and parts, A6's destination, A14's seats in the race); the
reference engine is checked against the tuples (the exhaustive tie), the batch
against the engine.  This test ties the two layouts to each other directly, on
random cards of several games at once, so that a layout's mistake is named here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules.core.lanes import TupleLanes, lanes_of
from castlerules.core.ops import CONCRETE

np = pytest.importorskip("numpy")
from castlerules.batch.arrays import ArrayOps  # noqa: E402


@attrs.frozen
class Card:
    col: Any
    sq: Any


# The arrays' shapes are drawn from a few sizes (the edges: one card, one game, the most
# cards), not every size: JAX compiles each operation anew for each shape it meets, and
# the values, not the sizes, are what the lanes compute.
CARD_COUNTS = st.sampled_from((1, 2, 3, 7))
GAME_COUNTS = st.sampled_from((1, 4))


def _games(draw: Any) -> tuple[int, int, list[list[int]], list[list[int]]]:
    cards = draw(CARD_COUNTS)
    games = draw(GAME_COUNTS)
    col = [[draw(st.integers(0, 2)) for _ in range(games)] for _ in range(cards)]
    sq = [[draw(st.integers(0, 4)) for _ in range(games)] for _ in range(cards)]
    return cards, games, col, sq


def _array_modules() -> list[tuple[Any, Any]]:
    """numpy (a grid computed whole), and JAX where it is installed (a grid a
    :class:`~castlerules.batch.arrays.Grid`, read column by column), each with its
    integer type."""
    out: list[tuple[Any, Any]] = [(np, np.int64)]
    try:
        import jax.numpy as jnp
    except ImportError:  # pragma: no cover - the dev set-up installs every extra
        return out
    return [*out, (jnp, jnp.int32)]


def _both(cards: int, games: int, col: list[list[int]], sq: list[list[int]]) -> Any:
    """Per game, a function's result by tuples of plain values, and by the array axis of
    each array module (:func:`_array_modules`)."""

    def run(function: Any) -> tuple[list[Any], list[Any]]:
        plain = [
            function(
                TupleLanes(CONCRETE),
                CONCRETE,
                Card(tuple(c[g] for c in col), tuple(s[g] for s in sq)),
            )
            for g in range(games)
        ]
        results = []
        for xp, kind in _array_modules():
            o = ArrayOps(xp, kind)
            lanes = o.lanes
            results.append(
                function(
                    lanes,
                    o,
                    Card(
                        lanes.items([xp.asarray(c, dtype=kind) for c in col]),
                        lanes.items([xp.asarray(s, dtype=kind) for s in sq]),
                    ),
                )
            )
        return plain, results

    return run


def _per_game(value: Any, games: int) -> list[Any]:
    """An array interpretation's result, game by game (plain numbers and nested lists)."""
    array = np.asarray(value)
    array = np.broadcast_to(array, (*array.shape[:-1], games)) if array.ndim else array
    return [
        np.moveaxis(array, -1, 0)[g].tolist() if array.ndim else array.item() for g in range(games)
    ]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value if isinstance(value, bool) else int(value)


@st.composite
def boards(draw: Any) -> tuple[int, int, list[list[int]], list[list[int]]]:
    return _games(draw)


@settings(max_examples=60, deadline=None)
@given(boards())
def test_maps_grids_and_reductions_agree(board: tuple[int, int, Any, Any]) -> None:
    cards, games, col, sq = board
    run = _both(cards, games, col, sq)

    def stacks(L: Any, o: Any, u: Card) -> Any:
        # pairs on one square of one column, off the Start (A3), as the kernel's stk
        same = L.grid(
            lambda x, y, diagonal: o.any(
                [diagonal, o.all([x.sq >= 1, x.col == y.col, x.sq == y.sq])]
            ),
            rows=[u],
            cols=[u],
        )
        # a grid of two results, built of another (cells), as the kernel's part and rest
        low, high = L.grid(
            lambda x, y, together, _diagonal: (
                o.all([together, y.col <= x.col]),
                o.all([together, y.col > x.col]),
            ),
            rows=[u],
            cols=[u],
            cells=[same],
        )
        return (
            L.count(same),
            L.any(L.map(lambda s: s == 2, u.sq)),
            L.all(L.map(lambda s: s >= 1, u.sq)),
            L.total(u.sq),
            L.first(L.map(lambda c: c == 1, u.col)),
            L.highest(same, L.table(tuple(range(10, 10 + cards)))),
            L.at(u.sq, o.lit(cards - 1)),
            L.count(low),
            L.any(high),
            L.highest(high, L.table(tuple(range(3, 3 + cards)))),
            L.total(L.grid(lambda y, t, _diagonal: o.ite(t, y.sq, 0), cols=[u], cells=[high])),
            L.count(
                L.grid(lambda x, y, t, d: o.all([t, o.not_(d)]), rows=[u], cols=[u], cells=[same])
            ),
        )

    plain, results = run(stacks)
    for arrays in results:
        for i, part in enumerate(arrays):
            got = _per_game(part, games)
            want = [_plain(p[i]) for p in plain]
            assert got == want, f"result {i}"


def test_a_value_index_reads_one_lane_per_game() -> None:
    o = ArrayOps(np, np.int64)
    lane = o.lanes.items([np.array([5, 6]), np.array([7, 8]), np.array([9, 10])])
    assert o.lanes.at(lane, np.array([2, 0])).tolist() == [9, 6]
    assert lanes_of(CONCRETE).at((5, 7, 9), 2) == 9


def test_map_and_grid_results_keep_their_shape() -> None:
    """A function's tuples and attrs instances come back with a lane value in each place."""
    L = TupleLanes(CONCRETE)
    both = L.map(lambda x: (x, Card(x + 1, x + 2)), (1, 2))
    assert both == ((1, 2), Card((2, 3), (3, 4)))
    grid = L.grid(lambda x, y, diagonal: (x + y, diagonal), rows=[(1, 2)], cols=[(10, 20, 30)])
    assert grid == (((11, 21, 31), (12, 22, 32)), ((True, False, False), (False, True, False)))


def _held_cases(col: Any, sq: Any) -> Iterator[tuple[Any, Any, Any, Any]]:
    """The places held's inputs on arrays, per integer type and per condition (none, or
    "not on the square after its column's number"): the lanes, the cards' columns and
    squares, the condition."""
    modules = [(np, np.int16), *_array_modules()]
    for xp, kind in modules:
        L = ArrayOps(xp, kind).lanes
        arr_col = L.items([xp.asarray(c, dtype=kind) for c in col])
        arr_sq = L.items([xp.asarray(s, dtype=kind) for s in sq])
        when = L.map(lambda s, c: s != c + 1, arr_sq, arr_col)
        for cond in (None, when):
            yield L, arr_col, arr_sq, cond


def _held_plain(col: Any, sq: Any, g: int, conditioned: bool) -> tuple[Any, Any, Any, Any]:
    """Game ``g``'s columns and squares as plain tuples, the plain condition (None when
    there is none), and the (column, square) pairs it keeps."""
    cols, sqs = tuple(c[g] for c in col), tuple(s[g] for s in sq)
    when = tuple(s != c + 1 for c, s in zip(cols, sqs, strict=True)) if conditioned else None
    kept = [(c, s) for c, s in zip(cols, sqs, strict=True) if not conditioned or s != c + 1]
    return cols, sqs, when, kept


@st.composite
def places(draw: Any, last: int = 3) -> tuple[int, int, list[list[int]], list[list[int]]]:
    """Cards on the columns -1..``last`` and 22 squares (-1..20): the places held,
    whose words the arrays pack several to 32 bits, or one, as the squares allow."""
    cards = draw(CARD_COUNTS)
    games = draw(GAME_COUNTS)
    col = [[draw(st.integers(-1, last)) for _ in range(games)] for _ in range(cards)]
    sq = [[draw(st.integers(-1, 20)) for _ in range(games)] for _ in range(cards)]
    return cards, games, col, sq


@settings(max_examples=80, deadline=None)
@given(
    places(last=6),
    st.integers(0, 3),
    st.integers(1, 20),
    st.sampled_from([(0, 1, 2), tuple(range(6)), (1,), (2, 0)]),
)
def test_marks_agree_and_mark_only_their_places(
    board: tuple[int, int, Any, Any], low: int, width: int, firsts: tuple[int, ...]
) -> None:
    """The places held (the Ascent board's occupied and flipped squares of each column,
    rule 9 / A3, A9): the tuples and the array's bit words agree with the plain
    definition, ``when`` included, and a place outside ``firsts`` and ``seconds`` (a
    card out of play, the Start, a square past the last) marks nothing; the arrays'
    words packed several to 32 bits, one to a word, and unpacked (numbers that do not
    run on: ``(2, 0)``)."""
    _cards, games, col, sq = board
    seconds = tuple(range(low, low + width))
    for L, arr_col, arr_sq, cond in _held_cases(col, sq):
        # read back once as numpy (an element read of a JAX array is an operation of its own)
        got = [
            [np.asarray(x) for x in row] for row in L.marks(arr_col, arr_sq, firsts, seconds, cond)
        ]
        for g in range(games):
            cols, sqs, when, kept = _held_plain(col, sq, g, cond is not None)
            want = [[(i, j) in kept for j in seconds] for i in firsts]
            plain = TupleLanes(CONCRETE).marks(cols, sqs, firsts, seconds, when)
            assert [[bool(x[g]) for x in row] for row in got] == want
            assert [list(row) for row in plain] == want


@settings(max_examples=60, deadline=None)
@given(places(last=2), st.integers(1, 3), st.integers(1, 20))
def test_marks_at_read_each_lanes_own_row(
    board: tuple[int, int, Any, Any], low: int, width: int
) -> None:
    """The places held read at each card's own column (the Ascent board's destination,
    rules 9-10 / A3, A6, A9: is this square of the card's column held, by flipped
    cards?): the tuples and the array's bit words agree with the plain definition, for
    every card whose column is one of the numbers, ``when`` included."""
    _cards, games, col, sq = board
    seconds = tuple(range(low, low + width))
    firsts = (0, 1, 2)
    for L, arr_col, arr_sq, cond in _held_cases(col, sq):
        got = [np.asarray(x) for x in L.marks_at(arr_col, arr_sq, firsts, seconds, arr_col, cond)]
        assert len(got) == width
        for g in range(games):
            cols, sqs, when, kept = _held_plain(col, sq, g, cond is not None)
            plain = TupleLanes(CONCRETE).marks_at(cols, sqs, firsts, seconds, cols, when)
            for k, at in enumerate(cols):
                if at not in firsts:
                    continue
                want = [(at, j) in kept for j in seconds]
                assert [bool(x[k, g]) for x in got] == want
                assert [plain[j][k] for j in range(width)] == want
