"""The Throne properties: each "consequence that must be proved" (spec/throne.md).

The *encoding* reads every rule from the engine's ``Rules``
(:mod:`proofs.throne_model`).  The *claims* below are the theorems the spec
states, with the seed's numbers: they are what is proved about the rules,
not a copy of them (a deliberately wrong rule must make a claim fail, see
:func:`sensitivity`).

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
from proofs.core import (
    Ledger,
    ProofFailure,
    Result,
    Trace,
    Unrolling,
    bmc,
    induction,
)
from proofs.smt import Expr, all_of, any_of, implies, ite, lit, model_int, neg, total
from proofs.throne_bridge import (
    decode_move,
    filler_objectives,
    model_objectives,
    replay,
)
from proofs.throne_model import (
    ELECT,
    GONE,
    MOVE,
    OPTION_NAMES,
    OVER,
    PLACE,
    Case,
    Params,
    ThroneSystem,
    TMove,
    TState,
)

GAME = "throne"
PRESETS = ("SEED", "ORIGINAL")

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
        return ThroneSystem(Params(self.rules, self.players, self.symbolic))


def configs() -> list[Config]:
    """Every supported player count under both presets."""
    return [
        Config(preset, n, throne.Rules.preset(preset)) for preset in PRESETS for n in throne.PLAYERS
    ]


# ----------------------------------------------------------------- obligations
def _room_floors(system: ThroneSystem, s: TState) -> Expr:
    return all_of(
        [
            *(system.on(s, f) <= CLAIM_FLOOR for f in range(1, system.p.top)),
            system.on(s, system.p.top) <= CLAIM_THRONE,
        ]
    )


def _no_descent(system: ThroneSystem, pre: TState, post: TState) -> Expr:
    """B9 within a round: a character on the castle stays or climbs; it leaves only
    from the throne, eliminated (B13); an eliminated one stays out."""
    parts = []
    for f, g in zip(pre.fl, post.fl, strict=True):
        parts.append(implies(f >= 1, any_of([g >= f, all_of([f == system.p.top, g == GONE])])))
        parts.append(implies(f == GONE, g == GONE))
    return implies(post.rnd == pre.rnd, all_of(parts))


def _no_cards_step(system: ThroneSystem, pre: TState, post: TState) -> Expr:
    """B11: within a round a No count never rises; with the reset, a new round restores it."""
    same = post.rnd == pre.rnd
    fresh = all_of([post.rnd == pre.rnd + 1, system.p.reset])
    return all_of(
        [
            *(implies(same, b <= a) for a, b in zip(pre.no, post.no, strict=True)),
            *(implies(fresh, b == system.p.full) for b in post.no),
            *(b >= 0 for b in post.no),
        ]
    )


def _measure(system: ThroneSystem, s: TState) -> Expr:
    """The ranking function of a round: placements, climbs, votes and eliminations
    raise it; a pass raises it by 1, less than a climb (which resets the passes)."""
    return system.n * (total(_weight(system, f) for f in s.fl) + s.voted) + s.passes


def _weight(system: ThroneSystem, floor: Expr) -> Expr:
    """A character's weight: its floor, or 7 + players once eliminated (an
    elimination outweighs the votes it resets)."""
    return ite(floor == GONE, system.p.top + system.n, ite(floor >= 1, floor, 0))


def measure_bound(system: ThroneSystem) -> int:
    """The largest value of the ranking function: a round lasts at most this many moves."""
    n = system.n
    return n * (system.p.chars * (system.p.top + n) + n - 1) + n - 1


def _progress(system: ThroneSystem, s: TState) -> Expr:
    """Some move is legal in every phase before the end (B6, B8, B11)."""
    p = system.p
    place = any_of(
        system.legal_place(s, c, lit(f)) for c in system.chars for f in p.rules.placement_floors
    )
    climb = any_of(system.legal_climb(s, c) for c in system.chars)
    vote = system.legal_vote(s, lit(True))
    return all_of(
        [
            implies(s.phase == PLACE, place),
            implies(s.phase == MOVE, climb),
            implies(s.phase == ELECT, vote),
        ]
    )


@attrs.frozen(slots=True)
class Tally:
    """One property's obligations for one configuration."""

    holds: bool
    seconds: float
    queries: int
    failure: str = ""


class Checker:
    """Runs the obligations of every property on one configuration.

    The inductive invariant is proved first; the other properties assume it
    (they are marked failed if it is not proved).
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.system = config.system()
        s = self.system
        self.pre = s.fresh_state("p")
        self.move: TMove = s.fresh_move("m")
        self.cases: list[Case] = s.cases(self.pre, self.move)
        self.inv = [c for _n, c in s.invariant(self.pre)]
        self.cuts = s.cuts(self.pre)
        self.indicators = s.indicators(self.pre)
        self.chance = s.chance(self.pre, self.move)
        self.tallies: dict[str, Tally] = {}
        self.invariant_ok = False

    def run(self, name: str, body: Callable[[Ledger], None], needs_invariant: bool = True) -> None:
        ledger = Ledger()
        if needs_invariant and not self.invariant_ok:
            self.tallies[name] = Tally(False, 0.0, 0, "the invariant is not proved")
            return
        try:
            body(ledger)
            self.tallies[name] = Tally(True, ledger.seconds(), ledger.queries)
        except ProofFailure as failure:
            self.tallies[name] = Tally(False, ledger.seconds(), ledger.queries, str(failure))

    def per_case(
        self,
        ledger: Ledger,
        what: str,
        claim: Callable[[Case], Expr],
        extra: Sequence[Expr] = (),
        only: Callable[[Case], bool] = lambda _c: True,
        abstract: bool = False,
    ) -> None:
        for case in self.cases:
            if only(case):
                ledger.check(
                    f"{what} ({case.label})",
                    claim(case),
                    [*self.inv, self.chance, case.guard, *extra],
                    cuts=self.cuts if abstract else (),
                    indicators=self.indicators,
                )

    def all(self) -> dict[str, Tally]:
        s = self.system
        pre = self.pre

        def invariant(ledger: Ledger) -> None:
            induction(ledger, s, s.invariant)
            self.invariant_ok = True

        self.run("throne.invariant", invariant, needs_invariant=False)
        self.run(
            "throne.capacity",
            lambda ledger: ledger.check("B7 claim", _room_floors(s, pre), self.inv),
        )
        self.run(
            "throne.no_descent",
            lambda ledger: self.per_case(ledger, "B9", lambda c: _no_descent(s, pre, c.post)),
        )
        self.run(
            "throne.no_cards",
            lambda ledger: self.per_case(ledger, "B11", lambda c: _no_cards_step(s, pre, c.post)),
        )

        def move_exists(ledger: Ledger) -> None:
            # B13/B11: eliminations never exceed the No cards, fewer than the characters.
            ledger.check(
                "fewer No cards than characters",
                lit(s.n * s.p.full < s.p.chars),
            )
            ledger.check(
                "B8 a climb exists in the movement phase",
                implies(pre.phase == MOVE, any_of(s.legal_climb(pre, c) for c in s.chars)),
                self.inv,
            )

        self.run("throne.move_exists", move_exists)

        def king(ledger: Ledger) -> None:
            bound = measure_bound(s)
            ledger.check(
                "ranking function bounded",
                all_of([_measure(s, pre) >= 0, _measure(s, pre) <= bound]),
                self.inv,
            )
            self.per_case(
                ledger,
                "ranking function rises",
                lambda c: _measure(s, c.post) > _measure(s, pre),
                only=lambda c: not c.scored,
            )
            placing = pre.phase == PLACE
            unplaced = any_of(f == 0 for f in pre.fl)
            room = any_of(s.on(pre, f) < s.p.cap(f) for f in s.p.rules.placement_floors)
            ledger.check("B6 an unplaced character", implies(placing, unplaced), self.inv)
            ledger.check(
                "B6/B7 a placement floor with room",
                implies(placing, room),
                self.inv,
                cuts=self.cuts,
                indicators=self.indicators,
            )
            place = any_of(
                s.legal_place(pre, c, lit(f)) for c in s.chars for f in s.p.rules.placement_floors
            )
            ledger.check(
                "B6 a placement is legal",
                implies(placing, place),
                [implies(placing, all_of([unplaced, room]))],
                cuts=self.cuts,
                indicators=self.indicators,
            )
            climb = any_of(s.legal_climb(pre, c) for c in s.chars)
            ledger.check("B8 a climb is legal", implies(pre.phase == MOVE, climb), self.inv)
            ledger.check(
                "B11 a Yes vote is legal",
                implies(pre.phase == ELECT, s.legal_vote(pre, lit(True))),
                self.inv,
            )
            self.per_case(
                ledger,
                "B12 a round without passing ends crowned",
                lambda c: lit(c.crowned),
                extra=[neg(s.p.allow_pass)],
                only=lambda c: c.scored,
            )

        self.run("throne.round_ends_with_king", king)

        def score(ledger: Ledger) -> None:
            def claim(case: Case) -> Expr:
                last = pre.rnd == CLAIM_LAST_ROUND
                return all_of(
                    all_of([x >= 0, x <= CLAIM_ROUND_MAX, implies(last, x >= 1)])
                    for x in case.score
                )

            ledger.check("the cuts are valid", all_of(self.cuts))
            self.per_case(
                ledger, "B14/B15 round score", claim, only=lambda c: c.scored, abstract=True
            )

        self.run("throne.round_score", score)

        def totals(ledger: Ledger) -> None:
            tot = s.totals_invariant(pre, CLAIM_ROUND_MAX)
            s0 = s.fresh_state("i")
            ledger.check_all("initiation", s.totals_invariant(s0, CLAIM_ROUND_MAX), [s.init(s0)])
            for case in self.cases:
                ledger.check_all(
                    f"consecution ({case.label})",
                    s.totals_invariant(case.post, CLAIM_ROUND_MAX),
                    [*self.inv, *(c for _n, c in tot), self.chance, case.guard],
                    cuts=self.cuts if case.scored else (),
                    indicators=self.indicators,
                )
            low, high = CLAIM_TOTAL
            ledger.check(
                "B16 final totals",
                implies(
                    pre.phase == OVER, all_of(all_of([t >= low, t <= high]) for t in pre.total)
                ),
                [*self.inv, *(c for _n, c in tot)],
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


def merge(name: str, tallies: Sequence[tuple[Config, Tally]], detail: str = "") -> Result:
    """One result from the tallies of every configuration."""
    title, clauses, method = PROPERTIES[name]
    failed = [f"{c.label}: {t.failure}" for c, t in tallies if not t.holds]
    labels = sorted({c.preset for c, _t in tallies})
    players = sorted({c.players for c, _t in tallies})
    scope = (
        f"players {players[0]}..{players[-1]}; presets {', '.join(labels)}; "
        f"options {', '.join(OPTION_NAMES)} symbolic (both values)"
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
        scope=scope,
        detail="; ".join(failed[:3]) if failed else detail,
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
            bounds = sorted({measure_bound(c.system()) for c, _t in all_tallies})
            detail = f"a round lasts at most {bounds[-1]} moves (ranking bound, 6 players)"
        out.append(merge(name, tallies, detail))
    return out


# ------------------------------------------------------------------ witnesses
def _round_one_33(system: ThroneSystem) -> Callable[[TState], Expr]:
    def bad(s: TState) -> Expr:
        return all_of([s.rnd == 2, any_of(t == CLAIM_ROUND_MAX for t in s.total)])

    return bad


def _decode(system: ThroneSystem, run: Unrolling[TState, TMove]) -> list[throne.Move]:
    return [decode_move(system, run.model, m) for m in run.moves]


def witness_33(config: Config) -> tuple[bool, float, int, Trace | None, str]:
    """BMC from a new game to a round-1 score of 33, replayed in the engine."""
    started = time.perf_counter()
    concrete_config = attrs.evolve(config, symbolic=())
    system = concrete_config.system()
    p = system.p
    shortest = p.placements + 2 + system.n
    queries: list[int] = []
    run = bmc(
        system,
        _round_one_33(system),
        p.placements + 7 + system.n,
        min_depth=shortest,
        queries=queries,
    )
    if run is None:
        return False, time.perf_counter() - started, len(queries), None, "no witness"
    first = model_objectives(system, run.model, run.states[0].obj)
    filler = filler_objectives(p)
    objectives = [first] + [filler] * (p.rules.rounds - 1)
    start = throne.new_game(system.n, config.rules, objectives=objectives)
    seat = next(q for q in system.seats if model_int(run.model, run.states[-1].total[q]) == 33)
    trace, end = replay(start, _decode(system, run), note=f"seat {seat} scores 33 in round 1")
    engine_score = throne.round_scores(end)[0][seat]
    ok = engine_score == CLAIM_ROUND_MAX
    return ok, time.perf_counter() - started, len(queries), trace, f"engine: {engine_score}"


def witness_results(fast: bool) -> list[Result]:
    """33 is reachable, for every player count and preset (or 3 and 6 players if ``fast``)."""
    out = []
    for config in configs():
        if fast and config.players not in (3, 6):
            continue
        ok, seconds, queries, trace, detail = witness_33(config)
        out.append(
            Result(
                name=f"throne.max_reachable.{config.preset.lower()}{config.players}",
                game=GAME,
                title=f"A round score of 33 is reachable ({config.label})",
                clauses=("B14", "B15"),
                method=f"BMC to depth {len(trace.moves) if trace else 0}",
                depth=len(trace.moves) if trace else None,
                holds=ok,
                seconds=seconds,
                queries=queries,
                scope=config.label,
                detail=detail,
                trace=trace,
            )
        )
    return out
