"""Between the Throne engine and the kernel's Z3 system: positions, moves, replay.

- :func:`values_of` reads an engine :class:`~castlerules.throne.State` as the
  kernel's position of plain values (:func:`castlerules.throne.kernel.from_state`);
- :class:`Bridge` asks the system's Z3 terms (the kernel on Z3 terms,
  :class:`castlerules.symbolic.throne.ThroneSystem`) about an engine position: the
  legal moves and the successor of a move (:func:`agrees`);
- :func:`replay` plays a move list through the engine's public API and
  returns the positions in notation, so that every witness and
  counterexample is checked by the engine itself and can be drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from castlerules import throne
from castlerules.symbolic.throne import ThroneSystem, fields
from castlerules.throne import kernel
from castlerules.throne.kernel import KState
from castlerules.throne.state import State
from proofs.core import Trace

Values = list[tuple[str, int | bool]]
"""The value of every field of a kernel position, by its flat name."""


def values_of(state: State) -> KState:
    """The kernel's position of an engine state, as plain values."""
    return kernel.from_state(state)


def _value(term: Any) -> int | bool:
    """The value of a term of constants (simplified by Z3), or of a plain value."""
    if isinstance(term, bool | int):
        return term
    done = z3.simplify(term)
    if z3.is_true(done) or z3.is_false(done):
        return bool(z3.is_true(done))
    if not z3.is_int_value(done):
        raise ValueError(f"not a constant: {done}")
    return int(done.as_long())


class Bridge:
    """The system's Z3 terms, run on an engine position's values (Z3 folds the
    constants; nothing is solved): what the proofs' transition says of the position."""

    def __init__(self, system: ThroneSystem) -> None:
        self.system = system

    def legal_moves(self, state: State) -> set[str]:
        """Every move (in notation) whose Z3 legality holds on ``state``."""
        pre = self.system.plain(values_of(state))
        return {
            str(move)
            for a, move in enumerate(self.system.moves)
            if _value(self.system.legal_at(pre, a))
        }

    def successors(self, state: State, move: throne.Move) -> list[Values]:
        """The successor the system gives ``move`` in ``state`` with the engine's chance
        outcome: ``[]`` if its legality does not hold, else the one successor."""
        system = self.system
        pre = system.plain(values_of(state))
        a = system.number(move)
        if not _value(system.legal_at(pre, a)):
            return []
        nobj = kernel.next_objectives(state)
        out = system.outcome_at(pre, a, nobj)
        return [[(name, _value(x)) for name, x in fields(out.post)]]


def abstract(state: State) -> Values:
    """An engine position as the flat values of the kernel's position."""
    return [(name, x) for name, x in fields(values_of(state))]


def agrees(system: ThroneSystem, state: State, move: throne.Move, after: State) -> bool:
    """The system finds ``move`` legal in ``state`` and gives the engine's ``after``."""
    return Bridge(system).successors(state, move) == [abstract(after)]


def filler_objectives(rules: throne.Rules, players: int) -> list[str]:
    """Some valid objectives (distinct per seat) for rounds a trace does not depend on."""
    letters = rules.letters()
    size = rules.objective_size
    return ["".join(letters[(s + i) % len(letters)] for i in range(size)) for s in range(players)]


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
