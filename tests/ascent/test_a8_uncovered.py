"""A8 with ``flip_uncovered``: a remainder left uncovered on its arrival square turns
over, on the first square of the path too.

No scope of the exhaustive tie has an arrival square 1, so this corner (the remainder
on square 1, its arrival square) is played here on a position: the Fire-eater of set 1
(F1), whose arrival square is 1 with ``arrival=1.3.4.5.6.7``, lies unflipped under the
Troubadour of set 0 (T0) on square 1 of column 0, as a favour leaves a taken card; T0
advances and F1, uncovered on its arrival square, turns over.  The engine and the
kernel are compared on every move there.
"""

from __future__ import annotations

from castlerules import ascent
from castlerules.ascent import kernel
from proofs import ascent_judged

UNDER = (
    "P0B0L0C0F0,T0F1,-,-,-,-,-,-/P1B1L1C1T1,-,-,-,-,-,-,- -/- 0 "
    "arrival=1.3.4.5.6.7;flip_uncovered=true"
)


def test_a8_a_remainder_uncovered_on_its_arrival_square_1_turns_over() -> None:
    state = ascent.from_text(UNDER)
    fire_eater = ascent.Card(1, ascent.Rank.FIRE_EATER)
    assert not ascent.is_flipped(state, fire_eater)
    after = ascent.apply(state, ascent.Advance(ascent.Card(0, ascent.Rank.TROUBADOUR)))
    assert ascent.where(after, fire_eater) == (0, 1)
    assert ascent.is_flipped(after, fire_eater)
    shape = kernel.Shape.of(state.rules, state.players)
    judged = ascent_judged.check_position(shape, state)  # the kernel agrees, move by move
    assert sum(verdict.legal for _a, verdict, _after in judged) == len(ascent.legal_moves(state))
