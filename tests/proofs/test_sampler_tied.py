"""Throne's sampler (:func:`castlerules.throne.sampling.determinize`) tied to the kernel.

The sampler keeps its own copy of rules: the hidden No counts lie in 0..the round's
allowance, a face-down No vote needs a No card (B11), the other seats' objectives are
distinct cards (B4).  Every position it draws must be one the kernel can reach: it
must satisfy the inductive invariant proved over the kernel on Z3
(:mod:`castlerules.symbolic.throne_invariant`, ``throne.invariant`` in the proof run).
On every election position with a vote cast of a small scope of the exhaustive tie
(:data:`proofs.equivalence.THRONE_KERNEL_SCOPES`: every deal, every reachable
position), each seat's draw is checked; a planted mistake in the sampler's B11 is
caught.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import attrs
import pytest
import z3

from castlerules import throne
from castlerules.core import Rng
from castlerules.symbolic.throne import ThroneSystem, fields
from castlerules.symbolic.throne_invariant import Claims
from castlerules.throne import kernel, sampling
from castlerules.throne.state import ELECTION
from proofs.equivalence import THRONE_KERNEL_SCOPES, Scope, initial_positions, throne_rules

SCOPE = attrs.evolve(
    THRONE_KERNEL_SCOPES[0],
    options={**THRONE_KERNEL_SCOPES[0].options, "no_cards_public": False},
)
"""The scope with eliminations (B13) and crownings, its No counts hidden: the sampler
draws the other seats' No counts, votes and objectives."""


def elections(scope: Scope) -> list[throne.State]:
    """Every reachable election position of ``scope`` with at least one vote cast."""
    starts = initial_positions(scope)
    seen, queue = set(starts), deque(starts)
    out = []
    while queue:
        state = queue.popleft()
        if state.phase == ELECTION and any(v >= 0 for v in state.votes):
            out.append(state)
        if throne.is_over(state):
            continue
        for move in throne.legal_moves(state):
            after = throne.apply(state, move)
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return out


def unreachable_draws(
    scope: Scope,
    draw: Callable[..., Any] = sampling.determinize,
    limit: int = 3,
    skip: tuple[str, ...] = (),
) -> list[str]:
    """The drawn positions that break the invariant (less the conjuncts ``skip``):
    ``conjuncts: position, seat``."""
    system = ThroneSystem(throne_rules(scope), scope.players)
    symbols = system.fresh_state("d")
    claims = [(n, e) for n, e in Claims(system).invariant(symbols) if n not in skip]
    whole = z3.simplify(z3.And(*(e for _n, e in claims)))
    names = [x for _n, x in fields(symbols)]
    bad: list[str] = []
    for k, state in enumerate(elections(scope)):
        for seat in range(scope.players):
            obs = throne.observation(state, seat)
            drawn, _ = draw(obs, Rng.from_seed(k, "tie"), deal_future=True)
            values = [x for _n, x in fields(kernel.from_state(drawn))]
            pairs = [
                (s, z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v))
                for s, v in zip(names, values, strict=True)
            ]
            if z3.is_true(z3.simplify(z3.substitute(whole, *pairs))):
                continue
            broken = [
                name
                for name, claim in claims
                if not z3.is_true(z3.simplify(z3.substitute(claim, *pairs)))
            ]
            bad.append(f"{', '.join(broken)}: {throne.to_text(drawn)}, seat {seat}")
            if len(bad) >= limit:
                return bad
    return bad


KNOWN_GAP = "B13 eliminations cost No cards"
"""The sampler draws each hidden No count alone, between 0 and the allowance: after an
elimination it may draw every seat's card unspent, which no game reaches."""


def test_the_sampler_draws_only_positions_the_kernel_reaches() -> None:
    assert unreachable_draws(SCOPE, skip=(KNOWN_GAP,)) == []


@pytest.mark.xfail(strict=True, reason=f"known gap of the sampler: {KNOWN_GAP}")
def test_the_sampler_spends_the_no_cards_an_elimination_cost() -> None:
    """Known gap (reported): the hidden No counts do not account for the eliminations
    the observation shows (B13); strict, so that the fix turns this test red."""
    assert unreachable_draws(SCOPE, limit=1) == []


def test_a_sampler_that_draws_a_no_vote_without_a_no_card_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Planted: a hidden No count is drawn as 0 (B11), whatever the seat's vote."""
    real = sampling.determinize

    def careless(obs: Any, rng: Rng, *, deal_future: bool = False) -> tuple[Any, Rng]:
        drawn, rng = real(obs, rng, deal_future=deal_future)
        no = tuple(0 if known is None else known for known in obs.no_cards)
        return attrs.evolve(drawn, no_cards=no), rng

    found = unreachable_draws(SCOPE, careless, limit=1, skip=(KNOWN_GAP,))
    assert found and found[0].startswith("B11 a No voter still holds the card"), found
