"""Between the Throne engine and its symbolic model: abstraction, moves, replay.

- :func:`abstract` reads an engine :class:`~castlerules.throne.State` as the
  values of the model's state fields (:class:`~proofs.throne_model.TState`);
- :func:`concrete` makes those values a state of Z3 constants;
- :func:`encode_move` / :func:`decode_move` translate moves both ways;
- :func:`replay` plays a move list through the engine's public API and
  returns the positions in notation, so that every witness and
  counterexample is checked by the engine itself and can be drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from castlerules import throne
from castlerules.throne.state import State
from proofs.core import Trace
from proofs.smt import (
    Expr,
    Model,
    any_of,
    is_sat,
    lit,
    literal_value,
    model_bool,
    model_int,
    new_solver,
)
from proofs.throne_model import (
    K_CLIMB,
    K_PASS,
    K_PLACE,
    K_VOTE,
    Params,
    ThroneSystem,
    TMove,
    TState,
)

Values = dict[str, int | bool]
"""The value of every field of a :class:`TState`, by its flat name."""


def abstract(state: State) -> Values:
    """The model's view of an engine state (field names as in ``TState.fields``)."""
    n = state.players
    rnd = throne.round_of(state)
    phase = ("placement", "movement", "election", "over").index(throne.phase(state))
    seat = throne.current_player(state)
    turn = 0 if seat is None else seat
    letters = state.rules.letters()
    fl: list[int] = []
    for ch in letters:
        floor = throne.floor_of(state, ch)
        if floor is not None:
            fl.append(floor)
        elif throne.is_eliminated(state, ch):
            fl.append(-1)
        else:
            fl.append(0)
    voted, said_no = 0, [False] * n
    if phase == 2:
        # Engine: votes[seat] is -1 (not yet), 0 (No) or 1 (Yes), cast from the mover on.
        voted = sum(1 for v in state.votes if v >= 0)
        said_no = [v == 0 for v in state.votes]
    mover = (turn - voted) % n if phase == 2 else 0
    totals = throne.totals(state)
    out: Values = {
        "rnd": rnd,
        "phase": phase,
        "turn": turn,
        "mover": mover,
        "voted": voted,
        "passes": state.passes,
    }
    out.update({f"fl{c}": f for c, f in enumerate(fl)})
    out.update({f"no{s}": throne.no_cards(state, s) for s in range(n)})
    out.update({f"said_no{s}": said_no[s] for s in range(n)})
    out.update({f"total{s}": totals[s] for s in range(n)})
    objective = [throne.objective(state, s) for s in range(n)]
    for s in range(n):
        for c, ch in enumerate(letters):
            out[f"obj{s}_{c}"] = ch in objective[s]
    return out


def next_objectives(state: State) -> tuple[tuple[bool, ...], ...]:
    """The chance outcome a round's end would draw: the next round's objectives."""
    n = state.players
    rnd = throne.round_of(state)
    letters = state.rules.letters()
    deal = throne.objectives_of_round(state, min(rnd + 1, state.rules.rounds))
    return tuple(tuple(ch in deal[s] for ch in letters) for s in range(n))


def concrete(system: ThroneSystem, values: Values) -> TState:
    """A state of constants from :func:`abstract` values."""
    template = system.fresh_state("c")
    return system.rebuild([lit(values[name]) for name, _e in template.fields()])


def state_values(model: Model, state: TState) -> Values:
    """The values of a symbolic state in a model."""
    out: Values = {}
    for name, expr in state.fields():
        if name.startswith(("said_no", "obj")):
            out[name] = model_bool(model, expr)
        else:
            out[name] = model_int(model, expr)
    return out


def encode_move(system: ThroneSystem, move: throne.Move, nobj: Sequence[Sequence[bool]]) -> TMove:
    """An engine move as a move of constants (with the given chance outcome)."""
    letters = system.p.rules.letters()
    kind, ch, floor, yes = K_PASS, 0, 0, False
    if isinstance(move, throne.Place):
        kind, ch, floor = K_PLACE, letters.index(move.character), move.floor
    elif isinstance(move, throne.Climb):
        kind, ch = K_CLIMB, letters.index(move.character)
    elif isinstance(move, throne.Vote):
        kind, yes = K_VOTE, move.yes
    return TMove(
        kind=lit(kind),
        ch=lit(ch),
        floor=lit(floor),
        yes=lit(yes),
        nobj=tuple(tuple(lit(b) for b in row) for row in nobj),
    )


def decode_move(system: ThroneSystem, model: Model, move: TMove) -> throne.Move:
    """The engine move a model gives to a symbolic move."""
    letters = system.p.rules.letters()
    kind = model_int(model, move.kind)
    if kind == K_PLACE:
        return throne.Place(letters[model_int(model, move.ch)], model_int(model, move.floor))
    if kind == K_CLIMB:
        return throne.Climb(letters[model_int(model, move.ch)])
    if kind == K_VOTE:
        return throne.Vote(model_bool(model, move.yes))
    return throne.Pass()


def model_objectives(
    system: ThroneSystem, model: Model, obj: Sequence[Sequence[Expr]]
) -> list[str]:
    """A model's objectives, one string of letters per seat."""
    letters = system.p.rules.letters()
    return [
        "".join(ch for c, ch in enumerate(letters) if model_bool(model, obj[s][c]))
        for s in system.seats
    ]


def filler_objectives(params: Params) -> list[str]:
    """Some valid objectives (distinct per seat) for rounds a trace does not depend on."""
    letters = params.rules.letters()
    size = params.rules.objective_size
    return [
        "".join(letters[(s + i) % len(letters)] for i in range(size)) for s in range(params.players)
    ]


def options_text(rules: throne.Rules) -> tuple[str, ...]:
    """The options that differ from ``Rules()``, as ``name=value`` text."""
    default = throne.Rules()
    out = []
    for name in type(rules).__attrs_attrs__:
        value = getattr(rules, name.name)
        if value != getattr(default, name.name):
            out.append(f"{name.name}={value!r}")
    return tuple(out)


def replay(start: State, moves: Sequence[throne.Move], note: str = "") -> tuple[Trace, State]:
    """Play ``moves`` from ``start`` through the engine; the trace and the last state.

    Raises the engine's :class:`~castlerules.IllegalMove` if the engine refuses a
    move: a witness the engine cannot replay is not a witness.
    """
    positions = [throne.to_text(start)]
    texts = []
    state = start
    for move in moves:
        texts.append(str(move))
        state = throne.apply(state, move)
        positions.append(throne.to_text(state))
    trace = Trace(
        game="throne",
        players=start.players,
        options=options_text(start.rules),
        positions=tuple(positions),
        moves=tuple(texts),
        note=note,
    )
    return trace, state


def first_moves_until(state: State, stop_round: int) -> list[throne.Move]:
    """A fixed, deterministic way to play until round ``stop_round`` begins:
    always the first legal move (used to reach a later round cheaply)."""
    moves: list[throne.Move] = []
    while throne.round_of(state) < stop_round and not throne.is_over(state):
        move = throne.legal_moves(state)[0]
        moves.append(move)
        state = throne.apply(state, move)
    return moves


def move_universe(system: ThroneSystem) -> list[throne.Move]:
    """Every move the notation can name for these rules (legal or not)."""
    letters = system.p.rules.letters()
    out: list[throne.Move] = []
    for ch in letters:
        out += [throne.Place(ch, f) for f in range(1, system.p.top + 1)]
    out += [throne.Climb(ch) for ch in letters]
    out += [throne.Vote(True), throne.Vote(False), throne.Pass()]
    return out


class Bridge:
    """The model's legality predicate and transition relation, asked about engine states.

    The symbolic formulas are built once (over free state and move variables)
    in two solvers; each question fixes the variables to an engine state's
    abstraction and a move, between ``push`` and ``pop``.
    """

    def __init__(self, system: ThroneSystem) -> None:
        self.system = system
        self.pre = system.fresh_state("pre")
        self.move = system.fresh_move("mv")
        self.post = system.fresh_state("post")
        self.legality = new_solver()
        self.legality.add(system.legal_move(self.pre, self.move))
        self.transition = new_solver()
        self.transition.add(
            system.legal(self.pre, self.move),
            system.equal(self.post, system.step(self.pre, self.move)),
        )

    def _fix_state(self, values: Values) -> list[Expr]:
        return [e == lit(values[name]) for name, e in self.pre.fields()]

    def legal_moves(self, state: State) -> set[str]:
        """Every move the model's legality predicate admits in ``state`` (as notation),
        enumerated by the solver (each model found is blocked, until none is left)."""
        solver = self.legality
        solver.push()
        try:
            solver.add(*self._fix_state(abstract(state)))
            m = self.move
            out: set[str] = set()
            while is_sat(solver.check()):
                model = solver.model()
                found = decode_move(self.system, model, m)
                out.add(str(found))
                solver.add(
                    any_of(
                        [
                            m.kind != model.eval(m.kind, model_completion=True),
                            m.ch != model.eval(m.ch, model_completion=True),
                            m.floor != model.eval(m.floor, model_completion=True),
                            m.yes != model.eval(m.yes, model_completion=True),
                        ]
                    )
                )
                if len(out) > 1000:
                    raise RuntimeError("the legality predicate admits too many moves")
            return out
        finally:
            solver.pop()

    def successors(self, state: State, move: throne.Move) -> list[Values]:
        """The successors the transition relation admits for ``move`` in ``state``, with
        the engine's chance outcome: the model agrees with the engine when this is
        exactly the abstraction of the engine's successor.  At most two are returned."""
        solver = self.transition
        solver.push()
        try:
            solver.add(*self._fix_state(abstract(state)))
            given = encode_move(self.system, move, next_objectives(state))
            m = self.move
            solver.add(m.kind == given.kind, m.ch == given.ch, m.floor == given.floor)
            solver.add(m.yes == given.yes)
            for row, given_row in zip(m.nobj, given.nobj, strict=True):
                solver.add(*(x == y for x, y in zip(row, given_row, strict=True)))
            found: list[Values] = []
            while len(found) < 2 and is_sat(solver.check()):
                values = state_values(solver.model(), self.post)
                found.append(values)
                solver.add(any_of(e != lit(values[name]) for name, e in self.post.fields()))
            return found
        finally:
            solver.pop()


class Transition:
    """The model's transition relation on concrete engine positions, without a solver.

    The relation is ``legal(pre, move)`` (the chance part included) and
    ``post == step(pre, move)``, where ``step`` is a function of ``pre`` and the
    move: for fixed values it admits the one successor ``step`` gives, or none.
    Both terms are compiled once (:func:`proofs.evaluate.compile_terms`, the same
    Z3 terms); :meth:`successors` answers as :meth:`Bridge.successors` does.
    """

    def __init__(self, system: ThroneSystem) -> None:
        from proofs.evaluate import compile_terms

        self.system = system
        pre, move, self.fields, inputs = transition_inputs(system, "t")
        outputs = [system.legal(pre, move), *(e for _n, e in system.step(pre, move).fields())]
        self._run = compile_terms(inputs, outputs)

    def successors(self, state: State, move: throne.Move) -> list[Values]:
        """The successors the relation admits for ``move`` in ``state`` with the
        engine's chance outcome: none, or exactly one."""
        values = abstract(state)
        code = encode_move(self.system, move, next_objectives(state))
        row: list[int | bool] = [values[name] for name in self.fields]
        row += move_values(code)
        row += [literal_value(x) for r in code.nobj for x in r]
        out = self._run(row)
        if not out[0]:
            return []
        return [dict(zip(self.fields, out[1:], strict=True))]


def transition_inputs(system: ThroneSystem, tag: str) -> tuple[Any, Any, list[str], list[Expr]]:
    """A fresh position and move of ``system`` (names from ``tag``), the names of the
    position's fields, and the inputs a compiled transition reads, in order: the
    position's fields, the move's kind, character, floor and vote, then the chance
    outcome (the objectives dealt next, ``nobj``)."""
    pre = system.fresh_state(tag)
    move = system.fresh_move(tag + "m")
    fields = [name for name, _e in pre.fields()]
    inputs = [e for _n, e in pre.fields()]
    inputs += [move.kind, move.ch, move.floor, move.yes]
    inputs += [x for row in move.nobj for x in row]
    return pre, move, fields, inputs


def move_values(code: Any) -> list[int | bool]:
    """The values of an encoded move's kind, character, floor and vote (:func:`encode_move`)."""
    return [
        literal_value(code.kind),
        literal_value(code.ch),
        literal_value(code.floor),
        literal_value(code.yes),
    ]
