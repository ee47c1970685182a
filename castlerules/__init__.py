"""castlerules: the executable, verified rules of Throne and Ascent.

>>> from castlerules import throne
>>> state = throne.new_game(players=4, seed=7)
>>> throne.current_player(state)
0
"""

from castlerules import ascent, throne
from castlerules.core import (
    CLAUSES,
    ArgumentError,
    Clause,
    IllegalMove,
    NotationError,
    Rng,
    RulesError,
    clause,
)

__version__ = "0.1.0"

__all__ = [
    "CLAUSES",
    "ArgumentError",
    "Clause",
    "IllegalMove",
    "NotationError",
    "Rng",
    "RulesError",
    "__version__",
    "ascent",
    "clause",
    "throne",
]
