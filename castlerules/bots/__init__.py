"""Computer players: ``random``, ``greedy``, ``montecarlo`` and ``mcts``, for both games.

A bot is a callable ``choose(state, seat) -> move``, deterministic for its
seed (:func:`make_bot`).  Bots look only at what their seat may know: the
public position, and in Throne their own objective and No cards (never
another seat's objective, never another seat's vote).  They are used by
``castlerules play --bot SEAT=KIND`` and by the studies
(:mod:`castlerules.study`).

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
``montecarlo``
    Flat Monte Carlo over the public API: for each legal move it plays
    :data:`PLAYOUTS` playouts from the position after the move and keeps the
    move with the best average outcome (the seat's share of the win, plus its
    lead over the best other seat / 100).  Throne's playouts stop at the end
    of the round, every seat playing for its favourites and voting as
    ``greedy`` does (random play would vote at random and make the playouts
    meaningless).  Ascent's play to the end of the game with every seat
    playing ``greedy``: Ascent hides nothing and these playouts draw nothing,
    so one per move is enough (random playouts lose to ``greedy``).  Under
    hidden information (Throne) every playout starts from a *determinization*:
    the real position with every part the seat may not see replaced by a
    sample consistent with ``observation(state, seat)`` (:func:`determinize`).
    Its draws come from the stream ``play.bot.SEAT`` of the seed.
``mcts`` (``mcts:N``: N simulations a move)
    OpenSpiel's Monte Carlo tree search (information-set MCTS for Throne) on
    the games of :mod:`castlerules.adapters.openspiel`; see :mod:`castlerules.bots.mcts`.
    Needs the ``openspiel`` extra.

A kind may carry one parameter after a colon (``mcts:200``); only the kinds
that take one accept it (:func:`check_kind`).

>>> from castlerules import throne
>>> state = throne.new_game(players=3, seed=1)
>>> bot = make_bot("montecarlo", throne, 0, seed=1)
>>> bot(state, 0) in throne.legal_moves(state)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from castlerules import ascent, throne
from castlerules.core import ArgumentError, Rng
from castlerules.throne.sampling import determinize as sample_state

__all__ = [
    "FACTORIES",
    "KINDS",
    "PLAYOUTS",
    "Bot",
    "MonteCarloBot",
    "RandomBot",
    "ascent_greedy",
    "check_kind",
    "determinize",
    "make_bot",
    "throne_greedy",
]

Bot = Callable[[Any, int], Any]
"""``choose(state, seat) -> move``: a computer player."""

PLAYOUTS = 8
"""Random playouts per legal move of the ``montecarlo`` bot."""


def _stream(seat: int) -> str:
    return f"play.bot.{seat}"


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


# ---------------------------------------------------------------------------
# Determinization: the hidden parts of a position, sampled from one seat's view


def determinize(module: Any, state: Any, seat: int, rng: Rng) -> tuple[Any, Rng]:
    """A position ``seat`` cannot tell from ``state``, its hidden parts drawn from ``rng``.

    Only what ``observation(state, seat)`` shows is kept, and the sample is
    drawn from that observation alone
    (:func:`castlerules.throne.sampling.determinize`, every round dealt: the
    function the mcts bot's samples come from too; interpretation note
    "adapters: what the search bots draw", B11):

    - Throne: the other seats' objectives of the current round and every
      seat's objectives of later rounds (distinct cards, B4); the other seats'
      votes cast face down in the current election (No only for a seat with a
      No card, B11); and, when ``no_cards_public`` is off, the other seats'
      No counts (uniform among those a game reaches: the eliminations of the round
      cost at least one No card each, and a seat spends at most one per elimination,
      B11, B13).
    - Ascent hides nothing: the position itself.

    >>> from castlerules import throne
    >>> state = throne.new_game(players=4, seed=3)
    >>> sample, _ = determinize(throne, state, 2, Rng.from_seed(0))
    >>> throne.observation(sample, 2) == throne.observation(state, 2)
    True
    """
    if module is not throne or throne.is_over(state):
        return state, rng
    # From the seat's observation alone (castlerules.throne.sampling), every round dealt.
    return sample_state(throne.observation(state, seat), rng, deal_future=True)


# ---------------------------------------------------------------------------
# Flat Monte Carlo


def _outcome(module: Any, state: Any, seat: int) -> float:
    """A playout's value for ``seat``: its share of the win (once over) + its lead / 100."""
    scores: tuple[int, ...] = module.scores(state)
    winners: tuple[int, ...] = module.winners(state)
    share = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max((s for i, s in enumerate(scores) if i != seat), default=0)
    return share + (scores[seat] - best_other) / 100.0


def _throne_policy(state: Any, moves: tuple[Any, ...], rng: Rng) -> tuple[Any, Rng]:
    """The playout policy of Throne: each seat plays for the favourites of the sample.

    Votes as ``greedy`` votes (B11); otherwise, three times in four, a random
    move of one of the seat's favourites (when there is one), else a random
    move other than a pass.
    """
    seat = throne.current_player(state)
    assert seat is not None
    favourites = throne.objective(state, seat)
    first = moves[0]
    if isinstance(first, throne.Vote):
        wants_yes = throne.candidate(state) in favourites or throne.no_cards(state, seat) == 0
        return (first if first.yes == wants_yes else moves[-1]), rng
    roll, rng = rng.below(4)
    if roll < 3:
        mine = [m for m in moves if not isinstance(m, throne.Pass) and m.character in favourites]
        if mine:
            return rng.choice(mine)
    climbs = [m for m in moves if not isinstance(m, throne.Pass)]
    return rng.choice(climbs or moves)


def _ascent_policy(state: Any, moves: tuple[Any, ...], rng: Rng) -> tuple[Any, Rng]:
    """The playout policy of Ascent: every seat plays ``greedy`` (it draws nothing)."""
    seat = ascent.current_player(state)
    assert seat is not None
    return ascent_greedy(state, seat), rng


class MonteCarloBot:
    """Flat Monte Carlo: playouts from determinized positions after each legal move.

    A Throne playout stops at the end of the current round (the round score
    decides the value), an Ascent playout at the end of the game.
    """

    def __init__(self, rng: Rng, module: Any, playouts: int = PLAYOUTS) -> None:
        if playouts < 1:
            raise ArgumentError(f"playouts must be at least 1, not {playouts}")
        self._rng = rng
        self._module = module
        # Ascent hides nothing and its playouts draw nothing: one is enough.
        self._playouts = playouts if module is throne else 1
        self._policy = _throne_policy if module is throne else _ascent_policy

    def _playout(self, state: Any, seat: int, round_number: int) -> float:
        module = self._module
        legal_moves, apply, policy = module.legal_moves, module.apply, self._policy
        rng = self._rng
        rounds = module is throne
        while not (rounds and throne.round_of(state) != round_number):
            moves = legal_moves(state)
            if not moves:
                break
            move, rng = policy(state, moves, rng)
            state = apply(state, move)
        self._rng = rng
        return _outcome(module, state, seat)

    def __call__(self, state: Any, seat: int) -> Any:
        module = self._module
        moves = module.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        round_number = throne.round_of(state) if module is throne else 0
        totals = [0.0] * len(moves)
        for _ in range(self._playouts):
            for i, move in enumerate(moves):
                sample, self._rng = determinize(module, state, seat, self._rng)
                totals[i] += self._playout(module.apply(sample, move), seat, round_number)
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]


# ---------------------------------------------------------------------------
# The registry


def _plain(kind: str, arg: str) -> None:
    if arg:
        raise ArgumentError(f"the {kind} bot takes no parameter (write {kind}, not {kind}:{arg})")


def _random(module: Any, seat: int, seed: int, arg: str) -> Bot:
    _plain("random", arg)
    return RandomBot(Rng.from_seed(seed, _stream(seat)), module)


def _greedy(module: Any, seat: int, seed: int, arg: str) -> Bot:
    _plain("greedy", arg)
    if module is throne:
        return throne_greedy
    return ascent_greedy


def _montecarlo(module: Any, seat: int, seed: int, arg: str) -> Bot:
    _plain("montecarlo", arg)
    return MonteCarloBot(Rng.from_seed(seed, _stream(seat)), module)


def _mcts(module: Any, seat: int, seed: int, arg: str) -> Bot:
    from castlerules.bots.mcts import MctsBot, simulations_of

    return MctsBot(module, seat, seed, simulations_of(arg))


FACTORIES: dict[str, Callable[[Any, int, int, str], Bot]] = {
    "random": _random,
    "greedy": _greedy,
    "montecarlo": _montecarlo,
    "mcts": _mcts,
}
"""``kind -> factory(module, seat, seed, parameter)``: every kind of bot, by name
(add one here); ``parameter`` is the text after ``KIND:``, or ``""``."""

KINDS: tuple[str, ...] = tuple(FACTORIES)
"""The kinds of bot, by name."""


def check_kind(kind: str) -> tuple[str, str]:
    """``"mcts:200"`` -> ``("mcts", "200")``; an ``ArgumentError`` for an unknown kind."""
    name, _sep, arg = kind.partition(":")
    if name not in FACTORIES:
        raise ArgumentError(f"unknown bot {kind!r}; the bots are: {', '.join(FACTORIES)}")
    return name, arg


def make_bot(kind: str, module: Any, seat: int, seed: int) -> Bot:
    """A bot of ``kind`` for ``seat`` of a game of ``module``, its draws from ``seed``."""
    name, arg = check_kind(kind)
    return FACTORIES[name](module, seat, seed, arg)
