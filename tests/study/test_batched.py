"""A study's random games played by the batch give the engine's rows, field for field.

The moves (every seat's RandomBot draws), the probes and the clauses that
refuse them, the events' clauses (``describe``), the scores and winners: the
batch (:func:`castlerules.study.batched.play_random`) against
:func:`castlerules.study.games.play_game`, under readings that exercise
every kind of event (equal placement's leftovers, passes, the bonus, No
cards kept across rounds), and ``run_study`` writing the same file with
either engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from castlerules import throne
from castlerules.core import ArgumentError
from castlerules.study import Study, parse_reading, run_study
from castlerules.study import store as store_mod
from castlerules.study.games import play_game

pytest.importorskip("castlerules.batch")
from castlerules.study.batched import EVENT_CLAUSES, play_random

READINGS = {
    "SEED": throne.Rules(),
    "ORIGINAL": throne.Rules.preset("ORIGINAL"),
    "pass, kept No cards": throne.Rules(allow_pass=True, no_cards_reset_each_round=False),
    "bonus every round": throne.Rules(bonus_rounds=(1, 2, 3)),
}


@pytest.mark.parametrize("name", list(READINGS))
def test_the_rows_are_the_engines(name: str) -> None:
    rules = READINGS[name]
    seeds = list(range(900, 916))
    got = play_random(name, rules, 4, seeds, list(range(16)), backend="numpy")
    expected = [
        play_game(throne, name, rules, 4, ["random"] * 4, seed, i) for i, seed in enumerate(seeds)
    ]
    assert got == expected


FAMILIES = {
    "SEED, ORIGINAL": ("SEED", "ORIGINAL"),
    "pass, kept No cards": ("pass, kept No cards",),
    "bonus every round": ("bonus every round",),
}
"""The readings of :data:`READINGS` by the family whose loop plays them (one loop each)."""


@pytest.mark.parametrize("names", list(FAMILIES.values()), ids=list(FAMILIES))
def test_a_family_shares_one_loop_and_gives_each_readings_rows(names: tuple[str, ...]) -> None:
    """The loop of a reading's family (SEED's for ORIGINAL), the reading's options and
    placement tables as operands, on JAX (a backend of SHARED, as a study's batch plays
    it): the engine's rows.  The readings of one family in one test, so that their loop
    compiles once per process (as in a study); the backend is named "auto", as
    run_study's batch names it (JAX where installed), so that the loop of SEED's family
    is also the one test_run_study_writes_the_same_file_with_either_engine plays (the
    same env: rules, players, size and backend name)."""
    pytest.importorskip("jax")
    from castlerules.study import batched

    seeds = list(range(900, 916))
    loops = set()
    for name in names:
        rules = READINGS[name]
        env = batched._env(rules, 4, 16, "auto")
        assert env.backend.name in batched.SHARED
        base = batched._env(batched.family(rules), 4, 16, "auto")
        assert batched._fits(base, env)
        assert batched._loop(env, "auto")[0] is batched._tally(base)
        loops.add(id(batched._tally(base)))
        got = play_random(name, rules, 4, seeds, list(range(16)), backend="auto")
        expected = [
            play_game(throne, name, rules, 4, ["random"] * 4, seed, i)
            for i, seed in enumerate(seeds)
        ]
        assert got == expected, name
    assert len(loops) == 1  # one loop for the family


def test_seed_and_original_are_one_family() -> None:
    from castlerules.study.batched import family

    assert family(READINGS["ORIGINAL"]) == family(READINGS["SEED"]) == throne.Rules()
    assert family(READINGS["pass, kept No cards"]) == throne.Rules(allow_pass=True)
    # FAMILIES holds every reading once, grouped by the family whose loop plays it.
    assert sorted(n for names in FAMILIES.values() for n in names) == sorted(READINGS)
    for names in FAMILIES.values():
        assert len({family(READINGS[n]) for n in names}) == 1


def test_games_stream_through_fewer_slots() -> None:
    """More games than slots: each slot whose game is over takes the next game (its
    deal, bots, probe and counts afresh); the rows are still the engine's.  ORIGINAL in
    one round (its bonus in its last round, as ORIGINAL's): games of 17 to 82 moves, so
    that the 11 games pass through the 4 slots in a third of the moves three rounds
    take, slots freeing up at different calls and some idle at the end (the readings'
    whole games are the tests above)."""
    rules = attrs.evolve(READINGS["ORIGINAL"], rounds=1, bonus_rounds=(1,))
    seeds = [40 + 3 * i for i in range(11)]
    got = play_random("ORIGINAL", rules, 3, seeds, list(range(11)), backend="numpy", slots=4)
    expected = [
        play_game(throne, "ORIGINAL", rules, 3, ["random"] * 3, seed, i)
        for i, seed in enumerate(seeds)
    ]
    assert got == expected


def test_padded_sizes() -> None:
    from castlerules.study.batched import padded_size

    assert [padded_size(n) for n in (1, 2, 3, 1000, 1024, 1025, 3616, 4096)] == [
        1,
        2,
        4,
        1024,
        1024,
        2048,
        4096,
        4096,
    ]


def test_every_effect_of_the_kernel_has_its_events() -> None:
    from castlerules import batch

    env = batch.make("throne", players=3, size=1, backend="numpy")
    assert set(env.effects) == set(EVENT_CLAUSES)


def rows(path: Path) -> list[dict[str, Any]]:
    store = store_mod.open_store(path)
    try:
        return store.rows()
    finally:
        store.close()


@pytest.mark.slow
def test_run_study_writes_the_same_file_with_either_engine(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    readings = tuple(parse_reading(throne, t, None, {}) for t in ("SEED", "ORIGINAL"))
    study = Study("throne", 4, ("random",) * 4, readings, 7)
    found = []
    for engine in ("scalar", "batch"):
        path = tmp_path / f"{engine}.duckdb"
        run_study(path, study, 24, workers=0, batch=12, progress=False, engine=engine)
        found.append(rows(path))
    assert found[0] == found[1] and len(found[0]) == 48


def test_auto_takes_the_engine_for_too_few_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--engine auto: the batch only where a reading has AUTO_GAMES games per process."""
    pytest.importorskip("jax")
    from castlerules.study import run as run_mod

    seen: list[str] = []
    real = run_mod.play_batch

    def spy(spec: Any, reading: str, indices: Any, engine: str) -> list[str]:
        seen.append(engine)
        return real(spec, reading, indices, engine)

    monkeypatch.setattr(run_mod, "play_batch", spy)
    readings = (parse_reading(throne, "SEED"), parse_reading(throne, "ORIGINAL"))
    study = Study("throne", 3, ("random",) * 3, readings, seed=0)
    run_study(tmp_path / "a.duckdb", study, 8, workers=0, batch=2048, progress=False)
    assert seen == ["scalar", "scalar"]
    games = run_mod.AUTO_GAMES
    assert run_mod._worth_batching([("SEED", i) for i in range(games)], 0)
    assert not run_mod._worth_batching([("SEED", i) for i in range(games)], 2)
    assert run_mod._worth_batching([("SEED", i) for i in range(2 * games)], 2)
    assert not run_mod._worth_batching([], 0)


def test_the_batch_engine_plays_random_throne_only(tmp_path: Path) -> None:
    readings = tuple(parse_reading(throne, t, None, {}) for t in ("SEED", "ORIGINAL"))
    study = Study("throne", 4, ("random", "greedy", "random", "random"), readings, 0)
    with pytest.raises(ArgumentError, match="random bots in every seat"):
        run_study(tmp_path / "x.duckdb", study, 4, workers=0, progress=False, engine="batch")
    assert not (tmp_path / "x.duckdb").exists()


def test_the_batch_page_quotes_the_published_study_run() -> None:
    """docs/batch-study-cpu.json, the last run of ``bench.py --batch --batch-ascent
    --batch-study-games 20000``: the playouts of both games and every CPU figure of the
    study (in the benchmark's process, in a new process with the compile cache empty
    and filled, compiled already) are in docs/batch.rst with their ratios, and the
    rows were identical."""
    import json

    docs = Path(__file__).resolve().parents[2] / "docs"
    report = json.loads((docs / "batch-study-cpu.json").read_text(encoding="utf-8"))
    page = (docs / "batch.rst").read_text(encoding="utf-8").replace("**", "")  # bold
    study = report["study"]
    assert study["rows_identical"] and study["games"] == 20_000
    assert f"{study['scalar_cpu_s']:.2f}" in page
    for cpu, ratio in (
        ("batch_cpu_s", "ratio"),
        ("batch_cpu_s_first", "ratio_first"),
        ("batch_cpu_s_cached", "ratio_cached"),
        ("batch_cpu_s_compiled", "ratio_compiled"),
    ):
        assert f"{study[cpu]:.2f} ({study[ratio]:.2f}x)" in page, cpu
    assert {row["game"] for row in report["batch"]["rows"]} == {"throne", "ascent"}
    for row in report["batch"]["rows"]:
        assert f"{row['actions_per_cpu_s']:,}" in page and f"{row['ratio']:.2f}x" in page
