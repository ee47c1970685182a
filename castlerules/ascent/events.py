"""What a move did, in plain words, each with the clause it exercised.

>>> from castlerules.ascent import Advance, Card, Rank, apply, new_game
>>> s = new_game(2, first_player=0)
>>> move = Advance(Card(0, Rank.FIRE_EATER))
>>> for event in describe(s, move, apply(s, move)):
...     print(event)
Seat 0 advances the Fire-eater of set 0 (F0) from the Start to square 1. (A3)
Seat 1's turn. (A3)
"""

from __future__ import annotations

from castlerules.ascent.moves import END_CODE, FAVOUR_BASE, Favour, Move, code_of
from castlerules.ascent.stacks import rank_card
from castlerules.ascent.state import CARDS, State, locate
from castlerules.ascent.transitions import apply, in_race, scores, winners
from castlerules.core.errors import ArgumentError
from castlerules.core.protocol import Event, require

_RACE_OVER = {
    "unreached": "at most one player still has a card that has not reached its arrival square",
    "unflipped": "at most one player still has a card that is not flipped",
    "can_move": "at most one player has a legal Advance",
}
"""Why the game ended early, under each ``end_test`` (A14)."""


def _losers(to_owner: bool, q: int, cards: tuple[int, ...]) -> str:
    """Who a removal counts against (A13): seat ``q``, the column's player, or
    (penalty_to="owner") each card's owner at setup."""
    seats = sorted({CARDS[x].owner for x in cards}) if to_owner else [q]
    if seats == [q]:
        return f"seat {q}"
    return "the owner of each card: seat " + ", seat ".join(map(str, seats))


def _name(c: int) -> str:
    card = CARDS[c]
    return f"the {card.rank.title} of set {card.owner} ({card})"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _square(s: int) -> str:
    return "the Start" if s == 0 else f"square {s}"


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _squares(xs: list[int]) -> str:
    if len(xs) == 1:
        return f"square {xs[0]}"
    return "squares " + ", ".join(str(x) for x in xs[:-1]) + f" and {xs[-1]}"


def describe(before: State, move: Move, after: State) -> tuple[Event, ...]:
    """The events of ``move`` played in ``before``, giving ``after``.

    ``after`` must be ``apply(before, move)`` (``ArgumentError`` otherwise);
    an illegal move raises the :class:`~castlerules.core.errors.IllegalMove`
    that :func:`~castlerules.ascent.transitions.apply` raises.
    """
    require(before, State, "describe's before")
    require(after, State, "describe's after")
    expected = apply(before, move)
    if expected != after:
        raise ArgumentError("describe(before, move, after) needs after == apply(before, move)")
    code = code_of(move)
    p = before.actor
    t = before.tables
    events: list[Event] = []
    if code < FAVOUR_BASE:
        events.extend(_advance_events(before, after, p, code))
    elif code < END_CODE:
        events.extend(_favour_events(before, after, p, code - FAVOUR_BASE))
    else:
        assert before.step is not None
        declined = "the replay" if before.step[2] else "the favour"
        events.append(
            Event(
                "A12" if before.step[2] else "A10", f"Seat {p} ends the turn, declining {declined}."
            )
        )
    if after.step is None:  # the turn ended (rules 17-18)
        n = len(before.columns)
        if after.actor >= 0:
            q = (p + 1) % n
            while q != after.actor:
                events.append(Event("A14", f"Seat {q} has no legal Advance and is skipped."))
                q = (q + 1) % n
            if after.actor == p:
                events.append(Event("A14", f"Seat {p} plays again: nobody else can move."))
            else:
                events.append(Event("A3", f"Seat {after.actor}'s turn."))
        else:
            alive = sum(
                1
                for q in range(n)
                if in_race(t, after.columns[q], after.flipped[q], after.occupied[q])
            )
            if not t.last_player_continues and alive <= 1:
                reason = _RACE_OVER[t.end_test]
            else:
                reason = "no player has a legal Advance"
            events.append(Event("A14", f"The game is over: {reason}."))
            points = scores(after)
            best = winners(after)
            table = ", ".join(f"seat {q} {v:+d}" for q, v in enumerate(points))
            who = (
                f"seat {best[0]} wins"
                if len(best) == 1
                else "seats " + ", ".join(str(q) for q in best) + " share the win"
            )
            events.append(Event("A17", f"Scores: {table}; {who}."))
    return tuple(events)


def _advance_events(before: State, after: State, p: int, c: int) -> list[Event]:
    t = before.tables
    arr = t.arrival
    found = locate(before, c)
    assert found is not None
    _, s, i = found
    st = before.columns[p][s]
    part = (c,) if s == 0 else st[: i + 1]
    rest = () if s == 0 else st[i + 1 :]
    lead = rank_card(t, part)
    landed = locate(after, lead)
    assert landed is not None
    d = landed[1]
    above = f" with the {_plural(i, 'card')} above it" if i and s else ""
    events = [Event("A3", f"Seat {p} advances {_name(c)}{above} from {_square(s)} to square {d}.")]
    jumped = list(range(s + 1, d))
    fl = before.flipped[p]
    plain = [e for e in jumped if not fl >> e & 1]
    arrived = [e for e in jumped if fl >> e & 1]
    if plain:
        events.append(Event("A3", f"It jumps over the occupied {_squares(plain)}."))
    for e in arrived:
        # A9: an arrival square of flipped cards is occupied for the higher ranks (the
        # squares jumped lie below the leader's ceiling, so they are lower ranks' squares)
        owner = CARDS[rank_card(t, before.columns[p][e])].rank.title
        events.append(
            Event(
                "A9",
                f"It jumps over square {e}: the {owner}'s arrival square, holding flipped "
                f"cards, counts as occupied for the {CARDS[lead].rank.title}, a higher rank.",
            )
        )
    if rest:
        events.append(Event("A3", f"{_cap(_name(rest[0]))} stays on square {s}."))
    if before.columns[p][d]:
        events.append(
            Event(
                "A9",
                f"Square {d} holds flipped cards: as the {CARDS[lead].rank.title}'s arrival "
                "square it is free for that rank, and the stack lands on top of them.",
            )
        )
    for x in part:
        if x != lead and d > arr[x]:
            events.append(
                Event(
                    "A7",
                    f"{_cap(_name(x))} goes above its arrival square {arr[x]}, "
                    f"protected by {_name(lead)}.",
                )
            )
    if d == arr[lead]:
        events.append(
            Event(
                "A8",
                f"{_cap(_name(lead))} reaches its arrival square {d}: "
                f"{'its card is' if len(part) == 1 else f'the {len(part)} cards are'} "
                "flipped and will never move again.",
            )
        )
    if after.step is not None:
        targets = [str(m) for m in after.moves if isinstance(m, Favour)]
        events.append(
            Event(
                "A10",
                f"A favour is available on row {d}: take {', '.join(targets)} under the moved "
                "stack, or end the turn.",
            )
        )
    return events


def _favour_events(before: State, after: State, p: int, c: int) -> list[Event]:
    t = before.tables
    arr = t.arrival
    found = locate(before, c)
    assert found is not None
    q, d, j = found
    st = before.columns[q][d]
    rest = st[j + 1 :]
    above = f" with the {_plural(j, 'card')} above it" if j else ""
    events = [
        Event(
            "A10",
            f"Seat {p}'s stack on square {d} takes {_name(c)}{above} from column {q}, under "
            "the moved stack; they now belong to column " + f"{p}.",
        )
    ]
    if before.flipped[p] >> d & 1:
        events.append(
            Event("A8", "The taken cards are flipped with the stack that has just arrived.")
        )
    bare = rank_card(t, rest) if rest else -1
    if rest and d > arr[bare]:
        if locate(after, rest[0]) is None:
            half = (
                "In the upper half"
                if before.rules.in_upper_half(d)
                else "In the lower half (removal_in_lower_half)"
            )
            one = len(rest) == 1
            events.append(
                Event(
                    "A13",
                    f"{half}, {_name(bare)} is left exposed above its arrival square "
                    f"{arr[bare]} on square {d}: the {_plural(len(rest), 'card')} of the "
                    f"remainder {'leaves' if one else 'leave'} the board and "
                    f"{'counts' if one else 'count'} against {_losers(t.to_owner, q, rest)}.",
                )
            )
        else:
            events.append(
                Event(
                    "A13",
                    f"{_cap(_name(bare))} is left exposed above its arrival square "
                    f"{arr[bare]}, on square {d}, where no removal applies: it stays.",
                )
            )
    if after.step is not None:
        more = [str(m) for m in after.moves if isinstance(m, Favour)]
        extra = f", take a further favour ({', '.join(more)})" if more else ""
        events.append(Event("A12", f"Seat {p} may play again (an Advance){extra} or end the turn."))
    return events
