"""The dispute desk in a real browser: Debian's Chromium, driven by Playwright.

The built site (the ``site`` fixture of ``tests/docs/test_site_renders.py``)
is served from loopback as the docs say (``python3 -m http.server``, here
with a line per request that counts the bytes sent).  One browser page does
what a referee at a table would, so that Pyodide loads only twice (4-8 s
each): open the desk (cold), settle disputes at 1280x800, go offline and
reload (the service worker answers), settle a dispute again, then the same
page at 390x844 (a phone): nothing clipped, no sideways scrolling, board text
of at least 12 px, every control at least 44x44 px.  axe-core (from npm)
checks both sizes: no serious or critical violation.  The screenshots are
kept in ``artifacts/desk/``.

Every defect of issue 44 that the page showed has a check here (named in
the comments).  The figures of the docs page (cold and warm first answer, a
later move, bytes downloaded, the engine's speed in the browser against
CPython) are written to ``artifacts/desk/desk.json``; nothing here asserts
a time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
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

from castlerules import ascent, throne

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "desk"
AXE = ROOT / "docs" / "desk" / "node_modules" / "axe-core" / "axe.min.js"

_spec = importlib.util.spec_from_file_location(
    "site_renders", ROOT / "tests" / "docs" / "test_site_renders.py"
)
assert _spec is not None and _spec.loader is not None
_renders = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_renders)
site = _renders.site  # the same built site as the other browser tests

pytestmark = pytest.mark.slow

# python3 -m http.server (the docs' command), with one line per request on stderr:
# "PATH BYTES" (the bytes of the body sent), so that the test can say what was downloaded.
# The server answers requests on threads: one lock keeps each line whole (two requests
# finishing at once once wrote one line into the other).
SERVER = """
import functools, http.server, sys, threading
LOG = threading.Lock()
class Counting(http.server.SimpleHTTPRequestHandler):
    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        with LOG:
            print(self.path, len(data), file=sys.stderr, flush=True)
    def log_message(self, *args):
        pass
handler = functools.partial(Counting, directory=sys.argv[1])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), handler).serve_forever()
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """The site on loopback, and what it sent."""

    def __init__(self, url: str, log: Path) -> None:
        self.url = url
        self.log = log

    def sent(self) -> list[tuple[str, int]]:
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [(p, int(n)) for p, n in (line.rsplit(" ", 1) for line in lines if " " in line)]


@pytest.fixture(scope="module")
def served(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    port = _free_port()
    log = tmp_path_factory.mktemp("served") / "requests.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(site), str(port)],
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "index.html", timeout=2) as page:
                    assert page.status == 200
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the loopback server did not answer")
        yield Served(url, log)
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
    """Add figures to ``artifacts/desk/desk.json``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "desk.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    data.update(figures)
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


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


def _answer(page: Any) -> str:
    text: str = page.inner_text("#desk-answer")
    return text


def _ready(page: Any) -> None:
    page.wait_for_selector("#desk[data-ready]", timeout=120_000)
    assert page.get_attribute("#desk", "data-ready") == "1", page.inner_text("#desk-status")


def _new(page: Any, game: str, players: int, seed: int) -> None:
    page.select_option("#desk-game", game)
    page.fill("#desk-players", str(players))
    page.fill("#desk-seed", str(seed))
    page.click("#desk-new")


def _type(page: Any, move: str) -> None:
    page.fill("#desk-move", move)
    page.press("#desk-move", "Enter")


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] < size["height"] and box["y"] + min(box["height"], 40) > 0


def axe(page: Any, where: str) -> None:
    """axe-core's serious and critical violations on the page's content (the article:
    the desk and its page; not the theme's sidebar): none."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run({include: ['article']})).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ') + ': ' + n.failureSummary)}))"
    )
    keep(**{f"axe_serious_or_critical_{where}": len(found)})
    assert not found, f"axe-core at {where}: {json.dumps(found, indent=1)}"


def phone_checks(page: Any) -> None:
    """At 390x844: no sideways scrolling, nothing clipped, board text >= 12 px, every
    control of the desk >= 44x44 px."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    report = page.evaluate(
        """() => {
        const out = {clipped: [], small_text: [], small_targets: []};
        const desk = document.getElementById('desk');
        const name = (node) => node.id || node.className || node.tagName;
        for (const node of desk.querySelectorAll('*')) {
          const box = node.getBoundingClientRect();
          if (!box.width || !box.height || node.closest('[hidden]')) continue;
          if (box.right > innerWidth + 0.5 || box.left < -0.5) out.clipped.push(name(node));
          const style = getComputedStyle(node);
          const inner = node.scrollWidth > node.clientWidth + 1 && node.clientWidth;
          if (inner && style.overflowX !== 'visible') out.clipped.push('scrolls: ' + name(node));
        }
        const board = document.getElementById('desk-board');
        const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          const text = walker.currentNode;
          if (!text.textContent.trim()) continue;
          const size = parseFloat(getComputedStyle(text.parentElement).fontSize);
          if (size < 12) out.small_text.push(text.textContent.trim() + ' ' + size);
        }
        const controls = 'button, select, input, textarea, summary';
        for (const node of desk.querySelectorAll(controls)) {
          const box = node.getBoundingClientRect();
          if (!box.width) continue;
          const small = node.type === 'checkbox' || node.type === 'radio';
          const target = small ? node.closest('label').getBoundingClientRect() : box;
          if (target.width < 44 || target.height < 44) {
            const size = Math.round(target.width) + 'x' + Math.round(target.height);
            out.small_targets.push((node.id || node.textContent || node.type) + ' ' + size);
          }
        }
        return out;
      }"""
    )
    assert report == {"clipped": [], "small_text": [], "small_targets": []}, report


def test_the_desk_at_the_table(browser: Any, served: Served) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.url.rstrip("/"))
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page_requests: list[Any] = []
    page.on("request", lambda r: requests.append(r.url))
    # (a function of its own: Playwright cannot take a bound builtin such as list.append)
    page.on("requestfinished", lambda r: page_requests.append(r))  # noqa: PLW0108
    page.goto(served.url + "desk.html")
    # Controls clicked during the load do nothing and throw nothing (issue 44).
    during = page.evaluate(
        """() => {
        if (document.getElementById('desk').dataset.ready) return null;
        const ids = ['desk-try', 'desk-new', 'desk-move', 'desk-case', 'desk-load'];
        const disabled = ids.map((id) => document.getElementById(id).matches(':disabled'));
        for (const id of ['desk-new', 'desk-try', 'desk-load']) document.getElementById(id).click();
        return disabled;
      }"""
    )
    assert during is None or all(during), during
    _ready(page)
    cold_ms = int(page.get_attribute("#desk", "data-first-answer-ms"))
    page_requests = list(page_requests)  # the page's own requests up to its first answer
    page.wait_for_function(
        "document.getElementById('desk').dataset.worker === 'ready'", timeout=120_000
    )
    sent = served.sent()  # everything the server sent: the page's load and the worker's copy
    page_bytes = sum(r.sizes()["responseBodySize"] for r in page_requests if r.response())
    keep(
        cold_first_answer_s=cold_ms / 1000,
        bytes_first_visit=sum(n for _, n in sent),
        bytes_page_load=page_bytes,
        requests_first_visit=len(sent),
        requests_page_load=len(page_requests),
    )

    # The first screen says what to do, and the move box and Ask are on it (issue 44).
    lead = page.inner_text(".desk-lead")
    assert "new game" in lead and "casebook case" in lead and "paste a position" in lead
    assert _in_view(page, "#desk-try") and _in_view(page, "#desk-board")
    # The page is ready with the focus on the move box: Ask is one Tab away (not 104).
    assert page.evaluate("document.activeElement.id") == "desk-move"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "desk-try"

    # A dispute in a new game of Throne: a move tapped, then an illegal one typed.
    _new(page, "throne", 4, 5)
    assert _answer(page) == ""
    state = throne.new_game(4, seed=5)
    secrets = ["".join(sorted(throne.objective(state, s))) for s in range(4)]
    first = str(throne.legal_moves(state)[0])
    started = time.perf_counter()
    page.click(f'#desk-moves button[data-move="{first}"]')
    keep(later_move_s=round(time.perf_counter() - started, 3))
    assert "LEGAL. What happened" in _answer(page)
    assert page.evaluate("document.activeElement.id") == "desk-move"  # focus kept (issue 44)
    after = throne.apply(state, throne.parse_move(state, first))
    _type(page, "C6")
    expected = _cli("throne", throne.to_text(after), "C6")
    assert page.get_attribute("#desk-answer", "data-clause") == expected["clause"] == "B6"
    assert expected["message"] in _answer(page) and expected["clause_text"]["french"] in _answer(
        page
    )
    assert _in_view(page, "#desk-answer")  # the answer is in view
    assert page.evaluate("document.activeElement.id") == "desk-move"
    # The clause link goes to a real anchor (issue 44: ascent-rules.html#a2 did not exist).
    href = page.get_attribute("#desk-answer a.desk-clause", "href")
    assert href == "throne.html#clause-b6"
    target = urllib.request.urlopen(served.url + href.split("#")[0]).read().decode()
    assert 'id="clause-b6"' in target
    # The table view shows no objective, and its link writes ? for them (B4).
    shown = page.inner_text("body") + page.get_attribute("#desk-link", "href")
    assert not [s for s in secrets if s in shown]
    link = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).fragment)
    assert link["position"][0].split(" ")[11] == "?" and link["move"] == ["C6"]
    # Copy link copies the dispute's address.
    page.click("#desk-copy")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    # A change clears the old answer (issue 44): the view, undo, a case without a move.
    page.check('input[name="desk-view"][value="referee"]')
    assert _answer(page) == ""
    assert page.input_value("#desk-position") == throne.to_text(after)
    page.check('input[name="desk-view"][value="table"]')
    _type(page, "C6")
    page.click("#desk-undo")
    assert _answer(page) == ""
    cases = json.loads((Path(_renders.DOCS) / "_generated" / "desk-cases.json").read_text())
    moveless = next(c for c in cases if c["move"] is None)
    page.select_option("#desk-case", moveless["key"])
    assert _answer(page) == "" and page.input_value("#desk-case") == moveless["key"]

    # A reading case, compared: only the readings that disagree or cannot apply.
    case = next(c for c in cases if c["compare"] and c["move"] and c["game"] == "throne")
    page.select_option("#desk-case", case["key"])
    cli = _cli(case["game"], case["position"], case["move"], "--compare")
    items = page.locator(".desk-compare li").all_inner_texts()
    disagree = set(cli["compare"]["disagree"])
    cannot = {r["reading"] for r in cli["compare"]["cannot_apply"]}
    depends = {r["reading"] for r in cli["compare"]["depends"]}
    assert {i.split(" — ")[0] for i in items} == disagree | cannot | depends
    assert len(items) < len(cli["compare"]["readings"])

    # A pasted Ascent position, with the selector on Throne: the game is read from the text.
    page.select_option("#desk-game", "throne")
    a_state = ascent.new_game(3, seed=1)
    page.fill("#desk-position", ascent.to_text(a_state))
    page.click("#desk-load")
    assert page.input_value("#desk-game") == "ascent"
    move = ascent.legal_moves(a_state)[2]
    page.click(f'#desk-board [data-card="{move.card}"]')
    assert "LEGAL. What happened" in _answer(page)

    # An unknown case says so; it is not "Ready" (issue 44).
    page.evaluate("location.hash = '#case=no-such-case'")
    page.wait_for_function("document.getElementById('desk-status').textContent.includes('no-such')")
    assert "Ready" not in page.inner_text("#desk-status")

    # The table link whose move scores a round, asked: an answer, no error.
    key = None
    moves = "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L3 M4 M+ M+ M+ yes yes yes"
    result = page.evaluate(
        """(moves) => {
        const ask = window.castlerulesDesk.ask;
        let a = ask({op: 'position', game: 'throne', position: 'new:4:0'});
        for (const m of moves.split(' ')) a = ask({op: 'explain', key: a.key, move: m}).next;
        return a.link;
      }""",
        moves,
    )
    key = result
    for last in ("yes", "no"):
        page.evaluate(f"location.hash = '#{key}&move={last}'")
        page.wait_for_function(f"document.getElementById('desk-move').value === '{last}'")
        assert "depends on" in _answer(page)
    assert "Traceback" not in page.inner_text("#desk")

    axe(page, "1280x800")
    _new(page, "throne", 4, 5)
    _type(page, "C6")
    shot(page, "desk-1280x800.png")
    installable = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    # Installable (manifest, icons, service worker): no error but that of a private window
    # (every Playwright context is one).
    errors_install = [e["errorId"] for e in installable["installabilityErrors"]]
    assert errors_install in ([], ["in-incognito"]), installable
    # The engine's speed here against CPython's: the same perft.
    browser_perft = page.evaluate("window.castlerulesDesk.perft()")
    started = time.perf_counter()
    nodes = throne.perft(throne.new_game(4, seed=1), 4)
    keep(
        perft_nodes=nodes,
        perft_browser_ms=round(browser_perft["ms"], 1),
        perft_cpython_ms=round((time.perf_counter() - started) * 1000, 1),
    )
    assert browser_perft["nodes"] == nodes

    # Offline after one visit: the service worker answers everything.
    before = len(served.sent())
    context.set_offline(True)
    page.goto("about:blank")  # a new load of the page, not a change of its address
    page.goto(served.url + "desk.html#game=throne&position=new%3A4%3A5&view=table&move=C6")
    _ready(page)
    keep(warm_first_answer_s=int(page.get_attribute("#desk", "data-first-answer-ms")) / 1000)
    assert "kept for offline use" in page.inner_text("#desk-status")
    assert page.get_attribute("#desk-answer", "data-clause") == "B6"
    page.click('#desk-moves button[data-move="A1"]')
    assert "Seat 0 places A" in _answer(page)
    # A clause page, offline too, and its "try it" link back to the desk.
    page.goto(served.url + "throne.html")
    assert page.evaluate("typeof DOCUMENTATION_OPTIONS") == "object"  # its scripts, offline
    link = page.locator("a", has_text="Try it at the dispute desk").first
    case_key = urllib.parse.parse_qs(urllib.parse.urlparse(link.get_attribute("href")).fragment)
    link.click()
    _ready(page)
    assert page.input_value("#desk-case") == case_key["case"][0]
    assert _answer(page)

    # A phone: 390x844, still offline.
    page.set_viewport_size({"width": 390, "height": 844})
    _new(page, "throne", 4, 5)
    page.click(f'#desk-moves button[data-move="{first}"]')
    _type(page, "C6")
    assert page.get_attribute("#desk-answer", "data-clause") == "B6"
    assert _in_view(page, "#desk-answer")
    phone_checks(page)
    axe(page, "390x844")
    shot(page, "desk-390x844.png")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "desk-390x844-top.png")
    assert len(served.sent()) == before, "the offline reload reached the server"
    origin = served.url.rstrip("/")
    outside = [u for u in requests if not u.startswith((origin, "data:", "blob:"))]
    assert not outside, f"the desk asked other addresses: {outside}"
    assert not errors, errors
    context.close()


def test_without_javascript_and_from_a_file(browser: Any, site: Path, served: Served) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(served.url + "desk.html")
    assert "The desk needs JavaScript" in page.inner_text("article")
    assert page.locator("img[src$='.svg']").count() >= 1  # the static diagram
    context.close()
    # Opened from a file: one line that says to serve the site.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto((site / "desk.html").as_uri())
    page.wait_for_selector("#desk[data-ready]", timeout=30_000)
    assert page.get_attribute("#desk", "data-ready") == "failed"
    notice = page.inner_text("#desk-status")
    assert "\n" not in notice.strip() and "http.server" in notice
    context.close()


def test_the_site_serves_the_runtime_and_the_worker(site: Path) -> None:
    """Pyodide, both wheels, the case index, the manifest and the service worker are in
    the site; the worker keeps them and the pages."""
    out = site / "_static" / "desk"
    manifest = json.loads((out / "manifest.json").read_text())
    assert [w.split("-")[0] for w in manifest["wheels"]] == ["attrs", "castlerules"]
    for name, size in manifest["files"].items():
        assert (out / name).stat().st_size == size
    assert "pyodide/pyodide.asm.wasm" in manifest["files"]
    worker = (site / "sw.js").read_text()
    kept = set(re.findall(r'url:"([^"]+)"', worker))
    for name in [*manifest["files"], "manifest.json", "cases.json"]:
        assert f"_static/desk/{name}" in kept, name
    assert {"desk.html", "index.html", "throne.html", "ascent.html"} <= kept
    app = json.loads((site / "desk.webmanifest").read_text())
    assert app["start_url"] == "desk.html" and {i["sizes"] for i in app["icons"]} >= {
        "192x192",
        "512x512",
    }
    keep(
        size_mib=round(sum(manifest["files"].values()) / 2**20, 2),
        pyodide=manifest["pyodide"],
        worker_files=len(kept),
    )
