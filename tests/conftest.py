"""Hypothesis profiles: ``default`` for CI and local runs, ``quick`` while editing; the
exhaustive tie's counts printed at the end of a run."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings

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
