"""Game records: a versioned JSON format, read strictly, replayed move by move.

A record holds everything needed to replay a game exactly: the game, the
number of players, the rules (a preset and the options that differ from
it), the seed of the deal (and, for Throne, explicit objectives if they were
given; for Ascent, an explicit first player), and the moves in the game's
own move notation.  It may also hold the result, which replaying checks.

.. code-block:: json

    {
      "format": "castlerules.record",
      "version": 1,
      "engine": "castlerules 0.1.0",
      "game": "throne",
      "players": 4,
      "rules": {"preset": "SEED", "options": {"allow_pass": true}},
      "seed": 7,
      "moves": ["C3", "A5", "M1", "C+", "yes", "no"],
      "result": {"scores": [40, 31, 52, 12], "winners": [2]}
    }

Reading a record runs no code: the text is parsed with :mod:`json` only
(duplicate keys, ``NaN`` and ``Infinity`` refused), then every field is
checked (its type, its range, unknown fields refused), and the rules are
built from the game's own ``Rules`` class.  A record written by a newer
format version is refused with :class:`RecordVersionError`, before anything
else is read from it.  Every refusal is a :class:`RecordError` (a
:class:`~castlerules.core.RulesError`) in one line that names the field.

:func:`replay` then applies the moves one by one; the first move that cannot
be read or is illegal stops it with :class:`IllegalRecordedMove`, which
carries the move number, the move text and the clause that forbids it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from castlerules import ascent, options_text, throne
from castlerules.core import (
    ArgumentError,
    Event,
    IllegalMove,
    NotationError,
    RulesError,
    check_seed,
)

__all__ = [
    "FORMAT",
    "GAMES",
    "MAX_BYTES",
    "VERSION",
    "WRITE_POLICY",
    "IllegalRecordedMove",
    "Record",
    "RecordError",
    "RecordVersionError",
    "Step",
    "Target",
    "Written",
    "build_rules",
    "check",
    "check_result",
    "dumps",
    "from_data",
    "load",
    "loads",
    "make",
    "preset_names",
    "preset_rules",
    "replay",
    "rules_preset_and_options",
    "save",
    "start",
    "to_data",
    "unused_path",
]

FORMAT = "castlerules.record"
"""The value of the ``format`` field of every record."""

VERSION = 1
"""The newest record format version this castlerules reads and the one it writes."""

MAX_BYTES = 16 * 1024 * 1024
"""The one input size limit (16 MiB): records larger than this are refused before
parsing, and the command line reads no more than this from a file or standard input."""

GAMES: Mapping[str, Any] = {"throne": throne, "ascent": ascent}
"""The games a record may name, by name."""


class RecordError(RulesError):
    """A game record that cannot be read: corrupt, truncated, or with a bad field."""


class RecordVersionError(RecordError):
    """A record written in a newer format version than this castlerules reads."""

    version: int

    def __init__(self, version: int) -> None:
        super().__init__(
            f"this record uses format version {version}, newer than this castlerules reads "
            f"(up to version {VERSION}): upgrade castlerules to read it"
        )
        self.version = version


class IllegalRecordedMove(RecordError):
    """A move of a record that cannot be read or is illegal where it is played.

    ``ply`` is its 1-based number in the record, ``text`` the move as
    written, ``seat`` the seat to act (``None`` once the game is over) and
    ``clause`` the clause that forbids it (``None`` when the text is not a
    move at all).  ``state`` is the position before it.
    """

    ply: int
    text: str
    seat: int | None
    clause: str | None
    state: Any

    def __init__(
        self,
        ply: int,
        text: str,
        seat: int | None,
        error: RulesError,
        state: Any,
    ) -> None:
        who = f" (seat {seat} to play)" if seat is not None else ""
        kind = "is illegal" if isinstance(error, IllegalMove) else "cannot be read"
        super().__init__(f"move {ply} {text!r}{who} {kind}: {error}")
        self.ply = ply
        self.text = text
        self.seat = seat
        self.clause = error.clause if isinstance(error, IllegalMove) else None
        self.state = state


@attrs.frozen(slots=True)
class Record:
    """One game, as stored: enough to replay it exactly.

    ``options`` are the options that differ from the preset, as
    ``(name, value)`` pairs in the ``Rules`` class's field order; ``result``
    is ``(scores, winners)`` of a finished game, or ``None``.
    """

    game: str
    players: int
    preset: str
    options: tuple[tuple[str, object], ...] = ()
    seed: int = 0
    objectives: tuple[tuple[str, ...], ...] | None = None
    first_player: int | None = None
    moves: tuple[str, ...] = ()
    result: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def module(self) -> Any:
        """The game module (``castlerules.throne`` or ``castlerules.ascent``)."""
        return GAMES[self.game]

    def rules(self) -> Any:
        """The game's ``Rules`` object: the preset with the options applied."""
        return build_rules(self.module, self.preset, dict(self.options))


@attrs.frozen(slots=True)
class Step:
    """One replayed move: its number, seat, text, the move, the states around it, the events."""

    ply: int
    seat: int | None
    text: str
    move: Any
    before: Any
    after: Any
    events: tuple[Event, ...]


# ---------------------------------------------------------------------------
# Rules


def build_rules(module: Any, preset: str | None, options: Mapping[str, object]) -> Any:
    """The ``Rules`` of a game: ``preset`` (default: the default reading) with ``options``."""
    rules_cls = module.Rules
    base = rules_cls() if preset is None else preset_rules(module, preset)
    if not options:
        return base
    merged = {f.name: getattr(base, f.name) for f in attrs.fields(rules_cls)}
    merged.update(options)
    return rules_cls(**merged)


def preset_names(module: Any) -> tuple[str, ...]:
    """The preset names of a game, in the order the game lists them."""
    return tuple(str(name) for name in module.Rules.PRESETS)


def preset_rules(module: Any, name: str) -> Any:
    """The ``Rules`` of a named preset; an unknown name lists the presets."""
    names = preset_names(module)
    if name not in names:
        raise RecordError(
            f"unknown preset {name!r} for {module.NAME}; the presets are: {', '.join(names)}"
        )
    return module.Rules.preset(name)


def rules_preset_and_options(
    module: Any, rules: Any, preset: str | None = None
) -> tuple[str, tuple[tuple[str, object], ...]]:
    """The preset name and the differing options that describe ``rules``.

    With ``preset`` given, the options are the differences from it; otherwise
    the preset with the fewest differences is chosen (the first one on ties).
    """
    candidates = [preset] if preset is not None else list(preset_names(module))
    best: tuple[str, tuple[tuple[str, object], ...]] | None = None
    for name in candidates:
        base = preset_rules(module, name)
        diffs = tuple(
            (f.name, getattr(rules, f.name))
            for f in attrs.fields(type(rules))
            if getattr(rules, f.name) != getattr(base, f.name)
        )
        if best is None or len(diffs) < len(best[1]):
            best = (name, diffs)
    assert best is not None
    return best


# ---------------------------------------------------------------------------
# Making, writing


def make(
    module: Any,
    players: int,
    rules: Any = None,
    *,
    seed: int = 0,
    preset: str | None = None,
    objectives: Sequence[Sequence[str]] | None = None,
    first_player: int | None = None,
    moves: Sequence[Any] = (),
    final: Any = None,
) -> Record:
    """A record of a game of ``module``; ``moves`` are Move objects or their texts.

    With ``final`` (the state after the last move) and a finished game, the
    result (scores and winners) is stored too, and :func:`check` verifies it.
    """
    if rules is None:
        rules = module.Rules() if preset is None else preset_rules(module, preset)
    name, options = rules_preset_and_options(module, rules, preset)
    result = None
    if final is not None and module.is_over(final):
        result = (tuple(module.scores(final)), tuple(module.winners(final)))
    return Record(
        game=module.NAME,
        players=players,
        preset=name,
        options=options,
        seed=seed,
        objectives=None
        if objectives is None
        else tuple(tuple(str(o) for o in rnd) for rnd in objectives),
        first_player=first_player,
        moves=tuple(str(m) for m in moves),
        result=result,
    )


def to_data(record: Record) -> dict[str, Any]:
    """The JSON data of a record (what :func:`dumps` writes)."""
    from castlerules import __version__

    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "engine": f"castlerules {__version__}",
        "game": record.game,
        "players": record.players,
        "rules": {
            "preset": record.preset,
            "options": {k: options_text.to_json(v) for k, v in record.options},
        },
        "seed": record.seed,
    }
    if record.objectives is not None:
        data["objectives"] = [list(rnd) for rnd in record.objectives]
    if record.first_player is not None:
        data["first_player"] = record.first_player
    data["moves"] = list(record.moves)
    if record.result is not None:
        data["result"] = {"scores": list(record.result[0]), "winners": list(record.result[1])}
    return data


def dumps(record: Record) -> str:
    """The record as JSON text: one field per line, ten moves per line."""
    data = to_data(record)
    lines = []
    for key, value in data.items():
        if key == "moves":
            rows = [
                ", ".join(json.dumps(m) for m in record.moves[i : i + 10])
                for i in range(0, len(record.moves), 10)
            ]
            body = "[]" if not rows else "[\n    " + ",\n    ".join(rows) + "\n  ]"
            lines.append(f'  "moves": {body}')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save(record: Record, path: str | os.PathLike[str], *, replace: bool = False) -> str:
    """Write the record to ``path`` (UTF-8 JSON) under the :data:`WRITE_POLICY`: a file
    that exists already is refused unless ``replace``; return the path written (beside
    ``path`` if a file appeared there meanwhile).  Every failure is a RecordError."""
    try:
        target = Target.check(path, "record", force=replace)
        return target.write(dumps(record)).path
    except ArgumentError as err:
        raise RecordError(str(err)) from None


# ---------------------------------------------------------------------------
# Writing files: the one write policy

WRITE_POLICY = (
    "No command replaces a file: a file it would write that exists already is refused, "
    "in one line with exit status 2, before any work and before anything is written, "
    "unless --force is given. An output is never written over an input of the same "
    "command, even with --force. A file that appears at the target while the work runs "
    "is kept: the output is written beside it, and the command says where (exit status 2). "
    "An empty path is bad input."
)
"""The one rule of every file castlerules writes (records, drawings, the study's report);
the command line's help and the documentation quote it.  Two files are updated in
place by design and follow it otherwise: a study's DuckDB file (extended, never
replaced) and the casebook's ``found.json`` (replaced atomically by ``cases search``)."""


@attrs.frozen(slots=True)
class Written:
    """Where an output went: ``path``, and the file kept at the target when one appeared
    there while the work ran (``kept``; the output is then beside it)."""

    path: str
    kept: str | None = None


def _identity(path: str) -> tuple[int, int] | None:
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


def _same_file(path: str, other: str) -> bool:
    """Whether ``path`` and ``other`` name one file (the same, or links to it)."""
    try:
        if os.path.exists(path) and os.path.exists(other):
            return os.path.samefile(path, other)
        return os.path.realpath(path) == os.path.realpath(other)
    except (OSError, ValueError):
        return False


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def unused_path(path: str) -> str:
    """``path`` if no file has that name, else ``path`` with ``-1``, ``-2``... before the suffix."""
    if not os.path.lexists(path):
        return path
    head, name = os.path.split(path)
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem:
        stem, suffix = name, ""
    i = 1
    while True:
        candidate = os.path.join(head, f"{stem}-{i}.{suffix}" if suffix else f"{stem}-{i}")
        if not os.path.lexists(candidate):
            return candidate
        i += 1


@attrs.frozen(slots=True)
class Target:
    """A file to write, checked before the work (:meth:`check`) and created at its end
    (:meth:`write`) under the :data:`WRITE_POLICY`."""

    path: str
    what: str
    force: bool = False
    found: tuple[int, int] | None = None
    """The file at ``path`` when it was checked (``force``: the one it may replace)."""

    @classmethod
    def check(
        cls,
        path: object,
        what: str,
        *,
        force: bool = False,
        inputs: Sequence[str | os.PathLike[str]] = (),
    ) -> Target:
        """Make sure ``path`` can be written, before any work: ArgumentError if not.

        Refused: an empty path, a directory, a path naming one of ``inputs`` (even
        with ``force``), a file that exists already (unless ``force``), a folder that
        does not exist or cannot be written.  Nothing is written.
        """
        if not isinstance(path, str | os.PathLike):
            raise ArgumentError(f"the {what} path must be a file name, not {type(path).__name__}")
        text = os.fspath(path)
        if not isinstance(text, str):
            raise ArgumentError(f"the {what} path must be text, not bytes")
        if not text.strip():
            raise ArgumentError(f"the {what} path is empty: give a file name")
        shown = repr(text) if len(text) <= 200 else repr(text[:200]) + "..."
        if "\x00" in text:
            raise ArgumentError(
                f"cannot write the {what} to {shown}: a file name has no NUL character"
            )
        try:
            directory = os.path.isdir(text)
        except (OSError, ValueError):
            directory = False
        if directory:
            raise ArgumentError(f"cannot write the {what} to {shown}: it is a directory")
        for source in inputs:
            other = os.fspath(source)
            if isinstance(other, str) and other not in ("", "-") and _same_file(text, other):
                raise ArgumentError(
                    f"the {what} would be written over {other!r}, which this command reads: "
                    "give another path (no output is written over an input, even with --force)"
                )
        exists = os.path.lexists(text)
        if exists and not force:
            raise ArgumentError(
                f"the {what} file {shown} exists already: nothing was written (--force replaces it)"
            )
        folder = os.path.dirname(text) or "."
        try:
            handle, probe = tempfile.mkstemp(dir=folder, prefix=".castlerules-", suffix=".probe")
        except OSError as err:
            raise ArgumentError(f"cannot write the {what} to {shown}: {err.strerror}") from None
        os.close(handle)
        os.remove(probe)
        return cls(text, what, force, _identity(text) if exists else None)

    def write(self, data: str | bytes) -> Written:
        """Write ``data`` beside the target, then put it in place without replacing any file
        but the one ``force`` allowed (the file found at :meth:`check`, if still there).

        A file that appeared at the target meanwhile is kept: the output goes to
        :func:`unused_path` beside it (:attr:`Written.kept` names the file kept).
        """
        raw = data.encode("utf-8") if isinstance(data, str) else data
        folder = os.path.dirname(self.path) or "."
        name = os.path.basename(self.path)
        try:
            handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{name[:100]}.", suffix=".part")
        except OSError as err:
            raise ArgumentError(
                f"cannot write the {self.what} to {self.path!r}: {err.strerror}"
            ) from None
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(raw)
                os.fchmod(out.fileno(), _file_mode())
            if self.found is not None and _identity(self.path) == self.found:
                os.replace(temp, self.path)  # the file --force allowed to replace
                return Written(self.path)
            target, kept = self.path, None
            while True:
                try:
                    self._place(temp, target, raw)
                    return Written(target, kept)
                except FileExistsError:
                    kept, target = self.path, unused_path(self.path)
        except OSError as err:
            raise ArgumentError(
                f"cannot write the {self.what} to {self.path!r}: {err.strerror}"
            ) from None
        finally:
            with contextlib.suppress(OSError):
                os.remove(temp)

    @staticmethod
    def _place(temp: str, target: str, raw: bytes) -> None:
        """Link ``temp`` at ``target``, never over a file (FileExistsError if one is there);
        where hard links are not supported, create ``target`` exclusively and copy."""
        try:
            os.link(temp, target)
        except FileExistsError:
            raise
        except OSError as err:
            if err.errno not in _NO_LINKS:
                raise
            with open(target, "xb") as out:
                out.write(raw)


_NO_LINKS = frozenset(
    code
    for code in (
        getattr(errno, name, None)
        for name in ("EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "EMLINK", "ENOSYS", "EACCES")
    )
    if code is not None
)
"""The errors of a file system that has no hard links (then the target is created
exclusively and written in place)."""


# ---------------------------------------------------------------------------
# Reading


def load(path: str | os.PathLike[str]) -> Record:
    """Read and check a record file; every failure is a one-line :class:`RecordError`."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as src:
            raw = src.read(MAX_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read {name!r}: {err.strerror}") from None
    except ValueError:  # a NUL byte in the path
        raise RecordError(f"cannot read {name!r}: a file name has no NUL character") from None
    return loads(raw)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"the field {key!r} appears twice")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number a record may hold")


def loads(text: str | bytes) -> Record:
    """Read and check a record from its JSON text (``str`` or UTF-8 ``bytes``)."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise RecordError(f"not a game record: larger than {MAX_BYTES >> 20} MiB")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError(f"not a game record: not UTF-8 text (byte {err.start})") from None
    if len(text) > MAX_BYTES:
        raise RecordError(f"not a game record: larger than {MAX_BYTES >> 20} MiB")
    if not text.strip():
        raise RecordError("not a game record: the file is empty")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        body = text.rstrip()
        if err.msg == "Extra data":
            raise RecordError(
                f"not a game record: more text after its end, at line {err.lineno} "
                f"column {err.colno}"
            ) from None
        if body.lstrip().startswith("{") and (err.pos >= len(body) or not body.endswith("}")):
            raise RecordError(
                f"not a game record: the JSON ends too early (truncated?); reading stopped "
                f"at line {err.lineno} column {err.colno}: {err.msg}"
            ) from None
        raise RecordError(
            f"not a game record: invalid JSON at line {err.lineno} column {err.colno}: {err.msg}"
        ) from None
    except RecordError:
        raise
    except (ValueError, RecursionError) as err:  # e.g. too deep, or a number too long
        raise RecordError(f"not a game record: unreadable JSON ({err})") from None
    return from_data(data)


_FIELDS = ("format", "version", "engine", "game", "players", "rules", "seed")
_OPTIONAL = {"throne": ("objectives",), "ascent": ("first_player",)}
_TAIL = ("moves", "result")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _field(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise RecordError(f"the record has no {key!r} field")
    return data[key]


def from_data(data: object) -> Record:
    """Check parsed JSON data field by field and build the :class:`Record`."""
    if not isinstance(data, dict):
        raise RecordError(f"not a game record: the JSON is {_kind(data)}, not an object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a game record: its 'format' field is not {FORMAT!r}")
    version = _field(data, "version")
    if not _is_int(version) or version < 1:
        raise RecordError(f"field 'version' must be a whole number >= 1, not {_kind(version)}")
    if version > VERSION:
        raise RecordVersionError(version)

    engine = data.get("engine", "")
    if not isinstance(engine, str):
        raise RecordError(f"field 'engine' must be a text, not {_kind(engine)}")

    game = _field(data, "game")
    if not isinstance(game, str) or game not in GAMES:
        shown = repr(game) if isinstance(game, str) else _kind(game)
        raise RecordError(f"field 'game' must be one of {', '.join(GAMES)}, not {shown}")
    module = GAMES[game]

    allowed = set(_FIELDS) | set(_OPTIONAL[game]) | set(_TAIL)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(
            f"unknown field {unknown[0]!r} in a {game} record; "
            f"the fields are: {', '.join(k for k in (*_FIELDS, *_OPTIONAL[game], *_TAIL))}"
        )

    players = _field(data, "players")
    allowed_players = module.PLAYERS
    if not _is_int(players) or players not in allowed_players:
        raise RecordError(
            f"field 'players' must be a whole number in "
            f"{allowed_players.start}..{allowed_players.stop - 1}, not {_kind(players)}"
        )

    preset, options = _rules_field(module, _field(data, "rules"))

    seed = _field(data, "seed")
    if not _is_int(seed):
        raise RecordError(f"field 'seed' must be a whole number in 0..2^64-1, not {_kind(seed)}")
    try:
        check_seed(seed, "'seed'")  # the seed domain of new_game (castlerules.core.chance)
    except RulesError as err:
        raise RecordError(f"field {err}") from None

    objectives = None
    if data.get("objectives") is not None:
        objectives = _objectives_field(data["objectives"])
    first_player = None
    if data.get("first_player") is not None:
        first_player = data["first_player"]
        if not _is_int(first_player) or not 0 <= first_player < players:
            raise RecordError(
                f"field 'first_player' must be a seat in 0..{players - 1}, "
                f"not {_kind(first_player)}"
            )

    moves = _field(data, "moves")
    if not isinstance(moves, list):
        raise RecordError(f"field 'moves' must be a list of texts, not {_kind(moves)}")
    for i, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise RecordError(f"move {i} of field 'moves' must be a text, not {_kind(move)}")

    result = None
    if data.get("result") is not None:
        result = _result_field(data["result"], players)

    record = Record(
        game=game,
        players=players,
        preset=preset,
        options=options,
        seed=seed,
        objectives=objectives,
        first_player=first_player,
        moves=tuple(moves),
        result=result,
    )
    start(record)  # the starting arguments are checked by the game itself
    return record


def _rules_field(module: Any, rules: object) -> tuple[str, tuple[tuple[str, object], ...]]:
    if not isinstance(rules, dict):
        raise RecordError(f"field 'rules' must be an object, not {_kind(rules)}")
    extra = sorted(set(rules) - {"preset", "options"})
    if extra:
        raise RecordError(f"unknown field 'rules.{extra[0]}'; the fields are: preset, options")
    preset = _field(rules, "preset")
    if not isinstance(preset, str):
        raise RecordError(f"field 'rules.preset' must be a text, not {_kind(preset)}")
    try:
        preset_rules(module, preset)
    except RecordError as err:
        raise RecordError(f"field 'rules.preset': {err}") from None
    options = rules.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"field 'rules.options' must be an object, not {_kind(options)}")
    names = options_text.option_names(module.Rules)
    typed: dict[str, object] = {}
    for name, value in options.items():
        if name not in names:
            raise RecordError(
                f"field 'rules.options': unknown option {name!r} for {module.NAME}; "
                f"the options are: {', '.join(names)}"
            )
        try:
            typed[name] = options_text.from_json(module.Rules, name, value)
        except RulesError as err:
            raise RecordError(f"field 'rules.options': {err}") from None
    try:
        build_rules(module, preset, typed)
    except (RulesError, ValueError, TypeError) as err:
        raise RecordError(f"field 'rules.options': {err}") from None
    ordered = tuple((n, typed[n]) for n in names if n in typed)
    return preset, ordered


def _objectives_field(value: object) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list) or not all(
        isinstance(rnd, list) and all(isinstance(o, str) for o in rnd) for rnd in value
    ):
        raise RecordError(
            "field 'objectives' must be a list of rounds, each a list of one text per seat"
        )
    return tuple(tuple(rnd) for rnd in value)


def _result_field(value: object, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(value, dict) or set(value) != {"scores", "winners"}:
        raise RecordError("field 'result' must be an object with 'scores' and 'winners'")
    scores, winners = value["scores"], value["winners"]
    if not isinstance(scores, list) or len(scores) != players or not all(map(_is_int, scores)):
        raise RecordError(f"field 'result.scores' must be a list of {players} whole numbers")
    if (
        not isinstance(winners, list)
        or not winners
        or not all(_is_int(w) and 0 <= w < players for w in winners)
        or len(set(winners)) != len(winners)
    ):
        raise RecordError(
            f"field 'result.winners' must be a list of distinct seats in 0..{players - 1}"
        )
    return tuple(scores), tuple(winners)


# ---------------------------------------------------------------------------
# Replaying


def start(record: Record) -> Any:
    """The starting position of a record; bad starting arguments are a RecordError."""
    module = record.module
    kwargs: dict[str, Any] = {"rules": record.rules(), "seed": record.seed}
    if record.objectives is not None:
        kwargs["objectives"] = [list(rnd) for rnd in record.objectives]
    if record.first_player is not None:
        kwargs["first_player"] = record.first_player
    try:
        return module.new_game(record.players, **kwargs)
    except (RulesError, ValueError, TypeError) as err:
        raise RecordError(f"the record's game cannot start: {err}") from None


def replay(record: Record) -> Iterator[Step]:
    """Apply the record's moves in order, yielding each :class:`Step`.

    The first move that cannot be read, or is illegal where it is played,
    raises :class:`IllegalRecordedMove` (after the steps before it).
    """
    module = record.module
    state = start(record)
    for ply, text in enumerate(record.moves, 1):
        seat = module.current_player(state)
        try:
            move = module.parse_move(state, text, check=False)
            after = module.apply(state, move)
        except (IllegalMove, NotationError) as err:
            raise IllegalRecordedMove(ply, text, seat, err, state) from None
        events = tuple(module.describe(state, move, after))
        yield Step(ply, seat, text, move, state, after, events)
        state = after


def check(record: Record) -> Any:
    """Replay the whole record and check its stored result; return the final state."""
    state = start(record)
    for step in replay(record):
        state = step.after
    check_result(record, state)
    return state


def check_result(record: Record, state: Any) -> None:
    """Check the record's stored result (if any) against ``state``, its final position."""
    module = record.module
    if record.result is not None:
        if not module.is_over(state):
            raise RecordError(
                f"the record gives a result, but the game is not over after its "
                f"{len(record.moves)} moves"
            )
        scores, winners = tuple(module.scores(state)), tuple(module.winners(state))
        stated_scores, stated_winners = record.result
        problems = [] if stated_scores == scores else ["the scores differ"]
        false = [w for w in stated_winners if w not in winners]
        if false:
            problems.append(f"seat {_seats(false)} did not win")
        missing = [w for w in winners if w not in stated_winners]
        if missing:
            problems.append(f"seat {_seats(missing)} also won")
        if problems:
            raise RecordError(
                f"the record gives scores {list(stated_scores)} and winners "
                f"{list(stated_winners)}, but its moves give scores {list(scores)} and "
                f"winners {list(winners)}: "
                + "; ".join(problems)
                + f" ({_WIN_CLAUSE.get(module.NAME, 'the end')})"
            )


_WIN_CLAUSE = {"throne": "B16", "ascent": "A17"}
"""The clause that names each game's winners: the most points at the end."""


def _seats(seats: Sequence[int]) -> str:
    return " and ".join(str(s) for s in seats)
