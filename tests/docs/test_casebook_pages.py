"""The casebook in the docs: every clause page shows its case's boards, every case its page."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from castlerules_sphinx.pages import _coverage, casebook_page  # noqa: E402
from castlerules_sphinx.site import (  # noqa: E402
    GAMES,
    Cache,
    Site,
    SiteError,
    collect_cases,
    illustrate,
)

from castlerules import casebook  # noqa: E402
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
    assert page.count("<svg") >= 2 * len(casebook.cases(game)) - 20  # refusals: one board


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
