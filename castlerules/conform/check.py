"""A whole check: an engine, a reading (or all of the register's), the games, the verdict.

:func:`check` starts the engine (a command, or an :class:`~castlerules.conform.Engine`
in-process), checks its ``hello``, then plays the games of
:mod:`castlerules.conform.sources` in order (the casebook's, the small scopes',
seeded random and Hypothesis-chosen games until ``games`` or ``seconds``),
stops at the first disagreement, shrinks it, and returns a
:class:`~castlerules.conform.report.Report`.  The engine's process is ended
whatever happens.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from castlerules.conform import reference, sources
from castlerules.conform.inprocess import Engine, InProcessChannel, ReferenceEngine
from castlerules.conform.process import ProcessChannel
from castlerules.conform.reference import Reading
from castlerules.conform.report import Progress, ReadingResult, Report
from castlerules.conform.runner import Disagreement, Plan, Runner, Session, Tally
from castlerules.conform.shrink import shrink
from castlerules.conform.wire import EngineFault
from castlerules.core import ArgumentError, RulesError

__all__ = ["PHASES", "Budget", "check", "parse_replay", "readings_of"]

PHASES = ("casebook", "scopes", "random", "hypothesis")
"""The sources of games, in the order a check plays them."""

SCOPE_SHARE = 0.25
"""The share of ``seconds`` the small scopes may take (the rest goes to random and
Hypothesis-chosen games)."""

BLOCK = 5
"""Random and Hypothesis-chosen games alternate in blocks of this many."""


@attrs.frozen(slots=True)
class Budget:
    """How much a check may do: ``games`` random and Hypothesis-chosen games at most, in
    ``seconds`` (the casebook's games are always all played), and ``shrink_seconds`` to
    shrink a disagreement."""

    games: int = 100
    seconds: float = 60.0
    shrink_seconds: float = 30.0

    def split(self, parts: int) -> Budget:
        """This budget shared by ``parts`` checks."""
        parts = max(1, parts)
        return Budget(
            max(2, self.games // parts),
            self.seconds / parts,
            max(2.0, self.shrink_seconds / parts),
        )


def _checked_budget(games: object, seconds: object, shrink_seconds: object) -> Budget:
    if not isinstance(games, int) or isinstance(games, bool) or not 0 <= games <= 10**9:
        raise ArgumentError(f"games must be a whole number in 0..10^9, not {games!r:.40}")
    for name, value in (("seconds", seconds), ("shrink_seconds", shrink_seconds)):
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not 0 <= value <= 10**7  # also refuses NaN
        ):
            raise ArgumentError(f"{name} must be a number of seconds in 0..10^7, not {value!r:.40}")
    return Budget(games, float(seconds), float(shrink_seconds))  # type: ignore[arg-type]


def readings_of(game: str) -> tuple[Reading, ...]:
    """The register's readings of ``game``: the default, then every other preset and every
    alternative value of an open option (as ``castlerules.register`` lists them)."""
    from castlerules.register.readings import readings_of as register_readings

    module = reference.GAMES[game]
    default = Reading.named(game)
    found, _not_varied, _excluded, _invalid = register_readings(module, module.Rules(), None, {})
    out = [default]
    for alternative in found:
        reading = Reading.of(game, alternative.rules)
        if all(reading.rules != r.rules for r in out):
            out.append(reading)
    return tuple(out)


def parse_replay(text: str) -> tuple[int, int, tuple[str, ...]]:
    """``PLAYERS:SEED:MOVE,MOVE,...`` (the moves may be empty) as its three parts."""
    parts = text.split(":")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        raise ArgumentError(
            f"a replay is PLAYERS:SEED:MOVES (such as 4:7:A1,B2,C+), not {text[:60]!r}"
        )
    moves = tuple(m for m in parts[2].split(",") if m)
    return int(parts[0]), int(parts[1]), moves


def check(
    game: str,
    engine: Engine | Sequence[str],
    *,
    rules: Any = None,
    all_readings: bool = False,
    games: int = 100,
    seconds: float = 60.0,
    shrink_seconds: float = 30.0,
    timeout: float = 5.0,
    seed: int = 0,
    sample: int = 1,
    phases: Sequence[str] = PHASES,
    replay: str | None = None,
    progress: Callable[[str], None] | Progress | None = None,
    env: Mapping[str, str] | None = None,
    log: Callable[[Mapping[str, Any], Mapping[str, Any]], None] | None = None,
) -> Report:
    """Check ``engine`` (a command line, or an :class:`Engine`) on ``game``.

    ``rules`` is the reading checked (a ``Rules`` of the game); None checks the
    default reading, and plays the casebook's games under every reading of the
    cases that the engine accepts (the others are listed as skipped).
    ``all_readings`` checks every reading of the register instead, sharing the
    budget.  ``replay`` (``PLAYERS:SEED:MOVES``) plays
    that one game only, trying every illegal move in its last position.
    ``log(request, answer)`` is called with every exchange (a transcript).
    Bad arguments raise :class:`~castlerules.core.ArgumentError`; whatever
    the engine does is in the report.
    """
    if not isinstance(game, str) or game not in reference.GAMES:
        raise ArgumentError(f"unknown game {game!r:.40}; the games are: throne, ascent")
    module = reference.GAMES[game]
    budget = _checked_budget(games, seconds, shrink_seconds)
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or not 0 < timeout <= 3600:
        raise ArgumentError(
            f"timeout must be a number of seconds in (0, 3600], not {timeout!r:.40}"
        )
    if not isinstance(sample, int) or isinstance(sample, bool) or not 0 <= sample <= 1000:
        raise ArgumentError(f"sample must be a whole number in 0..1000, not {sample!r:.40}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        raise ArgumentError(f"seed must be a whole number in 0..2^64-1, not {seed!r:.40}")
    if not isinstance(all_readings, bool):
        raise ArgumentError(f"all_readings must be True or False, not {all_readings!r:.40}")
    if isinstance(phases, str) or not isinstance(phases, Sequence):
        raise ArgumentError(f"phases must be a list of phase names, not {phases!r:.40}")
    unknown = [p for p in phases if not isinstance(p, str) or p not in PHASES]
    if unknown:
        raise ArgumentError(
            f"unknown phase {unknown[0]!r:.40}; the phases are: {', '.join(PHASES)}"
        )
    if rules is None:
        reading = Reading.named(game)
    elif isinstance(rules, module.Rules):
        reading = Reading.of(game, rules)
    else:
        raise ArgumentError(f"rules must be a {game} Rules or None, not {type(rules).__name__}")
    if replay is not None and not isinstance(replay, str):
        raise ArgumentError(f"replay must be a text PLAYERS:SEED:MOVES, not {replay!r:.40}")
    planned = parse_replay(replay) if replay is not None else None
    if planned is not None:
        try:
            reference.start(reading, planned[0], planned[1])
        except RulesError as err:
            raise ArgumentError(f"the replay cannot start: {err}") from None
    printer = progress if isinstance(progress, Progress) else Progress(progress)
    command: tuple[str, ...] | None
    if isinstance(engine, Engine):
        channel: Any = InProcessChannel(engine)
        command = None
    elif isinstance(engine, Sequence) and not isinstance(engine, str | bytes):
        if not all(isinstance(part, str) for part in engine):
            raise ArgumentError("the engine command must be a list of strings")
        channel = ProcessChannel(engine, timeout=timeout, env=env)
        command = tuple(engine)
    else:
        raise ArgumentError(
            "engine must be a command (a list of strings) or a castlerules.conform.Engine, "
            f"not {type(engine).__name__}"
        )
    started = time.monotonic()
    tally = Tally()
    session = Session(channel, game, tally)
    session.log = log
    results: list[ReadingResult] = []
    fault: Disagreement | None = None
    name = "?"
    try:
        printer.phase("hello", channel.name)
        try:
            hello = session.open()
        except EngineFault as err:
            fault = _fault_report(game, reading, err, channel)
        else:
            name = str(hello["name"])
            plays = [str(g) for g in hello["games"]]
            if game not in plays:
                fault = _not_played(game, reading, plays)
        if fault is None:
            context = _Check(session, budget, seed, sample, tuple(phases), printer, started)
            if planned is not None:
                results.append(context.replay(reading, *planned))
            elif all_readings:
                readings = readings_of(game)
                shared = budget.split(len(readings))
                for item in readings:
                    result = context.one(item, shared, label=f"{item.label}")
                    results.append(result)
                    if result.disagreement is not None and result.disagreement.kind == "protocol":
                        break
                results = _notes(game, readings, results)
            else:
                results.append(
                    context.one(reading, budget, label=reading.label, every_case=rules is None)
                )
    finally:
        channel.close()
        printer.done()
    elapsed = time.monotonic() - started
    return Report(
        game=game,
        engine=name,
        command=command,
        channel=channel.name,
        mode="all" if all_readings else ("replay" if planned is not None else "one"),
        readings=tuple(results),
        fault=fault,
        tally=tally,
        seconds=elapsed,
        engine_seconds=channel.seconds_waiting,
        seed=seed,
        budget=budget,
        timeout=float(timeout),
    )


def _notes(
    game: str, readings: Sequence[Reading], results: list[ReadingResult]
) -> list[ReadingResult]:
    """Mark each agreed reading that the protocol cannot tell apart from the first agreed one:
    the reference itself, playing one reading, agrees with the other on the same games."""
    agreed = [(r, x) for r, x in zip(readings, results, strict=False) if x.verdict == "agrees"]
    if len(agreed) < 2:
        return results
    first = agreed[0][0]
    out = list(results)
    for reading, result in agreed[1:]:
        same = _same_through_the_protocol(game, first, reading)
        if same:
            note = (
                f"the reference itself answers the same under it and under {first.label} in "
                f"{_games(same)}: the protocol cannot tell them apart"
            )
            out[out.index(result)] = attrs.evolve(result, note=note)
    return out


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def _same_through_the_protocol(game: str, first: Reading, other: Reading) -> int:
    """How many games the reference under ``other`` agreed with ``first`` (0: it parted)."""
    report = check(
        game,
        ReferenceEngine(built_for=other.rules),
        rules=first.rules,
        games=20,
        seconds=5,
        shrink_seconds=0,
        phases=("casebook", "random"),
    )
    return report.tally.total if report.agree else 0


def _fault_report(game: str, reading: Reading, err: EngineFault, channel: Any) -> Disagreement:
    return Disagreement(
        kind="protocol",
        clause=None,
        game=game,
        reading=reading.label,
        players=0,
        seed=0,
        moves=(),
        move=None,
        position=None,
        reference="an answer to hello, as spec/conform.md says",
        engine=f"the engine {err.reason}",
        source="hello",
        request=err.request,
        answer=err.answer,
        stderr=err.stderr or channel.stderr_tail(),
    )


def _not_played(game: str, reading: Reading, plays: list[str]) -> Disagreement:
    return Disagreement(
        kind="start",
        clause=None,
        game=game,
        reading=reading.label,
        players=0,
        seed=0,
        moves=(),
        move=None,
        position=None,
        reference=f"an engine of {game}",
        engine=f"its hello says it plays {', '.join(plays) or 'no game'}",
        source="hello",
    )


@attrs.define
class _Check:
    session: Session
    budget: Budget
    seed: int
    sample: int
    phases: tuple[str, ...]
    printer: Progress
    started: float
    skipped: list[str] = attrs.field(factory=list)
    """The readings of casebook games the engine refused to start (in the last check)."""

    def replay(
        self, reading: Reading, players: int, seed: int, moves: tuple[str, ...]
    ) -> ReadingResult:
        runner = Runner(self.session, reading, sample=0, seed=self.seed)
        start = reference.start(reading, players, seed)
        self.printer.phase("replay", f"{players} players, seed {seed}, {len(moves)} moves")
        found = runner.play(Plan(start, "replay", moves=moves, probe_all_at=len(moves)))
        games = 1
        return ReadingResult(reading.label, reading.arguments(), found, None, 0, games, True)

    def one(
        self, reading: Reading, budget: Budget, *, label: str, every_case: bool = False
    ) -> ReadingResult:
        """Check one reading within ``budget``; ``every_case``: the casebook's games are
        played under every reading of the cases that the engine accepts, not only this one."""
        tally = self.session.tally
        before = tally.total
        printer = self.printer
        printer.reading = label
        self.skipped = []
        found, where = self._search(reading, budget, every_case)
        shrunk_from: int | None = None
        tries, finished = 0, True
        if found is not None and found.kind not in ("protocol", "start"):
            printer.phase("shrink", f"{found.kind} ({found.clause}) after {found.plies} plies")
            result = shrink(
                self._runner(where),
                where,
                found,
                seconds=budget.shrink_seconds,
                progress=lambda line: printer.update(line, tally),
            )
            shrunk_from = found.plies
            tries, finished = result.tries, result.finished
            found = result.disagreement
        return ReadingResult(
            label,
            where.arguments(),
            found,
            shrunk_from,
            tries,
            tally.total - before,
            finished,
            skipped=tuple(self.skipped),
        )

    def _runner(self, reading: Reading) -> Runner:
        return Runner(self.session, reading, sample=self.sample, seed=self.seed)

    def _search(
        self, reading: Reading, budget: Budget, every_case: bool
    ) -> tuple[Disagreement | None, Reading]:
        printer = self.printer
        tally = self.session.tally
        counts = sources.player_counts(reading)
        runner = self._runner(reading)
        if "casebook" in self.phases:
            plans = sources.casebook_plans(reading.game, None if every_case else reading)
            printer.phase("casebook", f"{len(plans)} games")
            runners = {reading: runner}
            for number, (under, plan) in enumerate(plans, 1):
                if under.label in self.skipped:
                    continue
                printer.update(f"casebook {number}/{len(plans)}: {plan.source[9:]}", tally)
                if under not in runners:
                    runners[under] = self._runner(under)
                found = runners[under].play(plan)
                if found is not None and found.kind == "start" and under != reading:
                    self.skipped.append(under.label)  # a reading the engine does not play
                    continue
                if found is not None:
                    return found, under
        deadline = time.monotonic() + budget.seconds  # the casebook's games are not counted
        if "scopes" in self.phases:
            scope_end = time.monotonic() + SCOPE_SHARE * budget.seconds
            printer.phase("scopes", "every game of depth 0, 1, 2, ...")
            for plan in sources.scope_plans(reading, counts):
                if time.monotonic() > scope_end:
                    break
                printer.update(f"{plan.source}, {plan.start.players} players", tally)
                found = runner.play(plan)
                if found is not None:
                    return found, reading
        kinds = [p for p in ("random", "hypothesis") if p in self.phases]
        if not kinds:
            return None, reading
        printer.phase("games", " and ".join(kinds))
        played = 0
        block = 0
        result: list[Disagreement] = []

        def go_on() -> bool:
            return not result and played < budget.games and time.monotonic() < deadline

        def play_whole(plan: Plan) -> None:
            # One game, whatever the budget: a Hypothesis block plays each of its games
            # whole (sources.hypothesis_games) and the budget is read between blocks;
            # the random games read it before each game (play).  The first
            # disagreement is the one kept.
            nonlocal played
            found = runner.play(plan)
            played += 1
            printer.update(f"{plan.source} ({played}/{budget.games})", tally)
            if found is not None and not result:
                result.append(found)

        def play(plan: Plan) -> bool:
            if not go_on():
                return False
            play_whole(plan)
            return go_on()

        while go_on():
            kind = kinds[block % len(kinds)]
            if kind == "random":
                for _ in range(BLOCK):
                    if not play(sources.random_plan(reading, counts, self.seed, played)):
                        break
            else:
                before = played
                consistent = sources.hypothesis_games(
                    reading,
                    counts,
                    seed=self.seed * 1000 + block,
                    examples=min(BLOCK, budget.games - played),
                    play=play_whole,
                )
                if not consistent:
                    kinds = [k for k in kinds if k != "hypothesis"]
                    if not kinds:
                        break
                if played == before and kinds == ["hypothesis"]:
                    break  # Hypothesis has nothing left to try
            block += 1
        return (result[0] if result else None), reading
