"""``castlerules conform GAME -- COMMAND [ARGS...]``: check another engine against the reference.

Starts the engine, checks its ``hello``, then plays the casebook's games, every
game of small scopes, seeded random and Hypothesis-chosen games until
``--games`` or ``--seconds``, comparing after every move (see
:mod:`castlerules.conform`).  The first disagreement is shrunk and reported
with its clause, the position before it, what each side said and a replay
command.  ``castlerules conform vectors DIR`` writes the test vectors.

Exit status: 0 the engine agrees on everything tried (``--readings all``: with
at least one reading); 1 a disagreement or a protocol fault (with its report);
2 bad input to the kit (no such command, bad options).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from castlerules import records
from castlerules.cli import common
from castlerules.core import ArgumentError

USAGE = (
    "castlerules conform GAME [--rules PRESET] [--option NAME=VALUE] [--readings all] "
    "[--games N] [--seconds S] [--json] ... -- COMMAND [ARGS...]\n"
    "       castlerules conform vectors DIR [--force]"
)


def add_parser(sub: Any, name: str) -> None:
    """Register the ``conform`` sub-command."""
    parser = sub.add_parser(
        name,
        usage=USAGE,
        help="check another engine (any language) against the reference, over a JSON-lines "
        "protocol; 'conform vectors DIR' writes test vectors",
        description=textwrap.fill(
            "Start the engine COMMAND, speak the conformance protocol with it (one JSON object "
            "a line; see the documentation's page 'Check your engine') over its standard input "
            "and output, and compare it with the reference after every "
            "move: legal moves, refusals of illegal moves (with their clause), the seat to act, "
            "the end, scores and winners. Games: the casebook's (every clause), every game of "
            "small scopes, then seeded random and Hypothesis-chosen games until --games or "
            "--seconds. The first disagreement is shrunk to a short game and reported with the "
            "position before it, what each side said, the clause and a replay command. Exit "
            "status: 0 the engine agrees on everything tried (--readings all: with at least "
            "one reading); 1 a disagreement or a protocol fault; 2 bad input to the kit.",
            78,
        ),
        epilog="examples:\n"
        "  castlerules conform throne -- node examples/engines/throne.js\n"
        "  castlerules conform throne --rules ORIGINAL -- node examples/engines/throne.js\n"
        "  castlerules conform throne --readings all -- node throne.js --built-for ORIGINAL\n"
        "  castlerules conform ascent --json -- python3 examples/engines/ascent.py\n"
        "  castlerules conform vectors vectors/\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="throne or ascent (or 'vectors')")
    _add_options(parser)
    parser.add_argument(
        "rest",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND [ARGS...]",
        help="the engine's command line, after '--' (for 'vectors': the directory)",
    )
    parser.set_defaults(run=run)


def _add_options(parser: argparse.ArgumentParser) -> None:
    common.add_rules_arguments(parser)
    parser.add_argument(
        "--readings",
        choices=["all"],
        help="check every reading of the register and say which ones the engine agrees with",
    )
    parser.add_argument(
        "--games",
        type=_count,
        default=100,
        metavar="N",
        help="random and Hypothesis-chosen games at most (default 100)",
    )
    parser.add_argument(
        "--seconds",
        type=_seconds,
        default=60.0,
        metavar="S",
        help="time for the small scopes and the random games (default 60; the casebook's "
        "games are always all played)",
    )
    parser.add_argument(
        "--shrink-seconds",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="time to shrink a disagreement (default 30)",
    )
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=5.0,
        metavar="S",
        help="the longest wait for each answer of the engine (default 5)",
    )
    parser.add_argument(
        "--seed", type=common.seed_argument, default=0, help="seed of the random games (default 0)"
    )
    parser.add_argument(
        "--sample",
        type=_sample,
        default=1,
        metavar="K",
        help="illegal moves tried in each position (default 1)",
    )
    parser.add_argument(
        "--phases",
        type=_phases,
        default=None,
        metavar="LIST",
        help="the sources of games, comma-separated (default casebook,scopes,random,hypothesis)",
    )
    parser.add_argument(
        "--replay",
        metavar="PLAYERS:SEED:MOVES",
        help="play this one game (moves comma-separated), trying every illegal move at its end",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.add_argument("--force", action="store_true", help="vectors: " + common.FORCE_HELP)
    parser.add_argument(
        "--perft-depth",
        type=int,
        choices=range(1, 5),
        default=4,
        metavar="D",
        help="vectors: the deepest perft count written, 1-4 (default 4)",
    )


def _count(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise argparse.ArgumentTypeError(f"a whole number in 0..999999999, not {text[:40]!r}")
    return int(text)


def _number(text: str, low: float, high: float, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what}, not {text[:40]!r}") from None
    if not low <= value <= high:  # also refuses NaN
        raise argparse.ArgumentTypeError(f"{what}, not {text[:40]!r}")
    return value


def _seconds(text: str) -> float:
    return _number(text, 0, 10**7, "a number of seconds in 0..10^7")


def _timeout(text: str) -> float:
    value = _number(text, 0, 3600, "a number of seconds in (0, 3600]")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"a number of seconds in (0, 3600], not {text[:40]!r}")
    return value


def _sample(text: str) -> int:
    if not text.isdigit() or int(text) > 1000:
        raise argparse.ArgumentTypeError(f"a whole number in 0..1000, not {text[:40]!r}")
    return int(text)


def _phases(text: str) -> tuple[str, ...]:
    from castlerules.conform import PHASES

    names = tuple(p.strip() for p in text.split(",") if p.strip())
    for name in names:
        if name not in PHASES:
            raise argparse.ArgumentTypeError(
                f"unknown phase {name[:40]!r}; the phases are: {', '.join(PHASES)}"
            )
    return names


class _Options(argparse.ArgumentParser):
    """The options given after GAME: errors are ArgumentErrors (one line, exit status 2)."""

    def error(self, message: str) -> NoReturn:
        raise ArgumentError(" ".join(message.split()))


def _split(rest: Sequence[str]) -> tuple[list[str], list[str]]:
    """The options after GAME, and the engine's command after ``--``.

    (argparse drops a ``--`` that directly follows GAME: what is left then is the command.)
    """
    words = list(rest)
    if "--" in words:
        at = words.index("--")
        return words[:at], words[at + 1 :]
    if words and not words[0].startswith("-"):
        return [], words
    return words, []


def _options(args: argparse.Namespace, before: list[str], positional: str | None) -> Any:
    parser = _Options(prog="castlerules conform", add_help=False)
    _add_options(parser)
    if positional is not None:
        parser.add_argument(positional)
    parser.set_defaults(**{k: v for k, v in vars(args).items() if k not in ("rest", "run")})
    return parser.parse_args(before)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """A SIGTERM (or SIGHUP) ends the check like Control-C: the engine is ended too."""

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    saved: list[tuple[signal.Signals, Any]] = []
    with contextlib.suppress(ValueError):  # not the main thread: leave the signals alone
        for sig in (signal.SIGTERM, signal.SIGHUP):
            saved.append((sig, signal.signal(sig, interrupt)))
    try:
        yield
    finally:
        for sig, handler in saved:
            signal.signal(sig, handler)


def run(args: argparse.Namespace) -> int:
    """Check the engine (or write the vectors); the exit status."""
    before, command = _split(args.rest)
    if args.game == "vectors":
        if "--" in args.rest:
            raise ArgumentError("conform vectors takes a directory, not a command after '--'")
        options = _options(args, list(args.rest), "directory")
        return _vectors(options)
    module = common.game_module(args.game)
    options = _options(args, before, None)
    if not command:
        raise ArgumentError(
            "no engine command: put it after '--', such as "
            "castlerules conform throne -- node examples/engines/throne.js"
        )
    from castlerules.conform import PHASES, Progress, check

    if options.readings and (options.rules or options.option):
        raise ArgumentError("--readings all checks every reading: give no --rules or --option")
    if options.readings and options.replay:
        raise ArgumentError("--replay plays one game under one reading: not with --readings")
    rules = None  # the default reading, and the casebook's games under every reading
    if options.rules or options.option:
        preset = common.preset_of(module, options.rules)
        rules = records.build_rules(module, preset, common.parse_options(module, options.option))
    progress = None if options.quiet else Progress.to_stderr()
    with _terminate_as_interrupt():
        report = check(
            module.NAME,
            command,
            rules=rules,
            all_readings=options.readings == "all",
            games=options.games,
            seconds=options.seconds,
            shrink_seconds=options.shrink_seconds,
            timeout=options.timeout,
            seed=options.seed,
            sample=options.sample,
            phases=options.phases or PHASES,
            replay=options.replay,
            progress=progress,
        )
    if options.json:
        sys.stdout.write(report.json() + "\n")
    else:
        sys.stdout.write(report.text())
    return common.EXIT_OK if report.agree else common.EXIT_ILLEGAL


def _vectors(options: Any) -> int:
    from castlerules.conform import vectors

    written = vectors.write(options.directory, force=options.force, perft_depth=options.perft_depth)
    status = common.EXIT_OK
    for path, kept in written:
        if kept is None:
            sys.stdout.write(f"wrote {path}\n")
        else:
            sys.stderr.write(
                f"castlerules conform: {kept!r} appeared while the vectors were computed: "
                f"kept; written to {path!r} instead\n"
            )
            status = common.EXIT_BAD_INPUT
    return status
