"""The docs extension's building blocks: clause lookup in sources, re-export homes, RST text."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from castlerules_sphinx import home_of, rst  # noqa: E402
from castlerules_sphinx.pages import _proof, linked  # noqa: E402
from castlerules_sphinx.scan import clause_ids_in, scan_citations, scan_tests  # noqa: E402
from castlerules_sphinx.site import (  # noqa: E402
    ProofRow,
    SiteError,
    _recorded_proofs,
    _run_proofs,
    collect_options,
)

import proofs  # noqa: E402
from castlerules import ascent, throne  # noqa: E402
from castlerules.core import CLAUSES  # noqa: E402


def test_clause_ids_are_read_as_whole_words_only() -> None:
    assert clause_ids_in("floor full (B7); see B10 and A1, not B17 or XB7 or B7x", CLAUSES) == (
        "B7",
        "B10",
        "A1",
    )


def test_tests_are_found_by_the_clause_in_their_name_or_docstring() -> None:
    found = scan_tests(ROOT, CLAUSES)
    mine = {t.name: t for t in found if t.path == "tests/docs/test_svg.py"}
    assert mine["test_a7_protected_card_above_its_ceiling_is_marked"].clauses == ("A7",)
    assert mine["test_b10_b13_candidate_and_eliminated_are_marked"].clauses == ("B10", "B13")
    assert all(t.anchor.startswith("test-tests-") for t in found)
    assert len({t.anchor for t in found}) == len(found)


def test_engine_citations_point_at_functions() -> None:
    cites = scan_citations(ROOT, "throne", "B15", skip=("diagram.py",))
    assert cites
    assert all(c.path.startswith("castlerules/throne/") for c in cites)
    assert not any(c.path.endswith("diagram.py") for c in cites)


@pytest.mark.parametrize(
    ("target", "context", "home"),
    [
        ("castlerules.throne.Rules", None, "castlerules.throne.rules.Rules"),
        ("castlerules.throne.apply", None, "castlerules.throne.transitions.apply"),
        ("Rules", "castlerules.ascent", "castlerules.ascent.rules.Rules"),
        ("NOTES", "castlerules.throne", "castlerules.throne.notes.NOTES"),
        ("castlerules.core.CLAUSES", None, "castlerules.core.clauses.CLAUSES"),
        ("Move", "castlerules.ascent.state", "castlerules.ascent.moves.Move"),
        ("castlerules.throne.Rules.preset", None, "castlerules.throne.rules.Rules.preset"),
    ],
)
def test_reexported_names_are_sent_to_their_home(
    target: str, context: str | None, home: str
) -> None:
    assert home_of(target, context) == home


@pytest.mark.parametrize(
    ("target", "context"),
    [
        ("castlerules.throne.rules.Rules", None),  # already home
        ("enum.Enum", "castlerules.ascent.rules"),  # not ours
        ("int", None),
    ],
)
def test_other_names_are_left_alone(target: str, context: str | None) -> None:
    assert home_of(target, context) is None


def test_a_files_imports_are_read_once_per_version(tmp_path: Path) -> None:
    """The names a source imports under their own name, each from the first module (in
    ast.walk's order); an alias or a relative import is not one; a new version of the
    file is read again."""
    from castlerules_sphinx import _imports_of

    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from a.b import X, Y as Z, W as W\n"
        "from .here import V\n"
        "if TYPE_CHECKING:\n"
        "    from c import X, U\n",
        encoding="utf-8",
    )
    stamp = source.stat().st_mtime_ns
    found = _imports_of(str(source), stamp)
    assert found == {"TYPE_CHECKING": "typing", "X": "a.b", "W": "a.b", "U": "c"}
    source.write_text("from d import Y\n", encoding="utf-8")
    assert _imports_of(str(source), stamp) == found  # the same version: not read again
    assert _imports_of(str(source), stamp + 1) == {"Y": "d"}


def test_rst_escaping_keeps_markup_out() -> None:
    assert rst.escape("a *b* `c` |d| _e_ [f] <g>") == (
        "a \\*b\\* \\`c\\` \\|d\\| \\_e\\_ \\[f\\] \\<g\\>"
    )
    assert rst.literal("x ``y``") == "``x ''y''``"
    assert rst.title("B7 · x", "-").splitlines()[1] == "------"
    table = rst.list_table(["A", "B"], [["1", "2"]])
    assert "* - A" in table and "  - 2" in table


def test_clause_ids_in_brackets_become_links() -> None:
    assert linked("protected (A7); see (A3, A6)") == (
        "protected (:clause:`A7`); see (:clause:`A3`, :clause:`A6`)"
    )
    assert linked("seat B7x (Z9)") == "seat B7x (Z9)"


def test_options_know_their_clauses_from_docs_and_notes() -> None:
    ascent_options = {o.name: o for o in collect_options(ascent)}
    assert "A13" in ascent_options["upper_half"].clauses
    assert "A7" in ascent_options["allow_exposing_split"].clauses
    assert ascent_options["favours_per_move"].presets == (("GENEROUS", None),)
    throne_options = {o.name: o for o in collect_options(throne)}
    assert "B15" in throne_options["bonus_points"].clauses
    assert throne_options["placement_floors"].presets == (("ORIGINAL", (2, 3, 4, 5)),)


# --------------------------------------------------------------------------- saved proof results


def _saved(tmp_path: Path, **extra: object) -> Path:
    row = {
        "name": "throne.example",
        "game": "throne",
        "title": "An example property",
        "clauses": ["B7"],
        "method": "induction",
        "verdict": "proved",
        "ok": True,
        "seconds": 0.5,
        "scope": "3 players",
        "detail": "",
        "trace": None,
    }
    path = tmp_path / "proofs.json"
    path.write_text(json.dumps({"ok": True, "mode": "fast", "results": [row], **extra}))
    return path


def test_saved_proofs_with_the_current_source_hash_are_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proofs, "source_hash", lambda: "cafe", raising=False)
    monkeypatch.setenv("CASTLERULES_PROOFS_JSON", str(_saved(tmp_path, source="cafe")))
    found = _recorded_proofs(ROOT)
    assert found is not None
    rows, mode = found
    assert [r.name for r in rows] == ["throne.example"]
    assert rows[0].clauses == ("B7",) and rows[0].trace_positions == ()
    assert mode == "fast mode, saved by ``python -m proofs --save`` in ``proofs.json``"


def test_saved_proofs_of_other_sources_are_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recorded source hash decides, whatever the file's date."""
    monkeypatch.setattr(proofs, "source_hash", lambda: "cafe", raising=False)
    monkeypatch.setenv("CASTLERULES_PROOFS_JSON", str(_saved(tmp_path, source="beef")))
    assert _recorded_proofs(ROOT) is None


def test_saved_proofs_without_a_source_hash_are_judged_by_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _saved(tmp_path)
    monkeypatch.setenv("CASTLERULES_PROOFS_JSON", str(path))
    os.utime(path, (1, 1))  # older than every source
    assert _recorded_proofs(ROOT) is None
    future = time.time() + 3600
    os.utime(path, (future, future))
    assert _recorded_proofs(ROOT) is not None


def test_saved_proofs_that_cannot_be_read_fail_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "proofs.json"
    path.write_text('{"results": [{"name": "x"}]}')
    monkeypatch.setenv("CASTLERULES_PROOFS_JSON", str(path))
    with pytest.raises(SiteError, match="cannot be read as proof results"):
        _recorded_proofs(ROOT)
    monkeypatch.setenv("CASTLERULES_PROOFS_JSON", str(tmp_path / "missing.json"))
    assert _recorded_proofs(ROOT) is None


def test_a_sensitivity_explanation_that_no_longer_holds_fails_the_build() -> None:
    """The proofs page explains favour_equal_rank (A10) by what its result computes."""
    row = ProofRow(
        name="ascent.sensitivity.favour_equal_rank",
        game="ascent",
        title="t",
        clauses=("A10",),
        method="BMC depth 8",
        verdict="refuted",
        ok=True,
        seconds=1.0,
        scope="",
        detail="with the mutation, xB0 takes a leader of the taker's own rank; the engine "
        "refuses xB0 (move 3, A11): no favour is pending (A11); the invariant and the ceiling "
        "still hold with this mutation (induction)",
        trace_positions=(),
        trace_moves=(),
        trace_note="",
    )
    text = _proof(row)
    assert "breaks no invariant" in text and ":clause:`A10`" in text
    assert "citing :clause:`A11` (an equal rank being no favour under A10" in text
    broken = ProofRow(**{**row.__dict__, "detail": "with this mutation the invariant fails"})
    with pytest.raises(SiteError, match="no longer says"):
        _proof(broken)


def test_the_docs_build_says_a_line_per_property_while_the_proofs_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The proofs step is long: it announces itself, then one line per property as its job
    ends (the real run_all's progress callback), so the build is never silent."""
    from types import SimpleNamespace

    def run_all(fast: bool, progress: Any) -> list[Any]:
        one = SimpleNamespace(game="throne", title="floors hold at most 4", ok=True, seconds=1.5)
        two = SimpleNamespace(game="ascent", title="cards are conserved", ok=False, seconds=0.2)
        progress(1, 2, "throne: invariant", [one])
        progress(2, 2, "ascent: conservation", [two])
        return [one, two]

    monkeypatch.setattr(proofs, "run_all", run_all)
    lines: list[str] = []
    results, mode = _run_proofs(True, say=lines.append)
    assert len(results) == 2 and mode == "fast mode, run by the docs build"
    assert lines[0].startswith("castlerules: running the proofs (fast mode;")
    assert lines[1].startswith("castlerules: proofs [1/2 jobs, ")
    assert lines[1].endswith("throne: floors hold at most 4: ok (1.5 s)")
    assert lines[2].endswith("ascent: cards are conserved: FAILED (0.2 s)")
    assert len(lines) == 3


def test_a_generated_page_is_replaced_in_one_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tests build sites in parallel workers into the same generated pages: a page
    is written to a file of its own, then put in place, so that a build reading it at
    the same time never sees half of it (a failure seen as duplicate labels)."""
    page = tmp_path / "register" / "ascent-1.rst"
    rst.write_if_changed(page, "old\n")
    seen: list[str] = []
    real_replace = os.replace

    def replace(source: Any, target: Any) -> None:
        seen.append(Path(target).read_text(encoding="utf-8"))  # what a reader sees meanwhile
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    rst.write_if_changed(page, "new\n" * 1000)
    assert seen == ["old\n"] and page.read_text(encoding="utf-8") == "new\n" * 1000
    rst.write_if_changed(page, "new\n" * 1000)  # unchanged: not written again
    assert len(seen) == 1
    assert sorted(p.name for p in page.parent.iterdir()) == ["ascent-1.rst"]


def test_pages_are_read_again_unless_told_their_inputs_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``env-get-outdated``: every page is read again at every build, except under
    ``CASTLERULES_DOCS_READ_ONCE=1`` (``bash dev docs``'s doctest build, after its HTML
    build) when the inputs' key is the one the environment was saved with; a change
    to an engine file (not a ``.py``: the casebook's games) changes the key."""
    import shutil
    from types import SimpleNamespace

    from castlerules_sphinx import READ_ONCE, inputs_key, outdated

    for part in ("castlerules", "proofs", "docs/_ext"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("*.pyc"))
    app: Any = SimpleNamespace(srcdir=str(tmp_path / "docs"))
    env: Any = SimpleNamespace(found_docs={"index", "throne", "casebook-ascent"})
    monkeypatch.delenv(READ_ONCE, raising=False)
    assert sorted(outdated(app, env, set(), {"index"}, set())) == ["casebook-ascent", "throne"]
    assert env.castlerules_inputs == inputs_key(tmp_path)
    assert len(outdated(app, env, set(), set(), set())) == 3  # read again: not told
    monkeypatch.setenv(READ_ONCE, "1")
    assert inputs_key(tmp_path) == env.castlerules_inputs  # the variable is not an input
    assert outdated(app, env, set(), set(), set()) == []  # same inputs: nothing forced
    found = tmp_path / "castlerules" / "casebook" / "found.json"
    found.write_text(found.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert len(outdated(app, env, set(), set(), set())) == 3  # another key: read again
    assert outdated(app, env, set(), set(), set()) == []
    monkeypatch.setenv("CASTLERULES_PROOFS_JSON", str(tmp_path / "other.json"))
    assert len(outdated(app, env, set(), set(), set())) == 3  # other proof results


def test_the_generated_pages_are_kept_only_when_told_their_inputs_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``builder-inited``: the pages are generated again at every build, except under
    ``CASTLERULES_DOCS_READ_ONCE=1`` when the environment was saved with the inputs' key
    of now and the pages are there (the doctest build after its HTML build); a change to
    an input generates them again."""
    import shutil
    from types import SimpleNamespace

    import castlerules_sphinx
    from castlerules_sphinx import READ_ONCE, generate, inputs_key
    from sphinx.errors import ExtensionError

    for part in ("castlerules", "proofs", "docs/_ext"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("*.pyc"))
    (tmp_path / "docs" / "_generated").mkdir()
    calls: list[Path] = []

    def collect(root: Path, *args: Any, **kwargs: Any) -> Any:
        calls.append(root)
        raise castlerules_sphinx.SiteError("collected")

    monkeypatch.setattr(castlerules_sphinx, "collect", collect)
    env: Any = SimpleNamespace(castlerules_inputs=inputs_key(tmp_path))
    config = SimpleNamespace(castlerules_proofs_fast=True, castlerules_require_proofs=True)
    app: Any = SimpleNamespace(srcdir=str(tmp_path / "docs"), env=env, config=config)
    monkeypatch.delenv(READ_ONCE, raising=False)
    with pytest.raises(ExtensionError, match="collected"):
        generate(app)  # not told: generated again
    monkeypatch.setenv(READ_ONCE, "1")
    generate(app)  # told, same inputs, the pages there: kept
    assert calls == [tmp_path]
    found = tmp_path / "castlerules" / "casebook" / "found.json"
    found.write_text(found.read_text(encoding="utf-8") + " ", encoding="utf-8")
    with pytest.raises(ExtensionError, match="collected"):
        generate(app)  # another key: generated again
    env.castlerules_inputs = inputs_key(tmp_path)
    shutil.rmtree(tmp_path / "docs" / "_generated")
    with pytest.raises(ExtensionError, match="collected"):
        generate(app)  # the pages are gone: generated again
    assert len(calls) == 3
