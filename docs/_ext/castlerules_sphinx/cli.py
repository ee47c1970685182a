"""The command-line reference, generated from the ``castlerules`` argument parsers.

Every sub-command registered in :data:`castlerules.cli.COMMANDS` gets a
section: its usage line, description, every argument and option (flags,
metavariable, choices, default, help), its own epilog, and examples.  The
examples of :data:`EXAMPLES` are *run* when the page is built, in-process
through :func:`castlerules.cli.main`: the page shows their real output, and a
build whose example exits with another status than the one written here
fails.  ``tests/docs/test_cli_page.py`` runs them again as tests.  A command
without examples here (one added since) is shown with its ``--help``, run the
same way, so a new command appears on the page as soon as it is registered.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from castlerules import cli
from castlerules.cli import common
from castlerules_sphinx import rst

ROOT = Path(__file__).resolve().parents[3]
"""The repository root: examples run there (``docs/examples/...`` paths)."""

MAX_LINES = 40
"""An example's output is cut after this many lines on the page."""


@dataclass(frozen=True)
class Example:
    """One command line, what it shows, and the exit status it must end with."""

    args: str  # after "castlerules", shell syntax
    status: int
    says: str  # one sentence for the reader
    stdin: str | None = None


EXAMPLES: dict[str, tuple[Example, ...]] = {
    "demo": (
        Example(
            "demo --game ascent --players 2 --seed 3",
            0,
            "A seeded game between random players, annotated move by move.",
        ),
    ),
    "explain": (
        Example(
            "explain throne new:4 C6",
            1,
            "Placing on the 6th floor is refused: the clause, its text, in plain words.",
        ),
        Example("explain throne new:4 C1", 0, "A legal placement: what it does."),
        Example(
            "explain throne new:4 C1 --compare",
            0,
            "Legal in the reference reading; do other readings disagree?",
        ),
        Example(
            "explain ascent new:2:5 P0 --json",
            0,
            "The same answer as JSON, for a program.",
        ),
        Example(
            "explain throne new:4 hello",
            2,
            "Not a move of Throne at all: bad input, one line on standard error.",
        ),
        Example(
            "explain throne new:4 A-",
            1,
            "A referee's question: may A move down? No move of the notation, but the rules "
            "answer it (B9).",
        ),
        Example(
            "explain throne 'throne SEED 4 1 movement 1 H/BFI/CDJ/EL/AGKM/-/- - 3/3/3/3 - 0 ? "
            "- -' E+",
            1,
            "The position on the table, written without anyone's objectives (``?``): the "
            "answer does not depend on them, and says so.",
        ),
        Example(
            "explain throne 'throne SEED 4 1 election 1 I/AEGJ/CFHM/D/B/-/K L 3/2/3/3 y.yy 0 "
            "CDEJKM,?,ABCFHK,DEFGJL/?,?,?,?/?,?,?,? - -' yes",
            0,
            "Seat 1's objective is not given (``?``) and its Yes ends the round: the answer "
            "names what depends on that objective, and every score it could give.",
        ),
        Example(
            "explain ascent new:2 xB0 --after 'B0 P1'",
            0,
            "Seat 0 advanced B0, then seat 1 has just moved P1 to square 1: may seat 1 now "
            "take B0 as a favour?  ``--after`` plays the moves first, and shows the mid-turn "
            "position they lead to.",
        ),
    ),
    "replay": (
        Example(
            "replay docs/examples/throne-record.json",
            0,
            "Check a game record (the one shown on :doc:`records`) move by move.",
        ),
        Example(
            "replay --annotate docs/examples/throne-record.json",
            0,
            "The same record with what each move did.",
        ),
        Example(
            "replay no-such-record.json",
            2,
            "A file that cannot be read: one line on standard error.",
        ),
    ),
    "play": (
        Example(
            "play ascent --players 2 --bot 0=greedy --bot 1=random --seed 3 --no-save",
            0,
            "Two bots play a whole game (with human seats, each prompts on this terminal).",
            stdin="",
        ),
    ),
}
"""The examples of each command, run at build time and by the tests."""


@dataclass(frozen=True)
class Ran:
    """What an example printed and its exit status."""

    status: int
    stdout: str
    stderr: str


def run(example: Example, cwd: Path = ROOT) -> Ran:
    """Run ``castlerules ARGS`` in-process in ``cwd`` (the repository root); capture its output."""
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO(example.stdin or "")
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with (
            contextlib.chdir(cwd),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            try:
                status = cli.main(shlex.split(example.args))
            except SystemExit as done:  # argparse: --help, usage errors
                status = done.code if isinstance(done.code, int) else 2
    finally:
        sys.stdin = saved
    return Ran(status, out.getvalue(), err.getvalue())


def subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The sub-commands of the ``castlerules`` parser, in their order."""
    for action in parser._actions:  # argparse keeps them here, and only here
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def examples_of(name: str) -> tuple[Example, ...]:
    """The examples of a command (its ``--help`` when none is written here)."""
    return EXAMPLES.get(name) or (
        Example(f"{name} --help", 0, "No example is written for this command yet: its help."),
    )


class ExampleFailed(Exception):
    """An example did not end with the exit status the page says."""


def page() -> str:
    """The reStructuredText of the command-line reference."""
    parser = cli.build_parser()
    out = [".. This file is generated at build time from castlerules.cli; do not edit.\n\n"]
    out.append(_block("text", parser.format_usage().strip()))
    out.append(f"{rst.escape(parser.description or '')}\n\n")
    out.append(rst.title("Commands", "-"))
    out.append("\n")
    rows = [
        [f":ref:`{name} <cli-{name}>`", rst.escape(_help_of(parser, name))]
        for name, _ in subcommands(parser)
    ]
    out.append(rst.list_table(["Command", "What it does"], rows, [20, 80]))
    out.append(rst.labels("cli-exit-status"))
    out.append(rst.title("Exit status", "-"))
    out.append(
        "\nEvery command ends with one of these statuses "
        "(``castlerules.cli.common.EXIT_STATUSES``, the list that ``castlerules --help`` and "
        "the README give too):\n\n"
    )
    names = {
        value: name
        for name, value in vars(common).items()
        if name.startswith("EXIT_") and isinstance(value, int)
    }
    rows = [
        [str(code), rst.literal(names[code]), rst.escape(what)]
        for code, what in common.EXIT_STATUSES
    ]
    out.append(rst.list_table(["Status", "Name", "Meaning"], rows, [10, 24, 66]))
    out.append(
        "Bad input is reported in one line on standard error, never with a traceback.  "
        "Set ``CASTLERULES_DEBUG=1`` to see the traceback of an internal error.\n\n"
    )
    out.append(rst.labels("cli-files"))
    out.append(rst.title("Files", "-"))
    out.append(f"\n{rst.escape(common.WRITE_POLICY)}\n\n")
    out.append(
        "That holds for ``play --save``, ``demo --record-dir``, ``explain --svg``, "
        "``cases show --svg``, ``cases export`` and the HTML report of ``study``.  A study "
        "file (``study --out``) is extended, never replaced: running a study again adds "
        "games to it.  ``cases search`` updates the casebook's own ``found.json``, which is "
        "its job.\n\n"
    )
    for name, sub in subcommands(parser):
        out.append(_command(name, sub, parser))
    return "".join(out)


def _help_of(parser: argparse.ArgumentParser, name: str) -> str:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if name in (choice.dest, choice.metavar):
                    return " ".join((choice.help or "").split())
    return ""


def _block(language: str, text: str) -> str:
    body = "".join(f"   {line}\n" if line.strip() else "\n" for line in text.splitlines())
    return f".. code-block:: {language}\n\n{body}\n"


def _flags(action: argparse.Action) -> str:
    if not action.option_strings:
        return rst.literal(action.metavar or action.dest.upper())
    metavar = ""
    if action.nargs != 0:
        metavar = " " + (
            action.metavar
            if isinstance(action.metavar, str)
            else (
                "{" + ",".join(map(str, action.choices)) + "}"
                if action.choices
                else action.dest.upper()
            )
        )
    return ", ".join(rst.literal(f"{flag}{metavar}") for flag in action.option_strings)


def _details(action: argparse.Action) -> str:
    bits = [rst.escape(" ".join((action.help or "").split()))] if action.help else []
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        bits.append("One of " + ", ".join(rst.literal(str(c)) for c in action.choices) + ".")
    if action.required and action.option_strings:
        bits.append("Required.")
    if isinstance(action, argparse._AppendAction):
        bits.append("Repeatable.")
    if (
        action.default not in (None, False, argparse.SUPPRESS)
        and action.nargs != 0
        and "default" not in (action.help or "")
    ):
        bits.append(f"Default: {rst.literal(repr(action.default))}.")
    return " ".join(bits) or "\\-"


def _command(name: str, sub: argparse.ArgumentParser, parser: argparse.ArgumentParser) -> str:
    out = [rst.labels(f"cli-{name}")]
    out.append(rst.title(f"castlerules {name}", "-"))
    out.append(f"\n{rst.escape(_help_of(parser, name))}\n\n")
    out.append(_block("text", sub.format_usage().strip()))
    if sub.description:
        out.append(f"{rst.escape(sub.description)}\n\n")
    rows = [
        [_flags(action), _details(action)]
        for action in sub._actions
        if not isinstance(action, argparse._HelpAction)
    ]
    if rows:
        out.append(rst.list_table(["Argument", "Meaning"], rows, [30, 70]))
    if sub.epilog:
        out.append(_block("text", sub.epilog.strip()))
    out.append(".. rubric:: Examples, run when this page was built\n\n")
    for example in examples_of(name):
        ran = run(example)
        if ran.status != example.status:
            raise ExampleFailed(
                f"'castlerules {example.args}' ended with status {ran.status}, the CLI page "
                f"says {example.status}: {(ran.stderr or ran.stdout).strip()[-500:]}"
            )
        out.append(f"{example.says} Exit status {ran.status}.\n\n")
        lines = [f"$ castlerules {example.args}"]
        shown = (ran.stdout + ran.stderr).rstrip("\n").splitlines()
        if len(shown) > MAX_LINES:
            cut = len(shown) - MAX_LINES
            shown = [*shown[: MAX_LINES // 2], f"... ({cut} lines more) ...", *shown[-10:]]
        lines.extend(shown)
        out.append(_block("console", "\n".join(_printable(line) for line in lines)))
    return "".join(out)


def _printable(line: str) -> str:
    """A line of terminal output as text (escape sequences dropped, tabs expanded)."""
    return "".join(ch for ch in line.expandtabs() if ch.isprintable() or ch == " ")


def write(generated: Path) -> None:
    """Write ``cli.rst`` into the generated pages (the caller compares before writing)."""
    text = page()
    rst.write_if_changed(generated / "cli.rst", text)


__all__ = ["EXAMPLES", "Example", "ExampleFailed", "Ran", "examples_of", "page", "run", "write"]
