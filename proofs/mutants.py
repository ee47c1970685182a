"""``python -m proofs.mutants``: what would catch a wrong rule?  A mutation score.

Every mutation of :data:`proofs.mutation_list.MUTATIONS` is applied, one at a
time, to a temporary copy of the repository, and four layers are run on it
(only the tests that matter to the mutated module):

``unit``
    the game's unit tests (``tests/<game>``, the stateful machine and the
    notation tests aside);
``stateful``
    the game's Hypothesis state machine (``tests/throne/test_stateful.py``,
    ``tests/ascent/test_machine.py``);
``equivalence``
    the bridge tests and, for Throne, the exhaustive small-scope equivalence
    (``tests/proofs/test_<game>_bridge.py``, ``tests/proofs/test_equivalence.py``);
``proofs``
    ``python -m proofs --fast --only ...``: for an engine mutation the jobs that
    run the engine (premises, witnesses, sensitivity replays); for a rule table,
    a model or a property, every job of the game.

A layer *kills* the mutation when it fails.  By default the layers run in the
order equivalence, unit, stateful, and stop at the first kill (``not run``
after it); the proofs run for every table, model and property mutation and
every mutation that breaks a proved property, and for any mutation the
pytest layers missed.  ``--all-layers`` runs every layer of every mutation
(the full matrix; about four times longer).  The model and property mutations
do not touch the engine: their unit and stateful layers are not run (``-``).
A weakened property (kind ``property``) is applied together with its partner:
it is killed when the property no longer catches the partner (the check that
each proved property catches at least one mutation).

Options: ``--jobs N`` (mutations run in parallel, default 2), ``--only ID``
(repeatable, prefix), ``--check`` (only check that every mutation applies
exactly once), ``--save FILE`` (default ``docs/mutations.json``), ``--docs``
(regenerate ``docs/mutations.rst`` from the saved JSON, without running).
The pytest layers use the ``mutants`` Hypothesis profile (6 examples a test,
derandomized: the same examples every run) and stop at the first failure
(``-x``): a kill needs one failing test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from proofs.mutation_list import MUTATIONS, NOTES, Mutation

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("unit", "stateful", "equivalence", "proofs")
TIMEOUT = 1200
"""Seconds before a layer is stopped: reported as ``timeout``, which is *not* a
kill (on a loaded machine a layer may just be slow; an endless game would
show as a timeout too, and is then looked at by hand)."""

_IGNORE = shutil.ignore_patterns(
    ".venv",
    ".git",
    "_build",
    "artifacts",
    "__pycache__",
    ".hypothesis",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    "*.egg-info",
)


BASELINES = (
    Mutation("baseline.throne", "-", "no mutation", "castlerules/throne/transitions.py", "", "x"),
    Mutation("baseline.ascent", "-", "no mutation", "castlerules/ascent/transitions.py", "", "x"),
)
"""Run first, with every layer: a layer that fails without a mutation would "kill"
every mutation, so a failing baseline makes the whole run invalid."""


class MutationError(Exception):
    """A mutation's old text is not found exactly once: the list must be updated."""


def game_of(m: Mutation) -> str:
    return "throne" if "throne" in m.file else "ascent"


def check(mutations: Sequence[Mutation] = MUTATIONS, root: Path = ROOT) -> list[str]:
    """The problems of the list: an old text not found exactly once, a duplicate id,
    an unknown partner, no change.  Empty when every mutation applies."""
    problems = []
    ids = [m.id for m in mutations]
    for m in mutations:
        if ids.count(m.id) > 1:
            problems.append(f"{m.id}: duplicate id")
        if m.old == m.new:
            problems.append(f"{m.id}: the new text is the old text")
        if m.partner and m.partner not in ids:
            problems.append(f"{m.id}: unknown partner {m.partner}")
        text = (root / m.file).read_text(encoding="utf-8")
        found = text.count(m.old)
        if found != 1:
            problems.append(f"{m.id}: old text found {found} times in {m.file}: {m.old!r:.80}")
    return problems


def apply_to(copy: Path, m: Mutation) -> None:
    """Apply ``m`` in the copy; :class:`MutationError` if its old text is not there once."""
    path = copy / m.file
    text = path.read_text(encoding="utf-8")
    if text.count(m.old) != 1:
        raise MutationError(
            f"{m.id}: old text found {text.count(m.old)} times in {m.file}: {m.old!r:.80}"
        )
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")


def _tests(m: Mutation) -> dict[str, list[str]]:
    game = game_of(m)
    stateful = (
        "tests/throne/test_stateful.py" if game == "throne" else "tests/ascent/test_machine.py"
    )
    equiv = [f"tests/proofs/test_{game}_bridge.py"]
    if game == "throne":  # the exhaustive check first: it is the faster to fail
        equiv.insert(0, "tests/proofs/test_equivalence.py")
    return {
        # The notation tests (position and move text) are left out: they test the
        # notation, not the rules, and take most of the time.
        "unit": [
            f"tests/{game}",
            f"--ignore={stateful}",
            f"--ignore=tests/{game}/test_notation.py",
        ],
        "stateful": [stateful],
        "equivalence": equiv,
    }


def _proof_tasks(m: Mutation) -> list[str]:
    game = game_of(m)
    if m.file.endswith("transitions.py"):
        if game == "throne":
            return ["throne: premises", "throne: witnesses", "throne: sensitivity"]
        return ["ascent: premises", "ascent: sensitivity"]
    return [f"{game}:"]


def _run(cmd: list[str], cwd: Path) -> tuple[str, str, float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(cwd)
    env["HYPOTHESIS_PROFILE"] = "mutants"
    env.pop("PYTEST_ADDOPTS", None)
    started = time.perf_counter()
    try:
        done = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout", "", time.perf_counter() - started
    seconds = time.perf_counter() - started
    return ("killed" if done.returncode != 0 else "survived"), done.stdout + done.stderr, seconds


def _failed_properties(output: str) -> list[str]:
    try:
        start = output.index("{")
        payload = json.loads(output[start : output.rindex("}") + 1])
    except ValueError:
        return ["(no report)"]
    return [r["name"] for r in payload["results"] if not r["ok"]]


def run_one(m: Mutation, by_id: dict[str, Mutation], first_kill: bool = True) -> dict[str, Any]:
    """Apply ``m`` (and its partner) in a temporary copy and run its layers."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="castlerules-mutant-") as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(ROOT, copy, ignore=_IGNORE)
        if m.partner:
            apply_to(copy, by_id[m.partner])
        if m not in BASELINES:
            apply_to(copy, m)
        py = sys.executable
        layers: dict[str, str] = dict.fromkeys(LAYERS, "-")
        seconds: dict[str, float] = {}
        failed: list[str] = []
        engine_side = m.kind in ("engine", "table")
        tests = _tests(m)
        # The proofs run for a table, model or property mutation, for one that breaks
        # a proved property, and when every layer is asked for; else only if the
        # pytest layers all missed it (first_kill).
        must_prove = m.kind != "engine" or bool(m.breaks) or not first_kill
        for layer in ("equivalence", "unit", "stateful"):
            if m.kind == "property" or (not engine_side and layer != "equivalence"):
                continue
            if first_kill and any(v.startswith("killed") for v in layers.values()):
                layers[layer] = "not run"
                continue
            cmd = [py, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-x", "-q"]
            layers[layer], _out, seconds[layer] = _run([*cmd, *tests[layer]], copy)
        killed_before = any(v.startswith("killed") for v in layers.values())
        if must_prove or not killed_before:
            cmd = [py, "-m", "proofs", "--fast", "--json", "--jobs", "1"]
            for task in _proof_tasks(m):
                cmd += ["--only", task]
            verdict, out, seconds["proofs"] = _run(cmd, copy)
            failed = _failed_properties(out) if verdict != "timeout" else ["(timeout)"]
            if m.kind == "property" and verdict == "timeout":
                layers["proofs"] = "timeout"
            elif m.kind == "property":
                # Killed when the weakened property no longer catches its partner.
                parts = m.id.split(".")
                weakened = f"{parts[0]}.{parts[2].removesuffix('_weak')}"
                layers["proofs"] = "survived" if weakened in failed else "killed (catch check)"
            else:
                layers["proofs"] = verdict
        else:
            layers["proofs"] = "not run"
    killed = [name for name, v in layers.items() if v.startswith("killed")]
    return {
        "id": m.id,
        "clause": m.clause,
        "kind": m.kind,
        "what": m.what,
        "file": m.file,
        "issue": m.issue,
        "breaks": list(m.breaks),
        "partner": m.partner,
        "layers": layers,
        "killed_by": killed,
        "failed_properties": failed,
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "wall": round(time.perf_counter() - started, 1),
    }


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Kills per layer, survivors, the goals of issue 10 and which properties catch what."""
    per_layer = {
        layer: sum(1 for r in rows if str(r["layers"].get(layer, "")).startswith("killed"))
        for layer in LAYERS
    }
    survivors = [r["id"] for r in rows if not r["killed_by"]]
    engine = [r for r in rows if r["kind"] in ("engine", "table")]
    proof_or_equiv_missed = [
        r["id"] for r in rows if r["breaks"] and not set(r["killed_by"]) & {"proofs", "equivalence"}
    ]
    catches: dict[str, list[str]] = {}
    for r in rows:
        if r["kind"] == "property":
            continue
        for name in r["failed_properties"]:
            catches.setdefault(name, []).append(str(r["id"]))
    return {
        "mutations": len(rows),
        "killed": len(rows) - len(survivors),
        "per_layer": per_layer,
        "survivors": survivors,
        "engine_mutations": len(engine),
        "engine_survivors": [r["id"] for r in engine if not r["killed_by"]],
        "breaking_a_proved_property_missed_by_proofs_and_equivalence": proof_or_equiv_missed,
        "property_catches": {k: sorted(v) for k, v in sorted(catches.items())},
    }


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "castlerules", "proofs", "tests"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return "unknown"
    return out.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def docs_page(payload: dict[str, Any]) -> str:
    """The docs page "What would catch a wrong rule", from a saved run."""
    rows = payload["rows"]
    assert isinstance(rows, list)
    s = payload["summary"]
    assert isinstance(s, dict)
    lines = [
        ".. This page is generated by ``python -m proofs.mutants --docs`` from",
        "   docs/mutations.json (the last run); do not edit it by hand.",
        "",
        "What would catch a wrong rule",
        "=============================",
        "",
        f"Last run: {payload['date']}, commit ``{payload['commit']}``, "
        f"{payload['seconds']:.0f} s wall and {payload.get('cpu_seconds', 0):.0f} s of CPU "
        f"with {payload['jobs']} parallel mutations ({payload['machine']}; layers "
        f"{payload.get('mode', 'up to the first kill')}).  Baseline without mutation: "
        + (
            "every layer passes."
            if payload.get("valid")
            else "**FAILED or not run: the run is not valid**."
        )
        + (
            ""
            if payload.get("complete", True)
            else f"  **Interrupted: {len(rows)} of {payload['planned']} mutations run** "
            "(the issue's table first); the others are listed in ``proofs/mutation_list.py``."
        ),
        "",
        "Each row is one deliberate mistake, applied alone to a temporary copy of the "
        "repository (``python -m proofs.mutants``; the list is ``proofs/mutation_list.py``). "
        "A layer that fails *kills* it: ``unit`` (the game's unit tests), ``stateful`` "
        "(its Hypothesis state machine), ``equivalence`` (the bridge tests and the "
        "exhaustive small-scope equivalence of engine and model), ``proofs`` "
        "(``python -m proofs --fast`` on the game's jobs).  ``-``: not run (a model or a "
        "property does not touch the engine's tests).  A weakened property is killed "
        "when it no longer catches its partner mutation.",
        "",
        f"**Score: {s['killed']} of {s['mutations']} mutations killed**; per layer: "
        + ", ".join(f"{k} {v}" for k, v in s["per_layer"].items())
        + f".  Engine mutations: {s['engine_mutations']}, survivors: "
        + (", ".join(s["engine_survivors"]) or "none")
        + ".  Mutations breaking a proved property that neither the proofs nor the "
        "equivalence check kill: "
        + (", ".join(s["breaking_a_proved_property_missed_by_proofs_and_equivalence"]) or "none")
        + ".",
        "",
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - mutation",
        "     - clause",
        "     - kind",
        "     - unit",
        "     - stateful",
        "     - equivalence",
        "     - proofs",
        "     - properties that fail",
    ]

    def cell(v: str) -> str:
        return "killed" if v.startswith("killed") else v

    for r in rows:
        assert isinstance(r, dict)
        layers = r["layers"]
        what = str(r["what"]).replace("*", "\\*")
        lines += [
            f"   * - ``{r['id']}``: {what}" + (" (issue 10)" if r["issue"] else ""),
            f"     - {r['clause']}",
            f"     - {r['kind']}",
            *(f"     - {cell(str(layers.get(layer, '-')))}" for layer in LAYERS),
            "     - " + (", ".join(r["failed_properties"]) or "none"),
        ]
    notes = [(str(r["id"]), NOTES[str(r["id"])]) for r in rows if str(r["id"]) in NOTES]
    if notes:
        lines += ["", "Notes on survivors:", ""]
        lines += [f"- ``{mid}``: {text}" for mid, text in notes]
    lines += [
        "",
        "Which proved property catches which mutation (a property that appears here "
        "is not vacuous: it fails when the rules are wrong):",
        "",
    ]
    for name, ids in s["property_catches"].items():
        lines.append(f"- ``{name}``: {', '.join(ids)}")
    lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs.mutants", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--docs", action="store_true")
    parser.add_argument(
        "--all-layers", action="store_true", help="run every layer, not only up to the first kill"
    )
    parser.add_argument("--save", default=str(ROOT / "docs" / "mutations.json"))
    args = parser.parse_args(argv)
    problems = check()
    if problems:
        for p in problems:
            print(f"MUTATION DOES NOT APPLY: {p}", file=sys.stderr)
        return 2
    if args.check:
        print(f"{len(MUTATIONS)} mutations, each applies exactly once")
        return 0
    if args.docs:
        saved = json.loads(Path(args.save).read_text(encoding="utf-8"))
        page = ROOT / "docs" / "mutations.rst"
        page.write_text(docs_page(saved), encoding="utf-8")
        print(f"wrote {page}")
        return 0
    chosen = [m for m in MUTATIONS if not args.only or m.id.startswith(tuple(args.only))]
    # The issue's table first, then the mutations that break a proved property and
    # the weakened properties: an interrupted run has the most telling part.
    chosen.sort(key=lambda m: (not m.issue, not (m.breaks or m.partner)))
    # The baselines last: an interrupted run keeps the mutations' results (and says
    # that its baseline is missing).
    chosen = [*chosen, *BASELINES]
    by_id = {m.id: m for m in MUTATIONS}
    started = time.perf_counter()
    cpu0 = os.times()
    rows: dict[str, dict[str, Any]] = {}

    def save(final: bool) -> dict[str, Any]:
        # Saved after every mutation, so that an interrupted run still shows its part.
        cpu1 = os.times()
        base = [rows[m.id] for m in BASELINES if m.id in rows]
        done = [rows[m.id] for m in chosen if m not in BASELINES and m.id in rows]
        broken = [f"{b['id']}: {b['killed_by']}" for b in base if b["killed_by"]]
        payload: dict[str, Any] = {
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": _commit(),
            "seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds": round(
                cpu1.children_user
                + cpu1.children_system
                - cpu0.children_user
                - cpu0.children_system,
                1,
            ),
            "jobs": args.jobs,
            "mode": "all layers" if args.all_layers else "up to the first kill",
            "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
            "complete": final,
            "planned": len(chosen) - len(BASELINES),
            "baseline": base,
            "valid": len(base) == len(BASELINES) and not broken,
            "rows": done,
            "summary": summary(done),
        }
        Path(args.save).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        return payload

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {
            pool.submit(run_one, m, by_id, not args.all_layers and m not in BASELINES): m
            for m in chosen
        }
        for future in as_completed(futures):
            row = future.result()
            rows[str(row["id"])] = row
            verdict = "+".join(row["killed_by"]) or "SURVIVED"
            print(
                f"[{len(rows)}/{len(chosen)}] {row['id']} ... {verdict} {row['wall']} s",
                flush=True,
            )
            save(final=False)
    payload = save(final=True)
    broken = [f"{b['id']}: {b['killed_by']}" for b in payload["baseline"] if b["killed_by"]]
    print(json.dumps(payload["summary"], indent=2))
    if broken:
        print(f"INVALID RUN: the unmutated code fails {broken}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
