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
        self.players = players
        self.state = np.stack(
            [Streams.from_seeds(seeds, f"play.bot.{seat}").state for seat in range(players)]
        )
        """``(players, games)``: each seat's generator in each game."""

    def reseed(self, games: np.ndarray, seeds: Sequence[int]) -> None:
        """Games ``games`` are new games of ``seeds``: their bots start afresh."""
        for seat in range(self.players):
            self.state[seat, games] = Streams.from_seeds(seeds, f"play.bot.{seat}").state

    def choose_kth(self, counts: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Each game's choice as the rank of a legal action (``counts`` legal actions;
        0 for a game whose ``seat`` is -1: it is over)."""
        live = seat >= 0
        games = np.arange(seat.shape[0])
        mover = np.where(live, seat, 0)
        drawn, moved = Streams(self.state[mover, games]).below(np.where(live, counts, 1))
        self.state[mover[live], games[live]] = moved.state[live]
        return np.where(live, drawn, 0)

    def choose(self, mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Each game's action (-1 for a game whose ``seat`` is -1: it is over)."""
        k = self.choose_kth(mask.sum(axis=1), seat)
        return np.where(seat >= 0, kth_legal(mask, k), -1)
