"""Small helpers shared by the games' notation readers.

Every reader reports failures as :class:`NotationError` with the character
offset where reading failed, never with another exception.
"""

from __future__ import annotations

from typing import Any

import attrs

from castlerules.core.errors import ArgumentError, NotationError

TURN_COUNTER = "turn_counter"
"""The key of a :class:`TurnCounter` in the metadata of a field of a game's state."""


@attrs.frozen(slots=True)
class TurnCounter:
    """What makes a field of a game's state a counter of the turn: a whole number that
    starts each turn at ``start`` and that the position's text writes after the turn's
    other numbers (Ascent's ``replays``, A12).  The notation reads the counters from the
    state's fields (:func:`turn_counters`), so a new one needs no edit of the notation.

    >>> import attrs
    >>> @attrs.frozen
    ... class Position:
    ...     seat: int
    ...     replays: int = attrs.field(metadata={TURN_COUNTER: TurnCounter("A12")})
    >>> turn_counters(Position)
    (('replays', TurnCounter(clause='A12', start=0, at_most=None)),)
    """

    clause: str
    """The clause that counts it."""
    start: int = 0
    """Its value at the start of a turn (not written)."""
    at_most: str | None = None
    """The option of the game's rules that bounds it (None: no bound)."""


def turn_counters(state_cls: Any) -> tuple[tuple[str, TurnCounter], ...]:
    """The counters of the turn of a game's state class: each field whose metadata holds
    a :class:`TurnCounter`, by name, in field order (``ArgumentError`` for anything but
    an attrs class)."""
    if not attrs.has(state_cls):
        raise ArgumentError(f"turn_counters() takes a state class, not {state_cls!r:.60}")
    return tuple(
        (field.name, field.metadata[TURN_COUNTER])
        for field in attrs.fields(state_cls)
        if TURN_COUNTER in field.metadata
    )


def fields(text: str, sep: str = " ") -> list[tuple[int, str]]:
    """Split ``text`` on ``sep`` and keep each field's offset in ``text``.

    Empty fields (two separators in a row, a leading or trailing one) are
    refused: notation is canonical, so there is one spelling per position.
    """
    out: list[tuple[int, str]] = []
    start = 0
    for part in text.split(sep):
        if not part:
            raise NotationError(f"empty field (a stray {sep!r})", text, start)
        out.append((start, part))
        start += len(part) + len(sep)
    return out


def expect_count(items: list[tuple[int, str]], count: int, what: str, text: str) -> None:
    """Refuse a list of fields that does not have exactly ``count`` items."""
    if len(items) != count:
        index = items[count][0] if len(items) > count else len(text)
        raise NotationError(
            f"{what} has {len(items)} fields where {count} are expected", text, index
        )


def integer(field: str, offset: int, text: str, low: int, high: int, what: str) -> int:
    """Read a canonical decimal integer in ``low..high`` (no sign, no leading zero)."""
    digits_ok = field.isascii() and field.isdigit() and len(field) <= 18
    if not digits_ok or (len(field) > 1 and field[0] == "0"):
        raise NotationError(f"{what} must be a whole number, not {field!r}", text, offset)
    value = int(field)
    if not low <= value <= high:
        raise NotationError(f"{what} must be in {low}..{high}, not {value}", text, offset)
    return value


def check_text(text: object, what: str) -> str:
    """Refuse a non-string input and anything outside printable ASCII."""
    if not isinstance(text, str):
        raise NotationError(f"{what} must be a str, not {type(text).__name__}")
    for i, ch in enumerate(text):
        if not (" " <= ch <= "~"):
            raise NotationError(f"{what} may hold printable ASCII only, not {ch!r}", text, i)
    return text
