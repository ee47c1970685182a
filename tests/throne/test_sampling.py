"""castlerules.throne.sampling: positions drawn from one seat's observation (B4, B11)."""

from __future__ import annotations

import attrs
import pytest

from castlerules import bots, throne
from castlerules.core import Rng
from castlerules.throne.sampling import determinize


def positions(rules: throne.Rules, players: int, seed: int) -> list[throne.State]:
    rng = Rng.from_seed(seed, "sampling")
    state = throne.new_game(players, rules, seed=seed)
    out = [state]
    while moves := throne.legal_moves(state):
        move, rng = rng.choice(moves)
        state = throne.apply(state, move)
        out.append(state)
    return out


@pytest.mark.parametrize("deal_future", [False, True])
@pytest.mark.parametrize("public", [False, True])
def test_the_seats_view_is_kept_and_the_rounds_to_come_dealt_or_blank(
    deal_future: bool, public: bool
) -> None:
    rules = throne.Rules(no_cards_public=public)
    rng = Rng.from_seed(4)
    for state in positions(rules, 4, seed=2)[::5]:
        for seat in range(4):
            obs = throne.observation(state, seat)
            sample, rng = determinize(obs, rng, deal_future=deal_future)
            assert throne.observation(sample, seat) == obs
            for number in range(state.round + 1, rules.rounds + 1):
                deal = sample.objectives[number - 1]
                if deal_future:  # B4: distinct cards of objective_size characters
                    assert len(set(deal)) == 4
                    assert all(bin(mask).count("1") == rules.objective_size for mask in deal)
                else:
                    assert deal == (0, 0, 0, 0)


def test_the_bots_sample_reads_the_observation_only() -> None:
    """Two positions a seat cannot tell apart (hidden parts changed) give the montecarlo
    bot's determinization the same sample for the same generator."""
    rng = Rng.from_seed(7)
    changed = 0
    for state in positions(throne.Rules(no_cards_public=False), 3, seed=5)[::4]:
        if throne.is_over(state):
            continue
        for seat in range(3):
            other, rng = determinize(throne.observation(state, seat), rng, deal_future=True)
            # Keep the real castle and results; only what the seat cannot see differs.
            other = attrs.evolve(
                state, objectives=other.objectives, votes=other.votes, no_cards=other.no_cards
            )
            assert throne.observation(other, seat) == throne.observation(state, seat)
            changed += other != state
            start = Rng.from_seed(9)
            assert bots.determinize(throne, state, seat, start) == bots.determinize(
                throne, other, seat, start
            )
    assert changed > 10
