"""``python -m proofs.mutants``: what would catch a wrong rule?  A mutation score.

Every mutation of :data:`proofs.mutation_list.MUTATIONS` is applied, one at a
time, to a copy of the repository (one copy per parallel worker, restored after
each mutation), and up to four layers are run on it:

``unit``
    the game's unit tests (``tests/<game>``, the stateful machine and the
    notation tests aside); for a ``module`` mutation (a rule that a module
    outside the engines encodes for itself: an adapter, a bot, a notation, the
    records, a view), the tests of that module (``Mutation.tests``), its only
    layer: the game's machine, bridges and proofs never run that code;
``stateful``
    the game's Hypothesis state machine (``tests/throne/test_stateful.py``,
    ``tests/ascent/test_machine.py``);
``equivalence``
    the boundary-driven bridge (``tests/proofs/test_boundaries.py``), then for
    Throne the kernel on Z3 terms against the kernel on plain values
    (``tests/symbolic/test_throne.py``), for Ascent the exhaustive tie (which also
    compares the proofs' model's reading of who may advance with the kernel's) and
    the sampled bridge (``tests/proofs/test_ascent_bridge.py``), in that order;
``proofs``
    ``python -m proofs --fast --only ...``: for an engine mutation the jobs that
    run the engine (premises, witnesses, sensitivity replays); for a rule
    table, a model, a property, or Throne's rule kernel (the proofs' transition
    system is the kernel on Z3 terms), the premises and the induction proofs of
    the smallest configuration (Throne: SEED, 3 players; Ascent: 2 and 6
    players, every option symbolic).

A layer *kills* the mutation when it fails.  The layers run cheapest likely
killer first (an engine mutation: unit, stateful, equivalence, proofs; a table
that breaks a proved property: unit, proofs, stateful, equivalence, since the
equivalence cannot see a number that engine and model share; a model:
equivalence, proofs, or proofs first when it breaks a proved property) and stop
at the first kill (``not run`` after it), except that a mutation that breaks a
proved property (``breaks``) goes on until the equivalence or the proofs kill
it: those two layers must catch such a mistake.  ``--all-layers`` runs every layer
of every mutation (the full matrix).  A model or property mutation does not
touch the engine: its unit and stateful layers are not run (``-``).

A weakened property (kind ``property``) is checked as the list's "each
property catches a mutation" check would: the proofs run on its partner alone
(the strong property must fail there, else the row says ``invalid``) and on the
partner with the weakening; it is killed when the weakened property holds
there, i.e. no longer catches its partner.

Baselines: every command that killed something (or showed a partner caught)
is also run on an unmutated copy; a failing baseline makes the run invalid
(exit 1).  The pytest layers use the ``mutants`` Hypothesis profile (6 examples
a test, derandomized, no example database: the same examples every run) and
stop at the first failure (``-x``): a kill needs one failing test.  A command
that runs longer than ``--timeout`` seconds is stopped and reported as
``timeout``, which is not a kill.

Options: ``--jobs N`` (parallel workers, default 2), ``--only ID`` (repeatable,
prefix), ``--check`` (only check that every mutation applies exactly once),
``--save FILE`` (default ``docs/mutations.json``, the published run; with
``--only``, ``artifacts/mutations-only.json``, so that a partial run never
replaces the published one), ``--docs`` (regenerate
``docs/mutations.rst`` from the saved JSON, without running), ``--timeout S``.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from proofs.mutation_list import MUTATIONS, NOTES, Mutation

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("unit", "stateful", "equivalence", "proofs")
PYTEST = ["-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-x", "-q"]
"""How every pytest layer starts (one process, no cache, stop at the first failure)."""
GOAL_LAYERS = ("equivalence", "proofs")
"""The layers that must kill a mutation that breaks a proved property."""
TIMEOUT = 600
"""Default seconds before a command is stopped: reported as ``timeout``, which is
*not* a kill (on a loaded machine a layer may just be slow; an endless game
would show as a timeout too, and is then looked at by hand)."""

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


class MutationError(Exception):
    """A mutation's old text is not found exactly once: the list must be updated."""


# ------------------------------------------------------------------ the list
KINDS = ("engine", "table", "model", "property", "module", "bound")
"""The kinds of mutation (see :attr:`Mutation.kind`)."""


def game_of(m: Mutation) -> str:
    return "throne" if "throne" in m.file else "ascent"


def weakened_property(m: Mutation) -> str:
    """The proved property a ``property`` mutation weakens: ``throne.property.x_weak``
    weakens ``throne.x``."""
    parts = m.id.split(".")
    return f"{parts[0]}.{parts[-1].removesuffix('_weak')}"


def check(mutations: Sequence[Mutation] = MUTATIONS, root: Path = ROOT) -> list[str]:
    """The problems of the list: an old text not found exactly once, a duplicate id,
    an unknown partner, a partner that does not break the weakened property, no
    change.  Empty when every mutation applies."""
    problems = []
    ids = [m.id for m in mutations]
    by_id = {m.id: m for m in mutations}
    for m in mutations:
        if ids.count(m.id) > 1:
            problems.append(f"{m.id}: duplicate id")
        if m.kind not in KINDS:
            problems.append(f"{m.id}: unknown kind {m.kind!r}")
        if (m.kind == "module") != bool(m.tests):
            problems.append(f"{m.id}: a module mutation, and only one, names its tests")
        for test in m.tests:
            if not (root / test.split("::")[0]).exists():
                problems.append(f"{m.id}: no test file {test}")
        if m.kind == "property":
            partner = by_id.get(m.partner)
            if partner is None:
                problems.append(f"{m.id}: unknown partner {m.partner!r}")
            elif weakened_property(m) not in partner.breaks:
                problems.append(
                    f"{m.id}: its partner {m.partner} does not declare that it breaks "
                    f"{weakened_property(m)}"
                )
        elif m.partner:
            problems.append(f"{m.id}: only a weakened property has a partner")
        path = root / m.file
        if not path.exists():
            problems.append(f"{m.id}: no file {m.file}")
            continue
        text = path.read_text(encoding="utf-8")
        for old, new in m.edits():
            if old == new:
                problems.append(f"{m.id}: the new text is the old text")
            found = text.count(old)
            if found != 1:
                problems.append(f"{m.id}: old text found {found} times in {m.file}: {old!r:.80}")
    return problems


def _forget_bytecode(path: Path) -> None:
    """Remove the cached bytecode of ``path``: a file rewritten twice within the
    same second with the same size would otherwise import stale."""
    cache = path.parent / "__pycache__"
    if cache.is_dir():
        for pyc in cache.glob(f"{path.stem}.*.pyc"):
            pyc.unlink(missing_ok=True)


def apply_to(copy: Path, m: Mutation) -> str:
    """Apply ``m`` in the copy; return the file's text before.  :class:`MutationError`
    if an old text is not there exactly once (the file is then left unchanged)."""
    path = copy / m.file
    before = path.read_text(encoding="utf-8")
    text = before
    for old, new in m.edits():
        if text.count(old) != 1:
            raise MutationError(
                f"{m.id}: old text found {text.count(old)} times in {m.file}: {old!r:.80}"
            )
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    _forget_bytecode(path)
    return before


@contextmanager
def mutated(copy: Path, *mutations: Mutation) -> Iterator[None]:
    """Apply the mutations in order; restore every file afterwards, whatever happens."""
    saved: list[tuple[Path, str]] = []
    try:
        for m in mutations:
            saved.append((copy / m.file, apply_to(copy, m)))
        yield
    finally:
        for path, text in reversed(saved):
            path.write_text(text, encoding="utf-8")
            _forget_bytecode(path)


# ------------------------------------------------------------------ the plan
PROOF_SYSTEMS = ("castlerules/throne/kernel.py", "castlerules/ascent/kernel.py")
"""Engine files the proofs' transition system is made of: their mutations run the
induction proofs too."""


def proof_tasks(m: Mutation) -> list[str]:
    """The ``python -m proofs --only`` tasks of a mutation's proofs layer."""
    game = game_of(m)
    if m.kind == "engine" and m.file not in PROOF_SYSTEMS:
        if game == "throne":
            return ["throne: premises", "throne: witnesses", "throne: sensitivity"]
        return ["ascent: premises", "ascent: sensitivity"]
    if game == "throne":
        return ["throne: premises", "throne: induction SEED 3p", "strength"]
    return ["ascent: premises", "ascent: induction", "strength"]


def commands(m: Mutation) -> dict[str, list[str]]:
    """Each layer's command (without the interpreter) for the mutation's game.
    The same command for every mutation of a game and layer, so that one
    baseline run serves them all."""
    game = game_of(m)
    stateful = (
        "tests/throne/test_stateful.py" if game == "throne" else "tests/ascent/test_machine.py"
    )
    pytest = PYTEST
    equiv = ["tests/proofs/test_boundaries.py"]
    if game == "throne":
        equiv.append("tests/symbolic/test_throne.py")
    else:
        # the exhaustive tie: it also holds the proofs' model's own reading of who may
        # advance to the kernel's
        equiv.append(
            "tests/ascent/test_kernel.py::"
            "test_a1_to_a18_the_engine_is_the_kernel_on_every_reachable_position"
        )
        equiv.append("tests/proofs/test_ascent_bridge.py")
    proofs = ["-m", "proofs", "--fast", "--json", "--jobs", "1"]
    for task in proof_tasks(m):
        proofs += ["--only", task]
    if m.kind == "module":
        return {"unit": [*pytest, *m.tests]}
    return {
        # The notation tests (position and move text) are left out: they test the
        # notation, not the rules.
        "unit": [
            *pytest,
            f"tests/{game}",
            f"--ignore={stateful}",
            f"--ignore=tests/{game}/test_notation.py",
        ],
        "stateful": [*pytest, stateful],
        "equivalence": [*pytest, *equiv],
        "proofs": proofs,
    }


def layer_order(m: Mutation, all_layers: bool = False) -> list[str]:
    """The layers of a mutation, cheapest likely killer first."""
    if m.kind in ("property", "bound"):
        return ["proofs"]
    if m.kind == "module":
        return ["unit"]
    if m.kind == "model":
        return ["proofs", "equivalence"] if m.breaks and not all_layers else list(LAYERS[2:])
    if m.kind == "table" and m.breaks and not all_layers:
        return ["unit", "proofs", "stateful", "equivalence"]
    return list(LAYERS)


# ------------------------------------------------------------------ running
@attrs.frozen
class Outcome:
    """What one command did: ``killed`` (it failed), ``survived`` (it passed),
    ``timeout`` or ``error`` (neither: a runner problem, never a kill)."""

    status: str
    seconds: float
    failed: tuple[str, ...] = ()
    """For the proofs: the properties that failed."""
    tail: str = ""
    """The end of the output, for a reader of the JSON."""


Execute = Callable[[Sequence[str], Path], Outcome]


def _failed_properties(output: str) -> tuple[str, ...] | None:
    """The failed properties of a ``python -m proofs --json`` report, or None."""
    try:
        start = output.index("{")
        payload = json.loads(output[start : output.rindex("}") + 1])
        return tuple(r["name"] for r in payload["results"] if not r["ok"])
    except (ValueError, KeyError, TypeError):
        return None


def failing_tests(output: str) -> tuple[str, ...]:
    """The node ids of pytest's short summary (``-ra``): ``FAILED id - why`` and
    ``ERROR id``, in order, once each.  A parametrized id may itself hold `` - ``
    (a position text): it runs to its closing ``]``."""
    out: list[str] = []
    for line in output.splitlines():
        for head in ("FAILED ", "ERROR "):
            if line.startswith(head):
                rest = line[len(head) :]
                node = rest.split(" - ", 1)[0]
                if "[" in node and not node.endswith("]"):
                    end = rest.find("] - ", len(node))
                    node = rest[: end + 1] if end >= 0 else rest
                node = node.strip()
                if node and node not in out:
                    out.append(node)
    return tuple(out)


def kill_command(argv: Sequence[str], out: Outcome) -> list[str]:
    """The command whose baseline a kill needs: for pytest, only the tests that
    failed (a baseline of what killed, not of the whole layer); else the command."""
    if list(argv[: len(PYTEST)]) != PYTEST or not out.failed:
        return list(argv)
    return [*PYTEST, *out.failed]


def make_executor(timeout: float) -> Execute:
    """Run a command with this interpreter in a copy (its own ``castlerules`` and
    ``proofs`` first on the path)."""

    def execute(argv: Sequence[str], cwd: Path) -> Outcome:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(cwd)
        env["HYPOTHESIS_PROFILE"] = "mutants"
        env.pop("PYTEST_ADDOPTS", None)
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, *argv],
                cwd=cwd,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Outcome("timeout", time.perf_counter() - started)
        seconds = time.perf_counter() - started
        out = done.stdout + done.stderr
        tail = out[-600:]
        if argv[:2] == ["-m", "proofs"]:
            failed = _failed_properties(done.stdout)
            if failed is None:  # a crash: the mutation broke the proofs' own code
                if done.returncode == 0:
                    return Outcome("error", seconds, tail=tail)
                return Outcome("killed", seconds, ("(crash)",), tail)
            return Outcome("killed" if failed else "survived", seconds, failed, tail)
        # pytest: 1 tests failed, 2 interrupted (a collection error: an import failed);
        # 3-5 (internal error, usage error, no tests) are the runner's problem.
        if done.returncode == 0:
            return Outcome("survived", seconds, tail=tail)
        if done.returncode in (1, 2):
            return Outcome("killed", seconds, failing_tests(done.stdout), tail)
        return Outcome("error", seconds, tail=tail)

    return execute


class Memo:
    """Commands already run, by (mutations applied, command): a partner's proofs are
    not run twice, and every killing command gets one baseline run.  Thread-safe:
    a second caller waits for the first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: dict[tuple[tuple[str, ...], tuple[str, ...]], Outcome] = {}
        self._running: dict[tuple[tuple[str, ...], tuple[str, ...]], threading.Event] = {}

    def run(
        self, applied: Sequence[str], argv: Sequence[str], compute: Callable[[], Outcome]
    ) -> Outcome:
        key = (tuple(applied), tuple(argv))
        while True:
            with self._lock:
                if key in self._done:
                    return self._done[key]
                event = self._running.get(key)
                if event is None:
                    event = self._running[key] = threading.Event()
                    break
            event.wait()
        try:
            result = compute()
            with self._lock:
                self._done[key] = result
            return result
        finally:
            with self._lock:
                del self._running[key]
            event.set()

    def get(self, applied: Sequence[str], argv: Sequence[str]) -> Outcome | None:
        with self._lock:
            return self._done.get((tuple(applied), tuple(argv)))


def run_one(
    m: Mutation,
    by_id: dict[str, Mutation],
    copy: Path,
    execute: Execute,
    *,
    first_kill: bool = True,
    memo: Memo | None = None,
) -> dict[str, Any]:
    """Apply ``m`` in ``copy`` (restored afterwards) and run its layers; one row."""
    memo = memo if memo is not None else Memo()
    started = time.perf_counter()
    cmds = commands(m)
    layers: dict[str, str] = dict.fromkeys(LAYERS, "-")
    seconds: dict[str, float] = {}
    failed: tuple[str, ...] = ()
    partner_failed: list[str] = []
    kills: list[list[str]] = []  # the commands that killed: each needs a passing baseline
    tails: dict[str, str] = {}

    def run(applied: Sequence[Mutation], argv: Sequence[str]) -> Outcome:
        ids = [a.id for a in applied]

        def compute() -> Outcome:
            with mutated(copy, *applied):
                return execute(argv, copy)

        return memo.run(ids, argv, compute)

    if m.kind == "property":
        partner = by_id[m.partner]
        prop = weakened_property(m)
        argv = cmds["proofs"]
        alone = run([partner], argv)
        seconds["partner alone"] = alone.seconds
        partner_failed = list(alone.failed)
        if alone.status in ("timeout", "error"):
            layers["proofs"] = alone.status
        elif prop not in alone.failed:
            layers["proofs"] = "invalid (the property does not catch its partner)"
        else:
            kills.append(list(argv))  # the strong property fails: needs a passing baseline
            weak = run([partner, m], argv)
            seconds["proofs"] = weak.seconds
            failed = weak.failed
            if weak.status in ("timeout", "error"):
                layers["proofs"] = weak.status
            elif f"{game_of(m)}.strength" in weak.failed:
                # The weakened property accepts a counter-witness (proofs.strength).
                layers["proofs"] = "killed (counter-witness)"
            elif prop in weak.failed:
                layers["proofs"] = "survived"
            else:
                layers["proofs"] = "killed (catch check)"
            tails["proofs"] = weak.tail
    else:
        killed_any = goal_killed = False
        for layer in layer_order(m, all_layers=not first_kill):
            # Up to the first kill; a mutation that breaks a proved property goes on
            # with the equivalence and the proofs until one of them kills it.
            done = goal_killed or (killed_any and (not m.breaks or layer not in GOAL_LAYERS))
            if first_kill and done:
                layers[layer] = "not run"
                continue
            out = run([m], cmds[layer])
            layers[layer] = out.status
            seconds[layer] = out.seconds
            if out.status != "survived":
                tails[layer] = out.tail
            if layer == "proofs":
                failed = out.failed
            if out.status == "killed":
                kills.append(kill_command(cmds[layer], out))
                killed_any = True
                goal_killed = goal_killed or layer in GOAL_LAYERS
    killed = [name for name, v in layers.items() if v.startswith("killed")]
    return {
        **_identity(m),
        "layers": layers,
        "killed_by": killed,
        "failed_properties": list(failed),
        "partner_failed_properties": partner_failed,
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "wall": round(time.perf_counter() - started, 1),
        "kill_commands": kills,
        "tails": tails,
    }


def _identity(m: Mutation) -> dict[str, Any]:
    """The fields of a row that say which mutation it is (the declaration's own)."""
    return {
        "id": m.id,
        "clause": m.clause,
        "kind": m.kind,
        "what": m.what,
        "file": m.file,
        "issue": m.issue,
        "breaks": list(m.breaks),
        "partner": m.partner,
    }


def error_row(m: Mutation, message: str) -> dict[str, Any]:
    """The row of a mutation the runner could not run (never a kill)."""
    return {
        **_identity(m),
        "layers": dict.fromkeys(LAYERS, "error"),
        "killed_by": [],
        "failed_properties": [],
        "seconds": {},
        "wall": 0.0,
        "kill_commands": [],
        "tails": {"error": message},
    }


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Kills per layer, survivors, the mutations breaking a proved property that the goal
    layers miss, and which properties catch what."""
    per_layer = {
        layer: sum(1 for r in rows if str(r["layers"].get(layer, "")).startswith("killed"))
        for layer in LAYERS
    }
    survivors = [r["id"] for r in rows if not r["killed_by"]]
    engine = [r for r in rows if r["kind"] in ("engine", "table")]
    modules = [r for r in rows if r["kind"] == "module"]
    proof_or_equiv_missed = [
        r["id"] for r in rows if r["breaks"] and not set(r["killed_by"]) & set(GOAL_LAYERS)
    ]
    catches: dict[str, list[str]] = {}
    for r in rows:
        if r["kind"] == "property":
            if r["killed_by"]:  # the strong property caught the partner alone
                catches.setdefault(weakened_property_name(str(r["id"])), []).append(
                    str(r["partner"])
                )
            continue
        for name in r["failed_properties"]:
            if not name.startswith("("):
                catches.setdefault(name, []).append(str(r["id"]))
    return {
        "mutations": len(rows),
        "killed": len(rows) - len(survivors),
        "per_layer": per_layer,
        "survivors": survivors,
        "engine_mutations": len(engine),
        "engine_survivors": [r["id"] for r in engine if not r["killed_by"]],
        "module_mutations": len(modules),
        "module_survivors": [r["id"] for r in modules if not r["killed_by"]],
        "breaking_a_proved_property_missed_by_proofs_and_equivalence": proof_or_equiv_missed,
        "property_catches": {k: sorted(set(v)) for k, v in sorted(catches.items())},
    }


def weakened_property_name(mutation_id: str) -> str:
    parts = mutation_id.split(".")
    return f"{parts[0]}.{parts[-1].removesuffix('_weak')}"


# ------------------------------------------------------------------ the run
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


def make_copy(base: Path, name: str) -> Path:
    """A copy of the repository (sources, tests, docs; no venv, caches or git) whose
    ``castlerules`` and ``proofs`` are the ones a subprocess imports."""
    copy = base / name
    shutil.copytree(ROOT, copy, ignore=_IGNORE)
    probe = subprocess.run(
        [sys.executable, "-c", "import castlerules, proofs; print(castlerules.__file__)"],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy)},
        capture_output=True,
        text=True,
        check=False,
    )
    where = probe.stdout.strip()
    if probe.returncode != 0 or not where.startswith(str(copy)):
        raise RuntimeError(f"the copy's castlerules is not the one imported ({where!r})")
    return copy


COST = {
    "property": 60.0,
    "model": 45.0,
    "table": 25.0,
    "engine": 10.0,
    "module": 5.0,
    "bound": 30.0,
}
"""Rough seconds a mutation takes (to start the longest first)."""


def likely_baselines(chosen: Sequence[Mutation]) -> dict[tuple[str, ...], float]:
    """The baseline commands a run is sure to need, with a rough cost: the proofs
    of the weakened properties (whole commands; a pytest kill's baseline is only
    known once it has failed: the tests that failed)."""
    return {tuple(commands(m)["proofs"]): 40.0 for m in chosen if m.kind == "property"}


class Pool:
    """``n`` threads, each with a copy of its own, taking the urgent jobs (the
    baselines, added as kills come in) before the others (the mutations)."""

    def __init__(self, copies: Sequence[Path]) -> None:
        self.copies = list(copies)
        self.urgent: queue.Queue[Callable[[Path], None]] = queue.Queue()
        self.todo: queue.Queue[Callable[[Path], None]] = queue.Queue()

    def run(self) -> None:
        def worker(copy: Path) -> None:
            while True:
                for q in (self.urgent, self.todo):
                    try:
                        job = q.get_nowait()
                        break
                    except queue.Empty:
                        continue
                else:
                    return
                job(copy)

        threads = [threading.Thread(target=worker, args=(c,)) for c in self.copies]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def save_path(save: str | None, only: Sequence[str]) -> str:
    """Where a run is saved: ``--save``, else the published ``docs/mutations.json`` for a
    whole run and ``artifacts/mutations-only.json`` for a part of the list (``--only``)."""
    if save is not None:
        return save
    if only:
        (ROOT / "artifacts").mkdir(exist_ok=True)
        return str(ROOT / "artifacts" / "mutations-only.json")
    return str(ROOT / "docs" / "mutations.json")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m proofs.mutants", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--docs", action="store_true")
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument(
        "--all-layers", action="store_true", help="run every layer, not only up to the first kill"
    )
    parser.add_argument("--save", default=None)
    parser.add_argument(
        "--generated",
        action="store_true",
        help="run the mutations generated from the kernels and the properties "
        "(proofs.generated) instead of the hand list",
    )
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="run the held-out mutations (proofs.heldout) instead of the hand list",
    )
    args = parser.parse_args(argv)
    mutations: Sequence[Mutation] = MUTATIONS
    if args.held_out:
        from proofs.heldout import HELD_OUT

        mutations = HELD_OUT
        if args.save is None:
            args.save = str(ROOT / "artifacts" / "mutations-held-out.json")
            (ROOT / "artifacts").mkdir(exist_ok=True)
    if args.generated:
        from proofs.generated import generated

        mutations = generated()
        if args.save is None:
            args.save = str(ROOT / "artifacts" / "mutations-generated.json")
            (ROOT / "artifacts").mkdir(exist_ok=True)
    args.save = save_path(args.save, args.only)
    problems = check(mutations)
    if problems:
        for p in problems:
            print(f"MUTATION DOES NOT APPLY: {p}", file=sys.stderr)
        return 2
    if args.check:
        print(f"{len(mutations)} mutations, each applies exactly once")
        return 0
    if args.docs:
        saved = json.loads(Path(args.save).read_text(encoding="utf-8"))
        page = ROOT / "docs" / "mutations.rst"
        page.write_text(docs_page(saved), encoding="utf-8")
        print(f"wrote {page}")
        return 0
    # The rows in the list's order; the work longest first (see below).
    chosen = [m for m in mutations if not args.only or m.id.startswith(tuple(args.only))]
    by_id = {m.id: m for m in mutations}
    execute = make_executor(args.timeout)
    memo = Memo()
    load_before = os.getloadavg()
    started = time.perf_counter()
    cpu0 = os.times()
    rows: dict[str, dict[str, Any]] = {}
    baselines: dict[tuple[str, ...], dict[str, Any]] = {}
    lock = threading.Lock()

    def save(final: bool) -> dict[str, Any]:
        # Saved after every mutation, so that an interrupted run still shows its part.
        cpu1 = os.times()
        done = [rows[m.id] for m in chosen if m.id in rows]
        needed = {tuple(c) for r in done for c in r["kill_commands"]}
        base = [baselines[c] for c in sorted(baselines)]
        broken = [b["command"] for b in base if b["status"] != "survived"]
        missing = sorted(" ".join(c) for c in needed if c not in baselines)
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
            "machine": f"{os.cpu_count()} cores",
            "load_average": {
                "start": [round(x, 2) for x in load_before],
                "end": [round(x, 2) for x in os.getloadavg()],
            },
            "complete": final,
            "planned": len(chosen),
            "baseline": base,
            "valid": final and not broken and not missing,
            "rows": done,
            "summary": summary(done),
        }
        Path(args.save).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        return payload

    with tempfile.TemporaryDirectory(prefix="castlerules-mutants-") as tmp:
        workers = Pool([make_copy(Path(tmp), f"worker{k}") for k in range(max(1, args.jobs))])
        claimed: set[tuple[str, ...]] = set()

        def claim(commands: Sequence[Sequence[str]]) -> None:
            # Under the lock: each new killing command gets its baseline, urgently.
            for command in map(tuple, commands):
                if command not in claimed:
                    claimed.add(command)
                    workers.urgent.put(functools.partial(baseline, command))

        def baseline(argv: tuple[str, ...], copy: Path) -> None:
            out = memo.run((), argv, lambda: execute(argv, copy))
            with lock:
                baselines[argv] = {
                    "command": " ".join(argv),
                    "status": out.status,
                    "seconds": round(out.seconds, 1),
                    "tail": out.tail if out.status != "survived" else "",
                }
                print(f"[baseline] {' '.join(argv)[-70:]} ... {out.status}", flush=True)

        def mutation(m: Mutation, copy: Path) -> None:
            try:
                row = run_one(m, by_id, copy, execute, first_kill=not args.all_layers, memo=memo)
            except Exception as err:  # a runner problem: shown, never a kill
                row = error_row(m, f"{type(err).__name__}: {err}")
            with lock:
                rows[m.id] = row
                claim(row["kill_commands"])
                verdict = "+".join(row["killed_by"]) or "SURVIVED"
                print(
                    f"[{len(rows)}/{len(chosen)}] {m.id} ... {verdict} {row['wall']} s",
                    flush=True,
                )
                save(final=False)

        # Longest first, so that the workers finish together (a weakened property
        # first computes its partner's proofs, which the partner's row then reuses);
        # the baselines as soon as a kill needs them.
        with lock:
            claim(list(likely_baselines(chosen)))
        for m in sorted(chosen, key=lambda m: -COST[m.kind]):
            workers.todo.put(functools.partial(mutation, m))
        workers.run()
        # A kill that came in after the other worker had stopped.
        with lock:
            claim([c for r in rows.values() for c in r["kill_commands"]])
        workers.run()
    payload = save(final=True)
    print(json.dumps(payload["summary"], indent=2))
    broken = [b["command"] for b in payload["baseline"] if b["status"] != "survived"]
    if broken:
        print(f"INVALID RUN: the unmutated code fails {broken}", file=sys.stderr)
        return 1
    return 0


# ------------------------------------------------------------------ the page
def _generated_lines(generated: Any) -> list[str]:
    """The paragraph on the generated mutations (``payload["generated"]``), if any run."""
    if not generated:
        return []
    kinds = ", ".join(f"{k} {v}" for k, v in generated["kinds"].items())
    runs = "  ".join(
        f"{run['date']}, commit ``{run['commit']}``: {run['only']}: {run['killed']} of "
        f"{run['mutations']} killed, {run['seconds']:.0f} s wall"
        + (f" (survivors: {', '.join(run['survivors'])})" if run["survivors"] else "")
        + "."
        for run in generated["runs"]
    )
    return [
        "",
        f"**Generated mutations** (``python -m proofs.mutants --generated``, "
        f"``proofs/generated.py``): {generated['count']} produced mechanically from the "
        f"kernels' guards (removal and negation of each), their ordering comparisons "
        f"(off-by-one each side) and the properties' ``CLAIM_*`` bounds (loosened by one): "
        f"{kinds}.  Runs: {runs}"
        + (
            f"  Not yet run: {generated['count'] - generated['run']}."
            if generated["run"] < generated["count"]
            else ""
        )
        + _equivalent_text(generated),
    ]


def _equivalent_text(generated: Any) -> str:
    """The equivalent mutants set aside (``proofs.generated.EQUIVALENT``) and the score of
    the others, if recorded."""
    aside = generated.get("equivalent", [])
    if not aside:
        return ""
    reasons = "; ".join(f"{e['id']}: {e['reason']}" for e in aside)
    return (
        f"  **{generated['killed']} of the {generated['count'] - len(aside)} that are not "
        f"equivalent killed**; {len(aside)} set aside as equivalent mutants (no reachable "
        f"position tells them from the kernel, ``proofs.generated.EQUIVALENT``; "
        f"``--generated`` no longer runs them): {reasons}."
    )


def _held_out_lines(held: Any) -> list[str]:
    """The paragraph on the held-out mutations (``payload["held_out"]``), if run."""
    if not held:
        return []
    rows = "; ".join(f"{r['id']} ({r['what']}): {r['killed_by']}" for r in held["rows"])
    return [
        "",
        f"**Held-out mutations** (``python -m proofs.mutants --held-out``, "
        f"``proofs/heldout.py``: planted in the properties, the casebook's citations and "
        f"the adapters' tensors, written without running them first): {held['date']}, "
        f"commit ``{held['commit']}``: {held['killed']} of {held['mutations']} killed, "
        f"{held['seconds']:.0f} s wall.  {rows}."
        + (f"  {held['note']}" if held.get("note") else ""),
    ]


def docs_page(payload: dict[str, Any]) -> str:
    """The docs page "What would catch a wrong rule", from a saved run."""
    rows = payload["rows"]
    assert isinstance(rows, list)
    s = payload["summary"]
    assert isinstance(s, dict)
    load = payload.get("load_average", {})
    load_text = (
        f"load average {load['start'][0]:.1f} at the start, {load['end'][0]:.1f} at the end"
        if load
        else "load average not recorded"
    )
    lines = [
        ".. This page is generated by ``python -m proofs.mutants --docs`` from",
        "   docs/mutations.json (the last run); do not edit it by hand.",
        "",
        "What would catch a wrong rule",
        "=============================",
        "",
        f"Last run: {payload['date']}, commit ``{payload['commit']}``, "
        f"{payload['seconds']:.0f} s wall and {payload.get('cpu_seconds', 0):.0f} s of CPU "
        f"with {payload['jobs']} parallel workers ({payload['machine']}, {load_text}; layers "
        f"{payload.get('mode', 'up to the first kill')}).  Baselines (every command that "
        "killed a mutation, run without one): "
        + (
            f"all {len(payload['baseline'])} pass."
            if payload.get("valid")
            else "**FAILED or not run: the run is not valid**."
        )
        + (
            ""
            if payload.get("complete", True)
            else f"  **Interrupted: {len(rows)} of {payload['planned']} mutations run**; "
            "the others are listed in ``proofs/mutation_list.py``."
        )
        + "".join(
            f"  Rows of ``{part['only']}`` from a later run of that part of the list "
            f"({part['date']}, commit ``{part['commit']}``, {part['rows']} mutations, "
            f"{part['seconds']:.0f} s wall)."
            for part in payload.get("merged", [])
        ),
        "",
        "Each row is one deliberate mistake, applied alone to a copy of the "
        "repository (``python -m proofs.mutants``; the list is ``proofs/mutation_list.py``). "
        "A layer that fails *kills* it: ``unit`` (the game's unit tests; for a mutation "
        "of kind ``module``, a rule that a module outside the engines encodes for itself "
        "(an adapter's numbers and tensors, a bot's draw of hidden facts, a notation's own "
        "checks, a record's stored result, a view that keeps a seat's secrets), the tests "
        "of that module, its only layer), ``stateful`` "
        "(its Hypothesis state machine), ``equivalence`` (the boundary bridge, the "
        "exhaustive small-scope equivalence of engine and model, the sampled bridge), "
        "``proofs`` (``python -m proofs --fast`` on the game's jobs: the engine replays for "
        "an engine mutation, the premises and the smallest induction for the others).  "
        "The layers run cheapest likely killer first and stop at the first kill "
        "(``not run`` after it); a mutation that breaks a proved property goes on until "
        "the equivalence or the proofs kill it.  ``-``: not run (a model or a property does "
        "not touch the engine's tests).  A weakened property is killed when it no longer "
        "catches its partner mutation, which the strong property catches.  "
        "``(required)``: one of the mutations that the library's requirements list, each "
        "of which must be killed.",
        "",
        f"**Score: {s['killed']} of {s['mutations']} mutations killed**; per layer: "
        + ", ".join(f"{k} {v}" for k, v in s["per_layer"].items())
        + f".  Engine and table mutations: {s['engine_mutations']}, survivors: "
        + (", ".join(s["engine_survivors"]) or "none")
        + (
            f".  Module mutations: {s['module_mutations']}, survivors: "
            + (", ".join(s["module_survivors"]) or "none")
            if s.get("module_mutations")
            else ""
        )
        + ".  Mutations breaking a proved property that neither the proofs nor the "
        "equivalence check kill: "
        + (", ".join(s["breaking_a_proved_property_missed_by_proofs_and_equivalence"]) or "none")
        + ".",
        *_generated_lines(payload.get("generated")),
        *_held_out_lines(payload.get("held_out")),
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
        "     - seconds",
    ]

    def cell(v: str) -> str:
        return "killed" if v.startswith("killed") else v

    for r in rows:
        assert isinstance(r, dict)
        layers = r["layers"]
        what = str(r["what"]).replace("*", "\\*")
        lines += [
            f"   * - ``{r['id']}``: {what}" + (" (required)" if r["issue"] else ""),
            f"     - {r['clause']}",
            f"     - {r['kind']}",
            *(f"     - {cell(str(layers.get(layer, '-')))}" for layer in LAYERS),
            "     - " + (", ".join(r["failed_properties"]) or "none"),
            f"     - {r['wall']:.0f}",
        ]
    notes = [(m.id, NOTES[m.id]) for m in MUTATIONS if m.id in NOTES]
    if notes:
        lines += ["", "Notes:", ""]
        lines += [f"- ``{mid}``: {text}" for mid, text in notes]
    lines += [
        "",
        "Which proved property catches which mutation (a property that appears here "
        "is not vacuous: it fails when the rules are wrong):",
        "",
    ]
    for name, ids in s["property_catches"].items():
        lines.append(f"- ``{name}``: {', '.join(ids)}")
    lines += ["", *NOT_LISTED, ""]
    return "\n".join(lines)


NOT_LISTED = (
    "The rows of the proof table that are not listed above are not properties that "
    "a mutation could make fail, and each has its own check that it is not vacuous:",
    "",
    "- ``throne.sensitivity.*`` and ``ascent.sensitivity.*`` are expected "
    "*counterexamples*: each shows that a property fails under another reading, and "
    "passes only when Z3 finds that counterexample and the engine replays it under "
    "that reading (an empty model would find none, and the row would fail).",
    "- ``throne.max_reachable.*`` are *witnesses* (a round score of 33 is reachable): "
    "each passes only when a game reaching it is found and replayed by the engine; "
    "``tests/proofs/test_throne_proofs.py::"
    "test_b14_the_witness_fails_when_the_kernel_scores_a_floor_wrong`` shows that a "
    "kernel scoring floor 5 one point high fails it.",
    "- ``ascent.premises`` checks on engine games that every Ascent move kind is "
    "reached, with the model's successor equal to the engine's "
    "(``tests/proofs/test_vacuity.py``); unlike ``throne.premises`` (caught above by "
    "``throne.symbolic.no_initial_state``, and by the planted empty initial states of "
    "that test file), no mutation of the list reaches it yet: a gap, not a proof "
    "that none can.",
)


if __name__ == "__main__":
    sys.exit(main())
