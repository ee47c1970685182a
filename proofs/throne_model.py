"""Throne as a symbolic transition system, built from the engine's ``Rules``.

Every number comes from a :class:`castlerules.throne.Rules` instance:
capacities (``capacity``), points (``points_of``), placement floors and
counts (``placement_floors``, ``placements_for``), No cards
(``no_cards_for``), rounds and the bonus (``rounds``, ``bonus_applies``,
``bonus_points``), the objective size.  The Boolean options that do not
change the shape of the game (``allow_pass``, ``no_cards_reset_each_round``,
``first_player_rotates``) may be left *symbolic*: a free Z3 Boolean, so that
one query covers both of their values.

The abstract state (:class:`TState`) is the engine's state seen through
its public queries, plus the election in progress:

- ``rnd`` 1..rounds, ``phase`` (:data:`PLACE`, :data:`MOVE`, :data:`ELECT`,
  :data:`OVER`), ``turn`` the seat to act (0 once over);
- ``fl[c]`` the floor of character ``c``: 0 not placed, 1..7 on a floor,
  :data:`GONE` (-1) eliminated this round (B13);
- ``no[s]`` the No cards of seat ``s`` (B11);
- the election: ``mover`` (the seat whose climb started it), ``voted``
  (votes cast so far), ``said_no[s]`` (seat ``s`` voted No, face down);
- ``passes`` (passes in a row, with ``allow_pass``), ``total[s]`` and the
  current round's objectives ``obj[s][c]``.

Outside an election ``mover``, ``voted`` and ``said_no`` are 0/False, so a
state has one encoding.  A move (:class:`TMove`) is ``kind`` (:data:`K_PLACE`,
:data:`K_CLIMB`, :data:`K_VOTE`, :data:`K_PASS`) with ``ch``, ``floor`` and
``yes``, plus the chance outcome of a round's end: the next round's
objectives ``nobj`` (the engine deals them at ``new_game``; here they are an
input of the step, constrained only to be valid objectives).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from castlerules.throne.rules import Rules
from proofs.smt import (
    Expr,
    all_of,
    any_of,
    between,
    bool_var,
    count,
    implies,
    int_var,
    is_literal,
    ite,
    lit,
    neg,
    total,
)

PLACE, MOVE, ELECT, OVER = 0, 1, 2, 3
PHASE_NAMES = ("placement", "movement", "election", "over")
K_PLACE, K_CLIMB, K_VOTE, K_PASS = 0, 1, 2, 3
GONE = -1
"""Floor value of an eliminated character (B13)."""

OPTION_NAMES = ("allow_pass", "no_cards_reset_each_round", "first_player_rotates")
"""The Boolean options that may be quantified symbolically."""


@attrs.frozen(slots=True)
class Params:
    """The numbers of one game (``rules`` and ``players``), and the Boolean options.

    ``symbolic`` names the options left free (both values covered by one query).
    """

    rules: Rules
    players: int
    symbolic: tuple[str, ...] = ()
    allow_pass: Expr = attrs.field(init=False)
    reset: Expr = attrs.field(init=False)
    rotates: Expr = attrs.field(init=False)
    from_first: Expr = attrs.field(init=False)
    """The round's first player starts the movement (option ``movement_starter``, B8)."""

    def __attrs_post_init__(self) -> None:
        def option(name: str) -> Expr:
            if name in self.symbolic:
                return bool_var(f"option_{name}")
            return lit(bool(getattr(self.rules, name)))

        object.__setattr__(self, "allow_pass", option("allow_pass"))
        object.__setattr__(self, "reset", option("no_cards_reset_each_round"))
        object.__setattr__(self, "rotates", option("first_player_rotates"))
        object.__setattr__(self, "from_first", lit(self.rules.movement_starter == "first_player"))

    @property
    def chars(self) -> int:
        return self.rules.characters

    @property
    def top(self) -> int:
        """The throne's floor (B1)."""
        return self.rules.throne_floor

    @property
    def noble(self) -> int:
        """The nobles' floor (B2)."""
        return self.rules.noble_floor

    @property
    def full(self) -> int:
        """No cards at the start of a round (B11)."""
        return self.rules.no_cards_for(self.players)

    @property
    def placements(self) -> int:
        """Place moves in a round (B6)."""
        return self.rules.placements_for(self.players)

    def cap(self, floor: int) -> int:
        return self.rules.capacity(floor)

    def points(self, floor: int) -> int:
        return self.rules.points_of(floor)


@attrs.frozen(slots=True)
class TState:
    """A symbolic (or concrete, when every field is a constant) Throne state."""

    rnd: Expr
    phase: Expr
    turn: Expr
    fl: tuple[Expr, ...]
    no: tuple[Expr, ...]
    mover: Expr
    voted: Expr
    said_no: tuple[Expr, ...]
    passes: Expr
    total: tuple[Expr, ...]
    obj: tuple[tuple[Expr, ...], ...]

    def fields(self) -> list[tuple[str, Expr]]:
        """Every field, flattened, with a stable name."""
        out: list[tuple[str, Expr]] = [
            ("rnd", self.rnd),
            ("phase", self.phase),
            ("turn", self.turn),
            ("mover", self.mover),
            ("voted", self.voted),
            ("passes", self.passes),
        ]
        out += [(f"fl{c}", e) for c, e in enumerate(self.fl)]
        out += [(f"no{s}", e) for s, e in enumerate(self.no)]
        out += [(f"said_no{s}", e) for s, e in enumerate(self.said_no)]
        out += [(f"total{s}", e) for s, e in enumerate(self.total)]
        out += [(f"obj{s}_{c}", e) for s, row in enumerate(self.obj) for c, e in enumerate(row)]
        return out


@attrs.frozen(slots=True)
class TMove:
    """A symbolic move, with the chance outcome ``nobj`` used if it ends a round."""

    kind: Expr
    ch: Expr
    floor: Expr
    yes: Expr
    nobj: tuple[tuple[Expr, ...], ...]


@attrs.frozen(slots=True)
class Case:
    """One guarded command of the transition: when ``guard`` holds, the move is
    legal and leads to ``post``; ``scored`` cases end a round with ``score``."""

    label: str
    guard: Expr
    post: TState
    scored: bool = False
    crowned: bool = False
    """A king was crowned by this move (B12)."""
    raw: tuple[Expr, ...] = ()
    """Each seat's floor points of the round (B14), before the bonus."""
    score: tuple[Expr, ...] = ()
    """Each seat's round score (B14, B15)."""


def _next_seat(seat: Expr, players: int) -> Expr:
    return ite(seat == players - 1, 0, seat + 1)


class ThroneSystem:
    """The transition system of one Throne game (one ``Params``)."""

    def __init__(self, params: Params) -> None:
        self.p = params
        self.n = params.players
        self.seats = range(params.players)
        self.chars = range(params.chars)
        self.floors = range(1, params.top + 1)
        self._memo: dict[tuple[int, str, int], tuple[TState, Expr]] = {}
        self._objectives_memo: dict[int, tuple[Sequence[Sequence[Expr]], Expr]] = {}

    def _cached(self, s: TState, what: str, key: int, build: Callable[[], Expr]) -> Expr:
        """Build a derived term of ``s`` once (terms are shared, and Z3 calls are slow)."""
        slot = (id(s), what, key)
        hit = self._memo.get(slot)
        if hit is not None and hit[0] is s:
            return hit[1]
        value = build()
        self._memo[slot] = (s, value)
        return value

    # ----------------------------------------------------------------- states
    def fresh_state(self, tag: str) -> TState:
        n, chars = self.n, self.p.chars
        return TState(
            rnd=int_var(f"{tag}_rnd"),
            phase=int_var(f"{tag}_phase"),
            turn=int_var(f"{tag}_turn"),
            fl=tuple(int_var(f"{tag}_fl{c}") for c in range(chars)),
            no=tuple(int_var(f"{tag}_no{s}") for s in range(n)),
            mover=int_var(f"{tag}_mover"),
            voted=int_var(f"{tag}_voted"),
            said_no=tuple(bool_var(f"{tag}_said_no{s}") for s in range(n)),
            passes=int_var(f"{tag}_passes"),
            total=tuple(int_var(f"{tag}_total{s}") for s in range(n)),
            obj=self._fresh_objectives(f"{tag}_obj"),
        )

    def _fresh_objectives(self, tag: str) -> tuple[tuple[Expr, ...], ...]:
        return tuple(tuple(bool_var(f"{tag}{s}_{c}") for c in self.chars) for s in self.seats)

    def fresh_move(self, tag: str) -> TMove:
        return TMove(
            kind=int_var(f"{tag}_kind"),
            ch=int_var(f"{tag}_ch"),
            floor=int_var(f"{tag}_floor"),
            yes=bool_var(f"{tag}_yes"),
            nobj=self._fresh_objectives(f"{tag}_nobj"),
        )

    def equal(self, a: TState, b: TState) -> Expr:
        return all_of(x == y for (_n, x), (_m, y) in zip(a.fields(), b.fields(), strict=True))

    def objectives_valid(self, obj: Sequence[Sequence[Expr]]) -> Expr:
        """Each seat holds ``objective_size`` characters; no two seats the same set (B4)."""
        # Most successors keep their predecessor's objectives (the same tuple):
        # built once per tuple (kept alive with the entry, so its id is not reused).
        hit = self._objectives_memo.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        built = self._objectives_valid(obj)
        self._objectives_memo[id(obj)] = (obj, built)
        return built

    def _objectives_valid(self, obj: Sequence[Sequence[Expr]]) -> Expr:
        size = self.p.rules.objective_size
        parts = [count(row) == size for row in obj]
        for s in self.seats:
            for t in range(s + 1, self.n):
                parts.append(any_of(obj[s][c] != obj[t][c] for c in self.chars))
        return all_of(parts)

    def first_player(self, rnd: Expr) -> Expr:
        """The seat that starts round ``rnd`` (spec rule 6)."""
        rotated = lit(0)
        for r in range(self.p.rules.rounds, 0, -1):
            rotated = ite(rnd == r, (r - 1) % self.n, rotated)
        return ite(self.p.rotates, rotated, 0)

    def init(self, s: TState) -> Expr:
        """A new game: round 1, placement, seat 0 to act, empty castle, full No cards."""
        return all_of(
            [
                s.rnd == 1,
                s.phase == PLACE,
                s.turn == self.first_player(lit(1)),
                *(f == 0 for f in s.fl),
                *(x == self.p.full for x in s.no),
                s.mover == 0,
                s.voted == 0,
                *(neg(b) for b in s.said_no),
                s.passes == 0,
                *(t == 0 for t in s.total),
                self.objectives_valid(s.obj),
            ]
        )

    # ----------------------------------------------------------- derived terms
    def on(self, s: TState, floor: int) -> Expr:
        """How many characters stand on ``floor``."""
        return self._cached(s, "on", floor, lambda: count(f == floor for f in s.fl))

    def placed(self, s: TState) -> Expr:
        """How many characters have been placed (B6)."""
        return self._cached(s, "placed", 0, lambda: count(f >= 1 for f in s.fl))

    def gone(self, s: TState) -> Expr:
        """How many characters are eliminated (B13)."""
        return count(f == GONE for f in s.fl)

    def used_no(self, s: TState) -> Expr:
        """No cards discarded, over every seat (B11)."""
        return total(self.p.full - x for x in s.no)

    def points(self, floor: int) -> int:
        return self.p.points(floor)

    def cuts(self, s: TState) -> list[Expr]:
        """Valid linear facts about the indicators the counts are made of (each
        character stands on at most one floor; a favourite on a floor is on it).
        They hold for every value of the variables, are proved as such, and let
        the linear solver do the counting (pigeonhole, score bounds) without
        splitting on every character."""
        out = []
        levels = [GONE, 0, *self.floors]
        for c in self.chars:
            at = [ite(s.fl[c] == f, 1, 0) for f in levels]
            out += [y >= 0 for y in at]
            out.append(total(at) <= 1)
            out.append(
                implies(
                    between(s.fl[c], GONE, self.p.top),
                    all_of([total(at) == 1, ite(s.fl[c] >= 1, 1, 0) == total(at[2:])]),
                )
            )
            for row in s.obj:
                mine = ite(row[c], 1, 0)
                fav = [ite(all_of([row[c], s.fl[c] == f]), 1, 0) for f in self.floors]
                out += [mine >= 0, mine <= 1, *(z >= 0 for z in fav)]
                out += [z <= y for z, y in zip(fav, at[2:], strict=True)]
                out.append(total(fav) <= mine)
        return out

    def indicators(self, s: TState) -> list[Expr]:
        """The indicator terms :meth:`cuts` speaks about (for the abstraction)."""
        out = []
        for c in self.chars:
            out += [ite(s.fl[c] == f, 1, 0) for f in [GONE, 0, *self.floors]]
            out.append(ite(s.fl[c] >= 1, 1, 0))
            for row in s.obj:
                out.append(ite(row[c], 1, 0))
                out += [ite(all_of([row[c], s.fl[c] == f]), 1, 0) for f in self.floors]
        return out

    def points_of(self, floor: Expr) -> Expr:
        """Points of a favourite on a symbolic floor (B14); 0 if off the castle."""
        out = lit(0)
        for f in self.floors:
            out = ite(floor == f, self.p.points(f), out)
        return out

    def room_above(self, s: TState, c: int) -> Expr:
        """The floor above character ``c`` has room for it (B8, B7)."""
        return any_of(
            all_of([s.fl[c] == f, self.on(s, f + 1) < self.p.cap(f + 1)])
            for f in range(1, self.p.top)
        )

    # ------------------------------------------------------------------ moves
    def legal_place(self, s: TState, c: int, floor: Expr) -> Expr:
        """B6: placing phase, character not placed, a placement floor with room (B7)."""
        return all_of(
            [
                s.phase == PLACE,
                s.fl[c] == 0,
                any_of(
                    all_of([floor == f, self.on(s, f) < self.p.cap(f)])
                    for f in self.p.rules.placement_floors
                ),
            ]
        )

    def legal_climb(self, s: TState, c: int) -> Expr:
        """B8: movement phase, a living character, room on the floor above (B7)."""
        return all_of([s.phase == MOVE, s.fl[c] >= 1, s.fl[c] < self.p.top, self.room_above(s, c)])

    def legal_vote(self, s: TState, yes: Expr) -> Expr:
        """B11: an election; a No needs a No card left."""
        no_left = any_of(all_of([s.turn == q, s.no[q] >= 1]) for q in self.seats)
        return all_of([s.phase == ELECT, ite(yes, lit(True), no_left)])

    def legal_pass(self, s: TState) -> Expr:
        """Passing: movement phase, and only with ``allow_pass`` (B8)."""
        return all_of([s.phase == MOVE, self.p.allow_pass])

    def legal(self, s: TState, m: TMove) -> Expr:
        """The move is legal; its chance part (next objectives) is a valid deal."""
        return all_of([self.legal_move(s, m), self.chance(s, m)])

    def chance(self, s: TState, m: TMove) -> Expr:
        """The chance part of a move is possible: the next objectives are a valid deal."""
        del s
        return self.objectives_valid(m.nobj)

    def legal_move(self, s: TState, m: TMove) -> Expr:
        """The move (without its chance part) is legal in ``s``."""
        place = any_of(all_of([m.ch == c, self.legal_place(s, c, m.floor)]) for c in self.chars)
        climb = any_of(all_of([m.ch == c, self.legal_climb(s, c)]) for c in self.chars)
        return any_of(
            [
                all_of([m.kind == K_PLACE, place]),
                all_of([m.kind == K_CLIMB, m.floor == 0, neg(m.yes), climb]),
                all_of([m.kind == K_VOTE, m.ch == 0, m.floor == 0, self.legal_vote(s, m.yes)]),
                all_of([m.kind == K_PASS, m.ch == 0, m.floor == 0, neg(m.yes), self.legal_pass(s)]),
            ]
        )

    # -------------------------------------------------------------- successor
    def step(self, s: TState, m: TMove) -> TState:
        return self.fold(self.cases(s, m))

    def fold(self, cases: Sequence[Case]) -> TState:
        """The successor as one term: the post-state of the case whose guard holds."""
        out = cases[-1].post
        for case in reversed(cases[:-1]):
            out = self.choose(case.guard, case.post, out)
        return out

    def cases(self, s: TState, m: TMove) -> list[Case]:
        """The transition as guarded commands: mutually exclusive guards (each
        implying that the move is legal) covering every legal move, each with
        its post-state.  Proofs check each case on its own (small terms); the
        step is their fold."""
        n, p = self.n, self.p
        nxt = _next_seat(s.turn, n)
        quiet = {"mover": lit(0), "voted": lit(0), "said_no": tuple(lit(False) for _ in self.seats)}
        out: list[Case] = []
        last_place = self.placed(s) + 1 == p.placements
        all_passed = s.passes + 1 == n
        for c in self.chars:
            # Place (B6); the last placement starts the movement phase (B8: by the
            # seat after the last placer, or the round's first player with
            # movement_starter) and, with equal placement, puts every leftover
            # character on floor 1.
            fl_one = tuple(m.floor if d == c else s.fl[d] for d in self.chars)
            guard = all_of([m.kind == K_PLACE, m.ch == c, self.legal_place(s, c, m.floor)])
            out.append(
                Case(
                    f"place {c}",
                    all_of([guard, neg(last_place)]),
                    attrs.evolve(s, fl=fl_one, turn=nxt),
                )
            )
            if p.rules.equal_placement:
                fl_last = tuple(
                    m.floor if d == c else ite(s.fl[d] == 0, 1, s.fl[d]) for d in self.chars
                )
            else:
                fl_last = fl_one
            out.append(
                Case(
                    f"last place {c}",
                    all_of([guard, last_place]),
                    attrs.evolve(
                        s,
                        fl=fl_last,
                        phase=lit(MOVE),
                        turn=ite(p.from_first, self.first_player(s.rnd), nxt),
                    ),
                )
            )
        for c in self.chars:
            # Climb (B8); reaching the throne starts an election (B10): the mover votes first.
            fl_up = tuple(s.fl[d] + 1 if d == c else s.fl[d] for d in self.chars)
            guard = all_of(
                [m.kind == K_CLIMB, m.ch == c, m.floor == 0, neg(m.yes), self.legal_climb(s, c)]
            )
            throne = s.fl[c] == p.top - 1
            out.append(
                Case(
                    f"climb {c}",
                    all_of([guard, neg(throne)]),
                    attrs.evolve(s, fl=fl_up, turn=nxt, passes=lit(0)),
                )
            )
            out.append(
                Case(
                    f"climb {c} to the throne",
                    all_of([guard, throne]),
                    attrs.evolve(
                        s, fl=fl_up, phase=lit(ELECT), mover=s.turn, voted=lit(0), passes=lit(0)
                    ),
                )
            )
        # Vote (B11): face down; after the last vote all Yes crowns (B12), any No
        # eliminates the candidate and costs each No voter one card (B13).
        vote = all_of([m.kind == K_VOTE, m.ch == 0, m.floor == 0, self.legal_vote(s, m.yes)])
        said = tuple(ite(s.turn == q, neg(m.yes), s.said_no[q]) for q in self.seats)
        last_vote = s.voted + 1 == n
        any_no = any_of(said)
        no_elim = tuple(ite(said[q], s.no[q] - 1, s.no[q]) for q in self.seats)
        out.append(
            Case(
                "vote",
                all_of([vote, neg(last_vote)]),
                attrs.evolve(s, turn=nxt, voted=s.voted + 1, said_no=said),
            )
        )
        # One case per candidate c (the character on the throne): the post-state
        # then differs from the pre-state in c only, which keeps the proofs' counting small.
        eliminations: list[tuple[int, Expr, tuple[Expr, ...]]] = []
        for c in self.chars:
            fl_elim = tuple(lit(GONE) if d == c else s.fl[d] for d in self.chars)
            nobody_left = all_of(s.fl[d] == GONE for d in self.chars if d != c)
            candidate = all_of([vote, last_vote, any_no, s.fl[c] == p.top])
            eliminations.append((c, all_of([candidate, nobody_left]), fl_elim))
            out.append(
                Case(
                    f"last vote, {c} eliminated",
                    all_of([candidate, neg(nobody_left)]),
                    attrs.evolve(
                        s,
                        fl=fl_elim,
                        no=no_elim,
                        phase=lit(MOVE),
                        turn=_next_seat(s.mover, n),
                        **quiet,
                    ),
                )
            )
        passing = all_of(
            [m.kind == K_PASS, m.ch == 0, m.floor == 0, neg(m.yes), self.legal_pass(s)]
        )
        out.append(
            Case(
                "pass",
                all_of([passing, neg(all_passed)]),
                attrs.evolve(s, passes=s.passes + 1, turn=nxt),
            )
        )
        # Round ends (B12; B13 with nobody left; every player passed), scored on
        # the castle as it stands (B14, B15); then the next round or the end.
        ends: list[tuple[str, Expr, Sequence[Expr], Sequence[Expr], bool]] = [
            ("crowned", all_of([vote, last_vote, neg(any_no)]), s.fl, s.no, True),
            *(
                (f"last vote, {c} eliminated, nobody left", guard, fl_elim, no_elim, False)
                for c, guard, fl_elim in eliminations
            ),
            ("everyone passed", all_of([passing, all_passed]), s.fl, s.no, False),
        ]
        final = s.rnd == p.rules.rounds
        memo: dict[tuple[int, int, int, int], Expr] = {}
        for label, guard, castle, no, crowned in ends:
            raw, score = self.round_score(s.rnd, s.obj, castle, memo)
            for last in (False, True):
                out.append(
                    Case(
                        f"{label}, {'game over' if last else 'next round'}",
                        all_of([guard, final if last else neg(final)]),
                        self.end_round(s, castle, no, score, m, last=last),
                        scored=True,
                        crowned=crowned,
                        raw=raw,
                        score=score,
                    )
                )
        return out

    def round_score(
        self,
        rnd: Expr,
        obj: Sequence[Sequence[Expr]],
        castle: Sequence[Expr],
        memo: dict[tuple[int, int, int, int], Expr] | None = None,
    ) -> tuple[tuple[Expr, ...], tuple[Expr, ...]]:
        """Each seat's floor points (B14) and round score with the bonus (B15).

        ``memo`` shares the terms of (seat, character, floor, floor term) between
        calls on castles that differ only in eliminated characters (the round-end
        cases).
        """
        rules = self.p.rules
        bonus_round = any_of(rnd == r for r in range(1, rules.rounds + 1) if rules.bonus_applies(r))
        memo = {} if memo is None else memo

        def points(q: int, c: int, f: int) -> Expr:
            # Linear in the indicator [favourite c stands on floor f]: the same sum as
            # "points of the floor of each favourite", in a form whose bounds are linear.
            key = (q, c, f, castle[c].get_id())
            if key not in memo:
                memo[key] = self.points(f) * ite(all_of([obj[q][c], castle[c] == f]), 1, 0)
            return memo[key]

        raw = tuple(
            total(
                points(q, c, f)
                for c in self.chars
                if not is_literal(castle[c])  # an eliminated character scores nothing
                for f in self.floors
                if self.points(f)
            )
            for q in self.seats
        )
        score = tuple(ite(all_of([bonus_round, r == 0]), rules.bonus_points, r) for r in raw)
        return raw, score

    def end_round(
        self,
        s: TState,
        castle: Sequence[Expr],
        no: Sequence[Expr],
        score: Sequence[Expr],
        m: TMove,
        *,
        last: bool,
    ) -> TState:
        """Score the round; then the next round (spec rule 11) or the end (B16)."""
        p = self.p
        totals = tuple(t + x for t, x in zip(s.total, score, strict=True))
        quiet = {"mover": lit(0), "voted": lit(0), "said_no": tuple(lit(False) for _ in self.seats)}
        if last:
            return attrs.evolve(
                s,
                fl=tuple(castle),
                no=tuple(no),
                total=totals,
                phase=lit(OVER),
                turn=lit(0),
                passes=lit(0),
                **quiet,
            )
        return attrs.evolve(
            s,
            rnd=s.rnd + 1,
            fl=tuple(lit(0) for _ in self.chars),
            no=tuple(ite(p.reset, p.full, x) for x in no),
            total=totals,
            phase=lit(PLACE),
            turn=self.first_player(s.rnd + 1),
            passes=lit(0),
            obj=m.nobj,
            **quiet,
        )

    def choose(self, cond: Expr, a: TState, b: TState) -> TState:
        """Field-wise ``If(cond, a, b)``."""
        values = [ite(cond, x, y) for (_n, x), (_m, y) in zip(a.fields(), b.fields(), strict=True)]
        return self.rebuild(values)

    def rebuild(self, values: Sequence[Expr]) -> TState:
        """A state from the flat list of :meth:`TState.fields` values."""
        n, chars = self.n, self.p.chars
        it = iter(values)
        rnd, phase, turn, mover, voted, passes = (next(it) for _ in range(6))
        fl = tuple(next(it) for _ in range(chars))
        no = tuple(next(it) for _ in range(n))
        said = tuple(next(it) for _ in range(n))
        tot = tuple(next(it) for _ in range(n))
        obj = tuple(tuple(next(it) for _ in range(chars)) for _ in range(n))
        return TState(rnd, phase, turn, fl, no, mover, voted, said, passes, tot, obj)

    # -------------------------------------------------------------- invariant
    def invariant(self, s: TState) -> list[tuple[str, Expr]]:
        """The inductive invariant, as named conjuncts (clause IDs in the names)."""
        p, n = self.p, self.n
        top, noble = p.top, p.noble
        rounds = p.rules.rounds
        placing = s.phase == PLACE
        playing = any_of([s.phase == MOVE, s.phase == ELECT])
        inv: list[tuple[str, Expr]] = [
            (
                "domain: round, phase, seat",
                all_of(
                    [
                        between(s.rnd, 1, rounds),
                        between(s.phase, PLACE, OVER),
                        between(s.turn, 0, n - 1),
                        between(s.mover, 0, n - 1),
                        between(s.voted, 0, n - 1),
                        between(s.passes, 0, n - 1),
                    ]
                ),
            ),
            ("domain: floors", all_of(between(f, GONE, top) for f in s.fl)),
            ("B11 No cards in 0..full", all_of(between(x, 0, p.full) for x in s.no)),
            ("B4 objectives", self.objectives_valid(s.obj)),
            ("B7 capacity", all_of(self.on(s, f) <= p.cap(f) for f in self.floors)),
            (
                "B6 placement phase",
                implies(
                    placing,
                    all_of(
                        [
                            *(
                                any_of([f == 0, *(f == g for g in p.rules.placement_floors)])
                                for f in s.fl
                            ),
                            self.placed(s) < p.placements,
                        ]
                    ),
                ),
            ),
            ("B8 all placed after placement", implies(playing, all_of(f != 0 for f in s.fl))),
            ("B10 throne empty while moving", implies(s.phase == MOVE, self.on(s, top) == 0)),
            (
                "B10 election: a candidate, room left on the nobles' floor",
                implies(
                    s.phase == ELECT,
                    all_of([self.on(s, top) == 1, self.on(s, noble) <= p.cap(noble) - 1]),
                ),
            ),
            (
                "B13 eliminations cost No cards",
                implies(any_of([placing, playing]), self.gone(s) <= self.used_no(s)),
            ),
            (
                "B11 a No voter still holds the card",
                all_of(
                    implies(s.said_no[q], all_of([s.phase == ELECT, s.no[q] >= 1]))
                    for q in self.seats
                ),
            ),
            (
                "quiet outside elections",
                implies(s.phase != ELECT, all_of([s.mover == 0, s.voted == 0])),
            ),
            (
                "passes only when allowed, while moving",
                implies(any_of([neg(p.allow_pass), s.phase != MOVE]), s.passes == 0),
            ),
        ]
        return inv

    def totals_invariant(self, s: TState, round_max: int) -> list[tuple[str, Expr]]:
        """Totals after ``k`` finished rounds lie in ``low(k)..round_max * k`` (B15, B16)."""
        rounds = self.p.rules.rounds
        return [
            (
                f"B16 total of seat {q}",
                ite(
                    s.phase == OVER,
                    all_of([s.rnd == rounds, t >= self.total_low(rounds), t <= round_max * rounds]),
                    all_of([t >= self.total_low(s.rnd - 1), t <= round_max * (s.rnd - 1)]),
                ),
            )
            for q, t in enumerate(s.total)
        ]

    def total_low(self, finished: Expr | int) -> Expr:
        """Least total after ``finished`` rounds: one point per finished bonus round (B15)."""
        rules = self.p.rules
        if isinstance(finished, int):
            return lit(sum(1 for r in range(1, finished + 1) if rules.bonus_applies(r)))
        out = lit(0)
        for k in range(rules.rounds, -1, -1):
            low = sum(1 for r in range(1, k + 1) if rules.bonus_applies(r))
            out = ite(finished == k, low, out)
        return out
