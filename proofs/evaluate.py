"""Run a model's own Z3 formulas on concrete values, fast: compiled to Python.

The exhaustive equivalence check (:mod:`proofs.equivalence`) asks the model
about every (position, move) pair of a small game: hundreds of thousands of
questions.  Asking Z3 (a solver, or ``Model.eval``) costs about 2 ms each;
this module translates the formulas once into a straight-line Python
function of the free variables (one assignment per node of the term DAG),
which answers in tens of microseconds.  It is the *same* formula: every node
kind is translated by its Z3 meaning, and an unknown kind is an error, never
a guess (:class:`Unsupported`).

>>> import z3
>>> x, b = z3.Int("x"), z3.Bool("b")
>>> run = compile_terms([x, b], [z3.If(b, x + 1, 2 * x), z3.And(b, x >= 3)])
>>> run([4, True]), run([4, False])
([5, True], [8, False])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import z3

from proofs.smt import Expr

Value = int | bool
Compiled = Callable[[Sequence[Value]], list[Value]]


class Unsupported(ValueError):
    """A formula uses a Z3 operator this translation does not know."""


_NARY = {
    z3.Z3_OP_AND: " and ",
    z3.Z3_OP_OR: " or ",
    z3.Z3_OP_ADD: " + ",
    z3.Z3_OP_MUL: " * ",
}
_BINARY = {
    z3.Z3_OP_LE: "<=",
    z3.Z3_OP_LT: "<",
    z3.Z3_OP_GE: ">=",
    z3.Z3_OP_GT: ">",
    z3.Z3_OP_EQ: "==",
}


def compile_terms(inputs: Sequence[Expr], outputs: Sequence[Expr]) -> Compiled:
    """A Python function: the values of ``inputs`` (Z3 constants, in order) to the
    values of ``outputs``.  Every free constant of ``outputs`` must be an input."""
    names: dict[int, str] = {}
    for i, var in enumerate(inputs):
        names[var.get_id()] = f"v[{i}]"
    lines: list[str] = []

    def name_of(expr: Expr) -> str:
        # Iterative post-order over the DAG (terms are deep: no recursion).
        stack: list[tuple[Expr, bool]] = [(expr, False)]
        while stack:
            node, ready = stack.pop()
            key = node.get_id()
            if key in names:
                continue
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in node.children() if c.get_id() not in names)
                continue
            names[key] = _emit(node, [names[c.get_id()] for c in node.children()], lines)
        return names[expr.get_id()]

    results = [name_of(e) for e in outputs]
    body = "\n".join(f"    {line}" for line in lines)
    source = f"def run(v):\n{body}\n    return [{', '.join(results)}]\n"
    scope: dict[str, object] = {}
    exec(compile(source, "<compiled model>", "exec"), scope)
    run = scope["run"]
    assert callable(run)
    return run


def _emit(node: Expr, args: list[str], lines: list[str]) -> str:
    """The Python name (or literal) of one node; its definition appended to ``lines``."""
    if z3.is_int_value(node):
        return str(node.as_long())
    if z3.is_true(node):
        return "True"
    if z3.is_false(node):
        return "False"
    if z3.is_const(node):
        raise Unsupported(f"free constant {node} is not an input")
    kind = node.decl().kind()
    if kind in _NARY:
        text = _NARY[kind].join(args)
    elif kind in _BINARY and len(args) == 2:
        text = f"{args[0]} {_BINARY[kind]} {args[1]}"
    elif kind == z3.Z3_OP_NOT:
        text = f"not {args[0]}"
    elif kind == z3.Z3_OP_IMPLIES:
        text = f"(not {args[0]}) or {args[1]}"
    elif kind == z3.Z3_OP_ITE:
        text = f"{args[1]} if {args[0]} else {args[2]}"
    elif kind == z3.Z3_OP_SUB:
        text = " - ".join(args)
    elif kind == z3.Z3_OP_UMINUS:
        text = f"-{args[0]}"
    elif kind == z3.Z3_OP_DISTINCT:
        text = f"len({{{', '.join(args)}}}) == {len(args)}"
    else:
        raise Unsupported(f"operator {node.decl()} ({kind}) in {str(node)[:80]}")
    temp = f"t{len(lines)}"
    lines.append(f"{temp} = {text}")
    return temp
