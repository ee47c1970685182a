"""The core shared by every game: clauses, errors, seeded chance, the protocol."""

from castlerules.core.chance import Rng
from castlerules.core.clauses import CLAUSES, Clause, clause, clauses_of
from castlerules.core.errors import ArgumentError, IllegalMove, NotationError, RulesError
from castlerules.core.options import Note
from castlerules.core.protocol import Event, Game, perft, random_playout, require

__all__ = [
    "CLAUSES",
    "ArgumentError",
    "Clause",
    "Event",
    "Game",
    "IllegalMove",
    "NotationError",
    "Note",
    "Rng",
    "RulesError",
    "clause",
    "clauses_of",
    "perft",
    "random_playout",
    "require",
]
