"""Run a model's own Z3 formulas on concrete values, fast: compiled to Python.

The exhaustive equivalence check (:mod:`proofs.equivalence`) asks the model
about every (position, move) pair of a small game: hundreds of thousands of
questions.  Instead of asking Z3 (a solver, or ``Model.eval``) each one,
this module translates the formulas once into a straight-line Python
function of the free variables (one assignment per node of the term DAG),
evaluated on plain integers and booleans.  It is the *same* formula: every node
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
from typing import Any

import z3

from castlerules.symbolic.smt import Expr

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
    values of ``outputs``.  Every free constant of ``outputs`` must be an input.

    The term DAG is walked through Z3's C API (raw AST handles, no Python
    wrapper per node): the walk is most of the compilation time."""
    if not outputs:
        return lambda _v: []
    ctx = outputs[0].ctx
    ref = ctx.ref()
    names: dict[int, str] = {}
    for i, var in enumerate(inputs):
        names[z3.Z3_get_ast_id(ref, var.as_ast())] = f"v[{i}]"
    lines: list[str] = []

    def name_of(expr: Expr) -> str:
        # Iterative post-order over the DAG (terms are deep: no recursion).
        root = expr.as_ast()
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            key = z3.Z3_get_ast_id(ref, node)
            if key in names:
                continue
            if not ready:
                stack.append((node, True))
                if z3.Z3_get_ast_kind(ref, node) == z3.Z3_APP_AST:
                    for i in range(z3.Z3_get_app_num_args(ref, node)):
                        child = z3.Z3_get_app_arg(ref, node, i)
                        if z3.Z3_get_ast_id(ref, child) not in names:
                            stack.append((child, False))
                continue
            names[key] = _emit(ref, node, names, lines)
        return names[z3.Z3_get_ast_id(ref, root)]

    results = [name_of(e) for e in outputs]
    body = "\n".join(f"    {line}" for line in lines)
    source = f"def run(v):\n{body}\n    return [{', '.join(results)}]\n"
    scope: dict[str, object] = {}
    exec(compile(source, "<compiled model>", "exec"), scope)
    run = scope["run"]
    assert callable(run)
    return run


def _emit(ref: Any, node: Any, names: dict[int, str], lines: list[str]) -> str:
    """The Python name (or literal) of one node, whose children are named in
    ``names``; its definition appended to ``lines``."""
    kind = z3.Z3_get_ast_kind(ref, node)
    if kind == z3.Z3_NUMERAL_AST:
        return str(int(z3.Z3_get_numeral_string(ref, node)))
    if kind != z3.Z3_APP_AST:
        raise Unsupported(f"not an application: {z3.Z3_ast_to_string(ref, node)[:80]}")
    op = z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, node))
    if op == z3.Z3_OP_TRUE:
        return "True"
    if op == z3.Z3_OP_FALSE:
        return "False"
    args = [
        names[z3.Z3_get_ast_id(ref, z3.Z3_get_app_arg(ref, node, i))]
        for i in range(z3.Z3_get_app_num_args(ref, node))
    ]
    if op == z3.Z3_OP_UNINTERPRETED and not args:
        raise Unsupported(f"free constant {z3.Z3_ast_to_string(ref, node)} is not an input")
    if op in _NARY:
        text = _NARY[op].join(args)
    elif op in _BINARY and len(args) == 2:
        text = f"{args[0]} {_BINARY[op]} {args[1]}"
    elif op == z3.Z3_OP_NOT:
        text = f"not {args[0]}"
    elif op == z3.Z3_OP_IMPLIES:
        text = f"(not {args[0]}) or {args[1]}"
    elif op == z3.Z3_OP_ITE:
        text = f"{args[1]} if {args[0]} else {args[2]}"
    elif op == z3.Z3_OP_SUB:
        text = " - ".join(args)
    elif op == z3.Z3_OP_UMINUS:
        text = f"-{args[0]}"
    elif op == z3.Z3_OP_DISTINCT:
        text = f"len({{{', '.join(args)}}}) == {len(args)}"
    else:
        raise Unsupported(f"operator {op} in {z3.Z3_ast_to_string(ref, node)[:80]}")
    temp = f"t{len(lines)}"
    lines.append(f"{temp} = {text}")
    return temp
