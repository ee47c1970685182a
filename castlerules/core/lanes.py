"""Values over the items of a game (the cards of Ascent), one lane per item.

A rule kernel states what happens to *one* card (:func:`castlerules.ascent.kernel.with_card`,
:func:`~castlerules.ascent.kernel.advanced_card`, ...), and a board's conditions as
reductions over the cards ("some card of the column stands on this square").  The
kernel writes those loops once, through :class:`Lanes`: it :meth:`~Lanes.map`\\ s a
card-local function over the cards (or over pairs of cards, :meth:`~Lanes.grid`) and
reduces over them (:meth:`~Lanes.any`, :meth:`~Lanes.total`, ...).  Each
interpretation lays the lanes out its own way:

- plain values and Z3 terms (:class:`TupleLanes`, here): a tuple with one value per
  card, a tuple of such tuples per pair of cards, the function called once per lane
  (the terms the kernel wrote by hand, card by card, before);
- arrays of many games (:class:`castlerules.batch.arrays.AxisLanes`): one more array
  axis in front of the games' axis, the function called once for every lane of every
  game (a few array operations where a tuple of terms would take one per card, or per
  pair of cards).

The lanes of an operation line up by their place: ``rows`` of :meth:`Lanes.grid` run
along its outer axis, ``cols`` along its inner one, and a reduction reduces the
innermost.  Anything that is not a lane value (a value the same for every card: a
number, a move's field) reaches every lane as it is.

>>> from castlerules.core.ops import CONCRETE
>>> L = lanes_of(CONCRETE)
>>> sq = L.items((0, 2, 2))
>>> L.any(L.map(lambda x, d: x == d, sq, 2)), L.total(L.table((5, 6, 7)))
(True, 18)
>>> same = L.grid(lambda x, u, diag: x == u, rows=[sq], cols=[sq])
>>> same
((True, False, False), (False, True, True), (False, True, True))
>>> L.count(L.map(lambda row: L.any(row), same)), L.at(L.table((5, 6, 7)), 1)
(3, 6)
>>> L.highest(same[1], L.table((5, 6, 7))), L.first(same[2])
(7, 1)
>>> L.marks(L.items((0, 1, 1)), sq, firsts=(0, 1), seconds=(1, 2))   # (column, square)
((False, False), (False, True))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from castlerules.core.ops import Ops, Value

Lane = Any
"""Values one per lane (a tuple of them for :class:`TupleLanes`, an array with a lane
axis for arrays), or one per pair of lanes (:meth:`Lanes.grid`)."""


class Lanes(Protocol):
    """Lane-wise mapping and reductions of one interpretation (see the module's text)."""

    def items(self, values: Sequence[Value]) -> Lane:
        """One lane per value (the fields of a position, card by card)."""

    def table(self, numbers: Sequence[int]) -> Lane:
        """One lane per static number (a card's value, its arrival square)."""

    def index(self, size: int) -> Lane:
        """The lanes' own numbers ``0..size-1``."""

    def unpack(self, lane: Lane, size: int) -> tuple[Value, ...]:
        """The ``size`` values of a lane value, one per lane (``items`` back)."""

    def map(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function`` of each lane's values (of lane values and of values the same for
        every lane); its result (a value, a tuple of them or an attrs instance of them)
        comes back with a lane value in each place."""

    def grid(
        self,
        function: Callable[..., Any],
        rows: Sequence[Any] = (),
        cols: Sequence[Any] = (),
        cells: Sequence[Any] = (),
    ) -> Any:
        """``function(*row, *col, *cell, diagonal)`` of each pair of lanes ``(k, j)``:
        ``rows`` are read at ``k``, ``cols`` at ``j``, ``cells`` (grids) at ``(k, j)``;
        ``diagonal`` is ``k == j`` (a Python bool for tuples)."""

    def any(self, lane: Lane) -> Value:
        """Some lane holds (the innermost lanes of a grid)."""

    def all(self, lane: Lane) -> Value:
        """Every lane holds."""

    def total(self, lane: Lane) -> Value:
        """The sum over the lanes."""

    def count(self, lane: Lane) -> Value:
        """How many lanes hold."""

    def first(self, lane: Lane) -> Value:
        """The first lane that holds, -1 when none does."""

    def highest(self, cond: Lane, numbers: Lane) -> Value:
        """The largest of ``numbers`` (non-negative, one per innermost lane) whose lane of
        ``cond`` holds; 0 when none does."""

    def at(self, lane: Lane, index: Value) -> Value:
        """The value of lane ``index`` (a value)."""

    def marks(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        when: Lane | None = None,
    ) -> tuple[tuple[Value, ...], ...]:
        """Per pair ``(i, j)`` of ``firsts`` and ``seconds`` (a run of consecutive
        numbers, 31 at most): some lane has ``first == i`` and ``second == j`` (and
        ``when`` holds there): the places held, a table per ``i`` (the squares of a
        column where some card stands).  Numbers outside these mark nothing."""

    def marks_at(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        at: Lane,
        when: Lane | None = None,
    ) -> tuple[Lane, ...]:
        """Per number ``j`` of ``seconds`` a lane value: for each lane, the place
        ``(at, j)`` of :meth:`marks`, read as :meth:`~castlerules.core.ops.Ops.select`
        reads the table's rows at ``at`` (a number of ``firsts``, a run of consecutive
        numbers; the lanes whose ``at`` is not one of them read what ``select`` reads
        out of range): the squares held in each card's own column."""


def lanes_of(ops: Ops) -> Lanes:
    """The lanes of interpretation ``ops``: its own (``ops.lanes``: arrays), or tuples."""
    own: Lanes | None = getattr(ops, "lanes", None)
    return own if own is not None else TupleLanes(ops)


def _fields(item: Any) -> tuple[Any, ...]:
    return attrs.fields(type(item))  # type: ignore[no-any-return]


def _is_attrs(item: Any) -> bool:
    return getattr(type(item), "__attrs_attrs__", None) is not None


def _size(args: Sequence[Any]) -> int | None:
    """The number of lanes of the first lane value among ``args`` (None: none is)."""
    for arg in args:
        if type(arg) is tuple:
            return len(arg)
        if _is_attrs(arg):
            size = _size([getattr(arg, f.name) for f in _fields(arg)])
            if size is not None:
                return size
    return None


def _split(arg: Any, size: int) -> Sequence[Any]:
    """``arg``'s value in each of ``size`` lanes: a tuple's items, an attrs instance per
    lane (its lane fields read there), or ``arg`` itself in every lane."""
    if type(arg) is tuple:
        return arg
    if _is_attrs(arg):
        fields = [_split(getattr(arg, f.name), size) for f in _fields(arg)]
        kind = type(arg)
        return [kind(*values) for values in zip(*fields, strict=True)]
    return [arg] * size


def _gather(proto: Any, results: Sequence[Any]) -> Any:
    """One result per lane turned into one result of lanes, shaped as ``proto`` (a
    function's result: its tuples and attrs instances are outputs, field by field)."""
    if type(proto) is tuple:
        return tuple(_gather(p, [r[i] for r in results]) for i, p in enumerate(proto))
    if _is_attrs(proto):
        return type(proto)(
            *(
                _gather(getattr(proto, f.name), [getattr(r, f.name) for r in results])
                for f in _fields(proto)
            )
        )
    return tuple(results)


class TupleLanes:
    """Lanes as tuples, for an interpretation of one value at a time (plain values, Z3
    terms): every operation is the interpretation's own, lane by lane."""

    __slots__ = ("_kept", "_marked", "o")

    def __init__(self, ops: Ops) -> None:
        self.o = ops
        self._kept: dict[int, tuple[Any, Sequence[Any]]] = {}
        self._marked: dict[Any, tuple[Any, tuple[tuple[Value, ...], ...]]] = {}

    def _lanes(self, arg: Any, size: int) -> Sequence[Any]:
        """:func:`_split`, remembered for an attrs instance (a board's cards, split into
        one instance per card once)."""
        if type(arg) is tuple:
            return arg
        if not _is_attrs(arg):
            return [arg] * size
        kept = self._kept.get(id(arg))
        if kept is None or kept[0] is not arg:
            kept = (arg, _split(arg, size))
            self._kept[id(arg)] = kept
        return kept[1]

    def items(self, values: Sequence[Value]) -> Lane:
        return tuple(values)

    def table(self, numbers: Sequence[int]) -> Lane:
        return tuple(numbers)

    def index(self, size: int) -> Lane:
        return tuple(range(size))

    def unpack(self, lane: Lane, size: int) -> tuple[Value, ...]:
        assert len(lane) == size
        return tuple(lane)

    def map(self, function: Callable[..., Any], *args: Any) -> Any:
        size = _size(args)
        assert size is not None, "map: no lane value among the arguments"
        if all(type(a) is tuple for a in args):
            out = [function(*values) for values in zip(*args, strict=True)]
        else:
            split = [self._lanes(a, size) for a in args]
            out = [function(*values) for values in zip(*split, strict=True)]
        return _gather(out[0], out)

    def grid(
        self,
        function: Callable[..., Any],
        rows: Sequence[Any] = (),
        cols: Sequence[Any] = (),
        cells: Sequence[Any] = (),
    ) -> Any:
        outer = _size([*rows, *cells])
        inner = _size([*cols, *(c[0] for c in cells)])
        assert outer is not None and inner is not None, "grid: no lanes on an axis"
        across = list(zip(*(self._lanes(c, inner) for c in cols), strict=True)) or [()] * inner
        down = list(zip(*(self._lanes(r, outer) for r in rows), strict=True)) or [()] * outer
        lines = []
        for k in range(outer):
            row = down[k]
            line = [c[k] for c in cells]
            lines.append(
                [function(*row, *across[j], *(c[j] for c in line), k == j) for j in range(inner)]
            )
        proto = lines[0][0]
        if type(proto) is not tuple and not _is_attrs(proto):
            return tuple(tuple(line) for line in lines)
        return _gather(proto, [_gather(proto, line) for line in lines])

    def _inner(self, lane: Lane, reduce: Callable[[Sequence[Value]], Value]) -> Value:
        if lane and type(lane[0]) is tuple:
            return tuple(reduce(row) for row in lane)
        return reduce(lane)

    def any(self, lane: Lane) -> Value:
        return self._inner(lane, self.o.any)

    def all(self, lane: Lane) -> Value:
        return self._inner(lane, self.o.all)

    def total(self, lane: Lane) -> Value:
        return self._inner(lane, self.o.total)

    def count(self, lane: Lane) -> Value:
        return self._inner(lane, self.o.count)

    def first(self, lane: Lane) -> Value:
        return self._inner(lane, lambda row: self.o.first(list(row)))

    def highest(self, cond: Lane, numbers: Lane) -> Value:
        o = self.o

        def best(row: Sequence[Value]) -> Value:
            out: Value = o.lit(0)
            for c, v in zip(row, numbers, strict=True):
                out = o.ite(o.all([c, out < v]), v, out)
            return out

        return self._inner(cond, best)

    def at(self, lane: Lane, index: Value) -> Value:
        return self.o.select(lane, index)

    def marks(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        when: Lane | None = None,
    ) -> tuple[tuple[Value, ...], ...]:
        # The same lanes' table is read per first number and at each lane's own
        # (marks_at): built once.
        key = (id(first), id(second), tuple(firsts), tuple(seconds), id(when))
        kept = self._marked.get(key)
        if kept is not None:  # its lanes are kept alive with it: the ids are theirs
            return kept[1]
        table = self._marks(first, second, firsts, seconds, when)
        self._marked[key] = ((first, second, when), table)
        return table

    def _marks(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        when: Lane | None,
    ) -> tuple[tuple[Value, ...], ...]:
        o = self.o
        extra = [()] * len(first) if when is None else [(w,) for w in when]
        return tuple(
            tuple(
                o.any(
                    [
                        o.all([a == i, b == j, *w])
                        for a, b, w in zip(first, second, extra, strict=True)
                    ]
                )
                for j in seconds
            )
            for i in firsts
        )

    def marks_at(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        at: Lane,
        when: Lane | None = None,
    ) -> tuple[Lane, ...]:
        o, low = self.o, firsts[0]
        table = self.marks(first, second, firsts, seconds, when)
        return tuple(
            tuple(o.select([row[j] for row in table], a, low) for a in at)
            for j in range(len(seconds))
        )


__all__ = ["Lane", "Lanes", "TupleLanes", "lanes_of"]
