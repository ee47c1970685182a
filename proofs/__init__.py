"""Z3 proofs of the consequences the specs say must be proved (spec/*.md).

``python -m proofs`` runs every property and prints a table; ``--json`` for
machines.  Programmatically:

>>> from proofs import Result, run_all          # doctest: +SKIP
>>> results = run_all(fast=True)                # doctest: +SKIP
>>> all(r.ok for r in results)                  # doctest: +SKIP
True

Each :class:`~proofs.core.Result` names the property, the game, the clause IDs
it proves, the method (induction, ranking function, witness...), whether it
holds, the time, and, for witnesses and counterexamples, a
:class:`~proofs.core.Trace`: engine positions in notation and the moves, as
replayed through the engine.

Layout: :mod:`castlerules.symbolic.smt` (typed Z3 helpers), :mod:`proofs.core`
(results, induction, BMC), :mod:`castlerules.symbolic.throne` (Throne's rule kernel
run on Z3 terms: the transition system), :mod:`castlerules.symbolic.throne_invariant`
(what is claimed of its positions), :mod:`proofs.throne_bridge` (engine <-> system,
replay), :mod:`proofs.throne` (the Throne properties).  The Ascent proofs live in
:mod:`proofs.ascent` (over :mod:`castlerules.symbolic.ascent_model`); :func:`run_all`
includes them when that module provides ``results(fast: bool) -> list[Result]``.
:mod:`proofs.strength` checks that every property, as written, rejects the
counter-witnesses its clauses forbid (a weakened property fails the run).
:mod:`proofs.ascent_equal` proves the Ascent model the kernel on Z3 for the games of
the Ascent BMC (two players); the run holds the jobs that fit in its time
(:data:`ASCENT_EQUAL`); the rest (:data:`ASCENT_EQUAL_LONG`) is the *long run*,
``python -m proofs --long``, which CI runs after the proof run.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import attrs

from proofs.core import Result, Trace

__all__ = ["Result", "Task", "Trace", "merge", "run_all", "source_hash", "tasks"]


@attrs.frozen(slots=True)
class Task:
    """One independent job of a proof run.

    ``cost`` is its estimated CPU time in seconds on one core (:data:`COSTS`,
    from ``python benchmarks/bench.py --proofs``): only used to start the
    longest jobs first, so that the two processes finish together.
    """

    name: str
    cost: float
    run: Callable[[bool], list[Result]]


def _throne_config(preset: str, players: int) -> Callable[[bool], list[Result]]:
    def run(fast: bool) -> list[Result]:
        from proofs import throne

        if fast and players not in throne.FAST_PLAYERS:
            return []
        config = next(c for c in throne.configs() if (c.preset, c.players) == (preset, players))
        return throne.induction_results([(config, throne.prove_config(config))])

    return run


def _throne_witnesses(fast: bool) -> list[Result]:
    from proofs import throne

    return throne.witness_results(fast)


def _throne_sensitivity(fast: bool) -> list[Result]:
    del fast
    from proofs import throne

    return throne.sensitivity_results()


def _ascent_induction(stack_rank: str) -> Callable[[bool], list[Result]]:
    def run(fast: bool) -> list[Result]:
        from proofs import ascent

        return ascent.induction_results(ascent.players(fast), stack_rank)

    return run


def _ascent_sensitivity(fast: bool) -> list[Result]:
    from proofs import ascent

    return ascent.sensitivity_results(fast)


def _strength(fast: bool) -> list[Result]:
    del fast
    from proofs import strength

    return strength.results()


def _throne_premises(fast: bool) -> list[Result]:
    del fast
    from proofs import premises

    return [premises.throne_result()]


def _ascent_equal(part: str, game: str, under_fast: bool) -> Callable[[bool], list[Result]]:
    """The job of one part of :mod:`proofs.ascent_equal` on one game of its ``GAMES``;
    under ``--fast`` only where ``under_fast``."""

    def run(fast: bool) -> list[Result]:
        from proofs import ascent_equal

        if fast and not under_fast:
            return []
        return ascent_equal.results(part, game=game)

    return run


def _ascent_equal_jobs(
    parts: Sequence[str], all_games_fast: bool
) -> list[tuple[str, Callable[[bool], list[Result]]]]:
    """One job per part and game (``ascent: equal <part> <game>``), so that the processes
    share them evenly; under ``--fast`` every game if ``all_games_fast``, else the first
    (the reference rules) only."""
    from proofs.ascent_equal import GAMES

    first = GAMES[0][0]
    return [
        (
            f"ascent: equal {part} {label}",
            _ascent_equal(part, label, all_games_fast or label == first),
        )
        for part in parts
        for label, _options, _players in GAMES
    ]


def _ascent_premises(fast: bool) -> list[Result]:
    del fast
    from proofs import premises

    return [premises.ascent_result()]


ASCENT_EQUAL = ("turn", "advance", "advances")
"""The jobs of :mod:`proofs.ascent_equal` (its ``PARTS``) the proof run runs: the
model's EndTurn (both ways) and Advance are the kernel's, with the lemma "who may
advance" they rest on; one task per job and game of :data:`proofs.ascent_equal.GAMES`,
so that the two processes share them evenly.  The Favour's job and the converse would
take the proof run past its 120 s on two cores (the proofs page): they are the long
run's (:data:`ASCENT_EQUAL_LONG`)."""

ASCENT_EQUAL_LONG = ("favour", "converse")
"""The jobs of :mod:`proofs.ascent_equal` the *long run* runs (``python -m proofs
--long``; CI runs it after the proof run): the model's Favour is the kernel's, and
every move the kernel accepts is one of the model's.  One task per job and game of
:data:`proofs.ascent_equal.GAMES`, so that two processes share them evenly."""

COSTS: dict[str, float] = {
    "throne: induction SEED 3p": 8.7,
    "throne: induction SEED 4p": 10.5,
    "throne: induction SEED 5p": 10.0,
    "throne: induction SEED 6p": 17.4,
    "throne: induction ORIGINAL 3p": 14.1,
    "throne: induction ORIGINAL 4p": 12.7,
    "throne: induction ORIGINAL 5p": 14.8,
    "throne: induction ORIGINAL 6p": 16.2,
    "throne: witnesses": 8.8,
    "throne: sensitivity": 14.2,
    "ascent: induction": 21.8,
    "ascent: induction highest": 23.4,
    "ascent: sensitivity": 22.5,
    "throne: premises": 0.7,
    "ascent: premises": 1.0,
    "ascent: equal turn reference": 2.2,
    "ascent: equal turn allow_exposing_split": 2.2,
    "ascent: equal advance reference": 50.0,
    "ascent: equal advance allow_exposing_split": 50.0,
    "ascent: equal advances reference": 16.0,
    "ascent: equal advances allow_exposing_split": 16.0,
    "ascent: equal favour reference": 23.0,
    "ascent: equal favour allow_exposing_split": 22.0,
    "ascent: equal converse reference": 45.0,
    "ascent: equal converse allow_exposing_split": 42.0,
    "strength": 0.5,
}
"""The schedule's estimate of each job's CPU seconds on one core (``python
benchmarks/bench.py --proofs`` measures them; a job missing here counts 10 s)."""


def long_tasks() -> list[Task]:
    """The independent jobs of the long run (:data:`ASCENT_EQUAL_LONG`), in report order."""
    jobs = _ascent_equal_jobs(ASCENT_EQUAL_LONG, all_games_fast=True)
    return [Task(name, COSTS.get(name, 10.0), run) for name, run in jobs]


def tasks() -> list[Task]:
    """The independent jobs of a proof run, in report order."""
    from castlerules import throne

    jobs: list[tuple[str, Callable[[bool], list[Result]]]] = [
        (f"throne: induction {preset} {n}p", _throne_config(preset, n))
        for preset in ("SEED", "ORIGINAL")
        for n in throne.PLAYERS
    ]
    jobs += [
        ("throne: witnesses", _throne_witnesses),
        ("throne: sensitivity", _throne_sensitivity),
        ("ascent: induction", _ascent_induction("top")),
        ("ascent: induction highest", _ascent_induction("highest")),
        ("ascent: sensitivity", _ascent_sensitivity),
        ("throne: premises", _throne_premises),
        ("ascent: premises", _ascent_premises),
        *_ascent_equal_jobs(ASCENT_EQUAL, all_games_fast=False),
        ("strength", _strength),
    ]
    return [Task(name, COSTS.get(name, 10.0), run) for name, run in jobs]


def _run(name: str, fast: bool) -> list[Result]:
    task = next(t for t in [*tasks(), *long_tasks()] if t.name == name)
    return task.run(fast)


Progress = Callable[[int, int, str, Sequence[Result]], None]
"""Called as each job finishes: (jobs done, jobs in all, the job's name, its results)."""


def run_all(
    fast: bool = False,
    jobs: int | None = None,
    only: Sequence[str] = (),
    progress: Progress | None = None,
    long: bool = False,
) -> list[Result]:
    """Run every proof; results in a fixed order (deterministic, whatever ``jobs``).

    ``fast`` limits the player counts to the smallest and the largest; ``jobs``
    is the number of processes (default: 2, or 1 on a single core); ``only``
    keeps the tasks whose name starts with one of these prefixes.  The jobs
    start longest first (:attr:`Task.cost`); the results come in report order.
    ``progress`` is told of each job as it finishes (:data:`Progress`).  ``long``
    runs the long run's jobs (:func:`long_tasks`) instead of the proof run's.
    """
    pool_of = long_tasks() if long else tasks()
    chosen = [t for t in pool_of if not only or t.name.startswith(tuple(only))]
    workers = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    done: dict[str, list[Result]] = {}

    def finished(name: str, results: list[Result]) -> None:
        done[name] = results
        if progress is not None:
            progress(len(done), len(chosen), name, results)

    if workers <= 1 or len(chosen) <= 1:
        for t in chosen:
            finished(t.name, t.run(fast))
        return merge([r for t in chosen for r in done[t.name]])
    by_cost = sorted(chosen, key=lambda t: -t.cost)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_run, t.name, fast): t.name for t in by_cost}
        for future in as_completed(futures):
            finished(futures[future], future.result())
    return merge([r for t in chosen for r in done[t.name]])


def source_hash() -> str:
    """A hash of the sources a proof run reads: every ``.py`` file of the engine
    (``castlerules/``, drawings aside) and of ``proofs/``.  Saved with the results
    (``python -m proofs --save``) so that a reader (the docs build) can tell
    whether they are still those of the code at hand."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for base in (root / "castlerules", root / "proofs"):
        for path in sorted(base.rglob("*.py")):
            if path.name == "diagram.py":
                continue
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def merge(results: Sequence[Result]) -> list[Result]:
    """Merge the results that share a name (one property proved by several tasks, e.g.
    one per configuration): it holds if every part holds; times and queries add
    up; the scopes and the details are listed once each."""
    order: list[str] = []
    groups: dict[str, list[Result]] = {}
    for result in results:
        if result.name not in groups:
            order.append(result.name)
            groups[result.name] = []
        groups[result.name].append(result)
    out = []
    for name in order:
        parts = groups[name]
        first = parts[0]
        if len(parts) == 1:
            out.append(first)
            continue
        scopes = list(dict.fromkeys(p.scope for p in parts))
        details = list(dict.fromkeys(x for p in parts for x in p.detail.split("; ") if x))
        out.append(
            attrs.evolve(
                first,
                holds=all(p.holds for p in parts),
                seconds=sum(p.seconds for p in parts),
                queries=sum(p.queries for p in parts),
                scope=", ".join(scopes),
                detail="; ".join(details),
            )
        )
    return out
