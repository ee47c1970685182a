"""A Python engine checked in-process: the :class:`Engine` protocol and its channel.

An engine written in Python does not need a process and a pipe to be checked:
it implements :class:`Engine`, one method per request of the protocol, with
the same values as the JSON of ``spec/conform.md``, and
:func:`castlerules.conform.check` drives it directly.  Its answers go through
the same checks as a process's (:func:`castlerules.conform.wire.check_answer`),
so a Python engine that returns a move twice or a wrong type gets the same
report; an exception it raises is a fault whose "standard error" is the last
lines of its traceback.  (There is no per-request timeout in-process: the
engine runs in the kit's own thread.)

>>> from castlerules.conform import ReferenceEngine, check
>>> report = check("ascent", ReferenceEngine(), games=2, seconds=5, progress=None)
>>> report.agree
True
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from castlerules import __version__, options_text, records
from castlerules.conform.reference import GAMES
from castlerules.conform.wire import PROTOCOL, Answer, EngineFault, decode, shorten
from castlerules.core import RulesError

__all__ = ["Engine", "InProcessChannel", "ReferenceEngine"]


@runtime_checkable
class Engine(Protocol):
    """What a Python engine implements to be checked in-process.

    ``name`` and ``games`` are its ``hello`` answer.  Each method is one
    request; the values are those of the protocol's JSON:

    - ``start(game, players, rules, deal)``: ``rules`` is
      ``{"preset": "SEED", "options": {...}}``, ``deal`` the game's chance
      outcomes (Throne ``{"objectives": [[...], ...]}``, Ascent
      ``{"first_player": 2}``); return True if the engine plays it, False if it
      does not play these rules;
    - ``legal()``: every legal move of the seat to act, in castlerules' move
      notation (``[]`` once over);
    - ``play(move)``: True if played, False if refused (the state unchanged);
    - ``status()``: ``{"to_move": 0, "over": False, "scores": [...]}`` and,
      once over, ``"winners": [...]``.
    """

    name: str
    games: Sequence[str]

    def start(
        self, game: str, players: int, rules: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> bool: ...

    def legal(self) -> Sequence[str]: ...

    def play(self, move: str) -> bool: ...

    def status(self) -> Mapping[str, Any]: ...


class InProcessChannel:
    """An :class:`Engine` spoken to as if through the protocol (same answers, same checks)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = f"{type(engine).__module__}.{type(engine).__qualname__} (in-process)"
        self.seconds_waiting = 0.0
        self._trace: tuple[str, ...] = ()

    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines of the traceback of the engine's last exception, if any."""
        return self._trace

    def ask(self, request: Mapping[str, Any]) -> Answer:
        """Call the engine's method for ``request``; return its answer as the JSON would be."""

        started = time.perf_counter()
        try:
            answer = self._answer(request)
        except Exception as err:
            raise self._raised(request, err) from None
        finally:
            self.seconds_waiting += time.perf_counter() - started
        # Through JSON and back, as over a pipe: the same values, the same checks.
        try:
            text = json.dumps(answer, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as err:
            raise EngineFault(
                "garbage",
                f"answered {request['op']} with a value that is not JSON ({err})",
                request,
                shorten(repr(answer)),
            ) from None
        return decode(text.encode() + b"\n", request)

    def _raised(self, request: Mapping[str, Any], err: Exception) -> EngineFault:
        lines = traceback.format_exception(err)
        self._trace = tuple(
            line.rstrip() for chunk in lines for line in chunk.splitlines() if line.strip()
        )[-12:]
        return EngineFault(
            "raised",
            f"raised {type(err).__name__} on request {request['id']} ({request['op']}): "
            f"{str(err)[:200]}",
            request,
            None,
            self._trace,
        )

    def _answer(self, request: Mapping[str, Any]) -> Answer:
        op, number = request["op"], request["id"]
        engine = self.engine
        if op == "hello":
            return {
                "id": number,
                "name": engine.name,
                "games": list(engine.games),
                "protocol": PROTOCOL,
            }
        if op == "start":
            ok = engine.start(
                request["game"], request["players"], request["rules"], request["deal"]
            )
            return {"id": number, "ok": ok}
        if op == "legal":
            moves = engine.legal()
            return {
                "id": number,
                "moves": list(moves) if isinstance(moves, list | tuple) else moves,
            }
        if op == "play":
            return {"id": number, "ok": engine.play(request["move"])}
        if op == "status":
            status = engine.status()
            return {"id": number, **status} if isinstance(status, Mapping) else {"id": number}
        return {"id": number}

    def close(self) -> None:
        """Nothing to end: the engine lives in the kit's process."""


class ReferenceEngine:
    """castlerules itself as an :class:`Engine`: the reference, checked like any engine.

    It plays whatever reading ``start`` asks for, or always ``built_for`` (a
    ``Rules`` of either game) when given: an engine written for one reading
    that ignores the rules it is sent, as ``castlerules conform --readings all`` finds out.
    """

    games: Sequence[str] = ("throne", "ascent")

    def __init__(self, built_for: Any = None) -> None:
        self.name = f"castlerules {__version__} (the reference, in-process)"
        self.built_for = built_for
        self._module: Any = None
        self._state: Any = None

    def start(
        self, game: str, players: int, rules: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> bool:
        module = GAMES.get(game)
        if module is None:
            return False
        try:
            if self.built_for is not None and isinstance(self.built_for, module.Rules):
                chosen = self.built_for
            else:
                options = {
                    name: options_text.from_json(module.Rules, name, value)
                    for name, value in dict(rules.get("options") or {}).items()
                }
                chosen = records.build_rules(module, rules.get("preset"), options)
            if game == "throne":
                self._state = module.new_game(players, rules=chosen, objectives=deal["objectives"])
            else:
                owners = deal.get("owners")
                self._state = module.new_game(
                    players,
                    rules=chosen,
                    first_player=deal["first_player"],
                    owners=None if owners is None else tuple(owners),
                )
        except (RulesError, KeyError, TypeError):
            return False
        self._module = module
        return True

    def legal(self) -> Sequence[str]:
        return [str(m) for m in self._module.legal_moves(self._state)]

    def play(self, move: str) -> bool:
        try:
            self._state = self._module.apply(
                self._state, self._module.parse_move(self._state, move)
            )
        except RulesError:
            return False
        return True

    def status(self) -> Mapping[str, Any]:
        module, state = self._module, self._state
        out: dict[str, Any] = {
            "to_move": module.current_player(state),
            "over": module.is_over(state),
            "scores": list(module.scores(state)),
        }
        if out["over"]:
            out["winners"] = list(module.winners(state))
        return out
