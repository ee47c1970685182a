"""The fast engine against the rule kernel on full games: a differential benchmark.

``python benchmarks/bench_differential.py`` plays seeded random games of each
game of :data:`GAMES` (``--games N`` each, default 20,000) and, at every
position of every game (the final one included), asks both sides about every
move number of the kernel's universe (every move the notation can name, legal
or not):

- the engine's legality (``legal_moves``) and, for a refused move, the clause
  of the :class:`~castlerules.core.IllegalMove` that ``apply`` raises, must be
  the kernel's: legal when none of the move's guards is broken, else the
  clause of the first broken one, as ``judge`` decides (the
  benchmark asks ``guards`` and ``first_broken`` directly, the part of
  ``judge`` that decides legality);
- the move played (a seeded uniform choice among the legal moves) must lead to
  the kernel's successor: ``judge``'s ``post`` is ``from_state`` of the
  engine's successor (for Throne also the round's score, king and end).

The games cover every reading of the interpretation register as the study
of the register enumerates them
(:func:`castlerules.study.register_study.register_readings`: the default, each
preset and each single-option alternative), plus any preset that list leaves
out; game ``i`` is seed ``i`` (plus ``--seed``) under reading ``i mod R``
with the player count ``PLAYERS[(i // R) mod P]``, so every reading meets
every player count and the result does not depend on ``--jobs``.

A game is a small adapter (:class:`KernelGame`): how to load its kernel, the
chance outcome a move's judgement needs and how a successor compares.  A game
whose kernel module does not exist is reported as ``NAME: no kernel yet``
and skipped.  The terminal shows a progress line (done/total games, games/s); the
end prints a table (games, moves played, positions judged, moves judged,
mismatches, seconds) per reading and per game, and ``--json PATH`` (default
``artifacts/differential.json``) keeps the result with the command, the
machine and the load.  The exit status is 1 when any mismatch was found.
``tests/test_differential.py`` runs a share of the same code on every CI run.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from castlerules import ascent, options_text, records, throne
from castlerules.core import IllegalMove, Rng
from castlerules.core.ops import CONCRETE

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GAMES = 20_000
DEFAULT_JSON = ROOT / "artifacts" / "differential.json"
EXAMPLES = 20
"""Most mismatches described in full, per game (all of them are counted)."""


# ---------------------------------------------------------------------------
# The games


Judged = tuple[bool, str | None]
"""The kernel's legality of a move and, when refused, the clause of its first broken guard."""

ArrayVerdicts = tuple[list[list[Judged]], list[Any]]
"""What a game's array interpretation says of some states: per state the judgement of
every move number, and the successor of the move played (None for the last position)."""


@attrs.frozen(slots=True)
class KernelGame:
    """One game of the benchmark: its engine and how its kernel is asked.

    ``kernel_module`` is the kernel's import path; ``judge_all(kernel, shape,
    state)`` judges every move number of ``shape.moves`` in ``state``, in order;
    ``judge(kernel, shape, state, a)`` is the kernel's full verdict (``judge``) on
    move number ``a``, the move played; ``compare(kernel, state, after,
    verdict)`` says what differs between the engine's successor ``after`` and
    that verdict (``""``: nothing).
    """

    name: str
    module: Any
    kernel_module: str
    judge_all: Callable[[Any, Any, Any], Sequence[Judged]]
    judge: Callable[[Any, Any, Any, int], Any]
    compare: Callable[[Any, Any, Any, Any], str]
    arrays: Callable[[Any, Any, Sequence[Any], Sequence[int]], ArrayVerdicts] | None = None
    """``arrays(kernel, shape, states, played)``: the kernel run once on numpy arrays
    whose rows are ``states`` (the interpretation of :mod:`castlerules.batch`): the
    legality of every move number in each state, and the successor of move number
    ``played[i]`` in state ``i`` (``-1``: none, the game's last position); None when
    the game has no array interpretation yet."""

    def kernel(self) -> Any | None:
        """The kernel module, or None when there is none (a kernel that fails to import
        for another reason raises)."""
        try:
            return importlib.import_module(self.kernel_module)
        except ModuleNotFoundError as err:
            if err.name == self.kernel_module:
                return None
            raise


def _throne_position(kernel: Any, shape: Any, state: Any) -> Any:
    ks = kernel.from_state(state)
    return kernel.Position(CONCRETE, shape, kernel.Options.of(CONCRETE, shape.rules), ks)


def _throne_judge_all(kernel: Any, shape: Any, state: Any) -> list[Judged]:
    """The legality half of ``judge`` for every move number: its guards, in order, and
    the first broken (the successors are asked of the move played only)."""
    position = _throne_position(kernel, shape, state)
    out: list[Judged] = []
    for a in range(len(shape.moves)):
        checks = kernel.guards(position, kernel.decode(position, a))
        failed = kernel.first_broken(CONCRETE, checks)
        out.append((True, None) if failed < 0 else (False, checks[failed][0]))
    return out


def _throne_judge(kernel: Any, shape: Any, state: Any, a: int) -> Any:
    position = _throne_position(kernel, shape, state)
    chance = kernel.next_objectives(state)
    return kernel.judge(shape, position.s, a, chance, position)


def _throne_compare(kernel: Any, state: Any, after: Any, verdict: Any) -> str:
    expected = kernel.from_state(after)
    if verdict.post != expected:
        fields = [
            f"{f.name} (engine {getattr(expected, f.name)}, kernel {getattr(verdict.post, f.name)})"
            for f in attrs.fields(type(expected))
            if getattr(expected, f.name) != getattr(verdict.post, f.name)
        ]
        return "successor differs in " + ", ".join(fields[:4])
    outcome = verdict.outcome
    scored = len(after.results) > len(state.results)
    if scored != bool(outcome.scored):
        return f"the engine {'scores' if scored else 'does not score'} the round, the kernel not"
    if scored and (after.results[-1] != tuple(outcome.score) or after.kings[-1] != outcome.king):
        return (
            f"round scored {after.results[-1]}, king {after.kings[-1]} by the engine; "
            f"{tuple(outcome.score)}, king {outcome.king} by the kernel"
        )
    return ""


def _generic_judge_all(kernel: Any, shape: Any, state: Any) -> list[Judged]:
    """The legality half of ``judge`` for every move number, on one :class:`Position`
    of the state (the terms every move reads are built once per position): its guards,
    in order, and the first broken (the successor is asked of the move played only)."""
    ks = kernel.from_state(state)
    position = kernel.Position(CONCRETE, shape, kernel.Options.of(CONCRETE, shape.rules), ks)
    out: list[Judged] = []
    for a in range(len(shape.moves)):
        checks = kernel.guards(position, kernel.decode(position, a))
        failed = kernel.first_broken(CONCRETE, checks)
        out.append((True, None) if failed < 0 else (False, checks[failed][0]))
    return out


def _generic_judge(kernel: Any, shape: Any, state: Any, a: int) -> Any:
    return kernel.judge(shape, kernel.from_state(state), a)


def _generic_compare(kernel: Any, state: Any, after: Any, verdict: Any) -> str:
    expected = kernel.from_state(after)
    if verdict.post != expected:
        return f"successor differs: engine {expected}, kernel {verdict.post}"
    return ""


def _ascent_arrays(
    kernel: Any, shape: Any, states: Sequence[Any], played: Sequence[int]
) -> ArrayVerdicts:
    """:attr:`KernelGame.arrays` for Ascent: the kernel on numpy arrays (64-bit
    integers), through the batch's layout of a position (one row per quantity, one
    column per state)."""
    import numpy as np

    from castlerules.batch.arrays import ArrayOps
    from castlerules.batch.ascent import Layout

    layout = Layout.of(shape)
    shuffled = layout.owner is None  # the deal in rows of its own (A18)

    def column(k: Any) -> list[int]:  # the rows of Layout.unpack, as plain numbers
        own = [*k.own] if shuffled else []
        return [*k.col, *k.sq, *k.dep, *k.flp, *own, k.actor, k.mid, k.sd, k.sm, k.sk, k.replays]

    data = np.asarray([column(kernel.from_state(s)) for s in states], dtype=np.int64).T
    o = ArrayOps(np, np.int64)
    position = kernel.Position(o, shape, kernel.Options.of(o, shape.rules), layout.unpack(data))
    n = len(states)
    judged: list[list[Judged]] = [[] for _ in range(n)]
    for a in range(len(shape.moves)):
        checks = kernel.guards(position, kernel.decode(position, a))
        failed = np.broadcast_to(np.asarray(kernel.first_broken(o, checks)), (n,))
        for i, f in enumerate(failed.tolist()):
            judged[i].append((True, None) if f < 0 else (False, checks[f][0]))
    moves = np.asarray([max(a, 0) for a in played], dtype=np.int64)
    out = kernel.step(position, kernel.decode(position, moves))
    post = np.asarray(layout.pack(np, out.post, n), dtype=np.int64)
    successors = [layout.unpack(post[:, i].tolist()) if played[i] >= 0 else None for i in range(n)]
    return judged, successors


GAMES: dict[str, KernelGame] = {
    "throne": KernelGame(
        "throne",
        throne,
        "castlerules.throne.kernel",
        _throne_judge_all,
        _throne_judge,
        _throne_compare,
    ),
    "ascent": KernelGame(
        "ascent",
        ascent,
        "castlerules.ascent.kernel",
        _generic_judge_all,
        _generic_judge,
        _generic_compare,
        _ascent_arrays,
    ),
}
"""The games, by name.  Ascent's adapter assumes a kernel of Throne's shape
(``Shape.of(rules, players)`` with ``moves``, ``from_state``, ``Position``,
``Options.of`` and ``judge(shape, s, a, position)`` returning ``legal``, ``clause``
and ``post``)."""


def readings(game: KernelGame) -> list[tuple[str, Any]]:
    """``(name, rules)`` of every reading the games of ``game`` are played under."""
    from castlerules.study.register_study import register_readings

    module = game.module
    out = [(r.name, r.rules(module)) for r in register_readings(module)]
    for name in module.Rules.PRESETS:
        rules = module.Rules.preset(name)
        if all(rules != other for _n, other in out):
            out.append((name, rules))
    return out


# ---------------------------------------------------------------------------
# One game


@attrs.define(slots=True)
class Count:
    """What was judged, and what disagreed, over some games."""

    games: int = 0
    moves: int = 0
    """Moves played."""
    positions: int = 0
    """Positions judged (every position of every game, the final one included)."""
    pairs: int = 0
    """(position, move number) pairs judged."""
    legal: int = 0
    """Pairs legal under both."""
    mismatches: int = 0
    examples: list[str] = attrs.field(factory=list)

    def add(self, other: Count) -> None:
        """Add ``other``'s counts (and examples, up to :data:`EXAMPLES`) to these."""
        self.games += other.games
        self.moves += other.moves
        self.positions += other.positions
        self.pairs += other.pairs
        self.legal += other.legal
        self.mismatches += other.mismatches
        self.examples.extend(other.examples[: max(0, EXAMPLES - len(self.examples))])

    def data(self) -> dict[str, Any]:
        """As JSON data."""
        return attrs.asdict(self)


Where = Callable[[], str]
"""Names the position being judged (called only to describe a mismatch)."""


def _mismatch(count: Count, where: Where, text: str) -> None:
    count.mismatches += 1
    if len(count.examples) < EXAMPLES:
        count.examples.append(f"{where()}: {text}")


def check_position(
    game: KernelGame,
    kernel: Any,
    shape: Any,
    state: Any,
    count: Count,
    where: Where,
    judged: Sequence[Judged] | None = None,
) -> tuple[Any, ...]:
    """Judge every move number in ``state`` by both sides; the engine's legal moves.
    ``judged``: the kernel's side when it is already known (the array interpretation)."""
    module = game.module
    if judged is None:
        judged = game.judge_all(kernel, shape, state)
    legal_moves = module.legal_moves(state)
    legal = set(legal_moves)
    universe = shape.moves
    count.positions += 1
    count.pairs += len(universe)
    for move, (ok, clause) in zip(universe, judged, strict=True):
        if move in legal:
            if ok:
                count.legal += 1
            else:
                _mismatch(count, where, f"{move}: engine legal, kernel refuses ({clause})")
            continue
        try:
            module.apply(state, move)
        except IllegalMove as err:
            if ok or clause != err.clause:
                kernel_says = "legal" if ok else f"refuses ({clause})"
                _mismatch(
                    count, where, f"{move}: engine refuses ({err.clause}), kernel {kernel_says}"
                )
            continue
        _mismatch(count, where, f"{move}: apply accepts a move legal_moves does not list")
    outside = legal.difference(universe)
    if outside:
        _mismatch(count, where, f"legal moves outside the universe: {sorted(map(str, outside))}")
    return tuple(legal_moves)


def play_game(
    game: KernelGame, kernel: Any, name: str, rules: Any, players: int, seed: int
) -> Count:
    """One seeded random game of ``players`` under ``rules``, judged at every position."""
    module = game.module
    shape = kernel.Shape.of(rules, players)
    index = {move: a for a, move in enumerate(shape.moves)}
    state = module.new_game(players, rules=rules, seed=seed)
    rng = Rng.from_seed(seed, f"differential.{game.name}")
    count = Count(games=1)
    ply = 0

    def where() -> str:
        return f"{name}, {players} players, seed {seed}, ply {ply} ({module.to_text(state)})"

    while True:
        legal = check_position(game, kernel, shape, state, count, where)
        if module.is_over(state):
            break
        move, rng = rng.choice(legal)
        after = module.apply(state, move)
        if move in index:
            verdict = game.judge(kernel, shape, state, index[move])
            if not verdict.legal:
                _mismatch(count, where, f"{move}: played, and the kernel refuses it")
            else:
                problem = game.compare(kernel, state, after, verdict)
                if problem:
                    _mismatch(count, where, f"{move}: {problem}")
        state = after
        ply += 1
        count.moves += 1
    return count


def play_games_on_arrays(
    game: KernelGame, kernel: Any, name: str, rules: Any, players: int, seeds: Sequence[int]
) -> Count:
    """The games of :func:`play_game` (the same moves), with the kernel's side run once
    on arrays of all their positions (:attr:`KernelGame.arrays`): the engine plays each
    game out first, then every position and every move played is judged."""
    assert game.arrays is not None
    module = game.module
    shape = kernel.Shape.of(rules, players)
    index = {move: a for a, move in enumerate(shape.moves)}
    states: list[Any] = []
    played: list[int] = []
    places: list[tuple[int, int]] = []
    for seed in seeds:
        state = module.new_game(players, rules=rules, seed=seed)
        rng = Rng.from_seed(seed, f"differential.{game.name}")
        ply = 0
        while True:
            states.append(state)
            places.append((seed, ply))
            if module.is_over(state):
                played.append(-1)
                break
            move, rng = rng.choice(module.legal_moves(state))
            played.append(index.get(move, -1))
            state = module.apply(state, move)
            ply += 1
    judged, successors = game.arrays(kernel, shape, states, played)
    count = Count(games=len(seeds))
    for i, state in enumerate(states):
        seed, ply = places[i]

        def where(seed: int = seed, ply: int = ply, state: Any = state) -> str:
            return f"{name}, {players} players, seed {seed}, ply {ply} ({module.to_text(state)})"

        legal = check_position(game, kernel, shape, state, count, where, judged[i])
        if module.is_over(state):
            continue
        count.moves += 1
        move = shape.moves[played[i]] if played[i] >= 0 else None
        if move is None:
            continue
        after = states[i + 1]
        if move not in legal:
            continue
        ok, _clause = judged[i][played[i]]
        if not ok:
            _mismatch(count, where, f"{move}: played, and the kernel refuses it")
            continue
        expected = kernel.from_state(after)
        if successors[i] != expected:
            _mismatch(
                count,
                where,
                f"{move}: successor differs: engine {expected}, kernel {successors[i]}",
            )
    return count


# ---------------------------------------------------------------------------
# Many games


def plan(game: KernelGame, games: int, seed: int) -> list[tuple[str, int, int]]:
    """``(reading name, players, seed)`` of each game: every reading meets every count."""
    names = [n for n, _r in readings(game)]
    counts = list(game.module.PLAYERS)
    return [
        (names[i % len(names)], counts[(i // len(names)) % len(counts)], seed + i)
        for i in range(games)
    ]


ON = ("values", "arrays")
"""What the kernel runs on: plain Python values, one position at a time (the reference
reading), or numpy arrays of a chunk's positions at once (for games that have an array
interpretation; the others run on values)."""


def run_chunk(
    name: str, chunk: Sequence[tuple[str, int, int]], on: str = "values"
) -> tuple[dict[str, Count], float]:
    """Play the games of ``chunk`` (in a worker); the counts per reading and the CPU time."""
    started = time.process_time()
    game = GAMES[name]
    kernel = game.kernel()
    assert kernel is not None
    rules = dict(readings(game))
    out: dict[str, Count] = {}
    if on == "arrays" and game.arrays is not None:
        groups: dict[tuple[str, int], list[int]] = {}
        for reading, players, seed in chunk:
            groups.setdefault((reading, players), []).append(seed)
        for (reading, players), seeds in groups.items():
            out.setdefault(reading, Count()).add(
                play_games_on_arrays(game, kernel, reading, rules[reading], players, seeds)
            )
        return out, time.process_time() - started
    for reading, players, seed in chunk:
        out.setdefault(reading, Count()).add(
            play_game(game, kernel, reading, rules[reading], players, seed)
        )
    return out, time.process_time() - started


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Progress:
    """The progress line: done/total games and games/s (rewritten in place on a terminal)."""

    def __init__(self, name: str, total: int, *, quiet: bool = False) -> None:
        self.name, self.total, self.quiet = name, total, quiet
        self.started = time.perf_counter()
        self.shown = self.started
        self.tty = sys.stderr.isatty()

    def update(self, done: int) -> None:
        """Show ``done`` games out of the total (on a log, every 30 s and at the end)."""
        now = time.perf_counter()
        if self.quiet or (not self.tty and done < self.total and now - self.shown < 30):
            return
        self.shown = now
        rate = done / max(now - self.started, 1e-9)
        left = (self.total - done) / rate if rate else 0.0
        line = (
            f"{self.name}: {done:,}/{self.total:,} games, {rate:.1f} games/s, "
            f"{now - self.started:.0f} s, about {left:.0f} s left"
        )
        end = "\n" if done >= self.total or not self.tty else ""
        sys.stderr.write(("\r" + line + "\x1b[K" if self.tty else line) + end)
        sys.stderr.flush()


def run_game(
    name: str,
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    quiet: bool = False,
    on: str = "values",
) -> dict[str, Any]:
    """Play and judge ``games`` games of ``name``; the result (JSON data)."""
    game = GAMES[name]
    if game.kernel() is None:
        return {"kernel": False, "note": f"{name}: no kernel yet"}
    games_plan = plan(game, games, seed)
    per: dict[str, Count] = {n: Count() for n, _r in readings(game)}
    started = time.perf_counter()
    cpu = 0.0
    progress = Progress(name, games, quiet=quiet)
    size = max(1, min(50, games // (jobs * 8) or 1))
    if on == "arrays" and game.arrays is not None:
        # Long arrays: a chunk holds several games of each (reading, player count).
        cycle = len(per) * len(game.module.PLAYERS)
        size = max(1, min(cycle * 10, games // (jobs * 2) or 1))
    chunks = list(_chunks(games_plan, size))
    done = 0
    if jobs <= 1:
        results: Iterator[tuple[dict[str, Count], float]] = (run_chunk(name, c, on) for c in chunks)
        for counts, seconds in results:
            done = _merge(per, counts, done)
            cpu += seconds
            progress.update(done)
    else:
        with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(run_chunk, name, c, on) for c in chunks]
            for future in concurrent.futures.as_completed(futures):
                counts, seconds = future.result()
                done = _merge(per, counts, done)
                cpu += seconds
                progress.update(done)
    total = Count()
    for count in per.values():
        total.add(count)
    rules = dict(readings(game))
    return {
        "kernel": True,
        "readings": [
            {"name": n, "rules": _rules_text(game, rules[n]), **per[n].data()} for n in per
        ],
        "total": total.data(),
        "on": on if game.arrays is not None else "values",
        "seconds": time.perf_counter() - started,
        "cpu_seconds": cpu,
    }


def _merge(per: dict[str, Count], counts: dict[str, Count], done: int) -> int:
    for reading, count in counts.items():
        per[reading].add(count)
        done += count.games
    return done


def _rules_text(game: KernelGame, rules: Any) -> str:
    preset, options = records.rules_preset_and_options(game.module, rules, None)
    return " + ".join([preset, *(f"{k}={options_text.to_text(v)}" for k, v in options)])


# ---------------------------------------------------------------------------
# The report


def table(results: dict[str, dict[str, Any]]) -> str:
    """The summary table: per reading and per game."""
    head = ("game / reading", "games", "moves", "positions", "moves judged", "mismatches", "s")
    keys = ("games", "moves", "positions", "pairs", "mismatches")
    rows: list[tuple[str, ...]] = []
    for name, result in results.items():
        if not result["kernel"]:
            continue
        for r in result["readings"]:
            rows.append((f"  {r['name']}", *(f"{r[k]:,}" for k in keys), ""))
        t = result["total"]
        rows.append((name, *(f"{t[k]:,}" for k in keys), f"{result['seconds']:.0f}"))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([line(head), *(line(r) for r in rows)])


def machine() -> dict[str, Any]:
    """The machine the run was made on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "system": platform.platform(),
        "python": platform.python_version(),
    }


def _commit() -> str:
    import subprocess

    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python benchmarks/bench_differential.py",
        description="The fast engine against the rule kernel on seeded random full games.",
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per game (20000)")
    parser.add_argument(
        "--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--json", default=str(DEFAULT_JSON), help="where to write the result (artifacts/...)"
    )
    parser.add_argument(
        "--on",
        choices=ON,
        default="values",
        help="the kernel on plain values (default) or on numpy arrays of a chunk's positions",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    names = args.game or list(GAMES)
    load_start = _load()
    commit = _commit()
    started = time.perf_counter()
    results: dict[str, dict[str, Any]] = {}
    for name in names:
        results[name] = run_game(
            name, args.games, seed=args.seed, jobs=args.jobs, quiet=args.quiet, on=args.on
        )
        if not results[name]["kernel"]:
            print(results[name]["note"])
    print(table(results))
    payload = {
        "command": "python benchmarks/bench_differential.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
        "machine": machine(),
        "jobs": args.jobs,
        "on": args.on,
        "nice": os.nice(0),
        "load_start": load_start,
        "load_end": _load(),
        "seconds": time.perf_counter() - started,
        "games": results,
    }
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    bad = sum(r["total"]["mismatches"] for r in results.values() if r["kernel"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
