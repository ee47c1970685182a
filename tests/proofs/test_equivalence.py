"""B1-B16, exhaustively on small scopes: the Throne model is the engine's game.

Every reachable position of each small game of :data:`proofs.equivalence.THRONE_SCOPES`
(all deals of the objectives), every move the notation can name: the engine
and the model agree on legality, on the successor (through the abstraction),
on the scores and on the end of the game.  The counts are in docs/proofs.rst.
"""

from __future__ import annotations

import pytest

from proofs.equivalence import THRONE_SCOPES, Scope, check_scope


@pytest.mark.parametrize("scope", THRONE_SCOPES, ids=lambda s: s.name)
def test_b1_b16_engine_and_model_agree_on_every_reachable_position(scope: Scope) -> None:
    """B1-B16: legality, successor, scores and the end agree on every (position, move)."""
    count = check_scope(scope)
    print(count.line())
    assert count.mismatches == ()
    # The search is not vacuous: games are played to their end, moves are refused.
    assert count.states > 1000
    assert count.over > 0
    assert 0 < count.legal < count.pairs
    for boundary in scope.reaches:  # e.g. B7: climbs into a full floor, refused
        assert getattr(count, boundary) > 0, boundary
