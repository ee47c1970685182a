"""The Throne properties: each "consequence that must be proved" (spec/throne.md).

The transition system is the rule kernel itself (:mod:`castlerules.throne.kernel`)
run on Z3 terms (:class:`castlerules.symbolic.throne.ThroneSystem`): its positions,
initial positions, guards and cases are the kernel's; nothing here states a rule.
The *claims* below are the theorems the spec states, with the seed's numbers, and
the invariant they rest on (:mod:`proofs.throne_invariant`): they are what is
proved about the rules, not a copy of them (a deliberately wrong rule must make a
claim fail, see :func:`sensitivity_results`).

Each property is proved for every player count (3..6) and both placement
presets (``SEED``, ``ORIGINAL``), with the Boolean options ``allow_pass``,
``no_cards_reset_each_round`` and ``first_player_rotates`` left symbolic,
so that one query covers both values of each.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import attrs

from castlerules import throne
from castlerules.symbolic.smt import (
    Abstraction,
    Expr,
    all_of,
    any_of,
    implies,
    lit,
    neg,
    total,
)
from castlerules.symbolic.throne import OPTION_NAMES, SCase, ThroneSystem, TMove
from castlerules.symbolic.throne_invariant import (
    ELECTION,
    ELIMINATED,
    MOVEMENT,
    OVER,
    PLACEMENT,
    Claims,
    weight,
)
from castlerules.throne.kernel import KState
from castlerules.throne.state import State
from proofs.core import (
    GuardedCase,
    Ledger,
    ProofFailure,
    Result,
    Step,
    Trace,
    bmc,
    induction,
)
from proofs.throne_bridge import agrees, filler_objectives, first_moves_until, replay, values_of

Case = SCase
TState = KState

GAME = "throne"
PRESETS = ("SEED", "ORIGINAL")
FAST_PLAYERS = (3, 6)
"""The player counts of a ``fast`` run: the smallest and the largest."""

# The claims (spec/throne.md, "Consequences that must be proved"): the seed's numbers.
CLAIM_FLOOR = 4
"""B7: 'pas plus de quatre prétendants dans un même étage'."""
CLAIM_THRONE = 1
"""B1, B10: the throne holds the one candidate (or king)."""
CLAIM_ROUND_MAX = 33
"""B15: '33, c'est-à-dire le maximum que l'on puisse faire'."""
CLAIM_LAST_ROUND = 3
"""B15: 'au troisième et dernier décompte'."""
CLAIM_TOTAL = (1, 99)
"""B16 with B15: every final total lies in 1..99."""

CUTS_PER_QUERY = 32
"""The cuts are proved valid in consecutive runs of this many, one query each (their
conjunction is valid exactly when each run's is; one query of all of them is a
disjunction of about 1,600 negations, which Z3 takes several times longer over)."""


@attrs.frozen(slots=True)
class Config:
    """One case of the sweep: a preset and a player count."""

    preset: str
    players: int
    rules: throne.Rules
    symbolic: tuple[str, ...] = OPTION_NAMES

    @property
    def label(self) -> str:
        return f"{self.preset} {self.players}p"

    def system(self) -> ThroneSystem:
        return ThroneSystem(self.rules, self.players, self.symbolic)


def configs() -> list[Config]:
    """Every supported player count under both presets."""
    return [
        Config(preset, n, throne.Rules.preset(preset)) for preset in PRESETS for n in throne.PLAYERS
    ]


# ----------------------------------------------------------------- obligations
def _room_floors(system: ThroneSystem, s: TState) -> Expr:
    claims = Claims(system)
    return all_of(
        [
            *(claims.on(s, f) <= CLAIM_FLOOR for f in range(1, claims.top)),
            claims.on(s, claims.top) <= CLAIM_THRONE,
        ]
    )


def _no_descent(system: ThroneSystem, pre: TState, post: TState) -> Expr:
    """B9 within a round: a character on the castle stays or climbs; it leaves only
    from the throne, eliminated (B13); an eliminated one stays out."""
    parts = []
    for f, g in zip(pre.fl, post.fl, strict=True):
        parts.append(
            implies(f >= 1, any_of([g >= f, all_of([f == system.shape.top, g == ELIMINATED])]))
        )
        parts.append(implies(f == ELIMINATED, g == ELIMINATED))
    return implies(post.rnd == pre.rnd, all_of(parts))


def _no_cards_step(system: ThroneSystem, pre: TState, post: TState) -> Expr:
    """B11: within a round a No count never rises; with the reset, a new round restores it."""
    same = post.rnd == pre.rnd
    fresh = all_of([post.rnd == pre.rnd + 1, system.options.no_cards_reset_each_round])
    return all_of(
        [
            *(implies(same, b <= a) for a, b in zip(pre.no, post.no, strict=True)),
            *(implies(fresh, b == system.shape.full) for b in post.no),
            *(b >= 0 for b in post.no),
        ]
    )


def _round_score_ok(rnd: Expr, score: Expr) -> Expr:
    """B14/B15: a round's score lies in 0..33, and in 1..33 in the last round."""
    last = rnd == CLAIM_LAST_ROUND
    return all_of([score >= 0, score <= CLAIM_ROUND_MAX, implies(last, score >= 1)])


def _final_totals_ok(s: TState) -> Expr:
    """B16: once the game is over, every total lies in 1..99."""
    low, high = CLAIM_TOTAL
    return implies(s.phase == OVER, all_of(all_of([t >= low, t <= high]) for t in s.total))


def _climb_exists(system: ThroneSystem, s: TState) -> Expr:
    """B8: in the movement phase some climb is legal (the kernel's guards)."""
    climbs = (throne.Climb(ch) for ch in system.rules.letters())
    legal = any_of(system.legal_at(s, system.number(m)) for m in climbs)
    return implies(s.phase == MOVEMENT, legal)


def _measure_bounded(system: ThroneSystem, s: TState) -> Expr:
    """The ranking function lies in 0..measure_bound."""
    return all_of([_measure(system, s) >= 0, _measure(system, s) <= measure_bound(system)])


def _measure_rises(system: ThroneSystem, pre: TState, post: TState) -> Expr:
    """A move within a round raises the ranking function."""
    return _measure(system, post) > _measure(system, pre)


def _measure(system: ThroneSystem, s: TState) -> Expr:
    """The ranking function of a round: placements, climbs, votes and eliminations
    raise it; a pass raises it by 1, less than a climb (which resets the passes)."""
    voted = Claims(system).voted(s)
    return system.n * (total(_weight(system, f) for f in s.fl) + voted) + s.passes


_weight = weight


def measure_bound(system: ThroneSystem) -> int:
    """The largest value of the ranking function: a round lasts at most this many moves."""
    n = system.n
    return n * (system.shape.characters * (system.shape.top + n) + n - 1) + n - 1


@attrs.frozen(slots=True)
class Tally:
    """One property's obligations for one configuration."""

    holds: bool
    seconds: float
    queries: int
    failure: str = ""
    shared: int = 0
    """Obligations proved inside the invariant's joint queries (:func:`proofs.core.induction`)."""


class Checker:
    """Runs the obligations of every property on one configuration.

    The inductive invariant is proved first; the other properties assume it
    (they are marked failed if it is not proved).
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.system = config.system()
        s = self.system
        self.claims = Claims(s)
        self.pre = s.fresh_state("p")
        self.move: TMove = s.fresh_move("m")
        self.cases: tuple[Case, ...] = tuple(s.cases(self.pre, self.move))
        self.chance = s.chance(self.pre, self.move)
        # The same step for the invariant's induction and every other property.
        self.step: Step[TState, TMove] = Step(self.pre, self.move, self.cases, self.chance)
        self.inv = [c for _n, c in self.claims.invariant(self.pre)]
        self.cuts = self.claims.cuts(self.pre)
        self.abstraction = Abstraction(self.claims.indicators(self.pre), self.cuts)
        self.tallies: dict[str, Tally] = {}
        self.invariant_ok = False
        self.wanted: set[str] | None = None
        self.settled: set[tuple[str, str]] = set()
        """(obligation key, case label) pairs proved in the invariant's joint queries."""
        self.shared = 0
        # Terms of the pre-state every case's joint query repeats (built once).
        self.totals_pre = all_of(
            c for _n, c in self.claims.totals_invariant(self.pre, CLAIM_ROUND_MAX)
        )

    def legal(self, *moves: throne.Move) -> Expr:
        """Some of ``moves`` is legal in the free position (the kernel's guards)."""
        return any_of(self.system.legal_at(self.pre, self.system.number(m)) for m in moves)

    def wants(self, name: str) -> bool:
        return self.wanted is None or name in self.wanted

    def run(self, name: str, body: Callable[[Ledger], None], needs_invariant: bool = True) -> None:
        if self.wanted is not None and name not in self.wanted:
            return
        ledger = Ledger()
        if needs_invariant and not self.invariant_ok:
            self.tallies[name] = Tally(False, 0.0, 0, "the invariant is not proved")
            return
        self.shared = 0
        try:
            body(ledger)
            self.tallies[name] = Tally(True, ledger.seconds(), ledger.queries, shared=self.shared)
        except ProofFailure as failure:
            self.tallies[name] = Tally(
                False, ledger.seconds(), ledger.queries, str(failure), self.shared
            )

    def per_case(
        self,
        ledger: Ledger,
        what: str,
        claim: Callable[[Case], Expr],
        extra: Sequence[Expr] = (),
        only: Callable[[Case], bool] = lambda _c: True,
        abstract: bool = False,
        key: str = "",
    ) -> None:
        """Prove ``claim`` for every case (``only`` those), under the invariant, the
        case's guard and ``extra``; a case whose obligation ``key`` was proved in the
        invariant's joint query (:meth:`joint`) is not asked again."""
        for case in self.cases:
            if key and (key, case.label) in self.settled:
                self.shared += 1
                continue
            if only(case):
                ledger.check(
                    f"{what} ({case.label})",
                    claim(case),
                    [*self.inv, self.chance, case.guard, *extra],
                    abstraction=self.abstraction if abstract else None,
                )

    def joint(self, step_case: GuardedCase[TState]) -> list[tuple[str, Expr]]:
        """The other properties' step obligations for ``case`` that have exactly the
        consecution's hypotheses (invariant, chance, guard), asked in its query.
        Each is the obligation :meth:`all` would otherwise ask on its own (an extra
        hypothesis ``h`` becomes ``h => goal``), under the key :meth:`per_case` skips."""
        s, pre, claims = self.system, self.pre, self.claims
        case = step_case
        assert isinstance(case, Case)
        out: list[tuple[str, Expr]] = []
        if self.wants("throne.no_descent"):
            out.append(("B9", _no_descent(s, pre, case.post)))
        if self.wants("throne.no_cards"):
            out.append(("B11", _no_cards_step(s, pre, case.post)))
        if self.wants("throne.round_ends_with_king"):
            if case.scored:
                out.append(("B12", implies(neg(s.options.allow_pass), lit(case.crowned))))
            else:
                out.append(("rank", _measure_rises(s, pre, case.post)))
        if self.wants("throne.totals") and not case.scored:
            post = claims.totals_invariant(case.post, CLAIM_ROUND_MAX)
            out.append(("B16", implies(self.totals_pre, all_of(c for _n, c in post))))
        return out

    def lemmas(self, step_case: GuardedCase[TState]) -> list[Expr]:
        """The valid facts of a case (:meth:`Claims.lemmas`)."""
        assert isinstance(step_case, SCase)
        return self.claims.lemmas(self.pre, step_case)

    def all(self, only: Sequence[str] | None = None) -> dict[str, Tally]:
        """Run the properties (``only`` these, with the invariant they rest on)."""
        self.wanted = None if only is None else {"throne.invariant", *only}
        s = self.system
        pre = self.pre
        claims = self.claims
        letters = s.rules.letters()

        def invariant(ledger: Ledger) -> None:
            self.settled = induction(
                ledger,
                s,
                claims.invariant,
                step=self.step,
                preprocess=True,
                joint=self.joint,
                lemmas=self.lemmas,
            )
            self.invariant_ok = True

        self.run("throne.invariant", invariant, needs_invariant=False)
        self.run(
            "throne.capacity",
            lambda ledger: ledger.check("B7 claim", _room_floors(s, pre), self.inv),
        )
        self.run(
            "throne.no_descent",
            lambda ledger: self.per_case(
                ledger, "B9", lambda c: _no_descent(s, pre, c.post), key="B9"
            ),
        )
        self.run(
            "throne.no_cards",
            lambda ledger: self.per_case(
                ledger, "B11", lambda c: _no_cards_step(s, pre, c.post), key="B11"
            ),
        )

        def move_exists(ledger: Ledger) -> None:
            # B13/B11: eliminations never exceed the No cards, fewer than the characters.
            ledger.check(
                "fewer No cards than characters",
                lit(s.n * s.shape.full < s.shape.characters),
            )
            ledger.check("B8 a climb exists in the movement phase", _climb_exists(s, pre), self.inv)

        self.run("throne.move_exists", move_exists)

        def king(ledger: Ledger) -> None:
            ledger.check("ranking function bounded", _measure_bounded(s, pre), self.inv)
            self.per_case(
                ledger,
                "ranking function rises",
                lambda c: _measure_rises(s, pre, c.post),
                only=lambda c: not c.scored,
                key="rank",
            )
            placing = pre.phase == PLACEMENT
            unplaced = any_of(f == 0 for f in pre.fl)
            floors = s.rules.placement_floors
            room = any_of(claims.on(pre, f) < claims.cap(f) for f in floors)
            ledger.check("B6 an unplaced character", implies(placing, unplaced), self.inv)
            ledger.check(
                "B6/B7 a placement floor with room",
                implies(placing, room),
                self.inv,
                abstraction=self.abstraction,
            )
            place = self.legal(*(throne.Place(ch, f) for ch in letters for f in floors))
            ledger.check(
                "B6 a placement is legal",
                implies(placing, place),
                [implies(placing, all_of([unplaced, room]))],
                abstraction=self.abstraction,
            )
            ledger.check("B8 a climb is legal", _climb_exists(s, pre), self.inv)
            ledger.check(
                "B11 a Yes vote is legal",
                implies(pre.phase == ELECTION, self.legal(throne.Vote(True))),
                self.inv,
            )
            self.per_case(
                ledger,
                "B12 a round without passing ends crowned",
                lambda c: lit(c.crowned),
                extra=[neg(s.options.allow_pass)],
                only=lambda c: c.scored,
                key="B12",
            )

        self.run("throne.round_ends_with_king", king)

        def claim(case: Case) -> Expr:
            return all_of(_round_score_ok(pre.rnd, x) for x in case.score)

        def score(ledger: Ledger) -> None:
            for first in range(0, len(self.cuts), CUTS_PER_QUERY):
                chunk = self.cuts[first : first + CUTS_PER_QUERY]
                ledger.check(f"the cuts are valid (from cut {first})", all_of(chunk))
            self.per_case(
                ledger, "B14/B15 round score", claim, only=lambda c: c.scored, abstract=True
            )

        self.run("throne.round_score", score)
        score_proved = self.tallies.get("throne.round_score", Tally(False, 0.0, 0)).holds

        def totals(ledger: Ledger) -> None:
            tot = claims.totals_invariant(pre, CLAIM_ROUND_MAX)
            s0 = s.fresh_state("i")
            ledger.check_all(
                "initiation", claims.totals_invariant(s0, CLAIM_ROUND_MAX), [s.init(s0)]
            )
            for case in self.cases:
                if ("B16", case.label) in self.settled:
                    self.shared += 1
                    continue
                # A round end adds the round score: once throne.round_score is proved
                # for this case, its bounds are a lemma and the step is linear.
                lemma = [claim(case)] if case.scored and score_proved else []
                ledger.check_all(
                    f"consecution ({case.label})",
                    claims.totals_invariant(case.post, CLAIM_ROUND_MAX),
                    [*self.inv, *(c for _n, c in tot), self.chance, case.guard, *lemma],
                    abstraction=self.abstraction if case.scored else None,
                )
            ledger.check(
                "B16 final totals", _final_totals_ok(pre), [*self.inv, *(c for _n, c in tot)]
            )

        self.run("throne.totals", totals)
        return self.tallies


PROPERTIES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "throne.invariant": (
        "An inductive invariant of every position (capacity, phases, No cards, elections)",
        ("B6", "B7", "B8", "B10", "B11", "B13"),
        "induction",
    ),
    "throne.capacity": (
        "Floors 1-6 never hold more than 4 characters, the throne never more than 1",
        ("B7", "B1"),
        "induction",
    ),
    "throne.no_descent": (
        "No character ever moves down within a round (it leaves only the throne, eliminated)",
        ("B9", "B13"),
        "induction (step)",
    ),
    "throne.no_cards": (
        "A No count never rises within a round and never falls below 0",
        ("B11",),
        "induction (step)",
    ),
    "throne.move_exists": (
        "A legal climb always exists in the movement phase",
        ("B8", "B11", "B13"),
        "induction",
    ),
    "throne.round_ends_with_king": (
        "Every round ends, with a king when passing is not allowed",
        ("B10", "B12", "B13", "B11"),
        "ranking function",
    ),
    "throne.round_score": (
        "A round score is in 0..33, and a round-3 score in 1..33",
        ("B14", "B15"),
        "induction",
    ),
    "throne.totals": (
        "Every final total is in 1..99",
        ("B15", "B16", "B3"),
        "induction",
    ),
}


SYMBOLIC_NOTE = f"options {', '.join(OPTION_NAMES)} symbolic (both values in one query)"


def merge(name: str, tallies: Sequence[tuple[Config, Tally]], detail: str = "") -> Result:
    """One result from the tallies of some configurations (the scope lists them;
    :func:`proofs.merge` joins the results of the configurations run apart)."""
    title, clauses, method = PROPERTIES[name]
    failed = [f"{c.label}: {t.failure}" for c, t in tallies if not t.holds]
    shared = sum(t.shared for _c, t in tallies)
    if shared:
        # Their time is counted in throne.invariant's.
        detail = "; ".join(
            filter(None, [detail, f"{shared} step obligations asked in throne.invariant's queries"])
        )
    return Result(
        name=name,
        game=GAME,
        title=title,
        clauses=clauses,
        method=method,
        depth=1 if method.startswith("induction") else None,
        holds=not failed,
        seconds=sum(t.seconds for _c, t in tallies),
        queries=sum(t.queries for _c, t in tallies),
        scope=", ".join(c.label for c, _t in tallies),
        detail="; ".join(failed[:3])
        if failed
        else "; ".join(filter(None, [SYMBOLIC_NOTE, detail])),
    )


def prove_config(config: Config) -> dict[str, Tally]:
    """Every induction property on one configuration."""
    return Checker(config).all()


def induction_results(all_tallies: Sequence[tuple[Config, dict[str, Tally]]]) -> list[Result]:
    """Merge per-configuration tallies into one result per property."""
    out = []
    for name in PROPERTIES:
        tallies = [(c, t[name]) for c, t in all_tallies]
        detail = ""
        if name == "throne.round_ends_with_king":
            detail = "; ".join(
                f"{n} players: a round lasts at most {bound} moves (ranking bound)"
                for n, bound in sorted(
                    {(c.players, measure_bound(c.system())) for c, _t in tallies}
                )
            )
        out.append(merge(name, tallies, detail))
    return out


# ------------------------------------------------------------------ witnesses
Plan = list[throne.Move | frozenset[int]]
"""A planned game: moves, and for each election the set of seats that vote No."""


def play_plan(
    config: Config, objectives: Sequence[Sequence[str]], plan: Plan, start: State | None = None
) -> tuple[bool, Trace, State, int]:
    """Play ``plan`` through the engine, checking every step against the Z3 system: the
    kernel's terms on the position's values must find the move legal and give exactly
    the engine's successor (:func:`proofs.throne_bridge.agrees`), so the game is a path
    of the system the proofs are about.  (That the kernel admits *only* the engine's
    legal moves is the exhaustive tie's business, tests/throne/test_kernel.py, and the
    Z3 terms the concrete kernel's, tests/symbolic/test_throne.py.)  Returns whether
    every step agreed, the trace, the last state and the number of checks."""
    rules = config.rules
    system = ThroneSystem(rules, config.players)
    first = (
        start
        if start is not None
        else throne.new_game(config.players, rules, objectives=objectives)
    )
    moves = expand(first, plan)
    agree, checks = True, 0
    probe = first
    for move in moves:
        after = throne.apply(probe, move)
        agree = agree and agrees(system, probe, move, after)
        checks += 1
        probe = after
    trace, end = replay(first, moves)
    return agree, trace, end, checks


def expand(state: State, plan: Sequence[throne.Move | frozenset[int]]) -> list[throne.Move]:
    """The engine moves ``plan`` stands for from ``state``: each election entry (a set
    of seats) becomes the votes of that election, the listed seats voting No."""
    moves: list[throne.Move] = []
    for item in plan:
        if isinstance(item, frozenset):
            while throne.phase(state) == "election":
                vote = throne.Vote(throne.current_player(state) not in item)
                moves.append(vote)
                state = throne.apply(state, vote)
        else:
            moves.append(item)
            state = throne.apply(state, item)
    return moves


def _plan_high(config: Config, on_nobles: int, on_dignitaries: int) -> tuple[list[str], Plan]:
    """Seat 0's favourites end as: one king, ``on_nobles`` nobles, ``on_dignitaries``
    dignitaries (B14).  Favourites A.. are placed on the dignitaries' floor (5) and
    below it (4); the others fill the lowest placement floors with room."""
    rules = config.rules
    letters = rules.letters()
    favs = 1 + on_nobles + on_dignitaries
    high = letters[: 1 + on_nobles]
    low = letters[1 + on_nobles : favs]
    plan: Plan = []
    room = {f: rules.capacity(f) for f in rules.placement_floors}
    for ch in high:
        plan.append(throne.Place(ch, 5))
        room[5] -= 1
    for ch in low:
        plan.append(throne.Place(ch, 4))
        room[4] -= 1
    count = rules.placements_for(config.players) - favs
    for ch in letters[favs : favs + count]:
        floor = next(f for f in sorted(room) if room[f] > 0 and f not in (4, 5))
        room[floor] -= 1
        plan.append(throne.Place(ch, floor))
    plan += [throne.Climb(ch) for ch in high]  # 5 -> 6
    plan += [throne.Climb(ch) for ch in low]  # 4 -> 5
    plan += [throne.Climb(high[0]), frozenset()]  # 6 -> 7, crowned by all Yes
    mine = letters[: rules.objective_size]
    objectives = [mine, *filler_objectives(rules, config.players)[1:]]
    return objectives, plan


def witness_33(config: Config) -> tuple[bool, float, int, Trace, str]:
    """A game in which seat 0 scores 33 in round 1 (B14: 10 + 3 x 5 + 2 x 4), checked
    step by step against the model and replayed in the engine."""
    started = time.perf_counter()
    first, plan = _plan_high(config, 3, 2)
    rounds = config.rules.rounds
    filler = filler_objectives(config.rules, config.players)
    agree, trace, end, checks = play_plan(config, [first, *[filler] * (rounds - 1)], plan)
    engine = throne.round_scores(end)[0][0]
    ok = agree and engine == CLAIM_ROUND_MAX
    return ok, time.perf_counter() - started, checks, trace, f"engine round-1 score {engine}"


def witness_results(fast: bool) -> list[Result]:
    """33 is reachable, for every player count and preset (3 and 6 players if ``fast``)."""
    out = []
    for config in configs():
        if fast and config.players not in FAST_PLAYERS:
            continue
        ok, seconds, checks, trace, detail = witness_33(config)
        out.append(
            Result(
                name=f"throne.max_reachable.{config.preset.lower()}{config.players}",
                game=GAME,
                title=f"A round score of 33 is reachable ({config.label})",
                clauses=("B14", "B15"),
                method="witness game, every step a Z3 transition",
                depth=len(trace.moves),
                holds=ok,
                seconds=seconds,
                queries=checks,
                scope=config.label,
                detail=detail,
                trace=trace,
            )
        )
    return out


# ---------------------------------------------------------------- sensitivity
def _round_three_zero(config: Config) -> tuple[list[list[str]], Plan]:
    """Round 3: seat 0's favourites A-F all score 0 (A-D stay on floor 1, E and F are
    eliminated by seat 0's No votes); G is crowned."""
    rules = config.rules
    letters = rules.letters()
    filler = filler_objectives(rules, config.players)
    objectives = [filler, filler, [letters[:6], *filler[1:]]]
    plan: Plan = [throne.Place(ch, 1) for ch in letters[:4]]
    plan += [throne.Place(ch, 5) for ch in letters[4:7]]
    room = {2: rules.capacity(2), 3: rules.capacity(3), 4: rules.capacity(4)}
    for ch in letters[7:]:
        floor = next(f for f in sorted(room) if room[f] > 0)
        room[floor] -= 1
        plan.append(throne.Place(ch, floor))
    for ch, no in (
        (letters[4], frozenset({0})),
        (letters[5], frozenset({0})),
        (letters[6], frozenset()),
    ):
        plan += [throne.Climb(ch), throne.Climb(ch), no]
    return objectives, plan


@attrs.frozen(slots=True)
class Wrong:
    """A deliberately wrong rule, the property it must break, and a game showing it."""

    name: str
    title: str
    options: dict[str, object]
    property: str
    clauses: tuple[str, ...]


WRONG: tuple[Wrong, ...] = (
    Wrong(
        "throne.sensitivity.capacity5",
        "With floors of 5, a floor holds more than 4 characters",
        {"floor_capacity": 5},
        "throne.capacity",
        ("B7",),
    ),
    Wrong(
        "throne.sensitivity.capacity5_score",
        "With floors of 5, a round score exceeds 33",
        {"floor_capacity": 5},
        "throne.round_score",
        ("B7", "B15"),
    ),
    Wrong(
        "throne.sensitivity.bonus_round1",
        "With the 33 bonus in round 1 instead of 3, a round-3 score can be 0",
        {"bonus_rounds": (1,)},
        "throne.round_score",
        ("B15",),
    ),
)


def bmc_tail(
    config: Config, start: State, bad: Callable[[ThroneSystem, TState], Expr], depth: int
) -> list[throne.Move] | None:
    """Bounded model checking from an engine position: a sequence of exactly
    ``depth`` moves of the Z3 model (with the concrete rules) that reaches a
    ``bad`` state, decoded as engine moves; ``None`` if there is none.  (One
    satisfiability query at that depth: proving that no shorter path exists is a
    counting argument, far slower, and not what a counterexample needs.)"""
    system = ThroneSystem(config.rules, config.players)
    values = system.concrete(values_of(start))
    found = bmc(
        system,
        lambda st: bad(system, st),
        depth,
        start=lambda st: system.equal(st, values),
        min_depth=depth,
    )
    if found is None:
        return None
    return [system.decode(found.model, m) for m in found.moves]


def _crowded(system: ThroneSystem, st: TState) -> Expr:
    return neg(_room_floors(system, st))


def _over_33(system: ThroneSystem, st: TState) -> Expr:
    del system
    return any_of(t > CLAIM_ROUND_MAX for t in st.total)


def _counterexample(wrong: Wrong, config: Config) -> tuple[bool, Trace, int, str]:
    """A game of the wrong rules that breaks the claim: Z3 finds it by BMC (from the
    start of a game, or, for the long games, from a position reached by a planned
    opening, so that the search is short), every step is checked against the
    model, and the engine replays it.  Returns whether the engine's last position
    does break the claim, the trace, the solver checks and a description."""
    rules = config.rules
    filler = filler_objectives(rules, config.players)
    if wrong.name.endswith("capacity5"):
        objectives: list[list[str]] = [filler] * rules.rounds
        start = throne.new_game(config.players, rules, objectives=objectives)
        opening: Plan = []
        tail = bmc_tail(config, start, _crowded, 5)
        how = "BMC from the start of a game"
    elif wrong.name.endswith("capacity5_score"):
        first, plan = _plan_high(config, 4, 1)
        objectives = [first, *[filler] * (rules.rounds - 1)]
        start = throne.new_game(config.players, rules, objectives=objectives)
        opening = plan[:-2]  # up to the last climb: the search finds it and the votes
        tail = bmc_tail(config, _played(start, opening), _over_33, 1 + config.players)
        how = f"BMC after a planned opening of {len(expand(start, opening))} moves"
    else:
        objectives, plan = _round_three_zero(config)
        fresh = throne.new_game(config.players, rules, objectives=objectives)
        start = _played(fresh, list(first_moves_until(fresh, CLAIM_LAST_ROUND)))
        opening = plan[:-2]
        before = _played(start, opening)
        mine = throne.scores(before)[0]  # seat 0's total after rounds 1 and 2

        def zero_round(system: ThroneSystem, st: TState) -> Expr:
            return all_of([st.phase == OVER, st.total[0] == mine])

        tail = bmc_tail(config, before, zero_round, 2 + config.players)
        how = f"BMC after round 1-2 and a planned opening of {len(expand(start, opening))} moves"
    if tail is None:
        return False, replay(start, [])[0], 0, f"{how}: no counterexample within the depth"
    agree, trace, end, checks = play_plan(config, objectives, [*opening, *tail], start=start)
    if wrong.name.endswith("capacity5"):
        crowd = max(
            sum(1 for ch in rules.letters() if throne.floor_of(end, ch) == floor)
            for floor in range(1, rules.throne_floor)
        )
        return agree and crowd > CLAIM_FLOOR, trace, checks, f"{how}; engine: {crowd} on one floor"
    if wrong.name.endswith("capacity5_score"):
        score = throne.round_scores(end)[0][0]
        return (
            agree and score > CLAIM_ROUND_MAX,
            trace,
            checks,
            f"{how}; engine round score {score}",
        )
    score = throne.round_scores(end)[2][0]
    return agree and score < 1, trace, checks, f"{how}; engine round-3 score {score}"


def _played(state: State, plan: Sequence[throne.Move | frozenset[int]]) -> State:
    """The engine position after ``plan`` (see :func:`expand`)."""
    for move in expand(state, plan):
        state = throne.apply(state, move)
    return state


def sensitivity_results() -> list[Result]:
    """Each wrong rule refutes its property (3 players, SEED): the Z3 proof fails, and a
    counterexample game, checked against the model, is replayed in the engine."""
    out = []
    # One checker per wrong rule set (the two floor-capacity checks share theirs).
    checkers: dict[str, tuple[Checker, dict[str, Tally]]] = {}
    for wrong in WRONG:
        key = repr(sorted(wrong.options.items()))
        if key not in checkers:
            checker = Checker(Config("SEED", 3, throne.Rules(**wrong.options)))
            wanted = [w.property for w in WRONG if repr(sorted(w.options.items())) == key]
            checkers[key] = (checker, checker.all(only=wanted))
    for wrong in WRONG:
        started = time.perf_counter()
        checker, tallies = checkers[repr(sorted(wrong.options.items()))]
        config = checker.config
        tally = tallies[wrong.property]
        shown, trace, checks, detail = _counterexample(wrong, config)
        refuted = not tally.holds and shown
        out.append(
            Result(
                name=wrong.name,
                game=GAME,
                title=wrong.title,
                clauses=wrong.clauses,
                method=f"{PROPERTIES[wrong.property][2]} fails; BMC counterexample, replayed",
                depth=len(trace.moves),
                holds=not refuted,
                # The property, the invariant it rests on, and the game's replay.
                seconds=tallies["throne.invariant"].seconds
                + tally.seconds
                + time.perf_counter()
                - started,
                queries=tallies["throne.invariant"].queries + tally.queries + checks,
                scope="3 players, " + ", ".join(f"{k}={v!r}" for k, v in wrong.options.items()),
                detail=f"{tally.failure}; {detail}",
                expected=False,
                trace=trace,
            )
        )
    return out
