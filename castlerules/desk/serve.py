"""The desk's answers: positions kept by key, questions answered by the command line.

A :class:`Desk` is one page's desk.  It keeps every position the page loaded
or reached, by key (``p1``, ``p2``, ...), so that the page never holds a
position it may not show: in the table view the page gets only keys and
what :mod:`castlerules.desk.table` builds from what every seat may see.

A question about a move is answered by ``castlerules explain GAME POSITION
MOVE --json`` (with ``--compare`` if asked), run in-process; the move goes
after ``--``, so the argument parser never reads it as an option.  In the
table view the answer is built from an allowlist of the command line's
fields (the verdict, the rule, the events, the scores), and shown only if it
is the same for every position the table cannot tell apart from this one
(:func:`castlerules.desk.table.alternatives`: every hidden fact changed);
else it says what it depends on.  What a move reveals (the votes of the
election it ends, B11; the objectives of the round it scores, B14) may be
shown.  The referee view shows everything.
"""

from __future__ import annotations

import contextlib
import io
import json
import urllib.parse
from collections.abc import Callable
from typing import Any

import attrs

from castlerules import ascent, records, throne
from castlerules.cli import common, positions
from castlerules.core import NotationError, RulesError
from castlerules.desk import board as boards
from castlerules.desk import compare as comparing
from castlerules.desk import table as tables
from castlerules.desk.requests import Request, RequestError, parse
from castlerules.throne.state import ELECTION

MAX_POSITIONS = 10_000
"""Positions a desk keeps; the oldest are forgotten first (a page reloads them by text)."""

VERDICT_FIELDS = (
    "seat",
    "rules",
    "legal",
    "clause",
    "message",
    "clause_text",
    "events",
    "next_player",
    "over",
    "scores",
    "winners",
    "depends_on_unknown",
)
"""The fields of ``explain --json`` that the table view may show (never a position)."""


@attrs.frozen(slots=True)
class Entry:
    """A position the desk keeps: its game, the position, and what it was not given."""

    module: Any
    state: Any
    hidden: tables.Hidden = tables.NOTHING_HIDDEN


def _error(message: str) -> str:
    line = " ".join(str(message).split())[:400] or "the request could not be served"
    return json.dumps({"ok": False, "error": line}, ensure_ascii=False)


class Desk:
    """One page's desk: :meth:`handle` answers a request (see the package's description).

    It holds the positions the page loaded or reached, by key; nothing else.
    """

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._count = 0

    def handle(self, request: Any) -> str:
        """Answer one request (a JSON text) with a JSON text; never raises."""
        try:
            data = parse(request)
            serve: Callable[[Request], dict[str, Any]] = (
                self._position if data.op == "position" else self._explain
            )
            answer = serve(data)
            return json.dumps({"ok": True, **answer}, ensure_ascii=False)
        except RulesError as err:
            return _error(common.safe_error(err))
        except RecursionError:
            return _error("the request is nested too deeply to be a desk request")
        except Exception as err:  # the desk's promise: one JSON answer, never an exception
            return _error(
                f"the desk could not answer ({type(err).__name__}: {common.safe_error(err)}); "
                "this is a bug of castlerules: please report it with the dispute link"
            )

    # ------------------------------------------------------------------ positions

    def keep(self, entry: Entry) -> str:
        """Keep a position; its key."""
        self._count += 1
        key = f"p{self._count}"
        self._entries[key] = entry
        while len(self._entries) > MAX_POSITIONS:
            del self._entries[next(iter(self._entries))]
        return key

    def entry(self, key: str) -> Entry:
        found = self._entries.get(key)
        if found is None:
            raise RequestError(f"this desk has no position {key!r:.40}: load the position again")
        return found

    def _load(self, data: Request) -> tuple[str, Entry]:
        if data.key is not None:
            return data.key, self.entry(data.key)
        entry = load(data)
        return self.keep(entry), entry

    def _position(self, data: Request) -> dict[str, Any]:
        key, entry = self._load(data)
        return position_answer(entry, key, data.view)

    # ------------------------------------------------------------------ questions

    def _explain(self, data: Request) -> dict[str, Any]:
        key, entry = self._load(data)
        assert data.move is not None
        return explain_answer(self, entry, key, data.move, data.view, compare=data.compare)


# --------------------------------------------------------------------------- loading


def load(data: Request) -> Entry:
    """The position a request gives by text, read as ``explain`` reads it (a Throne
    text may also write ``?`` for votes and No counts, see :func:`tables.read_text`)."""
    assert data.game is not None and data.position is not None
    module = common.game_module(data.game)
    options = common.parse_options(module, list(data.options))
    text = data.position
    if not text:
        raise RequestError("the position is empty: new:PLAYERS[:SEED] or a position text")
    if text.startswith(positions.NEW_PREFIX):
        chosen = common.preset_of(module, data.rules)
        rules = records.build_rules(module, chosen, options)
        state, _ = positions.load_partial(module, text, rules, chosen)
        return Entry(module, state)
    try:
        if module is throne:
            state, hidden = tables.read_text(text)
        else:
            state, hidden = module.from_text(text), tables.NOTHING_HIDDEN
    except NotationError as err:
        raise NotationError(f"cannot read the {module.NAME} position: {err}") from None
    if data.rules is not None:
        chosen = common.preset_of(module, data.rules)
        rules = records.build_rules(module, chosen, options)
        state = positions.reinterpret(module, state, rules)
    elif options:
        state = positions.reinterpret(
            module, state, common.with_options(module, state.rules, options)
        )
    return Entry(module, state, hidden)


def cli_text(entry: Entry) -> str:
    """The text the command line is given: ``?`` for objectives not given, the
    stand-ins for votes and counts not given (what depends on them is checked)."""
    return positions.text_of(entry.module, entry.state, entry.hidden.objectives)


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


# --------------------------------------------------------------------------- a position


def _hides(entry: Entry, *, referee: bool = False) -> str:
    """What the view does not know of a position, in words."""
    if referee:
        kinds = []
    else:
        kinds = ["what the table view hides: the objectives not yet revealed (B4)"]
        if entry.state.phase == ELECTION:
            kinds.append("the votes cast face down (B11)")
        if not entry.state.rules.no_cards_public:
            kinds.append("the secret No counts (B11)")
    if entry.hidden.votes:
        kinds.append("the votes the position does not give")
    if entry.hidden.no_cards:
        kinds.append("the No counts the position does not give")
    return ", ".join(kinds[:-1]) + (" or " if len(kinds) > 1 else "") + kinds[-1]


def _moves(entry: Entry, *, table: bool) -> list[str]:
    """The legal moves as the view may list them: at the table, every move legal in
    some position the table cannot tell apart from this one (a No vote with a secret
    No count, B11); always the same for those positions."""
    module, state = entry.module, entry.state
    found = [str(m) for m in module.legal_moves(state)]
    secret_counts = entry.hidden.no_cards or (table and not state.rules.no_cards_public)
    if module is throne and state.phase == ELECTION and secret_counts:
        for other in tables.alternatives(state, entry.hidden):
            found += [str(m) for m in module.legal_moves(other) if str(m) not in found]
        order = {"yes": 0, "no": 1}
        found.sort(key=lambda m: order.get(m, 2))
    return found


def _throne_situation(table: tables.ThroneTable) -> str:
    if table.over:
        totals = table.totals()
        best = max(totals)
        won = ", ".join(f"seat {s}" for s, p in enumerate(totals) if p == best)
        return f"the game is over: scores {', '.join(map(str, totals))}; won by {won}"
    return f"next: seat {table.turn} to play ({table.phase} phase, round {table.round})"


def link_text(entry: Entry, view: str) -> str:
    """The position a dispute link made in ``view`` carries: at the table, what every
    seat may see (:func:`tables.public_text`); the referee's, everything."""
    if entry.module is not throne:
        return str(entry.module.to_text(entry.state))  # Ascent hides nothing
    if view == "referee":
        return tables.full_text(entry.state, entry.hidden)
    return tables.public_text(tables.table_of(entry.state, entry.hidden))


def position_answer(entry: Entry, key: str, view: str) -> dict[str, Any]:
    """What the page gets of a position in a view."""
    module, state, hidden = entry.module, entry.state, entry.hidden
    referee = view == "referee"
    answer: dict[str, Any] = {
        "key": key,
        "game": module.NAME,
        "players": positions.players(state),
        "rules": common.rules_label(module, state.rules),
        "view": view,
        "hidden": hidden.data(),
    }
    if module is throne:
        table = tables.table_of(state, hidden)  # the boundary: all the table view shows
        secrets = boards.throne_secrets(state, hidden) if referee else None
        shown_text = tables.full_text(state, hidden) if referee else tables.public_text(table)
        answer.update(
            board=boards.throne_board(table, secrets),
            moves=_moves(entry, table=not referee),
            current_player=table.turn,
            over=table.over,
            situation=_throne_situation(table),
        )
        if table.over:
            totals = table.totals()
            answer["scores"] = list(totals)
            answer["winners"] = [s for s, p in enumerate(totals) if p == max(totals)]
    else:
        shown_text = ascent.to_text(state)  # Ascent hides nothing
        answer.update(
            board=boards.ascent_board(state),
            moves=[str(m) for m in ascent.legal_moves(state)],
            current_player=ascent.current_player(state),
            over=ascent.is_over(state),
            situation=positions.situation(ascent, state),
        )
        if answer["over"]:
            answer["scores"] = list(ascent.scores(state))
            answer["winners"] = list(ascent.winners(state))
    answer["position"] = shown_text if referee or module is not throne else None
    answer["link_position"] = shown_text
    answer["link"] = fragment(module.NAME, shown_text, view=view)
    return answer


# --------------------------------------------------------------------------- a question


def run_explain(game: str, text: str, move: str, *, compare: bool) -> tuple[int, Any]:
    """``castlerules explain GAME TEXT MOVE --json [--compare]``, in-process: the exit
    status and the JSON answer, or the error line (exit status 2)."""
    from castlerules.cli import main

    argv = ["explain", "--json", *(["--compare"] if compare else []), "--", game, text, move]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:  # the argument parser refuses (exit status 2)
            status = stop.code if isinstance(stop.code, int) else common.EXIT_BAD_INPUT
    if status in (common.EXIT_OK, common.EXIT_ILLEGAL):
        return status, json.loads(out.getvalue())
    lines = err.getvalue().strip().splitlines() or ["the move could not be judged"]
    return status, lines[-1].removeprefix("castlerules explain: ")


def _asked(game: str, text: str, move: str, compare: bool) -> tuple[dict[str, Any], str | None]:
    """The command line's answer; with ``compare``, the comparison's refusal apart."""
    status, answer = run_explain(game, text, move, compare=compare)
    if status == common.EXIT_BAD_INPUT and compare and str(answer).startswith("--compare"):
        refused = str(answer)
        status, answer = run_explain(game, text, move, compare=False)
        if status not in (common.EXIT_OK, common.EXIT_ILLEGAL):
            raise RequestError(str(answer))
        return answer, refused
    if status not in (common.EXIT_OK, common.EXIT_ILLEGAL):
        raise RequestError(str(answer))
    return answer, None


def verdict(answer: dict[str, Any]) -> dict[str, Any]:
    """The table view's part of an answer of ``explain --json``: the fields of
    :data:`VERDICT_FIELDS` that it has."""
    return {name: answer[name] for name in VERDICT_FIELDS if name in answer}


def _reveals(entry: Entry, move_text: str) -> tuple[bool, int | None, Any]:
    """What playing the move reveals at the table: the votes (it ends the election,
    B11), the round whose objectives it scores (B14); and the position after (None if
    the move is illegal or cannot be read)."""
    module, state = entry.module, entry.state
    try:
        after = module.apply(state, module.parse_move(state, move_text, check=False))
    except RulesError:
        return False, None, None
    if module is not throne:
        return False, None, after
    votes = state.phase == ELECTION and (after.phase != ELECTION or after.round != state.round)
    scored = state.round if len(after.results) > len(state.results) else None
    return votes, scored, after


def _carried(entry: Entry, after: Any) -> tables.Hidden:
    """What the position after a move was not given: the same objectives; the votes of
    the same election; the No counts until a new round deals them again."""
    hidden = entry.hidden
    if entry.module is not throne or not hidden:
        return hidden
    state = entry.state
    votes = hidden.votes if after.phase == ELECTION and after.round == state.round else frozenset()
    dealt = after.round != state.round and after.rules.no_cards_reset_each_round
    return tables.Hidden(hidden.objectives, votes, frozenset() if dealt else hidden.no_cards)


def explain_answer(
    desk: Desk, entry: Entry, key: str, move: str, view: str, *, compare: bool
) -> dict[str, Any]:
    """What the page gets of a question about ``move`` in a kept position."""
    module = entry.module
    referee = view == "referee"
    answer, refused = _asked(module.NAME, cli_text(entry), move, compare)
    votes, scored, after = _reveals(entry, move)
    shown_verdict = verdict(answer)
    comparison = comparing.compact(answer["compare"], answer) if "compare" in answer else None
    withheld = None
    guard = module is throne and (not referee or entry.hidden.votes or entry.hidden.no_cards)
    if guard:
        others = tables.alternatives(
            entry.state,
            entry.hidden,
            revealed_votes=votes,
            revealed_round=scored,
            only_hidden=referee,
        )
        hides = _hides(entry, referee=referee)
        verdicts = [shown_verdict]
        views = [] if comparison is None else [comparison]
        for other in others:
            twin = Entry(module, other, entry.hidden)
            try:
                other_answer, _ = _asked(
                    module.NAME, cli_text(twin), move, compare and refused is None
                )
            except RequestError:  # a position the notation's checks refuse: not a twin
                continue
            verdicts.append(verdict(other_answer))
            if comparison is not None and "compare" in other_answer:
                views.append(comparing.compact(other_answer["compare"], other_answer))
        if any(v != verdicts[0] for v in verdicts):
            withheld = f"The answer depends on {hides}: " + (
                "the position does not give them (a link made in the referee view does)."
                if entry.hidden.votes or entry.hidden.no_cards
                else "ask in the referee view."
            )
            shown_verdict = {"seat": shown_verdict.get("seat"), "rules": shown_verdict.get("rules")}
        if comparison is not None:
            if len(views) == len(verdicts):  # every twin's comparison
                comparison = comparing.guarded(views, hides)
            else:
                comparison = None
                refused = f"the comparison depends on {hides}"
    result: dict[str, Any] = {
        "key": key,
        "view": view,
        "move": move,
        "status": None
        if withheld
        else (common.EXIT_OK if answer["legal"] else common.EXIT_ILLEGAL),
        "verdict": shown_verdict,
        "withheld": withheld,
        "compare": comparison,
        "compare_refused": refused,
        "next": None,
        "next_note": None,
    }
    if referee:
        result["answer"] = answer  # the command line's whole answer
    if withheld is None and answer["legal"]:
        if answer.get("after") is None or after is None:
            result["next_note"] = (
                "The position after is not known: it depends on objectives the position "
                "does not give."
            )
        else:
            following = Entry(module, after, _carried(entry, after))
            result["next"] = position_answer(following, desk.keep(following), view)
    result["link"] = fragment(module.NAME, link_text(entry, view), move, compare=compare, view=view)
    return result


def handle(request: Any) -> str:
    """Answer one request with a desk of its own (positions by text only); never raises."""
    return Desk().handle(request)


__all__ = [
    "MAX_POSITIONS",
    "VERDICT_FIELDS",
    "Desk",
    "Entry",
    "explain_answer",
    "fragment",
    "handle",
    "load",
    "position_answer",
    "run_explain",
    "verdict",
]
