"""No command replaces a file without ``--force``; one list of exit statuses everywhere.

Every file a command writes is checked before any work: a file that exists
already is refused in one line with exit status 2, and nothing at all is
written (``common.WRITE_POLICY``); ``--force`` replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from castlerules.cli import common

Cli = Callable[..., Any]
ROOT = Path(__file__).resolve().parents[2]
PRECIOUS = "PRECIOUS\n"


def refused(done: Any, path: Path) -> None:
    """The run was refused in one line, exit status 2, and ``path`` was kept."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "exists already: nothing was written (--force" in lines[0]
    assert "Traceback" not in done.stderr
    assert path.read_text() == PRECIOUS


def test_play_save_refuses_an_existing_file_unless_forced(run_cli: Cli, tmp_path: Path) -> None:
    kept = tmp_path / "x.json"
    kept.write_text(PRECIOUS)
    done = run_cli("play", "throne", "--players", "3", "--save", "x.json", cwd=tmp_path)
    refused(done, kept)
    assert done.stdout == ""  # refused before the game started
    done = run_cli("play", "throne", "--players", "3", "--save", "x.json", "--force", cwd=tmp_path)
    assert done.returncode == 2 and "the input ended before the game did" in done.stderr
    assert kept.read_text().startswith("{") and '"game": "throne"' in kept.read_text()


def test_demo_record_dir_refuses_an_existing_record(run_cli: Cli, tmp_path: Path) -> None:
    kept = tmp_path / "ascent-seed7.json"
    kept.write_text(PRECIOUS)
    args = ("demo", "--game", "throne", "--game", "ascent", "--players", "3")
    done = run_cli(*args, "--record-dir", str(tmp_path))
    refused(done, kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ascent-seed7.json"]
    done = run_cli(*args, "--record-dir", str(tmp_path), "--force")
    assert done.returncode == 0, done.stderr
    assert kept.read_text() != PRECIOUS and (tmp_path / "throne-seed7.json").is_file()


def test_explain_svg_refuses_an_existing_file(run_cli: Cli, tmp_path: Path) -> None:
    kept = tmp_path / "move.svg"
    kept.write_text(PRECIOUS)
    refused(run_cli("explain", "throne", "new:3", "C1", "--svg", str(kept)), kept)
    done = run_cli("explain", "throne", "new:3", "C1", "--svg", str(kept), "--force")
    assert done.returncode == 0, done.stderr
    assert "<svg" in kept.read_text()


def test_cases_show_svg_and_export_refuse_existing_files(run_cli: Cli, tmp_path: Path) -> None:
    kept = tmp_path / "throne-full-floor-before.svg"
    kept.write_text(PRECIOUS)
    refused(run_cli("cases", "show", "throne-full-floor", "--svg", str(tmp_path)), kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.name]
    records = tmp_path / "records"
    records.mkdir()
    kept = records / "throne-tie.json"
    kept.write_text(PRECIOUS)
    export = ("cases", "export", str(records), "--game", "throne", "--clause", "B16")
    refused(run_cli(*export), kept)
    assert [p.name for p in records.iterdir()] == ["throne-tie.json"]  # no other record
    done = run_cli(*export, "--force")
    assert done.returncode == 0, done.stderr
    assert kept.read_text().startswith("{") and len(list(records.iterdir())) > 1


def test_every_option_that_writes_says_so_in_its_help() -> None:
    """Each command that writes a file has --force, and the top-level help states the rule."""
    from castlerules.cli import build_parser

    parser = build_parser()
    assert common.WRITE_POLICY in " ".join(parser.format_help().split())
    text = (ROOT / "docs" / "_ext" / "castlerules_sphinx" / "cli.py").read_text()
    assert "common.WRITE_POLICY" in text  # the CLI page quotes the same sentence
    for args in (
        ["play", "throne", "--players", "3"],
        ["demo"],
        ["explain", "throne", "new:3", "C1"],
        ["cases", "export", "d"],
        ["cases", "show", "k"],
        ["study", "throne"],
    ):
        assert build_parser().parse_args([*args, "--force"]).force is True


# ---------------------------------------------------------------------------
# Exit statuses: one list


def _words(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def test_the_exit_statuses_are_one_list_in_help_readme_and_docs(run_cli: Cli) -> None:
    sentence = common.exit_status_text()
    assert [code for code, _ in common.EXIT_STATUSES] == [0, 1, 2, 3, 130]
    done = run_cli("--help")
    assert sentence in _words(done.stdout)
    assert sentence in _words((ROOT / "README.md").read_text(encoding="utf-8"))
    # Every other statement of exit statuses in the README is the same sentence.
    readme = _words((ROOT / "README.md").read_text(encoding="utf-8"))
    assert re.findall(r"Exit status: [^.]*\.", readme) == [sentence]
