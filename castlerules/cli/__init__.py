"""The ``castlerules`` command: the main job (``demo``) and the dispute tools.

Every command reports bad input in one line on standard error with a
non-zero exit status, never with a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from castlerules.cli import demo
from castlerules.core import RulesError

COMMANDS = {"demo": demo}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``castlerules`` command."""
    parser = argparse.ArgumentParser(
        prog="castlerules",
        description="The reference rules engine of Throne and Ascent.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        module.add_parser(sub, name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except RulesError as err:
        print(f"castlerules {args.command}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status
