"""The Throne proofs on one configuration, the 33 witness and a sensitivity check.

The whole sweep (every player count, both presets) runs in ``python -m proofs``;
these tests keep one case of each kind in the test suite.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import proofs
from castlerules import throne
from castlerules.symbolic.smt import all_of
from proofs import merge
from proofs.__main__ import main, table
from proofs.core import Result
from proofs.throne import (
    CLAIM_FLOOR,
    PROPERTIES,
    WRONG,
    Checker,
    Config,
    _counterexample,
    witness_33,
)


def test_b7_b9_b11_b14_every_property_is_proved_for_seed_three_players() -> None:
    """B6-B16: the invariant is inductive and every claim holds (SEED, 3 players,
    allow_pass / reset / rotation symbolic)."""
    checker = Checker(Config("SEED", 3, throne.Rules.preset("SEED")))
    tallies = checker.all()
    assert set(tallies) == set(PROPERTIES)
    failed = {name: t.failure for name, t in tallies.items() if not t.holds}
    assert not failed
    # Every obligation is asked: alone, or in the invariant's joint query of its case.
    assert all(t.queries + t.shared > 0 for t in tallies.values())
    cases = len(checker.cases)
    assert tallies["throne.no_descent"].queries + tallies["throne.no_descent"].shared == cases
    assert tallies["throne.no_cards"].queries + tallies["throne.no_cards"].shared == cases


def test_b9_a_false_step_claim_fails_its_property_not_the_invariant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B9: a step obligation asked in the invariant's joint query still fails when it
    is false (planted: "no character ever moves"); the invariant and the other
    properties of that query still hold."""

    def nobody_moves(system: Any, pre: Any, post: Any) -> Any:
        del system
        return all_of([g == f for f, g in zip(pre.fl, post.fl, strict=True)])

    monkeypatch.setattr(proofs.throne, "_no_descent", nobody_moves)
    checker = Checker(Config("SEED", 3, throne.Rules.preset("SEED")))
    tallies = checker.all(only=["throne.no_descent", "throne.no_cards"])
    assert tallies["throne.invariant"].holds
    assert tallies["throne.no_cards"].holds
    assert not tallies["throne.no_descent"].holds
    assert tallies["throne.no_descent"].failure.startswith("B9 (place")


def test_b14_b15_a_round_score_of_33_is_reached_in_the_engine() -> None:
    """B14, B15: 33 is reachable; the witness agrees with the Z3 system step by step."""
    ok, _seconds, checks, trace, detail = witness_33(
        Config("ORIGINAL", 4, throne.Rules.preset("ORIGINAL"))
    )
    assert ok, detail
    assert checks == len(trace.moves)  # one transition query per move
    # The trace replays from its first position through the engine's notation.
    state = throne.from_text(trace.positions[0])
    for text, position in zip(trace.moves, trace.positions[1:], strict=True):
        state = throne.apply(state, throne.parse_move(state, text))
        assert throne.to_text(state) == position
    assert throne.round_scores(state)[0][0] == 33


def test_b14_the_witness_fails_when_the_kernel_scores_a_floor_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B14: the witness game is checked step by step against the Z3 transition
    (planted: the kernel's points table gives floor 5 one point more than the engine)."""
    from castlerules.throne import kernel

    real = kernel.Shape.of

    def of(rules: throne.Rules, players: int) -> kernel.Shape:
        shape = real(rules, players)
        points = list(shape.points)
        points[5 + 1] += 1  # the table starts at floor -1
        return attrs.evolve(shape, points=tuple(points))

    monkeypatch.setattr(kernel.Shape, "of", of)
    ok, _seconds, _checks, _trace, _detail = witness_33(
        Config("SEED", 3, throne.Rules.preset("SEED"))
    )
    assert not ok


def test_b7_sensitivity_a_floor_of_five_is_refuted_with_a_replayed_game() -> None:
    """B7: with floor_capacity=5 the capacity claim fails, and the engine shows it."""
    wrong = next(w for w in WRONG if w.name == "throne.sensitivity.capacity5")
    config = Config("SEED", 3, throne.Rules(floor_capacity=5))
    tally = Checker(config).all(only=[wrong.property])[wrong.property]
    assert not tally.holds
    assert "B7 claim" in tally.failure
    shown, trace, _checks, detail = _counterexample(wrong, config)
    assert shown, detail
    assert "BMC" in detail
    end = throne.from_text(trace.positions[-1])
    crowd = max(
        sum(1 for ch in end.rules.letters() if throne.floor_of(end, ch) == floor)
        for floor in range(1, 7)
    )
    assert crowd == CLAIM_FLOOR + 1
    assert len(trace.moves) == CLAIM_FLOOR + 1  # five placements, found by Z3


@pytest.mark.slow
def test_b15_sensitivity_a_bonus_in_round_one_allows_a_round_three_zero() -> None:
    """B15: with bonus_rounds=(1,) a round-3 score of 0 is reached (engine-replayed)."""
    wrong = next(w for w in WRONG if w.name == "throne.sensitivity.bonus_round1")
    config = Config("SEED", 3, throne.Rules(bonus_rounds=(1,)))
    shown, trace, _checks, detail = _counterexample(wrong, config)
    assert shown, detail
    assert throne.round_scores(throne.from_text(trace.positions[-1]))[2][0] == 0


def _result(name: str, holds: bool, seconds: float) -> Result:
    return Result(
        name=name,
        game="throne",
        title="t",
        clauses=("B7",),
        method="induction",
        depth=1,
        holds=holds,
        seconds=seconds,
        queries=2,
        scope=f"scope {seconds}",
    )


def test_merge_and_table_report_each_property_once() -> None:
    """The report merges a property proved in parts; it fails if any part fails."""
    merged = merge([_result("p", True, 1.0), _result("q", True, 0.5), _result("p", False, 2.0)])
    assert [r.name for r in merged] == ["p", "q"]
    assert merged[0].holds is False
    assert merged[0].seconds == 3.0
    assert merged[0].queries == 4
    text = table(merged)
    assert "FAILED" in text.splitlines()[2]
    assert text.splitlines()[0].split() == [
        "property",
        "game",
        "clauses",
        "method",
        "result",
        "seconds",
    ]


def test_tasks_cover_every_player_count_and_both_presets_once() -> None:
    """The proof run's jobs: one per Throne configuration (B-clauses for 3..6 players,
    both presets), plus witnesses, sensitivity and the Ascent jobs; names unique."""
    names = [t.name for t in proofs.tasks()]
    assert len(names) == len(set(names))
    for preset in ("SEED", "ORIGINAL"):
        for n in throne.PLAYERS:
            assert f"throne: induction {preset} {n}p" in names
    assert {"throne: witnesses", "throne: sensitivity", "ascent: induction"} <= set(names)
    assert all(t.cost > 0 for t in proofs.tasks())
    # every job of the proof run and of the long run has a measured cost to schedule by
    assert set(names) | {t.name for t in proofs.long_tasks()} == set(proofs.COSTS)


def test_main_prints_the_table_saves_json_and_fails_on_an_unexpected_verdict(
    tmp_path: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m proofs``: the table, ``--save`` JSON with the source hash, and
    exit status 1 as soon as one property is not as expected."""
    import json
    from pathlib import Path

    import proofs.__main__ as entry

    calls: list[tuple[bool, object, object]] = []

    def fake_run_all(
        fast: bool = False,
        jobs: object = None,
        only: object = (),
        progress: Any = None,
        long: bool = False,
    ) -> list[Result]:
        assert not long
        calls.append((fast, jobs, only))
        results = [_result("p", True, 1.0), _result("q", False, 0.5)]
        if progress is not None:  # one job holding both properties
            progress(1, 1, "job", results)
        return results

    monkeypatch.setattr(entry, "run_all", fake_run_all)
    target = Path(str(tmp_path)) / "out" / "proofs.json"
    status = main(["--fast", "--jobs", "1", "--only", "throne", "--save", str(target)])
    assert status == 1
    assert calls == [(True, 1, ["throne"])]
    printed = capsys.readouterr()
    assert "FAILED q" in printed.err
    assert "[1/1 jobs] p (" in printed.out and "[1/1 jobs] q (" in printed.out
    assert "2 properties, 1 failed" in printed.out
    saved = json.loads(target.read_text(encoding="utf-8"))
    assert saved["ok"] is False
    assert saved["mode"] == "fast"
    assert saved["source"] == proofs.source_hash()
    assert [r["name"] for r in saved["results"]] == ["p", "q"]
    assert saved["results"][1]["verdict"] == "FAILED"
