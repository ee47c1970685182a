"""The fast engine against the rule kernel, move for move, on every reachable position
of small games.

A breadth-first search from every initial position (every deal of the objectives
of every round: all chance outcomes) visits every reachable engine position, and
for each position and every move number of the kernel's universe
(:func:`castlerules.throne.kernel.universe_of`), legal or not, :func:`check_kernel`
compares the engine with the kernel run on plain values: the legality, the clause
of every refusal, the successor, the round's scores and king
(``tests/throne/test_kernel.py``).  The proofs reason about the same kernel run on
Z3 terms (:mod:`castlerules.symbolic.throne`), so this search ties the engine to
the transition system the proofs are about.  Small scopes come from ``Rules``
options the engine already has (:data:`KERNEL_SCOPES`; :data:`THRONE_SCOPES`, a few
of them, serve the action-number tests).

``python -m proofs.equivalence`` prints the counts per scope.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import deque
from collections.abc import Sequence

import attrs

from castlerules import throne
from castlerules.core import IllegalMove
from castlerules.core.ops import CONCRETE
from castlerules.throne import kernel
from castlerules.throne.state import State
from castlerules.throne.transitions import legal_codes


@attrs.frozen(slots=True)
class Scope:
    """A small Throne game: its options and player count."""

    name: str
    players: int
    options: dict[str, object]
    reaches: tuple[str, ...] = ()
    """Boundaries the search must meet (names of :class:`Count` counters that must be
    above 0): what the scope is there for."""

    @property
    def rules(self) -> throne.Rules:
        return throne.Rules(**self.options)


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
        "3 characters, floors of 3, one round with the bonus",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,)},
    ),
    Scope(
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
        "3 characters, one round, passing allowed",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,), "allow_pass": True},
    ),
    Scope(
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

KERNEL_SCOPES: tuple[Scope, ...] = (
    Scope(
        "3 characters, floors of 3, one round with the bonus",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,)},
        reaches=("crowned", "eliminated", "nobody_left", "refusals"),
    ),
    Scope(
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
        "3 characters, one round, passing allowed",
        3,
        {**_SMALL, "rounds": 1, "bonus_rounds": (1,), "allow_pass": True},
        reaches=("everyone_passed", "passes", "refusals"),
    ),
    Scope(
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
"""The scopes of the engine-versus-kernel check (:func:`check_kernel`), each with the
boundaries it must reach."""


def initial_positions(scope: Scope) -> list[State]:
    """Every new game of the scope: every deal of every round's objectives (B4)."""
    rules = scope.rules
    letters = rules.letters()
    cards = list(rules.objective_deck or ()) or [
        "".join(c) for c in itertools.combinations(letters, rules.objective_size)
    ]
    deals = [list(d) for d in itertools.permutations(cards, scope.players)]
    return [
        throne.new_game(scope.players, rules, objectives=list(rounds))
        for rounds in itertools.product(deals, repeat=rules.rounds)
    ]


@attrs.frozen(slots=True)
class KernelCount:
    """What one scope's engine-versus-kernel search covered, and where it differed."""

    scope: str
    players: int
    initial: int
    states: int
    pairs: int
    legal: int
    seconds: float
    boundaries: tuple[tuple[str, int], ...]
    """Named boundary counts (see :func:`check_kernel`)."""
    refusals: tuple[tuple[str, int], ...]
    """Refused pairs per kernel guard (``clause: what``)."""
    mismatches: tuple[str, ...] = ()

    def get(self, name: str) -> int:
        return dict(self.boundaries)[name]

    def line(self) -> str:
        marks = ", ".join(f"{k} {v}" for k, v in self.boundaries)
        return (
            f"{self.scope} ({self.players} players): {self.initial} initial positions, "
            f"{self.states} reachable positions, {self.pairs} position x move pairs "
            f"({self.legal} legal); {marks}; {self.seconds:.1f} s"
        )


def check_kernel(scope: Scope, limit: int = 20) -> KernelCount:
    """Breadth-first search of every reachable position of ``scope`` (from every deal:
    all chance outcomes); for each position and every move number of
    :func:`castlerules.throne.kernel.universe_of`, legal or not, the fast engine and
    the kernel on plain values must agree: the same legality, the same clause for a
    refusal (the engine's :class:`IllegalMove` and the kernel's first failing guard),
    the same successor, round score, king and end; ``legal_codes`` is the kernel's
    legal action numbers.  Stops collecting after ``limit`` mismatches.

    Boundary counts: ``refusals`` (refused pairs), ``crowned``, ``eliminated`` (a
    candidate out, play resumes), ``nobody_left`` (the last candidate out ends the
    round), ``everyone_passed``, ``passes``, ``next_round``, ``over``, ``bonus`` (a
    round score of 0 turned into the bonus), ``fills`` (a climb fills its floor),
    ``into_full`` (a climb refused for a full floor above, B8/B7), ``leftovers`` (the
    last placement puts characters on floor 1), ``starter_differs`` (the movement
    starts with a seat other than the one after the last placer)."""
    started = time.perf_counter()
    rules = scope.rules
    shape = kernel.Shape.of(rules, scope.players)
    options = kernel.Options.of(CONCRETE, rules)
    universe = shape.moves
    starts = initial_positions(scope)
    marks = dict.fromkeys(
        (
            "refusals",
            "crowned",
            "eliminated",
            "nobody_left",
            "everyone_passed",
            "passes",
            "next_round",
            "over",
            "bonus",
            "fills",
            "into_full",
            "leftovers",
            "starter_differs",
        ),
        0,
    )
    refused: dict[str, int] = {}
    bad: list[str] = []
    seen: set[State] = set()
    queue: deque[State] = deque()
    for s in starts:
        first = kernel.initial(CONCRETE, shape, options, kernel.from_state(s).obj)
        if first != kernel.from_state(s):
            bad.append(f"{throne.to_text(s)}: a new game that is not the kernel's initial position")
        if s not in seen:
            seen.add(s)
            queue.append(s)
    pairs = legal_pairs = 0
    while queue:
        state = queue.popleft()
        ks = kernel.from_state(state)
        position = kernel.Position(CONCRETE, shape, options, ks)
        chance = kernel.next_objectives(state)
        marks["over"] += throne.is_over(state)
        accepted: list[int] = []
        for a, move in enumerate(universe):
            pairs += 1
            verdict = kernel.judge(shape, ks, a, chance, position)
            try:
                after: State | None = throne.apply(state, move)
                clause = None
            except IllegalMove as err:
                after, clause = None, err.clause
            if (after is not None) != verdict.legal or clause != verdict.clause:
                if len(bad) < limit:
                    bad.append(
                        f"{throne.to_text(state)} {move}: engine "
                        f"{'accepts' if after is not None else 'refuses (' + str(clause) + ')'}"
                        f", kernel {'accepts' if verdict.legal else 'refuses'} "
                        f"({verdict.clause})"
                    )
                continue
            if after is None:
                marks["refusals"] += 1
                why = f"{verdict.clause}: {verdict.what}"
                refused[why] = refused.get(why, 0) + 1
                marks["into_full"] += why == "B8: the floor above has room"
                continue
            legal_pairs += 1
            if a < shape.actions:
                accepted.append(a)
            outcome = verdict.outcome
            assert outcome is not None
            problem = _compare(state, after, outcome)
            if problem and len(bad) < limit:
                bad.append(f"{throne.to_text(state)} {move}: {problem}")
            _mark(marks, state, after, move, shape)
            if after not in seen:
                seen.add(after)
                queue.append(after)
        if tuple(accepted) != legal_codes(state) and len(bad) < limit:
            bad.append(
                f"{throne.to_text(state)}: legal_codes {legal_codes(state)}, "
                f"kernel {tuple(accepted)}"
            )
    return KernelCount(
        scope=scope.name,
        players=scope.players,
        initial=len(starts),
        states=len(seen),
        pairs=pairs,
        legal=legal_pairs,
        seconds=time.perf_counter() - started,
        boundaries=tuple(marks.items()),
        refusals=tuple(sorted(refused.items())),
        mismatches=tuple(bad),
    )


def _compare(state: State, after: State, outcome: kernel.Outcome) -> str:
    """'' when the kernel's outcome is the engine's successor, else what differs."""
    expected = kernel.from_state(after)
    got = outcome.post
    if got != expected:
        diff = [
            f"{f.name} (engine {getattr(expected, f.name)}, kernel {getattr(got, f.name)})"
            for f in attrs.fields(kernel.KState)
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
    return ""


def _mark(
    marks: dict[str, int], state: State, after: State, move: throne.Move, shape: kernel.Shape
) -> None:
    scored = len(after.results) > len(state.results)
    if scored:
        king = after.kings[-1]
        crowned = king >= 0
        marks["crowned"] += crowned
        marks["nobody_left"] += not crowned and isinstance(move, throne.Vote)
        marks["everyone_passed"] += isinstance(move, throne.Pass)
        marks["next_round"] += not throne.is_over(after)
        rules = state.rules
        marks["bonus"] += (
            rules.bonus_applies(state.round) and rules.bonus_points in after.results[-1]
        )
    elif isinstance(move, throne.Vote) and state.phase == 2 and after.phase == 1:
        marks["eliminated"] += 1
    if isinstance(move, throne.Pass) and not scored:
        marks["passes"] += 1
    if isinstance(move, throne.Climb) and after.phase == 1:
        marks["fills"] += _full_at(after, move.character)
    if isinstance(move, throne.Place) and after.phase == 1:
        marks["leftovers"] += after.counts[1] > sum(1 for c in state.floors if c == 1) + (
            move.floor == 1
        )
        last = state.turn
        marks["starter_differs"] += after.turn != (last + 1) % shape.players


def _on(state: State, floor: int) -> int:
    return sum(1 for ch in state.rules.letters() if throne.floor_of(state, ch) == floor)


def _full_at(state: State, character: str) -> bool:
    """The character stands on floors 1-6 and its floor is at capacity."""
    floor = throne.floor_of(state, character)
    top = state.rules.throne_floor
    return floor is not None and floor < top and _on(state, floor) == state.rules.capacity(floor)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the counts of every scope; exit 1 on a mismatch."""
    del argv
    failed = False
    for scope in KERNEL_SCOPES:
        found = check_kernel(scope)
        print(f"kernel: {found.line()}", flush=True)
        for line in found.mismatches:
            failed = True
            print(f"  MISMATCH {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
