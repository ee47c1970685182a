"""Random playouts through the OpenSpiel and PettingZoo adapters, against the engine.

``python benchmarks/bench.py --adapters`` runs, for each game and player
count, the same seeded random playout three ways, in alternating slices so
that a busy machine slows them alike:

- ``engine``: ``legal_moves`` / ``Rng.choice`` / ``apply`` (what bench.py times);
- ``openspiel``: ``state.legal_actions()`` / choice / ``state.apply_action`` on
  ``pyspiel.load_game("castlerules_...")`` (chance outcomes sampled too, but
  only the players' actions are counted);
- ``engine+obs``: the engine loop that also asks ``observation(state, seat)`` of
  the seat to act (what an agent's loop over the bare engine would do);
- ``pettingzoo``: the AEC loop ``env.last()`` / choice among the action mask
  (the observation vector, not read, is not built) / ``env.step``.

Each row gives actions/s and the time per action relative to the engine's
(the issue's goal: at most 2x).  Nothing is asserted.
"""

from __future__ import annotations

import time
from typing import Any

from castlerules import ascent, throne
from castlerules.core import Rng

MODULES: dict[str, Any] = {"throne": throne, "ascent": ascent}


def _engine(module: Any, players: int, seed: int, rng: Rng) -> tuple[int, Rng]:
    state = module.new_game(players, seed=seed)
    legal_moves, apply = module.legal_moves, module.apply
    actions = 0
    while True:
        moves = legal_moves(state)
        if not moves:
            return actions, rng
        move, rng = rng.choice(moves)
        state = apply(state, move)
        actions += 1


def _engine_observing(module: Any, players: int, seed: int, rng: Rng) -> tuple[int, Rng]:
    """The engine loop that also computes, each action, the acting seat's observation."""
    state = module.new_game(players, seed=seed)
    legal_moves, apply, observation = module.legal_moves, module.apply, module.observation
    actions = 0
    while True:
        moves = legal_moves(state)
        if not moves:
            return actions, rng
        observation(state, module.current_player(state))
        move, rng = rng.choice(moves)
        state = apply(state, move)
        actions += 1


def _openspiel(game: Any, rng: Rng) -> tuple[int, Rng]:
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            (action, _p), rng = rng.choice(outcomes)
            state.apply_action(action)
            continue
        action, rng = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions += 1
    return actions, rng


def _pettingzoo(env: Any, seed: int, rng: Rng) -> tuple[int, Rng]:
    env.reset(seed=seed)
    actions = 0
    for _agent in env.agent_iter():
        observation, _reward, terminated, _truncated, _info = env.last()
        if terminated:
            env.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0].tolist()
        action, rng = rng.choice(legal)
        env.step(action)
        actions += 1
    return actions, rng


def compare(name: str, players: int, seconds: float, seed: int) -> list[dict[str, Any]]:
    """Engine, OpenSpiel and PettingZoo playouts of one game, ``seconds`` each in all."""
    import pyspiel

    import castlerules.adapters.openspiel  # noqa: F401 (registers the games)
    from castlerules.adapters.pettingzoo import ascent_env, throne_env

    module = MODULES[name]
    game = pyspiel.load_game(f"castlerules_{name}", {"players": players})
    env = throne_env(players) if module is throne else ascent_env(players)
    kinds = ("engine", "openspiel", "engine+obs", "pettingzoo")
    totals = {k: [0, 0, 0.0] for k in kinds}  # actions, games, seconds
    rngs = {k: Rng.from_seed(seed, f"bench.adapters.{k}") for k in kinds}
    slices = 6
    for _slice in range(slices):
        for kind in kinds:
            deadline = time.perf_counter() + seconds / slices
            start = time.perf_counter()
            while time.perf_counter() < deadline:
                count = totals[kind]
                number = seed + int(count[1])
                if kind == "engine":
                    done, rngs[kind] = _engine(module, players, number, rngs[kind])
                elif kind == "engine+obs":
                    done, rngs[kind] = _engine_observing(module, players, number, rngs[kind])
                elif kind == "openspiel":
                    done, rngs[kind] = _openspiel(game, rngs[kind])
                else:
                    done, rngs[kind] = _pettingzoo(env, number, rngs[kind])
                count[0] += done
                count[1] += 1
            totals[kind][2] += time.perf_counter() - start
    base = totals["engine"][2] / totals["engine"][0]
    rows = []
    for kind in kinds:
        actions, games, elapsed = totals[kind]
        per_action = elapsed / actions
        rows.append(
            {
                "game": name,
                "players": players,
                "through": kind,
                "games": int(games),
                "actions": int(actions),
                "actions_per_s": round(actions / elapsed),
                "us_per_action": round(per_action * 1e6, 1),
                "vs_engine": round(per_action / base, 2),
            }
        )
    return rows


def show(rows: list[dict[str, Any]]) -> None:
    """The comparison as a table on standard output."""
    print(
        f"{'game':8} {'players':>7} {'through':>10} {'games':>6} {'actions/s':>10}"
        f" {'us/action':>9} {'x engine':>8}"
    )
    for row in rows:
        print(
            f"{row['game']:8} {row['players']:>7} {row['through']:>10} {row['games']:>6}"
            f" {row['actions_per_s']:>10,} {row['us_per_action']:>9} {row['vs_engine']:>8}"
        )
