"""Shrinking a disagreement to the shortest game the kit can find that still shows it.

The game is a list of moves from a start.  :func:`shrink` takes chunks out of
it (halves, quarters, ... single moves, as in delta debugging), replays what
is left on both sides (a move that has become illegal is left out), and keeps
any shorter game in which the engine parts from the reference in the same way
(the same kind of difference, about the same clause).  Every try is a full
comparison, move by move, so the game kept shows no earlier difference; a
refused move that the engine played is tried again in every position of the
shorter games.  It stops when no single move can go, or when its time is spent.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import attrs

from castlerules.conform import reference
from castlerules.conform.reference import Reading
from castlerules.conform.runner import Disagreement, Plan, Runner

__all__ = ["Shrunk", "shrink"]


@attrs.frozen(slots=True)
class Shrunk:
    """A shrunk disagreement, with how it was shrunk."""

    disagreement: Disagreement
    found: Disagreement
    """The disagreement as first found."""
    tries: int
    finished: bool
    """Whether shrinking went to its end (no single move can be left out), not stopped by
    its time."""


def shrink(
    runner: Runner,
    reading: Reading,
    found: Disagreement,
    *,
    seconds: float,
    progress: Callable[[str], None] | None = None,
) -> Shrunk:
    """The shortest game the kit can find, within ``seconds``, that shows ``found``."""
    if found.kind in ("protocol", "start") or not found.moves:
        return Shrunk(found, found, 0, True)
    deadline = time.monotonic() + seconds
    start = reference.start(reading, found.players, found.seed)
    probes = (found.move,) if found.kind == "refusal" and found.move else ()
    best = found
    tries = 0
    saved = runner.sample
    runner.sample = 0
    try:

        def attempt(moves: tuple[str, ...]) -> Disagreement | None:
            nonlocal tries
            tries += 1
            plan = Plan(
                start,
                "shrink",
                moves=moves,
                skip_illegal=True,
                probe_every_ply=probes,
            )
            result = runner.play(plan)
            if result is None or not result.same_as(found) or result.plies >= best.plies:
                return None
            return attrs.evolve(result, source=found.source)

        chunk = max(1, len(best.moves) // 2)
        while chunk >= 1:
            improved = False
            at = 0
            while at < len(best.moves):
                if time.monotonic() > deadline:
                    return Shrunk(best, found, tries, False)
                moves = best.moves[:at] + best.moves[at + chunk :]
                shorter = attempt(moves)
                if shorter is not None:
                    best = shorter
                    improved = True
                    if progress is not None:
                        progress(f"shrinking: {best.plies} plies ({tries} tries)")
                else:
                    at += chunk
            if not improved:
                if chunk == 1:
                    break
                chunk //= 2
            else:
                chunk = min(chunk, max(1, len(best.moves) // 2))
        return Shrunk(best, found, tries, True)
    finally:
        runner.sample = saved
