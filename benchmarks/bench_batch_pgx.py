"""Pgx's games by the loop of ``bench_batch_learner.py``: a peer's figure, one core.

Run by a Python that has Pgx (``pip install pgx`` in an environment of its own: it
is no dependency of castlerules); ``bench_batch_learner.py --pgx PYTHON`` runs it.
For each game: ``size`` games, Pgx's ``init`` and ``step`` (auto-reset by
``pgx.experimental.auto_reset``), the action a Gumbel draw over the legal mask,
``jax.lax.scan`` of 64 steps a call under a plain :func:`jax.jit`, one XLA
thread; every step of every game is an action (Pgx's auto-reset deals a game's
successor in the step it ends); compilation timed apart.
Prints a JSON list of rows.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

from compiled_loop import choose, time_calls


def pgx_loop(
    name: str, size: int, seconds: float, *, by_max: bool, steps: int = 64
) -> dict[str, Any]:
    """Pgx's game ``name`` by the learner's loop (``by_max``: the choice without
    ``argmax``, :func:`compiled_loop.choose`)."""
    import jax
    import jax.numpy as jnp
    import pgx  # type: ignore[import-not-found]
    from pgx.experimental import auto_reset  # type: ignore[import-not-found]

    env = pgx.make(name)
    init = jax.vmap(env.init)
    step = jax.vmap(auto_reset(env.step, env.init))

    def one(carry: tuple[Any, Any], key: Any) -> tuple[tuple[Any, Any], Any]:
        state, keys = carry
        choice_key, step_key = jax.random.split(key)
        action = choose(jax, state.legal_action_mask, choice_key, by_max)
        # auto_reset deals a game's successor in the step it ends (marked terminated),
        # and the next step plays on it: every step of every game is an action.
        state = step(state, action, jax.random.split(step_key, size))
        return (state, keys), jnp.int32(size)

    def scan(state: Any, key: Any) -> tuple[Any, Any]:
        (state, _), played = jax.lax.scan(one, (state, key), jax.random.split(key, steps))
        return state, played

    run = jax.jit(scan)

    def start() -> Any:
        return init(jax.random.split(jax.random.key(0), size))

    compile_s, actions, calls, cpu = time_calls(jax, run, start, seconds)
    return {
        "game": f"pgx {name}",
        "players": env.num_players,
        "size": size,
        "loop": "argmax by max and min" if by_max else "as written",
        "pgx": pgx.__version__,
        "jax": jax.__version__,
        "actions": actions,
        "utilisation": round(actions / max(calls * steps * size, 1), 3),
        "cpu_s": round(cpu, 3),
        "compile_cpu_s": round(compile_s, 2),
        "actions_per_cpu_s": round(actions / max(cpu, 1e-9)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["connect_four", "othello", "go_9x9"])
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rows = [
        pgx_loop(name, args.size, args.seconds, by_max=by_max)
        for name in args.games
        for by_max in (False, True)
    ]
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
