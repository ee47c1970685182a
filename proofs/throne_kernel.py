"""The Throne model against the rule kernel, for every position of the invariant.

The kernel (:mod:`castlerules.throne.kernel`) run on Z3 terms
(:data:`castlerules.symbolic.Z3`) gives, for each move number, the legality
and the successor as formulas.  :func:`tie` proves, for every move number of
:func:`castlerules.throne.kernel.universe_of` and every state of the model that
satisfies its inductive invariant (not only the reachable states of small
games), with the Boolean options left symbolic as in the proofs, that

- the model's ``legal_move`` is the kernel's guards (always);
- with ``successors``: each of the model's cases leads to the kernel's successor
  (castle, phase, seat to act, No cards, votes, passes, totals with the round's
  scores, the next objectives), assuming the election bookkeeping of
  :func:`_bookkeeping` (what the model's election fields mean, which the model's
  invariant does not state), itself proved by induction next to the invariant
  (:func:`bookkeeping`); the round ends use the score
  lemmas of :func:`_favourite_points` and :func:`_kernel_points`, proved first.

``python -m proofs.throne_kernel [--successors]`` prints one line per configuration.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import attrs
from z3 import is_false

from castlerules import throne
from castlerules.symbolic import Z3
from castlerules.throne import kernel
from castlerules.throne.kernel import KState
from proofs.smt import Expr, all_of, any_of, implies, ite, lit, neg, simplify, total, valid
from proofs.throne import Config, configs
from proofs.throne_model import (
    ELECT,
    K_CLIMB,
    K_PASS,
    K_PLACE,
    K_VOTE,
    OVER,
    ThroneSystem,
    TMove,
    TState,
)


def kernel_view(system: ThroneSystem, s: TState) -> KState:
    """The kernel's position of a model state: the votes cast face down from the mover
    on (``voted`` seats after ``mover``), ``turn`` -1 once over."""
    n = system.n
    votes = []
    for q in system.seats:
        cast = any_of(
            all_of([s.mover == m, s.voted > k])
            for m in range(n)
            for k in range(n)
            if (m + k) % n == q
        )
        votes.append(ite(all_of([s.phase == ELECT, cast]), ite(s.said_no[q], 0, 1), lit(-1)))
    return KState(
        rnd=s.rnd,
        phase=s.phase,
        turn=ite(s.phase == OVER, -1, s.turn),
        fl=s.fl,
        no=s.no,
        votes=tuple(votes),
        passes=s.passes,
        total=s.total,
        obj=s.obj,
    )


def model_move(system: ThroneSystem, move: throne.Move, nobj: TMove) -> TMove:
    """The model's move of a kernel move (with the chance outcome of ``nobj``)."""
    letters = system.p.rules.letters()
    if isinstance(move, throne.Place):
        parts = (K_PLACE, letters.index(move.character), move.floor, False)
    elif isinstance(move, throne.Climb):
        parts = (K_CLIMB, letters.index(move.character), 0, False)
    elif isinstance(move, throne.Vote):
        parts = (K_VOTE, 0, 0, move.yes)
    else:
        parts = (K_PASS, 0, 0, False)
    kind, ch, floor, yes = parts
    return TMove(lit(kind), lit(ch), lit(floor), lit(yes), nobj.nobj)


def _equal(a: KState, b: KState) -> Expr:
    parts = []
    for f in attrs.fields(KState):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "obj":
            parts += [
                p == q
                for row_a, row_b in zip(x, y, strict=True)
                for p, q in zip(row_a, row_b, strict=True)
            ]
        elif isinstance(x, tuple):
            parts += [p == q for p, q in zip(x, y, strict=True)]
        else:
            parts.append(x == y)
    return all_of(parts)


def _bookkeeping(system: ThroneSystem, s: TState) -> list[Expr]:
    """What the model's election fields mean in a reachable state, which its invariant
    does not state: the seat to act is the ``voted``-th after the mover, and a seat that
    has not voted yet has not said No (the kernel's ``votes`` cannot hold anything else).
    Proved inductive relative to the invariant by :func:`bookkeeping`."""
    n = system.n
    turn = any_of(
        all_of([s.mover == m, s.voted == k, s.turn == (m + k) % n])
        for m in range(n)
        for k in range(n)
    )
    view = kernel_view(system, s)
    fresh = [implies(view.votes[q] == -1, neg(s.said_no[q])) for q in system.seats]
    return [implies(s.phase == ELECT, turn), *fresh]


def _favourite_points(system: ThroneSystem, favourite: Expr, floor: Expr) -> Expr:
    """A favourite's points (B14) as the model sums them: one indicator per floor."""
    return total(
        system.points(f) * ite(all_of([favourite, floor == f]), 1, 0)
        for f in system.floors
        if system.points(f)
    )


def _kernel_points(shape: kernel.Shape, favourite: Expr, floor: Expr) -> Expr:
    """A favourite's points (B14) as the kernel reads them (a table lookup)."""
    return Z3.ite(favourite, Z3.lookup(shape.points, floor, low=-1), 0)


def bookkeeping(system: ThroneSystem) -> tuple[list[str], int]:
    """The election bookkeeping (:func:`_bookkeeping`) by induction on the model, next
    to its invariant: it holds of a new game, and every case keeps it.  Returns the
    obligations that failed and how many were asked."""
    start = system.fresh_state("b0")
    out = []
    if not valid(all_of(_bookkeeping(system, start)), [system.init(start)]).holds:
        out.append("bookkeeping: initiation")
    pre, move = system.fresh_state("b"), system.fresh_move("bm")
    hyps = [
        *(c for _n, c in system.invariant(pre)),
        system.chance(pre, move),
        *_bookkeeping(system, pre),
    ]
    cases = system.cases(pre, move)
    for case in cases:
        if not valid(all_of(_bookkeeping(system, case.post)), [*hyps, case.guard]).holds:
            out.append(f"bookkeeping: {case.label}")
    return out, 1 + len(cases)


@attrs.frozen(slots=True)
class Tie:
    """One configuration's result."""

    label: str
    moves: int
    queries: int
    seconds: float
    failures: tuple[str, ...]

    def line(self) -> str:
        verdict = (
            "model = kernel" if not self.failures else "DIFFERS: " + "; ".join(self.failures[:3])
        )
        return (
            f"{self.label}: {self.moves} move numbers, {self.queries} queries, "
            f"{self.seconds:.1f} s: {verdict}"
        )


def tie(
    config: Config,
    successors: bool = False,
    timeout_ms: int = 60_000,
    only: Sequence[str] = (),
) -> Tie:
    """Prove the model's legality and successor equal to the kernel's for every move
    number, under the model's invariant, on one configuration."""
    started = time.perf_counter()
    system = config.system()
    p = system.p
    shape = kernel.Shape.of(config.rules, config.players)
    options = kernel.Options(
        allow_pass=p.allow_pass,
        reset=p.reset,
        rotates=p.rotates,
        from_first=p.from_first,
        equal=lit(config.rules.equal_placement),
    )
    pre = system.fresh_state("t")
    chance = system.fresh_move("c")
    hyps = [
        *(c for _n, c in system.invariant(pre)),
        system.chance(pre, chance),
        *_bookkeeping(system, pre),
    ]
    view = kernel_view(system, pre)
    position = kernel.Position(Z3, shape, options, view)
    failures: list[str] = []
    queries = 0
    # The score of a favourite in the two forms (the model's linear sum over floors,
    # the kernel's lookup) at each castle a round can end with: lemmas, proved first.
    castles = (pre.fl, tuple(ite(x == p.top, -1, x) for x in pre.fl))
    lemmas = [
        _favourite_points(system, pre.obj[q][c], x) == _kernel_points(shape, pre.obj[q][c], x)
        for x_row in castles
        for q in system.seats
        for c, x in enumerate(x_row)
    ]
    if successors:
        queries += 1
        if not valid(all_of(lemmas), []).holds:
            failures.append("the score lemmas")
        found, asked = bookkeeping(system)
        failures += found
        queries += asked
    for a, move in enumerate(shape.moves):
        if only and str(move) not in only:
            continue
        m = model_move(system, move, chance)
        checks = kernel.guards(position, kernel.decode(position, a))
        queries += 1
        k_legal = kernel.legal(Z3, checks)
        if not valid(system.legal_move(pre, m) == k_legal, hyps).holds:
            failures.append(f"{move}: legality")
        if not successors:
            continue
        outcome = kernel.step(position, kernel.decode(position, a), chance.nobj)
        for case in system.cases(pre, m):
            guard = simplify(case.guard)
            if is_false(guard):
                continue
            queries += 1
            goal = _equal(kernel_view(system, case.post), outcome.post)
            extra = lemmas if case.scored else []
            if not valid(goal, [*hyps, guard, *extra], timeout_ms=timeout_ms).holds:
                failures.append(f"{move}: successor ({case.label})")
    return Tie(
        config.label, len(shape.moves), queries, time.perf_counter() - started, tuple(failures)
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Tie every configuration of the proofs (``--successors``: the successors too, about
    a minute per configuration); exit 1 on a difference."""
    args = list(sys.argv[1:] if argv is None else argv)
    successors = "--successors" in args
    failed = False
    for config in configs():
        result = tie(config, successors=successors)
        print(result.line(), flush=True)
        failed = failed or bool(result.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
