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
