"""Every command of README.md runs as written, in order, in a fresh clone (issue 43).

The README's shell blocks are run line by line, in the order written, with ``bash`` in
a clone of this commit, as a reader who copies them would: each command sees what the
commands above it left (``demo --record-dir .`` writes the record that ``replay``
reads; the study writes the file that ``study report`` reads).  To keep CI cheap the
clone reuses this checkout's installed ``.venv`` and the desk's ``node_modules`` (the
clone's own code comes first on ``PYTHONPATH``, so the commands run the clone's code).

Two commands are not run here, each for a reason stated below (:data:`NOT_RUN`);
the test fails if the README no longer holds them, so the list cannot go stale.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SH = re.compile(r"^```sh[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)

NOT_RUN = {
    "bash dev test": "the test suite itself, this test included (CI runs it beside the docs build)",
    "bash dev docs && python3 -m http.server": "CI runs 'bash dev docs' (minutes); the "
    "server then serves until it is stopped",
}
"""README commands this test does not run (by their first words), and why."""

MAY_FIND_ILLEGAL = ("explain ", "replay ")
"""Commands whose exit status 1 is an answer (an illegal move found), not a failure."""


def readme_commands(text: str) -> list[str]:
    """The command lines of the README's shell blocks, in order."""
    out = []
    for block in SH.findall(text):
        for line in block.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(line.strip())
    return out


def _stamp(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of this commit, with this checkout's .venv and desk runtime linked in."""
    venv = ROOT / ".venv"
    modules = ROOT / "docs" / "desk" / "node_modules"
    if not (venv / "bin" / "python").is_file() or not (modules / ".castlerules-installed").exists():
        pytest.skip("needs the checkout set up by 'bash dev' (.venv and the desk's node_modules)")
    if shutil.which("git") is None:
        pytest.skip("needs git")
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    where = tmp_path_factory.mktemp("readme") / "clone"
    subprocess.run(
        ["git", "clone", "--quiet", "--shared", "--no-checkout", str(ROOT), str(where)],
        check=True,
    )
    subprocess.run(["git", "-C", str(where), "checkout", "--quiet", head], check=True)
    # dev reinstalls when pyproject.toml changed: never from the clone into this .venv.
    import hashlib

    wanted = hashlib.sha256((where / "pyproject.toml").read_bytes()).hexdigest()[:16]
    if _stamp(venv / ".castlerules-installed") != wanted:
        pytest.skip("this checkout's .venv was installed from another pyproject.toml")
    (where / ".venv").symlink_to(venv)
    (where / "docs" / "desk" / "node_modules").symlink_to(modules)
    return where


def _environment(clone: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env.pop("CASTLERULES_DEBUG", None)
    env["PYTHONPATH"] = str(clone)
    env["CASTLERULES_COMPILE_CACHE"] = "off"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@pytest.mark.slow
def test_every_readme_command_runs_in_order_in_a_fresh_clone(clone: Path) -> None:
    env = _environment(clone)
    where = subprocess.run(
        [".venv/bin/python", "-c", "import castlerules; print(castlerules.__file__)"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).resolve().is_relative_to(clone.resolve()), where  # the clone's code
    commands = readme_commands((clone / "README.md").read_text(encoding="utf-8"))
    skipped = [c for c in commands if c.startswith(tuple(NOT_RUN))]
    assert len(skipped) == len(NOT_RUN), skipped  # each exclusion still names a command
    ran = 0
    for command in commands:
        if command in skipped:
            continue
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=clone,
            env=env,
            input="quit\n",  # play: the human seat quits at its first turn (the record is saved)
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        allowed = (
            (0, 1)
            if command.startswith(".venv/bin/castlerules ")
            and command.removeprefix(".venv/bin/castlerules ").startswith(MAY_FIND_ILLEGAL)
            else (0,)
        )
        assert done.returncode in allowed, (command, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stdout + done.stderr, command
        ran += 1
    assert ran >= 15
    # What the commands left is what the README says they write.
    for name in ("throne-seed7.json", "study-throne-4.duckdb", "study-throne-4.html"):
        assert (clone / name).is_file(), name
    assert list((clone / "records").glob("*.json"))
    assert list(clone.glob("throne-tie-*.svg"))


def test_the_commands_are_found_in_order() -> None:
    text = "```sh\nfirst one   # why\n\n# a comment\nsecond\n```\nprose\n```sh\nthird\n```\n"
    assert readme_commands(text) == ["first one   # why", "second", "third"]
    commands = readme_commands(README.read_text(encoding="utf-8"))
    assert commands[0].startswith("bash dev demo    # set up on first use")
    demo = next(i for i, c in enumerate(commands) if "--record-dir ." in c)
    replay = next(i for i, c in enumerate(commands) if c.startswith(".venv/bin/castlerules replay"))
    assert demo < replay  # the record replay reads is written above it
