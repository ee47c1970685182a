"""Reading cases proved shortest by bounded model checking (two kernels on Z3, one
per reading): B8's pass, B3's first player, B11's No cards, B8's movement starter.

The planted mistakes are ones the checks must catch: a game that parts the
readings one ply after they already parted, a symbolic condition blind to a
difference of legality, and a reading whose difference the kernel does not see.
"""

from __future__ import annotations

import attrs
import pytest

from castlerules import casebook, throne
from castlerules.casebook import bmc_reading, store
from castlerules.casebook.check import CaseError
from castlerules.casebook.play import start
from castlerules.casebook.search import SearchError

FOUND = store.load()
DECLARED = sorted(
    c.key for c in casebook.CASES if c.kind == "reading" and c.bmc is bmc_reading.readings_part
)


def test_the_throne_reading_cases_the_kernel_sees_declare_the_symbolic_split() -> None:
    assert {"throne-reading-pass", "throne-reading-movement-starter"} <= set(DECLARED)
    assert "throne-reading-public-no-cards" not in DECLARED  # a difference of views only
    assert "throne-reading-original-placement" not in DECLARED  # other move numbers


def test_b8_the_pass_reading_is_proved_to_part_first_after_the_placements() -> None:
    found = FOUND["throne-reading-pass"]
    assert found.found_by == "bmc" and found.depth == 13 == len(found.moves)
    assert found.tried == "pass" and "depths 0 to 12 refuted" in found.proof
    assert "shortest possible: proven by bounded model checking to depth 13" in found.how
    shown = casebook.show("throne-reading-pass", FOUND)
    assert shown.focus is not None and shown.focus.move == "pass"


def _lockstep(key: str) -> list[tuple[throne.State, throne.State]]:
    case = casebook.case(key)
    found = FOUND[key]
    states = start(case, found.players, found.seed)
    out = [(states[0], states[1])]
    for text in found.moves:
        a, b = out[-1]
        out.append(
            (
                throne.apply(a, throne.parse_move(a, text)),
                throne.apply(b, throne.parse_move(b, text)),
            )
        )
    return out


def test_b8_the_symbolic_split_holds_where_the_readings_part_and_not_before() -> None:
    case = casebook.case("throne-reading-pass")
    pairs = _lockstep(case.key)
    said = [bmc_reading.holds_on(case, pair) for pair in pairs]
    assert said == [False] * (len(pairs) - 1) + [True]


def test_a_reading_game_one_ply_longer_than_its_split_is_caught() -> None:
    """Planted: the pass case's game with one more move before the split, recorded as
    proved shortest (the readings already part one ply earlier: pass is legal)."""
    found = FOUND["throne-reading-pass"]
    case = casebook.case(found.key)
    last = _lockstep(case.key)[-1][1]
    extra = next(str(m) for m in throne.legal_moves(last) if str(m) != "pass")
    longer = attrs.evolve(found, moves=(*found.moves, extra), depth=found.depth + 1)
    with pytest.raises(CaseError, match="not the shortest: the readings part after 13 moves"):
        casebook.verify(case, longer)


def test_a_symbolic_split_blind_to_legality_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the symbolic condition sees only different positions, not a move legal
    under one reading only: the agreement on lockstep games refuses it."""
    case = casebook.case("throne-reading-pass")
    monkeypatch.setattr(bmc_reading, "readings_part", lambda z: z.positions_differ)
    with pytest.raises(SearchError, match="part for the Python search but not for the symbolic"):
        bmc_reading.agreement(case, 4, [FOUND[case.key].moves])


def test_the_true_symbolic_split_agrees_on_the_lockstep_games() -> None:
    case = casebook.case("throne-reading-movement-starter")
    assert bmc_reading.agreement(case, 4, [FOUND[case.key].moves]) > 13


def test_a_difference_of_views_only_is_not_seen_by_the_kernel() -> None:
    """B11: whether No counts are public changes what a seat is shown, not a position
    or a legal move: the readings part for the Python search at the first position,
    the symbolic condition does not hold there, and the agreement refuses it."""
    case = casebook.case("throne-reading-public-no-cards")
    first = start(case, 4, 0)
    assert not bmc_reading.holds_on(case, first)
    with pytest.raises(SearchError, match="after 0 common moves"):
        bmc_reading.agreement(case, 4, [()])
