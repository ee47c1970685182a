"""The docs extension's building blocks: clause lookup in sources, re-export homes, RST text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from castlerules_sphinx import home_of, rst  # noqa: E402
from castlerules_sphinx.pages import linked  # noqa: E402
from castlerules_sphinx.scan import clause_ids_in, scan_citations, scan_tests  # noqa: E402
from castlerules_sphinx.site import collect_options  # noqa: E402

from castlerules import ascent, throne  # noqa: E402
from castlerules.core import CLAUSES  # noqa: E402


def test_clause_ids_are_read_as_whole_words_only() -> None:
    assert clause_ids_in("floor full (B7); see B10 and A1, not B17 or XB7 or B7x", CLAUSES) == (
        "B7",
        "B10",
        "A1",
    )


def test_tests_are_found_by_the_clause_in_their_name_or_docstring() -> None:
    found = scan_tests(ROOT, CLAUSES)
    mine = {t.name: t for t in found if t.path == "tests/docs/test_svg.py"}
    assert mine["test_a7_protected_card_above_its_ceiling_is_marked"].clauses == ("A7",)
    assert mine["test_b10_b13_candidate_and_eliminated_are_marked"].clauses == ("B10", "B13")
    assert all(t.anchor.startswith("test-tests-") for t in found)
    assert len({t.anchor for t in found}) == len(found)


def test_engine_citations_point_at_functions() -> None:
    cites = scan_citations(ROOT, "throne", "B15", skip=("svg.py",))
    assert cites
    assert all(c.path.startswith("castlerules/throne/") for c in cites)
    assert not any(c.path.endswith("svg.py") for c in cites)


@pytest.mark.parametrize(
    ("target", "context", "home"),
    [
        ("castlerules.throne.Rules", None, "castlerules.throne.rules.Rules"),
        ("castlerules.throne.apply", None, "castlerules.throne.transitions.apply"),
        ("Rules", "castlerules.ascent", "castlerules.ascent.rules.Rules"),
        ("NOTES", "castlerules.throne", "castlerules.throne.rules.NOTES"),
        ("castlerules.core.CLAUSES", None, "castlerules.core.clauses.CLAUSES"),
        ("Move", "castlerules.ascent.state", "castlerules.ascent.moves.Move"),
        ("castlerules.throne.Rules.preset", None, "castlerules.throne.rules.Rules.preset"),
    ],
)
def test_reexported_names_are_sent_to_their_home(
    target: str, context: str | None, home: str
) -> None:
    assert home_of(target, context) == home


@pytest.mark.parametrize(
    ("target", "context"),
    [
        ("castlerules.throne.rules.Rules", None),  # already home
        ("enum.Enum", "castlerules.ascent.rules"),  # not ours
        ("int", None),
    ],
)
def test_other_names_are_left_alone(target: str, context: str | None) -> None:
    assert home_of(target, context) is None


def test_rst_escaping_keeps_markup_out() -> None:
    assert rst.escape("a *b* `c` |d| _e_ [f] <g>") == (
        "a \\*b\\* \\`c\\` \\|d\\| \\_e\\_ \\[f\\] \\<g\\>"
    )
    assert rst.literal("x ``y``") == "``x ''y''``"
    assert rst.title("B7 · x", "-").splitlines()[1] == "------"
    table = rst.list_table(["A", "B"], [["1", "2"]])
    assert "* - A" in table and "  - 2" in table


def test_clause_ids_in_brackets_become_links() -> None:
    assert linked("protected (A7); see (A3, A6)") == (
        "protected (:clause:`A7`); see (:clause:`A3`, :clause:`A6`)"
    )
    assert linked("seat B7x (Z9)") == "seat B7x (Z9)"


def test_options_know_their_clauses_from_docs_and_notes() -> None:
    ascent_options = {o.name: o for o in collect_options(ascent)}
    assert "A13" in ascent_options["upper_half"].clauses
    assert "A7" in ascent_options["allow_exposing_split"].clauses
    assert ascent_options["favours_per_move"].presets == (("GENEROUS", None),)
    throne_options = {o.name: o for o in collect_options(throne)}
    assert "B15" in throne_options["bonus_points"].clauses
    assert throne_options["placement_floors"].presets == (("ORIGINAL", (2, 3, 4, 5)),)
