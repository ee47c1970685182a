"""The proof that the Ascent model is the kernel (:mod:`proofs.ascent_equal`): a few
of its queries on the reference game, and a planted difference between the model and
the kernel in each kind of query, which must make it satisfiable (A3, A10, A14)."""

from __future__ import annotations

import pytest

from castlerules import ascent
from castlerules.symbolic import ascent_model
from castlerules.symbolic.ascent_model import ADVANCE, CASES, END, FAVOUR, AscentModel
from proofs import ascent_equal
from proofs.ascent_equal import Equal, check, command_query, converse_query

END_TURN = next(case for case in CASES if case.kind == END)
FAVOUR_GOES_ON = next(case for case in CASES if case.kind == FAVOUR and case.cont)


@pytest.fixture(scope="module")
def reference() -> Equal:
    return Equal(ascent.Rules(), 2)


@pytest.fixture(scope="module")
def proved() -> dict[tuple[object, ...], list[ascent_equal.Verdict]]:
    return {}


@pytest.fixture
def queries_once(
    monkeypatch: pytest.MonkeyPatch, proved: dict[tuple[object, ...], list[ascent_equal.Verdict]]
) -> None:
    """``ascent_equal.part_queries`` asked once in this module for each game and job: the
    tests of the command, the proof run, the fast run and the one-game task choose and
    report games, and would otherwise prove the same queries of a game again (the
    reference game three times).  The planted mistakes below do not take this fixture."""
    real = ascent_equal.part_queries

    def once(
        eq: Equal, part: str, timeout_ms: int = ascent_equal.TIMEOUT_MS
    ) -> list[ascent_equal.Verdict]:
        key = (eq.rules, eq.players, part, timeout_ms)
        if key not in proved:
            proved[key] = real(eq, part, timeout_ms)
        return proved[key]

    monkeypatch.setattr(ascent_equal, "part_queries", once)


def test_end_turn_is_the_kernels_both_ways(reference: Equal) -> None:
    """A3, A14: the model's EndTurn is the kernel's, and the kernel's is the model's."""
    assert command_query(reference, END_TURN, 0).answer == "unsat"
    assert converse_query(reference, END, 0).answer == "unsat"


def test_the_first_positions_and_the_premise(reference: Equal) -> None:
    """A18: the model's first positions are the kernel's; the premise of the converse
    is kept by every command."""
    verdicts = ascent_equal.premise_queries(reference)
    assert [v.answer for v in verdicts] == ["unsat"] * (len(CASES) + 1)


@pytest.mark.parametrize("mutation", ["favour_equal_rank", "favour_flipped"])
def test_a_planted_guard_is_caught(mutation: str) -> None:
    """A8, A10: a model whose Favour takes an equal rank or a flipped card is not the
    kernel: the query of the Favour's command is satisfiable."""
    wrong = Equal(ascent.Rules(), 2, mutation=mutation)
    assert command_query(wrong, FAVOUR_GOES_ON, 0).answer == "sat"


def test_a_planted_refusal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A3: a model that refuses every EndTurn misses the kernel's: the converse fails."""
    monkeypatch.setattr(AscentModel, "end_views", lambda self, t, m: False)
    assert converse_query(Equal(ascent.Rules(), 2), END, 0).answer == "sat"


def test_a_planted_turn_passing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A14: a model whose turn passes back to the mover is not the kernel."""
    monkeypatch.setattr(AscentModel, "next_actor", lambda self, s, p: p)
    assert command_query(Equal(ascent.Rules(), 2), END_TURN, 0).answer == "sat"


def test_a_planted_who_may_advance_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A14: a "who may advance" that never counts seat 0's king is not the kernel's."""
    real = ascent_model.seat_movers

    def wrong(*args: object) -> tuple[tuple[object, ...], ...]:
        rows = real(*args)  # type: ignore[arg-type]
        return ((False, *rows[0][1:]), *rows[1:])

    monkeypatch.setattr(ascent_equal, "seat_movers", wrong)
    eq = Equal(ascent.Rules(), 2)
    name, hypotheses, claim = eq.advances()[0]
    assert "card 0" in name
    assert check(name, hypotheses, claim).answer == "sat"


def test_an_advance_is_the_kernels(reference: Equal) -> None:
    """A3, A6, A9, A10: the model's Advance of seat 0's king, with a favour pending, is
    the kernel's."""
    pending = next(case for case in CASES if case.kind == ADVANCE and case.pending)
    assert command_query(reference, pending, 0).answer == "unsat"


def test_the_command_lists_every_query_and_refuses_an_unknown_job(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, queries_once: None
) -> None:
    """``python -m proofs.ascent_equal turn``: each query with its answer and time, and
    exit status 0; an unknown job: one line, exit status 2."""
    monkeypatch.setattr(ascent_equal, "GAMES", ascent_equal.GAMES[:1])
    assert ascent_equal.main(["turn"]) == 0
    out = capsys.readouterr().out
    assert "reference 2p | turn | EndTurn, card 0 | unsat |" in out
    assert "| turn | total |" in out
    assert ascent_equal.main(["nothing"]) == 2
    assert "unknown job 'nothing'" in capsys.readouterr().err


def test_the_proof_run_job(queries_once: None) -> None:
    """The proof run's job ``ascent: equal turn`` proves its property, once per game."""
    results = ascent_equal.results("turn")
    assert len(results) == len(ascent_equal.GAMES)
    assert all(r.ok and r.name == "ascent.equal.turn" and r.queries == 10 for r in results)


def test_the_fast_run_proves_the_reference_game_only(queries_once: None) -> None:
    """``python -m proofs --fast``: the first game of ``GAMES`` only."""
    (result,) = ascent_equal.results("turn", fast=True)
    assert result.ok and result.scope.startswith("2 players, reference rules")


def test_every_job_runs_in_ci_once() -> None:
    """Each job of the equality runs in exactly one of CI's two runs: the proof run
    (``proofs.ASCENT_EQUAL``) or the long run (``python -m proofs --long``), once per
    game; a job dropped from both, or run by both, is caught."""
    import proofs

    run = {t.name for t in proofs.tasks()}
    long = {t.name for t in proofs.long_tasks()}
    assert not run & long
    assert sorted((*proofs.ASCENT_EQUAL, *proofs.ASCENT_EQUAL_LONG)) == sorted(ascent_equal.PARTS)
    labels = [label for label, _options, _players in ascent_equal.GAMES]
    assert {
        f"ascent: equal {part} {label}" for part in proofs.ASCENT_EQUAL for label in labels
    } <= run
    assert long == {
        f"ascent: equal {part} {label}" for part in proofs.ASCENT_EQUAL_LONG for label in labels
    }


def test_one_game_of_a_job(queries_once: None) -> None:
    """The long run's tasks prove one game each; an unknown game is refused."""
    (result,) = ascent_equal.results("turn", game="allow_exposing_split")
    assert result.ok and "allow_exposing_split rules" in result.scope
    with pytest.raises(ValueError, match="unknown game 'nothing'"):
        ascent_equal.results("turn", game="nothing")
