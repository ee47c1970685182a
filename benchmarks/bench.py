"""Speed of the engines: random playouts and perft, per game and player count; and
of the proofs (``--proofs``), job by job.

Run ``bash dev bench`` (or ``python benchmarks/bench.py --help``).  It measures
on one core, through the public API only: a random playout is the loop
``legal_moves`` / seeded choice / ``apply`` that any user would write.  With
``--proofs`` it also runs every job of ``python -m proofs`` one after the
other on one core (``--proofs-fast`` for the docs' fast profile) and reports
each job's time: their sum is the CPU cost of a proof run, which
``python -m proofs`` spreads over two processes (its budget is 120 s of wall
time on 2 cores; the jobs' ``cost`` estimates used to schedule them come from
here).  ``--adapters`` compares random playouts through the OpenSpiel and
PettingZoo adapters with the engine's (see ``bench_adapters.py``).  The figures go to
standard output (``--json`` for machines); no test
asserts them.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

from castlerules import ascent, throne
from castlerules.core import Game, Rng

GAMES: dict[str, Game] = {"throne": throne, "ascent": ascent}


def playouts(game: Game, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Play seeded random games for about ``seconds``; count actions and games."""
    legal_moves, apply = game.legal_moves, game.apply
    rng = Rng.from_seed(seed, f"bench.{game.NAME}.{players}")
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_game(players, seed=seed + games)
        while True:
            moves = legal_moves(state)
            if not moves:
                break
            move, rng = rng.choice(moves)
            state = apply(state, move)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "game": game.NAME,
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_s": round(actions / elapsed),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_game": round(actions / max(games, 1), 1),
    }


def perft_speed(game: Game, players: int, depth: int) -> dict[str, Any]:
    """Perft from the first position of a seeded game, in nodes per second."""
    state = game.new_game(players, seed=1)
    start = time.perf_counter()
    nodes = game.perft(state, depth)
    elapsed = time.perf_counter() - start
    return {
        "game": game.NAME,
        "players": players,
        "depth": depth,
        "nodes": nodes,
        "seconds": round(elapsed, 3),
        "nodes_per_s": round(nodes / elapsed),
    }


def proof_jobs(fast: bool) -> list[dict[str, Any]]:
    """Every job of a proof run, one after the other on this core: seconds and results."""
    import proofs  # the proofs need z3 (installed with the project)

    rows = []
    for task in proofs.tasks():
        start = time.perf_counter()
        results = task.run(fast)
        elapsed = time.perf_counter() - start
        rows.append(
            {
                "job": task.name,
                "seconds": round(elapsed, 2),
                "estimate": task.cost,
                "properties": len(results),
                "ok": all(r.ok for r in results),
            }
        )
    return rows


def study_speed(games: int, rounds: int) -> list[dict[str, Any]]:
    """Games/s of a study (Throne, 4 players, SEED vs ORIGINAL, greedy bots) on 1 and 2
    Dask workers, side by side: each cluster is started and warmed up first, then the
    same study is timed on it, alternating 1 and 2 workers ``rounds`` times."""
    import importlib
    import logging
    import tempfile
    from pathlib import Path

    from castlerules.study import Study, parse_reading, run_study

    study = Study(
        "throne",
        4,
        ("greedy",) * 4,
        (parse_reading(throne, "SEED"), parse_reading(throne, "ORIGINAL")),
    )
    distributed: Any = importlib.import_module("distributed")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for attempt in range(rounds):
            for workers in (1, 2):
                with (
                    distributed.LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        dashboard_address=":0",
                        silence_logs=logging.ERROR,
                    ) as cluster,
                    distributed.Client(cluster) as client,
                ):
                    client.run(lambda: __import__("castlerules.study.games"))
                    path = Path(tmp) / f"bench-{attempt}-{workers}.duckdb"
                    start = time.perf_counter()
                    summary = run_study(
                        path, study, games, scheduler=cluster.scheduler_address, progress=False
                    )
                    elapsed = time.perf_counter() - start
                rows.append(
                    {
                        "workers": workers,
                        "games": summary.played,
                        "seconds": round(elapsed, 2),
                        "games_per_s": round(summary.played / elapsed, 2),
                    }
                )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--seconds", type=float, default=3.0, help="per player count")
    parser.add_argument("--depth", type=int, default=4, help="perft depth")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--proofs", action="store_true", help="also time every proof job")
    parser.add_argument("--proofs-fast", action="store_true", help="the proofs' fast profile")
    parser.add_argument(
        "--study", action="store_true", help="also a study's games/s on 1 and 2 Dask workers"
    )
    parser.add_argument("--study-only", action="store_true", help="only the study benchmark")
    parser.add_argument("--study-games", type=int, default=200, help="games per reading")
    parser.add_argument("--study-rounds", type=int, default=2, help="1-and-2-worker rounds")
    parser.add_argument(
        "--adapters",
        action="store_true",
        help="only the OpenSpiel and PettingZoo adapters against the engine (bench_adapters.py)",
    )
    args = parser.parse_args(argv)
    if args.adapters:
        import bench_adapters

        rows = [
            row
            for name in args.game or sorted(GAMES, reverse=True)
            for players in args.players or [4 if name == "throne" else 2]
            for row in bench_adapters.compare(name, players, args.seconds, args.seed)
        ]
        if args.json:
            json.dump({"adapters": rows}, sys.stdout, indent=2)
            print()
        else:
            bench_adapters.show(rows)
        return 0
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "playouts": [],
        "perft": [],
    }
    for name in [] if args.study_only else args.game or sorted(GAMES, reverse=True):
        game = GAMES[name]
        for players in args.players or list(game.PLAYERS):
            if players not in game.PLAYERS:
                continue
            report["playouts"].append(playouts(game, players, args.seconds, args.seed))
        report["perft"].append(perft_speed(game, 4, args.depth))
    if args.proofs or args.proofs_fast:
        report["proofs"] = proof_jobs(fast=args.proofs_fast)
    if args.study or args.study_only:
        report["study"] = study_speed(args.study_games, args.study_rounds)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(f"Python {report['python']} on {report['machine']}, one core")
    print(
        f"{'game':8} {'players':>7} {'games':>7} {'actions/s':>10} {'games/s':>8} {'acts/game':>9}"
    )
    for row in report["playouts"]:
        print(
            f"{row['game']:8} {row['players']:>7} {row['games']:>7} {row['actions_per_s']:>10,}"
            f" {row['games_per_s']:>8} {row['actions_per_game']:>9}"
        )
    print(f"{'game':8} {'players':>7} {'depth':>7} {'nodes':>10} {'nodes/s':>10}")
    for row in report["perft"]:
        print(
            f"{row['game']:8} {row['players']:>7} {row['depth']:>7} {row['nodes']:>10,}"
            f" {row['nodes_per_s']:>10,}"
        )
    if "proofs" in report:
        print(f"{'proof job':34} {'seconds':>8} {'estimate':>8} {'properties':>10}  ok")
        for row in report["proofs"]:
            print(
                f"{row['job']:34} {row['seconds']:>8} {row['estimate']:>8} {row['properties']:>10}"
                f"  {'yes' if row['ok'] else 'NO'}"
            )
        total = sum(row["seconds"] for row in report["proofs"])
        print(f"{'all jobs on one core':34} {total:>8.1f}")
    if "study" in report:
        print("study: throne, 4 players, SEED vs ORIGINAL, greedy bots (warm Dask clusters)")
        print(f"{'workers':>7} {'games':>7} {'seconds':>8} {'games/s':>8}")
        for row in report["study"]:
            print(
                f"{row['workers']:>7} {row['games']:>7} {row['seconds']:>8} {row['games_per_s']:>8}"
            )
        best = {
            w: max(r["games_per_s"] for r in report["study"] if r["workers"] == w) for w in (1, 2)
        }
        print(f"2 workers / 1 worker (best of each): {best[2] / best[1]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
