"""The readings worth trying of a game's rules: the register's and ``explain --compare``'s.

Besides a *base* reading (a ``Rules``, possibly a preset), the readings are:

- every other preset of the game (with the options given, when they fit it);
- for every option of ``Rules``, each alternative value worth trying: a
  boolean flipped; ``None`` for an optional number (and 1 for ``None``); the
  value the option has in another preset; and the alternatives its
  declaration lists (:func:`alternatives_of`: such as Ascent's upper half
  starting at square 5).

Options that are numbers of the material or of the table (how many
characters, floors, points...) have no alternative reading and are not
varied (:func:`readings_of` lists them as such), and the options
:func:`excluded_of` names are never varied, with the reason: a wrong reading
kept for the proofs, or an option that an interpretation note names but whose
value the seed fixes (so
that the register says why it shows no other reading).

The register (:func:`castlerules.register.open_points`) takes its readings
from here, and so does the command line's ``explain --compare``
(``castlerules.cli.readings``), so that the two agree on what the readings are.

>>> from castlerules import throne
>>> found, not_varied, excluded, invalid = readings_of(throne, throne.Rules(), None, {})
>>> [r.label for r in found if r.label.startswith("allow_pass")]
['allow_pass=true']
>>> "rounds" in dict(excluded)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from castlerules import options_text, records
from castlerules.core import RulesError

__all__ = ["Alternative", "alternatives_of", "excluded_of", "readings_of", "with_options"]


def alternatives_of(module: Any) -> dict[str, tuple[object, ...]]:
    """The documented alternative values of a game's options (each option's declaration,
    :attr:`castlerules.core.Option.alternatives`), by option, where it has some."""
    return {o.name: o.alternatives for o in module.Rules.OPTIONS if o.alternatives}


def excluded_of(module: Any) -> dict[str, str]:
    """The options never varied, with the reason: each declaration's ``fixed``, and each
    ``unplayable`` reading (:class:`castlerules.core.Option`)."""
    out: dict[str, str] = {}
    for option in module.Rules.OPTIONS:
        if option.fixed is not None:
            out[option.name] = option.fixed
        elif option.unplayable is not None:
            out[option.name] = option.unplayable[1]
    return out


@attrs.frozen(slots=True)
class Alternative:
    """One reading to try: a label (``ORIGINAL``, ``allow_pass=true``) and its rules."""

    label: str
    rules: Any


def with_options(module: Any, rules: Any, options: Mapping[str, object]) -> Any:
    """``rules`` with some options changed (checked by the game's ``Rules``)."""
    if not options:
        return rules
    merged = {name: getattr(rules, name) for name in options_text.option_names(module.Rules)}
    merged.update(options)
    return module.Rules(**merged)


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
    out.extend(alternatives_of(module).get(name, ()))
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
) -> tuple[list[Alternative], list[str], list[tuple[str, str]], list[tuple[str, RulesError]]]:
    """The readings to try besides ``rules`` (the base, of preset ``preset`` with
    ``options`` given): ``(readings, not varied, excluded, invalid combinations)``.

    ``not varied`` names the options with no alternative value, ``excluded`` pairs
    each option :func:`excluded_of` names with its reason, and ``invalid`` pairs each
    change of one option that the other options forbid with the error its ``Rules`` raised.
    """
    names = records.preset_names(module)
    preset_rules = [module.Rules.preset(n) for n in names]
    found: list[Alternative] = []
    seen: list[Any] = [rules]
    invalid: list[tuple[str, RulesError]] = []

    def add(label: str, candidate: Any) -> None:
        if candidate not in seen:
            seen.append(candidate)
            found.append(Alternative(label, candidate))

    for name, base in zip(names, preset_rules, strict=True):
        if name == preset:
            continue
        try:
            candidate = with_options(module, base, options)
            label = name + ("" if not options else " + the options given")
        except RulesError:
            candidate, label = base, name
        add(label, candidate)
    excluded = excluded_of(module)
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
                candidate = with_options(module, rules, {field.name: other})
            except RulesError as err:
                invalid.append((label, err))
                continue
            add(label, candidate)
    return found, not_varied, sorted(excluded.items()), invalid
