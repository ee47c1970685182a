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
from typing import Any

import numpy as np

from castlerules.batch.chance import Streams, state_of, words_of
from castlerules.core.chance import check_seed
from castlerules.core.errors import ArgumentError


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
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 64:
            raise ArgumentError(f"players must be a whole number in 1..64, not {players!r:.20}")
        if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
            raise ArgumentError(f"seeds must be whole numbers, not {seeds!r:.20}")
        seeds = [int(x) if isinstance(x, np.integer) else x for x in seeds]
        for x in seeds:
            check_seed(x)
        self.players = players
        self._state = np.stack(
            [Streams.from_seeds(seeds, f"play.bot.{seat}").state for seat in range(players)]
        )
        self._words: tuple[Any, Any] | None = None
        """The generators as a compiled program left them (32-bit words, where they
        were computed), until :attr:`state` reads them."""

    @property
    def state(self) -> np.ndarray:
        """``(players, games)`` ``uint64``: each seat's generator in each game."""
        if self._words is not None:
            self._state, self._words = state_of(*self._words), None
        return self._state

    @state.setter
    def state(self, value: np.ndarray) -> None:
        self._state, self._words = value, None

    @property
    def shape(self) -> tuple[int, ...]:
        """``(players, games)``, without reading the generators."""
        held = self._words[0] if self._words is not None else self._state
        return tuple(int(x) for x in held.shape)

    def words(self) -> tuple[Any, Any]:
        """The generators as their low and high 32-bit words (those a compiled program
        left, where they are, or :attr:`state`'s)."""
        return self._words if self._words is not None else words_of(self._state)

    def hold(self, bots_low: Any, bots_high: Any) -> None:
        """The generators are now ``bots_low``, ``bots_high`` (32-bit words, as :meth:`words`)."""
        self._words = (bots_low, bots_high)

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
