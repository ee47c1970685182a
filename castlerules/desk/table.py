"""The desk's hidden-information boundary: what every seat at the table may see.

The table view of the dispute desk sends the page only what is built here
from a :class:`ThroneTable`, the part of a Throne position that *every*
seat's :func:`castlerules.throne.observation` shows alike: the castle, the
round, phase and seat to act, who has voted, the No counts where the rules
make them public, the objectives and scores of the rounds already scored
(B4, B11, B14).  A seat's own objective, its own vote and its own No count
differ from one seat's observation to the next, so they are not in it.
Ascent hides nothing: its observation is the position itself.

The same boundary writes the notation a table-view dispute link carries
(:func:`public_text`: ``?`` for every objective of a round not yet scored,
for every vote cast face down, for every secret No count) and reads such a
text back (:func:`read_text`), with stand-ins that let the engine play on
and :class:`Hidden` naming them.

:func:`alternatives` gives positions that the table cannot tell from a
given one (every hidden fact changed); the desk shows a table-view answer
only when it is the same for all of them (``castlerules.desk.serve``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from castlerules import throne
from castlerules.throne import notation as throne_notation
from castlerules.throne.state import ELECTION, ELIMINATED

UNKNOWN = "?"
"""What a desk text writes for a fact it does not give."""

OBJECTIVES_FIELD, NO_CARDS_FIELD, VOTES_FIELD = 11, 8, 9
"""Fields of Throne's notation (0-based) that may hold what a seat keeps hidden."""


@attrs.frozen(slots=True)
class Hidden:
    """What a position read from a text does not give (its ``?``): Throne's objectives
    as ``(round, seat)``, and the seats whose face-down vote or No count is not given.
    The position then holds stand-ins for them, which are never shown."""

    objectives: frozenset[tuple[int, int]] = frozenset()
    votes: frozenset[int] = frozenset()
    no_cards: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.objectives or self.votes or self.no_cards)

    def data(self) -> dict[str, list[Any]]:
        """As JSON: which facts the position does not give (itself public)."""
        return {
            "objectives": [[r, s] for r, s in sorted(self.objectives)],
            "votes": sorted(self.votes),
            "no_cards": sorted(self.no_cards),
        }


NOTHING_HIDDEN = Hidden()


@attrs.frozen(slots=True)
class ThroneTable:
    """What every seat at the table may see of a Throne position.

    Built by :func:`table_of` from the seats' observations (the fields on
    which every seat's observation agrees); ``None`` marks what some seat
    does not see (another seat's secret No count) or what the position was
    not given (:class:`Hidden`).
    """

    rules: throne.Rules
    players: int
    round: int
    phase: str
    turn: int | None
    floors: tuple[int, ...]
    no_cards: tuple[int | None, ...]
    voted: tuple[bool, ...]
    passes: int
    revealed: tuple[tuple[frozenset[str] | None, ...], ...]
    """Per scored round, per seat, its objective (revealed at the scoring, B14)."""
    round_scores: tuple[tuple[int, ...], ...]
    kings: tuple[str | None, ...]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def totals(self) -> tuple[int, ...]:
        """Each seat's points: the sum of its round scores (B14-B16)."""
        return tuple(sum(scores[s] for scores in self.round_scores) for s in range(self.players))


_OWN_FIELDS = frozenset({"seat", "objective", "vote"})
"""Observation fields that hold one seat's own view (its objective, its vote)."""


def _agreed(values: Sequence[Any]) -> Any:
    """The value every observation shows; for tuples, element by element (None where
    the seats' observations differ)."""
    first = values[0]
    if all(v == first for v in values):
        return first
    if all(isinstance(v, tuple) and len(v) == len(first) for v in values):
        return tuple(_agreed([v[i] for v in values]) for i in range(len(first)))
    return None


def table_of(state: throne.State, hidden: Hidden = NOTHING_HIDDEN) -> ThroneTable:
    """What every seat may see of ``state`` (see :class:`ThroneTable`).

    >>> table = table_of(throne.new_game(4, seed=1))
    >>> table.phase, table.turn, table.no_cards, table.revealed
    ('placement', 0, (3, 3, 3, 3), ())
    """
    seen = [throne.observation(state, seat) for seat in range(state.players)]
    common = {
        f.name: _agreed([getattr(o, f.name) for o in seen])
        for f in attrs.fields(throne.Observation)
        if f.name not in _OWN_FIELDS
    }
    # What the text did not give is not seen either, whatever the stand-ins say.
    common["no_cards"] = tuple(
        None if seat in hidden.no_cards else count for seat, count in enumerate(common["no_cards"])
    )
    common["revealed"] = tuple(
        tuple(
            None if (number, seat) in hidden.objectives else card for seat, card in enumerate(deal)
        )
        for number, deal in enumerate(common["revealed"], start=1)
    )
    return ThroneTable(**common)


def public_text(table: ThroneTable) -> str:
    """The notation a dispute link made at the table carries, written from ``table``:
    ``?`` for every objective not revealed, every vote cast face down and every No
    count the table does not see (see :func:`read_text`).

    >>> public_text(table_of(throne.new_game(3, seed=1))).split(" ")[8:12]
    ['4/4/4', '-', '0', '?']
    """
    rules = table.rules
    letters = rules.letters()
    castle = "/".join(
        "".join(ch for ch, f in zip(letters, table.floors, strict=True) if f == floor) or "-"
        for floor in range(1, rules.floors + 1)
    )
    gone = "".join(ch for ch, f in zip(letters, table.floors, strict=True) if f == ELIMINATED)
    counts = "/".join(UNKNOWN if c is None else str(c) for c in table.no_cards)
    votes = "".join(UNKNOWN if v else "." for v in table.voted) if table.phase == "election" else ""
    deals = [
        [UNKNOWN if card is None else "".join(sorted(card)) for card in deal]
        for deal in table.revealed
    ]
    deals += [[UNKNOWN] * table.players for _ in range(rules.rounds - len(deals))]
    if all(card == UNKNOWN for deal in deals for card in deal):
        objectives = UNKNOWN
    else:
        objectives = "/".join(",".join(deal) for deal in deals)
    results = "/".join(",".join(map(str, r)) for r in table.round_scores) or "-"
    kings = "".join("." if k is None else k for k in table.kings) or "-"
    return " ".join(
        (
            throne_notation.GAME,
            throne_notation.rules_text(rules),
            str(table.players),
            str(table.round),
            table.phase,
            "-" if table.turn is None else str(table.turn),
            castle,
            gone or "-",
            counts,
            votes or "-",
            str(table.passes),
            objectives,
            results,
            kings,
        )
    )


# --------------------------------------------------------------------------- reading


def read_text(text: str) -> tuple[throne.State, Hidden]:
    """A Throne position text that may write ``?`` for objectives (as
    :func:`castlerules.throne.notation.read_partial` reads them), for votes cast face
    down and for No counts: the position, with stand-ins for them, and what it does
    not give.  Raises :class:`~castlerules.core.NotationError` as ``from_text`` does.

    >>> state, hidden = read_text(
    ...     "throne SEED 4 1 election 1 -/FHI/BCD/EL/GJ/AK/M - ?/?/?/? ?... 0 ? - -")
    >>> sorted(hidden.votes), sorted(hidden.no_cards), len(hidden.objectives)
    ([0], [0, 1, 2, 3], 12)
    """
    parts = text.split(" ")
    if len(parts) != 14 or UNKNOWN not in parts[NO_CARDS_FIELD] + parts[VOTES_FIELD]:
        partial = throne_notation.read_partial(text)
        return partial.state, Hidden(objectives=partial.unknown)
    counts = parts[NO_CARDS_FIELD].split("/")
    votes = list(parts[VOTES_FIELD])
    no_cards = frozenset(s for s, c in enumerate(counts) if c == UNKNOWN)
    voted = frozenset(s for s, v in enumerate(votes) if v == UNKNOWN)
    if UNKNOWN in parts[NO_CARDS_FIELD] and parts[NO_CARDS_FIELD] != UNKNOWN:
        # Stand-ins: the counts that the eliminations of the round allow (B11, B13).
        rules = throne_notation.parse_rules(parts[1], 0, text)
        players = len(counts)
        full = rules.no_cards_for(players) if players in throne.PLAYERS else 0
        gone = 0 if parts[7] == "-" else len(parts[7])
        used = min(gone, full)
        for seat in no_cards:
            pending_no = seat < len(votes) and votes[seat] == "n"
            counts[seat] = str(max(full - used, 1 if pending_no else 0))
    votes = ["y" if v == UNKNOWN else v for v in votes]  # a Yes is always possible (B11)
    parts[NO_CARDS_FIELD] = "/".join(counts)
    parts[VOTES_FIELD] = "".join(votes)
    partial = throne_notation.read_partial(" ".join(parts))
    return partial.state, Hidden(partial.unknown, voted, no_cards)


def full_text(state: throne.State, hidden: Hidden = NOTHING_HIDDEN) -> str:
    """Everything of the position (the referee's), with ``?`` for what it was not given."""
    text = throne_notation.write_partial(state, hidden.objectives)
    if not (hidden.votes or hidden.no_cards):
        return text
    parts = text.split(" ")
    counts = parts[NO_CARDS_FIELD].split("/")
    for seat in hidden.no_cards:
        counts[seat] = UNKNOWN
    parts[NO_CARDS_FIELD] = "/".join(counts)
    if parts[VOTES_FIELD] != "-":
        parts[VOTES_FIELD] = "".join(
            UNKNOWN if seat in hidden.votes else v for seat, v in enumerate(parts[VOTES_FIELD])
        )
    return " ".join(parts)


# --------------------------------------------------------------------------- alternatives


def _rotated(
    rules: throne.Rules, deal: tuple[int, ...], seats: Sequence[int], by: int
) -> tuple[int, ...]:
    """The round's objectives with those of ``seats`` changed: rotated among them, or
    (one seat) replaced by a card no other seat of the round holds (B4)."""
    out = list(deal)
    if len(seats) >= 2:
        for k, seat in enumerate(seats):
            out[seat] = deal[seats[(k + by) % len(seats)]]
        return tuple(out)
    for seat in seats:
        free = [c for c in throne_notation.objective_cards(rules) if c not in deal]
        if free:
            out[seat] = free[(by - 1) % len(free)]
    return tuple(out)


def _counts(
    state: throne.State, seats: Iterable[int], votes: Sequence[int], *, low: bool
) -> tuple[int, ...] | None:
    """No counts for ``seats`` (the others kept): as low or as high as the round's
    eliminations allow (B11, B13), a pending No keeping its card; None if none fit."""
    rules = state.rules
    full = rules.no_cards_for(state.players)
    gone = sum(1 for f in state.floors if f == ELIMINATED)
    checked = rules.no_cards_reset_each_round or state.round == 1
    cap_used = min(gone, full) if checked else full
    counts = list(state.no_cards)
    varied = sorted(seats)
    caps = {}
    for seat in varied:
        keep = 1 if seat < len(votes) and votes[seat] == 0 else 0
        caps[seat] = max(0, min(cap_used, full - keep))
        counts[seat] = full - caps[seat] if low else full
    if checked:
        deficit = gone - sum(full - c for c in counts)
        # The seat to act spends last: its count is as high as the others allow.
        for seat in sorted(varied, key=lambda s: s == state.turn):
            if deficit <= 0:
                break
            add = min(deficit, caps[seat] - (full - counts[seat]))
            counts[seat] -= add
            deficit -= add
        if deficit > 0:
            return None
    return tuple(counts)


def alternatives(
    state: throne.State,
    hidden: Hidden = NOTHING_HIDDEN,
    *,
    revealed_votes: bool = False,
    revealed_round: int | None = None,
    only_hidden: bool = False,
) -> list[throne.State]:
    """Positions the table cannot tell from ``state``: every objective of a round not
    yet scored changed (rotated among the seats), every vote cast face down made No
    in one and Yes in the other, every secret No count made low in one and high in
    the other.  ``revealed_votes`` and ``revealed_round`` keep what a move reveals
    (the votes of an election it ends, the objectives of the round it scores); what
    the position was not given (``hidden``) is changed all the same; with
    ``only_hidden``, nothing else is (what the referee does not know).  The No counts
    are chosen as the notation's checks allow (B11, B13); the list may be empty.
    """
    rules = state.rules
    out: list[throne.State] = []
    scored = len(state.results)
    secret_counts = [
        s
        for s in range(state.players)
        if s in hidden.no_cards or not (rules.no_cards_public or only_hidden)
    ]
    for by, low in ((1, True), (2, False)):
        objectives = list(state.objectives)
        for number in range(scored + 1, rules.rounds + 1):
            if number == revealed_round or only_hidden:
                continue
            seats = [s for s in range(state.players) if (number, s) not in hidden.objectives]
            objectives[number - 1] = _rotated(rules, objectives[number - 1], seats, by)
        votes = list(state.votes)
        if state.phase == ELECTION:
            for seat, vote in enumerate(state.votes):
                known = seat not in hidden.votes
                if vote < 0 or (known and (revealed_votes or only_hidden)):
                    continue
                may_say_no = seat in secret_counts or state.no_cards[seat] > 0
                votes[seat] = 0 if low and may_say_no else 1
        counts = _counts(state, secret_counts, votes, low=low)
        if counts is None:
            continue
        other = attrs.evolve(
            state, objectives=tuple(objectives), votes=tuple(votes), no_cards=counts
        )
        if other != state and other not in out:
            out.append(other)
    return out


__all__ = [
    "NOTHING_HIDDEN",
    "UNKNOWN",
    "Hidden",
    "ThroneTable",
    "alternatives",
    "full_text",
    "public_text",
    "read_text",
    "table_of",
]
