"""The conformance protocol on the wire: its requests, and the answers the kit accepts.

The contract is ``spec/conform.md`` (protocol version :data:`PROTOCOL`): one
JSON object per line each way, every request with an integer ``id`` that
its answer repeats.  This module builds the requests and checks every answer
against the contract, so that an engine's mistake in the protocol itself
(a wrong id, a missing field, a move listed twice, text that is not a move)
is an :class:`EngineFault` naming the request, what came back and why,
before any rule is compared.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

__all__ = [
    "MAX_LINE_BYTES",
    "OPS",
    "PROTOCOL",
    "Answer",
    "EngineFault",
    "check_answer",
    "decode",
    "encode",
    "shorten",
]

PROTOCOL = 1
"""The protocol version this kit speaks (``spec/conform.md``, version 1)."""

OPS = ("hello", "start", "legal", "play", "status", "quit")
"""The requests of the protocol, in the order a session uses them."""

MAX_LINE_BYTES = 1 << 20
"""The longest answer line the kit reads (1 MiB): a legal-move list of either game is a
few hundred bytes, so a longer line is a fault of the engine, reported without reading
the rest of it."""

MAX_SHOWN = 300
"""How many characters of an engine's answer a report quotes."""

Answer = dict[str, Any]
"""A decoded answer: a JSON object."""


@attrs.frozen(slots=True)
class EngineFault(Exception):
    """The engine broke the protocol (or crashed, hung, or raised).

    ``kind`` is one of ``crash``, ``timeout``, ``garbage``, ``too-long``,
    ``wrong-id``, ``bad-answer``, ``error-answer``, ``before-hello``, ``raised``,
    ``refused-start``; ``request`` the request it was answering (``None``
    before any); ``answer`` what came back (shortened), ``None`` when nothing
    did; ``reason`` the fault in plain words; ``stderr`` the engine's last
    lines of standard error (for an in-process engine: its traceback).
    """

    kind: str
    reason: str
    request: Mapping[str, Any] | None = None
    answer: str | None = None
    stderr: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.reason

    def with_stderr(self, lines: Sequence[str]) -> EngineFault:
        """The same fault with the engine's last standard-error lines."""
        return attrs.evolve(self, stderr=tuple(lines))


def shorten(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def encode(request: Mapping[str, Any]) -> bytes:
    """One request as its line: compact JSON, UTF-8, ``\\n``-terminated."""
    return (json.dumps(request, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(line: bytes, request: Mapping[str, Any]) -> Answer:
    """An answer line as a JSON object, or the :class:`EngineFault` that says why not.

    Strict JSON (no ``NaN``, no ``Infinity``), UTF-8, one object.
    """
    shown = shorten(line.decode("utf-8", "backslashreplace").rstrip("\n"))
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        raise EngineFault(
            "garbage",
            f"answered bytes that are not UTF-8 text (byte {err.start}) to {request['op']}",
            request,
            shown,
        ) from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise EngineFault(
            "garbage",
            f"answered a line that is not JSON to {request['op']}: the protocol wants one "
            "JSON object per line",
            request,
            shown,
        ) from None
    if not isinstance(value, dict):
        raise EngineFault(
            "garbage",
            f"answered JSON that is not an object ({_kind(value)}) to {request['op']}",
            request,
            shown,
        )
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fault(request: Mapping[str, Any], answer: Answer, reason: str) -> EngineFault:
    return EngineFault(
        "bad-answer",
        f"answered {request['op']} {reason}",
        request,
        shorten(json.dumps(answer, ensure_ascii=False)),
    )


def check_answer(
    request: Mapping[str, Any],
    answer: Answer,
    *,
    game: str | None = None,
    is_move: Callable[[str], bool] | None = None,
) -> Answer:
    """Check that ``answer`` is a well-formed answer to ``request``; return it.

    The id must be the request's; an ``{"error": ...}`` answer is an
    :class:`EngineFault` (``error-answer``) except to ``start`` (a reading the
    engine does not play) and ``play`` (a refused move); every field the
    contract names must have its type.  ``is_move`` tells whether a text is
    a move of the game's notation (``legal``: a text that is not is a fault,
    and so is a move listed twice).  ``game`` is the game being played (Ascent's
    scores may be ``null`` until the end).
    """
    op = request["op"]
    wanted = request["id"]
    got = answer.get("id")
    if not _is_int(got) or got != wanted:
        said = "no id" if "id" not in answer else f"id {json.dumps(got)}"
        raise EngineFault(
            "wrong-id",
            f"answered request {wanted} ({op}) with {said}: every answer repeats its request's id",
            request,
            shorten(json.dumps(answer, ensure_ascii=False)),
        )
    if "error" in answer and op not in ("start", "play"):
        error = answer["error"]
        text = error if isinstance(error, str) else json.dumps(error)
        raise EngineFault(
            "error-answer",
            f"answered {op} with an error: {shorten(text, 200)}",
            request,
            shorten(json.dumps(answer, ensure_ascii=False)),
        )
    check = _CHECKS[op]
    check(request, answer, game, is_move)
    return answer


def _hello(request: Mapping[str, Any], answer: Answer, _game: object, _is_move: object) -> None:
    name, games, protocol = answer.get("name"), answer.get("games"), answer.get("protocol")
    if not isinstance(name, str):
        raise _fault(request, answer, f"without a name (a string), with {_kind(name)}")
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise _fault(request, answer, "without a list of the games it plays (strings)")
    if protocol != PROTOCOL:
        raise _fault(
            request,
            answer,
            f"with protocol {json.dumps(protocol)}: this kit speaks protocol {PROTOCOL}",
        )


def _ok(request: Mapping[str, Any], answer: Answer, _game: object, _is_move: object) -> None:
    ok = answer.get("ok")
    if not isinstance(ok, bool) and not ("error" in answer and ok is None):
        raise _fault(request, answer, f"without ok (true or false), with {_kind(ok)}")


def _legal(
    request: Mapping[str, Any],
    answer: Answer,
    _game: object,
    is_move: Callable[[str], bool] | None,
) -> None:
    moves = answer.get("moves")
    if not isinstance(moves, list):
        raise _fault(request, answer, f"without a list of moves, with {_kind(moves)}")
    seen: set[str] = set()
    for move in moves:
        if not isinstance(move, str):
            raise _fault(request, answer, f"with a move that is {_kind(move)}, not a string")
        if move in seen:
            raise _fault(
                request, answer, f"listing {move!r} twice: the legal moves have no duplicates"
            )
        seen.add(move)
        if is_move is not None and not is_move(move):
            raise _fault(
                request,
                answer,
                f"listing {shorten(repr(move), 60)}, which is not a move in castlerules' notation",
            )


def _status(request: Mapping[str, Any], answer: Answer, game: object, _is_move: object) -> None:
    to_move, over = answer.get("to_move"), answer.get("over")
    if not isinstance(over, bool):
        raise _fault(request, answer, f"without over (true or false), with {_kind(over)}")
    if not (to_move is None or _is_int(to_move)):
        raise _fault(request, answer, f"with to_move {_kind(to_move)}: a seat number or null")
    scores = answer.get("scores")
    nullable = game == "ascent" and not over
    if scores is None and not nullable:
        raise _fault(request, answer, "without scores (a list of numbers, one per seat)")
    if scores is not None and (
        not isinstance(scores, list)
        or not all(_is_int(s) or (isinstance(s, float) and math.isfinite(s)) for s in scores)
    ):
        raise _fault(request, answer, "with scores that are not a list of numbers")
    winners = answer.get("winners")
    if over and (not isinstance(winners, list) or not all(_is_int(w) for w in winners)):
        raise _fault(request, answer, "over without winners (a list of seats)")
    if not over and winners not in (None, []):
        raise _fault(request, answer, "with winners before the game is over")


def _nothing(request: Mapping[str, Any], answer: Answer, _game: object, _is_move: object) -> None:
    return None


_CHECKS: Mapping[str, Callable[..., None]] = {
    "hello": _hello,
    "start": _ok,
    "legal": _legal,
    "play": _ok,
    "status": _status,
    "quit": _nothing,
}
