"""The scoped memo of the batch's array operations (castlerules.batch.arrays): the
same operation on the same operands gives back the same array, equal tables and
numbers are the same operands whatever their objects, and a tuple's kept key never
outlives what it was read from."""

from __future__ import annotations

import numpy as np

from castlerules.batch.arrays import ArrayOps, _key


def test_the_same_question_is_the_same_array() -> None:
    o = ArrayOps(np).scoped()
    cond, a = np.array([True, False]), np.array([1, 2])
    assert o.ite(cond, a, 3) is o.ite(cond, a, 3)
    assert o.ite(cond, a, 3) is not o.ite(cond, a, 4)
    assert o.not_(cond) is o.not_(cond)
    index = np.array([2, 1])
    table = (5, 6, 7, 8, 9, 10)
    first = o.lookup(table, index)
    assert o.lookup((*table[:3], *table[3:]), index) is first  # an equal table: the same
    assert o.lookup((5, 6, 7, 8, 9, 11), index) is not first
    assert o.lookup(table, index, low=1) is not first
    assert o.lookup(table, index).tolist() == [7, 6]
    rows = (np.array([1, 2]), np.array([3, 4]))
    assert o.select(rows, index, low=1) is o.select((rows[0], rows[1]), index, low=1)


def test_a_tuples_key_is_kept_only_while_nothing_in_it_changes() -> None:
    keys: dict[int, tuple[object, object]] = {}
    a = np.arange(2)
    inner = (a, 1)
    outer = (inner, 2)
    assert _key(outer, keys) == ((id(a), (int, 1)), (int, 2))
    assert keys[id(outer)][0] is outer and keys[id(inner)][0] is inner
    items = [1]
    mixed = (items, 2)
    held = (mixed, 3)
    before = _key(held, keys)
    assert id(mixed) not in keys and id(held) not in keys
    items.append(5)  # the list changed: so does the key
    assert _key(held, keys) != before
    assert _key(held, keys) == ((((int, 1), (int, 5)), (int, 2)), (int, 3))
