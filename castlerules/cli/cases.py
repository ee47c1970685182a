"""``castlerules cases``: the casebook on the command line.

``castlerules cases [--game G] [--clause C] [--option O]``
    list the cases (key, clauses, length in plies, statement);
``castlerules cases show KEY [--svg DIR]``
    replay a case and print what it shows, in the engine's own words
    (``--svg``: write its before/after boards to ``DIR``);
``castlerules cases export DIR``
    write each case's game as a record (``castlerules replay --annotate`` reads it;
    a record that exists already is refused, nothing is written, unless ``--force``);
``castlerules cases search [--all] [--only KEY]``
    search again the cases whose game is missing or no longer shows them
    (``--all``: every case) and update ``found.json``;
``castlerules cases verify``
    replay and check every case (exit status 1 if one fails).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from castlerules import casebook, records
from castlerules.casebook import report, store
from castlerules.cli import common
from castlerules.core import ArgumentError


def add_parser(sub: Any, name: str) -> None:
    """Register the ``cases`` sub-command."""
    parser = sub.add_parser(
        name,
        help="the casebook: list, show, export, search and verify the cases",
        description="Every clause and reading shown by a real, short game, verified by replay.",
        epilog="examples:\n"
        "  castlerules cases --clause B7\n"
        "  castlerules cases show throne-full-floor --svg .\n"
        "  castlerules cases export records/ && castlerules replay --annotate "
        "records/throne-tie.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _filters(parser)
    parser.add_argument("--json", action="store_true", help="list as JSON")
    parser.set_defaults(run=run_list)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    show = actions.add_parser("show", help="replay a case and print what it shows")
    show.add_argument("key", metavar="KEY")
    show.add_argument("--svg", metavar="DIR", help="write KEY-before.svg, KEY-after.svg... there")
    show.add_argument("--moves", action="store_true", help="print every move's events too")
    common.add_force_argument(show)
    show.set_defaults(run=run_show)
    export = actions.add_parser("export", help="write each case's game as a record")
    export.add_argument("directory", metavar="DIR")
    _filters(export)
    common.add_force_argument(export)
    export.set_defaults(run=run_export)
    search = actions.add_parser("search", help="search again what changed; update found.json")
    search.add_argument("--all", action="store_true", help="search every case from scratch")
    search.add_argument("--only", action="append", default=[], metavar="KEY")
    search.set_defaults(run=run_search)
    verify = actions.add_parser("verify", help="replay and check every case")
    verify.set_defaults(run=run_verify)


def _filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("throne", "ascent"))
    parser.add_argument("--clause", metavar="ID", help="cases about this clause (B7, A13...)")
    parser.add_argument("--option", metavar="NAME", help="cases whose rules set this option")


def _chosen(args: argparse.Namespace) -> tuple[casebook.Case, ...]:
    chosen = casebook.cases(
        getattr(args, "game", None), getattr(args, "clause", None), getattr(args, "option", None)
    )
    if not chosen:
        raise ArgumentError("no case matches these filters")
    return chosen


def _case(key: str) -> casebook.Case:
    try:
        return casebook.case(key)
    except KeyError:
        near = [c.key for c in casebook.CASES if key in c.key][:5]
        hint = f"; did you mean {', '.join(near)}?" if near else "; 'castlerules cases' lists them"
        raise ArgumentError(f"unknown case {key!r}{hint}") from None


def run_list(args: argparse.Namespace) -> int:
    known = store.load()
    chosen = _chosen(args)
    if args.json:
        data = [
            {
                "key": c.key,
                "game": c.game,
                "kind": c.kind,
                "clauses": list(c.clauses),
                "statement": c.statement,
                "settles": c.settles,
                "plies": known[c.key].plies if c.key in known else None,
            }
            for c in chosen
        ]
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return common.EXIT_OK
    for c in chosen:
        plies = f"{known[c.key].plies:>3}" if c.key in known else "  ?"
        print(f"{c.key:<38} {' '.join(c.clauses):<12} {c.kind:<8} {plies}  {c.statement}")
    print(f"{len(chosen)} cases")
    return common.EXIT_OK


def _shown(key: str) -> casebook.Shown:
    try:
        return casebook.show(_case(key).key)
    except casebook.CaseError as err:
        raise ArgumentError(str(err)) from None


def run_show(args: argparse.Namespace) -> int:
    shown = _shown(args.key)
    case = shown.case
    out = [
        f"{case.key}: {case.statement}",
        f"clauses: {', '.join(case.clauses)}",
        f"settles: {case.settles}",
        f"rules: {case.rules_code(0)}"
        + (f"  versus  {case.rules_code(1)}" if case.versus is not None else ""),
        f"game: {report.summary(shown)}",
        f"moves: {' '.join(shown.found.moves) or '(none)'}",
    ]
    if args.moves:
        for moment in shown.moments:
            out.append(f"move {moment.ply}: seat {moment.seat} plays {moment.text}")
            out += report.outcome_lines(moment)
    out += report.focus_lines(shown)
    out += ["the referee's view (from the engine):"]
    out += [f"  {line}" for line in report.referee_lines(shown)]
    targets: list[records.Target] = []
    drawings: list[tuple[str, str]] = []
    if args.svg is not None:
        if not args.svg.strip():
            raise ArgumentError("--svg is empty: give a directory ('.' for this one)")
        module = case.module
        drawings = [
            (
                os.path.join(
                    args.svg, f"{case.key}-{('before', 'after', 'versus')[min(k, 2)]}.svg"
                ),
                module.svg(state, caption=caption, **extra),
            )
            for k, (caption, state, extra) in enumerate(report.diagrams(shown))
        ]
        targets = common.check_output_files((p for p, _ in drawings), "diagram", force=args.force)
    print("\n".join(out))
    status = common.EXIT_OK
    if args.svg is not None:
        for target, (_, svg) in zip(targets, drawings, strict=True):
            written = common.write_file(target, svg)
            print(f"wrote {common.shown(written.path)}")
            if written.kept is not None:
                status = common.EXIT_BAD_INPUT
    return status


def run_export(args: argparse.Namespace) -> int:
    directory = args.directory
    if not directory.strip():
        raise ArgumentError("the directory is empty: give one ('.' for this one)")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as err:
        raise ArgumentError(f"cannot create {directory!r}: {err.strerror}") from None
    texts: list[tuple[str, str]] = []
    for c in _chosen(args):
        shown = _shown(c.key)
        readings = (0, 1) if c.versus is not None else (0,)
        for which in readings:
            suffix = "-versus" if which else ""
            path = os.path.join(directory, f"{c.key}{suffix}.json")
            texts.append((path, records.dumps(shown.record(which))))
    targets = common.check_output_files((p for p, _ in texts), "record", force=args.force)
    status = common.EXIT_OK
    for target, (_, text) in zip(targets, texts, strict=True):
        if common.write_file(target, text).kept is not None:
            status = common.EXIT_BAD_INPUT
    print(f"wrote {len(texts)} records to {common.shown(directory)}")
    return status


def run_search(args: argparse.Namespace) -> int:
    chosen = [_case(k) for k in args.only] or list(casebook.CASES)
    tick = time.perf_counter()
    known = store.load()
    found, done = store.refresh(
        chosen, known, everything=args.all, progress=lambda s: print(s, file=sys.stderr)
    )
    known.update(found)
    live = {c.key for c in casebook.CASES}
    store.save({k: v for k, v in known.items() if k in live})
    missing = [k for k, v in done.items() if v.startswith("NOT FOUND")]
    searched = sum(1 for v in done.values() if v.startswith("search"))
    print(
        f"{len(done)} cases: {searched} searched, {len(done) - searched - len(missing)} kept, "
        f"{len(missing)} not found, in {time.perf_counter() - tick:.1f} s"
    )
    if missing:
        print(f"castlerules cases: no game found for {', '.join(missing)}", file=sys.stderr)
        return common.EXIT_ILLEGAL
    return common.EXIT_OK


def run_verify(_args: argparse.Namespace) -> int:
    tick = time.perf_counter()
    known = store.load()
    failed = []
    for c in casebook.CASES:
        try:
            casebook.show(c.key, known)
        except casebook.CaseError as err:
            failed.append(c.key)
            print(f"castlerules cases: {err}", file=sys.stderr)
    total = len(casebook.CASES)
    seconds = time.perf_counter() - tick
    print(f"{total - len(failed)}/{total} cases verified in {seconds:.1f} s")
    return common.EXIT_ILLEGAL if failed else common.EXIT_OK
