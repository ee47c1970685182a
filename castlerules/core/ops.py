"""The operations a rule kernel is written in, and their plain-Python interpretation.

A rule kernel (:mod:`castlerules.throne.kernel`) states a game's rules once,
as functions of *values*: the fields of a position, the number of a move, the
options.  It never branches in Python on a value (no ``if``, ``and``, ``or``,
``not``, ``min``, no indexing by a value); it asks an :class:`Ops` instead, so
that the same functions run on

- plain Python integers and Booleans (:data:`CONCRETE`, here): the slow,
  obviously correct reference the fast engine is checked against;
- Z3 terms (:mod:`castlerules.symbolic`): the transition the proofs reason about;
- arrays of many games (a batch engine): one operation per rule for all games.

What a kernel may do with values besides the operations below: Python's
arithmetic and comparison operators between values and whole numbers (``+``,
``-``, ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``), which integers, Z3 terms
and numpy arrays all have.  Loops run over *sizes* only (the seats, the
characters, the floors, the move numbers), which are plain Python integers of
the kernel's shape, never over values.

>>> o = CONCRETE
>>> o.ite(o.all([3 < 4, o.not_(False)]), 10, 20), o.select((5, 6, 7), 2)
(10, 7)
>>> o.lookup((0, 1, 2, 3, 4, 5, 10), 7, low=1), o.store((0, 0, 0), 1, 9)
(10, (0, 9, 0))
>>> o.pick([False, True], [lambda: "first", lambda: "second"])
'second'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeAlias, TypeVar

import attrs

Value: TypeAlias = Any
"""A value of some interpretation: an int or bool, a Z3 term, an array."""

T = TypeVar("T")


class Guard(tuple[str, str, Any]):
    """One condition a move must meet: the 3-tuple ``(clause, what it asks, broken)``,
    where ``broken`` is the value that holds when the move breaks it, and the name of the
    refusal it gives, :attr:`refusal` (the engine's
    :attr:`~castlerules.core.IllegalMove.refusal` for it, listed in
    :mod:`castlerules.casebook.refusals`).  Whoever keys something on a guard keys it on
    that name, never on the text of ``what``.

    >>> g = Guard("A8", "a flipped card never moves", False, "ascent-flipped")
    >>> clause, what, broken = g
    >>> g.refusal, clause, broken
    ('ascent-flipped', 'A8', False)
    """

    refusal: str

    def __new__(cls, clause: str, what: str, broken: Value, refusal: str) -> Guard:
        guard = super().__new__(cls, (clause, what, broken))
        guard.refusal = refusal
        return guard

    def __getnewargs__(self) -> tuple[str, str, Value, str]:
        return (self[0], self[1], self[2], self.refusal)


@functools.cache
def _plain_guard(clause: str, what: str, broken: bool, refusal: str) -> Guard:
    return Guard(clause, what, broken, refusal)


def guard(clause: str, what: str, broken: Value, refusal: str) -> Guard:
    """``Guard(clause, what, broken, refusal)``, the form the kernels write their guards
    in.  Where ``broken`` is a plain Boolean (:data:`CONCRETE`), one shared instance per
    record: a Guard is immutable, and the reference judges every move number of every
    position it is asked about.  Any other value (a Z3 term, an array) gets a new Guard.

    >>> guard("B3", "the game is not over", False, "throne-game-over") is guard(
    ...     "B3", "the game is not over", False, "throne-game-over")
    True
    >>> guard("B3", "the game is not over", 1 == 1, "throne-game-over")[2]
    True
    """
    if broken is True or broken is False:
        return _plain_guard(clause, what, broken, refusal)
    return Guard(clause, what, broken, refusal)


class Ops(Protocol):
    """The operations of one interpretation (see the module's text for the discipline)."""

    def lit(self, value: int | bool) -> Value:
        """A constant of this interpretation."""

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        """``then`` where ``cond`` holds, else ``other`` (both are computed)."""

    def all(self, items: Iterable[Value]) -> Value:
        """Conjunction (True when empty)."""

    def any(self, items: Iterable[Value]) -> Value:
        """Disjunction (False when empty)."""

    def not_(self, item: Value) -> Value:
        """Negation."""

    def total(self, items: Iterable[Value]) -> Value:
        """The sum of the items (0 when empty)."""

    def count(self, conditions: Iterable[Value]) -> Value:
        """How many conditions hold."""

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        """``items[index - low]`` for a value ``index`` in ``low..low+len(items)-1``."""

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        """``table[index - low]``: a static table of numbers read at a value index."""

    def store(self, items: Sequence[Value], index: Value, value: Value) -> tuple[Value, ...]:
        """``items`` with ``items[index]`` replaced by ``value``."""

    def first(self, conditions: Sequence[Value]) -> Value:
        """The index of the first condition that holds, -1 when none does."""

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        """The result of the maker whose condition holds (exactly one holds, or the
        last maker's when none does); results are values, tuples of values or attrs
        instances of values."""


class Concrete:
    """The interpretation on plain Python integers and Booleans."""

    __slots__ = ()

    def lit(self, value: int | bool) -> Value:
        return value

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        return then if cond else other

    def all(self, items: Iterable[Value]) -> Value:
        return all(items)

    def any(self, items: Iterable[Value]) -> Value:
        return any(items)

    def not_(self, item: Value) -> Value:
        return not item

    def total(self, items: Iterable[Value]) -> Value:
        return sum(items)

    def count(self, conditions: Iterable[Value]) -> Value:
        return sum(1 for c in conditions if c)

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        return items[index - low]

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        return table[index - low]

    def store(self, items: Sequence[Value], index: Value, value: Value) -> tuple[Value, ...]:
        out = list(items)
        out[index] = value
        return tuple(out)

    def first(self, conditions: Sequence[Value]) -> Value:
        for i, cond in enumerate(conditions):
            if cond:
                return i
        return -1

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        for cond, make in zip(conditions, makers, strict=True):
            if cond:
                return make()
        return makers[-1]()


CONCRETE = Concrete()
"""The plain-Python interpretation (an :class:`Ops`)."""


def merge(ops: Ops, cond: Value, a: T, b: T) -> T:
    """``a`` where ``cond`` holds, else ``b``, field by field: for values, tuples of
    them and attrs instances of them (the generic part of :meth:`Ops.pick`).  An
    interpretation that keeps a tuple as one value of its own (arrays: the cards'
    fields as one array) merges it whole through its ``merge_whole(cond, a, b)``,
    which answers None for anything else."""
    whole = getattr(ops, "merge_whole", None)
    if whole is not None and isinstance(a, tuple):
        merged = whole(cond, a, b)
        if merged is not None:
            return merged  # type: ignore[no-any-return]
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        return tuple(merge(ops, cond, x, y) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]
    if attrs.has(type(a)):
        names = [f.name for f in attrs.fields(type(a))]  # type: ignore[arg-type]
        return attrs.evolve(  # type: ignore[misc]
            a, **{n: merge(ops, cond, getattr(a, n), getattr(b, n)) for n in names}
        )
    return ops.ite(cond, a, b)  # type: ignore[no-any-return]


def first_of(ops: Ops, conditions: Sequence[Value]) -> Value:
    """:meth:`Ops.first` as a chain of :meth:`Ops.ite` (for an interpretation that
    computes every branch)."""
    out: Value = ops.lit(-1)
    for i in range(len(conditions) - 1, -1, -1):
        out = ops.ite(conditions[i], i, out)
    return out


def tied_highest(ops: Ops, values: Sequence[Value]) -> tuple[Value, ...]:
    """Per value: it is the highest of ``values`` (every one of them that ties for it).

    >>> tied_highest(CONCRETE, (3, 7, 1, 7))
    (False, True, False, True)
    """
    best = values[0]
    for x in values[1:]:
        best = ops.ite(x > best, x, best)
    return tuple(x == best for x in values)


def fold(ops: Ops, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
    """:meth:`Ops.pick` for an interpretation that computes every branch: the
    results merged from the last up (the last is the default)."""
    out = makers[-1]()
    for cond, make in zip(reversed(conditions[:-1]), reversed(makers[:-1]), strict=True):
        out = merge(ops, cond, make(), out)
    return out
