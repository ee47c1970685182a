"""What is claimed of Ascent's kernel positions: the inductive invariant.

None of this is a rule: the rules are the kernel's (:mod:`castlerules.ascent.kernel`),
run on Z3 terms by :class:`castlerules.symbolic.ascent.AscentSystem`.  The
invariant is a claim about every reachable position; ``tests/symbolic/test_ascent.py``
checks it on the positions of real games and that a broken stack breaks it.  It is
not proved inductive over this system: the proof run's ``ascent.invariant`` is
proved over the two-card encoding :mod:`castlerules.symbolic.ascent_model`, which
``proofs/ascent_equal.py`` proves to be the kernel for the games the proofs page names
(two players; "The Ascent model proved to be the kernel").  Its vocabulary (the
rank of a stack under option ``stack_rank``, the squares where an exposed
remainder may stay) is the spec's, written here as the claim's own words.
"""

from __future__ import annotations

from castlerules.ascent import kernel
from castlerules.ascent.kernel import REMOVED, KState
from castlerules.symbolic.ascent import AscentSystem
from castlerules.symbolic.smt import Expr, all_of, any_of, between, implies, ite, neg, table
from castlerules.symbolic.z3ops import Z3

__all__ = ["REMOVED", "Claims"]


class Claims:
    """The invariant of one system (its rules and player count), and its words."""

    def __init__(self, system: AscentSystem) -> None:
        self.system = system
        shape = system.shape
        self.shape = shape
        self.opt = system.options
        self.n = shape.players
        self.slots = shape.slots
        self.squares = shape.squares

    # ----------------------------------------------------------- words
    def on_path(self, s: KState, j: int) -> Expr:
        """Card ``j`` stands on a path square."""
        return s.sq[j] >= 1

    def together(self, s: KState, j: int, k: int) -> Expr:
        """Cards ``j`` and ``k`` (distinct) are in one stack on the path."""
        return all_of([s.sq[j] >= 1, s.col[j] == s.col[k], s.sq[j] == s.sq[k]])

    def arrival(self, j: int) -> int:
        """Card ``j``'s arrival square (A1, A6)."""
        return self.shape.arrival[j]

    def rank(self, s: KState, j: int) -> Expr:
        """The rank of the stack whose top is ``j`` (A3, option ``stack_rank``): its top
        card's value, or the highest value in it."""
        value = self.shape.value
        best: Expr = value[j]
        for k in self.slots:
            if k != j:
                best = ite(all_of([self.together(s, j, k), best < value[k]]), value[k], best)
        return ite(self.opt.stack_rank, best, value[j])

    def ceiling(self, s: KState, j: int) -> Expr:
        """The arrival square of the rank of the stack whose top is ``j``."""
        return table(self.rank(s, j), self.shape.ceiling)

    def may_stay(self, square: Expr) -> Expr:
        """An exposed stack may stand on ``square``: the kernel's A13 removes no
        remainder there (:func:`castlerules.ascent.kernel.removal_on`: the lower half,
        unless ``removal_in_lower_half``), or ``allow_exposing_split`` (rule 15)."""
        removal = kernel.removal_on(
            Z3, self.opt.removal_in_lower_half, self.shape.upper_half, square
        )
        return any_of([self.opt.allow_exposing_split, neg(removal)])

    def stack_of(self, s: KState, q: Expr, square: Expr, size: Expr) -> Expr:
        """Column ``q`` has a stack of at least ``size`` cards on ``square``."""
        return any_of(
            all_of([s.col[j] == q, s.sq[j] == square, s.dep[j] == size - 1]) for j in self.slots
        )

    # ----------------------------------------------------------- the invariant
    def invariant(self, s: KState) -> list[tuple[str, Expr]]:
        """The inductive invariant, as named conjuncts (clause IDs in the names)."""
        n, slots, top = self.n, self.slots, self.squares
        pairs = [(j, k) for j in slots for k in slots if j < k]
        return [
            (
                "domain: column, square, depth",
                all_of(
                    all_of(
                        [
                            between(s.col[j], 0, n - 1),
                            between(s.sq[j], REMOVED, top),
                            s.dep[j] >= 0,
                        ]
                    )
                    if self.shape.rules.deal == "sets"
                    else ite(
                        s.own[j] == -1,
                        # A18: a card left over by the deal is out of play for good
                        all_of([s.col[j] == -1, s.sq[j] == REMOVED, s.dep[j] == 0, neg(s.flp[j])]),
                        all_of(
                            [
                                between(s.own[j], 0, n - 1),
                                between(s.col[j], 0, n - 1),
                                between(s.sq[j], REMOVED, top),
                                s.dep[j] >= 0,
                            ]
                        ),
                    )
                    for j in slots
                ),
            ),
            (
                "turn: the seat, the step (rule 16)",
                all_of(
                    [
                        between(s.actor, -1, n - 1),
                        implies(
                            neg(s.mid),
                            all_of([s.sd == 0, s.sm == 0, s.sk == 0]),
                        ),
                        implies(
                            s.mid,
                            all_of(
                                [
                                    s.actor >= 0,
                                    between(s.sd, 1, top),
                                    s.sm >= 1,
                                    s.sk >= 0,
                                    self.stack_of(s, s.actor, s.sd, s.sm),
                                ]
                            ),
                        ),
                    ]
                ),
            ),
            (
                "rule 7: a Start card is alone, its owner's, unflipped",
                all_of(
                    implies(
                        s.sq[j] == 0,
                        all_of([s.col[j] == s.own[j], s.dep[j] == 0, neg(s.flp[j])]),
                    )
                    for j in slots
                ),
            ),
            (
                "A13: a removed card is in a pile, unflipped",
                all_of(
                    implies(s.sq[j] == REMOVED, all_of([s.dep[j] == 0, neg(s.flp[j])]))
                    for j in slots
                ),
            ),
            (
                "A3: one card per place of a stack, the stack wholly flipped or not",
                all_of(
                    implies(
                        self.together(s, j, k),
                        all_of([s.dep[j] != s.dep[k], s.flp[j] == s.flp[k]]),
                    )
                    for j, k in pairs
                ),
            ),
            (
                "A3: a stack has no gap (a card under every card but the bottom's)",
                all_of(
                    implies(
                        all_of([s.sq[j] >= 1, s.dep[j] >= 1]),
                        any_of(
                            all_of([self.together(s, j, k), s.dep[k] == s.dep[j] - 1])
                            for k in slots
                            if k != j
                        ),
                    )
                    for j in slots
                ),
            ),
            (
                "A8: a flipped stack stands on its rank's arrival square",
                all_of(
                    implies(all_of([s.flp[j], s.dep[j] == 0]), s.sq[j] == self.ceiling(s, j))
                    for j in slots
                ),
            ),
            (
                "A6/A7/A13: a stack stands at or below its rank's arrival square, or is an "
                "exposed remainder where rule 15 lets it stay",
                all_of(
                    implies(
                        all_of([s.sq[j] >= 1, s.dep[j] == 0, s.sq[j] > self.ceiling(s, j)]),
                        self.may_stay(s.sq[j]),
                    )
                    for j in slots
                ),
            ),
        ]
