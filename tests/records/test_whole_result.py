"""B16/A17: a record's whole result (every score, every winner, no extra one) against its replay.

Each planted mistake is one a careless writer (or a forger) makes: a false extra
co-winner, a true co-winner left out, a winner named twice, a score off by one.
Every one must be refused, for both games, over several finished games.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from castlerules import ascent, records, throne
from castlerules.core import Rng

GAMES = [(throne, 3), (throne, 4), (ascent, 2), (ascent, 4)]
SEEDS = range(4)


def finished(module: Any, players: int, seed: int) -> tuple[records.Record, Any]:
    state = module.new_game(players, seed=seed)
    rng = Rng.from_seed(seed, "tests.records.whole_result")
    moves = []
    while not module.is_over(state):
        move, rng = rng.choice(module.legal_moves(state))
        moves.append(move)
        state = module.apply(state, move)
    return records.make(module, players, seed=seed, moves=moves, final=state), state


def with_result(record: records.Record, scores: Any, winners: Any) -> records.Record:
    """The record with another stored result, read back through the record format."""
    data = records.to_data(record)
    data["result"] = {"scores": list(scores), "winners": list(winners)}
    return records.from_data(data)


@pytest.mark.parametrize(("module", "players"), GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_false_extra_co_winner_is_refused(module: Any, players: int, seed: int) -> None:
    record, final = finished(module, players, seed)
    assert records.check(record) == final
    scores, winners = record.result or ((), ())
    for loser in (q for q in range(players) if q not in winners):
        forged = with_result(record, scores, (*winners, loser))
        with pytest.raises(records.RecordError, match=f"seat {loser} did not win"):
            records.check(forged)
        first = with_result(record, scores, (loser, *winners))
        with pytest.raises(records.RecordError, match=f"seat {loser} did not win"):
            records.check(first)


@pytest.mark.parametrize(("module", "players"), GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_score_is_checked(module: Any, players: int, seed: int) -> None:
    record, _final = finished(module, players, seed)
    scores, winners = record.result or ((), ())
    for seat in range(players):
        for delta in (-1, 1):
            off = list(scores)
            off[seat] += delta
            with pytest.raises(records.RecordError, match="the scores differ"):
                records.check(with_result(record, off, winners))


def test_a_true_co_winner_left_out_is_refused() -> None:
    """A shared win (the kernel names two winners): naming only one of them is refused."""
    for seed in range(200):
        record, final = finished(throne, 3, seed)
        scores, winners = record.result or ((), ())
        if len(winners) > 1:
            break
    else:  # pragma: no cover - the seeds above hold a shared win
        pytest.fail("no shared win among the seeds tried")
    for kept in winners:
        alone = with_result(record, scores, (kept,))
        left_out = next(w for w in winners if w != kept)
        with pytest.raises(records.RecordError, match=f"seat {left_out} also won"):
            records.check(alone)
    # The winners' order is not part of the claim.
    assert records.check(with_result(record, scores, tuple(reversed(winners)))) == final


def test_a_winner_named_twice_is_refused_on_reading() -> None:
    record, _final = finished(throne, 3, 0)
    scores, winners = record.result or ((), ())
    with pytest.raises(records.RecordError, match="distinct seats"):
        with_result(record, scores, (winners[0], winners[0]))


def test_the_check_itself_would_catch_a_first_winner_only_comparison() -> None:
    """Planted mistake: a check comparing only the first stated winner accepts the forgery."""
    record, final = finished(ascent, 3, 1)
    scores, winners = record.result or ((), ())
    loser = next(q for q in range(3) if q not in winners)
    forged = attrs.evolve(record, result=(scores, (*winners, loser)))

    def first_only(rec: records.Record, state: Any) -> bool:
        got_scores, got_winners = tuple(ascent.scores(state)), tuple(ascent.winners(state))
        return rec.result is not None and (rec.result[0], rec.result[1][:1]) == (
            got_scores,
            got_winners[:1],
        )

    assert first_only(forged, final)  # the weak check is fooled...
    with pytest.raises(records.RecordError):  # ...the real one is not
        records.check(forged)
