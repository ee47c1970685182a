"""The CI share of ``benchmarks/bench_batch_equivalence.py`` (B3-B16, A3-A18).

Two seeded games of each game in a batch and in the engine, the same action
numbers, under the last reading of the benchmark's list: no
difference at any step (``test_throne_batch.py`` and ``test_ascent_batch.py``
run the same comparison on every reading).  A planted
mistake in the batch (a wrong reward, a wrong legal mask) is reported as a
mismatch, so the benchmark's comparison can fail.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("castlerules.batch")

import bench_batch_equivalence as BENCH  # benchmarks/ is on pytest's path (pyproject)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_a_share_of_the_benchmark_finds_no_difference(game: str) -> None:
    label, rules = BENCH.readings(game)[-1]
    row = BENCH.lockstep(game, rules, BENCH.MODULES[game].PLAYERS[1], [5, 6], label)
    assert row["mismatch"] == "", row
    assert row["games"] == 2 and row["positions"] > 2 * 10


def test_every_reading_and_player_count_has_a_task() -> None:
    todo = BENCH.tasks(100, 0, ["throne", "ascent"])
    for game in ("throne", "ascent"):
        mine = [t for t in todo if t["game"] == game]
        players = BENCH.MODULES[game].PLAYERS
        assert len(mine) == len(BENCH.readings(game)) * len(players)
        assert {(t["label"], t["players"]) for t in mine} == {
            (label, n) for label, _rules in BENCH.readings(game) for n in players
        }
        assert sum(len(t["seeds"]) for t in mine) == 100


def test_a_planted_wrong_reward_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from castlerules.batch.throne import Batch

    real = Batch.rewards
    monkeypatch.setattr(Batch, "rewards", property(lambda b: real.fget(b) + 1))  # type: ignore[attr-defined]
    from castlerules import throne

    row = BENCH.lockstep("throne", throne.Rules(), 3, [1, 2], "planted")
    assert "rewards" in row["mismatch"]


def test_a_planted_wrong_mask_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from castlerules import ascent
    from castlerules.batch.ascent import Batch

    real = Batch.legal_action_mask

    def wrong(b: Batch) -> np.ndarray:
        mask = np.array(real.fget(b))  # type: ignore[attr-defined]
        mask[:, -1] = ~mask[:, -1]
        return mask

    monkeypatch.setattr(Batch, "legal_action_mask", property(wrong))
    row = BENCH.lockstep("ascent", ascent.Rules(), 2, [1, 2], "planted")
    assert "legal mask" in row["mismatch"]


def test_the_published_run_covers_10000_games_of_each_game_without_a_difference() -> None:
    """docs/batch-equivalence.json: the last full run, quoted in docs/batch.rst."""
    import json

    report = json.loads((ROOT / "docs" / "batch-equivalence.json").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "batch.rst").read_text(encoding="utf-8")
    for game in ("throne", "ascent"):
        summary = report["summary"][game]
        assert summary["games"] >= 10_000 and summary["mismatches"] == 0
        assert summary["readings"] == len(BENCH.readings(game))
        assert summary["player_counts"] == list(BENCH.MODULES[game].PLAYERS)
        assert f"{summary['positions']:,}" in page
