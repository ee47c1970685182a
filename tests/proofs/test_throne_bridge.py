"""The bridge: the Z3 model of Throne is the engine's game, move for move.

On reachable engine positions (random games under drawn options), the Z3
legality predicate admits exactly ``legal_moves`` (B6, B8, B11) and the Z3
transition relation admits exactly the abstraction of the engine's successor
(B6-B16).  Without this the proofs would be about another game.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import throne
from castlerules.core import Rng
from proofs.throne_bridge import Bridge, abstract
from proofs.throne_model import Params, ThroneSystem


@cache
def bridge(rules: throne.Rules, players: int) -> Bridge:
    return Bridge(ThroneSystem(Params(rules, players)))


@st.composite
def games(draw: st.DrawFn) -> tuple[throne.Rules, int, int, int]:
    preset = draw(st.sampled_from(["SEED", "ORIGINAL"]))
    options = dict(throne.Rules.PRESETS[preset])
    options["allow_pass"] = draw(st.booleans())
    options["no_cards_reset_each_round"] = draw(st.booleans())
    options["first_player_rotates"] = draw(st.booleans())
    rules = throne.Rules(**options)
    players = draw(st.sampled_from([3, 4, 5, 6]))
    seed = draw(st.integers(0, 2**16))
    skip = draw(st.integers(0, 60))
    return rules, players, seed, skip


@settings(max_examples=8)
@given(games())
def test_b6_b16_model_agrees_with_engine_on_reachable_positions(
    game: tuple[throne.Rules, int, int, int],
) -> None:
    """B6-B16: the model's legal moves and successors are the engine's."""
    rules, players, seed, skip = game
    model = bridge(rules, players)
    state = throne.new_game(players, rules, seed=seed)
    rng = Rng.from_seed(seed, "bridge")
    # Walk ``skip`` random moves unchecked, then check 25 positions in a row.
    for ply in range(skip + 25):
        moves = throne.legal_moves(state)
        if not moves:
            break
        move, rng = rng.choice(moves)
        after = throne.apply(state, move)
        if ply >= skip:
            assert model.legal_moves(state) == {str(m) for m in moves}
            assert model.successors(state, move) == [abstract(after)]
        state = after


def test_b11_model_refuses_a_no_vote_without_no_cards() -> None:
    """B11: a seat without No cards can only vote Yes, in the model as in the engine."""
    rules = throne.Rules()
    model = bridge(rules, 3)
    state = throne.new_game(3, rules, seed=1)
    rng = Rng.from_seed(1, "b11")
    seen = False
    while not throne.is_over(state) and not seen:
        moves = throne.legal_moves(state)
        if throne.phase(state) == "election":
            legal = model.legal_moves(state)
            assert legal == {str(m) for m in moves}
            seat = throne.current_player(state)
            assert seat is not None
            if throne.no_cards(state, seat) == 0:
                assert legal == {"yes"}
                seen = True
            move = throne.Vote(False) if "no" in legal else throne.Vote(True)
        else:
            move, rng = rng.choice(moves)
        state = throne.apply(state, move)
    assert seen, "the game should exhaust someone's No cards"
