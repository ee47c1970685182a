"""Seeded chance: the same draws on every machine and every Python version."""

from __future__ import annotations

from collections import Counter

import pytest

from castlerules.core import Rng


def test_golden_draws_never_change() -> None:
    """These numbers are part of the contract: a change breaks every seeded deal."""
    rng = Rng.from_seed(7, "golden")
    values = []
    for _ in range(5):
        value, rng = rng.next64()
        values.append(value)
    assert values == GOLDEN_7
    assert Rng(0).next64()[0] == 0xE220A8397B1DCDAF  # SplitMix64 reference output


GOLDEN_7 = [
    0x752EE5FBEA2D00E5,
    0x53AA1D65E16202A3,
    0xB49E2C9AE1B5D5A8,
    0x34B25A228C677494,
    0x3AA8D45B77356721,
]


def test_streams_are_independent_and_reproducible() -> None:
    a = Rng.from_seed(1, "a")
    assert a == Rng.from_seed(1, "a")
    assert a != Rng.from_seed(1, "b")
    assert a != Rng.from_seed(2, "a")


def test_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng.from_seed(3)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        value, rng = rng.below(6)
        counts[value] += 1
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def test_shuffle_and_sample_are_permutations() -> None:
    rng = Rng.from_seed(5)
    items = tuple(range(13))
    shuffled, rng = rng.shuffled(items)
    assert sorted(shuffled) == list(items)
    assert shuffled != items
    picked, _ = rng.sample(items, 6)
    assert len(set(picked)) == 6
    assert set(picked) <= set(items)


def test_die_faces() -> None:
    rng = Rng.from_seed(11)
    seen = set()
    for _ in range(200):
        face, rng = rng.die()
        seen.add(face)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="n >= 1"):
        Rng(1).below(0)
    with pytest.raises(ValueError, match="k <="):
        Rng(1).sample((1, 2), 3)
    with pytest.raises(TypeError, match="seed is an int"):
        Rng.from_seed("7")  # type: ignore[arg-type]


def _reference_below(state: int, n: int) -> tuple[int, int]:
    """SplitMix64 and rejection written out plainly: what every draw must equal."""
    mask = (1 << 64) - 1
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        if z < limit:
            return z % n, state


@pytest.mark.parametrize("n", [1, 2, 6, 13, 65, 3 * 2**61 + 1, 2**63 + 1])
def test_every_draw_is_the_reference_splitmix_draw(n: int) -> None:
    """choice, below, shuffled and sample share one fast draw; it equals the reference,
    rejections included (n = 3 * 2**61 + 1 rejects about one draw in four)."""
    rng = Rng.from_seed(11, "reference")
    for _ in range(300):
        expected, state = _reference_below(rng.state, n)
        value, after = rng.below(n)
        assert (value, after) == (expected, Rng(state))
        if n < 2**62:
            items = range(n)
            assert rng.choice(items) == (expected, Rng(state))
        rng = after
    big = range(3 * 2**61 + 1)  # choice's own rejection path
    rng = Rng.from_seed(12)
    for _ in range(200):
        expected, state = _reference_below(rng.state, len(big))
        assert rng.choice(big) == (expected, Rng(state))
        rng = Rng(state)
    items = tuple(range(13))
    shuffled, end = Rng(5).shuffled(items)
    out, state = list(items), 5
    for i in range(12, 0, -1):
        j, state = _reference_below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    assert (shuffled, end) == (tuple(out), Rng(state))
    picked, end = Rng(6).sample(items, 6)
    out, state = list(items), 6
    for i in range(6):
        j, state = _reference_below(state, 13 - i)
        out[i], out[i + j] = out[i + j], out[i]
    assert (picked, end) == (tuple(out[:6]), Rng(state))


def test_sample_mask_is_the_mask_of_sample_with_the_same_draws() -> None:
    """Rng.sample_mask (Throne's deal of objectives) draws exactly as sample(range(n), k)."""
    for seed in range(40):
        rng = Rng.from_seed(seed, "mask")
        for n, k in ((13, 6), (13, 0), (13, 13), (1, 1), (26, 5), (300, 7)):
            picked, after = rng.sample(range(n), k)
            assert rng.sample_mask(n, k) == (sum(1 << i for i in picked), after)
            rng = after
    with pytest.raises(ValueError):
        Rng.from_seed(1).sample_mask(3, 4)
