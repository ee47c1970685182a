"""The long run's record (proofs/record.py): what its key covers, when a record stands
for a run and when the long run is run again, and what ``python -m proofs --long
--reuse/--record`` print and write."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import proofs.__main__ as entry
from proofs import record
from proofs.core import Result

ROOT = Path(__file__).resolve().parents[2]


def _result(name: str) -> Result:
    return Result(
        name=name,
        game="ascent",
        title="t",
        clauses=("A10",),
        method="equality with the kernel (Z3)",
        depth=1,
        holds=True,
        seconds=2.0,
        queries=3,
        scope="2 players",
    )


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """``run_all`` replaced: each call is noted (its ``long``) and proves two properties."""
    calls: list[bool] = []

    def fake_run_all(
        fast: bool = False,
        jobs: object = None,
        only: object = (),
        progress: Any = None,
        long: bool = False,
    ) -> list[Result]:
        calls.append(long)
        return [_result("ascent.equal.favour"), _result("ascent.equal.converse")]

    monkeypatch.setattr(entry, "run_all", fake_run_all)
    return calls


def test_the_inputs_are_the_modules_the_long_runs_code_imports() -> None:
    files = record.long_inputs()
    for needed in (
        "proofs/ascent_equal.py",
        "castlerules/symbolic/ascent_model.py",
        "castlerules/ascent/kernel.py",
        "castlerules/core/ops.py",
    ):
        assert needed in files
    for other in (
        "castlerules/cli/__init__.py",
        "castlerules/batch/__init__.py",
        "proofs/mutants.py",
    ):
        assert (ROOT / other).is_file() and other not in files


def _tree(tmp_path: Path) -> Path:
    """A copy of the sources the key reads."""
    for part in ("castlerules", "proofs"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("*.pyc"))
    return tmp_path


def test_the_key_changes_with_an_input_and_the_solver_not_with_other_code(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    key = record.inputs_key(root, "4.15.0")
    assert key == record.inputs_key(root, "4.15.0")
    assert record.inputs_key(root, "4.15.1") != key  # another solver
    cli = root / "castlerules" / "cli" / "__init__.py"
    cli.write_text(cli.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert record.inputs_key(root, "4.15.0") == key  # not an input
    model = root / "castlerules" / "symbolic" / "ascent_model.py"
    model.write_text(model.read_text(encoding="utf-8").replace("<=", "<", 1), encoding="utf-8")
    assert record.inputs_key(root, "4.15.0") != key  # a planted change in the model


def test_record_then_reuse_runs_once_and_prints_the_recorded_table(
    tmp_path: Path, runs: list[bool], capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "long-run.json"
    assert entry.main(["--long", "--record", str(kept)]) == 0
    written = json.loads(kept.read_text(encoding="utf-8"))
    assert written["inputs"]["key"] == record.inputs_key()
    assert written["inputs"]["z3"] == record.solver_version()
    assert "castlerules/ascent/kernel.py" in written["inputs"]["files"]
    capsys.readouterr()
    saved = tmp_path / "out.json"
    assert entry.main(["--long", "--reuse", str(kept), "--save", str(saved)]) == 0
    assert runs == [True]  # the second call did not run it
    out = capsys.readouterr().out
    assert "the long run: its inputs (" in out and "not run again" in out
    assert "ascent.equal.converse" in out and "2 properties, 0 failed" in out
    assert json.loads(saved.read_text(encoding="utf-8"))["results"] == written["results"]


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    """A record of these sources (the two results above, passed)."""
    results = [_result("ascent.equal.favour"), _result("ascent.equal.converse")]
    payload = {"ok": True, "seconds": 4.0, "mode": "long full", "only": []}
    return record.make_record({**payload, "results": [r.to_json() for r in results]})


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda r: r["inputs"].update(key="0" * 24), "is of other sources"),
        (lambda r: r["inputs"].update(z3="0.0.1"), "was proved by Z3 0.0.1"),
        (lambda r: r.update(ok=False), "is of a long run that failed"),
        (lambda r: r.update(only=["ascent: equal favour"]), "records another run"),
        (lambda r: r.update(mode="full"), "records another run"),
        (lambda r: r.pop("inputs"), "is not a record of the long run"),
        (lambda r: r["results"][0].pop("holds"), "holds a result it cannot read"),
    ],
)
def test_a_record_that_cannot_stand_for_the_run_is_run_again(
    tmp_path: Path,
    recorded: dict[str, Any],
    runs: list[bool],
    capsys: pytest.CaptureFixture[str],
    change: Any,
    why: str,
) -> None:
    kept = tmp_path / "long-run.json"
    written = json.loads(json.dumps(recorded))
    change(written)
    kept.write_text(json.dumps(written), encoding="utf-8")
    assert entry.main(["--long", "--reuse", str(kept)]) == 0
    assert runs == [True]
    out = capsys.readouterr().out
    assert why in out and "the long run: running it" in out
    assert f"bash dev prove-long --record {kept}" in out


@pytest.mark.parametrize("content", [None, "", "{", "[]", '{"inputs": 3}', "\udcff"])
def test_a_missing_or_broken_record_is_run_again(
    tmp_path: Path, runs: list[bool], capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    kept = tmp_path / "long-run.json"
    if content is not None:
        kept.write_bytes(content.encode("utf-8", "surrogateescape"))
    assert entry.main(["--long", "--reuse", str(kept)]) == 0
    assert runs == [True]
    assert "the long run: running it" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["--record", "x.json"], ["--reuse", "x.json"], ["--long", "--fast", "--reuse", "x.json"]],
)
def test_record_and_reuse_are_for_the_whole_long_run(argv: list[str], runs: list[bool]) -> None:
    with pytest.raises(SystemExit) as stopped:
        entry.main(argv)
    assert stopped.value.code == 2 and runs == []
