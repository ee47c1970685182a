"""The dispute desk's Python side: one JSON request in, one JSON answer out.

The documentation site's "Dispute desk" page runs this package in the browser
(Pyodide): it makes a :class:`Desk`, sends each request as a JSON text to
:meth:`Desk.handle` and shows what comes back.  Nothing here states a rule:
a question about a move is answered by the command line's own ``castlerules
explain ... --json`` (run in-process), so the desk and the terminal give one
answer; a position is read and drawn from the engines.

Requests (``"op"`` names the kind; ``"view"`` is ``"table"``, the default, or
``"referee"``):

``{"op": "position", "game", "position", "rules"?, "options"?, "view"?}``
    Load a position (``new:PLAYERS[:SEED]`` or a position text, read under the
    reading: ``rules`` a preset, ``options`` ``["name=value", ...]``) and keep
    it; ``{"op": "position", "key", "view"?}`` shows a kept one again.  The
    answer: its ``key``, its ``board`` (a record the page draws), its legal
    ``moves``, who plays, ``link`` (the fragment of a dispute link) and
    ``link_position`` (the position that link carries) and, in the referee
    view, the whole notation (``position``).
``{"op": "explain", "game", "position" | "key", "move", "compare"?, ...}``
    The question "is MOVE legal here, and why?": the ``verdict``, the
    compact comparison of the readings (``compare``, when asked) and, for a
    legal move, the position after (``next``, kept under a new key).

The table view (:mod:`castlerules.desk.table`) sends only what every seat at
the table may see: built from what every seat's ``observation`` shows, never
a position with fields taken out.  Every answer is an object with ``"ok"``; a
request the desk cannot serve gives ``{"ok": false, "error": "one line"}``,
never an exception.

>>> import json
>>> desk = Desk()
>>> answer = json.loads(desk.handle(json.dumps(
...     {"op": "explain", "game": "throne", "position": "new:4", "move": "C6"})))
>>> answer["ok"], answer["status"], answer["verdict"]["clause"]
(True, 1, 'B6')
>>> json.loads(desk.handle('{"op": "nonsense"}'))["error"]
"unknown request 'nonsense': the desk answers 'position' and 'explain'"
"""

from __future__ import annotations

from typing import Any

from castlerules.desk.compare import compact
from castlerules.desk.requests import VIEWS, RequestError
from castlerules.desk.serve import Desk, fragment, handle, run_explain
from castlerules.desk.table import Hidden, ThroneTable, public_text, read_text, table_of


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


__all__ = [
    "VIEWS",
    "Desk",
    "Hidden",
    "RequestError",
    "ThroneTable",
    "case_question",
    "compact",
    "fragment",
    "handle",
    "public_text",
    "read_text",
    "run_explain",
    "table_of",
]
