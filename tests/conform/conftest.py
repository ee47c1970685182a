"""The conformance kit's tests: the engines they run, and the guard against leftover processes.

Every test of this folder runs with a tag of its own in the environment
(``CASTLERULES_CONFORM_TAG``), which every engine it starts inherits, and
their helpers too.  After the test, no living process may carry the tag: a
test whose engine outlives it fails (:func:`no_process_left`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "examples" / "engines"
BAD_ENGINE = Path(__file__).with_name("bad_engine.py")
TAG = "CASTLERULES_CONFORM_TAG"

sys.path.insert(0, str(ENGINES))  # the Ascent engine is also imported, checked in-process


def tagged(tag: str) -> list[int]:
    """The living processes whose environment holds ``TAG=tag``."""
    needle = f"{TAG}={tag}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as src:
                environ = src.read()
            with open(f"/proc/{entry}/stat", "rb") as src:
                state = src.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ.split(b"\0") and state != b"Z":
            found.append(int(entry))
    return found


@pytest.fixture(scope="session")
def find_tagged() -> Callable[[str], list[int]]:
    """:func:`tagged`, for the tests (they cannot import this file)."""
    return tagged


@pytest.fixture(autouse=True)
def no_process_left(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Tag the test's engines; fail the test if one of them is still alive after it."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    yield tag
    deadline = time.monotonic() + 3.0
    left = tagged(tag)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = tagged(tag)
    for pid in left:  # leave nothing behind for the next tests, then fail
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
    assert not left, f"processes left behind by the test: {left}"


@pytest.fixture(scope="session")
def node() -> str:
    """Node, for the JavaScript engine (Debian's nodejs; npm, which bash dev needs, pulls
    it in)."""
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        pytest.fail(
            "node is missing: apt-get install nodejs (bash dev needs npm, and npm needs it)"
        )
    return found


@pytest.fixture(scope="session")
def throne_js(node: str) -> list[str]:
    """The command of the JavaScript Throne engine."""
    return [node, str(ENGINES / "throne.js")]


@pytest.fixture(scope="session")
def bad_engine() -> Callable[..., list[str]]:
    """The command of an engine that misbehaves (``tests/conform/bad_engine.py``)."""

    def command(fault: str, at: str = "legal") -> list[str]:
        return [sys.executable, str(BAD_ENGINE), "--fault", fault, "--at", at]

    return command
