"""The built site, looked at as a reader would: headless Chromium on the HTML pages.

The site is built once per session (or reused, see :func:`site`), then one
Chromium per module (driven by Playwright) opens pages on ``file://`` URLs:

- the DOM after the pages' scripts ran checks that every clause section
  carries its anchors (``#b7``, ``#clause-b7``), its French text and a board
  drawn by ``svg()`` (an image of its own ``.svg`` file); that the search
  finds ``A9`` and ``B15`` first;
- a screenshot of a clause anchor checks that the page is painted and that
  the board's own colours are on screen (so the SVG really renders);
- measures taken in the page check that nothing is wider than a phone's
  screen or than its column.

Screenshots are kept in ``artifacts/docs/`` (git-ignored; CI keeps them as
artifacts).  The test is skipped, saying why, only when no Chromium is
installed (Debian: ``apt-get install chromium``); with
``CASTLERULES_REQUIRE_CHROMIUM=1`` (set by CI) a missing Chromium fails it.
"""

from __future__ import annotations

import fcntl
import html
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from castlerules.core import CLAUSES

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ARTIFACTS = ROOT / "artifacts" / "docs"

pytestmark = pytest.mark.slow


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _sources_newer_than(stamp: float) -> bool:
    roots = [DOCS, ROOT / "castlerules", ROOT / "proofs"]
    for base in roots:
        for path in base.rglob("*"):
            skipped = ("_build", "_generated", "__pycache__", "node_modules")
            if any(part in path.parts for part in skipped):
                continue
            suffixes = (".py", ".rst", ".css", ".txt", ".js", ".mjs")  # .js: the desk's script
            if path.suffix in suffixes and path.stat().st_mtime > stamp:
                return True
    return False


@pytest.fixture(scope="session")
def site() -> Path:
    """The built HTML site.

    ``$CASTLERULES_DOCS_HTML`` if set; else ``docs/_build/html`` (what ``bash
    dev docs`` builds) if it is newer than every source; else a fresh build
    into ``docs/_build/html-test``, with warnings as errors like ``bash dev
    docs``, whose proof table holds only the Throne witnesses of the fast
    profile (a few seconds; ``bash dev docs`` has the whole table).
    """
    given = os.environ.get("CASTLERULES_DOCS_HTML")
    if given:
        path = Path(given)
        assert (path / "index.html").is_file(), f"CASTLERULES_DOCS_HTML={given} has no index.html"
        return path
    built = DOCS / "_build"
    built.mkdir(parents=True, exist_ok=True)
    # One build for all pytest-xdist workers: the first one builds, the others wait
    # for it and then find the site up to date.  CI's docs build, which runs beside the
    # tests, holds the same lock until it is done (.ci/run): the tests wait for its site.
    with (built / ".site-test.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            for out in (built / "html", built / "html-test"):
                index = out / "index.html"
                if index.is_file() and not _sources_newer_than(index.stat().st_mtime):
                    return out
            out = built / "html-test"
            _build(out)
            return out
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build(out: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "-n",
        "--keep-going",
        "-q",
        "-b",
        "html",
        str(DOCS),
        str(out),
    ]
    # A small proof run, so that the proof page has witnesses to draw.
    saved = out.parent / "proofs-test.json"
    prove = [sys.executable, "-m", "proofs", "--fast", "--jobs", "1", "--only", "throne: witnesses"]
    done = subprocess.run(
        [*prove, "--save", str(saved)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, f"the witnesses are not proved:\n{done.stdout}\n{done.stderr}"
    env = {**os.environ, "CASTLERULES_PROOFS_JSON": str(saved)}
    env.pop("CASTLERULES_DOCS_WITHOUT_PROOFS", None)
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=600, check=False, env=env
    )
    assert done.returncode == 0, f"the site does not build:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module's pages (Playwright drives Debian's browser,
    as the desk's test does): a page each look, in a context of its own."""
    binary = _chromium()
    if binary is None:
        reason = "Chromium is not installed (apt-get install chromium): cannot look at the site"
        if os.environ.get("CASTLERULES_REQUIRE_CHROMIUM") == "1":
            pytest.fail(f"{reason}, and CASTLERULES_REQUIRE_CHROMIUM=1 (CI) requires it")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=binary,
            args=["--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-quic"],
        )
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def _page(chromium: Any, size: tuple[int, int] = (1280, 1800)) -> Iterator[Any]:
    """A fresh page (its own context: no cache or storage shared between looks) of the
    window size given; motion is reduced, as the theme scrolls smoothly to an anchor
    otherwise (castlerules.css) and a screenshot taken mid-scroll shows nothing."""
    width, height = size
    context = chromium.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        yield page
    finally:
        context.close()


def _open(page: Any, url: str) -> None:
    """Load ``url``: its frames, scripts, images and fonts."""
    page.goto(url, wait_until="load")
    page.evaluate("() => document.fonts.ready.then(() => true)")


def dump_dom(chromium: Any, url: str) -> str:
    """The page's DOM after its scripts ran (the search page fills its results by script)."""
    with _page(chromium) as page:
        _open(page, url)
        if "search.html?q=" in url:
            # Sphinx's search says it is done in its summary line, found or not.
            page.wait_for_function(
                "() => { const s = document.querySelector('#search-results .search-summary');"
                " return s !== null && /Search finished|did not match/.test(s.textContent); }"
            )
        return str(page.content())


def screenshot(
    chromium: Any, url: str, name: str, harness: Path, size: tuple[int, int] = (1280, 1800)
) -> Path:
    """A screenshot of ``url`` as a reader sees it, kept in ``artifacts/docs/name``.

    The page is shown in a full-window iframe of a small harness page, as a reader's
    window shows it: the iframe scrolls to the URL's fragment (``throne.html#b15``) and
    is painted whole.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / name
    target.unlink(missing_ok=True)
    width, height = size
    holder = harness / f"{name}.html"
    holder.write_text(
        '<!DOCTYPE html><html><body style="margin:0;overflow:hidden">'
        f'<iframe src="{html.escape(url)}" title="{html.escape(name)}" '
        f'style="border:0;width:{width}px;height:{height}px"></iframe></body></html>',
        encoding="utf-8",
    )
    with _page(chromium, size) as page:
        _open(page, holder.as_uri())
        page.screenshot(path=str(target))
    assert target.is_file() and target.stat().st_size > 0
    return target


# --------------------------------------------------------------------------- pixels


def read_png(path: Path) -> tuple[int, int, Any]:
    """Width, height and the RGB pixels (a numpy array, rows by columns by 3) of a
    screenshot, decoded by Pillow."""
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB"))
    height, width, _ = pixels.shape
    return width, height, pixels


def colours(path: Path) -> dict[tuple[int, int, int], int]:
    """How many pixels of each colour (every 2nd pixel of every 2nd row, for speed)."""
    _w, _h, pixels = read_png(path)
    rgb = pixels[::2, ::2].reshape(-1, 3).astype(np.uint32)
    packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]  # one number per colour
    found, counts = np.unique(packed, return_counts=True)
    return {
        (int(c >> 16), int((c >> 8) & 0xFF), int(c & 0xFF)): int(n)
        for c, n in zip(found, counts, strict=True)
    }


def _near(found: dict[tuple[int, int, int], int], hex_colour: str, tolerance: int = 6) -> int:
    want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return sum(
        n
        for c, n in found.items()
        if all(abs(a - b) <= tolerance for a, b in zip(c, want, strict=True))
    )


def _boards(site: Path, dom: str, game: str, page: str = "") -> list[str]:
    """The boards of ``game`` a page shows: each an ``<img>`` of its own ``.svg`` file,
    which must exist and be the engine's drawing (an ``<svg>`` of that game's board)."""
    found = re.findall(rf'<img[^>]*class="castlerules-board {game}-board"[^>]*>', dom)
    base = (site / page).parent if page else site
    for tag in found:
        source = re.search(r'src="([^"]+)"', tag)
        assert source, f"a board without its file: {tag}"
        alt = re.search(r'alt="([^"]+)"', tag)
        assert alt and alt.group(1).strip(), f"a board without alt text: {tag}"
        path = source.group(1)
        target = base / path
        assert target.is_file(), f"the board {path} is missing"
        drawn = target.read_text(encoding="utf-8")
        assert drawn.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), path
        assert f'class="castlerules-board {game}-board"' in drawn, path
    return found


# --------------------------------------------------------------------------- tests


def _url(site: Path, page: str) -> str:
    return (site / page).as_uri()


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_every_clause_page_section_has_anchors_french_text_and_a_board(
    site: Path, chromium: Any, game: str
) -> None:
    dom = dump_dom(chromium, _url(site, f"{game}.html"))
    ids = set(re.findall(r'\sid="([^"]+)"', dom))
    text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
    text = " ".join(text.split())
    clauses = [c for c in CLAUSES.values() if c.game == game]
    for c in clauses:
        assert f"clause-{c.id.lower()}" in ids, f"no #clause-{c.id.lower()} anchor"
        assert c.id.lower() in ids, f"no #{c.id.lower()} anchor"
        first_line = " ".join(c.french.split("\n")[0].split())
        assert first_line in text, f"the French text of {c.id} is not on the page"
    boards = _boards(site, dom, game)
    assert len(boards) >= len(clauses), "a clause without its board"


@pytest.mark.parametrize(
    ("page", "anchor", "colour", "name"),
    [
        ("throne.html", "b7", "#e9e1cf", "throne-b7.png"),  # the castle's stone floors
        ("ascent.html", "a9", "#fff3d1", "ascent-a9.png"),  # the shaded upper half
        ("ascent.html", "clause-a13", "#fff3d1", "ascent-a13.png"),
        ("throne.html", "clause-b15", "#e9e1cf", "throne-b15.png"),
    ],
)
def test_clause_page_and_its_diagram_render(
    site: Path,
    chromium: Any,
    tmp_path: Path,
    page: str,
    anchor: str,
    colour: str,
    name: str,
) -> None:
    shot = screenshot(chromium, f"{_url(site, page)}#{anchor}", name, tmp_path)
    found = colours(shot)
    total = sum(found.values())
    white = _near(found, "#ffffff", 3)
    assert total - white > total * 0.05, f"{name}: the page is (almost) blank"
    assert _near(found, colour) > 200, f"{name}: the board's colour {colour} is not on screen"


def test_casebook_and_register_render_their_boards(
    site: Path, chromium: Any, tmp_path: Path
) -> None:
    for page in ("casebook/ascent-1.html", "register.html", "tutorial.html", "index.html"):
        name = page.replace("/", "-").replace(".html", ".png")
        shot = screenshot(chromium, _url(site, page), name, tmp_path)
        found = colours(shot)
        total = sum(found.values())
        assert total - _near(found, "#ffffff", 3) > total * 0.03, f"{page} is blank"
    # The casebook's cases are split in pages; the index (by clause, by question)
    # links every case to its page, and the pages draw its boards.
    index = dump_dom(chromium, _url(site, "casebook-ascent.html"))
    links = set(re.findall(r'href="(casebook/ascent-\d+\.html)#case-ascent-[a-z0-9-]+"', index))
    assert len(links) >= 2, "the casebook's index does not link to its pages"
    boards = []
    for page in sorted(links):
        text = (site / page).read_text(encoding="utf-8")
        boards += _boards(site, text, "ascent", page)
    assert len(boards) >= 2 * 30  # before and after, per case


def test_proof_page_draws_the_33_point_witness(site: Path, chromium: Any, tmp_path: Path) -> None:
    """B15: the proof table's 33-point witness is drawn from its engine position.

    The table is on proofs.html; each property's detail is on one of the
    pages it links to (proofs/throne-1.html...: the details are split in pages).
    """
    dom = dump_dom(chromium, _url(site, "proofs.html"))
    assert "witness" in dom
    link = re.search(r'href="(proofs/[^"#]+)#[a-z-]*throne-max-reachable-seed3"', dom)
    assert link, "the table does not link to the witness"
    page = link.group(1)
    detail = dump_dom(chromium, _url(site, page))
    assert "throne.max_reachable.seed3" in detail
    section = detail[detail.index('id="throne-max-reachable-seed3"') :]
    assert _boards(site, section[:200_000], "throne", page), "the witness has no board"
    shot = screenshot(
        chromium, f"{_url(site, page)}#throne-max-reachable-seed3", "proofs.png", tmp_path
    )
    assert _near(colours(shot), "#e9e1cf") > 200, "the castle of the witness is not on screen"


def test_every_page_stays_under_200_kb(site: Path) -> None:
    """Every page of the site is about 200 KB at most (issue 12: readable on a phone).

    The boards are files beside the pages, not inline SVG; the register and the
    proofs' details are split in pages.
    """
    pages = sorted(site.rglob("*.html"))
    assert {"register.html", "proofs.html", "casebook-ascent.html", "throne.html"} <= {
        p.name for p in pages
    }
    assert len([p for p in pages if p.parent.name in ("register", "proofs")]) > 2
    too_big = [
        f"{page.relative_to(site)} is {page.stat().st_size:,} bytes"
        for page in pages
        if page.stat().st_size >= 220_000
    ]
    assert not too_big, "; ".join(too_big)


def test_no_page_shows_raw_markup(site: Path) -> None:
    """No reStructuredText role is left unrendered (a role nested in *emphasis* is)."""
    raw = [
        str(page.relative_to(site))
        for page in sorted(site.rglob("*.html"))
        if ":clause:`" in page.read_text(encoding="utf-8")
    ]
    assert not raw, f"pages with a raw :clause: role: {', '.join(raw[:5])}"


@pytest.mark.parametrize(("query", "page"), [("A9", "ascent.html"), ("B15", "throne.html")])
def test_search_finds_a_clause_first(site: Path, chromium: Any, query: str, page: str) -> None:
    dom = dump_dom(chromium, f"{_url(site, 'search.html')}?q={query}")
    links = re.findall(r'<ul[^>]*class="search"[^>]*>.*?<a href="([^"]+)"', dom, re.S)
    assert links, f"the search for {query} found nothing"
    assert links[0] == f"{page}#clause-{query.lower()}"


# --------------------------------------------------------------------------- reference pages

REFERENCE_PAGES = (
    "cli.html",
    "records.html",
    "throne-rules.html",
    "ascent-rules.html",
    "glossary.html",
    "api/throne.html",
    "api/records.html",
)


def _text(dom: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", dom)).split())


@pytest.mark.parametrize("page", REFERENCE_PAGES)
def test_reference_page_renders(site: Path, chromium: Any, tmp_path: Path, page: str) -> None:
    name = page.replace("/", "-").replace(".html", ".png")
    shot = screenshot(chromium, _url(site, page), name, tmp_path, (1280, 1000))
    found = colours(shot)
    total = sum(found.values())
    assert total - _near(found, "#ffffff", 3) > total * 0.03, f"{page} is blank"


def test_cli_page_shows_every_command_and_its_run_examples(site: Path, chromium: Any) -> None:
    from castlerules.cli import COMMANDS

    dom = dump_dom(chromium, _url(site, "cli.html"))
    ids = set(re.findall(r'\sid="([^"]+)"', dom))
    text = _text(dom)
    for name in COMMANDS:
        assert f"cli-{name}" in ids, f"no section for castlerules {name}"
        assert f"$ castlerules {name}" in text, f"no example of castlerules {name}"
    assert "Exit status" in text and "EXIT_BAD_INPUT" in text


def test_rules_and_glossary_pages_hold_every_clause_and_term(site: Path, chromium: Any) -> None:
    sys.path.insert(0, str(DOCS / "_ext"))
    from castlerules_sphinx.rules import GLOSSARY

    for game in ("throne", "ascent"):
        text = _text(dump_dom(chromium, _url(site, f"{game}-rules.html")))
        for c in (c for c in CLAUSES.values() if c.game == game):
            assert " ".join(c.english.split()) in text, f"{c.id}'s English is missing"
    text = _text(dump_dom(chromium, _url(site, "glossary.html")))
    for term in GLOSSARY:
        assert term.french in text and term.english in text


def test_api_reference_uses_import_names_without_value_walls(site: Path) -> None:
    pages = {p.name: p.read_text(encoding="utf-8") for p in (site / "api").glob("*.html")}
    throne_page = pages["throne.html"]
    assert 'id="castlerules.throne.apply"' in throne_page
    assert 'id="castlerules.records.load"' in pages["records.html"]
    everything = "".join(pages.values())
    assert 'id="castlerules.throne.transitions.apply"' not in everything
    for private in ("rect", "line", "escape"):
        assert f'id="castlerules.core.svg.{private}"' not in everything
    # NOTES, CLAUSES, PLACES, BY_CODE: their size, not their repr
    assert "Note(clause=" not in everything and "Clause(id=" not in everything
    # A move or two in a doctest is fine (parse_move's); a table's repr prints dozens.
    assert everything.count("Place(character=") <= 3


def test_clause_pages_link_code_to_lines_of_the_highlighted_source(site: Path) -> None:
    page = (site / "throne.html").read_text(encoding="utf-8")
    links = re.findall(r'href="(_modules/[^"#]+)#L(\d+)"', page)
    assert len(links) >= 16, "the clause pages link to too few lines of the engine"
    for target, line in links[:40]:
        source = (site / target).read_text(encoding="utf-8")
        assert f'id="L{line}"' in source, f"{target} has no line {line}"


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_reference_interpretation_states_a_decision(site: Path, game: str) -> None:
    page = (site / f"{game}.html").read_text(encoding="utf-8")
    paragraphs = re.findall(r"Reference interpretation</p>\s*<p>(.*?)</p>", page, re.S)
    assert len(paragraphs) == sum(1 for c in CLAUSES.values() if c.game == game)
    summaries = {" ".join(html.unescape(c.summary).split()) for c in CLAUSES.values()}
    for paragraph in paragraphs:
        assert _text(paragraph) not in summaries, "the heading again, not the decision"


# --------------------------------------------------------------------------- on a phone


def page_width(chromium: Any, url: str, width: int = 390) -> int:
    """The width the page's content takes in a phone-wide window (its scrollWidth)."""
    with _page(chromium, (width, 800)) as page:
        _open(page, url)
        return int(page.evaluate("() => document.documentElement.scrollWidth"))


@pytest.mark.parametrize(
    "page", ["index.html", "throne.html", "cli.html", "api/throne.html", "glossary.html"]
)
def test_pages_fit_a_phone_screen(site: Path, chromium: Any, page: str) -> None:
    """At 390 px, nothing pushes the page sideways (wide tables and code scroll by themselves)."""
    assert page_width(chromium, _url(site, page)) <= 390


def test_a_clause_on_a_phone(site: Path, chromium: Any, tmp_path: Path) -> None:
    shot = screenshot(
        chromium, f"{_url(site, 'throne.html')}#b7", "phone-throne-b7.png", tmp_path, (390, 844)
    )
    width, _height, _rows = read_png(shot)
    assert width == 390
    found = colours(shot)
    total = sum(found.values())
    assert total - _near(found, "#ffffff", 3) > total * 0.05, "the phone page is blank"
    assert _near(found, "#000000", 60) > 500, "no text on the phone screen"
    dom = dump_dom(chromium, _url(site, "throne.html"))
    assert 'name="viewport" content="width=device-width' in dom


MEASURE = """() => {
  const out = [];
  for (const table of document.querySelectorAll("article table")) {
    const box = table.getBoundingClientRect();
    const room = table.parentElement.getBoundingClientRect();
    const head = table.rows.length ? table.rows[0].cells.length : 0;
    out.push([Math.round(box.right), Math.round(room.right), head,
              Math.round(document.documentElement.clientWidth)]);
  }
  return out;
}"""


@pytest.mark.parametrize("page", ["mutations.html", "cli.html", "register.html"])
def test_wide_tables_fit_the_page_at_1280_px(
    site: Path, chromium: Any, tmp_path: Path, page: str
) -> None:
    """At 1280 px every table of the page ends inside its column (none is cut off or needs
    a sideways scroll: the mutations table's last column is on screen), and a screenshot at
    1280 px shows the page painted."""
    with _page(chromium, (1280, 900)) as window:
        _open(window, _url(site, page))
        rows = window.evaluate(MEASURE)
    assert rows, f"{page}: no table found"
    for right, room, columns, view in rows:
        assert right <= room + 1 and right <= view, (
            f"{page}: a table of {columns} columns ends at {right} px, past its column "
            f"({room} px; the window is {view} px)"
        )
    shot = screenshot(chromium, _url(site, page), f"wide-{page}.png", tmp_path, (1280, 1400))
    width, _height, _rows = read_png(shot)
    assert width == 1280
    found = colours(shot)
    assert sum(found.values()) - _near(found, "#ffffff", 3) > sum(found.values()) * 0.03
