"""The moves of Ascent and their notation.

* :class:`Advance` moves a card of the player's column with every card above
  it (A3); written as the card, e.g. ``L1`` (the Lady of set 1).
* :class:`Favour` takes a card of another column on the same row, with every
  card above it, under the stack just moved (A10); written ``xT2``.
* :class:`EndTurn` declines a favour or a replay (A12); written ``end``.

>>> from castlerules.ascent.rules import Rank
>>> str(Advance(Card(1, Rank.LADY))), str(Favour(Card(2, Rank.TROUBADOUR))), str(EndTurn())
('L1', 'xT2', 'end')
"""

from __future__ import annotations

from typing import Any

import attrs

from castlerules.ascent.rules import CARDS_PER_SET, MAX_SETS
from castlerules.ascent.state import CARDS, Card, cid_of
from castlerules.core.errors import ArgumentError


def _check_card(_instance: Any, _attribute: Any, value: Any) -> None:
    if not isinstance(value, Card):
        raise ArgumentError(f"a move's card is a Card, not {type(value).__name__}")


@attrs.frozen(slots=True)
class Advance:
    """Advance ``card`` with every card above it to the next free square (A3)."""

    card: Card = attrs.field(validator=_check_card)

    def __str__(self) -> str:
        return str(self.card)


@attrs.frozen(slots=True)
class Favour:
    """Take ``card`` and every card above it under the stack just moved (A10)."""

    card: Card = attrs.field(validator=_check_card)

    def __str__(self) -> str:
        return f"x{self.card}"


@attrs.frozen(slots=True)
class EndTurn:
    """Decline the favour or the replay and end the turn (A12)."""

    def __str__(self) -> str:
        return "end"


Move = Advance | Favour | EndTurn
"""Any move of Ascent."""

NCARDS = MAX_SETS * CARDS_PER_SET
FAVOUR_BASE = NCARDS
END_CODE = 2 * NCARDS
"""Move codes: an Advance is its card number, a Favour ``36 + card number``,
EndTurn ``72``."""

ADVANCES: tuple[Advance, ...] = tuple(Advance(card) for card in CARDS)
FAVOURS: tuple[Favour, ...] = tuple(Favour(card) for card in CARDS)
END = EndTurn()
BY_CODE: tuple[Move, ...] = (*ADVANCES, *FAVOURS, END)
"""The move of each code; the engine only ever returns these objects."""

CODE_BY_ID: dict[int, int] = {id(move): code for code, move in enumerate(BY_CODE)}
"""The action number of each canonical move object, by ``id`` (the engine's fast path)."""


def code_of(move: object) -> int:
    """The code of a move; ``ArgumentError`` if ``move`` is not a move of Ascent."""
    code = CODE_BY_ID.get(id(move))
    if code is not None:
        return code
    if isinstance(move, Advance):
        return cid_of(move.card)
    if isinstance(move, Favour):
        return FAVOUR_BASE + cid_of(move.card)
    if isinstance(move, EndTurn):
        return END_CODE
    raise ArgumentError(
        f"not a move of Ascent: {move!r} (the moves are Advance, Favour and EndTurn)"
    )
