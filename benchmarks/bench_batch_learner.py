"""A learner's loop on the batch's pure functions, side by side with the engine, one core.

``python benchmarks/bench_batch_learner.py`` plays, for each game, in this one
process pinned to one core with XLA told to use one thread:

1. the engine's seeded random playouts (``bench.playouts``);
2. ``play_random``: the batch's random bots inside its compiled program
   (``bench_batch.batch_playouts``, auto-reset, 16 steps a call);
3. the learner's loop: the example of ``docs/batch.rst`` (a Gumbel draw over the
   legal mask, the pure ``step``, inside ``jax.lax.scan``, 64 steps a call) as
   written (a plain :func:`jax.jit`), with auto-reset so that the batch stays full;
4. the same loop with the choice's ``argmax`` written as a max and a min
   (:func:`choose`), then also compiled with the batch's XLA options
   (``jax.jit(..., compiler_options=env.backend.compiler_options)``);
5. with ``--pgx PYTHON``, Pgx's own games (``bench_batch_pgx.py``, run by that
   interpreter: Pgx lives in its own environment) the same way as 3;
6. the engine again.

``--loops`` times some of 2 to 4 only (:data:`LOOPS`), each still beside the engine's
two runs.  An action is a step of a game in play (a game replaced by auto-reset plays no
action in that step).  Ratios are actions per CPU-second over the mean of the
engine's two runs.  Compilation is timed apart and not counted.  Nothing is
asserted; the figures go to ``docs/measurements.rst``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compiled_loop import choose, time_calls  # noqa: E402  (from the folder just put on the path)

#: The loops the benchmark can time, by name: ``play_random``, and the learner's loop
#: as (compiled with the batch's XLA options, the choice by max and min).
LOOPS: dict[str, tuple[bool, bool]] = {
    "play_random": (False, False),
    "learner": (False, False),
    "learner-by-max": (False, True),
    "learner-by-max-options": (True, True),
}


def learner_loop(
    game: str,
    players: int,
    size: int,
    seconds: float,
    *,
    options: bool,
    by_max: bool = False,
    steps: int = 64,
) -> dict[str, Any]:
    """The example's loop (Gumbel over the mask, the pure step, ``jax.lax.scan`` of
    ``steps`` steps a call) for ``seconds`` CPU-seconds; ``options``: compiled with the
    batch's XLA options, else with a plain :func:`jax.jit` as the example is written;
    ``by_max``: the choice without ``argmax`` (:func:`choose`)."""
    import jax
    import jax.numpy as jnp

    from castlerules import batch

    env = batch.make(game, players=players, size=size, backend="jax")
    init, step = env.functional(autoreset=True)

    def one(state: Any, key: Any) -> tuple[Any, Any]:
        action = choose(jax, state.legal_action_mask, key, by_max)
        playing = (~state.terminated).sum()  # the games replaced in this step play nothing
        return step(state, action), playing

    def scan(state: Any, key: Any) -> tuple[Any, Any]:
        return jax.lax.scan(one, state, jax.random.split(key, steps))

    compiler_options = env.backend.compiler_options if options else None
    run = jax.jit(scan, compiler_options=compiler_options or None)
    compile_s, actions, calls, cpu = time_calls(jax, run, lambda: init(jnp.arange(size)), seconds)
    return {
        "game": game,
        "players": players,
        "size": size,
        "loop": ("learner, argmax by max and min" if by_max else "learner, as written")
        + (", XLA options" if options else ""),
        "steps_per_call": steps,
        "actions": actions,
        "utilisation": round(actions / max(calls * steps * size, 1), 3),
        "cpu_s": round(cpu, 3),
        "compile_cpu_s": round(compile_s, 2),
        "actions_per_cpu_s": round(actions / max(cpu, 1e-9)),
    }


def pgx_rows(python: str, games: list[str], size: int, seconds: float) -> list[dict[str, Any]]:
    """``bench_batch_pgx.py`` run by ``python`` (an environment with Pgx), on this core."""
    command = [python, str(HERE / "bench_batch_pgx.py"), "--size", str(size)]
    command += ["--seconds", str(seconds), "--games", *games]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return [{"error": done.stderr.strip()[-400:]}]
    return list(json.loads(done.stdout))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from bench import GAMES, playouts
    from bench_batch import batch_playouts, pin_one_core

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["throne", "ascent"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds a run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pgx", default=None, help="a Python with Pgx: its games too")
    parser.add_argument("--pgx-games", nargs="+", default=["connect_four", "othello", "go_9x9"])
    parser.add_argument(
        "--loops",
        nargs="+",
        choices=LOOPS,
        default=list(LOOPS),
        help="which loops to time beside the engine (all by default)",
    )
    parser.add_argument("--json", default=None, help="write the report there")
    args = parser.parse_args(argv)
    core = pin_one_core()
    rows: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    for game in args.games:
        module = GAMES[game]
        before = playouts(module, args.players, args.seconds, args.seed)["actions_per_cpu_s"]
        runs = []
        for loop in args.loops:
            if loop == "play_random":
                played = batch_playouts(
                    args.players, args.size, "jax", args.seed, args.seconds, game, steps=16
                )
                runs.append({**played, "loop": "play_random"})
            else:
                options, by_max = LOOPS[loop]
                runs.append(
                    learner_loop(
                        game, args.players, args.size, args.seconds, options=options, by_max=by_max
                    )
                )
        after = playouts(module, args.players, args.seconds, args.seed)["actions_per_cpu_s"]
        engine = (before + after) / 2
        for run in runs:
            run["engine_actions_per_cpu_s"] = round(engine)
            run["engine_range"] = [before, after]
            run["ratio"] = round(run["actions_per_cpu_s"] / engine, 2)
            rows.append(run)
            print(
                f"{game} {run['loop']}: {run['actions_per_cpu_s']:,} actions per CPU-second, "
                f"{run['ratio']}x the engine ({round(engine):,}), compiled in "
                f"{run['compile_cpu_s']} s",
                file=sys.stderr,
                flush=True,
            )
    pgx = pgx_rows(args.pgx, args.pgx_games, args.size, args.seconds) if args.pgx else []
    for row in pgx:
        print(f"pgx: {row}", file=sys.stderr, flush=True)
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": " ".join(["python benchmarks/bench_batch_learner.py", *(argv or sys.argv[1:])]),
        "core": core,
        "xla_flags": os.environ.get("XLA_FLAGS"),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "machine": {
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "rows": rows,
        "pgx": pgx,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return report


if __name__ == "__main__":
    main()
