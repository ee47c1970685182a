"""Every internal link of the built site resolves: its page exists, and so does its anchor.

Issue 44: the dispute desk linked its clauses to ``ascent-rules.html#a2``, an
anchor that does not exist (the clause is at ``ascent.html#clause-a2``).  Here
every ``href`` and ``src`` of every HTML page of the site (the ``site``
fixture of ``test_site_renders.py``) that points inside the site is followed:
the file must exist and, for an ``.html`` target with a fragment, hold an
element with that ``id`` (or an ``<a name>``); a link to the desk
(``desk.html#case=KEY``, ``#game=...&position=...``) is a question, not an
anchor: its case must be one of the desk's case list.  Not checked: the
"[docs]" links from Sphinx viewcode's highlighted sources (``_modules/``) back
to the API pages, which are Sphinx's (three of them name an object by the
package that re-exports it, ``castlerules.check_seed``, where the API page
documents ``castlerules.core.check_seed``).  The desk's own clause links,
written by its script, are checked the same way (``desk.js`` writes
``throne.html#clause-b6`` and ``ascent.html#clause-a2``), for every clause.
"""

from __future__ import annotations

import html.parser
import importlib.util
import json
import re
import urllib.parse
from pathlib import Path

import pytest

from castlerules.core import CLAUSES

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "site_renders", Path(__file__).with_name("test_site_renders.py")
)
assert _spec is not None and _spec.loader is not None
_renders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_renders)
site = _renders.site

pytestmark = pytest.mark.slow


class _Page(html.parser.HTMLParser):
    """The ids of a page and the links it makes (tag, attribute, value)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("id",):
            if found.get(name):
                self.ids.add(str(found[name]))
        if tag == "a" and found.get("name"):
            self.ids.add(str(found["name"]))
        for name in ("href", "src"):
            value = found.get(name)
            if value and tag in ("a", "link", "img", "script", "iframe", "source"):
                self.links.append(value)


def _internal(value: str) -> bool:
    parts = urllib.parse.urlsplit(value)
    return not parts.scheme and not parts.netloc and not value.startswith(("mailto:", "#!"))


def broken_links(root: Path) -> list[str]:
    """Every internal link of the site at ``root`` that does not resolve, as
    ``page: link (why)``."""
    pages: dict[Path, _Page] = {}
    for path in sorted(root.rglob("*.html")):
        parser = _Page()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        pages[path.resolve()] = parser
    cases_file = root / "_static" / "desk" / "cases.json"
    cases = (
        {c["key"] for c in json.loads(cases_file.read_text())} if cases_file.is_file() else set()
    )
    broken = []
    for path, parser in pages.items():
        if "_modules" in path.relative_to(root.resolve()).parts:
            continue
        for link in parser.links:
            if not _internal(link):
                continue
            parts = urllib.parse.urlsplit(link)
            target = (
                (path.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path else path
            )
            if target.is_dir():
                target = target / "index.html"
            shown = f"{path.relative_to(root.resolve())}: {link}"
            if not target.is_file():
                broken.append(f"{shown} (no such file)")
                continue
            fragment = urllib.parse.unquote(parts.fragment)
            if target.name == "desk.html" and "=" in fragment:
                question = urllib.parse.parse_qs(parts.fragment)
                if "case" in question and question["case"][0] not in cases:
                    broken.append(f"{shown} (no casebook case {question['case'][0]!r})")
                continue
            if fragment and target.suffix == ".html" and fragment not in pages[target].ids:
                broken.append(f"{shown} (no anchor #{fragment})")
    return broken


def test_every_internal_link_of_the_site_resolves(site: Path) -> None:
    broken = broken_links(site)
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:40])


def test_the_desks_clause_links_resolve(site: Path) -> None:
    """The page and anchor desk.js writes for a clause exist, for every clause."""
    script = (ROOT / "docs" / "_static" / "desk.js").read_text(encoding="utf-8")
    assert 'page + "#clause-" + clause.toLowerCase()' in script
    pages = {"B": "throne.html", "A": "ascent.html"}
    for clause in CLAUSES:
        page = pages[clause[0]]
        assert f'"{page}"' in script
        text = (site / page).read_text(encoding="utf-8")
        assert re.search(rf'id="clause-{clause.lower()}"', text), f"{page}#clause-{clause.lower()}"


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    """The check itself: a missing page and a missing anchor are both reported."""
    (tmp_path / "a.html").write_text(
        '<p id="here"></p><a href="b.html#x">b</a><a href="a.html#here">a</a>'
    )
    (tmp_path / "b.html").write_text('<a href="c.html">c</a><a href="desk.html#case=nope">d</a>')
    (tmp_path / "desk.html").write_text("<p>desk</p>")
    assert broken_links(tmp_path) == [
        "a.html: b.html#x (no anchor #x)",
        "b.html: c.html (no such file)",
        "b.html: desk.html#case=nope (no casebook case 'nope')",
    ]
