"""Numbered actions, chance outcomes and seat views, for the OpenSpiel and PettingZoo adapters.

Game-AI libraries speak in integers (an action is a number in
``0..num_distinct_actions-1``) and flat vectors of numbers.  This module turns
the engines' moves and views into those, with the standard library only, so
that both adapters (:mod:`castlerules.adapters.openspiel`, :mod:`castlerules.adapters.pettingzoo`)
share one numbering and one encoding, and nothing here needs the optional
libraries.

Every number comes from the game's :class:`Rules` (the real moves of these
rules, not a padded superset); every view of a seat is computed from
``observation(state, seat)`` alone, so it can carry nothing that seat may not
know.

>>> from castlerules import throne
>>> table = ThroneActions(throne.Rules(), players=4)
>>> table.count  # 13 characters x 5 placement floors, 13 climbs, Yes and No
80
>>> s = throne.new_game(4, seed=7)
>>> table.move(table.code(throne.Place("C", 3))) == throne.Place("C", 3)
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from operator import add
from typing import Any

from castlerules import ascent, throne
from castlerules.ascent.rules import CARDS_PER_SET, MAX_SETS, SET_VALUE
from castlerules.core.errors import ArgumentError
from castlerules.core.options import Note
from castlerules.throne.rules import derived
from castlerules.throne.transitions import legal_codes

NOTES: tuple[Note, ...] = (
    Note(
        "B4",
        "adapters: the deal as chance nodes",
        "OpenSpiel deals each round's objectives when the round starts (not all rounds at "
        "new_game): one chance node per seat, in seat order, uniform over the cards not yet "
        "dealt in that round (every set of objective_size characters, or the objective_deck "
        "cards). This is the distribution of the engine's seeded deal.",
    ),
    Note(
        "A18",
        "adapters: the die as a chance node",
        "The die rolled until it shows 1..n is one chance node with n outcomes, seat k "
        "beginning with probability 1/n (the rerolls are folded in); with die='none' there "
        "is no chance node and seat 0 begins.",
        "die",
    ),
    Note(
        "A18",
        "adapters: the shuffled deal as chance nodes",
        "Under deal='shuffled' OpenSpiel deals the cards before the die: one chance node "
        "per card dealt, uniform over the cards not dealt yet, the first 36//n to seat 0, "
        "the next 36//n to seat 1, and so on (the same distribution as the engine's seeded "
        "shuffle); the cards left over are never dealt. The actions and the observation "
        "tensor then name all 36 cards (73 actions), and the tensor adds per card the seat "
        "dealt it. PettingZoo's reset(seed=...) and the batch deal as new_game(seed=...).",
        "deal",
    ),
    Note(
        "B11",
        "adapters: a seat's information state",
        "A seat's OpenSpiel observation is observation(state, seat) written out; its "
        "information state adds the game so far as that seat saw it: every move, its own "
        "deals and votes, the other seats' objectives only once their round is scored (B14) "
        "and their votes only once the election is revealed.",
        "no_cards_public",
    ),
    Note(
        "B16",
        "adapters: returns",
        "The returns are the final scores (totals of the rounds, B14-B16; A15-A17), given "
        "at the end only (0 before), as a general-sum game; the utility bounds are the "
        "proved ranges (Throne 1..99 with the defaults, Ascent -21n..21n).",
    ),
    Note(
        "B3",
        "adapters: game parameters",
        "OpenSpiel parameters are players, preset and every option by name; an option left "
        "at the default value keeps the preset's value; lists are written 0/1/2 in brackets "
        "([0/1/2/3/4/5/10]) and favours_per_move=0 stands for no limit.",
    ),
    Note(
        "B11",
        "adapters: what the search bots draw",
        "The montecarlo and mcts bots draw their positions with one function "
        "(castlerules.throne.sampling.determinize; openspiel.determinize for the mcts bot), "
        "from a seat's observation alone: the seat's view is kept and what it cannot see is "
        "drawn uniformly: the other seats' objectives of the round (distinct cards), "
        "their face-down votes (No only with a No card left) and, when the No counts are "
        "not public, those counts (among those a game reaches: each elimination costs a No "
        "card, a seat spends at most one per elimination, B13); the montecarlo bot also "
        "deals the rounds to come, the mcts bot leaves them to OpenSpiel's chance nodes.",
        "no_cards_public",
    ),
)
"""The decisions taken by the adapters where the spec is silent."""

MAX_OBJECTIVE_SETS = 200_000
"""Most distinct objective cards the Throne adapters accept as chance outcomes."""


# ---------------------------------------------------------------------------
# Throne


class ThroneActions:
    """The actions of Throne under ``rules``, numbered.

    ``Place(c, f)`` is ``c * len(placement_floors) + j`` where ``f`` is the
    ``j``-th placement floor (B6); then one ``Climb`` per character (B8), then
    ``Vote(True)`` and ``Vote(False)`` (B11), then ``Pass`` if the rules allow
    it.  Chance outcomes (the deal of an objective, B4) are numbered apart:
    outcome ``k`` is the ``k``-th card of :attr:`cards` (every set of
    ``objective_size`` characters, as bit masks in increasing order, or the
    cards of ``objective_deck``).
    """

    def __init__(self, rules: throne.Rules, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        n = rules.characters
        # The engine's numbering (rules.Codes), which legal_codes speaks.
        moves = derived(rules).codes.moves
        self.moves: tuple[throne.Move, ...] = moves
        self.count = len(moves)
        self._by_id = {id(m): k for k, m in enumerate(moves)}
        self._by_value = {m: k for k, m in enumerate(moves)}
        if rules.objective_deck is not None:
            index = derived(rules).index
            cards = [sum(1 << index[ch] for ch in card) for card in rules.objective_deck]
        else:
            total = math.comb(n, rules.objective_size)
            if total > MAX_OBJECTIVE_SETS:
                raise ArgumentError(
                    f"these rules have {total} possible objectives; the adapters deal at most "
                    f"{MAX_OBJECTIVE_SETS} (use fewer characters or an objective_deck)"
                )
            cards = sorted(
                sum(1 << i for i in combo)
                for combo in itertools.combinations(range(n), rules.objective_size)
            )
        self.cards: tuple[int, ...] = tuple(cards)
        self.card_index = {mask: k for k, mask in enumerate(self.cards)}
        total = len(self.cards)
        # The chance outcomes of a deal after ``d`` cards of the round (each 1 / (total - d)),
        # before removing the dealt ones (see ``outcomes``).
        self._uniform = [
            tuple((k, 1.0 / (total - d)) for k in range(total)) for d in range(min(players, total))
        ]
        letters = rules.letters()
        self.card_names: tuple[str, ...] = tuple(
            "".join(ch for i, ch in enumerate(letters) if mask >> i & 1) for mask in cards
        )

    def code(self, move: throne.Move) -> int:
        """The number of an engine move."""
        k = self._by_id.get(id(move))
        return k if k is not None else self._by_value[move]

    def move(self, code: int) -> throne.Move:
        """The engine move of a number."""
        return self.moves[code]

    def outcomes(self, dealt: Sequence[int]) -> list[tuple[int, float]]:
        """The next deal's chance outcomes when the cards numbered ``dealt`` are out (B4):
        every other card, each equally likely, in increasing order."""
        out = list(self._uniform[len(dealt)])
        for k in sorted(dealt, reverse=True):
            del out[k]
        return out

    def legal(self, state: throne.State) -> list[int]:
        """The numbers of the legal moves, in increasing order: the engine's own
        ``legal_codes`` (the rule of ``legal_moves`` read in numbers; ``tests/adapters``
        checks both agree on random games and every position of the proofs' scopes)."""
        return list(legal_codes(state))

    def max_round_length(self) -> int:
        """The most moves a round can last (the proofs' ranking bound, plus the last move).

        ``proofs.throne.measure_bound`` proves that every move of a round
        raises a ranking function that starts at 0 and never exceeds
        ``n * (characters * (7 + n) + n - 1) + n - 1`` for ``n`` players;
        the move that ends the round is counted on top.
        """
        n = self.players
        return n * (self.rules.characters * (self.rules.throne_floor + n) + n - 1) + n - 1 + 1

    def max_game_length(self) -> int:
        """The most player moves of a game: rounds times :meth:`max_round_length`."""
        return self.rules.rounds * self.max_round_length()

    def utility_bounds(self) -> tuple[int, int]:
        """The lowest and highest final score of a seat (B14, B15).

        A round scores 0 up to the best castle of the favourites
        (``derived(rules).max_points``); in a bonus round a 0 counts as
        ``bonus_points``, so such a round scores at least the smaller of that
        and the least positive value of a floor.
        """
        rules = self.rules
        best = derived(rules).max_points
        positive = [p for p in rules.points if p > 0]
        low = high = 0
        for number in range(1, rules.rounds + 1):
            if number in rules.bonus_rounds:
                low += min([rules.bonus_points, *positive])
                high += max(best, rules.bonus_points)
            else:
                high += best
        return low, high


def throne_view(obs: throne.Observation) -> str:
    """A seat's view as one line of text, built from the :class:`Observation` only."""
    letters = obs.rules.letters()

    def name(floor: int) -> str:
        return "-" if floor == 0 else "x" if floor < 0 else str(floor)

    def cards(mask: frozenset[str]) -> str:
        return "".join(sorted(mask)) or "-"

    parts = [
        f"seat {obs.seat}",
        f"round {obs.round}",
        obs.phase,
        f"turn {'-' if obs.turn is None else obs.turn}",
        "castle " + " ".join(f"{ch}{name(f)}" for ch, f in zip(letters, obs.floors, strict=True)),
        "no " + "/".join("?" if n is None else str(n) for n in obs.no_cards),
        "objective " + cards(obs.objective),
        "voted " + "".join("v" if v else "." for v in obs.voted),
        "vote " + ("-" if obs.vote is None else "yes" if obs.vote else "no"),
        f"passes {obs.passes}",
    ]
    for number, (deal, result, king) in enumerate(
        zip(obs.revealed, obs.round_scores, obs.kings, strict=True), start=1
    ):
        parts.append(
            f"round {number}: "
            + " ".join(cards(d) for d in deal)
            + " scores "
            + "/".join(map(str, result))
            + f" king {king or '-'}"
        )
    return "; ".join(parts)


def throne_tensor_size(rules: throne.Rules, players: int) -> int:
    """The length of :func:`throne_tensor` for these rules and players."""
    n, r = rules.characters, rules.rounds
    return (
        players  # seat
        + r  # round
        + 4  # phase
        + players  # turn
        + n * 9  # floor of each character: eliminated, unplaced, 1..7
        + players * 2  # No cards (count, and 1 if known)
        + n  # own objective
        + players  # voted
        + 2  # own vote: yes, no
        + 1  # passes
        + r * players * n  # revealed objectives
        + r * players  # round scores
        + r * (n + 1)  # kings (n + 1: no king)
    )


_PHASE_INDEX = {name: k for k, name in enumerate(("placement", "movement", "election", "over"))}


class ThroneEncoder:
    """:func:`throne_tensor` for one ``rules`` and player count, with its layout computed once.

    The adapters keep one per game; :meth:`write` reads the
    :class:`~castlerules.throne.Observation` only (what its seat may know).
    """

    def __init__(self, rules: throne.Rules, players: int) -> None:
        n, r = rules.characters, rules.rounds
        self.rules, self.players = rules, players
        self.size = throne_tensor_size(rules, players)
        k = 0
        self.seat_at = k
        k += players
        self.round_at = k - 1  # rounds count from 1
        k += r
        self.phase_at = k
        k += 4
        self.turn_at = k
        k += players
        # Per character, the slot of floor 0 (unplaced); -1 (eliminated) is the one before.
        self.floor_at = tuple(range(k + 1, k + 1 + 9 * n, 9))
        k += n * 9
        self.no_at = k
        k += players * 2
        self.objective_at = k
        k += n
        self.voted_at = k
        k += players
        self.vote_at = k
        k += 2
        self.passes_at = k
        k += 1
        self.revealed_at = k
        k += r * players * n
        self.scores_at = k
        k += r * players
        self.kings_at = k
        self.index = derived(rules).index
        # The character indexes of a set of letters (objectives), memoised per set.
        self._members: dict[frozenset[str], list[int]] = {}

    def _of(self, card: frozenset[str]) -> list[int]:
        found = self._members.get(card)
        if found is None:
            found = self._members[card] = sorted(self.index[ch] for ch in card)
        return found

    def write(self, obs: throne.Observation, out: Any, offset: int = 0) -> None:
        """Write ``obs`` into ``out[offset:]`` (a zeroed NumPy float vector or a list)."""
        players, n = self.players, self.rules.characters
        ones = [
            self.seat_at + obs.seat,
            self.round_at + obs.round,
            self.phase_at + _PHASE_INDEX[obs.phase],
        ]
        if obs.turn is not None:
            ones.append(self.turn_at + obs.turn)
        ones += map(add, self.floor_at, obs.floors)
        where: list[int] = []
        values: list[int] = []
        k = self.no_at
        for seat, count in enumerate(obs.no_cards):
            if count is not None:
                where.append(k + 2 * seat)
                values.append(count)
                ones.append(k + 2 * seat + 1)
        k = self.objective_at
        ones += [k + i for i in self._of(obs.objective)]
        if obs.phase == "election":
            k = self.voted_at
            ones += [k + seat for seat, voted in enumerate(obs.voted) if voted]
        if obs.vote is not None:
            ones.append(self.vote_at + (0 if obs.vote else 1))
        where.append(self.passes_at)
        values.append(obs.passes)
        for number, deal in enumerate(obs.revealed):
            for seat, card in enumerate(deal):
                base = self.revealed_at + (number * players + seat) * n
                ones += [base + i for i in self._of(card)]
        k = self.scores_at
        for number, result in enumerate(obs.round_scores):
            where += range(k + number * players, k + number * players + len(result))
            values += result
        k = self.kings_at
        for number, king in enumerate(obs.kings):
            ones.append(k + number * (n + 1) + (n if king is None else self.index[king]))
        if offset:
            ones = [i + offset for i in ones]
            where = [i + offset for i in where]
        if isinstance(out, list):
            for i in ones:
                out[i] = 1.0
            for i, v in zip(where, values, strict=True):
                out[i] = v
        else:
            out[ones] = 1
            out[where] = values


def throne_tensor(obs: throne.Observation, out: Any, offset: int = 0) -> None:
    """Write a seat's view into ``out[offset:]`` (a zeroed NumPy float vector or a list),
    from the Observation.

    One-hot blocks for the seat, the round, the phase, the seat to act and
    each character's floor; counts as numbers; objectives as bits.  (The
    adapters use a :class:`ThroneEncoder`, which lays the blocks out once.)
    """
    ThroneEncoder(obs.rules, obs.players).write(obs, out, offset)


# ---------------------------------------------------------------------------
# Ascent


class AscentActions:
    """The actions of Ascent for ``players`` seats, numbered.

    ``Advance`` of card number ``c`` (A3) is ``c``; ``Favour`` of card ``c``
    (A10) is ``N + c``; ``EndTurn`` (A12) is ``2 N``, where ``N`` is
    :func:`numbered_cards`: the ``6 * players`` cards of the sets in play,
    or all 36 under ``deal="shuffled"`` (A18: any card may be dealt).  Card
    numbers are the engine's (``set * 6 + 6 - value``).
    """

    def __init__(self, rules: ascent.Rules, players: int) -> None:
        if not isinstance(players, int) or players not in ascent.PLAYERS:
            raise ArgumentError(
                f"players must be a whole number in {ascent.PLAYERS.start}.."
                f"{ascent.PLAYERS.stop - 1}, not {players!r}"
            )
        self.rules = rules
        self.players = players
        cards = numbered_cards(rules, players)
        from castlerules.ascent.moves import ADVANCES, END, FAVOURS

        moves: list[ascent.Move] = [*ADVANCES[:cards], *FAVOURS[:cards], END]
        self.moves: tuple[ascent.Move, ...] = tuple(moves)
        self.count = len(moves)
        self._by_id = {id(m): k for k, m in enumerate(moves)}
        self.code_of_id: dict[int, int] = self._by_id
        """The number of each move the engine generates, by ``id(move)`` (its moves are shared)."""
        self._by_value = {m: k for k, m in enumerate(moves)}

    def code(self, move: ascent.Move) -> int:
        """The number of an engine move."""
        k = self._by_id.get(id(move))
        return k if k is not None else self._by_value[move]

    def move(self, code: int) -> ascent.Move:
        """The engine move of a number."""
        return self.moves[code]

    def legal(self, state: ascent.State) -> list[int]:
        """The numbers of the legal moves, in increasing order."""
        return sorted(map(self.code_of_id.__getitem__, map(id, ascent.legal_moves(state))))

    def max_game_length(self) -> int:
        """The most moves of a game (proofs: ``ascent.termination``).

        At most ``Rules.advance_bound(n)`` Advances (``squares`` per card in
        play); each turn begins with an Advance and has at most one favour per
        numbered card and one EndTurn.
        """
        cards = numbered_cards(self.rules, self.players)
        return self.rules.advance_bound(self.players) * (cards + 2)

    def utility_bounds(self) -> tuple[int, int]:
        """Every score lies within the total value of the cards that may be in play:
        ``[-21 n, 21 n]`` (proofs: ``ascent.scores``; A15, A16), or ``[-126, 126]``
        under ``deal="shuffled"``, whose deal may give any seat any card (A18)."""
        bound = SET_VALUE * numbered_cards(self.rules, self.players) // CARDS_PER_SET
        return -bound, bound


def numbered_cards(rules: ascent.Rules, players: int) -> int:
    """How many card numbers the actions and the tensor name (A18): the cards of the
    ``players`` sets, or of all six sets under ``deal="shuffled"``.

    >>> numbered_cards(ascent.Rules(), 4), numbered_cards(ascent.Rules(deal="shuffled"), 4)
    (24, 36)
    """
    sets = MAX_SETS if rules.deal == "shuffled" else players
    return CARDS_PER_SET * sets


def _per_card(rules: ascent.Rules, players: int) -> int:
    """The length of one card's block of :func:`ascent_tensor`."""
    owner = players if rules.deal == "shuffled" else 0
    return 2 * players + (rules.squares + 1) + numbered_cards(rules, players) + 1 + owner


def ascent_tensor_size(rules: ascent.Rules, players: int) -> int:
    """The length of :func:`ascent_tensor` for these rules and players."""
    cards = numbered_cards(rules, players)
    return players + cards * _per_card(rules, players) + (rules.squares + 2) + 2


def ascent_tensor(state: ascent.State, out: Any, offset: int = 0) -> None:
    """Write a position of Ascent (public: A hides nothing) into ``out[offset:]``.

    The seat to act (one-hot); per card: the column it stands in or the
    column it was removed from (one-hot each), its square (one-hot), its
    height in the stack from the bottom (one-hot), whether it is flipped, and
    under ``deal="shuffled"`` the seat dealt it (one-hot; none for a card left
    over, A18); then the turn's step (square one-hot, or the last slot at the start of a
    turn; the moved cards and the favours taken, as numbers).
    """
    players = len(state.columns)
    squares = state.rules.squares
    cards = numbered_cards(state.rules, players)
    per_card = _per_card(state.rules, players)
    flip_at = 2 * players + squares + 1 + cards
    k = offset
    ones: list[int] = []
    if state.actor >= 0:
        ones.append(k + state.actor)
    k += players
    height_at = 2 * players + squares + 1
    for q, column in enumerate(state.columns):
        bits = state.flipped[q]
        for s, stack in enumerate(column):
            if not stack:
                continue
            top = len(stack) - 1
            flip = bits >> s & 1
            for depth, c in enumerate(stack):
                base = k + c * per_card
                ones += (base + q, base + 2 * players + s, base + height_at + top - depth)
                if flip:
                    ones.append(base + flip_at)
    for q, gone in enumerate(state.removed_cards):
        ones += [k + c * per_card + players + q for c in gone]
    if state.rules.deal == "shuffled":
        dealt = ((c, q) for c, q in enumerate(state.owners) if q >= 0)
        ones += [k + c * per_card + flip_at + 1 + q for c, q in dealt]
    k += cards * per_card
    values: list[tuple[int, int]] = []
    if state.step is None:
        ones.append(k + squares + 1)
    else:
        square, moved, favours = state.step
        ones.append(k + square)
        values += [(k + squares + 2, moved), (k + squares + 3, favours)]
    if isinstance(out, list):
        for i in ones:
            out[i] = 1.0
    else:
        out[ones] = 1
    for i, v in values:
        out[i] = v


def seat_names(players: int) -> list[str]:
    """The agent names of the PettingZoo environments: ``seat_0``, ``seat_1``, ..."""
    return [f"seat_{q}" for q in range(players)]


def options_from(rules_cls: type, preset: str, options: Sequence[tuple[str, object]]) -> Any:
    """A ``Rules`` from a preset name and ``(option, value)`` pairs (text values are parsed).

    >>> options_from(throne.Rules, "ORIGINAL", [("allow_pass", "true")]).allow_pass
    True
    """
    from castlerules.options_text import parse_value

    base = rules_cls.preset(preset)  # type: ignore[attr-defined]
    changes: dict[str, object] = {}
    for name, value in options:
        changes[name] = parse_value(rules_cls, name, value) if isinstance(value, str) else value
    if not changes:
        return base
    import attrs

    return attrs.evolve(base, **changes)
