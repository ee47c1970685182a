"""What a Throne move did, in plain words, each event with the clause it exercised.

>>> from castlerules.throne import new_game, apply, Place
>>> s = new_game(3, seed=1)
>>> after = apply(s, Place("C", 3))
>>> [str(e) for e in describe(s, Place("C", 3), after)]
['Seat 0 places C on floor 3 (merchants). (B6)']
"""

from __future__ import annotations

from castlerules.core.errors import ArgumentError, RulesError
from castlerules.core.protocol import Event, require
from castlerules.throne.moves import Climb, Move, Pass, Place, Vote
from castlerules.throne.rules import floor_label
from castlerules.throne.state import ELECTION, ELIMINATED, MOVEMENT, OVER, PLACEMENT, State
from castlerules.throne.transitions import apply, favourite_points, first_player, totals


def _seats(seats: list[int]) -> str:
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return "seats " + ", ".join(names[:-1]) + f" and {names[-1]}"


def describe(before: State, move: Move, after: State) -> tuple[Event, ...]:
    """The events of ``move`` played in ``before`` giving ``after``, in order.

    ``after`` must be ``apply(before, move)``; anything else raises
    :class:`~castlerules.core.ArgumentError`, as does a ``before`` or
    ``after`` that is not a :class:`~castlerules.throne.State`.
    """
    require(before, State, "before")
    require(after, State, "after")
    try:
        expected = apply(before, move)
    except RulesError as err:
        raise ArgumentError(f"describe() needs a legal move: {err}") from err
    if expected != after:
        raise ArgumentError("describe(): `after` is not the result of `move` in `before`")
    rules = before.rules
    letters = rules.letters()
    seat = before.turn
    top = rules.throne_floor
    events: list[Event] = []
    end_floors = before.floors
    if isinstance(move, Place):
        events.append(
            Event("B6", f"Seat {seat} places {move.character} on {floor_label(move.floor)}.")
        )
        if after.phase == MOVEMENT and after.round == before.round:
            leftovers = [
                letters[i]
                for i, (a, b) in enumerate(zip(before.floors, after.floors, strict=True))
                if a != b and letters[i] != move.character
            ]
            if leftovers:
                events.append(
                    Event(
                        "B6",
                        f"The leftover characters {', '.join(leftovers)} go to {floor_label(1)}.",
                    )
                )
            events.append(
                Event(
                    "B8",
                    f"Every character is placed: the movement phase begins with seat {after.turn}.",
                )
            )
    elif isinstance(move, Climb):
        i = letters.index(move.character)
        f = before.floors[i]
        events.append(
            Event(
                "B8",
                f"Seat {seat} moves {move.character} up from {floor_label(f)} "
                f"to {floor_label(f + 1)}.",
            )
        )
        if f + 1 == top:
            events.append(
                Event(
                    "B10",
                    f"{move.character} reaches the throne: every player votes on it, "
                    f"seat {seat} first.",
                )
            )
    elif isinstance(move, Vote):
        if after.phase == ELECTION and after.round == before.round:
            events.append(Event("B11", f"Seat {seat} votes face down."))
        else:
            votes = list(before.votes)
            votes[seat] = 1 if move.yes else 0
            shown = ", ".join(f"seat {s} {'yes' if v else 'no'}" for s, v in enumerate(votes))
            events.append(Event("B11", f"The votes are revealed: {shown}."))
            crowned = before.floors.index(top)
            name = letters[crowned]
            against = [s for s, v in enumerate(votes) if v == 0]
            if not against:
                events.append(
                    Event(
                        "B12",
                        f"Every vote is yes: {name} is crowned king; round {before.round} ends.",
                    )
                )
            else:
                floors = list(before.floors)
                floors[crowned] = ELIMINATED
                end_floors = tuple(floors)
                resume = (
                    ""
                    if after.round != before.round or after.phase == OVER
                    else (f" Play resumes with seat {after.turn}.")
                )
                events.append(
                    Event(
                        "B13",
                        f"{name} is rejected and eliminated for the rest of the round; "
                        f"{_seats(against)} "
                        f"{'discards' if len(against) == 1 else 'each discard'} a No card."
                        f"{resume}",
                    )
                )
                if after.round != before.round or after.phase == OVER:
                    events.append(
                        Event(
                            "B13",
                            f"No character is left in the castle: round {before.round} ends "
                            "without a king.",
                        )
                    )
    elif isinstance(move, Pass):
        events.append(Event("B8", f"Seat {seat} passes."))
        if after.round != before.round or after.phase == OVER:
            events.append(
                Event(
                    "B8",
                    f"Every player passed in a row: round {before.round} ends without a king.",
                )
            )
    if len(after.results) > len(before.results):
        events.extend(_scoring(before, after, end_floors))
    return tuple(events)


def _scoring(before: State, after: State, end_floors: tuple[int, ...]) -> list[Event]:
    rules = before.rules
    number = before.round
    result = after.results[-1]
    shown = ", ".join(f"seat {s} {p}" for s, p in enumerate(result))
    events = [Event("B14", f"Round {number} is scored: {shown}.")]
    if rules.bonus_applies(number):
        for s, mask in enumerate(before.objectives[number - 1]):
            if favourite_points(rules, end_floors, mask) == 0:
                events.append(
                    Event(
                        "B15",
                        f"Seat {s} scored 0 in round {number}, which counts as "
                        f"{rules.bonus_points}.",
                    )
                )
    if after.phase == OVER:
        final = totals(after)
        best = max(final)
        won = [s for s, p in enumerate(final) if p == best]
        verdict = f"{_seats(won)} wins" if len(won) == 1 else f"{_seats(won)} share the win"
        events.append(
            Event(
                "B16",
                f"The game is over; totals: {', '.join(map(str, final))}: {verdict} with {best}.",
            )
        )
    else:
        assert after.phase == PLACEMENT
        events.append(
            Event(
                "B4",
                f"Round {after.round} begins: the castle is emptied and new secret "
                "objectives are dealt.",
            )
        )
        events.append(
            Event(
                "B3",
                f"Seat {first_player(rules, after.players, after.round)} places first in "
                f"round {after.round}.",
            )
        )
    return events
