"""Between the Ascent engine and its symbolic model (:mod:`castlerules.symbolic.ascent_model`).

- :func:`fields` reads an engine :class:`~castlerules.ascent.State` as the
  model's per-card fields and turn; :func:`concrete` makes them a position of
  Z3 constants; :func:`decode` reads a model position back as an engine
  state (through the engine's own ``make_state``);
- :func:`encode_move` / :func:`decode_move` translate moves both ways;
- :class:`Bridge` asks the full model, on a concrete engine position, which
  moves are legal and which successor each has (and that no other is);
- :func:`replay` plays a move list through the engine, so that every
  counterexample is checked by the engine itself and can be drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from castlerules import ascent
from castlerules.ascent.rules import CARDS_PER_SET, Tables
from castlerules.ascent.state import State
from castlerules.ascent.transitions import make_state
from castlerules.symbolic.ascent_model import (
    ADVANCE,
    CASES,
    FAVOUR,
    NONE,
    REMOVED,
    AscentModel,
    AState,
    Card,
    CardFields,
    Case,
    Fields,
    Move,
    all_of,
    any_of,
    as_z3,
    concrete,
    decode_move,
    encode_move,
    fields,
    move_in,
    neg,
    stack_ranks,
    truth,
    value,
)
from castlerules.symbolic.ascent_model import (
    END as K_END,
)
from castlerules.symbolic.smt import Expr, Model, is_sat, is_unsat, model_int, new_solver
from proofs.core import Trace

__all__ = [
    "Bridge",
    "CardFields",
    "Fields",
    "concrete",
    "decode",
    "decode_move",
    "encode_move",
    "fields",
    "fixes",
    "move_in",
    "read",
    "replay",
]


def read(model: Model, s: AState) -> Fields:
    """The fields of a model position in a Z3 model."""
    cards = []
    for u in s.cards:
        cards.append(
            (
                value(model, u.col),
                value(model, u.sq),
                value(model, u.dep),
                value(model, u.below),
                value(model, u.top),
                truth(model, u.flp),
            )
        )
    t = s.turn
    step = (value(model, t.sd), value(model, t.sm), value(model, t.sk))
    replays = value(model, t.replays)
    return Fields(tuple(cards), value(model, t.actor), truth(model, t.mid), step, replays)


def decode(rules: ascent.Rules, f: Fields) -> State:
    """The engine state with these fields, built by the engine's ``make_state``."""
    n = len(f.cards) // CARDS_PER_SET
    t = Tables.of(rules)
    cols: list[list[list[tuple[int, int]]]] = [[[] for _ in range(t.squares + 1)] for _ in range(n)]
    flipped = [0] * n
    removed: list[list[int]] = [[] for _ in range(n)]
    for c, (col, sq, dep, _below, _top, flp) in enumerate(f.cards):
        if sq == REMOVED:
            removed[col].append(c)
            continue
        cols[col][sq].append((dep, c))
        if flp:
            flipped[col] |= 1 << sq
    columns = tuple(
        tuple(tuple(c for _d, c in sorted(square)) for square in column) for column in cols
    )
    return make_state(
        rules,
        t=t,
        cols=columns,
        flipped=tuple(flipped),
        removed=tuple(tuple(sorted(pile)) for pile in removed),
        actor=f.actor,
        step=f.step if f.mid else None,
        replays=f.replays,
    )


def fixes(m: Move, kind: int, idx: int) -> Expr:
    """The symbolic move is this engine move."""
    return m.kind == kind if kind == K_END else all_of([m.kind == kind, m.x.idx == idx])


def options_text(rules: ascent.Rules) -> tuple[str, ...]:
    """The options that differ from the reference reading, as ``name=value``."""
    return tuple(f"{k}={v}" for k, v in rules.options().items())


def replay(start: State, moves: Sequence[ascent.Move], note: str = "") -> tuple[Trace, State]:
    """Play ``moves`` through the engine from ``start``; the trace in notation."""
    positions = [ascent.to_text(start)]
    state = start
    for move in moves:
        state = ascent.apply(state, move)
        positions.append(ascent.to_text(state))
    trace = Trace(
        game="ascent",
        players=start.players,
        options=options_text(start.rules),
        positions=tuple(positions),
        moves=tuple(str(m) for m in moves),
        note=note,
    )
    return trace, state


@attrs.frozen(slots=True)
class Successor:
    """What the full model says of one move in one position."""

    state: State | None
    """The successor the model forces (None: the model refuses the move)."""
    unique: bool
    """No other selection, case or turn passing is admitted."""
    case: str = ""


_NO_CARD_FIELDS = {"col": 0, "sq": 0, "dep": 0, "below": NONE, "top": NONE, "flp": False}


class Bridge:
    """The full model asked about one concrete engine position.

    The guard is solved for the move's selections (the cards the rules look
    at, and the destination), which must be unique; with them fixed, every
    formula of the model folds to a Python value (:mod:`castlerules.symbolic.ascent_model`'s
    folding wrappers): exactly one case's guard must be true, and its
    successor, with the turn passing of :meth:`AscentModel.exact_turn`, is the
    model's successor.  Since a case's successor is a function of the
    position and the selections, and the exact turn passing fixes ``nxt`` and
    ``cont`` by equalities, no other successor is admitted.
    """

    def __init__(self, model: AscentModel, state: State) -> None:
        self.model = model
        self.state = state
        self.pre = concrete(model, fields(state))
        self.move = model.fresh_move("b")
        self.solver = new_solver()
        self.solver.add(as_z3(model.legal(self.pre, self.move)))

    def legal_moves(self) -> set[str]:
        """Every move the model's guard admits, by enumeration (notation)."""
        solver = self.solver
        solver.push()
        found: set[str] = set()
        while is_sat(solver.check()):
            z = solver.model()
            kind = model_int(z, self.move.kind)
            idx = model_int(z, self.move.x.idx)
            found.add(str(decode_move(kind, idx)))
            if len(found) > 2 * self.model.N + 1:
                raise AssertionError("the model admits more moves than there are")
            solver.add(as_z3(neg(fixes(self.move, kind, idx))))
        solver.pop()
        return found

    def _selections(self, kind: int) -> list[tuple[str, Expr]]:
        m = self.move
        # stack_rank="highest": the part's and the remainder's rank cards (A3)
        ranks = [] if m.pr is None or m.rb is None else [("pr", m.pr.idx), ("rb", m.rb.idx)]
        if kind == ADVANCE:
            return [
                ("lead", m.lead.idx),
                ("bx", m.bx.idx),
                ("ttop", m.ttop.idx),
                ("d", m.d),
                *ranks,
            ]
        if kind == FAVOUR:
            return [
                ("tb", m.tb.idx),
                ("tt", m.tt.idx),
                ("qt", m.qt.idx),
                ("bx", m.bx.idx),
                *ranks[1:],
            ]
        return []

    def _card(self, idx: int) -> Card:
        if idx == NONE:
            return attrs.evolve(
                self.pre.cards[0], idx=NONE, val=1, owner=0, rv=1, **_NO_CARD_FIELDS
            )
        return self.pre.cards[idx]

    def successor(self, move: ascent.Move) -> Successor:
        """The successor the model forces for ``move`` (see the class documentation)."""
        kind, idx = encode_move(move)
        solver, model = self.solver, self.model
        solver.push()
        try:
            solver.add(as_z3(fixes(self.move, kind, idx)))
            if not is_sat(solver.check()):
                return Successor(None, True)
            z = solver.model()
            sel = self._selections(kind)
            values = {name: model_int(z, e) for name, e in sel}
            unique = True
            if sel:  # no other selections
                solver.add(as_z3(any_of(e != values[name] for name, e in sel)))
                unique = is_unsat(solver.check())
        finally:
            solver.pop()
        none = self._card(NONE)
        x = self._card(idx) if kind != K_END else none
        pick = {name: self._card(values.get(name, NONE)) for name in ("lead", "bx", "ttop")}
        pick |= {name: self._card(values.get(name, NONE)) for name in ("tb", "tt", "qt")}
        ranks = {}
        if model.high:  # stack_rank="highest": the rank selections (A3)
            ranks = {name: self._card(values.get(name, NONE)) for name in ("pr", "rb")}
        m = Move(kind, x, d=values.get("d", 0), cont=False, nxt=-1, **pick, **ranks)
        pre, t = self.pre, self.pre.turn
        if kind == ADVANCE:
            case = CASES[0] if model.pending(pre.cards, t, m) is True else CASES[1]
        elif kind == FAVOUR:
            removed = model.removes(t, m) is True
            board = model.post(_favour_case(removed, True), pre, m)
            go_on = model.goes_on(board, t, m)
            m = attrs.evolve(m, cont=go_on is True)
            case = _favour_case(removed, go_on is True)
        else:
            case = CASES[-1]
        post = model.post(case, pre, m)
        if post.turn.mid is False:
            m = attrs.evolve(m, nxt=model.next_actor(post, t.actor))
            post = model.post(case, pre, m)
        # The case's guard holds, no other case's does, and the turn passing is exact.
        unique = unique and all(
            (model.guard(other, pre, m) is True) == (other is case) for other in CASES
        )
        unique = unique and model.exact_turn(pre, m, post) is True
        got = known(post)
        if model.high:  # the successor's stack ranks are the engine's (A3, rank_card)
            unique = unique and [u.rv for u in post.cards] == list(stack_ranks(got))
        return Successor(decode(self.state.rules, got), unique, case.label)

    def invariant_breaks(self) -> list[str]:
        """The conjuncts of the model's invariant that this position breaks (none
        for a reachable position)."""
        return sorted({name for name, ok in self.model.invariant(self.pre) if ok is not True})


def _favour_case(removed: bool, cont: bool) -> Case:
    return next(c for c in CASES if c.kind == FAVOUR and c.removed == removed and c.cont == cont)


def known(s: AState) -> Fields:
    """The fields of a model position whose formulas all folded to Python values."""
    cards = []
    for u in s.cards:
        row = (u.col, u.sq, u.dep, u.below, u.top, u.flp)
        if not all(isinstance(v, int) for v in row):
            raise ValueError(f"not a concrete position: card {u.idx} is {row}")
        cards.append((int(u.col), int(u.sq), int(u.dep), int(u.below), int(u.top), bool(u.flp)))
    t = s.turn
    step = (int(t.sd), int(t.sm), int(t.sk))
    return Fields(tuple(cards), int(t.actor), bool(t.mid), step, int(t.replays))
