"""A thin, typed layer over Z3, so that ``Any`` stays inside this module's aliases.

Z3 ships no type stubs: every Z3 term is typed :data:`Expr` (an alias of
``Any``, documented as "a Z3 expression").  The helpers below build the few
shapes the encodings use (bounded sums, if-chains, cardinality) and run the
two kinds of query the proofs need:

- :func:`valid`: is ``hypotheses => goal`` true for every value of the free
  variables?  Asked as the unsatisfiability of ``hypotheses and not goal``;
  a model, when there is one, is a counterexample to the implication.
- :func:`satisfiable`: a model of some constraints (a witness), or ``None``.

>>> x = int_var("x")
>>> valid(x * x >= 0, [x >= -3, x <= 3]).holds
True
>>> outcome = valid(x < 3, [x >= 0, x <= 3])
>>> outcome.holds, model_int(outcome.model, x)
(False, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

import attrs
import z3

Expr: TypeAlias = Any
"""A Z3 expression (Z3 has no type stubs; the alias marks every place one flows)."""

Model: TypeAlias = Any
"""A Z3 model."""

Solver: TypeAlias = Any
"""A Z3 solver."""

TIMEOUT_MS = 120_000
"""Per-query timeout: a query that times out is reported as not proved, never as proved."""


def int_var(name: str) -> Expr:
    """A fresh integer variable."""
    return z3.Int(name)


def bool_var(name: str) -> Expr:
    """A fresh Boolean variable."""
    return z3.Bool(name)


def lit(value: int | bool) -> Expr:
    """A constant: ``IntVal`` or ``BoolVal``."""
    if isinstance(value, bool):
        return z3.BoolVal(value)
    return z3.IntVal(value)


def _fast(make: Any, items: list[Expr], kind: type) -> Expr | None:
    """``make`` (a Z3 C constructor of an n-ary term) applied to ``items`` directly,
    when every item is already a Z3 term of ``kind`` in one context; else ``None``.

    The Python wrappers (``z3.And``, ``z3.Sum``...) coerce every argument one by
    one; the proofs build millions of terms, so this skips that work when there
    is nothing to coerce.
    """
    first = items[0]
    if not all(type(x) is kind for x in items):
        return None
    ctx = first.ctx
    if any(x.ctx is not ctx for x in items):
        return None
    array = (z3.Ast * len(items))()
    for i, x in enumerate(items):
        array[i] = x.as_ast()
    return kind(make(ctx.ref(), len(items), array), ctx)


def all_of(items: Iterable[Expr]) -> Expr:
    """Conjunction (``True`` when empty)."""
    items = list(items)
    if not items:
        return z3.BoolVal(True)
    if len(items) == 1:
        return items[0]
    fast = _fast(z3.Z3_mk_and, items, z3.BoolRef)
    return fast if fast is not None else z3.And(*items)


def any_of(items: Iterable[Expr]) -> Expr:
    """Disjunction (``False`` when empty)."""
    items = list(items)
    if not items:
        return z3.BoolVal(False)
    if len(items) == 1:
        return items[0]
    fast = _fast(z3.Z3_mk_or, items, z3.BoolRef)
    return fast if fast is not None else z3.Or(*items)


_TERMS = (z3.BoolRef, z3.ArithRef, z3.IntNumRef)


def ite(cond: Expr, then: Expr, other: Expr) -> Expr:
    """``If(cond, then, other)``; built by the C API when the three are Z3 terms of
    one context and the branches of one sort (else by ``z3.If``, which coerces)."""
    if type(cond) is z3.BoolRef and type(then) in _TERMS and type(other) in _TERMS:
        ctx = cond.ctx
        if then.ctx is ctx and other.ctx is ctx:
            ref = ctx.ref()
            a, b = then.as_ast(), other.as_ast()
            if z3.Z3_is_eq_sort(ref, z3.Z3_get_sort(ref, a), z3.Z3_get_sort(ref, b)):
                kind = z3.BoolRef if type(then) is z3.BoolRef else z3.ArithRef
                return kind(z3.Z3_mk_ite(ref, cond.as_ast(), a, b), ctx)
    return z3.If(cond, then, other)


def neg(expr: Expr) -> Expr:
    """``Not(expr)``."""
    return z3.Not(expr)


def implies(a: Expr, b: Expr) -> Expr:
    """``Implies(a, b)``."""
    return z3.Implies(a, b)


def total(items: Iterable[Expr]) -> Expr:
    """Sum of integer expressions (0 when empty)."""
    items = list(items)
    if not items:
        return z3.IntVal(0)
    if len(items) == 1:
        return items[0]
    fast = _fast(z3.Z3_mk_add, items, z3.ArithRef)
    return fast if fast is not None and fast.is_int() else z3.Sum(*items)


def count(conditions: Iterable[Expr]) -> Expr:
    """How many of the Boolean expressions hold."""
    return total(_indicator(c) for c in conditions)


def _indicator(cond: Expr) -> Expr:
    """``If(cond, 1, 0)``; built by the C API when ``cond`` is a Z3 Boolean (the
    Python ``z3.If`` coerces and checks each argument: most of a proof's Python time)."""
    if type(cond) is not z3.BoolRef:
        return z3.If(cond, 1, 0)
    ctx = cond.ctx
    one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
    return z3.ArithRef(z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), one.as_ast(), zero.as_ast()), ctx)


def table(index: Expr, values: Sequence[int], default: int = 0) -> Expr:
    """``values[index]`` for a symbolic ``index`` (an if-chain; ``default`` outside)."""
    out = z3.IntVal(default)
    for i in range(len(values) - 1, -1, -1):
        out = z3.If(index == i, values[i], out)
    return out


def select(index: Expr, items: Sequence[Expr]) -> Expr:
    """``items[index]`` for a symbolic ``index`` in ``range(len(items))`` (if-chain)."""
    out = items[-1]
    for i in range(len(items) - 2, -1, -1):
        out = z3.If(index == i, items[i], out)
    return out


def at_most_one(items: Sequence[Expr]) -> Expr:
    """At most one of the Boolean expressions holds (a cardinality constraint)."""
    if len(items) <= 1:
        return z3.BoolVal(True)
    return z3.AtMost(*items, 1)


def between(expr: Expr, low: int, high: int) -> Expr:
    """``low <= expr <= high``."""
    return z3.And(expr >= low, expr <= high)


def model_int(model: Model, expr: Expr) -> int:
    """The value of ``expr`` in ``model`` (completed: unconstrained terms read 0)."""
    return int(model.eval(expr, model_completion=True).as_long())


@attrs.frozen(slots=True)
class Outcome:
    """The answer to one query: ``holds`` and, when it does not, a model."""

    holds: bool
    model: Model = None
    unknown: bool = False
    """True when Z3 gave up (timeout): then ``holds`` is False, and there is no model."""


PREPROCESS = ("simplify", "solve-eqs", "smt")
"""The tactic of :func:`new_solver` with ``preprocess=True``: simplify and
eliminate the equations first (for the induction steps; the counting queries
run without it)."""

PREPROCESS_SMT = {"arith.solver": 2}
"""The parameters of :data:`PREPROCESS`'s last tactic, ``smt``: Z3's older arithmetic
solver, which takes the Throne induction steps in about three quarters of the time
of the default one (the counting queries, without the tactic, keep the default)."""


def new_solver(timeout_ms: int = TIMEOUT_MS, preprocess: bool = False) -> Any:
    """A fresh solver with a deterministic seed and a timeout (``preprocess``:
    the :data:`PREPROCESS` tactic in front of the SMT core)."""
    if preprocess:
        last = z3.With(PREPROCESS[-1], **PREPROCESS_SMT)
        solver = z3.Then(*PREPROCESS[:-1], last).solver()
    else:
        solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.set("random_seed", 0)
    return solver


def valid(
    goal: Expr,
    hypotheses: Sequence[Expr] = (),
    timeout_ms: int = TIMEOUT_MS,
    solver: Solver = None,
    preprocess: bool = False,
) -> Outcome:
    """Whether ``And(hypotheses) => goal`` holds for all values of the free variables.

    With ``solver``, the query is asked inside it (between ``push`` and
    ``pop``), on top of the assertions it already holds.
    """
    own = solver is None
    if own:
        solver = new_solver(timeout_ms, preprocess)
    else:
        solver.push()
    try:
        solver.add(*hypotheses)
        solver.add(z3.Not(goal))
        answer = solver.check()
        if answer == z3.unsat:
            return Outcome(True)
        if answer == z3.sat:
            return Outcome(False, solver.model())
        return Outcome(False, None, unknown=True)
    finally:
        if not own:
            solver.pop()


def satisfiable(constraints: Sequence[Expr], timeout_ms: int = TIMEOUT_MS) -> Model | None:
    """A model of ``constraints``, or ``None`` when there is none (or on timeout)."""
    solver = new_solver(timeout_ms)
    solver.add(*constraints)
    if solver.check() == z3.sat:
        return solver.model()
    return None


def is_sat(answer: Any) -> bool:
    """Whether a ``check()`` answer is ``sat``."""
    return bool(answer == z3.sat)


def is_unsat(answer: Any) -> bool:
    """Whether a ``check()`` answer is ``unsat``."""
    return bool(answer == z3.unsat)


class Abstraction:
    """The indicator abstraction: each given indicator term ``If(c, 1, 0)`` replaced
    by a fresh integer variable, fixed once, so that the formulas every query
    shares (the invariant, the cuts) are substituted once and reused.

    Sound for refutation: a model of the formulas gives a model of their
    abstraction (each variable takes its indicator's value), so if the
    abstraction is unsatisfiable, so are the formulas.  Together with the
    ``cuts``, valid linear facts about the indicators (stated on the indicators
    before the replacement, and asserted with every abstract query), this turns
    counting arguments into linear programming, which Z3 settles without
    splitting on every indicator.
    """

    def __init__(self, indicators: Sequence[Expr], cuts: Sequence[Expr]) -> None:
        self.pairs = [(term, z3.FreshInt("ind")) for term in indicators]
        self.cuts = tuple(cuts)
        self._memo: dict[int, tuple[Expr, Expr]] = {}
        # The substitution's two arrays, built once (z3.substitute rebuilds and
        # checks them at every call).
        k = len(self.pairs)
        self._from, self._to = (z3.Ast * k)(), (z3.Ast * k)()
        for i, (term, var) in enumerate(self.pairs):
            if not term.sort().eq(var.sort()):
                raise ValueError(f"indicator {term} is not an integer term")
            self._from[i], self._to[i] = term.as_ast(), var.as_ast()

    def _one(self, formula: Expr) -> Expr:
        """``formula`` with every indicator replaced (memoised on its identity; the
        formula is kept alive with the entry, so that its identity is not reused)."""
        hit = self._memo.get(formula.get_id())
        if hit is None:
            ctx = formula.ctx
            done = z3.Z3_substitute(
                ctx.ref(), formula.as_ast(), len(self.pairs), self._from, self._to
            )
            hit = (formula, z3.BoolRef(done, ctx))
            self._memo[formula.get_id()] = hit
        return hit[1]

    def apply(self, formulas: Sequence[Expr]) -> Expr:
        """The conjunction of ``formulas`` with every indicator replaced (each formula
        substituted once, then reused by every query that has it)."""
        return all_of([self._one(f) for f in formulas])

    def refutes(self, hypotheses: Sequence[Expr], goal: Expr, timeout_ms: int) -> bool:
        """Whether the abstraction alone proves ``hypotheses => goal`` (sound; a
        ``False`` answer only means the exact query must decide)."""
        formulas = [self.apply(hypotheses), self.apply(self.cuts), self.apply([z3.Not(goal)])]
        return valid(z3.BoolVal(False), formulas, timeout_ms=timeout_ms).holds
