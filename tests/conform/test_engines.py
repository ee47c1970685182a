"""Engines that are not castlerules pass the kit; readings are told apart.

- the JavaScript Throne engine (``examples/engines/throne.js``) agrees with the
  reference under SEED and ORIGINAL, through the protocol;
- the Python Ascent engine (``examples/engines/ascent.py``) agrees under
  DEFAULT, in-process and as a process;
- the reference checked as an engine agrees with itself (no false alarm);
- ``--readings all`` names the reading of an engine written for ORIGINAL (one
  that plays ORIGINAL whatever it is asked), and where it parts from the others.

Small budgets here (CI); the larger measured runs are in ``docs/conform.rst``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ascent import AscentEngine  # examples/engines/ascent.py

from castlerules import ascent, throne
from castlerules.conform import ReferenceEngine, check

ENGINES = Path(__file__).resolve().parents[2] / "examples" / "engines"

SMALL = {"games": 6, "seconds": 3, "shrink_seconds": 2}


@pytest.mark.parametrize("preset", ["SEED", "ORIGINAL"])
def test_the_javascript_engine_passes(throne_js: list[str], preset: str) -> None:
    report = check("throne", throne_js, rules=throne.Rules.preset(preset), **SMALL)  # type: ignore[arg-type]
    assert report.agree, report.text()
    games = report.tally.games
    assert games["casebook"] >= (30 if preset == "SEED" else 3)
    assert games.get("random", 0) + games.get("hypothesis", 0) >= 2
    assert report.engine == "throne.js 1.0"


@pytest.mark.parametrize("preset", ["DEFAULT", "GENEROUS", "HARSH"])
def test_the_python_engine_passes_in_process(preset: str) -> None:
    report = check("ascent", AscentEngine(), rules=ascent.Rules.preset(preset), **SMALL)  # type: ignore[arg-type]
    assert report.agree, report.text()
    assert report.tally.games["casebook"] >= (40 if preset == "DEFAULT" else 1)


def test_the_python_engine_passes_as_a_process() -> None:
    command = [sys.executable, str(ENGINES / "ascent.py")]
    report = check("ascent", command, games=4, seconds=2)
    assert report.agree, report.text()


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_the_reference_agrees_with_itself(game: str) -> None:
    report = check(game, ReferenceEngine(), games=10, seconds=3)
    assert report.agree, report.text()
    assert report.tally.positions > 100 and report.tally.refusals > 100


def test_readings_all_names_the_reading_of_an_engine_built_for_original(
    throne_js: list[str],
) -> None:
    command = [*throne_js, "--built-for", "ORIGINAL"]
    report = check("throne", command, all_readings=True, games=8, seconds=8, shrink_seconds=4)
    assert report.agree, report.text()
    assert report.agrees_with == ("ORIGINAL",), report.text()
    parted = [r for r in report.readings if r.verdict == "parts"]
    assert len(parted) == len(report.readings) - 1 >= 6
    for result in parted:  # where it parts from each: a clause and a short game
        found = result.disagreement
        assert found is not None and found.clause is not None and found.plies <= 20
    text = report.text()
    assert "the engine agrees with ORIGINAL" in text
    assert "SEED " in text and "parts at B6" in text
    data = report.data()
    assert data["agrees_with"] == ["ORIGINAL"] and data["agree"] is True
    assert {r["verdict"] for r in data["readings"]} == {"agrees", "parts"}


def test_readings_all_in_process_and_a_reading_the_engine_refuses() -> None:
    report = check(
        "ascent",
        AscentEngine(),
        all_readings=True,
        games=0,
        seconds=0,
        phases=["casebook"],
    )
    refused = {r.reading for r in report.readings if r.verdict == "refused"}
    # The example engine plays none of the readings it was not written for: the two it
    # names, and the three readings issue 48 added to the register after it.
    assert refused == {
        "DEFAULT + stack_rank=highest",
        "DEFAULT + favour_takes=all_lower",
        "DEFAULT + flip_uncovered=true",
        "DEFAULT + replays_per_turn=1",
        "DEFAULT + squares=12, arrival=[7,8,9,10,11,12], upper_half=7, path=staggered",
    }
    assert "DEFAULT" in report.agrees_with
    assert "not played: the engine refused to start the game" in report.text()
    one = check("ascent", AscentEngine(), rules=ascent.Rules(stack_rank="highest"), games=0)
    assert not one.agree and one.readings[0].verdict == "refused"
    assert "does not play it" in one.text()


def test_the_javascript_engine_plays_every_reading_of_the_register(throne_js: list[str]) -> None:
    """Without --built-for it agrees with all eight readings, and the report says which two
    the protocol cannot tell apart (no_cards_public changes only what a seat may see)."""
    report = check("throne", throne_js, all_readings=True, games=8, phases=["casebook", "random"])
    assert len(report.agrees_with) == len(report.readings) == 8, report.text()
    notes = {r.reading: r.note for r in report.readings if r.note}
    assert list(notes) == ["SEED + no_cards_public=false"], notes
    assert "the protocol cannot tell them apart" in notes["SEED + no_cards_public=false"]


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_a_budget_spent_inside_a_block_of_hypothesis_games_ends_the_check_cleanly(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock runs out in the middle of a block of Hypothesis-chosen games (a clock
    that moves a second each time it is read): each game of the block is still played
    whole, so Hypothesis never sees an example draw differently from the last time
    (it stopped the check with FlakyStrategyDefinition when a slow machine spent the
    budget there) and the report holds what was played."""
    import importlib
    import types

    checking = importlib.import_module("castlerules.conform.check")
    now = [0.0]

    def ticking() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(checking, "time", types.SimpleNamespace(monotonic=ticking))
    report = check(game, ReferenceEngine(), games=12, seconds=2.5, phases=["hypothesis"])
    assert report.agree, report.text()
    # the clock ended the check before the 12 games, between two whole blocks
    played = report.tally.games["hypothesis"]
    assert 0 < played < 12 and played % checking.BLOCK == 0, played
