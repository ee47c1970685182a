"""SplitMix64 for many generators at once: the draws of :class:`castlerules.core.Rng`.

A seeded random bot of the batch must make the very choices that
:class:`castlerules.bots.RandomBot` makes, so that a study played by the
batch gives the rows the scalar engine gives.  :class:`Streams` holds one
SplitMix64 state per game (numpy ``uint64``) and draws ``below(n)`` for all
of them at once, with the same rejection test as :class:`~castlerules.core.Rng`
(a draw is redrawn, for that game alone, in the rare case it falls in the
biased tail).

>>> from castlerules.core import Rng
>>> streams = Streams.from_seeds([7, 8], "example")
>>> values, streams = streams.below(np.array([6, 6]))
>>> [int(v) for v in values] == [Rng.from_seed(s, "example").below(6)[0] for s in (7, 8)]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from castlerules.core.chance import check_seed, seed_digests, seed_states

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(state: np.ndarray) -> np.ndarray:
    z = (state ^ (state >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    out: np.ndarray = z ^ (z >> np.uint64(31))
    return out


def block_states(seeds: Sequence[int], streams: Sequence[str]) -> np.ndarray:
    """``(len(streams), len(seeds))`` ``uint64``: the states of ``Rng.from_seed(seed,
    stream)`` for each stream and each seed (the range of the seeds checked once), each
    stream's hashes (:func:`~castlerules.core.chance.seed_digests`) read as one buffer."""
    if not isinstance(seeds, range):
        seeds = [int(seed) for seed in seeds]
    if seeds:  # a range's ends are its first and last seeds
        ends = (seeds[0], seeds[-1]) if isinstance(seeds, range) else (min(seeds), max(seeds))
        for seed in ends:
            check_seed(seed)
    out = np.empty((len(streams), len(seeds)), dtype=np.uint64)
    for i, stream in enumerate(streams):
        out[i] = np.frombuffer(seed_digests(seeds, stream), dtype="<u8")
    return out


@attrs.frozen(slots=True, eq=False)
class Streams:
    """One SplitMix64 generator per game (an immutable value, like :class:`Rng`)."""

    state: np.ndarray
    """The generators' states, ``uint64``, one per game."""

    @classmethod
    def from_seeds(cls, seeds: Sequence[int], stream: str = "") -> Streams:
        """The generators ``Rng.from_seed(seed, stream)`` of every seed, in order."""
        checked = [int(seed) for seed in seeds]
        if checked:  # the seeds of a batch are consecutive or listed: their range checked
            check_seed(min(checked))
            check_seed(max(checked))
        return cls(np.array(seed_states(checked, stream), dtype=np.uint64))

    def below(self, n: np.ndarray) -> tuple[np.ndarray, Streams]:
        """Per game a draw in ``0..n-1`` (``n >= 1``) and the next generators.

        The same numbers as :meth:`castlerules.core.Rng.below` (and ``choice``) of
        each game's generator.
        """
        bound = np.asarray(n, dtype=np.uint64)
        if np.any(bound == 0):
            raise ValueError("a draw below 0: some game has nothing to choose from")
        two64_mod = (np.uint64(2**64 - 1) % bound + np.uint64(1)) % bound  # 2^64 mod n
        state = self.state.copy()
        value = np.zeros_like(state)
        todo = np.ones(state.shape, dtype=bool)
        with np.errstate(over="ignore"):
            while todo.any():
                state = np.where(todo, state + _GOLDEN, state)
                z = _mix(state)
                # Rejection as in Rng: keep z < 2^64 - (2^64 mod n); 0 - m wraps to 2^64 - m.
                limit = np.uint64(0) - two64_mod
                accept = todo & ((two64_mod == 0) | (z < limit))
                value = np.where(accept, z % bound, value)
                todo &= ~accept
        return value.astype(np.int64), Streams(state)

    def sample_masks(self, n: int, k: int) -> tuple[np.ndarray, Streams]:
        """Per game ``k`` of ``range(n)`` drawn as :meth:`castlerules.core.Rng.sample_mask`
        draws them (a partial Fisher-Yates shuffle): bit masks, and the next generators."""
        games = self.state.shape[0]
        out = np.tile(np.arange(n, dtype=np.int64), (games, 1))
        rows = np.arange(games)
        mask = np.zeros(games, dtype=np.int64)
        streams = self
        for i in range(k):
            drawn, streams = streams.below(np.full(games, n - i))
            j = i + drawn
            picked = out[rows, j]
            out[rows, j] = out[:, i]
            mask |= np.int64(1) << picked
        return mask, streams

    def shuffled_orders(self, n: int) -> tuple[np.ndarray, Streams]:
        """Per game an order of ``range(n)`` as :meth:`castlerules.core.Rng.shuffled`
        shuffles it (Fisher-Yates from the end), and the next generators."""
        games = self.state.shape[0]
        out = np.tile(np.arange(n, dtype=np.int64), (games, 1))
        rows = np.arange(games)
        streams = self
        for i in range(n - 1, 0, -1):
            j, streams = streams.below(np.full(games, i + 1))
            here = out[:, i].copy()
            out[:, i] = out[rows, j]
            out[rows, j] = here
        return out, streams

    def where(self, cond: np.ndarray, other: Streams) -> Streams:
        """These generators where ``cond`` holds, ``other``'s elsewhere."""
        return Streams(np.where(cond, self.state, other.state))

    def take(self, index: np.ndarray) -> Streams:
        """The generators of the games ``index``."""
        return Streams(self.state[index])


# ---------------------------------------------------------------------- 32-bit words
# Compiled code (JAX, where 64-bit integers are off by default) draws the same
# numbers from each generator held as two 32-bit words, ``lo`` and ``hi``.

_W = 0xFFFFFFFF


def _mul_wide(xp: Any, a: Any, b: int) -> tuple[Any, Any]:
    """``a * b`` (32-bit words, ``b`` a constant) as its low and high words."""
    u = xp.uint32
    a0, a1 = a & u(0xFFFF), a >> u(16)
    b0, b1 = u(b & 0xFFFF), u(b >> 16)
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> u(16)) + (p01 & u(0xFFFF)) + (p10 & u(0xFFFF))
    lo = (p00 & u(0xFFFF)) | (mid << u(16))
    hi = p11 + (p01 >> u(16)) + (p10 >> u(16)) + (mid >> u(16))
    return lo, hi


def _mul64(xp: Any, lo: Any, hi: Any, c: int) -> tuple[Any, Any]:
    """The low 64 bits of ``(hi:lo) * c``."""
    out_lo, carry = _mul_wide(xp, lo, c & _W)
    return out_lo, carry + lo * xp.uint32(c >> 32) + hi * xp.uint32(c & _W)


def _xor_shift(xp: Any, lo: Any, hi: Any, s: int) -> tuple[Any, Any]:
    """``z ^ (z >> s)`` for ``0 < s < 32``."""
    u = xp.uint32
    return lo ^ ((lo >> u(s)) | (hi << u(32 - s))), hi ^ (hi >> u(s))


def words_of(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``uint64`` generator states as their low and high 32-bit words."""
    return (state & np.uint64(_W)).astype(np.uint32), (state >> np.uint64(32)).astype(np.uint32)


def state_of(lo: Any, hi: Any) -> np.ndarray:
    """The ``uint64`` states of :func:`words_of`'s words."""
    return (np.asarray(hi).astype(np.uint64) << np.uint64(32)) | np.asarray(lo).astype(np.uint64)


def below_words(xp: Any, low: Any, high: Any, bound: Any, loop: Any) -> tuple[Any, Any, Any]:
    """:meth:`Streams.below` on generators held as 32-bit words (arrays of ``xp``: the
    low and the high 32 bits of each game's SplitMix64 state): per game a draw in
    ``0..bound-1`` (``1 <= bound < 2**16``) and the next words.

    ``loop(cond, body, carry)`` repeats ``body`` while ``cond`` (a Python ``while``,
    or :func:`jax.lax.while_loop` in compiled code): a draw in the biased tail of
    2**64 is redrawn for that game alone, as :class:`~castlerules.core.Rng` redraws it.
    """
    u = xp.uint32
    bound = xp.asarray(bound).astype(u)
    wrap = (u(_W) % bound + u(1)) % bound  # 2^32 mod bound
    # 2^64 mod bound: a draw z is kept when tail_size == 0 or z < 2^64 - tail_size
    tail_size = (wrap * wrap) % bound
    golden_low, golden_high = u(int(_GOLDEN) & _W), u(int(_GOLDEN) >> 32)

    def draw(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        low, high, value, todo = carry
        state_low = low + golden_low
        state_high = high + golden_high + (state_low < low).astype(u)
        mixed_low, mixed_high = _xor_shift(xp, state_low, state_high, 30)
        mixed_low, mixed_high = _mul64(xp, mixed_low, mixed_high, int(_M1))
        mixed_low, mixed_high = _xor_shift(xp, mixed_low, mixed_high, 27)
        mixed_low, mixed_high = _mul64(xp, mixed_low, mixed_high, int(_M2))
        mixed_low, mixed_high = _xor_shift(xp, mixed_low, mixed_high, 31)
        tail = (tail_size != u(0)) & (mixed_high == u(_W)) & (mixed_low >= u(0) - tail_size)
        accept = todo & ~tail
        drawn = ((mixed_high % bound) * wrap + mixed_low % bound) % bound
        return (
            xp.where(todo, state_low, low),
            xp.where(todo, state_high, high),
            xp.where(accept, drawn, value),
            todo & tail,
        )

    first = draw((low, high, xp.zeros_like(low), xp.ones(low.shape, dtype=bool)))
    low, high, value, _todo = loop(lambda c: c[3].any(), draw, first)
    return value, low, high
