"""``castlerules cases``, run as a user would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Cli = Callable[..., Any]


def test_cases_lists_and_filters(run_cli: Cli) -> None:
    done = run_cli("cases", "--clause", "B7")
    assert done.returncode == 0, done.stderr
    assert "throne-full-floor" in done.stdout and "ascent-" not in done.stdout
    done = run_cli("cases", "--game", "ascent", "--option", "upper_half", "--json")
    data = json.loads(done.stdout)
    assert [d["key"] for d in data] == ["ascent-reading-upper-half"]


def test_cases_show_prints_the_engines_words_and_writes_svg(run_cli: Cli, tmp_path: Path) -> None:
    done = run_cli("cases", "show", "throne-full-floor", "--svg", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "the most a floor may hold (B7)" in done.stdout
    assert (tmp_path / "throne-full-floor-before.svg").read_text().startswith("<svg")
    done = run_cli("cases", "show", "throne-reading-pass")
    assert "Seat 1 passes. (B8)" in done.stdout and "do not allow passing" in done.stdout


def test_cases_export_records_that_replay_annotated(run_cli: Cli, tmp_path: Path) -> None:
    done = run_cli("cases", "export", str(tmp_path), "--game", "throne", "--clause", "B16")
    assert done.returncode == 0, done.stderr
    done = run_cli("replay", "--annotate", str(tmp_path / "throne-tie.json"))
    assert done.returncode == 0, done.stderr
    assert "share the win" in done.stdout


def test_cases_bad_input_is_one_line_and_status_2(run_cli: Cli) -> None:
    done = run_cli("cases", "show", "throne-nope")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "unknown case" in done.stderr
    done = run_cli("cases", "--clause", "Z9")
    assert done.returncode == 2 and "no case matches" in done.stderr
