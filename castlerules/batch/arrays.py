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

from castlerules.core.ops import Value, first_of, fold

T = TypeVar("T")

_CHAIN = 16
"""Tables up to this length are read by comparisons (vector operations), longer ones
by a gather (which reads one game at a time)."""


class ArrayOps:
    """The kernels' operations on the arrays of ``xp`` (numpy or jax.numpy)."""

    __slots__ = ("int", "xp")

    def __init__(self, xp: Any, integers: Any = None) -> None:
        self.xp = xp
        self.int = xp.int16 if integers is None else integers
        """The integer type of the games' values (16 bits hold every value of the
        kernels, and pack more games into each vector instruction)."""

    def lit(self, value: int | bool) -> Value:
        return value

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        if isinstance(cond, bool):
            return then if cond else other
        return self.xp.where(cond, then, other)

    def all(self, items: Iterable[Value]) -> Value:
        out: Value = True
        for item in items:
            if item is False:
                return False
            if item is not True:
                out = item if out is True else self.xp.logical_and(out, item)
        return out

    def any(self, items: Iterable[Value]) -> Value:
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
        return self.xp.logical_not(item)

    def total(self, items: Iterable[Value]) -> Value:
        out: Value = 0
        for item in items:
            out = out + item
        return out

    def count(self, conditions: Iterable[Value]) -> Value:
        out: Value = 0
        for cond in conditions:
            out = out + (int(cond) if isinstance(cond, bool) else cond.astype(self.int))
        return out

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return items[index - low]
        out = items[-1]
        for i in range(len(items) - 2, -1, -1):
            out = self.xp.where(index == i + low, items[i], out)
        return out

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return table[index - low]
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
        return tuple(self.xp.where(index == i, value, x) for i, x in enumerate(items))

    def first(self, conditions: Sequence[Value]) -> Value:
        return first_of(self, conditions)

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        return fold(self, conditions, makers)
