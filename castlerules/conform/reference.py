"""The reference's side of a check: readings, deals, the notation's moves and the clauses.

Everything the kit compares an engine against comes from the public API of
:mod:`castlerules.throne` and :mod:`castlerules.ascent`: the start of a game
from a seed (and the deal that fixes its chance, sent to the engine), the
legal moves, the clause of every refusal, and what each move did (its events),
from which a disagreement takes the clause of the rule concerned.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from castlerules import ascent, options_text, records, throne
from castlerules.core import ArgumentError, Event, IllegalMove, NotationError, RulesError

__all__ = [
    "GAMES",
    "KIND_ORDER",
    "Reading",
    "Start",
    "grammatical",
    "move_kind",
    "refusal",
    "start",
    "universe",
]

GAMES: Mapping[str, Any] = {"throne": throne, "ascent": ascent}
"""The games the kit checks, by name."""

KIND_ORDER: Mapping[str, tuple[str, ...]] = {
    "throne": ("place", "climb", "vote", "pass"),
    "ascent": ("advance", "favour", "end"),
}
"""The kinds of moves of each game (:func:`move_kind`), in the order reports list them."""

_GRAMMAR = {
    "throne": re.compile(r"[A-Z](\+|[0-9]{1,9})|yes|no|pass"),
    "ascent": re.compile(r"x?[PBLCTF][0-9]|end"),
}


@attrs.frozen(slots=True)
class Reading:
    """A reading of a game's rules, as the kit sends it: a preset and its differing options."""

    game: str
    rules: Any = attrs.field(eq=False)
    preset: str
    options: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, game: str, rules: Any, preset: str | None = None) -> Reading:
        """The reading of ``rules`` (as the closest preset and its differing options)."""
        module = GAMES[game]
        name, options = records.rules_preset_and_options(module, rules, preset)
        return cls(game, rules, name, options)

    @classmethod
    def named(cls, game: str, preset: str | None = None, **options: object) -> Reading:
        """A preset (default: the game's default reading) with some options changed."""
        module = GAMES[game]
        if preset is None:
            preset = next(
                n for n in module.Rules.PRESETS if module.Rules.preset(n) == module.Rules()
            )
        return cls.of(game, records.build_rules(module, preset, options), preset)

    @property
    def module(self) -> Any:
        return GAMES[self.game]

    @property
    def label(self) -> str:
        """``SEED`` or ``SEED + allow_pass=true``."""
        if not self.options:
            return self.preset
        return (
            self.preset
            + " + "
            + ", ".join(f"{k}={options_text.to_text(v)}" for k, v in self.options)
        )

    @property
    def wire(self) -> dict[str, Any]:
        """The ``rules`` field of ``start``."""
        return {
            "preset": self.preset,
            "options": {k: options_text.to_json(v) for k, v in self.options},
        }

    def arguments(self) -> tuple[str, ...]:
        """The command-line options that ask for this reading."""
        out = ["--rules", self.preset]
        for name, value in self.options:
            out += ["--option", f"{name}={options_text.to_text(value)}"]
        return tuple(out)


@attrs.frozen(slots=True)
class Start:
    """A game's start: the reference's first position and the deal the engine is sent."""

    players: int
    seed: int
    state: Any = attrs.field(eq=False)
    deal: Mapping[str, Any] = attrs.field(eq=False)


def start(reading: Reading, players: int, seed: int) -> Start:
    """The game of ``players`` seats dealt by ``seed`` under ``reading``.

    The deal is read from the seeded game and the reference's position is
    built again from that explicit deal, exactly as the engine is asked to:
    Throne's objectives of every round, Ascent's first player (and, under
    ``deal=shuffled``, who holds which card).  ``ArgumentError`` if these rules
    cannot be played by that many players.
    """
    return _start(reading.game, reading.rules, players, seed)


@functools.lru_cache(maxsize=4096)
def _start(game: str, rules: Any, players: int, seed: int) -> Start:
    module = GAMES[game]
    seeded = module.new_game(players, rules=rules, seed=seed)
    if module is throne:
        objectives = [
            ["".join(sorted(o)) for o in throne.objectives_of_round(seeded, number)]
            for number in range(1, rules.rounds + 1)
        ]
        state: Any = throne.new_game(players, rules=rules, objectives=objectives)
        deal: dict[str, Any] = {"objectives": objectives}
    else:
        first = ascent.current_player(seeded)
        deal = {"first_player": first}
        owners = None
        if rules.deal == "shuffled":
            owners = ascent.deal_of(rules, players, seed)
            deal["owners"] = list(owners)
        state = ascent.new_game(players, rules=rules, first_player=first, owners=owners)
    if state != seeded:  # pragma: no cover - the deal must say everything chance decided
        raise AssertionError(f"the deal of seed {seed} does not give the seeded game back")
    return Start(players, seed, state, deal)


def grammatical(game: str, text: str) -> bool:
    """Whether ``text`` is written like a move of ``game`` (whether or not it is legal)."""
    return _GRAMMAR[game].fullmatch(text) is not None


@functools.lru_cache(maxsize=256)
def universe(game: str, rules: Any, players: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every move the notation can write in a game of ``players`` seats, by kind.

    Throne: every character on every floor 1-7, every climb, ``yes``, ``no``,
    ``pass``; Ascent: an Advance and a Favour of every card in play, and ``end``.
    The kit tries a sample of those that are illegal in each position.
    """
    if game == "throne":
        letters = rules.letters()
        return (
            ("place", tuple(f"{c}{f}" for c in letters for f in range(1, rules.floors + 1))),
            ("climb", tuple(f"{c}+" for c in letters)),
            ("vote", ("yes", "no")),
            ("pass", ("pass",)),
        )
    first = start(Reading.of(game, rules), players, 0).state
    cards: list[str] = []
    for owner in range(6):
        for letter in "PBLCTF":
            try:
                ascent.parse_move(first, f"{letter}{owner}", check=False)
            except NotationError:
                continue
            cards.append(f"{letter}{owner}")
    return (
        ("advance", tuple(cards)),
        ("favour", tuple(f"x{c}" for c in cards)),
        ("end", ("end",)),
    )


def move_kind(game: str, text: str) -> str:
    """The kind of a move text (``place``, ``climb``, ``vote``, ``pass``; ``advance``,
    ``favour``, ``end``)."""
    if game == "throne":
        if text in ("yes", "no"):
            return "vote"
        if text == "pass":
            return "pass"
        return "climb" if text.endswith("+") else "place"
    if text == "end":
        return "end"
    return "favour" if text.startswith("x") else "advance"


def refusal(module: Any, state: Any, text: str) -> RulesError | None:
    """Why the reference refuses ``text`` in ``state`` (None: it is legal)."""
    try:
        module.parse_move(state, text)
    except (IllegalMove, NotationError) as err:
        return err
    except ArgumentError as err:  # pragma: no cover - parse_move reads any text
        return err
    return None


def events(module: Any, state: Any, move: Any, after: Any) -> tuple[Event, ...]:
    """What ``move`` did, as the reference tells it (``describe``)."""
    return tuple(module.describe(state, move, after))


def clause_of(error: RulesError | None) -> str | None:
    """The clause an error cites (None for a notation error)."""
    return error.clause if isinstance(error, IllegalMove) else None


def texts(moves: Sequence[Any]) -> tuple[str, ...]:
    """Moves in the notation."""
    return tuple(map(str, moves))
