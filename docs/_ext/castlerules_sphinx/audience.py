"""Who a note is for: the player's reading apart from the programmer's notes.

The engines' interpretation notes (``throne.NOTES``, ``ascent.NOTES``) decide
open points of the seed; some of their sentences speak of the rules at the
table, others of the library (``apply()``, ``IllegalMove``...).  The rules
pages show the first in the player's text and the second in a separate
block for programmers.  A sentence is for programmers when it names a
public function of the game's package followed by ``(`` (or a function
name that is code by its look, ``new_game``), a ``castlerules.`` module, or
one of the library's error classes: the names come from the package's ``__all__`` and
from :mod:`castlerules.core.errors`, so a new function or note needs no
change here.  A note whose topic names the API is for programmers whole.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import attrs

from castlerules.core import errors

_SENTENCE = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+(?=[A-Za-z(])")


@functools.cache
def api_names(module: Any) -> re.Pattern[str]:
    """The pattern of the library's words in a text: ``apply(``, ``IllegalMove``..."""
    calls = sorted(
        name
        for name in getattr(module, "__all__", ())
        if callable(getattr(module, name, None)) and not isinstance(getattr(module, name), type)
    )
    classes = sorted(
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, Exception) and not name.startswith("_")
    )
    code_words = [name for name in calls if "_" in name]  # new_game, legal_moves: code
    return re.compile(
        r"\b(?:" + "|".join(map(re.escape, calls)) + r")\("
        r"|\b(?:" + "|".join(map(re.escape, classes + code_words)) + r")\b"
        r"|\bcastlerules\.\w"
    )


@attrs.frozen(slots=True)
class Split:
    """A note's sentences for the player and for the programmer (either may be empty)."""

    topic: str
    player: str
    programmer: str


def split(note: Any, module: Any) -> Split:
    """The note's decision cut into the player's sentences and the programmer's."""
    pattern = api_names(module)
    if pattern.search(note.topic):
        return Split(note.topic, "", note.decision)
    player: list[str] = []
    programmer: list[str] = []
    for sentence in _SENTENCE.split(note.decision.strip()):
        (programmer if pattern.search(sentence) else player).append(sentence)
    return Split(note.topic, " ".join(player), " ".join(programmer))


__all__ = ["Split", "api_names", "split"]
