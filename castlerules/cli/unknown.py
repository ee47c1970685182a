"""Answers from Throne positions whose objectives are not all given (``?``).

A referee rarely knows the players' secret objectives, and most disputes do
not depend on them.  The rules read a seat's objective at one moment only:
when its round is scored (B14, B15), and then only for that seat's score.
Legality, the events of a move other than the scoring, the castle, the No
cards, the votes, the turn and the scores of earlier rounds (written in the
position) never read it.  So an answer depends on an unknown objective
exactly when the move ends the round of that objective; then this module
evaluates the move under *every* objective that seat could hold (every card
not held by a seat whose objective of that round is known) and reports the
scores it can get, naming the seat.  Nothing is guessed: the stand-ins that
let the engine play on (:class:`castlerules.throne.notation.Partial`) are
never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from castlerules import throne
from castlerules.cli import common, positions
from castlerules.core import ArgumentError, Event
from castlerules.throne import notation as throne_notation

SCORING = frozenset({"B14", "B15", "B16"})
"""The clauses of the events that report a round's scores and the game's result."""


@attrs.frozen(slots=True)
class Depends:
    """The scores of round ``number`` that unknown objectives decide: for each such seat,
    every score it can get (sorted)."""

    number: int
    scores: tuple[tuple[int, tuple[int, ...]], ...]

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, _ in self.scores)

    def who(self) -> str:
        """``seat 2's objective`` or ``the objectives of seats 0, 2``."""
        seats = self.seats
        if len(seats) == 1:
            return f"seat {seats[0]}'s objective"
        return f"the objectives of {common.seat_list(seats)}"

    def lines(self) -> list[str]:
        """What a referee reads: what depends on which seat's objective, and how."""
        out = [
            f"The score depends on {self.who()} (not given): round {self.number} is scored "
            "by this move (B14, B15)."
        ]
        for seat, scores in self.scores:
            out.append(f"  seat {seat} scores one of {_values(scores)}, by its objective")
        return out

    def data(self) -> list[dict[str, Any]]:
        return [
            {"round": self.number, "seat": seat, "possible_scores": list(scores)}
            for seat, scores in self.scores
        ]


def _values(scores: Sequence[int]) -> str:
    if len(scores) == 1:
        return str(scores[0])
    return ", ".join(map(str, scores[:-1])) + f" or {scores[-1]}"


def scored_round(before: Any, after: Any) -> int | None:
    """The round a move scored (B14), or None."""
    if len(after.results) > len(before.results):
        return int(before.round)
    return None


def depends(
    module: Any, before: Any, move: Any, after: Any, seat: int | None, unknown: positions.Unknown
) -> Depends | None:
    """What of a legal move's answer unknown objectives decide (None: nothing)."""
    if not unknown or module is not throne:
        return None
    number = scored_round(before, after)
    if number is None:
        return None
    seats = sorted(s for r, s in unknown if r == number)
    if not seats:
        return None
    known = [m for s, m in enumerate(before.objectives[number - 1]) if s not in seats]
    cards = [m for m in throne_notation.objective_cards(before.rules) if m not in known]
    scores = []
    for who in seats:
        possible = set()
        for card in cards:
            objectives = list(before.objectives)
            deal = list(objectives[number - 1])
            deal[who] = card
            objectives[number - 1] = tuple(deal)
            other = attrs.evolve(before, objectives=tuple(objectives))
            possible.add(module.apply(other, move, seat=seat).results[number - 1][who])
        scores.append((who, tuple(sorted(possible))))
    return Depends(number, tuple(scores))


def events(found: Depends, before: Any, after: Any, all_events: Sequence[Event]) -> list[Event]:
    """The move's events with the scoring told without the unknown objectives."""
    unknown = set(found.seats)
    result = after.results[found.number - 1]
    out: list[Event] = []
    for event in all_events:
        if event.clause not in SCORING:
            out.append(event)
        elif event.clause == "B14":
            shown = ", ".join(
                f"seat {s} " + (f"{p}" if s not in unknown else "? (its objective is not given)")
                for s, p in enumerate(result)
            )
            out.append(Event("B14", f"Round {found.number} is scored: {shown}."))
        elif event.clause == "B15":
            if not any(event.text.startswith(f"Seat {s} ") for s in unknown):
                out.append(event)
        else:
            out.append(
                Event(
                    "B16",
                    f"The game is over; the totals and the winner depend on {found.who()}.",
                )
            )
    return out


def check_chain(move_text: str, number: int, found: Depends) -> ArgumentError:
    """The error of an --after move whose scores unknown objectives decide."""
    return ArgumentError(
        f"--after: move {number} ({move_text}) scores round {found.number}, and the scores "
        f"depend on {found.who()} (not given): give it, or ask about this move itself"
    )


def note(unknown: positions.Unknown, state: Any) -> str:
    """One line: which objectives the position leaves unknown, and why it is fine."""
    if len(unknown) == state.rules.rounds * state.players:
        which = "no objective is given"
    else:
        which = "objectives not given: " + ", ".join(
            f"seat {s} in round {r}" for r, s in sorted(unknown)
        )
    return (
        f"({which}; the rules read an objective only to score its round, B14-B15, "
        "and this answer does not)"
    )
