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
    known = z3.Z3_get_bool_value(cond.ctx.ref(), cond.as_ast())
    if known == z3.Z3_L_TRUE:
        return True
    if known == z3.Z3_L_FALSE:
        return False
    return None


_TERMS = (z3.BoolRef, z3.ArithRef, z3.IntNumRef)


def _if(cond: Any, then: Any, other: Any) -> Any:
    """``z3.If`` through the C API when the three are terms of one context and the
    branches of one sort (the Python wrapper coerces and checks each argument)."""
    if type(cond) is z3.BoolRef and type(then) in _TERMS and type(other) in _TERMS:
        ctx = cond.ctx
        if then.ctx is ctx and other.ctx is ctx:
            ref = ctx.ref()
            a, b = then.as_ast(), other.as_ast()
            if z3.Z3_is_eq_sort(ref, z3.Z3_get_sort(ref, a), z3.Z3_get_sort(ref, b)):
                kind = z3.BoolRef if type(then) is z3.BoolRef else z3.ArithRef
                return kind(z3.Z3_mk_ite(ref, cond.as_ast(), a, b), ctx)
    return z3.If(cond, then, other)


def _term(value: Value) -> Any:
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


_LOOKUPS: dict[tuple[tuple[int, ...], int, int], tuple[Any, Any]] = {}
"""Table reads already built, by table, index term and offset (a kernel reads the
same table at the same index in many cases)."""

_LOOKUPS_KEPT = 100_000


class Symbolic:
    """The interpretation on Z3 terms (an :class:`~castlerules.core.ops.Ops`)."""

    __slots__ = ()

    def lit(self, value: int | bool) -> Value:
        return _term(value)

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        known = _known(cond)
        if known is not None:
            return then if known else other
        return _if(cond, _term(then), _term(other))

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
        items = list(items)
        if all(type(x) is int for x in items):  # plain numbers stay one
            return sum(items)
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
        if isinstance(index, int):  # a plain number stays one (a kernel's cases fold on it)
            return table[index - low]
        key = (tuple(table), index.get_id(), low)
        hit = _LOOKUPS.get(key)
        if hit is not None and hit[0] is index:
            return hit[1]
        if len(_LOOKUPS) > _LOOKUPS_KEPT:
            _LOOKUPS.clear()
        built = self.select([z3.IntVal(v) for v in table], index, low)
        _LOOKUPS[key] = (index, built)  # the index kept alive: its id is not reused
        return built

    def store(self, items: Sequence[Value], index: Value, value: Value) -> tuple[Value, ...]:
        return tuple(self.ite(index == i, value, x) for i, x in enumerate(items))

    def first(self, conditions: Sequence[Value]) -> Value:
        return first_of(self, [_bool(c) for c in conditions])

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        return fold(self, conditions, makers)


Z3 = Symbolic()
"""The interpretation on Z3 terms."""
