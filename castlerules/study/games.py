"""Readings, study specifications and the games of a study: pure functions, no extra needed.

A game of a study is a pure function of (game, rules, players, bots, seed):
:func:`play_game` starts ``new_game(players, rules, seed)``, seeds every bot
from the same ``seed`` (stream ``play.bot.SEAT``) and plays to the end.  Game
``i`` of a study has seed ``study.seed + i`` under every reading, so the games
of two readings are *paired*: they start from the same deal and their bots
draw from the same streams (the draws differ only once the readings make the
games differ).

Besides the result, a game records how often each clause fires (the clause
of every event of ``describe``) and, at every decision, one *probe*: a move
drawn uniformly from all the moves of the game's alphabet (stream
``study.probe``, never the bots'), tried with ``apply``: when it is refused,
the clause of the refusal is counted.  The probes measure how often a reading
refuses a move a player might try, per clause, without changing the game.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from castlerules import ascent, bots, options_text, records, throne
from castlerules.core import ArgumentError, IllegalMove, Rng, RulesError

__all__ = [
    "GameResult",
    "Reading",
    "Study",
    "default_preset",
    "parse_reading",
    "play_batch",
    "play_game",
]

GAMES: Mapping[str, Any] = records.GAMES
"""The game modules, by name."""


def game_module(name: str) -> Any:
    """The game module called ``name``; an unknown name lists the games."""
    try:
        return GAMES[str(name).lower()]
    except KeyError:
        raise ArgumentError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}") from None


@attrs.frozen(slots=True)
class Reading:
    """A named reading of the rules: a preset and the options changed from it."""

    name: str
    preset: str
    options: tuple[tuple[str, object], ...] = ()

    def rules(self, module: Any) -> Any:
        """This reading's ``Rules`` (an ``ArgumentError``/``RulesError`` if they do not fit)."""
        return records.build_rules(module, self.preset, dict(self.options))

    def text(self) -> str:
        """The reading as written on the command line: ``ORIGINAL + allow_pass=true``."""
        parts = [self.preset, *(f"{k}={options_text.to_text(v)}" for k, v in self.options)]
        return " + ".join(parts)

    def data(self) -> dict[str, Any]:
        """As JSON data."""
        return {
            "name": self.name,
            "preset": self.preset,
            "options": {k: options_text.to_json(v) for k, v in self.options},
        }

    @classmethod
    def from_data(cls, module: Any, data: Mapping[str, Any]) -> Reading:
        """From :meth:`data`."""
        options = tuple(
            (k, options_text.from_json(module.Rules, k, v)) for k, v in data["options"].items()
        )
        return cls(str(data["name"]), str(data["preset"]), options)


def _preset(module: Any, name: str) -> str | None:
    for preset in records.preset_names(module):
        if preset.lower() == name.lower():
            return str(preset)
    return None


def parse_reading(
    module: Any,
    text: str,
    base_preset: str | None = None,
    base_options: Mapping[str, object] | None = None,
) -> Reading:
    """Read ``[NAME:] [PRESET] [+ option=value ...]`` (the syntax of ``--rules``/``--option``).

    Without a preset, ``base_preset`` (the ``--rules`` given), else the game's
    default reading.  ``base_options`` (the ``--option`` given) apply first,
    then the reading's own.  Without a name, the reading is named by its own
    text (``ORIGINAL``, ``SEED + allow_pass=true``: the base options are not
    repeated in every name).

    >>> from castlerules import throne
    >>> parse_reading(throne, "ORIGINAL").text()
    'ORIGINAL'
    >>> r = parse_reading(throne, "pass: allow_pass=true")
    >>> r.name, r.text()
    ('pass', 'SEED + allow_pass=true')
    >>> parse_reading(throne, "SEED + allow_pass=maybe")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    castlerules.core.errors.ArgumentError: reading 'SEED + allow_pass=maybe': option ...
    """
    name, colon, body = text.partition(":")
    if not colon or "=" in name:
        name, body = "", text
    name = name.strip()
    items = [item.strip() for item in body.split("+")]
    preset: str | None = None
    options: dict[str, object] = dict(base_options or {})
    for index, item in enumerate(items):
        if not item:
            if len(items) == 1 and name:
                continue
            raise ArgumentError(f"reading {text!r}: an empty part (write PRESET + name=value)")
        if "=" not in item:
            found = _preset(module, item)
            if index != 0 or found is None:
                presets = ", ".join(records.preset_names(module))
                raise ArgumentError(
                    f"reading {text!r}: unknown preset {item!r} for {module.NAME}; "
                    f"the presets are: {presets}"
                )
            preset = found
            continue
        try:
            key, value = options_text.parse_assignment(module.Rules, item)
        except ArgumentError as err:
            raise ArgumentError(f"reading {text!r}: {err}") from None
        options[key] = value
    if preset is None:
        preset = _preset(module, base_preset) if base_preset else None
        if preset is None:
            preset = default_preset(module)
    reading = Reading(name, preset, tuple(options.items()))
    try:
        rules = reading.rules(module)
    except RulesError as err:
        raise ArgumentError(f"reading {text!r}: {err}") from None
    # Keep only the options that differ from the preset, in a fixed order.
    base = module.Rules.preset(preset)
    kept = tuple(
        (k, getattr(rules, k))
        for k in options_text.option_names(module.Rules)
        if getattr(rules, k) != getattr(base, k)
    )
    return Reading(name or " + ".join(items), preset, kept)


def default_preset(module: Any) -> str:
    """The name of the preset whose rules are the game's ``Rules()``."""
    default = module.Rules()
    for name in records.preset_names(module):
        if module.Rules.preset(name) == default:
            return str(name)
    return str(records.preset_names(module)[0])


@attrs.frozen(slots=True)
class Study:
    """What a study plays: a game, its seats and bots, its readings and its first seed."""

    game: str
    players: int
    bots: tuple[str, ...]
    """The kind of bot of each seat (see :mod:`castlerules.bots`)."""
    readings: tuple[Reading, ...]
    seed: int = 0
    """Game ``i`` has seed ``seed + i`` under every reading."""

    @property
    def module(self) -> Any:
        """The game's module."""
        return game_module(self.game)

    def check(self) -> None:
        """Refuse a study that cannot be played (an ``ArgumentError`` naming the problem)."""
        module = self.module
        if len(self.bots) != self.players:
            raise ArgumentError(
                f"{self.players} seats need {self.players} bots, not {len(self.bots)}"
            )
        for kind in self.bots:
            bots.check_kind(kind)
        if len(self.readings) < 2:
            raise ArgumentError("a study compares two or more readings (give --reading twice)")
        names = [r.name for r in self.readings]
        for name in names:
            if names.count(name) > 1:
                raise ArgumentError(f"two readings are named {name!r}; name them NAME: ...")
        for reading in self.readings:
            try:
                rules = reading.rules(module)
                module.new_game(self.players, rules, seed=self.seed)
            except RulesError as err:
                raise ArgumentError(f"reading {reading.name!r}: {err}") from None

    def data(self) -> dict[str, Any]:
        """As JSON data."""
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "readings": [r.data() for r in self.readings],
        }


@attrs.frozen(slots=True)
class GameResult:
    """One game under one reading."""

    reading: str
    game: int
    seed: int
    actions: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    events: tuple[tuple[str, int], ...]
    """Per clause, the events of the game that cite it."""
    probes: int
    refusals: tuple[tuple[str, int], ...]
    """Per clause, the probes it refused."""

    def row(self) -> dict[str, Any]:
        """As a row of the ``games`` table (JSON data)."""
        return {
            "reading": self.reading,
            "game": self.game,
            "seed": self.seed,
            "actions": self.actions,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "tie": len(self.winners) > 1,
            "events": dict(self.events),
            "probes": self.probes,
            "refusals": dict(self.refusals),
        }


def alphabet(module: Any, rules: Any, players: int) -> tuple[Any, ...]:
    """Every move of the game's notation that a player might try (the probes' pool)."""
    if module is throne:
        letters = rules.letters()
        places = [throne.Place(c, f) for c in letters for f in range(1, rules.floors + 1)]
        return (
            *places,
            *(throne.Climb(c) for c in letters),
            throne.Vote(True),
            throne.Vote(False),
            throne.Pass(),
        )
    from castlerules.ascent.state import CARDS

    cards = [c for c in CARDS if c.owner < players]
    return (
        *(ascent.Advance(c) for c in cards),
        *(ascent.Favour(c) for c in cards),
        ascent.EndTurn(),
    )


def play_game(
    module: Any, reading: str, rules: Any, players: int, kinds: Sequence[str], seed: int, index: int
) -> GameResult:
    """Play one game of a study to the end (a pure function of its arguments)."""
    state = module.new_game(players, rules, seed=seed)
    seats = [bots.make_bot(kind, module, seat, seed) for seat, kind in enumerate(kinds)]
    pool = alphabet(module, rules, players)
    probe = Rng.from_seed(seed, "study.probe")
    events: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    actions = probes = 0
    apply, describe = module.apply, module.describe
    while not module.is_over(state):
        seat = module.current_player(state)
        tried, probe = probe.choice(pool)
        probes += 1
        try:
            apply(state, tried)
        except IllegalMove as err:
            refusals[err.clause] += 1
        move = seats[seat](state, seat)
        after = apply(state, move)
        for event in describe(state, move, after):
            events[event.clause] += 1
        state = after
        actions += 1
    return GameResult(
        reading=reading,
        game=index,
        seed=seed,
        actions=actions,
        scores=tuple(module.scores(state)),
        winners=tuple(module.winners(state)),
        events=tuple(sorted(events.items())),
        probes=probes,
        refusals=tuple(sorted(refusals.items())),
    )


ENGINES = ("auto", "scalar", "batch")
"""How a study's games are played: one at a time by the engine (``scalar``), many at
once by :mod:`castlerules.batch` (``batch``: Throne with a random bot in every seat;
the same rows), or ``auto``: the batch where it applies and JAX is installed."""


def batchable(spec: Mapping[str, Any]) -> bool:
    """Whether :mod:`castlerules.batch` can play this study's games (Throne, random bots)."""
    return spec["game"] == "throne" and all(kind == "random" for kind in spec["bots"])


def play_batch(
    spec: Mapping[str, Any], reading: str, indices: Sequence[int], engine: str = "scalar"
) -> list[str]:
    """Games ``indices`` of a study under one reading, as JSON lines of ``games`` rows.

    ``spec`` is :meth:`Study.data`.  A pure function of its arguments: this is
    the unit of work sent to the Dask workers.  ``engine="batch"`` plays them all
    at once with :mod:`castlerules.batch` (for :func:`batchable` studies): the same
    rows.
    """
    module = game_module(spec["game"])
    data = next(r for r in spec["readings"] if r["name"] == reading)
    rules = Reading.from_data(module, data).rules(module)
    players = int(spec["players"])
    kinds = list(spec["bots"])
    first = int(spec["seed"])
    if engine == "batch":
        from castlerules.study.batched import play_random

        seeds = [first + i for i in indices]
        results = play_random(reading, rules, players, seeds, indices)
        return [json.dumps(r.row()) for r in results]
    return [
        json.dumps(play_game(module, reading, rules, players, kinds, first + i, i).row())
        for i in indices
    ]
