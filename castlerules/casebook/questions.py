"""Questions players ask in the form of a move the games have no word for.

The engines know only the moves of the games: a character or a card that goes
down is no move of either, so there is nothing for ``apply`` to refuse.  Players
ask it all the same ("may my Troubadour step back?"), and the rules answer it:
:func:`question` gives that answer as the :class:`~castlerules.core.IllegalMove` a
referee would give, with its clause.  The command line's ``explain`` and the
comparison of readings answer these questions through it, and the casebook shows
them (``throne-forced-climb``, ``ascent-only-up``).

>>> from castlerules import ascent, throne
>>> question(throne, throne.new_game(4), "A-").clause
'B9'
>>> question(ascent, ascent.new_game(2), "F0-").clause
'A4'
>>> question(ascent, ascent.new_game(2), "F0") is None
True
"""

from __future__ import annotations

from typing import Any

from castlerules.core import IllegalMove, NotationError

__all__ = ["question"]


def question(module: Any, state: Any, text: str) -> IllegalMove | None:
    """The rule that answers a move the notation has no word for, or None.

    Throne's ``C-`` (C moves down): B9, no character ever moves down.  Ascent's
    ``F0-`` (the card F0 moves down): A4, cards only move up.  Anything else
    (a move of the game, or no question of these) is None.
    """
    if not isinstance(text, str) or not text.endswith("-") or len(text) > 8:
        return None
    name = text[:-1]
    if module.NAME == "throne":
        if len(name) != 1 or name not in state.rules.letters():
            return None
        return IllegalMove(
            f"Character {name} cannot move down: no character ever moves down, in any phase; "
            f"a character only climbs, one floor at a time ({name}+) (B9)",
            "B9",
            refusal="throne-moves-down",
        )
    try:
        move = module.parse_move(state, name, check=False)
    except NotationError:
        return None
    card = getattr(move, "card", None)
    if card is None or str(move) != name:
        return None
    return IllegalMove(
        f"the {card.rank.title} of set {card.owner} ({card}) cannot move down: a card only "
        "ever goes up its column, to the next free square above it, never down nor sideways "
        "(A4)",
        "A4",
        refusal="ascent-moves-down",
    )
