"""The fast engines against the rule kernels, move for move, on every reachable
position of small games of both games: the exhaustive tie.

For each scope (a small game: options of the engine's ``Rules`` and a player
count), a breadth-first search from every initial position (every chance outcome:
Throne's deals of every round's objectives, Ascent's die and shuffled deals)
visits every reachable engine position, and at each position judges every move
number of the kernel's universe, legal or not, by the fast engine and by the
kernel run on plain values: the same legality, the same clause for every refusal
(the engine's :class:`~castlerules.core.IllegalMove` and the kernel's first broken
guard), the same successor, scores and end (:func:`search`).  The proofs reason
about the same kernels run on Z3 terms (:mod:`castlerules.symbolic`), so the search
ties each engine to the transition system its proofs are about.

Every scope declares the boundary counts it must reach (:attr:`Scope.reaches`,
names of :data:`BOUNDARIES`): what the scope is there for; a declared count of 0
fails the search like a disagreement.  The scopes: :data:`THRONE_KERNEL_SCOPES`,
:data:`ASCENT_KERNEL_SCOPES` (both in :data:`KERNEL_SCOPES`); :data:`THRONE_SCOPES`,
a few Throne scopes, serve the action-number tests.

``python -m proofs.equivalence`` searches every scope of both games (``--game``
one of them) and prints, per scope, the positions, the (position, move) pairs and
every boundary count, the declared ones first; it exits 1 on a disagreement or a
declared count of 0.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.ascent import kernel as akernel
from castlerules.ascent.rules import Tables
from castlerules.ascent.setup import deal_in_order, first_player_of
from castlerules.core import IllegalMove
from castlerules.core.ops import CONCRETE
from castlerules.register.readings import readings_of
from castlerules.symbolic.ascent_model import seat_advances
from castlerules.throne import kernel as tkernel
from castlerules.throne.state import ELECTION, MOVEMENT
from castlerules.throne.transitions import legal_codes
from proofs import ascent_judged as judged_moves


@attrs.frozen(slots=True)
class Scope:
    """A small game: its game (``"throne"`` or ``"ascent"``), options and player count."""

    game: str
    name: str
    players: int
    options: dict[str, object]
    reaches: tuple[str, ...] = ()
    """Boundary counts (names of the game's :data:`BOUNDARIES`) that the search must
    find above 0: what the scope is there for."""
    base: str = ""
    """For a scope derived from a declared reading (:func:`derived_scopes`), the name of
    the hand scope it changes one option of; its search must differ from that one's."""
    option: str = ""
    """For a derived scope, the option its reading sets."""

    @property
    def rules(self) -> throne.Rules | ascent.Rules:
        """The scope's rules (the game's ``Rules`` of its options)."""
        return throne_rules(self) if self.game == "throne" else ascent_rules(self)


def throne_rules(scope: Scope) -> throne.Rules:
    """The Throne rules of a Throne scope."""
    return throne.Rules(**scope.options)


def ascent_rules(scope: Scope) -> ascent.Rules:
    """The Ascent rules of an Ascent scope."""
    return ascent.Rules(**scope.options)


# ---------------------------------------------------------------------------
# The boundary counts of each game

THRONE_BOUNDARIES: Mapping[str, str] = {
    "refusals": "refused (position, move) pairs",
    "crowned": "a vote that crowns the candidate (B12)",
    "eliminated": "a vote that eliminates the candidate, play resumes (B13)",
    "nobody_left": "the last candidate eliminated ends the round (B13)",
    "everyone_passed": "a pass that ends the round (B8)",
    "passes": "a pass that does not end the round (B8)",
    "next_round": "a round's end that starts the next round (B3)",
    "over": "finished games",
    "bonus": "a round score of 0 turned into the bonus (B15)",
    "fills": "a climb that fills its floor (B7)",
    "into_full": "a climb refused for a full floor above (B8, B7)",
    "leftovers": "the last placement puts characters on floor 1 (B6, equal_placement)",
    "starter_differs": "the movement starts with a seat other than the one after the "
    "last placer (B8, movement_starter)",
}
"""Throne's boundary counts: name -> what is counted."""

ASCENT_BOUNDARIES: Mapping[str, str] = {
    "favours": "legal Favours",
    "second_favours": "a Favour after one (``sk >= 1``)",
    "replays": "an Advance after a favour (A12)",
    "ends": "legal EndTurns",
    "declined": "an Advance onto its arrival square whose row has a lower stack it may "
    "not take (favour_after_arrival=False)",
    "removals": "a favour that removes a remainder (A13)",
    "removals_to_owner": "a removed card on a pile other than its column's",
    "lower_removals": "a removal below the upper half",
    "exposures": "a favour that leaves an exposed remainder on the board",
    "carried": "a move after which a card stands above its arrival square",
    "ceilings": "A6 refusals for the leader's ceiling",
    "jumps": "an Advance over an occupied square",
    "flips": "an Advance onto its arrival square",
    "skips": "the turn passes over a seat",
    "alone": "the turn goes on with at most one player in the race (last_player_continues)",
    "over": "finished games",
    "blocked_end": "a game over with a card still below its arrival square and unflipped",
    "highest_differs": "an Advance whose part's rank is not its top card's",
    "all_lower_refusals": "refusals by the guard of favour_takes=all_lower",
    "strict_refusals": "refusals by the guard of protection=False",
    "exposing_splits": "an Advance leaving a remainder above its ceiling",
    "equal_refusals": "a favour refused for a target of the taker's own rank (A10)",
}
"""Ascent's boundary counts: name -> what is counted."""

BOUNDARIES: Mapping[str, Mapping[str, str]] = {
    "throne": THRONE_BOUNDARIES,
    "ascent": ASCENT_BOUNDARIES,
}
"""Each game's boundary counts, in the order they are printed."""


# ---------------------------------------------------------------------------
# The scopes

_SMALL: dict[str, object] = {
    "characters": 3,
    "floor_capacity": 3,
    "placement_floors": (5,),
    "objective_size": 1,
    "no_cards": (1, 1, 1, 1),
    # Floor 5 scores 1 and floor 6 scores 0, so that the B15 boundaries (a round
    # score of 0, of 1, the bonus) occur in these small castles.
    "points": (0, 1, 2, 3, 1, 0, 10),
}

THRONE_SCOPES: tuple[Scope, ...] = (
    Scope(
        "throne",
        "3 characters, floors of 3, one round with the bonus",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,)},
    ),
    Scope(
        "throne",
        "3 characters, two rounds (bonus in round 2), no No cards, seat 0 always first",
        3,
        {
            **_SMALL,
            "rounds": 2,
            "bonus_rounds": (2,),
            "no_cards": (0, 0, 0, 0),
            "first_player_rotates": False,
        },
    ),
    Scope(
        "throne",
        "3 characters, one round, passing allowed",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,), "allow_pass": True},
    ),
    Scope(
        "throne",
        # Floors of 2, placed on floors 4 and 5: a climb fills a floor, and a climb
        # into a full floor is refused (B7), which the castles above never reach.
        "3 characters, floors of 2 placed on floors 4 and 5, one round with the bonus",
        3,
        {
            **_SMALL,
            "floor_capacity": 2,
            "placement_floors": (4, 5),
            "rounds": 1,
            "bonus_rounds": (1,),
        },
        reaches=("fills", "into_full"),
    ),
)
"""Small configurations whose every position the action-number tests visit."""

HAND_THRONE_SCOPES: tuple[Scope, ...] = (
    Scope(
        "throne",
        "3 characters, floors of 3, one round with the bonus",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,)},
        reaches=("crowned", "eliminated", "nobody_left", "refusals"),
    ),
    Scope(
        "throne",
        "3 characters, two rounds (bonus in round 2), no No cards, the first player rotates",
        3,
        {
            **_SMALL,
            "rounds": 2,
            "bonus_rounds": (2,),
            "no_cards": (0, 0, 0, 0),
        },
        reaches=("crowned", "next_round", "bonus", "refusals"),
    ),
    Scope(
        "throne",
        "3 characters, one round, passing allowed",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,), "allow_pass": True},
        reaches=("everyone_passed", "passes", "refusals"),
    ),
    Scope(
        "throne",
        # Floors of 2, placed on floors 4 and 5: a climb fills a floor, and a climb
        # into a full floor is refused (B7), which the castles above never reach.
        "3 characters, floors of 2 placed on floors 4 and 5, one round with the bonus",
        3,
        {
            **_SMALL,
            "floor_capacity": 2,
            "placement_floors": (4, 5),
            "rounds": 1,
            "bonus_rounds": (1,),
        },
        reaches=("fills", "into_full", "refusals"),
    ),
    Scope(
        "throne",
        # Four characters for three seats: the seat after the last placer (seat 1) is
        # not the round's first player (seat 0), so movement_starter matters (B8);
        # two rounds with equal placement of one character each put the fourth on
        # floor 1 and rotate the first player (B3, B6).
        "4 characters, a deck of 3 cards, the first player starts the movement",
        3,
        {
            **_SMALL,
            "characters": 4,
            "floor_capacity": 4,
            "objective_deck": ("A", "B", "C"),
            "no_cards": (0, 0, 0, 0),
            "rounds": 1,
            "bonus_rounds": (1,),
            "movement_starter": "first_player",
        },
        reaches=("starter_differs", "crowned", "refusals"),
    ),
    Scope(
        "throne",
        "4 characters, a deck of 3 cards, one placement each (the fourth to floor 1)",
        3,
        {
            **_SMALL,
            "characters": 4,
            "objective_deck": ("A", "B", "C"),
            "placement_floors": (5,),
            "equal_placement": True,
            "placements_per_player": (1, 1, 1, 1),
            "rounds": 1,
            "bonus_rounds": (1,),
            "no_cards": (0, 0, 0, 0),
        },
        reaches=("leftovers", "crowned", "refusals"),
    ),
)
"""Throne's scopes written by hand, each with the boundaries it must reach."""


HAND_ASCENT_SCOPES: tuple[Scope, ...] = (
    Scope(
        "ascent",
        # L0 takes T1 on row 1 and carries it past its arrival square 3 (A7); P1 then
        # takes L0 on row 4 and the exposed T1 leaves the board (A13, upper half).
        "Lady against Troubadour and Prince, the reference reading",
        2,
        {"cards": ("L0", "T1", "P1")},
        reaches=("favours", "removals", "carried", "ceilings", "jumps", "flips", "over"),
    ),
    Scope(
        "ascent",
        # The same game under the strict reading: T1 may not be carried past square 3.
        "Lady against Troubadour and Prince, no protection",
        2,
        {"cards": ("L0", "T1", "P1"), "protection": False},
        reaches=("favours", "strict_refusals", "over"),
    ),
    Scope(
        "ascent",
        # Removal in both halves (HARSH) with the upper half from square 5; penalties to
        # the owner of the set: a removed T1 counts against seat 1 from column 0 (A13).
        "Lady and two Troubadours against Prince, HARSH, upper half 5, penalty to the owner",
        2,
        {
            "cards": ("L0", "T0", "T1", "P1"),
            "upper_half": 5,
            "removal_in_lower_half": True,
            "penalty_to": "owner",
        },
        reaches=("favours", "removals", "removals_to_owner", "lower_removals", "skips"),
    ),
    Scope(
        "ascent",
        # Unlimited favours (GENEROUS); an exposed remainder stays in the lower half
        # (squares 1-4) and C0, flipped on its arrival square 4, may not take it; one
        # player in the race plays on.
        "Lady and Charlatan against Troubadour and Prince, unlimited favours, no favour "
        "after arrival, the last player continues",
        2,
        {
            "cards": ("L0", "C0", "T1", "P1"),
            "upper_half": 5,
            "favours_per_move": None,
            "favour_after_arrival": False,
            "last_player_continues": True,
        },
        reaches=(
            "favours",
            "second_favours",
            "replays",
            "ends",
            "exposures",
            "declined",
            "alone",
            "over",
        ),
    ),
    Scope(
        "ascent",
        # The other stack rank reading; the die decides nothing; any unflipped card
        # keeps its player in the race.
        "Lady and Charlatan against Troubadour and Prince, highest rank, unflipped, no die",
        2,
        {
            "cards": ("L0", "C0", "T1", "P1"),
            "stack_rank": "highest",
            "die": "none",
            "end_test": "unflipped",
        },
        reaches=("favours", "removals", "highest_differs", "over"),
    ),
    Scope(
        "ascent",
        # Three seats: turns skip a seat with no Advance; the end test can_move; a split
        # may leave a card exposed.
        "three seats: Lady, Troubadour, Charlatan and Prince, can_move, exposing splits",
        3,
        {"cards": ("L0", "T1", "C2", "P2"), "end_test": "can_move", "allow_exposing_split": True},
        reaches=("favours", "removals", "skips", "over", "blocked_end", "exposing_splits"),
    ),
    Scope(
        "ascent",
        # L0 takes T1 and then C2 on one row: [L0, T1, C2]; once L0 has gone on alone,
        # C1 may take T1 but not T1 with C2 under it (all_lower, A10).
        "three seats: Lady, Troubadour and Charlatan, Charlatan; two favours, all lower",
        3,
        {"cards": ("L0", "T1", "C1", "C2"), "favours_per_move": 2, "favour_takes": "all_lower"},
        reaches=("favours", "second_favours", "all_lower_refusals", "over"),
    ),
    Scope(
        "ascent",
        # The shuffled deal: three cards dealt one by one by chance (every deal); a
        # removed card counts against its owner, the seat dealt it (A13, A18).
        "Lady, Troubadour and Prince shuffled between three seats, penalty to the owner",
        3,
        {"cards": ("L0", "T1", "P2"), "deal": "shuffled", "penalty_to": "owner"},
        reaches=("favours", "removals", "removals_to_owner", "over"),
    ),
    Scope(
        "ascent",
        # C0 reaches row 1 with T1 and C2 there: it may take T1, not C2 (equal rank).
        "three seats: Charlatan, Troubadour, Charlatan",
        3,
        {"cards": ("C0", "T1", "C2")},
        reaches=("favours", "equal_refusals", "over"),
    ),
    Scope(
        "ascent",
        # L0 carries T1 up to T1's arrival square 3 and goes on alone: T1, uncovered
        # there, turns over (flip_uncovered, A8); P1 takes L0 with T1 under it on row 1,
        # or L0 alone higher up, leaving T1 flipped or bare.
        "Lady against Troubadour and Prince, an uncovered card turns over",
        2,
        {"cards": ("L0", "T1", "P1"), "flip_uncovered": True},
        reaches=("favours", "removals", "carried", "flips", "over"),
    ),
    Scope(
        "ascent",
        # Every rank travels 7 squares from a start row of its own (path="staggered", A5):
        # T1 from row 1, L0 from row 3, P1 from row 5, on a path of 12 squares.
        "Lady against Troubadour and Prince, staggered starts",
        2,
        {"cards": ("L0", "T1", "P1"), "path": "staggered"},
        reaches=("favours", "jumps", "flips", "over"),
    ),
    Scope(
        "ascent",
        # One replay per turn (A12): after a favour the player plays again once; after
        # the favours of that replay the turn ends (a third Advance is refused).
        "Lady against Troubadour and Prince, one replay per turn",
        2,
        {"cards": ("L0", "T1", "P1"), "replays_per_turn": 1},
        reaches=("favours", "replays", "ends", "over"),
    ),
)
"""Ascent's scopes written by hand (games of the proof-only option ``cards``), each with
the boundaries it must reach."""


# ---------------------------------------------------------------------------
# The scopes the declarations give: one per declared reading no hand scope plays

DERIVED_BASES: Mapping[str, Scope] = {
    "throne": HAND_THRONE_SCOPES[4],
    "ascent": HAND_ASCENT_SCOPES[0],
}
"""The small game of each game on which a declared reading that no hand scope plays gets
a scope of its own (:func:`derived_scopes`): its players and options, the reading's
value put in."""

DERIVED_BASES_BY_OPTION: Mapping[tuple[str, str], Scope] = {
    # Who starts the second round (B3): a game of one round never asks.
    ("throne", "first_player_rotates"): HAND_THRONE_SCOPES[1],
}
"""The readings whose option the game's :data:`DERIVED_BASES` never reads, each with a
hand scope that does (game, option)."""

SAME_COUNTS: Mapping[tuple[str, str, str], str] = {
    ("throne", "first_player_rotates", HAND_THRONE_SCOPES[1].name): "every deal of both "
    "rounds is searched for 3 seats, and a second round started by seat 0 instead of "
    "seat 1 gives as many positions, pairs and boundaries: the counts agree, the "
    "positions do not (4,842 kernel positions each, 1,170 of them in common, 2026-12-08)",
}
"""The derived scopes whose counts are their base's though their games differ (game,
option, the base's name), with the reason and what was measured; every other derived
scope must count something else than its base (:attr:`Count.covered`)."""

COVERED_OTHERWISE: Mapping[tuple[str, str], str] = {
    ("throne", "placement_floors"): "a table of floors: every Throne scope places on "
    "floors other than the default's ((5,) or (4, 5)), so the kernel's reading of the "
    "table is tied; floors 2-5 take 30 s or more in the smallest castle",
    ("throne", "no_cards_reset_each_round"): "No cards kept from one round to the next "
    "(B11) need a game of two rounds with No cards, and the smallest such scope (4 "
    "characters, a deck of 3, a No card each) runs past 90 s; tied instead on whole "
    "games at every player count, every move number of every position, by "
    "tests/test_differential.py",
    ("throne", "no_cards_public"): "what a seat is shown of the others' No cards (B11), "
    "not a move: no move, refusal or successor reads it, so no scope of the tie can tell "
    "its values apart; the views that read it are checked by tests/throne/"
    "test_diagram_secrets.py and the desk's boundary tests",
}
"""The declared readings no scope plays as such, with the reason (game, option)."""


def declared_readings(module: Any) -> tuple[tuple[str, object], ...]:
    """Each declared reading of a game as ``(option, value)``: every value the register
    tries for one option instead of the reference reading's (the declarations'
    alternatives, a flipped boolean, ``None`` or 1 for an optional number, the presets'
    values), in field order; the options declared ``fixed`` or ``unplayable`` have none."""
    found, _not_varied, _excluded, _invalid = readings_of(module, module.Rules(), None, {})
    out: list[tuple[str, object]] = []
    for reading in found:
        option, one_option, _value = reading.label.partition("=")
        if one_option:
            out.append((option, getattr(reading.rules, option)))
    return tuple(out)


def plays(scope: Scope, option: str, value: object) -> bool:
    """Whether ``scope``'s game is played with ``option`` at ``value``."""
    return bool(getattr(scope.rules, option) == value)


def derived_scopes(game: str, hand: Sequence[Scope]) -> tuple[Scope, ...]:
    """A scope for each declared reading of ``game`` that no scope of ``hand`` plays (and
    :data:`COVERED_OTHERWISE` does not excuse): the game's :data:`DERIVED_BASES` with the
    reading's value, required to reach a finished game."""
    module = {"throne": throne, "ascent": ascent}[game]
    out = []
    for option, value in declared_readings(module):
        if (game, option) in COVERED_OTHERWISE or any(plays(s, option, value) for s in hand):
            continue
        base = DERIVED_BASES_BY_OPTION.get((game, option), DERIVED_BASES[game])
        out.append(
            Scope(
                game,
                f"{base.name}, {option}={value!r} (from its declaration)",
                base.players,
                {**base.options, option: value},
                reaches=("over",),
                base=base.name,
                option=option,
            )
        )
    return tuple(out)


THRONE_KERNEL_SCOPES: tuple[Scope, ...] = (
    *HAND_THRONE_SCOPES,
    *derived_scopes("throne", HAND_THRONE_SCOPES),
)
"""Throne's scopes of the exhaustive tie: the hand scopes, then one per declared reading
they do not play."""

ASCENT_KERNEL_SCOPES: tuple[Scope, ...] = (
    *HAND_ASCENT_SCOPES,
    *derived_scopes("ascent", HAND_ASCENT_SCOPES),
)
"""Ascent's scopes of the exhaustive tie: the hand scopes, then one per declared reading
they do not play."""


KERNEL_SCOPES: tuple[Scope, ...] = (*THRONE_KERNEL_SCOPES, *ASCENT_KERNEL_SCOPES)
"""Every scope of the exhaustive tie, Throne's then Ascent's."""


# ---------------------------------------------------------------------------
# The search


@attrs.frozen(slots=True)
class Visit:
    """What judging every move of one position found."""

    pairs: int
    """The (position, move) pairs judged: the size of the kernel's universe."""
    successors: tuple[Any, ...]
    """The engine's successor of each legal move on which engine and kernel agree."""
    refusals: tuple[str, ...]
    """The kernel's broken guard (``clause: what``) of each refused move."""
    marks: tuple[str, ...]
    """The boundaries met, a name each time one is met."""
    problems: tuple[str, ...] = ()
    """Where the engine and the kernel part."""


@attrs.frozen(slots=True)
class Count:
    """What one scope's search covered, and where engine and kernel parted."""

    game: str
    scope: str
    players: int
    initial: int
    states: int
    pairs: int
    legal: int
    seconds: float
    boundaries: tuple[tuple[str, int], ...]
    """Every boundary count of the game (:data:`BOUNDARIES`), in its order."""
    refusals: tuple[tuple[str, int], ...]
    """Refused pairs per kernel guard (``clause: what``)."""
    reaches: tuple[str, ...] = ()
    """The scope's declared boundaries (:attr:`Scope.reaches`)."""
    mismatches: tuple[str, ...] = ()

    def get(self, name: str) -> int:
        """A boundary count by name."""
        return dict(self.boundaries)[name]

    @property
    def unmet(self) -> tuple[str, ...]:
        """The declared boundaries the search did not meet."""
        return tuple(name for name in self.reaches if self.get(name) == 0)

    @property
    def ok(self) -> bool:
        """No disagreement, and every declared boundary met."""
        return not self.mismatches and not self.unmet

    @property
    def covered(self) -> tuple[object, ...]:
        """What the search covered, its time aside: two scopes with the same are, as far
        as the counts tell, the same game (a derived scope must not be its base's)."""
        return (self.initial, self.states, self.pairs, self.legal, self.boundaries, self.refusals)

    def line(self) -> str:
        """The counts in one line: positions, pairs, the declared boundaries, the rest."""
        declared = ", ".join(f"{k} {self.get(k):,}" for k in self.reaches)
        other = ", ".join(f"{k} {v:,}" for k, v in self.boundaries if k not in self.reaches)
        return (
            f"{self.game}: {self.scope} ({self.players} players): {self.initial} initial "
            f"positions, {self.states:,} reachable positions, {self.pairs:,} (position, move) "
            f"pairs ({self.legal:,} legal); declared: {declared or 'none'}; "
            f"other counts: {other}; {self.seconds:.1f} s"
        )


def search(scope: Scope, limit: int = 20) -> Count:
    """Breadth-first search of every position of ``scope`` reachable from every initial
    position (:func:`initial_positions`); at each, every move of the kernel's universe
    judged by the fast engine and by the kernel on plain values (the game's check:
    :func:`_throne_checker`, :func:`_ascent_checker`).  Keeps the first ``limit``
    disagreements; :class:`ValueError` for a declared boundary the game does not count."""
    started = time.perf_counter()
    names = BOUNDARIES[scope.game]
    unknown = [name for name in scope.reaches if name not in names]
    if unknown:
        raise ValueError(f"{scope.name}: no boundary count named {', '.join(unknown)}")
    starts, problems = _STARTS[scope.game](scope)
    check = _CHECKERS[scope.game](scope)
    marks: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    bad = problems[:limit]
    seen = set(starts)
    queue = deque(dict.fromkeys(starts))
    pairs = legal = 0
    while queue:
        visit = check(queue.popleft())
        pairs += visit.pairs
        legal += len(visit.successors)
        marks.update(visit.marks)
        refused.update(visit.refusals)
        bad += visit.problems[: max(0, limit - len(bad))]
        for after in visit.successors:
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return Count(
        game=scope.game,
        scope=scope.name,
        players=scope.players,
        initial=len(starts),
        states=len(seen),
        pairs=pairs,
        legal=legal,
        seconds=time.perf_counter() - started,
        boundaries=tuple((name, marks[name]) for name in names),
        refusals=tuple(sorted(refused.items())),
        reaches=scope.reaches,
        mismatches=tuple(bad),
    )


def initial_positions(scope: Scope) -> list[Any]:
    """Every new game of the scope (every chance outcome), in search order."""
    return _STARTS[scope.game](scope)[0]


# ---------------------------------------------------------------------------
# Throne


def _throne_starts(scope: Scope) -> tuple[list[Any], list[str]]:
    """Every new game of a Throne scope: every deal of every round's objectives (B4);
    and the new games that are not the kernel's initial position of their deal."""
    rules = throne_rules(scope)
    shape = tkernel.Shape.of(rules, scope.players)
    options = tkernel.Options.of(CONCRETE, rules)
    letters = rules.letters()
    cards = list(rules.objective_deck or ()) or [
        "".join(c) for c in itertools.combinations(letters, rules.objective_size)
    ]
    deals = [list(d) for d in itertools.permutations(cards, scope.players)]
    starts = [
        throne.new_game(scope.players, rules, objectives=list(rounds))
        for rounds in itertools.product(deals, repeat=rules.rounds)
    ]
    problems = [
        f"{throne.to_text(s)}: a new game that is not the kernel's initial position"
        for s in starts
        if tkernel.initial(CONCRETE, shape, options, tkernel.from_state(s).obj)
        != tkernel.from_state(s)
    ]
    return starts, problems


def _throne_checker(scope: Scope) -> Callable[[Any], Visit]:
    """The Throne check of one position: every move number of
    :func:`castlerules.throne.kernel.universe_of`, by the engine and by
    :func:`castlerules.throne.kernel.judge`; ``legal_codes`` must be the kernel's
    legal action numbers."""
    rules = throne_rules(scope)
    shape = tkernel.Shape.of(rules, scope.players)
    options = tkernel.Options.of(CONCRETE, rules)

    # The kernel's verdicts on every move number, per kernel position and chance outcome:
    # judge is a pure function of (shape, s, a, nobj), and the engine positions that
    # differ only in what the kernel's position does not hold (the past rounds' deals
    # and round scores, not their totals) share them; every engine position is still
    # played and compared move by move.  Kept only where there are past rounds (in a
    # game of one round every engine position is a kernel position of its own).
    judged: dict[tuple[Any, ...], list[tkernel.Verdict]] = {}
    keep = rules.rounds > 1

    def verdicts(ks: tkernel.KState, chance: tuple[tuple[bool, ...], ...]) -> list[Any]:
        found = judged.get((ks, chance))
        if found is None:
            position = tkernel.Position(CONCRETE, shape, options, ks)
            found = [tkernel.judge(shape, ks, a, chance, position) for a in range(len(shape.moves))]
            if keep:
                judged[ks, chance] = found
        return found

    def check(state: throne.State) -> Visit:
        ks = tkernel.from_state(state)
        chance = tkernel.next_objectives(state)
        marks = ["over"] if throne.is_over(state) else []
        refusals: list[str] = []
        successors: list[throne.State] = []
        problems: list[str] = []
        accepted: list[int] = []
        for (a, move), verdict in zip(enumerate(shape.moves), verdicts(ks, chance), strict=True):
            try:
                after: throne.State | None = throne.apply(state, move)
                clause = None
            except IllegalMove as err:
                after, clause = None, err.clause
            if (after is not None) != verdict.legal or clause != verdict.clause:
                problems.append(
                    f"{throne.to_text(state)} {move}: engine "
                    f"{'accepts' if after is not None else 'refuses (' + str(clause) + ')'}"
                    f", kernel {'accepts' if verdict.legal else 'refuses'} "
                    f"({verdict.clause})"
                )
                continue
            if after is None:
                why = f"{verdict.clause}: {verdict.what}"
                refusals.append(why)
                marks.append("refusals")
                if verdict.refusal == "throne-climb-into-full":
                    marks.append("into_full")
                continue
            if a < shape.actions:
                accepted.append(a)
            outcome = verdict.outcome
            assert outcome is not None
            problem = _throne_compare(state, after, outcome)
            if problem:
                problems.append(f"{throne.to_text(state)} {move}: {problem}")
            marks += _throne_marks(state, after, move, shape)
            successors.append(after)
        if tuple(accepted) != legal_codes(state):
            problems.append(
                f"{throne.to_text(state)}: legal_codes {legal_codes(state)}, "
                f"kernel {tuple(accepted)}"
            )
        return Visit(
            len(shape.moves), tuple(successors), tuple(refusals), tuple(marks), tuple(problems)
        )

    return check


def _throne_compare(state: throne.State, after: throne.State, outcome: tkernel.Outcome) -> str:
    """'' when the kernel's outcome is the engine's successor, else what differs."""
    expected = tkernel.from_state(after)
    got = outcome.post
    if got != expected:
        diff = [
            f"{f.name} (engine {getattr(expected, f.name)}, kernel {getattr(got, f.name)})"
            for f in attrs.fields(tkernel.KState)
            if getattr(expected, f.name) != getattr(got, f.name)
        ]
        return "successor differs in " + ", ".join(diff[:4])
    scored = len(after.results) > len(state.results)
    if scored != outcome.scored:
        return f"engine {'scores' if scored else 'does not score'} the round, kernel not"
    if scored and (after.results[-1] != outcome.score or after.kings[-1] != outcome.king):
        return (
            f"round scored {after.results[-1]} king {after.kings[-1]} by the engine, "
            f"{outcome.score} king {outcome.king} by the kernel"
        )
    if throne.is_over(after):
        best = tuple(q for q, won in enumerate(tkernel.winners(CONCRETE, got)) if won)
        if best != throne.winners(after):
            return f"winners {throne.winners(after)} by the engine, {best} by the kernel (B16)"
    return ""


def _throne_marks(
    state: throne.State, after: throne.State, move: throne.Move, shape: tkernel.Shape
) -> list[str]:
    """The boundaries one legal Throne move meets (:data:`THRONE_BOUNDARIES`)."""
    hits: dict[str, bool] = {}
    scored = len(after.results) > len(state.results)
    if scored:
        crowned = after.kings[-1] >= 0
        rules = state.rules
        hits["crowned"] = crowned
        hits["nobody_left"] = not crowned and isinstance(move, throne.Vote)
        hits["everyone_passed"] = isinstance(move, throne.Pass)
        hits["next_round"] = not throne.is_over(after)
        hits["bonus"] = rules.bonus_applies(state.round) and rules.bonus_points in after.results[-1]
    elif isinstance(move, throne.Vote) and state.phase == ELECTION and after.phase == MOVEMENT:
        hits["eliminated"] = True
    hits["passes"] = isinstance(move, throne.Pass) and not scored
    if isinstance(move, throne.Climb) and after.phase == MOVEMENT:
        hits["fills"] = _full_at(after, move.character)
    if isinstance(move, throne.Place) and after.phase == MOVEMENT:
        on_one = sum(1 for c in state.floors if c == 1) + (move.floor == 1)
        hits["leftovers"] = after.counts[1] > on_one
        hits["starter_differs"] = after.turn != (state.turn + 1) % shape.players
    return [name for name, hit in hits.items() if hit]


def _full_at(state: throne.State, character: str) -> bool:
    """The character stands below the throne and its floor is at capacity (B7)."""
    floor = throne.floor_of(state, character)
    top = state.rules.throne_floor
    on = sum(1 for ch in state.rules.letters() if throne.floor_of(state, ch) == floor)
    return floor is not None and floor < top and on == state.rules.capacity(floor)


# ---------------------------------------------------------------------------
# Ascent


def ascent_deal(shape: akernel.Shape, owners: tuple[int, ...]) -> tuple[int, ...]:
    """The kernel's deal (a seat per card slot, -1 out of play) of the engine's
    ``owners`` (per card number)."""
    return tuple(owners[c] for c in shape.cards)


def _ascent_starts(scope: Scope) -> tuple[list[Any], list[str]]:
    """Every new game of an Ascent scope: every seat the die can show (A18; with
    ``die="none"`` the one game seat 0 begins) and, with ``deal="shuffled"``, every
    deal of the cards with every first player; and the new games that are not the
    kernel's :func:`~castlerules.ascent.kernel.initial` of their chance outcome."""
    rules, n = ascent_rules(scope), scope.players
    shape = akernel.Shape.of(rules, n)
    options = akernel.Options.of(CONCRETE, rules)
    rolled = ascent.Rules()  # the die as rolled when it decides (it reads no other option)
    out: list[ascent.State] = []
    problems: list[str] = []

    def expect(state: ascent.State, roll: int, deal: tuple[int, ...] | None) -> None:
        if akernel.from_state(state) != akernel.initial(CONCRETE, shape, options, roll, deal):
            problems.append(
                f"{ascent.to_text(state)}: a new game that is not the kernel's initial "
                f"position (first player {roll}, deal {deal})"
            )

    for seed in range(4 * n):
        state = ascent.new_game(n, rules, seed=seed)
        roll = first_player_of(rolled, n, seed)
        expect(state, roll, ascent_deal(shape, state.owners) if rules.deal == "shuffled" else None)
        if rules.die == "first_player":
            state = ascent.new_game(n, rules, first_player=roll, owners=state.owners)
        if state not in out:
            out.append(state)
    if rules.deal == "shuffled":
        for owners in _every_deal(rules, n):
            for roll in range(n) if rules.die == "first_player" else (0,):
                state = ascent.new_game(n, rules, first_player=roll, owners=owners)
                expect(state, roll, ascent_deal(shape, owners))
                if state not in out:
                    out.append(state)
    return out, problems


def _every_deal(rules: ascent.Rules, n: int) -> list[tuple[int, ...]]:
    """Every outcome of the shuffled deal (A18): each seat ``len // n`` of the cards."""
    deck = Tables.of(rules).dealable
    return sorted({deal_in_order(rules, n, order) for order in itertools.permutations(deck)})


_ASCENT_REFUSALS = {
    "ascent-ceiling": "ceilings",
    "ascent-favour-all-lower": "all_lower_refusals",
    "ascent-strict-protection": "strict_refusals",
}
"""The guards whose refusals are boundary counts of their own, by the guard's refusal
name (:attr:`castlerules.core.ops.Guard.refusal`)."""


def _ascent_checker(scope: Scope) -> Callable[[Any], Visit]:
    """The Ascent check of one position: every move of the kernel's universe, by the
    engine and by the kernel (:func:`proofs.ascent_judged.check_position`: the
    legality, the clause, ``legal_moves``, the successor, the scores, the end and the
    winners)."""
    rules = ascent_rules(scope)
    shape = akernel.Shape.of(rules, scope.players)
    options = akernel.Options.of(CONCRETE, rules)
    boards: dict[tuple[Any, ...], akernel.Board] = {}  # one board per card layout

    def check(state: ascent.State) -> Visit:
        ks = akernel.from_state(state)
        position = akernel.Position(CONCRETE, shape, options, ks, boards=boards)
        marks = ["over"] if ascent.is_over(state) else []
        try:
            judged = judged_moves.check_position(shape, state, position)
        except judged_moves.Disagreement as err:
            return Visit(len(shape.moves), (), (), tuple(marks), (str(err),))
        # The proofs' model reads who may advance in a form of its own: it must be the
        # kernel's on every position.
        derived = seat_advances(CONCRETE, shape, options, position.s, lambda: position.board)
        if derived != position.board.advances:
            problem = (
                f"{ascent.to_text(state)}: the proofs' model's seat_advances {derived}, "
                f"the kernel's Board.advances {position.board.advances}"
            )
            return Visit(len(shape.moves), (), (), tuple(marks), (problem,))
        refusals: list[str] = []
        successors: list[ascent.State] = []
        for a, verdict, after in judged:
            if after is None:
                why = f"{verdict.clause}: {verdict.what}"
                refusals.append(why)
                if verdict.refusal in _ASCENT_REFUSALS:
                    marks.append(_ASCENT_REFUSALS[verdict.refusal])
                if (
                    verdict.refusal == "ascent-favour-rank"
                    and position.board.stack_rank[shape.slot[a]] == position.taker
                ):
                    marks.append("equal_refusals")
                continue
            marks += _ascent_marks(shape, position, a, verdict, after)
            successors.append(after)
        return Visit(len(judged), tuple(successors), tuple(refusals), tuple(marks))

    return check


def _ascent_marks(
    shape: akernel.Shape,
    p: akernel.Position,
    a: int,
    verdict: akernel.Verdict,
    after: ascent.State,
) -> list[str]:
    """The boundaries one legal Ascent move meets (:data:`ASCENT_BOUNDARIES`; the
    kernel's view, which the engine's successor has just been found equal to)."""
    s, b, post = p.s, p.board, verdict.post
    assert post is not None
    kind, k = shape.kind[a], shape.slot[a]
    slots = shape.slots
    hits: dict[str, object] = {}
    if kind == akernel.K_ADVANCE:
        d = b.dest[k]
        hits["replays"] = s.mid
        hits["jumps"] = any(b.occ[s.actor][x] for x in range(s.sq[k] + 1, d))
        hits["flips"] = d == b.ceil[k]
        top = sum(shape.value[j] for j in slots if b.stk[k][j] and s.dep[j] == 0)
        hits["highest_differs"] = b.part_rank[k] != top
        hits["exposing_splits"] = b.has_rest[k] and s.sq[k] > shape.ceiling[b.rest_rank[k]]
        hits["declined"] = d == b.ceil[k] and not post.mid and b.targets(s.actor, d, b.part_rank[k])
    elif kind == akernel.K_FAVOUR:
        gone = [j for j in slots if post.sq[j] == akernel.REMOVED and s.sq[j] != akernel.REMOVED]
        hits["favours"] = True
        hits["second_favours"] = s.sk >= 1
        hits["removals"] = bool(gone)
        hits["removals_to_owner"] = any(post.col[j] != s.col[j] for j in gone)
        hits["lower_removals"] = bool(gone) and s.sd < shape.upper_half
        hits["exposures"] = not gone and b.has_rest[k] and s.sd > shape.ceiling[b.rest_rank[k]]
    else:
        hits["ends"] = True
    hits["carried"] = any(post.sq[j] > shape.arrival[j] for j in slots)
    if post.actor >= 0 and not post.mid:
        hits["skips"] = post.actor != (s.actor + 1) % shape.players
        alive = sum(
            any(
                post.col[j] == q
                and post.sq[j] >= 0
                and not post.flp[j]
                and post.sq[j] < shape.arrival[j]
                for j in slots
            )
            for q in range(shape.players)
        )
        hits["alone"] = alive <= 1
    if ascent.is_over(after):
        hits["blocked_end"] = any(
            0 <= post.sq[j] < shape.arrival[j] and not post.flp[j] for j in slots
        )
    return [name for name, hit in hits.items() if hit]


_STARTS: Mapping[str, Callable[[Scope], tuple[list[Any], list[str]]]] = {
    "throne": _throne_starts,
    "ascent": _ascent_starts,
}
_CHECKERS: Mapping[str, Callable[[Scope], Callable[[Any], Visit]]] = {
    "throne": _throne_checker,
    "ascent": _ascent_checker,
}


# ---------------------------------------------------------------------------
# The command


def run(scopes: Sequence[Scope], report: Callable[[str], None]) -> Iterator[Count]:
    """Search every scope in order, reporting each one's line, then its unmet
    declared boundaries and its disagreements (indented)."""
    for scope in scopes:
        found = search(scope)
        report(found.line())
        for name in found.unmet:
            report(f"  NOT REACHED {name}: {BOUNDARIES[scope.game][name]}")
        for line in found.mismatches:
            report(f"  MISMATCH {line}")
        yield found


def main(argv: Sequence[str] | None = None) -> int:
    """Print the counts of every scope, then each game's totals; exit 1 on a
    disagreement, a declared boundary not met or a derived scope that covers what its
    base covers."""
    parser = argparse.ArgumentParser(
        prog="python -m proofs.equivalence", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--game", action="append", choices=tuple(BOUNDARIES), help="one game (repeatable)"
    )
    args = parser.parse_args(argv)
    games = args.game or list(BOUNDARIES)
    started = time.perf_counter()
    chosen = [s for s in KERNEL_SCOPES if s.game in games]
    counts = list(run(chosen, lambda line: print(line, flush=True)))
    for game in games:
        mine = [c for c in counts if c.game == game]
        print(
            f"{game}: {len(mine)} scopes, {sum(c.states for c in mine):,} positions, "
            f"{sum(c.pairs for c in mine):,} (position, move) pairs, "
            f"{sum(c.seconds for c in mine):.1f} s"
        )
    failed = [c.scope for c in counts if not c.ok]
    by_name = {c.scope: c for c in counts}
    for scope, count in zip(chosen, counts, strict=True):
        if not scope.base or (scope.game, scope.option, scope.base) in SAME_COUNTS:
            continue
        if count.covered == by_name[scope.base].covered:
            print(f"{scope.name}: the same counts as {scope.base}: the reading is not played")
            failed.append(scope.name)
    print(f"{len(counts)} scopes, {len(failed)} failed, {time.perf_counter() - started:.1f} s wall")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
