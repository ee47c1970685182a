"""A position under another reading of the rules, and what differs between two positions.

A position text holds its rules (the options that differ from the reference
reading, in one field of the notation).  To ask "what if the rules were
different?", :func:`reinterpret` writes the same position with another rules
field and reads it back with the game's own ``from_text``, so that a position
that cannot exist under the other rules is refused by the game's own checks
rather than silently mis-built.  :func:`over_instead` says when the reason is
that the game is already over there under the other reading.

Throne positions may leave objectives unknown (``?``, an :data:`Unknown`):
:func:`text_of` writes them so, and every text it writes reads back (with
``from_text``, or with :func:`castlerules.throne.notation.read_partial` when
objectives are unknown).
"""

from __future__ import annotations

from typing import Any

from castlerules.ascent import notation as ascent_notation
from castlerules.core import ArgumentError, NotationError, RulesError
from castlerules.throne import notation as throne_notation

__all__ = [
    "FIELDS",
    "NOTHING_UNKNOWN",
    "RULES_FIELD",
    "SECRET_FIELDS",
    "Unknown",
    "board_text",
    "differences",
    "options_field",
    "over_instead",
    "players",
    "read_back",
    "reinterpret",
    "rules_text",
    "text_of",
]

Unknown = frozenset[tuple[int, int]]
"""Throne objectives that a position text does not give: ``(round, seat)``."""

NOTHING_UNKNOWN: Unknown = frozenset()

RULES_FIELD = {"throne": 1, "ascent": 3}
"""Where each game's position notation writes the rules: Throne 2nd field, Ascent 4th
(before the deal, the fifth field under ``deal=shuffled``)."""

FIELDS: dict[str, tuple[str, ...]] = {
    "throne": (
        "game",
        "rules",
        "players",
        "round",
        "phase",
        "seat to act",
        "castle",
        "eliminated",
        "No cards",
        "votes",
        "passes in a row",
        "objectives",
        "scores",
        "kings",
    ),
    "ascent": ("columns", "removed cards", "seat to act", "rules", "deal"),
}
"""The names of the fields of each game's position notation, in order."""

SECRET_FIELDS = frozenset({"objectives", "votes"})
"""Fields whose values a seat may not know (B4, B11): a difference there is named, not shown."""

TURN_FIELD = {"ascent": 2}
"""Where a game's notation writes the seat to act, for :func:`over_instead` (Throne's end
is a phase of its own, which no reading of a live position reaches)."""


def players(state: Any) -> int:
    """The number of players of a position."""
    return int(state.players) if hasattr(state, "players") else len(state.columns)


def _fields(text: str) -> list[str]:
    return text.split(" ")


def options_field(module: Any, text: str) -> int:
    """The index of the rules field in the game's position notation."""
    index = RULES_FIELD[module.NAME]
    return index % len(_fields(text))


def rules_text(module: Any, rules: Any, n_players: int) -> str:
    """The rules field that the game's notation writes for ``rules``."""
    try:
        start = module.new_game(n_players, rules=rules)
    except (RulesError, ValueError) as err:
        raise ArgumentError(f"these rules cannot be played by {n_players}: {err}") from None
    text = module.to_text(start)
    return _fields(text)[options_field(module, text)]


def _rewritten(module: Any, state: Any, rules: Any) -> list[str]:
    text = module.to_text(state)
    parts = _fields(text)
    parts[options_field(module, text)] = rules_text(module, rules, players(state))
    if module.NAME == "ascent" and rules.deal != state.rules.deal:
        parts = _redealt(parts, state, rules)
    return parts


def reinterpret(module: Any, state: Any, rules: Any) -> Any:
    """The same position under other ``rules``, read back by the game's ``from_text``.

    Raises :class:`~castlerules.core.RulesError` when the position cannot
    exist under those rules.
    """
    if rules == state.rules:
        return state
    parts = _rewritten(module, state, rules)
    try:
        return module.from_text(" ".join(parts))
    except NotationError as err:
        raise ArgumentError(f"the position cannot exist under these rules: {err}") from None


def over_instead(module: Any, state: Any, rules: Any) -> Any | None:
    """The position under ``rules`` with the game marked over, when that is why it cannot
    exist as written (the other reading's end test, A14, has ended the game there);
    None otherwise."""
    at = TURN_FIELD.get(module.NAME)
    if at is None:
        return None
    try:
        parts = _rewritten(module, state, rules)
    except RulesError:
        return None
    parts[at] = "-"
    try:
        over = module.from_text(" ".join(parts))
    except NotationError:
        return None
    return over if module.is_over(over) else None


def _redealt(parts: list[str], state: Any, rules: Any) -> list[str]:
    """An Ascent position's fields under the other deal (A18): the deal field written
    from the cards' owners for ``deal=shuffled``, or dropped for ``deal=sets``; the
    other reading's ``from_text`` then says whether such a deal can exist (under
    ``shuffled`` each seat holds ``36 // n`` cards; under ``sets`` seat p holds set p)."""
    if rules.deal == "sets":
        return parts[:4]
    return [*parts[:4], ascent_notation.deal_text(state.owners, players(state))]


def text_of(module: Any, state: Any, unknown: Unknown = NOTHING_UNKNOWN) -> str:
    """The position's text, with ``?`` for the objectives it was not given."""
    if unknown:
        return throne_notation.write_partial(state, unknown)
    return str(module.to_text(state))


def read_back(module: Any, text: str) -> Any:
    """Read a text that :func:`text_of` wrote: ``from_text``, or ``read_partial`` where
    it holds ``?`` objectives (a NotationError if it does not read back)."""
    parts = _fields(text)
    if module.NAME == "throne" and len(parts) > 11:
        written = parts[11].replace("/", ",").split(",")
        if throne_notation.UNKNOWN in written:
            return throne_notation.read_partial(text).state
    return module.from_text(text)


def board_text(module: Any, state: Any, unknown: Unknown = NOTHING_UNKNOWN) -> str:
    """The position's text without its rules field, and for Ascent without its deal (to
    compare positions across readings; a deal never changes during a game, A18)."""
    text = text_of(module, state, unknown)
    parts = _fields(text)
    at = options_field(module, text)
    del parts[at : at + 1 if module.NAME == "throne" else None]
    return " ".join(parts)


def differences(module: Any, base: str, other: str) -> tuple[str, ...]:
    """How position text ``other`` differs from ``base``, field by field, the rules field
    aside: ``the seat to act: 0 (the base: 1)``; a secret field is named, not shown."""
    names = FIELDS[module.NAME]
    one, two = _fields(base), _fields(other)
    skip = {options_field(module, base)}
    out = []
    for index in range(max(len(one), len(two))):
        if index in skip:
            continue
        a = one[index] if index < len(one) else None
        b = two[index] if index < len(two) else None
        if a == b:
            continue
        name = names[index] if index < len(names) else f"field {index + 1}"
        if name in SECRET_FIELDS:
            out.append(f"the {name} differ")
        elif a is None:
            out.append(f"the {name}: {b} (the base writes none)")
        elif b is None:
            out.append(f"the {name}: none written (the base: {a})")
        else:
            out.append(f"the {name}: {b} (the base: {a})")
    return tuple(out)
