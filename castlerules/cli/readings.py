"""``explain --compare``: the same question under every reading that could matter.

The readings tried, besides the one chosen (the *base*):

- every preset of the game (with the options given on the command line, when
  they fit it);
- for every option of ``Rules``, each alternative value worth trying: a
  boolean flipped; ``None`` for an optional number (and 1 for ``None``); the
  value the option has in another preset; and the values listed in
  :data:`EXTRA` (documented alternatives such as Ascent's upper half starting
  at square 5).

Options that are numbers of the material or of the table (how many
characters, floors, points...) have no alternative reading and are not
varied (they are listed as such; set them with ``--option`` to try a value),
and :data:`EXCLUDED` options are never varied, with the reason: a wrong
reading kept for the proofs, or an option that an interpretation note names
but whose value the seed fixes (so that the register says why it shows no
other reading).

Two readings agree when the move is illegal under both for the same clause,
or legal under both with the same events and the same resulting position.
Only the readings that can apply are shown: a reading under which the
position cannot exist or the move cannot be read, and a change of one option
that the other options forbid (whatever the option), are counted in one line
and listed, with the reason, under ``--verbose``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from castlerules import options_text, records
from castlerules.cli import common, positions
from castlerules.core import ArgumentError, RulesError

EXTRA: Mapping[str, Mapping[str, tuple[object, ...]]] = {
    "ascent": {
        # "la moitié supérieure" of a path of 7 squares: 4-7 (default) or 5-7.
        "upper_half": (5,),
        "favours_per_move": (None,),
        "die": ("none",),
        "end_test": ("unflipped", "can_move"),
        "stack_rank": ("highest",),
        "favour_takes": ("all_lower",),
        "penalty_to": ("owner",),
    },
    "throne": {
        "placement_floors": ((2, 3, 4, 5),),
    },
}
"""Documented alternative values of some options, per game."""

EXCLUDED: Mapping[str, Mapping[str, str]] = {
    "ascent": {
        "protection": "protection=false is not a reading of the seed: it exists for the "
        "proofs' sensitivity tests (see Rules)",
        "arrival": "no other reading of the seed: A7 and A9 need arrival squares that rise "
        "with the rank, one rank per square, and the Prince's is the end of the path of 7 "
        "squares (A5; nothing can protect a Prince above it); value + 1 puts the six ranks on "
        "squares 2-7 and the seed names no other placement, so another one (a rank on square "
        "1, a square between left to no rank) is a variant, not a reading",
        "squares": "a number of the material, not a reading: the seed says 'Le chemin ... "
        "est de 7 cases' (A5); other lengths are variants (and the proofs' small models)",
        "cards": "not a reading of the seed: a subset of the cards in play exists for the "
        "exhaustive engine-kernel tie's small games (see Rules); the seed deals every card "
        "of every set in play (A18)",
    },
    "throne": {
        "rounds": "a number of the game, not a reading: the seed says 'Le jeu se joue en "
        "trois manches' (B3); other counts are variants",
        "objective_deck": "material, not a reading: the seed does not list the objective "
        "cards, so by default every seat gets a random set of six distinct from the others'; "
        "objective_deck lists the cards of a physical box to deal from instead. Any deck deals "
        "other objectives from the same seed, so the two differ from the first position on",
        "bonus_rounds": "no other reading of the seed: 'au troisième et dernier décompte' "
        "(B15) names the third round, which is also the last; the option only matters for "
        "variants with another number of rounds",
    },
}
"""Options never varied, per game, with the reason."""


@attrs.frozen(slots=True)
class Reading:
    """One reading to try: a label (``ORIGINAL``, ``allow_pass=true``) and its rules."""

    label: str
    rules: Any


@attrs.frozen(slots=True)
class Row:
    """The answer under one reading (``outcome`` None: not applicable, see ``note``)."""

    reading: Reading
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


def _alternatives(module: Any, name: str, value: object, presets: list[Any]) -> list[object]:
    """The values of option ``name`` worth trying instead of ``value``."""
    out: list[object] = []
    if isinstance(value, bool):
        out.append(not value)
    elif value is None:
        if _accepts_int(module, name):
            out.append(1)
    elif _optional(module, name):
        out.append(None)
    for rules in presets:
        out.append(getattr(rules, name))
    out.extend(EXTRA.get(module.NAME, {}).get(name, ()))
    unique: list[object] = []
    for candidate in out:
        if candidate != value and candidate not in unique:
            unique.append(candidate)
    return unique


def _kinds(module: Any, name: str) -> list[str]:
    tp = options_text.field_types(module.Rules)[name]
    return options_text.describe_type(tp).split(" or ")


def _optional(module: Any, name: str) -> bool:
    return "none" in _kinds(module, name)


def _accepts_int(module: Any, name: str) -> bool:
    return "an integer" in _kinds(module, name)


def readings_of(
    module: Any, rules: Any, preset: str | None, options: Mapping[str, object]
) -> tuple[list[Reading], list[str], list[tuple[str, str]], list[tuple[str, str]]]:
    """The readings to try: ``(readings, not varied, excluded, invalid combinations)``."""
    names = records.preset_names(module)
    preset_rules = [module.Rules.preset(n) for n in names]
    found: list[Reading] = []
    seen: list[Any] = [rules]
    invalid: list[tuple[str, str]] = []

    def add(label: str, candidate: Any) -> None:
        if candidate not in seen:
            seen.append(candidate)
            found.append(Reading(label, candidate))

    for name, base in zip(names, preset_rules, strict=True):
        if name == preset:
            continue
        try:
            candidate = common.with_options(module, base, options)
            label = name + ("" if not options else " + the options given")
        except RulesError:
            candidate, label = base, name
        add(label, candidate)
    excluded = {**EXCLUDED.get(module.NAME, {}), **getattr(module.Rules, "UNPLAYABLE", {})}
    not_varied: list[str] = []
    for field in attrs.fields(module.Rules):
        if field.name in excluded:
            continue
        value = getattr(rules, field.name)
        others = _alternatives(module, field.name, value, preset_rules)
        if not others:
            not_varied.append(field.name)
        for other in others:
            label = f"{field.name}={options_text.to_text(other)}"
            try:
                candidate = common.with_options(module, rules, {field.name: other})
            except RulesError as err:
                invalid.append((label, common.safe_error(err)))
                continue
            add(label, candidate)
    return found, not_varied, sorted(excluded.items()), invalid


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
    found, not_varied, excluded, invalid = readings_of(module, rules, base_preset, options)
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
