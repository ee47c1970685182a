"""Throne's rule kernel run on Z3 terms: the transition system the proofs and the
casebook's shortest-witness search reason about.

Nothing here states a rule.  A position is the kernel's
:class:`~castlerules.throne.kernel.KState` with a Z3 variable for each field; the
initial positions are :func:`~castlerules.throne.kernel.initial`; a move is a
move number of :func:`~castlerules.throne.kernel.universe_of` (``a``) with the
chance input of a round's end, the next round's objectives (``nobj``); its
legality is :func:`~castlerules.throne.kernel.legal` of the kernel's
:func:`~castlerules.throne.kernel.guards`, its effect
:func:`~castlerules.throne.kernel.cases` (each case's outcome built by the
kernel), the successor their fold (:func:`~castlerules.throne.kernel.step`).

The move number is split outside Z3, into groups of numbers that share the kind,
the character and whether the floor is a placement floor (a place of one character
onto the placement floors is one group, each climb, vote and pass another): for
each group the kernel runs with ``a`` read only within the group (its kind and
character then are plain numbers, the floor of a place a term of ``a``, and every
case a move of that kind cannot take folds away), and the system's legality and
cases are those of the group under ``a`` in the group.  That the
split is the kernel with a symbolic ``a`` (:meth:`ThroneSystem.direct_legal`)
is checked by ``tests/symbolic/test_throne.py``, with the agreement of the
system and the kernel's concrete :func:`~castlerules.throne.kernel.judge` on
sampled positions.

The objectives a deal may give (B4: ``objective_size`` characters per seat, no
two seats the same set) are the domain of the chance input, not a rule of a
move: :meth:`ThroneSystem.objectives_valid`.

>>> from castlerules import throne
>>> system = ThroneSystem(throne.Rules(), 3)
>>> s = system.plain(kernel.from_state(throne.new_game(3, seed=1)))
>>> system.legal_at(s, system.number(throne.Place("C", 3)))
True
>>> system.legal_at(s, system.number(throne.Place("C", 6)))
False
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import z3

from castlerules.core.ops import Value, merge
from castlerules.symbolic.z3ops import Z3, Symbolic
from castlerules.throne import kernel
from castlerules.throne.kernel import KState
from castlerules.throne.moves import Move
from castlerules.throne.rules import Rules

Expr = Any
"""A Z3 term."""

OPTION_NAMES = tuple(o.name for o in Rules.OPTIONS if o.symbolic == "bool")
"""The Boolean options that may be left free (one query covers both of their values):
those whose declaration's symbolic domain is ``"bool"``."""


@attrs.frozen(slots=True)
class TMove:
    """A move of the system: the move number ``a`` and the chance input ``nobj`` (the
    objectives a round's end deals for the next round)."""

    a: Expr
    nobj: tuple[tuple[Expr, ...], ...]


@attrs.frozen(slots=True)
class SCase:
    """One guarded command of the system: the kernel's case ``label`` for move number
    one of ``numbers``; ``guard`` (``a`` in ``numbers``, the kernel's guards all met,
    the case's condition) leads to ``post``.  ``scored``, ``crowned``, ``king`` and ``score`` are
    the kernel's :class:`~castlerules.throne.kernel.Outcome` of the case."""

    label: str
    kind: str
    """The kernel's label of the case (the same for every move number)."""
    numbers: tuple[int, ...]
    """The move numbers of the case's group."""
    guard: Expr
    post: KState
    scored: bool
    crowned: bool
    king: Expr
    score: tuple[Expr, ...]


def _fields(s: KState) -> Iterator[tuple[str, Expr]]:
    """Every field of a position, flattened, with a stable name."""
    for f in attrs.fields(KState):
        value = getattr(s, f.name)
        if f.name == "obj":
            for q, row in enumerate(value):
                for c, x in enumerate(row):
                    yield f"obj{q}_{c}", x
        elif isinstance(value, tuple):
            for i, x in enumerate(value):
                yield f"{f.name}{i}", x
        else:
            yield f.name, value


def fields(s: KState) -> list[tuple[str, Expr]]:
    """Every field of a position as ``(name, value)``: ``rnd``, ``phase``, ``turn``,
    ``fl0``.., ``no0``.., ``votes0``.., ``passes``, ``total0``.., ``obj0_0``.."""
    return list(_fields(s))


class ThroneSystem:
    """The kernel of one game (``rules``, ``players``) on Z3 terms.

    ``symbolic`` names the options of :data:`OPTION_NAMES` left free: a Z3 Boolean
    ``option_<name>`` instead of the rules' value.
    """

    def __init__(self, rules: Rules, players: int, symbolic: Sequence[str] = ()) -> None:
        self.rules = rules
        self.shape = kernel.Shape.of(rules, players)
        self.n = self.shape.players
        self.symbolic = tuple(symbolic)

        def option(name: str) -> Expr:
            if name in self.symbolic:
                return z3.Bool(f"option_{name}")
            return z3.BoolVal(bool(getattr(rules, name)))

        fixed = kernel.Options.of(Z3, rules)
        self.options = attrs.evolve(fixed, **{name: option(name) for name in OPTION_NAMES})
        self.moves: tuple[Move, ...] = self.shape.moves
        groups: dict[tuple[int, int, int], list[int]] = {}
        for k in range(len(self.moves)):
            key = (self.shape.kind[k], self.shape.character[k], self.shape.placeable[k])
            groups.setdefault(key, []).append(k)
        self.groups: tuple[tuple[int, ...], ...] = tuple(tuple(g) for g in groups.values())
        """The move numbers, grouped by kind, character and placement floor or not."""
        self._positions: dict[int, tuple[KState, kernel.Position]] = {}
        self._cases: dict[tuple[int, int], tuple[KState, TMove, list[SCase]]] = {}
        self._objectives: dict[int, tuple[Any, Expr]] = {}

    # ------------------------------------------------------------ positions
    def fresh_state(self, tag: str) -> KState:
        """A position of fresh variables named with ``tag``."""
        n, chars = self.n, self.shape.characters
        return KState(
            rnd=z3.Int(f"{tag}_rnd"),
            phase=z3.Int(f"{tag}_phase"),
            turn=z3.Int(f"{tag}_turn"),
            fl=tuple(z3.Int(f"{tag}_fl{c}") for c in range(chars)),
            no=tuple(z3.Int(f"{tag}_no{q}") for q in range(n)),
            votes=tuple(z3.Int(f"{tag}_votes{q}") for q in range(n)),
            passes=z3.Int(f"{tag}_passes"),
            total=tuple(z3.Int(f"{tag}_total{q}") for q in range(n)),
            obj=self.fresh_objectives(f"{tag}_obj"),
        )

    def fresh_objectives(self, tag: str) -> tuple[tuple[Expr, ...], ...]:
        """A deal of fresh Booleans: ``[seat][character]``."""
        chars = range(self.shape.characters)
        return tuple(tuple(z3.Bool(f"{tag}{q}_{c}") for c in chars) for q in range(self.n))

    def fresh_move(self, tag: str) -> TMove:
        """A move of fresh variables named with ``tag``."""
        return TMove(z3.Int(f"{tag}_a"), self.fresh_objectives(f"{tag}_nobj"))

    def concrete(self, values: KState) -> KState:
        """A position of Z3 constants from a position of plain values
        (:func:`~castlerules.throne.kernel.from_state`)."""
        return self.rebuild([_lit(x) for _n, x in fields(values)])

    def plain(self, values: KState) -> KState:
        """A position of plain values, for the kernel on Z3 terms: the operations fold
        them, so that the terms of a concrete position are small (only a symbolic move
        or chance input stays a term)."""
        return self.rebuild([x for _n, x in fields(values)])

    def terms(self, s: KState) -> KState:
        """``s`` with every plain number or truth value made a Z3 constant (a kernel's
        outcome keeps the constants it was given as they are)."""
        return self.rebuild([_term(x) for _n, x in fields(s)])

    def rebuild(self, values: Sequence[Expr]) -> KState:
        """A position from the flat list of :func:`fields` values."""
        n, chars = self.n, self.shape.characters
        it = iter(values)
        rnd, phase, turn = next(it), next(it), next(it)
        fl = tuple(next(it) for _ in range(chars))
        no = tuple(next(it) for _ in range(n))
        votes = tuple(next(it) for _ in range(n))
        passes = next(it)
        total = tuple(next(it) for _ in range(n))
        obj = tuple(tuple(next(it) for _ in range(chars)) for _ in range(n))
        return KState(rnd, phase, turn, fl, no, votes, passes, total, obj)

    def values(self, model: Any, s: KState) -> KState:
        """The plain values of a position in a Z3 model (completed)."""
        out: list[Any] = []
        for _n, x in fields(s):
            got = model.eval(x, model_completion=True)
            out.append(bool(z3.is_true(got)) if z3.is_bool(got) else int(got.as_long()))
        return self.rebuild(out)

    def equal(self, a: KState, b: KState) -> Expr:
        """Field-wise equality."""
        return z3.And(*(x == y for (_n, x), (_m, y) in zip(fields(a), fields(b), strict=True)))

    def position(self, s: KState) -> kernel.Position:
        """The kernel's :class:`~castlerules.throne.kernel.Position` of ``s`` (built once
        per position object: its terms are shared by every move)."""
        hit = self._positions.get(id(s))
        if hit is not None and hit[0] is s:
            return hit[1]
        built = kernel.Position(Z3, self.shape, self.options, s)
        self._positions[id(s)] = (s, built)
        return built

    # ------------------------------------------------------------ the deal
    def objectives_valid(self, obj: Sequence[Sequence[Expr]]) -> Expr:
        """A deal the rules allow (B4): ``objective_size`` characters per seat, and no
        two seats the same set."""
        hit = self._objectives.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        size = self.rules.objective_size
        chars = range(self.shape.characters)
        parts = [Z3.count(row) == size for row in obj]
        for q in range(self.n):
            for r in range(q + 1, self.n):
                parts.append(Z3.any(obj[q][c] != obj[r][c] for c in chars))
        built = Z3.all(parts)
        self._objectives[id(obj)] = (obj, built)
        return built

    def init(self, s: KState) -> Expr:
        """``s`` is a new game (:func:`~castlerules.throne.kernel.initial`) dealt valid
        objectives."""
        first = kernel.initial(Z3, self.shape, self.options, s.obj)
        return z3.And(self.equal(s, first), self.objectives_valid(s.obj))

    def chance(self, s: KState, move: TMove) -> Expr:
        """The chance input of ``move`` is a deal the rules allow."""
        del s
        return self.objectives_valid(move.nobj)

    # ------------------------------------------------------------ moves
    def number(self, move: Move) -> int:
        """The move number of an engine move."""
        return self.moves.index(move)

    def guards(self, s: KState, a: int) -> tuple[kernel.Guard, ...]:
        """The kernel's guards of move number ``a`` in ``s``."""
        p = self.position(s)
        return kernel.guards(p, kernel.decode(p, a))

    def legal_at(self, s: KState, a: int) -> Expr:
        """Move number ``a`` is legal in ``s``: no guard of the kernel is broken."""
        return _bool(kernel.legal(Z3, self.guards(s, a)))

    def parts_within(self, s: KState, a: Expr, group: Sequence[int]) -> kernel.Parts:
        """The kernel's :func:`~castlerules.throne.kernel.decode` of a move number ``a``
        that lies in ``group``: its tables read at ``a`` among the group's numbers only
        (a field the group's numbers share is that plain number)."""
        p = copy.copy(self.position(s))
        p.o = _Within(a, tuple(group))
        return kernel.decode(p, a)

    def guards_within(self, s: KState, a: Expr, group: Sequence[int]) -> tuple[kernel.Guard, ...]:
        """The kernel's guards of a move number ``a`` of ``group``."""
        return kernel.guards(self.position(s), self.parts_within(s, a, group))

    def within(self, a: Expr, group: Sequence[int]) -> Expr:
        """``a`` is one of the numbers of ``group``."""
        return Z3.any(a == k for k in group)

    def legal_move(self, s: KState, move: TMove) -> Expr:
        """The move number of ``move`` is one of the universe's, and legal in ``s``."""
        parts = []
        for group in self.groups:
            legal = _bool(kernel.legal(Z3, self.guards_within(s, move.a, group)))
            if not z3.is_false(legal):
                parts.append(Z3.all([self.within(move.a, group), legal]))
        return Z3.any(parts)

    def parts(self, s: KState, a: Expr | int) -> kernel.Parts:
        """The kernel's reading of move number ``a`` (a term or a number) in ``s``."""
        p = self.position(s)
        return kernel.decode(p, a)

    def direct_legal(self, s: KState, a: Expr) -> Expr:
        """The kernel's legality with a symbolic move number (no split): the same
        predicate as :meth:`legal_move` for ``a`` in the universe."""
        p = self.position(s)
        return _bool(kernel.legal(Z3, kernel.guards(p, kernel.decode(p, a))))

    def legal(self, s: KState, move: TMove) -> Expr:
        """The move is legal and its chance input a valid deal."""
        return z3.And(self.legal_move(s, move), self.chance(s, move))

    def cases(self, s: KState, move: TMove) -> list[SCase]:
        """The transition as guarded commands: for each group of move numbers, each case
        of :func:`~castlerules.throne.kernel.cases` a legal move of the group can take.
        The guards exclude each other and cover every legal move."""
        key = (id(s), id(move))
        hit = self._cases.get(key)
        if hit is not None and hit[0] is s and hit[1] is move:
            return hit[2]
        p = self.position(s)
        out: list[SCase] = []
        for group in self.groups:
            parts = self.parts_within(s, move.a, group)
            legal = _bool(kernel.legal(Z3, kernel.guards(p, parts)))
            if z3.is_false(legal):
                continue
            named = "/".join(str(self.moves[k]) for k in group)
            for case in kernel.cases(p, parts, move.nobj):
                when = _bool(case.when)
                if z3.is_false(when):
                    continue
                outcome = case.make()
                score = tuple(_term(x) for x in outcome.score)
                out.append(
                    SCase(
                        label=f"{case.label} ({named})",
                        kind=case.label,
                        numbers=group,
                        guard=Z3.all([self.within(move.a, group), legal, when]),
                        post=self.terms(outcome.post),
                        scored=case.scored,
                        crowned=case.crowned,
                        king=_term(outcome.king),
                        score=score,
                    )
                )
        self._cases[key] = (s, move, out)
        return out

    def step(self, s: KState, move: TMove) -> KState:
        """The successor of a legal move (:func:`~castlerules.throne.kernel.step`): the
        post-position of the case whose guard holds."""
        return self.fold(self.cases(s, move))

    def fold(self, cases: Sequence[SCase]) -> KState:
        """The post-positions of ``cases`` as one term (the last is the default)."""
        out = cases[-1].post
        for case in reversed(cases[:-1]):
            out = merge(Z3, case.guard, case.post, out)
        return out

    def outcome_at(self, s: KState, a: int, nobj: Sequence[Sequence[Expr]]) -> kernel.Outcome:
        """The kernel's outcome of move number ``a`` (meaningful when legal)."""
        p = self.position(s)
        got = kernel.step(p, kernel.decode(p, a), nobj)
        return attrs.evolve(
            got,
            post=self.terms(got.post),
            scored=_term(got.scored),
            king=_term(got.king),
            score=tuple(_term(x) for x in got.score),
        )

    def decode(self, model: Any, move: TMove) -> Move:
        """The engine move a Z3 model gives to a symbolic move."""
        return self.moves[int(model.eval(move.a, model_completion=True).as_long())]

    def encode(self, move: Move, nobj: Sequence[Sequence[bool]]) -> TMove:
        """An engine move and a chance outcome as a move of constants."""
        return TMove(
            z3.IntVal(self.number(move)),
            tuple(tuple(z3.BoolVal(b) for b in row) for row in nobj),
        )

    def transition(self, pre: KState, move: TMove, post: KState) -> Expr:
        """The transition relation: ``move`` is legal in ``pre`` and leads to ``post``."""
        return z3.And(self.legal(pre, move), self.equal(post, self.step(pre, move)))


class _Within(Symbolic):
    """The Z3 operations, with a move number ``a`` known to lie in ``group``: a table
    read at ``a`` is an if-chain over the group's numbers only."""

    __slots__ = ("a", "group")

    def __init__(self, a: Expr, group: tuple[int, ...]) -> None:
        self.a, self.group = a, group

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        if isinstance(index, int) or not index.eq(self.a):
            return super().lookup(table, index, low)
        values = [table[k - low] for k in self.group]
        if all(v == values[0] for v in values):
            return values[0]
        out: Value = values[-1]
        for k, v in zip(reversed(self.group[:-1]), reversed(values[:-1]), strict=True):
            out = self.ite(index == k, v, out)
        return out


def _bool(value: Any) -> Expr:
    return z3.BoolVal(value) if isinstance(value, bool) else value


def _lit(value: Any) -> Expr:
    return z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)


def _term(value: Any) -> Expr:
    return _lit(value) if isinstance(value, bool | int) else value
