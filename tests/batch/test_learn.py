"""examples/learn.py: a smoke run of the learner (two iterations, twenty engine games),
its one line without optax, its statistics, and the batch page's figures of the full run
(docs/_static/learn.json)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULT = ROOT / "docs" / "_static" / "learn.json"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("learn_example", ROOT / "examples" / "learn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_optax_one_line_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    learn = load()
    monkeypatch.setitem(sys.modules, "optax", None)  # import optax raises ImportError
    with pytest.raises(SystemExit) as exited:
        learn.main(["--iterations", "1"])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "'learn' extra" in err and "optax" in err


def test_wilson_interval() -> None:
    learn = load()
    low, high = learn.wilson(0.5, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962  # the textbook's figures
    low, high = learn.wilson(0.25, 10_000)
    assert low < 0.25 < high and high - low < 0.02


def test_the_engine_features_are_the_batch_features() -> None:
    """The policy reads the same numbers from the engine's observation as from the
    batch's arrays (so the engine's games play the trained policy): positions of random
    games in every phase and round, every seat's view."""
    np = pytest.importorskip("numpy")
    from castlerules import batch, throne
    from castlerules.core.chance import Rng

    learn = load()
    env = batch.make("throne", players=4, size=8, backend="numpy")
    rng = Rng.from_seed(5, "test_learn")
    positions = []
    for game in range(24):
        state = throne.new_game(4, seed=game)
        depth, rng = rng.below(300)
        for _ in range(depth):
            moves = throne.legal_moves(state)
            if not moves:
                break
            move, rng = rng.choice(moves)
            state = throne.apply(state, move)
        positions.append(state)
    assert {throne.observation(s, 0).phase for s in positions} == set(learn.PHASES)
    for first in range(0, 24, 8):
        games = positions[first : first + 8]
        b = env.from_states(games)
        for seat in range(4):
            view = {k: np.asarray(v) for k, v in env.observe(b, seat).items()}
            from_batch = learn.features(np, view, np.full(8, seat))
            engine = [throne.observation(g, seat) for g in games]
            from_engine = learn.features(np, learn.engine_view(engine), np.full(8, seat))
            assert from_batch.shape == (8, learn.FEATURES)
            assert np.array_equal(from_batch, from_engine), (first, seat)


def test_a_smoke_run_trains_and_plays_the_engine(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    learn = load()
    out = tmp_path / "learn"
    report: dict[str, Any] = learn.main(
        ["--iterations", "2", "--games", "16", "--eval-games", "20", "--out", str(out)]
    )
    saved = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert saved["evaluation"] == report["evaluation"]
    assert [p["iteration"] for p in saved["curve"]] == [1, 2]
    assert all(p["finished"] == 16 for p in saved["curve"])
    assert saved["evaluation"]["games"] == 20
    low, high = saved["evaluation"]["interval95"]
    assert 0 <= low <= saved["evaluation"]["win_share"] <= high <= 1


def test_the_batch_page_gives_the_published_run() -> None:
    """The measured result and the CPU time on docs/batch.rst are docs/_static/learn.json's,
    and its interval lies above the random bots' 25%."""
    report = json.loads(RESULT.read_text(encoding="utf-8"))
    page = " ".join((ROOT / "docs" / "batch.rst").read_text(encoding="utf-8").split())
    result = report["evaluation"]
    low, high = result["interval95"]
    assert result["games"] == 10_000 and low > 0.25
    assert (
        f"win share {100 * result['win_share']:.2f}% (95% interval {100 * low:.2f}% "
        f"to {100 * high:.2f}%) over {result['games']:,} games" in page
    )
    assert f"{report['iterations']} iterations of {report['games_per_iteration']} games" in page
    assert f"{report['train_cpu_s'] / 60:.1f} CPU minutes" in page
    assert f"{report['cpu_s'] / 60:.1f} CPU minutes in all" in page
    assert "_static/learn.png" in page and (ROOT / "docs" / "_static" / "learn.png").exists()


def test_the_measurements_page_gives_the_learner_loop_run() -> None:
    """docs/batch-learner-cpu.json (benchmarks/bench_batch_learner.py): every row's
    figure and ratio are on docs/measurements.rst, and the batch page's summary quotes
    the same ratios."""
    report = json.loads((ROOT / "docs" / "batch-learner-cpu.json").read_text(encoding="utf-8"))
    page = " ".join((ROOT / "docs" / "measurements.rst").read_text(encoding="utf-8").split())
    summary = " ".join((ROOT / "docs" / "batch.rst").read_text(encoding="utf-8").split())
    assert {row["game"] for row in report["rows"]} == {"throne", "ascent"}
    for row in report["rows"]:
        assert row["players"] == 4 and row["size"] == 4096
        assert f"{row['actions_per_cpu_s']:,}" in page, row
        assert f"{row['ratio']:.2f}x (engine {row['engine_actions_per_cpu_s']:,})" in page, row
        assert f"{row['actions_per_cpu_s']:,} actions per CPU-second ({row['ratio']:.2f}x)" in (
            summary
        ), row
    for row in report["pgx"]:
        assert (
            f"{row['actions_per_cpu_s']:,}" in page and f"{row['actions_per_cpu_s']:,}" in summary
        )
