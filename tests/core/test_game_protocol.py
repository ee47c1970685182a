"""Every game module conforms to the Game protocol (api.md), checked the same way for each.

What only one game has (its move classes, its queries, hidden information,
its options) is tested in that game's ``test_api.py``.
"""

from __future__ import annotations

import inspect
from types import ModuleType

import attrs
import pytest

import castlerules
from castlerules import ascent, throne
from castlerules.core import CLAUSES, Game, Note, Rng, random_playout

# Type-checked by mypy against the protocol; the ids are the game names (plain strings,
# the same in every pytest-xdist worker).
GAMES: dict[str, Game] = {"throne": throne, "ascent": ascent}
PLAYERS = {"throne": range(3, 7), "ascent": range(2, 7)}
CLAUSE_LETTER = {"throne": "B", "ascent": "A"}

# The names every game module exports (api.md); each game's test_api.py lists its own.
COMMON = [
    "NAME",
    "PLAYERS",
    "Rules",
    "State",
    "Move",
    "new_game",
    "current_player",
    "legal_moves",
    "apply",
    "is_over",
    "scores",
    "winners",
    "to_text",
    "from_text",
    "parse_move",
    "perft",
    "observation",
    "describe",
    "NOTES",
]

each_game = pytest.mark.parametrize("name", list(GAMES))


def module(name: str) -> ModuleType:
    game = GAMES[name]
    assert isinstance(game, ModuleType)
    return game


@each_game
def test_the_module_exports_the_common_names(name: str) -> None:
    game = module(name)
    for exported in COMMON:
        assert hasattr(game, exported), exported
        assert exported in game.__all__, exported
    assert name == game.NAME
    assert PLAYERS[name] == game.PLAYERS
    assert getattr(castlerules, name) is game


@each_game
def test_the_module_is_a_game(name: str) -> None:
    game = GAMES[name]
    for attribute in Game.__annotations__:  # the attributes: NAME, PLAYERS
        assert hasattr(game, attribute)
    methods = [m for m in dir(Game) if not m.startswith("_") and callable(getattr(Game, m))]
    assert {"new_game", "apply", "legal_moves", "describe", "observation"} <= set(methods)
    for method in methods:
        function = getattr(game, method)
        assert callable(function), method
        # The protocol's parameters, in order, lead the function's (extra ones have defaults).
        wanted = list(inspect.signature(getattr(Game, method)).parameters)[1:]  # without self
        given = list(inspect.signature(function).parameters.values())
        assert [p.name for p in given[: len(wanted)]] == wanted, method
        assert all(p.default is not p.empty for p in given[len(wanted) :]), method
    s = game.new_game(4, None, 7)
    assert game.current_player(s) in range(4)
    assert game.perft(s, 1) == len(game.legal_moves(s))


@each_game
def test_determinism_and_immutability(name: str) -> None:
    game = module(name)
    a = game.new_game(4, seed=7)
    b = game.new_game(4, seed=7)
    assert a == b and hash(a) == hash(b)
    rng_a = rng_b = Rng.from_seed(1)
    for _ in range(80):
        if game.is_over(a):
            break
        move_a, rng_a = rng_a.choice(game.legal_moves(a))
        move_b, rng_b = rng_b.choice(game.legal_moves(b))
        assert move_a == move_b
        text = game.to_text(a)
        a2 = game.apply(a, move_a)
        assert game.to_text(a) == text  # the input is unchanged
        a, b = a2, game.apply(b, move_b)
        assert a == b
    for field in attrs.fields(type(a)):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(a, field.name, 3)


@each_game
def test_same_arguments_and_moves_give_equal_states(name: str) -> None:
    game = module(name)
    for seed in range(5):
        a = game.new_game(5, seed=seed)
        b = game.new_game(5, seed=seed)
        history, end_a, _ = random_playout(game.legal_moves, game.apply, a, Rng.from_seed(1))
        for _state, move in history:
            b = game.apply(b, move)
        assert b == end_a
        assert game.is_over(b)


@each_game
def test_from_text_of_to_text_is_identity_for_fresh_games(name: str) -> None:
    game = module(name)
    for players in game.PLAYERS:
        for preset in game.Rules.PRESETS:
            s = game.new_game(players, rules=game.Rules.preset(preset), seed=players)
            assert game.from_text(game.to_text(s)) == s


@each_game
def test_notes_are_well_formed(name: str) -> None:
    """Each Note cites a clause of its own game and, if any, an option of its Rules."""
    game = module(name)
    options = {f.name for f in attrs.fields(game.Rules)}
    assert len(game.NOTES) >= 15
    topics = set()
    for note in game.NOTES:
        assert isinstance(note, Note)
        assert note.clause in CLAUSES and note.clause.startswith(CLAUSE_LETTER[name])
        assert CLAUSES[note.clause].game == name
        assert note.option is None or note.option in options
        assert note.topic and note.decision
        assert note.decision.endswith(".")
        topics.add((note.clause, note.topic))
    assert len(topics) == len(game.NOTES)
