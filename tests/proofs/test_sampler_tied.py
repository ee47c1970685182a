"""Throne's sampler (:func:`castlerules.throne.sampling.determinize`) tied to the kernel.

The sampler keeps its own copy of rules: the hidden No counts lie between the
spendings the eliminations require and those they allow (B11, B13,
:func:`~castlerules.throne.sampling.spent_bounds`), a face-down No vote needs a No
card (B11), the other seats' objectives are distinct cards (B4).  On the small scopes
of the exhaustive tie (:data:`proofs.equivalence.THRONE_KERNEL_SCOPES`: every deal,
every position the kernel reaches), with the No counts hidden, each seat's view of
every reachable position is drawn from and the drawn position must be one the kernel
reaches, seen alike by the seat; conversely every reachable position's No counts lie
within the bounds the sampler draws from.  Planted mistakes in the sampler's B11 and
B13 are caught.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from castlerules import throne
from castlerules.core import Rng
from castlerules.throne import sampling
from proofs.equivalence import THRONE_KERNEL_SCOPES, Scope, initial_positions


def hidden(scope: Scope, no_cards: tuple[int, ...]) -> Scope:
    """``scope`` with its No counts hidden and ``no_cards`` of them."""
    return attrs.evolve(
        scope, options={**scope.options, "no_cards_public": False, "no_cards": no_cards}
    )


ONE_CARD = hidden(THRONE_KERNEL_SCOPES[0], (1, 1, 1, 1))
"""The scope with eliminations (B13) and crownings, one hidden No card a seat."""
TWO_CARDS = hidden(THRONE_KERNEL_SCOPES[0], (2, 2, 2, 2))
"""Two No cards a seat: a seat may hold more cards than it can have spent (one per
elimination, B11)."""
SCOPES = {"one card": ONE_CARD, "two cards": TWO_CARDS}

Draw = Callable[..., tuple[throne.State, Rng]]


def reachable(scope: Scope) -> list[throne.State]:
    """Every position the kernel reaches in ``scope``, in search order."""
    starts = initial_positions(scope)
    seen, queue, out = set(starts), deque(starts), list(starts)
    while queue:
        state = queue.popleft()
        if throne.is_over(state):
            continue
        for move in throne.legal_moves(state):
            after = throne.apply(state, move)
            if after not in seen:
                seen.add(after)
                queue.append(after)
                out.append(after)
    return out


@pytest.fixture(scope="module")
def positions() -> dict[str, list[throne.State]]:
    return {name: reachable(scope) for name, scope in SCOPES.items()}


def bad_draws(
    states: list[throne.State], draw: Draw = sampling.determinize, limit: int = 3
) -> list[str]:
    """The draws from each seat's view of each position that the kernel does not reach
    or that the seat would see otherwise: ``why: drawn, seat, from position``."""
    known = set(states)
    bad: list[str] = []
    for k, state in enumerate(states):
        for seat in range(state.players):
            obs = throne.observation(state, seat)
            drawn, _ = draw(obs, Rng.from_seed(k, "tie"), deal_future=True)
            if drawn not in known:
                why = "unreachable"
            elif throne.observation(drawn, seat) != obs:
                why = "seen otherwise"
            else:
                continue
            bad.append(f"{why}: {throne.to_text(drawn)}, seat {seat}, from {throne.to_text(state)}")
            if len(bad) >= limit:
                return bad
    return bad


@pytest.mark.parametrize("name", SCOPES)
def test_b11_b13_every_drawn_position_is_reached_by_the_kernel_and_seen_alike(
    name: str, positions: dict[str, list[throne.State]]
) -> None:
    assert bad_draws(positions[name]) == []


@pytest.mark.parametrize("name", SCOPES)
def test_b11_b13_every_reachable_spending_of_no_cards_can_be_drawn(
    name: str, positions: dict[str, list[throne.State]]
) -> None:
    """The bounds the sampler draws the hidden No counts within leave out no position
    the kernel reaches: each hidden seat has spent at most the cap, all together at
    least the need."""
    outside = []
    for state in positions[name]:
        full = state.rules.no_cards_for(state.players)
        for seat in range(state.players):
            obs = throne.observation(state, seat)
            cap, need = sampling.spent_bounds(obs)
            spent = [full - n for q, n in enumerate(state.no_cards) if obs.no_cards[q] is None]
            if max(spent) > cap or sum(spent) < need:
                outside.append((throne.to_text(state), seat, cap, need))
    assert outside == []


def test_b13_a_sampler_that_leaves_the_no_cards_of_an_elimination_unspent_is_caught(
    positions: dict[str, list[throne.State]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planted: the hidden seats need not have spent anything (each hidden count drawn
    alone, eliminations or not)."""
    real = sampling.spent_bounds
    monkeypatch.setattr(sampling, "spent_bounds", lambda obs: (real(obs)[0], 0))
    found = bad_draws(positions["one card"], limit=1)
    assert found and found[0].startswith("unreachable"), found


def test_b11_a_sampler_that_spends_more_than_one_card_an_elimination_is_caught(
    positions: dict[str, list[throne.State]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planted: a hidden seat may have spent its whole allowance, more than one card per
    elimination (before any elimination, one card is already too many)."""
    real = sampling.spent_bounds

    def careless(obs: throne.Observation) -> tuple[int, int]:
        return obs.rules.no_cards_for(obs.players), real(obs)[1]

    monkeypatch.setattr(sampling, "spent_bounds", careless)
    found = bad_draws(positions["two cards"], limit=1)
    assert found and found[0].startswith("unreachable"), found


def test_b11_a_sampler_that_draws_a_no_vote_without_a_no_card_is_caught(
    positions: dict[str, list[throne.State]],
) -> None:
    """Planted: every face-down vote of another seat is drawn No, cards or not."""

    def careless(obs: Any, rng: Rng, *, deal_future: bool = False) -> tuple[throne.State, Rng]:
        drawn, rng = sampling.determinize(obs, rng, deal_future=deal_future)
        votes = tuple(v if q == obs.seat or v < 0 else 0 for q, v in enumerate(drawn.votes))
        return attrs.evolve(drawn, votes=votes), rng

    found = bad_draws(positions["one card"], careless, limit=1)
    assert found and found[0].startswith("unreachable"), found
