"""Many games of Throne at once: :mod:`castlerules.throne.kernel` run on arrays.

No rule is written here.  The legal action mask is the kernel's guards
(:func:`~castlerules.throne.kernel.guards`) evaluated for every action
number over every game; a step is the kernel's
:func:`~castlerules.throne.kernel.step` with one action number per game.
This module only lays the games out as arrays (one entry per game), keeps
what the kernel leaves to its caller (every round's objectives, dealt by the
engine's own :func:`~castlerules.throne.new_game`; the scores and kings of
the finished rounds) and turns the arrays back into the engine's states.

The action numbers are the adapters' (:class:`castlerules.throne.rules.Codes`,
the numbers of OpenSpiel's and PettingZoo's Throne), so a policy trained on
the batch plays through either adapter unchanged.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from castlerules import throne
from castlerules.batch.arrays import ArrayOps
from castlerules.batch.chance import Streams, below_words, words_of
from castlerules.batch.functional import seed_words
from castlerules.batch.slots import Slots, whole_numbers
from castlerules.core.errors import ArgumentError, IllegalMove
from castlerules.core.ops import CONCRETE, merge
from castlerules.throne import kernel as K
from castlerules.throne.sampling import letters_mask
from castlerules.throne.state import ELECTION, OVER, build_state


@attrs.frozen(slots=True)
class Layout:
    """Where each quantity of a game is kept: one row of :attr:`Batch.data` each.

    A batch keeps all its games' numbers in one ``(rows, size)`` array of small
    integers, so that a step passes one array to the compiled kernel and gets one
    back (a compiled call costs about as much per array as per operation); the
    kernel reads the rows as vectors of the games.
    """

    players: int
    characters: int
    rounds: int

    turn = 2
    """The seat to act (the kernel's ``KState.turn``; -1 once the game is over), after
    the round (row 0) and the phase (row 1)."""

    @property
    def fl(self) -> range:
        """Each character's floor (the kernel's ``KState.fl``)."""
        return range(3, 3 + self.characters)

    @property
    def no(self) -> range:
        return range(self.fl.stop, self.fl.stop + self.players)

    @property
    def votes(self) -> range:
        return range(self.no.stop, self.no.stop + self.players)

    @property
    def passes(self) -> int:
        return self.votes.stop

    @property
    def total(self) -> range:
        return range(self.passes + 1, self.passes + 1 + self.players)

    def score(self, rnd: int, seat: int) -> int:
        """Round ``rnd`` (0-based)'s score of ``seat``, 0 until the round is scored."""
        return self.total.stop + rnd * self.players + seat

    def king(self, rnd: int) -> int:
        """Round ``rnd`` (0-based)'s crowned character, -1 for none (or not yet)."""
        return self.total.stop + self.rounds * self.players + rnd

    def objective(self, rnd: int, seat: int) -> int:
        """Round ``rnd`` (0-based)'s objective of ``seat`` as a bit mask (B4)."""
        return self.king(self.rounds) + rnd * self.players + seat

    @property
    def rows(self) -> int:
        return self.objective(self.rounds, 0)

    def unpack(
        self, data: Any
    ) -> tuple[K.KState, tuple[tuple[Any, ...], ...], tuple[tuple[Any, ...], ...], tuple[Any, ...]]:
        """The kernel's position (``obj`` left empty), the objective masks, the round
        scores and kings, each a row (vector of the games) of ``data``."""
        n, rounds = self.players, self.rounds
        k = K.KState(
            rnd=data[0],
            phase=data[1],
            turn=data[self.turn],
            fl=tuple(data[i] for i in self.fl),
            no=tuple(data[i] for i in self.no),
            votes=tuple(data[i] for i in self.votes),
            passes=data[self.passes],
            total=tuple(data[i] for i in self.total),
            obj=(),
        )
        masks = tuple(tuple(data[self.objective(r, q)] for q in range(n)) for r in range(rounds))
        scores = tuple(tuple(data[self.score(r, q)] for q in range(n)) for r in range(rounds))
        kings = tuple(data[self.king(r)] for r in range(rounds))
        return k, masks, scores, kings

    def cube(self, host: np.ndarray, row: Any) -> np.ndarray:
        """``(games, rounds, players)`` int64: the rows ``row(round, seat)`` of ``host``
        (numpy data), e.g. :meth:`objective` or :meth:`score`."""
        picked = [[row(r, q) for q in range(self.players)] for r in range(self.rounds)]
        return np.transpose(host[np.array(picked)], (2, 0, 1)).astype(np.int64)

    def kings_of(self, host: np.ndarray) -> np.ndarray:
        """``(games, rounds)`` int64: each round's crowned character, -1 for none."""
        return host[self.king(0) : self.king(self.rounds)].T.astype(np.int64)

    def pack(
        self,
        xp: Any,
        k: K.KState,
        masks: tuple[tuple[Any, ...], ...],
        scores: tuple[tuple[Any, ...], ...],
        kings: tuple[Any, ...],
    ) -> Any:
        """The rows of :meth:`unpack` as one ``(rows, size)`` int16 array."""
        rows = self.row_values(k, masks, scores, kings)
        size = next((r.shape for r in rows if hasattr(r, "shape")), (1,))
        vectors = [xp.broadcast_to(xp.asarray(r, dtype=xp.int16), size) for r in rows]
        return xp.stack(vectors)

    @staticmethod
    def row_values(
        k: K.KState,
        masks: tuple[tuple[Any, ...], ...],
        scores: tuple[tuple[Any, ...], ...],
        kings: tuple[Any, ...],
    ) -> list[Any]:
        """The values of :meth:`pack`'s rows, in their order (of one game: its column)."""
        return [
            k.rnd,
            k.phase,
            k.turn,
            *k.fl,
            *k.no,
            *k.votes,
            k.passes,
            *k.total,
            *(x for row in scores for x in row),
            *kings,
            *(x for row in masks for x in row),
        ]


@attrs.frozen(slots=True, eq=False)
class Batch:
    """The games of a batch, as arrays with one entry per game.

    Every number of every game is a row of :attr:`data` (:class:`Layout`); the
    properties read them as ``(size, ...)`` arrays.  With the ``jax`` backend
    they are jax arrays, else numpy arrays.
    """

    data: Any
    """``(rows, size)`` int16: each game's numbers, one row each (:class:`Layout`)."""
    layout: Layout
    mask_rows: Any
    """``(num_actions, size)``: which action numbers are legal in each game, a row
    per action number (:attr:`legal_action_mask` is its transpose)."""
    legal_counts: Any
    """``(size,)``: how many action numbers are legal in each game."""
    ended: Any
    """``(size,)``: the game ended in the last step."""
    effect: Any = None
    """``(size,)``: which of the kernel's effects the last step applied in each game
    (an index of :attr:`ThroneEnv.effects`; None before the first step)."""
    seeds: Any = None
    """``(size,)``: the seed each game was dealt from (None for games made by
    :meth:`ThroneEnv.from_states`)."""
    next_seed: int = 0
    """With auto-reset: the seed of the next game dealt."""
    reset: Any = None
    """``(size,)``: the game was reset (a new game dealt) in the last step."""
    _host: np.ndarray | None = attrs.field(default=None, repr=False)

    @property
    def host(self) -> np.ndarray:
        """:attr:`data` as a numpy array (the same memory where the backend allows it;
        copied from the device when first read)."""
        if self._host is None:
            object.__setattr__(self, "_host", np.asarray(self.data))
        return self._host  # type: ignore[return-value]

    @property
    def legal_action_mask(self) -> Any:
        """``(size, num_actions)``: which action numbers are legal in each game."""
        return self.mask_rows.T

    @property
    def k(self) -> K.KState:
        """The kernel's position of every game (each field a vector of the games;
        ``obj`` empty)."""
        return self.layout.unpack(self.host)[0]

    @property
    def current_player(self) -> Any:
        """``(size,)``: the seat to act, -1 once the game is over."""
        return self.host[self.layout.turn]

    @property
    def terminated(self) -> Any:
        """``(size,)``: the game is over."""
        return self.host[1] == OVER

    @property
    def rewards(self) -> Any:
        """``(size, players)``: each seat's final total in the step a game ends, else 0."""
        totals = self.host[self.layout.total.start : self.layout.total.stop].T
        return np.where(np.asarray(self.ended)[:, None], totals, 0)

    @property
    def objectives(self) -> np.ndarray:
        """``(size, rounds, players)``: every round's objectives as bit masks."""
        return self.layout.cube(self.host, self.layout.objective)

    @property
    def results(self) -> np.ndarray:
        """``(size, rounds, players)``: the round scores, 0 for rounds not scored."""
        return self.layout.cube(self.host, self.layout.score)

    @property
    def kings(self) -> np.ndarray:
        """``(size, rounds)``: the crowned character of each round, -1 for none."""
        return self.layout.kings_of(self.host)


def deal(rules: throne.Rules, players: int, seeds: Any) -> np.ndarray:
    """``(games, rounds, players)``: every round's objectives of each seed as bit masks,
    as :func:`castlerules.throne.sampling.deal_objectives` deals them (B4), for all
    the seeds at once."""
    seeds = [int(x) for x in np.asarray(seeds).reshape(-1)]
    return deal_from(rules, players, Streams.from_seeds(seeds, "throne/objectives"))


def deal_from(rules: throne.Rules, players: int, streams: Streams) -> np.ndarray:
    """:func:`deal` from the games' generators of stream ``throne/objectives``."""
    games = streams.state.shape[0]
    out = np.zeros((games, rules.rounds, players), dtype=np.int64)
    if not games:
        return out
    if rules.objective_deck is not None:
        cards = np.array([letters_mask(rules, card) for card in rules.objective_deck])
        for r in range(rules.rounds):
            order, streams = streams.shuffled_orders(len(cards))
            out[:, r, :] = cards[order[:, :players]]
        return out
    for r in range(rules.rounds):
        have = np.zeros(games, dtype=np.int64)
        while True:
            todo = have < players
            if not todo.any():
                break
            mask, moved = streams.sample_masks(rules.characters, rules.objective_size)
            streams = moved.where(todo, streams)
            rows = out[:, r, :]
            seen = (rows == mask[:, None]) & (np.arange(players)[None, :] < have[:, None])
            fresh = todo & ~seen.any(axis=1)
            place = np.flatnonzero(fresh)
            out[place, r, have[place]] = mask[place]
            have += fresh
    return out


def deal_words(
    xp: Any, loop: Any, rules: throne.Rules, players: int, low_words: Any, high_words: Any
) -> tuple[tuple[Any, ...], ...]:
    """:func:`deal` as array code (numpy, or traced for a compiled program): every
    round's objectives of each game as ``int32`` bit masks, a vector per round and
    seat, drawn from the games' generators of stream ``throne/objectives`` held as
    32-bit words (:func:`~castlerules.batch.chance.below_words`, the same draws)."""
    i32, u = xp.int32, xp.uint32
    games = low_words.shape

    def below(low_words: Any, high_words: Any, bound: int) -> tuple[Any, Any, Any]:
        value, low_words, high_words = below_words(
            xp, low_words, high_words, xp.full(games, bound, dtype=u), loop
        )
        return value.astype(i32), low_words, high_words

    def swap_in(items: list[Any], j: Any, value: Any) -> list[Any]:
        """``items`` with ``value`` at each game's index ``j``."""
        return [xp.where(j == t, value, x) for t, x in enumerate(items)]

    def at(items: list[Any], j: Any, low: int) -> Any:
        """Each game's item ``j`` (``j >= low``)."""
        out = items[-1]
        for t in range(len(items) - 2, low - 1, -1):
            out = xp.where(j == t, items[t], out)
        return out

    start = [xp.full(games, t, dtype=i32) for t in range(rules.characters)]
    rounds: list[tuple[Any, ...]] = []
    if rules.objective_deck is not None:
        cards = xp.asarray([letters_mask(rules, c) for c in rules.objective_deck], dtype=i32)
        size = len(rules.objective_deck)
        for _r in range(rules.rounds):
            order = [xp.full(games, t, dtype=i32) for t in range(size)]
            for i in range(size - 1, 0, -1):  # Rng.shuffled: Fisher-Yates from the end
                j, low_words, high_words = below(low_words, high_words, i + 1)
                here, there = order[i], at(order, j, 0)
                order = swap_in(order, j, here)
                order[i] = there
            rounds.append(tuple(cards[order[q]] for q in range(players)))
        return tuple(rounds)

    def sample_mask(low_words: Any, high_words: Any) -> tuple[Any, Any, Any]:
        """Rng.sample_mask(characters, objective_size): a partial Fisher-Yates shuffle."""
        out, mask = list(start), xp.zeros(games, dtype=i32)
        for i in range(rules.objective_size):
            drawn, low_words, high_words = below(low_words, high_words, rules.characters - i)
            j = drawn + i
            picked = at(out, j, i)
            out = swap_in(out, j, out[i])
            mask = mask | (xp.ones(games, dtype=i32) << picked)
        return mask, low_words, high_words

    def draw(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        """One more mask for every game short of ``players`` masks; kept if new (B4)."""
        low_words, high_words, have, masks = carry
        todo = have < players
        mask, drawn_low, drawn_high = sample_mask(low_words, high_words)
        low_words, high_words = (
            xp.where(todo, drawn_low, low_words),
            xp.where(todo, drawn_high, high_words),
        )
        seen = xp.zeros(games, dtype=bool)
        for q in range(players):
            seen = xp.logical_or(seen, xp.logical_and(masks[q] == mask, have > q))
        fresh = xp.logical_and(todo, xp.logical_not(seen))
        masks = tuple(
            xp.where(xp.logical_and(fresh, have == q), mask, m) for q, m in enumerate(masks)
        )
        return low_words, high_words, have + fresh.astype(i32), masks

    for _r in range(rules.rounds):
        empty = tuple(xp.zeros(games, dtype=i32) for _ in range(players))
        carry = (low_words, high_words, xp.zeros(games, dtype=i32), empty)
        low_words, high_words, _have, masks = loop(lambda c: (c[2] < players).any(), draw, carry)
        rounds.append(masks)
    return tuple(rounds)


AT_ONCE = 1 << 14
"""The numpy backend evaluates the guards of every action number in one pass
(:meth:`ThroneEnv._mask_at_once`) where the batch's games times its action numbers are
at most this many; a larger batch, one action number at a time (numpy's cost per game
then outweighs its cost per operation)."""


def _repeated(value: Any, times: int) -> Any:
    """``value`` (a vector of the games, or a tuple or attrs instance of them) with its
    games repeated ``times`` times one after the other."""
    if isinstance(value, tuple):
        return tuple(_repeated(x, times) for x in value)
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        return attrs.evolve(
            value, **{f.name: _repeated(getattr(value, f.name), times) for f in fields}
        )
    if np.ndim(value) == 0:  # a number, the same for every game
        return value
    return np.tile(value, times)


def _bits(masks: Any, characters: int, xp: Any) -> tuple[Any, ...]:
    return tuple((masks >> c) & 1 == 1 for c in range(characters))


class ThroneEnv(Slots):
    """A batch of ``size`` Throne games of ``players`` seats under one ``rules``.

    With ``autoreset``, a game that ended in a step is replaced in the next step by
    a new game, dealt from the next seed (:attr:`Batch.next_seed`; the action given
    for it in that step is ignored), as in Gymnasium's vector environments.
    """

    game = "throne"

    def __init__(
        self,
        players: int,
        rules: throne.Rules | None,
        *,
        size: int,
        backend: Any,
        autoreset: bool = False,
    ) -> None:
        self.rules = rules if rules is not None else throne.Rules()
        if not isinstance(self.rules, throne.Rules):
            raise ArgumentError(
                f"rules must be a castlerules.throne.Rules (or None), not {type(rules).__name__}"
            )
        if not isinstance(autoreset, bool):
            raise ArgumentError(f"autoreset is True or False, not {autoreset!r:.20}")
        self.shape = K.Shape.of(self.rules, players)
        self.players = self.shape.players
        self.size = size
        self.backend = backend
        self.autoreset = autoreset
        self.num_actions = self.shape.actions
        self.layout = Layout(self.players, self.shape.characters, self.shape.rounds)
        xp = backend.xp
        self._ops = ArrayOps(xp)
        self._seat_row = self.layout.turn
        self._batch_class = Batch
        self._options = K.Options.of(self._ops, self.rules)
        self._legal_of = backend.jit(self._legal)
        self._step = backend.jit(self._transition)
        self._step_kth = backend.jit(self._transition_kth)
        self._probe = backend.jit(self.first_broken)
        self._deal_words = backend.jit(self._dealt_columns)
        start = K.from_state(throne.new_game(self.players, self.rules))
        plain = K.Position(CONCRETE, self.shape, K.Options.of(CONCRETE, self.rules), start)
        move = K.decode(plain, 0)
        self.effects: tuple[str, ...] = tuple(c.label for c in K.cases(plain, move, start.obj))
        """The kernel's effects, in its order (the labels of ``kernel.cases``)."""
        self.guard_clauses: tuple[str, ...] = tuple(c for c, _w, _b in K.guards(plain, move))
        """The clause of each of the kernel's guards, in its order."""
        blank = attrs.evolve(start, obj=())
        self._blank = np.asarray(
            self.layout.pack(
                np,
                blank,
                ((0,) * self.players,) * self.shape.rounds,
                ((0,) * self.players,) * self.shape.rounds,
                (-1,) * self.shape.rounds,
            )
        )[:, 0]
        """A new game's rows, objectives 0 (the kernel's initial position, B3, B6)."""
        self._slots_init()

    def under(self, options: K.Options, placeable: Any, placements: Any) -> ThroneEnv:
        """This env with the kernel's options and the two tables of its shape that
        placement changes (``placeable``, per move number of :attr:`shape`'s moves;
        ``placements``) replaced, e.g. by the operands of a compiled program, so that
        one program serves the rules that differ only there.  For traced code (the
        building blocks :meth:`random_move`, :meth:`first_broken`); the rest of the env
        is shared with this one."""
        other = copy.copy(self)
        other._options = options
        other.shape = attrs.evolve(self.shape, placeable=placeable, placements=placements)
        return other

    # ------------------------------------------------------------------ the kernel on arrays

    def _obj(
        self, masks: tuple[tuple[Any, ...], ...], rnd: Any, o: ArrayOps
    ) -> tuple[tuple[Any, ...], ...]:
        """The favourites of round ``rnd`` of each game, as the kernel reads them."""
        xp = self.backend.xp
        return tuple(
            _bits(o.select([row[q] for row in masks], rnd, low=1), self.shape.characters, xp)
            for q in range(self.players)
        )

    def _mask_of(self, k: K.KState, o: ArrayOps) -> Any:
        """``(num_actions, size)``: the kernel's guards of every action number, a row each
        (a small batch in numpy: :meth:`_mask_at_once`)."""
        xp = self.backend.xp
        if self.backend.name == "numpy" and k.turn.shape[0] * self.num_actions <= AT_ONCE:
            return self._mask_at_once(k)
        p = K.Position(o, self.shape, self._options, k)
        ones = xp.ones(k.turn.shape, dtype=bool)
        return xp.stack(
            [
                xp.logical_and(ones, K.legal(o, K.guards(p, K.decode(p, a))))
                for a in range(self.num_actions)
            ]
        )

    def _mask_at_once(self, k: K.KState) -> Any:
        """:meth:`_mask_of` in numpy for a small batch: the kernel's guards of every action
        number in one pass, each game's position repeated once per action number and the
        move numbers an array (as :meth:`first_broken` reads them).  The guards are the
        same; numpy runs each of their operations once, where one action number at a
        time would run it once per action number (for a small batch, most of the time is
        numpy's cost per operation, not per game)."""
        size, actions = k.turn.shape[0], self.num_actions
        o = self._ops.scoped()
        p = K.Position(o, self.shape, self._options, _repeated(k, actions))
        numbers = np.repeat(np.arange(actions, dtype=np.int16), size)
        legal = K.legal(o, K.guards(p, K.decode(p, numbers)))
        return np.broadcast_to(legal, (actions * size,)).reshape(actions, size)

    def _transition(self, data: Any, actions: Any, hold: Any) -> tuple[Any, ...]:
        """The kernel's step for every game still playing; finished games stay, and so
        do the games of ``hold`` (just dealt by an auto-reset)."""
        xp, o, shape, lay = self.backend.xp, self._ops.scoped(), self.shape, self.layout
        k, masks, _scores, _kings = lay.unpack(data)
        over = xp.logical_or(k.phase == OVER, hold)
        k = attrs.evolve(k, obj=self._obj(masks, k.rnd, o))
        p = K.Position(o, shape, self._options, k)
        m = self._decode(p, xp.where(over, 0, actions))
        # The next round's objectives are the kernel's chance input, kept in its next
        # position only: the rows keep every round's objectives already, and the next
        # position's are not packed, so the round's own stand in (no select traced).
        found = K.cases(p, m, k.obj)
        out = o.pick([c.when for c in found], [c.make for c in found])  # kernel.step
        effect = o.first([c.when for c in found])
        post = merge(o, over, k, out.post)
        now = xp.logical_and(xp.logical_not(over), out.scored)  # this step scored a round
        ended = xp.logical_and(xp.logical_not(over), post.phase == OVER)
        # The rows of the round scores and of the kings as two blocks, each one select:
        # the compiler computes a block in one piece (a seat's score of the round once),
        # where a row each would copy what the rows share into every row.  Each seat's
        # score (its favourites' points, B14) is kept (backend.keep): the compiler would
        # otherwise compute it again in every round's row of the block.
        n, rounds, size = self.players, shape.rounds, k.turn.shape
        first, kings_at = lay.score(0, 0), lay.king(0)
        this = xp.logical_and(
            now[None, :], k.rnd[None, :] == xp.arange(1, rounds + 1, dtype=k.rnd.dtype)[:, None]
        )
        block = data[first:kings_at].reshape(rounds, n, *size)
        scored = xp.stack(
            [  # per seat, its rounds (a seat's score computed in one piece), then by round
                xp.where(this, xp.asarray(x, dtype=xp.int16), block[:, q])
                for q, x in enumerate(self.backend.keep(out.score))
            ],
            axis=1,
        )
        king = xp.asarray(out.king, dtype=xp.int16)
        rows = [
            lay.pack(xp, post, (), (), ()),
            scored.reshape(rounds * n, *size),
            xp.where(this, king, data[kings_at : kings_at + rounds]),
            data[kings_at + rounds :],
        ]
        return xp.concatenate(rows), ended, effect

    def _decode(self, p: K.Position, a: Any) -> K.Parts:
        """:func:`~castlerules.throne.kernel.decode` of the move numbers ``a`` (one per
        game), the tables of the move numbers read in one gather: the compiler computes
        ``a`` (the k-th legal action, say) once, where a gather per table would copy its
        computation into each."""
        xp, shape = self.backend.xp, self.shape
        tables = [xp.asarray(t, dtype=xp.int16) for t in (shape.kind, shape.character, shape.floor)]
        read = xp.stack([*tables, xp.asarray(shape.placeable, dtype=xp.int16)])[:, a]
        kind, character, floor, placeable = (read[i] for i in range(4))
        return K.Parts(
            a=a,
            kind=kind,
            character=character,
            floor=floor,
            placeable=placeable,
            mine=p.o.select(p.s.fl, character),
        )

    def _legal_rows(self, data: Any) -> Any:
        o = self._ops.scoped()
        k, masks, _s, _k = self.layout.unpack(data)
        return self._mask_of(attrs.evolve(k, obj=self._obj(masks, k.rnd, o)), o)

    def first_broken(self, data: Any, actions: Any) -> Any:
        """Per game of ``data``, the index of the first of the kernel's guards that
        ``actions`` breaks (-1: legal), for any move number of the notation; traced
        code, for compiled loops (:meth:`refusals` is its compiled call on a batch)."""
        o = self._ops.scoped()
        k, masks, _s, _k = self.layout.unpack(data)
        k = attrs.evolve(k, obj=self._obj(masks, k.rnd, o))
        p = K.Position(o, self.shape, self._options, k)
        return K.first_broken(o, K.guards(p, K.decode(p, actions)))

    def refusals(self, batch: Batch, moves: Any) -> Any:
        """Per game, the clause index (of :attr:`guard_clauses`) that refuses move number
        ``moves`` of :func:`~castlerules.throne.kernel.universe_of`, -1 where it is legal."""
        xp = self.backend.xp
        self._check_batch(batch)
        checked = whole_numbers(moves, "moves", 0, len(self.shape.moves) - 1)
        if checked.shape not in ((), (self.size,)):
            raise ArgumentError(f"moves is one move number per game, shape ({self.size},)")
        return np.asarray(self._probe(batch.data, xp.asarray(checked.astype(np.int16))))

    # ------------------------------------------------------------------ the API

    def deal(self, seeds: Any) -> np.ndarray:
        """``(len(seeds), rows)``: new games dealt from ``seeds``, as :attr:`Batch.data`'s
        columns (``throne.new_game(players, rules, seed)`` of each seed)."""
        return self._games_of(deal(self.rules, self.players, seeds))

    def _games_of(self, masks: np.ndarray) -> np.ndarray:
        """``(games, rows)``: new games of the objectives ``masks`` (:func:`deal`'s)."""
        games = np.tile(self._blank, (masks.shape[0], 1))
        lay = self.layout
        for r in range(lay.rounds):
            for q in range(lay.players):
                games[:, lay.objective(r, q)] = masks[:, r, q]
        return games

    deal_streams = ("throne/objectives",)

    def deal_block(self, seeds: Sequence[int], states: np.ndarray) -> Any:
        """The games of ``seeds`` as columns, from the states of their generators of
        stream ``throne/objectives``: numpy deals them as :func:`deal`, JAX in a
        compiled program (:func:`deal_words`, the same draws)."""
        if self.backend.name == "numpy":
            return self.deal_states(states)
        return self._deal_words(*words_of(states[0]))

    def deal_states(self, states: np.ndarray) -> np.ndarray:
        """:meth:`deal_block` in numpy, whatever the backend (no compilation)."""
        masks = deal_from(self.rules, self.players, Streams(states[0]))
        return self._games_of(masks).T.astype(np.int16)

    def _dealt_columns(self, low_words: Any, high_words: Any) -> Any:
        """``(rows, games)`` int16: the new games of the generators ``low_words``, ``high_words``
        (:func:`deal_words`), as traced code."""
        xp, lay = self.backend.xp, self.layout
        masks = deal_words(xp, self.backend.loop, self.rules, self.players, low_words, high_words)
        rows = {
            lay.objective(r, q): masks[r][q] for r in range(lay.rounds) for q in range(lay.players)
        }
        return xp.stack(
            [
                rows[i].astype(xp.int16)
                if i in rows
                else xp.full(low_words.shape, x, dtype=xp.int16)
                for i, x in enumerate(self._blank.tolist())
            ]
        )

    def dealt_data(self, seeds: Any) -> Any:
        """``(rows, len(seeds))`` int16: the new games of ``seeds`` (whole numbers in
        ``0..2**32-1``) as traced code, the seeds hashed in array code
        (:func:`~castlerules.batch.functional.seed_words`): :meth:`deal`'s games."""
        low_words, high_words = seed_words(
            self.backend.xp, seeds, "throne/objectives", self.backend.repeat
        )
        return self._dealt_columns(low_words, high_words)

    def points_of(self, data: Any) -> Any:
        """``(games, players)``: each seat's total of the games ``data`` (traced code)."""
        total = self.layout.total
        return self.backend.xp.stack([data[i] for i in total], axis=-1)

    def from_states(self, states: Sequence[throne.State]) -> Batch:
        """A batch of the engine's positions (of this env's rules and player count)."""
        if len(states) != self.size:
            raise ArgumentError(f"a batch of this env holds {self.size} games, not {len(states)}")
        for i, s in enumerate(states):
            if (
                not isinstance(s, throne.State)
                or s.rules != self.rules
                or s.players != self.players
            ):
                raise ArgumentError(
                    f"game {i} is not a Throne position of this env's rules and "
                    f"{self.players} players"
                )
        lay = self.layout
        data = np.zeros((lay.rows, self.size), dtype=np.int64)
        for i, s in enumerate(states):
            x = K.from_state(s)
            rounds, n = lay.rounds, lay.players
            results = [list(row) for row in s.results] + [[0] * n] * (rounds - len(s.results))
            kings = [*s.kings, *([-1] * (rounds - len(s.kings)))]
            data[:, i] = lay.row_values(
                attrs.evolve(x, obj=()), s.objectives, tuple(map(tuple, results)), tuple(kings)
            )
        batch: Batch = self._start(data, None, 0)
        return batch

    def _extra(self, out: tuple[Any, ...]) -> dict[str, Any]:
        # The step's effect, where there is one (play_random's many steps give none).
        return {"effect": out[2] if len(out) > 2 else None}

    def _refuse(self, batch: Batch, game: int, action: int) -> None:
        state = self.to_states(batch, [game])[0]
        codes = self.rules.tables.codes
        if not 0 <= action < self.num_actions:
            raise ArgumentError(
                f"game {game}: action {action} names no move (Throne's actions are "
                f"0..{self.num_actions - 1})"
            )
        move = codes.moves[action]
        try:
            throne.apply(state, move)
        except IllegalMove as err:
            raise IllegalMove(
                f"game {game}: {err}", clause=err.clause, refusal=err.refusal
            ) from None
        raise AssertionError(f"game {game}: the batch refused {move}, which the engine plays")

    def to_states(self, batch: Batch, games: Sequence[int] | None = None) -> list[throne.State]:
        """The engine's :class:`~castlerules.throne.State` of every game (or of ``games``)."""
        self._check_batch(batch)
        return self.states_of(batch.host, self._check_games(games))

    def states_of(self, data: Any, games: Sequence[int] | None = None) -> list[throne.State]:
        """The engine's :class:`~castlerules.throne.State` of the games of ``data`` (a
        batch's :attr:`~Batch.data` or columns of it, any number), or of ``games``."""
        host, lay = np.asarray(data), self.layout
        k = lay.unpack(host)[0]
        pick = list(range(host.shape[1])) if games is None else list(games)
        rnd = np.asarray(k.rnd)
        phase = np.asarray(k.phase)
        turn = np.asarray(k.turn)
        fl = np.stack([np.asarray(x) for x in k.fl], axis=-1)
        no = np.stack([np.asarray(x) for x in k.no], axis=-1)
        votes = np.stack([np.asarray(x) for x in k.votes], axis=-1)
        passes = np.asarray(k.passes)
        objectives = lay.cube(host, lay.objective)
        results = lay.cube(host, lay.score)
        kings = lay.kings_of(host)
        rules, n, top = self.rules, self.players, self.shape.top
        out = []
        for i in pick:
            floors = tuple(int(x) for x in fl[i])
            finished = int(rnd[i]) if phase[i] == OVER else int(rnd[i]) - 1
            counts = (floors.count(0), *(floors.count(f) for f in range(1, top + 1)))
            out.append(
                build_state(
                    rules,
                    n,
                    int(rnd[i]),
                    int(phase[i]),
                    turn=int(turn[i]),
                    floors=floors,
                    counts=counts,
                    no_cards=tuple(int(x) for x in no[i]),
                    votes=tuple(int(x) for x in votes[i]) if phase[i] == ELECTION else (),
                    passes=int(passes[i]),
                    objectives=tuple(tuple(int(x) for x in row) for row in objectives[i]),
                    results=tuple(tuple(int(x) for x in results[i, r]) for r in range(finished)),
                    kings=tuple(int(kings[i, r]) for r in range(finished)),
                )
            )
        return out

    def observe(self, batch: Batch, seat: int) -> dict[str, Any]:
        """What ``seat`` may know of every game, as arrays (``throne.observation``'s
        fields): never another seat's objective of the current round, vote, or
        (unless the rules make them public) count of No cards (B4, B11)."""
        self._check_seat(seat)
        return self.observe_data(np, batch.host, seat)

    def observe_data(self, xp: Any, data: Any, seat: int) -> dict[str, Any]:
        """:meth:`observe` of the games ``data`` (a batch's :attr:`~Batch.data`) as array
        code of ``xp`` (numpy, or traced: the pure functions' ``observation``)."""
        lay, rounds, n = self.layout, self.shape.rounds, self.players
        k = lay.unpack(data)[0]
        no = xp.stack(list(k.no), axis=-1)
        if not self.rules.no_cards_public:
            others = xp.arange(self.players) != seat
            no = xp.where(others[None, :], -1, no)
        electing = (k.phase == ELECTION)[:, None]
        votes = xp.stack(list(k.votes), axis=-1)
        objectives = xp.stack(
            [xp.stack([data[lay.objective(r, q)] for q in range(n)], -1) for r in range(rounds)], 1
        )
        results = xp.stack(
            [xp.stack([data[lay.score(r, q)] for q in range(n)], -1) for r in range(rounds)], 1
        )
        kings = xp.stack([data[lay.king(r)] for r in range(rounds)], -1)
        round_index = xp.clip(k.rnd.astype(xp.int32) - 1, 0, rounds - 1)
        mine = xp.take_along_axis(objectives[:, :, seat], round_index[:, None], axis=1)[:, 0]
        finished = xp.where(k.phase == OVER, k.rnd, k.rnd - 1)
        done = xp.arange(rounds)[None, :] < finished[:, None]
        return {
            "round": k.rnd,
            "phase": k.phase,
            "turn": k.turn,
            "floors": xp.stack(list(k.fl), axis=-1),
            "no_cards": no,
            "objective": mine,
            "voted": xp.logical_and(electing, votes >= 0),
            "vote": xp.where(k.phase == ELECTION, votes[:, seat], -1),
            "passes": k.passes,
            "revealed": xp.where(done[:, :, None], objectives, 0),
            "round_scores": xp.where(done[:, :, None], results, 0),
            "kings": xp.where(done, kings, -1),
            "finished_rounds": finished,
        }
