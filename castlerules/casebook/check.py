"""Replaying a found game from ``new_game`` through the public API, and checking it.

:func:`verify` starts the case's game with ``new_game``, reads every
recorded move with ``parse_move``, plays it with ``apply``, asks
``describe`` what it did, and checks that the game still shows the case:
the condition holds at the last move (a step case), on the finished game (a
game case), for the move tried after the moves (a refusal case: the engine
refuses it, citing what the case says), or the readings still disagree
there (a reading case); and that the case's first clause is the clause its game
shows (:func:`citation_problem`).  Anything else raises :class:`CaseError`.
"""

from __future__ import annotations

from typing import Any

import attrs

from castlerules import records
from castlerules.casebook.declare import Case, Game, Moment, Refusal, Split
from castlerules.casebook.play import outcome, split_at
from castlerules.core import IllegalMove, NotationError, RulesError

__all__ = [
    "SHOWN_INSTEAD",
    "CaseError",
    "Found",
    "Shown",
    "citation_problem",
    "shown_clauses",
    "verify",
]


class CaseError(AssertionError):
    """A case's game no longer shows what the case claims (or cannot be replayed)."""


@attrs.frozen(slots=True)
class Found:
    """A game found for a case: ``new_game(players, seed=seed)``, the moves, the move tried.

    ``tried`` is the move refused (refusal case) or read differently
    (reading case) after ``moves``; ``None`` for the others.  ``source`` is
    the hash of the sources it was found with.
    """

    key: str
    players: int
    seed: int
    moves: tuple[str, ...]
    tried: str | None
    found_by: str
    source: str = ""
    proof: str = ""
    """For a game found by BMC (``found_by == "bmc"``): what the proof of "shortest" covers."""
    depth: int | None = None
    """For a game found by BMC: the depth it was found at (moves before the case's focus);
    every shallower depth was refuted."""

    @property
    def proven_shortest(self) -> bool:
        """Whether BMC proved that no shorter game shows the case (in :attr:`proof`'s scope)."""
        return self.found_by == "bmc"

    @property
    def how(self) -> str:
        """How the game was found and whether it is the shortest, in one sentence."""
        if self.proven_shortest:
            return (
                f"shortest possible: proven by bounded model checking to depth {self.depth} "
                f"({self.proof})"
            )
        return f"shortest the search found: {self.found_by}"

    @property
    def plies(self) -> int:
        """The game's length in plies, the move tried included."""
        return len(self.moves) + (self.tried is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "seed": self.seed,
            "moves": list(self.moves),
            "tried": self.tried,
            "found_by": self.found_by,
            "plies": self.plies,
            "source": self.source,
            **({"proof": self.proof, "depth": self.depth} if self.proven_shortest else {}),
        }

    @classmethod
    def from_json(cls, key: str, data: dict[str, Any]) -> Found:
        return cls(
            key=key,
            players=int(data["players"]),
            seed=int(data["seed"]),
            moves=tuple(str(m) for m in data["moves"]),
            tried=None if data.get("tried") is None else str(data["tried"]),
            found_by=str(data.get("found_by", "")),
            source=str(data.get("source", "")),
            proof=str(data.get("proof", "")),
            depth=None if data.get("depth") is None else int(data["depth"]),
        )


@attrs.frozen(slots=True)
class Shown:
    """A case replayed: every position under each reading, every move, and what it shows."""

    case: Case
    found: Found
    states: tuple[Any, ...]
    """Positions under the (first) reading: the start, then after each move."""
    moments: tuple[Moment, ...]
    second_states: tuple[Any, ...] = ()
    """Reading cases: the positions under the second reading."""
    focus: Moment | Game | Refusal | Split | None = None

    @property
    def details(self) -> tuple[str, ...]:
        """The case's own lines about its focus (``Case.detail``), if it declares any."""
        if self.case.detail is None or self.focus is None:
            return ()
        return tuple(self.case.detail(self.focus))

    @property
    def claims(self) -> tuple[str, ...]:
        """The sentences the case says about this game (``Case.claims``), each checked on it."""
        return tuple(c.render(self.focus) for c in self.case.claims)

    @property
    def moment(self) -> Moment | None:
        """The move the case is about: its step, the move a game case shows (``Case.show``,
        else the game's last move); None for a refusal or a reading case."""
        focus = self.focus
        if isinstance(focus, Moment):
            return focus
        if isinstance(focus, Game) and focus.moments:
            return self.case.show(focus) if self.case.show is not None else focus.moments[-1]
        return None

    @property
    def before(self) -> Any:
        """The position the case is about, before its move."""
        if self.case.kind in ("refusal", "reading"):
            return self.states[-1]
        return self.states[-2] if len(self.states) > 1 else self.states[0]

    @property
    def after(self) -> Any:
        """The position after the case's move (for a refusal: unchanged)."""
        if isinstance(self.focus, Split) and isinstance(self.focus.first, Moment):
            return self.focus.first.after
        return self.states[-1]

    @property
    def second_after(self) -> Any:
        """Reading cases: the position after the move under the second reading."""
        if isinstance(self.focus, Split) and isinstance(self.focus.second, Moment):
            return self.focus.second.after
        return self.second_states[-1] if self.second_states else None

    def record(self, which: int = 0) -> records.Record:
        """The game as a record (``castlerules replay --annotate`` reads it).

        Under the first reading (``which=0``) or the second (1, reading
        cases); with the move tried when it is legal under that reading.
        """
        case = self.case
        rules = case.rules() if which == 0 else case.second_rules()
        moves = list(self.found.moves)
        final = (self.states if which == 0 else self.second_states)[-1]
        split = self.focus if isinstance(self.focus, Split) else None
        if split is not None and split.move is not None:
            played = split.first if which == 0 else split.second
            if isinstance(played, Moment):
                moves.append(str(split.move))
                final = played.after
        preset = case.preset if which == 0 else (case.versus or (None, ()))[0]
        return records.make(
            case.module,
            self.found.players,
            rules,
            seed=self.found.seed,
            preset=preset,
            moves=moves,
            final=final,
        )


def _fail(case: Case, message: str) -> CaseError:
    return CaseError(f"case {case.key!r} no longer holds: {message}")


def _false_claim(case: Case, focus: Any) -> str | None:
    """The first of the case's claims that its game contradicts, in words (None if none)."""
    for item in case.claims:
        try:
            if not item.holds(focus):
                return f"its claim {item.text!r} is false on its game"
        except Exception as err:  # a claim about something the game does not show
            return f"its claim {item.text!r} cannot be checked on its game ({err!r})"
    return None


def _play(case: Case, rules: Any, found: Found) -> tuple[list[Any], list[Moment]]:
    module = case.module
    try:
        state = module.new_game(found.players, rules=rules, seed=found.seed)
    except RulesError as err:
        raise _fail(case, f"its game cannot start: {err}") from err
    states, moments = [state], []
    for ply, text in enumerate(found.moves):
        try:
            move = module.parse_move(state, text)
        except RulesError as err:
            raise _fail(case, f"move {ply + 1} ({text}) is not legal any more: {err}") from err
        moment = outcome(module, state, move, ply)
        if not isinstance(moment, Moment):
            raise _fail(case, f"move {ply + 1} ({text}) is not legal any more")
        states.append(moment.after)
        moments.append(moment)
        state = moment.after
    return states, moments


def _tried(case: Case, state: Any, text: str, ply: int) -> Refusal:
    """The refusal of ``text`` in ``state``, through ``parse_move`` and ``apply``."""
    module = case.module
    try:
        move = module.parse_move(state, text)
    except IllegalMove as err:
        return Refusal(module, ply, state, _unchecked(case, state, text), err)
    except NotationError as err:
        raise _fail(case, f"the move tried, {text}, cannot be read: {err}") from err
    found = outcome(module, state, move, ply)
    if not isinstance(found, Refusal):
        raise _fail(case, f"the engine no longer refuses {text}")
    return found


def _unchecked(case: Case, state: Any, text: str) -> Any:
    """The move object of ``text`` even where it is illegal (from the moves one might try)."""
    from castlerules.casebook.play import tries

    for move in tries(case.module, state):
        if str(move) == text:
            return move
    raise _fail(case, f"{text} is not a move a player might try here")


def _earlier(case: Case, found: Found, states: list[Any], moments: list[Moment]) -> None:
    """A game proved shortest shows the case at its end and nowhere before."""
    if found.depth != len(found.moves):
        raise _fail(case, f"its BMC depth {found.depth} is not its {len(found.moves)} moves")
    if case.kind == "reading":
        _parted_earlier(case, found, states)
        return
    when = case.when
    assert when is not None
    for ply in range(len(found.moves)):
        if case.kind == "step" and ply + 1 < len(found.moves):
            moment = attrs.evolve(moments[ply], earlier=tuple(moments[:ply]))
            if when(moment):
                raise _fail(case, f"it is not the shortest: move {ply + 1} already shows it")
        if case.kind == "refusal":
            from castlerules.casebook.play import tries

            module = case.module
            legal = {str(m) for m in module.legal_moves(states[ply])}
            for move in tries(module, states[ply]):
                if str(move) in legal:
                    continue
                refused = outcome(module, states[ply], move, ply)
                if isinstance(refused, Refusal) and when(refused):
                    raise _fail(
                        case, f"it is not the shortest: after {ply} moves {move} is refused so"
                    )


def _parted_earlier(case: Case, found: Found, states: list[Any]) -> None:
    """A reading case proved shortest: its readings agree at every earlier ply (the
    same turn, legal moves and views, and the same events of the move played)."""
    module = case.module
    second, _ = _play(case, case.second_rules(), found)
    for ply, text in enumerate(found.moves):
        pair = (states[ply], second[ply])
        if split_at(case, pair, ply) is not None:
            raise _fail(case, f"it is not the shortest: the readings part after {ply} moves")
        one, two = (outcome(module, s, module.parse_move(s, text), ply) for s in pair)
        said = ["\n".join(str(e) for e in m.events) for m in (one, two) if isinstance(m, Moment)]
        if len(said) != 2 or said[0] != said[1]:
            raise _fail(case, f"it is not the shortest: move {ply + 1} ({text}) already parts them")


def verify(case: Case, found: Found) -> Shown:
    """Replay ``found`` and check that it shows ``case``; raise :class:`CaseError` if not.

    A game found by BMC (proved shortest) must also show the case at no
    earlier ply, and its recorded depth must be its length.  The case's first clause
    must be the one its game shows (:func:`citation_problem`).
    """
    shown = _replayed(case, found)
    problem = citation_problem(shown)
    if problem is not None:
        raise _fail(case, f"the clause it cites is not the one its game shows: {problem}")
    return shown


def _replayed(case: Case, found: Found) -> Shown:
    states, moments = _play(case, case.rules(), found)
    ply = len(found.moves)
    when = case.when
    if found.proven_shortest:
        _earlier(case, found, states, moments)
    if case.kind == "step":
        if not moments:
            raise _fail(case, "its game has no move")
        assert when is not None
        last = attrs.evolve(moments[-1], earlier=tuple(moments[:-1]))
        if not when(last):
            why = _false_claim(case, last) or f"move {ply} ({found.moves[-1]}) no longer shows it"
            raise _fail(case, why)
        return Shown(case, found, tuple(states), tuple(moments), focus=last)
    if case.kind == "game":
        assert when is not None
        whole = Game(case.module, states[0], tuple(moments))
        if not case.module.is_over(states[-1]):
            raise _fail(case, f"the game is not over after its {ply} moves")
        if not when(whole):
            raise _fail(case, _false_claim(case, whole) or "the finished game no longer shows it")
        return Shown(case, found, tuple(states), tuple(moments), focus=whole)
    if case.kind == "refusal":
        assert when is not None
        if found.tried is None:
            raise _fail(case, "no move tried is recorded")
        refused = _tried(case, states[-1], found.tried, ply)
        if not when(refused):
            false = _false_claim(case, refused)
            raise _fail(
                case, false or f"the engine refuses {found.tried} otherwise: {refused.error}"
            )
        return Shown(case, found, tuple(states), tuple(moments), focus=refused)
    second, _ = _play(case, case.second_rules(), found)
    split = split_at(case, (states[-1], second[-1]), ply)
    if split is None and found.tried is not None:
        module = case.module
        one = outcome(
            module, states[-1], module.parse_move(states[-1], found.tried, check=False), ply
        )
        two = outcome(
            module, second[-1], module.parse_move(second[-1], found.tried, check=False), ply
        )
        texts = ["\n".join(str(e) for e in m.events) for m in (one, two) if isinstance(m, Moment)]
        if len(texts) == 2 and texts[0] != texts[1]:
            pair = (states[-1], second[-1])
            split = Split(module, "outcome", pair, found.tried, one, two, *texts)
    if split is None or split.move != found.tried:
        raise _fail(case, "the two readings no longer disagree there")
    if when is not None and not when(split):
        false = _false_claim(case, split)
        raise _fail(case, false or f"the readings disagree otherwise: {split.first_text}")
    return Shown(case, found, tuple(states), tuple(moments), tuple(second), focus=split)


# --------------------------------------------------------------------------- citations

SHOWN_INSTEAD = {
    "throne-to-the-throne": ("B1", "B10"),  # B1, the throne's place, is the board's layout
    "throne-floor-names": ("B2", "B8"),  # B2 names the floors; the climb shows them
    "throne-shared-favourite": ("B5", "B14"),  # B5: the favourite shared shows in the score
    "throne-forced-climb": ("B9", "B8"),  # B9: the only move left is a climb
    "ascent-from-start": ("A1", "A3"),  # A1: the board's start
    "ascent-only-up": ("A4", "A3"),  # A4: a direction no move can take
    "ascent-last-square": ("A5", "A8"),  # A5: the length of the path
    "ascent-carried-scores": ("A15", "A17"),  # A15: the scores the end reports (A17)
    "ascent-removed-penalty": ("A16", "A13"),  # A16: the penalty of a removal (A13)
    "ascent-below-arrival": ("A16", "A17"),  # A16: the scores the end reports (A17)
    "ascent-die-first-player": ("A18", "A3"),  # A18: the die's roll is before the first move
    "ascent-reading-deal": ("A18", "A2"),  # A18: the deal shows in the columns
    "ascent-reading-path": ("A5", "A6"),  # A5: the path's length shows in the ceilings
}
"""The cases whose first clause no event or refusal names: that clause, and the clause
their game shows instead (an event of its move or, for a game case, of its game).  The
table is exact: a case that comes to show its first clause must leave it."""


def _events(moment: Any) -> set[str]:
    return {str(e.clause) for e in moment.events}


def _option_clauses(case: Case) -> set[str]:
    """The clauses of the notes whose options the two readings of a reading case set
    apart."""
    first, second = case.rules(), case.second_rules()
    differ = {
        a.name
        for a in attrs.fields(type(first))
        if getattr(first, a.name) != getattr(second, a.name)
    }
    return {n.clause for n in case.module.NOTES if n.option in differ}


def shown_clauses(shown: Shown) -> set[str]:
    """The clauses a case's game shows: the events ``describe`` reports for its move (a
    step case, every move of a game case), the clause of the ``IllegalMove`` (a refusal
    case, and a reading that refuses the move), or, for two readings that part on what a
    seat sees, whose turn it is or the result, the clause of the interpretation note
    whose option the readings set differently."""
    focus = shown.focus
    if isinstance(focus, Moment):
        return _events(focus)
    if isinstance(focus, Refusal):
        return {focus.clause}
    if isinstance(focus, Game):
        return set().union(*(_events(m) for m in focus.moments))
    out: set[str] = set()
    if not isinstance(focus, Split):
        return out
    for result in (focus.first, focus.second):
        if isinstance(result, Refusal):
            out.add(result.clause)
        elif isinstance(result, Moment):
            out |= _events(result)
    if focus.kind in ("view", "turn", "result"):
        out |= _option_clauses(shown.case)
    return out


def citation_problem(shown: Shown) -> str | None:
    """Why the first clause a case cites is not the one its game shows (None if it is):
    a refusal must cite the engine's clause; any other case a clause its game shows, or
    be in :data:`SHOWN_INSTEAD` with the clause shown instead."""
    case, shown_set = shown.case, shown_clauses(shown)
    first = case.clauses[0]
    if isinstance(shown.focus, Refusal) and shown.focus.clause != first:
        return f"the engine refuses citing {shown.focus.clause}, the case cites {first}"
    if first in shown_set:
        if case.key in SHOWN_INSTEAD:
            return f"its game now shows {first}: drop it from SHOWN_INSTEAD"
        return None
    if case.key not in SHOWN_INSTEAD:
        return f"it cites {first}, its game shows {sorted(shown_set)}"
    cited, instead = SHOWN_INSTEAD[case.key]
    if first != cited or instead not in shown_set:
        return (
            f"it cites {case.clauses}, its game shows {sorted(shown_set)}; "
            f"SHOWN_INSTEAD says {cited} shown by {instead}"
        )
    return None
