"""The Ascent model proved to be the kernel on Z3, move by move (issue 47).

The Ascent proofs and the casebook's bounded model checking run the encoding of
:mod:`castlerules.symbolic.ascent_model`; this module asks Z3 that, on every
position its invariant allows, each of its guarded commands is the kernel run on
Z3 terms (:mod:`castlerules.symbolic.ascent`, the kernel's own functions).  For one
game (``rules``, ``players``), with ``s`` a position of the full model,
``kstate(s)`` the kernel's position of the same terms
(:meth:`~castlerules.symbolic.ascent_model.AscentModel.kstate`):

- **Each command** (:func:`command_query`): for every case of
  :data:`~castlerules.symbolic.ascent_model.CASES` and every card (the move number
  is the card's, a plain number, so that the kernel folds), "the invariant holds in
  ``s``, the model's guard of the case holds with its exact turn passing, and the
  kernel refuses the move number, or takes another of its cases, or gives another
  successor on some field" is unsatisfiable.  Who may advance after the move (the
  only whole-board quantity the turn passing reads) is one free Boolean per seat,
  the same for the model's :meth:`~castlerules.symbolic.ascent_model.AscentModel.has_advance`
  and the kernel's :attr:`~castlerules.ascent.kernel.Board.advances` of the board
  after the move: the query holds for every value of it, hence for the true one
  once the two agree on that board.
- **Who may advance** (:func:`advance_queries`): under ``stack_rank="top"`` the
  model reads :func:`~castlerules.symbolic.ascent_model.seat_advances`, not the
  kernel's ``Board.advances``; it is proved the kernel's on every position the
  invariant allows, card by card: a card the kernel may advance makes its seat
  one of the model's (one query per card), and a card the model counts makes its
  seat one of the kernel's (per card of the board, one query: if it is the deepest
  of the counted card's stack, the kernel may advance it; then one that the stack
  has a deepest card, and one that the two give the seat); the card-by-card queries
  are asked under the conjuncts of the invariant on the shape of the stacks
  (:data:`STACKS`), which proves them under the whole.  Under ``"highest"`` the
  model reads ``Board.advances`` itself.  The board after a move satisfies the
  invariant (``ascent.invariant``, proved by induction), so the lemma applies there.
- **The converse** (:func:`converse_query`): where the kernel accepts a move, the
  model's move whose selections are built as terms of the position meets the guard
  of one of its commands, under a premise the invariant lacks (the stack just moved
  holds its ``sm`` cards), which every command keeps (:func:`premise_queries`); and
  the first positions are the kernel's.

The games are :data:`GAMES`.  The queries run through Z3's preprocessing
(:data:`TACTIC`).  The proof run runs the jobs ``turn``, ``advance`` and
``advances`` (:data:`PARTS`, ``proofs.ASCENT_EQUAL``); the others run with
``python -m proofs.ascent_equal [JOB ...]``.  What is proved, how
long each query takes, and what is not proved are on the proofs page ("The Ascent
model proved to be the kernel").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs
import z3

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.symbolic.ascent import AscentSystem, fields
from castlerules.symbolic.ascent_model import (
    ADVANCE,
    CASES,
    END,
    FAVOUR,
    NONE,
    AscentModel,
    AState,
    Card,
    Case,
    Move,
    Params,
    all_of,
    as_z3,
    decode_move,
    seat_movers,
)
from castlerules.symbolic.z3ops import Z3
from proofs.core import Result

GAME = "ascent"

TACTIC = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt")
"""Z3's tactics each query runs through: the model's selections are pinned to
cards by equalities, which ``solve-eqs`` substitutes before the search."""

SMT = {"arith.solver": 2}
"""The parameters of the last tactic, ``smt``: Z3's older arithmetic solver, which
takes these queries in about half the time of the default one."""

TIMEOUT_MS = 30_000
"""The most one query may take (an *unknown* fails the run)."""

STACKS = (
    "one card per place of a stack",
    "a stack is wholly flipped or not",
    "cards of a stack share its top",
    "a card on the path is in a stack with a top",
)
"""The conjuncts of the model's invariant (by name) that the card-by-card queries of
the lemma "who may advance" (:meth:`Equal.advances`) are asked under: what they read
of the shape of the stacks.  A claim proved under some conjuncts of the invariant holds
under all of them; the rest of the invariant only slows Z3 down there."""

_KINDS = {ADVANCE: "advance", FAVOUR: "favour", END: "end of the turn"}


@attrs.frozen(slots=True)
class Verdict:
    """One query: its name, Z3's answer (``unsat``: the claim is proved) and its time."""

    name: str
    answer: str
    seconds: float

    @property
    def proved(self) -> bool:
        return self.answer == "unsat"


def _term(value: Any) -> Any:
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


KernelMove = tuple[Any, kernel.Parts, kernel.Successors, tuple[Any, ...], list[Any]]
"""The kernel's move of one kind on one card (:meth:`Equal.kernel_move`): its legality,
its parts, its boards after it, who may advance after it (free) and its sub-cases."""


class Equal:
    """The model and the kernel of one game on one symbolic position."""

    def __init__(self, rules: ascent.Rules, players: int, mutation: str = "") -> None:
        """``mutation``: one of the model's sensitivity mutations
        (:data:`~castlerules.symbolic.ascent_model.MUTATIONS`), to show a query fails."""
        self.rules, self.players = rules, players
        self.model = AscentModel(Params(rules, players, mutation=mutation))
        self.system = AscentSystem(rules, players)
        self.s = self.model.fresh_state("s")
        self.ks = self.model.kstate(self.s)
        self.named_invariant = [(name, as_z3(e)) for name, e in self.model.invariant(self.s)]
        self.invariant = [e for _name, e in self.named_invariant]
        self.position = self.system.position(self.ks)
        self._moves: dict[tuple[int, int], KernelMove] = {}

    def kernel_move(self, kind: int, card: int) -> KernelMove:
        """The kernel's move of ``kind`` on ``card``: its legality, its parts, its boards
        after it with who may advance on the board after it free (:meth:`shared`), those
        free Booleans, and its sub-cases; built once for all the commands of the kind and
        for its converse (their claims are asked for every value of the free Booleans, so
        one set of them serves every query: a conjunction holds for every value exactly
        when each conjunct does)."""
        key = (kind, card)
        hit = self._moves.get(key)
        if hit is None:
            case = next(c for c in CASES if c.kind == kind)
            parts = kernel.decode(self.position, self.number(case, card))
            legal = kernel.legal(Z3, kernel.guards(self.position, parts))
            shared, advances = self.shared(parts, f"{kind}_{card}")
            found = kernel.sub_cases(self.position, parts, _KINDS[kind], shared)
            hit = self._moves[key] = (legal, parts, shared, advances, found)
        return hit

    def number(self, case: Case, card: int) -> int:
        """The kernel's move number of the model's move of ``case`` on ``card``."""
        return self.system.number(decode_move(case.kind, card))

    def command(self, case: Case, card: int, m: Move | None = None) -> tuple[list[Any], Any]:
        """The hypotheses and the claim of :func:`command_query` (``m``: the model's move,
        fresh when not given)."""
        model = self.model
        tag = f"{case.kind}_{int(case.removed)}{int(case.pending)}{int(case.cont)}_{card}"
        if m is None:
            m = model.fresh_move(f"m{tag}")
        # Who may advance after the move: free, the same for both.
        legal, _parts, _shared, advances, found = self.kernel_move(case.kind, card)
        # The kernel's case of this command: the first of its kind's two (a favour
        # offered, play going on), or the second; EndTurn has one.
        goes_on = case.kind == END or (case.pending if case.kind == ADVANCE else case.cont)
        mine = found[0] if goes_on else found[1]
        post = model.post(case, self.s, m)
        model.assume_advances(post, advances)
        hypotheses = [
            *self.invariant,
            as_z3(model.guard(case, self.s, m)),
            as_z3(model.exact_turn(self.s, m, post)),
        ]
        if case.kind != END:
            hypotheses.append(m.x.idx == card)
        outcome = mine.make()
        same = [
            _term(x) == _term(y)
            for (_name, x), (_n, y) in zip(
                fields(model.kstate(post)), fields(outcome.post), strict=True
            )
        ]
        claim = z3.And(_term(legal), _term(mine.when), *same)
        return hypotheses, claim

    def shared(self, parts: kernel.Parts, tag: str) -> tuple[kernel.Successors, tuple[Any, ...]]:
        """The kernel's boards after move ``parts``, with who may advance on the board
        after it free: one Boolean per seat, returned with them."""
        system, p = self.system, self.position
        advances = tuple(z3.Bool(f"advances_{tag}_{q}") for q in range(self.players))
        moved = kernel.successors(p, parts)
        terms = (*moved.after.terms()[:-1], advances)
        after = kernel.Board.restored(Z3, system.shape, system.options, moved.after.s, terms)
        turn_over = kernel.end_turn(Z3, system.shape, system.options, after, self.ks.actor)
        return kernel.Successors(moved.moved, moved.taken, after, turn_over), advances

    def by_number(self, idx: Any, default: int = 0) -> Card:
        """The card of ``s`` numbered ``idx`` (a term: each field an if-then-else over
        the cards; card ``default``'s fields where ``idx`` names none)."""
        cards = self.s.cards
        values: dict[str, Any] = {}
        for f in attrs.fields(Card):
            chain = _term(getattr(cards[default], f.name))
            for c in reversed(range(len(cards))):
                chain = z3.If(idx == c, _term(getattr(cards[c], f.name)), chain)
            values[f.name] = chain
        values["idx"] = idx
        return Card(**values)

    def first_card(self, where: Any, otherwise: int = NONE) -> Any:
        """The number of the first card of ``s`` for which ``where(card)`` holds, else
        ``otherwise``."""
        chain: Any = z3.IntVal(otherwise)
        for c in reversed(range(len(self.s.cards))):
            chain = z3.If(_term(where(self.s.cards[c])), z3.IntVal(c), chain)
        return chain

    def converse(self, kind: int, card: int, with_post: bool = False) -> tuple[list[Any], Any]:
        """The hypotheses and the claim of :func:`converse_query` (``with_post``: the
        claim says the successor is the kernel's too, which the commands' queries prove
        already of every move the model's guard admits)."""
        model, p, s = self.model, self.position, self.s
        t = s.turn
        legal, parts, shared, advances, found = self.kernel_move(kind, card)
        x = s.cards[card] if kind != END else self.by_number(z3.IntVal(0))
        d = _term(Z3.select(p.board.dest, parts.k))
        ttop = self.first_card(lambda u: z3.And(_term(u.col == t.actor), u.sq == d, u.dep == 0))
        bottom = self.first_card(
            lambda u: z3.And(_term(u.col == t.actor), u.sq == t.sd, u.dep == t.sm - 1)
        )
        tb = self.by_number(bottom)
        m = Move(
            kind=z3.IntVal(kind),
            x=x,
            lead=self.by_number(x.top),
            bx=self.by_number(x.below),
            ttop=self.by_number(ttop),
            tb=tb,
            tt=self.by_number(tb.top),
            qt=self.by_number(x.top),
            d=d,
            cont=_term(found[0].when) if kind == FAVOUR else z3.BoolVal(False),
            nxt=_term(shared.turn_over.post.actor),
        )
        options = []
        for case in CASES:
            if case.kind != kind:
                continue
            post = model.post(case, s, m)
            model.assume_advances(post, advances)
            same = [
                _term(a) == _term(b)
                for (_n, a), (_m, b) in zip(
                    fields(model.kstate(post)),
                    fields(kernel.step(p, parts, shared).post),
                    strict=True,
                )
            ]
            options.append(
                z3.And(
                    _term(model.guard(case, s, m)),
                    _term(model.exact_turn(s, m, post)),
                    *(same if with_post else []),
                )
            )
        # The premise the invariant lacks: the stack just moved holds its ``sm`` cards
        # (the model's Favour names its bottom moved card; the kernel reads the top ``sm``
        # cards of the mover's stack on the step's square).
        held = z3.Implies(_term(t.mid), bottom != NONE)
        return [*self.invariant, _term(legal), held], z3.Or(*options)

    def held(self, state: AState) -> Any:
        """The premise of the converse in ``state``: mid-turn, the mover's stack on the
        step's square holds the ``sm`` cards just moved (a card of it at depth
        ``sm - 1``)."""
        t = state.turn
        bottom = [
            _term(all_of([u.col == t.actor, u.sq == t.sd, u.dep == t.sm - 1])) for u in state.cards
        ]
        return z3.Implies(_term(t.mid), z3.Or(*bottom))

    def kept(self, case: Case) -> tuple[list[Any], Any]:
        """The hypotheses and claim of :func:`premise_queries` for ``case``: the model's
        command keeps the premise (for every move, the model's card a free term)."""
        model = self.model
        tag = f"p{case.kind}_{int(case.removed)}{int(case.pending)}{int(case.cont)}"
        m = model.fresh_move(tag)
        post = model.post(case, self.s, m)
        model.assume_advances(post, tuple(z3.Bool(f"{tag}_{q}") for q in range(self.players)))
        hypotheses = [
            *self.invariant,
            self.held(self.s),
            _term(model.guard(case, self.s, m)),
            _term(model.exact_turn(self.s, m, post)),
        ]
        return hypotheses, self.held(post)

    def start(self) -> tuple[list[Any], Any]:
        """The hypotheses and claim of the first positions' query: the model's first
        positions are the kernel's (:func:`~castlerules.ascent.kernel.initial`, the die
        showing any seat), with no auxiliary out of place."""
        s, model = self.s, self.model
        roll = s.turn.actor
        first = kernel.initial(Z3, self.system.shape, self.system.options, roll)
        places = [
            z3.And(u.below == NONE, _term(u.top == u.idx), _term(u.rv == u.val)) for u in s.cards
        ]
        kernels = z3.And(
            self.system.equal(self.ks, first), roll >= 0, roll <= self.players - 1, *places
        )
        return [], _term(model.init(s)) == kernels

    def advances(self) -> list[tuple[str, list[Any], Any]]:
        """The queries of :func:`advance_queries`: name, hypotheses (the invariant, or
        for the card-by-card queries its conjuncts :data:`STACKS`) and claim."""
        if self.rules.stack_rank != "top":
            return []
        model, ks, n = self.model, self.ks, self.players
        board = kernel.Board(Z3, self.system.shape, self.system.options, ks)
        movers = seat_movers(model.fold, model.shape, model.kernel_options, ks)
        seats = [_term(model.fold.any(row)) for row in movers]
        slots = self.system.shape.slots
        stacks = self.invariant_of(STACKS)
        out: list[tuple[str, list[Any], Any]] = []
        for j in slots:
            claim = z3.Implies(
                _term(board.can_advance[j]),
                z3.And(*(z3.Implies(ks.col[j] == q, seats[q]) for q in range(n))),
            )
            name = f"the kernel's Advance of card {j}: a seat of the model's"
            out.append((name, stacks, claim))
        for j in slots:
            counted = z3.Or(*(_term(movers[q][j]) for q in range(n)))
            deepest = [self._deepest(j, b) for b in slots]
            # The deepest card of the counted card's stack moves the whole stack: the
            # kernel may advance it.
            moves = [
                z3.Implies(z3.And(counted, deepest[b]), _term(board.can_advance[b])) for b in slots
            ]
            for b in slots:
                name = f"card {j} counted, card {b} the deepest of its stack: it may advance"
                out.append((name, stacks, moves[b]))
            whole = z3.And(*moves)
            cover = z3.Implies(counted, z3.Or(*deepest))
            out.append((f"card {j} counted: its stack has a deepest card", self.invariant, cover))
            claim = z3.And(
                *(z3.Implies(_term(movers[q][j]), _term(board.advances[q])) for q in range(n))
            )
            name = f"card {j} counted: a seat of the kernel's"
            out.append((name, [*self.invariant, whole, cover], claim))
        return out

    def invariant_of(self, names: Sequence[str]) -> list[Any]:
        """The conjuncts of the invariant of ``s`` named one of ``names`` (each name must
        name some)."""
        chosen = [e for name, e in self.named_invariant if name in names]
        missing = set(names) - {name for name, _e in self.named_invariant}
        if missing:
            raise ValueError(f"no conjunct of the invariant is named {sorted(missing)}")
        return chosen

    def _deepest(self, j: int, b: int) -> Any:
        """Card ``b`` is the deepest of card ``j``'s stack (``j`` itself on a Start)."""
        u, cards = self.ks, self.system.shape.slots
        col, sq, dep = u.col, u.sq, u.dep
        depth = dep[j]
        for w in cards:
            if w != j:
                here = z3.And(sq[j] >= 1, col[w] == col[j], sq[w] == sq[j], dep[w] > depth)
                depth = z3.If(here, dep[w], depth)
        if b == j:
            return dep[b] == depth
        return z3.And(sq[j] >= 1, col[b] == col[j], sq[b] == sq[j], dep[b] == depth)


def check(
    name: str, hypotheses: Sequence[Any], claim: Any, timeout_ms: int = TIMEOUT_MS
) -> Verdict:
    """Ask Z3 that ``hypotheses`` imply ``claim`` (through :data:`TACTIC`)."""
    solver = z3.Then(*TACTIC[:-1], z3.With(TACTIC[-1], **SMT)).solver()
    solver.set("timeout", timeout_ms)
    solver.add(*hypotheses, z3.Not(claim))
    started = time.perf_counter()
    answer = solver.check()
    return Verdict(name, str(answer), time.perf_counter() - started)


def command_query(eq: Equal, case: Case, card: int, timeout_ms: int = TIMEOUT_MS) -> Verdict:
    """The model's ``case`` on ``card`` is the kernel's move (see the module's text)."""
    hypotheses, claim = eq.command(case, card)
    return check(f"{case.label}, card {card}", hypotheses, claim, timeout_ms)


def cards_of(eq: Equal, case: Case) -> range:
    """The cards a command of ``case`` may name (none for EndTurn: one query)."""
    return range(1) if case.kind == END else range(eq.model.N)


def command_queries(eq: Equal, timeout_ms: int = TIMEOUT_MS) -> list[Verdict]:
    """Every command on every card."""
    return [
        command_query(eq, case, card, timeout_ms) for case in CASES for card in cards_of(eq, case)
    ]


def advance_queries(eq: Equal, timeout_ms: int = TIMEOUT_MS) -> list[Verdict]:
    """The lemma "who may advance" (see the module's text)."""
    return [check(name, h, claim, timeout_ms) for name, h, claim in eq.advances()]


def kind_query(eq: Equal, kind: int, card: int, timeout_ms: int = TIMEOUT_MS) -> Verdict:
    """Every command of one kind of move on ``card``, in one query: each command's
    guard implies its claim (the commands of a kind share the move's selections)."""
    m = eq.model.fresh_move(f"k{kind}_{card}")
    claims = []
    for case in CASES:
        if case.kind == kind:
            hypotheses, claim = eq.command(case, card, m)
            claims.append(z3.Implies(z3.And(*hypotheses[len(eq.invariant) :]), claim))
    return check(f"{_KINDS[kind]}, card {card}", eq.invariant, z3.And(*claims), timeout_ms)


# ------------------------------------------------------------------ the proof run
GAMES: tuple[tuple[str, dict[str, object], int], ...] = (
    ("reference", {}, 2),
    ("allow_exposing_split", {"allow_exposing_split": True}, 2),
)
"""The games proved: those of the proofs' bounded model checking (``proofs/ascent.py``:
two players, the reference rules, and ``allow_exposing_split=True`` for one
sensitivity check; its other two run deliberately wrong models)."""

_ALL = ("A2", "A3", "A4", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13", "A14")
CLAUSES: dict[str, tuple[str, ...]] = {
    "turn": ("A3", "A10", "A12", "A14", "A18"),
    "advance": ("A2", "A3", "A4", "A6", "A7", "A8", "A9", "A10", "A12", "A14"),
    "favour": ("A8", "A10", "A11", "A12", "A13", "A14"),
    "advances": ("A3", "A6", "A7", "A9", "A14"),
    "converse": _ALL,
}
"""The clauses each job's queries read (the rules of the moves they compare)."""

PARTS = ("turn", "advance", "favour", "advances", "converse")
"""The jobs: EndTurn both ways with the first positions and the converse's premise
(``turn``), the Advance's commands, the Favour's commands, the lemma "who may
advance", the converse of the Advance and the Favour."""


def part_queries(eq: Equal, part: str, timeout_ms: int = TIMEOUT_MS) -> list[Verdict]:
    """The queries of one job (:data:`PARTS`): one per card for each kind of move (its
    commands asked together, :func:`kind_query`), the converse per card, or the lemma."""
    cards = range(eq.model.N)
    if part == "turn":
        end_turn = next(case for case in CASES if case.kind == END)
        return [
            command_query(eq, end_turn, 0, timeout_ms),
            converse_query(eq, END, 0, timeout_ms),
            *premise_queries(eq, timeout_ms),
        ]
    if part == "advances":
        return advance_queries(eq, timeout_ms)
    if part in ("advance", "favour"):
        kind = ADVANCE if part == "advance" else FAVOUR
        return [kind_query(eq, kind, card, timeout_ms) for card in cards]
    if part == "converse":
        return [
            converse_query(eq, kind, card, timeout_ms)
            for kind in (ADVANCE, FAVOUR)
            for card in cards
        ]
    raise ValueError(f"unknown part {part!r}: one of {PARTS}")


_TITLES = {
    "turn": "the model's EndTurn and first positions are the kernel's, both ways",
    "advance": "the model's Advance is the kernel's",
    "favour": "the model's Favour is the kernel's",
    "advances": "the model's 'who may advance' is the kernel's",
    "converse": "every Advance and Favour the kernel accepts is one of the model's",
}


def results(part: str, fast: bool = False, game: str | None = None) -> list[Result]:
    """``ascent.equal.<part>`` for every game of :data:`GAMES` (``fast``: the first, the
    reference rules, only; ``game``: the one of that label only)."""
    out = []
    chosen = GAMES[:1] if fast else GAMES
    if game is not None:
        chosen = tuple(g for g in GAMES if g[0] == game)
        if not chosen:
            raise ValueError(f"unknown game {game!r}: one of {[g[0] for g in GAMES]}")
    for label, options, players in chosen:
        started = time.perf_counter()
        eq = Equal(ascent.Rules(**options), players)
        verdicts = part_queries(eq, part)
        failed = [v for v in verdicts if not v.proved]
        slowest = max(verdicts, key=lambda v: v.seconds)
        detail = (
            f"{len(verdicts)} queries, each unsatisfiable (slowest {slowest.seconds:.1f} s: "
            f"{slowest.name})"
            if not failed
            else "not proved: " + "; ".join(f"{v.name} ({v.answer})" for v in failed)
        )
        out.append(
            Result(
                name=f"ascent.equal.{part}",
                game=GAME,
                title=_TITLES[part],
                clauses=CLAUSES[part],
                method="equality with the kernel (Z3)",
                depth=None,
                holds=not failed,
                seconds=time.perf_counter() - started,
                queries=len(verdicts),
                scope=f"{players} players, {label} rules, every position the invariant allows",
                detail=detail,
            )
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m proofs.ascent_equal [JOB ...]``: every query of the jobs named (all
    of :data:`PARTS` by default) with its answer and time; exit status 1 if one is not
    proved, 2 for an unknown job."""
    import sys

    chosen = list(sys.argv[1:] if argv is None else argv) or list(PARTS)
    unknown = [part for part in chosen if part not in PARTS]
    if unknown:
        print(f"unknown job {unknown[0]!r}: the jobs are {', '.join(PARTS)}", file=sys.stderr)
        return 2
    failed = 0
    for label, options, players in GAMES:
        eq = Equal(ascent.Rules(**options), players)
        for part in chosen:
            total = 0.0
            for v in part_queries(eq, part):
                total += v.seconds
                failed += not v.proved
                print(f"{label} {players}p | {part} | {v.name} | {v.answer} | {v.seconds:.2f} s")
            print(f"{label} {players}p | {part} | total | {total:.1f} s", flush=True)
    return 1 if failed else 0


def converse_query(eq: Equal, kind: int, card: int, timeout_ms: int = TIMEOUT_MS) -> Verdict:
    """The kernel's move of ``kind`` on ``card`` is one of the model's: where the kernel
    accepts it, the model's move whose selections are the cards its rules name (the
    part's leader, the card under the part, the top of the destination...) meets the
    guard of one of the kind's commands and its exact turn passing (the commands'
    queries then say its successor is the kernel's).  Premise: the stack just moved
    holds its ``sm`` cards (:meth:`Equal.held`, kept by the model:
    :func:`premise_queries`)."""
    hypotheses, claim = eq.converse(kind, card)
    return check(f"kernel's {_KINDS[kind]}, card {card}", hypotheses, claim, timeout_ms)


def premise_queries(eq: Equal, timeout_ms: int = TIMEOUT_MS) -> list[Verdict]:
    """The converse's premise holds in every position the model reaches: no step is
    open in a first position, and each command keeps it (one query per command)."""
    out = []
    for case in CASES:
        hypotheses, claim = eq.kept(case)
        out.append(check(f"{case.label} keeps the moved stack", hypotheses, claim, timeout_ms))
    hypotheses, claim = eq.start()
    out.append(check("the first positions are the kernel's", hypotheses, claim, timeout_ms))
    return out


if __name__ == "__main__":
    raise SystemExit(main())
