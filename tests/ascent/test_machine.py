"""Whole games under drawn options, with the invariants checked after every action.

A Hypothesis ``RuleBasedStateMachine`` plays each example to the end: the
``play`` rule picks legal moves, ``finish`` plays out with a drawn seed, and
``teardown`` finishes any game still running.  After every action it checks:

* the ceiling invariant (A6, A7, A13): every card above its arrival square
  has a higher-rank card above it in its stack, except an exposed remainder
  where it may stay (``ceiling_violations``);
* flipped cards never move, never change column and stay flipped (A8);
* conservation (A18): every card of the sets in play is at exactly one place,
  and the absolute contributions of the cards sum to 21 per set;
* scores (A15, A16) match an independent count, lie in [-21n, 21n], and so
  does their sum;
* termination: the number of Advances stays within ``6 * n * squares``
  (``Rules.advance_bound``).  Each
  Advance raises every card of its moving part by at least one square (A3,
  A4), no move ever lowers a card (a favour keeps the row, a removal takes
  cards off the board), and a card can rise at most ``squares`` times: so a
  game has at most ``6 n * squares`` Advances; each is followed by at most
  ``6 n`` favours and one EndTurn;
* cards never go down, and change column only by a favour (A4, A10);
* the legal moves: no duplicates, the same set as an independent oracle for
  Advances (rules 8-11) and Favours (rule 13), EndTurn exactly mid-turn,
  every other move refused with ``IllegalMove`` and the state unchanged;
* notation round trip of the position and of every legal move;
* ``apply`` leaves its input unchanged; ``describe`` cites known clauses.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from castlerules import ascent
from castlerules.ascent import Advance, Card, EndTurn, Favour, Rank, Rules
from castlerules.ascent.transitions import ceiling_violations
from castlerules.core import CLAUSES, IllegalMove, Rng


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    """Rules with every option drawn; the reference reading half of the time."""
    if draw(st.booleans()):
        return Rules()
    squares = draw(st.sampled_from([7, 7, 7, 8, 9]))
    if draw(st.booleans()):
        arrival = tuple(sorted(draw(st.sets(st.integers(1, squares), min_size=6, max_size=6))))
    else:
        arrival = (2, 3, 4, 5, 6, squares)
    return Rules(
        squares=squares,
        arrival=arrival,
        upper_half=draw(st.integers(1, squares)),
        allow_exposing_split=draw(st.booleans()),
        favours_per_move=draw(st.sampled_from([1, 1, 2, None])),
        favour_after_arrival=draw(st.booleans()),
        removal_in_lower_half=draw(st.booleans()),
        stack_rank=draw(st.sampled_from(["top", "top", "highest"])),
        favour_takes=draw(st.sampled_from(["lower_top", "all_lower"])),
        penalty_to=draw(st.sampled_from(["column", "owner"])),
        end_test=draw(st.sampled_from(["unreached", "unflipped", "can_move"])),
        last_player_continues=draw(st.booleans()),
        die=draw(st.sampled_from(["first_player", "none"])),
        protection=draw(st.sampled_from([True, True, True, False])),
    )


Place = tuple[int, int] | None


def places(state: ascent.State) -> dict[Card, Place]:
    """Where every card in play is: (column, square), or None if removed."""
    n = state.players
    out: dict[Card, Place] = {}
    for q in range(n):
        for square in range(state.rules.squares + 1):
            for c in ascent.stack_at(state, q, square):
                assert c not in out, f"{c} is at two places"
                out[c] = (q, square)
        for c in ascent.removed(state, q):
            assert c not in out, f"{c} is at two places"
            out[c] = None
    return out


def check_removal(
    before: ascent.State,
    before_places: dict[Card, Place],
    move: ascent.Move,
    after_places: dict[Card, Place],
) -> None:
    """Independent oracle for A13 (rule 15): a favour removes exactly the exposed
    remainder of the stack it took from, when that remainder's top stands above its
    arrival square on a square where removal applies (the upper half, or both
    halves with removal_in_lower_half); nothing else ever leaves the board."""
    gone = {c for c, p in before_places.items() if p is not None and after_places[c] is None}
    expected: set[Card] = set()
    if isinstance(move, Favour):
        place = before_places[move.card]
        assert place is not None
        q, d = place
        stack = ascent.stack_at(before, q, d)
        rest = stack[stack.index(move.card) + 1 :]
        rules = before.rules
        if rest and d > rules.arrival_of(leader(rules, rest).rank) and rules.removal_applies(d):
            expected = set(rest)
    assert gone == expected, f"removed {gone}, expected {expected} (A13)"


def check_end(after: ascent.State, after_places: dict[Card, Place]) -> None:
    """Independent oracle for A14: at a turn's boundary the game is over exactly when at
    most one column is still in the race (unless last_player_continues), or when no
    player has a legal Advance. In the race (end_test): a column holding a card not
    flipped and below its arrival square ('unreached'), any card not flipped
    ('unflipped'), or a legal Advance ('can_move')."""
    if ascent.pending_favour(after):
        return
    n = after.players
    rules = after.rules
    test = rules.end_test
    if test == "can_move":
        alive = {q for q in range(n) if oracle_advances(after, q)}
    else:
        alive = {
            p[0]
            for c, p in after_places.items()
            if p is not None
            and (p[1] == 0 or not ascent.is_flipped(after, c))
            and (test == "unflipped" or p[1] < rules.arrival_of(c.rank))
        }
    stuck = all(not oracle_advances(after, q) for q in range(n))
    over = stuck or (not after.rules.last_player_continues and len(alive) <= 1)
    assert ascent.is_over(after) == over, (alive, stuck)


def leader(rules: Rules, cards: tuple[Card, ...]) -> Card:
    """The card a stack acts with: its top, or (stack_rank="highest") its highest card."""
    if rules.stack_rank == "top":
        return cards[0]
    return max(cards, key=lambda x: x.rank.value)  # the topmost of equals


def oracle_advances(state: ascent.State, seat: int) -> set[str]:
    """The Advances of ``seat`` computed from the spec's rules 8-11, public API only."""
    rules = state.rules
    out: set[str] = set()
    for square in range(rules.squares + 1):
        cards = ascent.stack_at(state, seat, square)
        if not cards or (square and ascent.is_flipped(state, cards[0])):
            continue
        for i, c in enumerate(cards):
            if square == 0:
                part, rest = (c,), ()
            else:
                part, rest = cards[: i + 1], cards[i + 1 :]
            lead = leader(rules, part)
            ceiling = rules.arrival_of(lead.rank)
            d = square + 1
            while d <= rules.squares:
                there = ascent.stack_at(state, seat, d)
                if not there or (d == ceiling and ascent.is_flipped(state, there[0])):
                    break
                d += 1
            if d > ceiling:
                continue  # A6 (or no free square at all)
            if (
                rest
                and not rules.allow_exposing_split
                and square > rules.arrival_of(leader(rules, rest).rank)
            ):
                continue  # A7, rule 11
            if not rules.protection and any(d > rules.arrival_of(x.rank) for x in part):
                continue  # strict reading
            out.add(str(c))
    return out


def oracle_favours(state: ascent.State) -> set[str]:
    """The open Favours of a mid-turn state (rule 13 and the options)."""
    rules = state.rules
    assert state.step is not None
    d, _moved, taken = state.step
    limit = rules.favours_per_move
    if limit is not None and taken >= limit:
        return set()
    seat = state.actor
    taker = ascent.stack_at(state, seat, d)
    if not rules.favour_after_arrival and ascent.is_flipped(state, taker[0]):
        return set()
    out = set()
    for q in range(state.players):
        there = ascent.stack_at(state, q, d)
        if q == seat or not there or ascent.is_flipped(state, there[0]):
            continue
        top = leader(rules, taker[:_moved]).rank.value
        if leader(rules, there).rank.value < top:
            for i, c in enumerate(there):
                # favour_takes="all_lower": every taken card ranks lower (A10)
                part = there[: i + 1]
                if rules.favour_takes == "lower_top" or all(x.rank.value < top for x in part):
                    out.add(f"x{c}")
    return out


def every_move(players: int) -> list[ascent.Move]:
    cards = [Card(q, r) for q in range(players) for r in Rank]
    return [*(Advance(c) for c in cards), *(Favour(c) for c in cards), EndTurn()]


class AscentGames(RuleBasedStateMachine):
    """One whole game per example."""

    def __init__(self) -> None:
        super().__init__()
        self.state: ascent.State = ascent.new_game(2)
        self.advances = 0
        self.actions = 0
        self.all_moves: list[tuple[str, ascent.Move]] = []
        """Every move of the game, with its text (written once per game)."""
        self.text = ""
        """The notation of :attr:`state` (written by :meth:`check_position`)."""
        self.places: dict[Card, Place] = {}
        """Where every card of :attr:`state` is (read by :meth:`check_position`)."""

    # ------------------------------------------------------------------ steps

    @initialize(
        players=st.integers(2, 6),
        rules=rules_strategy(),
        seed=st.integers(0, 2**32),
        first=st.none() | st.integers(0, 5),
    )
    def start(self, players: int, rules: Rules, seed: int, first: int | None) -> None:
        first_player = None if first is None else first % players
        self.state = ascent.new_game(players, rules, seed=seed, first_player=first_player)
        self.all_moves = [(str(m), m) for m in every_move(players)]
        self.check_position(self.state)

    @rule(index=st.integers(0, 200))
    def play(self, index: int) -> None:
        """One drawn legal move (nothing once the game is over)."""
        moves = ascent.legal_moves(self.state)
        if moves:
            self.act(moves[index % len(moves)])

    @rule(seed=st.integers(0, 2**32))
    def finish(self, seed: int) -> None:
        """Play to the end with a drawn seed."""
        self.play_out(Rng.from_seed(seed, "ascent.machine"))

    @invariant()
    def end_queries_agree(self) -> None:
        """The end of game queries agree (A14, A17)."""
        s = self.state
        if ascent.is_over(s):
            points = ascent.scores(s)
            assert ascent.winners(s) == tuple(q for q, v in enumerate(points) if v == max(points))
            assert ascent.current_player(s) is None
            assert ascent.legal_moves(s) == ()
        else:
            assert ascent.winners(s) == ()

    def teardown(self) -> None:
        self.play_out(Rng.from_seed(self.actions, "ascent.teardown"))
        assert ascent.is_over(self.state)

    def play_out(self, rng: Rng) -> None:
        while not ascent.is_over(self.state):
            move, rng = rng.choice(ascent.legal_moves(self.state))
            self.act(move)

    # ------------------------------------------------------------------ checks

    def act(self, move: ascent.Move) -> None:
        before = self.state
        text, before_places = self.text, self.places  # of before, by check_position
        after = ascent.apply(before, move)
        assert ascent.to_text(before) == text, "apply changed its input"
        events = ascent.describe(before, move, after)
        assert events
        assert all(e.clause in CLAUSES for e in events)
        self.actions += 1
        if isinstance(move, Advance):
            self.advances += 1
        bound = before.rules.advance_bound(before.players)
        assert bound == 6 * before.players * before.rules.squares
        assert self.advances <= bound, f"{self.advances} Advances exceed the bound {bound}"
        after_places = self.check_step(before, before_places, move, after)
        self.state = after
        self.check_position(after, after_places)

    def check_step(
        self,
        before: ascent.State,
        before_places: dict[Card, Place],
        move: ascent.Move,
        after: ascent.State,
    ) -> dict[Card, Place]:
        after_places = places(after)
        assert set(after_places) == set(before_places)
        for c, was in before_places.items():
            now = after_places[c]
            if was is None:
                assert now is None, "a removed card came back"
                continue
            if ascent.is_flipped(before, c):
                # A8: flipped cards never move nor change column, and stay flipped.
                assert now == was
                assert ascent.is_flipped(after, c)
                continue
            if now is None:
                assert isinstance(move, Favour), "only a favour removes cards (A13)"
                continue
            assert now[1] >= was[1], f"{c} went down (A4)"
            if now[0] != was[0]:
                assert isinstance(move, Favour), f"{c} changed column without a favour"
                assert now[1] == was[1], "a favour keeps the row (A10)"
        check_removal(before, before_places, move, after_places)
        check_end(after, after_places)
        return after_places

    def check_position(self, s: ascent.State, where: dict[Card, Place] | None = None) -> None:
        """The checks of one position; ``where``: its :func:`places`, when read already."""
        n = s.players
        rules = s.rules
        # Conservation (A18).
        where = places(s) if where is None else where
        self.places = where
        assert len(where) == 6 * n
        assert {c.owner for c in where} == set(range(n))
        # Ceiling invariant (A6, A7, A13).
        assert ceiling_violations(s) == ()
        # Scores (A15, A16), counted independently.
        points = [0] * n
        magnitude = 0
        for c, place in where.items():
            if place is None:
                continue
            q, square = place
            sign = 1 if square >= rules.arrival_of(c.rank) else -1
            points[q] += sign * c.rank.value
            magnitude += c.rank.value
        for q in range(n):
            for c in ascent.removed(s, q):
                points[q] -= c.rank.value
                magnitude += c.rank.value
        assert magnitude == 21 * n
        assert ascent.scores(s) == tuple(points)
        assert all(-21 * n <= v <= 21 * n for v in points)
        assert -21 * n <= sum(points) <= 21 * n
        # Notation round trip.
        text = self.text = ascent.to_text(s)
        again = ascent.from_text(text)
        assert again == s
        assert ascent.to_text(again) == text
        assert again.moves == s.moves
        # Legal moves.
        moves = ascent.legal_moves(s)
        assert len(set(moves)) == len(moves)
        if ascent.is_over(s):
            assert moves == ()
            return
        seat = ascent.current_player(s)
        assert seat is not None
        assert moves
        names = {str(m) for m in moves}
        assert (EndTurn() in moves) == ascent.pending_favour(s)
        for m in moves:
            assert ascent.parse_move(s, str(m)) == m
        advances = {str(m) for m in moves if isinstance(m, Advance)}
        favours = {str(m) for m in moves if isinstance(m, Favour)}
        if s.step is None:
            assert advances == oracle_advances(s, seat)
            assert not favours
        else:
            assert favours == oracle_favours(s)
            if s.step[2] == 0:
                assert not advances
            else:
                assert advances == oracle_advances(s, seat)
        # Every other move is refused, citing a clause, and changes nothing.
        for name, m in self.all_moves:
            if name in names:
                continue
            try:
                ascent.apply(s, m)
            except IllegalMove as err:
                assert err.clause in CLAUSES
            else:
                raise AssertionError(f"{m} was accepted but is not a legal move")
        assert ascent.to_text(s) == text

    @invariant()
    def seats_in_range(self) -> None:
        seat = ascent.current_player(self.state)
        assert seat is None or 0 <= seat < self.state.players


AscentGames.TestCase.settings = settings(
    max_examples=3 * settings.default.max_examples,
    stateful_step_count=30,
)
test_whole_games = pytest.mark.slow(AscentGames.TestCase)
