"""The fast engine against the rule kernel, exhaustively, on small games.

For every scope of :data:`proofs.equivalence.THRONE_KERNEL_SCOPES`, every position
reachable from every deal (all chance outcomes) and every move number the
notation can name, legal or not: the same legality, the same clause for each
refusal (the engine's IllegalMove and the kernel's first broken guard), the
same successor, round score, king and end (:func:`proofs.equivalence.search`, the
search both games share).
Each scope declares the boundaries it must reach; together they break every
guard of the kernel.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from castlerules import throne
from castlerules.core import IllegalMove, Rng
from castlerules.core.ops import CONCRETE
from castlerules.throne import kernel
from proofs.equivalence import KERNEL_SCOPES, SAME_COUNTS, THRONE_KERNEL_SCOPES, Count, Scope

pytestmark = pytest.mark.slow  # the exhaustive tie: started first (tests/conftest.py)


@pytest.mark.parametrize("scope", THRONE_KERNEL_SCOPES, ids=lambda s: s.name)
def test_b1_to_b16_the_engine_is_the_kernel_on_every_reachable_position(
    searched: Callable[[Scope], Count],
    scope: Scope,
    record_property: Callable[[str, object], None],
) -> None:
    found = searched(scope)
    record_property("exhaustive", found.line())  # printed at the end
    assert found.mismatches == ()
    assert found.states > 0 and found.legal > 0
    for boundary in scope.reaches:
        assert found.get(boundary) > 0, (scope, boundary)


def test_b1_to_b16_each_derived_scope_plays_its_reading(
    searched: Callable[[Scope], Count],
) -> None:
    """A scope derived from a declared reading (:func:`proofs.equivalence.derived_scopes`)
    covers something its base does not: the same counts would say that the reading is
    never read in it, and the tie would say nothing of the reading.  The scopes of
    :data:`proofs.equivalence.SAME_COUNTS` count the same for a stated reason, and only
    they."""
    bases = {(s.game, s.name): s for s in KERNEL_SCOPES}
    derived = [s for s in KERNEL_SCOPES if s.base]  # both games' (Ascent has none today)
    assert derived
    for scope in derived:
        same = searched(scope).covered == searched(bases[scope.game, scope.base]).covered
        assert same == ((scope.game, scope.option, scope.base) in SAME_COUNTS), scope.name


def test_every_guard_of_the_kernel_is_broken_in_some_scope(
    searched: Callable[[Scope], Count],
) -> None:
    """B3-B13: each guard refuses some move, so the clause of each is compared."""
    shape = kernel.Shape.of(throne.Rules(), 3)
    position = kernel.Position(
        CONCRETE,
        shape,
        kernel.Options.of(CONCRETE, shape.rules),
        kernel.from_state(throne.new_game(3)),
    )
    every = {f"{c}: {w}" for c, w, _b in kernel.guards(position, kernel.decode(position, 0))}
    broken = {name for scope in THRONE_KERNEL_SCOPES for name, n in searched(scope).refusals if n}
    assert broken == every


def test_b6_the_universe_starts_with_the_adapters_numbers() -> None:
    """The kernel's move numbers extend the adapters' action numbers (Codes)."""
    for rules in (throne.Rules(), throne.Rules.preset("ORIGINAL"), throne.Rules(allow_pass=True)):
        shape = kernel.Shape.of(rules, 4)
        codes = rules.tables.codes.moves
        assert shape.moves[: shape.actions] == codes
        assert len(set(shape.moves)) == len(shape.moves)
        assert len(shape.moves) == rules.characters * 8 + 3


def test_b8_the_kernel_judges_a_full_game_like_the_engine() -> None:
    """On the full game (13 characters, 4 seats) a seeded random game: every move of
    the universe judged by both, at every position."""
    rules = throne.Rules.preset("ORIGINAL")
    state = throne.new_game(4, rules, seed=11)
    shape = kernel.Shape.of(rules, 4)
    rng = Rng.from_seed(11, "kernel")
    plies = 0
    while not throne.is_over(state):
        ks = kernel.from_state(state)
        chance = kernel.next_objectives(state)
        for a, move in enumerate(shape.moves):
            verdict = kernel.judge(shape, ks, a, chance)
            try:
                after = throne.apply(state, move)
            except IllegalMove as err:
                assert (verdict.legal, verdict.clause) == (False, err.clause), move
                continue
            assert verdict.legal and verdict.post == kernel.from_state(after), move
        move, rng = rng.choice(throne.legal_moves(state))
        state = throne.apply(state, move)
        plies += 1
    assert plies > 100


def test_b16_the_kernel_names_the_engines_winners_ties_shared() -> None:
    """B16: at the end of seeded random games, the seats whose total is the highest
    are the engine's winners, a tie shared (some of these games end tied)."""
    rules = throne.Rules()
    ties = 0
    for seed in range(40):
        state = throne.new_game(3, rules, seed=seed)
        rng = Rng.from_seed(seed, "winners")
        while not throne.is_over(state):
            move, rng = rng.choice(throne.legal_moves(state))
            state = throne.apply(state, move)
        won = kernel.winners(CONCRETE, kernel.from_state(state))
        assert tuple(q for q, w in enumerate(won) if w) == throne.winners(state), seed
        ties += len(throne.winners(state)) > 1
    assert ties > 0
    # A hand-made tie of two seats: both win, the third does not.
    tied = kernel.KState(
        rnd=3, phase=4, turn=-1, fl=(), no=(), votes=(), passes=0, total=(12, 7, 12), obj=()
    )
    assert kernel.winners(CONCRETE, tied) == (True, False, True)
