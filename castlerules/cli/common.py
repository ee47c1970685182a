"""What the sub-commands share: the games by name, rules from the command line, output.

Every function here reports bad input as a :class:`~castlerules.core.RulesError`
(usually :class:`~castlerules.core.ArgumentError`), which ``main`` prints in
one line with exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from castlerules import options_text, records
from castlerules.core import CLAUSES, ArgumentError, Event

GAMES: Mapping[str, Any] = records.GAMES
"""The game modules, by name."""

EXIT_OK = 0
"""Success (``explain``: the move is legal; ``replay``: every move is legal)."""
EXIT_ILLEGAL = 1
"""``explain``: the move is illegal; ``replay``: the record holds an illegal move."""
EXIT_BAD_INPUT = 2
"""Bad input: unknown game or option, malformed position or move, unreadable record."""
EXIT_INTERNAL = 3
"""An unexpected error inside castlerules (a bug: please report it)."""


def game_module(name: str) -> Any:
    """The game module called ``name``; an unknown name lists the games."""
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise ArgumentError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}") from None


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules PRESET`` and ``--option NAME=VALUE`` (repeatable)."""
    parser.add_argument(
        "--rules",
        metavar="PRESET",
        help="a named reading (throne: SEED, ORIGINAL; ascent: DEFAULT, ...); default: the "
        "reference reading",
    )
    parser.add_argument(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="set one rules option (repeatable), e.g. allow_pass=true, favours_per_move=none",
    )


def parse_options(module: Any, texts: Sequence[str]) -> dict[str, object]:
    """The typed options of ``--option`` texts; a repeated option is refused."""
    options: dict[str, object] = {}
    for text in texts:
        try:
            name, value = options_text.parse_assignment(module.Rules, text)
        except ArgumentError as err:
            raise ArgumentError(f"{module.NAME}: {err}") from None
        if name in options:
            raise ArgumentError(f"option {name} is given twice")
        options[name] = value
    return options


def preset_of(module: Any, preset: str | None) -> str:
    """The preset name to use: the one given (any case), or the game's default reading."""
    names = records.preset_names(module)
    if preset is None:
        default = module.Rules()
        for name in names:
            if module.Rules.preset(name) == default:
                return name
        return names[0]
    for name in names:
        if name.lower() == preset.lower():
            return name
    raise ArgumentError(
        f"unknown preset {preset!r} for {module.NAME}; the presets are: {', '.join(names)}"
    )


def rules_from_args(module: Any, args: argparse.Namespace) -> tuple[str, Any]:
    """The preset name and the ``Rules`` given by ``--rules`` and ``--option``."""
    preset = preset_of(module, args.rules)
    options = parse_options(module, args.option)
    return preset, records.build_rules(module, preset, options)


def with_options(module: Any, rules: Any, options: Mapping[str, object]) -> Any:
    """``rules`` with some options changed (checked by the game's ``Rules``)."""
    if not options:
        return rules
    merged = {name: getattr(rules, name) for name in options_text.option_names(module.Rules)}
    merged.update(options)
    return module.Rules(**merged)


def rules_label(module: Any, rules: Any, preset: str | None = None) -> str:
    """A short name of a reading: ``SEED`` or ``SEED + allow_pass=true``."""
    name, options = records.rules_preset_and_options(module, rules, preset)
    if not options:
        return name
    return name + " + " + ", ".join(f"{k}={options_text.to_text(v)}" for k, v in options)


def read_text_argument(value: str, what: str) -> str:
    """A command-line text: itself, ``-`` for standard input, ``@FILE`` for a file's text."""
    if value == "-":
        text = sys.stdin.read()
    elif value.startswith("@"):
        path = value[1:]
        try:
            with open(path, encoding="utf-8") as src:
                text = src.read(1 << 20)
        except (OSError, UnicodeDecodeError) as err:
            why = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
            raise ArgumentError(f"cannot read the {what} from {path!r}: {why}") from None
    else:
        return value
    return text.strip()


def clause_line(clause_id: str) -> str:
    """``B6: Placement phase, in turn, only on floors 1-5.`` (the clause's summary)."""
    known = CLAUSES.get(clause_id)
    return f"{clause_id}: {known.summary}" if known else clause_id


def clause_french(clause_id: str, width: int = 76) -> list[str]:
    """The French text of a clause, quoted and wrapped, as lines."""
    known = CLAUSES.get(clause_id)
    if known is None:
        return []
    lines: list[str] = []
    for para in known.french.splitlines():
        lines.extend(textwrap.wrap(para, width - 4) or [""])
    return ["  « " + lines[0], *("    " + line for line in lines[1:])]


def event_lines(events: Iterable[Event], indent: str = "  - ") -> list[str]:
    """One line per event: ``  - C climbs to floor 6 (B8)``."""
    return [f"{indent}{event}" for event in events]


def event_data(events: Iterable[Event]) -> list[dict[str, str]]:
    """Events as JSON data: ``[{"clause": "B8", "text": "..."}]``."""
    return [{"clause": e.clause, "text": e.text} for e in events]


def write_file(path: str, text: str, what: str) -> None:
    """Write ``text`` to ``path``; failure is an ArgumentError naming the file."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as err:
        raise ArgumentError(f"cannot write the {what} to {path!r}: {err.strerror}") from None


def unused_path(path: str) -> str:
    """``path`` if no file has that name, else ``path`` with ``-1``, ``-2``... before the suffix."""
    if not os.path.exists(path):
        return path
    stem, dot, suffix = path.rpartition(".")
    if not dot:
        stem, suffix = path, ""
    i = 1
    while True:
        candidate = f"{stem}-{i}.{suffix}" if suffix else f"{stem}-{i}"
        if not os.path.exists(candidate):
            return candidate
        i += 1


def seat_list(seats: Iterable[int]) -> str:
    """``seat 2`` or ``seats 0, 2``."""
    seats = list(seats)
    word = "seat" if len(seats) == 1 else "seats"
    return f"{word} " + ", ".join(str(s) for s in seats)


def safe_error(err: BaseException) -> str:
    """The one-line message of an error (newlines folded)."""
    text = str(err) or type(err).__name__
    return " ".join(text.split())


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_ILLEGAL",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "GAMES",
    "add_rules_arguments",
    "clause_french",
    "clause_line",
    "event_data",
    "event_lines",
    "game_module",
    "parse_options",
    "preset_of",
    "read_text_argument",
    "rules_from_args",
    "rules_label",
    "safe_error",
    "seat_list",
    "unused_path",
    "with_options",
    "write_file",
]
