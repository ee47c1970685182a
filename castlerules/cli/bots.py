"""Computer players for ``castlerules play``: the kinds of :mod:`castlerules.bots`.

``random``, ``greedy``, ``montecarlo`` and ``mcts`` are defined in the library module
:mod:`castlerules.bots` (the studies use them too); this module keeps the
command line's names for them.
"""

from __future__ import annotations

from typing import Any

from castlerules import bots
from castlerules.bots import Bot, RandomBot, ascent_greedy, throne_greedy

__all__ = ["KINDS", "Bot", "RandomBot", "ascent_greedy", "make_bot", "throne_greedy"]

KINDS: tuple[str, ...] = bots.KINDS
"""The kinds of bot, by name."""


def make_bot(kind: str, module: Any, seat: int, seed: int) -> Bot:
    """A bot of ``kind`` for ``seat`` of a game of ``module``."""
    return bots.make_bot(kind, module, seat, seed)
