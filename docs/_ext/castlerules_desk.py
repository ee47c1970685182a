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
A missing Pyodide package or a wheel that cannot be made fails the build,
with the command that fixes it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
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
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != "manifest.json")
    manifest = {
        "pyodide": version,
        "wheels": [w.name for w in wheels],
        "files": {str(p.relative_to(out)): p.stat().st_size for p in files},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    total = sum(manifest["files"].values()) / 2**20
    LOGGER.info("desk: Pyodide %s and %d wheels copied (%.1f MiB)", version, len(wheels), total)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", _copy_site_files)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
