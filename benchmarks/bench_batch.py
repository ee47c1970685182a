"""Random playouts of the batch (castlerules.batch) against the scalar engine, one core.

``python benchmarks/bench.py --batch`` runs, for each player count, the
scalar engine's seeded random playouts (``bench.playouts``: ``legal_moves``,
``Rng.choice``, ``apply``), then the batch at each size with a random bot in
every seat (:class:`castlerules.batch.play.RandomSeats`, the same choices as
``RandomBot``), then the scalar engine again; the ratio is the batch's
actions per CPU-second over the mean of the two scalar runs around it.

Everything runs in this one process, pinned to one core, with XLA told to
use one thread, so that "per CPU-second" means one core's work.  A batch's
game keeps its slot once over (its later steps do not count as actions),
so the figure includes the batch's idle tail; ``utilisation`` says how full
the batch was on average.  The JAX backend's compilation is timed apart and
not counted.  Nothing is asserted.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

# One XLA thread: set before JAX is first imported (by the batch's jax backend).
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)


def pin_one_core() -> int | None:
    """Run this process on one core (where the system allows it); the core's number."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def batch_playouts(
    players: int, size: int, backend: str, seed: int, max_cpu: float
) -> dict[str, Any]:
    """Random playouts of a batch of ``size`` games until all end (or ``max_cpu`` s)."""
    import numpy as np

    from castlerules import batch
    from castlerules.batch.play import RandomSeats

    env = batch.make("throne", players=players, size=size, backend=backend)
    started = time.process_time()
    warm = env.init(seed=seed)
    env.step(warm, np.asarray(warm.legal_action_mask).argmax(axis=1))
    compile_s = time.process_time() - started
    seeds = [seed + i for i in range(size)]
    b = env.init(seed=seed)
    seats = RandomSeats(seeds, players)
    actions = steps = 0
    cpu = time.process_time()
    while time.process_time() - cpu < max_cpu:
        seat = np.asarray(b.current_player)
        live = int((seat >= 0).sum())
        if not live:
            break
        b = env.step(b, seats.choose(np.asarray(b.legal_action_mask), seat))
        actions += live
        steps += 1
    cpu = time.process_time() - cpu
    return {
        "players": players,
        "size": size,
        "backend": backend,
        "actions": actions,
        "steps": steps,
        "utilisation": round(actions / max(steps * size, 1), 3),
        "cpu_s": round(cpu, 3),
        "compile_cpu_s": round(compile_s, 2),
        "actions_per_cpu_s": round(actions / max(cpu, 1e-9)),
    }


def compare(
    players_list: list[int],
    sizes: list[int],
    backends: list[str],
    seconds: float,
    seed: int,
) -> dict[str, Any]:
    """Scalar, then batch at every size and backend, then scalar, per player count."""
    from bench import playouts

    from castlerules import throne

    core = pin_one_core()
    rows: list[dict[str, Any]] = []
    for players in players_list:
        before = playouts(throne, players, seconds, seed)["actions_per_cpu_s"]
        runs = []
        for backend in backends:
            for size in sizes:
                print(
                    f"batch: throne {players}p, {backend}, size {size} ...",
                    file=sys.stderr,
                    flush=True,
                )
                run = batch_playouts(players, size, backend, seed, max_cpu=4 * seconds)
                print(
                    f"batch: throne {players}p, {backend}, size {size}: "
                    f"{run['actions_per_cpu_s']:,} actions per CPU-second",
                    file=sys.stderr,
                    flush=True,
                )
                runs.append(run)
        after = playouts(throne, players, seconds, seed)["actions_per_cpu_s"]
        scalar = (before + after) / 2
        for run in runs:
            run["scalar_actions_per_cpu_s"] = round(scalar)
            run["scalar_range"] = [before, after]
            run["ratio"] = round(run["actions_per_cpu_s"] / scalar, 2)
            rows.append(run)
    return {"core": core, "xla_flags": os.environ.get("XLA_FLAGS"), "rows": rows}


def show(report: dict[str, Any]) -> None:
    print(f"batch against the scalar engine: Throne, one core (core {report['core']})")
    print(
        f"{'players':>7} {'backend':>7} {'size':>6} {'batch act/CPU-s':>16} "
        f"{'scalar act/CPU-s':>17} {'ratio':>6} {'full':>5} {'compile s':>9}"
    )
    for r in report["rows"]:
        print(
            f"{r['players']:>7} {r['backend']:>7} {r['size']:>6} {r['actions_per_cpu_s']:>16,} "
            f"{r['scalar_actions_per_cpu_s']:>17,} {r['ratio']:>6.2f} {r['utilisation']:>5.2f} "
            f"{r['compile_cpu_s']:>9.1f}"
        )
