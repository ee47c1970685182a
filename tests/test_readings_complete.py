"""Each declared reading is whole: every value an option's declaration offers besides the
reference reading has its note, its scope of the exhaustive engine-kernel tie, its
casebook case and its entry in the register (issue 48, docs/adding-a-reading.rst).

The declarations (``Rules.OPTIONS``) are the one list; :func:`gaps` reads each of the
four things that must follow from them, and each planted test removes one of them and
sees the gap named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from castlerules import ascent, casebook, register, throne
from castlerules.casebook.declare import Case
from castlerules.core.options import Option
from castlerules.register.readings import with_options
from proofs.equivalence import (
    COVERED_OTHERWISE,
    KERNEL_SCOPES,
    Scope,
    declared_readings,
    derived_scopes,
    plays,
)

GAMES = (ascent, throne)


def gaps(
    module: Any,
    *,
    options: Sequence[Option] | None = None,
    scopes: Sequence[Scope] = KERNEL_SCOPES,
    cases: Sequence[Case] | None = None,
    points: Sequence[register.OpenPoint] | None = None,
) -> list[str]:
    """What each declared reading of ``module`` lacks (``option=value: what``); the
    game's own declarations, scopes, cases and register unless others are given."""
    game = module.NAME
    by_name = {o.name: o for o in (module.Rules.OPTIONS if options is None else options)}
    cases = casebook.cases(game) if cases is None else cases
    points = register.open_points(module) if points is None else points
    default = module.Rules()
    found = []
    for option, value in declared_readings(module):
        label = f"{option}={value!r}"
        rules = with_options(module, default, {option: value})
        if not by_name[option].notes:
            found.append(f"{label}: no note in its declaration")
        if (game, option) not in COVERED_OTHERWISE and not any(
            s.game == game and plays(s, option, value) for s in scopes
        ):
            found.append(f"{label}: no scope of the engine-kernel tie")
        if not any(
            c.kind == "reading" and c.rules() == default and c.second_rules() == rules
            for c in cases
        ):
            found.append(f"{label}: no casebook case")
        point = next((p for p in points if p.option == option), None)
        if point is None or not any(r.rules(module) == rules for r in point.readings[1:]):
            found.append(f"{label}: no register entry")
    return found


@pytest.mark.parametrize("module", GAMES, ids=lambda m: m.NAME)
def test_every_declared_reading_has_its_note_scope_case_and_register_entry(module: Any) -> None:
    assert declared_readings(module)
    assert gaps(module) == []


def test_the_declared_readings_are_the_registers() -> None:
    readings = declared_readings(ascent)
    assert ("flip_uncovered", True) in readings
    assert ("path", "staggered") in readings
    assert ("replays_per_turn", 1) in readings
    assert not any(option in ("cards", "protection", "squares") for option, _ in readings)


WHAT = "flip_uncovered=True"


def test_a_reading_whose_declaration_lost_its_note_is_named() -> None:
    options = [
        attrs.evolve(o, notes=()) if o.name == "flip_uncovered" else o for o in ascent.Rules.OPTIONS
    ]
    assert gaps(ascent, options=options) == [f"{WHAT}: no note in its declaration"]


def test_a_reading_no_scope_plays_is_named() -> None:
    scopes = [
        s for s in KERNEL_SCOPES if s.game == "throne" or not plays(s, "flip_uncovered", True)
    ]
    assert gaps(ascent, scopes=scopes) == [f"{WHAT}: no scope of the engine-kernel tie"]


def test_a_reading_without_its_case_is_named() -> None:
    cases = [c for c in casebook.cases("ascent") if c.key != "ascent-reading-flip-uncovered"]
    assert gaps(ascent, cases=cases) == [f"{WHAT}: no casebook case"]


def test_a_reading_missing_from_the_register_is_named() -> None:
    points = [p for p in register.open_points(ascent) if p.option != "flip_uncovered"]
    assert gaps(ascent, points=points) == [f"{WHAT}: no register entry"]


def test_a_declared_reading_no_hand_scope_plays_gets_a_derived_scope() -> None:
    hand = [s for s in KERNEL_SCOPES if s.game == "ascent" and not plays(s, "flip_uncovered", True)]
    (derived,) = derived_scopes("ascent", hand)
    assert derived.options["flip_uncovered"] is True and derived.reaches == ("over",)
    assert "from its declaration" in derived.name
