"""Test vectors for implementers: games move by move, refusals, and perft counts, as JSON.

``castlerules conform vectors DIR`` writes, for engines' own unit tests (no
protocol needed):

``throne-games.json``, ``ascent-games.json``
    games with their rules and deal (as ``start`` sends them), the legal
    moves and the status (seat to act, end, scores, winners) before the first
    move and after every move, illegal moves with the clause the reference
    refuses them with, and the end.  The casebook's game of every case (so
    every clause) and seeded random games of every player count.
``throne-perft.json``, ``ascent-perft.json``
    standard positions (each given by its rules, deal and moves from the
    start, and its position text) with the leaf counts of their move trees
    at depths 1 to 4, like chess's perft suites.
``schema.json``
    the JSON Schema (draft 2020-12) of these files.

Every file carries ``format`` (:data:`FORMAT`) and ``version``
(:data:`VERSION`); a later version may add fields, never change one.
Each file is validated against the schema before anything is written, and
written under the project's write policy (a file that exists already is
refused unless ``force``).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from castlerules import records
from castlerules.conform import reference, sources
from castlerules.conform.reference import Reading
from castlerules.conform.wire import PROTOCOL
from castlerules.core import ArgumentError, RulesError

__all__ = ["FILES", "FORMAT", "SCHEMA", "VERSION", "build", "write"]

FORMAT = "castlerules.conform.vectors"
"""The ``format`` field of every vector file."""

VERSION = 1
"""The version of the vector files this castlerules writes."""

FILES = (
    "schema.json",
    "throne-games.json",
    "ascent-games.json",
    "throne-perft.json",
    "ascent-perft.json",
)
"""The files ``conform vectors`` writes."""

_STATUS = {
    "type": "object",
    "required": ["to_move", "over", "scores"],
    "additionalProperties": False,
    "properties": {
        "to_move": {"type": ["integer", "null"], "minimum": 0},
        "over": {"type": "boolean"},
        "scores": {"type": "array", "items": {"type": "integer"}},
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    },
}
_MOVES = {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
_RULES = {
    "type": "object",
    "required": ["preset", "options"],
    "additionalProperties": False,
    "properties": {"preset": {"type": "string"}, "options": {"type": "object"}},
}
_HEAD = {
    "format": {"const": FORMAT},
    "version": {"const": VERSION},
    "game": {"enum": ["throne", "ascent"]},
    "generator": {"type": "string"},
    "protocol": {"const": PROTOCOL},
}

SCHEMA: Mapping[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": f"https://castlerules.invalid/conform/vectors-{VERSION}.schema.json",
    "title": "castlerules conformance test vectors",
    "description": "Games move by move (legal moves and status after every move, refusals "
    "with their clause) and perft counts of standard positions, computed by the reference.",
    "oneOf": [{"$ref": "#/$defs/games"}, {"$ref": "#/$defs/perft"}],
    "$defs": {
        "status": _STATUS,
        "moves": _MOVES,
        "rules": _RULES,
        "deal": {"type": "object"},
        "games": {
            "type": "object",
            "required": [*_HEAD, "kind", "games"],
            "additionalProperties": False,
            "properties": {
                **_HEAD,
                "kind": {"const": "games"},
                "games": {"type": "array", "items": {"$ref": "#/$defs/game"}},
            },
        },
        "game": {
            "type": "object",
            "required": ["name", "players", "seed", "rules", "deal", "start", "steps", "refusals"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "players": {"type": "integer", "minimum": 2, "maximum": 6},
                "seed": {"type": "integer", "minimum": 0},
                "rules": {"$ref": "#/$defs/rules"},
                "deal": {"$ref": "#/$defs/deal"},
                "clauses": {"type": "array", "items": {"type": "string"}},
                "start": {
                    "type": "object",
                    "required": ["legal", "status"],
                    "additionalProperties": False,
                    "properties": {
                        "legal": {"$ref": "#/$defs/moves"},
                        "status": {"$ref": "#/$defs/status"},
                    },
                },
                "steps": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["move", "legal", "status"],
                        "additionalProperties": False,
                        "properties": {
                            "move": {"type": "string"},
                            "legal": {"$ref": "#/$defs/moves"},
                            "status": {"$ref": "#/$defs/status"},
                        },
                    },
                },
                "refusals": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["after", "move", "clause"],
                        "additionalProperties": False,
                        "properties": {
                            "after": {"type": "integer", "minimum": 0},
                            "move": {"type": "string"},
                            "clause": {"type": ["string", "null"]},
                        },
                    },
                },
                "end": {
                    "type": "object",
                    "required": ["scores", "winners"],
                    "additionalProperties": False,
                    "properties": {
                        "scores": {"type": "array", "items": {"type": "integer"}},
                        "winners": {"type": "array", "items": {"type": "integer"}},
                    },
                },
            },
        },
        "perft": {
            "type": "object",
            "required": [*_HEAD, "kind", "positions"],
            "additionalProperties": False,
            "properties": {
                **_HEAD,
                "kind": {"const": "perft"},
                "positions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": [
                            "name",
                            "players",
                            "seed",
                            "rules",
                            "deal",
                            "moves",
                            "position",
                            "perft",
                        ],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string"},
                            "players": {"type": "integer", "minimum": 2, "maximum": 6},
                            "seed": {"type": "integer", "minimum": 0},
                            "rules": {"$ref": "#/$defs/rules"},
                            "deal": {"$ref": "#/$defs/deal"},
                            "moves": {"type": "array", "items": {"type": "string"}},
                            "position": {"type": "string"},
                            "perft": {
                                "type": "array",
                                "items": {"type": "integer", "minimum": 0},
                                "description": "perft[k] is the leaf count at depth k + 1",
                            },
                        },
                    },
                },
            },
        },
    },
}
"""The JSON Schema of the vector files (``schema.json``)."""


def _head(game: str, kind: str) -> dict[str, Any]:
    from castlerules import __version__

    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "generator": f"castlerules {__version__}",
        "protocol": PROTOCOL,
        "kind": kind,
    }


def _status(module: Any, state: Any) -> dict[str, Any]:
    over = module.is_over(state)
    out: dict[str, Any] = {
        "to_move": module.current_player(state),
        "over": over,
        "scores": list(module.scores(state)),
    }
    if over:
        out["winners"] = list(module.winners(state))
    return out


def game_vector(
    reading: Reading,
    name: str,
    players: int,
    seed: int,
    moves: Sequence[str],
    tried: Sequence[tuple[int, str]] = (),
    clauses: Sequence[str] = (),
) -> dict[str, Any]:
    """One game as a vector: every move, the legal moves and status before and after each,
    an illegal move of the notation in every position (one kind after another) and
    ``tried`` (``(after, move)`` pairs), each with the clause the reference refuses it with."""
    module = reading.module
    start = reference.start(reading, players, seed)
    state = start.state
    rng = random.Random(f"vectors:{name}")
    kinds = reference.universe(reading.game, reading.rules, players)
    refusals: list[dict[str, Any]] = []
    wanted = dict.fromkeys(tried)

    def refuse(after: int, state: Any, legal: set[str]) -> None:
        group = kinds[after % len(kinds)][1]
        pool = [t for t in group if t not in legal] or [
            t for _, ts in kinds for t in ts if t not in legal
        ]
        picks = [pool[rng.randrange(len(pool))]] if pool else []
        picks += [t for (at, t) in wanted if at == after and t not in legal and t not in picks]
        for text in picks:
            error = reference.refusal(module, state, text)
            refusals.append({"after": after, "move": text, "clause": reference.clause_of(error)})

    legal = reference.texts(module.legal_moves(state))
    out: dict[str, Any] = {
        "name": name,
        "players": players,
        "seed": seed,
        "rules": reading.wire,
        "deal": dict(start.deal),
    }
    if clauses:
        out["clauses"] = list(clauses)
    out["start"] = {"legal": list(legal), "status": _status(module, state)}
    refuse(0, state, set(legal))
    steps: list[dict[str, Any]] = []
    for number, text in enumerate(moves, 1):
        state = module.apply(state, module.parse_move(state, text))
        legal = reference.texts(module.legal_moves(state))
        steps.append({"move": text, "legal": list(legal), "status": _status(module, state)})
        refuse(number, state, set(legal))
    out["steps"] = steps
    out["refusals"] = refusals
    if module.is_over(state):
        out["end"] = {"scores": list(module.scores(state)), "winners": list(module.winners(state))}
    return out


def _casebook_games(game: str) -> Iterator[dict[str, Any]]:
    from castlerules import casebook
    from castlerules.casebook.store import load

    found = load()
    for case in casebook.cases(game=game):
        item = found.get(case.key)
        if item is None:
            continue
        sides = [case.rules()]
        if case.kind == "reading":
            sides.append(case.second_rules())
        for which, rules in enumerate(sides):
            reading = Reading.of(game, rules)
            module = reading.module
            try:
                state = reference.start(reading, item.players, item.seed).state
            except RulesError:
                continue
            moves = list(item.moves)
            for text in moves:
                state = module.apply(state, module.parse_move(state, text))
            tried: list[tuple[int, str]] = []
            if item.tried is not None:
                if reference.refusal(module, state, item.tried) is None:
                    moves.append(item.tried)
                else:
                    tried.append((len(moves), item.tried))
            suffix = " (its second reading)" if which else ""
            yield game_vector(
                reading,
                f"casebook {case.key}{suffix}",
                item.players,
                item.seed,
                moves,
                tried,
                case.clauses,
            )


def _random_games(game: str) -> Iterator[dict[str, Any]]:
    module = reference.GAMES[game]
    for preset in records.preset_names(module):
        reading = Reading.named(game, preset)
        for players in sources.player_counts(reading):
            plan = sources.random_plan(reading, (players,), 0, players)
            state = plan.start.state
            moves: list[str] = []
            assert plan.choose is not None
            while not module.is_over(state):
                legal = module.legal_moves(state)
                choice = plan.choose(state, legal, len(moves))
                assert choice is not None
                moves.append(str(legal[choice]))
                state = module.apply(state, legal[choice])
            yield game_vector(
                reading,
                f"random game, {reading.label}, {players} players",
                players,
                plan.start.seed,
                moves,
            )


def games_file(game: str) -> dict[str, Any]:
    """The games vector file of ``game``."""
    return {**_head(game, "games"), "games": [*_casebook_games(game), *_random_games(game)]}


def _perft_positions(game: str) -> Iterator[tuple[str, Reading, int, int, list[str]]]:
    """Standard positions: the start of every player count under every preset, and
    positions along a seeded game (after 8, 13, 20, 40 and 80 moves)."""
    module = reference.GAMES[game]
    for preset in records.preset_names(module):
        reading = Reading.named(game, preset)
        for players in sources.player_counts(reading):
            yield (f"start, {reading.label}, {players} players", reading, players, 0, [])
    reading = Reading.named(game)
    players = 4 if game == "throne" else 3
    plan = sources.random_plan(reading, (players,), 0, 1)
    state = plan.start.state
    moves: list[str] = []
    assert plan.choose is not None
    marks = (8, 13, 20, 40, 80)
    while not module.is_over(state) and len(moves) < marks[-1]:
        legal = module.legal_moves(state)
        move = legal[plan.choose(state, legal, len(moves)) or 0]
        moves.append(str(move))
        state = module.apply(state, move)
        if len(moves) in marks:
            yield (
                f"after {len(moves)} moves of a random game, {reading.label}, {players} players",
                reading,
                players,
                plan.start.seed,
                list(moves),
            )


def perft_file(game: str, depth: int = 4) -> dict[str, Any]:
    """The perft vector file of ``game``: leaf counts at depths 1 to ``depth``."""
    positions = []
    for name, reading, players, seed, moves in _perft_positions(game):
        module = reading.module
        start = reference.start(reading, players, seed)
        state = start.state
        for text in moves:
            state = module.apply(state, module.parse_move(state, text))
        positions.append(
            {
                "name": name,
                "players": players,
                "seed": seed,
                "rules": reading.wire,
                "deal": dict(start.deal),
                "moves": moves,
                "position": module.to_text(state),
                "perft": [module.perft(state, d) for d in range(1, depth + 1)],
            }
        )
    return {**_head(game, "perft"), "positions": positions}


def _depth(value: object) -> int:
    if isinstance(value, Mapping):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list | tuple):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _dump(value: object, indent: str = "") -> str:
    """JSON with one game step, refusal or deal a line (readable, diffable)."""
    if _depth(value) <= 3:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    inner = indent + " "
    if isinstance(value, Mapping):
        items = [f"{inner}{json.dumps(k)}: {_dump(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    assert isinstance(value, list | tuple)
    return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + "\n" + indent + "]"


def validate(data: Mapping[str, Any]) -> None:
    """Check ``data`` against :data:`SCHEMA` (the ``conform`` extra's jsonschema)."""
    try:
        import jsonschema  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the conform extra installs it
        raise ArgumentError(
            "the test vectors are checked against their JSON Schema with jsonschema: "
            "pip install -e '.[conform]' (from a clone)"
        ) from None
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)


def _check_depth(perft_depth: object) -> int:
    if (
        not isinstance(perft_depth, int)
        or isinstance(perft_depth, bool)
        or not 1 <= perft_depth <= 4
    ):
        raise ArgumentError(f"perft_depth must be a whole number in 1..4, not {perft_depth!r:.40}")
    return perft_depth


def build(*, perft_depth: int = 4) -> dict[str, Mapping[str, Any]]:
    """Every vector file's data, by file name (validated)."""
    _check_depth(perft_depth)
    out: dict[str, Mapping[str, Any]] = {"schema.json": SCHEMA}
    for game in ("throne", "ascent"):
        out[f"{game}-games.json"] = games_file(game)
    for game in ("throne", "ascent"):
        out[f"{game}-perft.json"] = perft_file(game, perft_depth)
    for name, data in out.items():
        if name != "schema.json":
            validate(data)
    return out


def _targets(directory: str, force: bool) -> list[records.Target]:
    """Each file's target, checked before any work under the project's write policy."""
    paths = [os.path.join(directory, name) for name in FILES]
    return [records.Target.check(p, "test vector", force=force) for p in paths]


def write(
    directory: str | os.PathLike[str], *, force: bool = False, perft_depth: int = 4
) -> list[tuple[str, str | None]]:
    """Write the vector files into ``directory`` (created if missing, its parent must exist).

    Return, per file, the path written and the file kept at the target when one appeared
    there while the vectors were computed (the output is then beside it), else None.
    Refused before any work: an empty path, a file in the way, a vector file that exists
    already (unless ``force``)."""
    _check_depth(perft_depth)
    if not isinstance(directory, str | os.PathLike):
        raise ArgumentError(f"the directory must be a path, not {type(directory).__name__}")
    text = os.fspath(directory)
    if not isinstance(text, str) or not text.strip():
        raise ArgumentError("the vectors' directory is empty: give a directory name")
    if "\x00" in text:
        raise ArgumentError("a directory name has no NUL character")
    if os.path.lexists(text) and not os.path.isdir(text):
        raise ArgumentError(f"{text!r} is not a directory: the vectors are files in a directory")
    if not os.path.isdir(text):
        try:
            os.mkdir(text)
        except OSError as err:
            raise ArgumentError(f"cannot create the directory {text!r}: {err.strerror}") from None
    targets = _targets(text, force)
    files = build(perft_depth=perft_depth)
    written = []
    for name, target in zip(FILES, targets, strict=True):
        done = target.write(_dump(files[name]) + "\n")
        written.append((done.path, done.kept))
    return written
