"""Positions on the command line: reading them, and reading them under other rules.

A position text holds its rules (the options that differ from the reference
reading, in one field of the notation).  To ask "what if the rules were
different?", :func:`reinterpret` writes the same position with another rules
field and reads it back with the game's own ``from_text``, so that a position
that cannot exist under the other rules is refused by the game's own checks
rather than silently mis-built.
"""

from __future__ import annotations

from typing import Any

from castlerules import records
from castlerules.ascent import notation as ascent_notation
from castlerules.core import ArgumentError, NotationError, RulesError, seed_from_text
from castlerules.throne import notation as throne_notation

NEW_PREFIX = "new:"
"""``new:PLAYERS[:SEED]`` names the starting position of a new game."""


def players(state: Any) -> int:
    """The number of players of a position."""
    return int(state.players) if hasattr(state, "players") else len(state.columns)


def _fields(text: str) -> list[str]:
    return text.split(" ")


RULES_FIELD = {"throne": 1, "ascent": 3}
"""Where each game's position notation writes the rules: Throne 2nd field, Ascent 4th
(before the deal, the fifth field under ``deal=shuffled``)."""


def options_field(module: Any, text: str) -> int:
    """The index of the rules field in the game's position notation."""
    index = RULES_FIELD[module.NAME]
    return index % len(_fields(text))


def rules_text(module: Any, rules: Any, n_players: int) -> str:
    """The rules field that the game's notation writes for ``rules``."""
    try:
        start = module.new_game(n_players, rules=rules)
    except (RulesError, ValueError) as err:
        raise ArgumentError(f"these rules cannot be played by {n_players}: {err}") from None
    text = module.to_text(start)
    return _fields(text)[options_field(module, text)]


def reinterpret(module: Any, state: Any, rules: Any) -> Any:
    """The same position under other ``rules``, read back by the game's ``from_text``.

    Raises :class:`~castlerules.core.RulesError` when the position cannot
    exist under those rules.
    """
    if rules == state.rules:
        return state
    text = module.to_text(state)
    parts = _fields(text)
    parts[options_field(module, text)] = rules_text(module, rules, players(state))
    if module.NAME == "ascent" and rules.deal != state.rules.deal:
        parts = _redealt(parts, state, rules)
    try:
        return module.from_text(" ".join(parts))
    except NotationError as err:
        raise ArgumentError(f"the position cannot exist under these rules: {err}") from None


def _redealt(parts: list[str], state: Any, rules: Any) -> list[str]:
    """An Ascent position's fields under the other deal (A18): the deal field written
    from the cards' owners for ``deal=shuffled``, or dropped for ``deal=sets``; the
    other reading's ``from_text`` then says whether such a deal can exist (under
    ``shuffled`` each seat holds ``36 // n`` cards; under ``sets`` seat p holds set p)."""
    if rules.deal == "sets":
        return parts[:4]
    return [*parts[:4], ascent_notation.deal_text(state.owners, players(state))]


Unknown = frozenset[tuple[int, int]]
"""Throne objectives that a position text does not give: ``(round, seat)``."""

NOTHING_UNKNOWN: Unknown = frozenset()


def text_of(module: Any, state: Any, unknown: Unknown = NOTHING_UNKNOWN) -> str:
    """The position's text, with ``?`` for the objectives it was not given."""
    if unknown:
        return throne_notation.write_partial(state, unknown)
    return str(module.to_text(state))


def board_text(module: Any, state: Any, unknown: Unknown = NOTHING_UNKNOWN) -> str:
    """The position's text without its rules field, and for Ascent without its deal (to
    compare positions across readings; a deal never changes during a game, A18)."""
    text = text_of(module, state, unknown)
    parts = _fields(text)
    at = options_field(module, text)
    del parts[at : at + 1 if module.NAME == "throne" else None]
    return " ".join(parts)


def load(module: Any, text: str, rules: Any | None, preset: str | None) -> Any:
    """Read a POSITION argument: a position text or ``new:PLAYERS[:SEED]``.

    ``rules``, if given, replaces the position's own rules (see
    :func:`reinterpret`); a ``new:`` position starts with ``rules`` or the
    reading ``preset``.
    """
    return load_partial(module, text, rules, preset, partial=False)[0]


def load_partial(
    module: Any, text: str, rules: Any | None, preset: str | None, *, partial: bool = True
) -> tuple[Any, Unknown]:
    """:func:`load`, where a Throne position may leave objectives unknown (``?``, see
    :func:`castlerules.throne.notation.read_partial`): the state (with stand-ins for
    them) and which objectives are unknown."""
    if text.startswith(NEW_PREFIX):
        return _new(module, text[len(NEW_PREFIX) :], rules, preset), NOTHING_UNKNOWN
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
        state = reinterpret(module, state, rules)
    return state, unknown


def _new(module: Any, spec: str, rules: Any | None, preset: str | None) -> Any:
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
    count = int(parts[0])
    seed = seed_from_text(parts[1], "the seed of new:PLAYERS:SEED") if len(parts) == 2 else 0
    if rules is None:
        rules = records.build_rules(module, preset, {})
    return module.new_game(count, rules=rules, seed=seed)


def situation(module: Any, state: Any) -> str:
    """One line: who plays next, or the final scores."""
    if module.is_over(state):
        scores = ", ".join(str(s) for s in module.scores(state))
        winners = ", ".join(f"seat {w}" for w in module.winners(state))
        return f"the game is over: scores {scores}; won by {winners}"
    extra = ""
    phase = getattr(module, "phase", None)
    if callable(phase):
        extra = f" ({phase(state)} phase, round {module.round_of(state)})"
    return f"next: seat {module.current_player(state)} to play{extra}"
