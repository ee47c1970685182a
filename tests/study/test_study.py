"""Paired studies: pairing, worker-count independence, resume, the file, the metrics."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from castlerules import ascent, throne
from castlerules.core import ArgumentError
from castlerules.study import Study, compute, parse_reading, play_game, run_study
from castlerules.study import games as games_mod
from castlerules.study import run as run_mod
from castlerules.study import store as store_mod
from castlerules.study.metrics import wilson
from castlerules.study.report import write_report

SHORT = {"characters": 7, "objective_size": 3, "rounds": 1, "bonus_rounds": ()}
"""A one-round Throne of seven characters: a whole game in a few dozen moves."""


def short_study(*texts: str, bots: tuple[str, ...] = ("random",) * 3, seed: int = 0) -> Study:
    readings = tuple(parse_reading(throne, t, None, SHORT) for t in texts)
    return Study("throne", 3, bots, readings, seed)


def rows(path: Path) -> list[dict[str, Any]]:
    store = store_mod.open_store(path)
    try:
        return store.rows()
    finally:
        store.close()


def test_parse_reading() -> None:
    assert parse_reading(throne, "ORIGINAL").text() == "ORIGINAL"
    named = parse_reading(throne, "pass: SEED + allow_pass=true + first_player_rotates=false")
    assert named.name == "pass"
    assert named.rules(throne) == throne.Rules(allow_pass=True, first_player_rotates=False)
    # Options equal to the preset's are dropped: the same rules, the same text.
    assert parse_reading(throne, "ORIGINAL + equal_placement=true").text() == "ORIGINAL"
    assert parse_reading(ascent, "upper_half=5").rules(ascent) == ascent.Rules(upper_half=5)
    for bad, why in [
        ("NOPE", "unknown preset 'NOPE'"),
        ("SEED + colour=blue", "unknown option 'colour'"),
        ("SEED + allow_pass=maybe", "allow_pass"),
        ("SEED + ", "empty part"),
        ("SEED + placement_floors=1,2,3,4,5,6,7", "reading"),
    ]:
        with pytest.raises(ArgumentError, match=why):
            parse_reading(throne, bad)


def test_study_check() -> None:
    with pytest.raises(ArgumentError, match="two or more readings"):
        short_study("SEED").check()
    with pytest.raises(ArgumentError, match="two readings are named 'SEED'"):
        short_study("SEED", "SEED").check()
    with pytest.raises(ArgumentError, match="unknown bot 'clever'"):
        short_study(
            "SEED", "floors: placement_floors=2,3,4,5", bots=("random", "clever", "random")
        ).check()
    with pytest.raises(ArgumentError, match="players must be"):
        Study(
            "throne",
            9,
            ("random",) * 9,
            short_study("SEED", "floors: placement_floors=2,3,4,5").readings,
        ).check()


def test_paired_games_start_alike_and_draw_alike() -> None:
    """Game i under two readings has the same seed, the same deal (B4) and, when the rules
    are the same, the very same moves: the bots draw from the same streams."""
    study = short_study(
        "a: SEED", "b: SEED + first_player_rotates=true", "c: placement_floors=2,3,4,5"
    )
    results = {
        r.name: [
            play_game(throne, r.name, r.rules(throne), 3, study.bots, 40 + i, i) for i in range(6)
        ]
        for r in study.readings
    }
    for i in range(6):
        a, b, c = (results[n][i] for n in "abc")
        assert a.seed == b.seed == c.seed == 40 + i
        # first_player_rotates only matters from round 2, and there is one round.
        assert (a.scores, a.winners, a.actions, a.events) == (
            b.scores,
            b.winners,
            b.actions,
            b.events,
        )
    starts = {
        r.name: throne.new_game(3, r.rules(throne), seed=40).objectives for r in study.readings
    }
    assert starts["a"] == starts["c"]
    assert any(results["a"][i].scores != results["c"][i].scores for i in range(6))


def test_one_and_two_workers_give_the_same_file(tmp_path: Path) -> None:
    """A batch is a pure function of its games: 0, 1 or 2 Dask workers, any batch size."""
    study = short_study("SEED", "floors: placement_floors=2,3,4,5", "pass: allow_pass=true")
    found = []
    for workers, batch in [(0, 7), (1, 5), (2, 3)]:
        path = tmp_path / f"w{workers}.duckdb"
        summary = run_study(path, study, 12, workers=workers, batch=batch, progress=False)
        assert (summary.played, summary.total, summary.workers) == (36, 36, workers)
        found.append(rows(path))
    assert found[0] == found[1] == found[2]
    assert len(found[0]) == 36
    assert {(r["reading"], r["game"], r["seed"]) for r in found[0]} == {
        (name, i, i) for name in ("SEED", "floors", "pass") for i in range(12)
    }


def test_resume_extend_and_interrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    study = short_study("SEED", "floors: placement_floors=2,3,4,5", seed=100)
    fresh = tmp_path / "fresh.duckdb"
    run_study(fresh, study, 10, workers=0, progress=False)

    path = tmp_path / "study.duckdb"
    real = games_mod.play_batch
    calls = []

    def interrupted(spec: Any, reading: str, indices: Any, engine: str) -> list[str]:
        calls.append(reading)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(spec, reading, indices, engine)

    monkeypatch.setattr(run_mod, "play_batch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_study(path, study, 6, workers=0, batch=2, progress=False)
    monkeypatch.setattr(run_mod, "play_batch", real)
    # The file is valid and holds the two batches that finished.
    assert len(rows(path)) == 4
    summary = run_study(path, study, 6, workers=0, batch=2, progress=False)
    assert (summary.played, summary.total) == (8, 12)
    summary = run_study(path, study, 6, workers=0, progress=False)
    assert summary.played == 0
    summary = run_study(path, study, 10, workers=0, batch=3, progress=False)
    assert (summary.played, summary.total) == (8, 20)
    assert rows(path) == rows(fresh)
    # A new reading is added to the file, and played for every game.
    more = short_study(
        "SEED", "floors: placement_floors=2,3,4,5", "pass: allow_pass=true", seed=100
    )
    summary = run_study(path, more, 10, workers=0, progress=False)
    assert (summary.played, summary.total) == (10, 30)


def test_a_file_of_other_settings_or_version_is_refused_unchanged(tmp_path: Path) -> None:
    study = short_study("SEED", "floors: placement_floors=2,3,4,5")
    path = tmp_path / "study.duckdb"
    run_study(path, study, 4, workers=0, progress=False)
    before = path.read_bytes()
    for other, why in [
        (short_study("SEED", "floors: placement_floors=2,3,4,5", seed=5), "seed 0, not 5"),
        (short_study("SEED", "floors: placement_floors=2,3,4,5", bots=("greedy",) * 3), "bots"),
        (short_study("SEED", "floors: allow_pass=true"), "already has a reading named"),
    ]:
        with pytest.raises(ArgumentError, match=why):
            run_study(path, other, 8, workers=0, progress=False)
    assert path.read_bytes() == before
    import duckdb

    con = duckdb.connect(str(path))
    con.execute("UPDATE study_meta SET value = '99' WHERE key = 'format_version'")
    con.close()
    with pytest.raises(ArgumentError, match="format version 99"):
        run_study(path, study, 8, workers=0, progress=False)
    with pytest.raises(ArgumentError, match="format version 99"):
        write_report(path)
    text = tmp_path / "notes.duckdb"
    text.write_text("not a database\n")
    with pytest.raises(ArgumentError, match="is not a study file"):
        run_study(text, study, 8, workers=0, progress=False)
    assert text.read_text() == "not a database\n"


def test_bad_input_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "study.duckdb"
    with pytest.raises(ArgumentError, match="cannot reach the Dask scheduler"):
        run_study(
            path,
            short_study("SEED", "floors: placement_floors=2,3,4,5"),
            4,
            scheduler="tcp://127.0.0.1:9",
        )
    with pytest.raises(ArgumentError, match="--games"):
        run_study(path, short_study("SEED", "floors: placement_floors=2,3,4,5"), 0)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "duckdb", None)
    with pytest.raises(ArgumentError, match=r"pip install 'castlerules\[study\]'"):
        run_study(
            tmp_path / "x.duckdb",
            short_study("SEED", "floors: placement_floors=2,3,4,5"),
            2,
            workers=0,
        )


def test_metrics() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    assert wilson(5, 0) == (0.0, 1.0)

    def row(reading: str, game: int, scores: list[int], winners: list[int]) -> dict[str, Any]:
        return {
            "reading": reading,
            "game": game,
            "actions": 10 + game,
            "scores": scores,
            "winners": winners,
            "tie": len(winners) > 1,
            "events": {"B8": 2},
            "probes": 10,
            "refusals": {"B6": 1},
        }

    data = [
        row("x", 0, [3, 1], [0]),
        row("x", 1, [2, 2], [0, 1]),
        row("y", 0, [1, 3], [1]),
        row("y", 1, [2, 2], [0, 1]),
    ]
    per, pairs = compute([("x", "X"), ("y", "Y")], data, 2)
    assert per[0].games == 2 and per[0].ties.value == 0.5
    assert [e.value for e in per[0].seat_wins] == [1.0, 0.5]
    assert per[0].refusals["B6"].value == 0.1
    assert per[0].clause_events["B8"].value == 2.0
    (pair,) = pairs
    assert pair.winner_changed.value == 0.5
    assert pair.identical.value == 0.5
    assert pair.diffs == (-2, 2, 0, 0)
    assert pair.score_diff.value == 0.0
    assert pair.abs_score_diff.value == 1.0
    assert math.isclose(pair.length_diff.value, 0.0)


def test_report(tmp_path: Path) -> None:
    path = tmp_path / "study.duckdb"
    run_study(
        path,
        short_study("SEED", "floors: placement_floors=2,3,4,5", "pass: allow_pass=true"),
        8,
        workers=0,
        progress=False,
    )
    page = write_report(path)
    text = page.read_text()
    assert page == tmp_path / "study.html"
    assert text.count("<img ") == 5
    for caption in (
        "Score distributions",
        "Winner-change rate",
        "Clause frequencies",
        "Seat balance",
    ):
        assert caption in text
    assert "<td>SEED</td><td>pass</td><td>8</td>" in text
    empty = tmp_path / "empty.duckdb"
    store_mod.create(empty, short_study("SEED", "floors: placement_floors=2,3,4,5")).close()
    with pytest.raises(ArgumentError, match="no games yet"):
        write_report(empty)
    assert not (tmp_path / "empty.html").exists()
