"""What a check found, for a person (:meth:`Report.text`) and for a program (:meth:`Report.data`).

The JSON (``castlerules conform --json``) has at least the fields the
contract names: ``agree`` (bool), ``games`` (int) and, when the engine does
not agree, ``disagreement`` with ``moves``, ``position``, ``clause``,
``reference`` and ``engine``; and besides them ``kind``, ``move``,
``players``, ``seed``, ``reading``, ``plies``, ``shrunk_from``, the
``replay`` command, and for a protocol fault the ``request``, what came
back (``answer``) and the engine's last ``stderr`` lines.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Callable
from typing import IO, Any

import attrs

from castlerules.conform.runner import Disagreement, Tally
from castlerules.conform.wire import shorten
from castlerules.core import CLAUSES

__all__ = ["Progress", "ReadingResult", "Report"]


class Progress:
    """Progress on the terminal: what is being tried, games so far and games per second.

    ``sink`` is a function that takes a line (None: silent) or a stream: on a
    terminal one line is rewritten in place (at most five times a second),
    elsewhere a line is written at each phase and every ten seconds.
    """

    def __init__(self, sink: Callable[[str], None] | IO[str] | None = None) -> None:
        self._write: Callable[[str], None] | None
        self._tty = False
        if sink is None:
            self._write = None
        elif callable(sink):
            self._write = lambda line: sink(line.rstrip("\n"))
        else:
            stream = sink
            self._tty = bool(getattr(stream, "isatty", lambda: False)())

            def write(line: str) -> None:
                stream.write(line)
                stream.flush()

            self._write = write
        self._lines = not self._tty
        self._started = time.monotonic()
        self._last = 0.0
        self._width = 0
        self._phase = ""
        self.reading = ""

    @classmethod
    def to_stderr(cls) -> Progress:
        """Progress on standard error."""
        return cls(sys.stderr)

    def _emit(self, line: str, *, final: bool = False) -> None:
        if self._write is None:
            return
        line = printable(line)
        if self._tty:
            line = line[:150]
            pad = max(0, self._width - len(line))
            self._write("\r" + line + " " * pad + ("\n" if final else ""))
            self._width = 0 if final else len(line)
        else:
            self._write(line + "\n")

    def phase(self, name: str, detail: str) -> None:
        """A new phase begins."""
        self._phase = name
        who = f"[{self.reading}] " if self.reading else ""
        if self._tty:
            self._emit(f"conform: {who}{name}: {detail}")
        else:
            self._emit(f"conform: {who}{name}: {detail}")
            self._last = time.monotonic()

    def update(self, what: str, tally: Tally) -> None:
        """What is being tried now, with the counts so far (rate-limited)."""
        if self._write is None:
            return
        now = time.monotonic()
        if now - self._last < (0.2 if self._tty else 10.0):
            return
        self._last = now
        elapsed = max(now - self._started, 1e-9)
        who = f"[{self.reading}] " if self.reading else ""
        self._emit(
            f"conform: {who}{what} · {tally.total} games, {tally.positions} positions · "
            f"{tally.total / elapsed:.1f} games/s"
        )

    def done(self) -> None:
        """End the progress line (on a terminal)."""
        if self._tty and self._width:
            self._emit("", final=True)


@attrs.frozen(slots=True)
class ReadingResult:
    """The verdict on one reading: ``disagreement`` is None when the engine agreed."""

    reading: str
    arguments: tuple[str, ...]
    disagreement: Disagreement | None
    shrunk_from: int | None
    tries: int
    games: int
    finished: bool
    note: str = ""
    """``--readings all``: why an agreed reading cannot be told apart from another."""
    skipped: tuple[str, ...] = ()
    """Readings of casebook games that the engine does not play (it refused to start them)."""

    @property
    def verdict(self) -> str:
        """``agrees``, ``parts`` (a disagreement), ``refused`` (the engine does not play this
        reading), ``fault`` (a protocol fault) or ``untried`` (no game was played)."""
        found = self.disagreement
        if found is None:
            return "agrees" if self.games else "untried"
        if found.kind == "start":
            return "refused"
        if found.kind == "protocol":
            return "fault"
        return "parts"


@attrs.frozen(slots=True)
class Report:
    """The result of :func:`castlerules.conform.check`."""

    game: str
    engine: str
    command: tuple[str, ...] | None
    channel: str
    mode: str
    readings: tuple[ReadingResult, ...]
    fault: Disagreement | None
    tally: Tally = attrs.field(eq=False)
    seconds: float
    engine_seconds: float
    seed: int
    budget: Any
    timeout: float

    @property
    def agree(self) -> bool:
        """One reading: the engine agreed on everything tried.  All readings: it agreed
        with at least one of them (and broke no rule of the protocol)."""
        if self.fault is not None or not self.readings:
            return False
        if any(r.verdict == "fault" for r in self.readings):
            return False
        if self.mode == "all":
            return any(r.verdict == "agrees" for r in self.readings)
        return self.readings[0].verdict == "agrees"

    @property
    def agrees_with(self) -> tuple[str, ...]:
        """The readings the engine agreed with."""
        return tuple(r.reading for r in self.readings if r.verdict == "agrees")

    @property
    def disagreement(self) -> Disagreement | None:
        """What to show when the engine does not agree: the protocol fault, or the first
        reading's disagreement."""
        if self.fault is not None:
            return self.fault
        for result in self.readings:
            if result.verdict == "fault":
                return result.disagreement
        if self.agree or not self.readings:
            return None
        return self.readings[0].disagreement

    @property
    def games_per_second(self) -> float:
        return self.tally.total / self.seconds if self.seconds > 0 else 0.0

    @property
    def kit_share(self) -> float:
        """The share of the time spent in the kit (the reference, the comparisons, the
        protocol's encoding), the rest being spent waiting for the engine."""
        if self.seconds <= 0:
            return 0.0
        return max(0.0, 1.0 - self.engine_seconds / self.seconds)

    def replay_command(self, found: Disagreement, arguments: tuple[str, ...]) -> str:
        """The command that plays the game of ``found`` again against the same engine."""
        spec = f"{found.players}:{found.seed}:{','.join(found.moves)}"
        if self.command is None:
            return f"castlerules.conform.check({self.game!r}, engine, rules=..., replay={spec!r})"
        words = ["castlerules", "conform", self.game, *arguments, "--replay", spec, "--"]
        return shlex.join(words) + " " + shlex.join(self.command)

    # ------------------------------------------------------------------ JSON

    def _found_data(self, result: ReadingResult | None, found: Disagreement) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": found.kind,
            "clause": found.clause,
            "moves": list(found.moves),
            "move": found.move,
            "position": found.position,
            "reference": found.reference,
            "engine": found.engine,
            "reading": found.reading,
            "players": found.players,
            "seed": found.seed,
            "plies": found.plies,
            "source": found.source,
        }
        if result is not None:
            data["shrunk_from"] = result.shrunk_from
            data["skipped_readings"] = list(result.skipped)
            data["shrink_tries"] = result.tries
            if found.kind not in ("protocol", "start") or found.moves:
                data["replay"] = self.replay_command(found, result.arguments)
        if found.kind == "protocol":
            data["request"] = dict(found.request) if found.request is not None else None
            data["answer"] = found.answer
            data["stderr"] = list(found.stderr)
        return data

    def data(self) -> dict[str, Any]:
        """The report as JSON data (``--json``)."""
        from castlerules import __version__

        tally = self.tally
        data: dict[str, Any] = {
            "agree": self.agree,
            "games": tally.total,
            "game": self.game,
            "protocol": 1,
            "kit": f"castlerules {__version__}",
            "engine": {"name": self.engine, "command": list(self.command or ())},
            "mode": self.mode,
            "games_by_source": dict(tally.games),
            "sources": {
                name: {
                    "games": count,
                    "seconds": round(tally.seconds.get(name, 0.0), 3),
                    "games_per_second": _rate(count, tally.seconds.get(name, 0.0)),
                }
                for name, count in tally.games.items()
            },
            "positions": tally.positions,
            "moves": tally.moves,
            "refusals_tried": tally.refusals,
            "requests": tally.requests,
            "seconds": round(self.seconds, 3),
            "engine_seconds": round(self.engine_seconds, 3),
            "kit_share": round(self.kit_share, 3),
            "games_per_second": round(self.games_per_second, 2),
            "seed": self.seed,
        }
        shown = self.disagreement
        if shown is not None:
            owner = next((r for r in self.readings if r.disagreement is shown), None)
            data["disagreement"] = self._found_data(owner, shown)
        if self.mode == "all":
            data["agrees_with"] = list(self.agrees_with)
            data["readings"] = [
                {
                    "reading": r.reading,
                    "verdict": r.verdict,
                    "games": r.games,
                    **({"note": r.note} if r.note else {}),
                    **(
                        {"disagreement": self._found_data(r, r.disagreement)}
                        if r.disagreement is not None
                        else {}
                    ),
                }
                for r in self.readings
            ]
        elif self.readings:
            data["reading"] = self.readings[0].reading
        return data

    def json(self) -> str:
        """The report as one JSON object (ASCII: whatever an engine wrote, escaped)."""
        return json.dumps(self.data())

    # ------------------------------------------------------------------ text

    def text(self) -> str:
        """The report for a person."""
        out = [f"castlerules conform {self.game}: {shorten(self.engine, 100)!r} ({self.channel})"]
        if self.fault is not None:
            out.append("the engine BROKE THE PROTOCOL before any game:")
            out += _found_lines(self.fault, None, self)
        elif self.mode == "all":
            out += self._readings_lines()
        else:
            for result in self.readings:
                out += self._one_lines(result)
        out.append(self._tally_line())
        return printable("\n".join(out)) + "\n"

    def _one_lines(self, result: ReadingResult) -> list[str]:
        verdict = result.verdict
        head = f"reading {result.reading}: "
        found = result.disagreement
        if verdict == "untried":
            return [head + "nothing was tried (no game in the budget)"]
        skipped = []
        if result.skipped:
            skipped = [
                "  (casebook games not played: the engine does not play "
                + ", ".join(result.skipped)
                + ")"
            ]
        if found is None:
            what = "the game replayed" if self.mode == "replay" else "everything tried"
            return [head + f"the engine AGREES with the reference on {what}", *skipped]
        if verdict == "refused":
            return [head + f"the engine does not play it: it {found.engine}"]
        if verdict == "fault":
            return [head + "the engine BROKE THE PROTOCOL:", *_found_lines(found, result, self)]
        under = (
            f", in a casebook game under {found.reading}" if found.reading != result.reading else ""
        )
        return [
            head + f"the engine PARTS from the reference ({found.clause}){under}",
            *_found_lines(found, result, self),
            *skipped,
        ]

    def _readings_lines(self) -> list[str]:
        agreed = self.agrees_with
        count = len(self.readings)
        if agreed:
            head = f"the engine agrees with {', '.join(agreed)}"
        else:
            head = "the engine agrees with none of them"
        out = [f"the register's {count} readings of {self.game}: {head}"]
        width = max((len(r.reading) for r in self.readings), default=0)
        for result in self.readings:
            found = result.disagreement
            name = result.reading.ljust(width)
            if result.verdict == "untried":
                out.append(f"  {name}  not tried: no game in the budget")
            elif found is None:
                note = f"; {result.note}" if result.note else ""
                out.append(f"  {name}  agrees ({_plural(result.games, 'game')}{note})")
            elif result.verdict == "refused":
                out.append(f"  {name}  not played: the engine {found.engine}")
            elif result.verdict == "fault":
                out.append(f"  {name}  PROTOCOL FAULT: {found.engine}")
                out += ["    " + line for line in _found_lines(found, result, self)]
            else:
                where = f"after {len(found.moves)} moves" if found.moves else "at the start"
                out.append(
                    f"  {name}  parts at {found.clause} ({found.kind}, {where}, "
                    f"{found.players} players)"
                )
                out.append(f"  {'':{width}}    reference: {found.reference}")
                out.append(f"  {'':{width}}    engine:    {found.engine}")
        return out

    def _tally_line(self) -> str:
        tally = self.tally
        sources = ", ".join(f"{k} {v}" for k, v in tally.games.items())
        whole = [k for k in ("random", "hypothesis") if tally.games.get(k)]
        rate = ""
        if whole:
            games = sum(tally.games[k] for k in whole)
            seconds = sum(tally.seconds.get(k, 0.0) for k in whole)
            rate = f" ({_rate(games, seconds):.1f} whole games/s)"
        return (
            f"tried: {_plural(tally.total, 'game')} ({sources or 'none'}) · "
            f"{_plural(tally.positions, 'position')} · "
            f"{_plural(tally.refusals, 'illegal move')} tried · "
            f"{_plural(tally.requests, 'request')} · {self.seconds:.1f} s{rate}; "
            f"the engine's share of the time {1 - self.kit_share:.0%}, the kit's "
            f"{self.kit_share:.0%}"
        )


def printable(text: str) -> str:
    r"""``text`` safe on a terminal: every character that is not printable (an engine's
    escape sequences, a lone surrogate) but the end of a line written as an escape.

    >>> print(printable("seat 0\x1b[2J\ud800 ok"))
    seat 0\x1b[2J\ud800 ok
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch == "\n" or ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 2) if seconds > 0 else 0.0


_PLURALS = {"ply": "plies", "try": "tries"}


def _plural(count: int, what: str) -> str:
    """``1 game``, ``2 games``, ``3 plies``."""
    if count == 1:
        return f"1 {what}"
    return f"{count} {_PLURALS.get(what, what + 's')}"


def _found_lines(found: Disagreement, result: ReadingResult | None, report: Report) -> list[str]:
    out: list[str] = []
    if found.kind == "protocol":
        request = found.request
        out.append("  request:   " + (json.dumps(request) if request is not None else "(none yet)"))
        out.append("  came back: " + (found.answer if found.answer is not None else "nothing"))
        out.append(f"  fault:     {found.engine}")
    if found.players:
        moves = " ".join(found.moves) if found.moves else "(none)"
        out.append(
            f"  game:      {found.players} players, the deal of seed {found.seed}, "
            f"{len(found.moves)} moves: {moves}"
        )
    if found.position is not None:
        out.append(f"  position:  {found.position}")
    if found.kind != "protocol":
        if found.move is not None:
            out.append(f"  the move:  {found.move}")
        out.append(f"  reference: {found.reference}")
        out.append(f"  engine:    {found.engine}")
    if found.clause is not None and found.clause in CLAUSES:
        out.append(f"  rule:      {found.clause}: {CLAUSES[found.clause].summary}")
    if result is not None and found.kind not in ("protocol", "start"):
        shrunk = ""
        if result.shrunk_from is not None:
            more = "" if result.finished else ", stopped by its time"
            shrunk = (
                f"; shrunk from {_plural(result.shrunk_from, 'ply')} in "
                f"{_plural(result.tries, 'try')}{more}"
            )
        out.append(f"  found:     in {found.source}: {_plural(found.plies, 'ply')}{shrunk}")
    if result is not None and (found.moves or found.kind not in ("protocol", "start")):
        out.append(f"  replay:    {report.replay_command(found, result.arguments)}")
    if found.stderr:
        out.append("  stderr:    " + ("\n             ".join(f"| {s}" for s in found.stderr)))
    return out
