"""No vacuity: a proof whose premises are empty fails, it does not "prove" everything.

The planted mistake: the Throne system's initial states made unsatisfiable (round 0
and round 1 at once).  Before the vacuity checks every
property was still "proved"; now the invariant's induction, every property
resting on it, and the engine-witness check all fail.
"""

from __future__ import annotations

import pytest

from castlerules import throne
from castlerules.symbolic.smt import Expr, all_of
from castlerules.symbolic.throne import ThroneSystem
from castlerules.throne.kernel import KState
from proofs import premises
from proofs.throne import Checker, Config


@pytest.fixture
def empty_initial_states(monkeypatch: pytest.MonkeyPatch) -> None:
    original = ThroneSystem.init

    def init(self: ThroneSystem, s: KState) -> Expr:
        return all_of([original(self, s), s.rnd == 0])  # and rnd == 1: no state at all

    monkeypatch.setattr(ThroneSystem, "init", init)


@pytest.mark.usefixtures("empty_initial_states")
def test_b3_b6_unsatisfiable_initial_states_fail_every_induction_property() -> None:
    """B3, B6: with no initial state, the invariant and every property on it fail."""
    tallies = Checker(Config("SEED", 3, throne.Rules())).all(
        only=["throne.capacity", "throne.no_descent"]
    )
    assert not tallies["throne.invariant"].holds
    assert "premise: the initial states" in tallies["throne.invariant"].failure
    assert "vacuous" in tallies["throne.invariant"].failure
    assert not tallies["throne.capacity"].holds
    assert not tallies["throne.no_descent"].holds


@pytest.mark.usefixtures("empty_initial_states")
def test_b3_b6_unsatisfiable_initial_states_fail_the_engine_witness_check() -> None:
    """B3, B6: a new engine game that is not an initial state of the system is reported."""
    found, problems = premises.throne_witnesses(games=1)
    assert any("not an initial state" in p for p in problems)
    assert found  # the other premises are still witnessed


def test_b6_b16_every_move_kind_has_an_engine_witness() -> None:
    """B6-B16: every required case of the Throne transition is reached by the engine,
    with the system's post-state equal to the engine's successor."""
    result = premises.throne_result()
    assert result.holds, result.detail
    assert f"{len(premises.THRONE_KINDS)} case kinds witnessed" in result.detail


def test_a3_a14_every_ascent_move_kind_has_an_engine_witness() -> None:
    """A3, A8, A10, A12-A14: the Ascent cases are reached by the engine, model = engine."""
    result = premises.ascent_result()
    assert result.holds, result.detail


def test_b8_a_move_the_system_cannot_take_is_reported_and_the_check_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B8: when no case of the system matches a move the engine plays (a kernel that
    forbids it), the witness check reports it and goes on with the next game, instead
    of trying the same position for ever."""
    original = premises._ThroneCases.ask

    def ask(self: object, state: throne.State, move: throne.Move) -> object:
        init, inv, _hits, posts = original(self, state, move)  # type: ignore[arg-type]
        return init, inv, [], posts

    monkeypatch.setattr(premises._ThroneCases, "ask", ask)
    found, problems = premises.throne_witnesses(games=2)
    assert found == {} and problems and all("0 cases hold" in p for p in problems)
