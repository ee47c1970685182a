"""The boards the desk's page draws (in HTML, readable on a phone), as JSON records.

A Throne board is written from a :class:`~castlerules.desk.table.ThroneTable`
alone in the table view; the referee view adds each seat's objective of the
round, its vote and its No count (:func:`throne_secrets`).  An Ascent board
is the whole position (Ascent hides nothing).  The records hold what the
library's own diagrams (``throne.svg``, ``ascent.svg``) show.
"""

from __future__ import annotations

from typing import Any

from castlerules import ascent, throne
from castlerules.desk.table import Hidden, ThroneTable
from castlerules.throne.rules import FLOOR_NAMES
from castlerules.throne.state import ELECTION, ELIMINATED, OVER, UNPLACED


def throne_headline(table: ThroneTable) -> str:
    """One line: the round, the phase and who acts (or that the game is over)."""
    if table.turn is None:
        return f"Throne, game over after round {table.round} of {table.rules.rounds}"
    return (
        f"Throne, round {table.round} of {table.rules.rounds}, {table.phase}: "
        f"seat {table.turn} to act"
    )


def throne_secrets(state: throne.State, hidden: Hidden) -> list[dict[str, Any]]:
    """Per seat, what only the referee view shows: its objective of the current round
    (B4), its face-down vote (B11) and its No count; ``None`` where not given."""
    out = []
    for seat in range(state.players):
        if (state.round, seat) in hidden.objectives or state.phase == OVER:
            objective = None
        else:
            objective = "".join(sorted(throne.objective(state, seat)))
        vote = None
        if state.phase == ELECTION and state.votes[seat] >= 0 and seat not in hidden.votes:
            vote = "yes" if state.votes[seat] == 1 else "no"
        count = None if seat in hidden.no_cards else state.no_cards[seat]
        out.append({"objective": objective, "vote": vote, "no_cards": count})
    return out


def throne_board(table: ThroneTable, secrets: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The board of the table (and, with ``secrets``, the referee's additions)."""
    rules = table.rules
    letters = rules.letters()
    top = rules.throne_floor
    on = {
        f: [ch for ch, at in zip(letters, table.floors, strict=True) if at == f]
        for f in range(1, top + 1)
    }
    candidate = on[top][0] if on[top] and table.phase == "election" else None
    seats = []
    totals = table.totals()
    for seat in range(table.players):
        row: dict[str, Any] = {
            "seat": seat,
            "no_cards": table.no_cards[seat],
            "total": totals[seat],
            "voted": table.voted[seat] if table.phase == "election" else None,
            "to_act": seat == table.turn,
            "objective": None,
            "vote": None,
        }
        if secrets is not None:
            row.update({k: v for k, v in secrets[seat].items() if v is not None})
        seats.append(row)
    return {
        "game": "throne",
        "headline": throne_headline(table),
        "floors": [
            {
                "floor": f,
                "name": FLOOR_NAMES[f] if f < len(FLOOR_NAMES) else "",
                "points": rules.points_of(f),
                "capacity": rules.capacity(f),
                "characters": on[f],
            }
            for f in range(top, 0, -1)
        ],
        "candidate": candidate,
        "unplaced": [ch for ch, at in zip(letters, table.floors, strict=True) if at == UNPLACED],
        "eliminated": [
            ch for ch, at in zip(letters, table.floors, strict=True) if at == ELIMINATED
        ],
        "kings": list(table.kings),
        "seats": seats,
        "secrets_shown": secrets is not None,
    }


def ascent_board(state: ascent.State) -> dict[str, Any]:
    """The whole Ascent position: per column, the stacks of each square (top first)."""
    rules = state.rules
    arrival = {rules.arrival_of(rank): rank.letter for rank in ascent.Rank}
    current = ascent.current_player(state)
    scores = ascent.scores(state)

    def card(c: ascent.Card) -> dict[str, Any]:
        return {"card": str(c), "rank": c.rank.name.lower(), "flipped": ascent.is_flipped(state, c)}

    columns = []
    for column in range(state.players):
        columns.append(
            {
                "seat": column,
                "to_act": column == current,
                "squares": [
                    [card(c) for c in ascent.stack_at(state, column, square)]
                    for square in range(rules.squares + 1)
                ],
                "removed": [str(c) for c in ascent.removed(state, column)],
                "score": scores[column],
            }
        )
    if current is None:
        best = ascent.winners(state)
        headline = (
            f"Ascent, game over: {'winner' if len(best) == 1 else 'winners'} seat "
            + ", ".join(map(str, best))
        )
    elif ascent.pending_favour(state):
        headline = f"Ascent, seat {current} to act: favour or replay (A10-A12)"
    else:
        headline = f"Ascent, seat {current} to act"
    return {
        "game": "ascent",
        "headline": headline,
        "squares": rules.squares,
        "arrival": {str(sq): letter for sq, letter in arrival.items()},
        "upper_half": [sq for sq in range(1, rules.squares + 1) if rules.in_upper_half(sq)],
        "columns": columns,
    }


__all__ = ["ascent_board", "throne_board", "throne_headline", "throne_secrets"]
