"""Random playouts of the batch (castlerules.batch) against the scalar engine, one core.

``python benchmarks/bench.py --batch`` runs, for each player count, the
scalar engine's seeded random playouts (``bench.playouts``: ``legal_moves``,
``Rng.choice``, ``apply``), then the batch at each size with a random bot in
every seat (:class:`castlerules.batch.play.RandomSeats`, the same choices as
``RandomBot``), then the scalar engine again; the ratio is the batch's
actions per CPU-second over the mean of the two scalar runs around it.

Everything runs in this one process, pinned to one core, with XLA told to
use one thread, so that "per CPU-second" means one core's work.  The batch
auto-resets, so that it stays full (a game's steps count as actions only while
it is in play; ``utilisation`` says how full the batch was: a game that ended
waits for the end of its compiled call, ``--batch-steps`` steps, to be reset);
its deals are timed with it.  The JAX
backend's compilation is timed apart and not counted.  Nothing is asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
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
    players: int,
    size: int,
    backend: str,
    seed: int,
    max_cpu: float,
    game: str = "throne",
    steps: int = 16,
) -> dict[str, Any]:
    """Random playouts of a batch of ``size`` games for ``max_cpu`` CPU-seconds.

    The batch auto-resets (a finished game is replaced by a new one, dealt from the
    next seed) and every game's move is its random bot's draw
    (:class:`~castlerules.batch.play.RandomSeats`), ``steps`` steps per compiled call
    (:meth:`~castlerules.batch.slots.Slots.play_random`): a game that ends waits for
    the call's end to be replaced.  The deals (``init`` and the resets) are inside
    the timed loop, as ``new_game`` is in the engine's playouts; the compilation is
    timed apart.  Only the steps of games in play count as actions.
    """
    from castlerules import batch
    from castlerules.batch.play import RandomSeats

    env = batch.make(game, players=players, size=size, backend=backend, autoreset=True)
    started = time.process_time()
    env.play_random(env.init(seed=seed), RandomSeats(range(seed, seed + size), players), steps)
    compile_s = time.process_time() - started
    actions = calls = 0
    cpu = time.process_time()
    b = env.init(seed=seed)
    seats = RandomSeats(range(seed, seed + size), players)
    while time.process_time() - cpu < max_cpu:
        b, played = env.play_random(b, seats, steps)
        actions += played
        calls += 1
    cpu = time.process_time() - cpu
    return {
        "game": game,
        "players": players,
        "size": size,
        "backend": backend,
        "steps_per_call": steps,
        "actions": actions,
        "steps": calls * steps,
        "games_started": b.next_seed - seed,
        "utilisation": round(actions / max(calls * steps * size, 1), 3),
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
    game: str = "throne",
    steps: int = 16,
) -> dict[str, Any]:
    """Scalar, then batch at every size and backend, then scalar, per player count."""
    from bench import GAMES, playouts

    module = GAMES[game]
    core = pin_one_core()
    rows: list[dict[str, Any]] = []
    for players in players_list:
        before = playouts(module, players, seconds, seed)["actions_per_cpu_s"]
        runs = []
        for backend in backends:
            for size in sizes:
                print(
                    f"batch: {game} {players}p, {backend}, size {size} ...",
                    file=sys.stderr,
                    flush=True,
                )
                run = batch_playouts(players, size, backend, seed, 4 * seconds, game, steps)
                print(
                    f"batch: {game} {players}p, {backend}, size {size}: "
                    f"{run['actions_per_cpu_s']:,} actions per CPU-second",
                    file=sys.stderr,
                    flush=True,
                )
                runs.append(run)
        after = playouts(module, players, seconds, seed)["actions_per_cpu_s"]
        scalar = (before + after) / 2
        for run in runs:
            run["scalar_actions_per_cpu_s"] = round(scalar)
            run["scalar_range"] = [before, after]
            run["ratio"] = round(run["actions_per_cpu_s"] / scalar, 2)
            rows.append(run)
    return {"core": core, "xla_flags": os.environ.get("XLA_FLAGS"), "rows": rows}


def show(report: dict[str, Any]) -> None:
    print(f"batch against the scalar engine, one core (core {report['core']})")
    print(
        f"{'game':>6} {'players':>7} {'backend':>7} {'size':>6} {'batch act/CPU-s':>16} "
        f"{'scalar act/CPU-s':>17} {'ratio':>6} {'full':>5} {'compile s':>9}"
    )
    for r in report["rows"]:
        print(
            f"{r['game']:>6} {r['players']:>7} {r['backend']:>7} {r['size']:>6} "
            f"{r['actions_per_cpu_s']:>16,} "
            f"{r['scalar_actions_per_cpu_s']:>17,} {r['ratio']:>6.2f} {r['utilisation']:>5.2f} "
            f"{r['compile_cpu_s']:>9.1f}"
        )


def study_compare(games: int, seed: int) -> dict[str, Any]:
    """A Throne study of random bots, SEED against ORIGINAL, ``games`` paired games, 4
    players: CPU seconds with the engine and with the batch (JAX, compilation
    included and also given apart), the rows compared."""
    from castlerules.study.games import play_batch

    spec = _study_spec(seed)
    indices = list(range(games))
    out: dict[str, Any] = {"games": games, "readings": ["SEED", "ORIGINAL"]}
    rows: dict[str, list[str]] = {}
    for engine, label in (("scalar", "scalar"), ("batch", "batch"), ("batch", "compiled")):
        cpu = time.process_time()
        lines = []
        for reading in ("SEED", "ORIGINAL"):  # compiled: the batch again, the play alone
            print(f"study: {games:,} {reading} games, {label} ...", file=sys.stderr, flush=True)
            lines += play_batch(spec, reading, indices, engine)
            print(
                f"study: {label}: {time.process_time() - cpu:.1f} s of CPU so far",
                file=sys.stderr,
                flush=True,
            )
        rows.setdefault(engine, lines)
        key = "batch_cpu_s_compiled" if label == "compiled" else f"{engine}_cpu_s"
        out[key] = round(time.process_time() - cpu, 2)
    out["rows_identical"] = rows["scalar"] == rows["batch"]
    out["ratio"] = round(out["scalar_cpu_s"] / max(out["batch_cpu_s"], 1e-9), 2)
    out["ratio_compiled"] = round(out["scalar_cpu_s"] / max(out["batch_cpu_s_compiled"], 1e-9), 2)
    # Two new processes sharing a new compile cache (castlerules.batch.compile_cache, as
    # ``castlerules study`` turns on): the first compiles and fills it, the second
    # (a later run of the same study) reads the compiled loop from it.
    with tempfile.TemporaryDirectory() as cache:
        for label in ("first", "cached"):
            print(f"study: batch in a new process, cache {label} ...", file=sys.stderr, flush=True)
            out[f"batch_cpu_s_{label}"] = _study_process(games, seed, cache)
            out[f"ratio_{label}"] = round(
                out["scalar_cpu_s"] / max(out[f"batch_cpu_s_{label}"], 1e-9), 2
            )
    return out


def _study_process(games: int, seed: int, cache: str) -> float:
    """:func:`study_batch_cpu` in a new Python process (this one's environment)."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = (
        f"import sys; sys.path.insert(0, {here!r}); import bench_batch; "
        f"print(bench_batch.study_batch_cpu({games}, {seed}, {cache!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the study's new process failed: {done.stderr.strip()[-500:]}")
    return float(done.stdout.split()[-1])


def study_batch_cpu(games: int, seed: int, cache: str) -> float:
    """CPU seconds of :func:`study_compare`'s batch (both readings) in this process, with
    JAX's compile cache in ``cache``; JAX is imported before the clock starts, as in
    the benchmark's own process, where the batch's playouts imported it."""
    from castlerules.batch import compile_cache

    compile_cache(cache)
    import jax  # noqa: F401

    from castlerules.study.games import play_batch

    spec = _study_spec(seed)
    cpu = time.process_time()
    for reading in ("SEED", "ORIGINAL"):
        play_batch(spec, reading, list(range(games)), "batch")
    return round(time.process_time() - cpu, 2)


def _study_spec(seed: int) -> Any:
    """The benchmark's study: Throne, 4 random bots, SEED against ORIGINAL."""
    from castlerules.study import Study, parse_reading

    readings = (parse_reading(throne_module(), "SEED"), parse_reading(throne_module(), "ORIGINAL"))
    return Study("throne", 4, ("random",) * 4, readings, seed=seed).data()


def throne_module() -> Any:
    from castlerules import throne

    return throne


def show_study(report: dict[str, Any]) -> None:
    g = 2 * report["games"]
    print(
        f"study, Throne 4p random bots, SEED vs ORIGINAL, {g:,} games: engine "
        f"{report['scalar_cpu_s']} s ({g / report['scalar_cpu_s']:,.0f} games/s), batch "
        f"{report['batch_cpu_s']} s with compilation ({report['ratio']}x), "
        f"{report['batch_cpu_s_compiled']} s compiled ({report['ratio_compiled']}x); "
        f"a new process: {report['batch_cpu_s_first']} s ({report['ratio_first']}x) with an "
        f"empty compile cache, {report['batch_cpu_s_cached']} s ({report['ratio_cached']}x) "
        f"with the loop in it; rows identical: {report['rows_identical']}"
    )
