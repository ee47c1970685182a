"""The Ascent proofs: each "consequence that must be proved" of
``spec/ascent.md``, proved with Z3 for every player count (2..6) and every
value of the options, and the sensitivity checks that show the proofs would
notice a wrong rule.

**Induction** (:mod:`castlerules.symbolic.ascent_model`'s small model) proves, once per
player count with *every option symbolic* (``squares`` in 6..20, any strictly
increasing ``arrival`` on the path, any ``upper_half``, ``favours_per_move``
any limit or unlimited, and both values of ``allow_exposing_split``,
``favour_after_arrival``, ``removal_in_lower_half``, ``last_player_continues``,
``protection``, ``favour_takes`` and ``penalty_to``, and every value of
``end_test``: the end test decides only whose turn follows a turn's end, which the
small model leaves free, so these properties hold under each of its values;
both values of ``path`` (A5: the shared Start, or the staggered start rows) and of
``flip_uncovered`` (A8), ``replays_per_turn`` any bound or none (A12);
and under each value of ``stack_rank``, one induction run each, merged by name:
with ``"highest"`` every card carries its stack's rank ``rv``):

- ``ascent.invariant``: an inductive invariant of every reachable position
  (well-formed stacks, flipped stacks on their leader's arrival square, the
  ceiling of stack tops; under ``flip_uncovered`` no unflipped top on the arrival
  square of its rank; the replays of a turn within ``replays_per_turn``);
- ``ascent.ceiling``: the spec's ceiling invariant, card by card, with
  protection and its exceptions (rule 15, ``allow_exposing_split``);
- ``ascent.strict_ceiling``: with the strict reading (``protection=False``)
  no card ever stands above its arrival square (so protection is what lets
  cards go above; see the sensitivity check);
- ``ascent.flipped``: flipped cards never move, change column or unflip;
- ``ascent.conservation``, ``ascent.scores``: every card at one place, 21 of
  absolute value per set, every score and the scores' sum in [-21n, 21n];
- ``ascent.termination``: a ranking function; at most ``6n * squares``
  Advances (``Rules.advance_bound``), at most ``6n`` favours a turn.

**Sensitivity** (BMC on the full model, two players, seat 0 first, then
replayed by the engine): a wrong claim or a wrong rule is refuted with a game
the engine plays, whose last position (or refused move) shows the failure:

- ``ascent.sensitivity.no_protection``: "no card ever stands above its
  arrival square" (the ceiling without protection) fails under the reference
  rules;
- ``ascent.sensitivity.no_lower_half_exception``: "no stack's top ever stands
  above its arrival square" (without rule 15's exception) fails: a favour
  leaves an exposed remainder in the lower half;
- ``ascent.sensitivity.exposing_split_upper_half``: with
  ``allow_exposing_split=True`` an exposed top reaches the upper half;
- ``ascent.sensitivity.favour_takes_flipped`` and ``favour_equal_rank``: a
  model whose favour may take a flipped stack (which breaks "flipped cards
  never move") or an equal rank: the engine replays the mutation's game until
  the mutation parts from it, and refuses the offending move.

BMC runs in stages from concrete engine positions (each stage the shortest
continuation, replayed by the engine before the next), on the bit-vector
model; the first stage looks for a protected card whose protector can rise to
the upper half and be taken (a special case of the refuted claim), so that the
next checks can continue the same game.

The claims are the spec's numbers (``CLAIM_*``); the rules are read from the
engine's ``Rules`` by the model, never copied here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import attrs

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.ascent.rules import CARDS_PER_SET, PLAYERS, STACK_RANKS, value_of
from castlerules.ascent.transitions import ceiling_violations
from castlerules.core.errors import IllegalMove
from castlerules.symbolic.ascent_model import (
    ADVANCE,
    CASES,
    FAVOUR,
    FOLD,
    LOWEST_ARRIVAL,
    NONE,
    OPTION_NAMES,
    REMOVED,
    VALUES,
    AscentModel,
    AState,
    Card,
    Case,
    Move,
    Params,
    Small,
    all_of,
    any_of,
    as_z3,
    between,
    implies,
    ite,
    neg,
    squares_domain,
    total,
    unroll,
)
from castlerules.symbolic.smt import Expr, int_var, satisfiable
from proofs import merge
from proofs.ascent_bridge import concrete, decode, fields, move_in, read, replay
from proofs.core import Ledger, ProofFailure, Result, Trace

GAME = "ascent"


CLAIM_SET_VALUE = 21
"""Spec: "the sum over players of the absolute value of each card's contribution is
21 per set in play"; and every score lies in [-21n, 21n]."""


# ------------------------------------------------------------------ statements
# What each property says, as one function each, used by its proof and by the
# counter-witnesses that it must reject (:mod:`proofs.strength`).
def scores_ok(players: int, points: Sequence[Expr]) -> Expr:
    """A15-A17: every score, and the scores' sum, lies in [-21n, 21n]."""
    bound = CLAIM_SET_VALUE * players
    return all_of(
        [*(between(p, -bound, bound) for p in points), between(total(points), -bound, bound)]
    )


def set_sum_ok(contributions: Sequence[Expr]) -> Expr:
    """A18: the absolute contributions of one set's cards sum to 21."""
    return total(contributions) == CLAIM_SET_VALUE


def flipped_stays(before: Card, after: Card) -> Expr:
    """A8: a flipped card keeps its column and square and stays flipped."""
    return implies(before.flp, all_of([after.col == before.col, after.sq == before.sq, after.flp]))


def never_down(m: AscentModel, before: Card, after: Card) -> Expr:
    """A4: no card goes down (its term of the ranking function never falls)."""
    return m.height(after) >= m.height(before)


def card_rises(m: AscentModel, before: Card, after: Card) -> Expr:
    """A3: the card an Advance moves rises."""
    return m.height(after) >= m.height(before) + 1


def strictly_below(m: AscentModel, u: Card) -> Expr:
    """A6 (strict reading): a card on the path stands at or below its arrival square."""
    return implies(u.on_path(), u.sq <= m.arr(u))


def protected_or_excused(m: AscentModel, c: Card, t: Card) -> Expr:
    """A6/A7: a card ``c`` above its arrival square has a higher card above it in its
    stack (``t``, its top; under ``stack_rank="highest"`` the stack's rank), unless its
    stack is an exposed remainder rule 15 lets stay (A13)."""
    above = all_of([c.on_path(), c.sq > m.arr(c)])
    if m.high:
        protected = all_of([t.same_stack(c), m.rank(t) > c.val])
    else:
        protected = all_of([t.same_stack(c), t.dep < c.dep, t.val > c.val])
    return implies(above, any_of([protected, all_of([t.same_stack(c), m.excused(t)])]))


# ------------------------------------------------------------------ induction
class Prover:
    """The induction obligations for one player count, every option symbolic."""

    def __init__(self, players: int, mutation: str = "", stack_rank: str = "top") -> None:
        self.n = players
        self.stack_rank = stack_rank
        rules = ascent.Rules(stack_rank=stack_rank)
        self.model = AscentModel(Params(rules, players, symbolic=OPTION_NAMES, mutation=mutation))

    def small(self, tag: str = "s", reps: int = 2) -> Small:
        return Small(self.model, reps=reps, tag=tag)

    # -------------------------------------------------------------- invariant
    def goals(self, sm: Small, case: Case) -> list[tuple[str, Expr]]:
        """The invariant after ``case`` on the two representative cards."""
        m = self.model
        c, b = (sm.post(case, u) for u in sm.reps)
        out = [(f"{name} (card)", g) for name, g in m.inv_card(c)]
        out += [(f"{name} (pair)", g) for name, g in m.inv_pair(c, b)]
        out += m.inv_turn(m.turn_post(case, sm.turn, sm.move))
        return out

    def invariant(self, ledger: Ledger) -> None:
        """Initiation and consecution of the invariant, case by case (see
        :mod:`castlerules.symbolic.ascent_model` for why two cards and the selections suffice)."""
        m = self.model
        sm = self.small("init")
        c, b = sm.reps
        hyps = [*m.assumptions(), *(sm.card_domain(u, False) for u in sm.reps)]
        hyps += [*sm.consistent(), m.init_turn(sm.turn), m.init_card(c), m.init_card(b)]
        goals = [*m.inv_card(c), *m.inv_pair(c, b), *m.inv_turn(sm.turn)]
        # No vacuity: the initial positions exist (a theorem over none proves nothing).
        ledger.queries += 1
        if satisfiable([as_z3(h) for h in hyps]) is None:
            raise ProofFailure(f"{self.n}p premise: the initial states are unsatisfiable")
        ledger.check_all(f"{self.n}p initiation", goals, hyps)
        sm = self.small()
        base = sm.base()
        # The cases exclude each other (the two Advance cases by the full model's
        # pending / not pending, which the small model drops).
        guards = [(case, all_of(sm.case_guard(case))) for case in CASES]
        exclusive = [
            neg(all_of([g, h]))
            for i, (case, g) in enumerate(guards)
            for other, h in guards[i + 1 :]
            if not case.kind == other.kind == ADVANCE
        ]
        ledger.check(f"{self.n}p the cases exclude each other", all_of(exclusive), base)
        for case in CASES:
            # Not vacuous: some position and move satisfy the hypotheses of the case
            # (asked for the fewest players: the hypotheses have the same shape for all).
            if self.n == PLAYERS[0]:
                ledger.queries += 1
                if satisfiable([as_z3(h) for h in [*base, *sm.case_guard(case)]]) is None:
                    raise ProofFailure(f"{self.n}p {case.label}: the case is impossible")
            ledger.check_all(
                f"{self.n}p consecution ({case.label})",
                self.goals(sm, case),
                [*base, *sm.case_guard(case)],
            )

    # -------------------------------------------------------------- ceiling
    def ceiling(self, ledger: Ledger) -> None:
        """The spec's ceiling invariant, card by card, from the invariant: a card above
        its arrival square has a card of higher rank above it in its stack (the
        top of its stack, which the invariant names), unless its stack is an
        exposed remainder where it may stay.  Under ``stack_rank="highest"`` the
        protector is the stack's rank card, anywhere in the stack: the card is
        protected when its stack's rank (``rv``) is higher than its own (A3, A7)."""
        m = self.model
        sm = self.small("ceil")
        c, t = sm.reps
        hyps = [*sm.base(), t.idx == c.top]
        ledger.check(
            f"{self.n}p A6/A7: a card above its arrival square is protected, or exposed "
            "where rule 15 lets it stay",
            protected_or_excused(m, c, t),
            hyps,
        )
        exposed = all_of([t.on_path(), t.dep == 0, t.sq > m.ceiling(t)])
        ledger.check(
            f"{self.n}p A13: an exposed stack stands where removal does not apply, unless "
            "allow_exposing_split",
            implies(exposed, any_of([m.o.allow_exposing_split, neg(m.o.removal(t.sq))])),
            hyps,
        )
        # Rule 15: without allow_exposing_split, only a favour leaves an exposed top.
        sm = self.small("exposing")
        c = sm.reps[0]
        base = [*sm.base(), neg(m.o.allow_exposing_split)]
        for case in CASES:
            if case.kind == FAVOUR:
                continue
            after = sm.post(case, c)
            now = all_of([after.on_path(), after.dep == 0, after.sq > m.ceiling(after)])
            before = all_of([c.on_path(), c.dep == 0, c.sq > m.ceiling(c), c.sq == after.sq])
            ledger.check(
                f"{self.n}p rule 15: {case.label} exposes no stack's top",
                implies(now, before),
                [*base, *sm.case_guard(case)],
            )

    def strict_ceiling(self, ledger: Ledger, strict_reading: bool = True) -> None:
        """With the strict reading (``protection=False``), no card ever stands above its
        arrival square (an inductive strengthening of the invariant).  Without
        that assumption (``strict_reading=False``) the claim is not inductive."""
        m = self.model

        def strict(u: Card) -> Expr:
            return strictly_below(m, u)

        sm = self.small("strict-init")
        c = sm.reps[0]
        ledger.check(
            f"{self.n}p initiation",
            strict(c),
            [*m.assumptions(), sm.card_domain(c, False), m.init_card(c)],
        )
        sm = self.small("strict")
        cards = sm.all_cards()
        hyps = [*sm.base(), neg(m.o.protection) if strict_reading else True]
        hyps += [implies(u.idx != NONE, strict(u)) for u in cards]
        for case in CASES:
            ledger.check(
                f"{self.n}p consecution ({case.label})",
                strict(sm.post(case, sm.reps[0])),
                [*hyps, *sm.case_guard(case)],
            )

    # -------------------------------------------------------------- flipped
    def flipped(self, ledger: Ledger) -> None:
        """A8: a flipped card keeps its column and square and stays flipped."""
        sm = self.small("flip")
        c = sm.reps[0]
        base = sm.base()
        for case in CASES:
            after = sm.post(case, c)
            ledger.check(
                f"{self.n}p {case.label}",
                flipped_stays(c, after),
                [*base, *sm.case_guard(case)],
            )

    # -------------------------------------------------------------- counting
    def counting(self, ledger: Ledger) -> tuple[list[list[Expr]], list[list[Expr]]]:
        """The counting lemma, for one arbitrary card (so for every card): exactly one
        seat counts it (its column's player, for a card on the board or in that
        seat's removed pile), with a contribution ``t_q`` of absolute value
        ``a_q``, and the ``a_q`` sum to the card's value (rule 19; A15, A16).

        Returns, for every card of the game, fresh variables ``t[c][q]`` and
        ``a[c][q]`` constrained by the lemma: sums over the cards are then
        linear facts about them, proved without unfolding each card's term.
        """
        m = self.model
        sm = self.small("count")
        c = sm.reps[0]
        hyps = [*m.assumptions(), sm.card_domain(c, False), *(g for _n, g in m.inv_card(c))]
        seats = range(self.n)
        # A15, A16: the kernel's points of one card (scores() sums them over the cards)
        t = [kernel.card_points(FOLD, q, c.col, c.sq, m.arr(c), c.val) for q in seats]
        a = [ite(c.col == q, c.val, 0) for q in seats]
        ledger.check(
            f"{self.n}p a card is at one place, counted by one seat",
            all_of(
                [
                    total(ite(c.col == q, 1, 0) for q in seats) == 1,
                    any_of([c.sq == REMOVED, between(c.sq, 0, m.o.squares)]),
                ]
            ),
            hyps,
        )
        ledger.check(
            f"{self.n}p a card's contribution to each seat has absolute value a_q, "
            "and the a_q sum to its value",
            all_of(
                [
                    *(
                        all_of([x >= 0, any_of([y == x, y == -x])])
                        for x, y in zip(a, t, strict=True)
                    ),
                    total(a) == c.val,
                ]
            ),
            hyps,
        )
        ts = [[int_var(f"t{k}_{q}") for q in seats] for k in range(m.N)]
        as_ = [[int_var(f"a{k}_{q}") for q in seats] for k in range(m.N)]
        return ts, as_

    def lemma(self, ts: list[list[Expr]], as_: list[list[Expr]]) -> list[Expr]:
        """The counting lemma for every card of the game (with its value)."""
        out = []
        for k, (trow, arow) in enumerate(zip(ts, as_, strict=True)):
            # The lemma's |t| == a, weakened to -a <= t <= a: the sums need no more.
            out += [between(y, -x, x) for x, y in zip(arow, trow, strict=True)]
            out.append(total(arow) == value_of(k))
        return out

    def conservation(self, ledger: Ledger) -> None:
        """Every card is at one place (one column and square, or one seat's pile; the
        invariant keeps one card per place of a stack), and the absolute
        contributions of each set's cards sum to 21 over the seats."""
        ts, as_ = self.counting(ledger)
        hyps = self.lemma(ts, as_)
        for owner in range(self.n):
            cards = range(owner * CARDS_PER_SET, (owner + 1) * CARDS_PER_SET)
            ledger.check(
                f"{self.n}p set {owner}: the absolute contributions sum to {CLAIM_SET_VALUE}",
                set_sum_ok([x for k in cards for x in as_[k]]),
                hyps,
            )

    def scores(self, ledger: Ledger) -> None:
        """Every score, and the scores' sum, lies in [-21n, 21n] (rule 19; A15-A17)."""
        ts, as_ = self.counting(ledger)
        hyps = self.lemma(ts, as_)
        bound = CLAIM_SET_VALUE * self.n
        points = [total(row[q] for row in ts) for q in range(self.n)]
        ledger.check(
            f"{self.n}p every score, and their sum, in [-{bound}, {bound}]",
            scores_ok(self.n, points),
            hyps,
        )

    # -------------------------------------------------------------- termination
    def termination(self, ledger: Ledger) -> None:
        """The ranking function: the sum over cards of their squares (the top square
        once removed) lies in 0..6n*squares, rises with every Advance (every
        moving card rises), never falls; favours take cards from the other
        columns' path, which nothing refills within a turn; a turn begins with an
        Advance."""
        m = self.model
        sm = self.small("term")
        c = sm.reps[0]
        x = sm.move.x
        base = sm.base()
        ledger.check(
            f"{self.n}p a card's term lies in 0..squares",
            between(m.height(c), 0, m.o.squares),
            base,
        )
        p = sm.turn.actor

        def outside(u: Card) -> Expr:
            return all_of([u.col != p, u.on_path()])

        for case in CASES:
            after = sm.post(case, c)
            goals = [(f"A4: no card goes down ({case.label})", never_down(m, c, after))]
            if case.kind == ADVANCE:
                goals += [
                    ("A3: the advanced card rises", card_rises(m, x, sm.post(case, x))),
                    ("an Advance takes no card from another column", outside(after) == outside(c)),
                ]
            if case.kind == FAVOUR:
                goals += [
                    (
                        "A10: a favour takes cards from the other columns, nothing goes back",
                        all_of([implies(outside(after), outside(c)), outside(x)]),
                    ),
                    (
                        "A10: the taken card joins the mover's column",
                        neg(outside(sm.post(case, x))),
                    ),
                ]
            ledger.check_all(f"{self.n}p {case.label}", goals, [*base, *sm.case_guard(case)])
        ledger.check(
            f"{self.n}p A3, A12: a turn begins with an Advance",
            all_of(
                neg(all_of([neg(sm.turn.mid), *sm.case_guard(case)]))
                for case in CASES
                if case.kind != ADVANCE
            ),
            base,
        )
        # The sums: every term rises or stays, one rises: the sum rises (for the
        # model's number of cards); the sum is at most cards * squares.
        olds = [int_var(f"h{i}") for i in range(m.N)]
        news = [int_var(f"h'{i}") for i in range(m.N)]
        pick = int_var("moved")
        terms = [
            all_of([between(h, 0, m.o.squares), g >= h]) for h, g in zip(olds, news, strict=True)
        ]
        rises = any_of(all_of([pick == i, news[i] >= olds[i] + 1]) for i in range(m.N))
        ledger.check(
            f"{self.n}p the sum rises and is at most {m.N} * squares",
            all_of([total(news) >= total(olds) + 1, total(olds) <= m.N * m.o.squares]),
            [*m.assumptions(), *terms, rises],
        )
        # The favours of a turn: a card outside the mover's column after a favour was
        # outside before, and the taken one was: the count falls (at most 6n).
        was = [int_var(f"o{i}") for i in range(m.N)]
        now = [int_var(f"o'{i}") for i in range(m.N)]
        flags = [all_of([between(b, 0, a), a <= 1]) for a, b in zip(was, now, strict=True)]
        taken = any_of(all_of([pick == i, now[i] <= was[i] - 1]) for i in range(m.N))
        ledger.check(
            f"{self.n}p the cards a favour can take are fewer after each favour, at most {m.N}",
            all_of([total(now) <= total(was) - 1, total(was) <= m.N]),
            [*flags, taken],
        )


def _abs(e: Expr) -> Expr:
    return ite(e >= 0, e, -e)


@attrs.frozen(slots=True)
class Property:
    name: str
    title: str
    clauses: tuple[str, ...]
    run: Callable[[Prover, Ledger], None]


PROPERTIES: tuple[Property, ...] = (
    Property(
        "ascent.invariant",
        "An inductive invariant of every position: well-formed stacks, flipped stacks on "
        "their leader's arrival square, the ceiling of every stack's top; with "
        "flip_uncovered no unflipped top on its arrival square; at most replays_per_turn "
        "replays a turn",
        ("A3", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13"),
        Prover.invariant,
    ),
    Property(
        "ascent.ceiling",
        "Every card above its arrival square has a higher card above it in its stack, "
        "except an exposed remainder where rule 15 lets it stay (the lower half by "
        "default; anywhere with allow_exposing_split); without allow_exposing_split "
        "only a favour exposes a stack's top",
        ("A6", "A7", "A13"),
        Prover.ceiling,
    ),
    Property(
        "ascent.strict_ceiling",
        "With the strict reading (protection=False) no card ever stands above its arrival square",
        ("A6", "A7"),
        Prover.strict_ceiling,
    ),
    Property(
        "ascent.flipped",
        "Flipped cards never move, never change column, and stay flipped",
        ("A8", "A9", "A10"),
        Prover.flipped,
    ),
    Property(
        "ascent.conservation",
        "Every card is at one place; the absolute contributions of each set sum to 21",
        ("A18", "A13", "A15", "A16"),
        Prover.conservation,
    ),
    Property(
        "ascent.scores",
        "Every score, and the sum of the scores, lies in [-21n, 21n]",
        ("A15", "A16", "A17"),
        Prover.scores,
    ),
    Property(
        "ascent.termination",
        "Every game ends: at most 6n*squares Advances (Rules.advance_bound), at most 6n "
        "favours a turn",
        ("A3", "A4", "A10", "A12", "A13", "A14"),
        Prover.termination,
    ),
)

NEEDS_INVARIANT = {p.name for p in PROPERTIES} - {"ascent.invariant"}
"""Every other property assumes the invariant (its conjuncts are their hypotheses)."""


def scope(players: Sequence[int], stack_rank: str = "top") -> str:
    dom = squares_domain()
    counts = ", ".join(map(str, players))
    return (
        f"players {counts}; every option symbolic: squares "
        f"{dom[0]}..{dom[-1]}, any strictly increasing arrival, any upper_half, "
        "favours_per_move any limit or none, both values of allow_exposing_split, "
        "favour_after_arrival, removal_in_lower_half, last_player_continues, protection, "
        "favour_takes, penalty_to, path and flip_uncovered, replays_per_turn any bound or "
        f"none, every end_test (stack_rank={stack_rank})"
    )


def induction_results(
    players: Sequence[int] = tuple(PLAYERS), stack_rank: str = "top"
) -> list[Result]:
    """Every induction property, for each player count, under one value of
    ``stack_rank`` (A3; one job each, whose results ``proofs.merge`` joins)."""
    provers = [Prover(n, stack_rank=stack_rank) for n in players]
    out = []
    proved: dict[str, bool] = {}
    for prop in PROPERTIES:
        ledger = Ledger()
        failure = ""
        try:
            if prop.name in NEEDS_INVARIANT and not proved.get("ascent.invariant", False):
                raise ProofFailure("the invariant is not proved")
            for prover in provers:
                prop.run(prover, ledger)
        except ProofFailure as err:
            failure = str(err)
        proved[prop.name] = not failure
        detail = failure
        if not failure and prop.name == "ascent.termination":
            detail = termination_detail(players)
        out.append(
            Result(
                name=prop.name,
                game=GAME,
                title=prop.title,
                clauses=prop.clauses,
                method="induction",
                depth=1,
                holds=not failure,
                seconds=ledger.seconds(),
                queries=ledger.queries,
                scope=scope(players, stack_rank),
                detail=detail,
            )
        )
    return out


def termination_detail(players: Sequence[int]) -> str:
    """The proved bounds, compared with ``Rules.advance_bound`` for every ``squares``."""
    for n in players:
        for squares in squares_domain():
            rules = ascent.Rules(squares=squares, arrival=LOWEST_ARRIVAL)
            if rules.advance_bound(n) != CARDS_PER_SET * n * squares:
                return f"Rules.advance_bound({n}) with squares={squares} differs from the proof"
    return (
        "the ranking function bounds the Advances by 6n*squares = Rules.advance_bound(n) "
        "(every squares value checked); each turn begins with an Advance and takes at "
        "most 6n favours, so a game has at most 6n*squares*(6n+2) moves"
    )


# ------------------------------------------------------------------ sensitivity
Bad = Callable[[AscentModel, AState], Expr]


def top_above(m: AscentModel, s: AState, low: Expr = 1) -> Expr:
    """Some stack's top stands above its arrival square, on a square >= ``low``."""
    return any_of(all_of([u.sq >= low, u.dep == 0, u.sq > m.arr(u)]) for u in s.cards)


def card_above(m: AscentModel, s: AState) -> Expr:
    """Some card stands above its arrival square."""
    return any_of(all_of([u.on_path(), u.sq > m.arr(u)]) for u in s.cards)


def protected_above(m: AscentModel, s: AState) -> Expr:
    """A card ``u`` stands above its arrival square on the last square of the lower
    half, under a top ``t`` that a higher rank can take and that can climb two
    squares (both free in its column): a special case of :func:`card_above`,
    chosen so that the games of the next checks can continue from here
    (``t`` taken by a favour, or ``t`` carrying ``u`` into the upper half)."""
    squares = range(1, m.smax + 1)
    empty = [[neg(any_of(w.at(q, e) for w in s.cards)) for e in squares] for q in range(m.n)]
    out = []
    for t in s.cards:
        room = any_of(
            all_of(
                [
                    t.col == q,
                    *(
                        implies(any_of([t.sq + 1 == e, t.sq + 2 == e]), empty[q][e - 1])
                        for e in squares
                    ),
                ]
            )
            for q in range(m.n)
        )
        for u in s.cards:
            if u is t:
                continue
            out.append(
                all_of(
                    [
                        u.on_path(),
                        u.sq > m.arr(u),
                        u.sq + 1 == m.o.upper_half,
                        t.same_stack(u),
                        t.dep == 0,
                        t.val < VALUES[-1],
                        m.arr(t) >= u.sq + 2,
                        room,
                    ]
                )
            )
    return any_of(out)


def engine_above(state: ascent.State, tops_only: bool, low: int = 1) -> list[str]:
    """The engine's view: the cards above their arrival square (tops only, or all),
    on squares >= ``low``; read through the public API."""
    rules = state.rules
    out = []
    for q in range(state.players):
        for square in range(max(low, 1), rules.squares + 1):
            stack = ascent.stack_at(state, q, square)
            for card in stack[:1] if tops_only else stack:
                if square > rules.arrival_of(card.rank):
                    out.append(f"{card} on square {square} of column {q}")
    return out


@attrs.frozen(slots=True)
class Stage:
    """One BMC stage: reach ``bad`` within ``depth`` moves from where the last ended."""

    bad: Bad
    depth: int


def new_game(rules: ascent.Rules) -> ascent.State:
    """The games of the sensitivity checks: two players, seat 0 first."""
    return ascent.new_game(2, rules, first_player=0)


def staged(
    rules: ascent.Rules,
    stages: Sequence[Stage],
    queries: list[int],
    prefix: Sequence[ascent.Move] = (),
) -> list[ascent.Move] | None:
    """BMC in stages (two players, seat 0 first): each stage is a BMC query from the
    concrete engine position where the game so far (``prefix``, then the
    earlier stages) stands, and its moves are replayed by the engine before the
    next stage starts.  Every stage finds its shortest continuation."""
    model = AscentModel(Params(rules, 2, bitvector=True))
    moves = list(prefix)
    _, state = replay(new_game(rules), moves)
    for stage in stages:

        def bad(s: AState, test: Bad = stage.bad) -> Expr:
            return test(model, s)

        path = unroll(
            model,
            bad,
            stage.depth,
            start=concrete(model, fields(state)),
            queries=queries,
        )
        if path is None:
            return None
        found = [move_in(path.model, mv) for mv in path.moves]
        _, state = replay(state, found)
        moves += found
    return moves


def bmc_result(
    name: str,
    title: str,
    clauses: tuple[str, ...],
    rules: ascent.Rules,
    moves: Sequence[ascent.Move] | None,
    check: Callable[[ascent.State], str],
    scope_text: str,
    started: float,
    queries: int,
    note: str = "",
) -> Result:
    """A claim refuted by BMC: ``moves`` (None if BMC found nothing) replayed by the
    engine from a new game; ``check`` says what the engine shows at the end
    ("" if it does not show the failure)."""
    trace: Trace | None = None
    holds = True
    detail = "no counterexample within the depth"
    if moves is not None:
        trace, end = replay(new_game(rules), moves)
        shown = check(end)
        holds = not shown
        detail = f"the engine reaches it: {shown}" if shown else "the engine does not confirm"
        detail += note
        trace = attrs.evolve(trace, note=detail)
    return Result(
        name=name,
        game=GAME,
        title=title,
        clauses=clauses,
        method=f"BMC depth {len(trace.moves) if trace else 0}",
        depth=len(trace.moves) if trace else None,
        holds=holds,
        seconds=time.perf_counter() - started,
        queries=queries,
        scope=scope_text,
        detail=detail,
        expected=False,
        trace=trace,
    )


def _protected_above(state: ascent.State) -> str:
    above = engine_above(state, tops_only=False)
    ok = not ceiling_violations(state)
    return f"{above[0]}, under a higher card" if above and ok else ""


def _exposed_lower(state: ascent.State) -> str:
    exposed = engine_above(state, tops_only=True)
    ok = not ceiling_violations(state)
    return f"exposed {exposed[0]}, which stays (rule 15)" if exposed and ok else ""


def _exposed_upper(state: ascent.State) -> str:
    exposed = engine_above(state, tops_only=True, low=state.rules.upper_half)
    return f"exposed {exposed[0]} in the upper half" if exposed else ""


def mutation_result(
    name: str,
    title: str,
    clauses: tuple[str, ...],
    mutation: str,
    bad_step: Callable[[AscentModel, AState, Move, AState], Expr],
    depth: int,
    what: str,
    detail_extra: str = "",
) -> Result:
    """A mutated rule (:data:`castlerules.symbolic.ascent_model.MUTATIONS`) refutes a property: BMC
    in the mutated model finds a game whose last move breaks it; the engine
    replays that game up to the first move where the engine's rules and the
    mutation part (the mutation's successor differs, or the engine refuses the
    move), and refuses the offending move."""
    started = time.perf_counter()
    rules = ascent.Rules()
    wrong = AscentModel(Params(rules, 2, mutation=mutation, bitvector=True))
    queries: list[int] = []
    path = unroll(
        wrong,
        None,
        depth,
        bad_step=lambda a, mv, b: bad_step(wrong, a, mv, b),
        start=concrete(wrong, fields(new_game(rules))),
        queries=queries,
    )
    holds, detail, trace = True, "no counterexample within the depth", None
    if path is not None:
        moves = [move_in(path.model, mv) for mv in path.moves]
        state = new_game(rules)
        played: list[ascent.Move] = []
        notes: list[str] = []
        refused = False
        for k, move in enumerate(moves):
            try:
                after = ascent.apply(state, move)
            except IllegalMove as err:
                notes.append(f"the engine refuses {move} (move {k + 1}, {err.clause}): {err}")
                refused = True
                break
            played.append(move)
            state = after
            mutant = decode(rules, read(path.model, path.states[k + 1]))
            if after != mutant and len(notes) == 0:
                notes.append(
                    f"after {move} (move {k + 1}) the engine's position differs from the mutation's"
                )
        if not refused:
            notes.append("the engine accepts the whole game: the mutation is not detected")
        holds = not refused
        detail = f"with the mutation, {moves[-1]} {what}; " + "; ".join(notes) + detail_extra
        trace, _ = replay(new_game(rules), played, note=detail)
    return Result(
        name=name,
        game=GAME,
        title=title,
        clauses=clauses,
        method=f"BMC depth {path.depth if path else depth}",
        depth=path.depth if path else None,
        holds=holds,
        seconds=time.perf_counter() - started,
        queries=len(queries),
        scope="2 players, reference rules with one mutated rule",
        detail=detail,
        expected=False,
        trace=trace,
    )


def _takes_flipped(m: AscentModel, a: AState, mv: Move, b: AState) -> Expr:
    """The last move is a favour that takes a flipped card (it changes column)."""
    return all_of([mv.kind == FAVOUR, mv.x.flp])


def _takes_equal(m: AscentModel, a: AState, mv: Move, b: AState) -> Expr:
    """The last move is a favour on a stack whose leader's rank equals the taker's."""
    return all_of([mv.kind == FAVOUR, mv.qt.val == mv.tt.val])


def mutant_invariant(players: Sequence[int]) -> str:
    """Whether the invariant and the ceiling still hold with equal-rank favours."""
    ledger = Ledger()
    try:
        for n in players:
            prover = Prover(n, mutation="favour_equal_rank")
            prover.invariant(ledger)
            prover.ceiling(ledger)
    except ProofFailure as err:
        return f"; with this mutation the invariant fails: {err}"
    return (
        f"; the invariant and the ceiling still hold with this mutation (induction, "
        f"{players[0]}..{players[-1]} players, {ledger.seconds():.1f} s): A10's "
        "strictness is not what keeps them"
    )


def sensitivity_results(fast: bool = False) -> list[Result]:
    """The wrong claims and wrong rules, refuted with games the engine replays."""
    reference = ascent.Rules()
    exposing = ascent.Rules(allow_exposing_split=True)
    opening = Stage(protected_above, 8)
    out = []

    started = time.perf_counter()
    queries: list[int] = []
    protected = staged(reference, [opening], queries)
    out.append(
        bmc_result(
            "ascent.sensitivity.no_protection",
            "Claim without protection: no card ever stands above its arrival square "
            "(refuted under the reference rules: protection lets cards go above)",
            ("A6", "A7"),
            reference,
            protected,
            _protected_above,
            "2 players, reference rules",
            started,
            len(queries),
        )
    )

    started = time.perf_counter()
    queries = []
    prefix = protected or []
    note = f" (continues the game of ascent.sensitivity.no_protection, {len(prefix)} moves)"
    out.append(
        bmc_result(
            "ascent.sensitivity.no_lower_half_exception",
            "Claim without rule 15's exception: no stack's top ever stands above its "
            "arrival square (refuted: an exposed remainder stays in the lower half)",
            ("A13", "A7"),
            reference,
            staged(reference, [Stage(top_above, 8)], queries, prefix),
            _exposed_lower,
            "2 players, reference rules",
            started,
            len(queries),
            note,
        )
    )

    started = time.perf_counter()
    queries = []
    stages = [Stage(lambda m, s: top_above(m, s, m.o.upper_half), 8)]
    try:  # the same opening, if the engine plays it under these rules too
        replay(new_game(exposing), prefix)
    except IllegalMove:
        prefix, note = [], ""
        stages = [opening, *stages]
    out.append(
        bmc_result(
            "ascent.sensitivity.exposing_split_upper_half",
            "With allow_exposing_split=True, the strict ceiling of the upper half (no "
            "exposed top on squares >= upper_half) is refuted",
            ("A7", "A13"),
            exposing,
            staged(exposing, stages, queries, prefix),
            _exposed_upper,
            "2 players, allow_exposing_split=True",
            started,
            len(queries),
            note,
        )
    )
    out.append(
        mutation_result(
            "ascent.sensitivity.favour_takes_flipped",
            "With a favour that may take a flipped stack, 'flipped cards never move' is refuted",
            ("A8", "A10"),
            "favour_flipped",
            _takes_flipped,
            8,
            "moves a flipped card to another column",
        )
    )
    players = (PLAYERS[0],) if fast else (PLAYERS[0], PLAYERS[-1])
    out.append(
        mutation_result(
            "ascent.sensitivity.favour_equal_rank",
            "With a favour that may take an equal rank, the model admits a game the engine refuses",
            ("A10",),
            "favour_equal_rank",
            _takes_equal,
            8,
            "takes a leader of the taker's own rank",
            mutant_invariant(players),
        )
    )
    return out


# ------------------------------------------------------------------ entry point
def results(fast: bool = False) -> list[Result]:
    """Every Ascent result: the induction proofs (every player count; with ``fast``,
    2 and 6 players only; each value of ``stack_rank``) and the sensitivity checks."""
    induction = [induction_results(players(fast), rank) for rank in STACK_RANKS]
    return [*merge([r for part in induction for r in part]), *sensitivity_results(fast)]


def players(fast: bool = False) -> tuple[int, ...]:
    """The player counts proved: all of them, or the smallest and the largest if ``fast``."""
    return (PLAYERS[0], PLAYERS[-1]) if fast else tuple(PLAYERS)
