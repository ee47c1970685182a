"""Ascent: the card game of the seed "L'ascenseur social est en marche...".

Two to six players each own a column of a Start and seven squares and push
character cards of six ranks up to their arrival squares, in stacks, taking
lower-ranked cards of the other columns as favours.  The clauses are
``A1`` .. ``A18`` (:data:`castlerules.core.CLAUSES`); the reference reading
is ``Rules()`` and every open point is an option (see :class:`Rules` and
:data:`NOTES`).

>>> from castlerules import ascent
>>> s = ascent.new_game(players=3, seed=7)
>>> ascent.current_player(s)
1
>>> move = ascent.legal_moves(s)[0]
>>> str(move)
'P1'
>>> s2 = ascent.apply(s, move)
>>> ascent.where(s2, ascent.Card(1, ascent.Rank.PRINCE))
(1, 1)
>>> ascent.from_text(ascent.to_text(s2)) == s2
True

Ascent hides nothing: :func:`observation` returns the state itself.

:func:`svg` draws a position (like ``chess.svg``), as an SVG document in a string:

>>> picture = ascent.svg(s2)
>>> picture.startswith("<svg") and picture.endswith("</svg>")
True

It is defined in :mod:`castlerules.ascent.diagram`.
"""

from castlerules.ascent.diagram import svg
from castlerules.ascent.events import describe
from castlerules.ascent.moves import Advance, EndTurn, Favour, Move
from castlerules.ascent.notation import from_text, parse_move, to_text
from castlerules.ascent.notes import NOTES
from castlerules.ascent.rules import PLAYERS, Rank, Rules, arrival
from castlerules.ascent.setup import deal_of
from castlerules.ascent.state import (
    Card,
    State,
    is_flipped,
    owner_of,
    removed,
    stack_at,
    where,
)
from castlerules.ascent.transitions import (
    apply,
    current_player,
    is_over,
    legal_moves,
    new_game,
    observation,
    pending_favour,
    perft,
    scores,
    winners,
)

NAME = "ascent"

__all__ = [
    "NAME",
    "NOTES",
    "PLAYERS",
    "Advance",
    "Card",
    "EndTurn",
    "Favour",
    "Move",
    "Rank",
    "Rules",
    "State",
    "apply",
    "arrival",
    "current_player",
    "deal_of",
    "describe",
    "from_text",
    "is_flipped",
    "is_over",
    "legal_moves",
    "new_game",
    "observation",
    "owner_of",
    "parse_move",
    "pending_favour",
    "perft",
    "removed",
    "scores",
    "stack_at",
    "svg",
    "to_text",
    "where",
    "winners",
]
