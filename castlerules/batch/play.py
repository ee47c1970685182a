"""Seeded random bots for a whole batch: the choices of :class:`castlerules.bots.RandomBot`.

A seat's random bot of game ``i`` draws from ``Rng.from_seed(seed_i,
"play.bot.SEAT")`` (as :func:`castlerules.bots.make_bot` seeds it) and takes
the ``k``-th of the legal moves, in their order, which is the order of the
action numbers.  :class:`RandomSeats` makes that choice for every game of a
batch at once, so a batch played by random bots plays the very games the
engine plays with :class:`~castlerules.bots.RandomBot` in every seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from castlerules.batch.chance import Streams


def kth_legal(mask: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Per game (row of ``mask``), the action number of its ``k``-th legal action."""
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // mask.shape[1], minlength=mask.shape[0])
    start = np.cumsum(counts) - counts
    pick = np.minimum(start + k, max(len(flat) - 1, 0))
    if not len(flat):
        return np.full(mask.shape[0], -1)
    return np.where(counts > 0, flat[pick] % mask.shape[1], -1)


class RandomSeats:
    """A random bot in every seat of every game, seeded as ``make_bot("random", ...)``."""

    def __init__(self, seeds: Sequence[int], players: int) -> None:
        self.streams = [Streams.from_seeds(seeds, f"play.bot.{seat}") for seat in range(players)]

    def choose(self, mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Each game's action (-1 for a game whose ``seat`` is -1: it is over)."""
        counts = mask.sum(axis=1)
        k = np.zeros(mask.shape[0], dtype=np.int64)
        for q, streams in enumerate(self.streams):
            mine = np.flatnonzero(seat == q)
            if not mine.size:
                continue
            drawn, moved = streams.take(mine).below(counts[mine])
            k[mine] = drawn
            state = streams.state.copy()
            state[mine] = moved.state
            self.streams[q] = Streams(state)
        return np.where(seat >= 0, kth_legal(mask, k), -1)
