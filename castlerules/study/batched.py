"""A study's random games played by the batch: the rows the engine gives, many games at once.

:func:`play_random` plays the games of one reading with a random bot in every
seat, as :func:`castlerules.study.games.play_game` does one at a time, and
gives the same :class:`~castlerules.study.games.GameResult` rows:

- the moves: :class:`~castlerules.batch.play.RandomSeats` draws what each
  seat's ``RandomBot`` draws (stream ``play.bot.SEAT`` of the game's seed);
- the probes: each turn, a move of the notation drawn from stream
  ``study.probe`` (the study's alphabet) is tried in the position before the
  move; the clause of the kernel's first broken guard is the refusal's;
- the events: per effect of the kernel (which one fired comes with each
  step), the clauses :func:`castlerules.throne.describe` cites for it
  (:data:`EVENT_CLAUSES`), with the few that depend on the position (the
  leftovers of an equal placement, B6; each seat that scored 0 in a bonus
  round, B15).

All of it happens inside one compiled loop of :data:`STEPS` moves (the probe
drawn and judged, the bot's move drawn and played, the counts kept per game:
how often each effect fired and each guard refused); between calls the host
only collects the games that are over and puts the study's next games in
their slots, so that the batch stays full.  The clauses are read from the
counts at the end.  Readings that differ only in the kernel's options and the
placement floors (SEED and ORIGINAL) share one compiled loop (:func:`family`),
which takes those as operands.  ``tests/study/test_batched.py`` checks the rows against
the engine's on whole studies.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import compress
from typing import Any

import attrs
import numpy as np

from castlerules import batch as batch_pkg
from castlerules import throne
from castlerules.batch.arrays import ArrayOps
from castlerules.batch.chance import below_words, block_states, words_of
from castlerules.core.errors import ArgumentError
from castlerules.study.games import GameResult, alphabet
from castlerules.throne import kernel as K

_SCORING_NEXT = ("B14", "B4", "B3")
_SCORING_OVER = ("B14", "B16")

EVENT_CLAUSES: dict[str, tuple[str, ...]] = {
    "place": ("B6",),
    "last place": ("B6", "B8"),
    "climb": ("B8",),
    "climb to the throne": ("B8", "B10"),
    "vote": ("B11",),
    "eliminated": ("B11", "B13"),
    "pass": ("B8",),
    "crowned, next round": ("B11", "B12", *_SCORING_NEXT),
    "crowned, game over": ("B11", "B12", *_SCORING_OVER),
    "eliminated, nobody left, next round": ("B11", "B13", "B13", *_SCORING_NEXT),
    "eliminated, nobody left, game over": ("B11", "B13", "B13", *_SCORING_OVER),
    "everyone passed, next round": ("B8", "B8", *_SCORING_NEXT),
    "everyone passed, game over": ("B8", "B8", *_SCORING_OVER),
}
"""Per effect of the kernel, the clauses of the events ``describe`` reports for it
(besides the leftovers, B6, and the bonus, B15, counted from the position)."""


STEPS = 32
"""Moves per compiled call: between calls, the host collects the games over and puts
the next games of the study in their slots."""

SLOTS = 1024
"""Games played at once, at most: a study's games stream through them.  Fewer slots
leave fewer of them waiting at the end for the slowest games (the measured choice is on the docs'
Measurements page)."""


def play_random(
    reading: str,
    rules: throne.Rules,
    players: int,
    seeds: Sequence[int],
    indices: Sequence[int],
    backend: str = "auto",
    slots: int = SLOTS,
) -> list[GameResult]:
    """Game ``indices[i]`` (seed ``seeds[i]``) of a study of random bots, every one.

    The games stream through a batch of ``min(padded_size(len(seeds)), slots)``
    slots: a slot whose game is over gets the next game (its deal, its bots' and
    its probe's generators, its counts at 0), so that the batch stays full until
    the last games.  Slots beyond the games play copies of the first game, dropped.
    """
    count = len(seeds)
    if not count:
        return []
    size = min(padded_size(count), slots)
    env = _env(rules, players, size, backend)
    tally, tables = _loop(env, backend)
    xp, lay = env.backend.xp, env.layout
    slot_game = np.full(size, -1, dtype=np.int64)
    """The game (an index of ``seeds``) each slot plays, -1 for none."""
    slot_game[: min(size, count)] = np.arange(min(size, count))
    first = [int(seeds[max(int(g), 0)]) for g in slot_game]
    host = list(_fresh(env, first))
    finals = np.zeros((lay.rows, count), dtype=np.int16)
    seen_all = np.zeros((len(env.effects) + 2, count), dtype=np.int64)
    broken_all = np.zeros((len(env.guard_clauses), count), dtype=np.int64)
    following = min(size, count)
    pending = _Pending(env, [int(x) for x in seeds[following:]])
    carry = tuple(xp.asarray(x) for x in host)
    while True:
        carry = tally.run(tables, *carry)
        over = np.asarray(carry[0][lay.turn]) < 0
        done = np.flatnonzero(over & (slot_game >= 0))
        if done.size:
            host = [np.array(x) for x in carry]
            data, *_words, seen, broken = host
            games = slot_game[done]
            finals[:, games] = data[:, done]
            seen_all[:, games] = seen[:, done]
            broken_all[:, games] = broken[:, done]
            slot_game[done] = -1
            refill = done[: count - following]
            if refill.size:
                new = np.arange(following, following + refill.size)
                following += refill.size
                for x, y in zip(host, pending.take(refill.size), strict=True):
                    x[..., refill] = y
                slot_game[refill] = new
            carry = tuple(xp.asarray(x) for x in host)
        if following == count and not (slot_game >= 0).any():
            break
    # Every game is over: its scores are the kernel's totals, its winners the kernel's
    # (B16), read off the final positions of all the games at once.
    last = lay.unpack(finals)[0]
    scores = np.stack(last.total).T.tolist()
    won = np.stack(K.winners(ArrayOps(np, np.int64), last)).T.tolist()
    events = (tally.events_of @ seen_all).T.tolist()
    refusals = (tally.refusals_of @ broken_all).T.tolist()
    actions = seen_all[: len(env.effects)].sum(axis=0).tolist()  # one effect a move
    return [
        GameResult(
            reading=reading,
            game=int(indices[i]),
            seed=int(seeds[i]),
            actions=actions[i],
            scores=tuple(scores[i]),
            winners=tuple(q for q, w in enumerate(won[i]) if w),
            events=_counted(tally.clauses, events[i]),
            probes=actions[i],  # one probe before every move
            refusals=_counted(tally.clauses, refusals[i]),
        )
        for i in range(count)
    ]


DEALT = 4096
"""Games dealt at once for the slots that free up (:class:`_Pending`): numpy's deal and
the seeds' hashing go by blocks, and a few large blocks cost less than many small ones
(40,960 games: 0.36 s of CPU in blocks of 1024, 0.27 s in blocks of 4096)."""


class _Pending:
    """The loop's arrays of the study's next games (:func:`_fresh`), made
    ``max(env.size, DEALT)`` games at a time (one shape) and taken as the slots free
    up."""

    def __init__(self, env: Any, seeds: Sequence[int]) -> None:
        self._env, self._seeds, self._made = env, seeds, 0
        self._ready: tuple[np.ndarray, ...] | None = None

    def take(self, count: int) -> tuple[np.ndarray, ...]:
        """The arrays of the next ``count`` games."""
        size = max(self._env.size, DEALT)
        while self._ready is None or self._ready[0].shape[-1] < count:
            part = list(self._seeds[self._made : self._made + size])
            self._made += len(part)
            block = _fresh(self._env, part + part[-1:] * (size - len(part)))
            block = tuple(x[..., : len(part)] for x in block)
            ready = self._ready
            self._ready = (
                block
                if ready is None
                else tuple(
                    np.concatenate([a, b], axis=-1) for a, b in zip(ready, block, strict=True)
                )
            )
        out = tuple(x[..., :count] for x in self._ready)
        self._ready = tuple(x[..., count:] for x in self._ready)
        return out


def _fresh(env: Any, seeds: Sequence[int]) -> tuple[np.ndarray, ...]:
    """The loop's arrays of new games of ``seeds`` (their columns): the deal, the bots'
    and the probe's generators as 32-bit words, every count at 0.  Every generator's
    seed is hashed in one pass (``block_states``); the deal is numpy's (a block of
    slots at a time: compiling it would cost more than it saves a study)."""
    deal = len(env.deal_streams)
    bots = tuple(f"play.bot.{seat}" for seat in range(env.players))
    states = block_states(seeds, (*env.deal_streams, *bots, "study.probe"))
    lo, hi = words_of(states[deal:-1])
    plo, phi = words_of(states[-1])
    n = len(seeds)
    return (
        env.deal_states(states[:deal]),
        lo,
        hi,
        plo,
        phi,
        np.zeros((len(env.effects) + 2, n), dtype=np.int16),
        np.zeros((len(env.guard_clauses), n), dtype=np.int16),
    )


def padded_size(count: int) -> int:
    """The batch that plays ``count`` games: the next power of two up to 1024, then the
    next multiple of 1024 (a study's tasks of 4096 games and its last, shorter one
    share one compilation)."""
    if count <= 1024:
        return 1 << max(count - 1, 0).bit_length()
    return -(-count // 1024) * 1024


SHARED = ("jax",)
"""The backends on which the readings of a :func:`family` share one compiled loop
(numpy compiles nothing: each reading keeps its options as constants, which it folds)."""

_VARYING = ("rules", "moves", "actions", "kind", "character", "floor", "placeable", "placements")
"""The fields of the kernel's :class:`~castlerules.throne.kernel.Shape` in which the
readings of a family may differ (the numbering of the moves follows the placement
floors; the loop takes ``placeable`` and ``placements`` as operands)."""


def family(rules: throne.Rules) -> throne.Rules:
    """The rules whose compiled loop plays the games of ``rules`` on a backend of
    :data:`SHARED`: ``rules`` with the kernel's options at their defaults and the
    placement floors of ``rules`` and the default's together, so that SEED and
    ORIGINAL, say, are one family; the loop takes the options, which moves are
    placements and how many a round has as operands.  ``rules`` itself where those
    rules are not valid."""
    default = throne.Rules()
    try:
        return throne.Rules(
            **{
                **attrs.asdict(rules, recurse=False),
                "placement_floors": sorted({*rules.placement_floors, *default.placement_floors}),
                "equal_placement": default.equal_placement,
                "movement_starter": default.movement_starter,
                "no_cards_reset_each_round": default.no_cards_reset_each_round,
                "first_player_rotates": default.first_player_rotates,
                "no_cards_public": default.no_cards_public,
            }
        )
    except ArgumentError:
        return rules


def _loop(env: Any, backend: str) -> tuple[_Tally, tuple[Any, ...]]:
    """The compiled loop that plays the games of ``env`` and its operands (the kernel's
    options of ``env``'s rules, ``placeable`` per move number of the loop's env, and
    ``placements``): on a backend of :data:`SHARED`, the loop of its :func:`family`
    where that plays the same moves (:func:`_fits`), else its own."""
    if env.backend.name not in SHARED:
        return _tally(env), (
            tuple(getattr(env.options, f.name) for f in attrs.fields(K.Options)),
            env.shape.placeable,
            env.shape.placements,
        )
    base = _env(family(env.rules), env.players, env.size, backend)
    if not _fits(base, env):
        base = env
    xp = env.backend.xp
    own = dict(zip(env.shape.moves, env.shape.placeable, strict=True))
    return _tally(base), (
        tuple(xp.asarray(getattr(env.options, f.name)) for f in attrs.fields(K.Options)),
        xp.asarray([own[m] for m in base.shape.moves], dtype=xp.int16),
        xp.asarray(env.shape.placements, dtype=xp.int16),
    )


def _fits(base: Any, env: Any) -> bool:
    """Whether the loop of ``base``, given the options and tables of ``env``, plays the
    games of ``env``: the same shape but for :data:`_VARYING`, the same moves, effects
    and guards, ``env``'s action numbers in the same order among ``base``'s, and
    ``base``'s others places onto floors that are not placement floors of ``env``
    (never legal there, B6), so that the k-th legal action is the same move."""
    a, b = base.shape, env.shape
    shared = [f.name for f in attrs.fields(K.Shape) if f.name not in _VARYING]
    codes, own = a.moves[: base.num_actions], b.moves[: env.num_actions]
    rest = iter(codes)
    return (
        all(getattr(a, name) == getattr(b, name) for name in shared)
        and set(a.moves) == set(b.moves)
        and (base.layout, base.effects, base.guard_clauses)
        == (env.layout, env.effects, env.guard_clauses)
        and all(m in rest for m in own)
        and all(
            isinstance(m, throne.Place) and m.floor not in env.rules.placement_floors
            for m in set(codes) - set(own)
        )
    )


@attrs.frozen(eq=False)
class _Tally:
    """A study's compiled loop of :data:`STEPS` moves over one env, and how its counts
    read as clauses."""

    clauses: tuple[str, ...]
    """The clauses of the rows' events and refusals, in order."""
    events_of: np.ndarray
    """``(clauses, effects + 2)``: the clauses counted per effect of the kernel, then
    per equal placement's leftovers (B6) and per seat with a bonus (B15)."""
    refusals_of: np.ndarray
    """``(clauses, guards)``: the clause of each of the kernel's guards."""
    run: Any
    """The compiled loop: ``(tables, data, lo, hi, probe lo, probe hi, seen, broken)``
    -> the same less ``tables`` after :data:`STEPS` moves; ``tables`` is the kernel's
    options (in the order of their fields), ``placeable`` and ``placements``
    (:meth:`~castlerules.batch.throne.ThroneEnv.under`)."""


@functools.lru_cache(maxsize=8)
def _tally(env: Any) -> _Tally:
    """The compiled loop of ``env``: per move, the probe judged, the random bot's move
    played, and what happened counted, inside the compiled program: per game, how
    often each effect of the kernel fired (and the leftovers, the bonus seats) and
    each guard refused the probe; the clauses are read from the counts after."""
    xp, o, shape, lay = env.backend.xp, env.ops, env.shape, env.layout
    universe = shape.moves
    pool = xp.asarray(
        [universe.index(m) for m in alphabet(throne, env.rules, env.players)], dtype=xp.int16
    )
    labels = env.effects
    clauses = tuple(
        sorted({*env.guard_clauses, "B15", *(c for v in EVENT_CLAUSES.values() for c in v)})
    )
    column = {c: j for j, c in enumerate(clauses)}
    events_of = np.zeros((len(clauses), len(labels) + 2), dtype=np.int64)
    for e, label in enumerate(labels):
        for clause in EVENT_CLAUSES[label]:
            events_of[column[clause], e] += 1
    events_of[column["B6"], len(labels)] = 1
    events_of[column["B15"], len(labels) + 1] = 1
    refusals_of = np.zeros((len(clauses), len(env.guard_clauses)), dtype=np.int64)
    for g, clause in enumerate(env.guard_clauses):
        refusals_of[column[clause], g] = 1
    effect_rows = xp.arange(len(labels), dtype=xp.int16)[:, None]
    guard_rows = xp.arange(len(env.guard_clauses), dtype=xp.int16)[:, None]
    last_place = labels.index("last place")
    scoring = xp.asarray(
        [label.startswith(("crowned", "elimin", "everyone")) and "," in label for label in labels]
    )
    eliminating = xp.asarray([label.startswith("eliminated, nobody") for label in labels])
    worth = xp.asarray(shape.points, dtype=xp.int16)  # at index floor + 1 (-1 eliminated)
    one = xp.int16(1)

    def move(reading: Any, carry: tuple[Any, ...]) -> tuple[Any, ...]:
        data, lo, hi, plo, phi, seen, broken_seen = carry
        k, masks, _scores, _kings = lay.unpack(data)
        live = k.turn >= 0
        # The probe (study.probe): a move of the alphabet, tried in the position before.
        drawn, plo2, phi2 = below_words(
            xp, plo, phi, xp.full(env.size, pool.shape[0]), env.backend.loop
        )
        plo, phi = xp.where(live, plo2, plo), xp.where(live, phi2, phi)
        broken = xp.where(live, reading.first_broken(data, pool[drawn]), -1)
        broken_seen = broken_seen + (guard_rows == broken[None, :]).astype(xp.int16)
        # The random bot's move, and what happened.
        (after, _ended, effect), lo, hi, _live = reading.random_move(data, lo, hi)
        effect = xp.where(live, effect, -1)
        fired = (effect_rows == effect[None, :]).astype(xp.int16)
        # B6: the leftovers of an equal placement go to floor 1 (an event of their own).
        moved = o.count(x != y for x, y in zip(k.fl, (after[i] for i in lay.fl), strict=True))
        leftovers = o.all([effect == last_place, moved > 1])
        # B15: each seat whose favourites scored 0 in a bonus round.  Points are never
        # negative (Rules), so a round score is 0 when no favourite stands where it scores.
        scored = o.all([live, scoring[effect], o.lookup(shape.bonus, k.rnd) == 1])
        gone = eliminating[effect]
        scoring_chars = o.total(
            xp.where(worth[xp.where(o.all([gone, x == shape.top]), -1, x) + 1] > 0, one << c, 0)
            for c, x in enumerate(k.fl)
        )
        zeros = o.count(
            (o.select([row[q] for row in masks], k.rnd, low=1) & scoring_chars) == 0
            for q in range(env.players)
        )
        extra = xp.stack([leftovers.astype(xp.int16), xp.where(scored, zeros, 0).astype(xp.int16)])
        seen = seen + xp.concatenate([fired, extra])
        return after, lo, hi, plo, phi, seen, broken_seen

    def run(tables: tuple[Any, ...], *carry: Any) -> tuple[Any, ...]:
        options, placeable, placements = tables
        reading = env.under(K.Options(*options), placeable, placements)
        out: tuple[Any, ...] = env.backend.repeat(STEPS, lambda _i, c: move(reading, c), carry)
        return out

    return _Tally(clauses, events_of, refusals_of, env.backend.jit(run))


@functools.lru_cache(maxsize=8)
def _env(rules: throne.Rules, players: int, size: int, backend: str) -> Any:
    """The batch of this shape (kept: its compiled programs serve the next tasks alike)."""
    return batch_pkg.make("throne", players=players, rules=rules, size=size, backend=backend)


def _counted(names: Sequence[str], counts: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """The clauses (in order: ``names`` is sorted) with a count, and their counts."""
    if len(names) != len(counts):
        raise ValueError(f"{len(counts)} counts for {len(names)} clauses")
    return tuple(zip(compress(names, counts), filter(None, counts), strict=True))


__all__ = [
    "DEALT",
    "EVENT_CLAUSES",
    "SHARED",
    "SLOTS",
    "STEPS",
    "family",
    "padded_size",
    "play_random",
]
