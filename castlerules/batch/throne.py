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

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from castlerules import throne
from castlerules.batch.arrays import ArrayOps
from castlerules.core.errors import ArgumentError, IllegalMove
from castlerules.core.ops import CONCRETE, merge
from castlerules.throne import kernel as K
from castlerules.throne.state import ELECTION, OVER, build_state


@attrs.frozen(slots=True, eq=False)
class Batch:
    """The games of a batch, as arrays with one entry (row) per game.

    Inside, every quantity is a vector of the games (a tuple of them where a
    game has several: the kernel's layout, and the one a compiler handles
    best); the properties stack them into ``(size, ...)`` arrays.  With the
    ``jax`` backend they are jax arrays, else numpy arrays.
    """

    k: K.KState
    """The kernel's position of every game (each field a vector of the games)."""
    objective_masks: tuple[tuple[Any, ...], ...]
    """Per round, per seat: the favourites as bit masks (bit ``c``: character ``c``),
    all dealt at the start (B4)."""
    round_scores: tuple[tuple[Any, ...], ...]
    """Per round, per seat: the round's score, 0 until the round is scored."""
    round_kings: tuple[Any, ...]
    """Per round: the crowned character, -1 for none (or not yet)."""
    legal_action_mask: Any
    """``(size, num_actions)``: which action numbers are legal in each game."""
    ended: Any
    """``(size,)``: the game ended in the last step."""
    effect: Any = None
    """``(size,)``: which of the kernel's effects the last step applied in each game
    (an index of :attr:`ThroneEnv.effects`; None before the first step)."""

    @property
    def current_player(self) -> Any:
        """``(size,)``: the seat to act, -1 once the game is over."""
        return self.k.turn

    @property
    def terminated(self) -> Any:
        """``(size,)``: the game is over."""
        return self.k.phase == OVER

    @property
    def rewards(self) -> Any:
        """``(size, players)``: each seat's final total in the step a game ends, else 0."""
        totals = np.stack([np.asarray(t) for t in self.k.total], axis=-1)
        return np.where(np.asarray(self.ended)[:, None], totals, 0)

    @property
    def objectives(self) -> np.ndarray:
        """``(size, rounds, players)``: every round's objectives as bit masks."""
        return _stack3(self.objective_masks)

    @property
    def results(self) -> np.ndarray:
        """``(size, rounds, players)``: the round scores, 0 for rounds not scored."""
        return _stack3(self.round_scores)

    @property
    def kings(self) -> np.ndarray:
        """``(size, rounds)``: the crowned character of each round, -1 for none."""
        return np.stack([np.asarray(x) for x in self.round_kings], axis=-1)


def _stack3(rows: tuple[tuple[Any, ...], ...]) -> np.ndarray:
    return np.stack([np.stack([np.asarray(x) for x in row], axis=-1) for row in rows], axis=1)


def _numpy_kstate(k: K.KState) -> K.KState:
    """The kernel position with numpy arrays (from jax arrays, or as it is)."""

    def conv(x: Any) -> Any:
        if isinstance(x, tuple):
            return tuple(conv(y) for y in x)
        return np.asarray(x)

    return K.KState(*(conv(getattr(k, f.name)) for f in attrs.fields(K.KState)))


def _bits(masks: Any, characters: int, xp: Any) -> tuple[Any, ...]:
    return tuple((masks >> c) & 1 == 1 for c in range(characters))


class ThroneEnv:
    """A batch of ``size`` Throne games of ``players`` seats under one ``rules``."""

    game = "throne"

    def __init__(self, players: int, rules: throne.Rules | None, size: int, backend: Any) -> None:
        self.rules = rules if rules is not None else throne.Rules()
        if not isinstance(self.rules, throne.Rules):
            raise ArgumentError(
                f"rules must be a castlerules.throne.Rules (or None), not {type(rules).__name__}"
            )
        self.shape = K.Shape.of(self.rules, players)
        self.players = self.shape.players
        self.size = size
        self.backend = backend
        self.num_actions = self.shape.actions
        xp = backend.xp
        self._ops = ArrayOps(xp)
        self._options = K.Options.of(self._ops, self.rules)
        self._mask = backend.jit(self._mask_of)
        self._step = backend.jit(self._transition)
        self._probe = backend.jit(self._first_broken)
        start = K.from_state(throne.new_game(self.players, self.rules))
        plain = K.Position(CONCRETE, self.shape, K.Options.of(CONCRETE, self.rules), start)
        move = K.decode(plain, 0)
        self.effects: tuple[str, ...] = tuple(c.label for c in K.cases(plain, move, start.obj))
        """The kernel's effects, in its order (the labels of ``kernel.cases``)."""
        self.guard_clauses: tuple[str, ...] = tuple(c for c, _w, _b in K.guards(plain, move))
        """The clause of each of the kernel's guards, in its order."""

    # ------------------------------------------------------------------ the kernel on arrays

    def _obj(self, masks: tuple[tuple[Any, ...], ...], rnd: Any) -> tuple[tuple[Any, ...], ...]:
        """The favourites of round ``rnd`` of each game, as the kernel reads them."""
        o, xp = self._ops, self.backend.xp
        return tuple(
            _bits(o.select([row[q] for row in masks], rnd, low=1), self.shape.characters, xp)
            for q in range(self.players)
        )

    def _mask_of(self, k: K.KState) -> Any:
        xp, o = self.backend.xp, self._ops
        p = K.Position(o, self.shape, self._options, k)
        ones = xp.ones(k.turn.shape, dtype=bool)
        columns = [
            xp.logical_and(ones, K.legal(o, K.guards(p, K.decode(p, a))))
            for a in range(self.num_actions)
        ]
        return xp.stack(columns, axis=0).T  # built action by action, read game by game

    def _transition(
        self,
        k: K.KState,
        actions: Any,
        masks: tuple[tuple[Any, ...], ...],
        scores: tuple[tuple[Any, ...], ...],
        kings: tuple[Any, ...],
    ) -> tuple[K.KState, tuple[tuple[Any, ...], ...], tuple[Any, ...], Any, Any, Any]:
        """The kernel's step for every game still playing; finished games stay."""
        xp, o, shape = self.backend.xp, self._ops, self.shape
        over = k.phase == OVER
        p = K.Position(o, shape, self._options, k)
        nxt = xp.minimum(k.rnd + 1, shape.rounds)
        m = K.decode(p, xp.where(over, 0, actions))
        found = K.cases(p, m, self._obj(masks, nxt))
        out = o.pick([c.when for c in found], [c.make for c in found])  # kernel.step
        effect = o.first([c.when for c in found])
        post = merge(o, over, k, out.post)
        now = xp.logical_and(xp.logical_not(over), out.scored)  # this step scored a round
        scores = tuple(
            tuple(
                xp.where(xp.logical_and(now, k.rnd == r + 1), out.score[q], row[q])
                for q in range(self.players)
            )
            for r, row in enumerate(scores)
        )
        kings = tuple(
            xp.where(xp.logical_and(now, k.rnd == r + 1), out.king, x) for r, x in enumerate(kings)
        )
        ended = xp.logical_and(xp.logical_not(over), post.phase == OVER)
        post = attrs.evolve(post, obj=self._obj(masks, post.rnd))
        return post, scores, kings, self._mask_of(post), ended, effect

    def _first_broken(self, k: K.KState, actions: Any) -> Any:
        """Per game, the index of the first of the kernel's guards that ``actions``
        breaks (-1: legal), for any move number of the notation."""
        p = K.Position(self._ops, self.shape, self._options, k)
        return K.first_broken(self._ops, K.guards(p, K.decode(p, actions)))

    def refusals(self, batch: Batch, moves: Any) -> Any:
        """Per game, the clause index (of :attr:`guard_clauses`) that refuses move number
        ``moves`` of :func:`~castlerules.throne.kernel.universe_of`, -1 where it is legal."""
        xp = self.backend.xp
        return np.asarray(self._probe(batch.k, xp.asarray(np.asarray(moves).astype(np.int16))))

    # ------------------------------------------------------------------ the API

    def init(self, seed: int = 0) -> Batch:
        """``size`` new games; game ``i`` is ``throne.new_game(players, rules, seed + i)``."""
        states = [
            throne.new_game(self.players, self.rules, seed=seed + i) for i in range(self.size)
        ]
        return self.from_states(states)

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
        xp = self.backend.xp
        kstates = [K.from_state(s) for s in states]

        rounds, n, chars = self.shape.rounds, self.players, self.shape.characters
        # One row per game: rnd, phase, turn, floors, No cards, votes, passes, totals.
        table = np.array(
            [[x.rnd, x.phase, x.turn, *x.fl, *x.no, *x.votes, x.passes, *x.total] for x in kstates],
            dtype=np.int16,
        ).reshape(self.size, 4 + chars + 3 * n)
        columns = [xp.asarray(table[:, j]) for j in range(table.shape[1])]
        fl, rest = columns[3 : 3 + chars], columns[3 + chars :]
        k = K.KState(
            rnd=columns[0],
            phase=columns[1],
            turn=columns[2],
            fl=tuple(fl),
            no=tuple(rest[:n]),
            votes=tuple(rest[n : 2 * n]),
            passes=rest[2 * n],
            total=tuple(rest[2 * n + 1 :]),
            obj=(),
        )
        objectives = np.array([s.objectives for s in states], dtype=np.int32)
        results = np.zeros((self.size, rounds, n), dtype=np.int32)
        kings = np.full((self.size, rounds), -1, dtype=np.int32)
        for i, s in enumerate(states):
            for r, row in enumerate(s.results):
                results[i, r] = row
            for r, king in enumerate(s.kings):
                kings[i, r] = king
        masks = tuple(
            tuple(xp.asarray(objectives[:, r, q]) for q in range(n)) for r in range(rounds)
        )
        k = attrs.evolve(k, obj=self._obj(masks, k.rnd))
        return Batch(
            k=k,
            objective_masks=masks,
            round_scores=tuple(
                tuple(xp.asarray(results[:, r, q].astype(np.int16)) for q in range(n))
                for r in range(rounds)
            ),
            round_kings=tuple(xp.asarray(kings[:, r].astype(np.int16)) for r in range(rounds)),
            legal_action_mask=self._mask(k),
            ended=xp.zeros(self.size, dtype=bool),
        )

    def step(self, batch: Batch, actions: Any) -> Batch:
        """Every game still playing plays its action number; finished games stay as they are.

        An action that is not legal in a game still playing raises the engine's
        :class:`~castlerules.core.IllegalMove` for that game (its clause, in plain
        words, prefixed with the game's index); the batch is then unchanged.
        """
        xp = self.backend.xp
        acts = np.asarray(actions)
        if acts.shape != (self.size,) or acts.dtype.kind not in "iu":
            raise ArgumentError(
                f"actions is one whole number per game, shape ({self.size},), not "
                f"{acts.dtype} of shape {acts.shape}"
            )
        mask = np.asarray(batch.legal_action_mask)
        live = ~np.asarray(batch.terminated)
        inside = (acts >= 0) & (acts < self.num_actions)
        ok = np.where(
            inside, mask[np.arange(self.size), np.clip(acts, 0, self.num_actions - 1)], False
        )
        bad = np.flatnonzero(live & ~ok)
        if bad.size:
            self._refuse(batch, int(bad[0]), int(acts[bad[0]]))
        post, scores, kings, mask, ended, effect = self._step(
            batch.k,
            xp.asarray(acts.astype(np.int16)),
            batch.objective_masks,
            batch.round_scores,
            batch.round_kings,
        )
        return Batch(post, batch.objective_masks, scores, kings, mask, ended, effect)

    def _refuse(self, batch: Batch, game: int, action: int) -> None:
        state = self.to_states(batch, [game])[0]
        codes = self.rules._derived.codes
        if not 0 <= action < self.num_actions:
            raise ArgumentError(
                f"game {game}: action {action} names no move (Throne's actions are "
                f"0..{self.num_actions - 1})"
            )
        move = codes.moves[action]
        try:
            throne.apply(state, move)
        except IllegalMove as err:
            raise IllegalMove(f"game {game}: {err}", clause=err.clause) from None
        raise AssertionError(f"game {game}: the batch refused {move}, which the engine plays")

    def to_states(self, batch: Batch, games: Sequence[int] | None = None) -> list[throne.State]:
        """The engine's :class:`~castlerules.throne.State` of every game (or of ``games``)."""
        k = batch.k
        pick = list(range(self.size)) if games is None else list(games)
        rnd = np.asarray(k.rnd)
        phase = np.asarray(k.phase)
        turn = np.asarray(k.turn)
        fl = np.stack([np.asarray(x) for x in k.fl], axis=-1)
        no = np.stack([np.asarray(x) for x in k.no], axis=-1)
        votes = np.stack([np.asarray(x) for x in k.votes], axis=-1)
        passes = np.asarray(k.passes)
        objectives = np.asarray(batch.objectives)
        results = np.asarray(batch.results)
        kings = np.asarray(batch.kings)
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
                    int(turn[i]),
                    floors,
                    counts,
                    tuple(int(x) for x in no[i]),
                    tuple(int(x) for x in votes[i]) if phase[i] == ELECTION else (),
                    int(passes[i]),
                    tuple(tuple(int(x) for x in row) for row in objectives[i]),
                    tuple(tuple(int(x) for x in results[i, r]) for r in range(finished)),
                    tuple(int(kings[i, r]) for r in range(finished)),
                )
            )
        return out

    def observe(self, batch: Batch, seat: int) -> dict[str, Any]:
        """What ``seat`` may know of every game, as arrays (``throne.observation``'s
        fields): never another seat's objective of the current round, vote, or
        (unless the rules make them public) count of No cards (B4, B11)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ArgumentError(f"seat must be a seat in 0..{self.players - 1}, not {seat!r:.20}")
        xp, k = np, _numpy_kstate(batch.k)
        no = xp.stack(list(k.no), axis=-1)
        if not self.rules.no_cards_public:
            others = xp.arange(self.players) != seat
            no = xp.where(others[None, :], -1, no)
        electing = (k.phase == ELECTION)[:, None]
        votes = xp.stack(list(k.votes), axis=-1)
        objectives = batch.objectives
        mine = np.take_along_axis(objectives, (k.rnd - 1)[:, None, None], axis=1)[:, 0, seat]
        finished = xp.where(k.phase == OVER, k.rnd, k.rnd - 1)
        done = xp.arange(self.shape.rounds)[None, :] < finished[:, None]
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
            "round_scores": xp.where(done[:, :, None], batch.results, 0),
            "kings": xp.where(done, batch.kings, -1),
            "finished_rounds": finished,
        }
