"""The adapters take every reading of Ascent: a game parameter of OpenSpiel (by name,
as text) and the ``rules`` of PettingZoo, and they play the casebook's game of the
reading to the same end as the engine under each reading."""

from __future__ import annotations

from typing import Any

import pytest

from castlerules import ascent, casebook
from castlerules.adapters import openspiel
from castlerules.casebook.declare import Split

pyspiel = pytest.importorskip("pyspiel")

READING_CASES = (
    "ascent-reading-end-test",
    "ascent-reading-end-test-literal",
    "ascent-reading-stack-rank",
    "ascent-reading-favour-takes",
    "ascent-reading-penalty-to",
    "ascent-reading-deal",
)
"""The casebook's cases of the readings added with their options."""


def _readings(key: str) -> tuple[ascent.Rules, ascent.Rules]:
    case = casebook.case(key)
    return case.rules(), case.second_rules()


def _key(engine: ascent.State, legal: list[int]) -> tuple[object, ...]:
    """What a reading decides here: over or not, the legal actions, the board and piles."""
    return (ascent.is_over(engine), tuple(legal), ascent.to_text(engine).rsplit(" ", 1)[0])


def _play(game: Any, rules: ascent.Rules, shown: casebook.Shown) -> tuple[object, ...]:
    """The case's game, then its parting move, in OpenSpiel: what the reading decides."""
    found = shown.found
    engine = ascent.new_game(found.players, rules, seed=found.seed)
    state = game.new_initial_state()
    if rules.deal == "shuffled":  # the engine's deal of the seed, card by card (A18)
        for seat in range(found.players):
            for card, owner in enumerate(engine.owners):
                if owner == seat:
                    state.apply_action(card)
    if state.is_chance_node():
        state.apply_action(ascent.current_player(engine))
    for text in found.moves:
        move = ascent.parse_move(engine, text)
        state.apply_action(game.table.code(move))
        engine = ascent.apply(engine, move)
    assert found.tried is not None
    tried = ascent.parse_move(engine, found.tried, check=False)
    if tried not in ascent.legal_moves(engine):  # refused under this reading, here too
        assert game.table.code(tried) not in state.legal_actions()
        return ("refused", *_key(engine, state.legal_actions()))
    state.apply_action(game.table.code(tried))
    engine = ascent.apply(engine, tried)
    assert state.is_terminal() == ascent.is_over(engine)
    assert openspiel.engine_state(state) == engine
    return _key(engine, [] if state.is_terminal() else state.legal_actions())


@pytest.mark.parametrize("key", READING_CASES)
def test_openspiel_takes_the_reading_as_a_parameter(key: str) -> None:
    """A10, A13, A14, A18: the option by name reaches Rules, reads back from the game's name,
    and after the case's parting move the two games differ, as in the engine."""
    shown = casebook.show(key)
    assert isinstance(shown.focus, Split)
    ends = []
    for rules in _readings(key):
        params = {"players": shown.found.players, **openspiel.params_of(rules, shown.found.players)}
        game = pyspiel.load_game(openspiel.ASCENT, params)
        assert game.rules == rules
        assert pyspiel.load_game(str(game)).rules == rules
        ends.append(_play(game, rules, shown))
    assert ends[0] != ends[1]


@pytest.mark.parametrize("key", READING_CASES)
def test_pettingzoo_takes_the_reading_as_its_rules(key: str) -> None:
    """A10, A13, A14, A18: the environment plays under the reading it is given."""
    pytest.importorskip("pettingzoo")
    from castlerules.adapters.pettingzoo import ascent_env

    shown = casebook.show(key)
    found = shown.found
    over = []
    for rules in _readings(key):
        env = ascent_env(found.players, rules)
        env.reset(seed=found.seed)
        assert env.rules == rules
        for text in found.moves:
            env.step(env.table.code(ascent.parse_move(env.state_, text)))
        assert found.tried is not None
        tried = ascent.parse_move(env.state_, found.tried, check=False)
        refused = tried not in ascent.legal_moves(env.state_)
        if not refused:
            env.step(env.table.code(tried))
        engine = env.state_
        legal = [env.table.code(m) for m in ascent.legal_moves(engine)]
        over.append((refused, *_key(engine, legal)))
    assert over[0] != over[1]
