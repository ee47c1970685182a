"""Every Python block of README.md runs as written (issue 12: its first example did not).

A block written as a doctest (``>>>`` prompts) is run by :mod:`doctest`,
which compares what each line prints with the README; any other ```` ```python ````
block is executed and must not raise.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
FENCE = re.compile(r"^```(?:python|py|pycon)[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def python_blocks(text: str) -> list[tuple[int, str]]:
    """``(line number, code)`` of every Python block of a Markdown text."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in FENCE.finditer(text)]


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_python_examples() -> None:
    assert BLOCKS, "README.md has no ```python block"
    assert any(">>> " in code for _, code in BLOCKS)


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"line {n}" for n, _ in BLOCKS])
def test_a_readme_block_runs_as_written(line: int, code: str) -> None:
    name = f"README.md, the block at line {line}"
    if ">>>" not in code:
        exec(compile(code, name, "exec"), {"__name__": "readme"})
        return
    test = doctest.DocTestParser().get_doctest(code, {}, name, str(README), line - 1)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=report.append, clear_globs=True)
    assert result.attempted > 0
    assert result.failed == 0, "".join(report)


def test_a_failing_block_is_caught() -> None:
    # The checker itself: a doctest whose output differs, and a block that raises, fail.
    with pytest.raises(AssertionError, match="Expected"):
        test_a_readme_block_runs_as_written(1, ">>> 1 + 1\n3\n")
    with pytest.raises(ZeroDivisionError):
        test_a_readme_block_runs_as_written(1, "1 / 0\n")
    assert python_blocks("text\n```python\nx = 1\n```\n") == [(3, "x = 1\n")]


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_install_lines_work_from_a_clone() -> None:
    """castlerules is not on the package index: the README and the docs install the
    extras from a clone (``pip install -e '.[EXTRA]'``), never ``castlerules[EXTRA]``."""
    pages = {"README.md": README.read_text(encoding="utf-8")}
    pages.update({p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.rst")})
    for name, text in pages.items():
        assert not re.search(r"pip install[^\n]*castlerules\[", text), name
    readme = pages["README.md"]
    for extra in ("openspiel", "pettingzoo", "study"):
        assert f"pip install -e '.[{extra}]'" in readme
    assert "pip install -e '.[openspiel]'" in pages["adapters.rst"]


def test_the_readme_states_no_mutation_count_but_the_last_runs() -> None:
    """A number of mutations in the README is the last run's (docs/mutations.json)."""
    import json

    last = json.loads((DOCS / "mutations.json").read_text(encoding="utf-8"))
    figures = {int(n) for n in re.findall(r"(\d+) (?:deliberate|mutations?\b)", README.read_text())}
    assert figures <= {last["planned"]}, (figures, last["planned"])


def test_the_readme_says_how_long_the_main_jobs_take() -> None:
    """The first section gives the expected durations of ``bash dev demo`` (its setup
    included) and ``bash dev test``, with how they were measured."""
    head = README.read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert re.search(r"first `bash dev demo` about \d+ s", head)
    assert re.search(r"`bash dev test`.{0,60}?about \d+ minutes", head, re.DOTALL)
    assert "measured" in head and "cores" in head


SH = re.compile(r"^```sh[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
QUICK = ("explain ", "cases --", "cases show ", "cases export ")
"""The README's commands that answer in seconds (play waits for players, study plays
thousands of games, cases search searches, replay needs a record of one's own)."""


def _readme_commands() -> list[str]:
    found = []
    for block in SH.findall(README.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith(".venv/bin/castlerules "):
                found.append(line.removeprefix(".venv/bin/castlerules ").split("  #")[0].strip())
    return found


def test_the_readme_shows_commands() -> None:
    assert sum(c.startswith(QUICK) for c in _readme_commands()) >= 8


@pytest.mark.parametrize("args", [c for c in _readme_commands() if c.startswith(QUICK)])
def test_a_readme_command_runs_as_written(args: str, tmp_path: Path) -> None:
    import shlex
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "castlerules", *shlex.split(args)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert done.stdout.strip() and "Traceback" not in done.stderr


ROOT = README.parent


def layout_missing(text: str, root: Path) -> list[str]:
    """The files and folders the README's Layout section names that do not exist.

    Each bullet's names are read against the root and against the folders the bullet
    names (``rules.py`` in "`castlerules/throne/`, `castlerules/ascent/`: ... `rules.py`"
    must be in each); ``<game>`` stands for each game.
    """
    section = ("\n" + text).split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    missing = []
    for bullet in re.split(r"\n(?=- )", section.strip()):
        names = re.findall(r"`([^`\s]+)`", bullet)
        folders = [n for n in names if n.endswith("/")]
        for name in names:
            if not re.search(r"[./]", name) or name.startswith(("bash", "python", "-")):
                continue
            for each in {name.replace("<game>", g) for g in ("throne", "ascent")}:
                places = [root / each] if "/" in each else [root / f / each for f in folders]
                if not places or not all(p.exists() for p in places):
                    missing.append(each)
    return missing


def test_the_readme_layout_names_only_files_that_exist() -> None:
    assert layout_missing(README.read_text(encoding="utf-8"), ROOT) == []


def test_the_layout_check_finds_a_file_that_is_gone() -> None:
    text = "## Layout\n\n- `castlerules/core/`: `errors.py`, `gone.py`.\n- `nowhere/`: x.\n"
    assert layout_missing(text, ROOT) == ["gone.py", "nowhere/"]
