"""Positions on the command line: reading them, and reading them under other rules.

The position helpers are the register's (:mod:`castlerules.register.positions`,
:class:`castlerules.register.dispute.Start`), so that the command line, the
comparison of readings and the dispute desk read a position one way.
"""

from __future__ import annotations

from typing import Any

from castlerules.register.dispute import NEW_PREFIX, Start
from castlerules.register.positions import (
    NOTHING_UNKNOWN,
    RULES_FIELD,
    Unknown,
    board_text,
    options_field,
    players,
    read_back,
    reinterpret,
    rules_text,
    text_of,
)

__all__ = [
    "NEW_PREFIX",
    "NOTHING_UNKNOWN",
    "RULES_FIELD",
    "Unknown",
    "board_text",
    "load",
    "load_partial",
    "options_field",
    "players",
    "read_back",
    "reinterpret",
    "rules_text",
    "situation",
    "start",
    "text_of",
]


def load(module: Any, text: str, rules: Any | None, preset: str | None) -> Any:
    """Read a POSITION argument: a position text or ``new:PLAYERS[:SEED]``.

    ``rules``, if given, replaces the position's own rules (see
    :func:`reinterpret`); a ``new:`` position starts with ``rules`` or the
    reading ``preset``.
    """
    return load_partial(module, text, rules, preset, partial=False)[0]


def start(
    module: Any, text: str, rules: Any | None, preset: str | None, *, partial: bool = True
) -> Start:
    """The start of a dispute: a POSITION argument read under ``rules`` (a ``new:`` game is
    dealt under ``rules`` or the reading ``preset``), see
    :meth:`castlerules.register.dispute.Start.read`."""
    if rules is None and text.startswith(NEW_PREFIX):
        from castlerules import records

        rules = records.build_rules(module, preset, {})
    return Start.read(module, text, rules, partial=partial)


def load_partial(
    module: Any, text: str, rules: Any | None, preset: str | None, *, partial: bool = True
) -> tuple[Any, Unknown]:
    """:func:`load`, where a Throne position may leave objectives unknown (``?``, see
    :func:`castlerules.throne.notation.read_partial`): the state (with stand-ins for
    them) and which objectives are unknown."""
    found = start(module, text, rules, preset, partial=partial)
    return found.state, found.unknown


def situation(module: Any, state: Any) -> str:
    """One line: who plays next, or the final scores."""
    if module.is_over(state):
        scores = ", ".join(str(s) for s in module.scores(state))
        winners = ", ".join(f"seat {w}" for w in module.winners(state))
        return f"the game is over: scores {scores}; won by {winners}"
    extra = ""
    phase = getattr(module, "phase", None)
    if callable(phase):
        extra = f" ({phase(state)} phase, round {module.round_of(state)})"
    return f"next: seat {module.current_player(state)} to play{extra}"
