"""What the batches of both games share: seeds, steps by number or by rank, auto-reset.

:class:`Slots` holds a batch's games as slots (one column of the batch's array
each) and does, the same way for every game, everything that is not the game:
the seeds of :meth:`~Slots.init`, the checks of an action or a rank per game,
the replacement of finished games by new ones dealt ahead (auto-reset), and
the choice of the k-th legal action inside the compiled step.  A game's env
(:class:`castlerules.batch.throne.ThroneEnv`,
:class:`castlerules.batch.ascent.AscentEnv`) gives the rest: its deal, its
kernel's transition, its refusals and its batch class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from castlerules.batch.arrays import ArrayOps
from castlerules.batch.chance import below_words, block_states, words_of
from castlerules.batch.play import RandomSeats
from castlerules.core.chance import SEED_LIMIT, check_seed
from castlerules.core.errors import ArgumentError

LARGE_BATCH = 1024
"""The batch size from which :meth:`Slots.play_random` compiles for long runs: its calls
with the game's play options (:data:`castlerules.batch.PLAY_OPTIONS`), and with
auto-reset its blocks of new games dealt in a compiled program
(:meth:`Slots._block_traced`) rather than their seeds hashed on the host.  Both cost
seconds of compilation more, repaid by many games, not by a small batch's few."""


@attrs.frozen(slots=True, eq=False)
class Pool:
    """New games dealt ahead for auto-reset, where the batch's arrays are: two blocks
    of ``size`` seeds from :attr:`first` on, and their random bots' generators."""

    first: int
    """The seed of the first column."""
    columns: Any
    """``(rows, 2 * size)`` int16: the games, as the batch's columns."""
    bots_low: Any
    """``(players, 2 * size)`` uint32: the low 32 bits of each seat's random bot's
    generator (its SplitMix64 state), per game."""
    bots_high: Any
    """The same, the high 32 bits."""


MAX_STEPS = 1 << 20
"""The most steps one call of ``play_random`` plays (a bound on a call's time)."""


def whole_numbers(values: Any, what: str, low: int, high: int) -> np.ndarray:
    """``values`` as an int64 array if every one is a whole number in ``low..high``
    (checked before any cast), else :class:`ArgumentError`."""
    try:
        array = np.asarray(values)
    except (ValueError, TypeError, OverflowError, RecursionError):
        raise ArgumentError(f"{what} must be whole numbers in {low}..{high}") from None
    if array.dtype == object:
        flat = list(array.reshape(-1))
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in flat):
            raise ArgumentError(f"{what} must be whole numbers in {low}..{high}")
        if any(not low <= int(x) <= high for x in flat):
            raise ArgumentError(f"{what} must be whole numbers in {low}..{high}")
        return np.array([int(x) for x in flat], dtype=np.int64).reshape(array.shape)
    if array.dtype.kind not in "iu":
        raise ArgumentError(
            f"{what} must be whole numbers in {low}..{high}, not {array.dtype} values"
        )
    if array.size and (int(array.min()) < low or int(array.max()) > high):
        raise ArgumentError(f"{what} must be whole numbers in {low}..{high}")
    return array.astype(np.int64)


class Slots:
    """The part of a game's batch env that does not depend on the game."""

    size: int
    autoreset: bool
    backend: Any
    num_actions: int
    players: int
    _legal_of: Any
    _step: Any
    _step_kth: Any
    _ops: ArrayOps
    _seat_row: int
    """The row of a batch's data that holds the seat to act (-1: the game is over)."""
    _batch_class: Any
    """The game's batch class (its data, layout, mask, counts, ends, seeds, resets)."""
    layout: Any
    game: str
    rules: Any
    _options: Any
    _steps_unrolled: int = 1
    """How many of ``play_random``'s steps one turn of its compiled loop plays from
    :data:`LARGE_BATCH` games on (the game's; the same moves whatever it is; smaller
    batches play one, which compiles faster)."""

    def _slots_init(self) -> None:
        self._none_reset = np.zeros(self.size, dtype=bool)
        self._dealt: list[np.ndarray] = []
        self._dealt_from = 0
        """Games dealt ahead for auto-reset (of seeds ``_dealt_from`` on)."""
        self._random_of: dict[int, Any] = {}
        """:meth:`_random_steps` compiled, per number of steps."""
        self._refill_of: dict[int, Any] = {}
        """:meth:`_refill_steps` compiled, per number of steps."""
        self._pool: Pool | None = None
        """The games dealt ahead for :meth:`play_random`'s auto-reset."""
        self._ahead: tuple[int, np.ndarray] | None = None
        """The first seed of the block after the pool's, and the states of its first
        generators (:meth:`_streams`), hashed while the compiled program plays."""
        self._shift_of: Any = None
        """:meth:`_shift` compiled."""
        self._block_of: Any = None
        """:meth:`_block_traced` compiled."""
        self._last_count = 0
        """How many games the last call of :meth:`_play_refilled` replaced."""

    # ------------------------------------------------------------------ given by the game

    def deal(self, seeds: Any) -> np.ndarray:
        """``(len(seeds), rows)``: the new games of ``seeds`` as the batch's columns."""
        raise NotImplementedError

    deal_streams: tuple[str, ...] = ()
    """The streams of a game's seed that its deal draws from (:meth:`deal_block`)."""

    def deal_block(self, seeds: Sequence[int], states: np.ndarray) -> Any:
        """``(rows, len(seeds))`` int16, an array of the backend: the new games of
        ``seeds`` as the batch's columns, from the states of their generators of
        :attr:`deal_streams` (``(streams, len(seeds))`` uint64)."""
        dealt = self.deal(np.array([int(x) for x in seeds], dtype=np.uint64))
        return self.backend.xp.asarray(dealt.T.astype(np.int16))

    def _refuse(self, batch: Any, game: int, action: int) -> None:
        raise NotImplementedError

    def _transition(self, data: Any, actions: Any, hold: Any) -> tuple[Any, ...]:
        raise NotImplementedError

    def _extra(self, out: tuple[Any, ...]) -> dict[str, Any]:
        """The fields of this game's batch class beyond those every batch has, for a
        step's ``out`` (:meth:`_transition`'s; just the data and the ends where the
        games were dealt or played by :meth:`play_random`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared

    def _start(self, data: np.ndarray, seeds: Any, next_seed: int) -> Any:
        """The batch of the games ``data`` (numpy), dealt from ``seeds`` (None: unknown)."""
        array = self.backend.xp.asarray(data.astype(np.int16))
        ended = np.zeros(self.size, dtype=bool)
        return self._after(
            (array, ended),
            reset=None,
            seeds=seeds,
            next_seed=next_seed,
            legal=self._legal_of(array),
        )

    def _after(
        self,
        out: tuple[Any, ...],
        *,
        reset: Any,
        seeds: Any,
        next_seed: int,
        legal: tuple[Any, Any],
    ) -> Any:
        """The batch of a step's ``out`` (the new data first, then whether each game
        ended) with its legal rows and counts ``legal``."""
        rows, counts = legal
        return self._batch_class(
            data=out[0],
            layout=self.layout,
            mask_rows=rows,
            legal_counts=counts,
            ended=out[1],
            seeds=seeds,
            next_seed=next_seed,
            reset=reset,
            **self._extra(out),
        )

    def _legal_rows(self, data: Any) -> Any:
        """``(num_actions, size)``: the kernel's guards of every action number."""
        raise NotImplementedError

    def _legal(self, data: Any) -> tuple[Any, Any]:
        """The legal action numbers of every game of ``data``: ``(num_actions, size)``
        rows, and how many each game has."""
        rows = self._legal_rows(data)
        return rows, self._count(self._words(rows))

    def _words(self, mask: Any) -> tuple[Any, ...]:
        """The mask's rows as bits of 32-bit words: action ``a`` is bit ``a % 32`` of
        word ``a // 32`` (so that counting and ranking the legal actions read a few
        words per game, not every row of the mask)."""
        xp = self.backend.xp
        u = xp.uint32
        words = []
        for first in range(0, self.num_actions, 32):
            word: Any = xp.zeros(mask.shape[1:], dtype=u)
            for a in range(first, min(first + 32, self.num_actions)):
                word = word | (mask[a].astype(u) << u(a - first))
            words.append(word)
        return tuple(words)

    def _count(self, words: tuple[Any, ...]) -> Any:
        """How many actions ``words`` hold, per game."""
        xp = self.backend.xp
        return self._ops.total(xp.bitwise_count(w).astype(xp.int16) for w in words)

    def _kth_action(self, words: tuple[Any, ...], kth: Any) -> Any:
        """Per game, the number of its ``kth``-th legal action (0-based) in ``words``:
        the word that holds it, then the bit, halving the word (16, 8, 4, 2, 1 bits)
        by the count of the lower half."""
        xp = self.backend.xp
        u = xp.uint32
        rest = xp.asarray(kth).astype(u)
        found: Any = xp.zeros(rest.shape, dtype=bool)
        action: Any = xp.zeros(rest.shape, dtype=xp.int16)
        for j, word in enumerate(words):
            count = xp.bitwise_count(word).astype(u)
            here = xp.logical_and(xp.logical_not(found), rest < count)
            bits, rank, position = word, rest, xp.zeros(rest.shape, dtype=u)
            for half in (16, 8, 4, 2, 1):
                low = bits & u((1 << half) - 1)
                below = xp.bitwise_count(low).astype(u)
                up = rank >= below
                rank = xp.where(up, rank - below, rank)
                bits = xp.where(up, bits >> u(half), low)
                position = xp.where(up, position + u(half), position)
            action = xp.where(here, (position + u(32 * j)).astype(xp.int16), action)
            rest = xp.where(xp.logical_or(found, here), rest, rest - count)
            found = xp.logical_or(found, here)
        return action

    def _transition_kth(self, data: Any, mask: Any, kth: Any, hold: Any) -> tuple[Any, ...]:
        """:meth:`_transition` of each game's ``kth``-th legal action (in number order)."""
        return self._transition(data, self._kth_action(self._words(mask), kth), hold)

    def random_move(self, data: Any, bots_low: Any, bots_high: Any) -> tuple[Any, ...]:
        """One move of the random bot of the seat to act in every game still playing
        (their generators' words ``bots_low``, ``bots_high``: ``(players, size)``), as traced code:
        the step's output (:meth:`_transition`'s: the new data first, then whether each
        game ended), the bots' next words, and which games moved.  A building block of
        compiled loops (:meth:`play_random`'s, a study's)."""
        action, bots_low, bots_high, live = self._draw(
            data, self._legal_rows(data), bots_low, bots_high
        )
        nobody = self.backend.xp.zeros(live.shape, dtype=bool)
        return self._transition(data, action, nobody), bots_low, bots_high, live

    def _draw(self, data: Any, rows: Any, bots_low: Any, bots_high: Any) -> tuple[Any, ...]:
        """The action each game's random bot of the seat to act draws among the legal
        ones (``rows``, the legal mask of ``data``); the bots' next words; which games
        are still playing."""
        xp, ops = self.backend.xp, self._ops
        words = self._words(rows)
        counts = self._count(words)
        seat = data[self._seat_row]
        live = seat >= 0
        mover = xp.where(live, seat, 0)
        mover_low = ops.select(tuple(bots_low[q] for q in range(self.players)), mover)
        mover_high = ops.select(tuple(bots_high[q] for q in range(self.players)), mover)
        kth, drawn_low, drawn_high = below_words(
            xp, mover_low, mover_high, xp.where(live, counts, 1), self.backend.loop
        )
        drew = tuple(xp.logical_and(live, seat == q) for q in range(self.players))
        bots_low = xp.stack(
            [xp.where(drew[q], drawn_low, bots_low[q]) for q in range(self.players)]
        )
        bots_high = xp.stack(
            [xp.where(drew[q], drawn_high, bots_high[q]) for q in range(self.players)]
        )
        # The action computed once (backend.keep): each table the kernel reads by it (its
        # kind, its card) would otherwise compute the whole choice again, per number it
        # reads.  As int32, a type that no array it reads has: XLA on a CPU may write a
        # result over an operand's array of its own type and shape, and its classic
        # emitters then run that loop one number at a time (CPU_OPTIONS).
        action = self._kth_action(words, kth).astype(xp.int32)
        return self.backend.keep(action), bots_low, bots_high, live

    def _random_steps(
        self, data: Any, bots_low: Any, bots_high: Any, steps: int
    ) -> tuple[Any, ...]:
        """``steps`` steps of random bots (:meth:`random_move`) in every game still playing,
        what each move leaves for the next (:meth:`_kept`) carried along; then the legal
        mask of the last positions."""
        xp = self.backend.xp

        def body(_i: Any, carry: tuple[Any, ...]) -> tuple[Any, ...]:
            data, kept, bots_low, bots_high, ended, played = carry
            data, now, kept, bots_low, bots_high, live = self._random_move_kept(
                data, kept, bots_low, bots_high
            )
            played = played + live.astype(xp.int32).sum()
            return data, kept, bots_low, bots_high, xp.logical_or(ended, now), played

        nobody = xp.zeros(data.shape[-1], dtype=bool)
        start = (data, self._kept(data), bots_low, bots_high, nobody, xp.zeros((), dtype=xp.int32))
        data, kept, bots_low, bots_high, ended, played = self.backend.repeat(
            steps, body, start, unroll=self._steps_unrolled if self._plays_long() else 1
        )
        rows, counts = self._legal_kept(data, kept)
        return data, rows, counts, bots_low, bots_high, ended, played

    def _kept(self, data: Any) -> Any:
        """What the random playouts carry from a move into the next besides the games'
        data (:meth:`_random_steps`), built from ``data`` before the first: nothing here."""
        return ()

    def _random_move_kept(
        self, data: Any, kept: Any, bots_low: Any, bots_high: Any
    ) -> tuple[Any, ...]:
        """:meth:`random_move` given what the move before kept: the new data, which games
        ended, what this move keeps, the bots' next words, which games moved."""
        out, bots_low, bots_high, live = self.random_move(data, bots_low, bots_high)
        return out[0], out[1], kept, bots_low, bots_high, live

    def _legal_kept(self, data: Any, kept: Any) -> tuple[Any, Any]:
        """:meth:`_legal` of ``data`` (``kept``: what the last move kept)."""
        # The compiler would copy the last step into each legal action's test: kept apart.
        return self._legal(self.backend.settle(data))

    def play_random(self, batch: Any, seats: RandomSeats, steps: int = 1) -> tuple[Any, int]:
        """``steps`` steps in which every game still playing plays the move of the random
        bot of its seat to act (the draws of ``seats``, which move on), compiled as one
        call; the batch and the number of moves played.

        The moves are those of :meth:`step_kth` with :meth:`RandomSeats.choose_kth`,
        step by step (so each Throne game is its seed's game of
        :class:`~castlerules.bots.RandomBot` in every seat; Ascent's rank the legal
        moves in number order, not in its ``legal_moves`` order).  With auto-reset, the games
        over at the call's start are replaced first (and their bots reseeded); a game
        that ends during the call stays over until the next call.  The batch's
        :attr:`ended` tells the games that ended during the call; it has no ``effect``.
        """
        if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= MAX_STEPS:
            raise ArgumentError(
                f"steps must be a whole number in 1..{MAX_STEPS}, not {steps!r:.20}"
            )
        if not isinstance(seats, RandomSeats):
            raise ArgumentError(f"seats must be a RandomSeats, not {type(seats).__name__}")
        self._check_batch(batch)
        if seats.players != self.players or seats.shape != (self.players, self.size):
            raise ArgumentError(
                f"the seats are {seats.players} seats of {seats.shape[1]} games; this "
                f"batch holds {self.size} games of {self.players} players"
            )
        if (
            self.autoreset
            and batch.seeds is not None
            and batch.next_seed + 3 * self.size <= SEED_LIMIT
        ):
            return self._play_refilled(batch, seats, steps)
        data, reset, seeds, next_seed = self._resets(batch)
        fresh = np.flatnonzero(reset)
        if fresh.size:
            seats.reseed(fresh, [int(x) for x in seeds[fresh]])
        if steps not in self._random_of:
            self._random_of[steps] = self.backend.jit(
                self._random_steps, static=(3,), play=self._plays_long()
            )
        bots_low, bots_high = seats.words()
        data, rows, counts, bots_low, bots_high, ended, played = self._random_of[steps](
            data, bots_low, bots_high, steps
        )
        seats.hold(bots_low, bots_high)
        after = self._after(
            (data, ended), reset=reset, seeds=seeds, next_seed=next_seed, legal=(rows, counts)
        )
        return after, int(played)

    # ------------------------------------------------------------------ auto-reset ahead

    def _play_refilled(self, batch: Any, seats: RandomSeats, steps: int) -> tuple[Any, int]:
        """:meth:`play_random` with auto-reset, the games over replaced inside the
        compiled call by games of the :class:`Pool` (and their bots' generators), so
        that only the call's counts and which games were replaced come back."""
        pool = self._pool_at(batch.next_seed)
        if steps not in self._refill_of:
            self._refill_of[steps] = self.backend.jit(
                self._refill_steps, static=(7,), play=self._plays_long()
            )
        bots_low, bots_high = seats.words()
        first_column = np.int32(batch.next_seed - pool.first)
        out = self._refill_of[steps](
            batch.data,
            bots_low,
            bots_high,
            pool.columns,
            pool.bots_low,
            pool.bots_high,
            first_column,
            steps,
        )
        # The host hashes ahead while the compiled call plays (its call returns at once).
        self._hash_ahead(self._last_count)
        data, rows, counts, bots_low, bots_high, ended, played, reset, count = out
        seats.hold(bots_low, bots_high)
        self._last_count = int(count)
        after = self._refilled(
            batch, (data, ended), reset=reset, count=self._last_count, legal=(rows, counts)
        )
        return after, int(played)

    def _refilled(
        self, batch: Any, out: tuple[Any, Any], *, reset: Any, count: int, legal: tuple[Any, Any]
    ) -> Any:
        """The batch after a call of :meth:`_refill_steps` that replaced ``count`` games
        (``reset``): their seeds are the next ones, in the games' order."""
        if not count:
            return self._after(
                out,
                reset=self._none_reset,
                seeds=batch.seeds,
                next_seed=batch.next_seed,
                legal=legal,
            )
        replaced = np.asarray(reset)
        seeds = np.array(batch.seeds, copy=True)
        seeds[replaced] = np.arange(count, dtype=np.uint64) + np.uint64(batch.next_seed)
        return self._after(
            out, reset=replaced, seeds=seeds, next_seed=batch.next_seed + count, legal=legal
        )

    def _refill_steps(
        self,
        data: Any,
        bots_low: Any,
        bots_high: Any,
        columns: Any,
        pool_low: Any,
        pool_high: Any,
        first_column: Any,
        steps: int,
    ) -> tuple[Any, ...]:
        """The games over replaced by the pool's from column ``first_column`` on (in the games'
        order), their bots' generators with them; then :meth:`_random_steps`.  Also
        which games were replaced, and how many."""
        xp = self.backend.xp
        over = data[self._seat_row] < 0
        rank = xp.cumsum(over.astype(xp.int32)) - 1
        take = xp.where(over, rank + first_column, 0)
        new = over[None, :]
        data = xp.where(new, xp.take(columns, take, axis=1), data)
        bots_low = xp.where(new, xp.take(pool_low, take, axis=1), bots_low)
        bots_high = xp.where(new, xp.take(pool_high, take, axis=1), bots_high)
        out = self._random_steps(data, bots_low, bots_high, steps)
        return (*out, over, over.astype(xp.int32).sum())

    def _bot_streams(self) -> tuple[str, ...]:
        return tuple(f"play.bot.{seat}" for seat in range(self.players))

    def _streams(self, first: int) -> np.ndarray:
        """The states of the generators of seeds ``first .. first + size - 1``: their
        deal's streams (:attr:`deal_streams`), then each seat's bot's (those hashed
        ahead, :meth:`_hash_ahead`, and the rest)."""
        done: list[np.ndarray] = []
        if self._ahead is not None and self._ahead[0] == first:
            done = [self._ahead[1]]
        have = sum(x.shape[1] for x in done)
        streams = (*self.deal_streams, *self._bot_streams())
        rest = block_states(range(first + have, first + self.size), streams)
        return np.concatenate([*done, rest], axis=1) if done else rest

    def _plays_long(self) -> bool:
        """Whether this batch is of :data:`LARGE_BATCH` games or more: its random playouts
        then compile for long runs (the play options, an unrolled loop, compiled blocks
        of new games), which costs seconds of compilation more."""
        return self.size >= LARGE_BATCH

    def _compiles_blocks(self, first: int) -> bool:
        """Whether the block of seeds ``first ..`` is dealt by a compiled program
        (:meth:`_block_traced`): on JAX, for batches of :data:`LARGE_BATCH`
        games or more (a compilation of some seconds, repaid by many new games), for
        seeds below ``2**32`` (the seeds' hash in array code takes no more), and where
        the game deals in traced code."""
        return (
            self.backend.name == "jax"
            and self._plays_long()
            and first + self.size <= 2**32
            and self._deals_traced()
        )

    def _deals_traced(self) -> bool:
        """Whether :meth:`dealt_data` deals this env's games (the game says)."""
        return True

    def dealt_data(self, seeds: Any) -> Any:
        """``(rows, len(seeds))`` int16: the new games of ``seeds`` as traced code."""
        raise NotImplementedError

    def _block_traced(self, first: Any) -> tuple[Any, Any, Any]:
        """:meth:`_block` as traced code: the games of seeds ``first .. first + size - 1``
        (``first`` a ``uint32``), each generator's seed hashed in array code
        (:func:`~castlerules.batch.functional.seed_words`, the host's BLAKE2b), so that
        the host hashes nothing while the compiled program plays."""
        from castlerules.batch.functional import seed_words

        xp = self.backend.xp
        seeds = first + xp.arange(self.size, dtype=xp.uint32)
        words = [seed_words(xp, seeds, s, self.backend.repeat) for s in self._bot_streams()]
        low = xp.stack([w[0] for w in words])
        high = xp.stack([w[1] for w in words])
        return self.dealt_data(seeds), low, high

    def _block(self, first: int) -> tuple[Any, Any, Any]:
        """The games of seeds ``first .. first + size - 1`` (columns, bots' low and high
        words), on the backend."""
        if self._compiles_blocks(first):
            if self._block_of is None:
                self._block_of = self.backend.jit(self._block_traced)
            out: tuple[Any, Any, Any] = self._block_of(np.uint32(first))
            return out
        return self._host_block(first)

    def _host_block(self, first: int) -> tuple[Any, Any, Any]:
        """:meth:`_block` with the generators' seeds hashed on the host (BLAKE2b, some
        of them ahead: :meth:`_hash_ahead`)."""
        xp, states = self.backend.xp, self._streams(first)
        deal = len(self.deal_streams)
        bots_low, bots_high = words_of(states[deal:])
        seeds = range(first, first + self.size)
        return self.deal_block(seeds, states[:deal]), xp.asarray(bots_low), xp.asarray(bots_high)

    def _shift(self, pool: tuple[Any, ...], block: tuple[Any, ...]) -> tuple[Any, ...]:
        """The pool's arrays without their first block, ``block``'s after them."""
        xp, size = self.backend.xp, self.size
        return tuple(
            xp.concatenate([old[:, size:], new], axis=1)
            for old, new in zip(pool, block, strict=True)
        )

    def _pool_at(self, seed: int) -> Pool:
        """The pool whose first block holds ``seed`` (dealt, or moved on by a block)."""
        pool, size = self._pool, self.size
        if pool is not None and pool.first <= seed < pool.first + size:
            return pool
        if self._shift_of is None:
            self._shift_of = self.backend.jit(self._shift)
        if pool is not None and pool.first + size <= seed < pool.first + 2 * size:
            arrays = (pool.columns, pool.bots_low, pool.bots_high)
            arrays = self._shift_of(arrays, self._block(pool.first + 2 * size))
            self._pool = Pool(pool.first + size, *arrays)
            return self._pool
        xp, rows = self.backend.xp, self.layout.rows
        arrays = (
            xp.zeros((rows, 2 * size), dtype=xp.int16),
            xp.zeros((self.players, 2 * size), dtype=xp.uint32),
            xp.zeros((self.players, 2 * size), dtype=xp.uint32),
        )
        for first in (seed, seed + size):  # the same compiled shift as later blocks
            arrays = self._shift_of(arrays, self._block(first))
        self._pool = Pool(seed, *arrays)
        return self._pool

    def _hash_ahead(self, count: int) -> None:
        """Part of the generators of the block after the pool's, hashed now (on the host,
        while the backend plays): twice the ``count`` games just replaced, or a
        sixteenth of a block, so that it is ready when the pool moves on."""
        if self._pool is None:
            return
        first = self._pool.first + 2 * self.size
        if first + self.size > SEED_LIMIT or self._compiles_blocks(first):
            return
        if self._ahead is None or self._ahead[0] != first:
            self._ahead = (first, np.empty((len(self.deal_streams) + self.players, 0), np.uint64))
        have = self._ahead[1].shape[1]
        more = min(max(2 * count, self.size // 16, 1), self.size - have)
        if more:
            streams = (*self.deal_streams, *self._bot_streams())
            part = block_states(range(first + have, first + have + more), streams)
            self._ahead = (first, np.concatenate([self._ahead[1], part], axis=1))

    @property
    def options(self) -> Any:
        """The kernel's options of this env's rules, as array values of its backend
        (the game kernel's ``Options``): what a compiled program built on the env's
        building blocks (a study's loop) passes as operands."""
        return self._options

    @property
    def ops(self) -> ArrayOps:
        """The array operations the env runs its game's kernel on (its backend's)."""
        return self._ops

    def _check_batch(self, batch: object) -> None:
        """:class:`ArgumentError` unless ``batch`` is a batch of this env's games."""
        if not isinstance(batch, self._batch_class) or tuple(batch.data.shape) != (
            self.layout.rows,
            self.size,
        ):
            raise ArgumentError(
                f"that is not a batch of this env ({self.size} games of {self.players} players)"
            )

    def _check_games(self, games: Any) -> list[int] | None:
        """``games`` as indices of this batch's games (None: all)."""
        if games is None:
            return None
        if isinstance(games, (str, bytes)) or not hasattr(games, "__iter__"):
            raise ArgumentError(f"games must be game indices, not {games!r:.20}")
        return [int(x) for x in whole_numbers(list(games), "games", 0, self.size - 1)]

    def _check_seat(self, seat: object) -> int:
        """``seat`` if it is a seat of this batch's games, else :class:`ArgumentError`."""
        if (
            not isinstance(seat, (int, np.integer))
            or isinstance(seat, bool)
            or not 0 <= int(seat) < self.players
        ):
            raise ArgumentError(f"seat must be a seat in 0..{self.players - 1}, not {seat!r:.20}")
        return int(seat)

    def functional(self, autoreset: bool | None = None) -> tuple[Any, Any]:
        """The pure functions ``init(seeds)`` and ``step(state, action)`` of this batch
        (the ``jax`` backend): traced code with no host work and no Python-side check,
        to place inside a learner's own :func:`jax.jit` or :func:`jax.lax.scan`.

        ``init(seeds)``: ``size`` seeds (whole numbers in ``0..2**32-1``), game ``i``
        dealt from ``seeds[i]`` as :meth:`init` deals it; a
        :class:`~castlerules.batch.functional.State`.  ``step(state, action)``: every
        game still playing plays its action number; finished games ignore theirs.  An
        action that is not legal in a game still playing (outside ``0..num_actions-1``
        too) forfeits that game: it ends where it stood, ``forfeited`` is set and the
        seat that forfeited gets a reward of -1 (the others 0), as Pgx ends a game
        with a penalty; the checked :meth:`step` refuses such an action instead.

        ``autoreset`` (default: the env's): a game over at the start of a step is
        replaced by the game of the next seed (from ``max(seeds) + 1`` on, in the
        games' order; its action in that step is ignored), dealt ahead a block at a
        time inside the compiled program, so the batch stays full."""
        if autoreset is None:
            autoreset = self.autoreset
        if not isinstance(autoreset, bool):
            raise ArgumentError(f"autoreset is True or False, not {autoreset!r:.20}")
        if self.backend.name != "jax":
            raise ArgumentError("the pure functions are JAX's: make the batch with backend='jax'")
        import jax

        from castlerules.batch.functional import build, register

        register(jax)
        if self.game == "ascent" and self.rules.deal == "shuffled":
            raise ArgumentError(
                "the pure functions deal Ascent under deal='sets' only; "
                "use env.init and env.step for deal='shuffled'"
            )
        return build(self, autoreset)

    def batch_of(self, state: Any) -> Any:
        """The host API's batch of the pure functions' ``state`` (its games as they
        stand, seeds unknown), e.g. for :meth:`to_states` of the games a learner played."""
        data = np.asarray(state.data)
        if data.shape != (self.layout.rows, self.size):
            raise ArgumentError("that state holds games of another env")
        return self._start(data, None, 0)

    def init(self, seed: int = 0, seeds: Sequence[int] | None = None) -> Any:
        """``size`` new games; game ``i`` is the engine's ``new_game(players, rules,
        seed + i)`` (or of ``seeds[i]``, when given; auto-reset then goes on from
        ``max(seeds) + 1``)."""
        if seeds is None:
            check_seed(seed)
            check_seed(seed + self.size - 1)
            dealt = np.arange(self.size, dtype=np.uint64) + np.uint64(seed)
            after = seed + self.size
        else:
            if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
                raise ArgumentError(f"seeds must be {self.size} whole numbers, not {seeds!r:.20}")
            listed = list(seeds)
            if len(listed) != self.size:
                raise ArgumentError(
                    f"a batch of this env holds {self.size} games, not {len(listed)}"
                )
            seeds = [int(x) if isinstance(x, np.integer) else x for x in listed]
            for x in seeds:
                check_seed(x)
            dealt = np.array([int(x) for x in seeds], dtype=np.uint64)
            after = max(int(x) for x in seeds) + 1
        return self._start(self.deal(dealt).T.copy(), dealt, after)

    def step(self, batch: Any, actions: Any) -> Any:
        """Every game still playing plays its action number; finished games stay as they
        are (or, with auto-reset, are replaced by new games).

        An action that is not legal in a game still playing raises the engine's
        :class:`~castlerules.core.IllegalMove` for that game (its clause, in plain
        words, prefixed with the game's index); the batch is then unchanged.
        """
        xp = self.backend.xp
        self._check_batch(batch)
        chosen = np.asarray(actions)
        if chosen.shape != (self.size,) or chosen.dtype.kind not in "iu":
            raise ArgumentError(
                f"actions is one whole number per game, shape ({self.size},), not "
                f"{chosen.dtype} of shape {chosen.shape}"
            )
        mask = np.asarray(batch.legal_action_mask)
        live = ~np.asarray(batch.terminated)
        inside = (chosen >= 0) & (chosen < self.num_actions)
        ok = np.where(
            inside, mask[np.arange(self.size), np.clip(chosen, 0, self.num_actions - 1)], False
        )
        bad = np.flatnonzero(live & ~ok)
        if bad.size:
            self._refuse(batch, int(bad[0]), int(chosen[bad[0]]))
        data, reset, seeds, next_seed = self._resets(batch)
        out = self._step(data, xp.asarray(chosen.astype(np.int16)), xp.asarray(reset))
        return self._after(
            out, reset=reset, seeds=seeds, next_seed=next_seed, legal=self._legal_of(out[0])
        )

    def step_kth(self, batch: Any, kth: Any) -> Any:
        """Every game still playing plays its ``kth``-th legal action (0-based, in the
        order of the action numbers: ``kth`` below the batch's ``legal_counts``); the
        same as :meth:`step` with those action numbers, chosen inside the compiled step."""
        xp = self.backend.xp
        self._check_batch(batch)
        ranks = np.asarray(kth)
        if ranks.shape != (self.size,) or ranks.dtype.kind not in "iu":
            raise ArgumentError(
                f"kth is one whole number per game, shape ({self.size},), not "
                f"{ranks.dtype} of shape {ranks.shape}"
            )
        live = ~np.asarray(batch.terminated)
        counts = np.asarray(batch.legal_counts)
        bad = np.flatnonzero(live & ((ranks < 0) | (ranks >= counts)))
        if bad.size:
            game = int(bad[0])
            raise ArgumentError(
                f"game {game}: kth {int(ranks[game])} is not below its {int(counts[game])} "
                "legal actions"
            )
        data, reset, seeds, next_seed = self._resets(batch)
        out = self._step_kth(
            data, batch.mask_rows, xp.asarray(ranks.astype(np.int16)), xp.asarray(reset)
        )
        return self._after(
            out, reset=reset, seeds=seeds, next_seed=next_seed, legal=self._legal_of(out[0])
        )

    def _resets(self, batch: Any) -> tuple[Any, Any, Any, int]:
        """With auto-reset: the games, where those that are over are replaced by new
        games (dealt from the next seeds, in the games' order); which were replaced;
        the games' seeds; the next seed."""
        if not self.autoreset:
            return batch.data, self._none_reset, batch.seeds, batch.next_seed
        over = np.flatnonzero(batch.terminated)
        if not over.size:
            return batch.data, self._none_reset, batch.seeds, batch.next_seed
        if batch.seeds is None:
            raise ArgumentError(
                "auto-reset deals new games from seeds: start the batch with init()"
            )
        data = batch.host.copy()
        data[:, over] = self._take_dealt(batch.next_seed, over.size).T
        reset = np.zeros(self.size, dtype=bool)
        reset[over] = True
        seeds = np.array(batch.seeds, copy=True)
        seeds[over] = np.arange(over.size, dtype=np.uint64) + np.uint64(batch.next_seed)
        return data, reset, seeds, batch.next_seed + over.size  # numpy: the compiled call takes it

    def _take_dealt(self, first: int, count: int) -> np.ndarray:
        """The games of seeds ``first .. first+count-1``, dealt ``size`` at a time ahead."""
        have = sum(len(x) for x in self._dealt)
        if not self._dealt or self._dealt_from != first:
            self._dealt, self._dealt_from, have = [], first, 0
        while have < count:
            seeds = np.arange(self.size, dtype=np.uint64) + np.uint64(self._dealt_from + have)
            self._dealt.append(self.deal(seeds).astype(np.int16))
            have += self.size
        pool = np.concatenate(self._dealt) if len(self._dealt) > 1 else self._dealt[0]
        self._dealt = [pool[count:]] if count < len(pool) else []
        self._dealt_from = first + count
        return pool[:count]
