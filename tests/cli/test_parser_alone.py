"""A command line naming a sub-command is read by a parser that holds that sub-command
alone (:func:`castlerules.cli.build_parser` with its name, as :func:`castlerules.cli.main`
builds it): it must read every line exactly as the whole parser does."""

from __future__ import annotations

import argparse
import contextlib
import io
from typing import Any

import pytest

from castlerules.cli import COMMANDS, build_parser

LINES = {
    "demo": [[], ["--seed", "3"], ["--seed", "x"], ["--bogus"]],
    "explain": [
        ["--json", "--", "throne", "throne SEED 4 1", "A1"],
        ["--compare", "throne"],
        [],
        ["--json", "ascent", "-", "x", "--players", "nan"],
    ],
    "replay": [["game.json"], ["--annotate", "game.json"], [], ["--bogus", "x"]],
    "play": [["throne", "--players", "4"], ["ascent", "--players", "-1"], []],
    "study": [["throne", "--players", "4", "--games", "10"], ["report"], ["throne", "--games"]],
    "cases": [[], ["search"], ["--bogus"]],
    "conform": [["throne", "--", "node", "x.js"], ["ascent", "--json"], []],
}


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:  # argparse keeps its sub-parsers among its actions
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]  # type: ignore[no-any-return]
    raise AssertionError("no sub-commands")


def _read(parser: argparse.ArgumentParser, words: list[str]) -> tuple[Any, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = vars(parser.parse_args(words))
        except SystemExit as stop:
            return ("exit", stop.code), err.getvalue()
    args.pop("run", None)  # a function of the command's module: the same object either way
    return args, err.getvalue()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_sub_command_alone_reads_its_lines_as_the_whole_parser(name: str) -> None:
    whole, alone = build_parser(), build_parser(name)
    assert _subparser(alone, name).format_help() == _subparser(whole, name).format_help()
    for line in [*LINES[name], ["--help"]]:
        assert _read(alone, [name, *line]) == _read(whole, [name, *line]), line


def test_the_whole_parser_is_built_for_a_line_without_a_command() -> None:
    from castlerules.cli import main

    for words in ([], ["--bogus"], ["nosuch", "x"]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
            main(words)
        assert stop.value.code == 2
        assert _read(build_parser(), words)[1] == err.getvalue()


def test_a_planted_difference_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sub-command whose parser depended on its siblings would be caught."""
    from castlerules.cli import explain

    built = explain.add_parser

    def leaning(sub: Any, name: str) -> Any:
        made = built(sub, name)
        if "demo" not in sub.choices:  # built alone: an option goes missing
            sub.choices[name]._actions[-1].help = "changed"
        return made

    monkeypatch.setattr(explain, "add_parser", leaning)
    alone = _subparser(build_parser("explain"), "explain").format_help()
    assert alone != _subparser(build_parser(), "explain").format_help()
