"""What is claimed of the kernel's positions: the inductive invariant, and the valid
facts (*cuts*, *lemmas*) that let the solver count.

None of this is a rule: the rules are the kernel's (:mod:`castlerules.throne.kernel`),
run on Z3 terms by :class:`castlerules.symbolic.throne.ThroneSystem`.  The invariant
is a claim about every reachable position, proved inductive over that system by the
proofs (``throne.invariant``, :func:`proofs.core.induction`) and, before it
strengthens an unrolling, by the casebook's search (:func:`prove`); a wrong conjunct
fails its initiation or a case's consecution.  The cuts and lemmas hold for every
value of the variables and are proved as such before they are used.
"""

from __future__ import annotations

from collections.abc import Sequence

from castlerules.symbolic import Z3
from castlerules.symbolic.smt import (
    Expr,
    all_of,
    any_of,
    between,
    count,
    implies,
    ite,
    neg,
    total,
    valid,
)
from castlerules.symbolic.throne import SCase, ThroneSystem
from castlerules.throne.kernel import NOT_VOTED, KState
from castlerules.throne.state import ELECTION, ELIMINATED, MOVEMENT, OVER, PLACEMENT

__all__ = [
    "ELECTION",
    "ELIMINATED",
    "MOVEMENT",
    "NOT_VOTED",
    "OVER",
    "PLACEMENT",
    "Claims",
    "prove",
    "weight",
]


def weight(system: ThroneSystem, floor: Expr) -> Expr:
    """A character's weight in the ranking function of a round: its floor, or
    7 + players once eliminated (an elimination outweighs the votes it resets)."""
    return ite(floor == ELIMINATED, system.shape.top + system.n, ite(floor >= 1, floor, 0))


class Claims:
    """The invariant and the cuts of one system (its rules and player count)."""

    def __init__(self, system: ThroneSystem) -> None:
        self.system = system
        shape = system.shape
        self.n = shape.players
        self.seats = range(shape.players)
        self.chars = range(shape.characters)
        self.top = shape.top
        self.floors = range(1, shape.top + 1)
        self.rules = system.rules
        self.noble = system.rules.noble_floor
        self.full = shape.full
        self.placements = shape.placements

    # ----------------------------------------------------------- counts
    def on(self, s: KState, floor: int) -> Expr:
        """How many characters stand on ``floor``."""
        return count(f == floor for f in s.fl)

    def placed(self, s: KState) -> Expr:
        """How many characters are placed (on the castle or eliminated)."""
        return count(f != 0 for f in s.fl)

    def gone(self, s: KState) -> Expr:
        """How many characters are eliminated (B13)."""
        return count(f == ELIMINATED for f in s.fl)

    def used_no(self, s: KState) -> Expr:
        """No cards spent, over every seat (B11)."""
        return total(self.full - x for x in s.no)

    def voted(self, s: KState) -> Expr:
        """Votes cast in the election in progress."""
        return count(v != NOT_VOTED for v in s.votes)

    def cap(self, floor: int) -> int:
        return self.rules.capacity(floor)

    # ----------------------------------------------------------- the invariant
    def invariant(self, s: KState) -> list[tuple[str, Expr]]:
        """The inductive invariant, as named conjuncts (clause IDs in the names)."""
        n, top, noble = self.n, self.top, self.noble
        placing = s.phase == PLACEMENT
        playing = any_of([s.phase == MOVEMENT, s.phase == ELECTION])
        electing = s.phase == ELECTION
        return [
            (
                "domain: round, phase, seat, passes, votes",
                all_of(
                    [
                        between(s.rnd, 1, self.rules.rounds),
                        between(s.phase, PLACEMENT, OVER),
                        ite(s.phase == OVER, s.turn == -1, between(s.turn, 0, n - 1)),
                        between(s.passes, 0, n - 1),
                        *(between(v, NOT_VOTED, 1) for v in s.votes),
                    ]
                ),
            ),
            ("domain: floors", all_of(between(f, ELIMINATED, top) for f in s.fl)),
            ("B11 No cards in 0..full", all_of(between(x, 0, self.full) for x in s.no)),
            ("B4 objectives", self.system.objectives_valid(s.obj)),
            ("B7 capacity", all_of(self.on(s, f) <= self.cap(f) for f in self.floors)),
            (
                "B6 placement phase",
                implies(
                    placing,
                    all_of(
                        [
                            *(
                                any_of([f == 0, *(f == g for g in self.rules.placement_floors)])
                                for f in s.fl
                            ),
                            self.placed(s) < self.placements,
                        ]
                    ),
                ),
            ),
            ("B8 all placed after placement", implies(playing, all_of(f != 0 for f in s.fl))),
            ("B10 throne empty while moving", implies(s.phase == MOVEMENT, self.on(s, top) == 0)),
            (
                "B10 election: a candidate, room left on the nobles' floor",
                implies(
                    electing,
                    all_of([self.on(s, top) == 1, self.on(s, noble) <= self.cap(noble) - 1]),
                ),
            ),
            (
                "B13 eliminations cost No cards",
                implies(any_of([placing, playing]), self.gone(s) <= self.used_no(s)),
            ),
            (
                "B11 a No voter still holds the card",
                all_of(
                    implies(v == 0, all_of([electing, x >= 1]))
                    for v, x in zip(s.votes, s.no, strict=True)
                ),
            ),
            (
                "B11 no vote outside an election",
                implies(neg(electing), all_of(v == NOT_VOTED for v in s.votes)),
            ),
            ("B11 the votes go round from the mover", implies(electing, self.round_of_votes(s))),
            (
                "B8 passes only when allowed, while moving",
                implies(
                    any_of([neg(self.system.options.allow_pass), s.phase != MOVEMENT]),
                    s.passes == 0,
                ),
            ),
        ]

    def round_of_votes(self, s: KState) -> Expr:
        """The seats that have voted are the ``k`` (0..n-1) seats just before the seat
        to act: the election goes round from the mover, who votes first (B10, B11)."""
        n = self.n
        return any_of(
            all_of(
                [
                    s.turn == t,
                    *(
                        (s.votes[(t - 1 - j) % n] != NOT_VOTED)
                        if j < k
                        else (s.votes[(t - 1 - j) % n] == NOT_VOTED)
                        for j in range(n)
                    ),
                ]
            )
            for t in range(n)
            for k in range(n)
        )

    def totals_invariant(self, s: KState, round_max: int) -> list[tuple[str, Expr]]:
        """Totals after ``k`` finished rounds lie in ``low(k)..round_max * k`` (B15, B16)."""
        rounds = self.rules.rounds
        return [
            (
                f"B16 total of seat {q}",
                ite(
                    s.phase == OVER,
                    all_of([s.rnd == rounds, t >= self.total_low(rounds), t <= round_max * rounds]),
                    all_of([t >= self.total_low(s.rnd - 1), t <= round_max * (s.rnd - 1)]),
                ),
            )
            for q, t in enumerate(s.total)
        ]

    def total_low(self, finished: Expr | int) -> Expr:
        """Least total after ``finished`` rounds: one point per finished bonus round (B15)."""
        rules = self.rules
        if isinstance(finished, int):
            return Z3.lit(sum(1 for r in range(1, finished + 1) if rules.bonus_applies(r)))
        out = Z3.lit(0)
        for k in range(rules.rounds, -1, -1):
            low = sum(1 for r in range(1, k + 1) if rules.bonus_applies(r))
            out = ite(finished == k, Z3.lit(low), out)
        return out

    def lemmas(self, pre: KState, case: SCase) -> list[Expr]:
        """Valid facts about a case's terms that spare the solver a count (proved valid
        before use): after an elimination, a character is out exactly when it was out
        or on the throne (the count of eliminated characters grows by the throne's one,
        B13), and its weight in the ranking function rises by the players' number
        exactly then."""
        if case.kind not in ("eliminated", "eliminated, nobody left, game over"):
            return []  # (the other cases keep the castle, or empty it for a new round)
        system, top = self.system, self.top
        out = []
        for f, g in zip(pre.fl, case.post.fl, strict=True):
            out_now = ite(f == ELIMINATED, 1, 0) + ite(f == top, 1, 0)
            out.append(ite(g == ELIMINATED, 1, 0) == out_now)
            out.append(weight(system, g) == weight(system, f) + ite(f == top, system.n, 0))
        return out

    # ----------------------------------------------------------- the cuts
    def point_terms(self, s: KState) -> list[tuple[Expr, list[tuple[int, Expr]]]]:
        """The kernel's terms of a favourite's points (B14) at each castle a round can
        be scored on (the castle as it stands; the throne's candidate eliminated), with
        the floors and indicators whose weighted sum each equals."""
        shape = self.system.shape
        out = []
        castles = (
            (tuple(s.fl), self.floors),
            (tuple(Z3.ite(x == self.top, ELIMINATED, x) for x in s.fl), range(1, self.top)),
        )
        for castle, floors in castles:
            for row in s.obj:
                for c in self.chars:
                    term = Z3.ite(row[c], Z3.lookup(shape.points, castle[c], low=-1), 0)
                    parts = [
                        (self.rules.points_of(f), ite(all_of([row[c], s.fl[c] == f]), 1, 0))
                        for f in floors
                        if self.rules.points_of(f)
                    ]
                    out.append((term, parts))
        return out

    def cuts(self, s: KState) -> list[Expr]:
        """Valid linear facts about the indicators the counts and the scores are made
        of: each character stands on at most one floor; a favourite on a floor is on
        it; a favourite's points (the kernel's table read) are the weighted sum of its
        floor indicators.  They hold for every value of the variables, are proved as
        such, and let the linear solver do the counting (pigeonhole, score bounds)."""
        out = []
        levels = [ELIMINATED, 0, *self.floors]
        for c in self.chars:
            at = [ite(s.fl[c] == f, 1, 0) for f in levels]
            out += [y >= 0 for y in at]
            out.append(total(at) <= 1)
            out.append(
                implies(
                    between(s.fl[c], ELIMINATED, self.top),
                    all_of([total(at) == 1, ite(s.fl[c] != 0, 1, 0) == total([at[0], *at[2:]])]),
                )
            )
            for row in s.obj:
                mine = ite(row[c], 1, 0)
                fav = [ite(all_of([row[c], s.fl[c] == f]), 1, 0) for f in self.floors]
                out += [mine >= 0, mine <= 1, *(z >= 0 for z in fav)]
                out += [z <= y for z, y in zip(fav, at[2:], strict=True)]
                out.append(total(fav) <= mine)
        for term, parts in self.point_terms(s):
            out.append(term == total(p * x for p, x in parts))
        return out

    def indicators(self, s: KState) -> Sequence[Expr]:
        """The terms :meth:`cuts` speaks about (replaced by variables in the abstraction)."""
        out = []
        for c in self.chars:
            out += [ite(s.fl[c] == f, 1, 0) for f in [ELIMINATED, 0, *self.floors]]
            out.append(ite(s.fl[c] != 0, 1, 0))
            for row in s.obj:
                out.append(ite(row[c], 1, 0))
                out += [ite(all_of([row[c], s.fl[c] == f]), 1, 0) for f in self.floors]
        out += [term for term, _parts in self.point_terms(s)]
        return out


def prove(system: ThroneSystem, timeout_ms: int = 60_000) -> list[str]:
    """The invariant's induction over ``system``, alone (the casebook's search proves
    it before it strengthens an unrolling with it; the proofs run
    :func:`proofs.core.induction`, with the other properties' step obligations): the
    obligations that are not proved, empty when the invariant is inductive."""
    claims = Claims(system)
    start = system.fresh_state("i")
    failed = []
    if not valid(all_of(c for _n, c in claims.invariant(start)), [system.init(start)]).holds:
        failed.append("initiation")
    pre, move = system.fresh_state("p"), system.fresh_move("m")
    hyps = [*(c for _n, c in claims.invariant(pre)), system.chance(pre, move)]
    cases = system.cases(pre, move)
    if not valid(any_of(c.guard for c in cases), [*hyps, system.legal(pre, move)]).holds:
        failed.append("the cases cover every legal move")
    for case in cases:
        facts = claims.lemmas(pre, case)
        if facts and not valid(all_of(facts)).holds:
            facts = []  # not valid (a changed rule): asked without their help
        goal = all_of(c for _n, c in claims.invariant(case.post))
        found = valid(goal, [*hyps, case.guard, *facts], timeout_ms=timeout_ms, preprocess=True)
        if not found.holds:
            failed.append(f"consecution ({case.label})")
    return failed
