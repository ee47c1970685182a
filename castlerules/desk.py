"""The dispute desk's Python side: one JSON request in, one JSON answer out.

The documentation site's "Dispute desk" page runs this module in the browser
(Pyodide): the page sends a request as a JSON text to :func:`handle` and
shows what comes back.  Nothing here states a rule: a question about a move
is answered by the command line's own ``castlerules explain ... --json``
(run in-process through :func:`castlerules.cli.main`), so the desk and the
terminal give one answer; a position is read and drawn by the engines.

Requests (``"op"`` names the kind):

``{"op": "position", "game", "position", "rules"?, "options"?, "view"?}``
    The position (``new:PLAYERS[:SEED]`` or a position text) read under the
    reading (``rules``: a preset, ``options``: ``["name=value", ...]``): its
    board as SVG, its legal moves, who plays, ``public_position`` (the
    notation with ``?`` for every objective not yet revealed: what a dispute
    link made at the table carries) and, in the ``"referee"`` view only, its
    full notation.  The ``"table"`` view (the default) shows what every seat
    may see: no objective, no vote.  A position may leave objectives unknown
    (``?``), as ``explain`` reads it.
``{"op": "explain", "game", "position", "move", "rules"?, "options"?,
"compare"?, "view"?}``
    The answer of ``castlerules explain GAME POSITION MOVE --json``
    (``--compare`` if asked), its exit status, and the boards before and
    after, and ``next_position``, the notation to play on from.  In Throne's
    table view the answer's notations (which hold the objectives) are left
    out; the page keeps ``next_position`` and never shows it there.

Every answer is an object with ``"ok"``; a request the desk cannot serve
gives ``{"ok": false, "error": "one line"}``, never an exception.

>>> import json
>>> answer = json.loads(handle(json.dumps(
...     {"op": "explain", "game": "throne", "position": "new:4", "move": "C6"})))
>>> answer["ok"], answer["status"], answer["answer"]["clause"]
(True, 1, 'B6')
>>> json.loads(handle('{"op": "nonsense"}'))["error"]
"unknown request 'nonsense': the desk answers 'position' and 'explain'"
"""

from __future__ import annotations

import contextlib
import io
import json
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from castlerules import records
from castlerules.cli import common, positions
from castlerules.core import RulesError

VIEWS = ("table", "referee")
"""The two views: what every seat at the table may see, or everything."""

_SECRET_FIELDS = ("position", "after")
"""Fields of ``explain --json`` that hold a full position, hidden objectives included."""
_SECRET_GAMES = frozenset({"throne"})
"""The games whose notation holds what a seat keeps hidden (Throne's objectives, B4)."""


def handle(request: str) -> str:
    """Answer one request (a JSON text) with a JSON text; see the module's description."""
    try:
        data = json.loads(request)
    except (TypeError, ValueError):
        return _error("the request is not JSON")
    if not isinstance(data, dict):
        return _error("the request is a JSON object")
    op = data.get("op")
    serve = _OPS.get(op) if isinstance(op, str) else None
    if serve is None:
        return _error(f"unknown request {op!r:.40}: the desk answers 'position' and 'explain'")
    try:
        answer = serve(data)
    except RulesError as err:
        return _error(common.safe_error(err))
    return json.dumps({"ok": True, **answer}, ensure_ascii=False)


def _error(message: str) -> str:
    return json.dumps({"ok": False, "error": message}, ensure_ascii=False)


def _text(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise _bad(f"the request's {key!r} is a text")
    return value


def _bad(message: str) -> RulesError:
    from castlerules.core import ArgumentError

    return ArgumentError(message)


def _options(data: Mapping[str, Any]) -> list[str]:
    options = data.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise _bad("the request's 'options' is a list of name=value texts")
    return options


def _view(data: Mapping[str, Any]) -> str:
    view = _text(data, "view", "table")
    if view not in VIEWS:
        raise _bad(f"a view is 'table' or 'referee', not {view!r:.20}")
    return view


def _load(data: Mapping[str, Any]) -> tuple[Any, Any, positions.Unknown]:
    """The game module, the state of a request and its unknown objectives (Throne's
    ``?``), read as ``explain`` reads them."""
    module = common.game_module(_text(data, "game"))
    options = common.parse_options(module, _options(data))
    text = _text(data, "position").strip()
    preset = data.get("rules")
    if preset is not None and not isinstance(preset, str):
        raise _bad("the request's 'rules' is a preset name")
    if text.startswith(positions.NEW_PREFIX) or preset is not None:
        chosen = common.preset_of(module, preset)
        rules = records.build_rules(module, chosen, options)
        return (module, *positions.load_partial(module, text, rules, chosen))
    state, unknown = positions.load_partial(module, text, None, None)
    if options:
        rules = common.with_options(module, state.rules, options)
        state = positions.reinterpret(module, state, rules)
    return module, state, unknown


def public_text(module: Any, state: Any, unknown: positions.Unknown = frozenset()) -> str:
    """The position as every seat may read it: in Throne, ``?`` for each objective of
    a round not yet scored (B4; the scored rounds' objectives were revealed, B14).

    >>> from castlerules import throne
    >>> public_text(throne, throne.new_game(3, seed=1)).split()[11]
    '?'
    """
    if module.NAME not in _SECRET_GAMES:
        return str(module.to_text(state))
    scored = len(state.results)
    hidden = {
        (number, seat)
        for number in range(scored + 1, state.rules.rounds + 1)
        for seat in range(state.players)
    }
    return positions.text_of(module, state, frozenset(hidden) | unknown)


def board(
    module: Any, state: Any, view: str, highlight: Sequence[Any] = (), known: bool = True
) -> str:
    """The position's SVG: in the table view without what a seat keeps hidden (and
    without objectives that were not given, ``known=False``)."""
    if module.NAME == "throne":
        secrets = view == "referee" and known
        return str(module.svg(state, highlight=highlight, secrets=secrets))
    return str(module.svg(state, highlight=highlight))


def _shows_all(module: Any, view: str) -> bool:
    """Whether the position's notation may be shown: always in Ascent, in the referee view."""
    return view == "referee" or module.NAME not in _SECRET_GAMES


def _position(data: Mapping[str, Any]) -> dict[str, Any]:
    module, state, unknown = _load(data)
    view = _view(data)
    over = module.is_over(state)
    answer: dict[str, Any] = {
        "game": module.NAME,
        "players": positions.players(state),
        "rules": common.rules_label(module, state.rules),
        "view": view,
        "svg": board(module, state, view, known=not unknown),
        "moves": [str(m) for m in module.legal_moves(state)],
        "current_player": module.current_player(state),
        "over": over,
        "situation": positions.situation(module, state),
        "position": (
            positions.text_of(module, state, unknown) if _shows_all(module, view) else None
        ),
        "public_position": public_text(module, state, unknown),
        "unknown": sorted([number, seat] for number, seat in unknown),
    }
    if over:
        answer["scores"] = list(module.scores(state))
        answer["winners"] = list(module.winners(state))
    return answer


def explain_arguments(data: Mapping[str, Any]) -> list[str]:
    """The command line that answers an ``explain`` request (after ``castlerules``)."""
    args = ["explain", _text(data, "game"), _text(data, "position"), _text(data, "move")]
    preset = data.get("rules")
    if preset is not None:
        args += ["--rules", _text(data, "rules")]
    for option in _options(data):
        args += ["-o", option]
    if data.get("compare"):
        args.append("--compare")
    return [*args, "--json"]


def _explain(data: Mapping[str, Any]) -> dict[str, Any]:
    from castlerules.cli import main

    view = _view(data)
    module, state, unknown = _load(data)  # bad input is answered before the command line runs
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(explain_arguments(data))
        except SystemExit as stop:  # argparse refuses an argument
            status = stop.code if isinstance(stop.code, int) else common.EXIT_BAD_INPUT
    if status not in (common.EXIT_OK, common.EXIT_ILLEGAL):
        lines = err.getvalue().strip().splitlines() or ["the move could not be judged"]
        raise _bad(lines[-1].removeprefix("castlerules explain: "))
    answer = json.loads(out.getvalue())
    result: dict[str, Any] = {"status": status, "view": view, "answer": answer}
    result["before_svg"] = board(module, state, view, known=not unknown)
    if answer["legal"] and "after" in answer:
        after, left = positions.load_partial(module, answer["after"], None, None)
        result["after_svg"] = board(module, after, view, known=not left)
        result["moves_after"] = [str(m) for m in module.legal_moves(after)]
        # The page keeps the position to play on from; it shows it only where _shows_all,
        # and links to it in public_text's form.
        result["next_position"] = answer["after"]
        result["next_public"] = public_text(module, after, left)
    if not _shows_all(module, view):
        for key in _SECRET_FIELDS:
            answer.pop(key, None)
        for row in answer.get("compare", {}).get("readings", []) or []:
            if isinstance(row, dict):
                row.pop("after", None)
    return result


def fragment(
    game: str,
    position: str,
    move: str | None = None,
    *,
    compare: bool = False,
    view: str = "table",
) -> str:
    """The page address's fragment that opens this question at the desk (a dispute link).

    >>> fragment("throne", "new:4", "C6")
    'game=throne&position=new%3A4&view=table&move=C6'
    """
    fields = [("game", game), ("position", position), ("view", view)]
    if move is not None:
        fields.append(("move", move))
    if compare:
        fields.append(("compare", "1"))
    return urllib.parse.urlencode(fields)


def case_question(shown: Any) -> dict[str, Any]:
    """A casebook case (:class:`castlerules.casebook.Shown`) as a question for the desk.

    The position before the case's move, the move (None for a case about a
    position), and whether to compare readings (the cases about two readings).
    """
    case = shown.case
    move = getattr(shown.focus, "move", None)
    if move is None and shown.moments:
        move = shown.moments[-1].move
    before = shown.before if move is not None else shown.states[-1]
    return {
        "key": case.key,
        "game": case.game,
        "kind": case.kind,
        "clauses": list(case.clauses),
        "statement": case.statement,
        "settles": case.settles,
        "position": case.module.to_text(before),
        "move": None if move is None else str(move),
        "compare": case.kind == "reading",
    }


_OPS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "position": _position,
    "explain": _explain,
}

__all__ = [
    "VIEWS",
    "board",
    "case_question",
    "explain_arguments",
    "fragment",
    "handle",
    "public_text",
]
