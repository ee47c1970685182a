"""Rules options as text and as JSON: typed by the ``Rules`` class's own field types.

The command line takes options as ``--option name=value`` and game records
store them as JSON.  Both are read here, against the type annotation of the
option's field in the game's ``Rules`` class, so that ``allow_pass=yes`` is a
``bool``, ``favours_per_move=none`` is ``None`` and ``points=0,1,2,3,4,5,10`` is
a ``tuple[int, ...]``; the ``Rules`` class's own validators then check the value.
Every failure is an :class:`~castlerules.core.ArgumentError` that names the
option, the text given and the kind of value expected.

Text syntax, by field type:

- ``bool``: ``true``/``false`` (also ``yes``/``no``, ``on``/``off``, ``1``/``0``);
- ``int``: a decimal integer; ``None``: ``none`` (or ``null``);
- a string: the text itself; an enum: a member name (any case) or value;
- a tuple: comma-separated items, optionally in brackets: ``1,2,3`` or
  ``[1,2,3]``; nested tuples need brackets: ``[1,2],[3,4]``; ``[]`` is empty;
- a mapping: ``key:value`` items, comma-separated: ``PRINCE:7,LADY:5``;
- any type: a JSON value starting with ``[`` or ``{`` is also accepted.

>>> import attrs
>>> from castlerules.core.options import init_rules
>>> @attrs.frozen(slots=True, init=False)
... class Demo:
...     flag: bool = False
...     limit: int | None = 1
...     table: tuple[int, ...] = (1, 2)
...     def __init__(self, **options: object) -> None:
...         init_rules(self, options)
>>> parse_assignment(Demo, "flag=yes")
('flag', True)
>>> parse_assignment(Demo, "limit=none")
('limit', None)
>>> parse_assignment(Demo, "table=3,4,5")
('table', (3, 4, 5))
>>> to_json((3, 4, 5))
[3, 4, 5]
>>> from_json(Demo, "table", [3, 4, 5])
(3, 4, 5)
"""

from __future__ import annotations

import enum
import json
import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs

from castlerules.core.errors import ArgumentError

__all__ = [
    "describe_type",
    "field_types",
    "from_json",
    "option_names",
    "parse_assignment",
    "parse_value",
    "to_json",
    "to_text",
]

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_NONE = frozenset({"none", "null"})


class _Mismatch(Exception):
    """A value that does not fit a type (internal: turned into ArgumentError)."""


def field_types(rules_cls: type) -> dict[str, Any]:
    """The resolved type of each option (field) of a ``Rules`` class, in field order."""
    try:
        hints = typing.get_type_hints(rules_cls)
    except Exception:  # an annotation that cannot be resolved: fall back to JSON values
        hints = {}
    return {f.name: hints.get(f.name, Any) for f in attrs.fields(rules_cls)}


def option_names(rules_cls: type) -> tuple[str, ...]:
    """The option names of a ``Rules`` class, in field order."""
    return tuple(f.name for f in attrs.fields(rules_cls))


def _field_type(rules_cls: type, name: str) -> Any:
    types_ = field_types(rules_cls)
    if name not in types_:
        raise ArgumentError(f"unknown option {name!r}; the options are: {', '.join(types_)}")
    return types_[name]


def describe_type(tp: Any) -> str:
    """A short, readable name of a field type (``int or none``, ``list of int``...)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is type(None):
        return "none"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(a) for a in args)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of ({describe_type(args[0])})"
        return "a list of " + ", ".join(describe_type(a) for a in args)
    if origin in (dict, Mapping, typing.Mapping):
        return f"a mapping {describe_type(args[0])}:{describe_type(args[1])}"
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "one of " + ", ".join(m.name for m in tp)
    if tp is bool:
        return "true or false"
    if tp is int:
        return "an integer"
    if tp is str:
        return "a text"
    return "a JSON value"


# ---------------------------------------------------------------------------
# Text


def parse_assignment(rules_cls: type, text: str) -> tuple[str, object]:
    """Read ``name=value`` into the option name and its typed value."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ArgumentError(f"an option is written name=value, not {text!r}")
    return name, parse_value(rules_cls, name, value.strip())


def parse_value(rules_cls: type, name: str, text: str) -> object:
    """Read the text of one option's value, typed by the option's field type."""
    tp = _field_type(rules_cls, name)
    try:
        if text[:1] in ("[", "{"):
            try:
                data = json.loads(text)
            except ValueError:
                data = _Mismatch
            if data is not _Mismatch:
                return _from_json(tp, data)
        return _from_text(tp, text)
    except _Mismatch:
        raise ArgumentError(f"option {name} must be {describe_type(tp)}, not {text!r}") from None


def _split(text: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside brackets; strip each item."""
    items: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                raise _Mismatch
        elif ch == sep and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    if depth != 0:
        raise _Mismatch
    items.append(text[start:].strip())
    return items


def _unbracket(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] + text[-1] in ("()", "[]", "{}"):
        inner = text[1:-1]
        try:
            _split(inner)
        except _Mismatch:
            return text
        return inner
    return text


def _from_text(tp: Any, text: str) -> object:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    low = text.strip().lower()
    if tp is type(None):
        if low in _NONE:
            return None
        raise _Mismatch
    if origin in (typing.Union, types.UnionType):
        if type(None) in args and low in _NONE:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _from_text(arg, text)
            except _Mismatch:
                continue
        raise _Mismatch
    if origin is typing.Literal:
        for arg in args:
            if str(arg) == text.strip() or (isinstance(arg, str) and arg.lower() == low):
                return arg
        raise _Mismatch
    if tp is bool:
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise _Mismatch
    if tp is int:
        return _int(text)
    if tp is str:
        return text
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if member.name.lower() == low or str(member.value).lower() == low:
                return member
        raise _Mismatch
    if origin is tuple:
        inner = _unbracket(text)
        items = [] if inner.strip() == "" else _split(inner)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_text(args[0], item) for item in items)
        if len(items) != len(args):
            raise _Mismatch
        return tuple(_from_text(a, item) for a, item in zip(args, items, strict=True))
    if origin in (dict, Mapping, typing.Mapping):
        inner = _unbracket(text)
        out: dict[object, object] = {}
        for item in [] if inner.strip() == "" else _split(inner):
            key, colon, value = item.partition(":")
            if not colon:
                raise _Mismatch
            out[_from_text(args[0], key.strip())] = _from_text(args[1], value.strip())
        return out
    # An unknown type: a JSON literal, or else the text itself.
    try:
        return _freeze(json.loads(text))
    except ValueError:
        return text


def _int(text: str) -> int:
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not digits.isascii() or not digits.isdigit() or len(digits) > 30:
        raise _Mismatch
    return int(body)


def _freeze(value: object) -> object:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


# ---------------------------------------------------------------------------
# JSON


def from_json(rules_cls: type, name: str, value: object) -> object:
    """Read one option's JSON value (from a game record), typed by its field type."""
    tp = _field_type(rules_cls, name)
    try:
        return _from_json(tp, value)
    except _Mismatch:
        shown = json.dumps(value) if _is_json(value) else repr(value)
        raise ArgumentError(f"option {name} must be {describe_type(tp)}, not {shown}") from None


def _is_json(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _from_json(tp: Any, value: object) -> object:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is type(None):
        if value is None:
            return None
        raise _Mismatch
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            try:
                return _from_json(arg, value)
            except _Mismatch:
                continue
        raise _Mismatch
    if origin is typing.Literal:
        if value in args and not isinstance(value, bool | type(None)):
            return value
        raise _Mismatch
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _Mismatch
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise _Mismatch
    if tp is str:
        if isinstance(value, str):
            return value
        raise _Mismatch
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if isinstance(value, str):
            for member in tp:
                if member.name == value:
                    return member
        raise _Mismatch
    if origin is tuple:
        if not isinstance(value, list):
            raise _Mismatch
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(args[0], v) for v in value)
        if len(value) != len(args):
            raise _Mismatch
        return tuple(_from_json(a, v) for a, v in zip(args, value, strict=True))
    if origin in (dict, Mapping, typing.Mapping):
        if not isinstance(value, dict):
            raise _Mismatch
        return {_from_text(args[0], str(k)): _from_json(args[1], v) for k, v in value.items()}
    # An unknown type: any JSON value, lists read as tuples.
    return _freeze(value)


def to_json(value: object) -> Any:
    """The JSON form of an option value: tuples as lists, enums by name, mappings as objects."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list | frozenset):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(to_json(k)): to_json(v) for k, v in value.items()}
    raise ArgumentError(f"option value {value!r} has no JSON form")


def to_text(value: object) -> str:
    """The ``--option`` text of an option value (``true``, ``none``, ``[1,2,3]``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    return json.dumps(to_json(value), separators=(",", ":"))
