#!/usr/bin/env python3
"""How fast the conformance kit checks an engine through the protocol, and the kit's share.

Runs, side by side in one process and interleaved round by round (so that a
busy machine slows every variant alike), seeded random games only (the
kit's steady state: every move compared, one illegal move tried in each
position):

- ``throne.js``: the JavaScript Throne engine, through the protocol (a pipe);
- ``ascent.py``: the Python Ascent engine, through the protocol;
- ``reference``: castlerules itself as an in-process engine (no pipe, no
  process): what the kit costs with an engine that costs almost nothing.

For each: whole games per second, positions and requests per second, the
time per request, and the kit's own share of the time (the rest is the
round trip: writing a request, the engine's work, reading its answer).
Pin it to one core for figures that do not depend on the other core's load::

    taskset -c 1 .venv/bin/python examples/engines/throughput.py --games 40 --rounds 5

The figures published in docs/conform.rst come from this script.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from castlerules.conform import ReferenceEngine, check

HERE = Path(__file__).resolve().parent


def variants() -> dict[str, tuple[str, Any]]:
    node = shutil.which("node") or shutil.which("nodejs")
    out: dict[str, tuple[str, Any]] = {}
    if node is not None:
        out["throne.js (protocol)"] = ("throne", [node, str(HERE / "throne.js")])
    out["throne reference (in-process)"] = ("throne", ReferenceEngine())
    out["ascent.py (protocol)"] = ("ascent", [sys.executable, str(HERE / "ascent.py")])
    out["ascent reference (in-process)"] = ("ascent", ReferenceEngine())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="random games per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, interleaved")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in variants()}
    for round_number in range(args.rounds):
        for name, (game, engine) in variants().items():
            report = check(
                game,
                engine,
                games=args.games,
                seconds=10**6,
                phases=["random"],
                seed=round_number,
            )
            assert report.agree, report.text()
            tally = report.tally
            seconds = tally.seconds["random"]
            runs[name].append(
                {
                    "games_per_second": tally.games["random"] / seconds,
                    "positions_per_second": tally.positions / seconds,
                    "requests_per_second": tally.requests / seconds,
                    "microseconds_per_request": 1e6 * seconds / tally.requests,
                    "kit_share": report.kit_share,
                }
            )
    figures = {
        name: {key: statistics.median(r[key] for r in rows) for key in rows[0]}
        for name, rows in runs.items()
    }
    if args.json:
        print(json.dumps({"games": args.games, "rounds": args.rounds, "medians": figures}))
        return 0
    print(f"medians of {args.rounds} interleaved rounds of {args.games} random games each")
    print(f"{'engine':32} {'games/s':>8} {'positions/s':>12} {'µs/request':>11} {'kit share':>10}")
    for name, row in figures.items():
        print(
            f"{name:32} {row['games_per_second']:8.1f} {row['positions_per_second']:12.0f} "
            f"{row['microseconds_per_request']:11.0f} {row['kit_share']:10.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
