"""The library's layers (pyproject.toml, [tool.importlinter]): imports point one way.

core <- the games <- the kernel interpretations, records <- adapters <- bots
<- casebook <- the register (its readings) <- study <- cli <- desk, and nothing
in ``castlerules`` imports ``proofs`` but the exceptions listed there (each with
its reason; one that no longer matches fails the check, so the list only
shrinks).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint(config: Path) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-c",
        "from importlinter.cli import lint_imports_command; lint_imports_command()",
    ]
    return subprocess.run(
        [*command, "--no-cache", str(config)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )


def test_the_layers_hold() -> None:
    pytest.importorskip("importlinter")
    done = lint(ROOT / "pyproject.toml")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "Contracts: 3 kept, 0 broken." in done.stdout


def test_a_wrong_import_is_caught(tmp_path: Path) -> None:
    """The check catches a planted inversion: the core importing a game."""
    pytest.importorskip("importlinter")
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    config = tmp_path / "pyproject.toml"
    # The same contracts, with the games placed under the core.
    config.write_text(
        text.replace('    "throne | ascent",\n    "core",', '    "core",\n    "throne | ascent",'),
        encoding="utf-8",
    )
    done = lint(config)
    assert done.returncode == 1
    assert "castlerules.throne is not allowed to import castlerules.core" in done.stdout
