"""The dispute desk in a real browser: Debian's Chromium, driven by Playwright.

The built site (the ``site`` fixture of ``tests/docs/test_site_renders.py``)
is served from loopback by the command the README and the desk page give.
Chromium opens ``desk.html``, waits for Pyodide and the engine, then plays
and asks as a player would, and compares what the page shows with the
library (``to_text``) and with the command line (``castlerules explain
--json``).  It also checks that the page asks nothing of any other address,
that the table view of Throne shows no seat's objective (B4), that a dispute
link opens the same answer, and what the page says without JavaScript.

The figures of the docs page (size, time to the first answer, later moves,
the engine's speed in the browser against CPython) are written to
``artifacts/docs/desk.json``; nothing here asserts a time.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from castlerules import ascent, desk, throne

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "docs"

_spec = importlib.util.spec_from_file_location(
    "site_renders", ROOT / "tests" / "docs" / "test_site_renders.py"
)
assert _spec is not None and _spec.loader is not None
_renders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_renders)
site = _renders.site  # the same built site as the other browser tests

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site on loopback, served as the docs say (the desk cannot run from file://)."""
    port = _free_port()
    # README and docs/desk.rst: python3 -m http.server --bind 127.0.0.1 -d docs/_build/html 8000
    command = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "-d", str(site)]
    server = subprocess.Popen(
        [*command, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "desk.html", timeout=2) as page:
                    assert page.status == 200
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("python -m http.server did not answer on loopback")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    binary = _renders._chromium()
    if binary is None:
        reason = "Chromium is not installed (apt-get install chromium): cannot try the desk"
        if os.environ.get("CASTLERULES_REQUIRE_CHROMIUM") == "1":
            pytest.fail(f"{reason}, and CASTLERULES_REQUIRE_CHROMIUM=1 (CI) requires it")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=binary, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def keep(**figures: Any) -> None:
    """Add figures to ``artifacts/docs/desk.json`` (the tests may run in two workers)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "desk.json"
    with (ARTIFACTS / ".desk.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
            data.update(figures)
            path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _open(browser: Any, url: str, *, script: bool = True) -> tuple[Any, list[str]]:
    context = browser.new_context(
        viewport={"width": 1280, "height": 1000}, java_script_enabled=script
    )
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    if script:
        page.wait_for_selector("#desk[data-ready]", timeout=120_000)
        assert page.get_attribute("#desk", "data-ready") == "1", page.inner_text("#desk-status")
    return page, requests


def _answer(page: Any) -> str:
    text: str = page.inner_text("#desk-answer")
    return text


def _cli(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "castlerules", "explain", *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def _new(page: Any, game: str, players: int, seed: int) -> None:
    page.select_option("#desk-game", game)
    page.fill("#desk-players", str(players))
    page.fill("#desk-seed", str(seed))
    page.click("#desk-new")


def _referee(page: Any) -> None:
    page.check('input[name="desk-view"][value="referee"]')


def test_throne_a_legal_and_an_illegal_move(browser: Any, served: str) -> None:
    page, requests = _open(browser, served + "desk.html")
    keep(first_answer_s=int(page.get_attribute("#desk", "data-first-answer-ms")) / 1000)
    _new(page, "throne", 4, 5)
    state = throne.new_game(4, seed=5)
    secrets = ["".join(sorted(throne.objective(state, s))) for s in range(4)]
    shown = page.inner_text("body")
    assert not [s for s in secrets if s in shown], "the table view shows an objective (B4)"
    assert not [s for s in secrets if s in page.inner_html("#desk-board")]
    # Play the first legal move by clicking it.
    first = throne.legal_moves(state)[0]
    started = time.perf_counter()
    page.click(f'#desk-moves button[data-move="{first}"]')
    keep(later_move_s=round(time.perf_counter() - started, 3))
    assert "LEGAL. What happened" in _answer(page)
    after = throne.apply(state, first)
    assert "Position after" not in _answer(page)  # the table view prints no notation
    assert not [s for s in secrets if s in page.inner_text("body")]
    # A link made at the table carries "?" for the objectives (B4), as explain reads them.
    link = page.get_attribute("#desk-link", "href")
    shared = urllib.parse.parse_qs(urllib.parse.urlparse(link).fragment)["position"][0]
    assert shared.split(" ")[11] == "?" and not [s for s in secrets if s in link]
    assert shared == desk.public_text(throne, after)
    _referee(page)
    assert page.input_value("#desk-position") == throne.to_text(after)
    # An illegal move, typed: the clause, its French text and a link to its page.
    page.fill("#desk-move", "C6")
    page.click("#desk-try")
    text = _answer(page)
    expected = _cli("throne", throne.to_text(after), "C6")
    assert page.get_attribute("#desk-answer", "data-clause") == expected["clause"] == "B6"
    assert expected["message"] in text
    assert expected["clause_text"]["french"] in text
    assert page.get_attribute("#desk-answer a.desk-clause", "href").endswith("throne-rules.html#b6")
    origin = served.rstrip("/")
    outside = [u for u in requests if not u.startswith((origin, "data:", "blob:"))]
    assert not outside, f"the desk asked other addresses: {outside}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "desk-throne.png"), full_page=True)
    page.context.close()


def test_ascent_by_clicking_a_card(browser: Any, served: str) -> None:
    page, _ = _open(browser, served + "desk.html")
    _new(page, "ascent", 3, 1)
    state = ascent.new_game(3, seed=1)
    move = ascent.legal_moves(state)[2]  # L1
    page.click(f'#desk-board [data-card="{move.card}"]')
    assert "LEGAL. What happened" in _answer(page)
    after = ascent.apply(state, move)
    assert page.input_value("#desk-position") == ascent.to_text(after)  # Ascent hides nothing
    page.fill("#desk-move", "P0")
    page.click("#desk-try")
    expected = _cli("ascent", ascent.to_text(after), "P0")
    assert page.get_attribute("#desk-answer", "data-clause") == expected["clause"]
    assert expected["message"] in _answer(page)
    # The engine's speed here against CPython's: the same perft.
    browser_perft = page.evaluate("window.castlerulesDesk.perft()")
    started = time.perf_counter()
    nodes = throne.perft(throne.new_game(4, seed=1), 4)
    cpython_ms = (time.perf_counter() - started) * 1000
    assert browser_perft["nodes"] == nodes
    keep(
        perft_nodes=nodes,
        perft_browser_ms=round(browser_perft["ms"], 1),
        perft_cpython_ms=round(cpython_ms, 1),
    )
    page.context.close()


def test_a_dispute_link_opens_the_same_answer(browser: Any, served: str) -> None:
    """A reading case of the casebook, sent as a link: the same answer, compared."""
    cases = json.loads((Path(_renders.DOCS) / "_generated" / "desk-cases.json").read_text())
    case = next(c for c in cases if c["compare"] and c["move"] and c["game"] == "throne")
    fragment = desk.fragment(case["game"], case["position"], case["move"], compare=True)
    page, _ = _open(browser, served + "desk.html#" + fragment)
    expected = _cli(case["game"], case["position"], case["move"], "--compare")
    text = _answer(page)
    if expected["legal"]:
        assert all(e["text"] in text for e in expected["events"])
    else:
        assert expected["message"] in text
    for reading in expected["compare"]["disagree"]:
        assert reading in text
    link = page.get_attribute("#desk-link", "href")
    assert urllib.parse.parse_qs(urllib.parse.urlparse(link).fragment)["move"] == [case["move"]]
    page.context.close()


def test_without_javascript(browser: Any, served: str) -> None:
    page, _ = _open(browser, served + "desk.html", script=False)
    text = page.inner_text("article")
    assert "The desk needs JavaScript" in text
    assert page.locator("img[src$='.svg']").count() >= 1  # the static diagram
    page.context.close()


def test_the_site_serves_the_runtime(site: Path) -> None:
    """Pyodide, both wheels and the case index are in the site; their size is kept."""
    out = site / "_static" / "desk"
    manifest = json.loads((out / "manifest.json").read_text())
    assert [w.split("-")[0] for w in manifest["wheels"]] == ["attrs", "castlerules"]
    for name, size in manifest["files"].items():
        assert (out / name).stat().st_size == size
    assert "pyodide/pyodide.asm.wasm" in manifest["files"]
    keep(size_mib=round(sum(manifest["files"].values()) / 2**20, 2), pyodide=manifest["pyodide"])


def test_try_it_from_a_clause_page(browser: Any, served: str) -> None:
    """The clause pages link to the desk with the case's position and move filled in."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(served + "throne.html")
    link = page.locator("a", has_text="Try it at the dispute desk").first
    href = link.get_attribute("href")
    key = urllib.parse.parse_qs(urllib.parse.urlparse(href).fragment)["case"][0]
    cases = json.loads((Path(_renders.DOCS) / "_generated" / "desk-cases.json").read_text())
    question = next(c for c in cases if c["key"] == key)
    link.click()
    page.wait_for_selector("#desk[data-ready]", timeout=120_000)
    assert page.input_value("#desk-case") == key
    expected = _cli("throne", question["position"], question["move"])
    text = _answer(page)
    if expected["legal"]:
        assert all(e["text"] in text for e in expected["events"])
    else:
        assert expected["message"] in text
    context.close()
