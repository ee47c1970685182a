"""The dispute desk's files, put into the built site (``_static/desk/``).

The desk page (``docs/desk.rst``) runs the library itself in the browser
through Pyodide.  At the end of an HTML build this extension copies, into
``_static/desk/``:

- Pyodide's runtime, from its npm package (``docs/desk/node_modules/pyodide``,
  installed by ``bash dev`` from ``docs/desk/package-lock.json``): the
  loader, the WebAssembly module, the standard library and the lock file;
- the castlerules wheel, built from this checkout (``pip wheel``, no
  network), and the attrs wheel of the installed version (fetched once with
  ``pip download`` into ``docs/_build/.desk-wheels``, then reused);
- ``cases.json``, every casebook case as the position before its move, the
  move and its reading (what the page's case list offers; written by
  ``castlerules_sphinx`` from the cases it replayed), and ``manifest.json``,
  the wheels' names and every file's size.

So the page makes no request outside the site: a local copy served from
loopback (``python3 -m http.server -d docs/_build/html``) works offline.

At the site's root it also writes the desk's web app manifest
(``desk.webmanifest``, with two icons drawn here) and its service worker
(``sw.js``), built with Workbox (``docs/desk/build-sw.mjs``, run by Node):
it keeps the runtime, the wheels and the pages, so that after one visit the
desk opens and answers without a network.  The desk page's head links the
manifest.  A missing Pyodide package, a wheel that cannot be made or a
service worker that cannot be built fails the build, with the command that
fixes it.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import zlib
from importlib import metadata
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
PYODIDE = DOCS / "desk" / "node_modules" / "pyodide"
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the browser loads of Pyodide; the rest of the npm package (Node's entry
points, type declarations, source maps, demo consoles) is not served."""
WHEEL_CACHE = DOCS / "_build" / ".desk-wheels"
BUILD_SW = DOCS / "desk" / "build-sw.mjs"
THEME = "#0b5c78"
MANIFEST = {
    "name": "castlerules dispute desk",
    "short_name": "Dispute desk",
    "description": "Settle a rules dispute of Throne or Ascent at the table, offline.",
    "start_url": "desk.html",
    "scope": "./",
    "display": "standalone",
    "background_color": "#ffffff",
    "theme_color": THEME,
    "icons": [
        {"src": "_static/desk/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "_static/desk/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "_static/desk/icon-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ],
}
"""The desk's web app manifest (what a browser needs to offer to install it)."""


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise ExtensionError(f"desk: {what} failed: {' / '.join(tail)}")


def _castlerules_wheel(out: Path) -> Path:
    """The wheel of this checkout, built without network (setuptools is installed)."""
    build = WHEEL_CACHE / "castlerules"
    if build.exists():
        shutil.rmtree(build)
    build.mkdir(parents=True)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(build),
            str(ROOT),
        ],
        "building the castlerules wheel",
    )
    # pip wheel leaves build/ and *.egg-info behind in the checkout (both git-ignored).
    (wheel,) = build.glob("castlerules-*.whl")
    return Path(shutil.copy2(wheel, out / wheel.name))


def _attrs_wheel(out: Path) -> Path:
    """The attrs wheel of the installed version (pure Python), fetched once and kept."""
    version = metadata.version("attrs")
    found = sorted(WHEEL_CACHE.glob(f"attrs-{version}-py3-none-any.whl"))
    if not found:
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--dest",
                str(WHEEL_CACHE),
                f"attrs=={version}",
            ],
            f"fetching the attrs {version} wheel (once; then kept in {WHEEL_CACHE})",
        )
        found = sorted(WHEEL_CACHE.glob(f"attrs-{version}-py3-none-any.whl"))
    if not found:
        raise ExtensionError(f"desk: no pure-Python wheel of attrs {version} was found")
    return Path(shutil.copy2(found[0], out / found[0].name))


def icon_png(size: int) -> bytes:
    """The desk's icon: a white tower with three merlons on the theme's colour, as PNG."""
    teal = bytes.fromhex(THEME[1:])
    white = b"\xff\xff\xff"
    rows = []
    for y in range(size):
        v = y / size
        row = bytearray(b"\x00")
        for x in range(size):
            u = x / size
            tower = 0.3 <= u <= 0.7 and 0.32 <= v <= 0.8
            merlon = 0.2 <= v < 0.32 and any(a <= u <= a + 0.1 for a in (0.3, 0.45, 0.6))
            door = 0.45 <= u <= 0.55 and 0.62 <= v <= 0.8
            row += white if (tower or merlon) and not door else teal
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def _service_worker(outdir: Path) -> dict[str, Any]:
    """Build ``sw.js`` with Workbox; what it precaches (files, bytes)."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise ExtensionError(
            "desk: Node is missing: the desk's service worker is built with Workbox "
            "(apt-get install npm; then npm ci --prefix docs/desk, which bash dev does)"
        )
    if not (BUILD_SW.parent / "node_modules" / "workbox-build").is_dir():
        raise ExtensionError(
            "desk: workbox-build is missing from docs/desk/node_modules; "
            "install it with: npm ci --prefix docs/desk  (bash dev does it)"
        )
    done = subprocess.run(
        [node, str(BUILD_SW), str(outdir.resolve())],
        capture_output=True,
        text=True,
        check=False,
        cwd=BUILD_SW.parent,
    )
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise ExtensionError(f"desk: building the service worker failed: {' / '.join(tail)}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if result.get("warnings"):
        raise ExtensionError(f"desk: Workbox warns: {' / '.join(map(str, result['warnings']))}")
    return result


def _head(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The desk page's head links its web app manifest."""
    if pagename == "desk":
        context["metatags"] = context.get("metatags", "") + (
            '\n<link rel="manifest" href="desk.webmanifest">'
            f'\n<meta name="theme-color" content="{THEME}">'
        )


def _copy_site_files(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    if not all((PYODIDE / name).is_file() for name in PYODIDE_FILES):
        raise ExtensionError(
            f"desk: Pyodide's npm package is missing from {PYODIDE.parent}; "
            "install it with: npm ci --prefix docs/desk  (bash dev does it)"
        )
    out = Path(app.outdir) / "_static" / "desk"
    runtime = out / "pyodide"
    runtime.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, runtime / name)
    for old in out.glob("*.whl"):
        old.unlink()
    wheels = [_attrs_wheel(out), _castlerules_wheel(out)]
    # The cases as castlerules_sphinx replayed them for this build (pages.write_all).
    shutil.copy2(Path(app.srcdir) / "_generated" / "desk-cases.json", out / "cases.json")
    version = json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    files = sorted(
        p
        for p in out.rglob("*")
        if p.is_file() and p.name != "manifest.json" and not p.name.startswith("icon-")
    )
    manifest = {
        "pyodide": version,
        "wheels": [w.name for w in wheels],
        "files": {str(p.relative_to(out)): p.stat().st_size for p in files},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    total = sum(manifest["files"].values()) / 2**20
    LOGGER.info("desk: Pyodide %s and %d wheels copied (%.1f MiB)", version, len(wheels), total)
    site = Path(app.outdir)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(icon_png(size))
    (site / "desk.webmanifest").write_text(json.dumps(MANIFEST, indent=1), encoding="utf-8")
    kept = _service_worker(site)
    LOGGER.info(
        "desk: service worker built with Workbox: %d files kept for offline use (%.1f MiB)",
        kept["count"],
        kept["size"] / 2**20,
    )


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", _copy_site_files)
    app.connect("html-page-context", _head)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
