"""The desk's requests: one JSON object each, read and checked before anything runs.

Every way a request can be wrong (not JSON, nested too deep, too long, a
field of the wrong type, an unknown field, a move that a command line would
read as an option or a file) is a :class:`RequestError` whose message is one
line for the page to show.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import attrs

from castlerules.core import ArgumentError

VIEWS = ("table", "referee")
"""The two views: what every seat at the table may see, or everything."""
OPS = ("position", "explain")
"""The kinds of request."""

MAX_REQUEST = 64 * 1024
"""The longest request text read (characters); a position is a line of about 200."""
MAX_POSITION = 8 * 1024
MAX_MOVE = 64
MAX_OPTIONS = 64
MAX_OPTION = 256
MAX_KEY = 32

FIELDS = {
    "position": frozenset({"op", "game", "position", "key", "rules", "options", "view"}),
    "explain": frozenset(
        {"op", "game", "position", "key", "rules", "options", "view", "move", "compare"}
    ),
}
"""The fields each kind of request may have."""


class RequestError(ArgumentError):
    """A request the desk cannot serve; its message is one line."""


@attrs.frozen(slots=True)
class Request:
    """A checked request (see the package's description)."""

    op: str
    view: str
    game: str | None = None
    position: str | None = None
    key: str | None = None
    rules: str | None = None
    options: tuple[str, ...] = ()
    move: str | None = None
    compare: bool = False


def _shown(value: Any) -> str:
    """A value, short, for a message."""
    if isinstance(value, str):
        return repr(value[:24] + ("…" if len(value) > 24 else ""))
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10**40 else 41
        return (
            str(value)
            if digits <= 12
            else f"a number of {digits if digits <= 40 else 'many'} digits"
        )
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else ("a number" if math.isinf(value) else repr(value))
    return f"a JSON {'list' if isinstance(value, list) else 'object'}"


def _text(data: Mapping[str, Any], name: str, limit: int, what: str) -> str | None:
    if name not in data:
        return None
    value = data[name]
    if not isinstance(value, str):
        raise RequestError(f"the request's {name!r} is {what}, not {_shown(value)}")
    if len(value) > limit:
        raise RequestError(
            f"the request's {name!r} is {len(value)} characters long: at most {limit}"
        )
    if any(ord(ch) < 32 and ch not in "\t" for ch in value):
        raise RequestError(f"the request's {name!r} holds a control character")
    return value


def parse(text: Any) -> Request:
    """The request in ``text`` (a JSON text), checked; raises :class:`RequestError`.

    >>> parse('{"op": "explain", "game": "throne", "position": "new:4", "move": "C6"}').move
    'C6'
    >>> try:
    ...     parse('{"op": "explain", "key": "p1", "move": "--help"}')
    ... except RequestError as err:
    ...     print(err)
    '--help' is not a move: a move never starts with '-' or '@'
    """
    if not isinstance(text, str):
        raise RequestError("the request is a JSON text")
    if len(text) > MAX_REQUEST:
        raise RequestError(f"the request is {len(text)} characters long: at most {MAX_REQUEST}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise RequestError("the request is nested too deeply to be a desk request") from None
    except ValueError:
        raise RequestError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError(f"the request is a JSON object, not {_shown(data)}")
    op = data.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise RequestError(
            f"unknown request {_shown(op)}: the desk answers 'position' and 'explain'"
        )
    unknown = sorted(str(k) for k in data if k not in FIELDS[op])
    if unknown:
        raise RequestError(f"a {op!r} request has no field {_shown(unknown[0])}")
    view = _text(data, "view", 16, "'table' or 'referee'") or "table"
    if view not in VIEWS:
        raise RequestError(f"a view is 'table' or 'referee', not {_shown(view)}")
    key = _text(data, "key", MAX_KEY, "a position key")
    game = _text(data, "game", 16, "a game's name")
    position = _text(data, "position", MAX_POSITION, "a position text")
    if key is None and (game is None or position is None):
        raise RequestError("the request names a 'game' and a 'position' (or a position 'key')")
    if key is not None and position is not None:
        raise RequestError("the request gives a 'position' or a 'key', not both")
    rules = _text(data, "rules", 64, "a preset's name")
    options = data.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise RequestError("the request's 'options' is a list of name=value texts")
    if len(options) > MAX_OPTIONS or any(len(o) > MAX_OPTION for o in options):
        raise RequestError(
            f"the request's 'options' holds at most {MAX_OPTIONS} texts of {MAX_OPTION} characters"
        )
    if key is not None and (rules is not None or options):
        raise RequestError("a position 'key' has its rules already: no 'rules' or 'options'")
    move = None
    compare = False
    if op == "explain":
        move = _text(data, "move", MAX_MOVE, "a move in the game's notation")
        if move is None or not move.strip():
            raise RequestError("an 'explain' request names a 'move'")
        move = move.strip()
        if move.startswith(("-", "@")):
            # On the command line, -x is an option, @FILE a file and - standard input.
            raise RequestError(f"{_shown(move)} is not a move: a move never starts with '-' or '@'")
        compare_value = data.get("compare", False)
        if not isinstance(compare_value, bool):
            raise RequestError(
                f"the request's 'compare' is true or false, not {_shown(compare_value)}"
            )
        compare = compare_value
    return Request(
        op=op,
        view=view,
        game=game,
        position=None if position is None else position.strip(),
        key=key,
        rules=rules,
        options=tuple(o.strip() for o in options),
        move=move,
        compare=compare,
    )


__all__ = ["FIELDS", "OPS", "VIEWS", "Request", "RequestError", "parse"]
