"""``explain --compare``: the same question under every reading that could matter.

The readings tried, besides the one chosen (the *base*), are those of
:func:`castlerules.register.readings.readings_of`: every other preset (with
the options given on the command line, when they fit it) and each alternative
value worth trying of every option (the register's readings).  The options
with no alternative reading are not varied (they are listed as such; set them
with ``--option`` to try a value), and the register's excluded options are
never varied, with the reason.

Two readings agree when the move is illegal under both for the same clause,
or legal under both with the same events and the same resulting position.
Only the readings that can apply are shown: a reading under which the
position cannot exist or the move cannot be read, and a change of one option
that the other options forbid (whatever the option), are counted in one line
and listed, with the reason, under ``--verbose``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from castlerules import records
from castlerules.cli import common, positions
from castlerules.core import ArgumentError, RulesError
from castlerules.register.readings import Alternative, readings_of


@attrs.frozen(slots=True)
class Row:
    """The answer under one reading (``outcome`` None: not applicable, see ``note``)."""

    reading: Alternative
    outcome: Any
    note: str
    agrees: bool


@attrs.frozen(slots=True)
class Comparison:
    """The base answer and the answer under each other reading."""

    base: Any
    base_label: str
    rows: tuple[Row, ...]
    not_varied: tuple[str, ...]
    excluded: tuple[tuple[str, str], ...]
    invalid: tuple[tuple[str, str], ...]
    unknown: positions.Unknown = positions.NOTHING_UNKNOWN

    @property
    def disagreeing(self) -> tuple[Row, ...]:
        """The readings whose answer differs from the base's."""
        return tuple(r for r in self.rows if r.outcome is not None and not r.agrees)

    def text(self, module: Any, *, verbose: bool = False) -> str:
        """The comparison for a reader: the answer first; with ``verbose`` also the
        options that are not varied and why (otherwise one line counts them)."""
        tried = [r for r in self.rows if r.outcome is not None]
        lines = ["", f"Compared under {len(tried)} other readings (base: {self.base_label}):"]
        if not self.disagreeing:
            lines.append("  all of them agree with the base.")
        else:
            lines.append(f"  {len(self.disagreeing)} disagree with the base:")
            lines.extend(_summary(module, f"{self.base_label} (base)", self.base))
            for row in self.disagreeing:
                lines.extend(_difference(module, self.base, row, self.unknown))
            agree = [r.reading.label for r in tried if r.agrees]
            if agree:
                lines.append("  agree with the base: " + ", ".join(agree))
        cannot = [r for r in self.rows if r.outcome is None]
        if not verbose:
            count = len(self.not_varied) + len(self.excluded)
            if cannot or self.invalid:
                n = len(cannot) + len(self.invalid)
                what = "1 other reading cannot" if n == 1 else f"{n} other readings cannot"
                lines.append(f"  ({what} apply here: --verbose lists them and why)")
            if count:
                lines.append(
                    f"  ({count} options not varied, having no other reading: --verbose "
                    "lists them and why)"
                )
            return "\n".join(lines) + "\n"
        for row in cannot:
            lines.append(f"  not applicable: {row.reading.label}: {row.note}")
        for label, why in self.invalid:
            lines.append(f"  not a valid combination: {label}: {why}")
        if self.not_varied:
            lines.append(
                "  not varied (numbers of the game, no alternative reading; try one with "
                "--option): " + ", ".join(self.not_varied)
            )
        for name, why in self.excluded:
            lines.append(f"  not varied: {name}: {why}")
        return "\n".join(lines) + "\n"

    def data(self, module: Any) -> dict[str, Any]:
        """The comparison as JSON data."""
        rows = []
        for row in self.rows:
            item: dict[str, Any] = {"reading": row.reading.label}
            if row.outcome is None:
                item["applicable"] = False
                item["note"] = row.note
            else:
                item.update(_outcome_data(module, row.outcome, self.unknown))
                item["agrees"] = row.agrees
            rows.append(item)
        return {
            "base": self.base_label,
            "readings": rows,
            "disagree": [r.reading.label for r in self.disagreeing],
            "invalid": [{"reading": k, "error": v} for k, v in self.invalid],
            "not_varied": list(self.not_varied),
            "excluded": [{"option": k, "reason": v} for k, v in self.excluded],
        }


def _outcome_data(module: Any, outcome: Any, unknown: positions.Unknown) -> dict[str, Any]:
    if not outcome.legal:
        return {"legal": False, "clause": outcome.clause, "message": outcome.message}
    return {
        "legal": True,
        "events": common.event_data(outcome.events),
        "after": positions.text_of(module, outcome.after, unknown),
    }


def _summary(module: Any, label: str, outcome: Any, legal: str = "LEGAL") -> list[str]:
    if not outcome.legal:
        return [f"    {label}: ILLEGAL: {outcome.message}"]
    return [f"    {label}: {legal}:", *common.event_lines(outcome.events, "      - ")]


def _difference(module: Any, base: Any, row: Row, unknown: positions.Unknown) -> list[str]:
    outcome = row.outcome
    label = row.reading.label
    if not outcome.legal or not base.legal:
        return _summary(module, label, outcome)
    if tuple(outcome.events) != tuple(base.events):
        return _summary(module, label, outcome, "LEGAL, but other events")
    mine = positions.board_text(module, base.after, unknown).split(" ")
    theirs = positions.board_text(module, outcome.after, unknown).split(" ")
    changes = [f"{a} -> {b}" for a, b in zip(mine, theirs, strict=False) if a != b] or [
        "(the rules only)"
    ]
    return [
        f"    {label}: LEGAL, same events, but another resulting position ({'; '.join(changes)}):",
        f"      {positions.board_text(module, outcome.after, unknown)}",
    ]


def compare(
    module: Any,
    state: Any,
    rules: Any,
    preset: str | None,
    *,
    move_text: str,
    seat: int | None,
    judge: Callable[[Any, Any, str, int | None], Any],
    unknown: positions.Unknown = positions.NOTHING_UNKNOWN,
) -> Comparison:
    """Judge ``move_text`` in ``state`` under every reading; compare with the base.

    With objectives not given (``unknown``), a reading under which the move
    scores their round is refused (ArgumentError): its answer would depend on them.
    """
    base_preset, base_options = records.rules_preset_and_options(module, rules, preset)
    options = dict(base_options)
    base = judge(module, state, move_text, seat)
    base_key = base.key(module)
    found, not_varied, excluded, refused = readings_of(module, rules, base_preset, options)
    invalid = [(label, common.safe_error(err)) for label, err in refused]
    rows = []
    for reading in found:
        try:
            other_state = positions.reinterpret(module, state, reading.rules)
        except RulesError as err:
            rows.append(Row(reading, None, common.safe_error(err), False))
            continue
        try:
            outcome = judge(module, other_state, move_text, seat)
        except RulesError as err:
            rows.append(Row(reading, None, f"the move cannot be read: {err}", False))
            continue
        if unknown and outcome.legal:
            number = len(other_state.results) + 1
            if len(outcome.after.results) >= number and any(r == number for r, _ in unknown):
                raise ArgumentError(
                    f"--compare: under {reading.label} this move scores round {number}, and "
                    "the scores depend on objectives the position does not give: give them "
                    "to compare readings"
                )
        rows.append(Row(reading, outcome, "", outcome.key(module) == base_key))
    return Comparison(
        base=base,
        base_label=common.rules_label(module, rules, preset),
        rows=tuple(rows),
        not_varied=tuple(not_varied),
        excluded=tuple(excluded),
        invalid=tuple(invalid),
        unknown=unknown,
    )
