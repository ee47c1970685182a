"""Playing one game on both sides and comparing them after every move.

A :class:`Session` is the protocol with one engine (ids, answer checks,
counts).  :class:`Runner` plays a game (:class:`Plan`: a start and the moves,
fixed or chosen as it goes) on the reference and on the engine at once and,
in every position, compares the seat to act, the end, the scores and the
winners (``status``), the legal moves (``legal``), the refusal of illegal
moves of the notation (``play``, a sample or chosen ones), then plays the
next move on both.  The first difference stops the game: a
:class:`Disagreement` that says where (the moves from the start, the
position), what each side said, and the clause of the rule concerned.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from castlerules.conform import reference
from castlerules.conform.reference import Reading, Start
from castlerules.conform.wire import Answer, EngineFault, check_answer, shorten
from castlerules.core import Event

__all__ = ["Disagreement", "Plan", "Runner", "Session", "Tally"]

KINDS = (
    "turn",
    "over",
    "scores",
    "winners",
    "legal moves",
    "refusal",
    "play",
    "start",
    "protocol",
)
"""What a disagreement can be about."""

_FIRST_TURN = {"throne": "B3", "ascent": "A18"}
"""The clause of the seat that starts a game (Throne: round 1's first player; Ascent:
the die)."""
_OVER = {"throne": "B3", "ascent": "A14"}
_WINNERS = {"throne": "B16", "ascent": "A17"}
_SPECIFIC = {"throne": ("B13",), "ascent": ("A7", "A9", "A13")}
"""Clauses that name what is special about a legal move better than its first event."""


@attrs.frozen(slots=True)
class Disagreement:
    """The first difference between the engine and the reference in a game.

    ``moves`` lead from the start (``players`` seats, the deal of ``seed``) to
    ``position`` (the reference's position text), where the two part: ``kind``
    (:data:`KINDS`), about ``move`` if a move is concerned (listed, missing,
    tried or played).  ``reference`` and ``engine`` say what each side said,
    ``clause`` is the clause of the rule concerned (``None`` for a protocol
    fault), ``source`` where the game came from.  A protocol fault also has
    the ``request`` it was answering and the engine's last ``stderr`` lines.
    """

    kind: str
    clause: str | None
    game: str
    reading: str
    players: int
    seed: int
    moves: tuple[str, ...]
    move: str | None
    position: str | None
    reference: str
    engine: str
    source: str
    request: Mapping[str, Any] | None = None
    answer: str | None = None
    stderr: tuple[str, ...] = ()

    @property
    def plies(self) -> int:
        """The game's length: the moves from the start, and the move concerned."""
        return len(self.moves) + (self.move is not None)

    def same_as(self, other: Disagreement) -> bool:
        """Whether ``other`` shows the same thing (its kind and its clause)."""
        return (self.kind, self.clause) == (other.kind, other.clause)


@attrs.define
class Tally:
    """What a check did: games by source, positions, requests, time."""

    games: dict[str, int] = attrs.field(factory=dict)
    seconds: dict[str, float] = attrs.field(factory=dict)
    """The time spent on the games of each source."""
    positions: int = 0
    moves: int = 0
    refusals: int = 0
    requests: int = 0

    @property
    def total(self) -> int:
        return sum(self.games.values())

    def count(self, source: str, seconds: float) -> None:
        self.games[source] = self.games.get(source, 0) + 1
        self.seconds[source] = self.seconds.get(source, 0.0) + seconds


class Session:
    """The protocol with one engine: numbered requests, every answer checked."""

    def __init__(self, channel: Any, game: str, tally: Tally | None = None) -> None:
        self.channel = channel
        self.game = game
        self.tally = tally if tally is not None else Tally()
        self.hello: Answer | None = None
        self._next = 0
        self.log: Callable[[Mapping[str, Any], Answer], None] | None = None

    def ask(self, op: str, **fields: Any) -> Answer:
        """Send one request; return its checked answer (``EngineFault`` otherwise)."""
        self._next += 1
        request: dict[str, Any] = {"id": self._next, "op": op, **fields}
        self.tally.requests += 1
        answer = self.channel.ask(request)
        if self.log is not None:
            self.log(request, answer)
        try:
            return check_answer(
                request,
                answer,
                game=self.game,
                is_move=lambda text: reference.grammatical(self.game, text),
            )
        except EngineFault as fault:
            raise fault.with_stderr(self.channel.stderr_tail()) from None

    def open(self) -> Answer:
        """The ``hello`` exchange (its first line must be the answer)."""
        try:
            answer = self.ask("hello", protocol=1)
        except EngineFault as fault:
            if fault.kind in ("garbage", "wrong-id"):
                fault = attrs.evolve(
                    fault,
                    kind="before-hello",
                    reason="the first line the engine wrote is not its answer to hello "
                    f"({fault.reason}); an engine writes nothing on standard output but its "
                    "answers",
                )
            raise fault from None
        self.hello = answer
        return answer


@attrs.frozen(slots=True)
class Plan:
    """A game to play: its start, where it comes from, and how its moves are chosen.

    ``moves``: fixed moves (a casebook game, a shrunk one); a move that is
    illegal at its turn is skipped when ``skip_illegal`` (shrinking), else it
    ends the game there.  ``choose``: a function of the position, its legal
    moves and the ply that returns the index of the move to play (None: stop).
    ``probes``: per ply, the illegal moves to try besides the sample.
    """

    start: Start
    source: str
    moves: tuple[str, ...] | None = None
    choose: Callable[[Any, Sequence[Any], int], int | None] | None = None
    probes: Mapping[int, tuple[str, ...]] = attrs.field(factory=dict)
    probe_every_ply: tuple[str, ...] = ()
    probe_all_at: int | None = None
    """The ply where every illegal move of the notation is tried (not only a sample)."""
    check_from: int = 0
    """The first ply compared: the moves before it are only played (a scope's leaves)."""
    skip_illegal: bool = False


class Runner:
    """Plays plans on the reference and the engine and compares them move by move.

    ``sample`` is how many illegal moves of the notation are tried in each
    position (drawn by kind, so that votes and passes are tried as often as
    placements), from a generator seeded by ``seed``; ``all_probes_until``:
    up to that ply every illegal move is tried.
    """

    def __init__(
        self,
        session: Session,
        reading: Reading,
        *,
        sample: int = 1,
        seed: int = 0,
    ) -> None:
        self.session = session
        self.reading = reading
        self.module = reading.module
        self.game = reading.game
        self.sample = sample
        self.seed = seed
        self.tally = session.tally
        self._players = 3

    # -------------------------------------------------------------- one game

    def play(self, plan: Plan) -> Disagreement | None:
        """Play ``plan``; the first disagreement, or None if the engine agreed throughout."""
        started = time.monotonic()
        try:
            return self._play(plan)
        finally:
            self.tally.count(plan.source.split(" ")[0], time.monotonic() - started)

    def _play(self, plan: Plan) -> Disagreement | None:
        self._players = plan.start.players
        module = self.module
        start = plan.start
        state = start.state
        moves: list[str] = []
        rng = random.Random(f"{self.seed}:{plan.source}:{start.players}:{start.seed}")
        last: tuple[Any, Any, Any] | None = None  # before, move, after of the last move
        context = _Context(self, plan, moves)
        try:
            answer = self.session.ask(
                "start",
                game=self.game,
                players=start.players,
                rules=self.reading.wire,
                deal=dict(start.deal),
            )
        except EngineFault as fault:
            return context.fault(fault, state)
        if not answer.get("ok"):
            why = answer.get("error") or answer.get("reason")
            said = "refused to start the game" + (
                f": {shorten(str(why), 200)}" if why is not None else ""
            )
            return context.found("start", None, None, state, f"plays {self.reading.label}", said)
        ply = 0
        fixed = plan.moves
        index = 0
        while True:
            if ply >= plan.check_from:
                self.tally.positions += 1
                try:
                    found = self._compare(context, state, last, ply, plan, rng)
                except EngineFault as fault:
                    return context.fault(fault, state)
                if found is not None:
                    return found
            legal = module.legal_moves(state)
            if not legal:
                return None
            move: Any = None
            if fixed is not None:
                while index < len(fixed):
                    text = fixed[index]
                    index += 1
                    if reference.refusal(module, state, text) is None:
                        move = module.parse_move(state, text)
                        break
                    if not plan.skip_illegal:
                        return None
                if move is None:
                    return None
            elif plan.choose is not None:
                choice = plan.choose(state, legal, ply)
                if choice is None:
                    return None
                move = legal[choice]
            else:
                return None
            text = str(move)
            try:
                answer = self.session.ask("play", move=text)
            except EngineFault as fault:
                return context.fault(fault, state, text)
            if answer.get("ok") is not True:
                why = answer.get("reason") or answer.get("error")
                after = module.apply(state, move)
                said = _events_text(reference.events(module, state, move, after))
                return context.found(
                    "play",
                    self._clause_of_legal(state, move, last),
                    text,
                    state,
                    f"{text} is legal: {said}",
                    f"refused {text}"
                    + (f" ({shorten(str(why), 200)})" if why is not None else "")
                    + ", which it listed as legal",
                )
            after = module.apply(state, move)
            self.tally.moves += 1
            last = (state, move, after)
            moves.append(text)
            state = after
            ply += 1

    # -------------------------------------------------------------- one position

    def _compare(
        self,
        context: _Context,
        state: Any,
        last: tuple[Any, Any, Any] | None,
        ply: int,
        plan: Plan,
        rng: random.Random,
    ) -> Disagreement | None:
        module, game = self.module, self.game
        status = self.session.ask("status")
        over = module.is_over(state)
        turn = module.current_player(state)
        if status["over"] != over:
            said = "the game is over" if over else f"seat {turn} is to act"
            theirs = "the game is over" if status["over"] else "the game goes on"
            return context.found("over", _OVER[game], None, state, said, theirs + _after(last))
        if status.get("to_move") != turn:
            return context.found(
                "turn",
                self._clause_of_turn(last, turn, status.get("to_move")),
                None,
                state,
                _turn(turn),
                _turn(status.get("to_move")),
            )
        scores = list(module.scores(state))
        theirs_scores = status.get("scores")
        if theirs_scores is not None and list(theirs_scores) != scores:
            return context.found(
                "scores",
                self._clause_of_scores(last, scores, list(theirs_scores)),
                None,
                state,
                f"scores {scores}",
                f"scores {list(theirs_scores)}",
            )
        if over:
            winners = sorted(module.winners(state))
            theirs_winners = sorted(status.get("winners") or [])
            if theirs_winners != winners:
                return context.found(
                    "winners",
                    _WINNERS[game],
                    None,
                    state,
                    f"winners {winners} (scores {scores})",
                    f"winners {theirs_winners}",
                )
        listed = self.session.ask("legal")["moves"]
        legal = reference.texts(module.legal_moves(state))
        found = self._compare_legal(context, state, last, listed, legal)
        if found is not None:
            return found
        for text in self._probes(legal, ply, plan, rng):
            error = reference.refusal(module, state, text)
            if error is None:  # pragma: no cover - probes are illegal moves
                continue
            self.tally.refusals += 1
            answer = self.session.ask("play", move=text)
            if answer.get("ok") is True:
                return context.found(
                    "refusal",
                    reference.clause_of(error),
                    text,
                    state,
                    f"refuses {text}: {error}",
                    f"played {text} (it answered ok: true)",
                )
        return None

    def _compare_legal(
        self,
        context: _Context,
        state: Any,
        last: tuple[Any, Any, Any] | None,
        listed: Sequence[str],
        legal: Sequence[str],
    ) -> Disagreement | None:
        if len(listed) == len(legal) and set(listed) == set(legal):
            return None
        ours, theirs = set(legal), set(listed)
        extra = sorted(theirs - ours, key=self._order)
        missing = [m for m in legal if m not in theirs]
        if extra:
            text = extra[0]
            error = reference.refusal(self.module, state, text)
            also = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
            return context.found(
                "legal moves",
                reference.clause_of(error),
                text,
                state,
                f"{text} is illegal: {error}",
                f"lists {text}{also} among its {len(listed)} legal moves",
            )
        text = missing[0]
        move = self.module.parse_move(state, text)
        after = self.module.apply(state, move)
        said = _events_text(reference.events(self.module, state, move, after))
        also = f" (nor {len(missing) - 1} more)" if len(missing) > 1 else ""
        replay = not any(reference.move_kind(self.game, m) == "advance" for m in listed)
        return context.found(
            "legal moves",
            self._clause_of_legal(state, move, last, no_replay=replay),
            text,
            state,
            f"{text} is legal: {said}",
            f"does not list {text}{also}: {len(listed)} legal moves",
        )

    def _order(self, text: str) -> tuple[int, int, str]:
        """Extra moves are reported in the notation's order (kind, then the universe's)."""
        kinds = reference.KIND_ORDER[self.game]
        kind = reference.move_kind(self.game, text)
        groups = dict(reference.universe(self.game, self.reading.rules, self._players))
        group = groups.get(kind, ())
        return (kinds.index(kind), group.index(text) if text in group else len(group), text)

    def _probes(self, legal: Sequence[str], ply: int, plan: Plan, rng: random.Random) -> list[str]:
        legal_set = set(legal)
        chosen = [
            t for t in (*plan.probes.get(ply, ()), *plan.probe_every_ply) if t not in legal_set
        ]
        groups = reference.universe(self.game, self.reading.rules, plan.start.players)
        if ply == plan.probe_all_at:
            chosen += [t for _, ts in groups for t in ts if t not in legal_set]
            return list(dict.fromkeys(chosen))
        open_groups = [ts for _, ts in groups if any(t not in legal_set for t in ts)]
        for _ in range(self.sample if open_groups else 0):
            group = open_groups[rng.randrange(len(open_groups))]
            for _attempt in range(8):
                text = group[rng.randrange(len(group))]
                if text not in legal_set:
                    chosen.append(text)
                    break
        return list(dict.fromkeys(chosen))

    # -------------------------------------------------------------- clauses

    def _events(self, last: tuple[Any, Any, Any] | None) -> tuple[Event, ...]:
        if last is None:
            return ()
        return reference.events(self.module, *last)

    def _clause_of_turn(
        self, last: tuple[Any, Any, Any] | None, ours: int | None, theirs: object
    ) -> str:
        """The clause of who is to act after the last move: the last rule its events cite.

        In Ascent, after an Advance the same seat goes on only to take a favour: when one
        side keeps the mover and the other does not, they disagree on the favour (A10).
        """
        if last is None:
            return _FIRST_TURN[self.game]
        if self.game == "ascent" and reference.move_kind(self.game, str(last[1])) == "advance":
            mover = self.module.current_player(last[0])
            if (ours == mover) != (theirs == mover):
                return "A10"
        found = self._events(last)
        return found[-1].clause if found else _FIRST_TURN[self.game]

    def _clause_of_scores(
        self, last: tuple[Any, Any, Any] | None, ours: list[int], theirs: list[Any]
    ) -> str:
        found = self._events(last)
        seats = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b]
        if self.game == "throne":
            for event in found:
                if event.clause == "B15" and any(f"eat {s} " in event.text for s in seats):
                    return "B15"
            return "B14"
        cited = {e.clause for e in found}
        if "A13" in cited:
            return "A13"  # a removal: what leaves the board, and whose penalty it is
        return "A15" if "A8" in cited else "A16"

    def _clause_of_legal(
        self,
        state: Any,
        move: Any,
        last: tuple[Any, Any, Any] | None,
        *,
        no_replay: bool = False,
    ) -> str:
        """The clause of the rule that makes ``move`` legal here (a move the engine misses).

        The rule its events cite first, or a more specific one they cite (:data:`_SPECIFIC`);
        in Ascent, after a favour, A12 when the engine allows no Advance at all.
        """
        game = self.game
        text = str(move)
        if (
            game == "ascent"
            and no_replay
            and last is not None
            and reference.move_kind(game, text) == "advance"
            and reference.move_kind(game, str(last[1])) == "favour"
        ):
            return "A12"  # after a favour the player may play again
        after = self.module.apply(state, move)
        found = reference.events(self.module, state, move, after)
        for clause in _SPECIFIC.get(game, ()):
            if any(e.clause == clause for e in found):
                return clause
        return found[0].clause if found else ("B8" if game == "throne" else "A3")


@attrs.define
class _Context:
    """Where a game is, to make a :class:`Disagreement` of what is found there."""

    runner: Runner
    plan: Plan
    moves: list[str]

    def found(
        self,
        kind: str,
        clause: str | None,
        move: str | None,
        state: Any,
        ours: str,
        theirs: str,
    ) -> Disagreement:
        runner = self.runner
        return Disagreement(
            kind=kind,
            clause=clause,
            game=runner.game,
            reading=runner.reading.label,
            players=self.plan.start.players,
            seed=self.plan.start.seed,
            moves=tuple(self.moves),
            move=move,
            position=runner.module.to_text(state),
            reference=ours,
            engine=theirs,
            source=self.plan.source,
        )

    def fault(self, fault: EngineFault, state: Any, move: str | None = None) -> Disagreement:
        runner = self.runner
        request = fault.request
        asked = "" if request is None else f" (request {request.get('id')}: {request.get('op')})"
        return Disagreement(
            kind="protocol",
            clause=None,
            game=runner.game,
            reading=runner.reading.label,
            players=self.plan.start.players,
            seed=self.plan.start.seed,
            moves=tuple(self.moves),
            move=move,
            position=runner.module.to_text(state),
            reference=f"an answer to every request, as spec/conform.md says{asked}",
            engine=f"the engine {fault.reason}",
            source=self.plan.source,
            request=request,
            answer=fault.answer,
            stderr=fault.stderr or runner.session.channel.stderr_tail(),
        )


def _after(last: tuple[Any, Any, Any] | None) -> str:
    return "" if last is None else f" (after {last[1]})"


def _turn(seat: object) -> str:
    return "the game is over (no seat to act)" if seat is None else f"seat {seat} is to act"


def _events_text(found: Sequence[Event]) -> str:
    return " ".join(str(e) for e in found) or "(no event)"
