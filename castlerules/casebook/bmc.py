"""The shortest witness of a case, proved shortest by bounded model checking (Z3).

A step or refusal case may declare, beside its Python condition, a *symbolic*
one (``bmc=lambda z: ...``) over the Z3 transition system of its game: for
Throne the rule kernel run on Z3 terms (:mod:`castlerules.symbolic.throne`), for
Ascent its symbolic model (:mod:`castlerules.symbolic.ascent_model`).  ``z`` is a
:class:`ThroneStep` or :class:`AscentStep`, the symbolic position before the
move (``z.pre``), the move (``z.move``) and the position after it
(``z.post``), with a few words to state conditions in (``z.climb``,
``z.crowned``, ``z.moved_card`` ...).  A step case's symbolic condition is
about the last move; a refusal case's about the position where the move is
tried (``z.pre``; there is no move).

:func:`find` unrolls the system from the case's concrete first position
(``new_game(players, rules, seed)``), depth 0, 1, 2 ... up to an upper bound
(the length of a game the generic search found), and asks Z3 at each depth
whether the condition can hold there.  The first depth where it can is the
shortest game there is: every shallower depth was refuted.  The witness is
decoded as engine moves, replayed from ``new_game`` through the public API,
and the case's own Python condition must hold on it, at its last move and at
no earlier one; the two conditions must also agree at every step of the
generic search's game and of a few seeded random games.  A disagreement is an
error of the declaration (:class:`~castlerules.casebook.declare.SearchError`).

Throne's unrolling is strengthened by facts proved here, before the search, over
the same system: its inductive invariant
(:mod:`castlerules.symbolic.throne_invariant`, proved by
:func:`~castlerules.symbolic.throne_invariant.prove`) and "after ``k`` plies from
a new game, ``k`` characters are placed" (one step of the kernel from a placement
position before the last placement places one more character).  A proved fact
only removes states that cannot be reached, so the refutations stay proofs;
without them Z3 is several times slower.

This module imports Z3 only when a search runs: the casebook, its replay and
its pages need neither Z3 nor the symbolic systems.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.casebook.declare import Case, Refusal, SearchError
from castlerules.casebook.play import Hit, outcome, run, start, tries

__all__ = ["AscentStep", "Witness", "find", "holds_on", "model_sources", "require"]

TIMEOUT_MS = 300_000
"""A BMC query that takes longer gives up: the case then keeps the generic search's game."""

AGREEMENT_GAMES = 3
"""Seeded random games on which the symbolic and Python conditions must agree, step by step."""

AGREEMENT_PLIES = 60
"""How many moves of each of those games are compared."""

MODEL_FILES = {
    "throne": (
        "castlerules/core/ops.py",
        "castlerules/symbolic/z3ops.py",
        "castlerules/symbolic/smt.py",
        "castlerules/symbolic/throne.py",
        "castlerules/symbolic/throne_invariant.py",
        "castlerules/throne/kernel.py",
    ),
    "ascent": (
        "castlerules/core/ops.py",
        "castlerules/core/lanes.py",
        "castlerules/symbolic/smt.py",
        "castlerules/symbolic/ascent_model.py",
        "castlerules/ascent/kernel.py",
    ),
}
"""The sources a BMC proof of each game depends on (part of a BMC case's cache key)."""


class BmcError(RuntimeError):
    """BMC could not run or decide (missing extra, a query gave up): not a wrong case."""


def require() -> None:
    """Raise :class:`BmcError` with a one-line hint when Z3 is not installed."""
    try:
        import z3  # noqa: F401
    except ImportError as err:
        raise BmcError(
            "the casebook's BMC search needs Z3: pip install 'castlerules[casebook]'"
        ) from err


def model_sources(game: str) -> str:
    """The code of the model files a game's BMC proofs use (hashed into the cache key;
    their docstrings and comments are not: :func:`.store.code_text`)."""
    from pathlib import Path

    from castlerules.casebook.store import file_code

    root = Path(__file__).resolve().parents[2]
    parts = []
    for name in MODEL_FILES[game]:
        path = root / name
        parts.append(file_code(path) if path.is_file() else f"<no {name}>")
    return "\n".join(parts)


@attrs.frozen(slots=True)
class Witness:
    """The shortest game BMC found: its moves, the move tried (refusals), the depth."""

    hit: Hit
    depth: int
    """Moves before the case's focus: every shallower depth was refuted."""
    seconds: float
    queries: int
    scope: str
    """What the proof covers, in words."""


# --------------------------------------------------------------------------- Throne


class ThroneStep:
    """The words of a Throne symbolic condition: ``pre``, ``move``, ``post`` and helpers.

    ``pre`` and ``post`` are the kernel's positions
    (:class:`~castlerules.throne.kernel.KState`); ``move`` is the kernel's reading of
    the move number (:class:`~castlerules.throne.kernel.Parts`: ``kind``,
    ``character``, ``floor``), ``None`` for a refusal."""

    def __init__(self, system: Any, pre: Any, move: Any, post: Any) -> None:
        from castlerules.symbolic import Z3
        from castlerules.throne import kernel
        from castlerules.throne.state import ELECTION, ELIMINATED, MOVEMENT, OVER, PLACEMENT

        self.system, self.pre, self.post = system, pre, post
        self.o = Z3
        self.n = system.n
        self.rules = system.rules
        self.PLACE, self.MOVE, self.ELECT, self.OVER, self.GONE = (
            PLACEMENT,
            MOVEMENT,
            ELECTION,
            OVER,
            ELIMINATED,
        )
        self._kinds = (kernel.K_PLACE, kernel.K_CLIMB, kernel.K_YES, kernel.K_NO, kernel.K_PASS)
        self.move: Any = None if move is None else system.parts(pre, move.a)

    def all(self, *items: Any) -> Any:
        return self.o.all(list(items))

    def any(self, items: Any) -> Any:
        return self.o.any(list(items))

    def _kind(self, *kinds: int) -> Any:
        return self.any(self.move.kind == k for k in kinds)

    @property
    def place(self) -> Any:
        return self._kind(self._kinds[0])

    @property
    def climb(self) -> Any:
        return self._kind(self._kinds[1])

    @property
    def vote(self) -> Any:
        return self._kind(self._kinds[2], self._kinds[3])

    @property
    def passed(self) -> Any:
        return self._kind(self._kinds[4])

    def moved(self, state: Any) -> Any:
        """The floor, in ``state``, of the character the move names."""
        return self.o.select(state.fl, self.move.character)

    def on(self, state: Any, floor: Any) -> Any:
        """How many characters stand on ``floor`` (a number or a term)."""
        return self.o.count(f == floor for f in state.fl)

    def full(self, state: Any, floor: int) -> Any:
        return self.on(state, floor) == self.rules.capacity(floor)

    @property
    def mine(self) -> Any:
        """The moved character is a favourite of the seat that moves it."""
        rows = [self.o.select(row, self.move.character) for row in self.pre.obj]
        return self.any(self.all(self.pre.turn == s, rows[s]) for s in range(self.n))

    @property
    def crowned(self) -> Any:
        """The last vote of an election, every vote Yes: a king (B12)."""
        return self.all(
            self._kind(self._kinds[2]),
            self.pre.phase == self.ELECT,
            self.o.count(v != -1 for v in self.pre.votes) == self.n - 1,
            *(v != 0 for v in self.pre.votes),
        )


@functools.lru_cache(maxsize=16)
def throne_lemmas(rules: throne.Rules, players: int) -> int:
    """Prove, over the system, the facts the unrolling is strengthened with; the queries.

    Raises :class:`BmcError` if one is not proved.  (A pure function of the rules and
    the players: proved once per configuration in a search run.)
    """
    import z3

    from castlerules.symbolic.throne_invariant import prove
    from castlerules.throne.state import MOVEMENT, PLACEMENT

    system = throne_system(rules, players)
    failed = prove(system)
    if failed:
        raise BmcError(f"the invariant BMC relies on is not proved: {', '.join(failed[:3])}")
    pre, move = system.fresh_state("l"), system.fresh_move("lm")
    post = system.step(pre, move)
    total = system.shape.placements
    done = placed_count(pre) + 1
    claim = z3.And(
        z3.Implies(done < total, z3.And(post.phase == PLACEMENT, placed_count(post) == done)),
        z3.Implies(done == total, post.phase == MOVEMENT),
    )
    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    solver.add(pre.phase == PLACEMENT, done <= total, system.legal(pre, move), z3.Not(claim))
    if solver.check() != z3.unsat:
        raise BmcError("the fact BMC relies on is not proved: one placement a ply")
    return len(system.cases(system.fresh_state("p"), system.fresh_move("m"))) + 3


def placed_count(state: Any) -> Any:
    """The number of characters placed in a Throne position of Z3 terms (B6)."""
    from castlerules.symbolic import Z3

    return Z3.count(f != 0 for f in state.fl)


def _throne(case: Case, players: int, seed: int, bound: int, cond: Callable[..., Any]) -> Witness:
    import z3

    from castlerules.symbolic.throne_invariant import Claims
    from castlerules.throne import kernel
    from castlerules.throne.state import MOVEMENT, PLACEMENT

    tick = time.perf_counter()
    rules = case.rules()
    first = throne.new_game(players, rules, seed=seed)
    system = throne_system(rules, players)
    claims = Claims(system)
    queries = throne_lemmas(rules, players)
    letters = rules.letters()
    deals = [
        tuple(tuple(ch in deal[s] for ch in letters) for s in range(players))
        for deal in (throne.objectives_of_round(first, r) for r in range(1, rules.rounds + 1))
    ]

    def next_deal(rnd: Any) -> Any:
        # A round's end deals the next round's objectives: the engine's, from the seed.
        from castlerules.symbolic import Z3

        out: Any = deals[-1]
        for r in range(rules.rounds - 1, 0, -1):
            out = tuple(
                tuple(Z3.ite(rnd == r, a, b) for a, b in zip(ra, rb, strict=True))
                for ra, rb in zip(deals[r], out, strict=True)
            )
        return tuple(tuple(z3.BoolVal(x) if isinstance(x, bool) else x for x in row) for row in out)

    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    states = [system.plain(kernel.from_state(first))]
    moves: list[Any] = []
    placements = rules.placements_for(players)
    for k in range(bound + 1):
        if k > 0:
            pre = states[-1]
            move = attrs.evolve(system.fresh_move(f"b{k}"), nobj=next_deal(pre.rnd))
            nxt = system.fresh_state(f"s{k}")
            facts = [system.legal_move(pre, move), system.equal(nxt, system.step(pre, move))]
            facts += [c for _n, c in claims.invariant(nxt)]
            if k < placements:
                facts.append(z3.And(nxt.phase == PLACEMENT, placed_count(nxt) == k))
            elif k == placements:
                facts.append(nxt.phase == MOVEMENT)
            solver.add(*facts)
            states.append(nxt)
            moves.append(move)
        if case.kind == "step":
            if k == 0:
                continue
            target = cond(ThroneStep(system, states[-2], moves[-1], states[-1]))
        else:
            target = cond(ThroneStep(system, states[-1], None, None))
        solver.push()
        solver.add(_z3_bool(target))
        queries += 1
        answer = solver.check()
        if answer == z3.sat:
            model = solver.model()
            found = [str(system.decode(model, m)) for m in moves]
            return checked_witness(
                case, players, seed, found, k, tick, queries, _scope(case, players, seed)
            )
        if answer != z3.unsat:
            raise BmcError(f"Z3 gave up at depth {k} ({solver.reason_unknown()})")
        solver.pop()
    raise _Disagree(bound)


def _z3_bool(value: Any) -> Any:
    import z3

    return z3.BoolVal(value) if isinstance(value, bool) else value


# --------------------------------------------------------------------------- Ascent


class AscentStep:
    """The words of an Ascent symbolic condition: ``pre``, ``move``, ``post`` and helpers."""

    def __init__(self, model: Any, pre: Any, move: Any, post: Any) -> None:
        from castlerules.symbolic import ascent_model

        self.model, self.pre, self.move, self.post = model, pre, move, post
        self.am = ascent_model
        self.k = model.p.k

    def all(self, *items: Any) -> Any:
        return self.am.all_of(list(items))

    def any(self, items: Any) -> Any:
        return self.am.any_of(list(items))

    @property
    def advance(self) -> Any:
        return self.move.kind == self.k(self.am.ADVANCE)

    @property
    def favour(self) -> Any:
        return self.move.kind == self.k(self.am.FAVOUR)

    def moved_card(self, test: Callable[[Any, Any], Any]) -> Any:
        """``test(before, after)`` holds for the card the move names (an Advance's card)."""
        return self.any(
            self.all(self.move.x.idx == self.k(i), test(a, b))
            for i, (a, b) in enumerate(zip(self.pre.cards, self.post.cards, strict=True))
        )

    def some_card(self, test: Callable[[Any, Any], Any]) -> Any:
        """``test(before, after)`` holds for some card."""
        return self.any(test(a, b) for a, b in zip(self.pre.cards, self.post.cards, strict=True))


def _ascent(case: Case, players: int, seed: int, bound: int, cond: Callable[..., Any]) -> Witness:
    import z3

    from castlerules.symbolic.ascent_model import (
        AscentModel,
        Params,
        as_z3,
        concrete,
        fields,
        move_in,
        unroll,
    )

    tick = time.perf_counter()
    rules = case.rules()
    first = ascent.new_game(players, rules, seed=seed)
    model = AscentModel(Params(rules, players, bitvector=True))
    origin = concrete(model, fields(first))
    scope = _scope(case, players, seed)
    queries: list[int] = []
    if case.kind == "refusal":
        queries.append(1)
        if z3.is_true(z3.simplify(as_z3(cond(AscentStep(model, origin, None, None))))):
            return checked_witness(case, players, seed, [], 0, tick, 1, scope)
        path = unroll(
            model,
            lambda s: cond(AscentStep(model, s, None, None)),
            bound,
            start=origin,
            queries=queries,
        )
    else:
        path = unroll(
            model,
            None,
            bound,
            bad_step=lambda a, m, b: cond(AscentStep(model, a, m, b)),
            start=origin,
            queries=queries,
        )
    if path is None:
        raise _Disagree(bound)
    found = [str(move_in(path.model, m)) for m in path.moves]
    return checked_witness(case, players, seed, found, path.depth, tick, len(queries), scope)


# --------------------------------------------------------------------------- common


class _Disagree(Exception):
    def __init__(self, bound: int) -> None:
        super().__init__(bound)
        self.bound = bound


def _scope(case: Case, players: int, seed: int) -> str:
    model = (
        "the rule kernel on Z3 terms (castlerules/symbolic/throne.py)"
        if case.game == "throne"
        else "the Z3 model of castlerules/symbolic/ascent_model.py"
    )
    return f"from new_game({players}, {case.rules_code()}, seed={seed}), in {model}"


def checked_witness(
    case: Case,
    players: int,
    seed: int,
    moves: Sequence[str],
    depth: int,
    tick: float,
    queries: int,
    scope: str,
) -> Witness:
    """Replay the decoded moves through the public API; the case's Python condition decides."""
    states = start(case, players, seed)
    chosen = list(moves)

    def choose(ply: int, _state: Any, legal: Sequence[Any]) -> Any:
        if ply >= len(chosen):
            return None
        for move in legal:
            if str(move) == chosen[ply]:
                return move
        raise SearchError(
            f"case {case.key!r}: the BMC witness's move {ply + 1} ({chosen[ply]}) is not "
            "legal in the engine (the model and the engine disagree)"
        )

    hit = run(case, states, choose, limit=len(chosen) + 1)
    if hit is None:
        raise SearchError(
            f"case {case.key!r}: the BMC witness of {depth} moves does not show the case: "
            "the symbolic condition is weaker than the Python one"
        )
    if case.kind == "reading" and len(chosen) == depth + 1 and len(hit.moves) == depth + 1:
        # The move tried last leaves positions that differ (the kernel's successors) but
        # says the same under both readings: the Python search sees the readings part one
        # move later.  No depth is proved for that (another game could part at the tried
        # move by what it says), so the generic search's game stands.
        raise BmcError(
            f"the readings part by the position after move {depth + 1} ({chosen[depth]}), "
            f"which says the same under both: the shortest game is not proved"
        )
    if len(hit.moves) != depth:
        raise SearchError(
            f"case {case.key!r}: the Python condition holds after {len(hit.moves)} moves of the "
            f"BMC witness, not {depth}: the symbolic condition is stricter than the Python one"
        )
    return Witness(hit, depth, time.perf_counter() - tick, queries, scope)


def find(case: Case, players: int, seed: int, bound: int) -> Witness:
    """The shortest game (at most ``bound`` moves before the focus) showing ``case``, by BMC.

    Raises :class:`BmcError` when Z3 is missing or gives up, and
    :class:`~castlerules.casebook.search.SearchError` when the symbolic and
    Python conditions disagree.
    """
    require()
    cond = case.bmc
    if cond is None or case.kind not in ("step", "refusal"):
        raise BmcError(f"case {case.key!r} declares no symbolic condition")
    search = _throne if case.game == "throne" else _ascent
    try:
        witness = search(case, players, seed, bound, cond)
    except _Disagree as err:
        raise SearchError(
            f"case {case.key!r}: BMC finds no game of at most {err.bound} moves, but the "
            "generic search found one: the symbolic condition is stricter than the Python one"
        ) from None
    return witness


# --------------------------------------------------------------------------- agreement


def holds_on(case: Case, before: Any, move: Any, after: Any) -> bool:
    """The case's symbolic condition on one concrete step (or position, for a refusal).

    The symbolic condition is built over the model's constants and simplified
    by Z3 to ``True`` or ``False``.
    """
    cond = case.bmc
    assert cond is not None
    players = before.players
    rules = case.rules()
    if case.game == "throne":
        from castlerules.symbolic.throne import TMove
        from castlerules.throne import kernel

        # Plain values: the kernel's terms fold on them (only a term of Z3 is simplified).
        system = throne_system(rules, players)
        pre = system.plain(kernel.from_state(before))
        if case.kind == "refusal":
            term = cond(ThroneStep(system, pre, None, None))
        else:
            sym = TMove(system.number(move), kernel.next_objectives(before))
            post = system.plain(kernel.from_state(after))
            term = cond(ThroneStep(system, pre, sym, post))
    else:
        from castlerules.symbolic.ascent_model import AscentModel, as_z3, fields, fresh_move
        from castlerules.symbolic.ascent_model import Params as AParams
        from castlerules.symbolic.ascent_model import concrete as aconcrete
        from castlerules.symbolic.ascent_model import encode_move as aencode

        model = AscentModel(AParams(rules, players, bitvector=True))
        here = aconcrete(model, fields(before))
        if case.kind == "refusal":
            term = cond(AscentStep(model, here, None, None))
        else:
            kind, idx = aencode(move)
            blank = fresh_move("agree", model.p.var)
            named = attrs.evolve(blank.x, idx=model.p.k(idx))
            made = attrs.evolve(blank, kind=model.p.k(kind), x=named)
            term = cond(AscentStep(model, here, made, aconcrete(model, fields(after))))
        term = as_z3(term)
    import z3

    value = z3.simplify(_z3_bool(term))
    if z3.is_true(value) or z3.is_false(value):
        return bool(z3.is_true(value))
    raise BmcError(f"case {case.key!r}: the symbolic condition is not decided on a position")


@functools.lru_cache(maxsize=16)
def throne_system(rules: throne.Rules, players: int) -> Any:
    """Throne's kernel on Z3 terms for ``rules`` and ``players`` (imported on use)."""
    from castlerules.symbolic.throne import ThroneSystem

    return ThroneSystem(rules, players)


def python_holds(case: Case, before: Any, move: Any, moment: Any) -> bool:
    """The case's Python condition on the same step (or position, for a refusal)."""
    assert case.when is not None
    if case.kind == "step":
        return bool(case.when(moment))
    module = case.module
    legal = {str(m) for m in module.legal_moves(before)}
    for tried in tries(module, before):
        if str(tried) in legal:
            continue
        refused = outcome(module, before, tried, 0)
        if isinstance(refused, Refusal) and case.when(refused):
            return True
    return False


def agreement(case: Case, players: int, games: Sequence[Sequence[str]], seed: int = 0) -> int:
    """Check that the symbolic and Python conditions agree at every step of ``games``
    (move lists from ``new_game(players, seed=seed)``) and of a few seeded random games;
    return how many steps were compared.  Raises ``SearchError`` on a disagreement."""
    from castlerules.core.chance import Rng

    module = case.module
    rules = case.rules()
    plans: list[tuple[int, Sequence[str] | None]] = [(seed, g) for g in games]
    plans += [(s, None) for s in range(AGREEMENT_GAMES)]
    compared = 0
    earlier: list[Any] = []
    for game_seed, moves in plans:
        state = module.new_game(players, rules=rules, seed=game_seed)
        rng = Rng.from_seed(game_seed, f"casebook.agreement.{case.key}")
        earlier = []
        for ply in range(len(moves) if moves is not None else AGREEMENT_PLIES):
            legal = list(module.legal_moves(state))
            if case.kind == "refusal":
                mine = holds_on(case, state, None, None)
                theirs = python_holds(case, state, None, None)
                compared += 1
                if mine != theirs:
                    raise SearchError(
                        f"case {case.key!r}: after {ply} moves of a game (seed {game_seed}) the "
                        f"symbolic condition says {mine}, the Python condition {theirs}"
                    )
            if not legal:
                break
            if moves is not None:
                move = module.parse_move(state, moves[ply])
            else:
                index, rng = rng.below(len(legal))
                move = legal[index]
            moment = outcome(module, state, move, ply)
            assert moment is not None and not hasattr(moment, "error")
            if case.kind == "step":
                moment = attrs.evolve(moment, earlier=tuple(earlier))
                mine = holds_on(case, state, move, moment.after)
                theirs = python_holds(case, state, move, moment)
                compared += 1
                if mine != theirs:
                    raise SearchError(
                        f"case {case.key!r}: at move {ply + 1} ({move}) of a game (seed "
                        f"{game_seed}) the symbolic condition says {mine}, the Python "
                        f"condition {theirs}"
                    )
            earlier.append(moment)
            state = moment.after
    return compared
