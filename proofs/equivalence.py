"""Engine and model, move for move, on every reachable position of small games.

The proofs are about the models (:mod:`proofs.throne_model`,
:mod:`proofs.ascent_model`); this module ties the Throne model to the engine
*exhaustively* on small scopes: a breadth-first search from every initial
position (every deal of the objectives of every round: all chance outcomes)
visits every reachable engine position, and for each position and every move
the notation can name (:func:`proofs.throne_bridge.move_universe`), legal or
not, checks that

- every new game (every deal) is an initial state of the model;
- ``legal_moves`` offers exactly the moves ``apply`` accepts;
- the engine accepts the move exactly when the model's legality predicate does;
- the model's successor (with the engine's chance outcome) is the abstraction
  of the engine's successor: the castle, the phase and the seat to act, the
  No cards, the election, the round, each seat's total (the scores, B14-B16)
  and whether the game is over.

The model's formulas are run concretely by :func:`proofs.evaluate.compile_terms`
(the same Z3 terms the proofs use, compiled to Python).  Small scopes come
from ``Rules`` options the engine already has (:data:`THRONE_SCOPES`).

``python -m proofs.equivalence`` prints the counts per configuration.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence

import attrs

from castlerules import throne
from castlerules.core import IllegalMove
from castlerules.throne.state import State
from proofs.evaluate import compile_terms
from proofs.throne_bridge import (
    Values,
    abstract,
    encode_move,
    move_universe,
    move_values,
    next_objectives,
    transition_inputs,
)
from proofs.throne_model import Params, ThroneSystem


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
"""The configurations of the exhaustive check (each accepted by the engine and the model)."""


@attrs.frozen(slots=True)
class Count:
    """What one configuration's search covered."""

    scope: str
    players: int
    initial: int
    states: int
    pairs: int
    legal: int
    over: int
    seconds: float
    mismatches: tuple[str, ...] = ()
    fills: int = 0
    """Legal climbs that fill the floor they reach to its capacity (B7)."""
    into_full: int = 0
    """Climbs asked of a character whose floor above is full, in the movement phase (B7)."""

    def line(self) -> str:
        return (
            f"{self.scope} ({self.players} players): {self.initial} initial positions, "
            f"{self.states} reachable positions, {self.pairs} position x move pairs "
            f"({self.legal} legal), {self.over} finished games, {self.fills} climbs filling "
            f"a floor, {self.into_full} climbs into a full floor, {self.seconds:.1f} s"
        )


class Evaluator:
    """The model's legality and successor for concrete values (compiled once)."""

    def __init__(self, system: ThroneSystem) -> None:
        self.system = system
        pre, move, self.fields, inputs = transition_inputs(system, "e")
        self._legal = compile_terms(inputs, [system.legal_move(pre, move)])
        self._init = compile_terms(inputs, [system.init(pre)])
        self._post = compile_terms(inputs, [e for _n, e in system.step(pre, move).fields()])

    def encode(self, move: throne.Move) -> list[int | bool]:
        """The model's move fields of an engine move (:func:`encode_move`), as values."""
        m = encode_move(self.system, move, [[False] * self.system.p.chars] * self.system.n)
        return move_values(m)

    def state_inputs(self, values: Values, state: State) -> list[int | bool]:
        """The position's fields, then (after the move's) the chance outcome."""
        return [values[name] for name in self.fields]

    @staticmethod
    def chance_inputs(state: State) -> list[int | bool]:
        return [x for row in next_objectives(state) for x in row]

    def initial(self, row: Sequence[int | bool]) -> bool:
        """Whether the position (the first fields of ``row``) is an initial state."""
        return bool(self._init(row)[0])

    def legal(self, row: Sequence[int | bool]) -> bool:
        return bool(self._legal(row)[0])

    def successor(self, row: Sequence[int | bool]) -> Values:
        return dict(zip(self.fields, self._post(row), strict=True))


def initial_positions(scope: Scope) -> list[State]:
    """Every new game of the scope: every deal of every round's objectives (B4)."""
    rules = scope.rules
    letters = rules.letters()
    cards = ["".join(c) for c in itertools.combinations(letters, rules.objective_size)]
    deals = [list(d) for d in itertools.permutations(cards, scope.players)]
    return [
        throne.new_game(scope.players, rules, objectives=list(rounds))
        for rounds in itertools.product(deals, repeat=rules.rounds)
    ]


def check_scope(
    scope: Scope,
    progress: Callable[[str], None] | None = None,
    limit: int = 20,
) -> Count:
    """Breadth-first search of every reachable position; engine vs model on every
    (position, move) pair.  Stops collecting after ``limit`` mismatches."""
    started = time.perf_counter()
    rules = scope.rules
    system = ThroneSystem(Params(rules, scope.players))
    ev = Evaluator(system)
    universe = [(move, ev.encode(move)) for move in move_universe(system)]
    starts = initial_positions(scope)
    seen: set[str] = set()
    queue: deque[State] = deque()
    for s in starts:
        key = throne.to_text(s)
        if key not in seen:
            seen.add(key)
            queue.append(s)
    pairs = legal_pairs = over = fills = into_full = 0
    bad: list[str] = []
    for s in starts:
        row = [*ev.state_inputs(abstract(s), s), *universe[0][1], *ev.chance_inputs(s)]
        if not ev.initial(row):
            bad.append(f"{throne.to_text(s)}: a new game that is not an initial state of the model")
    while queue:
        state = queue.popleft()
        values = abstract(state)
        accepted: set[str] = set()
        if throne.is_over(state):
            over += 1
            if values["phase"] != 3:
                bad.append(f"{throne.to_text(state)}: engine over, model phase {values['phase']}")
        head = ev.state_inputs(values, state)
        tail = ev.chance_inputs(state)
        moving = values["phase"] == 1  # the movement phase (B8)
        for move, code in universe:
            pairs += 1
            full_above = moving and isinstance(move, throne.Climb) and _full_above(state, move)
            into_full += full_above
            try:
                after: State | None = throne.apply(state, move)
            except IllegalMove:
                after = None
            row = [*head, *code, *tail]
            model_legal = ev.legal(row)
            if model_legal != (after is not None):
                if len(bad) < limit:
                    bad.append(
                        f"{throne.to_text(state)} {move}: engine "
                        f"{'accepts' if after is not None else 'refuses'}, model "
                        f"{'accepts' if model_legal else 'refuses'}"
                    )
                continue
            if after is None:
                continue
            legal_pairs += 1
            accepted.add(str(move))
            fills += isinstance(move, throne.Climb) and _full_at(after, move.character)
            expected = abstract(after)
            got = ev.successor(row)
            if got != expected and len(bad) < limit:
                diff = sorted(k for k in expected if expected[k] != got[k])
                bad.append(
                    f"{throne.to_text(state)} {move}: successor differs in "
                    + ", ".join(f"{k} (engine {expected[k]}, model {got[k]})" for k in diff[:4])
                )
            key = throne.to_text(after)
            if key not in seen:
                seen.add(key)
                queue.append(after)
        offered = {str(m) for m in throne.legal_moves(state)}
        if offered != accepted and len(bad) < limit:
            bad.append(
                f"{throne.to_text(state)}: legal_moves offers {sorted(offered - accepted)} "
                f"that apply refuses, misses {sorted(accepted - offered)}"
            )
        if progress is not None and len(seen) % 5000 == 0:
            progress(f"{len(seen)} positions")
    return Count(
        scope=scope.name,
        players=scope.players,
        initial=len(starts),
        states=len(seen),
        pairs=pairs,
        legal=legal_pairs,
        over=over,
        seconds=time.perf_counter() - started,
        mismatches=tuple(bad),
        fills=fills,
        into_full=into_full,
    )


def _on(state: State, floor: int) -> int:
    return sum(1 for ch in state.rules.letters() if throne.floor_of(state, ch) == floor)


def _full_at(state: State, character: str) -> bool:
    """The character stands on floors 1-6 and its floor is at capacity."""
    floor = throne.floor_of(state, character)
    top = state.rules.throne_floor
    return floor is not None and floor < top and _on(state, floor) == state.rules.capacity(floor)


def _full_above(state: State, move: throne.Climb) -> bool:
    """The character stands on floors 1-5 and the floor above it is at capacity (the
    throne is empty in the movement phase, B10: it is never the full floor)."""
    floor = throne.floor_of(state, move.character)
    top = state.rules.throne_floor
    if floor is None or not 1 <= floor < top - 1:
        return False
    return _on(state, floor + 1) == state.rules.capacity(floor + 1)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the counts of every scope; exit 1 on a mismatch."""
    del argv
    failed = False
    for scope in THRONE_SCOPES:
        count = check_scope(scope)
        print(count.line(), flush=True)
        for line in count.mismatches:
            failed = True
            print(f"  MISMATCH {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
