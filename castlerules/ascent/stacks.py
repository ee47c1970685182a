"""How a stack acts under the readings of its rank (option ``stack_rank``) and of
protection: the card it acts with, and the Advances of its parts where a part does
not simply go where its top card may go (A3, A6, A7).

The engine's hot path (:mod:`castlerules.ascent.transitions`) handles the
reference reading itself and calls these for the others.
"""

from __future__ import annotations

from castlerules.ascent.moves import ADVANCES, Move
from castlerules.ascent.rules import Tables
from castlerules.ascent.state import Column


def rank_card(t: Tables, cards: tuple[int, ...]) -> int:
    """The card whose rank a stack or a part acts with (option ``stack_rank``): its top
    card, or (``"highest"``) its highest-ranked card, the topmost of equals."""
    if not t.highest or len(cards) == 1:
        return cards[0]
    value = t.value
    best = cards[0]
    for c in cards:
        if value[c] > value[best]:
            best = c
    return best


def other_reading_advances(
    t: Tables, col: Column, squares: tuple[int, ...], free: int, flipped_mask: int
) -> list[Move]:
    """The Advances of the stacks on ``squares`` when a part does not simply go where
    its top card may go: ``stack_rank="highest"``, or the strict reading
    ``protection=False`` where every moving card is bound by its own ceiling (A6, A7)."""
    out: list[Move] = []
    window = t.window
    arrival_bit = t.arrival_bit
    arr = t.arrival
    expose = t.allow_exposing_split
    for s in squares:
        stack = col[s]
        n = len(stack)
        if t.highest and n > 1:
            out.extend(_highest_advances(t, stack, s, free, flipped_mask))
            continue
        lead = stack[0]
        reach = (free | (flipped_mask & arrival_bit[lead])) & window[lead][s]
        if not reach:
            continue  # A6: the next free square is above the leader's ceiling
        if n == 1:
            out.append(ADVANCES[lead])
            continue
        # Strict (wrong) reading: every moving card is bound by its own ceiling (A6).
        d = (reach & -reach).bit_length() - 1
        for i in range(n):
            if arr[stack[i]] < d:
                break
            if i + 1 < n and not expose and s > arr[stack[i + 1]]:
                continue
            out.append(ADVANCES[stack[i]])
    return out


def _highest_advances(
    t: Tables, stack: tuple[int, ...], s: int, free: int, flipped_mask: int
) -> list[Move]:
    """The Advances of a stack on square ``s`` when a part acts with its highest rank
    (``stack_rank="highest"``): each part ``stack[:i + 1]`` is bound by the ceiling of its
    highest card (A6, A7), and must not leave a remainder above the ceiling of the
    remainder's own highest card (rule 11)."""
    out: list[Move] = []
    arr, value, window, abit = t.arrival, t.value, t.window, t.arrival_bit
    n = len(stack)
    lead = stack[0]
    for i in range(n):
        if value[stack[i]] > value[lead]:
            lead = stack[i]
        w = window[lead][s]
        reach = (free | (flipped_mask & abit[lead])) & w
        if not reach:
            continue  # A6: no free square up to the part's ceiling
        if i + 1 < n and not t.allow_exposing_split and s > arr[rank_card(t, stack[i + 1 :])]:
            continue  # A7 (rule 11): the remainder would be exposed
        if not t.protection:
            d = (reach & -reach).bit_length() - 1
            if any(arr[x] < d for x in stack[: i + 1]):
                continue  # the strict reading: every moving card by its own ceiling
        out.append(ADVANCES[stack[i]])
    return out
