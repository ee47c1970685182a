"""The refusals of Throne that no guard of its kernel names, declared once for the
refusals' catalogue (:mod:`castlerules.casebook.refusals`), as
:mod:`castlerules.ascent.refusals` declares Ascent's.

The checks themselves are the engine's (:mod:`castlerules.throne.transitions`) and the
kernel's; this module only lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from castlerules.core.errors import EngineRefusal

__all__ = ["ENGINE_REFUSALS", "UNREACHED"]

ENGINE_REFUSALS: tuple[EngineRefusal, ...] = (
    EngineRefusal("throne-turn-placement", "B6"),
    EngineRefusal("throne-turn-movement", "B8"),
    EngineRefusal("throne-turn-election", "B11"),
    EngineRefusal("throne-unknown-placement", "B6"),
    EngineRefusal("throne-unknown-movement", "B8"),
    EngineRefusal("throne-moves-down", "B9"),
    EngineRefusal("throne-not-in-castle", "B8"),
)
"""The refusals of Throne that no guard of the kernel names (the kernel's guards name
the others): a move given for a seat not to act (``apply``'s ``seat``), a letter that is
no character, a character asked to move down
(:func:`castlerules.casebook.questions.question`), a Climb of a character not placed."""

UNREACHED: Mapping[str, str] = MappingProxyType(
    {"throne-not-in-castle": "every character is placed before the movement phase"}
)
"""The refusals no position of a game reaches (the engine still gives them for a state
built by hand), each with the reason."""
