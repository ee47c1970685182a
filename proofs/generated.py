"""Mutations generated from the kernels' guards and the properties' bounds.

The hand list (:mod:`proofs.mutation_list`) keeps the mistakes that cannot be
generated; these are produced mechanically from the source, so that no edit of a
rule has to re-point them:

- for every guard of a kernel (the :class:`~castlerules.core.ops.Guard` records
  :func:`castlerules.throne.kernel.guards` and :func:`castlerules.ascent.kernel.guards`
  return, each named by its refusal): its *removal* (the guard is never broken) and
  its *negation* (broken exactly when it was not);
- for every ordering comparison (``<``, ``<=``, ``>``, ``>=``) of a kernel, on a
  line that occurs once in its file: the off-by-one on each side (``<`` to ``<=``
  and back, ``>`` to ``>=`` and back);
- for every claim of a proved property (the ``CLAIM_*`` numbers of
  :mod:`proofs.throne` and :mod:`proofs.ascent`): its bound loosened by one
  (kind ``bound``: the proof run must fail, through the counter-witnesses of
  :mod:`proofs.strength`).

Each is a :class:`~proofs.mutation_list.Mutation` with the old text found once in
its file, run by the same runner: ``python -m proofs.mutants --generated``.

A generated mutation that no reachable position tells from the kernel (an
*equivalent mutant*) cannot be killed by any test; the ones found are set aside in
:data:`EQUIVALENT`, each with the reason, and :func:`generated` leaves them out
(:func:`equivalent_mutations` lists them; a reason whose mutation the kernels no
longer produce fails the check, so that the list cannot go stale).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

from proofs.mutation_list import Mutation

ROOT = Path(__file__).resolve().parent.parent
KERNELS = {"throne": "castlerules/throne/kernel.py", "ascent": "castlerules/ascent/kernel.py"}
PROPERTY_FILES = {"throne": "proofs/throne.py", "ascent": "proofs/ascent.py"}
_FLIP = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">")}


def _source(path: str, root: Path) -> tuple[str, ast.Module]:
    text = (root / path).read_text(encoding="utf-8")
    return text, ast.parse(text)


def guard_mutations(game: str, root: Path = ROOT) -> list[Mutation]:
    """The removal and the negation of every guard of ``game``'s kernel."""
    path = KERNELS[game]
    text, tree = _source(path, root)
    out: list[Mutation] = []
    for fn in ast.walk(tree):
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "guards"):
            continue
        for node in ast.walk(fn):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("Guard", "guard")  # guard: core.ops.guard, a Guard
                and len(node.args) == 4
            ):
                continue
            clause_node, what_node, broken, refusal_node = node.args
            words = [
                arg.value
                for arg in (clause_node, what_node, refusal_node)
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            ]
            if len(words) != 3:
                continue
            clause, what, refusal = words
            whole = ast.get_source_segment(text, node)
            expr = ast.get_source_segment(text, broken)
            if whole is None or expr is None or text.count(whole) != 1:
                continue
            head = whole[: whole.rindex(expr)]
            tail = whole[whole.rindex(expr) + len(expr) :]
            slug = re.sub(r"\W", "_", refusal)
            for name, new in (("removed", "o.lit(False)"), ("negated", f"o.not_({expr})")):
                out.append(
                    Mutation(
                        f"{game}.generated.guard_{name}.{clause}.{slug}",
                        clause,
                        f"guard '{what}' {name}",
                        path,
                        whole,
                        head + new + tail,
                    )
                )
    return out


def comparison_mutations(game: str, root: Path = ROOT) -> list[Mutation]:
    """The off-by-one of every ordering comparison of ``game``'s kernel (unique lines)."""
    path = KERNELS[game]
    text, tree = _source(path, root)
    lines = text.splitlines(keepends=True)
    out: list[Mutation] = []
    seen: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        op = type(node.ops[0])
        if op not in _FLIP or node.lineno != node.end_lineno:
            continue
        left, right = node.left, node.comparators[0]
        if left.end_lineno != node.lineno or right.lineno != node.lineno:
            continue
        line = lines[node.lineno - 1]
        if text.count(line) != 1 or (node.lineno, node.col_offset) in seen:
            continue
        seen.add((node.lineno, node.col_offset))
        start, end = left.end_col_offset, right.col_offset
        assert start is not None
        gap = line[start:end]
        old_op, new_op = _FLIP[op]
        if gap.strip() != old_op:
            continue
        new_line = line[:start] + gap.replace(old_op, new_op) + line[end:]
        out.append(
            Mutation(
                f"{game}.generated.off_by_one.line{node.lineno}.col{node.col_offset}",
                "-",
                f"'{old_op}' read as '{new_op}' on line {node.lineno}",
                path,
                line,
                new_line,
            )
        )
    return out


def bound_mutations(game: str, root: Path = ROOT) -> list[Mutation]:
    """Every ``CLAIM_*`` number of ``game``'s properties loosened by one (each side of a
    range), kind ``bound``."""
    path = PROPERTY_FILES[game]
    text, tree = _source(path, root)
    out: list[Mutation] = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id.startswith("CLAIM_")):
            continue
        old = ast.get_source_segment(text, node)
        assert old is not None
        value = ast.literal_eval(node.value)
        news: list[tuple[str, object]] = []
        if isinstance(value, int):
            news = [("plus_one", value + 1)]
        elif isinstance(value, tuple) and len(value) == 2:
            news = [
                ("low_minus_one", (value[0] - 1, value[1])),
                ("high_plus_one", (value[0], value[1] + 1)),
            ]
        for label, new in news:
            out.append(
                Mutation(
                    f"{game}.generated.bound.{target.id.lower()}.{label}",
                    "-",
                    f"property claim {target.id} loosened by one ({value} to {new})",
                    path,
                    old + "\n",
                    f"{target.id} = {new!r}\n",
                    kind="bound",
                )
            )
    return out


EQUIVALENT: dict[tuple[str, str, str], str] = {
    (
        "throne",
        "left = o.any(x > 0 for x in fl_out)",
        "left = o.any(x >= 0 for x in fl_out)",
    ): "during a vote every character is placed (the invariant's 'B8 all placed after "
    "placement'), so no floor is 0 and the two tests agree",
    (
        "ascent",
        "guard 'no favour by a stack just flipped (favour_after_arrival=False)'",
        "removed",
    ): "with favour_after_arrival=False a flipping Advance opens no favour step (rule 16), "
    "so the guard is never the first broken: of the 1,532 mid-turn positions of the tie's "
    "scope with that reading, none is on a flipped square",
    (
        "ascent",
        "return ops.all([d > sq, d <= ceiling])",
        "return ops.all([d >= sq, d <= ceiling])",
    ): "within_reach: the square the moving card stands on is occupied (by that card), so "
    "it is never free for it",
    (
        "ascent",
        "return o.all([sq >= 1, has_rest, o.not_(exposing), sq > rest_ceiling])",
        "return o.all([sq > 1, has_rest, o.not_(exposing), sq > rest_ceiling])",
    ): "exposes: on square 1 no remainder stands above its arrival square, every arrival "
    "square being 1 or more",
    (
        "ascent",
        "return o.select(after, o.ite(found >= 0, found, 0))",
        "return o.select(after, o.ite(found > 0, found, 0))",
    ): "next_seat: when found is 0 both pick the first seat after the mover",
    (
        "ascent",
        "[m.present, m.col != s.actor, m.sq >= 1, o.select(p.own, o.ite(m.sq >= 0, m.sq, 0))]",
        "[m.present, m.col != s.actor, m.sq >= 1, o.select(p.own, o.ite(m.sq > 0, m.sq, 0))]",
    ): "o.ite(m.sq >= 0, m.sq, 0) and o.ite(m.sq > 0, m.sq, 0) agree on every value: at "
    "m.sq = 0 both are 0",
    (
        "ascent",
        "L.highest(L.map(lambda h, dep: o.all([h, dep < m]), here, u.dep), value),",
        "L.highest(L.map(lambda h, dep: o.all([h, dep <= m]), here, u.dep), value),",
    ): "the taker's rank under stack_rank=highest: the card at depth m, below the stack just "
    "moved and the cards it took, is a flipped card that was on that square, the moved "
    "stack's arrival square (a part lands only on a free square or on flipped cards of its "
    "own arrival square, A6, A9); a flipped stack stands on its leader's arrival square "
    "(A8), so that card ranks at most as the moved stack's highest card, whose arrival "
    "square it is, and the highest is the same",
}
"""Generated mutations that no reachable position tells from the kernel, keyed by game
and change (the old and new line of a comparison, stripped; the guard and "removed" or
"negated" of a guard), with the reason."""


def _equivalence_key(m: Mutation) -> tuple[str, str, str]:
    game = m.id.split(".")[0]
    if ".guard_" in m.id:
        what, _sep, change = m.what.rpartition(" ")
        return game, what, change
    return game, m.old.strip(), m.new.strip()


def equivalent_mutations(
    root: Path = ROOT, made: Sequence[Mutation] | None = None
) -> list[tuple[Mutation, str]]:
    """The generated mutations set aside as equivalent, each with its reason (among
    ``made``, by default every generated mutation)."""
    every = generated(root, include_equivalent=True) if made is None else made
    return [
        (m, EQUIVALENT[_equivalence_key(m)]) for m in every if _equivalence_key(m) in EQUIVALENT
    ]


def generated(root: Path = ROOT, *, include_equivalent: bool = False) -> tuple[Mutation, ...]:
    """Every generated mutation, cheapest layer first: bounds, then guards, comparisons;
    without the equivalent ones (:data:`EQUIVALENT`) unless ``include_equivalent``."""
    out: list[Mutation] = []
    for game in KERNELS:
        out += bound_mutations(game, root)
    for game in KERNELS:
        out += guard_mutations(game, root) + comparison_mutations(game, root)
    unique: dict[str, Mutation] = {}
    for m in out:
        key, k = m.id, 1
        while key in unique:
            k += 1
            key = f"{m.id}.{k}"
        unique[key] = Mutation(key, m.clause, m.what, m.file, m.old, m.new, kind=m.kind)
    return tuple(
        m for m in unique.values() if include_equivalent or _equivalence_key(m) not in EQUIVALENT
    )
