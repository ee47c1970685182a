"""The rule kernels' operations on arrays of many games (numpy, or jax.numpy).

:class:`ArrayOps` interprets :class:`castlerules.core.ops.Ops` over one
array module ``xp``: every value is an array with one entry per game (or a
plain number, the same for every game), every operation one array
operation for all games.  A static index (a plain ``int``, which the
kernels use where a move number or a seat is known in advance) reads the
item directly; a value index becomes a chain of ``where`` (a few items) or a
table lookup.  The same code runs under :func:`jax.jit`, where the chain is
traced once and compiled.

>>> import numpy as np
>>> o = ArrayOps(np)
>>> o.ite(np.array([True, False]), 1, 2).tolist()
[1, 2]
>>> o.select((np.array([10, 11]), np.array([20, 21])), np.array([1, 0])).tolist()
[20, 11]
>>> o.lookup((5, 6, 7), np.array([2, 1]), low=1).tolist()
[6, 5]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import attrs

from castlerules.core.ops import Value, first_of, fold

T = TypeVar("T")

_STACKED = 4
"""From this many conditions on, a scoped :meth:`ArrayOps.first` is one reduction (and
:meth:`ArrayOps.pick` selects by its index) rather than a chain of selects."""

_CHAIN = 16
"""Tables up to this length are read by comparisons (vector operations), longer ones
by a gather (which reads one game at a time)."""


def _same(a: Value, b: Value) -> bool:
    """``a`` and ``b`` are one value: the same object, or equal plain numbers of one type."""
    return a is b or (type(a) is type(b) and isinstance(a, int) and a == b)


def _key(x: Any) -> Any:
    """``x`` as part of a memo's key: a plain number by its type and value, a sequence by
    its items' keys, anything else (an array) by its identity."""
    if isinstance(x, int):
        return (type(x), x)
    if isinstance(x, (tuple, list)):
        return tuple(_key(y) for y in x)
    return id(x)


class ArrayOps:
    """The kernels' operations on the arrays of ``xp`` (numpy or jax.numpy).

    A :meth:`scoped` copy remembers what it computed: the same operation on the same
    operands (the same arrays, the same numbers) gives back the array it gave before,
    so that a kernel that asks the same question in several of its cases (each
    effect's round score, say) traces it once, and the selects between cases that
    share a result vanish (:meth:`ite` of one value twice is that value)."""

    __slots__ = ("_memo", "int", "xp")

    def __init__(self, xp: Any, integers: Any = None) -> None:
        self.xp = xp
        self.int = xp.int16 if integers is None else integers
        """The integer type of the games' values (16 bits hold every value of the
        kernels, and pack more games into each vector instruction)."""
        self._memo: dict[Any, tuple[Any, Value]] | None = None

    def scoped(self) -> ArrayOps:
        """These operations with a memo of their own (for one traced call: the memo
        holds its arrays until the copy is dropped)."""
        out = ArrayOps(self.xp, self.int)
        out._memo = {}
        return out

    def _recall(self, name: str, args: tuple[Any, ...], make: Callable[[], Value]) -> Value:
        """``make()``, or what it gave for the same ``name`` and ``args`` before."""
        memo = self._memo
        if memo is None:
            return make()
        key = (name, _key(args))
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        out = make()
        memo[key] = (args, out)  # the operands kept alive: their identities stay theirs
        return out

    def lit(self, value: int | bool) -> Value:
        return value

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        if isinstance(cond, bool):
            return then if cond else other
        if _same(then, other):  # e.g. a field two cases leave as it was: no select
            return then
        return self._recall("ite", (cond, then, other), lambda: self.xp.where(cond, then, other))

    def all(self, items: Iterable[Value]) -> Value:
        items = tuple(items)
        return self._recall("all", items, lambda: self._all(items))

    def _all(self, items: Sequence[Value]) -> Value:
        out: Value = True
        for item in items:
            if item is False:
                return False
            if item is not True:
                out = item if out is True else self.xp.logical_and(out, item)
        return out

    def any(self, items: Iterable[Value]) -> Value:
        items = tuple(items)
        return self._recall("any", items, lambda: self._any(items))

    def _any(self, items: Sequence[Value]) -> Value:
        out: Value = False
        for item in items:
            if item is True:
                return True
            if item is not False:
                out = item if out is False else self.xp.logical_or(out, item)
        return out

    def not_(self, item: Value) -> Value:
        if isinstance(item, bool):
            return not item
        return self._recall("not", (item,), lambda: self.xp.logical_not(item))

    def total(self, items: Iterable[Value]) -> Value:
        items = tuple(items)
        return self._recall("total", items, lambda: self._total(items))

    @staticmethod
    def _total(items: Sequence[Value]) -> Value:
        out: Value = 0
        for item in items:
            out = out + item
        return out

    def count(self, conditions: Iterable[Value]) -> Value:
        items = tuple(conditions)
        return self._recall("count", items, lambda: self._count(items))

    def _count(self, conditions: Sequence[Value]) -> Value:
        out: Value = 0
        for cond in conditions:
            out = out + (int(cond) if isinstance(cond, bool) else cond.astype(self.int))
        return out

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return items[index - low]
        return self._recall("select", (items, index, low), lambda: self._select(items, index, low))

    def _select(self, items: Sequence[Value], index: Value, low: int) -> Value:
        out = items[-1]
        for i in range(len(items) - 2, -1, -1):
            out = self.xp.where(index == i + low, items[i], out)
        return out

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return table[index - low]
        return self._recall("lookup", (table, index, low), lambda: self._lookup(table, index, low))

    def _lookup(self, table: Sequence[int], index: Value, low: int) -> Value:
        if len(table) <= _CHAIN:  # a short table: comparisons, one vector operation each
            xp = self.xp
            out = xp.asarray(table[-1], dtype=self.int)
            for i in range(len(table) - 2, -1, -1):
                if table[i] != table[i + 1]:
                    out = xp.where(index <= i + low, xp.asarray(table[i], dtype=self.int), out)
            return out
        return self.xp.asarray(table, dtype=self.int)[index - low]

    def store(self, items: Sequence[Value], index: Value, value: Value) -> tuple[Value, ...]:
        if isinstance(index, int):
            return tuple(value if i == index else x for i, x in enumerate(items))
        stored: tuple[Value, ...] = self._recall(
            "store",
            (items, index, value),
            lambda: tuple(self.xp.where(index == i, value, x) for i, x in enumerate(items)),
        )
        return stored

    def first(self, conditions: Sequence[Value]) -> Value:
        conditions = tuple(conditions)
        if self._memo is None or len(conditions) < _STACKED:
            return first_of(self, conditions)
        return self._recall("first", conditions, lambda: self._first(conditions))

    def _first(self, conditions: Sequence[Value]) -> Value:
        """:meth:`first` as one reduction: the conditions stacked, and each game's first
        row that holds (a row that always holds after them: -1).  The compiler computes
        it once, where a chain of selects would be copied into each of its uses."""
        xp = self.xp
        if any(isinstance(c, bool) for c in conditions):
            return first_of(self, conditions)
        shape = xp.broadcast_shapes(*(c.shape for c in conditions))
        rows = [xp.broadcast_to(c, shape) for c in conditions]
        found = xp.argmax(xp.stack([*rows, xp.ones(shape, dtype=bool)]), axis=0)
        return xp.where(found == len(conditions), -1, found)

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        if self._memo is None or len(conditions) < _STACKED:
            return fold(self, conditions, makers)
        return self.pick_first(self.first(conditions), [make() for make in makers])

    def pick_first(self, first: Value, results: Sequence[T]) -> T:
        """:meth:`pick` of ``results`` where ``first`` is :meth:`first` of its
        conditions: field by field, the results that are one value (a field the cases
        leave as it was) one select, on whether ``first`` is one of theirs; the last
        result where no other's condition holds."""
        last = len(results) - 1
        hits: dict[int, Value] = {}

        def member(indices: Sequence[int]) -> Value:
            for i in indices:
                if i not in hits:
                    hits[i] = first == i
            return self.any(hits[i] for i in indices)

        def leaf(values: Sequence[Value]) -> Value:
            groups: dict[Any, list[int]] = {}
            for i, v in enumerate(values):
                groups.setdefault(_key(v), []).append(i)
            out = values[last]
            for indices in groups.values():
                if last not in indices:
                    out = self.ite(member(indices), values[indices[0]], out)
            return out

        def merged(items: Sequence[Any]) -> Any:
            head = items[0]
            if isinstance(head, tuple):
                return tuple(merged(parts) for parts in zip(*items, strict=True))
            if attrs.has(type(head)):
                names = [f.name for f in attrs.fields(type(head))]
                fields = {n: merged([getattr(x, n) for x in items]) for n in names}
                return attrs.evolve(head, **fields)
            return leaf(items)

        out: T = merged(results)
        return out
