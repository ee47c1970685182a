"""Ascent as a symbolic transition system, built from the engine's ``Rules`` and the
rule kernel's card-local functions.

Every number of the rules comes from a :class:`castlerules.ascent.Rules`
instance (``arrival_of``, ``squares``, ``upper_half``, ``favours_per_move`` and
the Boolean options) or from the engine's card tables (``value_of``,
``CARDS_PER_SET``).  Each option may instead be left *symbolic*: a free Z3 term
constrained to the values that ``Rules`` accepts (:meth:`AscentModel.assumptions`),
so that one query covers every value of it.  The bridge tests check those
domains against ``Rules`` itself, and :meth:`Opts.removal` against
``Rules.removal_applies``.  The model reads every declared option
(:data:`OPTION_NAMES`, free or given; :data:`READ_AS_GIVEN`, given: ``deal`` and
``cards`` at one value only; a declared option it did not read would be refused by
name, :func:`unmodelled`), the seed's later readings among them:
``path`` (A5: a card on its Start leaves it upwards from its rank's start row,
:meth:`Opts.start_row`, :meth:`AscentModel.source`), ``flip_uncovered`` (A8: the
remainder a split or a favour leaves uncovered on the arrival square of the rank it
acts with turns over, the kernel's ``left_flipped``) and ``replays_per_turn`` (A12:
a turn counts its replays, :attr:`Turn.replays`, by the kernel's ``counts_replays``
and ``replays_left``).

**Cards.**  The state is kept per card (:class:`Card`): the engine's card
number ``idx`` with its value and owner, and

- ``col``: the column holding it, or whose removed pile holds it (A13);
- ``sq``: its square, ``0`` the Start, ``1 .. squares`` the path, or
  :data:`REMOVED`;
- ``dep``: its place in its stack, ``0`` the top (0 on a Start, or removed);
- ``below``: the card directly under it, or :data:`NONE`;
- ``top``: the top card of its stack (itself on a Start; :data:`NONE` once
  removed);
- ``flp``: whether it lies flipped (A8).

``col``, ``sq``, ``dep``, ``flp`` and ``owner`` are the rule kernel's fields of a
card (:class:`castlerules.ascent.kernel.Slot`: ``owner`` is its ``own``).
``below``, ``top`` and ``rv`` (the stack's rank under ``stack_rank="highest"``)
are *auxiliaries* of the proof, which the kernel does not keep (it reads a
stack's top and rank off the whole board): they let the invariant speak of a
stack through two cards (``below`` is the next card down, ``top`` the stack's
top) and let a move name the cards its rules look at as selections whose fields
the guard ties to them (the part's leader is ``x.top``, the card under it
``x.below``).  Their successors are stated here, and the invariant checks them
against the kernel's fields (``below`` one place deeper in the same stack,
``top`` at depth 0, ``rv`` the stack's highest value).

**The rules come from the kernel.**  A card's successor is the kernel's
(:func:`~castlerules.ascent.kernel.advanced_card`,
:func:`~castlerules.ascent.kernel.favoured_card`, given the move's selections:
the moved card, the destination, whether it flips, whether the remainder
leaves), and so is every condition the guards put on a card, a selection or
the turn, built through :data:`FOLD`: which cards move with a card
(:func:`~castlerules.ascent.kernel.with_card`, ``in_part``, ``in_rest``,
``part_size``), the rank a stack acts with (``acts_with``), a square free for
a part (``free_for``), within reach (``within_reach``), the remainder's
exposure (``exposes``), the strict reading (``beyond_own``), the flip on
arrival and the flipped card that never moves (``lands_flipped``,
``never_moves``), the removal (``removal_on``, ``remainder_leaves``), a
favour's target and its rank order (``favour_target``, ``ranks_lower``,
``takes_too_high``), the favours left and after arrival (``favours_left``,
``may_take_after``, ``favour_offered``), a card of the mover's column
(``own_card``), a card on the row just reached (``on_the_row``), the step an
Advance opens and a favour extends (``step_open``, ``after_advance``,
``step_after_advance``, ``step_after_favour``, ``no_step``, ``play_goes_on``), the
replays of a turn (``counts_replays``, ``replays_left``), the flip of an uncovered
remainder (``left_flipped``),
the deal (``dealt_card``), the end of the game (``game_over``), and a card's
points (``card_points``).  The full model's turn passing
(:meth:`AscentModel.next_actor`, :meth:`AscentModel.alive`) is the kernel's race
(``racing``, ``short_of_arrival``, ``in_race``, ``game_ends``, ``next_seat``),
given who may advance (:meth:`AscentModel.has_advance`): :func:`seat_advances`, a
form of the kernel's ``Board.advances`` that a solver takes quickly, compared with
it on every position of the exhaustive tie's scopes; the small model leaves the
turn passing free.

What this module adds is the proof's encoding, not a rule: the selections
(cards a move names, tied to the position by equalities on their fields and
the auxiliaries: the part's leader is ``x.top``, the card under it
``x.below``; with ``stack_rank="highest"`` the rank cards ``pr``, ``rb`` are the
highest of the cards they stand for, :meth:`AscentModel.rank_card_of`), the
successors of the auxiliaries, the split of the transition into guarded
commands (:data:`CASES`) and the two sensitivity mutations, each made by
perturbing what the kernel is given (:meth:`AscentModel.takeable`,
:meth:`AscentModel.taker_bound`).

The turn (:class:`Turn`): ``actor`` (-1 once over), ``mid`` (a favour / replay
step is open) with the engine's step ``(sd, sm, sk)`` (square, moved cards,
favours taken) and the turn's ``replays`` (counted where ``replays_per_turn``
bounds them), all 0 outside a step, so that a position has one encoding.

**Moves.**  A move (:class:`Move`) is ``kind`` (:data:`ADVANCE`,
:data:`FAVOUR`, :data:`END`) and the card ``x``, plus *selections*: cards the
rules look at, each a :class:`Card` whose fields the guard ties to the state
(``lead`` the leader of the moving part, ``bx`` the card under ``x``, ``ttop``
the top of the target square, ``tb`` the bottom of the moved stack and ``tt``
its top, ``qt`` the top of the stack a favour takes from), the destination
``d``, and how the turn goes on (``cont``, ``nxt``).

**The guard in three parts**, so that the same rules serve two models:

- :meth:`AscentModel.advance_views`, :meth:`AscentModel.favour_views`,
  :meth:`AscentModel.end_views`: constraints on the move's selections and the
  turn;
- :meth:`AscentModel.advance_card`: what the guard says of *every* card (the
  target square is empty unless ``ttop`` is its top; the strict reading's
  bound on every moving card);
- what it says of *some* card: the destination is the lowest free square
  (:meth:`AscentModel.advance_exists`), a favour is or is not pending
  (:meth:`AscentModel.pending`), each selection is a card of the position
  (:meth:`AscentModel.pick`);

and the successor *card by card*: :meth:`AscentModel.advance_card_post`,
:meth:`AscentModel.favour_card_post` give a card's new fields from its old
ones and the move; :meth:`AscentModel.turn_post` the turn.

**The full model** (:meth:`AscentModel.relation`) applies them to every card of a
game of ``n`` players, with every selection *picked*: ``idx == c`` forces the
fields of card ``c``.  It is the engine's transition, turn passing included
(:meth:`AscentModel.exact_turn`, rules 16-18): the bridge tests check, on
positions of random games, that it admits exactly the engine's successor and
exactly the engine's legal moves; BMC (:func:`unroll`) unrolls it to find
games, which the engine then replays.  For BMC the numbers may be
bit-vectors (``Params.bitvector``), solved by bit-blasting; the same
formulas, since every constant goes through :meth:`Params.k`.

**The small model** (:class:`Small`) proves the invariant by induction.  The
invariant (:meth:`AscentModel.inv_card`, :meth:`AscentModel.inv_pair`,
:meth:`AscentModel.inv_turn`) is a conjunction of formulas *for every card* and *for
every pair of cards*, with no existential; a card's successor depends only on
its own fields and the move's selections; the guard is the selections'
constraints, the every-card part and the some-card part.  So consecution
holds for all positions as soon as it holds, for two arbitrary cards ``c``
and ``b``, under the invariant instantiated on every card and pair among
``c``, ``b`` and the selections, and the every-card guard instantiated on
them (the some-card part only restricts moves: dropping it is sound).  Any
real position gives such an instance (take ``c``, ``b`` and the selected
cards), hence the theorem.  Cards of other columns than the mover's (and the
favour's target column) are instances whose successor is themselves: framing
is part of the same argument, for any number of columns.  Two cards with the
same number have the same fields (``consistent``), and a card's number,
value and owner are free within their ranges, which only widens the claim.
Whose turn follows a turn's end (``nxt``) and whether the turn goes on after
a favour (``cont``) are free there too: more successors than the engine's,
never fewer, and the invariant does not speak of them.

What links the proofs to the engine is the full model: the small model's guard
and successor are the full model's, by construction (the same functions).  For
two players under the reference rules and with ``allow_exposing_split=True`` (the
games of ``proofs/ascent.py``'s bounded model checking) ``proofs/ascent_equal.py``
proves on Z3 that the full model is the kernel on every position its invariant
allows, both ways (see the proofs page,
"The Ascent model proved to be the kernel"); for the other games and options its
agreement with the engine is *tested* (bridge tests), not proved.

**Folding.**  The formula builders (:func:`all_of`, :func:`ite` ...) accept
Python constants and fold them, so that a concrete position (the bridge)
evaluates to Python values and concrete options give small formulas.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import attrs
import z3

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.ascent.moves import ADVANCES, FAVOURS
from castlerules.ascent.moves import END as END_MOVE
from castlerules.ascent.rules import (
    CARDS_PER_SET,
    END_TESTS,
    PLAYERS,
    RANKS,
    Rules,
    card_id,
    value_of,
)
from castlerules.ascent.state import State, locate
from castlerules.core.errors import ArgumentError
from castlerules.core.ops import CONCRETE, Ops, Value, first_of, fold
from castlerules.symbolic import smt
from castlerules.symbolic.smt import Expr, Solver, bool_var, int_var, is_sat, new_solver
from castlerules.symbolic.smt import Model as Z3Model

T = TypeVar("T")

# --------------------------------------------------------------------------- folding
# The formulas below are written once and built over Z3 terms *or* Python
# constants: these wrappers of :mod:`castlerules.symbolic.smt` fold constants as they build,
# so that a concrete position (the bridge) or concrete options give small
# formulas, and a fully concrete one evaluates to a Python value.


def _known(x: Expr) -> bool:
    return isinstance(x, bool | int)


def all_of(items: Iterable[Expr]) -> Expr:
    """Conjunction, folding Python Booleans."""
    rest = []
    for item in items:
        if item is True:
            continue
        if item is False:
            return False
        rest.append(item)
    return smt.all_of(rest) if rest else True


def any_of(items: Iterable[Expr]) -> Expr:
    """Disjunction, folding Python Booleans."""
    rest = []
    for item in items:
        if item is False:
            continue
        if item is True:
            return True
        rest.append(item)
    return smt.any_of(rest) if rest else False


def neg(x: Expr) -> Expr:
    return (not x) if isinstance(x, bool) else smt.neg(x)


def implies(a: Expr, b: Expr) -> Expr:
    if a is False or b is True:
        return True
    if a is True:
        return b
    if b is False:
        return smt.neg(a)
    return smt.implies(a, b)


def ite(c: Expr, a: Expr, b: Expr) -> Expr:
    if isinstance(c, bool):
        return a if c else b
    if _known(a) and _known(b) and type(a) is type(b) and a == b:
        return a
    return smt.ite(c, a, b)


def select(index: Expr, items: Sequence[Expr]) -> Expr:
    """``items[index]`` (the last item for an index out of range, as
    :func:`castlerules.symbolic.smt.select`)."""
    if isinstance(index, int) and not isinstance(index, bool):
        return items[index] if 0 <= index < len(items) else items[-1]
    out = items[-1]
    for i in range(len(items) - 2, -1, -1):
        out = ite(index == i, items[i], out)
    return out


def total(items: Iterable[Expr]) -> Expr:
    known = 0
    rest = []
    for item in items:
        if _known(item):
            known += int(item)
        else:
            rest.append(item)
    if not rest:
        return known
    return smt.total(rest) + known if known else smt.total(rest)


def between(x: Expr, low: Expr, high: Expr) -> Expr:
    return all_of([x >= low, x <= high])


def as_z3(x: Expr) -> Expr:
    """A Z3 term for a formula that may have folded to a Python constant."""
    return smt.lit(x) if _known(x) else x


class Folding:
    """The folding builders above as the kernel's operations (an
    :class:`~castlerules.core.ops.Ops`): the rules this model takes from
    :mod:`castlerules.ascent.kernel` (a card's successor, the card-local conditions of
    the guards) build its formulas through them, over integers or bit-vectors, folding
    Python constants."""

    __slots__ = ("k",)

    def __init__(self, k: Callable[[int], Expr] | None = None) -> None:
        self.k = k
        """The maker of number constants of the bit-vector model (None: Python ints),
        for the terms built of constants alone (a count, a table read, a chain of
        constants), so that every number term has the model's sort."""

    def _num(self, value: Value) -> Value:
        if self.k is not None and isinstance(value, int) and not isinstance(value, bool):
            return self.k(value)
        return value

    def lit(self, value: int | bool) -> Value:
        return value

    def ite(self, cond: Value, then: Value, other: Value) -> Value:
        if self.k is not None and not isinstance(cond, bool):
            return ite(cond, self._num(then), self._num(other))
        return ite(cond, then, other)

    def all(self, items: Iterable[Value]) -> Value:
        return all_of(items)

    def any(self, items: Iterable[Value]) -> Value:
        return any_of(items)

    def not_(self, item: Value) -> Value:
        return neg(item)

    def total(self, items: Iterable[Value]) -> Value:
        return total(items)

    def count(self, conditions: Iterable[Value]) -> Value:
        return total(self.ite(c, 1, 0) for c in conditions)

    def select(self, items: Sequence[Value], index: Value, low: int = 0) -> Value:
        return select(index - low, [self._num(x) for x in items] if self.k else items)

    def lookup(self, table: Sequence[int], index: Value, low: int = 0) -> Value:
        return select(index - low, [self._num(x) for x in table])

    def store(self, items: Sequence[Value], index: Value, value: Value) -> tuple[Value, ...]:
        return tuple(self.ite(index == i, value, x) for i, x in enumerate(items))

    def first(self, conditions: Sequence[Value]) -> Value:
        return first_of(self, conditions)

    def pick(self, conditions: Sequence[Value], makers: Sequence[Callable[[], T]]) -> T:
        return fold(self, conditions, makers)


FOLD = Folding()
"""The model's operations (:class:`Folding`)."""


VALUES: tuple[int, ...] = tuple(sorted(rank.value for rank in RANKS))
"""The rank values, low to high (the engine's ``Rank``: 1..6)."""

LOWEST_ARRIVAL: tuple[int, ...] = tuple(range(1, len(VALUES) + 1))
"""The lowest arrival squares ``Rules`` could accept: one square per rank from 1."""

NONE = -1
"""``below`` of a stack's bottom card and ``top`` of a removed card: no card."""

REMOVED = -1
"""``sq`` of a removed card (A13)."""

ADVANCE, FAVOUR, END = 0, 1, 2
"""Move kinds."""

OPTION_NAMES = (
    "squares",
    "arrival",
    "upper_half",
    "allow_exposing_split",
    "favours_per_move",
    "favour_takes",
    "favour_after_arrival",
    "removal_in_lower_half",
    "penalty_to",
    "last_player_continues",
    "end_test",
    "protection",
    "path",
    "flip_uncovered",
    "replays_per_turn",
)
"""The options that may be left symbolic (``die`` only picks the first player,
and every first player is an initial state here)."""

READ_AS_GIVEN = ("stack_rank", "die", "deal", "cards")
"""The options this model reads though they are never symbolic: ``stack_rank`` (one
model per value), ``die`` (every first player is an initial state), ``deal`` (one set
per seat only), ``cards`` (every card of the sets in play only)."""


def unmodelled(rules: Rules) -> tuple[str, ...]:
    """The options of ``rules`` this model does not read, at a value other than the
    reference reading's (``name=value``): every declared option outside
    :data:`OPTION_NAMES` and :data:`READ_AS_GIVEN`, so that a reading added to the
    declarations is refused here until the model reads it (today none)."""
    default = Rules()
    return tuple(
        f"{o.name}={getattr(rules, o.name)!r}"
        for o in Rules.OPTIONS
        if o.name not in OPTION_NAMES
        and o.name not in READ_AS_GIVEN
        and getattr(rules, o.name) != getattr(default, o.name)
    )


MUTATIONS = ("", "favour_equal_rank", "favour_flipped")
"""Deliberately wrong rules for the sensitivity checks: a favour may also take a
leader of *equal* rank (A10 says lower), or a flipped stack (A8 forbids it)."""


def _accepts(**options: object) -> bool:
    try:
        Rules(**options)
    except ArgumentError:
        return False
    return True


def squares_domain() -> range:
    """The values of ``squares`` that ``Rules`` accepts, asked of ``Rules`` itself
    (with the lowest arrival squares and upper half, so that only ``squares``'
    own check decides)."""
    ok = [v for v in range(64) if _accepts(squares=v, arrival=LOWEST_ARRIVAL, upper_half=1)]
    if not ok or ok != list(range(ok[0], ok[-1] + 1)):
        raise AssertionError(f"the squares Rules accepts are not a range: {ok}")
    return range(ok[0], ok[-1] + 1)


@attrs.frozen(slots=True)
class Opts:
    """The options as Z3 terms: constants from ``rules`` or free variables."""

    squares: Expr
    arrival: tuple[Expr, ...]
    """Arrival square of the ranks of value 1..6 (index ``value - 1``)."""
    upper_half: Expr
    allow_exposing_split: Expr
    unlimited: Expr
    limit: Expr
    favour_after_arrival: Expr
    favour_takes: Expr
    """``favour_takes == "all_lower"`` (A10): every taken card ranks lower."""
    removal_in_lower_half: Expr
    penalty_to: Expr
    """``penalty_to == "owner"`` (A13): a removed card goes to its owner's pile."""
    last_player_continues: Expr
    end_test: Expr
    """The end test (A14): its index in ``END_TESTS`` (``unreached``, ``unflipped``,
    ``can_move``)."""
    protection: Expr
    staggered: Expr
    """``path == "staggered"`` (A1, A5): a card leaves its Start from its rank's start
    row (:meth:`start_row`)."""
    flip_uncovered: Expr
    """A8: a remainder left uncovered on the arrival square of the rank it acts with
    turns over (:func:`~castlerules.ascent.kernel.left_flipped`)."""
    replay_limit: Expr
    """A12: ``replays_per_turn`` as the kernel's number
    (:data:`~castlerules.ascent.kernel.UNLIMITED` for None)."""

    def start_row(self, value: Expr) -> Expr:
        """The row a card of rank value ``value`` leaves its Start from, upwards (A1, A5):
        0, or under ``path="staggered"`` its arrival square less the Fire-eater's (the
        kernel's :attr:`~castlerules.ascent.kernel.Shape.start_row`)."""
        return ite(self.staggered, self.arrival_of(value) - self.arrival[0], 0)

    def arrival_of(self, value: Expr) -> Expr:
        """The arrival square (ceiling) of a rank value (A6, spec rule 4)."""
        return select(value - 1, list(self.arrival))

    def removal(self, square: Expr) -> Expr:
        """Whether an exposed remainder on ``square`` leaves the board
        (``Rules.removal_applies``; A13, rule 15)."""
        return all_of(
            [
                between(square, 1, self.squares),
                kernel.removal_on(FOLD, self.removal_in_lower_half, self.upper_half, square),
            ]
        )


@attrs.frozen(slots=True)
class Params:
    """One model: ``rules`` and ``players``, the options left symbolic, a mutation."""

    rules: Rules
    players: int
    symbolic: tuple[str, ...] = ()
    mutation: str = ""
    bitvector: bool = False
    """Numbers as bit-vectors (for BMC, solved by bit-blasting to SAT) instead of
    integers (for induction, and the bridge)."""

    def __attrs_post_init__(self) -> None:
        if self.bitvector and self.symbolic:
            raise ValueError("the bit-vector model has concrete options only")
        if self.players not in PLAYERS:
            raise ValueError(f"players must be in {PLAYERS}")
        if self.rules.deal != "sets":
            raise ValueError(
                "the Ascent proofs' model deals one set per seat (a card's owner is its "
                "set): deal='shuffled' (A18) is outside its parameters"
            )
        if unmodelled(self.rules):
            raise ValueError(
                "the Ascent proofs' model does not read "
                f"{', '.join(unmodelled(self.rules))}: it is outside its parameters "
                "(the proofs page says what checks the readings it does not read)"
            )
        unknown = set(self.symbolic) - set(OPTION_NAMES)
        if unknown or self.mutation not in MUTATIONS:
            raise ValueError(f"unknown symbolic options {unknown} or mutation {self.mutation!r}")

    @property
    def highest(self) -> bool:
        """``stack_rank == "highest"`` (A3): a stack acts with its highest rank, which every
        card then carries as its field ``rv``; with ``"top"`` a stack acts with its top
        card and ``rv`` is the card's own value (no field)."""
        return self.rules.stack_rank == "highest"

    @property
    def cards(self) -> int:
        """The cards in play: one set per player (spec rule 1)."""
        return CARDS_PER_SET * self.players

    @property
    def max_squares(self) -> int:
        """The most path squares a position of this model may have."""
        if "squares" in self.symbolic:
            return squares_domain()[-1]
        return self.rules.squares

    @property
    def bits(self) -> int:
        """Bit width of the bit-vector model: room for every sum the model builds
        (depths and the moved count are below twice the cards), signed."""
        return (4 * self.cards + self.max_squares + 8).bit_length() + 1

    def var(self, name: str) -> Expr:
        """A fresh number of the model's sort."""
        return z3.BitVec(name, self.bits) if self.bitvector else int_var(name)

    def k(self, value: int) -> Expr:
        """A number constant: a Python int (folded as formulas are built), or a
        bit-vector constant in the bit-vector model."""
        return z3.BitVecVal(value, self.bits) if self.bitvector else value

    def make_opts(self) -> Opts:
        r, sym = self.rules, self.symbolic
        k = self.k

        def num(name: str, value: int) -> Expr:
            return int_var(f"opt_{name}") if name in sym else k(value)

        def flag(name: str, value: bool) -> Expr:
            return bool_var(f"opt_{name}") if name in sym else value

        if "arrival" in sym:
            arrival = tuple(int_var(f"opt_arrival_{v}") for v in VALUES)
        else:
            arrival = tuple(k(r.arrival_of(v)) for v in VALUES)
        if "favours_per_move" in sym:
            unlimited, limit = bool_var("opt_favours_unlimited"), int_var("opt_favours_limit")
        elif r.favours_per_move is None:
            unlimited, limit = True, k(1)
        else:
            unlimited, limit = False, k(r.favours_per_move)
        # A12: the kernel's number, a Python int when given (so that the kernel's
        # counts_replays folds: a model of replays_per_turn=None keeps no count)
        replay_limit = (
            int_var("opt_replays_per_turn")
            if "replays_per_turn" in sym
            else kernel.Options.of(CONCRETE, r).replays_per_turn
        )
        return Opts(
            squares=num("squares", r.squares),
            arrival=arrival,
            upper_half=num("upper_half", r.upper_half),
            allow_exposing_split=flag("allow_exposing_split", r.allow_exposing_split),
            unlimited=unlimited,
            limit=limit,
            favour_after_arrival=flag("favour_after_arrival", r.favour_after_arrival),
            removal_in_lower_half=flag("removal_in_lower_half", r.removal_in_lower_half),
            favour_takes=flag("favour_takes", r.favour_takes == "all_lower"),
            penalty_to=flag("penalty_to", r.penalty_to == "owner"),
            last_player_continues=flag("last_player_continues", r.last_player_continues),
            end_test=int_var("opt_end_test") if "end_test" in sym else END_TESTS.index(r.end_test),
            protection=flag("protection", r.protection),
            staggered=flag("path", r.path == "staggered"),
            flip_uncovered=flag("flip_uncovered", r.flip_uncovered),
            replay_limit=replay_limit,
        )


@attrs.frozen(slots=True)
class Card:
    """One card's fields (see the module documentation)."""

    idx: Expr
    val: Expr
    owner: Expr
    col: Expr
    sq: Expr
    dep: Expr
    below: Expr
    top: Expr
    flp: Expr
    rv: Expr
    """The rank value its stack acts with (option ``stack_rank="highest"``, A3): the
    highest value in its stack (its own value on a Start or removed).  With
    ``stack_rank="top"`` it is the card's own value, never read."""

    def at(self, col: Expr, sq: Expr) -> Expr:
        return all_of([self.col == col, self.sq == sq])

    def slot(self) -> kernel.Slot:
        """The kernel's fields of this card (:class:`~castlerules.ascent.kernel.Slot`):
        ``col``, ``sq``, ``dep``, ``flp``, and ``owner`` as ``own``."""
        return kernel.Slot(self.col, self.sq, self.dep, self.flp, self.owner)

    def same_stack(self, other: Card) -> Expr:
        return all_of([self.col == other.col, self.sq == other.sq])

    def on_path(self) -> Expr:
        return self.sq >= 1


NumVar = Callable[[str], Expr]
"""A maker of fresh number variables (integers, or bit-vectors)."""


def fresh_card(
    tag: str,
    var: NumVar = int_var,
    idx: Expr | None = None,
    val: Expr | None = None,
    owner: Expr | None = None,
    ranked: bool = False,
) -> Card:
    """A card of fresh variables (number, value and owner too unless given; its stack's
    rank ``rv`` too if ``ranked``, else its value)."""
    value = var(f"{tag}_val") if val is None else val
    return Card(
        idx=var(f"{tag}_idx") if idx is None else idx,
        val=value,
        owner=var(f"{tag}_owner") if owner is None else owner,
        col=var(f"{tag}_col"),
        sq=var(f"{tag}_sq"),
        dep=var(f"{tag}_dep"),
        below=var(f"{tag}_below"),
        top=var(f"{tag}_top"),
        flp=bool_var(f"{tag}_flp"),
        rv=var(f"{tag}_rv") if ranked else value,
    )


@attrs.frozen(slots=True)
class Turn:
    """Whose turn it is, and the open favour / replay step (rule 16)."""

    actor: Expr
    mid: Expr
    sd: Expr
    sm: Expr
    sk: Expr
    replays: Expr
    """The Advances played again after a favour in this turn (A12): counted where
    ``replays_per_turn`` bounds them (:func:`~castlerules.ascent.kernel.counts_replays`),
    else 0, so that a position has one encoding."""

    def step(self) -> kernel.Step:
        """The open step (the kernel's :class:`~castlerules.ascent.kernel.Step`)."""
        return kernel.Step(self.mid, self.sd, self.sm, self.sk, self.replays)

    def within(self, step: kernel.Step) -> Turn:
        """The same player, in ``step``."""
        return Turn(self.actor, step.mid, step.sd, step.sm, step.sk, step.replays)

    def over(self, nxt: Expr) -> Turn:
        """The turn after a turn ends: ``nxt`` plays (or -1: the game is over), no step
        open (:func:`~castlerules.ascent.kernel.no_step`)."""
        step = kernel.no_step(FOLD)
        return Turn(nxt, step.mid, step.sd, step.sm, step.sk, step.replays)


def fresh_turn(tag: str, var: NumVar = int_var, counted: bool = True) -> Turn:
    """A turn of fresh variables; its replay count a variable if ``counted`` (the options
    may bound the replays), else 0 (A12)."""
    return Turn(
        actor=var(f"{tag}_actor"),
        mid=bool_var(f"{tag}_mid"),
        sd=var(f"{tag}_sd"),
        sm=var(f"{tag}_sm"),
        sk=var(f"{tag}_sk"),
        replays=var(f"{tag}_replays") if counted else 0,
    )


@attrs.frozen(slots=True)
class AState:
    """A position of the full model: every card in play, and the turn."""

    cards: tuple[Card, ...]
    turn: Turn


@attrs.frozen(slots=True)
class Move:
    """A symbolic move: ``kind``, the card ``x``, and the selections the guard ties."""

    kind: Expr
    x: Card
    lead: Card
    bx: Card
    ttop: Card
    tb: Card
    tt: Card
    qt: Card
    d: Expr
    cont: Expr
    nxt: Expr
    pr: Card | None = None
    """``stack_rank="highest"`` only: the moving part's rank card, its highest card
    (the topmost of equals, the engine's ``rank_card``; A3, A6)."""
    rb: Card | None = None
    """``stack_rank="highest"`` only: the rank card of the remainder an Advance or a
    favour leaves (A7, A13), or :data:`NONE`."""

    def views(self) -> tuple[Card, ...]:
        out = (self.x, self.lead, self.bx, self.ttop, self.tb, self.tt, self.qt)
        return out if self.pr is None or self.rb is None else (*out, self.pr, self.rb)


def fresh_move(tag: str, var: NumVar = int_var, ranked: bool = False) -> Move:
    def card(name: str) -> Card:
        return fresh_card(f"{tag}_{name}", var, ranked=ranked)

    return Move(
        kind=var(f"{tag}_kind"),
        x=card("x"),
        lead=card("lead"),
        bx=card("bx"),
        ttop=card("ttop"),
        tb=card("tb"),
        tt=card("tt"),
        qt=card("qt"),
        d=var(f"{tag}_d"),
        cont=bool_var(f"{tag}_cont"),
        nxt=var(f"{tag}_nxt"),
        pr=card("pr") if ranked else None,
        rb=card("rb") if ranked else None,
    )


@attrs.frozen(slots=True)
class Case:
    """One guarded command of the transition: its kind and the branch it takes (a
    favour pending after the Advance; the remainder removed; the turn going on
    after the favour).  :meth:`AscentModel.guard`, :meth:`AscentModel.card_post`
    and :meth:`AscentModel.turn_post` give its guard and successor."""

    label: str
    kind: int
    removed: bool = False
    pending: bool = False
    cont: bool = False


CASES: tuple[Case, ...] = (
    Case("Advance, favour pending", ADVANCE, pending=True),
    Case("Advance, turn ends", ADVANCE, pending=False),
    Case("Favour, remainder stays, turn goes on", FAVOUR, removed=False, cont=True),
    Case("Favour, remainder stays, turn ends", FAVOUR, removed=False, cont=False),
    Case("Favour, remainder removed, turn goes on", FAVOUR, removed=True, cont=True),
    Case("Favour, remainder removed, turn ends", FAVOUR, removed=True, cont=False),
    Case("EndTurn", END),
)
"""The transition as guarded commands: mutually exclusive, covering every legal move."""


def seat_advances(
    ops: Ops,
    shape: kernel.Shape,
    options: kernel.Options,
    s: kernel.KState,
    board: Callable[[], kernel.Board],
) -> tuple[Value, ...]:
    """Per seat: it has a legal Advance, the kernel's
    :attr:`~castlerules.ascent.kernel.Board.advances` (``board``), in a form a solver
    takes in a fraction of the time under ``stack_rank="top"``: some card of the seat's
    column that tops its stack, not flipped, has a square free for its own rank within
    its own arrival square.

    Why this is the kernel's on every reachable position: under ``"top"`` a stack acts
    with its top card, so moving the whole stack (its bottom card) has the top card's
    ceiling and leaves no remainder to expose; under the strict reading
    (``protection=False``) no card ever stands above its own arrival square (the proved
    property ``ascent.strict_ceiling``), so the whole stack may go wherever its top
    card may.  It is not taken on trust: the exhaustive tie
    (``python -m proofs.equivalence``) compares it with the kernel's ``Board.advances``
    on every position of every Ascent scope.  Under ``"highest"`` a part may move
    where its whole stack may not, and this is the kernel's ``Board.advances`` itself."""
    if options.stack_rank is True:
        return board().advances
    return tuple(ops.any(movers) for movers in seat_movers(ops, shape, options, s))


def seat_movers(
    ops: Ops, shape: kernel.Shape, options: kernel.Options, s: kernel.KState
) -> tuple[tuple[Value, ...], ...]:
    """Per seat, per card slot: the card is one :func:`seat_advances` reads under
    ``stack_rank="top"`` as a legal Advance of the seat (of its column, the top of its
    stack, not flipped, a square free for its own rank within its own arrival square);
    the seat has one when some card of it is."""
    if options.stack_rank is not False:
        raise ValueError("seat_advances: stack_rank must be a constant")
    o, slots, top = ops, shape.slots, shape.squares
    cards = [kernel.slot(s, j) for j in slots]
    out: list[tuple[Value, ...]] = []
    for q in range(shape.players):
        mine = [kernel.own_card(o, q, u.col, u.sq) for u in cards]
        occ = [o.any([o.all([mine[j], cards[j].sq == d]) for j in slots]) for d in range(top + 1)]
        flipped = [
            o.any([o.all([mine[j], cards[j].sq == d, cards[j].flp]) for j in slots])
            for d in range(top + 1)
        ]
        movers = []
        for j, u in enumerate(cards):
            ceiling = shape.arrival[j]
            # A5 (path="staggered"): a card on its Start leaves it from its start row
            source = (
                u.sq
                if shape.rules.path == "shared_start"
                else o.ite(u.sq == 0, shape.start_row[j], u.sq)
            )
            reach = o.any(
                [
                    o.all(
                        [
                            kernel.within_reach(o, source, d, ceiling),
                            kernel.free_for(o, occ[d], flipped[d], d, ceiling),
                        ]
                    )
                    for d in range(1, top + 1)
                ]
            )
            movers.append(
                o.all(
                    [
                        mine[j],
                        u.dep == 0,
                        o.not_(kernel.never_moves(o, u.flp)),
                        reach,
                    ]
                )
            )
        out.append(tuple(movers))
    return tuple(out)


class AscentModel:
    """The rules of one :class:`Params` as formulas over cards, turns and moves."""

    def __init__(self, params: Params) -> None:
        self.p = params
        self.n = params.players
        self.N = params.cards
        self.smax = params.max_squares
        self.o = params.make_opts()
        self.var = params.var
        self.k = params.k
        self.high = params.highest
        self.fold = Folding(params.k if params.bitvector else None)
        """The kernel's operations over this model's numbers (:class:`Folding`)."""
        self._advances: dict[int, tuple[AState, tuple[Expr, ...]]] = {}

    # ------------------------------------------------------------------ options
    def assumptions(self) -> list[Expr]:
        """The values ``Rules`` accepts for the symbolic options (checked against
        ``Rules`` by the bridge tests)."""
        o, sym = self.o, self.p.symbolic
        out: list[Expr] = []
        if "squares" in sym:
            dom = squares_domain()
            out.append(between(o.squares, dom[0], dom[-1]))
        if "arrival" in sym or "squares" in sym:
            out.append(o.arrival[0] >= 1)
            out.extend(a < b for a, b in zip(o.arrival, o.arrival[1:], strict=False))
            out.append(o.arrival[-1] <= o.squares)
        if "upper_half" in sym or "squares" in sym:
            out.append(between(o.upper_half, 1, o.squares))
        if "favours_per_move" in sym:
            out.append(any_of([o.unlimited, o.limit >= 1]))
        if "end_test" in sym:
            out.append(between(o.end_test, 0, len(END_TESTS) - 1))
        if "replays_per_turn" in sym:
            out.append(between(o.replay_limit, 1, kernel.UNLIMITED))
        return out

    @functools.cached_property
    def counts_replays(self) -> Expr:
        """A position counts the replays of its turn: ``replays_per_turn`` bounds them
        (:func:`~castlerules.ascent.kernel.counts_replays`; False, a Python constant, for
        ``replays_per_turn=None``; A12)."""
        return kernel.counts_replays(FOLD, self.o.replay_limit)

    def source(self, u: Card) -> Expr:
        """The row card ``u`` leaves upwards (A5): its square, or on its Start its rank's
        start row (:meth:`Opts.start_row`; the kernel's ``Board`` reads it so)."""
        row = self.o.start_row(u.val)
        if _known(row) and int(row) == 0:
            return u.sq
        return ite(u.sq == 0, row, u.sq)

    def arr(self, u: Card) -> Expr:
        """The arrival square (ceiling) of a card (A6)."""
        return self.o.arrival_of(u.val)

    # The rank a stack acts with (option stack_rank, A3): its top card's, or
    # (stack_rank="highest") the highest in it, which every card of the stack
    # carries (``rv``); a moving part's and a remainder's are the selections'
    # ``pr`` and ``rb`` (with "top": the leader and the card under the part).
    def rank(self, top: Card) -> Expr:
        """The rank value of the stack whose top card is ``top`` (A3, ``stack_rank``;
        :func:`~castlerules.ascent.kernel.acts_with`)."""
        return kernel.acts_with(FOLD, self.high, top.val, top.rv)

    def ceiling(self, top: Card) -> Expr:
        """The arrival square of the rank of the stack whose top is ``top`` (A6): the
        square it may not stand above, and where it flips (A8)."""
        return self.o.arrival_of(self.rank(top))

    def part_rank(self, m: Move) -> Card:
        """The moving part's rank card (A3, A6): its leader, or with ``"highest"`` its
        highest card ``pr`` (the selection whose value
        :func:`~castlerules.ascent.kernel.acts_with` gives)."""
        return m.pr if self.high and m.pr is not None else m.lead

    def part_value(self, m: Move) -> Expr:
        """The rank value the moving part acts with (A3;
        :func:`~castlerules.ascent.kernel.acts_with`)."""
        return kernel.acts_with(FOLD, self.high, m.lead.val, self.part_rank(m).val)

    def rest_rank(self, m: Move) -> Card:
        """The rank card of the remainder left under the part / the taken cards (A7,
        A13): the card under them, or with ``"highest"`` the remainder's highest ``rb``."""
        return m.rb if self.high and m.rb is not None else m.bx

    def rest_value(self, m: Move) -> Expr:
        """The rank value the remainder acts with (A3;
        :func:`~castlerules.ascent.kernel.acts_with`)."""
        return kernel.acts_with(FOLD, self.high, m.bx.val, self.rest_rank(m).val)

    def taker_rank(self, m: Move) -> Expr:
        """The rank value a favour's taker acts with (A10): the moved stack's top card's,
        or with ``"highest"`` the moved stack's rank (A3;
        :func:`~castlerules.ascent.kernel.acts_with`)."""
        return kernel.acts_with(FOLD, self.high, m.tt.val, m.tb.rv)

    def target_rank(self, m: Move) -> Expr:
        """The rank value of the stack a favour takes from (A10): its top card's, or with
        ``"highest"`` its highest (A3; :func:`~castlerules.ascent.kernel.acts_with`)."""
        return kernel.acts_with(FOLD, self.high, m.qt.val, m.x.rv)

    def rank_card_of(self, m: Move, r: Card, member: Callable[[Card], Expr], u: Card) -> Expr:
        """With ``"highest"``: ``r`` is the rank card of the cards ``member`` selects, for
        card ``u``: no card of them ranks higher, none above it ranks the same (the
        topmost of equals, the engine's ``rank_card``; A3)."""
        del m
        if not self.high:
            return True
        mine = member(u)
        return all_of(
            [
                implies(mine, u.val <= r.val),
                implies(all_of([mine, u.dep < r.dep]), u.val < r.val),
            ]
        )

    def rest_of(self, x: Card, u: Card) -> Expr:
        """``u`` is in the remainder under ``x`` (A3;
        :func:`~castlerules.ascent.kernel.in_rest`)."""
        xs, us = x.slot(), u.slot()
        return kernel.in_rest(FOLD, kernel.with_card(FOLD, xs, us, False), xs, us)

    def rest_views(self, x: Card, rb: Card | None) -> Expr:
        """With ``"highest"``: ``rb`` is a card of the remainder under ``x``, or NONE
        when nothing is under ``x`` (A7, A13)."""
        if not self.high or rb is None:
            return True
        return all_of(
            [
                between(rb.idx, NONE, self.N - 1),
                implies(x.below == NONE, rb.idx == NONE),
                implies(x.below != NONE, all_of([rb.idx != NONE, self.rest_of(x, rb)])),
            ]
        )

    def excused(self, top: Card) -> Expr:
        """A stack whose top stands above its rank's arrival square may stay there: an
        exposed remainder where A13 does not remove it, or anywhere with
        ``allow_exposing_split`` (rule 15; the engine's ``ceiling_violations``)."""
        return all_of(
            [
                top.sq > self.ceiling(top),
                any_of([self.o.allow_exposing_split, neg(self.o.removal(top.sq))]),
            ]
        )

    def taker_bound(self, m: Move) -> Expr:
        """The rank a favour's takes are compared with (A10): the taker's; the sensitivity
        mutation ``favour_equal_rank`` reads it one higher, so that an equal rank passes
        :func:`~castlerules.ascent.kernel.ranks_lower`."""
        r = self.taker_rank(m)
        return r + 1 if self.p.mutation == "favour_equal_rank" else r

    def takeable(self, u: Card) -> Expr:
        """A8, rule 13: a flipped card is never taken
        (:func:`~castlerules.ascent.kernel.never_moves`); the sensitivity mutation
        ``favour_flipped`` reads every card as unflipped."""
        flipped = False if self.p.mutation == "favour_flipped" else u.flp
        return neg(kernel.never_moves(FOLD, flipped))

    def limit(self) -> Expr:
        """``favours_per_move`` as the kernel's number
        (:data:`~castlerules.ascent.kernel.UNLIMITED` for None; A10)."""
        return ite(self.o.unlimited, kernel.UNLIMITED, self.o.limit)

    def target(self, taker: Expr, d: Expr, r: Expr, u: Card) -> Expr:
        """``u`` tops a stack a favour of a stack of rank ``r`` of column ``taker`` may take
        on row ``d`` (:func:`~castlerules.ascent.kernel.favour_target`; rule 13, A8,
        A10).  The sensitivity mutations change what the kernel is given: a flipped card
        reads as unflipped (``favour_flipped``), the taker's rank as one higher
        (``favour_equal_rank``)."""
        seen = u.slot()
        if self.p.mutation == "favour_flipped":
            seen = attrs.evolve(seen, flp=False)
        bound = r + 1 if self.p.mutation == "favour_equal_rank" else r
        return kernel.favour_target(FOLD, taker, d, bound, seen, self.rank(u))

    # ------------------------------------------------------------------ Advance
    def in_part(self, t: Turn, m: Move, u: Card) -> Expr:
        """``u`` moves with ``x``: ``x`` and every card above it (rule 8; A3;
        :func:`~castlerules.ascent.kernel.in_part`)."""
        del t
        xs, us = m.x.slot(), u.slot()
        return kernel.in_part(FOLD, kernel.with_card(FOLD, xs, us, u.idx == m.x.idx), xs, us)

    def advance_views(self, t: Turn, m: Move) -> Expr:
        """The Advance's guard on the move's selections (rules 8-12)."""
        o, p, x, lead, d = self.o, t.actor, m.x, m.lead, m.d
        ttop, rank = m.ttop, self.part_value(m)
        return all_of(
            [
                m.kind == ADVANCE,
                neg(kernel.game_over(FOLD, t.actor)),  # A14
                neg(kernel.step_open(FOLD, t.mid, t.sk)),  # A12: the replay after a favour
                neg(  # A12: at most replays_per_turn replays in a turn
                    all_of(
                        [
                            kernel.after_advance(FOLD, t.mid),
                            neg(kernel.replays_left(FOLD, t.replays, o.replay_limit)),
                        ]
                    )
                ),
                between(x.idx, 0, self.N - 1),
                kernel.own_card(FOLD, p, x.col, x.sq),  # A2: the player's own column
                neg(kernel.never_moves(FOLD, x.flp)),  # A8: flipped cards never move
                lead.idx == x.top,  # rule 8: the part's leader is the stack's top
                self.part_views(t, m),  # A3: the part's rank card (stack_rank)
                # A4, A5, A6: up from its row, not above the ceiling of the part's rank
                kernel.within_reach(FOLD, self.source(x), d, o.arrival_of(rank)),
                m.bx.idx == x.below,
                self.rest_views(x, m.rb),
                neg(  # A7, rule 11: the remainder's rank is not exposed
                    kernel.exposes(
                        FOLD,
                        x.sq,
                        x.below != NONE,
                        o.allow_exposing_split,
                        o.arrival_of(self.rest_value(m)),
                    )
                ),
                between(ttop.idx, NONE, self.N - 1),
                implies(  # A9: a square holding cards (ttop on top) is free only as the
                    ttop.idx != NONE,  # part's rank's arrival square with flipped cards
                    all_of(
                        [
                            ttop.at(p, d),
                            ttop.dep == 0,
                            kernel.free_for(FOLD, True, ttop.flp, d, o.arrival_of(rank)),
                        ]
                    ),
                ),
                between(m.nxt, -1, self.n - 1),
            ]
        )

    def part_views(self, t: Turn, m: Move) -> Expr:
        """With ``"highest"``: the selection ``pr`` is a card of the moving part (A3)."""
        if not self.high or m.pr is None:
            return True
        return all_of([between(m.pr.idx, 0, self.N - 1), self.in_part(t, m, m.pr)])

    def advance_card(self, t: Turn, m: Move, u: Card) -> Expr:
        """What the Advance's guard says of every card ``u``."""
        x = m.x
        return all_of(
            [
                # A3 (stack_rank="highest"): pr and rb are the part's and the
                # remainder's rank cards
                self.rank_card_of(m, self.part_rank(m), lambda v: self.in_part(t, m, v), u),
                self.rank_card_of(m, self.rest_rank(m), lambda v: self.rest_of(x, v), u),
                # A3: without a top card there, the destination square is empty
                implies(m.ttop.idx == NONE, neg(u.at(t.actor, m.d))),
                # A7: the strict (wrong) reading bounds every moving card by its ceiling
                neg(
                    all_of(
                        [
                            neg(self.o.protection),
                            kernel.beyond_own(FOLD, self.in_part(t, m, u), self.arr(u), m.d),
                        ]
                    )
                ),
            ]
        )

    def free(self, cards: Sequence[Card], col: Expr, sq: Expr, ceiling: Expr) -> Expr:
        """A square is free for a rank whose ceiling is ``ceiling``: empty, or that
        arrival square holding flipped cards (A3, A9)."""
        here = [u.at(col, sq) for u in cards]
        flipped = [all_of([h, u.flp]) for h, u in zip(here, cards, strict=True)]
        return kernel.free_for(FOLD, any_of(here), any_of(flipped), sq, ceiling)

    def advance_exists(self, cards: Sequence[Card], t: Turn, m: Move) -> Expr:
        """What the Advance's guard says of some card: every square jumped over is
        not free (A3: the destination is the *lowest* free square above the card's row, A5)."""
        source, ceiling = self.source(m.x), self.o.arrival_of(self.part_value(m))
        return all_of(
            implies(all_of([source < e, e < m.d]), neg(self.free(cards, t.actor, e, ceiling)))
            for e in range(1, self.smax + 1)
        )

    def pending(self, cards: Sequence[Card], t: Turn, m: Move) -> Expr:
        """After the Advance, a favour is offered (rules 13, 16; A10;
        :func:`~castlerules.ascent.kernel.favour_offered`)."""
        rank = self.part_value(m)
        flip_now = kernel.lands_flipped(FOLD, m.d, self.o.arrival_of(rank))
        targets = [self.target(t.actor, m.d, rank, u) for u in cards]
        return kernel.favour_offered(FOLD, self.o.favour_after_arrival, flip_now, targets)

    def advance_card_post(self, t: Turn, m: Move, u: Card) -> Card:
        """A card after the Advance: the part lands on ``d``, on top of any flipped
        cards there (A3, A9), flipped if ``d`` is the leader's arrival square (A8,
        rule 12); the cards under the part stay, a layer higher in their stack, turned
        over if left uncovered on the arrival square of their rank (A8,
        ``flip_uncovered``: :func:`~castlerules.ascent.kernel.left_flipped`)."""
        p, x, d = t.actor, m.x, m.d
        part = self.in_part(t, m, u)
        target = u.at(p, d)
        rest = self.rest_of(x, u)
        rank = self.part_value(m)
        moved = kernel.Advanced(
            p,
            x.slot(),
            d,
            kernel.lands_flipped(FOLD, d, self.o.arrival_of(rank)),
            rest_flips=kernel.left_flipped(
                FOLD,
                self.o.flip_uncovered,
                all_of([x.sq >= 1, x.below != NONE]),
                x.sq,
                self.o.arrival_of(self.rest_value(m)),
            ),
        )
        new = kernel.advanced_card(FOLD, moved, u.slot(), u.idx == x.idx)
        after = attrs.evolve(
            u,
            col=new.col,
            sq=new.sq,
            dep=new.dep,
            flp=new.flp,
            # the auxiliaries (see the module's text)
            below=ite(u.idx == x.idx, m.ttop.idx, u.below),
            top=ite(any_of([part, target]), m.lead.idx, ite(rest, m.bx.idx, u.top)),
        )
        if not self.high:
            return after
        # A3: the part (and the flipped stack it lands on) acts with the part's rank,
        # the remainder with its own
        rv = ite(any_of([part, target]), rank, ite(rest, self.rest_value(m), u.rv))
        return attrs.evolve(after, rv=rv)

    def advance_turn(self, t: Turn, m: Move, pending: bool) -> Turn:
        """The turn after the Advance: the step it opens (rule 16), or the next turn; an
        Advance in an open step is a replay, counted where ``replays_per_turn`` bounds
        them (A12, as the kernel's ``sub_cases``)."""
        if pending:
            size = kernel.part_size(FOLD, m.x.slot())
            replays = self.fold.ite(all_of([t.mid, self.counts_replays]), t.replays + 1, 0)
            return t.within(kernel.step_after_advance(FOLD, m.d, size, replays))
        return t.over(m.nxt)

    # ------------------------------------------------------------------ Favour
    def favour_views(self, t: Turn, m: Move) -> Expr:
        """The Favour's guard (rule 13; A10, A11; favours_per_move, favour_after_arrival)."""
        o, p, x, tb = self.o, t.actor, m.x, m.tb
        return all_of(
            [
                m.kind == FAVOUR,
                neg(kernel.game_over(FOLD, t.actor)),  # A14
                kernel.after_advance(FOLD, t.mid),  # A11: only the stack just moved takes
                kernel.favours_left(FOLD, t.sk, self.limit()),  # A10: favours_per_move
                between(tb.idx, 0, self.N - 1),
                tb.at(p, t.sd),
                tb.dep == t.sm - 1,  # tb: the moved stack's bottom card
                kernel.may_take_after(
                    FOLD, o.favour_after_arrival, tb.flp
                ),  # A10: favour_after_arrival
                m.tt.idx == tb.top,
                between(x.idx, 0, self.N - 1),
                kernel.on_the_row(FOLD, p, t.sd, x.col, x.sq),  # A10: another column, this row
                self.takeable(x),  # A8
                m.qt.idx == x.top,
                # A10: a lower rank
                kernel.ranks_lower(FOLD, self.target_rank(m), self.taker_bound(m)),
                m.bx.idx == x.below,
                self.rest_views(x, m.rb),
                between(m.nxt, -1, self.n - 1),
            ]
        )

    def favour_card(self, t: Turn, m: Move, u: Card) -> Expr:
        """What the Favour's guard says of every card ``u``: with ``favour_takes="all_lower"``
        every taken card ranks lower than the taker's leader (A10)."""
        x = m.x
        taken = self.in_part(t, m, u)
        return all_of(
            [
                neg(
                    kernel.takes_too_high(
                        FOLD, self.o.favour_takes, taken, u.val, self.taker_bound(m)
                    )
                ),
                # A3 (stack_rank="highest"): rb is the remainder's rank card
                self.rank_card_of(m, self.rest_rank(m), lambda v: self.rest_of(x, v), u),
            ]
        )

    def removes(self, t: Turn, m: Move) -> Expr:
        """The take leaves a remainder whose new top stands above its ceiling on a
        square where A13 removes it (rule 15)."""
        o = self.o
        return kernel.remainder_leaves(
            FOLD,
            m.x.below != NONE,
            o.removal_in_lower_half,
            o.upper_half,
            t.sd,
            o.arrival_of(self.rest_value(m)),
        )

    def favour_card_post(self, t: Turn, m: Move, u: Card, removed: bool) -> Card:
        """A card after the Favour: ``x`` and the cards above it go under the moved
        stack, flipped with it if it is (A10, rule 14); the remainder stays (turned
        over if left uncovered on the arrival square of its rank: A8,
        ``flip_uncovered``), or leaves the board for its column's pile (A13, rule 15)."""
        p, x = t.actor, m.x
        xs, us = x.slot(), u.slot()
        together = kernel.with_card(FOLD, xs, us, u.idx == x.idx)
        taken = kernel.in_part(FOLD, together, xs, us)
        rest = kernel.in_rest(FOLD, together, xs, us)
        f = kernel.Favoured(
            p,
            xs,
            t.sd,
            t.sm,
            m.tb.flp,
            removed,
            self.o.penalty_to,
            rest_flips=kernel.left_flipped(
                FOLD,
                self.o.flip_uncovered,
                x.below != NONE,
                t.sd,
                self.o.arrival_of(self.rest_value(m)),
            ),
        )
        new = kernel.favoured_card(FOLD, f, us, u.idx == x.idx)
        # the auxiliaries (see the module's text)
        below = ite(u.idx == x.idx, m.tb.below, ite(u.idx == m.tb.idx, m.qt.idx, u.below))
        rest_top = NONE if removed else m.bx.idx
        after = attrs.evolve(
            u,
            col=new.col,
            sq=new.sq,
            dep=new.dep,
            flp=new.flp,
            below=ite(rest, NONE, below) if removed else below,
            top=ite(taken, m.tt.idx, ite(rest, rest_top, u.top)),
        )
        if not self.high:
            return after
        # A3: the taken cards join the taker's rank; the remainder acts with its own
        # (a removed card: its own value)
        rest_rv = u.val if removed else self.rest_value(m)
        return attrs.evolve(after, rv=ite(taken, m.tb.rv, ite(rest, rest_rv, u.rv)))

    def favour_turn(self, t: Turn, m: Move, cont: bool) -> Turn:
        """The turn after the favour: its step goes on (rule 14), or the next turn."""
        if cont:
            size = kernel.part_size(FOLD, m.x.slot())
            return t.within(kernel.step_after_favour(FOLD, t.step(), size))
        return t.over(m.nxt)

    # ------------------------------------------------------------------ EndTurn
    def end_views(self, t: Turn, m: Move) -> Expr:
        """EndTurn declines a favour or the replay (A3, A12)."""
        return all_of(
            [
                m.kind == END,
                neg(kernel.game_over(FOLD, t.actor)),  # A14
                kernel.after_advance(FOLD, t.mid),  # A3: a turn ends after its Advance
                between(m.nxt, -1, self.n - 1),
            ]
        )

    # ------------------------------------------------------------------ cases
    def views_guard(self, case: Case, t: Turn, m: Move) -> Expr:
        """A case's guard on the selections (without the every-card and some-card parts)."""
        if case.kind == ADVANCE:
            return self.advance_views(t, m)
        if case.kind == FAVOUR:
            rem = self.removes(t, m)
            return all_of(
                [
                    self.favour_views(t, m),
                    rem if case.removed else neg(rem),
                    m.cont if case.cont else neg(m.cont),
                ]
            )
        return self.end_views(t, m)

    def card_guard(self, case: Case, t: Turn, m: Move, u: Card) -> Expr:
        """A case's guard on every card ``u``."""
        if case.kind == ADVANCE:
            return self.advance_card(t, m, u)
        if case.kind == FAVOUR:
            return self.favour_card(t, m, u)
        return True

    def card_post(self, case: Case, t: Turn, m: Move, u: Card) -> Card:
        if case.kind == ADVANCE:
            return self.advance_card_post(t, m, u)
        if case.kind == FAVOUR:
            return self.favour_card_post(t, m, u, case.removed)
        return u

    def turn_post(self, case: Case, t: Turn, m: Move) -> Turn:
        if case.kind == ADVANCE:
            return self.advance_turn(t, m, case.pending)
        if case.kind == FAVOUR:
            return self.favour_turn(t, m, case.cont)
        return t.over(m.nxt)

    # ------------------------------------------------------------------ invariant
    def inv_card(self, u: Card) -> list[tuple[str, Expr]]:
        """The invariant's conjuncts about one card."""
        o, path = self.o, u.on_path()
        return [
            (
                "domain",
                all_of(
                    [
                        between(u.col, 0, self.n - 1),
                        between(u.sq, REMOVED, o.squares),
                        u.dep >= 0,
                        between(u.below, NONE, self.N - 1),
                        between(u.top, NONE, self.N - 1),
                    ]
                ),
            ),
            (
                "a Start card is single and its owner's",
                implies(
                    u.sq == 0,
                    all_of(
                        [
                            u.col == u.owner,
                            u.dep == 0,
                            u.below == NONE,
                            u.top == u.idx,
                            neg(u.flp),
                        ]
                    ),
                ),
            ),
            (
                "a removed card is in a pile",
                implies(
                    u.sq == REMOVED,
                    all_of([u.dep == 0, u.below == NONE, u.top == NONE, neg(u.flp)]),
                ),
            ),
            (
                "a card on the path is in a stack with a top",
                implies(
                    path,
                    all_of(
                        [
                            u.top != NONE,
                            u.below != u.idx,
                            (u.dep == 0) == (u.top == u.idx),
                        ]
                    ),
                ),
            ),
            (
                "a flipped top stands on its arrival square",
                implies(all_of([path, u.flp, u.dep == 0]), u.sq == self.ceiling(u)),
            ),
            (
                "an uncovered top on its arrival square lies flipped (flip_uncovered)",
                implies(
                    all_of([o.flip_uncovered, path, u.dep == 0, u.sq == self.ceiling(u)]), u.flp
                ),
            ),
            (
                "ceiling: a top stands at or below its arrival square unless excused",
                implies(all_of([path, u.dep == 0, u.sq > self.ceiling(u)]), self.excused(u)),
            ),
            *self.inv_rank(u),
        ]

    def inv_rank(self, u: Card) -> list[tuple[str, Expr]]:
        """With ``stack_rank="highest"``: what the invariant says of a card's stack rank
        ``rv`` (A3): no card of a stack ranks higher than it (its own value off the
        path).  The ceiling and flip conjuncts then read the stack's rank
        (:meth:`ceiling`), not the top card's: a card may stand above its own arrival
        square, carried by a higher card anywhere in its stack."""
        if not self.high:
            return []
        return [
            (
                "a stack's rank is at least each of its cards' (stack_rank=highest)",
                all_of(
                    [
                        between(u.rv, u.val, VALUES[-1]),
                        implies(neg(u.on_path()), u.rv == u.val),
                    ]
                ),
            )
        ]

    def inv_pair(self, u: Card, v: Card) -> list[tuple[str, Expr]]:
        """The invariant's conjuncts about two distinct cards."""
        other = u.idx != v.idx
        same = all_of([u.on_path(), other, u.same_stack(v)])
        return [
            (
                "below is the next card down",
                implies(
                    all_of([u.on_path(), other, u.below == v.idx]),
                    all_of([u.same_stack(v), v.dep == u.dep + 1]),
                ),
            ),
            (
                "nothing is under a bottom card",
                implies(all_of([same, u.below == NONE]), v.dep <= u.dep),
            ),
            (
                "top is the stack's top",
                implies(
                    all_of([u.on_path(), other, u.top == v.idx]),
                    all_of([u.same_stack(v), v.dep == 0]),
                ),
            ),
            ("one card per place of a stack", implies(same, u.dep != v.dep)),
            ("a stack is wholly flipped or not", implies(same, u.flp == v.flp)),
            ("cards of a stack share its top", implies(same, u.top == v.top)),
            *(
                [
                    (
                        "cards of a stack share its rank (stack_rank=highest)",
                        implies(same, u.rv == v.rv),
                    )
                ]
                if self.high
                else []
            ),
        ]

    def inv_turn(self, t: Turn) -> list[tuple[str, Expr]]:
        return [
            (
                "turn",
                all_of(
                    [
                        between(t.actor, -1, self.n - 1),
                        implies(neg(t.mid), all_of([t.sd == 0, t.sm == 0, t.sk == 0])),
                        implies(
                            t.mid,
                            all_of(
                                [
                                    t.actor >= 0,
                                    between(t.sd, 1, self.o.squares),
                                    t.sm >= 1,
                                    t.sk >= 0,
                                ]
                            ),
                        ),
                    ]
                ),
            ),
            (
                "the replays of a turn: counted in an open step, at most replays_per_turn",
                all_of(
                    [
                        implies(any_of([neg(t.mid), neg(self.counts_replays)]), t.replays == 0),
                        between(t.replays, 0, self.o.replay_limit),
                    ]
                ),
            ),
        ]

    def init_card(self, u: Card) -> Expr:
        """A new game: every card alone on its owner's Start (spec rule 7;
        :func:`~castlerules.ascent.kernel.dealt_card`)."""
        dealt = kernel.dealt_card(FOLD, u.owner)
        return all_of(
            [
                u.col == dealt.col,
                u.sq == dealt.sq,
                u.dep == dealt.dep,
                u.below == NONE,
                u.top == u.idx,
                u.flp == dealt.flp,
                # A3 (stack_rank="highest"): a card alone acts with its own rank
                u.rv == u.val if self.high else True,
            ]
        )

    def init_turn(self, t: Turn) -> Expr:
        """Any first player (the die, or ``new_game(first_player=...)``), no step open
        (:func:`~castlerules.ascent.kernel.no_step`)."""
        first = kernel.no_step(FOLD)
        return all_of(
            [
                between(t.actor, 0, self.n - 1),
                t.mid == first.mid,
                t.sd == first.sd,
                t.sm == first.sm,
                t.sk == first.sk,
                t.replays == first.replays,
            ]
        )

    # ------------------------------------------------------------------ full model
    def card_of(self, c: int, tag: str) -> Card:
        """Card ``c`` of the full model: its number, value and owner are constants."""
        return fresh_card(
            f"{tag}_c{c}",
            self.var,
            idx=c,
            val=value_of(c),
            owner=c // CARDS_PER_SET,
            ranked=self.high,
        )

    def fresh_state(self, tag: str) -> AState:
        turn = fresh_turn(tag, self.var, counted=self.counts_replays is not False)
        return AState(tuple(self.card_of(c, tag) for c in range(self.N)), turn)

    def fresh_move(self, tag: str) -> Move:
        return fresh_move(tag, self.var, ranked=self.high)

    def init(self, s: AState) -> Expr:
        return all_of([self.init_turn(s.turn), *(self.init_card(u) for u in s.cards)])

    def pick(self, s: AState, v: Card, nullable: bool = False) -> Expr:
        """Selection ``v`` is the card of ``s`` numbered ``v.idx`` (or, if
        ``nullable``, :data:`NONE`)."""
        parts = [
            implies(
                v.idx == c,
                all_of(
                    [
                        v.val == u.val,
                        v.owner == u.owner,
                        v.col == u.col,
                        v.sq == u.sq,
                        v.dep == u.dep,
                        v.below == u.below,
                        v.top == u.top,
                        v.flp == u.flp,
                        v.rv == u.rv if self.high else True,
                    ]
                ),
            )
            for c, u in enumerate(s.cards)
        ]
        parts.append(between(v.idx, NONE if nullable else 0, self.N - 1))
        return all_of(parts)

    def pick_ranks(self, s: AState, m: Move, part: bool) -> list[Expr]:
        """With ``"highest"``: the rank selections are cards of ``s`` (the part's for an
        Advance, and the remainder's, which may be NONE)."""
        if not self.high or m.pr is None or m.rb is None:
            return []
        out = [self.pick(s, m.rb, nullable=True)]
        return [self.pick(s, m.pr), *out] if part else out

    def guard(self, case: Case, s: AState, m: Move) -> Expr:
        """A case's full guard in a position of the full model."""
        t, cards = s.turn, s.cards
        parts = [self.views_guard(case, t, m)]
        if case.kind == ADVANCE:
            parts += [
                self.pick(s, m.x),
                self.pick(s, m.lead),
                self.pick(s, m.bx, nullable=True),
                self.pick(s, m.ttop, nullable=True),
                *self.pick_ranks(s, m, part=True),
                *(self.advance_card(t, m, u) for u in cards),
                self.advance_exists(cards, t, m),
            ]
            pend = self.pending(cards, t, m)
            parts.append(pend if case.pending else neg(pend))
        elif case.kind == FAVOUR:
            parts += [
                self.pick(s, m.x),
                self.pick(s, m.tb),
                self.pick(s, m.tt),
                self.pick(s, m.qt),
                self.pick(s, m.bx, nullable=True),
                *self.pick_ranks(s, m, part=False),
                *(self.favour_card(t, m, u) for u in cards),
            ]
        return all_of(parts)

    def post(self, case: Case, s: AState, m: Move) -> AState:
        return AState(
            tuple(self.card_post(case, s.turn, m, u) for u in s.cards),
            self.turn_post(case, s.turn, m),
        )

    def legal(self, s: AState, m: Move) -> Expr:
        return any_of(self.guard(case, s, m) for case in CASES)

    def equal(self, a: AState, b: AState) -> Expr:
        ta, tb = a.turn, b.turn
        parts = [ta.actor == tb.actor, ta.mid == tb.mid, ta.sd == tb.sd, ta.sm == tb.sm]
        parts += [ta.sk == tb.sk, ta.replays == tb.replays]
        for u, v in zip(a.cards, b.cards, strict=True):
            parts += [u.col == v.col, u.sq == v.sq, u.dep == v.dep, u.below == v.below]
            parts += [u.top == v.top, u.flp == v.flp]
            if self.high:
                parts.append(u.rv == v.rv)
        return all_of(parts)

    def step_relation(self, s: AState, m: Move, post: AState) -> Expr:
        """``m`` is legal in ``s`` and ``post`` is its successor (turn passing free)."""
        return any_of(
            all_of([self.guard(case, s, m), self.equal(post, self.post(case, s, m))])
            for case in CASES
        )

    def relation(self, s: AState, m: Move, post: AState) -> Expr:
        """The engine's transition: ``m`` is legal in ``s`` and ``post`` is the engine's
        successor, turn passing included (rules 16-18)."""
        return all_of([self.step_relation(s, m, post), self.exact_turn(s, m, post)])

    def invariant(self, s: AState) -> list[tuple[str, Expr]]:
        """The invariant of a full-model position (every card and every pair)."""
        out: list[tuple[str, Expr]] = list(self.inv_turn(s.turn))
        for u in s.cards:
            out += self.inv_card(u)
        for u in s.cards:
            for v in s.cards:
                if u is not v:
                    out += self.inv_pair(u, v)
        return out

    # ------------------------------------------------------------------ exact turns
    def alive(self, s: AState, q: int) -> Expr:
        """Seat ``q`` is still in the race (A14, rule 18; option ``end_test``): a card of
        its column (Start included) not flipped and below its own arrival square
        (``unreached``), any card not flipped (``unflipped``), or a legal Advance
        (``can_move``)."""
        o = self.fold
        mine = [u.col == q for u in s.cards]
        return kernel.in_race(
            o,
            self.o.end_test,
            any_of(
                all_of([here, kernel.short_of_arrival(o, u.slot(), self.arr(u))])
                for here, u in zip(mine, s.cards, strict=True)
            ),
            any_of(
                all_of([here, kernel.racing(o, u.slot())])
                for here, u in zip(mine, s.cards, strict=True)
            ),
            self.has_advance(s, q),
        )

    def has_advance(self, s: AState, q: int) -> Expr:
        """Seat ``q`` has a legal Advance (rules 8-11): :func:`seat_advances`, the kernel's
        :attr:`~castlerules.ascent.kernel.Board.advances` of the position."""
        hit = self._advances.get(id(s))
        if hit is None or hit[0] is not s:
            ks = self.kstate(s)
            shape = self.shape
            opts = self.kernel_options
            found = seat_advances(
                self.fold, shape, opts, ks, lambda: kernel.Board(self.fold, shape, opts, ks)
            )
            hit = (s, found)
            self._advances[id(s)] = hit
        return hit[1][q]

    def assume_advances(self, s: AState, advances: Sequence[Expr]) -> None:
        """Read ``advances`` (per seat) as who may advance in ``s`` (:meth:`has_advance`):
        the proof that the model is the kernel (:mod:`proofs.ascent_equal`) leaves it
        free, and proves separately that :func:`seat_advances` is the kernel's."""
        self._advances[id(s)] = (s, tuple(advances))

    @functools.cached_property
    def shape(self) -> kernel.Shape:
        """The kernel's :class:`~castlerules.ascent.kernel.Shape` of this model (concrete
        sizes only: the full model's turn passing reads it)."""
        if {"squares", "arrival", "upper_half", "path"} & set(self.p.symbolic):
            raise ValueError("the turn passing reads the kernel's shape: concrete sizes only")
        return kernel.Shape.of(self.p.rules, self.n)

    def kstate(self, s: AState) -> kernel.KState:
        """A position of the full model as the kernel's
        :class:`~castlerules.ascent.kernel.KState` (the same terms, without the
        auxiliaries)."""
        cards = [s.cards[c] for c in self.shape.cards]
        t = s.turn
        return kernel.KState(
            col=tuple(u.col for u in cards),
            sq=tuple(u.sq for u in cards),
            dep=tuple(u.dep for u in cards),
            flp=tuple(u.flp for u in cards),
            own=tuple(u.owner for u in cards),
            actor=t.actor,
            mid=t.mid,
            sd=t.sd,
            sm=t.sm,
            sk=t.sk,
            replays=t.replays,
        )

    @functools.cached_property
    def kernel_options(self) -> kernel.Options:
        """The options as the kernel's :class:`~castlerules.ascent.kernel.Options`."""
        o = self.o
        return kernel.Options(
            allow_exposing_split=o.allow_exposing_split,
            favours_per_move=self.limit(),
            stack_rank=self.high,
            favour_takes=o.favour_takes,
            favour_after_arrival=o.favour_after_arrival,
            removal_in_lower_half=o.removal_in_lower_half,
            penalty_to=o.penalty_to,
            end_test=o.end_test,
            last_player_continues=o.last_player_continues,
            die=False,
            protection=o.protection,
            flip_uncovered=o.flip_uncovered,
            replays_per_turn=o.replay_limit,
        )

    def next_actor(self, s: AState, p: Expr) -> Expr:
        """Who plays after ``p``'s turn ends on board ``s``, -1 when the game is over
        (rules 17, 18; A14: :func:`~castlerules.ascent.kernel.game_ends`,
        :func:`~castlerules.ascent.kernel.next_seat`)."""
        o, n = self.fold, self.n
        race = [self.alive(s, q) for q in range(n)]
        advances = [self.has_advance(s, q) for q in range(n)]
        over = kernel.game_ends(o, self.o.last_player_continues, race, advances)
        return o.ite(over, -1, kernel.next_seat(o, n, p, advances))

    def favours_open(self, s: AState, t: Turn, m: Move) -> Expr:
        """After a favour, further favours are open (A10 and its options:
        :func:`~castlerules.ascent.kernel.favours_left`,
        :func:`~castlerules.ascent.kernel.favour_offered`)."""
        targets = [self.target(t.actor, t.sd, self.taker_rank(m), u) for u in s.cards]
        return all_of(
            [
                kernel.favours_left(FOLD, t.sk + 1, self.limit()),
                kernel.favour_offered(FOLD, self.o.favour_after_arrival, m.tb.flp, targets),
            ]
        )

    def goes_on(self, post: AState, t: Turn, m: Move) -> Expr:
        """After the favour ``m`` of turn ``t``, whose board is ``post``'s, play goes on
        (A12, rule 16: :func:`~castlerules.ascent.kernel.play_goes_on`): a favour is
        still open, or the player may advance again (and has replays left,
        :func:`~castlerules.ascent.kernel.replays_left`)."""
        replay = all_of(
            [
                select(t.actor, [self.has_advance(post, q) for q in range(self.n)]),
                kernel.replays_left(FOLD, t.replays, self.o.replay_limit),
            ]
        )
        return kernel.play_goes_on(FOLD, self.favours_open(post, t, m), replay)

    def exact_turn(self, pre: AState, m: Move, post: AState) -> Expr:
        """The engine's turn passing, on the successor's board (rules 16-18)."""
        p = pre.turn.actor
        ends = post.turn.actor == self.next_actor(post, p)
        go_on = self.goes_on(post, pre.turn, m)
        return all_of(
            [
                implies(all_of([m.kind == ADVANCE, neg(post.turn.mid)]), ends),
                implies(m.kind == FAVOUR, m.cont == go_on),
                implies(all_of([m.kind == FAVOUR, neg(m.cont)]), ends),
                implies(m.kind == END, ends),
            ]
        )

    # ------------------------------------------------------------------ measures
    def score(self, s: AState, q: int) -> Expr:
        """Seat ``q``'s points (rule 19; A15, A16)."""
        return total(kernel.card_points(FOLD, q, u.col, u.sq, self.arr(u), u.val) for u in s.cards)

    def height(self, u: Card) -> Expr:
        """A card's term of the ranking function: its square, the top square once removed."""
        return ite(u.sq == REMOVED, self.o.squares, u.sq)


class Small:
    """The small model of one :class:`Params` for induction (see the module documentation).

    ``reps`` are arbitrary cards (any number, value and owner in range);
    ``move`` holds the selections, themselves cards.  :meth:`hypotheses` gives
    the invariant instantiated on all of them and every pair, their
    consistency, and (for a case) its guard on the selections and on each of
    them.
    """

    def __init__(self, model: AscentModel, reps: int = 2, tag: str = "s") -> None:
        self.m = model
        ranked = model.high
        self.turn = fresh_turn(f"{tag}_t", counted=model.counts_replays is not False)
        self.move = fresh_move(f"{tag}_m", ranked=ranked)
        self.reps = tuple(fresh_card(f"{tag}_r{i}", ranked=ranked) for i in range(reps))

    def all_cards(self) -> tuple[Card, ...]:
        return (*self.reps, *self.move.views())

    def card_domain(self, u: Card, nullable: bool) -> Expr:
        """A card's number, value and owner are in range (a selection may be NONE)."""
        real = all_of(
            [
                between(u.idx, 0, self.m.N - 1),
                between(u.val, VALUES[0], VALUES[-1]),
                between(u.owner, 0, self.m.n - 1),
            ]
        )
        return any_of([u.idx == NONE, real]) if nullable else real

    def consistent(self) -> list[Expr]:
        """Two of the cards with the same number are the same card."""
        cards = self.all_cards()
        out = []
        for i, u in enumerate(cards):
            for v in cards[i + 1 :]:
                out.append(
                    implies(
                        all_of([u.idx == v.idx, u.idx != NONE]),
                        all_of(
                            [
                                u.val == v.val,
                                u.owner == v.owner,
                                u.col == v.col,
                                u.sq == v.sq,
                                u.dep == v.dep,
                                u.below == v.below,
                                u.top == v.top,
                                u.flp == v.flp,
                                u.rv == v.rv if self.m.high else True,
                            ]
                        ),
                    )
                )
        return out

    def inv_instances(self) -> list[Expr]:
        """The invariant on every card and ordered pair of cards here (a NONE selection
        stands for no card: its instances are vacuous)."""
        cards = self.all_cards()
        out: list[Expr] = [c for _n, c in self.m.inv_turn(self.turn)]
        for u in cards:
            real = u.idx != NONE
            out += [implies(real, c) for _n, c in self.m.inv_card(u)]
        for u in cards:
            for v in cards:
                if u is not v:
                    both = all_of([u.idx != NONE, v.idx != NONE])
                    out += [implies(both, c) for _n, c in self.m.inv_pair(u, v)]
        return out

    def base(self) -> list[Expr]:
        """Option domains, card ranges, consistency and the invariant instances."""
        views = set(map(id, self.move.views()))
        domains = [self.card_domain(u, id(u) in views) for u in self.all_cards()]
        return [*self.m.assumptions(), *domains, *self.consistent(), *self.inv_instances()]

    def case_guard(self, case: Case) -> list[Expr]:
        """The case's guard on the selections and on every card here."""
        t, mv = self.turn, self.move
        out = [self.m.views_guard(case, t, mv)]
        out += [implies(u.idx != NONE, self.m.card_guard(case, t, mv, u)) for u in self.all_cards()]
        return out

    def post(self, case: Case, u: Card) -> Card:
        return self.m.card_post(case, self.turn, self.move, u)


@attrs.frozen(slots=True)
class Path:
    """A path of the full model found by :func:`unroll`, with the Z3 model fixing it."""

    states: tuple[AState, ...]
    moves: tuple[Move, ...]
    model: Z3Model
    depth: int


def bmc_solver(model: AscentModel) -> Solver:
    """A solver for BMC: bit-blasting to SAT for the bit-vector model (much faster on
    these bounded, case-heavy formulas than the arithmetic solver), else the default."""
    if model.p.bitvector:
        return z3.Then("simplify", "bit-blast", "sat").solver()
    return new_solver()


def value(model: Z3Model, term: Expr) -> int:
    """The value of a number term in a Z3 model (bit-vectors read as signed)."""
    if isinstance(term, bool | int):
        return int(term)
    got = model.eval(term, model_completion=True)
    if z3.is_bv_value(got):
        return int(got.as_signed_long())
    return int(got.as_long())


def truth(model: Z3Model, term: Expr) -> bool:
    """The value of a Boolean term in a Z3 model."""
    if isinstance(term, bool):
        return term
    return bool(z3.is_true(model.eval(term, model_completion=True)))


def unroll(
    model: AscentModel,
    bad: Callable[[AState], Expr] | None,
    depth: int,
    *,
    last: AscentModel | None = None,
    bad_step: Callable[[AState, Move, AState], Expr] | None = None,
    min_depth: int = 1,
    start: AState | None = None,
    queries: list[int] | None = None,
) -> Path | None:
    """Bounded model checking of the engine's transition (:meth:`AscentModel.relation`):
    the shortest path of ``min_depth`` to ``depth`` moves from a new game (or
    from ``start``, typically a concrete position, see
    :func:`proofs.ascent_bridge.concrete`) to a position where ``bad`` holds,
    or whose last step satisfies ``bad_step``.

    With ``last``, the last step is taken in that model (a mutation) and the
    earlier ones in ``model``: the path up to the last move is then a game of
    the engine's rules, and the last move what only the mutation allows.
    Each depth is a fresh query (the bit-blasting solver is not incremental).
    """
    states = [model.fresh_state("k0") if start is None else start]
    moves: list[Move] = []
    path: list[Expr] = [] if start is not None else [as_z3(model.init(states[0]))]
    for k in range(1, depth + 1):
        move = model.fresh_move(f"m{k - 1}")
        nxt = model.fresh_state(f"k{k}")
        step = as_z3(model.relation(states[-1], move, nxt))
        if k >= min_depth:
            solver = bmc_solver(model)
            solver.add(*path)
            solver.add(step if last is None else as_z3(last.relation(states[-1], move, nxt)))
            if bad is not None:
                solver.add(as_z3(bad(nxt)))
            if bad_step is not None:
                solver.add(as_z3(bad_step(states[-1], move, nxt)))
            if queries is not None:
                queries.append(1)
            if is_sat(solver.check()):
                return Path((*states, nxt), (*moves, move), solver.model(), k)
        path.append(step)
        states.append(nxt)
        moves.append(move)
    return None


# --------------------------------------------------------------------------- the engine
# Between the engine and the model: the positions and moves the casebook's search
# and the proofs' bridge translate.

CardFields = tuple[int, int, int, int, int, bool]
"""``(col, sq, dep, below, top, flp)`` of one card."""


@attrs.frozen(slots=True)
class Fields:
    """The model's view of an engine position: every card's fields and the turn."""

    cards: tuple[CardFields, ...]
    actor: int
    mid: bool
    step: tuple[int, int, int]
    replays: int = 0
    """The Advances played again after a favour in this turn (A12; 0 where not counted)."""


def fields(state: State) -> Fields:
    """Read an engine state as the model's fields (see :mod:`castlerules.symbolic.ascent_model`)."""
    n = state.players
    out: list[CardFields] = []
    for c in range(n * CARDS_PER_SET):
        found = locate(state, c)
        if found is None:
            pile = next(q for q in range(n) if c in state.removed_cards[q])
            out.append((pile, REMOVED, 0, NONE, NONE, False))
            continue
        q, s, i = found
        if s == 0:
            out.append((q, 0, 0, NONE, c, False))
            continue
        stack = state.columns[q][s]
        below = stack[i + 1] if i + 1 < len(stack) else NONE
        out.append((q, s, i, below, stack[0], bool(state.flipped[q] >> s & 1)))
    step = state.step if state.step is not None else (0, 0, 0)
    return Fields(tuple(out), state.actor, state.step is not None, step, state.replays)


def stack_ranks(f: Fields) -> tuple[int, ...]:
    """Each card's ``rv`` under ``stack_rank="highest"`` (A3): the highest value in its
    stack on the path, its own value on a Start or removed (the engine's
    ``rank_card``)."""
    best: dict[tuple[int, int], int] = {}
    for c, (col, sq, *_rest) in enumerate(f.cards):
        if sq >= 1:
            best[col, sq] = max(best.get((col, sq), 0), value_of(c))
    return tuple(
        best[col, sq] if sq >= 1 else value_of(c) for c, (col, sq, *_rest) in enumerate(f.cards)
    )


def concrete(model: AscentModel, f: Fields) -> AState:
    """The position of Z3 constants with these fields."""
    k = model.k
    cards = []
    ranks = stack_ranks(f)
    for c, (col, sq, dep, below, top, flp) in enumerate(f.cards):
        base = model.card_of(c, "const")
        rv = k(ranks[c]) if model.high else base.rv
        cards.append(
            attrs.evolve(
                base, col=k(col), sq=k(sq), dep=k(dep), below=k(below), top=k(top), flp=flp, rv=rv
            )
        )
    d, m, j = f.step
    replays = k(f.replays) if model.counts_replays is not False else 0
    turn = Turn(k(f.actor), f.mid, k(d), k(m), k(j), replays)
    return AState(tuple(cards), turn)


def encode_move(move: ascent.Move) -> tuple[int, int]:
    """``(kind, card number)`` of an engine move (card -1 for EndTurn)."""
    if isinstance(move, ascent.Advance):
        return ADVANCE, _cid(move.card)
    if isinstance(move, ascent.Favour):
        return FAVOUR, _cid(move.card)
    return END, -1


def _cid(card: ascent.Card) -> int:
    return card_id(card.owner, card.rank.value)


def decode_move(kind: int, idx: int) -> ascent.Move:
    """The engine move of a model move."""
    if kind == ADVANCE:
        return ADVANCES[idx]
    if kind == FAVOUR:
        return FAVOURS[idx]
    return END_MOVE


def move_in(model: Z3Model, m: Move) -> ascent.Move:
    """The engine move a Z3 model gives to a symbolic move."""
    kind = value(model, m.kind)
    return decode_move(kind, value(model, m.x.idx) if kind != END else -1)
