"""The annotated game record: each move with what it did, then the result.

Shared by ``castlerules demo`` and ``castlerules replay --annotate``::

    start  <position>
       1. seat 0  C3       C is placed on floor 3 (B6)
       ...
    scores seat 0: 31  seat 1: 40 ...
    winner: seat 1
    end    <position>
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from castlerules import records
from castlerules.cli import common

Write = Callable[[str], Any]


def header(record: records.Record, write: Write) -> None:
    """The record's game, players, rules and seed, and the starting position."""
    module = record.module
    rules = common.rules_label(module, record.rules(), record.preset)
    extra = ""
    if record.objectives is not None:
        extra += ", explicit objectives"
    if record.first_player is not None:
        extra += f", first player seat {record.first_player}"
    write(
        f"{module.NAME.capitalize()}: {record.players} players, rules {rules}, "
        f"seed {record.seed}{extra}, {len(record.moves)} moves\n"
    )


def start_line(module: Any, state: Any, write: Write) -> None:
    """``start  <position>``."""
    write(f"start  {module.to_text(state)}\n")


def step_line(step: records.Step, write: Write) -> None:
    """``  12. seat 1  C+       C climbs to floor 4 (B8); ...``."""
    seat = "-" if step.seat is None else str(step.seat)
    notes = "; ".join(str(e) for e in step.events)
    write(f"{step.ply:4}. seat {seat}  {step.text:<8} {notes}\n".rstrip() + "\n")


def footer(module: Any, state: Any, write: Write) -> None:
    """Scores and winners of a finished game (or who is to play), and the final position."""
    if module.is_over(state):
        scores = module.scores(state)
        write("scores " + "  ".join(f"seat {i}: {p}" for i, p in enumerate(scores)) + "\n")
        winners = module.winners(state)
        word = "winner" if len(winners) == 1 else "winners (shared win)"
        write(f"{word}: " + ", ".join(f"seat {w}" for w in winners) + "\n")
    else:
        write(f"not over: seat {module.current_player(state)} to play\n")
    write(f"end    {module.to_text(state)}\n")


def explain_hint(module: Any, state: Any, move: str) -> str:
    """The ``castlerules explain`` command line that examines ``move`` in ``state``."""
    position = shlex.quote(module.to_text(state))
    return f"castlerules explain {module.NAME} {position} {shlex.quote(move)}"
