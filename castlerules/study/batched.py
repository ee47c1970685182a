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
  round, B15).  ``tests/study/test_batched.py`` checks the rows against the
  engine's on whole studies.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from castlerules import batch as batch_pkg
from castlerules import throne
from castlerules.batch.chance import Streams
from castlerules.batch.play import RandomSeats
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


def play_random(
    reading: str,
    rules: throne.Rules,
    players: int,
    seeds: Sequence[int],
    indices: Sequence[int],
    backend: str = "auto",
) -> list[GameResult]:
    """Game ``indices[i]`` (seed ``seeds[i]``) of a study of random bots, every one."""
    size = len(seeds)
    env = _env(rules, players, size, backend)
    b = env.init(seeds=seeds)  # game i is throne.new_game(players, rules, seeds[i])
    seats = RandomSeats(seeds, players)
    probes = Streams.from_seeds(seeds, "study.probe")
    universe = K.universe_of(rules)
    pool = np.array([universe.index(m) for m in alphabet(throne, rules, players)])
    clause_names = sorted({*env.guard_clauses, *(c for v in EVENT_CLAUSES.values() for c in v)})
    clause_names = sorted({*clause_names, "B15"})
    column = {c: j for j, c in enumerate(clause_names)}
    guard_column = np.array([column[c] for c in env.guard_clauses])
    effect_counts = np.zeros((len(env.effects), len(clause_names)), dtype=np.int64)
    for e, label in enumerate(env.effects):
        for clause in EVENT_CLAUSES[label]:
            effect_counts[e, column[clause]] += 1
    events = np.zeros((size, len(clause_names)), dtype=np.int64)
    refusals = np.zeros((size, len(clause_names)), dtype=np.int64)
    actions = np.zeros(size, dtype=np.int64)
    tried = np.zeros(size, dtype=np.int64)
    shape = env.shape
    points = np.array(shape.points)  # at index floor + 1 (-1 eliminated)
    last_place = env.effects.index("last place")
    scoring = np.array(
        [
            label.startswith(("crowned", "elimin", "everyone")) and "," in label
            for label in env.effects
        ]
    )
    eliminating = np.array([label.startswith("eliminated, nobody") for label in env.effects])
    rows = np.arange(size)
    while True:
        seat = np.asarray(b.current_player)
        live = seat >= 0
        if not live.any():
            break
        # The probe (study.probe): a move of the alphabet, tried in the position before.
        drawn, moved = probes.below(np.full(size, len(pool)))
        probes = Streams(np.where(live, moved.state, probes.state))
        broken = env.refusals(b, pool[drawn])
        refused = live & (broken >= 0)
        np.add.at(refusals, (rows[refused], guard_column[broken[refused]]), 1)
        tried += live
        before = _numpy_fields(b)
        b = env.step_kth(b, seats.choose_kth(np.asarray(b.legal_counts), seat))
        actions += live
        effect = np.asarray(b.effect)
        events[live] += effect_counts[effect[live]]
        # B6: the leftovers of an equal placement go to floor 1 (an event of their own).
        after_fl = np.stack([np.asarray(x) for x in b.k.fl], axis=-1)
        moved_chars = (before["fl"] != after_fl).sum(axis=1)
        leftovers = live & (effect == last_place) & (moved_chars > 1)
        events[leftovers, column["B6"]] += 1
        # B15: each seat whose favourites scored 0 in a bonus round.
        scored = live & scoring[effect]
        if scored.any():
            bonus_round = np.array([rules.bonus_applies(int(r)) for r in before["rnd"]])
            castle = np.where(
                eliminating[effect][:, None] & (before["fl"] == shape.top), -1, before["fl"]
            )
            masks = before["obj"]  # (size, players) bit masks of the round scored
            favourite = (masks[:, :, None] >> np.arange(shape.characters)) & 1 == 1
            raw = (favourite * points[castle + 1][:, None, :]).sum(axis=2)
            zeros = ((raw == 0) & (bonus_round & scored)[:, None]).sum(axis=1)
            events[:, column["B15"]] += np.where(scored, zeros, 0)
    finals = env.to_states(b)
    out = []
    for i, final in enumerate(finals):
        out.append(
            GameResult(
                reading=reading,
                game=int(indices[i]),
                seed=int(seeds[i]),
                actions=int(actions[i]),
                scores=tuple(throne.scores(final)),
                winners=tuple(throne.winners(final)),
                events=_counted(clause_names, events[i]),
                probes=int(tried[i]),
                refusals=_counted(clause_names, refusals[i]),
            )
        )
    return out


@functools.lru_cache(maxsize=8)
def _env(rules: throne.Rules, players: int, size: int, backend: str) -> Any:
    """The batch of this shape (kept: its compiled steps serve the next tasks alike)."""
    return batch_pkg.make("throne", players=players, rules=rules, size=size, backend=backend)


def _counted(names: Sequence[str], counts: np.ndarray) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((n, int(c)) for n, c in zip(names, counts, strict=True) if c))


def _numpy_fields(b: Any) -> dict[str, np.ndarray]:
    """What the events read of the position before a step."""
    k = b.k
    rnd = np.asarray(k.rnd)
    objectives = b.objectives
    return {
        "rnd": rnd,
        "fl": np.stack([np.asarray(x) for x in k.fl], axis=-1).astype(np.int64),
        "obj": np.take_along_axis(objectives, (rnd - 1)[:, None, None].astype(np.int64), axis=1)[
            :, 0, :
        ],
    }


__all__ = ["EVENT_CLAUSES", "play_random"]
