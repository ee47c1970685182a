"""Computer players for ``castlerules play``: ``random``, ``greedy`` and ``mcts``.

A bot is a function ``choose(state, seat) -> move``, deterministic for its
seed.  Bots look only at what their seat may know: the public position, and
in Throne their own objective and No cards (never another seat's objective,
never another seat's vote).

``random``
    A uniformly random legal move, from a seeded generator (stream
    ``play.bot.SEAT``): the same seed gives the same game.
``greedy``
    One ply of look-ahead with a fixed heuristic, ties broken by the order of
    ``legal_moves`` (so it is deterministic, and needs no seed):

    - Throne, placing or climbing: the move after which the seat's own
      favourites stand on the floors worth the most points (B14), then the one
      after which the other characters are worth the least (a non-favourite
      is placed low and climbed last); it never passes if it can climb.
    - Throne, voting (B11): Yes when the candidate is one of the seat's
      favourites, or when the seat has no No card left; otherwise No.
    - Ascent: the move after which the seat's own score (A15, A16) is the
      highest, then the one after which the best other score is the lowest.
``mcts`` (``mcts:N``)
    OpenSpiel's Monte Carlo tree search, information-set MCTS for Throne (see
    :mod:`castlerules.cli.mcts_bot`; needs the ``openspiel`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from castlerules import ascent, throne
from castlerules.core import ArgumentError, Rng

Bot = Callable[[Any, int], Any]
"""``choose(state, seat) -> move``: a computer player."""

KINDS = ("random", "greedy", "mcts")
"""The kinds of bot, by name."""


def make_bot(kind: str, module: Any, seat: int, seed: int) -> Bot:
    """A bot of ``kind`` for ``seat`` of a game of ``module``."""
    if kind == "mcts" or kind.startswith("mcts:"):  # OpenSpiel's MCTS (castlerules.cli.mcts_bot)
        from castlerules.cli.mcts_bot import make_mcts_bot

        return make_mcts_bot(kind, module, seat, seed)
    if kind == "random":
        return RandomBot(Rng.from_seed(seed, f"play.bot.{seat}"), module)
    if kind == "greedy":
        if module is throne:
            return throne_greedy
        if module is ascent:
            return ascent_greedy
    raise ArgumentError(f"unknown bot {kind!r}; the bots are: {', '.join(KINDS)}")


class RandomBot:
    """A uniformly random legal move from a seeded generator (it keeps its own draws)."""

    def __init__(self, rng: Rng, module: Any) -> None:
        self._rng = rng
        self._module = module

    def __call__(self, state: Any, seat: int) -> Any:
        move, self._rng = self._rng.choice(self._module.legal_moves(state))
        return move


def _best(moves: tuple[Any, ...], key: Callable[[Any], tuple[int, ...]]) -> Any:
    """The first move with the highest key (the order of ``legal_moves`` breaks ties)."""
    best = moves[0]
    best_key = key(best)
    for move in moves[1:]:
        value = key(move)
        if value > best_key:
            best, best_key = move, value
    return best


def throne_greedy(state: Any, seat: int) -> Any:
    """Throne's greedy bot (see the module's description)."""
    moves = throne.legal_moves(state)
    favourites = "".join(sorted(throne.objective(state, seat)))
    if any(isinstance(m, throne.Vote) for m in moves):
        candidate = throne.candidate(state)
        wants_yes = (candidate is not None and candidate in favourites) or throne.no_cards(
            state, seat
        ) == 0
        return throne.Vote(True) if wants_yes else throne.Vote(False)
    others = "".join(c for c in state.rules.letters() if c not in favourites)

    def key(move: Any) -> tuple[int, ...]:
        if isinstance(move, throne.Pass):
            return (-(10**9), 0)
        after = throne.apply(state, move)
        if throne.round_of(after) != throne.round_of(state) or throne.is_over(after):
            # The move ended the round: judge it by the round score it gave.
            return (throne.totals(after)[seat] - throne.totals(state)[seat], 0)
        return (throne.castle_points(after, favourites), -throne.castle_points(after, others))

    return _best(moves, key)


def ascent_greedy(state: Any, seat: int) -> Any:
    """Ascent's greedy bot (see the module's description)."""
    moves = ascent.legal_moves(state)

    def key(move: Any) -> tuple[int, ...]:
        scores = ascent.scores(ascent.apply(state, move))
        best_other = max((s for i, s in enumerate(scores) if i != seat), default=0)
        return (scores[seat], -best_other)

    return _best(moves, key)
