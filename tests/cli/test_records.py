"""Game records: exact round trip, strict reading, typed refusals, replay stops with the clause."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from castlerules import ascent, records, throne
from castlerules.core import Rng, RulesError


def random_game(module: Any, players: int, seed: int, rules: Any = None, **kwargs: Any) -> Any:
    state = module.new_game(players, rules=rules, seed=seed, **kwargs)
    rng = Rng.from_seed(seed, "tests.records")
    moves = []
    while not module.is_over(state):
        move, rng = rng.choice(module.legal_moves(state))
        moves.append(move)
        state = module.apply(state, move)
    return moves, state


@pytest.mark.parametrize(
    ("module", "players", "rules"),
    [
        (throne, 3, throne.Rules()),
        (throne, 5, throne.Rules.preset("ORIGINAL")),
        (throne, 4, throne.Rules(allow_pass=True, no_cards=(2, 2, 2, 2))),
        (ascent, 2, ascent.Rules()),
        (ascent, 6, ascent.Rules(favours_per_move=None, upper_half=5)),
    ],
)
def test_a_record_round_trips_and_replays_to_the_same_result(
    module: Any, players: int, rules: Any
) -> None:
    moves, final = random_game(module, players, 11, rules)
    record = records.make(module, players, rules, seed=11, moves=moves, final=final)
    text = records.dumps(record)
    again = records.loads(text)
    assert again == record
    assert records.dumps(again) == text
    assert again.rules() == rules
    assert records.check(again) == final
    assert [step.text for step in records.replay(again)] == [str(m) for m in moves]


def test_the_rules_are_stored_as_a_preset_and_the_options_that_differ() -> None:
    rules = throne.Rules(**throne.Rules.PRESETS["ORIGINAL"], allow_pass=True)
    record = records.make(throne, 4, rules)
    assert record.preset == "ORIGINAL"
    assert record.options == (("allow_pass", True),)
    data = json.loads(records.dumps(record))
    assert data["rules"] == {"preset": "ORIGINAL", "options": {"allow_pass": True}}
    assert data["format"] == records.FORMAT
    assert data["version"] == records.VERSION


def test_explicit_objectives_and_first_player_are_kept() -> None:
    objectives = [["ABCDEF", "GHIJKL", "ACEGIK"]] * 3
    moves, final = random_game(throne, 3, 2, objectives=objectives)
    record = records.make(throne, 3, seed=2, objectives=objectives, moves=moves, final=final)
    again = records.loads(records.dumps(record))
    assert again.objectives == tuple(tuple(r) for r in objectives)
    assert records.check(again) == final
    moves, final = random_game(ascent, 3, 4, first_player=2)
    record = records.make(ascent, 3, seed=4, first_player=2, moves=moves, final=final)
    assert records.check(records.loads(records.dumps(record))) == final


def test_a_newer_version_is_refused_before_anything_else() -> None:
    data = {"format": records.FORMAT, "version": records.VERSION + 1, "whatever": [1, 2]}
    with pytest.raises(records.RecordVersionError) as info:
        records.loads(json.dumps(data))
    assert info.value.version == records.VERSION + 1
    assert "upgrade castlerules" in str(info.value)
    assert isinstance(info.value, RulesError)


def test_an_illegal_recorded_move_carries_its_number_seat_and_clause() -> None:
    record = records.make(throne, 3, seed=1, moves=["C3", "D6"])
    steps = []
    with pytest.raises(records.IllegalRecordedMove) as info:
        steps.extend(records.replay(record))
    err = info.value
    assert (err.ply, err.text, err.seat, err.clause) == (2, "D6", 1, "B6")
    assert [s.text for s in steps] == ["C3"]
    assert throne.floor_of(err.state, "C") == 3
    assert str(err).startswith("move 2 'D6' (seat 1 to play) is illegal: ")


def test_an_unreadable_recorded_move_has_no_clause() -> None:
    record = records.make(ascent, 2, seed=1, first_player=0, moves=["Q9"])
    with pytest.raises(records.IllegalRecordedMove) as info:
        list(records.replay(record))
    assert info.value.clause is None
    assert "cannot be read" in str(info.value)


def test_save_and_load_a_file(tmp_path: Path) -> None:
    moves, final = random_game(ascent, 4, 5)
    record = records.make(ascent, 4, seed=5, moves=moves, final=final)
    path = tmp_path / "game.json"
    records.save(record, path)
    assert records.load(path) == record
    with pytest.raises(records.RecordError, match="cannot read"):
        records.load(tmp_path / "missing.json")
    with pytest.raises(records.RecordError, match="cannot write"):
        records.save(record, tmp_path / "no" / "such" / "dir.json")


# --------------------------------------------------------------------------- stored results


def _finished_throne_record() -> tuple[records.Record, Any]:
    moves, final = random_game(throne, 3, 5)
    return records.make(throne, 3, seed=5, moves=moves, final=final), final


def test_b16_only_a_finished_game_has_a_stored_result() -> None:
    """B16: a result (scores and winners) is stored only once the game is over."""
    moves, final = random_game(throne, 3, 5)
    assert records.make(throne, 3, seed=5, moves=moves, final=final).result is not None
    state = throne.new_game(3, seed=5)
    for move in moves[:10]:
        state = throne.apply(state, move)
    unfinished = records.make(throne, 3, seed=5, moves=moves[:10], final=state)
    assert unfinished.result is None
    assert "result" not in records.to_data(unfinished)


@pytest.mark.parametrize(
    ("winners", "error"),
    [([], "result.winners"), ([3], "result.winners"), ([-1], "result.winners")],
)
def test_b16_stored_winners_are_seats_of_the_game(winners: list[int], error: str) -> None:
    """B16: at least one winner, each a seat of the game (0..players-1)."""
    record, _final = _finished_throne_record()
    data = records.to_data(record)
    data["result"]["winners"] = winners
    with pytest.raises(records.RecordError, match=error):
        records.from_data(data)


def test_b16_the_check_compares_the_stored_winners_too() -> None:
    """B16: a record whose stored scores are right but winners wrong fails its check."""
    record, final = _finished_throne_record()
    assert records.check(record) == final
    scores, winners = record.result or ((), ())
    others = tuple(q for q in range(3) if q not in winners)
    wrong = attrs.evolve(record, result=(scores, others))
    with pytest.raises(records.RecordError, match="winners"):
        records.check(wrong)


def test_b3_a_result_for_moves_that_do_not_end_the_game_is_refused() -> None:
    """B3: the game ends after its last round; a result stored for fewer moves is refused."""
    record, _final = _finished_throne_record()
    short = attrs.evolve(record, moves=record.moves[:-1])
    with pytest.raises(records.RecordError, match="the game is not over"):
        records.check(short)
