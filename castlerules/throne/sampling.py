"""Throne's chance and hidden information: the deal of the objectives (B4) and the
positions drawn from what one seat knows (the determinization of the search bots).

:func:`deal_objectives` deals every round's objectives from a seed and
:func:`read_objectives` checks objectives given by hand; both give bit masks
(bit i: character i).

A seat of Throne does not see the other seats' objectives of the current
round, their face-down votes (B11) or, unless ``no_cards_public``, their No
counts.  :func:`determinize` draws a full position from an
:class:`~castlerules.throne.Observation` alone, so a bot that searches the
drawn positions can never read a hidden fact.  The montecarlo bot
(:mod:`castlerules.bots`) and the mcts bot (through
:func:`castlerules.adapters.openspiel.determinize`) both use it.

Every drawn position is one a game reaches, seen alike by the seat.  A position holds
no history, so the hidden No counts are drawn from what the view tells of it
(interpretation, B11, B13, B14): each character eliminated took at least one No vote,
each No vote cost its voter one card, and a seat votes once per election, so with
``E`` characters eliminated since the cards were last dealt the spendings a game
reaches are exactly those where no seat spent more than ``E`` and all together at
least ``E`` (:func:`may_have_spent`; the hidden counts are drawn uniformly among
them).  Where the cards come back each round (``no_cards_reset_each_round``, the
default) and in every first round, ``E`` is this round's eliminations, seen in the
castle.  Where they are kept, ``E`` adds each finished round's, read from what its
scoring showed (:func:`round_eliminations`: the castles that give its scores for its
objectives under its king); the draw is among the spendings some such total allows
(:func:`elimination_totals`).  ``tests/proofs/test_sampler_tied.py`` ties this to the
kernel: every position of the small scopes where the cards come back, and a sample of
a two-round scope where they are kept.  What the sampler does not read of a finished
round: the floors' capacities (B7) and whether a castle that gives its scores could
be reached by that round's placements and climbs (B6-B9); where such castles alone
give a count of eliminations, a draw may be a position no game reaches (none found
in the tied scopes; see ``docs/proofs.rst``).

>>> from castlerules import throne
>>> from castlerules.core import Rng
>>> state = throne.new_game(players=4, seed=3)
>>> sample, _ = determinize(throne.observation(state, 2), Rng.from_seed(0))
>>> throne.observation(sample, 2) == throne.observation(state, 2)
True
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from castlerules.core.chance import Rng
from castlerules.core.errors import ArgumentError
from castlerules.throne.rules import Rules, derived
from castlerules.throne.state import ELIMINATED, PHASES, Observation, State


def deal_objectives(rules: Rules, players: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """Every round's objectives dealt from ``seed``, as bit masks per round per seat (B4)."""
    rng = Rng.from_seed(seed, "throne/objectives")
    characters, size = rules.characters, rules.objective_size
    out: list[tuple[int, ...]] = []
    for _ in range(rules.rounds):
        masks: list[int] = []
        if rules.objective_deck is not None:
            cards, rng = rng.shuffled(rules.objective_deck)
            masks = [letters_mask(rules, card) for card in cards[:players]]
        else:
            while len(masks) < players:
                # rng.sample(range(characters), size) as a mask (bit i: character i).
                mask, rng = rng.sample_mask(characters, size)
                if mask not in masks:  # B4: a deck has no two identical cards
                    masks.append(mask)
        out.append(tuple(masks))
    return tuple(out)


def read_objectives(rules: Rules, players: int, objectives: object) -> tuple[tuple[int, ...], ...]:
    """Check explicit objectives (one sequence per round, one string per seat); as masks."""
    letters = rules.letters()
    shape = (
        f"objectives must be a sequence of {rules.rounds} rounds, each a sequence of "
        f"{players} strings of {rules.objective_size} distinct letters from "
        f"{letters[0]}-{letters[-1]} (one per seat)"
    )
    if isinstance(objectives, str | bytes) or not isinstance(objectives, Sequence):
        raise ArgumentError(f"{shape}, not {objectives!r}")
    if len(objectives) != rules.rounds:
        raise ArgumentError(f"{shape}; {len(objectives)} rounds were given")
    out: list[tuple[int, ...]] = []
    for number, deal in enumerate(objectives, start=1):
        if isinstance(deal, str | bytes) or not isinstance(deal, Sequence):
            raise ArgumentError(f"{shape}; round {number} is {deal!r}")
        if len(deal) != players:
            raise ArgumentError(f"{shape}; round {number} has {len(deal)} objectives")
        masks: list[int] = []
        for seat, card in enumerate(deal):
            if (
                not isinstance(card, str)
                or len(card) != rules.objective_size
                or len(set(card)) != len(card)
                or not set(card) <= set(letters)
            ):
                raise ArgumentError(f"{shape}; round {number}, seat {seat} has {card!r}")
            if (
                rules.objective_deck is not None
                and "".join(sorted(card)) not in rules.objective_deck
            ):
                raise ArgumentError(
                    f"objectives must be cards of the objective_deck; round {number}, "
                    f"seat {seat} has {card!r}"
                )
            mask = letters_mask(rules, card)
            if mask in masks:
                raise ArgumentError(
                    f"objectives within a round must differ (a deck has no two identical "
                    f"cards); round {number} gives {card!r} twice"
                )
            masks.append(mask)
        out.append(tuple(masks))
    return tuple(out)


def letters_mask(rules: Rules, letters: str) -> int:
    """The bit mask of a string of character letters (bit i: character i)."""
    index = derived(rules).index
    return sum(1 << index[ch] for ch in letters)


def mask_letters(rules: Rules, mask: int) -> str:
    """The letters of a bit mask of characters, in alphabetical order."""
    return "".join(ch for i, ch in enumerate(rules.letters()) if mask >> i & 1)


def determinize(obs: Observation, rng: Rng, *, deal_future: bool = False) -> tuple[State, Rng]:
    """A state drawn from ``obs`` (what one seat knows) alone, and the next generator.

    The seat's view is kept as it is (``observation(result, obs.seat) == obs``);
    what it cannot see is drawn uniformly, in this order: the hidden No counts
    (uniformly among those a game reaches, see :func:`spent_bounds`: B11, B13),
    the other seats' objectives of the
    current round (distinct cards, none equal to the seat's own, B4), with
    ``deal_future`` every later round's objectives (distinct cards, B4;
    otherwise those rounds are left undealt, every mask 0, for OpenSpiel's
    chance nodes), and the other seats' face-down votes in the current
    election (No only with a No card left, B11).
    """
    rules, players, seat = obs.rules, obs.players, obs.seat
    index = rules.tables.index

    def mask(card: frozenset[str]) -> int:
        return sum(1 << index[ch] for ch in card)

    def deal(taken: set[int], seats: Sequence[int], rng: Rng) -> tuple[dict[int, int], Rng]:
        # B4: a deck holds no two identical cards; each draw is uniform among the others.
        out: dict[int, int] = {}
        for other in seats:
            while True:
                if rules.objective_deck is not None:
                    card, rng = rng.choice(rules.objective_deck)
                    drawn = sum(1 << index[ch] for ch in card)
                else:
                    picked, rng = rng.sample(range(rules.characters), rules.objective_size)
                    drawn = sum(1 << i for i in picked)
                if drawn not in taken:
                    break
            taken.add(drawn)
            out[other] = drawn
        return out, rng

    counts_no, rng = _draw_no_counts(obs, rng)
    objectives: list[tuple[int, ...]] = [tuple(mask(c) for c in deal) for deal in obs.revealed]
    if len(objectives) < obs.round:
        mine = mask(obs.objective)
        current = [0] * players
        current[seat] = mine
        drawn_others, rng = deal({mine}, [q for q in range(players) if q != seat], rng)
        for other, card in drawn_others.items():
            current[other] = card
        objectives.append(tuple(current))
    while len(objectives) < rules.rounds:
        if deal_future:
            dealt, rng = deal(set(), range(players), rng)
            objectives.append(tuple(dealt[q] for q in range(players)))
        else:
            objectives.append((0,) * players)
    votes: tuple[int, ...] = ()
    if obs.phase == "election":
        drawn_votes = []
        for other, voted in enumerate(obs.voted):
            if not voted:
                drawn_votes.append(-1)
            elif other == seat:
                drawn_votes.append(1 if obs.vote else 0)
            elif counts_no[other] == 0:
                drawn_votes.append(1)  # B11: without a No card, only Yes
            else:
                yes, rng = rng.below(2)
                drawn_votes.append(yes)
        votes = tuple(drawn_votes)
    counts = [0] * (rules.floors + 1)
    for floor in obs.floors:
        if floor >= 0:
            counts[floor] += 1
    letters = rules.tables.letters
    state = State(
        rules,
        players,
        obs.round,
        PHASES.index(obs.phase),
        -1 if obs.turn is None else obs.turn,
        obs.floors,
        tuple(counts),
        tuple(counts_no),
        votes,
        obs.passes,
        tuple(objectives),
        obs.round_scores,
        tuple(-1 if k is None else letters.index(k) for k in obs.kings),
    )
    return state, rng


def spent_bounds(obs: Observation) -> tuple[int, int]:
    """The loosest bounds the seat's view puts on the No cards the hidden seats have
    spent: each hidden seat has spent at most the first number, all of them together at
    least the second (exact where :func:`elimination_totals` allows one total).

    Each elimination (B13) took at least one No vote, and each No vote costs its
    voter one card (B11); a seat votes once per election, so it spends at most one
    card per elimination.  The seats whose counts are seen have spent what they show;
    the hidden ones spent the rest.
    """
    rules = obs.rules
    full = rules.no_cards_for(obs.players)
    totals = elimination_totals(obs)
    fewest, most = min(totals), max(totals)
    seen_spent = sum(full - known for known in obs.no_cards if known is not None)
    return min(full, most), max(0, fewest - seen_spent)


def may_have_spent(obs: Observation, spent: Sequence[int]) -> bool:
    """Whether the hidden seats (in seat order) may have spent ``spent`` No cards since
    the cards were last dealt, by the seat's view (B11, B13).

    With ``E`` characters eliminated since then, the spendings a game reaches are
    exactly those where no seat spent more than ``E`` (one card per election) and all
    seats together at least ``E`` (one No per elimination): the votes of each round's
    eliminations can be shared out so (a seat's cards in an election are one or none;
    Gale's condition reduces to the whole, the cut function being concave).  The view
    allows the totals of :func:`elimination_totals`.
    """
    rules = obs.rules
    full = rules.no_cards_for(obs.players)
    hidden = iter(spent)
    every = [full - known if known is not None else next(hidden) for known in obs.no_cards]
    if any(not 0 <= x <= full for x in every):
        return False
    return any(max(every) <= total <= sum(every) for total in elimination_totals(obs))


def elimination_totals(obs: Observation) -> frozenset[int]:
    """How many characters the seat's view allows eliminated since the No cards were
    last dealt (B11, B13): this round's, seen in the castle, where the cards come back
    each round (``no_cards_reset_each_round``) or in the first round; otherwise also
    each finished round's, among the counts its castle may have had at the scoring
    (:func:`round_eliminations`)."""
    rules = obs.rules
    totals = {sum(1 for floor in obs.floors if floor == ELIMINATED)}
    if rules.no_cards_reset_each_round:
        return frozenset(totals)
    index = rules.tables.index
    for number in range(1, obs.round):
        objectives = tuple(sum(1 << index[ch] for ch in card) for card in obs.revealed[number - 1])
        king = obs.kings[number - 1]
        counts = round_eliminations(
            rules,
            number,
            objectives,
            obs.round_scores[number - 1],
            -1 if king is None else index[king],
        )
        totals = {total + count for total in totals for count in counts}
    return frozenset(totals)


@functools.lru_cache(maxsize=4096)
def round_eliminations(
    rules: Rules, number: int, objectives: tuple[int, ...], scores: tuple[int, ...], king: int
) -> frozenset[int]:
    """The numbers of eliminated characters (B13) of the castles that give round
    ``number`` the scores ``scores`` (B14, B15) for the objectives (bit masks) and the
    king (-1: none) shown at its scoring.

    A castle here: the king on the throne (B12), every other character eliminated or
    on a floor below, none below where it was placed (B6, B9: the lowest placement
    floor, or floor 1 with equal placement's leftovers); without a king and without
    ``allow_pass``, every character eliminated (the round ended when the last was,
    B13).  What is not read: the floors' capacities (B7) and whether the castle could
    be reached by one round's placements and climbs (B6-B9), so the counts may be
    more than a game allows, never fewer; the cards the eliminations cost are
    :func:`may_have_spent`'s account.  Scores no castle gives (a view built by hand)
    allow every count.
    """
    top = rules.throne_floor
    lowest = 1 if rules.equal_placement else min(rules.placement_floors)
    values = sorted({rules.points_of(floor) for floor in range(lowest, top)})
    # A character scoring 0 is eliminated, or not where a floor scores 0.
    zero_floor = 0 in values
    if king < 0 and not rules.allow_pass:
        values, zero_floor = [0], False
    values = sorted(set(values) | {0})
    seats = range(len(objectives))
    targets: list[set[int]] = []
    for q in seats:
        raws = {scores[q]}
        if rules.bonus_applies(number) and scores[q] == rules.bonus_points:
            raws.add(0)  # B15: a raw 0 shown as the bonus
        if king >= 0 and objectives[q] >> king & 1:
            raws = {raw - rules.points_of(top) for raw in raws}
        targets.append(raws)
    # The characters in an order that finishes a seat's favourites early (a seat with
    # none left must have scored its whole target), for a smaller search.
    pending = [c for c in range(rules.characters) if c != king]
    others: list[int] = []
    while pending:
        seat = min(
            (q for q in seats if any(objectives[q] >> c & 1 for c in pending)),
            key=lambda q: sum(objectives[q] >> c & 1 for c in pending),
            default=None,
        )
        batch = [c for c in pending if seat is None or objectives[seat] >> c & 1]
        others.extend(batch)
        pending = [c for c in pending if c not in batch]
    best = values[-1]
    # most[i][q]: the most points seat q's favourites among others[i:] can score.
    most = [[0] * len(objectives) for _ in range(len(others) + 1)]
    for i in range(len(others) - 1, -1, -1):
        for q in seats:
            most[i][q] = most[i + 1][q] + (best if objectives[q] >> others[i] & 1 else 0)
    memo: dict[tuple[int, tuple[int, ...]], frozenset[int]] = {}

    def scoring_nothing(i: int, left: tuple[int, ...]) -> frozenset[int]:
        # How many of others[i:] may score 0 when they score ``left`` per seat.
        if any(not 0 <= x <= most[i][q] for q, x in enumerate(left)):
            return frozenset()
        if i == len(others):
            return frozenset({0})
        key = (i, left)
        if key not in memo:
            character = others[i]
            found: set[int] = set()
            for points in values:
                after = tuple(
                    x - points if objectives[q] >> character & 1 else x for q, x in enumerate(left)
                )
                found.update(n + (points == 0) for n in scoring_nothing(i + 1, after))
            memo[key] = frozenset(found)
        return memo[key]

    zeros: set[int] = set()
    for left in itertools.product(*targets):
        zeros.update(scoring_nothing(0, tuple(left)))
    if not zeros:
        return frozenset(range(rules.characters + 1))
    if zero_floor:
        return frozenset(n for z in zeros for n in range(z + 1))
    return frozenset(zeros)


def _draw_no_counts(obs: Observation, rng: Rng) -> tuple[list[int], Rng]:
    """The No counts, the hidden ones drawn uniformly among the spendings the seat's
    view allows (:func:`spent_bounds` where it allows one total of eliminations, one
    draw unranked seat by seat; :func:`may_have_spent` otherwise)."""
    full = obs.rules.no_cards_for(obs.players)
    hidden = sum(1 for known in obs.no_cards if known is None)
    if len(elimination_totals(obs)) > 1 and hidden:
        allowed = [
            spent
            for spent in itertools.product(range(full + 1), repeat=hidden)
            if may_have_spent(obs, spent)
        ] or [(full,) * hidden]  # a view no game reaches (built by hand): spend all
        picked, rng = rng.choice(allowed)
        drawn = iter(picked)
        return [known if known is not None else full - next(drawn) for known in obs.no_cards], rng
    cap, need = spent_bounds(obs)
    need = min(need, hidden * cap)  # a view no game reaches (built by hand): spend all
    ways = _spendings(hidden, cap, need)
    index, rng = rng.below(ways[hidden][need]) if hidden else (0, rng)
    counts: list[int] = []
    left = hidden
    for known in obs.no_cards:
        if known is not None:
            counts.append(known)
            continue
        left -= 1
        for spent in range(cap + 1):
            rest = ways[left][max(0, need - spent)]
            if index < rest:
                break
            index -= rest
        need = max(0, need - spent)
        counts.append(full - spent)
    return counts, rng


def _spendings(seats: int, cap: int, need: int) -> list[list[int]]:
    """``ways[k][r]``: how many spendings of ``k`` seats, each 0..``cap``, sum to ``r``
    or more."""
    ways = [[1] + [0] * need]
    for _ in range(seats):
        row = ways[-1]
        ways.append([sum(row[max(0, r - v)] for v in range(cap + 1)) for r in range(need + 1)])
    return ways
