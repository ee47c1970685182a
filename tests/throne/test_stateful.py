"""Whole games under a Hypothesis state machine, every invariant checked after every move.

The machine draws a player count (3..6), a preset, reading options and a
seed, plays drawn moves, and its teardown finishes the game with a drawn
generator, so every example is one whole game.  ``test_whole_games`` runs
``3 x max_examples`` examples: 300 whole games under the default profile.

Invariants (spec "Consequences that must be proved", checked here by play):
floors within capacity (B7); no character lower than before within a round
(B9); No cards in ``[0, max]`` and never increasing within a round (B11);
round scores in 0..33, 1..33 in round 3 (B14, B15); totals in 1..99 (B16);
one king per finished round (B12) unless every player passed; a legal move
exists until the end (B8); notation round trips; ``apply`` leaves its input
unchanged; equal states hash equal; observations hide what they must.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

from castlerules.core import CLAUSES, Rng
from castlerules.throne import (
    Climb,
    Move,
    Pass,
    Place,
    Rules,
    State,
    Vote,
    apply,
    current_player,
    describe,
    floor_of,
    from_text,
    is_over,
    king,
    legal_moves,
    objective,
    observation,
    parse_move,
    phase,
    round_scores,
    to_text,
    totals,
    winners,
)

LETTERS = "ABCDEFGHIJKLM"


@st.composite
def decks(draw: st.DrawFn) -> tuple[str, ...]:
    cards = draw(
        st.lists(
            st.lists(st.sampled_from(LETTERS), min_size=6, max_size=6, unique=True).map(
                lambda c: "".join(sorted(c))
            ),
            min_size=6,
            max_size=10,
            unique=True,
        )
    )
    return tuple(cards)


@st.composite
def rules_options(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(["SEED", "ORIGINAL"]))
    options: dict[str, object] = dict(Rules.PRESETS[preset])
    options["allow_pass"] = draw(st.booleans())
    options["no_cards_public"] = draw(st.booleans())
    options["first_player_rotates"] = draw(st.booleans())
    options["no_cards_reset_each_round"] = draw(st.booleans())
    options["objective_deck"] = draw(st.none() | decks())
    return Rules(**options)


class ThroneGames(RuleBasedStateMachine):
    """Plays one whole game per example, checking every invariant after each move."""

    finished: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        self.state: State = None  # type: ignore[assignment]
        self.text = ""  # to_text(self.state), written by check_state
        self.rng = Rng.from_seed(0)
        self.moves = 0

    @initialize(
        players=st.integers(3, 6),
        rules=rules_options(),
        seed=st.integers(0, 2**32),
    )
    def start(self, players: int, rules: Rules, seed: int) -> None:
        from castlerules.throne import new_game

        self.state = new_game(players, rules=rules, seed=seed)
        self.rng = Rng.from_seed(seed, "stateful")
        self.text = check_state(self.state)

    def step(self, move: Move) -> None:
        before = self.state
        after = apply(before, move)
        assert to_text(before) == self.text  # apply leaves its input unchanged
        assert after == apply(before, move)  # deterministic
        check_transition(before, move, after)
        self.text = check_state(after)
        self.state = after
        self.moves += 1

    @precondition(lambda self: not is_over(self.state))
    @rule(index=st.integers(0, 200))
    def play_drawn_move(self, index: int) -> None:
        moves = legal_moves(self.state)
        self.step(moves[index % len(moves)])

    @precondition(lambda self: not is_over(self.state))
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 60))
    def play_random_moves(self, seed: int, count: int) -> None:
        rng = Rng.from_seed(seed, "burst")
        for _ in range(count):
            moves = legal_moves(self.state)
            if not moves:
                break
            move, rng = rng.choice(moves)
            self.step(move)

    @precondition(lambda self: not is_over(self.state))
    @rule(prefer_no=st.booleans())
    def play_a_vote_or_pass(self, prefer_no: bool) -> None:
        """Steer towards No votes (eliminations) or passes, rare under uniform play."""
        moves = legal_moves(self.state)
        wanted = [
            m
            for m in moves
            if (isinstance(m, Vote) and m.yes != prefer_no) or (isinstance(m, Pass) and prefer_no)
        ]
        self.step(wanted[0] if wanted else moves[0])

    @rule(seat=st.integers(0, 5), salt=st.integers(0, 2**13 - 1))
    def observe(self, seat: int, salt: int) -> None:
        """What one seat sees does not change when what it may not see changes."""
        s = self.state
        seat %= s.players
        view = observation(s, seat)
        number = s.round - 1
        finished = len(s.results)  # objectives of finished rounds are public (B14)
        objectives = tuple(
            deal
            if r < finished
            else tuple(
                mask if (k == seat and r == number) else mask ^ salt for k, mask in enumerate(deal)
            )
            for r, deal in enumerate(s.objectives)
        )
        votes = tuple(v if k == seat or v < 0 else 1 - v for k, v in enumerate(s.votes))
        no_cards = s.no_cards
        if not s.rules.no_cards_public:
            no_cards = tuple(n if k == seat else 0 for k, n in enumerate(s.no_cards))
        hidden = attrs.evolve(s, objectives=objectives, votes=votes, no_cards=no_cards)
        assert observation(hidden, seat) == view
        if s.phase != 3:
            assert view.objective == frozenset(
                ch for i, ch in enumerate(s.rules.letters()) if s.objectives[number][seat] >> i & 1
            )

    def teardown(self) -> None:
        if self.state is None:
            return
        rng = self.rng
        while not is_over(self.state):
            move, rng = rng.choice(legal_moves(self.state))
            self.step(move)
        check_final(self.state)
        type(self).finished += 1


def check_state(s: State) -> str:
    """Every invariant of one position; its text (``to_text``), read back exactly."""
    rules = s.rules
    top = rules.throne_floor
    # B7 (and the throne's single seat): every floor within its capacity.
    for floor in range(1, top + 1):
        assert s.counts[floor] == s.floors.count(floor)
        assert s.counts[floor] <= rules.capacity(floor)
    assert s.counts[0] == s.floors.count(0)
    # B11: No cards within [0, max].
    full = rules.no_cards_for(s.players)
    assert all(0 <= n <= full for n in s.no_cards)
    # A legal move exists until the end, and none after (B8, B3).
    moves = legal_moves(s)
    assert bool(moves) != is_over(s)
    assert len(set(moves)) == len(moves)
    if s.phase == 1 and not rules.allow_pass:
        assert all(isinstance(m, Climb) for m in moves)
    # Notation: exact round trip; equal states hash equal.
    text = to_text(s)
    again = from_text(text)
    assert again == s  # every field (State's equality compares them all)
    assert hash(again) == hash(s)
    # Move notation round trip (every move of small lists, a sample of long ones).
    for move in moves if len(moves) <= 8 else moves[:: max(1, len(moves) // 6)]:
        assert parse_move(s, str(move)) == move
    # Observations: a seat sees its own objective only, no uncast or unrevealed votes.
    seat = current_player(s)
    if seat is not None:
        view = observation(s, seat)
        assert view.turn == seat
        if s.phase == 2:
            assert view.voted == tuple(v >= 0 for v in s.votes)
        if not rules.no_cards_public:
            assert sum(n is None for n in view.no_cards) == s.players - 1
    return text


def check_transition(before: State, move: Move, after: State) -> None:
    rules = before.rules
    events = describe(before, move, after)
    assert events and all(e.clause in CLAUSES for e in events)
    same_round = after.round == before.round and not is_over(after)
    if same_round:
        for a, b in zip(before.floors, after.floors, strict=True):
            # B9: never lower; -1 only for the candidate eliminated from the throne (B13).
            assert b >= a or (b == -1 and a == rules.throne_floor)
        # B11: No cards never increase within a round.
        assert all(b <= a for a, b in zip(before.no_cards, after.no_cards, strict=True))
    if isinstance(move, Place | Climb):
        assert sum(a != b for a, b in zip(before.floors, after.floors, strict=True)) >= 1
    check_oracles(before, move, after)
    if len(after.results) > len(before.results):
        number = before.round
        scores = round_scores(after)[-1]
        # The spec's bounds (default points; B15 in round 3).
        low = 1 if rules.bonus_applies(number) else 0
        assert all(low <= x <= 33 for x in scores), scores
        # B12: a round ends with a king, unless every player passed (allow_pass).
        if isinstance(move, Vote):
            assert after.kings[-1] >= 0
            assert king(after) is not None
        else:
            assert isinstance(move, Pass)
            assert rules.allow_pass and after.kings[-1] == -1


SEED_POINTS = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 10}
"""B14, written from the seed (not from Rules): points of a favourite per floor."""


def check_oracles(before: State, move: Move, after: State) -> None:
    """Independent oracles (issue 10): the round score by the seed's formula (B14, B15),
    the seat that resumes after an elimination (B13), the end of the game (B3, B16)."""
    n = before.players
    ended = len(after.results) > len(before.results)
    if ended and isinstance(move, Vote) and after.kings[-1] >= 0:
        # B12 crowned: the castle as it stands, king on the throne, scores it.
        for seat in range(n):
            raw = sum(
                SEED_POINTS[f]
                for ch in objective(before, seat)
                if (f := floor_of(before, ch)) is not None and f >= 1
            )
            # B15: 'au troisième et dernier décompte', 0 counts as 33.
            expected = 33 if raw == 0 and before.round == 3 else raw
            assert round_scores(after)[-1][seat] == expected, (seat, raw)
    if (
        isinstance(move, Vote)
        and not ended
        and phase(before) == "election"
        and phase(after) == "movement"
    ):
        # B13: the candidate is eliminated; play resumes with the seat after the
        # mover (who voted first: the last voter is the seat before the mover).
        mover = (before.turn + 1) % n
        assert current_player(after) == (mover + 1) % n
    # B3, B16: the game is over exactly when the third round has been scored.
    assert is_over(after) == (len(after.results) == 3)


def check_final(s: State) -> None:
    assert len(round_scores(s)) == s.rules.rounds == 3
    assert all(1 <= t <= 99 for t in totals(s))
    best = max(totals(s))
    assert winners(s) == tuple(k for k, t in enumerate(totals(s)) if t == best)


@pytest.mark.slow
def test_whole_games() -> None:
    """At least 300 whole games under the default profile (3 x max_examples)."""
    profile = settings()  # the loaded profile (tests/conftest.py)
    examples = 3 * profile.max_examples
    ThroneGames.finished = 0
    run_state_machine_as_test(
        ThroneGames,
        settings=settings(profile, max_examples=examples, stateful_step_count=8),
    )
    assert ThroneGames.finished >= examples
    if profile.max_examples >= 100:  # the default profile
        assert ThroneGames.finished >= 300
