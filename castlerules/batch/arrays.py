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

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import attrs

from castlerules.core.lanes import Lane
from castlerules.core.ops import Value, first_of, fold

T = TypeVar("T")

_STACKED = 4
"""From this many conditions on, a scoped :meth:`ArrayOps.first` is one reduction (and
:meth:`ArrayOps.pick` selects by its index) rather than a chain of selects."""

_CHAIN = 16
"""Tables up to this length are read by comparisons (vector operations), longer ones
by a gather (which reads one game at a time)."""


def _itself(value: Any) -> Any:
    return value


def _same(a: Value, b: Value) -> bool:
    """``a`` and ``b`` are one value: the same object, or equal plain numbers of one type."""
    return a is b or (type(a) is type(b) and isinstance(a, int) and a == b)


class Stacked(tuple[Any, ...]):
    """A tuple of per-card values (a :class:`~castlerules.ascent.kernel.KState` field)
    that is also one array, the cards its first axis (:attr:`array`): its items are
    that array's rows.  A kernel reads it as the tuple it is; the lanes
    (:meth:`AxisLanes.items`), the merges of :meth:`ArrayOps.merge_whole` and the batch's
    layout read the array, one operation for every card where the tuple would take
    one per card (and an item nobody reads is never computed: a compiler drops it).

    >>> import numpy as np
    >>> x = Stacked(np.array([[1, 2], [3, 4], [5, 6]]))
    >>> len(x), x[1].tolist(), x.array.shape
    (3, [3, 4], (3, 2))
    """

    array: Any

    def __new__(cls, array: Any) -> Stacked:
        out = super().__new__(cls, (array[i] for i in range(array.shape[0])))
        out.array = array
        return out


_Keys = dict[int, tuple[Any, Any]]
"""A scope's keys of its tuples, by identity: each entry holds its tuple (alive, so that
its identity is no other object's while the entry lasts) and the tuple's key."""


def _key(x: Any, keys: _Keys | None = None) -> Any:
    """``x`` as part of a memo's key: a plain number by its type and value, a sequence by
    its items' keys (a :class:`Stacked` by its array), anything else (an array) by its
    identity.  A tuple's key is kept in ``keys`` (where given) when no list is in it
    (nothing in it changes while it lives), and found there the next time.

    >>> import numpy as np
    >>> a, keys = np.arange(2), {}
    >>> table = (1, 2, 3, 4, 5)
    >>> _key(3), _key(True), _key(a) == id(a), _key((7, a), keys) == ((int, 7), id(a))
    ((<class 'int'>, 3), (<class 'bool'>, True), True, True)
    >>> _key(table, keys) == ("ints", table), keys[id(table)][0] is table
    (True, True)
    >>> mixed = ([1], 2)
    >>> _key(mixed, keys), id(mixed) in keys  # a list in it: not kept
    ((((<class 'int'>, 1),), (<class 'int'>, 2)), False)
    """
    kind = type(x)
    if kind is int or kind is bool:  # the usual cases first, by their exact types
        return (kind, x)
    opaque = _OPAQUE.get(kind)
    if opaque:
        return id(x)
    if opaque is None:
        _OPAQUE[kind] = not issubclass(kind, (int, tuple, list))
        return _key(x, keys)
    if kind is tuple and keys is not None:
        known = keys.get(id(x))
        if known is not None:
            return known[1]
        key, fixed = _items_key(x, keys)
        if fixed:
            keys[id(x)] = (x, key)
        return key
    if isinstance(x, int):
        return (kind, x)
    if isinstance(x, Stacked):
        return ("stacked", id(x.array))
    return _items_key(x, keys)[0]


_OPAQUE: dict[type, bool] = {}
"""Per type, whether :func:`_key` keys its values by their identities (not a number,
not a sequence)."""


def _items_key(items: Sequence[Any], keys: _Keys | None = None) -> tuple[Any, bool]:
    """:func:`_key` of a sequence: where its items are all integers (a table), the items
    themselves after a tag; else the tuple of its items' keys (the tagged form, a string
    first, is never the tuple of keys of another sequence: no item's key is a string).
    And whether the key holds while ``items`` lives, if it is a tuple: no list in it (a
    tuple in it kept in ``keys``)."""
    if len(items) > 4 and set(map(type, items)) == {int}:
        return ("ints", tuple(items)), True
    out: list[Any] = []
    fixed = True
    for item in items:  # the items' keys, the usual kinds without a call
        kind = type(item)
        if kind is int or kind is bool:
            out.append((kind, item))
        elif _OPAQUE.get(kind, False):
            out.append(id(item))
        else:
            out.append(_key(item, keys))
            if kind is tuple:
                fixed = fixed and keys is not None and id(item) in keys
            elif kind is not Stacked and not issubclass(kind, int):
                fixed = False  # a list (or another kind of sequence): it may change
    return tuple(out), fixed


class ArrayOps:
    """The kernels' operations on the arrays of ``xp`` (numpy or jax.numpy).

    A :meth:`scoped` copy remembers what it computed: the same operation on the same
    operands (the same arrays, the same numbers) gives back the array it gave before,
    so that a kernel that asks the same question in several of its cases (each
    effect's round score, say) traces it once, and the selects between cases that
    share a result vanish (:meth:`ite` of one value twice is that value)."""

    __slots__ = ("_keys", "_memo", "int", "lanes", "settle", "xp")

    def __init__(
        self, xp: Any, integers: Any = None, settle: Callable[[Any], Any] | None = None
    ) -> None:
        self.xp = xp
        self.settle = settle if settle is not None else _itself
        """Computes a value where it stands (a compiler may not copy its computation
        into each of its uses): the backend's ``settle``, or nothing to do."""
        self.int = xp.int16 if integers is None else integers
        """The integer type of the games' values (16 bits hold every value of the
        kernels, and pack more games into each vector instruction)."""
        self._memo: dict[Any, tuple[Any, Value]] | None = None
        self._keys: _Keys | None = None
        """The memo's keys of the tuples it has read (:func:`_key`)."""
        self.lanes = AxisLanes(self)
        """The kernels' lanes (the cards) as one more array axis (:class:`AxisLanes`)."""

    def scoped(self) -> ArrayOps:
        """These operations with a memo of their own (for one traced call: the memo
        holds its arrays until the copy is dropped)."""
        out = ArrayOps(self.xp, self.int, self.settle)
        out._memo, out._keys = {}, {}
        return out

    def _recall(self, name: str, args: tuple[Any, ...], make: Callable[[], Value]) -> Value:
        """``make()``, or what it gave for the same ``name`` and ``args`` before."""
        memo = self._memo
        if memo is None:
            return make()
        key = (name, _items_key(args, self._keys)[0])
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
        memo, keys = self._memo, self._keys
        if memo is None:
            return self._where(cond, then, other)
        # _recall's, its key read from the operands themselves (the most frequent operation)
        opaque = _OPAQUE.get  # an array: its identity, without a call
        key = (
            "ite",
            id(cond) if opaque(type(cond)) else _key(cond, keys),
            id(then) if opaque(type(then)) else _key(then, keys),
            id(other) if opaque(type(other)) else _key(other, keys),
        )
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        out = self._where(cond, then, other)
        memo[key] = ((cond, then, other), out)
        return out

    def _where(self, cond: Value, then: Value, other: Value) -> Value:
        return self.xp.where(cond, self._int(then), self._int(other))

    def _int(self, value: Value) -> Value:
        """A Python integer as a number of :attr:`int` (a select between two Python
        integers is then of the games' integer type, not the compiler's default of 32
        bits, at half the lanes a vector instruction holds); anything else as it is."""
        if isinstance(value, int) and not isinstance(value, bool):
            return self.xp.asarray(value, dtype=self.int)
        return value

    def all(self, items: Iterable[Value]) -> Value:
        # Not remembered: no kernel asks the same conjunction twice in a scope (in every
        # reading's games, none), so a memo would only cost its keys.  Every item made
        # first, then combined: the operations in the order a memo's key reads them.
        out: Value = True
        for item in tuple(items):
            if item is False:
                return False
            if item is not True:
                out = item if out is True else self.xp.logical_and(out, item)
        return out

    def any(self, items: Iterable[Value]) -> Value:
        items = tuple(items)
        rest = [item for item in items if item is not False]
        if len(rest) <= 1 or any(item is True for item in rest):
            return self._any(rest)  # no operation to remember: one item, or a constant
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
        memo = self._memo
        if memo is None:
            return self.xp.logical_not(item)
        key = ("not", id(item) if _OPAQUE.get(type(item)) else _key(item, self._keys))
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        out = self.xp.logical_not(item)
        memo[key] = ((item,), out)
        return out

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
        # Not remembered, as all's: no kernel counts the same conditions twice in a scope.
        out: Value = 0
        for cond in tuple(conditions):  # as all's: every condition made first
            out = out + (int(cond) if isinstance(cond, bool) else cond.astype(self.int))
        return out

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return items[index - low]
        if not isinstance(items, tuple | list):  # lanes (AxisLanes): one reduction
            return self.lanes.at(items, index - low if low else index)
        return self._recall("select", (items, index, low), lambda: self._select(items, index, low))

    def _select(self, items: Sequence[Value], index: Value, low: int) -> Value:
        if self.settle is not _itself and len(items) > 2 and getattr(index, "ndim", 0) == 1:
            # one reduction, computed once (a chain of selects would be copied into
            # each lane that reads it: see settle)
            return self.lanes.at(self.lanes.items(items), index - low if low else index)
        out = items[-1]
        for i in range(len(items) - 2, -1, -1):
            out = self.xp.where(index == i + low, items[i], out)
        return out

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        if isinstance(index, int):
            return table[index - low]
        memo, keys = self._memo, self._keys
        if memo is None:
            return self._lookup(table, index, low)
        # _recall's, as ite's: a table (a few, read many times) by its kept key
        key = (
            "lookup",
            _key(table, keys),
            id(index) if _OPAQUE.get(type(index)) else _key(index, keys),
            low,
        )
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        out = self._lookup(table, index, low)
        memo[key] = ((table, index, low), out)
        return out

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
        if len(shape) > 1:  # lanes (AxisLanes): a reduction across them reads strided
            return first_of(self, conditions)
        rows = [xp.broadcast_to(c, shape) for c in conditions]
        found = xp.argmax(xp.stack([*rows, xp.ones(shape, dtype=bool)]), axis=0)
        # Of the games' integer type, as first_of's selects of Python integers are
        # (ite): argmax's 32 bits would widen every number computed from it.
        return xp.where(found == len(conditions), -1, found).astype(self.int)

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        if self._memo is None or len(conditions) < _STACKED:
            return fold(self, conditions, makers)
        return self.pick_first(self.first(conditions), [make() for make in makers])

    def merge_whole(self, cond: Value, a: Any, b: Any) -> Any:
        """Two :class:`Stacked` tuples merged as their arrays, one select for all the
        cards (:func:`castlerules.core.ops.merge` asks, and merges anything else field by
        field: None)."""
        if not (isinstance(a, Stacked) and isinstance(b, Stacked)):
            return None
        if cond is True or a.array is b.array:
            return a
        if cond is False:
            return b
        return Stacked(self.xp.where(cond, a.array, b.array))

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
            keys, opaque = self._keys, _OPAQUE.get
            for i, v in enumerate(values):
                key = id(v) if opaque(type(v)) else _key(v, keys)
                groups.setdefault(key, []).append(i)
            out = values[last]
            for indices in groups.values():
                if last not in indices:
                    out = self.ite(member(indices), values[indices[0]], out)
            return out

        def merged(items: Sequence[Any]) -> Any:
            head = items[0]
            if all(isinstance(x, Stacked) for x in items):
                return Stacked(leaf([x.array for x in items]))
            if isinstance(head, tuple):
                return tuple(merged(parts) for parts in zip(*items, strict=True))
            if attrs.has(type(head)):
                names = [f.name for f in attrs.fields(type(head))]
                fields = {n: merged([getattr(x, n) for x in items]) for n in names}
                return attrs.evolve(head, **fields)
            return leaf(items)

        out: T = merged(results)
        return out


def _expand(arg: Any, axis: int) -> Any:
    """``arg`` with a lane axis inserted at ``axis`` (its lane values: arrays of two or
    more axes, and the fields of an attrs instance of them); anything else as it is."""
    if attrs.has(type(arg)):
        return attrs.evolve(
            arg, **{f.name: _expand(getattr(arg, f.name), axis) for f in attrs.fields(type(arg))}
        )
    if getattr(arg, "ndim", 0) >= 2:
        return arg[:, None] if axis == 1 else arg[None]
    return arg


def _leaves(arg: Any) -> list[Any]:
    """The values of ``arg``: itself, or those of its items (a tuple) or fields (attrs)."""
    if isinstance(arg, tuple):
        return [x for item in arg for x in _leaves(item)]
    if attrs.has(type(arg)):
        return [x for f in attrs.fields(type(arg)) for x in _leaves(getattr(arg, f.name))]
    return [arg]


def _rebuilt(shape: Any, values: Iterator[Any]) -> Any:
    """``shape`` (as :func:`_leaves` reads it) with its values taken from ``values``."""
    if isinstance(shape, tuple):
        return tuple(_rebuilt(item, values) for item in shape)
    if attrs.has(type(shape)):
        return attrs.evolve(
            shape,
            **{f.name: _rebuilt(getattr(shape, f.name), values) for f in attrs.fields(type(shape))},
        )
    return next(values)


class Grid:
    """A lane value of pairs of lanes (:meth:`AxisLanes.grid` under a compiler), computed
    as it is read: a reduction over its inner lanes reads it column by column
    (:meth:`column`, each computed where the reduction reads it, so that no array of
    every pair of every game is written and read back), and a grid built of it, or a
    board that carries it, reads it whole (:meth:`whole`, computed once; its columns are
    then its slices).

    >>> import numpy as np
    >>> g = Grid(lambda: np.arange(6).reshape(2, 3, 1), lambda j: np.array([[j], [3 + j]]), 3)
    >>> g.column(2).tolist(), g.whole().shape, g.column(2).tolist()
    ([[2], [5]], (2, 3, 1), [[2], [5]])
    """

    __slots__ = ("_columns", "_make_column", "_make_whole", "_whole", "inner")

    def __init__(
        self,
        whole: Callable[[], Any],
        column: Callable[[int], Any],
        inner: int,
        columns: dict[int, Any] | None = None,
    ) -> None:
        self._make_whole, self._make_column, self.inner = whole, column, inner
        self._whole: Any = None
        self._columns: dict[int, Any] = dict(columns or {})

    def whole(self) -> Any:
        """The array of every pair: ``(outer, inner, games)``."""
        if self._whole is None:
            self._whole = self._make_whole()
        return self._whole

    def column(self, j: int) -> Any:
        """The pairs ``(k, j)`` of every ``k``: ``(outer, games)``."""
        if self._whole is not None:
            return self._whole[:, j]
        if j not in self._columns:
            self._columns[j] = self._make_column(j)
        return self._columns[j]

    def columns(self) -> list[Any]:
        """Every :meth:`column`, in order."""
        return [self.column(j) for j in range(self.inner)]


def whole(value: Any) -> Any:
    """``value`` with every :class:`Grid` in it (a tuple of them, or one) an array."""
    if isinstance(value, Grid):
        return value.whole()
    if isinstance(value, tuple):
        return tuple(whole(v) for v in value)
    return value


def _item(arg: Any, j: int) -> Any:
    """Lane ``j`` of ``arg`` (its lane values, and the fields of an attrs instance of
    them): what column ``j`` of a grid reads of its ``cols``; anything else as it is."""
    if attrs.has(type(arg)):
        return attrs.evolve(
            arg, **{f.name: _item(getattr(arg, f.name), j) for f in attrs.fields(type(arg))}
        )
    if getattr(arg, "ndim", 0) >= 2:
        return arg[j]
    return arg


def _pairwise(parts: list[Any], combine: Callable[[Any, Any], Any]) -> Any:
    """``parts`` combined by ``combine`` in a tree of pairs (one elementwise operation per
    pair, which a compiler fuses into one pass over the games)."""
    while len(parts) > 1:
        paired = [combine(a, b) for a, b in zip(parts[::2], parts[1::2], strict=False)]
        parts = paired + ([parts[-1]] if len(parts) % 2 else [])
    return parts[0]


class AxisLanes:
    """The kernels' lanes on arrays: a lane value is an array whose leading axes are the
    lanes (one for the cards, two for the pairs of cards of
    :meth:`~castlerules.core.lanes.Lanes.grid`) and whose last axis is the games' (of
    length 1 for a value the same in every game); a card-local function is called once
    on the whole array and broadcasts (see :mod:`castlerules.core.lanes`).  Under a
    compiler a grid is a :class:`Grid`, read column by column where it is reduced.

    >>> import numpy as np
    >>> L = ArrayOps(np).lanes
    >>> sq = L.items((np.array([0, 1]), np.array([2, 2]), np.array([2, 0])))
    >>> sq.shape                                   # 3 cards, 2 games
    (3, 2)
    >>> L.any(L.map(lambda x: x == 2, sq)).tolist(), L.count(L.map(lambda x: x == 2, sq)).tolist()
    ([True, True], [2, 1])
    >>> same = L.grid(lambda x, u, diag: x == u, rows=[sq], cols=[sq])
    >>> same.shape, L.count(same).tolist()         # per card: the cards on its square
    ((3, 3, 2), [[1, 1], [2, 1], [2, 1]])
    >>> L.highest(same, L.table((5, 6, 7))).tolist(), L.at(sq, np.array([2, 0])).tolist()
    ([[5, 5], [7, 6], [7, 7]], [2, 1])
    >>> col = L.items((np.array([0, 1]), np.array([1, 1]), np.array([1, 0])))
    >>> [[x.tolist() for x in row] for row in L.marks(col, sq, (0, 1), (1, 2))]
    [[[False, False], [False, False]], [[False, True], [True, True]]]
    """

    __slots__ = ("o",)

    def __init__(self, ops: ArrayOps) -> None:
        self.o = ops

    def _cast(self, value: Value) -> Any:
        if isinstance(value, bool):
            return self.o.xp.asarray(value)
        if isinstance(value, int):
            return self.o.xp.asarray(value, dtype=self.o.int)
        return value

    def items(self, values: Sequence[Value]) -> Lane:
        xp = self.o.xp
        if isinstance(values, Stacked):
            return values.array
        if all(isinstance(v, int) for v in values):
            kind = bool if all(isinstance(v, bool) for v in values) else self.o.int
            return xp.asarray(values, dtype=kind)[:, None]
        rows = [self._cast(v) for v in values]
        games = xp.broadcast_shapes(*(r.shape for r in rows), (1,))
        return self.o.settle(xp.stack([xp.broadcast_to(r, games) for r in rows]))

    def table(self, numbers: Sequence[int]) -> Lane:
        return self.o.xp.asarray(numbers, dtype=self.o.int)[:, None]

    def index(self, size: int) -> Lane:
        return self.o.xp.arange(size, dtype=self.o.int)[:, None]

    def unpack(self, lane: Lane, size: int) -> tuple[Value, ...]:
        assert lane.shape[0] == size
        return Stacked(lane)

    def _shaped(self, result: Any, lanes: tuple[int, ...]) -> Any:
        """``result`` (a function's) with every value broadcast over the ``lanes``."""
        if isinstance(result, tuple):
            return tuple(self._shaped(r, lanes) for r in result)
        if attrs.has(type(result)):
            return attrs.evolve(
                result,
                **{
                    f.name: self._shaped(getattr(result, f.name), lanes)
                    for f in attrs.fields(type(result))
                },
            )
        xp, value = self.o.xp, self._cast(result)
        if value.ndim >= len(lanes) + 1:
            return value
        return xp.broadcast_to(value, xp.broadcast_shapes(value.shape, (*lanes, 1)))

    def map(self, function: Callable[..., Any], *args: Any) -> Any:
        args = tuple(whole(a) for a in args)
        arrays = [a for arg in args for a in _leaves(arg) if getattr(a, "ndim", 0) >= 2]
        assert arrays, "map: no lane value among the arguments"
        widest = max(arrays, key=lambda a: a.ndim)
        out = self._shaped(function(*args), tuple(widest.shape[:-1]))
        return self._keep(out) if widest.ndim == 2 else out

    def _keep(self, result: Any) -> Any:
        """``result`` (a value, tuples and attrs instances of them) through the settle of
        :class:`ArrayOps`, all its arrays at once."""
        leaves = _leaves(result)
        kept = iter(self.o.settle(tuple(leaves)))
        return _rebuilt(result, kept)

    def grid(
        self,
        function: Callable[..., Any],
        rows: Sequence[Any] = (),
        cols: Sequence[Any] = (),
        cells: Sequence[Any] = (),
    ) -> Any:
        """:meth:`~castlerules.core.lanes.Lanes.grid` as a :class:`Grid` (a tuple of them
        where ``function`` gives a tuple), computed as it is read: whole, ``function`` of
        every pair at once; column ``j``, ``function`` of the rows, the ``j``-th lane of
        each of ``cols`` and column ``j`` of each of ``cells`` (read whole)."""
        xp = self.o.xp
        cells = [whole(c) for c in cells]
        outer = next(
            a.shape[0] for r in [*rows, *cells] for a in _leaves(r) if getattr(a, "ndim", 0) >= 2
        )
        inner = next(
            (a.shape[0] for c in cols for a in _leaves(c) if getattr(a, "ndim", 0) >= 2),
            None,
        )
        if inner is None:
            inner = next(a.shape[1] for c in cells for a in _leaves(c) if a.ndim >= 3)
        index = xp.arange(outer)[:, None]

        def every() -> Any:
            diagonal = xp.eye(outer, inner, dtype=bool)[:, :, None]
            out = function(
                *(_expand(r, 1) for r in rows), *(_expand(c, 0) for c in cols), *cells, diagonal
            )
            return self._shaped(out, (outer, inner))

        def column(j: int) -> Any:
            out = function(
                *rows, *(_item(c, j) for c in cols), *(c[:, j] for c in cells), index == j
            )
            return self._shaped(out, (outer,))

        if getattr(xp, "__name__", "") == "numpy":  # computed as called: whole, one call each
            return every()
        first = column(0)
        if not isinstance(first, tuple):
            return Grid(every, column, inner, {0: first})
        # one grid per item of the function's result, each part computed once for all
        made: dict[Any, Any] = {0: first}

        def shared(key: Any, make: Callable[[], Any]) -> Any:
            if key not in made:
                made[key] = make()
            return made[key]

        def item(i: int) -> Grid:
            def whole_of() -> Any:
                return shared("every", every)[i]

            def column_of(j: int) -> Any:
                return shared(j, lambda: column(j))[i]

            return Grid(whole_of, column_of, inner)

        return tuple(item(i) for i in range(len(first)))

    @staticmethod
    def _axis(lane: Lane) -> int:
        return int(lane.ndim) - 2

    def _reduce(
        self, lane: Lane, combine: Callable[[Any, Any], Any], reduction: Callable[..., Any]
    ) -> Value:
        """``lane`` combined over its innermost lane axis.  Over the cards of a grid
        (the axis between two others): pairwise, one elementwise operation over the
        games per step, which a compiler fuses with the grid into one pass (a reduction
        across that axis reads the games strided, one by one); of a :class:`Grid`, over
        its columns, each computed in that pass.  Over the cards of a
        lane vector: one reduction ``reduction`` (whose result a compiler computes once,
        where the pairwise steps would be copied into each of its uses)."""
        if isinstance(lane, Grid):  # over its columns, pairwise
            return self.o.settle(_pairwise(lane.columns(), combine))
        axis = self._axis(lane)
        if axis == 0:  # a reduction: computed once, where it stands
            return reduction(lane, axis=0)
        head = (slice(None),) * axis
        return self.o.settle(
            _pairwise([lane[(*head, j)] for j in range(lane.shape[axis])], combine)
        )

    def any(self, lane: Lane) -> Value:
        xp = self.o.xp
        return self._reduce(lane, xp.logical_or, xp.any)

    def all(self, lane: Lane) -> Value:
        xp = self.o.xp
        return self._reduce(lane, xp.logical_and, xp.all)

    def total(self, lane: Lane) -> Value:
        xp, kind = self.o.xp, self.o.int
        if isinstance(lane, Grid):
            return self.o.settle(_pairwise([c.astype(kind) for c in lane.columns()], xp.add))
        return self._reduce(
            lane.astype(kind), xp.add, lambda x, axis: xp.sum(x, axis=axis, dtype=kind)
        )

    def count(self, lane: Lane) -> Value:
        return self.total(lane)

    def first(self, lane: Lane) -> Value:
        lane = whole(lane)
        axis = self._axis(lane)
        head = (slice(None),) * axis
        found = first_of(self.o, [lane[(*head, j)] for j in range(lane.shape[axis])])
        return self.o.settle(self.o.xp.asarray(found).astype(self.o.int))

    def highest(self, cond: Lane, numbers: Lane) -> Value:
        xp = self.o.xp
        if isinstance(cond, Grid):
            parts = [
                xp.where(c, _item(numbers, j), 0).astype(self.o.int)
                for j, c in enumerate(cond.columns())
            ]
            return self.o.settle(_pairwise(parts, xp.maximum))
        axis = self._axis(cond)
        aligned = numbers[None] if axis == 1 else numbers
        return self._reduce(xp.where(cond, aligned, 0).astype(self.o.int), xp.maximum, xp.max)

    def at(self, lane: Lane, index: Value) -> Value:
        xp = self.o.xp
        if isinstance(index, int):
            return lane[index]
        hit = xp.arange(lane.shape[0], dtype=self.o.int)[:, None] == index
        if lane.dtype == bool:
            return xp.any(xp.logical_and(hit, lane), axis=0)
        return xp.sum(xp.where(hit, lane, 0), axis=0, dtype=lane.dtype)

    def marks(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        when: Lane | None = None,
    ) -> tuple[tuple[Value, ...], ...]:
        """:meth:`~castlerules.core.lanes.Lanes.marks` as bits: per number of
        ``firsts`` a word in which each lane sets the bit of its ``second`` (:meth:`_words`:
        the numbers' words packed side by side into 32-bit words, each lane's bit set from
        its own fields, or-ed over the lanes pairwise); a place is one bit of a word."""
        xp, low = self.o.xp, seconds[0]
        word = self._words(first, second, firsts, seconds, when)
        out = [
            tuple(xp.bitwise_and(xp.right_shift(word[i], j - low), 1) != 0 for j in seconds)
            for i in range(len(firsts))
        ]
        return tuple(out)

    def _words(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        when: Lane | None,
    ) -> Any:
        """``(len(firsts), games)`` (where ``firsts`` run on, of the narrowest unsigned
        type that holds ``len(seconds)`` bits, 8, 16 or 32; else int32): per
        number of ``firsts`` the word of
        :meth:`marks` (bit ``j - seconds[0]`` set where a lane has ``first`` that number
        and ``second == j``).  Computed once per scoped call for the same lanes (a board
        reads them per column, :meth:`marks`, and at each card's column, :meth:`marks_at`)."""
        args = (first, second, tuple(firsts), tuple(seconds), when)
        return self.o._recall("words", args, lambda: self._words_of(*args))

    def _words_of(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        when: Lane | None,
    ) -> Any:
        xp = self.o.xp
        low = seconds[0]
        assert list(seconds) == list(range(low, low + len(seconds))) and len(seconds) <= 31
        assert first.ndim == 2 and second.ndim == 2, "marks: over the cards of a lane vector"
        inside = xp.logical_and(second >= low, second < low + len(seconds))
        if when is not None:
            inside = xp.logical_and(inside, when)
        width, start = len(seconds), firsts[0]
        if list(firsts) != list(range(start, start + len(firsts))):
            shift = xp.where(inside, second - low, 0).astype(xp.int32)
            bit = xp.where(inside, xp.left_shift(xp.asarray(1, dtype=xp.int32), shift), 0)
            numbers = xp.asarray(list(firsts), dtype=first.dtype)[:, None, None]
            words = xp.where(first[None] == numbers, bit[None], 0)
            return self.o.settle(
                _pairwise([words[:, j] for j in range(words.shape[1])], xp.bitwise_or)
            )
        # The numbers' words packed side by side, as many to a 32-bit word as fit: a lane
        # sets one bit of one packed word (its number's field, at its place), or-ed over
        # the lanes pairwise (one elementwise pass over the games per packed word: a
        # reduction across the lanes would read the games strided); each number's word
        # is then its field.
        per = 32 // width
        one, zero = xp.asarray(1, dtype=xp.uint32), xp.asarray(0, dtype=xp.uint32)

        def bits(j: int, c: int) -> Any:
            """Lane ``j``'s bit in packed word ``c`` (of its own values: the or of the
            lanes is then one pass).  A number below ``firsts`` has no word (its ``k //
            per`` is negative), one past them a field nobody reads.  In the lanes'
            own integer type, ``k // per == c`` as two comparisons: a division of
            wider integers would compute the same word at half the lanes a vector
            instruction holds."""
            k = first[j] - start
            mine = xp.logical_and(inside[j], xp.logical_and(k >= c * per, k < (c + 1) * per))
            place = xp.where(mine, (k - c * per) * width + (second[j] - low), 0)
            return xp.where(mine, xp.left_shift(one, place.astype(xp.uint32)), zero)

        lanes = first.shape[0]
        packed = self.o.settle(
            tuple(
                _pairwise([bits(j, c) for j in range(lanes)], xp.bitwise_or)
                for c in range(-(-len(firsts) // per))
            )
        )
        field = xp.asarray((1 << width) - 1, dtype=xp.uint32)
        # Each number's word in the narrowest type that holds its places: the readers
        # test its bits one place at a time, as many games to a vector instruction as
        # the type allows (8-bit words: four times the 32-bit ones).
        narrow = xp.uint8 if width <= 8 else xp.uint16 if width <= 16 else xp.uint32
        words = [
            xp.bitwise_and(
                xp.right_shift(packed[i // per], xp.uint32(i % per * width)), field
            ).astype(narrow)
            for i in range(len(firsts))
        ]
        return self.o.settle(xp.stack(words))

    def marks_at(
        self,
        first: Lane,
        second: Lane,
        firsts: Sequence[int],
        seconds: Sequence[int],
        at: Lane,
        when: Lane | None = None,
    ) -> tuple[Lane, ...]:
        """:meth:`~castlerules.core.lanes.Lanes.marks_at`: each lane's word of
        :meth:`marks` chosen once (as :meth:`ArrayOps.select` chooses: a chain of
        selects from the last number), then one bit per number of ``seconds``, where a
        select per place would choose among the columns' places one at a time."""
        xp, low = self.o.xp, seconds[0]
        assert list(firsts) == list(range(firsts[0], firsts[0] + len(firsts)))
        word = self._words(first, second, firsts, seconds, when)
        mine = xp.broadcast_to(word[-1], at.shape)
        for i in range(len(firsts) - 2, -1, -1):
            mine = xp.where(at == firsts[i], word[i], mine)
        mine = self.o.settle(mine)
        return tuple(xp.bitwise_and(xp.right_shift(mine, j - low), 1) != 0 for j in seconds)
