"""Ascent's rule kernel run on Z3 terms: a transition system over the kernel itself.

What uses it: the invariant of :mod:`castlerules.symbolic.ascent_invariant`,
``tests/symbolic/test_ascent.py`` (which check this system against the kernel and
the invariant over it), and ``proofs/ascent_equal.py``, which proves on Z3 that the
encoding the Ascent proofs (``proofs/ascent.py``) and the casebook's bounded model
checking (``castlerules/casebook/bmc.py``) run, :mod:`castlerules.symbolic.ascent_model`,
is this kernel move for move, for the games the proofs page names ("The Ascent model
proved to be the kernel"): on the other games that encoding is tied to the kernel by
the kernel's functions it calls and by tests, not proved.

Nothing here states a rule.  A position is the kernel's
:class:`~castlerules.ascent.kernel.KState` with a Z3 variable for each field; the
initial positions are :func:`~castlerules.ascent.kernel.initial` for every seat
the die may show; a move is a move number of
:attr:`~castlerules.ascent.kernel.Shape.moves` (``a``); its legality is
:func:`~castlerules.ascent.kernel.legal` of the kernel's
:func:`~castlerules.ascent.kernel.guards`, its effect the kernel's
:func:`~castlerules.ascent.kernel.sub_cases` (each outcome built by the kernel),
the successor their fold (:func:`~castlerules.ascent.kernel.step`).

The move number is split outside Z3: for each move number the kernel runs with
that number as a plain integer (its kind and card then are plain numbers, and
every case a move of that number cannot take folds away), and the system's
legality and cases are those of the number under ``a`` equal to it.  That the
split is the kernel with a symbolic ``a`` (:meth:`AscentSystem.direct_legal`) is
checked by ``tests/symbolic/test_ascent.py``, with the agreement of the system and
the kernel's concrete :func:`~castlerules.ascent.kernel.judge` on sampled
positions.

The options that are values of the kernel's
:class:`~castlerules.ascent.kernel.Options` may be left free
(:data:`OPTION_NAMES`): one query then covers every value of each; the sizes and
tables of the :class:`~castlerules.ascent.kernel.Shape` (``squares``,
``arrival``, ``upper_half``, ``cards``) are the rules' own.

>>> from castlerules import ascent
>>> system = AscentSystem(ascent.Rules(), 2)
>>> s = system.plain(kernel.from_state(ascent.new_game(2, first_player=0)))
>>> lady = system.number(ascent.Advance(ascent.Card(0, ascent.Rank.LADY)))
>>> system.legal_at(s, lady)
True
>>> system.legal_at(s, system.number(ascent.Advance(ascent.Card(1, ascent.Rank.LADY))))
False
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import z3

from castlerules.ascent import kernel
from castlerules.ascent.kernel import KState
from castlerules.ascent.moves import Move
from castlerules.ascent.rules import Rules
from castlerules.core.ops import CONCRETE, merge
from castlerules.symbolic.z3ops import Z3

Expr = Any
"""A Z3 term."""

OPTION_NAMES = tuple(f.name for f in attrs.fields(kernel.Options))
"""The fields of :class:`~castlerules.ascent.kernel.Options` that may be left free
(every one, each named as its option of ``Rules.OPTIONS``: ``favours_per_move``
then ranges over ``1..UNLIMITED``, ``end_test`` over the indexes of
:data:`~castlerules.ascent.kernel.END_TESTS`)."""


def _int_range(domain: str) -> tuple[int, int]:
    """The range of a declared ``"int LOW..HIGH ..."`` domain."""
    low, high = domain.split()[1].split("..")
    return int(low), int(high)


_INTS = {
    option.name: _int_range(option.symbolic)
    for option in Rules.OPTIONS
    if option.symbolic is not None and option.symbolic.startswith("int ")
}
"""The free options that are numbers, with their range: each option's declared
:attr:`~castlerules.core.options.Option.symbolic` domain."""

_KINDS = {kernel.K_ADVANCE: "advance", kernel.K_FAVOUR: "favour", kernel.K_END: "end of the turn"}
"""The kernel's name of each kind of move (:func:`~castlerules.ascent.kernel.sub_cases`)."""


@attrs.frozen(slots=True)
class SCase:
    """One guarded command of the system: the kernel's case ``label`` for move number
    ``number``; ``guard`` (``a`` is that number, the kernel's guards all met, the
    case's condition) leads to ``post`` (the kernel's outcome, with ``over`` and
    ``scores``)."""

    label: str
    kind: str
    """The kernel's label of the case (the same for every move number)."""
    number: int
    guard: Expr
    post: KState
    over: Expr
    scores: tuple[Expr, ...]


def fields(s: KState) -> list[tuple[str, Expr]]:
    """Every field of a position as ``(name, value)``: ``col0``.., ``sq0``..,
    ``dep0``.., ``flp0``.., ``own0``.., ``actor``, ``mid``, ``sd``, ``sm``, ``sk``,
    ``replays`` (the fields of :class:`~castlerules.ascent.kernel.KState`)."""
    return list(_fields(s))


def _fields(s: KState) -> Iterator[tuple[str, Expr]]:
    for f in attrs.fields(KState):
        value = getattr(s, f.name)
        if isinstance(value, tuple):
            for i, x in enumerate(value):
                yield f"{f.name}{i}", x
        else:
            yield f.name, value


class AscentSystem:
    """The kernel of one game (``rules``, ``players``) on Z3 terms.

    ``symbolic`` names the options of :data:`OPTION_NAMES` left free: a Z3 term
    ``option_<name>`` instead of the rules' value, constrained by
    :meth:`assumptions`.
    """

    def __init__(self, rules: Rules, players: int, symbolic: Sequence[str] = ()) -> None:
        unknown = set(symbolic) - set(OPTION_NAMES)
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}: the free ones are {OPTION_NAMES}")
        self.rules = rules
        self.shape = kernel.Shape.of(rules, players)
        self.n = players
        self.symbolic = tuple(symbolic)
        fixed = kernel.Options.of(Z3, rules)
        free: dict[str, Expr] = {}
        for name in self.symbolic:
            free[name] = z3.Int(f"option_{name}") if name in _INTS else z3.Bool(f"option_{name}")
        self.options: kernel.Options = attrs.evolve(fixed, **free)
        self.moves: tuple[Move, ...] = self.shape.moves
        self._positions: dict[int, tuple[KState, kernel.Position]] = {}
        self._cases: dict[tuple[int, int], tuple[KState, Expr, list[SCase]]] = {}
        self._sample: KState = kernel.initial(
            CONCRETE, self.shape, kernel.Options.of(CONCRETE, rules), 0
        )
        """A plain first position: which fields are per slot, which truth values."""

    def assumptions(self) -> list[Expr]:
        """The values ``Rules`` accepts for the free options."""
        out = []
        for name, (low, high) in _INTS.items():
            if name in self.symbolic:
                x = getattr(self.options, name)
                out.append(z3.And(x >= low, x <= high))
        return out

    # ------------------------------------------------------------ positions
    def fresh_state(self, tag: str) -> KState:
        """A position of fresh variables named with ``tag``: one per field of
        :class:`~castlerules.ascent.kernel.KState` (per card slot for a tuple), a Z3 Bool
        where the kernel's own first position holds a truth value, else an Int."""
        k = self.shape.slots
        sample = self._sample

        def var(name: str, like: object) -> Expr:
            return z3.Bool(name) if isinstance(like, bool) else z3.Int(name)

        made: dict[str, object] = {}
        for f in attrs.fields(KState):
            like = getattr(sample, f.name)
            if f.name == "own" and self.rules.deal != "shuffled":
                # The deal (A18): set p's seat p under deal="sets"; a chance outcome, free
                # under deal="shuffled".
                made[f.name] = tuple(z3.IntVal(self.shape.owner[j]) for j in k)
            elif isinstance(like, tuple):
                made[f.name] = tuple(var(f"{tag}_{f.name}{j}", like[j]) for j in k)
            else:
                made[f.name] = var(f"{tag}_{f.name}", like)
        return KState(**made)  # type: ignore[arg-type]

    def fresh_move(self, tag: str) -> Expr:
        """A move of fresh variables (its move number) named with ``tag``."""
        return z3.Int(f"{tag}_a")

    def rebuild(self, values: Sequence[Expr]) -> KState:
        """A position from the flat list of :func:`fields` values (every field of
        :class:`~castlerules.ascent.kernel.KState`, in its order)."""
        c = len(self.shape.cards)
        v = list(values)
        made: dict[str, object] = {}
        at = 0
        for f in attrs.fields(KState):
            if isinstance(getattr(self._sample, f.name), tuple):
                made[f.name], at = tuple(v[at : at + c]), at + c
            else:
                made[f.name], at = v[at], at + 1
        if at != len(v):
            raise ValueError(f"a position has {at} values, not {len(v)}")
        return KState(**made)  # type: ignore[arg-type]

    def concrete(self, values: KState) -> KState:
        """A position of Z3 constants from a position of plain values
        (:func:`~castlerules.ascent.kernel.from_state`)."""
        return self.rebuild([_lit(x) for _n, x in fields(values)])

    def plain(self, values: KState) -> KState:
        """A position of plain values, for the kernel on Z3 terms: the operations fold
        them, so that only a symbolic move or option stays a term."""
        return self.rebuild([x for _n, x in fields(values)])

    def terms(self, s: KState) -> KState:
        """``s`` with every plain number or truth value made a Z3 constant."""
        return self.rebuild([_term(x) for _n, x in fields(s)])

    def values(self, model: Any, s: KState) -> KState:
        """The plain values of a position in a Z3 model (completed)."""
        out: list[Any] = []
        for _n, x in fields(s):
            got = model.eval(_term(x), model_completion=True)
            out.append(bool(z3.is_true(got)) if z3.is_bool(got) else int(got.as_long()))
        return self.rebuild(out)

    def equal(self, a: KState, b: KState) -> Expr:
        """Field-wise equality."""
        return z3.And(
            *(_term(x) == _term(y) for (_n, x), (_m, y) in zip(fields(a), fields(b), strict=True))
        )

    def position(self, s: KState) -> kernel.Position:
        """The kernel's :class:`~castlerules.ascent.kernel.Position` of ``s`` (built once
        per position object: its terms are shared by every move)."""
        hit = self._positions.get(id(s))
        if hit is not None and hit[0] is s:
            return hit[1]
        built = kernel.Position(Z3, self.shape, self.options, s)
        self._positions[id(s)] = (s, built)
        return built

    # ------------------------------------------------------------ the start
    def init(self, s: KState) -> Expr:
        """``s`` is a new game (:func:`~castlerules.ascent.kernel.initial`) for some
        seat the die shows (A18)."""
        roll = z3.Int(f"roll_{_term(s.actor)}")
        first = kernel.initial(Z3, self.shape, self.options, roll)
        return z3.And(self.equal(s, first), roll >= 0, roll <= self.n - 1, *self.assumptions())

    def chance(self, s: KState, move: Expr) -> Expr:
        """A move holds no chance input: always true (and the options' domain)."""
        del s, move
        return z3.And(True, *self.assumptions())

    # ------------------------------------------------------------ moves
    def number(self, move: Move) -> int:
        """The move number of an engine move."""
        return self.moves.index(move)

    def guards(self, s: KState, a: int | Expr) -> tuple[kernel.Guard, ...]:
        """The kernel's guards of move number ``a`` in ``s``."""
        p = self.position(s)
        return kernel.guards(p, kernel.decode(p, a))

    def legal_at(self, s: KState, a: int) -> Expr:
        """Move number ``a`` is legal in ``s``: no guard of the kernel is broken."""
        return _bool(kernel.legal(Z3, self.guards(s, a)))

    def direct_legal(self, s: KState, a: Expr) -> Expr:
        """The kernel's legality with a symbolic move number (no split): the same
        predicate as :meth:`legal_move` for ``a`` in the universe."""
        return _bool(kernel.legal(Z3, self.guards(s, a)))

    def legal_move(self, s: KState, a: Expr) -> Expr:
        """The move number ``a`` is one of the universe's, and legal in ``s``."""
        parts = []
        for k in range(len(self.moves)):
            legal = self.legal_at(s, k)
            if not z3.is_false(legal):
                parts.append(Z3.all([a == k, legal]))
        return Z3.any(parts)

    def legal(self, s: KState, move: Expr) -> Expr:
        """The move is legal (and the options in their domain)."""
        return z3.And(self.legal_move(s, move), self.chance(s, move))

    def cases(self, s: KState, move: Expr) -> list[SCase]:
        """The transition as guarded commands: for each move number, each case of
        :func:`~castlerules.ascent.kernel.sub_cases` a legal move of that number can
        take.  The guards exclude each other and cover every legal move."""
        key = (id(s), id(move))
        hit = self._cases.get(key)
        if hit is not None and hit[0] is s and hit[1] is move:
            return hit[2]
        p = self.position(s)
        out: list[SCase] = []
        for k, named in enumerate(self.moves):
            parts = kernel.decode(p, k)
            legal = _bool(kernel.legal(Z3, kernel.guards(p, parts)))
            if z3.is_false(legal):
                continue
            for case in kernel.sub_cases(p, parts, _KINDS[self.shape.kind[k]]):
                when = _bool(case.when)
                if z3.is_false(when):
                    continue
                outcome = case.make()
                out.append(
                    SCase(
                        label=f"{case.label} ({named})",
                        kind=case.label,
                        number=k,
                        guard=Z3.all([move == k, legal, when]),
                        post=self.terms(outcome.post),
                        over=_bool(outcome.over),
                        scores=tuple(_term(x) for x in outcome.scores),
                    )
                )
        self._cases[key] = (s, move, out)
        return out

    def step(self, s: KState, move: Expr) -> KState:
        """The successor of a legal move (:func:`~castlerules.ascent.kernel.step`): the
        post-position of the case whose guard holds."""
        return self.fold(self.cases(s, move))

    def fold(self, cases: Sequence[SCase]) -> KState:
        """The post-positions of ``cases`` as one term (the last is the default)."""
        out = cases[-1].post
        for case in reversed(cases[:-1]):
            out = merge(Z3, case.guard, case.post, out)
        return out

    def outcome_at(self, s: KState, a: int) -> kernel.Outcome:
        """The kernel's outcome of move number ``a`` (meaningful when legal): the cases of
        its own kind only (every branch is computed on Z3 terms, and another kind's
        effect, built from this move's fields, may read a table out of its range)."""
        p = self.position(s)
        found = kernel.sub_cases(p, kernel.decode(p, a), _KINDS[self.shape.kind[a]])
        got = Z3.pick([c.when for c in found], [c.make for c in found])
        return attrs.evolve(
            got,
            post=self.terms(got.post),
            over=_term(got.over),
            scores=tuple(_term(x) for x in got.scores),
        )

    def decode(self, model: Any, move: Expr) -> Move:
        """The engine move a Z3 model gives to a symbolic move."""
        return self.moves[int(model.eval(move, model_completion=True).as_long())]

    def encode(self, move: Move) -> Expr:
        """An engine move as a move of constants."""
        return z3.IntVal(self.number(move))

    def transition(self, pre: KState, move: Expr, post: KState) -> Expr:
        """The transition relation: ``move`` is legal in ``pre`` and leads to ``post``."""
        return z3.And(self.legal(pre, move), self.equal(post, self.step(pre, move)))


def _bool(value: Any) -> Expr:
    return z3.BoolVal(value) if isinstance(value, bool) else value


def _lit(value: Any) -> Expr:
    return z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)


def _term(value: Any) -> Expr:
    return _lit(value) if isinstance(value, bool | int) else value
