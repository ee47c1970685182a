"""The operations of :mod:`castlerules.core.ops` on Z3 terms.

Every operation accepts plain Python integers and Booleans where a term is
expected (a kernel compares terms with whole numbers, and some of its values
are constants) and folds them when it can, so that a concrete part of a
position stays concrete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import z3

from castlerules.core.ops import Value, first_of, fold

T = TypeVar("T")


def _bool(value: Value) -> Any:
    return z3.BoolVal(value) if isinstance(value, bool) else value


def _known(cond: Value) -> bool | None:
    """The truth of a condition known without a solver (a bool or a Z3 literal), else None."""
    if isinstance(cond, bool):
        return cond
    if z3.is_true(cond):
        return True
    if z3.is_false(cond):
        return False
    return None


def _term(value: Value) -> Any:
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


class Symbolic:
    """The interpretation on Z3 terms (an :class:`~castlerules.core.ops.Ops`)."""

    __slots__ = ()

    def lit(self, value: int | bool) -> Value:
        return _term(value)

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        known = _known(cond)
        if known is not None:
            return then if known else other
        return z3.If(cond, _term(then), _term(other))

    def all(self, items: Iterable[Value]) -> Value:
        parts = []
        for item in items:
            known = _known(item)
            if known is False:
                return z3.BoolVal(False)
            if known is None:
                parts.append(item)
        if not parts:
            return z3.BoolVal(True)
        return parts[0] if len(parts) == 1 else z3.And(*parts)

    def any(self, items: Iterable[Value]) -> Value:
        parts = []
        for item in items:
            known = _known(item)
            if known is True:
                return z3.BoolVal(True)
            if known is None:
                parts.append(item)
        if not parts:
            return z3.BoolVal(False)
        return parts[0] if len(parts) == 1 else z3.Or(*parts)

    def not_(self, item: Value) -> Value:
        known = _known(item)
        if known is not None:
            return z3.BoolVal(not known)
        return z3.Not(item)

    def total(self, items: Iterable[Value]) -> Value:
        terms = [_term(x) for x in items]
        if not terms:
            return z3.IntVal(0)
        return terms[0] if len(terms) == 1 else z3.Sum(*terms)

    def count(self, conditions: Iterable[Value]) -> Value:
        return self.total(self.ite(c, 1, 0) for c in conditions)

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return items[index - low]
        out = _term(items[0])
        for i in range(1, len(items)):
            out = self.ite(index == i + low, items[i], out)
        return out

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        return self.select([z3.IntVal(v) for v in table], index, low)

    def store(self, items: Sequence[Value], index: Value, value: Value) -> tuple[Value, ...]:
        return tuple(self.ite(index == i, value, x) for i, x in enumerate(items))

    def first(self, conditions: Sequence[Value]) -> Value:
        return first_of(self, [_bool(c) for c in conditions])

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        return fold(self, conditions, makers)


Z3 = Symbolic()
"""The interpretation on Z3 terms."""
