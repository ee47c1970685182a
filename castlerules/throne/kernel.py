"""The rules of Throne written once, over the operations of :mod:`castlerules.core.ops`.

Every guard of a move (tagged with the clause it enforces), every effect, the
end of a round and of the game, the scores and the winners (:func:`winners`,
B16) are stated here once, as functions of values.  The same functions run on plain Python values
(:data:`~castlerules.core.ops.CONCRETE`: the reference the fast engine
:mod:`castlerules.throne.transitions` is checked against, move for move, on every
position of small games: ``python -m proofs.equivalence``, run by
``tests/throne/test_kernel.py``), and on Z3 terms (:mod:`castlerules.symbolic`).

A move is a number of :func:`universe_of` (``a``): first the adapters' action
numbers (:class:`~castlerules.throne.rules.Codes`: places on the placement
floors, climbs, Yes, No, then Pass when the rules allow it), then every other
move the notation can name (Pass when not allowed, places on the other floors),
so that refusals are judged too.  A position is a :class:`KState` of values.

>>> from castlerules import throne
>>> shape = Shape.of(throne.Rules(), 4)
>>> s = from_state(throne.new_game(4, seed=7))
>>> moves = shape.moves
>>> verdict = judge(shape, s, moves.index(throne.Place("C", 6)))
>>> verdict.legal, verdict.clause
(False, 'B6')
>>> after = judge(shape, s, moves.index(throne.Place("C", 3)))
>>> after.legal, after.post.fl[2], after.post.turn
(True, 3, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from castlerules.core import ops as core_ops
from castlerules.core.ops import CONCRETE, Ops, Value, tied_highest
from castlerules.throne.moves import PASS, PLACES, Climb, Move, Pass, Place, Vote
from castlerules.throne.rules import OPTIONS, Rules
from castlerules.throne.state import ELECTION, ELIMINATED, MOVEMENT, OVER, PLACEMENT, State

Guard = core_ops.Guard
"""One condition a move must meet (:class:`castlerules.core.ops.Guard`): ``(clause, what
it asks, broken)``, and the name of its refusal."""

guard = core_ops.guard
"""How the guards below are written (:func:`castlerules.core.ops.guard`): a Guard, shared
where its value is a plain Boolean."""

K_PLACE, K_CLIMB, K_YES, K_NO, K_PASS = range(5)
"""The kinds of move (:attr:`Shape.kind`)."""

NOT_VOTED = -1
"""``votes[s]`` of a seat that has not voted (and of every seat outside elections)."""


# ---------------------------------------------------------------------------
# The shape: sizes and static tables of one Rules and player count


def universe_of(rules: Rules) -> tuple[Move, ...]:
    """Every move the notation can name under ``rules``, numbered: the adapters'
    action numbers first (:class:`~castlerules.throne.rules.Codes`), then Pass if the
    rules forbid it, then the places on floors that are not placement floors."""
    codes = rules.tables.codes.moves
    rest: list[Move] = [] if rules.allow_pass else [PASS]
    rest += [
        PLACES[c][f]
        for c in range(rules.characters)
        for f in range(1, rules.throne_floor + 1)
        if f not in rules.placement_floors
    ]
    return (*codes, *rest)


@attrs.frozen(slots=True)
class Shape:
    """The sizes and the static tables of one game: Python numbers, never values.

    The kernel loops over ``seats``, ``characters`` and floors, and reads these
    tables at value indexes (:meth:`~castlerules.core.ops.Ops.lookup`).
    """

    rules: Rules
    players: int
    characters: int
    top: int
    """The throne's floor (B1)."""
    rounds: int
    moves: tuple[Move, ...]
    """:func:`universe_of` the rules."""
    actions: int
    """How many of ``moves`` are the adapters' action numbers."""
    kind: tuple[int, ...]
    """Per move number: ``K_PLACE``, ``K_CLIMB``, ``K_YES``, ``K_NO`` or ``K_PASS``."""
    character: tuple[int, ...]
    """Per move number: the character placed or climbed (0 for the others)."""
    floor: tuple[int, ...]
    """Per move number: the floor of a place (0 for the others)."""
    placeable: tuple[int, ...]
    """Per move number: 1 if a place onto a placement floor (B6)."""
    caps: tuple[int, ...]
    """Per floor 0..top+1: how many it may hold (B7; the throne 1; 0 above it)."""
    points: tuple[int, ...]
    """Per floor -1..top: a favourite's points there (B14; 0 eliminated or unplaced)."""
    first: tuple[int, ...]
    """Per round 0..rounds+1: the seat that starts it when the first player rotates."""
    bonus: tuple[int, ...]
    """Per round 0..rounds+1: 1 where a round score of 0 counts as the bonus (B15)."""
    bonus_points: int
    placements: int
    """Place moves in a round (B6)."""
    full: int
    """No cards of each seat at the start of a round (B11)."""

    @classmethod
    def of(cls, rules: Rules, players: int) -> Shape:
        """The shape of ``players`` playing under ``rules``."""
        players = rules.check_players(players)
        moves = universe_of(rules)
        top = rules.throne_floor
        kinds = {Place: K_PLACE, Climb: K_CLIMB, Pass: K_PASS}
        letters = rules.letters()
        return cls(
            rules=rules,
            players=players,
            characters=rules.characters,
            top=top,
            rounds=rules.rounds,
            moves=moves,
            actions=len(rules.tables.codes.moves),
            kind=tuple(
                (K_YES if m == Vote(True) else K_NO) if isinstance(m, Vote) else kinds[type(m)]
                for m in moves
            ),
            character=tuple(
                letters.index(m.character) if isinstance(m, Place | Climb) else 0 for m in moves
            ),
            floor=tuple(m.floor if isinstance(m, Place) else 0 for m in moves),
            placeable=tuple(
                int(isinstance(m, Place) and m.floor in rules.placement_floors) for m in moves
            ),
            caps=(0, *(rules.capacity(f) for f in range(1, top + 1)), 0),
            points=(0, 0, *(rules.points_of(f) for f in range(1, top + 1))),
            first=tuple((r - 1) % players for r in range(rules.rounds + 2)),
            bonus=tuple(
                int(1 <= r <= rules.rounds and rules.bonus_applies(r))
                for r in range(rules.rounds + 2)
            ),
            bonus_points=rules.bonus_points,
            placements=rules.placements_for(players),
            full=rules.no_cards_for(players),
        )


@attrs.frozen(slots=True)
class Options:
    """The options the kernel reads as values (so that an interpretation may leave them
    free), each the field of its option's name, read from the option's value by its
    declaration (:attr:`castlerules.core.options.Option.kernel`); the other options are
    sizes and tables of the :class:`Shape`."""

    equal_placement: Value
    """B6: every player places the same number; the leftovers go to floor 1."""
    no_cards_reset_each_round: Value
    """B11: every seat gets its No cards back at the start of a round."""
    first_player_rotates: Value
    """B3: the first player of round k+1 is the seat after round k's."""
    movement_starter: Value
    """B8: true for ``"first_player"``, the round's first player starts the movement
    (else the seat after the last placer)."""
    allow_pass: Value
    """B8: a player may pass in the movement phase."""

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
    """A position as values: the engine's :class:`~castlerules.throne.State` less its
    history (finished rounds' scores are summed in ``total``; later rounds'
    objectives are the chance input of the move that ends a round).

    ``turn`` is -1 once the game is over; ``fl[c]`` is 0 (not placed), 1..top or
    -1 (eliminated, B13); ``votes[s]`` is -1 (not voted, and outside elections),
    0 (No) or 1 (Yes); ``obj[s][c]``: character ``c`` is a favourite of seat ``s``.
    """

    rnd: Value
    phase: Value
    turn: Value
    fl: tuple[Value, ...]
    no: tuple[Value, ...]
    votes: tuple[Value, ...]
    passes: Value
    total: tuple[Value, ...]
    obj: tuple[tuple[Value, ...], ...]


@attrs.frozen(slots=True)
class Outcome:
    """What a legal move leads to: the next position, and whether it scored a round."""

    post: KState
    scored: Value
    """The move ended a round (B12, B13 with nobody left, or everyone passed)."""
    king: Value
    """The crowned character (B12), -1 if none; meaningful when ``scored``."""
    score: tuple[Value, ...]
    """Each seat's score of the round (B14, B15); meaningful when ``scored``."""


@attrs.frozen(slots=True)
class Case:
    """One effect of the transition: when ``when`` holds (of a legal move), ``make``."""

    label: str
    when: Value
    make: Callable[[], Outcome]
    scored: bool = False
    crowned: bool = False


class Position:
    """The terms of one position that every move reads (built once per position)."""

    def __init__(self, ops: Ops, shape: Shape, options: Options, s: KState) -> None:
        self.o, self.shape, self.opt, self.s = ops, shape, options, s
        o, top = ops, shape.top
        # on[f], f in 0..top+1: how many characters stand on floor f (0: not placed).
        self.on: tuple[Value, ...] = (
            *(o.count(x == f for x in s.fl) for f in range(top + 1)),
            o.lit(0),
        )
        self.placing = s.phase == PLACEMENT
        self.moving = s.phase == MOVEMENT
        self.electing = s.phase == ELECTION
        self.over = s.phase == OVER
        self.nxt = next_seat(ops, shape, s.turn)

    def full(self, floor: Value) -> Value:
        """Floor ``floor`` (a value in 0..top+1) holds as many as its capacity (B7)."""
        o = self.o
        return o.select(self.on, floor) >= o.lookup(self.shape.caps, floor)


def next_seat(ops: Ops, shape: Shape, seat: Value) -> Value:
    """The seat after ``seat``, in seat order (spec rule 1)."""
    return ops.ite(seat == shape.players - 1, 0, seat + 1)


def first_player(ops: Ops, shape: Shape, options: Options, rnd: Value) -> Value:
    """The seat that starts round ``rnd`` (B3, option ``first_player_rotates``)."""
    return ops.ite(options.first_player_rotates, ops.lookup(shape.first, rnd), 0)


def initial(ops: Ops, shape: Shape, options: Options, obj: Sequence[Sequence[Value]]) -> KState:
    """A new game dealt the round-1 objectives ``obj``: empty castle, full No cards (B3, B6)."""
    n = shape.players
    return KState(
        rnd=ops.lit(1),
        phase=ops.lit(PLACEMENT),
        turn=first_player(ops, shape, options, ops.lit(1)),
        fl=tuple(ops.lit(0) for _ in range(shape.characters)),
        no=tuple(ops.lit(shape.full) for _ in range(n)),
        votes=tuple(ops.lit(NOT_VOTED) for _ in range(n)),
        passes=ops.lit(0),
        total=tuple(ops.lit(0) for _ in range(n)),
        obj=tuple(tuple(row) for row in obj),
    )


# ---------------------------------------------------------------------------
# The guards


@attrs.frozen(slots=True)
class Parts:
    """The parts of move number ``a`` (read from the shape's tables)."""

    a: Value
    kind: Value
    character: Value
    floor: Value
    placeable: Value
    mine: Value
    """The floor the named character stands on (0 for a Vote or Pass)."""


def decode(p: Position, a: Value) -> Parts:
    """Move number ``a`` read into its kind, character and floor."""
    o, shape = p.o, p.shape
    character = o.lookup(shape.character, a)
    return Parts(
        a=a,
        kind=o.lookup(shape.kind, a),
        character=character,
        floor=o.lookup(shape.floor, a),
        placeable=o.lookup(shape.placeable, a),
        mine=o.select(p.s.fl, character),
    )


def guards(p: Position, m: Parts) -> tuple[Guard, ...]:
    """The conditions of move ``m``, in the order the rules are asked: the move is
    legal when none is broken; a refused move breaks the first that
    :func:`first_broken` names."""
    o, s, top = p.o, p.s, p.shape.top
    place, climb = m.kind == K_PLACE, m.kind == K_CLIMB
    vote = o.any([m.kind == K_YES, m.kind == K_NO])
    pass_ = m.kind == K_PASS
    both = o.all
    return (
        guard("B3", "the game is not over", p.over, "throne-game-over"),
        # Place (B6, B7).
        guard("B8", "no placing while moving", both([place, p.moving]), "throne-place-in-movement"),
        guard(
            "B11",
            "no placing during an election",
            both([place, p.electing]),
            "throne-move-in-election",
        ),
        guard(
            "B6", "a character not yet placed", both([place, m.mine != 0]), "throne-placed-twice"
        ),
        guard(
            "B6",
            "onto a placement floor",
            both([place, m.placeable == 0]),
            "throne-placement-floors",
        ),
        guard("B7", "onto a floor with room", both([place, p.full(m.floor)]), "throne-full-floor"),
        # Climb (B8, B13).
        guard(
            "B8",
            "nothing is above the throne",
            both([climb, m.mine == top]),
            "throne-climb-from-throne",
        ),
        guard(
            "B6", "no climbing while placing", both([climb, p.placing]), "throne-move-in-placement"
        ),
        guard(
            "B11",
            "no climbing during an election",
            both([climb, p.electing]),
            "throne-move-in-election",
        ),
        guard(
            "B13",
            "an eliminated character has left",
            both([climb, m.mine == ELIMINATED]),
            "throne-eliminated",
        ),
        guard(
            "B8",
            "the floor above has room",
            both([climb, p.full(m.mine + 1)]),
            "throne-climb-into-full",
        ),
        # Vote (B10, B11).
        guard(
            "B10",
            "votes only in an election",
            both([vote, o.not_(p.electing)]),
            "throne-no-election",
        ),
        guard(
            "B11",
            "a No needs a No card",
            both([m.kind == K_NO, o.select(s.no, s.turn) <= 0]),
            "throne-no-card-left",
        ),
        # Pass (B8).
        guard(
            "B8",
            "passing needs allow_pass",
            both([pass_, p.moving, o.not_(p.opt.allow_pass)]),
            "throne-pass-refused",
        ),
        guard(
            "B6", "no passing while placing", both([pass_, p.placing]), "throne-move-in-placement"
        ),
        guard(
            "B11",
            "no passing during an election",
            both([pass_, p.electing]),
            "throne-move-in-election",
        ),
    )


def legal(ops: Ops, checks: Sequence[Guard]) -> Value:
    """No guard is broken."""
    return ops.not_(ops.any(broken for _c, _w, broken in checks))


def first_broken(ops: Ops, checks: Sequence[Guard]) -> Value:
    """The index of the first broken guard, or -1 when none is."""
    return ops.first([broken for _c, _w, broken in checks])


# ---------------------------------------------------------------------------
# The effects


def cases(p: Position, m: Parts, nobj: Sequence[Sequence[Value]]) -> list[Case]:
    """The effects of a legal move ``m`` as guarded commands: exclusive conditions
    covering every legal move, each with its outcome.  ``nobj`` is the chance
    outcome a round's end draws: the next round's objectives (B4)."""
    o, shape, opt, s = p.o, p.shape, p.opt, p.s
    n, top = shape.players, shape.top
    chars = range(shape.characters)
    quiet = tuple(o.lit(NOT_VOTED) for _ in range(n))
    out: list[Case] = []

    def same(**changes: Any) -> Outcome:
        return Outcome(attrs.evolve(s, **changes), o.lit(False), o.lit(-1), s.total)

    # Place (B6); the last placement starts the movement (B8: the seat after the last
    # placer, or the round's first player) and, with equal placement, puts the
    # leftover characters on floor 1.
    place = m.kind == K_PLACE
    last_place = shape.characters - p.on[0] + 1 == shape.placements

    def placed() -> tuple[Value, ...]:
        return o.store(s.fl, m.character, m.floor)

    def leftovers() -> Outcome:
        fl = placed()
        fl = tuple(o.ite(o.all([opt.equal_placement, x == 0]), 1, x) for x in fl)
        starter = o.ite(opt.movement_starter, first_player(o, shape, opt, s.rnd), p.nxt)
        return same(fl=fl, phase=o.lit(MOVEMENT), turn=starter)

    out.append(
        Case("place", o.all([place, o.not_(last_place)]), lambda: same(fl=placed(), turn=p.nxt))
    )
    out.append(Case("last place", o.all([place, last_place]), leftovers))

    # Climb (B8); reaching the throne starts an election (B10): the mover votes first.
    climb = m.kind == K_CLIMB
    throne = m.mine == top - 1

    def climbed() -> tuple[Value, ...]:
        return o.store(s.fl, m.character, m.mine + 1)

    out.append(
        Case(
            "climb",
            o.all([climb, o.not_(throne)]),
            lambda: same(fl=climbed(), turn=p.nxt, passes=o.lit(0)),
        )
    )
    out.append(
        Case(
            "climb to the throne",
            o.all([climb, throne]),
            lambda: same(fl=climbed(), phase=o.lit(ELECTION), passes=o.lit(0)),
        )
    )

    # Vote (B11): face down; after the last vote all Yes crowns (B12), any No
    # eliminates the candidate and costs each No voter one card (B13).
    vote = o.any([m.kind == K_YES, m.kind == K_NO])
    votes = o.store(s.votes, s.turn, o.ite(m.kind == K_YES, 1, 0))
    last_vote = o.all(v != NOT_VOTED for v in votes)
    said_no = o.any(v == 0 for v in votes)
    fl_out = tuple(o.ite(x == top, ELIMINATED, x) for x in s.fl)
    no_out = tuple(x - o.ite(v == 0, 1, 0) for x, v in zip(s.no, votes, strict=True))
    left = o.any(x > 0 for x in fl_out)
    candidate = o.total(o.ite(x == top, c, 0) for c, x in zip(chars, s.fl, strict=True))
    out.append(
        Case(
            "vote",
            o.all([vote, o.not_(last_vote)]),
            lambda: same(votes=votes, turn=p.nxt),
        )
    )
    out.append(
        Case(
            "eliminated",
            o.all([vote, last_vote, said_no, left]),
            lambda: same(
                fl=fl_out,
                no=no_out,
                phase=o.lit(MOVEMENT),
                votes=quiet,
                turn=next_seat(o, shape, p.nxt),  # the seat after the mover
            ),
        )
    )

    # Pass (B8, option allow_pass).
    pass_ = m.kind == K_PASS
    everyone = s.passes + 1 == n
    out.append(
        Case(
            "pass",
            o.all([pass_, o.not_(everyone)]),
            lambda: same(passes=s.passes + 1, turn=p.nxt),
        )
    )

    # The ends of a round, each scored (B14, B15), then the next round or the end (B3).
    ends: list[tuple[str, Value, tuple[Value, ...], tuple[Value, ...], Value, bool]] = [
        ("crowned", o.all([vote, last_vote, o.not_(said_no)]), s.fl, s.no, candidate, True),
        (
            "eliminated, nobody left",
            o.all([vote, last_vote, said_no, o.not_(left)]),
            fl_out,
            no_out,
            o.lit(-1),
            False,
        ),
        ("everyone passed", o.all([pass_, everyone]), s.fl, s.no, o.lit(-1), False),
    ]
    final = s.rnd == shape.rounds
    for label, when, castle, no, king, crowned in ends:
        for last in (False, True):
            out.append(
                Case(
                    f"{label}, {'game over' if last else 'next round'}",
                    o.all([when, final if last else o.not_(final)]),
                    _ender(p, castle, no, king, nobj, last=last),
                    scored=True,
                    crowned=crowned,
                )
            )
    return out


def round_score(
    ops: Ops, shape: Shape, rnd: Value, obj: Sequence[Value], castle: Sequence[Value]
) -> Value:
    """One seat's round score: its favourites' floor points (B14; 0 eliminated or
    unplaced, B13), and in a bonus round a score of 0 counts as the bonus (B15)."""
    raw = ops.total(
        ops.ite(fav, ops.lookup(shape.points, x, low=-1), 0)
        for fav, x in zip(obj, castle, strict=True)
    )
    bonus = ops.all([raw == 0, ops.lookup(shape.bonus, rnd) == 1])
    return ops.ite(bonus, shape.bonus_points, raw)


def _ender(
    p: Position,
    castle: tuple[Value, ...],
    no: tuple[Value, ...],
    king: Value,
    nobj: Sequence[Sequence[Value]],
    *,
    last: bool,
) -> Callable[[], Outcome]:
    o, shape, opt, s = p.o, p.shape, p.opt, p.s
    n = shape.players
    quiet = tuple(o.lit(NOT_VOTED) for _ in range(n))

    def make() -> Outcome:
        score = tuple(round_score(o, shape, s.rnd, s.obj[q], castle) for q in range(n))
        totals = tuple(t + x for t, x in zip(s.total, score, strict=True))
        if last:  # a static case of the list, not a value: B3, the last scoring ends the game
            post = attrs.evolve(
                s,
                phase=o.lit(OVER),
                turn=o.lit(-1),
                fl=castle,
                no=no,
                votes=quiet,
                passes=o.lit(0),
                total=totals,
            )
        else:  # spec rule 11: empty castle, No cards back (option), new objectives
            post = KState(
                rnd=s.rnd + 1,
                phase=o.lit(PLACEMENT),
                turn=first_player(o, shape, opt, s.rnd + 1),
                fl=tuple(o.lit(0) for _ in range(shape.characters)),
                no=tuple(o.ite(opt.no_cards_reset_each_round, shape.full, x) for x in no),
                votes=quiet,
                passes=o.lit(0),
                total=totals,
                obj=tuple(tuple(row) for row in nobj),
            )
        return Outcome(post, o.lit(True), king, score)

    return make


def step(p: Position, m: Parts, nobj: Sequence[Sequence[Value]]) -> Outcome:
    """The outcome of a legal move: the case whose condition holds."""
    found = cases(p, m, nobj)
    return p.o.pick([c.when for c in found], [c.make for c in found])


def winners(ops: Ops, s: KState) -> tuple[Value, ...]:
    """Per seat: its total is the highest (B16; ties share the win).  Meaningful once
    the game is over (``turn`` -1): before, the engine names no winner."""
    return tied_highest(ops, s.total)


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
    """An engine position as plain values (the current round's objectives)."""
    n, chars = state.players, state.rules.characters
    masks = state.objectives[state.round - 1]
    votes = state.votes if state.phase == ELECTION else (NOT_VOTED,) * n
    totals = [sum(r[q] for r in state.results) for q in range(n)]
    return KState(
        rnd=state.round,
        phase=state.phase,
        turn=state.turn,
        fl=state.floors,
        no=state.no_cards,
        votes=tuple(votes),
        passes=state.passes,
        total=tuple(totals),
        obj=tuple(tuple(bool(mask >> c & 1) for c in range(chars)) for mask in masks),
    )


def next_objectives(state: State) -> tuple[tuple[bool, ...], ...]:
    """The chance outcome a round's end of ``state`` draws: the next round's objectives
    as the engine dealt them (the last round's once there is no next one)."""
    chars = state.rules.characters
    masks = state.objectives[min(state.round, state.rules.rounds - 1)]
    return tuple(tuple(bool(mask >> c & 1) for c in range(chars)) for mask in masks)


def judge(
    shape: Shape,
    s: KState,
    a: int,
    nobj: Sequence[Sequence[bool]] | None = None,
    position: Position | None = None,
) -> Verdict:
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
    outcome = step(p, m, nobj if nobj is not None else s.obj)
    return Verdict(True, None, None, outcome.post, outcome)
