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

import attrs
import numpy as np

from castlerules.core import Rng

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(state: np.ndarray) -> np.ndarray:
    z = (state ^ (state >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    out: np.ndarray = z ^ (z >> np.uint64(31))
    return out


@attrs.frozen(slots=True, eq=False)
class Streams:
    """One SplitMix64 generator per game (an immutable value, like :class:`Rng`)."""

    state: np.ndarray
    """The generators' states, ``uint64``, one per game."""

    @classmethod
    def from_seeds(cls, seeds: Sequence[int], stream: str = "") -> Streams:
        """The generators ``Rng.from_seed(seed, stream)`` of every seed, in order."""
        states = [Rng.from_seed(int(seed), stream).state for seed in seeds]
        return cls(np.array(states, dtype=np.uint64))

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
