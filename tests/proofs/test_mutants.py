"""The mutation list of ``python -m proofs.mutants`` still applies to the code.

Every mutation is ``(file, exact old text, new text)``: when the code moves, the
old text must be found exactly once, or the list is stale and this test (and
the runner) fail loudly, naming the mutation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import attrs
import pytest

from proofs.mutants import (
    Execute,
    Memo,
    MutationError,
    Outcome,
    apply_to,
    check,
    make_executor,
    mutated,
    run_one,
    summary,
)
from proofs.mutation_list import MUTATIONS, Mutation


def test_every_mutation_applies_exactly_once() -> None:
    """Each mutation's old text is in its file exactly once (B1-B16, A1-A18)."""
    assert check() == []
    assert len(MUTATIONS) >= 40


def test_the_list_covers_the_issue_table_and_the_clauses() -> None:
    """Issue 10's table is in the list; every weakened property has a partner."""
    assert sum(m.issue for m in MUTATIONS) >= 9
    clauses = {m.clause for m in MUTATIONS}
    for clause in (
        "B1",
        "B3",
        "B4",
        "B6",
        "B7",
        "B8",
        "B10",
        "B11",
        "B12",
        "B13",
        "B14",
        "B15",
        "B16",
        "A3",
        "A6",
        "A7",
        "A8",
        "A10",
        "A13",
        "A14",
        "A15",
        "A16",
    ):
        assert clause in clauses
    assert all(m.partner for m in MUTATIONS if m.kind == "property")


def test_a_stale_mutation_is_refused(tmp_path: Path) -> None:
    """An old text that is not found exactly once stops the runner."""
    (tmp_path / "f.py").write_text("x = 1\nx = 1\n", encoding="utf-8")
    twice = Mutation("t.twice", "B1", "twice", "f.py", "x = 1", "x = 2")
    with pytest.raises(MutationError, match="found 2 times"):
        apply_to(tmp_path, twice)
    assert check([twice], root=tmp_path) != []


def test_a_partial_run_never_replaces_the_published_one() -> None:
    """``--only`` saves beside the published run unless ``--save`` says where."""
    from proofs.mutants import ROOT, save_path

    assert save_path(None, []) == str(ROOT / "docs" / "mutations.json")
    assert save_path(None, ["throne."]) == str(ROOT / "artifacts" / "mutations-only.json")
    assert save_path("x.json", ["throne."]) == "x.json"


def test_the_docs_page_is_the_last_run() -> None:
    """The published table (docs/mutations.rst) is generated from docs/mutations.json."""
    import json

    from proofs.mutants import ROOT, docs_page

    saved = ROOT / "docs" / "mutations.json"
    if not saved.exists():
        pytest.skip("no mutation run saved yet")
    payload = json.loads(saved.read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "mutations.rst").read_text(encoding="utf-8")
    assert page == docs_page(payload)
    if payload.get("complete", True):
        assert payload["valid"], "the baseline (no mutation) failed: the run is invalid"
    assert {r["id"] for r in payload["rows"]} <= {m.id for m in MUTATIONS}


# --------------------------------------------------------------- the runner's logic
# A planted case: two tiny files stand for an engine module and a model, and a fake
# executor plays the layers: a layer "fails" when the copy holds a text it is told
# to fail on.  Nothing of the real list runs.

ENGINE = "castlerules/throne/transitions.py"
MODEL = "castlerules/symbolic/throne.py"
CLAIM = "proofs/throne.py"


def _planted(tmp_path: Path) -> Path:
    for name, text in (
        (ENGINE, "cap = 4  # B7\n"),
        (MODEL, "model_cap = 4\n"),
        (CLAIM, "claim = 4\n"),
    ):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def _layer_of(m: Mutation, argv: Sequence[str]) -> str:
    from proofs.mutants import commands

    return next(layer for layer, cmd in commands(m).items() if list(cmd) == list(argv))


def _fake(
    m: Mutation, fails: dict[str, Callable[[Path], tuple[str, ...]]]
) -> tuple[Execute, list[str]]:
    """An executor whose layer ``L`` fails with ``fails[L](copy)`` (empty: passes)."""
    calls: list[str] = []

    def execute(argv: Sequence[str], cwd: Path) -> Outcome:
        layer = _layer_of(m, argv)
        calls.append(layer)
        failed = fails.get(layer, lambda _c: ())(cwd)
        return Outcome("killed" if failed else "survived", 0.1, failed)

    return execute, calls


def _engine_mutation(breaks: tuple[str, ...] = ()) -> Mutation:
    return Mutation(
        "throne.planted", "B7", "floors hold five", ENGINE, "cap = 4", "cap = 5", breaks=breaks
    )


def _when_mutated(path: str, text: str, failed: str = "x") -> Callable[[Path], tuple[str, ...]]:
    return lambda copy: (failed,) if text in (copy / path).read_text(encoding="utf-8") else ()


def test_b7_the_first_kill_stops_the_layers_and_the_copy_is_restored(tmp_path: Path) -> None:
    """B7 planted: unit passes, stateful kills; equivalence and proofs are not run."""
    copy = _planted(tmp_path)
    m = _engine_mutation()
    execute, calls = _fake(
        m,
        {
            "stateful": _when_mutated(ENGINE, "cap = 5"),
            "equivalence": _when_mutated(ENGINE, "cap = 5"),
        },
    )
    row = run_one(m, {m.id: m}, copy, execute)
    assert calls == ["unit", "stateful"]
    assert row["layers"] == {
        "unit": "survived",
        "stateful": "killed",
        "equivalence": "not run",
        "proofs": "not run",
    }
    assert row["killed_by"] == ["stateful"]
    assert len(row["kill_commands"]) == 1  # its baseline must pass
    assert (copy / ENGINE).read_text(encoding="utf-8") == "cap = 4  # B7\n"
    # Every layer with --all-layers; a mutation no layer sees survives.
    execute, calls = _fake(m, {})
    row = run_one(m, {m.id: m}, copy, execute, first_kill=False)
    assert calls == ["unit", "stateful", "equivalence", "proofs"]
    assert row["killed_by"] == [] and summary([row])["survivors"] == [m.id]


def test_b7_a_mutation_breaking_a_proved_property_goes_on_to_the_equivalence(
    tmp_path: Path,
) -> None:
    """B7 planted: a unit kill is not enough when a proved property breaks."""
    copy = _planted(tmp_path)
    m = _engine_mutation(breaks=("throne.capacity",))
    kill = _when_mutated(ENGINE, "cap = 5")
    execute, calls = _fake(m, {"unit": kill, "stateful": kill, "equivalence": kill})
    row = run_one(m, {m.id: m}, copy, execute)
    assert calls == ["unit", "equivalence"]
    assert row["layers"]["stateful"] == "not run" and row["layers"]["proofs"] == "not run"
    assert row["killed_by"] == ["unit", "equivalence"]
    assert summary([row])["breaking_a_proved_property_missed_by_proofs_and_equivalence"] == []
    # Missed by equivalence and proofs: the summary names it.
    execute, calls = _fake(m, {"unit": kill})
    row = run_one(m, {m.id: m}, copy, execute)
    assert calls == ["unit", "equivalence", "proofs"]
    assert summary([row])["breaking_a_proved_property_missed_by_proofs_and_equivalence"] == [m.id]


def test_b7_a_runner_error_or_timeout_is_never_a_kill(tmp_path: Path) -> None:
    """B7 planted: an ``error`` or ``timeout`` outcome leaves the mutation alive."""
    copy = _planted(tmp_path)
    m = _engine_mutation()
    for status in ("error", "timeout"):
        row = run_one(m, {m.id: m}, copy, lambda _a, _c, s=status: Outcome(s, 0.1))
        assert row["killed_by"] == [] and row["kill_commands"] == []


def _weak_pair(tmp_path: Path) -> tuple[Mutation, Mutation]:
    partner = Mutation(
        "throne.model.planted",
        "B7",
        "the model's floors hold five",
        MODEL,
        "model_cap = 4",
        "model_cap = 5",
        kind="model",
        breaks=("throne.capacity",),
    )
    weak = Mutation(
        "throne.property.capacity_weak",
        "B7",
        "claim weakened to 5",
        CLAIM,
        "claim = 4",
        "claim = 5",
        kind="property",
        partner=partner.id,
    )
    assert check([partner, weak], root=_planted(tmp_path)) == []
    return partner, weak


def _proofs(catches_partner: bool, weak_still_catches: bool) -> Callable[[Path], tuple[str, ...]]:
    """The planted proofs: throne.capacity fails when the model's cap exceeds the claim."""

    def proofs(copy: Path) -> tuple[str, ...]:
        model = (copy / MODEL).read_text(encoding="utf-8")
        claim = (copy / CLAIM).read_text(encoding="utf-8")
        partner_in = "model_cap = 5" in model
        weak_in = "claim = 5" in claim
        if partner_in and catches_partner and (not weak_in or weak_still_catches):
            return ("throne.capacity",)
        return ()

    return proofs


def test_b7_a_weakened_property_is_killed_when_it_no_longer_catches_its_partner(
    tmp_path: Path,
) -> None:
    """B7 planted: the strong claim catches the partner, the weakened one does not."""
    partner, weak = _weak_pair(tmp_path)
    by_id = {partner.id: partner, weak.id: weak}
    memo = Memo()
    execute, calls = _fake(weak, {"proofs": _proofs(True, False)})
    row = run_one(weak, by_id, tmp_path, execute, memo=memo)
    assert row["layers"]["proofs"] == "killed (catch check)"
    assert row["partner_failed_properties"] == ["throne.capacity"]
    assert row["failed_properties"] == []
    assert calls == ["proofs", "proofs"]  # the partner alone, then with the weakening
    assert summary([row])["property_catches"] == {"throne.capacity": [partner.id]}
    # The partner's own proofs run is the same command: taken from the memo.
    prow = run_one(partner, by_id, tmp_path, execute, memo=memo)
    assert calls == ["proofs", "proofs"] and prow["killed_by"] == ["proofs"]
    assert (tmp_path / MODEL).read_text(encoding="utf-8") == "model_cap = 4\n"
    assert (tmp_path / CLAIM).read_text(encoding="utf-8") == "claim = 4\n"


def test_b7_a_weakening_that_still_catches_or_a_partner_never_caught_is_not_a_kill(
    tmp_path: Path,
) -> None:
    """B7 planted: the catch check is honest both ways."""
    partner, weak = _weak_pair(tmp_path)
    by_id = {partner.id: partner, weak.id: weak}
    execute, _ = _fake(weak, {"proofs": _proofs(True, True)})
    assert run_one(weak, by_id, tmp_path, execute)["layers"]["proofs"] == "survived"
    execute, calls = _fake(weak, {"proofs": _proofs(False, False)})
    row = run_one(weak, by_id, tmp_path, execute)
    assert row["layers"]["proofs"].startswith("invalid") and row["killed_by"] == []
    assert calls == ["proofs"]  # the weakening is not tried against nothing


def test_b7_a_partner_that_does_not_break_the_property_is_refused(tmp_path: Path) -> None:
    """B7: the list must say which property each partner breaks (else --check fails)."""
    partner, weak = _weak_pair(tmp_path)
    loose = Mutation(**{**attrs.asdict(partner, recurse=False), "breaks": ()})
    assert any("does not declare" in p for p in check([loose, weak], root=tmp_path))


def test_b7_real_kill_detection_in_a_planted_copy(tmp_path: Path) -> None:
    """B7 planted: the real executor runs pytest in the copy, with the mutation on."""
    (tmp_path / "rule.py").write_text("CAP = 4\n", encoding="utf-8")
    (tmp_path / "test_rule.py").write_text(
        "from rule import CAP\n\ndef test_b7_cap():\n    assert CAP == 4\n", encoding="utf-8"
    )
    m = Mutation("x.cap", "B7", "cap 5", "rule.py", "CAP = 4", "CAP = 5")
    execute = make_executor(120)
    argv = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "test_rule.py"]
    assert execute(argv, tmp_path).status == "survived"
    with mutated(tmp_path, m):
        assert execute(argv, tmp_path).status == "killed"
    assert execute(argv, tmp_path).status == "survived"  # restored, no stale bytecode
    missing = execute([*argv[:-1], "no_such_test.py"], tmp_path)
    assert missing.status == "error"  # pytest's usage error is not a kill


def test_the_proofs_report_is_read_or_refused() -> None:
    """The failed properties come from the JSON report; no report is not a pass."""
    from proofs.mutants import _failed_properties

    report = '{"ok": false, "results": [{"name": "a.b", "ok": false}, {"name": "c", "ok": true}]}'
    assert _failed_properties("progress\n" + report) == ("a.b",)
    assert _failed_properties("Traceback ...") is None


def test_a_pytest_kill_needs_the_baseline_of_the_tests_that_failed() -> None:
    """The baseline of a pytest kill is the failing tests alone, with the same options."""
    from proofs.mutants import PYTEST, failing_tests, kill_command

    output = (
        "..F\n=== short test summary info ===\n"
        "FAILED tests/symbolic/test_throne.py::test_b3[SEED-3] - assert 1\n"
        "ERROR tests/throne/test_api.py - ImportError\n"
        "FAILED tests/ascent/test_notation.py::test_bad[L0,- -/- 0 -] - Failed: DID NOT RAISE\n"
    )
    ids = failing_tests(output)
    assert ids == (
        "tests/symbolic/test_throne.py::test_b3[SEED-3]",
        ("tests/throne/test_api.py"),
        "tests/ascent/test_notation.py::test_bad[L0,- -/- 0 -]",  # " - " inside the id
    )
    layer = [*PYTEST, "tests/proofs/test_boundaries.py", "tests/symbolic/test_throne.py"]
    assert kill_command(layer, Outcome("killed", 1.0, ids)) == [*PYTEST, *ids]
    assert kill_command(layer, Outcome("killed", 1.0)) == layer  # nothing named: all of it
    proofs = ["-m", "proofs", "--fast", "--only", "throne: premises"]
    assert kill_command(proofs, Outcome("killed", 1.0, ("throne.premises",))) == proofs


def test_b4_a_module_mutation_runs_the_tests_of_its_module_alone(tmp_path: Path) -> None:
    """B4 planted in a module outside the engines (a view that leaks an objective): its
    one layer is the module's own tests, with every layer (--all-layers) too; the list
    refuses a module mutation without tests, or tests on another kind."""
    from proofs.mutants import commands

    view = tmp_path / "castlerules" / "boards.py"
    view.parent.mkdir(parents=True, exist_ok=True)
    view.write_text("shown = seat is not None  # B4\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_boards.py").write_text("", encoding="utf-8")
    m = Mutation(
        "boards.planted",
        "B4",
        "a spectator sees an objective",
        "castlerules/boards.py",
        "shown = seat is not None",
        "shown = True",
        kind="module",
        tests=("tests/test_boards.py",),
    )
    assert check([m], root=tmp_path) == []
    assert commands(m)["unit"][-1] == "tests/test_boards.py"
    for first_kill in (True, False):
        execute, calls = _fake(m, {"unit": _when_mutated(m.file, "shown = True")})
        row = run_one(m, {m.id: m}, tmp_path, execute, first_kill=first_kill)
        assert calls == ["unit"]
        assert row["layers"] == {
            "unit": "killed",
            "stateful": "-",
            "equivalence": "-",
            "proofs": "-",
        }
        assert summary([row])["module_mutations"] == 1
    assert summary([row])["module_survivors"] == []
    untested = attrs.evolve(m, tests=())
    assert "names its tests" in " ".join(check([untested], root=tmp_path))
    stray = attrs.evolve(m, kind="engine")
    assert "names its tests" in " ".join(check([stray], root=tmp_path))
    missing = attrs.evolve(m, tests=("tests/test_nothing.py",))
    assert "no test file" in " ".join(check([missing], root=tmp_path))
