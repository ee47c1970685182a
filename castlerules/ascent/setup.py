"""The setup's chance (A18): the die that designates the first player, and the deal.

Pure functions of the rules, the player count and the game's seed, each on a
chance stream of its own (``ascent.die``, ``ascent.deal``), so that the deal
never changes who begins.  :func:`castlerules.ascent.new_game` builds the first
position from them.
"""

from __future__ import annotations

import functools

from castlerules.ascent.rules import CARDS_PER_SET, PLAYERS, Rules, Tables
from castlerules.ascent.state import CARDS
from castlerules.core.chance import Rng, check_seed
from castlerules.core.errors import ArgumentError

__all__ = [
    "check_every_seat_dealt",
    "check_owners",
    "check_players",
    "deal_in_order",
    "deal_of",
    "first_player_of",
]


def check_players(players: object) -> int:
    """``players`` when it is a player count of Ascent; :class:`ArgumentError` otherwise."""
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYERS:
        raise ArgumentError(
            f"players must be an int in {PLAYERS.start}..{PLAYERS.stop - 1}, not {players!r}"
        )
    return players


def first_player_of(rules: Rules, players: int, seed: int) -> int:
    """The seat the die designates (A18; Note 'what the die decides').

    The die is rolled until it shows a face ``1..players``; seat ``face - 1``
    begins.  With ``die="none"`` seat 0 begins.
    """
    if rules.die == "none":
        return 0
    rng = Rng.from_seed(seed, "ascent.die")
    while True:
        face, rng = rng.die()
        if face <= players:
            return face - 1


def deal_of(rules: Rules, players: int, seed: int) -> tuple[int, ...]:
    """Per card number, the seat dealt that card, or -1 for a card out of play (A2, A18).

    ``deal="sets"``: seat p is dealt set p (the cards of the sets of absent
    players, and those option ``cards`` leaves out, stay out of play); the seed
    is unused.  ``deal="shuffled"``: the cards in play are shuffled by the
    seed's chance (stream ``ascent.deal``, apart from the die's) and dealt in
    order, the first ``k = len(cards) // players`` to seat 0, the next ``k`` to
    seat 1, and so on; the cards left over stay out of play.

    >>> deal_of(Rules(), 2, 0)[:7]
    (0, 0, 0, 0, 0, 0, 1)
    >>> owners = deal_of(Rules(deal="shuffled"), 5, 7)
    >>> [owners.count(seat) for seat in range(-1, 5)]
    [1, 7, 7, 7, 7, 7]
    """
    n = check_players(players)
    if not isinstance(rules, Rules):
        raise ArgumentError(f"rules must be an ascent Rules, not {type(rules).__name__}")
    check_seed(seed)
    return _deal(rules, n, seed if rules.deal == "shuffled" else 0)


def check_every_seat_dealt(rules: Rules, players: int) -> None:
    """:class:`ArgumentError` unless every seat of a game of ``players`` is dealt a card.

    A seat with no card has no Advance: a game it begins would have no legal move and
    not be over (A3, A14).  Option ``cards`` can leave a seat none: under
    ``deal="sets"`` when no card of its set is in play, under ``"shuffled"`` when
    fewer cards are in play than seats (A2, A18).

    >>> try:
    ...     check_every_seat_dealt(Rules(cards=("L0", "T1")), 3)
    ... except ArgumentError as err:
    ...     print(str(err).split(":")[0])
    with these cards seat 2 is dealt no card (no card of set 2 is in play)
    """
    t = Tables.of(rules)
    for seat in range(players):
        if rules.deal == "shuffled":
            if len(t.dealable) >= players:
                return
            why = f"{len(t.dealable)} cards in play for {players} seats"
        elif any(t.in_play[seat * CARDS_PER_SET : (seat + 1) * CARDS_PER_SET]):
            continue
        else:
            why = f"no card of set {seat} is in play"
        raise ArgumentError(
            f"with these cards seat {seat} is dealt no card ({why}): a game it begins has no "
            "move; put a card of every seat in option cards (A2, A18)"
        )


@functools.lru_cache(maxsize=1024)
def _deal(rules: Rules, n: int, seed: int) -> tuple[int, ...]:
    t = Tables.of(rules)
    owners = [-1] * len(t.in_play)
    if rules.deal == "sets":
        for c in range(n * CARDS_PER_SET):
            if t.in_play[c]:
                owners[c] = c // CARDS_PER_SET
        return tuple(owners)
    order, _ = Rng.from_seed(seed, "ascent.deal").shuffled(t.dealable)
    return deal_in_order(rules, n, order)


def deal_in_order(rules: Rules, players: int, order: tuple[int, ...]) -> tuple[int, ...]:
    """The deal (per card number, a seat or -1) of cards dealt in ``order`` under
    ``deal="shuffled"`` (A18): the first ``k = len(order) // players`` to seat 0, the
    next ``k`` to seat 1, and so on; the rest stay out of play.  ``order`` is the whole
    shuffled deck, or just the cards dealt (OpenSpiel's chance nodes).

    >>> owners = deal_in_order(Rules(deal="shuffled"), 2, (35, 0, 1, 2))
    >>> owners[35], owners[:3], owners[3]
    (0, (0, 1, 1), -1)
    """
    n = players
    owners = [-1] * len(Tables.of(rules).in_play)
    k = len(order) // n
    for i, c in enumerate(order[: k * n]):
        owners[c] = i // k
    return tuple(owners)


def check_owners(rules: Rules, players: int, owners: object) -> tuple[int, ...]:
    """``owners`` as a deal of ``players`` seats under ``rules``, or ``ArgumentError``.

    A deal gives every card number (``0..35``) a seat or -1 (out of play).
    Under ``deal="sets"`` the one deal is :func:`deal_of`'s; under
    ``"shuffled"`` every card in play goes to a seat, each seat gets
    ``len(cards) // players`` of them, and only the cards left over are out (A18).
    """
    n = check_players(players)
    size = len(Tables.of(rules).in_play)
    if (
        not isinstance(owners, tuple)
        or len(owners) != size
        or not all(isinstance(o, int) and not isinstance(o, bool) for o in owners)
    ):
        raise ArgumentError(
            f"owners must be a tuple of {size} ints, a seat in 0..{n - 1} or -1 per card number"
        )
    if rules.deal == "sets":
        if owners != deal_of(rules, n, 0):
            raise ArgumentError(
                "under deal=sets seat p holds set p: owners must be deal_of(rules, players, 0) (A2)"
            )
        return owners
    t = Tables.of(rules)
    k = len(t.dealable) // n
    for c, o in enumerate(owners):
        if not -1 <= o < n:
            raise ArgumentError(f"card {CARDS[c]} is dealt to seat {o}, not a seat in 0..{n - 1}")
        if o >= 0 and not t.in_play[c]:
            raise ArgumentError(f"card {CARDS[c]} is dealt, but it is not in play (option cards)")
    counts = [owners.count(q) for q in range(n)]
    if counts != [k] * n:
        raise ArgumentError(
            f"deal=shuffled deals {k} cards to each of {n} seats (A18), not {counts}"
        )
    return owners
