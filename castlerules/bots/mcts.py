"""The ``mcts`` bot (:mod:`castlerules.bots`): OpenSpiel's Monte Carlo tree search.

``--bot SEAT=mcts`` (or ``mcts:N`` for ``N`` simulations a move, default
:data:`SIMULATIONS`) plays with OpenSpiel's algorithms on the games of
:mod:`castlerules.adapters.openspiel` (needs ``pip install 'castlerules[openspiel]'``):

- Throne: information-set MCTS (``open_spiel.python.algorithms.ismcts``).  The
  bot reads ``observation(state, seat)`` only: every simulation starts from a
  state drawn by :func:`castlerules.adapters.openspiel.determinize` from that view (the
  other seats' objectives and face-down votes drawn at random), so it never
  sees a hidden fact.
- Ascent (perfect information): OpenSpiel's ``MCTSBot`` with random rollouts.

The bot is deterministic for its seed (stream ``play.bot.SEAT``).
"""

from __future__ import annotations

from typing import Any

from castlerules import ascent, throne
from castlerules.core import ArgumentError, Rng

SIMULATIONS = 40
"""Simulations a move by default (``mcts:N`` sets another number)."""


def simulations_of(number: str) -> int:
    """The ``N`` of ``mcts:N`` (1..100000); ``""`` (plain ``mcts``) -> :data:`SIMULATIONS`."""
    if not number:
        return SIMULATIONS
    if not number.isdigit() or not 1 <= int(number) <= 100_000:
        raise ArgumentError(f"bot 'mcts:{number}': write mcts:N with N simulations in 1..100000")
    return int(number)


class MctsBot:
    """``choose(state, seat) -> move`` by OpenSpiel's (information-set) MCTS."""

    def __init__(self, module: Any, seat: int, seed: int, simulations: int = SIMULATIONS) -> None:
        try:
            import numpy as np

            from castlerules.adapters import openspiel
        except ImportError:
            raise ArgumentError(
                "the mcts bot needs OpenSpiel: pip install 'castlerules[openspiel]'"
            ) from None
        self._np = np
        self._os = openspiel
        self._module = module
        self._seat = seat
        self._simulations = simulations
        self._rng = Rng.from_seed(seed, f"play.bot.{seat}")
        self._games: dict[Any, Any] = {}

    def _draw(self) -> int:
        value, self._rng = self._rng.below(2**31)
        return value

    def _game(self, rules: Any, players: int) -> Any:
        key = (rules, players)
        if key not in self._games:
            self._games[key] = self._os.game_of(rules, players)
        return self._games[key]

    def __call__(self, state: Any, seat: int) -> Any:
        from open_spiel.python.algorithms import ismcts, mcts

        moves = self._module.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        random_state = self._np.random.RandomState(self._draw())
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        if self._module is throne:
            players = state.players
            game = self._game(state.rules, players)
            # The root, like every simulation, comes from this seat's view only.
            drawn, self._rng = self._os.determinize(throne.observation(state, seat), self._rng)
            root = self._os.throne_state(game, drawn)
            bot: Any = ismcts.ISMCTSBot(
                game,
                evaluator,
                2.0,
                self._simulations,
                random_state=random_state,
                use_observation_string=True,
            )
            bot.set_resampler(self._os.resampler(self._draw()))
        else:
            game = self._game(state.rules, len(state.columns))
            root = self._os.ascent_state(game, ascent.observation(state, seat))
            bot = mcts.MCTSBot(
                game,
                2.0,
                self._simulations,
                evaluator,
                random_state=random_state,
                solve=False,
            )
        action = bot.step(root)
        return game.table.move(int(action))
