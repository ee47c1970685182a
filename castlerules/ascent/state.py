"""Cards and the immutable game state of Ascent, with the state queries.

The board is stored compactly for speed: each column is a tuple of squares
``0..squares`` (square 0 is the Start), each square a tuple of card numbers
(see :func:`~castlerules.ascent.rules.card_id`), top first; the Start holds
its single cards in card-number order.  A stack is either wholly flipped or
not at all, so flipped-ness is one bit per square of a column.

The public view is :class:`Card` values and the query functions
:func:`where`, :func:`stack_at`, :func:`is_flipped` and :func:`removed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from castlerules.ascent.rules import (
    CARDS_PER_SET,
    MAX_SETS,
    Rank,
    Rules,
    Tables,
    card_id,
)
from castlerules.core.builder import builder
from castlerules.core.errors import ArgumentError
from castlerules.core.notation import TURN_COUNTER, TurnCounter
from castlerules.core.protocol import require

if TYPE_CHECKING:
    from castlerules.ascent.moves import Move


def _check_owner(_instance: Any, _attribute: Any, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_SETS:
        raise ArgumentError(f"a card's owner is a seat in 0..{MAX_SETS - 1}, not {value!r}")


def _check_rank(_instance: Any, _attribute: Any, value: Any) -> None:
    if not isinstance(value, Rank):
        raise ArgumentError(f"a card's rank is a Rank ({', '.join(r.name for r in Rank)})")


@attrs.frozen(slots=True)
class Card:
    """One character card: the set it belongs to (its ``owner`` seat) and its rank (A18).

    >>> str(Card(1, Rank.LADY))
    'L1'
    """

    owner: int = attrs.field(validator=_check_owner)
    rank: Rank = attrs.field(validator=_check_rank)

    def __str__(self) -> str:
        return f"{self.rank.letter}{self.owner}"

    @property
    def value(self) -> int:
        """The card's value, 6 (Prince) .. 1 (Fire-eater)."""
        return self.rank.value


CARDS: tuple[Card, ...] = tuple(
    Card(cid // CARDS_PER_SET, Rank(CARDS_PER_SET - cid % CARDS_PER_SET))
    for cid in range(MAX_SETS * CARDS_PER_SET)
)
"""Every card of the material, indexed by card number."""


def cid_of(card: Card) -> int:
    """The card number of ``card`` (``ArgumentError`` if it is not a :class:`Card`)."""
    if not isinstance(card, Card):
        raise ArgumentError(f"expected a Card, not {type(card).__name__}")
    return card_id(card.owner, card.rank.value)


Column = tuple[tuple[int, ...], ...]


@attrs.frozen(slots=True, weakref_slot=False)
class State:
    """A position of Ascent: immutable, compared by value.

    Fields (the compact board; use the query functions to read it):

    ``rules``
        The :class:`~castlerules.ascent.rules.Rules` of the game.
    ``columns``
        Per seat, the squares ``0..squares`` of its column, each a tuple of
        card numbers, top first (square 0: the Start, in card-number order).
    ``flipped``
        Per seat, a bit mask of the squares whose stack is flipped (A8).
    ``removed_cards``
        Per seat, the card numbers removed from that seat's column (A13), in
        card-number order.
    ``actor``
        The seat to act, or ``-1`` once the game is over.
    ``step``
        ``None`` at the start of a turn; mid-turn ``(square, moved, favours)``:
        the square of the stack just moved, how many cards at its top are the
        moved stack (with the cards it took), and the favours taken since that
        Advance (A10-A12).
    ``replays``
        The Advances played again after a favour in this turn (A12; 0 at the
        start of a turn), which option ``replays_per_turn`` bounds.  A counter of
        the turn (a ``castlerules.core.notation.TurnCounter`` in its metadata):
        the position's text writes and reads it with no word of its own.
    ``owners``
        The deal (A2, A18): per card number ``0..35``, the seat dealt that card
        (whose Start it began on, its owner for ``penalty_to="owner"``), or -1
        for a card out of play.  Under ``deal="sets"`` seat p owns set p.

    The remaining fields are derived caches (equal states may differ in
    nothing but these, and they take no part in ``==``).
    """

    rules: Rules
    columns: tuple[Column, ...]
    flipped: tuple[int, ...]
    removed_cards: tuple[tuple[int, ...], ...]
    actor: int
    step: tuple[int, int, int] | None
    replays: int = attrs.field(
        metadata={TURN_COUNTER: TurnCounter("A12", at_most="replays_per_turn")}
    )
    owners: tuple[int, ...]
    occupied: tuple[int, ...] = attrs.field(eq=False, repr=False)
    """Per seat, the bit mask of non-empty path squares (derived)."""
    moves: tuple[Move, ...] = attrs.field(eq=False, repr=False)
    """The legal moves (derived; see ``legal_moves``)."""
    tables: Tables = attrs.field(eq=False, repr=False)
    """The tables of ``rules`` (derived)."""

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.columns)


if TYPE_CHECKING:  # the type checker checks calls against State's own signature
    build_state = State
else:
    # Generated from attrs.fields(State) (castlerules.core.builder): the same
    # frozen State, built with plain slot stores; it cannot drift from State.
    build_state = builder(State, positional=4)
"""``build_state(rules, columns, flipped, removed_cards, *, actor=..., ...)`` is ``State(...)``,
faster (the engine's constructor): the fields past the fourth by name."""


def check_seat(state: State, seat: object, what: str = "seat") -> int:
    """``seat`` if it is an int in ``0..n-1``, else :class:`ArgumentError` naming the range."""
    n = len(state.columns)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ArgumentError(f"{what} must be an int in 0..{n - 1}, not {seat!r}")
    return seat


def _in_play(state: State, card: Card) -> int:
    require(state, State, "state")
    cid = cid_of(card)
    n = len(state.columns)
    if state.rules.deal == "sets":
        if card.owner >= n:
            raise ArgumentError(
                f"card {card} is not in play: with {n} players the sets are 0..{n - 1} (A18)"
            )
    elif state.owners[cid] < 0:
        raise ArgumentError(
            f"card {card} is not in play: it was left over when the cards were dealt (A18)"
        )
    return cid


def owner_of(state: State, card: Card) -> int:
    """The seat dealt ``card`` (A2, A18): set p's seat p under ``deal="sets"``.

    >>> from castlerules import ascent
    >>> owner_of(ascent.new_game(2, first_player=0), Card(1, Rank.LADY))
    1
    """
    require(state, State, "state")
    return state.owners[_in_play(state, card)]


def locate(state: State, cid: int) -> tuple[int, int, int] | None:
    """``(column, square, index from the top)`` of a card number, or None if removed."""
    for column, squares in enumerate(state.columns):
        for square, stack in enumerate(squares):
            if cid in stack:
                return column, square, stack.index(cid)
    return None


def where(state: State, card: Card) -> tuple[int, int] | None:
    """``(column, square)`` of a card; square 0 is the Start; None once removed (A13).

    >>> from castlerules import ascent
    >>> s = ascent.new_game(2, first_player=0)
    >>> where(s, Card(1, Rank.PRINCE))
    (1, 0)
    """
    found = locate(state, _in_play(state, card))
    return None if found is None else (found[0], found[1])


def stack_at(state: State, column: int, square: int) -> tuple[Card, ...]:
    """The cards on a square of a column, top first; at square 0 the cards on the Start."""
    require(state, State, "state")
    check_seat(state, column, "column")
    top = state.rules.squares
    if not isinstance(square, int) or isinstance(square, bool) or not 0 <= square <= top:
        raise ArgumentError(f"square must be an int in 0..{top}, not {square!r}")
    return tuple(CARDS[cid] for cid in state.columns[column][square])


def is_flipped(state: State, card: Card) -> bool:
    """Whether a card lies flipped on the board (A8); False on a Start or once removed."""
    found = locate(state, _in_play(state, card))
    if found is None:
        return False
    column, square, _ = found
    return bool(state.flipped[column] >> square & 1)


def removed(state: State, seat: int) -> tuple[Card, ...]:
    """The cards removed from ``seat``'s column (A13), counted against that seat (A16)."""
    require(state, State, "state")
    check_seat(state, seat)
    return tuple(CARDS[cid] for cid in state.removed_cards[seat])
