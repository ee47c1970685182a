"""The kit finds planted mistakes, each with its clause and a short game.

Two engines that are not castlerules carry planted mistakes, each against
one clause: ``examples/engines/throne.js --plant NAME`` (JavaScript, through
the protocol) and ``examples/engines/ascent.py``'s ``AscentEngine(plants=...)``
(Python, checked in-process).  For each, the kit must report a disagreement
citing that clause, with a game no longer than the casebook's shortest game
of the situation the mistake concerns (its case) plus :data:`MARGIN`
plies, and shrunk.  Both engines without a plant agree with the reference
(``test_engines.py``), so every difference found here is the plant's.
"""

from __future__ import annotations

import pytest
from ascent import PLANTS as ASCENT_PLANTS  # examples/engines/ascent.py
from ascent import AscentEngine

from castlerules import casebook
from castlerules.casebook.store import load
from castlerules.conform import check

MARGIN = 2
"""Plies a planted mistake's game may exceed the casebook's shortest game of its case."""

BUDGET = {"games": 2, "seconds": 2, "shrink_seconds": 3}

THRONE = {
    "first-player-fixed": ("B3", "throne-second-round"),
    "place-on-sixth": ("B6", "throne-place-on-sixth"),
    "fifth-on-a-floor": ("B7", "throne-full-floor"),
    "climb-into-full": ("B8", "throne-climb-into-full"),
    "votes-from-seat-0": ("B10", "throne-election"),
    "no-without-card": ("B11", "throne-no-card-left"),
    "eliminated-stays": ("B13", "throne-eliminated-cannot-climb"),
    "nobles-score-4": ("B14", "throne-max-round"),
    "no-bonus": ("B15", "throne-bonus"),
    "tie-to-lowest-seat": ("B16", "throne-tie"),
}
"""The JavaScript engine's plants: the clause each breaks and the casebook case of it."""

ASCENT = {
    "any-column": ("A2", "ascent-other-column"),
    "no-split": ("A3", "ascent-split"),
    "ceiling-plus-one": ("A6", "ascent-ceiling"),
    "exposing-split": ("A7", "ascent-exposing-split"),
    "favour-any-rank": ("A10", "ascent-favour-higher-rank"),
    "favour-any-time": ("A11", "ascent-favour-not-pending"),
    "no-replay": ("A12", "ascent-favour-replay"),
    "no-removal": ("A13", "ascent-removal"),
    "end-at-two": ("A14", "ascent-last-one-moves"),
    "lowest-wins": ("A17", "ascent-winner"),
}
"""The Python engine's plants: the clause each breaks and the casebook case of it."""


def shortest(key: str, clause: str) -> int:
    """The casebook's game of case ``key`` (which cites ``clause``): its plies."""
    assert clause in casebook.case(key).clauses, (key, clause)
    return load()[key].plies


def test_every_plant_is_tested_and_the_clauses_differ() -> None:
    assert set(ASCENT) == set(ASCENT_PLANTS)
    clauses = [c for c, _ in THRONE.values()] + [c for c, _ in ASCENT.values()]
    assert len(clauses) == len(set(clauses)) >= 8


@pytest.mark.parametrize("plant", sorted(THRONE))
def test_a_planted_mistake_of_the_javascript_engine_is_found(
    throne_js: list[str], plant: str
) -> None:
    clause, key = THRONE[plant]
    report = check("throne", [*throne_js, "--plant", plant], **BUDGET)  # type: ignore[arg-type]
    assert not report.agree
    found = report.disagreement
    assert found is not None and found.kind != "protocol", report.text()
    assert found.clause == clause, report.text()
    result = report.readings[0]
    assert result.shrunk_from is not None and found.plies <= result.shrunk_from
    assert found.plies <= shortest(key, clause) + MARGIN, report.text()
    assert found.position and "--replay" in report.text()


@pytest.mark.parametrize("plant", sorted(ASCENT))
def test_a_planted_mistake_of_the_python_engine_is_found(plant: str) -> None:
    clause, key = ASCENT[plant]
    report = check("ascent", AscentEngine(plants=[plant]), **BUDGET)  # type: ignore[arg-type]
    found = report.disagreement
    assert found is not None and found.kind != "protocol", report.text()
    assert found.clause == clause, report.text()
    assert found.plies <= shortest(key, clause) + MARGIN, report.text()
    assert found.reference != found.engine
