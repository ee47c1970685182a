"""Every kind of refusal the engines give: its clause, the note that says so, its case.

An :class:`~castlerules.core.IllegalMove` says in words what forbids a move, cites
one clause and names its kind (``refusal``).  Each *kind* of refusal (one way a move
can be illegal) is listed here once, by that name, with the clause it cites, the interpretation note (``NOTES``) that promises that
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
    note: tuple[str, str] | None = None
    """The interpretation note that promises the clause: its topic, and the words of the
    sentence that says it (None where the seed's clause speaks for itself)."""
    cases: tuple[str, ...] = ()
    """The casebook cases that show this refusal."""
    reachable: bool = True
    """False for a refusal no position of a game reaches (the engine still gives it for
    a state built by hand): the tests then do not require a game that shows it."""

    def matches(self, module: Any, error: IllegalMove) -> bool:
        """Whether ``error``, raised by ``module``, is of this kind (by its name)."""
        return self.game == module.NAME and error.refusal == self.key


def _t(key: str, clause: str, **kw: Any) -> RefusalKind:
    return RefusalKind(key, "throne", clause, **kw)


def _a(key: str, clause: str, **kw: Any) -> RefusalKind:
    return RefusalKind(key, "ascent", clause, **kw)


_OUTSIDE = "moves outside their phase"
_SEAT = "the seat argument of apply()"
_FAVOUR = "choosing a favour"

REFUSALS: tuple[RefusalKind, ...] = (
    # ------------------------------------------------------------------ Throne
    _t("throne-game-over", "B3",
       note=("moves after the end", "refuses every move with an IllegalMove citing B3"),
       cases=("throne-game-over",)),
    _t("throne-turn-placement", "B6",
       note=(_SEAT, "B6 while placing")),
    _t("throne-turn-movement", "B8",
       note=(_SEAT, "B8 while moving")),
    _t("throne-turn-election", "B11",
       note=(_SEAT, "B11 while voting")),
    _t("throne-place-in-movement", "B8",
       note=(_OUTSIDE, "a Place after the placement phase cites the clause of the current phase"),
       cases=("throne-place-in-movement",)),
    _t("throne-move-in-placement", "B6",
       note=(_OUTSIDE, "a Climb while placing cites B6")),
    _t("throne-move-in-election", "B11",
       note=(_OUTSIDE, "a Climb during an election cites B11"), cases=("throne-climb-in-election",)),
    _t("throne-unknown-placement", "B6",
       note=("unknown characters", "citing the clause of the current phase")),
    _t("throne-unknown-movement", "B8",
       note=("unknown characters", "citing the clause of the current phase")),
    _t("throne-placed-twice", "B6",
       cases=("throne-place-twice",)),
    _t("throne-placement-floors", "B6",
       cases=("throne-place-on-sixth", "throne-original-floor-1")),
    _t("throne-full-floor", "B7",
       cases=("throne-full-floor",)),
    _t("throne-climb-from-throne", "B8",
       note=(_OUTSIDE, "except a Climb of the candidate, which cites B8"),
       cases=("throne-climb-from-throne",)),
    _t("throne-eliminated", "B13",
       note=("climbing an eliminated character", "is refused citing B13"),
       cases=("throne-eliminated-cannot-climb",)),
    _t("throne-climb-into-full", "B8",
       cases=("throne-climb-into-full",)),
    _t("throne-no-election", "B10",
       note=(_OUTSIDE, "A Vote outside an election is refused citing B10"),
       cases=("throne-vote-no-election",)),
    _t("throne-no-card-left", "B11", cases=("throne-no-card-left",)),
    _t("throne-pass-refused", "B8",
       cases=("throne-pass-refused",)),
    _t("throne-moves-down", "B9"),
    # A Climb of a character not yet placed: no position of the movement phase has one.
    _t("throne-not-in-castle", "B8", reachable=False),
    # ------------------------------------------------------------------ Ascent
    _a("ascent-turn", "A3",
       note=("acting out of turn", "is refused citing A3")),
    _a("ascent-game-over", "A14",
       cases=("ascent-game-over",)),
    _a("ascent-end-before-advance", "A3",
       note=("ending the turn", "EndTurn at the start of a turn is refused citing A3"),
       cases=("ascent-end-before-advance",)),
    _a("ascent-advance-before-favour", "A12",
       note=("ending the turn", "An Advance while a favour is pending"),
       cases=("ascent-advance-before-favour",)),
    _a("ascent-replay-limit", "A12",
       note=("one replay per turn", "a further Advance is refused citing A12")),
    _a("ascent-flipped", "A8",
       cases=("ascent-flipped-never-moves",)),
    _a("ascent-ceiling", "A6",
       note=("no free square under the ceiling", "the refusal cites A6"), cases=("ascent-ceiling",)),
    _a("ascent-exposing-split", "A7",
       cases=("ascent-exposing-split",)),
    _a("ascent-strict-protection", "A6"),
    _a("ascent-favour-not-pending", "A11",
       note=("several favours", "a favour when no stack was just moved cites A11"),
       cases=("ascent-favour-not-pending",)),
    _a("ascent-favour-limit", "A10",
       note=("several favours", "A favour beyond the limit cites A10")),
    _a("ascent-favour-flipped", "A10",
       note=(_FAVOUR, "A favour on a flipped stack is refused citing A10")),
    _a("ascent-favour-rank", "A10",
       note=(_FAVOUR, "on a leader of equal or higher rank"), cases=("ascent-favour-higher-rank",)),
    # Under favour_after_arrival=false an Advance that flips its stack offers no favour,
    # so no turn reaches a favour by a just-flipped stack (from_text refuses such a turn).
    _a("ascent-favour-after-arrival", "A10",
       note=("favour after arrival", "a refusal cites A10"), reachable=False),
    _a("ascent-favour-all-lower", "A10",
       note=("what a favour may take", "a refusal cites A10")),
    _a("ascent-advance-not-in-play", "A2",
       note=("cards that are not yours to move", "is refused citing A2")),
    _a("ascent-favour-not-in-play", "A10",
       note=(_FAVOUR, "card not in play (removed, of a set not dealt) is refused citing A10")),
    _a("ascent-advance-removed", "A2",
       note=("cards that are not yours to move", "is refused citing A2")),
    _a("ascent-other-column", "A2",
       note=("cards that are not yours to move", "is refused citing A2"),
       cases=("ascent-other-column",)),
    _a("ascent-favour-removed", "A10",
       note=(_FAVOUR, "card not in play (removed, of a set not dealt) is refused citing A10")),
    _a("ascent-favour-own-column", "A10",
       note=(_FAVOUR, "The player's own column is never a target"),
       cases=("ascent-favour-own-column",)),
    _a("ascent-favour-start", "A10",
       note=("the Start row", "a favour there is refused citing A10")),
    _a("ascent-favour-jumped-row", "A11",
       note=(_FAVOUR, "cites A11")),
    _a("ascent-moves-down", "A4"),
    _a("ascent-favour-other-row", "A10",
       note=(_FAVOUR, "one on another row")),
)  # fmt: skip
"""Every kind of refusal of both games, Throne first."""

_BY_KEY = {kind.key: kind for kind in REFUSALS}
assert len(_BY_KEY) == len(REFUSALS), "two refusal kinds have the same key"


def kind_of(module: Any, state: Any, move: Any, error: IllegalMove) -> RefusalKind:
    """The kind of a refusal (``error``, raised for ``move`` in ``state``); ``LookupError``
    if it is of no kind listed here, or of more than one."""
    found = [k for k in REFUSALS if k.matches(module, error)]
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
