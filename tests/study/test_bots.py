"""The bots of :mod:`castlerules.bots`: legal, seeded, blind to what their seat may not see."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from castlerules import ascent, bots, throne
from castlerules.cli import bots as cli_bots
from castlerules.core import ArgumentError, Rng

SHORT = throne.Rules(characters=7, objective_size=3, rounds=1, bonus_rounds=())


def positions(module: Any, players: int, rules: Any, games: int, seed: int) -> list[Any]:
    """Every position of a few seeded random games (elections included, for Throne)."""
    out = []
    rng = Rng.from_seed(seed, "test.positions")
    for game in range(games):
        state = module.new_game(players, rules, seed=game)
        while not module.is_over(state):
            out.append(state)
            move, rng = rng.choice(module.legal_moves(state))
            state = module.apply(state, move)
    return out


@pytest.mark.parametrize("public", [True, False])
def test_determinize_keeps_exactly_what_the_seat_sees(public: bool) -> None:
    """B4, B11: a sample is a position the seat cannot tell from the real one, and the
    hidden parts (other objectives, face-down votes, hidden No counts) are redrawn."""
    rules = attrs.evolve(throne.Rules(), no_cards_public=public)
    rng = Rng.from_seed(1)
    differs = {"objectives": 0, "votes": 0, "no_cards": 0}
    elections = 0
    for state in positions(throne, 4, rules, 3, seed=5)[::3]:
        seat = throne.current_player(state)
        assert seat is not None
        for viewer in {seat, (seat + 1) % 4}:
            sample, rng = bots.determinize(throne, state, viewer, rng)
            assert throne.observation(sample, viewer) == throne.observation(state, viewer)
            if viewer == seat:
                assert throne.legal_moves(sample) == throne.legal_moves(state)
            differs["objectives"] += sample.objectives != state.objectives
            differs["votes"] += sample.votes != state.votes
            differs["no_cards"] += sample.no_cards != state.no_cards
        elections += throne.phase(state) == "election"
    assert elections > 0
    assert differs["objectives"] > 0
    assert differs["votes"] > 0
    assert (differs["no_cards"] > 0) == (not public)


def test_determinize_deals_every_round_to_come() -> None:
    """B4: the montecarlo bot's sample deals every later round: distinct cards of
    objective_size characters, one per seat."""
    rules = throne.Rules()
    rng = Rng.from_seed(2)
    for state in positions(throne, 4, rules, 1, seed=3)[::9]:
        sample, rng = bots.determinize(throne, state, 1, rng)
        for deal in sample.objectives[state.round :]:
            assert len(set(deal)) == 4
            assert all(bin(mask).count("1") == rules.objective_size for mask in deal)


def test_montecarlo_decides_from_the_observation_only() -> None:
    """B4, B11: two positions that look the same to the seat get the same move (same seed)."""
    rng = Rng.from_seed(2)
    checked = 0
    for state in positions(throne, 3, SHORT, 2, seed=3)[::4]:
        seat = throne.current_player(state)
        assert seat is not None
        if len(throne.legal_moves(state)) == 1:
            continue
        other, rng = bots.determinize(throne, state, seat, rng)
        assert other != state or throne.phase(state) != "placement"
        first = bots.make_bot("montecarlo", throne, seat, 11)(state, seat)
        second = bots.make_bot("montecarlo", throne, seat, 11)(other, seat)
        assert first == second
        checked += 1
    assert checked >= 5


def play(module: Any, players: int, kinds: list[str], seed: int, rules: Any = None) -> Any:
    state = module.new_game(players, rules, seed=seed)
    seats = [bots.make_bot(k, module, s, seed) for s, k in enumerate(kinds)]
    while not module.is_over(state):
        seat = module.current_player(state)
        move = seats[seat](state, seat)
        assert move in module.legal_moves(state)
        state = module.apply(state, move)
    return state


def test_bots_are_seeded() -> None:
    for kind in ("random", "greedy", "montecarlo"):  # mcts: tests/adapters/test_mcts_bot.py
        a = play(ascent, 2, [kind, "random"], seed=4)
        b = play(ascent, 2, [kind, "random"], seed=4)
        assert ascent.to_text(a) == ascent.to_text(b)


def test_montecarlo_beats_random() -> None:
    """Ascent (A15, A16): the Monte Carlo bot wins nearly every game against random play."""
    wins = 0.0
    for seed in range(6):
        for seat in (0, 1):
            kinds = ["random", "random"]
            kinds[seat] = "montecarlo"
            winners = ascent.winners(play(ascent, 2, kinds, seed))
            wins += (seat in winners) / len(winners)
    assert wins >= 10


def test_montecarlo_plays_throne_against_greedy() -> None:
    state = play(throne, 3, ["montecarlo", "greedy", "greedy"], seed=1, rules=SHORT)
    assert throne.is_over(state)


def test_the_registry_and_the_command_lines_names() -> None:
    assert cli_bots.KINDS == bots.KINDS == ("random", "greedy", "montecarlo", "mcts")
    assert cli_bots.make_bot("greedy", throne, 0, 1) is bots.throne_greedy
    with pytest.raises(ArgumentError, match="unknown bot 'clever'; the bots are: random"):
        cli_bots.make_bot("clever", throne, 0, 1)
    with pytest.raises(ArgumentError, match="unknown bot"):
        bots.make_bot("clever", ascent, 0, 1)
    with pytest.raises(ArgumentError, match="the greedy bot takes no parameter"):
        bots.make_bot("greedy:3", ascent, 0, 1)
    with pytest.raises(ArgumentError, match="playouts"):
        bots.MonteCarloBot(Rng.from_seed(1), throne, playouts=0)


def test_b11_greedy_votes_yes_without_a_no_card() -> None:
    """B11: a No vote needs a No card: without one, the greedy bot votes Yes even against
    a candidate it does not favour (its vote is always a legal move)."""
    rules = throne.Rules(no_cards=(1, 1, 1, 1))
    forced = 0
    for state in positions(throne, 3, rules, 6, seed=4):
        seat = throne.current_player(state)
        if seat is None or throne.phase(state) != "election":
            continue
        move = bots.throne_greedy(state, seat)
        assert move in throne.legal_moves(state)
        candidate = throne.candidate(state)
        if throne.no_cards(state, seat) == 0 and candidate not in throne.objective(state, seat):
            forced += 1
            assert move == throne.Vote(True)
    assert forced > 0
