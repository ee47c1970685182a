"""The core shared by every game: clauses, errors, seeded chance, the protocol."""

from castlerules.core.chance import SEED_LIMIT, Rng, check_seed, seed_from_text
from castlerules.core.clauses import CLAUSES, Clause, clause, clauses_of
from castlerules.core.errors import ArgumentError, IllegalMove, NotationError, RulesError
from castlerules.core.options import Note, Option
from castlerules.core.protocol import Event, Game, perft, random_playout, require

__all__ = [
    "CLAUSES",
    "SEED_LIMIT",
    "ArgumentError",
    "Clause",
    "Event",
    "Game",
    "IllegalMove",
    "NotationError",
    "Note",
    "Option",
    "Rng",
    "RulesError",
    "check_seed",
    "clause",
    "clauses_of",
    "perft",
    "random_playout",
    "require",
    "seed_from_text",
]
