"""castlerules.throne.sampling: positions drawn from one seat's observation (B4, B11)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import attrs
import pytest

from castlerules import bots, throne
from castlerules.core import ArgumentError, Rng
from castlerules.throne import sampling
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


def _elections(rules: throne.Rules, players: int, seeds: range) -> list[throne.State]:
    """Positions of random games during an election with at least one vote cast."""
    return [
        state
        for seed in seeds
        for state in positions(rules, players, seed)
        if state.phase == 2 and any(v >= 0 for v in state.votes)
    ]


def test_b11_the_hidden_no_counts_are_drawn_within_the_allowance() -> None:
    """B11: a hidden No count is drawn between 0 and the round's allowance, each value
    in reach."""
    rules = throne.Rules(no_cards_public=False)
    allowance = rules.no_cards_for(4)
    rng = Rng.from_seed(3)
    drawn: set[int] = set()
    for state in positions(rules, 4, seed=1)[::7]:
        obs = throne.observation(state, 0)
        for _ in range(4):
            sample, rng = determinize(obs, rng)
            assert all(0 <= n <= allowance for n in sample.no_cards)
            drawn.update(sample.no_cards[1:])
    assert drawn == set(range(allowance + 1))


def test_b4_no_other_seat_is_drawn_the_seats_own_card() -> None:
    """B4: a deck holds no two identical cards, so no other seat is drawn the objective
    the seat holds (a deck of four cards for three seats makes a repeat near certain)."""
    deck = ("ABCDEF", "GHIJKL", "ABCGHI", "DEFJKM")
    rules = throne.Rules(objective_deck=deck)
    rng = Rng.from_seed(5)
    for state in positions(rules, 3, seed=2)[::6]:
        for seat in range(3):
            obs = throne.observation(state, seat)
            for _ in range(3):
                sample, rng = determinize(obs, rng, deal_future=True)
                for deal in sample.objectives:
                    assert len(set(deal)) == 3


def test_b11_no_face_down_no_vote_is_drawn_for_a_seat_without_a_no_card() -> None:
    """B11: a No vote needs a No card: a seat that voted and holds none is drawn a Yes."""
    rules = throne.Rules(no_cards=(1, 1, 1, 1))  # public counts, soon spent
    rng = Rng.from_seed(6)
    without = 0
    for state in _elections(rules, 3, range(12)):
        for seat in range(3):
            obs = throne.observation(state, seat)
            for _ in range(3):
                sample, rng = determinize(obs, rng)
                for q, vote in enumerate(sample.votes):
                    if q != seat and vote >= 0 and sample.no_cards[q] == 0:
                        without += 1
                        assert vote == 1
    assert without > 10


def test_b4_objectives_given_by_hand_differ_within_a_round() -> None:
    """B4: the explicit objectives of one round are distinct cards."""
    same = [["ABCDEF", "ABCDEF", "GHIJKL"]] * 3
    with pytest.raises(ArgumentError, match="objectives within a round must differ"):
        throne.new_game(3, objectives=same)


def _kept_draws(monkeypatch: pytest.MonkeyPatch, totals: frozenset[int]) -> set[tuple[int, ...]]:
    """The hidden spendings drawn from seat 0's view of a new four-seat game whose view
    is made to allow ``totals`` eliminations since the cards were dealt."""
    rules = throne.Rules(no_cards_public=False, no_cards_reset_each_round=False)
    obs = throne.observation(throne.new_game(4, rules, seed=1), 0)
    monkeypatch.setattr(sampling, "elimination_totals", lambda obs: totals)
    full = rules.no_cards_for(4)
    rng = Rng.from_seed(8)
    drawn: set[tuple[int, ...]] = set()
    for _ in range(400):
        sample, rng = determinize(obs, rng)
        drawn.add(tuple(full - n for n in sample.no_cards[1:]))
    return drawn


def test_b11_b13_the_spendings_drawn_are_those_one_total_of_eliminations_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B11, B13: with 1 or 3 eliminations since the cards were dealt, a hidden seat has
    spent at most one card an elimination and the seats together at least one an
    elimination, for one of the two totals: (2, 0, 0) fits neither, (1, 0, 0) and
    (3, 0, 0) one each; every allowed spending is drawn."""
    drawn = _kept_draws(monkeypatch, frozenset({1, 3}))
    allowed = {
        spent
        for spent in itertools.product(range(4), repeat=3)
        if any(max(spent) <= total <= sum(spent) for total in (1, 3))
    }
    assert {(1, 0, 0), (3, 0, 0)} <= allowed
    assert (2, 0, 0) not in allowed
    assert drawn == allowed


def test_b11_b13_a_sampler_that_draws_between_the_fewest_and_most_eliminations_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Planted: the spendings drawn in the box between the fewest and the most
    eliminations (each at most 3, together at least 1), not among those one total
    allows: (2, 0, 0) is drawn."""

    def boxed(obs: throne.Observation, spent: Sequence[int]) -> bool:
        cap, need = sampling.spent_bounds(obs)
        return max(spent) <= cap and sum(spent) >= need

    monkeypatch.setattr(sampling, "may_have_spent", boxed)
    assert (2, 0, 0) in _kept_draws(monkeypatch, frozenset({1, 3}))
