"""The batch against the engine on many random games: an equivalence benchmark.

``python benchmarks/bench_batch_equivalence.py`` plays ``--games N`` seeded
random games of each game (default 10,000) in batches of
:mod:`castlerules.batch` (the numpy backend, the one every reading runs on)
and, one game at a time, with the engine, driven by the same action numbers:
at every step, for every game,

- ``to_states`` is the engine's state;
- the legal action mask is the engine's legal moves (Throne: ``legal_codes``;
  Ascent: ``legal_moves`` by the batch's numbering);
- ``current_player`` and ``terminated`` are the engine's;
- in the step a game ends, ``rewards`` are the engine's final scores.

The games cover the readings of the differential benchmark
(``bench_differential.readings``: the default, every other reading of the
interpretation register, every preset not among them), each at every player
count; the games are split evenly between these pairs (game ``i`` of a pair
has seed ``--seed + i``).  Each pair's games are one batch: a batch steps all
its games together, and the numpy backend's cost is per step, not per game.

The terminal shows a progress line per batch (games done, games/s); the end
prints a table per game (readings, games, steps, positions compared,
mismatches, the tasks' seconds summed) and ``--json PATH`` keeps the result
with the command, the machine and the date.  The exit status is 1 when any mismatch was found.
``tests/batch/test_equivalence_bench.py`` runs a share of it in CI and shows
that it catches a planted mistake.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import bench_differential
import numpy as np

from castlerules import ascent, throne
from castlerules.throne.transitions import legal_codes

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("throne", "ascent")
MODULES: dict[str, Any] = {"throne": throne, "ascent": ascent}


def readings(game: str) -> list[tuple[str, Any]]:
    """The readings the differential benchmark plays (``bench_differential.readings``:
    the default, every other reading of the register, every preset not among them)."""
    return bench_differential.readings(bench_differential.GAMES[game])


def lockstep(
    game: str, rules: Any, players: int, seeds: Sequence[int], label: str = ""
) -> dict[str, Any]:
    """Play the games of ``seeds`` in one batch and with the engine, the same random
    action numbers; stop at the end or at the first difference (reported)."""
    from castlerules import batch

    module = MODULES[game]
    env = batch.make(game, players=players, rules=rules, size=len(seeds), backend="numpy")
    b = env.init(seeds=list(seeds))
    states = [module.new_game(players, rules, seed=s) for s in seeds]
    if game == "throne":
        moves = rules._derived.codes.moves

        def numbers(s: Any) -> list[int]:
            return sorted(legal_codes(s))

        def final(s: Any) -> list[int]:
            return list(throne.totals(s))
    else:
        moves = env.shape.moves
        number = {m: a for a, m in enumerate(moves)}

        def numbers(s: Any) -> list[int]:
            return sorted(number[m] for m in ascent.legal_moves(s))

        def final(s: Any) -> list[int]:
            return list(ascent.scores(s))

    rng = np.random.default_rng(int(seeds[0]))
    steps = positions = 0
    problem = ""
    while not problem:
        got = env.to_states(b)
        mask = np.asarray(b.legal_action_mask)
        seat = np.asarray(b.current_player)
        over = np.asarray(b.terminated)
        for i, s in enumerate(states):
            finished = module.is_over(s)
            who = -1 if finished else module.current_player(s)
            if got[i] != s:
                problem = f"game {seeds[i]}, step {steps}: to_states is not the engine's state"
            elif np.flatnonzero(mask[i]).tolist() != ([] if finished else numbers(s)):
                problem = f"game {seeds[i]}, step {steps}: the legal mask differs"
            elif int(seat[i]) != who or bool(over[i]) != finished:
                problem = f"game {seeds[i]}, step {steps}: the seat to act or the end differs"
            if problem:
                break
            positions += not finished
        if problem or over.all():
            break
        choice = (rng.random(mask.shape) * mask).argmax(axis=1)
        was_over = over.copy()
        b = env.step(b, choice)
        states = [
            s if module.is_over(s) else module.apply(s, moves[a])
            for s, a in zip(states, choice, strict=True)
        ]
        rewards = np.asarray(b.rewards)
        for i, s in enumerate(states):
            ends = module.is_over(s) and not was_over[i]
            want = final(s) if ends else [0] * players
            if rewards[i].tolist() != want:
                problem = f"game {seeds[i]}, step {steps}: rewards {rewards[i].tolist()} != {want}"
                break
        steps += 1
    return {
        "game": game,
        "reading": label,
        "players": players,
        "games": len(seeds),
        "steps": steps,
        "positions": positions,
        "mismatch": problem,
    }


def tasks(games: int, seed: int, game_names: Sequence[str]) -> list[dict[str, Any]]:
    """One task per (game, reading, player count): its seeds, ``games`` split evenly."""
    out = []
    for game in game_names:
        pairs = [(r, n) for r in readings(game) for n in MODULES[game].PLAYERS]
        for i, ((label, rules), players) in enumerate(pairs):
            share = games // len(pairs) + (i < games % len(pairs))
            if share:
                out.append(
                    {
                        "game": game,
                        "label": label,
                        "rules": rules,
                        "players": players,
                        "seeds": list(range(seed, seed + share)),
                    }
                )
    return out


def _run(task: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    row = lockstep(task["game"], task["rules"], task["players"], task["seeds"], task["label"])
    row["seconds"] = round(time.perf_counter() - started, 2)
    return row


def run(games: int, seed: int, jobs: int, game_names: Sequence[str]) -> dict[str, Any]:
    """Every task, on ``jobs`` processes, with a progress line per finished batch."""
    todo = tasks(games, seed, game_names)
    total = sum(len(t["seeds"]) for t in todo)
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    done = 0
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(jobs, 1)) as pool:
        for row in pool.map(_run, todo):
            rows.append(row)
            done += row["games"]
            rate = done / max(time.perf_counter() - started, 1e-9)
            print(
                f"batch equivalence: {done:,}/{total:,} games ({rate:,.0f} games/s): "
                f"{row['game']} {row['players']}p {row['reading']}"
                + (f": MISMATCH {row['mismatch']}" if row["mismatch"] else ""),
                file=sys.stderr,
                flush=True,
            )
    summary = {}
    for game in game_names:
        mine = [r for r in rows if r["game"] == game]
        summary[game] = {
            "readings": len({r["reading"] for r in mine}),
            "batches": len(mine),
            "player_counts": sorted({r["players"] for r in mine}),
            "games": sum(r["games"] for r in mine),
            "steps": sum(r["steps"] for r in mine),
            "positions": sum(r["positions"] for r in mine),
            "mismatches": sum(bool(r["mismatch"]) for r in mine),
            "seconds": round(sum(r["seconds"] for r in mine), 1),
        }
    return {
        "command": "python benchmarks/bench_batch_equivalence.py " + " ".join(sys.argv[1:]),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}",
        "jobs": jobs,
        "wall_seconds": round(time.perf_counter() - started, 1),
        "summary": summary,
        "rows": rows,
    }


def show(report: dict[str, Any]) -> None:
    print(
        f"{'game':>6} {'readings':>8} {'games':>7} {'steps':>7} {'positions':>10} "
        f"{'mismatches':>10} {'task s':>7}"
    )
    for game, s in report["summary"].items():
        print(
            f"{game:>6} {s['readings']:>8} {s['games']:>7,} {s['steps']:>7,} "
            f"{s['positions']:>10,} {s['mismatches']:>10} {s['seconds']:>7.1f}"
        )
    for row in report["rows"]:
        if row["mismatch"]:
            print(f"MISMATCH {row['game']} {row['reading']}: {row['mismatch']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--game", action="append", choices=GAMES, help="(repeatable)")
    parser.add_argument("--json", metavar="PATH", help="write the result here")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    report = run(args.games, args.seed, args.jobs, args.game or list(GAMES))
    show(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 1 if any(s["mismatches"] for s in report["summary"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
