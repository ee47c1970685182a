"""``python -m proofs``: run every proof, print a table (or ``--json``), exit 1 on failure.

Options: ``--fast`` (the smallest and largest player counts only), ``--jobs N``
(processes, default 2), ``--only PREFIX`` (tasks whose name starts with it,
repeatable), ``--json`` (machine-readable: one object per property, with its
traces), ``--save FILE`` (write that JSON to FILE as well as printing the table;
the docs build reads it, see ``docs/``), ``--long`` (the long run instead:
the Ascent model's equality with the kernel that does not fit in the proof run's
120 s, :data:`proofs.ASCENT_EQUAL_LONG`); with ``--long``, ``--record FILE`` (also
write the report with the key of its inputs to FILE, :mod:`proofs.record`) and
``--reuse FILE`` (print FILE's report instead of running, when its key is the key
of the sources at hand; else run, saying why).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from proofs import Result, record, run_all, source_hash


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
    parser.add_argument(
        "--record", metavar="FILE", help="with --long: write the run's record to FILE"
    )
    parser.add_argument(
        "--reuse",
        metavar="FILE",
        help="with --long: print FILE's report if its inputs are these sources', else run",
    )
    args = parser.parse_args(argv)
    if (args.record or args.reuse) and not (args.long and not args.only and not args.fast):
        parser.error("--record and --reuse are for the whole long run (--long, no --only, --fast)")
    said = sys.stderr if args.json else sys.stdout  # stdout stays one JSON document
    if args.reuse and not args.record:
        kept, why = record.reusable(Path(args.reuse))
        print(f"the long run: {why}", file=said, flush=True)
        if kept is not None:
            return _show(args, *kept, "recorded, not run again")
        print("the long run: running it", file=said, flush=True)
    started = time.perf_counter()

    def progress(done: int, jobs: int, name: str, results: Sequence[Result]) -> None:
        # One line per property as its job finishes.
        for r in results:
            print(
                f"[{done}/{jobs} jobs] {r.name} ({r.scope[:40]}) ... {r.verdict} {r.seconds:.1f} s",
                file=said,
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
    if args.record:
        _write(Path(args.record), record.make_record(payload))
    elif args.reuse and ok:
        print(
            f"the long run: to keep this result, bash dev prove-long --record {args.reuse}",
            file=said,
        )
    return _show(args, payload, results, f"{wall:.1f} s wall")


def _write(path: Path, payload: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


def _show(
    args: argparse.Namespace, payload: dict[str, Any], results: list[Result], how: str
) -> int:
    """Save and print a report (``payload``, its ``results`` read back); 0 if it passed."""
    if args.save:
        _write(Path(args.save), payload)
    if args.json:
        print(json.dumps(payload, indent=2))
    else:
        print(table(results))
        failed = [r for r in results if not r.ok]
        for r in failed:
            print(f"FAILED {r.name}: {r.detail}", file=sys.stderr)
        print(f"\n{len(results)} properties, {len(failed)} failed, {how}")
    return 0 if payload["ok"] and all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
