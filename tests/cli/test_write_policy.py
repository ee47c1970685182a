"""One write policy for every file the command line writes (issue 43).

Every path that writes a file (explain --svg, play --save, demo --record-dir, cases
show --svg, cases export, the study's report, study report) is run four ways:

- over an existing file: refused before any work, in one line, exit status 2, the
  file kept (``--force`` replaces it);
- with a file created at the target while the command runs (the writer is made to
  create one just before it puts its output in place, the latest moment): that file
  is kept, the output goes beside it, one line says where, exit status 2;
- with the output naming one of the command's inputs: refused, even with --force;
- with an empty path: one line, exit status 2, nothing written.

Nothing is ever lost: every file written before the run is there, unchanged, after it.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from castlerules import records
from castlerules.cli import main

PRECIOUS = "PRECIOUS\n"

Paths = Callable[[Path], tuple[list[str], list[Path]]]
"""A command writing into a folder: ``(arguments, the files it writes)``."""


def _explain(d: Path) -> tuple[list[str], list[Path]]:
    return ["explain", "throne", "new:3", "C1", "--svg", str(d / "move.svg")], [d / "move.svg"]


def _play(d: Path) -> tuple[list[str], list[Path]]:
    args = ["play", "ascent", "--players", "2", "--bot", "0=random", "--bot", "1=random"]
    return [*args, "--seed", "3", "--save", str(d / "game.json")], [d / "game.json"]


def _demo(d: Path) -> tuple[list[str], list[Path]]:
    args = ["demo", "--game", "ascent", "--players", "2", "--record-dir", str(d)]
    return args, [d / "ascent-seed7.json"]


def _show(d: Path) -> tuple[list[str], list[Path]]:
    key = "throne-full-floor"
    return ["cases", "show", key, "--svg", str(d)], [d / f"{key}-before.svg"]


def _export(d: Path) -> tuple[list[str], list[Path]]:
    args = ["cases", "export", str(d), "--game", "throne", "--clause", "B16"]
    return args, [d / "throne-tie.json", d / "throne-winner.json"]


def _study_args(d: Path) -> list[str]:
    return [
        "study", "throne", "--players", "3", "--games", "2", "--reading", "SEED",
        "--reading", "ORIGINAL", "--workers", "0", "--quiet", "--out", str(d / "s.duckdb"),
    ]  # fmt: skip


def _study(d: Path) -> tuple[list[str], list[Path]]:
    return _study_args(d), [d / "s.html"]


def _study_report(d: Path) -> tuple[list[str], list[Path]]:
    if not (d / "s.duckdb").exists():
        assert main([*_study_args(d), "--no-report"]) == 0
    return ["study", "report", str(d / "s.duckdb"), "--out", str(d / "page.html")], [
        d / "page.html"
    ]


WRITERS: dict[str, Paths] = {
    "explain --svg": _explain,
    "play --save": _play,
    "demo --record-dir": _demo,
    "cases show --svg": _show,
    "cases export": _export,
    "study (its report)": _study,
    "study report --out": _study_report,
}


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., tuple[int, str, str]]]:
    monkeypatch.delenv("CASTLERULES_DEBUG", raising=False)
    monkeypatch.setenv("CASTLERULES_COMPILE_CACHE", "off")

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8"))
        capsys.readouterr()
        status = main(list(args))
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return status, out, err

    yield run


def _one_line(status: int, err: str, words: str) -> None:
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, (status, err)
    assert words in lines[0], lines[0]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("name", list(WRITERS))
def test_an_existing_target_is_refused_and_kept(name: str, cli: Any, tmp_path: Path) -> None:
    args, targets = WRITERS[name](tmp_path)
    targets[0].write_text(PRECIOUS)
    before = _snapshot(tmp_path)
    status, out, err = cli(*args)
    assert out == ""  # refused before any work
    _one_line(status, err, "exists already: nothing was written (--force replaces it)")
    assert _snapshot(tmp_path) == before  # nothing written, nothing lost
    status, _, err = cli(*args, "--force")
    assert status in (0, 1), err
    assert targets[0].read_text() != PRECIOUS


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_file_that_appears_during_the_run_is_kept(
    name: str, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program creates the target while the command works: it is not replaced."""
    args, targets = WRITERS[name](tmp_path)
    appeared: list[Path] = []
    original = records.Target.write

    def racing(self: records.Target, data: str | bytes) -> records.Written:
        if not Path(self.path).exists():
            Path(self.path).write_text(PRECIOUS)
            appeared.append(Path(self.path))
        return original(self, data)

    monkeypatch.setattr(records.Target, "write", racing)
    status, out, err = cli(*args)
    assert targets[0] in appeared
    assert status == 2, (out, err)
    assert "appeared while the command ran: it is kept" in err
    for path in appeared:
        assert path.read_text() == PRECIOUS  # the file that appeared is kept
        beside = path.with_name(f"{path.stem}-1{path.suffix}")
        assert beside.is_file() and beside.read_text() != PRECIOUS  # the output, beside it
        assert str(beside) in out + err


def test_an_output_is_never_written_over_an_input(cli: Any, tmp_path: Path) -> None:
    """explain reads @FILE; a study's report must not be its DuckDB file: refused, even
    with --force, and the input kept.  (play, demo and the casebook read no file.)"""
    position = tmp_path / "position.txt"
    position.write_text("new:3")
    for force in ((), ("--force",)):
        status, _, err = cli(
            "explain", "throne", f"@{position}", "C1", "--svg", str(position), *force
        )
        _one_line(status, err, "which this command reads")
        assert position.read_text() == "new:3"
    # The study: --out mystudy.html would have put the report over the study.
    args = _study_args(tmp_path)
    args[-1] = str(tmp_path / "mystudy.html")
    status, _, err = cli(*args)
    _one_line(status, err, "ends with .html, where its report would go")
    assert not any(tmp_path.glob("mystudy*"))
    study = tmp_path / "s.duckdb"
    assert main([*_study_args(tmp_path), "--no-report"]) == 0
    saved = study.read_bytes()
    for force in ((), ("--force",)):
        status, _, err = cli("study", "report", str(study), "--out", str(study), *force)
        _one_line(status, err, "which this command reads")
        assert study.read_bytes() == saved
    link = tmp_path / "link.duckdb"
    link.symlink_to(study)
    status, _, err = cli("study", "report", str(study), "--out", str(link), "--force")
    _one_line(status, err, "which this command reads")
    assert study.read_bytes() == saved


EMPTY = {
    "explain --svg": ["explain", "throne", "new:3", "C1", "--svg", ""],
    "play --save": ["play", "throne", "--players", "3", "--save", ""],
    "demo --record-dir": ["demo", "--record-dir", ""],
    "cases show --svg": ["cases", "show", "throne-tie", "--svg", ""],
    "cases export": ["cases", "export", ""],
    "study --out": [*_study_args(Path("."))[:-1], ""],
    "study report": ["study", "report", ""],
    "study report --out": ["study", "report", "s.duckdb", "--out", ""],
    "explain --svg blank": ["explain", "throne", "new:3", "C1", "--svg", "  "],
}


@pytest.mark.parametrize("name", list(EMPTY))
def test_an_empty_path_is_bad_input(
    name: str, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = cli(*EMPTY[name])
    _one_line(status, err, "empty")
    assert out == "" and not any(tmp_path.iterdir())


def test_the_writer_itself(tmp_path: Path) -> None:
    """records.Target: refuses what the policy refuses; replaces only with force the file
    it found; writes beside a file that appeared; records.save follows it."""
    target = tmp_path / "x.txt"
    written = records.Target.check(target, "page").write("one")
    assert written == records.Written(str(target)) and target.read_text() == "one"
    with pytest.raises(records.ArgumentError, match="exists already"):
        records.Target.check(target, "page")
    forced = records.Target.check(target, "page", force=True)
    assert forced.write("two").path == str(target) and target.read_text() == "two"
    # With force, a file that replaced the one checked is another file: kept.
    forced = records.Target.check(target, "page", force=True)
    target.unlink()
    target.write_text(PRECIOUS)
    written = forced.write("three")
    assert written.kept == str(target) and target.read_text() == PRECIOUS
    assert Path(written.path).read_text() == "three"
    record = records.make(records.GAMES["throne"], 3)
    saved = tmp_path / "r.json"
    assert records.save(record, saved) == str(saved)
    with pytest.raises(records.RecordError, match="exists already"):
        records.save(record, saved)
    assert records.save(record, saved, replace=True) == str(saved)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left
