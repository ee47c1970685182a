"""The mutation list of ``python -m proofs.mutants`` still applies to the code.

Every mutation is ``(file, exact old text, new text)``: when the code moves, the
old text must be found exactly once, or the list is stale and this test (and
the runner) fail loudly, naming the mutation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.mutants import MutationError, apply_to, check
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
