"""``python -m proofs``: run every proof, print a table (or ``--json``), exit 1 on failure.

Options: ``--fast`` (the smallest and largest player counts only), ``--jobs N``
(processes, default 2), ``--only PREFIX`` (tasks whose name starts with it,
repeatable), ``--json`` (machine-readable: one object per property, with its
traces), ``--save FILE`` (write that JSON to FILE as well as printing the table;
the docs build reads it, see ``docs/``), ``--long`` (the long run instead:
the Ascent model's equality with the kernel that does not fit in the proof run's
120 s, :data:`proofs.ASCENT_EQUAL_LONG`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from proofs import Result, run_all, source_hash


def table(results: Sequence[Result]) -> str:
    """The report: property, game, clauses, method, result, seconds."""
    rows = [("property", "game", "clauses", "method", "result", "seconds")]
    for r in results:
        rows.append((r.name, r.game, " ".join(r.clauses), r.method, r.verdict, f"{r.seconds:.1f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--fast", action="store_true", help="fewer player counts")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default 2)")
    parser.add_argument("--only", action="append", default=[], help="task name prefix")
    parser.add_argument("--save", metavar="FILE", help="also write the JSON report to FILE")
    parser.add_argument(
        "--long", action="store_true", help="the long run (the rest of the model's equality)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()

    def progress(done: int, jobs: int, name: str, results: Sequence[Result]) -> None:
        # One line per property as its job finishes (stderr with --json, so that
        # stdout stays one JSON document).
        out = sys.stderr if args.json else sys.stdout
        for r in results:
            print(
                f"[{done}/{jobs} jobs] {r.name} ({r.scope[:40]}) ... {r.verdict} {r.seconds:.1f} s",
                file=out,
                flush=True,
            )

    results = run_all(
        fast=args.fast, jobs=args.jobs, only=args.only, progress=progress, long=args.long
    )
    wall = time.perf_counter() - started
    ok = all(r.ok for r in results)
    payload = {
        "ok": ok,
        "seconds": round(wall, 3),
        "mode": ("long " if args.long else "") + ("fast" if args.fast else "full"),
        "only": list(args.only),
        "source": source_hash(),
        "results": [r.to_json() for r in results],
    }
    if args.save:
        path = Path(args.save)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(payload, indent=2))
    else:
        print(table(results))
        failed = [r for r in results if not r.ok]
        for r in failed:
            print(f"FAILED {r.name}: {r.detail}", file=sys.stderr)
        print(f"\n{len(results)} properties, {len(failed)} failed, {wall:.1f} s wall")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
