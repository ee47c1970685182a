"""The words of Ascent's refusals: what was tried, what blocks it and which rule forbids
it (A2, A3, A6, A9, A10, A11, A18), for the engine's :class:`~castlerules.core.IllegalMove`.

The checks themselves are the engine's (:mod:`castlerules.ascent.transitions`) and the
kernel's; this module only says them to a player, and lists the refusals the engine gives
that no guard of the kernel names (:data:`ENGINE_REFUSALS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from castlerules.ascent.rules import CARDS_PER_SET
from castlerules.ascent.state import CARDS, State, locate
from castlerules.core.errors import EngineRefusal, IllegalMove

ENGINE_REFUSALS: tuple[EngineRefusal, ...] = (
    EngineRefusal("ascent-turn", "A3"),
    EngineRefusal("ascent-advance-not-in-play", "A2", within="ascent-other-column"),
    EngineRefusal("ascent-advance-removed", "A2", within="ascent-other-column"),
    EngineRefusal("ascent-favour-not-in-play", "A10", within="ascent-favour-other-row"),
    EngineRefusal("ascent-favour-removed", "A10", within="ascent-favour-other-row"),
    EngineRefusal("ascent-favour-own-column", "A10", within="ascent-favour-other-row"),
    EngineRefusal("ascent-favour-start", "A10", within="ascent-favour-other-row"),
    EngineRefusal("ascent-moves-down", "A4"),
)
"""The refusals of Ascent that no guard of the kernel names (the kernel's guards name
the others): a move given for a seat not to act (``apply``'s ``seat``), the finer
reasons of two guards (a card removed, not in play, in the player's own column, on a
Start), and a card asked to move down (:func:`castlerules.casebook.questions.question`)."""

UNREACHED: Mapping[str, str] = MappingProxyType(
    {
        "ascent-favour-after-arrival": "under favour_after_arrival=False an Advance that "
        "flips its stack offers no favour, so no turn reaches a favour by a just-flipped "
        "stack (from_text refuses such a turn)",
    }
)
"""The refusals no position of a game reaches (the engine still gives them for a state
built by hand), each with the reason."""


def named(c: int) -> str:
    card = CARDS[c]
    return f"the {card.rank.title} of set {card.owner} ({card})"


NOT_IN_PLAY = {"A2": "ascent-advance-not-in-play", "A10": "ascent-favour-not-in-play"}
"""The refusal of a card not in play, by the clause of the move tried (an Advance's, a
favour's)."""


def out_of_play(state: State, c: int, clause: str) -> IllegalMove | None:
    """Why card ``c`` is not in play (A2, A18), or None if it is."""
    n = len(state.columns)
    if state.rules.deal == "sets" and c // CARDS_PER_SET >= n:
        return IllegalMove(
            f"{named(c)} is not in play: with {n} players the sets are 0..{n - 1}",
            clause,
            refusal=NOT_IN_PLAY[clause],
        )
    if not state.tables.in_play[c]:
        return IllegalMove(
            f"{named(c)} is not in play (option cards)", clause, refusal=NOT_IN_PLAY[clause]
        )
    if state.owners[c] < 0:
        return IllegalMove(
            f"{named(c)} is not in play: it was left over when the cards were dealt "
            f"(deal=shuffled: {len(state.tables.dealable) // n} cards to each of {n} seats)",
            clause,
            refusal=NOT_IN_PLAY[clause],
        )
    return None


def not_in_column(state: State, p: int, c: int) -> Exception:
    out = out_of_play(state, c, "A2")
    if out is not None:
        return out
    found = locate(state, c)
    if found is None:
        return IllegalMove(
            f"{named(c)} was removed from the board; seat {p} moves only the cards of column {p}",
            "A2",
            refusal="ascent-advance-removed",
        )
    return IllegalMove(
        f"{named(c)} stands in column {found[0]}: seat {p} moves only the cards of column {p}",
        "A2",
        refusal="ascent-other-column",
    )


def blocker(state: State, p: int, d: int, lead: int) -> str:
    """What makes square ``d`` of column ``p`` occupied for ``lead``'s rank (A3, A9)."""
    st = state.columns[p][d]
    on = "".join(str(CARDS[x]) for x in st)
    held = named(st[0]) if len(st) == 1 else f"the stack {on} (led by {named(st[0])})"
    title = CARDS[lead].rank.title
    if state.flipped[p] >> d & 1:
        return (
            f"square {d} holds {held}, flipped on the {CARDS[st[0]].rank.title}'s arrival "
            f"square, which is occupied for any higher rank such as the {title} (A9)"
        )
    if d == state.tables.arrival[lead]:
        return (
            f"square {d}, the {title}'s own arrival square, holds {held}, not flipped: an "
            "arrival square is free only when the cards on it are flipped (A9)"
        )
    return f"square {d} holds {held}, not flipped: a square with a stack is occupied (A3)"


def ceiling_error(state: State, p: int, c: int, s: int, lead: int) -> IllegalMove:
    t = state.tables
    ceiling = t.arrival[lead]
    col = state.columns[p]
    fl = state.flipped[p]
    nxt = None
    for d in range(s + 1, t.squares + 1):
        if not col[d] or (fl >> d & 1 and d == ceiling):
            nxt = d
            break
    where_to = (
        "no free square is left above it" if nxt is None else f"the next free square is {nxt}"
    )
    blocked = "".join(f"{blocker(state, p, d, lead)}; " for d in range(s + 1, ceiling + 1))
    led = "" if lead == c else f" (its stack is led by {named(lead)})"
    return IllegalMove(
        f"{named(c)} on {'the Start' if s == 0 else f'square {s}'} cannot advance{led}: "
        f"{blocked}{'so ' if blocked else ''}{where_to}, and the "
        f"{CARDS[lead].rank.title} cannot go above its arrival square {ceiling}",
        "A6",
        refusal="ascent-ceiling",
    )


def favour_elsewhere(state: State, p: int, c: int, d: int) -> IllegalMove:
    out = out_of_play(state, c, "A10")
    if out is not None:
        return out
    found = locate(state, c)
    if found is None:
        return IllegalMove(
            f"{named(c)} was removed from the board and cannot be taken",
            "A10",
            refusal="ascent-favour-removed",
        )
    q, s, _ = found
    if q == p:
        return IllegalMove(
            f"{named(c)} is in your own column: a favour takes cards of another column",
            "A10",
            refusal="ascent-favour-own-column",
        )
    if s == 0:
        return IllegalMove(
            f"{named(c)} is on a Start: the Start is not a row for favours",
            "A10",
            refusal="ascent-favour-start",
        )
    own = state.columns[p][s]
    if own and not state.flipped[p] >> s & 1:
        return IllegalMove(
            f"{named(c)} is on row {s}: only the stack just moved, on row {d}, can take a favour",
            "A11",
            refusal="ascent-favour-jumped-row",
        )
    return IllegalMove(
        f"{named(c)} is on row {s}, not on row {d} of the stack just moved: a favour "
        "takes cards on the same row",
        "A10",
        refusal="ascent-favour-other-row",
    )


__all__ = [
    "ENGINE_REFUSALS",
    "NOT_IN_PLAY",
    "UNREACHED",
    "blocker",
    "ceiling_error",
    "favour_elsewhere",
    "named",
    "not_in_column",
    "out_of_play",
]
