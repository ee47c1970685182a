"""What docs/conform.rst says is true: its commands run, its table of plants is the engines'.

The page's doctests run when the site is built (``bash dev docs``); here:

- every ``castlerules conform`` command of its shell blocks runs (with a small
  budget added: the page shows the defaults) and exits as an agreeing engine
  should, and the throughput script it quotes runs;
- its table of planted mistakes lists every plant of both example engines,
  with the clause the engine's own list gives it and a casebook case that
  cites that clause.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from ascent import PLANTS as ASCENT_PLANTS  # examples/engines/ascent.py

from castlerules import casebook

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "conform.rst").read_text(encoding="utf-8")
SMALL = ["--games", "2", "--seconds", "1", "--shrink-seconds", "1", "--quiet"]


def js_plants() -> dict[str, str]:
    """The plants of throne.js, from its PLANTS table: name -> clause."""
    text = (ROOT / "examples" / "engines" / "throne.js").read_text(encoding="utf-8")
    return dict(re.findall(r'^\s+"([a-z0-9-]+)": "(B\d+):', text, re.MULTILINE))


def page_plants() -> dict[str, tuple[str, str]]:
    """The page's table of plants: name -> (clause, casebook case)."""
    rows = re.findall(
        r"   \* - ``([a-z0-9-]+)``[^\n]*\n     - [^\n]+\n     - ([AB]\d+)\n     - ([a-z0-9-]+)",
        PAGE,
    )
    return {name: (clause, case) for name, clause, case in rows}


def test_the_table_of_plants_is_the_engines() -> None:
    table = page_plants()
    python = {name: what.split(":")[0] for name, what in ASCENT_PLANTS.items()}
    assert {**js_plants(), **python} == {name: clause for name, (clause, _) in table.items()}
    for clause, key in table.values():
        assert clause in casebook.case(key).clauses


def commands() -> list[str]:
    blocks = re.findall(r"\.\. code-block:: sh\n\n((?:   .*\n)+)", PAGE)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_the_page_has_commands() -> None:
    lines = commands()
    assert any(line.startswith("castlerules conform throne") for line in lines)
    assert any("throughput.py" in line for line in lines)


@pytest.mark.parametrize("line", [c for c in commands() if c.startswith("castlerules conform")])
def test_a_command_of_the_page_runs(node: str, line: str) -> None:
    words = shlex.split(line)
    at = words.index("--")
    engine = [
        node if w == "node" else sys.executable if w == "python3" else w for w in words[at + 1 :]
    ]
    done = subprocess.run(
        [sys.executable, "-m", *words[:at], *SMALL, "--", *engine],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_throughput_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "engines" / "throughput.py"), "--games", "1",
         "--rounds", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "throne.js (protocol)" in done.stdout and "kit share" in done.stdout
