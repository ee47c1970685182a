"""The bridge driven to the clauses' boundaries, on the full games (issue 10).

Random play rarely reaches round 3, a full floor or a removal; these tests
steer the engine there and check, at every step, that the legal moves and the
successor of the proofs' transition system (Throne: the rule kernel on Z3 terms;
Ascent: the Ascent model) are the engine's:

- Throne: a round-3 score of 0 (the bonus, B15), of 1 (no bonus) and of 33
  (B14's maximum in the last round); a floor at exactly its capacity (B7),
  where a fifth placement is refused by both;
- Ascent: an Advance that lands exactly on its arrival square (A6, A8: the
  flip), favours in the lower and in the upper half (A10, A13), a removal
  (A13) and a remainder that stays (the lower half).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from castlerules import ascent, throne
from castlerules.core import Rng
from castlerules.core.protocol import random_playout
from castlerules.symbolic.ascent_model import AscentModel
from castlerules.symbolic.ascent_model import Params as AscentParams
from castlerules.symbolic.throne import ThroneSystem
from proofs.ascent_bridge import Bridge as AscentBridge
from proofs.throne import Config, _played, expand
from proofs.throne_bridge import Bridge, abstract, filler_objectives, first_moves_until


@cache
def bridge(players: int) -> Bridge:
    return Bridge(ThroneSystem(throne.Rules(), players))


def checked(state: throne.State, plan: Sequence[throne.Move | frozenset[int]]) -> throne.State:
    """Play ``plan`` checking legal moves and successors against the Z3 system at each step."""
    model = bridge(state.players)
    for i, move in enumerate(expand(state, plan)):
        # The legal moves every 4th position (a solver enumeration each), the
        # successor at every step.
        if i % 4 == 0:
            assert model.legal_moves(state) == {str(m) for m in throne.legal_moves(state)}
        after = throne.apply(state, move)
        assert model.successors(state, move) == [abstract(after)], str(move)
        state = after
    return state


def round_three(on_floor_two: int, players: int = 3) -> tuple[throne.State, list[str]]:
    """Round 3 reached with seat 0's round-3 favourites A-F; the position and objective."""
    rules = throne.Rules()
    filler = filler_objectives(rules, players)
    mine = "ABCDEF"
    objectives = [filler, filler, [mine, *filler[1:]]]
    del on_floor_two
    start = throne.new_game(players, rules, objectives=objectives)
    return _played(start, first_moves_until(start, 3)), list(mine)


def low_round(favourite_on_two: bool) -> list[throne.Move | frozenset[int]]:
    """Seat 0's favourites A-F score 0 or 1: A-C (and D unless on floor 2) on floor 1,
    E and F eliminated by seat 0's No votes; G is crowned."""
    plan: list[throne.Move | frozenset[int]] = [throne.Place(ch, 1) for ch in "ABC"]
    plan.append(throne.Place("D", 2 if favourite_on_two else 1))
    plan += [throne.Place(ch, 5) for ch in "EFG"]
    plan += [throne.Place(ch, f) for ch, f in zip("HIJKLM", (3, 3, 3, 3, 4, 4), strict=True)]
    for ch, no in (("E", frozenset({0})), ("F", frozenset({0})), ("G", frozenset())):
        plan += [throne.Climb(ch), throne.Climb(ch), no]
    return plan


def test_b15_round_three_scores_of_zero_and_one_agree_with_the_model() -> None:
    """B15: a round-3 score of 0 becomes 33, a score of 1 stays 1, model = engine."""
    for on_two, expected in ((False, 33), (True, 1)):
        state, _mine = round_three(0)
        end = checked(state, low_round(on_two))
        assert throne.is_over(end)
        assert throne.round_scores(end)[2][0] == expected


def test_b14_a_round_three_score_of_33_agrees_with_the_model() -> None:
    """B14: king 10 + three nobles 3 x 5 + two dignitaries 2 x 4 = 33 in round 3."""
    from proofs.throne import _plan_high

    config = Config("SEED", 3, throne.Rules())
    first, plan = _plan_high(config, 3, 2)
    filler = filler_objectives(config.rules, 3)
    start = throne.new_game(3, config.rules, objectives=[filler, filler, first])
    state = _played(start, first_moves_until(start, 3))
    end = checked(state, plan)
    assert throne.round_scores(end)[2][0] == 33
    assert throne.is_over(end)


def test_b7_a_floor_at_exactly_capacity_refuses_a_fifth_in_both() -> None:
    """B7: four characters on floor 1; a fifth placement there is refused by both."""
    state = throne.new_game(3, seed=5)
    state = checked(state, [throne.Place(ch, 1) for ch in "ABCD"])
    legal = bridge(3).legal_moves(state)
    assert "E1" not in legal and "E2" in legal
    assert legal == {str(m) for m in throne.legal_moves(state)}


def _ascent_boundaries() -> dict[str, tuple[ascent.State, ascent.Move]]:
    """Positions of seeded random games where a move meets a boundary."""
    wanted: dict[str, tuple[ascent.State, ascent.Move]] = {}
    for rules, players in ((ascent.Rules(), 2), (ascent.Rules(removal_in_lower_half=True), 3)):
        for seed in range(40):
            start = ascent.new_game(players, rules, seed=seed)
            history, _end, _rng = random_playout(
                ascent.legal_moves, ascent.apply, start, Rng.from_seed(seed, "boundaries")
            )
            for state, move in history:
                after = ascent.apply(state, move)
                if isinstance(move, ascent.Advance):
                    card = move.card
                    if ascent.is_flipped(after, card) and not ascent.is_flipped(state, card):
                        wanted.setdefault("advance onto its arrival square", (state, move))
                if isinstance(move, ascent.Favour):
                    square = next(
                        s
                        for q in range(players)
                        for s in range(1, rules.squares + 1)
                        if move.card in ascent.stack_at(state, q, s)
                    )
                    half = "upper" if rules.in_upper_half(square) else "lower"
                    wanted.setdefault(f"favour in the {half} half", (state, move))
                    lost = sum(
                        len(ascent.removed(after, q)) - len(ascent.removed(state, q))
                        for q in range(players)
                    )
                    if lost:
                        wanted.setdefault(
                            f"removal ({rules.removal_in_lower_half=})", (state, move)
                        )
            if len(wanted) >= 5:
                return wanted
    return wanted


def test_a6_a8_a10_a13_boundary_moves_agree_with_the_model() -> None:
    """A6/A8 a card exactly on its arrival square flips; A10 favours in both halves;
    A13 a removal: at each, the model's legal moves and successor are the engine's."""
    found = _ascent_boundaries()
    assert {
        "advance onto its arrival square",
        "favour in the lower half",
        "favour in the upper half",
    } <= set(found)
    assert any(k.startswith("removal") for k in found)
    for name, (state, move) in found.items():
        model = AscentModel(AscentParams(state.rules, state.players))
        b = AscentBridge(model, state)
        assert b.legal_moves() == {str(m) for m in ascent.legal_moves(state)}, name
        got = b.successor(move)
        assert got.unique and got.state == ascent.apply(state, move), name
