"""The casebook in the docs: every clause page shows its case's boards, every case its page."""

from __future__ import annotations

import copy
import hashlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from castlerules_sphinx.pages import BOARDS, _coverage, board_file, casebook_page  # noqa: E402
from castlerules_sphinx.site import (  # noqa: E402
    GAMES,
    Cache,
    Site,
    SiteError,
    collect_cases,
    illustrate,
)

from castlerules import ascent, casebook  # noqa: E402
from castlerules.core import clauses_of  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    built = Site(root=ROOT)
    built.cases = collect_cases(Cache(tmp_path_factory.mktemp("cache"), "test"))
    for name, module in GAMES.items():
        built.clauses[name] = clauses_of(name)
        built.illustrations.update(illustrate(module, built))
    return built


def test_every_clause_is_illustrated_by_a_case_about_it_not_a_fallback(site: Site) -> None:
    for name in GAMES:
        for clause in clauses_of(name):
            ill = site.illustrations[clause.id]
            assert ill.case_key is not None
            assert casebook.case(ill.case_key).clauses[0] == clause.id
            assert ill.svg.startswith("<svg")
            assert "No single move" not in ill.caption


def test_a_clause_without_a_case_fails_the_build(site: Site) -> None:
    crippled = Site(root=ROOT, cases=tuple(s for s in site.cases if s.case.clauses[0] != "B9"))
    with pytest.raises(SiteError, match="B9"):
        illustrate(GAMES["throne"], crippled)


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_the_casebook_page_indexes_every_case_by_clause_and_question(site: Site, game: str) -> None:
    page = casebook_page(site, game)
    for case in casebook.cases(game):
        assert f".. _case-{case.key}:" in page
        assert f"_generated/records/{case.key}.json" in page
    assert "By clause" in page and "By question" in page
    # Each board is its own .svg file, shown by a figure (refusals: one board).
    boards = re.findall(r"^ *\.\. figure:: /_generated/boards/([0-9a-f]+\.svg)$", page, re.M)
    assert len(boards) >= 2 * len(casebook.cases(game)) - 20
    assert "<svg" not in page, "a board is inlined in the page"
    for name in set(boards):
        drawn = (BOARDS / name).read_text(encoding="utf-8")
        assert drawn.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
        assert f'class="castlerules-board {game}-board"' in drawn
        assert hashlib.sha256(drawn.encode("utf-8")).hexdigest()[:20] + ".svg" == name


def test_a_board_file_is_named_by_its_drawing(tmp_path: Path) -> None:
    """The same drawing, the same file; another drawing, another file; nothing half written."""
    svg = ascent.svg(ascent.new_game(3, seed=1))
    name, board_class = board_file(svg, tmp_path)
    assert board_file(svg, tmp_path) == (name, board_class)
    assert board_class == "castlerules-board ascent-board"
    assert (tmp_path / name).read_text(encoding="utf-8") == svg
    other, _ = board_file(svg.replace("</svg>", "<g/></svg>"), tmp_path)
    assert other != name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, other])


def test_reading_cases_show_both_readings_side_by_side(site: Site) -> None:
    page = casebook_page(site, "throne")
    section = page[page.index(".. _case-throne-reading-pass:") :]
    section = section[: section.index(".. _case-", 10)]
    assert "Rules(allow_pass=True)" in section
    assert "Seat 1 passes." in section and "**refused**" in section


def test_clause_pages_link_their_cases(site: Site) -> None:
    bare = copy.copy(site)
    bare.tests, bare.proofs, bare.citations = (), (), {}
    text = _coverage(bare, "throne", "B7")
    assert "Casebook (4)" in text and "case-throne-full-floor" in text
