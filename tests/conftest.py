"""Hypothesis profiles: ``default`` for CI and local runs, ``quick`` while editing; the
exhaustive tie's counts printed at the end of a run; JAX's compiler at its lowest effort
for the tests, but for those that ask for the real one (``real_xla_optimizations``)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# JAX: the tests' programs compiled at XLA's lowest effort (JAX reads the variable when it
# is first imported, which is after this file: pytest loads it first, in each xdist
# worker too; the processes the tests start inherit it).  Most of a JAX test's time is
# XLA compiling programs that then play a few moves.  The games are the same at any
# effort (every JAX test checks its games against numpy or the engine); the compiled
# configuration that users get (castlerules.batch.CPU_OPTIONS at XLA's full effort) is
# compiled and played by the tests that take ``real_xla_optimizations`` (the one that
# checks the CPU options are taken), and by the study command's compile-cache test.
# A value set outside (``JAX_DISABLE_MOST_OPTIMIZATIONS=0``) stands.
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    print_blob=True,
)
settings.register_profile("quick", parent=settings.get_profile("default"), max_examples=20)
# python -m proofs.mutants: one mutated copy per run, a kill needs one failing example.
settings.register_profile("mutants", parent=settings.get_profile("default"), max_examples=6)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This test run's own temporary folder, shared by its pytest-xdist workers: under
    pytest-xdist each worker's folder is in the run's folder; alone, the run's folder is
    the base (its parent holds other runs' folders)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def shared_compilations(run_folder: Path) -> None:
    """JAX's persistent compilation cache for this test run, in the run's shared temporary
    folder (both pytest-xdist workers): a program compiled again (another env of the same
    game, players, size and options; a test's second env) is read back rather than
    compiled again.  Every program is kept, however fast it compiled.  Set in JAX's
    configuration, not its environment variables, so that the processes the tests start
    (the study command's compile-cache test) keep their own caches.  Its key holds the
    compiler's options and effort, so ``real_xla_optimizations`` compiles its own.
    Only where the collected tests loaded JAX (the whole suite does): a run of other
    tests, such as each layer of ``python -m proofs.mutants``, does not import it."""
    if "jax" not in sys.modules:
        return
    import jax

    folder = run_folder / "jax-compilations"
    folder.mkdir(exist_ok=True)
    jax.config.update("jax_compilation_cache_dir", str(folder))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)


@pytest.fixture
def real_xla_optimizations() -> Iterator[None]:
    """XLA at its full effort for the programs this test compiles (those of batches made
    in it: a jitted function compiles when first called), as users' programs are;
    the tests' lowest effort back after it."""
    jax = pytest.importorskip("jax")
    before = jax.config.read("jax_disable_most_optimizations")
    jax.config.update("jax_disable_most_optimizations", False)
    try:
        yield
    finally:
        jax.config.update("jax_disable_most_optimizations", before)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The counts of the exhaustive tie of each engine with its kernel (every scope of
    :data:`proofs.equivalence.KERNEL_SCOPES` that ran: positions, pairs, boundaries),
    which the tests record (``record_property("exhaustive", ...)``), also from
    pytest-xdist's workers."""
    lines = sorted(
        {
            str(value)
            for report in terminalreporter.stats.get("passed", ())
            for name, value in getattr(report, "user_properties", ())
            if name == "exhaustive"
        }
    )
    if lines:
        terminalreporter.section("the engines against their kernels, exhaustively")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_collection_modifyitems(items: list[Any]) -> None:
    """The tests marked ``slow`` first, each group in its collected order: pytest-xdist
    hands out the tests in this order (``bash dev test``: ``--dist worksteal``), so a
    long test never starts near the end while the other worker has run out of work."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def distinct_readings(readings: list[tuple[str, str, Any]]) -> list[tuple[str, str, Any]]:
    """The readings ``(option, label, rules)`` of distinct rules, the first of each, as
    ``(test id, label, rules)``: the id pytest would give it among all the readings (its
    label, numbered where labels repeat).  A reading whose rules are another's (each
    option's default reading is the reference rules; a preset is the rules of some
    options' readings) plays the same games, seed for seed."""
    repeats = Counter(label for _option, label, _rules in readings)
    numbered: Counter[str] = Counter()
    kept: dict[Any, tuple[str, str, Any]] = {}
    for _option, label, rules in readings:
        ident = f"{label}{numbered[label]}" if repeats[label] > 1 else label
        numbered[label] += 1
        kept.setdefault(rules, (ident, label, rules))
    return list(kept.values())


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that asks for ``distinct_reading`` runs once per distinct rules of its
    module's ``READINGS`` (:func:`distinct_readings`): the batch's locksteps play each
    rules once."""
    if "distinct_reading" in metafunc.fixturenames:
        kept = distinct_readings(metafunc.module.READINGS)
        metafunc.parametrize("distinct_reading", kept, ids=[k[0] for k in kept])


@pytest.fixture(scope="session")
def searched(run_folder: Path) -> Callable[[Any], Any]:
    """``searched(scope)``: :func:`proofs.equivalence.search` of a scope of the exhaustive
    tie, run once per test run: the first pytest-xdist worker to ask searches and keeps
    the count in the run's shared temporary folder (under a lock), the other reads it."""
    from proofs.equivalence import search

    shared = run_folder / "exhaustive-tie"
    shared.mkdir(exist_ok=True)
    seen: dict[str, Any] = {}

    def run(scope: Any) -> Any:
        key = f"{scope.game}-{scope.name}"
        if key in seen:
            return seen[key]
        path = shared / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.pickle"
        with (shared / f"{path.stem}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if path.is_file():
                found = pickle.loads(path.read_bytes())
            else:
                found = search(scope)
                print(found.line())
                path.write_bytes(pickle.dumps(found))
        seen[key] = found
        return found

    return run
