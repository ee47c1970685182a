"""The rules of Ascent written once, over the operations of :mod:`castlerules.core.ops`.

Every guard of a move (tagged with the clause it enforces, in the order the
engine asks them), every effect (the Advance with its jumps, the ceiling, the
protection inside a stack, the flip on arrival, the favours, the removal of an
exposed remainder), the end of a turn and of the game (A14, every
``end_test``), the turn order and the scores (A15-A17) are stated here once, as
functions of values.  The same functions run on plain Python values
(:data:`~castlerules.core.ops.CONCRETE`: the reference the fast engine
:mod:`castlerules.ascent.transitions` is checked against, move for move, on every
position of small games: ``python -m proofs.equivalence``, run by
``tests/ascent/test_kernel.py``), on Z3 terms (:mod:`castlerules.symbolic`), and
on arrays of many games (:mod:`castlerules.batch`, numpy or compiled by JAX).

**The cards as lanes.**  What a move does to one card, and what a guard asks of
one, are card-local functions (:func:`with_card`, :func:`advanced_card`,
:func:`favour_target`, ...); the board's loops over the cards and over pairs of
cards (:class:`Board`) map them through :mod:`castlerules.core.lanes` and reduce
over the cards there.  Plain values and Z3 terms lay the cards out as tuples (a
term per card, per pair of cards); a batch as one more array axis, so that a
rule over every card (or every pair) of every game is a few array operations.

**Positions.**  A :class:`KState` keeps, for every card in play (the slots of
:attr:`Shape.cards`), fixed-size fields: ``col`` (the column holding it, or
whose removed pile holds it, A13), ``sq`` (0 the Start, ``1..squares`` the
path, :data:`REMOVED`), ``dep`` (its place in its stack, 0 the top; 0 on a
Start and once removed) and ``flp`` (it lies flipped, A8) and ``own`` (the seat
dealt it, A2, A18: its Start's column, and its owner under ``penalty_to="owner"``;
under ``deal="shuffled"`` a card left over is out of play: ``own`` and ``col`` -1,
``sq`` :data:`REMOVED`); then the turn:
``actor`` (-1 once over), ``mid`` (a favour or replay step is open, rule 16)
and the engine's step ``sd``, ``sm``, ``sk`` (the square of the stack just
moved, how many cards of it are the moved stack, the favours taken), all 0
outside a step, so that a position has one encoding.

**Moves.**  A move is a number of :attr:`Shape.moves`: the adapters' action
numbers (Advance of card ``c`` is ``c``, Favour ``6n + c``, EndTurn ``12n``;
every card of the sets in play, so that the cards the proof-only option
``cards`` leaves out are judged too; under ``deal="shuffled"`` every card of
the six sets, ``n = 6``).  The chance inputs of :func:`initial` are the die
(A18: the seat it shows) and, under ``deal="shuffled"``, the deal (the seat
dealt each card).

>>> from castlerules import ascent
>>> rules = ascent.Rules()
>>> shape = Shape.of(rules, 2)
>>> s = from_state(ascent.new_game(2, rules, first_player=0))
>>> verdict = judge(shape, s, shape.moves.index(ascent.Advance(ascent.Card(1, ascent.Rank.LADY))))
>>> verdict.legal, verdict.clause, verdict.what
(False, 'A2', "a card of the player's column")
>>> lady = shape.moves.index(ascent.Advance(ascent.Card(0, ascent.Rank.LADY)))
>>> after = judge(shape, s, lady)
>>> after.legal, after.post.sq[shape.slot_of[2]], after.post.actor
(True, 1, 1)
>>> after.outcome.scores
(-21, -21)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from castlerules.ascent import rules as declared_rules
from castlerules.ascent.moves import ADVANCES, END, FAVOURS, Advance, Favour, Move
from castlerules.ascent.rules import (
    CARDS_PER_SET,
    MAX_SETS,
    OPTIONS,
    Rules,
    Tables,
    value_of,
)
from castlerules.ascent.state import State
from castlerules.core import ops as core_ops
from castlerules.core.errors import ArgumentError
from castlerules.core.lanes import Lanes, lanes_of
from castlerules.core.ops import CONCRETE, Ops, Value, tied_highest

Guard = core_ops.Guard
"""One condition a move must meet (:class:`castlerules.core.ops.Guard`): ``(clause, what
it asks, broken)``, and the name of its refusal."""

guard = core_ops.guard
"""How the guards below are written (:func:`castlerules.core.ops.guard`): a Guard, shared
where its value is a plain Boolean."""

K_ADVANCE, K_FAVOUR, K_END = range(3)
"""The kinds of move (:attr:`Shape.kind`)."""

REMOVED = -1
"""``sq`` of a removed card (A13)."""

END_TESTS = declared_rules.END_TESTS
"""The values of option ``end_test`` (A14), numbered as :attr:`Options.end_test`."""

UNLIMITED = declared_rules.UNLIMITED
""":attr:`Options.favours_per_move` for ``favours_per_move=None``."""


# ---------------------------------------------------------------------------
# The shape: sizes and static tables of one Rules and player count


@attrs.frozen(slots=True)
class Shape:
    """The sizes and the static tables of one game: Python numbers, never values.

    The kernel loops over ``players``, the card slots and the squares, and reads
    these tables at value indexes (:meth:`~castlerules.core.ops.Ops.lookup`).
    """

    rules: Rules
    players: int
    squares: int
    """The path's length (A5)."""
    upper_half: int
    """The first square of the upper half (A13)."""
    cards: tuple[int, ...]
    """The engine's numbers of the cards in play, one slot each (option ``cards``)."""
    slot_of: dict[int, int] = attrs.field(eq=False, repr=False)
    """The slot of each card number in play."""
    value: tuple[int, ...]
    """Per slot: the card's value (A18)."""
    owner: tuple[int, ...]
    """Per slot: the seat dealt the card under ``deal="sets"``, its set (A2); under
    ``deal="shuffled"`` the deal is a chance input (:attr:`KState.own`) and this
    table is unused (-1)."""
    arrival: tuple[int, ...]
    """Per slot: the card's arrival square, its ceiling (A1, A6)."""
    ceiling: tuple[int, ...]
    """Per value 0..6: the arrival square of a rank of that value (0 for 0)."""
    start_row: tuple[int, ...]
    """Per slot: the row of the card's Start, which it leaves upwards (0, but under
    ``path="staggered"``: A1, A5)."""
    moves: tuple[Move, ...]
    """Every move the notation can name: the adapters' action numbers."""
    kind: tuple[int, ...]
    """Per move number: ``K_ADVANCE``, ``K_FAVOUR`` or ``K_END``."""
    slot: tuple[int, ...]
    """Per move number: the slot of its card (0 for EndTurn or a card not in play)."""
    present: tuple[int, ...]
    """Per move number: 1 if its card is in play (0 for EndTurn)."""

    @classmethod
    def of(cls, rules: Rules, players: int) -> Shape:
        """The shape of ``players`` playing under ``rules``."""
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules must be an ascent Rules, not {type(rules).__name__}")
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
            raise ArgumentError(f"players must be an int in 2..6, not {players!r}")
        t = Tables.of(rules)
        shuffled = rules.deal == "shuffled"
        # A18: under deal="shuffled" any card of the six sets may be dealt.
        every = (MAX_SETS if shuffled else players) * CARDS_PER_SET
        cards = tuple(c for c in range(every) if t.in_play[c])
        slot_of = {c: k for k, c in enumerate(cards)}
        moves: tuple[Move, ...] = (*ADVANCES[:every], *FAVOURS[:every], END)
        card_of = [cid_of_move(m) for m in moves]
        return cls(
            rules=rules,
            players=players,
            squares=rules.squares,
            upper_half=rules.upper_half,
            cards=cards,
            slot_of=slot_of,
            value=tuple(value_of(c) for c in cards),
            owner=tuple(-1 if shuffled else c // CARDS_PER_SET for c in cards),
            arrival=tuple(t.arrival[c] for c in cards),
            ceiling=(0, *rules.arrival),
            start_row=tuple(t.start_row[c] for c in cards),
            moves=moves,
            kind=tuple(
                K_ADVANCE
                if isinstance(m, Advance)
                else K_FAVOUR
                if isinstance(m, Favour)
                else K_END
                for m in moves
            ),
            slot=tuple(slot_of.get(c, 0) for c in card_of),
            present=tuple(int(c in slot_of) for c in card_of),
        )

    @property
    def slots(self) -> range:
        """The card slots."""
        return range(len(self.value))


@functools.lru_cache(maxsize=64)
def _shape_of(rules: Rules, players: int) -> Shape:
    return Shape.of(rules, players)


def cid_of_move(move: Move) -> int:
    """The engine's card number of an Advance or a Favour (-1 for EndTurn)."""
    if isinstance(move, Advance | Favour):
        return move.card.owner * CARDS_PER_SET + CARDS_PER_SET - move.card.rank.value
    return -1


@attrs.frozen(slots=True)
class Options:
    """The options the kernel reads as values (so that an interpretation may leave them
    free), each the field of its option's name, read from the option's value by its
    declaration (:attr:`castlerules.core.options.Option.kernel`).  The other options
    are sizes and tables of the :class:`Shape` (``squares``, ``arrival``,
    ``upper_half``, ``cards``), a chance outcome of :func:`initial` (``deal``), or
    have one playable value (``path``)."""

    allow_exposing_split: Value
    """A7: a split may leave a card exposed above its ceiling."""
    favours_per_move: Value
    """A10: the most favours per Advance (:data:`UNLIMITED` for None)."""
    stack_rank: Value
    """A3: true for ``"highest"``, a stack acts with its highest rank."""
    favour_takes: Value
    """A10: true for ``"all_lower"``, every taken card ranks lower."""
    favour_after_arrival: Value
    """A10: a stack just flipped may still take."""
    removal_in_lower_half: Value
    """A13: an exposed remainder leaves in the lower half too."""
    penalty_to: Value
    """A13: true for ``"owner"``, a removed card counts against its set's owner."""
    end_test: Value
    """A14: its index in :data:`END_TESTS`."""
    last_player_continues: Value
    """A14: the last player in the race plays on."""
    die: Value
    """A18: true for ``"none"``, seat 0 begins and the die is unused."""
    protection: Value
    """A7: the moving part is bound by its leader's ceiling only."""
    flip_uncovered: Value = False
    """A8: a remainder left on the arrival square of the rank it acts with turns over
    (False when not given: the reading the symbolic model knows)."""
    replays_per_turn: Value = UNLIMITED
    """A12: the most Advances played again after a favour in one turn (:data:`UNLIMITED`
    for None, also when not given: the reading the symbolic model knows)."""

    @classmethod
    def of(cls, ops: Ops, rules: Rules) -> Options:
        """The options of ``rules`` as constants of ``ops``, each read by its declaration."""
        return cls(
            **{
                option.name: ops.lit(option.kernel(getattr(rules, option.name)))
                for option in OPTIONS
                if option.kernel is not None
            }
        )


# ---------------------------------------------------------------------------
# Positions


@attrs.frozen(slots=True)
class KState:
    """A position as values (see the module's text): per card slot ``col``, ``sq``,
    ``dep``, ``flp``; then the turn."""

    col: tuple[Value, ...]
    sq: tuple[Value, ...]
    dep: tuple[Value, ...]
    flp: tuple[Value, ...]
    own: tuple[Value, ...]
    actor: Value
    mid: Value
    sd: Value
    sm: Value
    sk: Value
    replays: Value = 0
    """The Advances played again after a favour in this turn (A12; 0 outside a step and
    when not given: a model that reads no ``replays_per_turn``)."""


@attrs.frozen(slots=True)
class Outcome:
    """What a legal move leads to: the next position, whether the game is over, the
    scores there (A15-A16)."""

    post: KState
    over: Value
    scores: tuple[Value, ...]


@attrs.frozen(slots=True)
class Case:
    """One effect of the transition: when ``when`` holds (of a legal move), ``make``."""

    label: str
    when: Value
    make: Callable[[], Outcome]


# ---------------------------------------------------------------------------
# One card at a time: what a move does to a card, and what a guard asks of one
#
# Every effect below moves a card by its own fields and a few values of the move
# (the moved card's fields, the destination, whether the part flips, the favours'
# step, whether the remainder leaves); every whole-board condition a guard reads is
# an ``any`` or ``all`` of a card-local predicate.  The whole-board functions
# (:func:`_advanced`, :func:`_favoured`, :class:`Board`) map these over the slots; a
# proof about one card and a few named cards (the moved card, the card under it,
# the top of the target square) reads the same functions.


@attrs.frozen(slots=True)
class Slot:
    """One card's fields: a slot of a :class:`KState` (see the module's text)."""

    col: Value
    sq: Value
    dep: Value
    flp: Value
    own: Value


def slot(s: KState, j: int) -> Slot:
    """The fields of card slot ``j`` of ``s``."""
    return Slot(s.col[j], s.sq[j], s.dep[j], s.flp[j], s.own[j])


@attrs.frozen(slots=True)
class Advanced:
    """What an Advance's successor reads besides a card's own fields (rules 8-12)."""

    actor: Value
    """The mover's column."""
    x: Slot
    """The card moved: it and the cards above it are the part (A3)."""
    d: Value
    """The destination (A3, A6, A9)."""
    flip: Value
    """The part lands flipped: ``d`` is its rank's arrival square (A8)."""
    rest_flips: Value = False
    """The remainder under the part turns over: it is left on the arrival square of the
    rank it acts with (A8, ``flip_uncovered``)."""


@attrs.frozen(slots=True)
class Favoured:
    """What a Favour's successor reads besides a card's own fields (rules 13-15)."""

    actor: Value
    """The taker's column."""
    x: Slot
    """The card taken: it and the cards above it go (A10)."""
    sd: Value
    """The row of the step (the square of the stack just moved)."""
    sm: Value
    """How many cards the stack just moved holds (the taken cards go under them)."""
    flipped: Value
    """The stack just moved lies flipped: the taken cards lie as it does (rule 14)."""
    gone: Value
    """The remainder left under the taken cards leaves the board (A13,
    :func:`remainder_leaves`)."""
    to_owner: Value
    """``penalty_to == "owner"``: a removed card goes to its owner's pile (A13)."""
    rest_flips: Value = False
    """The remainder that stays turns over: it is left on the arrival square of the rank
    it acts with (A8, ``flip_uncovered``)."""


def with_card(ops: Ops, x: Slot, u: Slot, is_x: Value) -> Value:
    """``u`` is in ``x``'s stack: ``x`` itself (``is_x``), or a card of its column on its
    square of the path (a card on a Start or removed is alone; A3).  ``is_x`` may be a
    Python bool (two slots of one board): then it is no term."""
    o = ops
    if is_x is True:
        return o.lit(True)
    shared = o.all([x.sq >= 1, u.col == x.col, u.sq == x.sq])
    return shared if is_x is False else o.any([is_x, shared])


def split_at(ops: Ops, together: Value, x: Slot, u: Slot) -> tuple[Value, Value]:
    """Where card ``u`` of ``x``'s stack (``together``, :func:`with_card`) goes when ``x``
    moves: whether it moves with ``x`` (``x`` and every card above it), whether it stays
    (under ``x``; A3)."""
    o = ops
    return o.all([together, u.dep <= x.dep]), o.all([together, u.dep > x.dep])


def in_part(ops: Ops, together: Value, x: Slot, u: Slot) -> Value:
    """``u`` moves with ``x`` (:func:`split_at`)."""
    return split_at(ops, together, x, u)[0]


def in_rest(ops: Ops, together: Value, x: Slot, u: Slot) -> Value:
    """``u`` stays when ``x`` moves (:func:`split_at`)."""
    return split_at(ops, together, x, u)[1]


def card_points(
    ops: Ops, seat: Value, col: Value, sq: Value, arrival: Value, value: Value
) -> Value:
    """What a card of value ``value`` and arrival square ``arrival`` on square ``sq`` of
    column (or pile) ``col`` counts for ``seat``: its value on or above its arrival square
    (A15), minus it below, the Start included, and in a pile (A13, A16); 0 for another
    seat's card."""
    o = ops
    return o.ite(col == seat, o.ite(sq >= arrival, value, -value), 0)


def advanced_card(ops: Ops, a: Advanced, u: Slot, is_x: Value) -> Slot:
    """Card ``u`` after the Advance ``a`` (``is_x``: ``u`` is the moved card): the part
    (``x`` and every card above it, A3) lands on ``a.d``, on top of the flipped cards
    there (A9), flipped if ``a.flip`` (A8); the remainder under it stays, the part's
    size higher in its stack, turned over if ``a.rest_flips`` (A8); the cards it lands on
    go the part's size deeper."""
    o = ops
    together = with_card(o, a.x, u, is_x)
    part, rest = split_at(o, together, a.x, u)
    target = o.all([u.col == a.actor, u.sq == a.d])
    size = part_size(o, a.x)
    return Slot(
        col=u.col,
        sq=o.ite(part, a.d, u.sq),
        dep=o.ite(
            part,
            u.dep,
            o.ite(rest, u.dep - size, o.ite(target, u.dep + size, u.dep)),
        ),
        flp=o.ite(o.any([o.all([part, a.flip]), o.all([rest, a.rest_flips])]), True, u.flp),
        own=u.own,
    )


def favoured_card(ops: Ops, f: Favoured, u: Slot, is_x: Value) -> Slot:
    """Card ``u`` after the Favour ``f`` (``is_x``: ``u`` is the taken card): ``x`` and
    every card above it go under the stack just moved, lying as it does (A10, rule
    14); the remainder under them stays, the taken size higher, or (``f.gone``) leaves
    the board for its column's pile or (``penalty_to="owner"``) its owner's (A13), or
    turns over (``f.rest_flips``, A8)."""
    o = ops
    together = with_card(o, f.x, u, is_x)
    taken, rest = split_at(o, together, f.x, u)
    leaves = o.all([rest, f.gone])
    below = o.all([u.col == f.actor, u.sq == f.sd, u.dep >= f.sm])
    size = part_size(o, f.x)
    return Slot(
        col=o.ite(
            taken,
            f.actor,
            o.ite(leaves, o.ite(f.to_owner, u.own, u.col), u.col),
        ),
        sq=o.ite(leaves, REMOVED, u.sq),
        dep=o.ite(
            taken,
            f.sm + u.dep,
            o.ite(
                leaves,
                0,
                o.ite(rest, u.dep - size, o.ite(below, u.dep + size, u.dep)),
            ),
        ),
        flp=o.ite(taken, f.flipped, o.ite(o.all([rest, f.rest_flips]), True, u.flp)),
        own=u.own,
    )


def step_open(ops: Ops, mid: Value, sk: Value) -> Value:
    """An Advance opened a step (``mid``) and no favour was taken in it yet (``sk``): a
    favour or the end of the turn comes first, not another Advance (A12)."""
    return ops.all([mid, sk == 0])


def own_card(ops: Ops, actor: Value, col: Value, sq: Value) -> Value:
    """A card of ``actor``'s column on its Start or the path (not removed): one the player
    may move (A2)."""
    return ops.all([col == actor, sq >= 0])


def on_the_row(ops: Ops, taker: Value, d: Value, col: Value, sq: Value) -> Value:
    """A card of another column than ``taker``'s on row ``d``, the square just reached:
    one a favour may take (A10)."""
    return ops.all([col != taker, sq == d])


def free_for(ops: Ops, occupied: Value, flipped: Value, d: Value, ceiling: Value) -> Value:
    """Square ``d`` of a column is free for a part whose rank's arrival square is
    ``ceiling``: it holds no card (``occupied``: some card stands there), or it is that
    arrival square and holds flipped cards (``flipped``), which the part lands on (A3,
    A9)."""
    o = ops
    return o.any([o.not_(occupied), o.all([flipped, d == ceiling])])


def within_reach(ops: Ops, sq: Value, d: Value, ceiling: Value) -> Value:
    """Square ``d`` lies above ``sq`` and not above ``ceiling``, the arrival square of the
    moving part's rank (A4: up; A6: the ceiling)."""
    return ops.all([d > sq, d <= ceiling])


def exposes(ops: Ops, sq: Value, has_rest: Value, exposing: Value, rest_ceiling: Value) -> Value:
    """Moving part of a stack on square ``sq`` leaves a remainder (``has_rest``) whose rank's
    arrival square ``rest_ceiling`` lies below ``sq``: forbidden unless
    ``allow_exposing_split`` (``exposing``; A7, rule 11)."""
    o = ops
    return o.all([sq >= 1, has_rest, o.not_(exposing), sq > rest_ceiling])


def beyond_own(ops: Ops, moving: Value, arrival: Value, d: Value) -> Value:
    """A moving card (``moving``) whose own arrival square ``arrival`` lies below the
    destination ``d``: what the strict reading (``protection=False``) forbids (A6, A7)."""
    return ops.all([moving, arrival < d])


def removal_on(ops: Ops, removal_in_lower_half: Value, upper_half: Value, d: Value) -> Value:
    """An exposed remainder on square ``d`` of the path leaves the board: in the upper
    half, or anywhere with ``removal_in_lower_half`` (A13, rule 15)."""
    return ops.any([removal_in_lower_half, d >= upper_half])


def remainder_leaves(
    ops: Ops,
    has_rest: Value,
    removal_in_lower_half: Value,
    upper_half: Value,
    d: Value,
    rest_ceiling: Value,
) -> Value:
    """A favour on row ``d`` leaves a remainder (``has_rest``) above its rank's arrival
    square ``rest_ceiling``, where it leaves the board (A13, rule 15)."""
    o = ops
    return o.all([has_rest, removal_on(o, removal_in_lower_half, upper_half, d), d > rest_ceiling])


def favour_target(ops: Ops, taker: Value, d: Value, r: Value, u: Slot, u_rank: Value) -> Value:
    """Card ``u`` tops an unflipped stack of another column than ``taker``'s on row ``d``
    whose rank ``u_rank`` is lower than ``r``: a favour may take it (rule 13, A10;
    never a flipped stack, A8)."""
    o = ops
    return o.all(
        [
            on_the_row(o, taker, d, u.col, u.sq),
            u.dep == 0,
            o.not_(never_moves(o, u.flp)),
            ranks_lower(o, u_rank, r),
        ]
    )


def game_over(ops: Ops, actor: Value) -> Value:
    """No seat is to act: the game is over, and no move is played any more (A14)."""
    return actor < 0


def never_moves(ops: Ops, flp: Value) -> Value:
    """A card lying flipped (``flp``) has arrived for good: it never moves again, and no
    favour takes it (A8, rule 13)."""
    return flp


def after_advance(ops: Ops, mid: Value) -> Value:
    """A step of the turn is open (``mid``): the player has advanced this turn, so a favour
    (A11) or the end of the turn (A3, A12) may follow."""
    return mid


def part_size(ops: Ops, x: Slot) -> Value:
    """How many cards move when ``x`` moves or is taken: ``x`` and every card above it
    (A3, A10)."""
    return x.dep + 1


def acts_with(ops: Ops, highest: Value, top_value: Value, best_value: Value) -> Value:
    """The rank value a stack (a part, a remainder) acts with: its top card's
    (``top_value``), or with ``stack_rank="highest"`` (``highest``) the highest in it
    (``best_value``; A3)."""
    return ops.ite(highest, best_value, top_value)


def lands_flipped(ops: Ops, d: Value, ceiling: Value) -> Value:
    """A part that lands on ``d``, the arrival square ``ceiling`` of the rank it acts
    with, lies flipped there (A8, rule 12)."""
    return d == ceiling


def left_flipped(
    ops: Ops, flip_uncovered: Value, has_rest: Value, sq: Value, rest_ceiling: Value
) -> Value:
    """With ``flip_uncovered``, a remainder (``has_rest``) left uncovered on square ``sq``
    of the path, the arrival square ``rest_ceiling`` of the rank it acts with, turns over
    there, as a part landing there does (A8)."""
    return ops.all([flip_uncovered, has_rest, sq == rest_ceiling])


def ranks_lower(ops: Ops, low: Value, high: Value) -> Value:
    """Rank value ``low`` is lower than ``high``: what a favour asks of the stack it takes
    (A10, rule 13)."""
    return low < high


def takes_too_high(ops: Ops, all_lower: Value, taken: Value, value: Value, taker: Value) -> Value:
    """With ``favour_takes="all_lower"`` (``all_lower``), a card that a favour would take
    (``taken``) whose value does not rank lower than the taker's rank: the favour is
    refused (A10)."""
    return ops.all([all_lower, taken, ops.not_(ranks_lower(ops, value, taker))])


def favours_left(ops: Ops, taken: Value, limit: Value) -> Value:
    """Fewer than ``favours_per_move`` favours (``limit``, :data:`UNLIMITED` for None) were
    taken in this step (``taken``; A10)."""
    return taken < limit


def may_take_after(ops: Ops, favour_after_arrival: Value, flipped: Value) -> Value:
    """A stack that lies flipped (``flipped``: it has just arrived) may take a favour only
    with ``favour_after_arrival`` (A10)."""
    return ops.any([favour_after_arrival, ops.not_(flipped)])


def favour_offered(
    ops: Ops, favour_after_arrival: Value, flipped: Value, targets: Sequence[Value]
) -> Value:
    """After an Advance, or a favour with more to come, the stack just moved is offered a
    favour: it may take (:func:`may_take_after`) and some stack is a target
    (``targets``, :func:`favour_target` of each card; rule 16, A10)."""
    return ops.all([may_take_after(ops, favour_after_arrival, flipped), ops.any(targets)])


def play_goes_on(ops: Ops, favour_open: Value, replay: Value) -> Value:
    """After a favour the turn goes on while another favour is open (``favour_open``) or
    the player has an Advance to replay (``replay``; A12, rule 16)."""
    return ops.any([favour_open, replay])


@attrs.frozen(slots=True)
class Step:
    """The open step of a turn (rule 16): whether one is open, the square of the stack
    just moved, how many cards it holds, the favours taken (:class:`KState`'s ``mid``,
    ``sd``, ``sm``, ``sk``)."""

    mid: Value
    sd: Value
    sm: Value
    sk: Value
    replays: Value = 0
    """The Advances played again after a favour in this turn (A12)."""


def no_step(ops: Ops) -> Step:
    """No step open: the start of a turn (all 0, so that a position has one encoding)."""
    return Step(ops.lit(False), ops.lit(0), ops.lit(0), ops.lit(0), ops.lit(0))


def step_after_advance(ops: Ops, d: Value, size: Value, replays: Value = 0) -> Step:
    """The step an Advance opens: its part of ``size`` cards on square ``d``, no favour
    taken yet, the turn's ``replays`` so far (rule 16, A12)."""
    return Step(ops.lit(True), d, size, ops.lit(0), replays)


def step_after_favour(ops: Ops, step: Step, size: Value) -> Step:
    """The step after a favour that took ``size`` cards: they joined the stack just moved,
    one favour more; the step stays open (rule 14, A10)."""
    return Step(ops.lit(True), step.sd, step.sm + size, step.sk + 1, step.replays)


def counts_replays(ops: Ops, limit: Value) -> Value:
    """``replays_per_turn`` (``limit``) bounds the replays: a position counts those of its
    turn; unbounded (:data:`UNLIMITED`), it keeps 0, so that a position has one encoding
    (A12)."""
    return limit < UNLIMITED


def replays_left(ops: Ops, replays: Value, limit: Value) -> Value:
    """Fewer than ``replays_per_turn`` Advances (``limit``, :data:`UNLIMITED` for None)
    were played again in this turn (``replays``): the player may play again after a
    favour (A12)."""
    return replays < limit


def dealt_card(ops: Ops, own: Value) -> Slot:
    """A card of a new game: alone on its owner's Start, or out of play when the deal
    left it over (``own`` -1; spec rule 7, A18)."""
    return Slot(
        col=own,
        sq=ops.ite(own >= 0, 0, REMOVED),
        dep=ops.lit(0),
        flp=ops.lit(False),
        own=own,
    )


def racing(ops: Ops, u: Slot) -> Value:
    """Card ``u`` is still racing: on its Start or the path, not flipped (A14)."""
    return ops.all([u.sq >= 0, ops.not_(u.flp)])


def short_of_arrival(ops: Ops, u: Slot, arrival: Value) -> Value:
    """Card ``u`` is racing below its own arrival square ``arrival`` (A14,
    ``end_test="unreached"``)."""
    return ops.all([racing(ops, u), u.sq < arrival])


def in_race(
    ops: Ops, end_test: Value, unreached: Value, unflipped: Value, can_move: Value
) -> Value:
    """A seat is still in the race, by option ``end_test`` (A14, spec rule 18): a card of
    its column short of its arrival square (``unreached``), any unflipped card on its
    column (``unflipped``), or a legal Advance (``can_move``)."""
    o = ops
    return o.ite(end_test == 0, unreached, o.ite(end_test == 1, unflipped, can_move))


def game_ends(
    ops: Ops, continues: Value, race: Sequence[Value], advances: Sequence[Value]
) -> Value:
    """At the end of a turn the game is over when at most one seat is in the race
    (``race``), unless ``last_player_continues`` (``continues``), or when no seat has a
    legal Advance (``advances``; A14, spec rules 17-18)."""
    o = ops
    return o.any([o.all([o.not_(continues), o.count(race) <= 1]), o.not_(o.any(advances))])


def next_seat(ops: Ops, players: int, mover: Value, advances: Sequence[Value]) -> Value:
    """The seat that plays after ``mover``'s turn: the next one after it, cyclically, with
    a legal Advance (``advances``, per seat); a seat with none is skipped, the mover comes
    last (spec rule 17, A14; meaningful when some seat has one)."""
    o = ops
    after = [
        o.ite(mover + j >= players, mover + j - players, mover + j) for j in range(1, players + 1)
    ]
    found = o.first([o.select(advances, seat) for seat in after])
    return o.select(after, o.ite(found >= 0, found, 0))


def initial(
    ops: Ops, shape: Shape, options: Options, roll: Value, deal: Sequence[Value] | None = None
) -> KState:
    """A new game: every card in play alone on its owner's Start (spec rule 7); the
    die's chance outcome ``roll`` (a seat) begins, or seat 0 with ``die="none"`` (A18).

    ``deal``, under ``deal="shuffled"`` only: per slot the seat dealt the card, -1
    for a card left over (the chance outcome of the deal, A18)."""
    k = shape.slots
    if (deal is None) != (shape.rules.deal == "sets"):
        raise ArgumentError("initial: a deal is given under deal='shuffled', and only then")
    own = tuple(ops.lit(shape.owner[j]) for j in k) if deal is None else tuple(deal)
    cards = [dealt_card(ops, own[j]) for j in k]
    first = no_step(ops)
    return KState(
        col=tuple(u.col for u in cards),
        sq=tuple(u.sq for u in cards),
        dep=tuple(u.dep for u in cards),
        flp=tuple(u.flp for u in cards),
        own=own,
        actor=ops.ite(options.die, 0, roll),
        mid=first.mid,
        sd=first.sd,
        sm=first.sm,
        sk=first.sk,
        replays=first.replays,
    )


def some_in(
    lanes: Lanes, cards: int, where: Any, places: Sequence[int], when: Any
) -> tuple[Value, ...]:
    """Per number ``p`` of ``places``: some one of the ``cards`` cards has ``where == p``
    and ``when`` holds for it (``where``, ``when``: lane values of the cards): one
    :meth:`~castlerules.core.lanes.Lanes.marks` for every place (a word of bits on
    arrays), where an ``any`` per place would pass over the cards once each."""
    every = lanes.table((1,) * cards)
    return tuple(row[0] for row in lanes.marks(where, every, places, (1,), when))


class Board:
    """The terms of one board that the guards, the effects and the end of a turn read:
    the stacks, and for every card what an Advance of it would do (rules 8-11).

    Every per-card quantity is a lane value of the cards
    (:mod:`castlerules.core.lanes`: a tuple per card for plain values and Z3 terms, an
    array axis for a batch), every per-pair one a grid of them; the per-seat and
    per-square quantities are tuples."""

    def __init__(self, ops: Ops, shape: Shape, options: Options, s: KState) -> None:
        self.o, self.shape, self.opt, self.s = ops, shape, options, s
        o, opt, L = ops, options, lanes_of(ops)
        self.lanes = L
        n, top = shape.players, shape.squares
        card = self.card = self._cards()
        """Every card's fields, a lane value each."""
        col, sq, dep, flp = card.col, card.sq, card.dep, card.flp
        value, arrival = L.table(shape.value), L.table(shape.arrival)
        # Per column and path square 1..top (index 0: the Start, never used): some card
        # stands there, some flipped card does (the places held, Lanes.marks).
        squares = range(1, top + 1)
        seen, seen_flipped = (L.marks(col, sq, range(n), squares, when) for when in (None, flp))
        self.occ = tuple((o.lit(False), *seen[q]) for q in range(n))
        self.flipped = tuple((o.lit(False), *seen_flipped[q]) for q in range(n))
        # stk[k][j]: cards k and j are in one stack (a card on a Start or removed is alone).
        self.stk = L.grid(lambda x, u, same: with_card(o, x, u, same), rows=[card], cols=[card])
        stk = self.stk
        # part[k][j]: j moves with k (k and every card above it, A3); rest: j stays.
        self.part, self.rest = L.grid(
            lambda x, u, together, _same: split_at(o, together, x, u),
            rows=[card],
            cols=[card],
            cells=[stk],
        )
        part, rest = self.part, self.rest
        # The rank a part, a stack, a remainder acts with (option stack_rank, A3).
        top_value = L.total(
            L.grid(
                lambda u_dep, u_value, together, _same: o.ite(
                    o.all([together, u_dep == 0]), u_value, 0
                ),
                cols=[dep, value],
                cells=[stk],
            )
        )
        self.stack_rank = L.map(
            lambda top_v, best: acts_with(o, opt.stack_rank, top_v, best),
            top_value,
            L.highest(stk, value),
        )
        self.part_rank = L.map(
            lambda top_v, best: acts_with(o, opt.stack_rank, top_v, best),
            top_value,
            L.highest(part, value),
        )
        self.has_rest = L.any(rest)
        self.rest_rank = L.map(
            lambda top_v, best: acts_with(o, opt.stack_rank, top_v, best),
            L.total(
                L.grid(
                    lambda x_dep, u_dep, u_value, together, _same: o.ite(
                        o.all([together, u_dep == x_dep + 1]), u_value, 0
                    ),
                    rows=[dep],
                    cols=[dep, value],
                    cells=[stk],
                )
            ),
            L.highest(rest, value),
        )
        # The destination (rules 9-10, A3, A6, A9): the lowest square above the card's
        # that is free for the part's rank, up to that rank's arrival square.
        self.ceil = L.map(lambda r: o.lookup(shape.ceiling, r), self.part_rank)
        # Per square of the path, per card: the card's own column holds that square, holds
        # flipped cards there (the places held, read at each card's column).
        held, held_flipped = (
            L.marks_at(col, sq, range(n), squares, col, when) for when in (None, flp)
        )

        def destination(x_sq: Value, c: Value, *places: Value) -> tuple[Value, Value]:
            cands = [
                o.all(
                    [
                        within_reach(o, x_sq, d, c),
                        free_for(o, places[i], places[top + i], d, c),
                    ]
                )
                for i, d in enumerate(squares)
            ]
            return o.any(cands), o.first(cands) + 1

        # A5 (path="staggered"): a card leaves its Start upwards from its rank's start row.
        rows = (
            sq
            if shape.rules.path == "shared_start"
            else L.map(lambda x_sq, row: o.ite(x_sq == 0, row, x_sq), sq, L.table(shape.start_row))
        )
        self.reach, self.dest = L.map(destination, rows, self.ceil, *held, *held_flipped)
        # A7 (rule 11): the remainder's new top must not stand above its ceiling.
        self.exposed = L.map(
            lambda x_sq, rested, r: exposes(
                o, x_sq, rested, opt.allow_exposing_split, o.lookup(shape.ceiling, r)
            ),
            sq,
            self.has_rest,
            self.rest_rank,
        )
        # protection=False (the strict, wrong reading): every moving card by its own ceiling.
        self.strict = L.any(
            L.grid(
                lambda d, u_arrival, moving, _same: beyond_own(o, moving, u_arrival, d),
                rows=[self.dest],
                cols=[arrival],
                cells=[part],
            )
        )
        self.on_board = L.map(lambda x_sq: x_sq >= 0, sq)
        self.can_advance = L.map(
            lambda on, f, reach, exposed, strict: o.all(
                [
                    on,
                    o.not_(never_moves(o, f)),
                    reach,
                    o.not_(exposed),
                    o.any([opt.protection, o.not_(strict)]),
                ]
            ),
            self.on_board,
            flp,
            self.reach,
            self.exposed,
            self.strict,
        )
        self.advances = some_in(L, len(shape.slots), col, range(n), self.can_advance)
        """Per seat: some card of its column can advance (spec rule 17, A14)."""

    TERMS = (
        "occ",
        "flipped",
        "stk",
        "part",
        "rest",
        "stack_rank",
        "part_rank",
        "has_rest",
        "rest_rank",
        "ceil",
        "reach",
        "dest",
        "exposed",
        "strict",
        "on_board",
        "can_advance",
        "advances",
    )
    """The names of the terms the board computes of its cards (all but ``card``, which
    are the cards themselves)."""

    def terms(self) -> tuple[Any, ...]:
        """The board's terms (:data:`TERMS`, in order): an interpretation that carries
        a board from one step to the next (the batch) keeps these."""
        return tuple(getattr(self, name) for name in self.TERMS)

    @classmethod
    def restored(
        cls, ops: Ops, shape: Shape, options: Options, s: KState, terms: Sequence[Any]
    ) -> Board:
        """The board of ``s`` from its :meth:`terms`, computed before (the board after a
        move, :class:`Successors`, is the next position's): nothing is computed again."""
        board = cls.__new__(cls)
        board.o, board.shape, board.opt, board.s = ops, shape, options, s
        board.lanes = lanes_of(ops)
        board.card = board._cards()
        for name, value in zip(cls.TERMS, terms, strict=True):
            setattr(board, name, value)
        return board

    def _cards(self) -> Slot:
        L, s = self.lanes, self.s
        return Slot(L.items(s.col), L.items(s.sq), L.items(s.dep), L.items(s.flp), L.items(s.own))

    def taker_rank(self, p: Value, d: Value, m: Value) -> Value:
        """The rank of the top ``m`` cards of column ``p``'s stack on square ``d``: the
        stack just moved, with the cards it took (A10, option ``stack_rank``)."""
        o, L, u = self.o, self.lanes, self.card
        value = L.table(self.shape.value)
        here = L.map(lambda c, x: o.all([c == p, x == d]), u.col, u.sq)
        return acts_with(
            o,
            self.opt.stack_rank,
            L.total(L.map(lambda h, dep, v: o.ite(o.all([h, dep == 0]), v, 0), here, u.dep, value)),
            L.highest(L.map(lambda h, dep: o.all([h, dep < m]), here, u.dep), value),
        )

    def target_cards(self, p: Value, d: Value, r: Value) -> Any:
        """Per card (a lane value): it tops a stack that a favour of seat ``p``'s stack of
        rank ``r`` may take on row ``d`` (:func:`favour_target`)."""
        o = self.o
        return self.lanes.map(
            lambda u, rank: favour_target(o, p, d, r, u, rank), self.card, self.stack_rank
        )

    def targets(self, p: Value, d: Value, r: Value) -> Value:
        """Some stack of another column on row ``d`` is unflipped and ranks lower than
        ``r``: a favour is available (rule 13, A10; never on a flipped stack, A8)."""
        return self.lanes.any(self.target_cards(p, d, r))

    def favours_open(self, p: Value, d: Value, m: Value, k: Value, flipped: Value) -> Value:
        """A favour is still open in the step ``(d, m, k)`` of seat ``p`` (A10, A11;
        options ``favours_per_move``, ``favour_after_arrival``)."""
        o = self.o
        some = self.targets(p, d, self.taker_rank(p, d, m))
        return o.all(
            [
                favours_left(o, k, self.opt.favours_per_move),
                favour_offered(o, self.opt.favour_after_arrival, flipped, [some]),
            ]
        )


class Position:
    """The terms of one position that every move reads (built once per position)."""

    def __init__(
        self,
        ops: Ops,
        shape: Shape,
        options: Options,
        s: KState,
        board: Board | None = None,
        boards: dict[tuple[Any, ...], Board] | None = None,
    ) -> None:
        """``board``: the :class:`Board` of ``s`` when it was built already (by the
        step that led here, :class:`Successors`).  ``boards``: for plain values, the
        boards built so far by their cards (:meth:`board_of`), shared by the positions
        of one search."""
        self.o, self.shape, self.opt, self.s = ops, shape, options, s
        self.boards = boards
        o = ops
        self.board = self.board_of(s) if board is None else board
        self.over = game_over(o, s.actor)
        self.actor = o.ite(self.over, 0, s.actor)
        """The seat to act, 0 once the game is over (an index that is always in range)."""
        b, L = self.board, self.board.lanes
        u = b.card
        # The stack just moved (mid-turn): its rank and whether it was flipped (A10).
        self.taker = b.taker_rank(s.actor, s.sd, s.sm)
        self.taker_flipped = L.any(
            L.map(lambda c, x, f: o.all([c == s.actor, x == s.sd, f]), u.col, u.sq, u.flp)
        )
        # Per square 0..squares: the mover has an unflipped stack there (only the stack
        # just moved takes a favour, A11; False on the Start): some card of the mover's
        # column stands there, and no flipped one.
        mine = L.map(lambda c: o.ite(c == self.actor, 1, 0), u.col)
        squares = range(1, shape.squares + 1)
        held, held_flipped = (L.marks(mine, u.sq, (1,), squares, when)[0] for when in (None, u.flp))
        self.own = (
            o.lit(False),
            *(o.all([h, o.not_(f)]) for h, f in zip(held, held_flipped, strict=True)),
        )
        # Per card: a favour of it would take a card that does not rank lower than the
        # stack just moved (favour_takes="all_lower", A10).
        self.bad_taken = L.any(
            L.grid(
                lambda u_value, taken, _same: takes_too_high(
                    o, options.favour_takes, taken, u_value, self.taker
                ),
                cols=[L.table(shape.value)],
                cells=[b.part],
            )
        )

    def board_of(self, s: KState) -> Board:
        """The :class:`Board` of the cards of ``s``: a board reads only the cards' fields
        (``col``, ``sq``, ``dep``, ``flp``, ``own``; :func:`end_turn` replaces every
        field of the turn), so with :attr:`boards` one board serves every position and
        every step that leaves the same cards."""
        if self.boards is None:
            return Board(self.o, self.shape, self.opt, s)
        key = (s.col, s.sq, s.dep, s.flp, s.own)
        found = self.boards.get(key)
        if found is None:
            found = self.boards[key] = Board(self.o, self.shape, self.opt, s)
        return found


# ---------------------------------------------------------------------------
# The guards


@attrs.frozen(slots=True)
class Parts:
    """The parts of move number ``a`` (read from the shape's tables and the position)."""

    a: Value
    kind: Value
    k: Value
    """The card's slot (0 for EndTurn or a card not in play)."""
    present: Value
    col: Value
    sq: Value
    dep: Value
    flp: Value


def decode(p: Position, a: Value) -> Parts:
    """Move number ``a`` read into its kind and its card's fields."""
    o, shape, s = p.o, p.shape, p.s
    k = o.lookup(shape.slot, a)
    return Parts(
        a=a,
        kind=o.lookup(shape.kind, a),
        k=k,
        present=o.lookup(shape.present, a) == 1,
        col=o.select(s.col, k),
        sq=o.select(s.sq, k),
        dep=o.select(s.dep, k),
        flp=o.select(s.flp, k),
    )


def guards(p: Position, m: Parts) -> tuple[Guard, ...]:
    """The conditions of move ``m``, in the order the engine asks them: the move is
    legal when none is broken; a refused move breaks the first that
    :func:`first_broken` names (the clause of the engine's IllegalMove)."""
    o, s, b, opt = p.o, p.s, p.board, p.opt
    both = o.all
    advance, favour, end = m.kind == K_ADVANCE, m.kind == K_FAVOUR, m.kind == K_END
    mine = both([m.present, own_card(o, s.actor, m.col, m.sq)])
    found = both([m.present, on_the_row(o, s.actor, s.sd, m.col, m.sq)])
    elsewhere_own = both(
        [m.present, m.col != s.actor, m.sq >= 1, o.select(p.own, o.ite(m.sq >= 0, m.sq, 0))]
    )
    bad_taken = o.select(p.bad_taken, m.k)
    return (
        guard("A14", "the game is not over", p.over, "ascent-game-over"),
        # Advance (rules 8-11).
        guard(
            "A12",
            "after an Advance, a favour or the end of the turn first",
            both([advance, step_open(o, s.mid, s.sk)]),
            "ascent-advance-before-favour",
        ),
        guard(
            "A12",
            "at most replays_per_turn replays in a turn",
            both(
                [
                    advance,
                    after_advance(o, s.mid),
                    o.not_(replays_left(o, s.replays, opt.replays_per_turn)),
                ]
            ),
            "ascent-replay-limit",
        ),
        guard(
            "A2",
            "a card of the player's column",
            both([advance, o.not_(mine)]),
            "ascent-other-column",
        ),
        guard(
            "A8",
            "a flipped card never moves",
            both([advance, never_moves(o, m.flp)]),
            "ascent-flipped",
        ),
        guard(
            "A6",
            "a free square up to the leader's arrival square",
            both([advance, o.not_(o.select(b.reach, m.k))]),
            "ascent-ceiling",
        ),
        guard(
            "A7",
            "no card left exposed above its arrival square",
            both([advance, o.select(b.exposed, m.k)]),
            "ascent-exposing-split",
        ),
        guard(
            "A6",
            "every moving card within its own arrival square (protection=False)",
            both([advance, o.not_(opt.protection), o.select(b.strict, m.k)]),
            "ascent-strict-protection",
        ),
        # Favour (rules 13-15).
        guard(
            "A11",
            "a favour follows an Advance",
            both([favour, o.not_(after_advance(o, s.mid))]),
            "ascent-favour-not-pending",
        ),
        guard(
            "A10",
            "at most favours_per_move favours",
            both([favour, o.not_(favours_left(o, s.sk, opt.favours_per_move))]),
            "ascent-favour-limit",
        ),
        guard(
            "A11",
            "only the stack just moved takes a favour",
            both([favour, o.not_(found), elsewhere_own]),
            "ascent-favour-jumped-row",
        ),
        guard(
            "A10",
            "a card of another column on the row just reached",
            both([favour, o.not_(found)]),
            "ascent-favour-other-row",
        ),
        guard(
            "A10",
            "flipped cards are never taken",
            both([favour, never_moves(o, m.flp)]),
            "ascent-favour-flipped",
        ),
        guard(
            "A10",
            "a stack of lower rank",
            both([favour, o.not_(ranks_lower(o, o.select(b.stack_rank, m.k), p.taker))]),
            "ascent-favour-rank",
        ),
        guard(
            "A10",
            "no favour by a stack just flipped (favour_after_arrival=False)",
            both([favour, o.not_(may_take_after(o, opt.favour_after_arrival, p.taker_flipped))]),
            "ascent-favour-after-arrival",
        ),
        guard(
            "A10",
            "every taken card of lower rank (favour_takes=all_lower)",
            both([favour, bad_taken]),
            "ascent-favour-all-lower",
        ),
        # EndTurn (rule 16).
        guard(
            "A3",
            "a turn ends only after an Advance",
            both([end, o.not_(after_advance(o, s.mid))]),
            "ascent-end-before-advance",
        ),
    )


def legal(ops: Ops, checks: Sequence[Guard]) -> Value:
    """No guard is broken."""
    return ops.not_(ops.any([broken for _c, _w, broken in checks]))


def first_broken(ops: Ops, checks: Sequence[Guard]) -> Value:
    """The index of the first broken guard, or -1 when none is."""
    return ops.first([broken for _c, _w, broken in checks])


# ---------------------------------------------------------------------------
# The effects


def scores(ops: Ops, shape: Shape, s: KState) -> tuple[Value, ...]:
    """Each seat's points (rule 19): every card of its column plus its value on or
    above its arrival square (A15), minus it below (A16, the Start included); every
    card of its removed pile minus its value (A13, A16)."""
    o, L = ops, lanes_of(ops)
    col, sq = L.items(s.col), L.items(s.sq)
    arrival, value = L.table(shape.arrival), L.table(shape.value)
    return tuple(
        L.total(
            L.map(lambda c, x, a, v, q=q: card_points(o, q, c, x, a, v), col, sq, arrival, value)
        )
        for q in range(shape.players)
    )


def winners(ops: Ops, shape: Shape, s: KState) -> tuple[Value, ...]:
    """Per seat: it has the most points (A17; ties are shared)."""
    return tied_highest(ops, scores(ops, shape, s))


def end_turn(ops: Ops, shape: Shape, options: Options, b: Board, mover: Value) -> Outcome:
    """The end of ``mover``'s turn on board ``b`` (rules 17-18, A14): over when at most
    one player is still in the race (option ``end_test``; unless
    ``last_player_continues``), or when no player has a legal Advance; else the next
    seat after the mover, cyclically, with a legal Advance (a player with none is
    skipped; the mover last)."""
    o, opt, L, u = ops, options, b.lanes, b.card
    live = L.map(lambda x: racing(o, x), u)
    short = L.map(lambda x, a: short_of_arrival(o, x, a), u, L.table(shape.arrival))
    n, cards = shape.players, len(shape.slots)
    unreached, unflipped = (some_in(L, cards, u.col, range(n), x) for x in (short, live))
    race = [in_race(o, opt.end_test, unreached[q], unflipped[q], b.advances[q]) for q in range(n)]
    over = game_ends(o, opt.last_player_continues, race, b.advances)
    nxt = next_seat(o, shape.players, mover, b.advances)
    post = _with_step(attrs.evolve(b.s, actor=o.ite(over, -1, nxt)), no_step(o))
    return Outcome(post, over, scores(o, shape, post))


def _advanced(p: Position, m: Parts) -> KState:
    """The board after the Advance ``m`` (rules 8-12): :func:`advanced_card` of every
    card, the destination and the flip read from the board (A3, A6, A8, A9)."""
    o, s, b = p.o, p.s, p.board
    d = o.select(b.dest, m.k)
    a = Advanced(
        s.actor,
        _card(p, m),
        d,
        lands_flipped(o, d, o.select(b.ceil, m.k)),
        rest_flips=left_flipped(
            o,
            p.opt.flip_uncovered,
            o.all([m.sq >= 1, o.select(b.has_rest, m.k)]),
            m.sq,
            o.lookup(p.shape.ceiling, o.select(b.rest_rank, m.k)),
        ),
    )
    L = b.lanes
    after = L.map(
        lambda u, j: advanced_card(o, a, u, j == m.k), b.card, L.index(len(p.shape.slots))
    )
    return _with_cards(L, s, after)


def _favoured(p: Position, m: Parts) -> KState:
    """The board after the Favour ``m`` (rules 13-15): :func:`favoured_card` of every
    card; the remainder leaves the board when its rank is exposed on a square where
    A13 removes it (:func:`remainder_leaves`)."""
    o, shape, s, b, opt = p.o, p.shape, p.s, p.board, p.opt
    rest_ceiling = o.lookup(shape.ceiling, o.select(b.rest_rank, m.k))
    has_rest = o.select(b.has_rest, m.k)
    gone = remainder_leaves(
        o, has_rest, opt.removal_in_lower_half, shape.upper_half, s.sd, rest_ceiling
    )
    f = Favoured(
        s.actor,
        _card(p, m),
        s.sd,
        s.sm,
        p.taker_flipped,
        gone,
        opt.penalty_to,
        rest_flips=left_flipped(o, opt.flip_uncovered, has_rest, s.sd, rest_ceiling),
    )
    L = b.lanes
    after = L.map(lambda u, j: favoured_card(o, f, u, j == m.k), b.card, L.index(len(shape.slots)))
    return _with_step(
        _with_cards(L, s, after), step_after_favour(o, _step_of(s), part_size(o, f.x))
    )


def _card(p: Position, m: Parts) -> Slot:
    """The fields of the card move ``m`` names (:class:`Slot`)."""
    return Slot(m.col, m.sq, m.dep, m.flp, p.o.select(p.s.own, m.k))


def _with_cards(lanes: Lanes, s: KState, cards: Slot) -> KState:
    """``s`` with every card's fields replaced by ``cards`` (a :class:`Slot` of lane
    values, :mod:`castlerules.core.lanes`)."""
    size = len(s.col)
    return attrs.evolve(
        s,
        col=lanes.unpack(cards.col, size),
        sq=lanes.unpack(cards.sq, size),
        dep=lanes.unpack(cards.dep, size),
        flp=lanes.unpack(cards.flp, size),
    )


def _step_of(s: KState) -> Step:
    """The open step of ``s``."""
    return Step(s.mid, s.sd, s.sm, s.sk, s.replays)


def _with_step(s: KState, step: Step) -> KState:
    """``s`` with its step replaced by ``step``."""
    return attrs.evolve(s, mid=step.mid, sd=step.sd, sm=step.sm, sk=step.sk, replays=step.replays)


def _goes_on(p: Position, board: KState, step: Step) -> Outcome:
    """Play goes on in the mover's ``step`` on ``board`` (rule 16)."""
    post = _with_step(board, step)
    return Outcome(post, p.o.lit(False), scores(p.o, p.shape, post))


@attrs.frozen(slots=True)
class Successors:
    """The boards a move's cases read, built once for all its kinds (:func:`successors`):
    the Advance's and the Favour's successor positions, and one
    :class:`Board` of the cards after the move, whichever its kind (the moved cards
    after an Advance, the taken ones after a Favour, the position's after EndTurn)."""

    moved: KState
    taken: KState
    after: Board
    turn_over: Outcome
    """The end of the mover's turn on :attr:`after` (:func:`end_turn`): the same for
    every case that ends the turn, built once."""


def successors(p: Position, m: Parts) -> Successors:
    """The successor positions of every kind of move ``m`` may be, and the one board of
    the cards after it (for an interpretation that computes every case: arrays).  Every
    case of the move leaves these cards (only the turn differs), so the board after is
    the next position's board too."""
    o = p.o
    moved, taken = _advanced(p, m), _favoured(p, m)
    cards = o.pick(
        [m.kind == K_ADVANCE, m.kind == K_FAVOUR, o.lit(True)],
        [lambda: moved, lambda: taken, lambda: p.s],
    )
    after = Board(o, p.shape, p.opt, cards)
    return Successors(moved, taken, after, end_turn(o, p.shape, p.opt, after, p.s.actor))


def cases(p: Position, m: Parts, shared: Successors | None = None) -> list[Case]:
    """The effects of a legal move ``m`` as guarded commands: exclusive conditions
    covering every legal move, one per kind of move; each case's outcome picks among
    the labelled sub-cases of :func:`sub_cases` (so that an interpretation that runs
    one branch builds only the successor board of the move's own kind).

    ``shared``: for an interpretation that computes every case (arrays), the
    :func:`successors` of the move, built once (one board after the move, of the cards
    the move's kind leaves), where each kind would build its own."""
    o = p.o
    kinds = (
        ("advance", m.kind == K_ADVANCE),
        ("favour", m.kind == K_FAVOUR),
        ("end of the turn", m.kind == K_END),
    )

    def maker(label: str) -> Callable[[], Outcome]:
        def make() -> Outcome:
            found = sub_cases(p, m, label, shared)
            return o.pick([c.when for c in found], [c.make for c in found])

        return make

    return [Case(label, when, maker(label)) for label, when in kinds]


def sub_cases(p: Position, m: Parts, kind: str, shared: Successors | None = None) -> list[Case]:
    """The effects of a legal move ``m`` of one kind (``"advance"``, ``"favour"`` or
    ``"end of the turn"``): exclusive conditions covering it, each with its outcome
    (``shared``: the boards, built once for every kind, :func:`cases`)."""
    o, shape, opt, s, b = p.o, p.shape, p.opt, p.s, p.board
    if kind == "advance":
        # A favour is offered when the moved part may take one on its row (rule 16):
        # the other columns are as before the move, so the position's board says.
        moved = _advanced(p, m) if shared is None else shared.moved
        d = o.select(b.dest, m.k)
        r = o.select(b.part_rank, m.k)
        offer = favour_offered(
            o,
            opt.favour_after_arrival,
            lands_flipped(o, d, o.select(b.ceil, m.k)),
            [b.targets(s.actor, d, r)],
        )
        size = part_size(o, _card(p, m))
        # A12: an Advance played in an open step is a replay, counted where
        # replays_per_turn bounds them (a position has one encoding)
        replays = o.ite(o.all([s.mid, counts_replays(o, opt.replays_per_turn)]), s.replays + 1, 0)
        return [
            Case(
                "advance, a favour is offered",
                offer,
                lambda: _goes_on(p, moved, step_after_advance(o, d, size, replays)),
            ),
            Case(
                "advance, the turn ends",
                o.not_(offer),
                lambda: (
                    end_turn(o, shape, opt, p.board_of(moved), s.actor)
                    if shared is None
                    else shared.turn_over
                ),
            ),
        ]
    if kind == "favour":
        # Play goes on while a favour or a replay is available (A12).
        taken = _favoured(p, m) if shared is None else shared.taken
        after = p.board_of(taken) if shared is None else shared.after
        goes_on = play_goes_on(
            o,
            after.favours_open(s.actor, s.sd, taken.sm, taken.sk, p.taker_flipped),
            o.all(
                [
                    o.select(after.advances, p.actor),
                    replays_left(o, s.replays, opt.replays_per_turn),
                ]
            ),
        )
        return [
            Case("favour, play goes on", goes_on, lambda: _goes_on(p, taken, _step_of(taken))),
            Case(
                "favour, the turn ends",
                o.not_(goes_on),
                lambda: (
                    end_turn(o, shape, opt, after, s.actor) if shared is None else shared.turn_over
                ),
            ),
        ]
    # EndTurn declines the favour or the replay (A12).
    return [
        Case(
            "end of the turn",
            o.lit(True),
            lambda: end_turn(o, shape, opt, b, s.actor) if shared is None else shared.turn_over,
        )
    ]


def step(p: Position, m: Parts, shared: Successors | None = None) -> Outcome:
    """The outcome of a legal move: the case whose condition holds (``shared``: see
    :func:`cases`)."""
    found = cases(p, m, shared)
    return p.o.pick([c.when for c in found], [c.make for c in found])


# ---------------------------------------------------------------------------
# The reference: the kernel on plain values, and the engine's positions as values


@attrs.frozen(slots=True)
class Verdict:
    """The kernel's judgement of one move in one position (plain values)."""

    legal: bool
    clause: str | None
    """The clause of the first broken guard (None when legal)."""
    what: str | None = None
    """What that guard asks."""
    post: KState | None = None
    outcome: Outcome | None = None
    refusal: str | None = None
    """The name of that guard's refusal (:attr:`castlerules.core.ops.Guard.refusal`: the
    engine's ``IllegalMove.refusal``); None when legal."""


def from_state(state: State) -> KState:
    """An engine position as plain values."""
    shape = _shape_of(state.rules, state.players)
    own = [state.owners[c] for c in shape.cards]
    col = [-1] * len(shape.cards)  # a card left over by the deal: out of play (A18)
    sq = [REMOVED] * len(shape.cards)
    dep = [0] * len(shape.cards)
    flp = [False] * len(shape.cards)
    for q, squares in enumerate(state.columns):
        for s, stack in enumerate(squares):
            for i, c in enumerate(stack):
                k = shape.slot_of[c]
                col[k], sq[k] = q, s
                dep[k] = i if s else 0
                flp[k] = bool(s and state.flipped[q] >> s & 1)
    for q, pile in enumerate(state.removed_cards):
        for c in pile:
            k = shape.slot_of[c]
            col[k], sq[k] = q, REMOVED
    d, m, k_ = state.step if state.step is not None else (0, 0, 0)
    return KState(
        col=tuple(col),
        sq=tuple(sq),
        dep=tuple(dep),
        flp=tuple(flp),
        own=tuple(own),
        actor=state.actor,
        mid=state.step is not None,
        sd=d,
        sm=m,
        sk=k_,
        replays=state.replays,
    )


def judge(shape: Shape, s: KState, a: int, position: Position | None = None) -> Verdict:
    """The kernel's verdict on move number ``a`` in ``s``, on plain values: legality, the
    clause of the first failing guard, and the outcome of a legal move.  ``position``:
    the :class:`Position` of ``s`` when the caller judges many moves of it."""
    o = CONCRETE
    p = position or Position(o, shape, Options.of(o, shape.rules), s)
    m = decode(p, a)
    checks = guards(p, m)
    failed = first_broken(o, checks)
    if failed >= 0:
        guard = checks[failed]
        return Verdict(False, guard[0], guard[1], refusal=getattr(guard, "refusal", None))
    outcome = step(p, m)
    return Verdict(True, None, None, outcome.post, outcome)
