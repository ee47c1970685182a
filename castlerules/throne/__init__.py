"""Throne: the executable rules of the seed "Il y a quelque chose de pourri..." (B1-B16).

The seed summarises *Viva il Re!* (King Me!): characters climb a seven-floor
castle; whoever reaches the throne is elected king or eliminated by a secret
vote; players score by the floors of their secret favourites over three
rounds.  Preset ``SEED`` (the default) follows the seed, ``ORIGINAL`` the
published placement rules; every interpretation choice is a :class:`Rules`
option or a Note in :data:`NOTES`.

>>> from castlerules import throne
>>> s = throne.new_game(players=4, seed=7)
>>> throne.phase(s), throne.current_player(s)
('placement', 0)
>>> s = throne.apply(s, throne.parse_move(s, "C3"))
>>> throne.floor_of(s, "C")
3

:func:`svg` draws a position (like ``chess.svg``), as an SVG document in a string:

>>> picture = throne.svg(s, seat=0)
>>> picture.startswith("<svg") and 'data-character="C"' in picture
True

It is defined in :mod:`castlerules.throne.diagram`.
"""

from castlerules.throne.diagram import svg
from castlerules.throne.events import describe
from castlerules.throne.moves import Climb, Move, Pass, Place, Vote
from castlerules.throne.notation import from_text, parse_move, to_text
from castlerules.throne.notes import NOTES
from castlerules.throne.rules import FLOOR_NAMES, PLAYERS, Rules
from castlerules.throne.state import Observation, State
from castlerules.throne.transitions import (
    apply,
    candidate,
    castle_points,
    current_player,
    floor_of,
    is_eliminated,
    is_over,
    king,
    legal_moves,
    new_game,
    no_cards,
    objective,
    objectives_of_round,
    observation,
    perft,
    phase,
    round_of,
    round_scores,
    scores,
    totals,
    winners,
)

NAME = "throne"
"""The game's name, as used by the command line and the records."""

__all__ = [
    "FLOOR_NAMES",
    "NAME",
    "NOTES",
    "PLAYERS",
    "Climb",
    "Move",
    "Observation",
    "Pass",
    "Place",
    "Rules",
    "State",
    "Vote",
    "apply",
    "candidate",
    "castle_points",
    "current_player",
    "describe",
    "floor_of",
    "from_text",
    "is_eliminated",
    "is_over",
    "king",
    "legal_moves",
    "new_game",
    "no_cards",
    "objective",
    "objectives_of_round",
    "observation",
    "parse_move",
    "perft",
    "phase",
    "round_of",
    "round_scores",
    "scores",
    "svg",
    "to_text",
    "totals",
    "winners",
]
