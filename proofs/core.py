"""What every proof returns, and the two generic procedures: induction and BMC.

A property is proved for a *transition system* given by four functions over
symbolic states (see :class:`System`): fresh variables, the initial states,
the legal moves and the successor.  The procedures are written once here:

- :func:`induction`: ``Init => Inv`` and ``Inv and Legal(m) => Inv(step(m))``,
  each as one validity query per named conjunct, so that a failure names the
  conjunct that is not inductive;
- :func:`bmc`: bounded model checking from the initial states, depth by depth,
  returning the first model whose last state is bad (a counterexample, or a
  witness when "bad" is the target to reach).

A :class:`Result` is what the command line prints and the documentation
draws: the property, the clause IDs it proves, the method, whether it holds,
the time it took and, for witnesses and counterexamples, the engine positions
(in the game's notation) and the moves, replayed through the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Generic, Protocol, TypeVar

import attrs

from castlerules.symbolic.smt import (
    Abstraction,
    Expr,
    Model,
    Outcome,
    Solver,
    all_of,
    any_of,
    at_most_one,
    is_sat,
    new_solver,
    satisfiable,
    valid,
)

ABSTRACT_TIMEOUT_MS = 5_000
"""Budget of the abstract attempt of a query before the exact query is asked."""

S = TypeVar("S")
M = TypeVar("M")
S_co = TypeVar("S_co", covariant=True)


@attrs.frozen(slots=True)
class Trace:
    """A game from its first position: ``positions[0]``, then ``moves[i]`` leads to
    ``positions[i + 1]``.  Positions are in the game's position notation
    (``to_text``), moves in its move notation (``str(move)``); ``options`` are
    the ``Rules`` options that differ from the default, as ``name=value`` text.
    """

    game: str
    players: int
    options: tuple[str, ...]
    positions: tuple[str, ...]
    moves: tuple[str, ...]
    note: str = ""

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {
            "game": self.game,
            "players": self.players,
            "options": list(self.options),
            "positions": list(self.positions),
            "moves": list(self.moves),
            "note": self.note,
        }

    @classmethod
    def from_json(cls, item: dict[str, Any]) -> Trace:
        """The trace :meth:`to_json` wrote."""
        return cls(
            game=item["game"],
            players=item["players"],
            options=tuple(item["options"]),
            positions=tuple(item["positions"]),
            moves=tuple(item["moves"]),
            note=item["note"],
        )


@attrs.frozen(slots=True)
class Result:
    """The outcome of one property.

    ``expected`` is what the property should give: ``True`` for a theorem,
    ``False`` for a sensitivity check (a deliberately wrong rule must be
    refuted).  ``ok`` is whether ``holds`` is what was expected.
    """

    name: str
    game: str
    title: str
    clauses: tuple[str, ...]
    method: str
    depth: int | None
    holds: bool
    seconds: float
    queries: int
    scope: str
    detail: str = ""
    expected: bool = True
    trace: Trace | None = None

    @property
    def ok(self) -> bool:
        """Whether the property came out as expected (proved, or refuted on purpose)."""
        return self.holds == self.expected

    @property
    def verdict(self) -> str:
        """``proved``, ``refuted``, ``witness`` or ``FAILED`` (not as expected)."""
        if not self.ok:
            return "FAILED"
        if self.method.startswith(("BMC", "witness")) and self.holds:
            return "witness"
        return "proved" if self.holds else "refuted"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {
            "name": self.name,
            "game": self.game,
            "title": self.title,
            "clauses": list(self.clauses),
            "method": self.method,
            "depth": self.depth,
            "holds": self.holds,
            "expected": self.expected,
            "ok": self.ok,
            "verdict": self.verdict,
            "seconds": round(self.seconds, 3),
            "queries": self.queries,
            "scope": self.scope,
            "detail": self.detail,
            "trace": None if self.trace is None else self.trace.to_json(),
        }

    @classmethod
    def from_json(cls, item: dict[str, Any]) -> Result:
        """The result :meth:`to_json` wrote (``ok`` and ``verdict`` are derived)."""
        trace = item["trace"]
        return cls(
            name=item["name"],
            game=item["game"],
            title=item["title"],
            clauses=tuple(item["clauses"]),
            method=item["method"],
            depth=item["depth"],
            holds=item["holds"],
            seconds=item["seconds"],
            queries=item["queries"],
            scope=item["scope"],
            detail=item["detail"],
            expected=item["expected"],
            trace=None if trace is None else Trace.from_json(trace),
        )


class ProofFailure(Exception):
    """A proof obligation that does not hold: names the obligation and the case."""

    def __init__(self, message: str, model: Model = None) -> None:
        super().__init__(message)
        self.model = model


class Ledger:
    """Counts the queries of one property and raises on the first failure."""

    def __init__(self) -> None:
        self.queries = 0
        self.started = time.perf_counter()

    def check(
        self,
        what: str,
        goal: Expr,
        hypotheses: Sequence[Expr] = (),
        solver: Solver = None,
        abstraction: Abstraction | None = None,
        preprocess: bool = False,
    ) -> None:
        """Prove ``hypotheses => goal`` or raise :class:`ProofFailure` naming ``what``.

        With an ``abstraction`` (indicator terms and valid linear facts about
        them, the *cuts*, proved separately), the query is first tried on its
        indicator abstraction (:class:`castlerules.symbolic.smt.Abstraction`), which settles
        counting arguments by linear reasoning; if that does not refute the
        negated goal, the exact query decides.  With ``solver``, the query runs
        in it (``push``/``pop``); ``preprocess`` picks the equation-solving
        tactic (:func:`castlerules.symbolic.smt.new_solver`).
        """
        self.queries += 1
        if abstraction is not None and abstraction.refutes(
            hypotheses, goal, timeout_ms=ABSTRACT_TIMEOUT_MS
        ):
            return
        outcome: Outcome = valid(goal, list(hypotheses), solver=solver, preprocess=preprocess)
        if not outcome.holds:
            reason = "Z3 gave up (timeout)" if outcome.unknown else "counterexample found"
            raise ProofFailure(f"{what}: {reason}", outcome.model)

    def check_all(
        self,
        what: str,
        goals: Sequence[tuple[str, Expr]],
        hypotheses: Sequence[Expr] = (),
        solver: Solver = None,
        abstraction: Abstraction | None = None,
        preprocess: bool = False,
    ) -> None:
        """Prove every named goal at once; on failure, find and name the failing one."""
        try:
            self.check(
                what, all_of(g for _n, g in goals), hypotheses, solver, abstraction, preprocess
            )
        except ProofFailure:
            for name, goal in goals:
                self.check(f"{what}: {name}", goal, hypotheses, solver, abstraction, preprocess)
            raise

    def satisfiable(self, what: str, constraints: Sequence[Expr]) -> Model:
        """A model of ``constraints`` (a premise of a proof is not empty), or raise
        :class:`ProofFailure`: a theorem over an empty set of states proves nothing,
        so an unsatisfiable premise fails the property instead of "proving" it."""
        self.queries += 1
        model = satisfiable(list(constraints))
        if model is None:
            raise ProofFailure(f"{what}: unsatisfiable, the proof would be vacuous")
        return model

    def seconds(self) -> float:
        """Time since the ledger was opened."""
        return time.perf_counter() - self.started


class GuardedCase(Protocol[S_co]):
    """One case of a transition: ``guard`` (implies the move is legal) and ``post``."""

    @property
    def label(self) -> str: ...

    @property
    def guard(self) -> Expr: ...

    @property
    def post(self) -> S_co: ...


class System(Protocol[S, M]):
    """A transition system over symbolic states ``S`` and symbolic moves ``M``.

    ``cases`` gives the transition as guarded commands: mutually exclusive
    guards that together cover every legal move; ``step`` is their fold.
    """

    def fresh_state(self, tag: str) -> S:
        """A state of fresh variables, named with ``tag``."""
        ...

    def fresh_move(self, tag: str) -> M:
        """A move of fresh variables, named with ``tag``."""
        ...

    def init(self, state: S) -> Expr:
        """The initial states (a new game)."""
        ...

    def legal(self, state: S, move: M) -> Expr:
        """Whether ``move`` is legal in ``state`` (including any chance outcome it holds)."""
        ...

    def chance(self, state: S, move: M) -> Expr:
        """Whether the chance outcome held by ``move`` is possible (``legal`` implies it)."""
        ...

    def cases(self, state: S, move: M) -> Sequence[GuardedCase[S]]:
        """The transition as guarded commands."""
        ...

    def step(self, state: S, move: M) -> S:
        """The successor of ``state`` by ``move`` (meaningful when legal)."""
        ...

    def equal(self, a: S, b: S) -> Expr:
        """Field-wise equality of two states."""
        ...


@attrs.frozen(slots=True)
class Step(Generic[S, M]):
    """One symbolic step of a system, built once and shared by every property
    proved about it: a free state ``pre``, a free ``move``, the guarded
    ``cases`` and the ``chance`` constraint."""

    pre: S
    move: M
    cases: tuple[GuardedCase[S], ...]
    chance: Expr

    @classmethod
    def of(cls, system: System[S, M]) -> Step[S, M]:
        pre = system.fresh_state("p")
        move = system.fresh_move("m")
        return cls(pre, move, tuple(system.cases(pre, move)), system.chance(pre, move))


def induction(
    ledger: Ledger,
    system: System[S, M],
    invariant: Callable[[S], Sequence[tuple[str, Expr]]],
    assumptions: Sequence[Expr] = (),
    step: Step[S, M] | None = None,
    preprocess: bool = False,
    joint: Callable[[GuardedCase[S]], Sequence[tuple[str, Expr]]] | None = None,
    lemmas: Callable[[GuardedCase[S]], Sequence[Expr]] | None = None,
) -> set[tuple[str, str]]:
    """Prove that the conjunction of ``invariant`` is inductive.

    Initiation: ``Init => Inv``.  Consecution, case by case: for each guarded
    command, ``Inv and guard => Inv(post)``; and the case split is sound:
    under ``Inv``, a legal move satisfies exactly one guard (so the step is
    that case's post-state).  ``assumptions`` constrain free option
    variables; ``step`` reuses a step already built (:class:`Step`);
    ``preprocess`` asks the consecution queries with the equation-solving
    tactic.  On failure the :class:`ProofFailure` names the conjunct and the
    case, and carries the counterexample to induction.

    ``joint`` gives, per case, other named goals with the same hypotheses
    (``Inv and guard``): the step obligations of other properties.  They are
    asked in the same query as the case's consecution (a conjunction is valid
    exactly when each conjunct is; one query instead of several, measured
    about half the solver time).  ``lemmas`` gives, per case, valid facts about its
    terms (true for every value of the variables: each case's are proved so, in one
    query, before they join its consecution's hypotheses), which spare the solver a
    counting argument (a case's facts that are not all valid are left out).  Returns
    the ``(name, case label)`` pairs so
    proved; when a joint query fails, the consecution is asked alone (and
    raises if it is the invariant that fails), and that case's other goals are
    left to their properties, which ask them one by one.
    """
    s0 = system.fresh_state("i")
    # No vacuity: the initial states exist (then, by initiation, so do states of
    # the invariant); each move kind's witness is checked apart (proofs.premises).
    ledger.satisfiable("premise: the initial states", [*assumptions, system.init(s0)])
    ledger.check_all("initiation", invariant(s0), [*assumptions, system.init(s0)])
    step = step if step is not None else Step.of(system)
    pre, cases = step.pre, step.cases
    hyps = [*assumptions, *(c for _n, c in invariant(pre))]
    legal = system.legal(pre, step.move)
    ledger.check("the cases cover every legal move", any_of(c.guard for c in cases), [*hyps, legal])
    ledger.check("the cases exclude each other", at_most_one([c.guard for c in cases]), hyps)
    settled: set[tuple[str, str]] = set()
    for case in cases:
        goals = invariant(case.post)
        case_hyps = [*hyps, step.chance, case.guard]
        facts = list(lemmas(case)) if lemmas is not None else []
        if facts:
            # Only a valid fact is a hypothesis; one that is not (a changed rule) is
            # left out, and the consecution is asked without its help.
            ledger.queries += 1
            if valid(all_of(facts)).holds:
                case_hyps += facts
        extra = list(joint(case)) if joint is not None else []
        if extra:
            ledger.queries += 1
            both = all_of([conj(goals), *(g for _n, g in extra)])
            if valid(both, case_hyps, preprocess=preprocess).holds:
                settled.update((name, case.label) for name, _g in extra)
                continue
        # A fresh solver per query: Z3's incremental mode skips preprocessing
        # that these counting arguments need (measured: 10-30x slower).
        ledger.check_all(f"consecution ({case.label})", goals, case_hyps, preprocess=preprocess)
    return settled


@attrs.frozen(slots=True)
class Unrolling(Generic[S, M]):
    """A BMC model: the states and moves of the path, and the model that fixes them."""

    states: tuple[S, ...]
    moves: tuple[M, ...]
    model: Model


def bmc(
    system: System[S, M],
    bad: Callable[[S], Expr],
    depth: int,
    *,
    start: Callable[[S], Expr] | None = None,
    min_depth: int = 0,
    path: Callable[[Sequence[S], Sequence[M]], Expr] | None = None,
    queries: list[int] | None = None,
) -> Unrolling[S, M] | None:
    """Bounded model checking: the shortest path (up to ``depth`` moves) to a bad state.

    ``start`` replaces the initial-state predicate (e.g. a concrete reachable
    position); ``path`` adds constraints on the whole unrolled path (hints
    that only restrict, never widen, the search).  Returns ``None`` when no
    bad state is reachable within ``depth`` moves.
    """
    solver = new_solver()
    states: list[S] = [system.fresh_state("k0")]
    moves: list[M] = []
    first = start if start is not None else system.init
    solver.add(first(states[0]))
    for k in range(depth + 1):
        if k > 0:
            move = system.fresh_move(f"m{k - 1}")
            nxt = system.fresh_state(f"k{k}")
            solver.add(system.legal(states[-1], move))
            solver.add(system.equal(nxt, system.step(states[-1], move)))
            moves.append(move)
            states.append(nxt)
        if k < min_depth:
            continue
        solver.push()
        solver.add(bad(states[-1]))
        if path is not None:
            solver.add(path(states, moves))
        if queries is not None:
            queries.append(1)
        if is_sat(solver.check()):
            model = solver.model()
            return Unrolling(tuple(states), tuple(moves), model)
        solver.pop()
    return None


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """Measure a block: ``with stopwatch() as t: ...`` then ``t[0]`` is the seconds."""
    cell = [0.0]
    started = time.perf_counter()
    try:
        yield cell
    finally:
        cell[0] = time.perf_counter() - started


def conj(items: Sequence[tuple[str, Expr]]) -> Expr:
    """The conjunction of named conjuncts."""
    return all_of(c for _n, c in items)
