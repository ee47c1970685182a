"""Many games of Ascent at once: :mod:`castlerules.ascent.kernel` run on arrays.

No rule is written here.  The legal action mask is the kernel's guards
(:func:`~castlerules.ascent.kernel.guards`) evaluated for every action number
over every game; a step is the kernel's :func:`~castlerules.ascent.kernel.step`
with one action number per game; the scores are the kernel's
:func:`~castlerules.ascent.kernel.scores`.  This module lays the games out as
arrays (one row per quantity, one entry per game), deals the first player
with the engine's die (A18) for all the games at once, and turns the arrays
back into the engine's states.

The action numbers are the adapters' (Advance of card ``c`` is ``c``, Favour
``N + c``, EndTurn ``2N``, with ``N = 6n`` cards, or all 36 under
``deal="shuffled"``), so a policy trained on the batch plays through
OpenSpiel and PettingZoo unchanged.  Ascent hides nothing: every seat observes
the whole position.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from castlerules import ascent
from castlerules.ascent import kernel as K
from castlerules.ascent.rules import Tables
from castlerules.ascent.transitions import make_state
from castlerules.batch.arrays import ArrayOps, Stacked, whole
from castlerules.batch.chance import Streams, below_words
from castlerules.batch.functional import seed_words
from castlerules.batch.slots import Slots
from castlerules.core.errors import ArgumentError, IllegalMove
from castlerules.core.ops import merge


def turn_fields(kstate: type[Any]) -> tuple[str, ...]:
    """The fields of a kernel's position class that are the turn's, in their declared
    order: each one number a game, where the cards' fields are tuples (one number a
    card slot).  The batch keeps one row for each, so a field added to the kernel's
    :class:`~castlerules.ascent.kernel.KState` is a row with no edit here.

    >>> turn_fields(K.KState)[:2]
    ('actor', 'mid')
    """
    hints = typing.get_type_hints(kstate)
    return tuple(
        f.name for f in attrs.fields(kstate) if typing.get_origin(hints[f.name]) is not tuple
    )


def truth_fields(k: K.KState, names: Sequence[str]) -> frozenset[str]:
    """Of ``names``, the fields that ``k`` (a position of plain values) holds as truth
    values: the batch keeps them as numbers and gives the kernel ``row != 0``."""
    return frozenset(name for name in names if isinstance(getattr(k, name), bool))


_TURN = turn_fields(K.KState)
"""The fields of a :class:`~castlerules.ascent.kernel.KState` that are not the cards'
(a row each, after the cards' rows)."""

_TRUTHS = truth_fields(K.from_state(ascent.new_game(2, ascent.Rules(), 0)), _TURN)
"""The fields of :data:`_TURN` the kernel reads as truth values (a turn's step begun)."""

_STEP = ("sd", "sm", "sk")
"""The fields of :data:`_TURN` that are the engine's ``State.step`` while ``mid`` holds;
every other field but ``actor`` and ``mid`` is
:func:`~castlerules.ascent.transitions.make_state`'s argument of the same name."""


def _turn(k: K.KState) -> tuple[Any, ...]:
    return tuple(getattr(k, name) for name in _TURN)


@attrs.frozen(slots=True)
class Layout:
    """Where each quantity of a game is kept: one row of :attr:`Batch.data` each (per
    card slot its column, square, depth and flip, and under ``deal="shuffled"`` the
    seat dealt it; then the turn).  Under ``deal="sets"`` the deal is the shape's
    one table (``owner``), the same in every game, and has no rows."""

    slots: int
    owner: tuple[int, ...] | None = None
    """The deal of every game under ``deal="sets"``; None: a row per slot (shuffled)."""

    @classmethod
    def of(cls, shape: K.Shape) -> Layout:
        """The layout of a shape's games: the deal in rows only under ``deal="shuffled"``."""
        return cls(len(shape.cards), shape.owner if shape.rules.deal == "sets" else None)

    @property
    def fields(self) -> int:
        """The per-slot fields kept in rows: 4, or 5 with the deal."""
        return 4 if self.owner is not None else 5

    def rows_of(self, field: int) -> range:
        """The rows of per-slot field ``field`` (0 col, 1 sq, 2 dep, 3 flp, 4 own)."""
        return range(field * self.slots, (field + 1) * self.slots)

    @property
    def actor(self) -> int:
        return self.fields * self.slots

    @property
    def rows(self) -> int:
        return self.fields * self.slots + len(_TURN)

    def unpack(self, data: Any, kind: Any = None) -> K.KState:
        """The kernel's position, each field a row (vector of the games) of ``data``: of an
        array, the per-card fields as :class:`~castlerules.batch.arrays.Stacked` tuples
        (their rows of ``data``, one array); of a plain sequence of numbers (one game),
        plain tuples.  ``kind``: the integer type of every field of an array (its rows
        converted).

        >>> layout = Layout(2, owner=(0, 1))
        >>> layout.unpack([0, 1, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]).flp
        (False, True)
        """
        a = self.actor
        fields = 4 if self.owner is not None else 5
        if hasattr(data, "shape"):
            rows: list[Any] = [data[f * self.slots : (f + 1) * self.slots] for f in range(fields)]
            turn = data[a : a + len(_TURN)]
            if kind is not None:
                rows, turn = [r.astype(kind) for r in rows], turn.astype(kind)
            rows[3] = rows[3] != 0
            cards: list[tuple[Any, ...]] = [Stacked(r) for r in rows]
        else:
            cards = [tuple(data[f * self.slots : (f + 1) * self.slots]) for f in range(fields)]
            cards[3] = tuple(x != 0 for x in cards[3])
            turn = data[a : a + len(_TURN)]
        return K.KState(
            col=cards[0],
            sq=cards[1],
            dep=cards[2],
            flp=cards[3],
            own=self.owner if self.owner is not None else cards[4],
            **{name: turn[i] != 0 if name in _TRUTHS else turn[i] for i, name in enumerate(_TURN)},
        )

    def pack(self, xp: Any, k: K.KState, games: int | None = None) -> Any:
        """The rows of :meth:`unpack` as one ``(rows, size)`` int16 array (``games``
        columns where every field is a plain number); a
        :class:`~castlerules.batch.arrays.Stacked` field is its array, as it stands."""
        own = () if self.owner is not None else (k.own,)
        fields = [k.col, k.sq, k.dep, k.flp, *own, _turn(k)]
        size = next((r.shape[-1:] for f in fields for r in f if hasattr(r, "shape")), (games or 1,))

        def block(field: tuple[Any, ...]) -> Any:
            if isinstance(field, Stacked):
                x = xp.asarray(field.array, dtype=xp.int16)
                return xp.broadcast_to(x, (x.shape[0], *size))
            return xp.stack([xp.broadcast_to(xp.asarray(r, dtype=xp.int16), size) for r in field])

        return xp.concatenate([block(f) for f in fields])


@attrs.frozen(slots=True, eq=False)
class Batch:
    """The games of an Ascent batch, as arrays with one entry per game (see
    :class:`castlerules.batch.throne.Batch`, which has the same fields)."""

    data: Any
    """``(rows, size)`` int16: each game's numbers, one row each (:class:`Layout`)."""
    layout: Layout
    mask_rows: Any
    """``(num_actions, size)``: which action numbers are legal, a row per number."""
    legal_counts: Any
    """``(size,)``: how many action numbers are legal in each game."""
    ended: Any
    """``(size,)``: the game ended in the last step."""
    shape: K.Shape = attrs.field(repr=False)
    seeds: Any = None
    next_seed: int = 0
    reset: Any = None
    host: np.ndarray = attrs.field(default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.host is None:
            object.__setattr__(self, "host", np.asarray(self.data))

    @property
    def legal_action_mask(self) -> Any:
        """``(size, num_actions)``: which action numbers are legal in each game."""
        return self.mask_rows.T

    @property
    def k(self) -> K.KState:
        """The kernel's position of every game (numpy vectors)."""
        return self.layout.unpack(self.host)

    @property
    def current_player(self) -> Any:
        """``(size,)``: the seat to act, -1 once the game is over."""
        return self.host[self.layout.actor]

    @property
    def terminated(self) -> Any:
        """``(size,)``: the game is over."""
        return self.host[self.layout.actor] < 0

    @property
    def scores(self) -> np.ndarray:
        """``(size, players)``: each seat's points now (the kernel's ``scores``, A13-A16)."""
        points = K.scores(ArrayOps(np, np.int64), self.shape, self.k)
        return np.stack([np.broadcast_to(np.asarray(x), self.host.shape[1:]) for x in points], -1)

    @property
    def rewards(self) -> Any:
        """``(size, players)``: each seat's final points in the step a game ends, else 0."""
        return np.where(np.asarray(self.ended)[:, None], self.scores, 0)


def first_players(rules: ascent.Rules, players: int, seeds: Any) -> np.ndarray:
    """The seat the die designates for each seed (A18), as ``ascent.new_game`` rolls
    it (stream ``ascent.die``: rolled until a face ``1..players`` shows)."""
    seeds = [int(x) for x in np.asarray(seeds).reshape(-1)]
    if rules.die == "none":
        return np.zeros(len(seeds), dtype=np.int64)
    streams = Streams.from_seeds(seeds, "ascent.die")
    seat = np.full(len(seeds), -1, dtype=np.int64)
    while (seat < 0).any():
        todo = seat < 0
        face, moved = streams.below(np.full(len(seeds), 6))
        streams = moved.where(todo, streams)
        seat = np.where(todo & (face < players), face, seat)
    return seat


CHUNK = 512
"""Games per block of the compiled random playouts (:meth:`AscentEnv._random_steps`), at
most: a block plays all the steps of a call, then the next block."""

CHUNK_CARDS = 24
"""The cards in play (4 players) of which :data:`CHUNK` games make the largest block's
grids of pairs of cards; with more cards, fewer games (:func:`block_of`)."""


def block_of(cards: int) -> int:
    """Games per block for ``cards`` cards in play: :data:`CHUNK` at most, and about no
    more pairs of cards than :data:`CHUNK` games of :data:`CHUNK_CARDS` cards hold (the
    next power of two): 512 games up to 5 players, 256 at 6 (the sizes measured: the
    documentation's Measurements page)."""
    limit = CHUNK_CARDS * CHUNK_CARDS * CHUNK / (cards * cards)
    block = 1
    while block < min(CHUNK, limit):
        block *= 2
    return block


def largest_number(shape: K.Shape) -> int:
    """A bound on every integer the kernel computes of a game of ``shape``, cards and
    turn alike: a column or seat, a square, a depth in a stack and a depth plus the
    size of a part that lands on it (two stacks' cards at most: all of them), a card's
    rank, a stack's rank (one card's), a count of cards, a favour count, a place's bit
    in a word of places (:meth:`~castlerules.batch.arrays.AxisLanes.marks`: below 32),
    a seat's points (every card's value at most, A13-A16), and every partial sum of
    them.

    >>> from castlerules import ascent
    >>> largest_number(K.Shape.of(ascent.Rules(), 4)), largest_number(K.Shape.of(ascent.Rules(), 6))
    (84, 126)
    """
    cards = len(shape.cards)
    return max(2 * cards, shape.squares + 1, shape.players, 32, sum(shape.value), *shape.arrival)


def integers_of(shape: K.Shape, xp: Any) -> Any:
    """The integer type of the kernel's numbers on arrays for ``shape``: 8 bits where
    :func:`largest_number` fits them (every reading and player count of the register
    today), else 16.  Twice the games of 16-bit numbers to each vector instruction."""
    return xp.int8 if largest_number(shape) <= 127 else xp.int16


class AscentEnv(Slots):
    """A batch of ``size`` Ascent games of ``players`` seats under one ``rules``
    (the interface of :class:`castlerules.batch.throne.ThroneEnv`)."""

    game = "ascent"
    _steps_unrolled = 2
    """Two of ``play_random``'s steps a turn of its compiled loop: faster than one, or
    four, on a CPU (the documentation's Measurements page)."""

    def __init__(
        self,
        players: int,
        rules: ascent.Rules | None,
        *,
        size: int,
        backend: Any,
        autoreset: bool = False,
    ) -> None:
        self.rules = rules if rules is not None else ascent.Rules()
        if not isinstance(self.rules, ascent.Rules):
            raise ArgumentError(
                f"rules must be a castlerules.ascent.Rules (or None), not {type(rules).__name__}"
            )
        if not isinstance(autoreset, bool):
            raise ArgumentError(f"autoreset is True or False, not {autoreset!r:.20}")
        self.shape = K.Shape.of(self.rules, players)
        self.players = players
        self.size = size
        self.backend = backend
        self.autoreset = autoreset
        self.num_actions = len(self.shape.moves)
        self.layout = Layout.of(self.shape)
        self._ops = ArrayOps(backend.xp, integers_of(self.shape, backend.xp), settle=backend.keep)
        self._last: tuple[Any, K.Position] | None = None
        """The last position built and its arrays (:meth:`_position`)."""
        self._seat_row = self.layout.actor
        self._batch_class = Batch
        self._options = K.Options.of(self._ops, self.rules)
        self._legal_of = backend.jit(self._legal)
        self._step = backend.jit(self._transition)
        self._step_kth = backend.jit(self._transition_kth)
        self._slots_init()

    # ------------------------------------------------------------------ the kernel on arrays

    def _position(self, data: Any, terms: Any = None) -> K.Position:
        """The kernel's :class:`~castlerules.ascent.kernel.Position` of ``data``, built once
        for a legal mask and the step that follows it on the same arrays (a random
        move reads both: the board is most of the work of each); ``terms``: its board's
        (:meth:`~castlerules.ascent.kernel.Board.terms`), built by the step before."""
        last = self._last
        if terms is None and last is not None and last[0] is data:
            return last[1]
        o = self._ops.scoped()
        s = self.layout.unpack(data, o.int)
        board = None if terms is None else K.Board.restored(o, self.shape, self._options, s, terms)
        p = K.Position(o, self.shape, self._options, s, board)
        self._last = (data, p)
        return p

    def _legal_rows(self, data: Any) -> Any:
        return self._rows_of(self._position(data))

    def _rows_of(self, p: K.Position) -> Any:
        """``(num_actions, size)``: the kernel's guards of every action number in ``p``."""
        xp, o = self.backend.xp, p.o
        ones = xp.ones(p.s.actor.shape, dtype=bool)
        return xp.stack(
            [
                xp.logical_and(ones, K.legal(o, K.guards(p, K.decode(p, a))))
                for a in range(self.num_actions)
            ]
        )

    def _transition(self, data: Any, actions: Any, hold: Any) -> tuple[Any, Any]:
        """The kernel's step for every game still playing; finished games stay, and so
        do the games of ``hold`` (just dealt by an auto-reset)."""
        out, _after = self._transition_on(self._position(data), actions, hold)
        self._last = None
        return out

    def _transition_on(
        self, p: K.Position, actions: Any, hold: Any
    ) -> tuple[tuple[Any, Any], K.Board]:
        """:meth:`_transition` in position ``p``, and the board after the move (the next
        position's: a game over, or held, plays EndTurn here, which leaves its cards)."""
        xp, o, k = self.backend.xp, p.o, p.s
        over = xp.logical_or(k.actor < 0, hold)
        m = K.decode(p, xp.where(over, self.num_actions - 1, actions))
        shared = K.successors(p, m)
        out = K.step(p, m, shared)
        # Every case of a move leaves the cards of the board after it (only the turn
        # differs, K.successors), and a game over, or held, plays EndTurn, which leaves
        # its cards as they lie: the cards are the board after's, and only the turn is
        # picked.  (Picking the cards again, case by case, is work for nothing; under
        # XLA's classic emitters it also wrote each field over an array it read, a loop
        # then run one number at a time: batch.CPU_OPTIONS.)
        turn = merge(o, over, _turn(k), _turn(out.post))
        post = attrs.evolve(shared.after.s, **dict(zip(_TURN, turn, strict=True)))
        ended = xp.logical_and(xp.logical_not(over), out.post.actor < 0)
        return (self.layout.pack(xp, post), ended), shared.after

    def _kept(self, data: Any) -> Any:
        """The terms of the board of ``data`` (:meth:`~castlerules.ascent.kernel.Board.terms`):
        the random playouts carry each move's board after
        (:func:`~castlerules.ascent.kernel.successors`) into the next move as its
        position's board, one board a move where building the position's again would
        make two (each is about 41% of a random move's traced work at 4 players)."""
        return whole(self._position(data).board.terms())

    def _random_move_kept(
        self, data: Any, kept: Any, bots_low: Any, bots_high: Any
    ) -> tuple[Any, ...]:
        p = self._position(data, kept)
        action, bots_low, bots_high, live = self._draw(data, self._rows_of(p), bots_low, bots_high)
        nobody = self.backend.xp.zeros(live.shape, dtype=bool)
        (data, now), after = self._transition_on(p, action, nobody)
        return data, now, whole(after.terms()), bots_low, bots_high, live

    def _legal_kept(self, data: Any, kept: Any) -> tuple[Any, Any]:
        rows = self._rows_of(self._position(data, kept))
        self._last = None
        return rows, self._count(self._words(rows))

    def _random_steps(
        self, data: Any, bots_low: Any, bots_high: Any, steps: int
    ) -> tuple[Any, ...]:
        """:meth:`~castlerules.batch.slots.Slots._random_steps`, compiled by JAX a block of
        games at a time (:func:`block_of`): a block plays all the steps, then the next
        block, since a board's grids of pairs of cards for 512 games of 4 players fit the
        processor's cache and those of 4096 do not.  The games are independent: the same
        moves, block by block."""
        size = data.shape[-1]
        block = block_of(len(self.shape.cards))
        if self.backend.name != "jax" or size <= block or size % block:
            return super()._random_steps(data, bots_low, bots_high, steps)
        xp, blocks = self.backend.xp, size // block

        def split(x: Any) -> Any:
            return xp.moveaxis(x.reshape(*x.shape[:-1], blocks, block), -2, 0)

        def join(x: Any) -> Any:
            return xp.moveaxis(x, 0, -2).reshape(*x.shape[1:-1], size)

        data, rows, counts, bots_low, bots_high, ended, played = self.backend.each(
            lambda d, low, high: Slots._random_steps(self, d, low, high, steps),
            (split(data), split(bots_low), split(bots_high)),
        )
        out = (join(data), join(rows), join(counts), join(bots_low), join(bots_high), join(ended))
        return (*out, played.sum())

    # ------------------------------------------------------------------ the API

    def deal(self, seeds: Any) -> np.ndarray:
        """``(len(seeds), rows)``: new games of ``seeds`` (``ascent.new_game(players,
        rules, seed)`` of each), as :attr:`Batch.data`'s columns."""
        first = first_players(self.rules, self.players, seeds)
        o = ArrayOps(np, np.int64)
        dealt = None
        if self.rules.deal == "shuffled":
            # A18: each game's deal, as ascent.new_game deals it from its seed
            cards = self.shape.cards
            deals = [
                ascent.deal_of(self.rules, self.players, int(x))
                for x in np.asarray(seeds).reshape(-1)
            ]
            owners = np.array([[deal[c] for c in cards] for deal in deals], dtype=np.int64)
            owners = owners.reshape(-1, len(cards))
            dealt = tuple(owners[:, j] for j in range(len(cards)))
        start = K.initial(o, self.shape, K.Options.of(o, self.rules), first, dealt)
        return np.asarray(self.layout.pack(np, start, len(first))).T.copy()

    def _deals_traced(self) -> bool:
        return bool(self.rules.deal != "shuffled")  # shuffled: dealt on the host

    def dealt_data(self, seeds: Any) -> Any:
        """``(rows, len(seeds))`` int16: the new games of ``seeds`` (whole numbers in
        ``0..2**32-1``) as traced code: :meth:`deal`'s games, the die rolled from the
        seeds hashed in array code (:func:`~castlerules.batch.functional.seed_words`).
        ``deal="shuffled"`` is dealt on the host only (:meth:`deal`)."""
        xp = self.backend.xp
        if self.rules.deal == "shuffled":
            raise ArgumentError(
                "the pure functions deal Ascent under deal='sets' only; "
                "use env.init and env.step for deal='shuffled'"
            )
        seeds = xp.asarray(seeds)
        if self.rules.die == "none":
            first = xp.zeros(seeds.shape, dtype=xp.int32)
        else:  # A18: the die rolled until a face 1..players shows (stream ascent.die)
            die_low, die_high = seed_words(xp, seeds, "ascent.die", self.backend.repeat)

            def roll(carry: tuple[Any, ...]) -> tuple[Any, ...]:
                die_low, die_high, seat = carry
                todo = seat < 0
                face, rolled_low, rolled_high = below_words(
                    xp,
                    die_low,
                    die_high,
                    xp.full(seat.shape, 6, dtype=xp.uint32),
                    self.backend.loop,
                )
                face = face.astype(xp.int32)
                seat = xp.where(xp.logical_and(todo, face < self.players), face, seat)
                return (
                    xp.where(todo, rolled_low, die_low),
                    xp.where(todo, rolled_high, die_high),
                    seat,
                )

            start = (die_low, die_high, xp.full(seeds.shape, -1, dtype=xp.int32))
            first = self.backend.loop(lambda c: (c[2] < 0).any(), roll, start)[2]
        o = ArrayOps(xp, xp.int16)
        k = K.initial(o, self.shape, K.Options.of(o, self.rules), first, None)
        return self.layout.pack(xp, k, seeds.shape[0])

    def points_of(self, data: Any) -> Any:
        """``(games, players)``: each seat's points in the games ``data`` (traced code)."""
        xp = self.backend.xp
        points = K.scores(self._ops.scoped(), self.shape, self.layout.unpack(data))
        return xp.stack([xp.broadcast_to(xp.asarray(x), data.shape[1:]) for x in points], -1)

    def from_states(self, states: Sequence[ascent.State]) -> Batch:
        """A batch of the engine's positions (of this env's rules and player count)."""
        if len(states) != self.size:
            raise ArgumentError(f"a batch of this env holds {self.size} games, not {len(states)}")
        data = np.zeros((self.layout.rows, self.size), dtype=np.int64)
        for i, s in enumerate(states):
            if (
                not isinstance(s, ascent.State)
                or s.rules != self.rules
                or s.players != self.players
            ):
                raise ArgumentError(
                    f"game {i} is not an Ascent position of this env's rules and "
                    f"{self.players} players"
                )
            data[:, i] = np.asarray(self.layout.pack(np, K.from_state(s)))[:, 0]
        batch: Batch = self._start(data, None, 0)
        return batch

    def _extra(self, out: tuple[Any, ...]) -> dict[str, Any]:
        return {"shape": self.shape}

    def _refuse(self, batch: Batch, game: int, action: int) -> None:
        if not 0 <= action < self.num_actions:
            raise ArgumentError(
                f"game {game}: action {action} names no move (Ascent's actions are "
                f"0..{self.num_actions - 1})"
            )
        state = self.to_states(batch, [game])[0]
        try:
            ascent.apply(state, self.shape.moves[action])
        except IllegalMove as err:
            raise IllegalMove(
                f"game {game}: {err}", clause=err.clause, refusal=err.refusal
            ) from None
        raise AssertionError(f"game {game}: the batch refused an action the engine plays")

    def to_states(self, batch: Batch, games: Sequence[int] | None = None) -> list[ascent.State]:
        """The engine's :class:`~castlerules.ascent.State` of every game (or of ``games``)."""
        self._check_batch(batch)
        games = self._check_games(games)
        host, lay, shape = batch.host, self.layout, self.shape
        pick = list(range(self.size)) if games is None else list(games)
        col = host[lay.rows_of(0).start : lay.rows_of(0).stop]
        sq = host[lay.rows_of(1).start : lay.rows_of(1).stop]
        dep = host[lay.rows_of(2).start : lay.rows_of(2).stop]
        flp = host[lay.rows_of(3).start : lay.rows_of(3).stop]
        own = None if lay.owner is not None else host[lay.rows_of(4).start : lay.rows_of(4).stop]
        turn = host[lay.actor : lay.actor + len(_TURN)]
        n, squares = self.players, shape.squares
        tables = Tables.of(self.rules)
        out = []
        for i in pick:
            cols: list[list[list[tuple[int, int]]]] = [
                [[] for _ in range(squares + 1)] for _ in range(n)
            ]
            removed: list[list[int]] = [[] for _ in range(n)]
            flipped = [0] * n
            owners = None
            if own is not None:
                dealt = [-1] * len(tables.in_play)
                for j, card in enumerate(shape.cards):
                    dealt[card] = int(own[j, i])
                owners = tuple(dealt)
            for j, card in enumerate(shape.cards):
                q, s = int(col[j, i]), int(sq[j, i])
                if q < 0:
                    continue  # A18: left over by the deal, out of play
                if s == K.REMOVED:
                    removed[q].append(card)
                    continue
                cols[q][s].append((int(dep[j, i]) if s else card, card))
                if s and flp[j, i]:
                    flipped[q] |= 1 << s
            columns = tuple(
                tuple(tuple(c for _d, c in sorted(stack)) for stack in squares_of)
                for squares_of in cols
            )
            kept: dict[str, Any] = {n: int(x) for n, x in zip(_TURN, turn[:, i], strict=True)}
            actor, mid = kept.pop("actor"), kept.pop("mid")
            step = tuple(kept.pop(name) for name in _STEP)
            out.append(
                make_state(
                    self.rules,
                    t=tables,
                    cols=columns,
                    flipped=tuple(flipped),
                    removed=tuple(tuple(sorted(r)) for r in removed),
                    actor=actor,
                    step=step if mid else None,
                    owners=owners,
                    **kept,
                )
            )
        return out

    def observe(self, batch: Batch, seat: int) -> dict[str, Any]:
        """What ``seat`` may know of every game: everything (Ascent hides nothing), as
        ``(size, cards)`` arrays per card slot and the turn."""
        self._check_seat(seat)
        return self.observe_data(np, batch.host, seat)

    def observe_data(self, xp: Any, data: Any, seat: int) -> dict[str, Any]:
        """:meth:`observe` of the games ``data`` as array code of ``xp`` (numpy, or
        traced: the pure functions' ``observation``)."""
        lay = self.layout

        def rows(field: int) -> Any:
            return data[lay.rows_of(field).start : lay.rows_of(field).stop].T

        out = {
            "column": rows(0),
            "square": rows(1),
            "depth": rows(2),
            "flipped": rows(3) != 0,
            "actor": data[lay.actor],
            "mid_turn": data[lay.actor + _TURN.index("mid")] != 0,
        }
        if self.rules.deal == "shuffled":  # the seat dealt each card, -1 if left over (A18)
            out["owner"] = rows(4)
        return out


__all__ = ["AscentEnv", "Batch", "Layout", "first_players"]
