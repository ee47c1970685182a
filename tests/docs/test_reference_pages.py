"""The reference pages' generators: the command line, the API names, the test lists, the glossary.

These run without Sphinx (the generators are plain functions); the built
site is looked at in test_site_renders.py.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from castlerules_sphinx import api, audience, cli, rst, rules, scan  # noqa: E402
from castlerules_sphinx.pages import source_link  # noqa: E402
from castlerules_sphinx.site import SiteError  # noqa: E402

from castlerules import records  # noqa: E402
from castlerules.cli import build_parser  # noqa: E402
from castlerules.core import CLAUSES  # noqa: E402

# --------------------------------------------------------------------------- command line


def _all_examples() -> list[tuple[str, cli.Example]]:
    return [
        (name, example)
        for name, _ in cli.subcommands(build_parser())
        for example in cli.examples_of(name)
    ]


@pytest.mark.parametrize(
    ("command", "example"), _all_examples(), ids=[e.args for _, e in _all_examples()]
)
def test_every_example_of_the_cli_page_ends_with_the_status_it_shows(
    command: str, example: cli.Example
) -> None:
    ran = cli.run(example)
    assert ran.status == example.status, ran.stderr or ran.stdout
    assert example.args.split()[0] == command
    if ran.status == 2:
        # bad input: one line on standard error, nothing on standard output
        assert ran.stdout == "" and len(ran.stderr.strip().splitlines()) == 1
    else:
        assert ran.stdout.strip(), "an example that prints nothing shows nothing"


def test_examples_name_only_registered_commands() -> None:
    names = {name for name, _ in cli.subcommands(build_parser())}
    assert set(cli.EXAMPLES) <= names


@pytest.fixture(scope="module")
def cli_page() -> str:
    return cli.page()


def test_the_cli_page_lists_every_command_option_and_exit_status(cli_page: str) -> None:
    from castlerules.cli import common

    parser = build_parser()
    for name, sub in cli.subcommands(parser):
        assert f".. _cli-{name}:" in cli_page and f"castlerules {name}\n" in cli_page
        for action in sub._actions:
            if action.help == argparse.SUPPRESS or "-h" in action.option_strings:
                continue
            for flag in action.option_strings:
                assert f"``{flag}" in cli_page, f"{name} {flag} is not on the page"
    for status in (common.EXIT_OK, common.EXIT_ILLEGAL, common.EXIT_BAD_INPUT):
        assert f"* - {status}\n" in cli_page


def test_a_command_without_examples_is_shown_with_its_help() -> None:
    shown = cli.examples_of("no-such-command-yet")
    assert [e.args for e in shown] == ["no-such-command-yet --help"]
    ran = cli.run(cli.Example("explain --help", 0, ""))
    assert ran.status == 0 and "usage: castlerules explain" in ran.stdout


def test_an_example_with_the_wrong_status_fails_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = {"explain": (cli.Example("explain throne new:4 C6", 0, "wrongly said legal"),)}
    monkeypatch.setattr(cli, "EXAMPLES", wrong)
    with pytest.raises(cli.ExampleFailed, match="ended with status 1"):
        cli.page()


# --------------------------------------------------------------------------- records


def test_the_record_shown_on_the_records_page_replays() -> None:
    record = records.load(ROOT / "docs" / "examples" / "throne-record.json")
    assert record.game == "throne" and record.options == (("allow_pass", True),)
    assert [step.text for step in records.replay(record)] == list(record.moves)


# --------------------------------------------------------------------------- API names


def test_public_names_are_documented_once_under_the_name_people_import() -> None:
    owned = api.owners()
    for module_name in ("castlerules.throne", "castlerules.ascent", "castlerules.records"):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            holders = [m for m, names in owned.items() if name in names]
            assert holders, f"{module_name}.{name} is documented nowhere"
    assert "apply" in owned["castlerules.throne"] and "apply" in owned["castlerules.ascent"]
    # IllegalMove is castlerules.IllegalMove, not also castlerules.core.IllegalMove
    assert "IllegalMove" in owned["castlerules"]
    assert "IllegalMove" not in owned["castlerules.core"]


@pytest.mark.parametrize(
    ("defined", "public"),
    [
        ("castlerules.throne.transitions.apply", "castlerules.throne.apply"),
        ("castlerules.ascent.rules.Rules", "castlerules.ascent.Rules"),
        ("castlerules.throne.rules.Rules.preset", "castlerules.throne.Rules.preset"),
        ("castlerules.throne.notes.NOTES", "castlerules.throne.NOTES"),
        ("castlerules.core.errors.IllegalMove", "castlerules.IllegalMove"),
        ("castlerules.core.IllegalMove", "castlerules.IllegalMove"),
        ("castlerules.records.load", None),  # already its public name
        ("castlerules.throne.rules.Rules.no_such_field", None),
        ("castlerules.core.svg.rect", None),  # internal: no public name
    ],
)
def test_defining_names_map_to_public_names(defined: str, public: str | None) -> None:
    assert api.public_of(defined) == public


def test_the_svg_helpers_are_not_public() -> None:
    for names in api.owners().values():
        assert not {"rect", "line", "escape"} & set(names)


def test_a_long_value_is_summarised() -> None:
    lines = api._data_entry(
        "castlerules.throne", "NOTES", importlib.import_module("castlerules.throne").NOTES
    )
    text = "\n".join(lines)
    assert ":value:" not in text and "not shown" in text
    assert "interpretation decision" in text  # the docstring, read from the defining module
    short = "\n".join(api._data_entry("castlerules.throne", "NAME", "throne"))
    assert ":value: 'throne'" in short


# --------------------------------------------------------------------------- tests by clause


def test_b1_lists_no_ascent_test_that_names_the_card_b1() -> None:
    """B1: a clause ID counts by its context; the Bishop of seat 1 (card B1) is not clause B1."""
    found = {t.name: t for t in scan.scan_tests(ROOT, CLAUSES)}
    assert not any(t.path.startswith("tests/ascent/") and "B1" in t.clauses for t in found.values())
    assert found["test_a13_the_new_top_of_the_remainder_decides"].clauses == ("A13",)


@pytest.mark.parametrize(
    ("text", "game", "cited"),
    [
        ("floor full (B7); see (A9, A13)", None, ("B7", "A9", "A13")),
        ("A13 (rule 15): the Prince takes B1 off B1F1L1", None, ("A13",)),
        ("B10/B13: the candidate is marked", None, ("B10", "B13")),
        ("covers clauses A9 and A10", None, ("A9", "A10")),
        ("the card B1 moves; B7 in passing", None, ()),
        ("(B1 is a Bishop; A7)", "ascent", ("A7",)),
        ("Each of B1..B16 is named here.", None, ()),
    ],
)
def test_clause_ids_are_cited_by_context(
    text: str, game: str | None, cited: tuple[str, ...]
) -> None:
    assert scan.cited_ids(text, CLAUSES, game) == cited


def test_code_references_link_to_a_line_of_the_highlighted_source() -> None:
    link = source_link("castlerules/throne/transitions.py", 120)
    assert link == "`120 <_modules/castlerules/throne/transitions.html#L120>`__"
    assert source_link("castlerules/throne/__init__.py", 3) == "3"  # no source page


# --------------------------------------------------------------------------- glossary, rules


def test_every_glossary_term_is_in_its_clause_of_the_seed() -> None:
    rules.check_glossary()
    games = {t.game for t in rules.GLOSSARY}
    assert games == {"throne", "ascent"}


def test_a_glossary_term_missing_from_the_seed_fails_the_build() -> None:
    wrong = (rules.Term("throne", "échiquier", "chessboard", "B1"),)
    with pytest.raises(SiteError, match="not in the text of B1"):
        rules.check_glossary(wrong)


def test_the_rules_page_holds_every_clause_and_every_decision() -> None:
    from castlerules import ascent

    text = rules.rules_page("ascent", ascent)
    for clause in (c for c in CLAUSES.values() if c.game == "ascent"):
        assert f":clause:`{clause.id}`" in text
    for note in ascent.NOTES:  # every sentence, in the player's part or the programmer's
        part = audience.split(note, ascent)
        assert part.player or part.programmer
        for piece in (part.player, part.programmer):
            assert rst.escape(piece) in text


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_the_rules_pages_keep_the_players_reading_apart_from_the_api(game: str) -> None:
    """The player's text names no function or error of the library; those sentences are in
    the section for programmers, after the rules (and in a block of their own on the
    clause pages)."""
    module = importlib.import_module(f"castlerules.{game}")
    text = rules.rules_page(game, module)
    player, _, programmer = text.partition("For programmers\n---")
    assert programmer, "no section for programmers"
    pattern = audience.api_names(module)
    assert not pattern.search(player), pattern.search(player)
    for word in ("IllegalMove", "ArgumentError", "apply("):
        assert word not in player
    if game == "throne":
        b6 = player.split(":clause:`B6`", 1)[1].split(":clause:`B7`", 1)[0]
        assert "seat argument" not in b6 and "Placement phase" in b6
        assert "*The seat argument of apply()*: apply(state, move, seat=None)" in programmer
    # A mixed note is cut by sentence: the player keeps the rule, the API goes below.
    note = rules_note(module, "ties" if game == "throne" else "what the die decides")
    part = audience.split(note, module)
    if game == "ascent":
        # (the note opens with the seed's French, then the rule)
        assert "The die decides the first player only." in part.player
        assert part.programmer.startswith("new_game(first_player=...) overrides the roll")


def rules_note(module: Any, topic: str) -> Any:
    return next(n for n in module.NOTES if n.topic == topic)


def test_a_clause_pages_interpretation_puts_the_api_in_its_own_block() -> None:
    from types import SimpleNamespace

    from castlerules_sphinx import pages

    from castlerules import throne

    b6 = [n for n in throne.NOTES if n.clause == "B6"]
    site = SimpleNamespace(notes_of=lambda game, cid: tuple(b6), options_of=lambda g, c: ())
    text = pages._interpretation(site, "throne", "B6")  # type: ignore[arg-type]
    player, _, api = text.partition(".. container:: castlerules-api-notes")
    assert "**the seat argument of apply()**" in api and "ArgumentError" in api
    assert "apply(" not in player and "ArgumentError" not in player


# --------------------------------------------------------------------------- shell examples

_COMMAND = re.compile(r"^\s+(?:\$ |\.venv/bin/)?castlerules (.+?)\s*(?:#.*)?$")


def _command_lines() -> list[tuple[str, str]]:
    """Every ``castlerules ...`` line of the sh/console blocks of the hand-written pages."""
    found = []
    for page in sorted((ROOT / "docs").glob("*.rst")):
        in_block = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith(".. code-block::"):
                in_block = line.split("::")[1].strip() in ("sh", "console", "bash")
                continue
            if line and not line[0].isspace():
                in_block = False
            match = _COMMAND.match(line) if in_block else None
            if match:
                found.append((page.name, match.group(1)))
    return found


@pytest.mark.parametrize(("page", "args"), _command_lines())
def test_every_command_line_of_the_docs_runs(page: str, args: str, tmp_path: Path) -> None:
    """A command shown on a page is read and answered: 0 or 1, never bad input or a crash."""
    ran = cli.run(cli.Example(args, 0, ""), cwd=tmp_path)
    assert ran.status in (0, 1), f"{page}: castlerules {args}: {ran.stderr.strip()}"
    assert ran.stdout.strip()


def test_the_records_page_describes_exactly_the_fields_a_reader_accepts() -> None:
    """The schema table of docs/records.rst against the reader's own field lists."""
    page = (ROOT / "docs" / "records.rst").read_text(encoding="utf-8")
    table = page[page.index("The fields\n") : page.index("Reading a record runs no code")]
    shown = set(re.findall(r"^   \* - ``([a-z_]+)``$", table, re.M))
    accepted = {*records._FIELDS, *records._TAIL}
    for extra in records._OPTIONAL.values():
        accepted |= set(extra)
    assert shown == accepted


def test_the_cli_page_lists_every_exit_status_and_the_file_rule() -> None:
    from castlerules.cli import common

    text = cli.page()
    table = text.split("Exit status\n-----------", 1)[1].split("Files\n-----", 1)[0]
    for code, what in common.EXIT_STATUSES:
        assert f"* - {code}\n" in table and rst.escape(what) in table
    assert rst.escape(common.WRITE_POLICY) in text.split("Files\n-----", 1)[1]
