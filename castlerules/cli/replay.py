"""``castlerules replay FILE``: check a game record move by move.

Reads the record (strictly: see :mod:`castlerules.records`), then applies its
moves one by one.  The first move that cannot be read or is illegal stops the
replay: its number, its text, the rule that forbids it (with the clause ID)
are printed in one line on standard error, the exit status is 1, and the
position before it is printed with the ``castlerules explain`` command that
examines it.  ``--annotate`` prints every move with what it did.  A record
that cannot be read at all (corrupt, truncated, a newer format version) is
one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from castlerules import records
from castlerules.cli import annotate, common


def add_parser(sub: Any, name: str) -> None:
    """Register the ``replay`` sub-command."""
    parser = sub.add_parser(
        name,
        help="check a game record move by move; --annotate: what each move did",
        description=textwrap.fill(
            "Check every move of a game record (a castlerules JSON record; '-' reads "
            "standard input, at most 16 MiB). Stops at the first illegal move with the clause "
            "that forbids it. Exit status: 0 every move is legal (and the stored result "
            "matches); 1 an illegal or unreadable move, or a result that does not match; 2 a "
            "record that cannot be read (one line on standard error).",
            78,
        ),
        epilog="examples:\n"
        "  castlerules demo --game throne --record-dir .   # writes throne-seed7.json\n"
        "  castlerules replay throne-seed7.json\n"
        "  castlerules replay --annotate throne-seed7.json | less",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="the record ('-': standard input)")
    parser.add_argument(
        "--annotate", action="store_true", help="print the record with what each move did"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(run=run)


def load(path: str) -> records.Record:
    """Read a record from a file, or standard input for ``-``."""
    if path == "-":
        return records.loads(common.read_input("-", "record"))
    return records.load(path)


def run(args: argparse.Namespace) -> int:
    """Replay the record; 0 if every move is legal (and the result matches), else 1."""
    record = load(args.file)
    module = record.module
    write = sys.stdout.write
    state = records.start(record)
    steps: list[records.Step] = []
    if args.annotate and not args.json:
        annotate.header(record, write)
        annotate.start_line(module, state, write)
    try:
        for step in records.replay(record):
            steps.append(step)
            if args.annotate and not args.json:
                annotate.step_line(step, write)
            state = step.after
    except records.IllegalRecordedMove as err:
        if args.json:
            write(json.dumps(_data(record, steps, state, err), indent=2) + "\n")
        else:
            write(f"stopped at move {err.ply}; the position before it:\n")
            write(f"  {module.to_text(err.state)}\n")
            hint = common.shown(annotate.explain_hint(module, err.state, err.text))
            write(f"examine it with:\n  {hint}\n")
        print(f"castlerules replay: {common.safe_error(err)}", file=sys.stderr)
        return common.EXIT_ILLEGAL
    try:
        records.check_result(record, state)
    except records.RecordError as err:
        if args.json:
            write(json.dumps(_data(record, steps, state, err), indent=2) + "\n")
        print(f"castlerules replay: {common.safe_error(err)}", file=sys.stderr)
        return common.EXIT_ILLEGAL
    if args.json:
        write(json.dumps(_data(record, steps, state, None), indent=2) + "\n")
    elif args.annotate:
        annotate.footer(module, state, write)
    else:
        write(_summary(record, state) + "\n")
    return common.EXIT_OK


def _summary(record: records.Record, state: Any) -> str:
    module = record.module
    head = f"ok: {len(record.moves)} moves of {module.NAME}, all legal"
    if module.is_over(state):
        scores = ", ".join(str(s) for s in module.scores(state))
        winners = common.seat_list(module.winners(state))
        checked = " (as recorded)" if record.result is not None else ""
        return f"{head}; game over, scores {scores}{checked}; won by {winners}"
    return f"{head}; not over: seat {module.current_player(state)} to play"


def _data(
    record: records.Record,
    steps: list[records.Step],
    state: Any,
    error: records.RecordError | None,
) -> dict[str, Any]:
    module = record.module
    data: dict[str, Any] = {
        "game": module.NAME,
        "ok": error is None,
        "moves": [
            {
                "ply": s.ply,
                "seat": s.seat,
                "move": s.text,
                "events": common.event_data(s.events),
            }
            for s in steps
        ],
        "position": module.to_text(state),
        "over": module.is_over(state),
    }
    if module.is_over(state):
        data["scores"] = list(module.scores(state))
        data["winners"] = list(module.winners(state))
    if error is not None:
        data["error"] = common.safe_error(error)
        if isinstance(error, records.IllegalRecordedMove):
            data["illegal"] = {
                "ply": error.ply,
                "move": error.text,
                "seat": error.seat,
                "clause": error.clause,
                "position": module.to_text(error.state),
            }
    return data
