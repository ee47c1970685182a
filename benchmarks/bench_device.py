"""The batch on JAX's default device (a GPU where one is present), by the wall clock.

``python benchmarks/bench_device.py`` runs Throne's batch (:mod:`castlerules.batch`,
JAX backend) on whatever device JAX chooses first, for each player count and
batch size, and prints the random playouts' actions per wall-second, split into
the compiled call (on the device) and the host's work around it (auto-reset: the
seeds of new games hashed on the host, part of it while a call plays; the pool of
games dealt ahead moved on; which games were replaced, and their seeds), with the
compiled call timed alone on the same arrays (``compiled only``: the rate the
device would give with no host work, and the share of the wall time beyond it).
Beside it, on one core of the same machine, the scalar
engine's seeded random playouts (``bench.playouts``), so that the two are read
side by side; and, with ``--study-games``, a Throne study of random bots, SEED
against ORIGINAL, played by the batch on the device (the same rows as the
engine's, checked on ``--study-check`` of its games).

On a CPU this is the wall-clock view of ``bench.py --batch`` (which counts CPU
seconds of one core); on a GPU "per CPU-second" means little, so every figure
here is per wall-second, and the machine's cores beside the GPU are named.
Results go to standard output as a table, and as JSON with ``--json FILE``
(written after every row, so that a run cut short keeps what it measured).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def device_name(backend: str = "jax") -> str:
    """The device the batch runs on, in words (JAX's first device)."""
    if backend != "jax":
        return f"cpu: {backend}"
    import jax

    d = jax.devices()[0]
    return f"{d.platform}: {getattr(d, 'device_kind', str(d))}"


class HostClock:
    """Wall seconds spent in the batch's host work, measured by wrapping methods of
    one env and one :class:`~castlerules.batch.play.RandomSeats` (this benchmark's
    instruments; the library is not changed): ``host``, the work between the compiled
    calls (auto-reset on the host, ``_resets``, where the batch takes that path; the
    pool of games dealt ahead, ``_pool_at``, when it moves on; the seeds and the batch
    after a call, ``_refilled``; the bots' reseeding); ``ahead``, the seeds of the
    next games hashed while a compiled call plays (``_hash_ahead``: on a device, at
    the same time as its work)."""

    HOST = ("_resets", "_pool_at", "_refilled")
    AHEAD = ("_hash_ahead",)

    def __init__(self, env: Any, seats: Any, clock: Any = time.perf_counter) -> None:
        self.seconds = {"host": 0.0, "ahead": 0.0}
        self._clock = clock
        for name in self.HOST:
            self._wrap(env, name, "host")
        for name in self.AHEAD:
            self._wrap(env, name, "ahead")
        self._wrap(seats, "reseed", "host")

    def _wrap(self, owner: Any, name: str, kind: str) -> None:
        inner = getattr(owner, name, None)
        if inner is None:
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = self._clock()
            try:
                return inner(*args, **kwargs)
            finally:
                self.seconds[kind] += self._clock() - started

        setattr(owner, name, timed)


def compiled_call_s(env: Any, batch: Any, seats: Any, steps: int, calls: int, settle: Any) -> float:
    """Wall seconds of one compiled call alone (the mean of ``calls``, each waited for),
    on the batch's arrays as they are: the device's share of a call, whatever the host
    does around it."""
    if getattr(env, "_refill_of", {}).get(steps) is not None:
        pool = env._pool_at(batch.next_seed)
        run = env._refill_of[steps]
        lo, hi = seats.words()
        at = batch.next_seed - pool.first
        args: tuple[Any, ...] = (
            batch.data,
            lo,
            hi,
            pool.columns,
            pool.bots_low,
            pool.bots_high,
            at,
            steps,
        )
    else:
        run = env._random_of[steps]
        lo, hi = seats.words()
        args = (batch.data, lo, hi, steps)
    settle(run(*args))
    started = time.perf_counter()
    for _ in range(calls):
        settle(run(*args))
    return (time.perf_counter() - started) / calls


def settle_of(backend: str) -> Any:
    """A function that waits until an array of ``backend`` is computed."""
    if backend == "jax":
        import jax

        return jax.block_until_ready
    return lambda x: x


def device_playouts(
    players: int, size: int, seed: int, seconds: float, steps: int, backend: str = "jax"
) -> dict[str, Any]:
    """Random playouts of ``size`` auto-reset games for about ``seconds`` of wall time,
    ``steps`` steps per compiled call; compilation timed apart."""
    from castlerules import batch
    from castlerules.batch.play import RandomSeats

    settle = settle_of(backend)
    env = batch.make("throne", players=players, size=size, backend=backend, autoreset=True)
    started = time.perf_counter()
    b, _ = env.play_random(
        env.init(seed=seed), RandomSeats(range(seed, seed + size), players), steps
    )
    settle(b.data)
    compile_s = time.perf_counter() - started
    b = env.init(seed=seed)
    seats = RandomSeats(range(seed, seed + size), players)
    clock = HostClock(env, seats)
    actions = calls = 0
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        b, played = env.play_random(b, seats, steps)  # int(played) waits for the device
        actions += played
        calls += 1
    settle(b.data)
    wall = time.perf_counter() - wall
    host, ahead = clock.seconds["host"], clock.seconds["ahead"]
    call_s = compiled_call_s(env, b, seats, steps, max(3, min(calls, 20)), settle)
    device = min(calls * call_s, wall)
    return {
        "players": players,
        "size": size,
        "backend": backend,
        "steps_per_call": steps,
        "calls": calls,
        "actions": actions,
        "games_started": b.next_seed - seed,
        "utilisation": round(actions / max(calls * steps * size, 1), 3),
        "wall_s": round(wall, 3),
        "host_s": round(host, 3),
        "ahead_s": round(ahead, 3),
        "host_share": round((host + ahead) / max(wall, 1e-9), 3),
        "compiled_call_ms": round(1000 * call_s, 2),
        "wall_beyond_compiled_share": round(1 - device / max(wall, 1e-9), 3),
        "ms_per_call": round(1000 * wall / max(calls, 1), 2),
        "compile_s": round(compile_s, 2),
        "actions_per_s": round(actions / max(wall, 1e-9)),
        "actions_per_s_device_only": round(actions / max(device, 1e-9)),
    }


def scalar_playouts(players: int, seconds: float, seed: int) -> dict[str, Any]:
    """The scalar engine's seeded random playouts, in this process (one core)."""
    from bench import GAMES, playouts

    run = playouts(GAMES["throne"], players, seconds, seed)
    return {
        "players": players,
        "actions_per_cpu_s": run["actions_per_cpu_s"],
        "actions_per_s": run.get("actions_per_s", run["actions_per_cpu_s"]),
    }


def study(games: int, check: int, seed: int) -> dict[str, Any]:
    """A SEED-vs-ORIGINAL study of random bots (4 players) played by the batch on the
    device: wall seconds per reading, compilation included; the rows of the first
    ``check`` games of each reading compared with the engine's, whose wall time on
    one core is given per game."""
    from castlerules import throne
    from castlerules.study import Study, parse_reading
    from castlerules.study.games import play_batch

    spec = Study(
        "throne",
        4,
        ("random",) * 4,
        (parse_reading(throne, "SEED"), parse_reading(throne, "ORIGINAL")),
        seed=seed,
    ).data()
    out: dict[str, Any] = {"games": games, "check": check, "readings": {}}
    for reading in ("SEED", "ORIGINAL"):
        started = time.perf_counter()
        rows = play_batch(spec, reading, list(range(games)), "batch")
        cold = time.perf_counter() - started
        started = time.perf_counter()
        play_batch(spec, reading, list(range(games)), "batch")
        warm = time.perf_counter() - started
        started = time.perf_counter()
        engine = play_batch(spec, reading, list(range(check)), "scalar")
        scalar = time.perf_counter() - started
        out["readings"][reading] = {
            "batch_wall_s_first": round(cold, 2),
            "batch_wall_s_compiled": round(warm, 2),
            "scalar_wall_s_per_game": round(scalar / max(check, 1), 5),
            "rows_identical_on_check": rows[:check] == engine,
        }
        print(f"study {reading}: {out['readings'][reading]}", file=sys.stderr, flush=True)
    per_game = sum(r["scalar_wall_s_per_game"] for r in out["readings"].values()) / 2
    out["scalar_wall_s_estimated"] = round(per_game * 2 * games, 1)
    first = sum(r["batch_wall_s_first"] for r in out["readings"].values())
    warm = sum(r["batch_wall_s_compiled"] for r in out["readings"].values())
    out["ratio_first"] = round(out["scalar_wall_s_estimated"] / max(first, 1e-9), 2)
    out["ratio_compiled"] = round(out["scalar_wall_s_estimated"] / max(warm, 1e-9), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 65536])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall seconds per row")
    parser.add_argument("--steps", type=int, default=16, help="steps per compiled call")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--backend", default="jax", help="the batch's backend: jax or numpy")
    parser.add_argument("--budget", type=float, default=420.0, help="wall seconds for all rows")
    parser.add_argument("--study-games", type=int, default=0, help="paired games (0: none)")
    parser.add_argument("--study-check", type=int, default=200)
    parser.add_argument("--json", type=Path, help="write the results here, row by row")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    report: dict[str, Any] = {
        "device": device_name(args.backend),
        "cores": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "scalar": [],
        "rows": [],
    }

    def save() -> None:
        if args.json:
            args.json.write_text(json.dumps(report, indent=2) + "\n")

    print(f"device: {report['device']}, {report['cores']} cores", file=sys.stderr, flush=True)
    for players in args.players:
        report["scalar"].append(scalar_playouts(players, args.seconds, args.seed))
        save()
        for size in args.sizes:
            if time.perf_counter() - began > args.budget:
                print(f"budget spent: {players}p size {size} skipped", file=sys.stderr)
                continue
            row = device_playouts(players, size, args.seed, args.seconds, args.steps, args.backend)
            report["rows"].append(row)
            save()
            print(
                f"throne {players}p size {size:>7}: {row['actions_per_s']:>12,} actions/s "
                f"(host work {100 * row['host_share']:.0f}% of the wall time, of it "
                f"{1000 * row['ahead_s'] / max(row['calls'], 1):.2f} ms a call while the "
                f"device plays; {row['ms_per_call']} ms a call of {args.steps} steps, the "
                f"compiled call alone {row['compiled_call_ms']} ms; "
                f"{row['utilisation']:.2f} full), compile {row['compile_s']} s",
                file=sys.stderr,
                flush=True,
            )
    if args.study_games:
        report["study"] = study(args.study_games, args.study_check, args.seed)
        save()
    scalar = {r["players"]: r["actions_per_cpu_s"] for r in report["scalar"]}
    print(f"the batch on {report['device']} ({report['date']}), Throne random playouts")
    print(
        f"{'players':>7} {'size':>8} {'actions/s':>12} {'x one core':>10} {'host %':>6} "
        f"{'beyond compiled %':>17} {'compiled only/s':>15}"
    )
    for r in report["rows"]:
        ratio = r["actions_per_s"] / max(scalar[r["players"]], 1)
        print(
            f"{r['players']:>7} {r['size']:>8} {r['actions_per_s']:>12,} {ratio:>10.1f} "
            f"{100 * r['host_share']:>6.0f} {100 * r['wall_beyond_compiled_share']:>17.0f} "
            f"{r['actions_per_s_device_only']:>15,}"
        )
    if "study" in report:
        s = report["study"]
        print(
            f"study, {2 * s['games']:,} games: {s['ratio_first']}x with compilation, "
            f"{s['ratio_compiled']}x compiled (engine estimated from {s['check']} games)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
