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
PettingZoo adapters with the engine's (see ``bench_adapters.py``); ``--batch`` the
batch of many games (``castlerules.batch``) with the engine (``bench_batch.py``).  The figures go to
standard output (``--json`` for machines); no test
asserts them.

``--against REV`` compares this tree's engine with the engine of another
commit, side by side in one run: REV is exported (``git archive``) into a
temporary directory, and every measurement runs in a fresh subprocess of this
same file with either tree first on ``sys.path``; the two sides alternate
(A B, then B A) for ``--rounds`` rounds, and the report gives, per game and
player count, both sides' actions per second of CPU time (steadier than the
wall clock on a shared machine) and the per-round ratios (median, range).
Each worker also reports the length of every game it played: the games are
seeded, so the common prefix must agree, a check that behaviour is unchanged.
With ``--together`` the two sides of a round run at the same time instead,
one process each, so that on a busy shared machine both meet the same load.

``--rules NAME=VALUE`` (repeatable) plays this tree's games under those
options (the syntax of the command line's ``--option``); with ``--against``
they apply to this tree's side only, and the other commit plays its own
default reading.  When a default changed between the two commits, the options
that give back the old default make the two sides play the same games (the
``same games`` column checks it), so that the ratio measures the engine and
not a change of rules.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from castlerules import ascent, throne
from castlerules.core import Game, Rng

GAMES: dict[str, Game] = {"throne": throne, "ascent": ascent}


def rules_of(game: Game, texts: list[str]) -> Any:
    """The rules of ``--rules NAME=VALUE`` texts for ``game`` (None without any)."""
    if not texts:
        return None
    from castlerules import options_text

    rules_cls = getattr(game, "Rules")  # noqa: B009 (the protocol does not name Rules)
    options = dict(options_text.parse_assignment(rules_cls, text) for text in texts)
    return rules_cls(**options)


def playouts(
    game: Game, players: int, seconds: float, seed: int, rules: Any = None
) -> dict[str, Any]:
    """Play seeded random games for about ``seconds``; count actions and games
    (under ``rules``, or the game's default reading)."""
    legal_moves, apply = game.legal_moves, game.apply
    rng = Rng.from_seed(seed, f"bench.{game.NAME}.{players}")
    actions = games = 0
    lengths: list[int] = []
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        if rules is None:  # (an older commit's new_game may not take them)
            state = game.new_game(players, seed=seed + games)
        else:
            state = game.new_game(players, rules, seed=seed + games)
        before = actions
        while True:
            moves = legal_moves(state)
            if not moves:
                break
            move, rng = rng.choice(moves)
            state = apply(state, move)
            actions += 1
        games += 1
        lengths.append(actions - before)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "lengths": lengths,
        # CPU time of this process: steadier than the wall clock on a shared machine.
        "actions_per_cpu_s": round(actions / max(cpu, 1e-9)),
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
        start, cpu = time.perf_counter(), time.process_time()
        results = task.run(fast)
        elapsed = time.perf_counter() - start
        rows.append(
            {
                "job": task.name,
                "seconds": round(elapsed, 2),
                # CPU seconds: on a shared machine, the figure to compare.
                "cpu_seconds": round(time.process_time() - cpu, 2),
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


ROOT = Path(__file__).resolve().parent.parent
"""The working tree this benchmark belongs to (side A of ``--against``)."""


def export_commit(rev: str, into: Path) -> str:
    """Write the files of commit ``rev`` of this repository into ``into``; its full hash.

    ``git archive`` leaves the repository untouched (no worktree to clean up).
    An unknown revision is a :class:`SystemExit` with one line for the terminal.
    """
    import io
    import tarfile

    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        print(f"bench: --against {rev!r} is not a commit of {ROOT}", file=sys.stderr)
        raise SystemExit(2)
    commit = found.stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        capture_output=True,
        check=True,
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return commit


def start_worker(
    tree: Path, game: str, players: int, seconds: float, seed: int, rules: list[str] | None = None
) -> Any:
    """Start one playout measurement in a fresh process with ``tree``'s engine (under the
    ``--rules`` texts ``rules``, if any)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(tree),
        "--game",
        game,
        "--players",
        str(players),
        "--seconds",
        str(seconds),
        "--seed",
        str(seed),
    ]
    for text in rules or []:
        command += ["--rules", text]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish_worker(tree: Path, process: Any) -> dict[str, Any]:
    """The figures of a worker started by :func:`start_worker` (see ``--worker``)."""
    out, err = process.communicate()
    if process.returncode != 0:
        print(f"bench: the worker for {tree} failed: {err.strip()[-500:]}", file=sys.stderr)
        raise SystemExit(2)
    row: dict[str, Any] = json.loads(out)
    return row


def run_worker(
    tree: Path, game: str, players: int, seconds: float, seed: int, rules: list[str] | None = None
) -> dict[str, Any]:
    """One playout measurement in a fresh process with ``tree``'s engine (see ``--worker``)."""
    return finish_worker(tree, start_worker(tree, game, players, seconds, seed, rules))


def worker(
    tree: str, game: str, players: int, seconds: float, seed: int, rules: list[str] | None = None
) -> int:
    """``--worker TREE``: measure with the engine of TREE (on PYTHONPATH); JSON on stdout."""
    import castlerules

    engine = Path(castlerules.__file__).resolve()
    if not engine.is_relative_to(Path(tree).resolve()):
        print(f"bench: the engine was imported from {engine}, not from {tree}", file=sys.stderr)
        return 2
    row = playouts(GAMES[game], players, seconds, seed, rules_of(GAMES[game], rules or []))
    row["engine"] = str(engine.parent)
    json.dump(row, sys.stdout)
    return 0


def against(
    rev: str,
    games: list[str],
    players: list[int] | None,
    seconds: float,
    seed: int,
    rounds: int,
    together: bool = False,
    rules: list[str] | None = None,
) -> dict[str, Any]:
    """This tree (A) against commit ``rev`` (B), alternating A/B, ``rounds`` rounds.

    ``rules``: ``--rules`` texts for this tree's side only (B plays its own default).

    With ``together``, the two sides of each round run at the same time
    instead (one process each): on a busy shared machine both then meet the
    same load, and the ratios scatter much less.

    Per game and player count: the actions/s of both sides in each round, the
    ratios A/B of each round (the pair measured back to back), their median
    and range, and whether the games both sides played agree in length.
    """
    with tempfile.TemporaryDirectory(prefix="castlerules-bench-") as tmp:
        other = Path(tmp)
        commit = export_commit(rev, other)
        table: list[dict[str, Any]] = []
        for name in games:
            game = GAMES[name]
            for count in dict.fromkeys(players or game.PLAYERS):
                if count not in game.PLAYERS:
                    continue
                new: list[int] = []
                old: list[int] = []
                lengths: dict[str, list[int]] = {"new": [], "old": []}
                for r in range(rounds):
                    # A B in even rounds, B A in odd ones: drift of the machine cancels.
                    sides = [("new", ROOT, rules), ("old", other, None)]
                    rows: dict[str, dict[str, Any]] = {}
                    if together:
                        started = [
                            (s, t, start_worker(t, name, count, seconds, seed, o))
                            for s, t, o in sides
                        ]
                        rows = {s: finish_worker(t, process) for s, t, process in started}
                    else:
                        for side, tree, given in sides if r % 2 == 0 else sides[::-1]:
                            rows[side] = run_worker(tree, name, count, seconds, seed, given)
                    for side, row in rows.items():
                        (new if side == "new" else old).append(row["actions_per_cpu_s"])
                        if len(row["lengths"]) > len(lengths[side]):
                            lengths[side] = row["lengths"]
                    print(
                        f"  {name} {count}p round {r + 1}/{rounds}: "
                        f"new {new[-1]:,} old {old[-1]:,} actions/s",
                        file=sys.stderr,
                        flush=True,
                    )
                ratios = [a / b for a, b in zip(new, old, strict=True)]
                common = min(len(lengths["new"]), len(lengths["old"]))
                table.append(
                    {
                        "game": name,
                        "players": count,
                        "new_actions_per_s": new,
                        "old_actions_per_s": old,
                        "ratios": [round(x, 3) for x in ratios],
                        "median_ratio": round(statistics.median(ratios), 3),
                        "min_ratio": round(min(ratios), 3),
                        "max_ratio": round(max(ratios), 3),
                        "games_compared": common,
                        "same_games": lengths["new"][:common] == lengths["old"][:common],
                    }
                )
    return {
        "against": rev,
        "commit": commit,
        "rounds": rounds,
        "seconds": seconds,
        "together": together,
        "rules": list(rules or []),
        "rows": table,
    }


def print_against(report: dict[str, Any]) -> None:
    """The side-by-side table of :func:`against`."""
    print(
        f"this tree (new) against {report['against']} = {report['commit'][:10]} (old): "
        f"{report['rounds']} rounds of {report['seconds']} s per side, "
        f"{'both sides at once' if report['together'] else 'alternating'}, one core each;"
        " actions per CPU second"
    )
    if report.get("rules"):
        print(f"this tree plays under {', '.join(report['rules'])}; the old commit its default")
    print(
        f"{'game':8} {'players':>7} {'new act/s':>10} {'old act/s':>10} {'ratio':>6}"
        f" {'range':>13} {'same games':>12}"
    )
    for row in report["rows"]:
        span = f"{row['min_ratio']:.2f}-{row['max_ratio']:.2f}"
        same = f"{'yes' if row['same_games'] else 'NO'} ({row['games_compared']})"
        print(
            f"{row['game']:8} {row['players']:>7}"
            f" {statistics.median(row['new_actions_per_s']):>10,.0f}"
            f" {statistics.median(row['old_actions_per_s']):>10,.0f}"
            f" {row['median_ratio']:>6.2f} {span:>13} {same:>12}"
        )
    for name in dict.fromkeys(row["game"] for row in report["rows"]):
        ratios = [x for row in report["rows"] if row["game"] == name for x in row["ratios"]]
        print(
            f"{name}: median ratio {statistics.median(ratios):.2f} "
            f"(range {min(ratios):.2f}-{max(ratios):.2f}, {len(ratios)} pairs)"
        )


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
    parser.add_argument(
        "--against",
        metavar="REV",
        help="compare the playouts with those of commit REV, side by side (alternating runs)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="A/B rounds with --against")
    parser.add_argument(
        "--together",
        action="store_true",
        help="with --against: run both sides of each round at the same time (busy machines)",
    )
    parser.add_argument(
        "--batch",
        action="store_true",
        help="only the batch (castlerules.batch) against the engine, Throne (bench_batch.py)",
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[256, 1024, 4096, 8192], help="with --batch"
    )
    parser.add_argument(
        "--backends", nargs="+", default=["jax"], help="with --batch: jax and/or numpy"
    )
    parser.add_argument(
        "--batch-steps",
        type=int,
        default=16,
        help="with --batch: steps per compiled call of the random bots (play_random)",
    )
    parser.add_argument(
        "--batch-ascent",
        action="store_true",
        help="with --batch: Ascent too (on --backends; --game picks the games alone)",
    )
    parser.add_argument(
        "--batch-study-games",
        type=int,
        default=2000,
        help="with --batch: paired games of the SEED-vs-ORIGINAL random study (0: none)",
    )
    parser.add_argument(
        "--rules",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="play this tree's games under a rules option (repeatable; with --against, this "
        "tree's side only: e.g. the options that give back the old commit's default)",
    )
    parser.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rules and len(args.game or []) != 1:
        parser.error("--rules needs exactly one --game (the options are that game's)")
    if args.batch:
        import bench_batch

        games = args.game or ["throne", *(["ascent"] if args.batch_ascent else [])]
        batched = bench_batch.compare(
            args.players or [3, 4, 6] if "throne" in games else [],
            args.sizes,
            args.backends,
            args.seconds,
            args.seed,
            steps=args.batch_steps,
        )
        if "ascent" in games:
            ascent_rows = bench_batch.compare(
                args.players or [2, 4, 6],
                args.sizes,
                args.backends,
                args.seconds,
                args.seed,
                "ascent",
                args.batch_steps,
            )
            batched["rows"] += ascent_rows["rows"]
        studied = (
            bench_batch.study_compare(args.batch_study_games, args.seed)
            if args.batch_study_games
            else None
        )
        if args.json:
            json.dump({"batch": batched, "study": studied}, sys.stdout, indent=2)
            print()
        else:
            bench_batch.show(batched)
            if studied:
                bench_batch.show_study(studied)
        return 0
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
    if args.worker:
        return worker(
            args.worker, args.game[0], args.players[0], args.seconds, args.seed, args.rules
        )
    if args.against:
        if args.rounds < 1:
            parser.error("--rounds must be at least 1")
        names = args.game or sorted(GAMES, reverse=True)
        result = against(
            args.against,
            names,
            args.players,
            args.seconds,
            args.seed,
            args.rounds,
            args.together,
            args.rules,
        )
        if args.json:
            json.dump(result, sys.stdout, indent=2)
            print()
        else:
            print_against(result)
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
            row = playouts(game, players, args.seconds, args.seed, rules_of(game, args.rules))
            del row["lengths"], row["actions_per_cpu_s"]  # for --against
            report["playouts"].append(row)
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
        print(f"{'proof job':34} {'seconds':>8} {'cpu':>8} {'estimate':>8} {'properties':>10}  ok")
        for row in report["proofs"]:
            print(
                f"{row['job']:34} {row['seconds']:>8} {row['cpu_seconds']:>8} {row['estimate']:>8}"
                f" {row['properties']:>10}  {'yes' if row['ok'] else 'NO'}"
            )
        total = sum(row["seconds"] for row in report["proofs"])
        cpu = sum(row["cpu_seconds"] for row in report["proofs"])
        print(f"{'all jobs on one core':34} {total:>8.1f} {cpu:>8.1f}")
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
