"""``castlerules study``: does the reading matter over whole games?

``castlerules study GAME --players N --games K --reading R1 --reading R2 [...]``
    plays game ``0..K-1`` under every reading, paired (same seeds, same bots'
    streams), on Dask (a ``LocalCluster`` of ``--workers`` processes, or the
    cluster at ``--scheduler ADDRESS``), into the DuckDB file ``--out``
    (default ``study-GAME-N.duckdb``), with a progress bar; then writes the
    report next to it (``--no-report`` to skip).  Run it again with more
    games to extend the file (or to finish an interrupted run); the study file
    is extended, never replaced, and a report page that exists already is
    refused unless ``--force``.
``castlerules study report FILE [--out PAGE]``
    writes the HTML report of a study file.

A reading is written ``[NAME:] [PRESET] [+ option=value ...]``, the preset and
options of ``--rules``/``--option`` (``ORIGINAL``, ``pass: allow_pass=true``,
``SEED + placement_floors=2,3,4,5``); ``--rules``/``--option`` given outside
any reading apply to every reading.  Bots: ``--bots KIND`` for every seat,
``--bot SEAT=KIND`` for one (as ``play``).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import Any

from castlerules.bots import FACTORIES, check_kind
from castlerules.cli import common
from castlerules.core import ArgumentError, RulesError

DEFAULT_BOT = "greedy"
"""The bot of every seat unless ``--bots``/``--bot`` say otherwise."""


def add_parser(sub: Any, name: str) -> None:
    """Register the ``study`` sub-command."""
    parser = sub.add_parser(
        name,
        help="paired games under two or more readings: does the reading matter?",
        description=textwrap.fill(
            "Play the same seeded games under two or more readings of the rules (same "
            "deals, same bots' draws), on Dask, into a DuckDB file, and report how much the "
            "readings change the winner, the scores, the length and the clauses that fire. "
            "'castlerules study report FILE' writes the HTML report of a study file.",
            78,
        ),
        epilog="examples:\n"
        "  castlerules study throne --players 4 --games 2000 --reading SEED --reading ORIGINAL\n"
        "  castlerules study throne --players 4 --games 500 --reading SEED \\\n"
        "      --reading 'pass: allow_pass=true' --bots montecarlo --scheduler 127.0.0.1:8786\n"
        "  castlerules study report study-throne-4.duckdb",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="throne or ascent (or: report)")
    parser.add_argument("file", metavar="FILE", nargs="?", help="with 'report': the study file")
    parser.add_argument("--players", type=int, help="number of players")
    parser.add_argument("--games", type=int, help="games per reading (in all, with the file's)")
    parser.add_argument(
        "--reading",
        metavar="[NAME:] PRESET + name=value",
        action="append",
        default=[],
        help="a reading to compare (give two or more)",
    )
    common.add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        metavar="KIND",
        default=DEFAULT_BOT,
        help=f"the bot of every seat: {', '.join(FACTORIES)} (default: {DEFAULT_BOT})",
    )
    parser.add_argument(
        "--bot", metavar="SEAT=KIND", action="append", default=[], help="the bot of one seat"
    )
    parser.add_argument("--seed", type=int, default=0, help="game i has seed SEED + i (default 0)")
    parser.add_argument("--out", metavar="FILE", help="the study file (or, with report, the page)")
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler (tcp://host:port)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="processes of the local Dask cluster (default 2; 0: no Dask, this process)",
    )
    parser.add_argument("--batch", type=int, default=20, help="games per task (default 20)")
    parser.add_argument(
        "--engine",
        choices=("auto", "scalar", "batch"),
        default="auto",
        help="scalar: one game at a time; batch: many at once (Throne, random bots; the same "
        "rows); auto (default): the batch where it applies, JAX is installed, --batch is "
        "1024 or more and a reading has 4096 games or more per worker",
    )
    parser.add_argument(
        "--compile-cache",
        metavar="DIR",
        help="where the batch keeps its compiled loops between runs (JAX's persistent "
        "compilation cache; default: $CASTLERULES_COMPILE_CACHE, else "
        "~/.cache/castlerules/jax, or $JAX_COMPILATION_CACHE_DIR when you set it); "
        "'off': compile every run",
    )
    parser.add_argument("--no-report", action="store_true", help="do not write the report")
    common.add_force_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def _bots(players: int, every: str, texts: list[str]) -> tuple[str, ...]:
    kinds = [every.strip().lower()] * players
    for seat, kind in common.seat_kinds(players, texts).items():
        kinds[seat] = kind
    for kind in kinds:
        check_kind(kind)
    return tuple(kinds)


def run(args: argparse.Namespace) -> int:
    """Run ``castlerules study``."""
    if args.game.lower() == "report":
        return _report(args)
    if args.file is not None:
        raise ArgumentError(f"unexpected argument {args.file!r} (a study takes --out FILE)")
    from castlerules.study.games import Study, parse_reading

    module = common.game_module(args.game)
    if args.players is None:
        raise ArgumentError("--players is required")
    if args.games is None:
        raise ArgumentError("--games is required")
    try:
        module.new_game(args.players)
    except RulesError as err:
        raise ArgumentError(f"{module.NAME}: {common.safe_error(err)}") from None
    base_options = common.parse_options(module, args.option)
    base_preset = common.preset_of(module, args.rules) if args.rules else None
    readings = tuple(parse_reading(module, t, base_preset, base_options) for t in args.reading)
    study = Study(
        game=module.NAME,
        players=args.players,
        bots=_bots(args.players, args.bots, args.bot),
        readings=readings,
        seed=args.seed,
    )
    study.check()
    out = args.out if args.out is not None else f"study-{module.NAME}-{args.players}.duckdb"
    if not out.strip():
        raise ArgumentError("--out is empty: give the study file's name")
    if os.path.isdir(out):
        raise ArgumentError(f"--out {out!r} is a directory: give the study file's name")
    target = None
    if not args.no_report:  # the study file is extended; its report is written at the end
        target = common.check_output_file(
            str(_page(out, None)), "report", force=args.force, inputs=(out,)
        )
    from castlerules.study.run import run_study

    _compile_cache(args.compile_cache, args.engine, study)
    summary = run_study(
        out,
        study,
        args.games,
        scheduler=args.scheduler,
        workers=args.workers,
        engine=args.engine,
        batch=args.batch,
        progress=not args.quiet,
    )
    where = f"{summary.workers} Dask workers" if summary.workers else "this process"
    print(
        f"{out}: {summary.played} games played in {summary.seconds:.1f} s, "
        f"{summary.startup:.1f} s of it starting ({summary.games_per_s:.1f} games/s, {where}); "
        f"{summary.total} games in the file"
    )
    status = common.EXIT_OK
    if target is not None:
        from castlerules.study.report import report_html

        written = common.write_file(target, report_html(out))
        print(f"report: {common.shown(written.path)}")
        if written.kept is not None:
            status = common.EXIT_BAD_INPUT
    sys.stdout.flush()
    return status


def _compile_cache(choice: str | None, engine: str, study: Any) -> None:
    """Turn on JAX's persistent compilation cache for a study the batch may play (the
    compiled loop is most of a short study's time: a later run reads it from the
    folder).  A folder the user named (``--compile-cache``, the variable) that cannot
    be made is an ArgumentError; the default one, a warning (the study runs,
    compiling)."""
    from castlerules.study.games import batchable

    if engine == "scalar" or not batchable(study.data()):
        return
    if choice is None:
        if os.environ.get("JAX_COMPILATION_CACHE_DIR"):
            return  # the user's own JAX setting stands
        choice = os.environ.get("CASTLERULES_COMPILE_CACHE") or None
    if choice is not None and choice.strip().lower() == "off":
        return
    try:
        from castlerules.batch import compile_cache, default_cache
    except ImportError:  # no numpy: the batch is not played
        return
    try:
        compile_cache(choice if choice is not None else default_cache())
    except ArgumentError as err:
        if choice is not None:
            raise
        print(f"castlerules: warning: {err}; the batch compiles every run", file=sys.stderr)


def _report(args: argparse.Namespace) -> int:
    if args.file is None:
        raise ArgumentError("study report needs the study FILE")
    if not args.file.strip():
        raise ArgumentError("study report: the study FILE is empty")
    from castlerules.study.report import report_html

    target = common.check_output_file(
        str(_page(args.file, args.out)), "report", force=args.force, inputs=(args.file,)
    )
    written = common.write_file(target, report_html(args.file))
    print(f"report: {common.shown(written.path)}")
    return common.EXIT_BAD_INPUT if written.kept is not None else common.EXIT_OK


def _page(study_file: str, out: str | None) -> str:
    """Where the report of ``study_file`` goes: ``out``, else the study file's name with
    .html (refused where that is the study file itself)."""
    if out is not None:
        return out
    from castlerules.study.report import report_page

    return str(report_page(study_file))
