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
no history, so the hidden No counts are drawn from what the castle tells of it
(interpretation, B11, B13): each character eliminated this round took at least one
No vote, each No vote cost its voter one card, and a seat votes once per election,
so the hidden seats have spent at least the eliminations less what the seen counts
show spent, and each at most one card per elimination (:func:`spent_bounds`; the
hidden counts are drawn uniformly among the spendings within those bounds).  This is
the whole account where the cards come back each round (``no_cards_reset_each_round``,
the default) and in every first round; ``tests/proofs/test_sampler_tied.py`` ties it
to the kernel on every position of the small scopes of the exhaustive tie.  Where the
cards are kept between rounds, the earlier rounds' eliminations are bounded by their
kings alone (a round without a king eliminated every character, unless
``allow_pass``); their scores may say more (a favourite that scored points was not
eliminated), which the sampler does not read, so there a drawn position may be one no
game reaches.

>>> from castlerules import throne
>>> from castlerules.core import Rng
>>> state = throne.new_game(players=4, seed=3)
>>> sample, _ = determinize(throne.observation(state, 2), Rng.from_seed(0))
>>> throne.observation(sample, 2) == throne.observation(state, 2)
True
"""

from __future__ import annotations

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
    """What the seat's view says of the No cards the hidden seats have spent: each
    hidden seat has spent at most the first number, all of them together at least the
    second.

    Each elimination (B13) took at least one No vote, and each No vote costs its
    voter one card (B11); a seat votes once per election, so it spends at most one
    card per elimination.  The eliminations that count are those of the round shown
    where the cards come back each round (``no_cards_reset_each_round``) or in the
    first round; otherwise every round's since the start: a finished round without a
    king eliminated every character (B12, B13; unless ``allow_pass``, where everyone
    may have passed), one with a king at most all the others.  The seats whose counts
    are seen have spent what they show; the hidden ones spent the rest.
    """
    rules = obs.rules
    full = rules.no_cards_for(obs.players)
    gone = sum(1 for floor in obs.floors if floor == ELIMINATED)
    fewest = most = gone
    if not (rules.no_cards_reset_each_round or obs.round == 1):
        for king in obs.kings[: obs.round - 1]:
            if king is not None:
                most += rules.characters - 1
            else:
                most += rules.characters
                fewest += 0 if rules.allow_pass else rules.characters
    seen_spent = sum(full - known for known in obs.no_cards if known is not None)
    return min(full, most), max(0, fewest - seen_spent)


def _draw_no_counts(obs: Observation, rng: Rng) -> tuple[list[int], Rng]:
    """The No counts, the hidden ones drawn uniformly among the spendings that
    :func:`spent_bounds` allows (one draw, unranked seat by seat)."""
    full = obs.rules.no_cards_for(obs.players)
    hidden = sum(1 for known in obs.no_cards if known is None)
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
