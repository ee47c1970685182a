"""What the sub-commands share: the games by name, rules from the command line, output.

Every function here reports bad input as a :class:`~castlerules.core.RulesError`
(usually :class:`~castlerules.core.ArgumentError`), which ``main`` prints in
one line with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from castlerules import options_text, records
from castlerules.casebook import questions
from castlerules.core import CLAUSES, ArgumentError, Event, IllegalMove, seed_from_text
from castlerules.register import dispute
from castlerules.register.readings import with_options

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
EXIT_INTERRUPTED = 130
"""Interrupted (Control-C), as a shell reports it."""

EXIT_STATUSES: tuple[tuple[int, str], ...] = (
    (EXIT_OK, "legal, or done"),
    (
        EXIT_ILLEGAL,
        "an illegal move was found (explain, replay, cases verify)"
        " or an engine parts from the reference (conform)",
    ),
    (EXIT_BAD_INPUT, "bad input, or a file that exists already (one line on standard error)"),
    (EXIT_INTERNAL, "an internal error, a bug (CASTLERULES_DEBUG=1 shows its traceback)"),
    (EXIT_INTERRUPTED, "interrupted (Control-C)"),
)
"""The one list of exit statuses of every command: the help, the README and the docs
say it in these words (:func:`exit_status_text`)."""


def exit_status_text() -> str:
    """The exit statuses in one sentence, as ``castlerules --help`` and the README say them."""
    return "Exit status: " + "; ".join(f"{code} {what}" for code, what in EXIT_STATUSES) + "."


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


def rules_label(module: Any, rules: Any, preset: str | None = None) -> str:
    """A short name of a reading: ``SEED`` or ``SEED + allow_pass=true``."""
    return dispute.rules_label(module, rules, preset)


MAX_INPUT_BYTES = records.MAX_BYTES
"""The one size limit of every input the commands read (16 MiB): ``-`` (standard
input), ``@FILE`` and the records of ``replay`` (see :data:`castlerules.records.MAX_BYTES`)."""


def read_input(source: str, what: str) -> bytes:
    """The bytes of ``-`` (standard input) or of a file, at most :data:`MAX_INPUT_BYTES`.

    A larger input, a missing or unreadable file, or a path holding a NUL
    character is an :class:`ArgumentError` in one line.
    """
    where = "standard input" if source == "-" else repr(source)
    try:
        if source == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream (tests may replace sys.stdin)
                data = sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8", "surrogateescape")
            else:
                data = stream.read(MAX_INPUT_BYTES + 1)
        else:
            with open(source, "rb") as src:
                data = src.read(MAX_INPUT_BYTES + 1)
    except OSError as err:
        raise ArgumentError(f"cannot read the {what} from {where}: {err.strerror}") from None
    except ValueError:  # a NUL byte in the path
        raise ArgumentError(
            f"cannot read the {what} from {where}: a file name has no NUL character"
        ) from None
    if len(data) > MAX_INPUT_BYTES:
        raise ArgumentError(
            f"the {what} from {where} is larger than {MAX_INPUT_BYTES // (1 << 20)} MiB"
        )
    return data


def read_text_argument(value: str, what: str) -> str:
    """A command-line text: itself, ``-`` for standard input, ``@FILE`` for a file's text.

    Standard input and files are read up to :data:`MAX_INPUT_BYTES`, as UTF-8,
    and stripped of surrounding white space.
    """
    if value != "-" and not value.startswith("@"):
        return value
    source = value if value == "-" else value[1:]
    data = read_input(source, what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        where = "standard input" if source == "-" else repr(source)
        raise ArgumentError(
            f"cannot read the {what} from {where}: not UTF-8 text (byte {err.start})"
        ) from None
    return text.strip()


def seed_argument(text: str) -> int:
    """The ``type`` of a ``--seed`` option: a whole number in 0..2^64-1 (one domain)."""
    try:
        return seed_from_text(text, "the seed")
    except ArgumentError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


WRITE_POLICY = records.WRITE_POLICY
"""The one rule of every file the commands write (``--save``, ``--svg``, ``--record-dir``,
``cases export``, the study's report): :data:`castlerules.records.WRITE_POLICY`; the help
and the docs quote it."""

FORCE_HELP = "replace files that exist already (without it they are refused, nothing is written)"
"""The help of every ``--force``."""


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--force`` (see :data:`WRITE_POLICY`)."""
    parser.add_argument("--force", action="store_true", help=FORCE_HELP)


def check_output_file(
    path: str, what: str, *, force: bool = False, inputs: Sequence[str] = ()
) -> records.Target:
    """Make sure ``path`` can be written, before any work: ArgumentError if not (an empty
    path, a directory, one of the command's ``inputs``, a file that exists already
    without ``force``, a folder that cannot be written).  Nothing is written: the
    :class:`~castlerules.records.Target` writes at the end (:func:`write_file`)."""
    return records.Target.check(path, what, force=force, inputs=inputs)


def input_files(*arguments: str | None) -> tuple[str, ...]:
    """The files a command reads among its arguments: ``@FILE`` arguments' files."""
    return tuple(a[1:] for a in arguments if a is not None and a.startswith("@") and a[1:])


def shown(text: str) -> str:
    r"""``text`` safe to echo on a terminal: every character that is not printable
    (control characters such as ESC, lone surrogates, ...) written as an escape.

    >>> print(shown("C3\x1b[2J"))
    C3\x1b[2J
    >>> print(shown("\ud800 « ok »"))
    \ud800 « ok »
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def question_answer(module: Any, state: Any, text: str) -> IllegalMove | None:
    """The rule that answers a question a player asks in the form of a move the game's
    notation has no word for (Throne's ``C-``: B9; Ascent's ``F0-``: A4), or None
    (:func:`castlerules.casebook.questions.question`)."""
    return questions.question(module, state, text)


def clause_line(clause_id: str) -> str:
    """``B6: Placement phase, in turn, ...`` (the clause's summary)."""
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


def check_output_files(
    paths: Iterable[str], what: str, *, force: bool = False, inputs: Sequence[str] = ()
) -> list[records.Target]:
    """:func:`check_output_file` for each of ``paths``, all before any is written."""
    return [check_output_file(path, what, force=force, inputs=inputs) for path in paths]


def write_file(target: records.Target, data: str | bytes) -> records.Written:
    """Write an output checked by :func:`check_output_file`.  Where a file appeared at the
    target while the command ran, it is kept, the output goes beside it, and one line on
    standard error says where (the command then exits with status 2)."""
    written = target.write(data)
    if written.kept is not None:
        print(
            f"castlerules: the {target.what} file {shown(target.path)!r} appeared while the "
            f"command ran: it is kept, and the {target.what} is written to "
            f"{shown(written.path)!r} instead",
            file=sys.stderr,
        )
    return written


unused_path = records.unused_path


def seat_list(seats: Iterable[int]) -> str:
    """``seat 2`` or ``seats 0, 2``."""
    seats = list(seats)
    word = "seat" if len(seats) == 1 else "seats"
    return f"{word} " + ", ".join(str(s) for s in seats)


def safe_error(err: BaseException) -> str:
    """The one-line message of an error (newlines folded, control characters escaped)."""
    text = str(err) or type(err).__name__
    return shown(" ".join(text.split()))


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_ILLEGAL",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_STATUSES",
    "FORCE_HELP",
    "GAMES",
    "MAX_INPUT_BYTES",
    "WRITE_POLICY",
    "add_force_argument",
    "add_rules_arguments",
    "check_output_file",
    "check_output_files",
    "clause_french",
    "clause_line",
    "event_data",
    "event_lines",
    "exit_status_text",
    "game_module",
    "input_files",
    "parse_options",
    "preset_of",
    "question_answer",
    "read_input",
    "read_text_argument",
    "rules_from_args",
    "rules_label",
    "safe_error",
    "seat_list",
    "seed_argument",
    "shown",
    "unused_path",
    "with_options",
    "write_file",
]


def seat_kinds(players: int, texts: Sequence[str]) -> dict[int, str]:
    """``--bot`` values (``["1=greedy", "2=mcts:50"]``) -> the kind of bot of each seat named.

    The one reader of ``SEAT=KIND`` for ``play`` and ``study``; the kinds are
    lower-cased, not yet checked (``castlerules.bots.check_kind`` does that).
    """
    kinds: dict[int, str] = {}
    for text in texts:
        seat_text, sep, kind = text.partition("=")
        if not sep or not seat_text.strip().isdigit():
            raise ArgumentError(f"--bot is written SEAT=KIND (e.g. 1=greedy), not {text!r}")
        seat = int(seat_text)
        if not 0 <= seat < players:
            raise ArgumentError(f"--bot {text}: the seats are 0..{players - 1}")
        if seat in kinds:
            raise ArgumentError(f"--bot: seat {seat} is given twice")
        kinds[seat] = kind.strip().lower()
    return kinds
