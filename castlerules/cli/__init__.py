"""The ``castlerules`` command: the main job (``demo``) and the dispute tools.

``castlerules demo``
    a seeded, annotated game of each engine between random players;
``castlerules explain GAME POSITION MOVE``
    is this move legal here, and why; what it does; ``--compare`` across readings;
``castlerules replay FILE``
    check a game record move by move (``--annotate``: what each move did);
``castlerules play GAME --players N``
    a hot-seat game in the terminal, with bots;
``castlerules study GAME --players N --games K --reading R1 --reading R2``
    paired games under several readings, on Dask, into DuckDB; ``study report FILE``;
``castlerules cases``
    the casebook: every clause and reading shown by a short, verified game.

Every command reports bad input in one line on standard error with a
non-zero exit status, never with a traceback; the statuses are
:data:`castlerules.cli.common.EXIT_STATUSES`, the same list in ``--help``, the
README and the docs.  No command replaces a file without ``--force``
(:data:`castlerules.cli.common.WRITE_POLICY`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from castlerules.cli import cases, common, conform, demo, explain, play, replay, study
from castlerules.core import RulesError

COMMANDS: dict[str, ModuleType] = {
    "demo": demo,
    "explain": explain,
    "replay": replay,
    "play": play,
    "study": study,
    "cases": cases,
    "conform": conform,  # issue 46
}
"""The sub-commands, by name; each module has ``add_parser(sub, name)``."""


class Parser(argparse.ArgumentParser):
    """An argument parser that reports a usage error in one line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split())
        self.exit(
            common.EXIT_BAD_INPUT,
            f"{self.prog}: {message} (see '{self.prog} --help')\n",
        )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``castlerules`` command; given one of
    :data:`COMMANDS`, the parser holds that sub-command alone, which reads a command line
    naming it exactly as the whole parser does (the same help, errors and values) at a
    fraction of the cost (the desk asks ``explain`` once per request)."""
    parser = Parser(
        prog="castlerules",
        description="The reference rules engine of Throne and Ascent.",
        epilog=common.exit_status_text() + " " + common.WRITE_POLICY,
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    for name, module in COMMANDS.items():
        if command is None or name == command:
            module.add_parser(sub, name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    named = words[0] if words and words[0] in COMMANDS else None
    args = build_parser(named).parse_args(words)
    name = f"castlerules {args.command}"
    try:
        status: int = args.run(args)
    except RulesError as err:
        print(f"{name}: {common.safe_error(err)}", file=sys.stderr)
        return common.EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (``castlerules ... | head``): not an error.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return common.EXIT_OK
    except KeyboardInterrupt:
        print(f"\n{name}: interrupted", file=sys.stderr)
        return common.EXIT_INTERRUPTED
    except Exception as err:
        if os.environ.get("CASTLERULES_DEBUG"):
            raise
        print(
            f"{name}: internal error ({type(err).__name__}: {common.safe_error(err)}); "
            "this is a bug in castlerules: please report it "
            "(CASTLERULES_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return common.EXIT_INTERNAL
    return status
