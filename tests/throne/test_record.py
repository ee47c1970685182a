"""Golden game records: seeded random games, stored move by move, replayed exactly.

Each file of ``tests/throne/data/`` says how it was made (its ``how`` field):
a ``new_game`` and :func:`castlerules.core.random_playout` with a named
generator.  Replaying the moves must give the stored final position and
scores, and playing out the same generator must choose the same moves (so a
change in the deal, the move order or the generator shows up here).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from castlerules.core import CLAUSES, Rng, random_playout
from castlerules.throne import (
    apply,
    describe,
    from_text,
    is_over,
    king,
    legal_moves,
    new_game,
    parse_move,
    round_scores,
    to_text,
    totals,
    winners,
)
from castlerules.throne.notation import parse_rules

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("game_*.json"))


def load(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def test_records_exist() -> None:
    assert len(RECORDS) >= 2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_replay_record(path: Path) -> None:
    record = load(path)
    rules = parse_rules(record["rules"])
    state = new_game(record["players"], rules=rules, seed=record["seed"])
    assert to_text(state) == record["start"]
    clauses: set[str] = set()
    for text in record["moves"]:
        assert not is_over(state)
        move = parse_move(state, text)
        after = apply(state, move)
        events = describe(state, move, after)
        assert events
        clauses.update(e.clause for e in events)
        state = after
    assert is_over(state)
    assert to_text(state) == record["final"]
    assert from_text(record["final"]) == state
    assert [list(r) for r in round_scores(state)] == record["round_scores"]
    assert [king(state, r) for r in (1, 2, 3)] == record["kings"]
    assert list(totals(state)) == record["totals"]
    assert list(winners(state)) == record["winners"]
    assert clauses <= set(CLAUSES)
    assert {"B6", "B8", "B10", "B11", "B12", "B14", "B16"} <= clauses


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_is_the_seeded_playout(path: Path) -> None:
    record = load(path)
    state = new_game(record["players"], rules=parse_rules(record["rules"]), seed=record["seed"])
    history, final, _ = random_playout(
        legal_moves, apply, state, Rng.from_seed(record["seed"], "record")
    )
    assert [str(move) for _, move in history] == record["moves"]
    assert to_text(final) == record["final"]
