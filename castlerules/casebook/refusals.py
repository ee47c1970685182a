"""Every kind of refusal the engines give: its clause, the note that says so, its case.

An :class:`~castlerules.core.IllegalMove` says in words what forbids a move and cites
one clause.  Each *kind* of refusal (one way a move can be illegal) is listed here
once, with the clause it cites, the interpretation note (``NOTES``) that promises that
clause where the seed leaves the choice open, and the casebook case that shows it.  The
tests hold the three together: every refusal the engines give over many games is of
exactly one kind here and cites that kind's clause; the note named says that clause in
the sentence quoted; the case named refuses its move with that kind and clause.

>>> from castlerules import IllegalMove, ascent
>>> state = ascent.from_text("P0B0L0F0,-,T1,T0,*C0,-,-,-/P1B1L1C1F1,-,-,-,-,-,-,- -/- 0 -")
>>> move = ascent.parse_move(state, "T1", check=False)
>>> try:
...     ascent.apply(state, move)
... except IllegalMove as err:
...     found = kind_of(ascent, state, move, err)
>>> found.key, found.clause, found.cases
('ascent-ceiling', 'A6', ('ascent-ceiling',))
"""

# ruff: noqa: E501
from __future__ import annotations

import re
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.core import IllegalMove

__all__ = ["REFUSALS", "RefusalKind", "kind_of", "note_sentence"]


@attrs.frozen(slots=True)
class RefusalKind:
    """One way a move can be refused: the words of the refusal and the clause it cites."""

    key: str
    game: str
    clause: str
    pattern: str
    """A regular expression the refusal's message matches (``re.search``; the message
    without the clause it ends with)."""
    move: str | None = None
    """The class of the move refused (``Advance``, ``Favour``...), where the words are
    shared by two kinds that cite different clauses."""
    phase: str | None = None
    """Throne: the phase the refusal happens in, where the clause depends on it."""
    note: tuple[str, str] | None = None
    """The interpretation note that promises the clause: its topic, and the words of the
    sentence that says it (None where the seed's clause speaks for itself)."""
    cases: tuple[str, ...] = ()
    """The casebook cases that show this refusal."""
    reachable: bool = True
    """False for a refusal no position of a game reaches (the engine still gives it for
    a state built by hand): the tests then do not require a game that shows it."""

    def matches(self, module: Any, state: Any, move: Any, error: IllegalMove) -> bool:
        text = str(error).removesuffix(f" ({error.clause})")
        if self.game != module.NAME or re.search(self.pattern, text) is None:
            return False
        if self.move is not None and type(move).__name__ != self.move:
            return False
        return self.phase is None or throne.phase(state) == self.phase


def _t(key: str, clause: str, pattern: str, **kw: Any) -> RefusalKind:
    return RefusalKind(key, "throne", clause, pattern, **kw)


def _a(key: str, clause: str, pattern: str, **kw: Any) -> RefusalKind:
    return RefusalKind(key, "ascent", clause, pattern, **kw)


_OUTSIDE = "moves outside their phase"
_SEAT = "the seat argument of apply()"
_FAVOUR = "choosing a favour"

REFUSALS: tuple[RefusalKind, ...] = (
    # ------------------------------------------------------------------ Throne
    _t("throne-game-over", "B3", r"^The game is over: all \d+ rounds have been scored",
       note=("moves after the end", "refuses every move with an IllegalMove citing B3"),
       cases=("throne-game-over",)),
    _t("throne-turn-placement", "B6", r"turn to place a character: the players place in turn",
       note=(_SEAT, "B6 while placing")),
    _t("throne-turn-movement", "B8", r"turn to move a character up: the players move in turn",
       note=(_SEAT, "B8 while moving")),
    _t("throne-turn-election", "B11", r"turn to vote: the votes go round",
       note=(_SEAT, "B11 while voting")),
    _t("throne-place-in-movement", "B8", r"^Every character is placed: seat \d+ must move",
       note=(_OUTSIDE, "a Place after the placement phase cites the clause of the current phase"),
       cases=("throne-place-in-movement",)),
    _t("throne-move-in-placement", "B6", r"^The castle is being filled: seat \d+ must place",
       note=(_OUTSIDE, "a Climb while placing cites B6")),
    _t("throne-move-in-election", "B11", r"^An election is under way: seat \d+ must vote",
       note=(_OUTSIDE, "a Climb during an election cites B11"), cases=("throne-climb-in-election",)),
    _t("throne-unknown-placement", "B6", r"^There is no character", phase="placement",
       note=("unknown characters", "citing the clause of the current phase")),
    _t("throne-unknown-movement", "B8", r"^There is no character", phase="movement",
       note=("unknown characters", "citing the clause of the current phase")),
    _t("throne-placed-twice", "B6", r"is already in the castle \(floor \d+\)",
       cases=("throne-place-twice",)),
    _t("throne-placement-floors", "B6", r"cannot be placed on floor \d+: placement is on",
       cases=("throne-place-on-sixth", "throne-original-floor-1")),
    _t("throne-full-floor", "B7", r"cannot be placed on floor \d+: it already holds",
       cases=("throne-full-floor",)),
    _t("throne-climb-from-throne", "B8", r"is on the throne, the top floor",
       note=(_OUTSIDE, "except a Climb of the candidate, which cites B8"),
       cases=("throne-climb-from-throne",)),
    _t("throne-eliminated", "B13", r"was eliminated this round: it has left the castle",
       note=("climbing an eliminated character", "is refused citing B13"),
       cases=("throne-eliminated-cannot-climb",)),
    _t("throne-climb-into-full", "B8", r"cannot climb from floor \d+ to floor \d+: .* already holds",
       cases=("throne-climb-into-full",)),
    _t("throne-no-election", "B10", r"^There is no election to vote in",
       note=(_OUTSIDE, "A Vote outside an election is refused citing B10"),
       cases=("throne-vote-no-election",)),
    _t("throne-no-card-left", "B11", r"has no No card left", cases=("throne-no-card-left",)),
    _t("throne-pass-refused", "B8", r"must move a character up: these rules do not allow passing",
       cases=("throne-pass-refused",)),
    _t("throne-moves-down", "B9", r"cannot move down: no character ever moves down"),
    # ------------------------------------------------------------------ Ascent
    _a("ascent-turn", "A3", r"^it is seat \d+'s turn, not seat \d+'s$",
       note=("acting out of turn", "is refused citing A3")),
    _a("ascent-game-over", "A14", r"^the game is over: .* cannot be played$",
       cases=("ascent-game-over",)),
    _a("ascent-end-before-advance", "A3", r"^a turn cannot end before an Advance",
       note=("ending the turn", "EndTurn at the start of a turn is refused citing A3"),
       cases=("ascent-end-before-advance",)),
    _a("ascent-advance-before-favour", "A12", r"cannot advance now: after an Advance, take a favour",
       note=("ending the turn", "An Advance while a favour is pending"),
       cases=("ascent-advance-before-favour",)),
    _a("ascent-flipped", "A8", r"is flipped on square \d+ and can never move again",
       cases=("ascent-flipped-never-moves",)),
    _a("ascent-ceiling", "A6", r"cannot advance(?: \(its stack is led by [^)]*\)\))?: .*cannot go above its arrival square \d+$",
       note=("no free square under the ceiling", "the refusal cites A6"), cases=("ascent-ceiling",)),
    _a("ascent-exposing-split", "A7", r"would leave .* exposed on square \d+, above its arrival",
       cases=("ascent-exposing-split",)),
    _a("ascent-strict-protection", "A6", r"\(strict reading: no protection\)$"),
    _a("ascent-favour-not-pending", "A11", r"^no favour is pending: only the card or stack just moved",
       note=("several favours", "a favour when no stack was just moved cites A11"),
       cases=("ascent-favour-not-pending",)),
    _a("ascent-favour-limit", "A10", r"^no more favours after this Advance",
       note=("several favours", "A favour beyond the limit cites A10")),
    _a("ascent-favour-flipped", "A10", r"is flipped on square \d+: flipped cards are never taken",
       note=(_FAVOUR, "A favour on a flipped stack is refused citing A10")),
    _a("ascent-favour-rank", "A10", r"its stack's leader, .* does not rank lower than",
       note=(_FAVOUR, "on a leader of equal or higher rank"), cases=("ascent-favour-higher-rank",)),
    # Under favour_after_arrival=false an Advance that flips its stack offers no favour,
    # so no turn reaches a favour by a just-flipped stack (from_text refuses such a turn).
    _a("ascent-favour-after-arrival", "A10", r"takes no favour \(favour_after_arrival=False\)",
       note=("favour after arrival", "a refusal cites A10"), reachable=False),
    _a("ascent-favour-all-lower", "A10", r"\(favour_takes=all_lower\)$",
       note=("what a favour may take", "a refusal cites A10")),
    _a("ascent-advance-not-in-play", "A2", r"is not in play", move="Advance",
       note=("cards that are not yours to move", "is refused citing A2")),
    _a("ascent-favour-not-in-play", "A10", r"is not in play", move="Favour",
       note=(_FAVOUR, "card not in play (removed, of a set not dealt) is refused citing A10")),
    _a("ascent-advance-removed", "A2", r"was removed from the board; seat \d+ moves only",
       note=("cards that are not yours to move", "is refused citing A2")),
    _a("ascent-other-column", "A2", r"stands in column \d+: seat \d+ moves only the cards",
       note=("cards that are not yours to move", "is refused citing A2"),
       cases=("ascent-other-column",)),
    _a("ascent-favour-removed", "A10", r"was removed from the board and cannot be taken",
       note=(_FAVOUR, "card not in play (removed, of a set not dealt) is refused citing A10")),
    _a("ascent-favour-own-column", "A10", r"is in your own column: a favour takes cards of another",
       note=(_FAVOUR, "The player's own column is never a target"),
       cases=("ascent-favour-own-column",)),
    _a("ascent-favour-start", "A10", r"is on a Start: the Start is not a row for favours",
       note=("the Start row", "a favour there is refused citing A10")),
    _a("ascent-favour-jumped-row", "A11", r"is on row \d+: only the stack just moved, on row \d+",
       note=(_FAVOUR, "cites A11")),
    _a("ascent-moves-down", "A4", r"cannot move down: a card only ever goes up its column"),
    _a("ascent-favour-other-row", "A10", r"is on row \d+, not on row \d+ of the stack just moved",
       note=(_FAVOUR, "one on another row")),
)  # fmt: skip
"""Every kind of refusal of both games, Throne first."""

_BY_KEY = {kind.key: kind for kind in REFUSALS}
assert len(_BY_KEY) == len(REFUSALS), "two refusal kinds have the same key"


def kind_of(module: Any, state: Any, move: Any, error: IllegalMove) -> RefusalKind:
    """The kind of a refusal (``error``, raised for ``move`` in ``state``); ``LookupError``
    if it is of no kind listed here, or of more than one."""
    found = [k for k in REFUSALS if k.matches(module, state, move, error)]
    if len(found) != 1:
        what = "no kind" if not found else f"{len(found)} kinds ({', '.join(k.key for k in found)})"
        raise LookupError(f"the refusal {str(error)!r} ({error.clause}) is of {what}")
    return found[0]


def note_sentence(kind: RefusalKind) -> str | None:
    """The sentence of the kind's note that says its clause (None if it names no note)."""
    if kind.note is None:
        return None
    topic, words = kind.note
    module = throne if kind.game == "throne" else ascent
    for note in module.NOTES:
        if note.topic == topic:
            for sentence in re.split(r"(?<=[.;])\s+", note.decision):
                if words in sentence:
                    return sentence
            return None
    return None
