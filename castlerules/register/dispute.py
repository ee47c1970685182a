"""The comparison of readings: a dispute replayed under every reading of the register.

A *dispute* is what a referee asks: a position (a position text, or a new
game ``new:PLAYERS[:SEED]``), moves played first from it (``--after``), and
the move in question.  :func:`compare` replays the whole dispute under every
reading that :func:`castlerules.register.readings.readings_of` gives (every
other preset, every alternative value of every open point): the position
read under that reading (a new game dealt under it, a written position
rewritten with its rules field and read back by the game's own
``from_text``), each ``--after`` move in turn, then the move, and compares
the answer with the base reading's.

Each reading gets one :class:`Row`, with a status:

``agrees``
    the same answer: illegal under both for the same clause and the same
    reason, or legal under both with the same events and the same resulting
    position;
``disagrees``
    another answer, or no answer because the dispute does not replay under
    that reading: the position cannot exist, the game is already over there,
    or an ``--after`` move is illegal (the row says which and why);
``cannot apply``
    the change of one option that the other options forbid (not a reading
    that can be played), with the reason;
``depends``
    (Throne positions with objectives not given) the answer under that reading
    scores a round whose objectives are unknown.

The command line's ``explain --compare`` prints :meth:`Comparison.lines`,
``--json`` prints :meth:`Comparison.data` (the dispute desk shows the same
data), so every reader gets one comparison.

>>> from castlerules import throne
>>> from castlerules.register.dispute import Start, compare
>>> found = compare(throne, Start.read(throne, "new:4:7"), move="C1")
>>> found.base.legal, [r.label for r in found.disagreeing]
(True, ['ORIGINAL', 'placement_floors=[2,3,4,5]'])
>>> found.row("ORIGINAL").answer.clause
'B6'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from castlerules import options_text, records
from castlerules.casebook.questions import question
from castlerules.core import (
    ArgumentError,
    Event,
    IllegalMove,
    NotationError,
    RulesError,
    seed_from_text,
)
from castlerules.register import positions
from castlerules.register.positions import NOTHING_UNKNOWN, Unknown
from castlerules.register.readings import readings_of
from castlerules.throne import notation as throne_notation

__all__ = [
    "AGREES",
    "CANNOT_APPLY",
    "DEPENDS",
    "DISAGREES",
    "NEW_PREFIX",
    "STATUSES",
    "Answer",
    "Comparison",
    "Row",
    "Start",
    "compare",
    "judge",
    "question",
    "rules_label",
]

AGREES = "agrees"
DISAGREES = "disagrees"
CANNOT_APPLY = "cannot apply"
DEPENDS = "depends"
STATUSES = (AGREES, DISAGREES, CANNOT_APPLY, DEPENDS)
"""The status of a reading's row, in the order the comparison lists them."""

STAGES = ("move", "position", "over", "after", "rules", "unknown")
"""Where a row's replay ended: ``move`` (the move was judged), ``position`` (the position
cannot exist under the reading), ``over`` (the game is already over there under it),
``after`` (an ``--after`` move is illegal or unreadable under it), ``rules`` (not a valid
combination of options), ``unknown`` (the answer depends on objectives not given)."""

NEW_PREFIX = "new:"
"""``new:PLAYERS[:SEED]`` names the starting position of a new game."""


def rules_label(module: Any, rules: Any, preset: str | None = None) -> str:
    """A short name of a reading: ``SEED`` or ``SEED + allow_pass=true``."""
    name, options = records.rules_preset_and_options(module, rules, preset)
    if not options:
        return name
    return name + " + " + ", ".join(f"{k}={options_text.to_text(v)}" for k, v in options)


@attrs.frozen(slots=True)
class Answer:
    """The answer under one reading: legal or not, why, and what happened."""

    legal: bool
    clause: str | None
    message: str
    before: Any
    move: Any
    after: Any
    events: tuple[Event, ...]

    def key(self, module: Any, unknown: Unknown = NOTHING_UNKNOWN) -> tuple[object, ...]:
        """What two readings must share to agree: the refusal (clause and reason), or
        the events and the resulting position (its rules field aside)."""
        if not self.legal:
            return (False, self.clause, self.message)
        return (True, positions.board_text(module, self.after, unknown), tuple(self.events))

    def summary(self) -> str:
        """One line: ``ILLEGAL (B8): ...`` or ``LEGAL: event; event``."""
        if not self.legal:
            return f"ILLEGAL ({self.clause}): {self.message}"
        return "LEGAL: " + "; ".join(f"{e.text} ({e.clause})" for e in self.events)


def judge(module: Any, state: Any, move_text: str, seat: int | None = None) -> Answer:
    """The answer for ``move_text`` in ``state``; a move that cannot be read raises
    :class:`~castlerules.core.NotationError`."""
    refused = question(module, state, move_text)  # Throne's C- (B9), Ascent's F0- (A4)
    if refused is not None:
        return Answer(False, refused.clause, str(refused), state, None, None, ())
    move = module.parse_move(state, move_text, check=False)
    try:
        after = module.apply(state, move, seat=seat)
    except IllegalMove as err:
        return Answer(False, err.clause, str(err), state, move, None, ())
    events = tuple(module.describe(state, move, after))
    return Answer(True, None, "", state, move, after, events)


@attrs.frozen(slots=True)
class Start:
    """The position a dispute starts from, as given: a position under the base reading
    (``state``, with the Throne objectives it does not give, ``unknown``), and for a new
    game its players and seed (``new``), which every reading deals its own way."""

    state: Any
    unknown: Unknown = NOTHING_UNKNOWN
    new: tuple[int, int] | None = None

    @classmethod
    def read(
        cls, module: Any, text: str, rules: Any | None = None, *, partial: bool = True
    ) -> Start:
        """The start written ``text``: a position text (``?`` objectives allowed for
        Throne when ``partial``) or ``new:PLAYERS[:SEED]``.  ``rules``, if given, is the
        base reading: a new game is dealt under it, a written position is read under
        it (its rules field rewritten, read back by the game's ``from_text``)."""
        if not isinstance(text, str):
            raise ArgumentError(f"a position is a text, not {type(text).__name__}")
        if text.startswith(NEW_PREFIX):
            count, seed = _new_spec(module, text[len(NEW_PREFIX) :])
            if rules is None:
                rules = module.Rules()
            try:
                state = module.new_game(count, rules=rules, seed=seed)
            except ValueError as err:
                raise ArgumentError(f"{module.NAME}: {err}") from None
            return cls(state, NOTHING_UNKNOWN, (count, seed))
        unknown = NOTHING_UNKNOWN
        try:
            if partial and module.NAME == "throne":
                read = throne_notation.read_partial(text)
                state, unknown = read.state, read.unknown
            else:
                state = module.from_text(text)
        except NotationError as err:
            raise NotationError(f"cannot read the {module.NAME} position: {err}") from None
        if rules is not None:
            state = positions.reinterpret(module, state, rules)
        return cls(state, unknown)

    def text(self, module: Any) -> str:
        """How the start is written: ``new:PLAYERS:SEED``, or its position text."""
        if self.new is not None:
            return f"{NEW_PREFIX}{self.new[0]}:{self.new[1]}"
        return positions.text_of(module, self.state, self.unknown)

    def under(self, module: Any, rules: Any) -> Any:
        """The start under ``rules``: a new game dealt under them, or the written position
        read back under them (:class:`~castlerules.core.RulesError` if it cannot exist)."""
        if self.new is None:
            return positions.reinterpret(module, self.state, rules)
        count, seed = self.new
        if rules == self.state.rules:
            return self.state
        try:
            return module.new_game(count, rules=rules, seed=seed)
        except (RulesError, ValueError) as err:
            raise ArgumentError(
                f"a new game of {count} players cannot start under these rules: {err}"
            ) from None


def _new_spec(module: Any, spec: str) -> tuple[int, int]:
    parts = spec.split(":")
    if len(parts) > 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ArgumentError(
            f"a new game is written new:PLAYERS or new:PLAYERS:SEED, not {NEW_PREFIX}{spec!r}"
        )
    allowed = module.PLAYERS
    if len(parts[0]) > 2 or int(parts[0]) not in allowed:
        shown = parts[0] if len(parts[0]) <= 12 else f"a number of {len(parts[0])} digits"
        raise ArgumentError(
            f"{module.NAME} is played by {allowed.start} to {allowed.stop - 1} players, not {shown}"
        )
    seed = seed_from_text(parts[1], "the seed of new:PLAYERS:SEED") if len(parts) == 2 else 0
    return int(parts[0]), seed


@attrs.frozen(slots=True)
class Replayed:
    """The dispute replayed under one reading: how far it went, and the answer if any."""

    stage: str
    reason: str
    answer: Answer | None
    before: Any | None
    """The position the move is judged in (None where the replay stopped before it)."""
    at: int | None = None
    """The ``--after`` move (from 1) that stopped the replay, if one did."""
    clause: str | None = None
    """The clause of the refusal that stopped the replay (an ``--after`` move's), if any."""


def _scores_unknown(before: Any, after: Any, unknown: Unknown) -> int | None:
    """The round a move scores whose objectives are not all given, or None."""
    if not unknown or not hasattr(after, "results"):
        return None
    if len(after.results) > len(before.results):
        number = int(before.round)
        if any(r == number for r, _ in unknown):
            return number
    return None


def _over_text(module: Any, state: Any) -> str:
    scores = ", ".join(str(s) for s in module.scores(state))
    winners = ", ".join(f"seat {w}" for w in module.winners(state))
    return f"scores {scores}; won by {winners}"


def replay(
    module: Any,
    start: Start,
    rules: Any,
    moves: Sequence[str],
    move_text: str,
    seat: int | None = None,
) -> Replayed:
    """Replay a dispute under ``rules``: the start read under them, each of ``moves``,
    then ``move_text`` judged (by ``seat``, if given)."""
    try:
        state = start.under(module, rules)
    except RulesError as err:
        over = positions.over_instead(module, start.state, rules) if start.new is None else None
        if over is None:
            why = _one_line(err).removeprefix("the position cannot exist under these rules: ")
            what = "position" if start.new is None else "new game"
            return Replayed(
                "position", f"the {what} cannot exist under this reading: {why}", None, None
            )
        answer = judge(module, over, move_text, seat)
        return Replayed(
            "over",
            "the game is already over in this position under this reading (its end test, "
            f"{_end_clause(module)}): {_over_text(module, over)}",
            answer,
            over,
        )
    for number, text in enumerate(moves, start=1):
        shown = _shown(text)
        if module.is_over(state):
            return Replayed(
                "over",
                f"the game is over before --after move {number} ({shown}) under this reading "
                f"({_end_clause(module)}): {_over_text(module, state)}",
                None,
                None,
                number,
            )
        try:
            parsed = module.parse_move(state, text, check=False)
            after = module.apply(state, parsed)
        except NotationError as err:
            return Replayed(
                "after",
                f"--after move {number} ({shown}) cannot be read under this reading: "
                f"{_one_line(err)}",
                None,
                None,
                number,
            )
        except IllegalMove as err:
            return Replayed(
                "after",
                f"--after move {number} ({shown}) is illegal under this reading: {_one_line(err)}",
                None,
                None,
                number,
                err.clause,
            )
        scored = _scores_unknown(state, after, start.unknown)
        if scored is not None:
            return Replayed(
                "unknown",
                f"--after move {number} ({shown}) scores round {scored} under this reading, and "
                "its scores depend on objectives the position does not give",
                None,
                None,
                number,
            )
        state = after
    if module.is_over(state):
        return Replayed(
            "over",
            f"the game is already over there under this reading ({_end_clause(module)}): "
            f"{_over_text(module, state)}",
            judge(module, state, move_text, seat),
            state,
        )
    try:
        answer = judge(module, state, move_text, seat)
    except NotationError as err:
        return Replayed(
            "move",
            f"{_shown(move_text)} cannot be read under this reading: {_one_line(err)}",
            None,
            state,
        )
    if answer.legal:
        scored = _scores_unknown(state, answer.after, start.unknown)
        if scored is not None:
            return Replayed(
                "unknown",
                f"{_shown(move_text)} scores round {scored} under this reading, and its scores "
                "depend on objectives the position does not give",
                answer,
                state,
            )
    return Replayed("move", "", answer, state)


def _end_clause(module: Any) -> str:
    return "A14" if module.NAME == "ascent" else "B3, B16"


def _one_line(err: BaseException) -> str:
    return _shown(" ".join((str(err) or type(err).__name__).split()))


def _shown(text: str) -> str:
    """``text`` with every character that is not printable escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


@attrs.frozen(slots=True)
class Row:
    """The dispute under one other reading, compared with the base."""

    label: str
    rules: Any | None
    status: str
    """``agrees``, ``disagrees``, ``cannot apply`` or ``depends``."""
    stage: str
    """Where the replay ended: ``move`` (the move was judged), ``position`` (the position
    cannot exist under the reading), ``over`` (the game is already over there),
    ``after`` (an ``--after`` move is illegal or unreadable), ``rules`` (not a valid
    combination of options), ``unknown`` (the answer depends on objectives not given)."""
    reason: str
    """Why it disagrees, cannot apply or depends, in one line ("" when it simply agrees)."""
    answer: Answer | None
    at: int | None = None
    """The ``--after`` move (from 1) that stopped the replay, if one did."""
    clause: str | None = None
    """The clause of the refusal of that ``--after`` move, if one stopped the replay."""
    differences: tuple[str, ...] = ()
    """How the position the move is judged in differs from the base's (field by field)."""

    @property
    def agrees(self) -> bool:
        return self.status == AGREES


@attrs.frozen(slots=True)
class Comparison:
    """A dispute's answer under the base reading and under every other reading."""

    module: Any
    base_label: str
    start: Start
    moves: tuple[str, ...]
    move: str
    seat: int | None
    base: Answer
    rows: tuple[Row, ...]
    not_varied: tuple[str, ...]
    excluded: tuple[tuple[str, str], ...]

    @property
    def disagreeing(self) -> tuple[Row, ...]:
        """The readings whose answer differs from the base's (or that give none)."""
        return self.with_status(DISAGREES)

    def with_status(self, status: str) -> tuple[Row, ...]:
        """The rows of one status."""
        return tuple(r for r in self.rows if r.status == status)

    def row(self, label: str) -> Row:
        """The row of the reading ``label`` (KeyError if none)."""
        for row in self.rows:
            if row.label == label:
                return row
        raise KeyError(label)

    def _position(self, state: Any) -> str:
        return positions.text_of(self.module, state, self.start.unknown)

    def what(self) -> str:
        """The dispute in words: ``the position, the 13 moves of --after, then M+``."""
        parts = [
            "the position"
            if self.start.new is None
            else f"the new game {self.start.text(self.module)}"
        ]
        if self.moves:
            count = len(self.moves)
            parts.append(f"the {count} move{'s' if count > 1 else ''} of --after")
        return ", ".join(parts) + f", then {_shown(self.move)}"

    def lines(self, *, verbose: bool = False) -> list[str]:
        """The comparison for a reader: the readings that disagree (each with its answer
        and why), those that agree, those that cannot apply (with the reason); with
        ``verbose`` also the options that are not varied, and why."""
        tried = [r for r in self.rows if r.status != CANNOT_APPLY]
        lines = [
            f"Compared under {len(tried)} other readings (base: {self.base_label}), each "
            f"replaying the dispute: {self.what()}:"
        ]
        disagree = self.disagreeing
        if not disagree:
            lines.append("  none disagrees with the base.")
        else:
            word = "disagrees" if len(disagree) == 1 else "disagree"
            lines.append(f"  {len(disagree)} {word} with the base:")
            lines.extend(self._answer_lines(f"{self.base_label} (base)", self.base))
            for row in disagree:
                lines.extend(self._row_lines(row))
        agree = self.with_status(AGREES)
        if agree:
            every = " (all of them)" if len(agree) == len(tried) else ""
            lines.append(
                f"  {len(agree)} agree{'s' if len(agree) == 1 else ''} with the base{every}: "
                + ", ".join(r.label for r in agree)
            )
            for row in agree:
                if row.differences:
                    lines.append(
                        f"    {row.label}: the same answer, though the position before the "
                        f"move differs: {'; '.join(row.differences)}"
                    )
        for row in self.with_status(DEPENDS):
            lines.append(f"  cannot tell under {row.label}: {row.reason}")
        cannot = self.with_status(CANNOT_APPLY)
        if cannot:
            lines.append(f"  {len(cannot)} cannot apply here:")
            lines.extend(f"    {row.label}: {row.reason}" for row in cannot)
        if not verbose:
            count = len(self.not_varied) + len(self.excluded)
            if count:
                lines.append(
                    f"  ({count} options not varied, having no other reading: --verbose lists "
                    "them and why)"
                )
            return lines
        if self.not_varied:
            lines.append(
                "  not varied (numbers of the game, no alternative reading; try one with "
                "--option): " + ", ".join(self.not_varied)
            )
        for name, why in self.excluded:
            lines.append(f"  not varied: {name}: {why}")
        return lines

    def _answer_lines(self, label: str, answer: Answer, legal: str = "LEGAL") -> list[str]:
        if not answer.legal:
            return [f"    {label}: ILLEGAL: {answer.message}"]
        out = [f"    {label}: {legal}:", *(f"      - {e}" for e in answer.events)]
        out.append(f"      position after: {self._position(answer.after)}")
        return out

    def _row_lines(self, row: Row) -> list[str]:
        if row.stage in ("position", "after", "rules") or row.answer is None:
            return [f"    {row.label}: {row.reason}"]
        out = self._answer_lines(row.label, row.answer)
        out.append(f"      why: {row.reason}")
        return out

    def data(self) -> dict[str, Any]:
        """The comparison as JSON data (see the CLI page of the documentation)."""
        return {
            "base": self.base_label,
            "dispute": {
                "new_game": None if self.start.new is None else self.start.text(self.module),
                "after_moves": list(self.moves),
                "move": self.move,
                "seat": self.seat,
            },
            "base_answer": self._answer_data(self.base, position=False),
            "readings": [self._row_data(row) for row in self.rows],
            "disagree": [r.label for r in self.disagreeing],
            "agree": [r.label for r in self.with_status(AGREES)],
            "cannot_apply": [
                {"reading": r.label, "reason": r.reason} for r in self.with_status(CANNOT_APPLY)
            ],
            "depends": [
                {"reading": r.label, "reason": r.reason} for r in self.with_status(DEPENDS)
            ],
            "not_varied": list(self.not_varied),
            "excluded": [{"option": k, "reason": v} for k, v in self.excluded],
        }

    def _answer_data(self, answer: Answer, *, position: bool = True) -> dict[str, Any]:
        if not answer.legal:
            return {
                "legal": False,
                "clause": answer.clause,
                "message": answer.message,
                "summary": answer.summary(),
            }
        data: dict[str, Any] = {
            "legal": True,
            "events": [{"clause": e.clause, "text": e.text} for e in answer.events],
            "next_player": self.module.current_player(answer.after),
            "over": self.module.is_over(answer.after),
            "summary": answer.summary(),
        }
        if position:  # a whole position (a seat's secrets included): "after" only
            data["after"] = self._position(answer.after)
        return data

    def _row_data(self, row: Row) -> dict[str, Any]:
        item: dict[str, Any] = {
            "reading": row.label,
            "status": row.status,
            "agrees": row.agrees,
            "applicable": row.status != CANNOT_APPLY,
            "stage": row.stage,
            "reason": row.reason,
            "at_move": row.at,
            "differences": list(row.differences),
        }
        if row.clause is not None:
            item["clause"] = row.clause
        if row.answer is not None:
            item.update(self._answer_data(row.answer))
        else:
            item["legal"] = None
            item["summary"] = row.reason
        return item


def _why(module: Any, base: Answer, answer: Answer, move: str, unknown: Unknown) -> str:
    """Why ``answer`` differs from ``base``, in one line."""
    if base.legal and not answer.legal:
        return f"{move} is illegal under this reading ({answer.clause}); the base plays it"
    if not base.legal and answer.legal:
        return f"{move} is legal under this reading; the base refuses it ({base.clause})"
    if not base.legal:
        if answer.clause != base.clause:
            return f"refused by another rule: {answer.clause} (the base: {base.clause})"
        return f"refused by the same rule ({answer.clause}), for another reason"
    if tuple(answer.events) != tuple(base.events):
        return "legal under both, with other events"
    mine = positions.board_text(module, base.after, unknown)
    theirs = positions.board_text(module, answer.after, unknown)
    changes = positions.differences(
        module, module.to_text(base.after), module.to_text(answer.after)
    )
    if mine == theirs or not changes:
        return "legal under both, the same events and position"
    return "legal under both, the same events, another resulting position: " + "; ".join(changes)


def compare(
    module: Any,
    start: Start,
    *,
    move: str,
    moves: Sequence[str] = (),
    rules: Any | None = None,
    preset: str | None = None,
    seat: int | None = None,
) -> Comparison:
    """Replay the dispute (``start``, then ``moves``, then ``move`` by ``seat``) under the
    base reading ``rules`` (default: the start's; ``preset``, the preset it is named
    after) and under every other reading, and compare the answers.

    The base replay must go through: an ``--after`` move it refuses, or a move it
    cannot read, is an :class:`~castlerules.core.ArgumentError` (a NotationError).
    """
    if not isinstance(start, Start):
        raise ArgumentError(
            f"start must be a Start (Start.read reads one), not {type(start).__name__}"
        )
    if not isinstance(move, str):
        raise ArgumentError(
            f"the move must be a text in the game's notation, not {type(move).__name__}"
        )
    try:
        listed = None if isinstance(moves, str | bytes) else tuple(moves)
    except TypeError:
        listed = None
    if listed is None or not all(isinstance(m, str) for m in listed):
        raise ArgumentError("moves must be a sequence of move texts, e.g. ['A1', 'B1']")
    if rules is None:
        rules = start.state.rules
    elif not isinstance(rules, module.Rules):
        raise ArgumentError(f"rules must be {module.NAME}.Rules, not {type(rules).__name__}")
    moves = listed
    base = replay(module, start, rules, moves, move, seat)
    if base.answer is None or base.stage in ("position", "after", "unknown"):
        raise ArgumentError(f"the dispute does not replay under its own reading: {base.reason}")
    unknown = start.unknown
    base_key = base.answer.key(module, unknown)
    base_before = base.before
    base_preset, base_options = records.rules_preset_and_options(module, rules, preset)
    found, not_varied, excluded, refused = readings_of(
        module, rules, base_preset, dict(base_options)
    )
    rows = []
    for reading in found:
        done = replay(module, start, reading.rules, moves, move, seat)
        differences: tuple[str, ...] = ()
        if done.before is not None and base_before is not None:
            differences = positions.differences(
                module, module.to_text(base_before), module.to_text(done.before)
            )
        if done.stage == "unknown":
            status = DEPENDS
            reason = done.reason
        elif done.answer is not None and done.answer.key(module, unknown) == base_key:
            status, reason = AGREES, ""
        elif done.stage != "move" or done.answer is None:
            status, reason = DISAGREES, done.reason
        else:
            status = DISAGREES
            reason = _why(module, base.answer, done.answer, _shown(move), unknown)
            same_play = done.answer.legal and base.answer.legal
            if differences and same_play and done.answer.events == base.answer.events:
                reason = "legal under both, with the same events, from another position: "
                reason += "; ".join(differences)
            elif differences:
                reason += "; the position before the move differs: " + "; ".join(differences)
        rows.append(
            Row(
                reading.label,
                reading.rules,
                status,
                done.stage,
                reason,
                done.answer,
                done.at,
                done.clause,
                differences,
            )
        )
    for label, err in refused:
        rows.append(
            Row(
                label,
                None,
                CANNOT_APPLY,
                "rules",
                f"not a valid combination with the other options: {_one_line(err)}",
                None,
            )
        )
    return Comparison(
        module=module,
        base_label=rules_label(module, rules, preset),
        start=start,
        moves=moves,
        move=move,
        seat=seat,
        base=base.answer,
        rows=tuple(rows),
        not_varied=tuple(not_varied),
        excluded=tuple(excluded),
    )
