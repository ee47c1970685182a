"""``benchmarks/bench_device.py``: the batch by the wall clock, the host's share apart
(B6, B8: the random playouts of Throne it times), and the GPU run the docs quote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("castlerules.batch")

import bench_device as BENCH  # benchmarks/ is on pytest's path (pyproject)

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_numpy_run_counts_every_action_it_plays() -> None:
    row = BENCH.device_playouts(4, 8, 3, 0.3, 4, backend="numpy")
    assert row["backend"] == "numpy" and row["calls"] >= 1
    assert 0 < row["actions"] <= row["calls"] * 4 * 8
    assert row["utilisation"] == round(row["actions"] / (row["calls"] * 4 * 8), 3)
    assert 0 <= row["host_s"] <= row["wall_s"]
    assert row["actions_per_s_device_only"] >= row["actions_per_s"] > 0


def test_the_host_clock_counts_the_wrapped_methods_only() -> None:
    ticks = iter(range(0, 1000, 5))  # a clock that moves 5 "seconds" at each reading

    class Env:
        def _resets(self) -> str:
            return "reset"

    class Seats:
        def reseed(self) -> None:
            pass

        def other(self) -> None:
            next(ticks)  # what an unwrapped method spends is not counted

    env, seats = Env(), Seats()
    clock = BENCH.HostClock(env, seats, clock=lambda: next(ticks))
    assert env._resets() == "reset"
    seats.reseed()
    seats.other()
    assert clock.seconds == {"host": 10, "ahead": 0}  # two wrapped calls, 5 each


@pytest.mark.parametrize("name", ["batch-gpu-host-deal.json", "batch-gpu.json"])
def test_the_docs_quote_the_gpu_runs(name: str) -> None:
    report: dict[str, Any] = json.loads((ROOT / "docs" / name).read_text())
    page = " ".join((ROOT / "docs" / "measurements.rst").read_text(encoding="utf-8").split())
    assert report["device"].startswith("gpu") and name in page
    scalar = {r["players"]: r["actions_per_cpu_s"] for r in report["scalar"]}
    for row in report["rows"]:
        assert f"{row['actions_per_s']:,}" in page, row
        assert f"{row['actions_per_s_device_only']:,}" in page, row
        assert f"{row['actions_per_s'] / scalar[row['players']]:.1f}x" in page, row
    study = report["study"]
    assert all(r["rows_identical_on_check"] for r in study["readings"].values())
    assert f"{study['ratio_first']}x and {study['ratio_compiled']}x" in page
