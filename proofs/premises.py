"""No vacuity: the premises of the induction proofs are satisfied by real games.

An inductive proof shows ``Init => Inv`` and ``Inv and Guard => Inv'``; it
says nothing if no state satisfies ``Init``, or no reachable state satisfies
``Inv and Guard`` for some kind of move (a property "proved" over an empty set
of states).  :func:`proofs.core.induction` and the Ascent prover ask Z3 that
the initial states exist; this module shows the rest *with the engine*:

- the engine's new games satisfy the system's ``Init`` (Throne: the rule kernel on
  Z3 terms, :class:`castlerules.symbolic.throne.ThroneSystem`), and every position
  met satisfies the invariant ``Inv`` (so ``Inv`` is not empty, and holds where it
  should); both formulas are read at the position's values by Z3 itself;
- for every kind of move (every guarded case of the transition that the
  rules can reach), a witness: a reachable engine position and an engine move
  for which exactly that case's condition holds and whose post-state is the
  abstraction of the engine's successor (the witness is replayed by the engine).
  For Throne the case and its post-state are the rule kernel's, run on plain
  values (:mod:`castlerules.throne.kernel`): the Z3 system is that kernel on
  terms, tied to it by ``tests/symbolic/test_throne.py``.

A required kind without a witness fails the run (``throne.premises``,
``ascent.premises`` in ``python -m proofs``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import z3

from castlerules import ascent, throne
from castlerules.ascent.rules import STACK_RANKS
from castlerules.core import Rng
from castlerules.core.ops import CONCRETE
from castlerules.core.protocol import random_playout
from castlerules.symbolic.smt import Expr, all_of, lit
from castlerules.symbolic.throne import ThroneSystem, fields
from castlerules.symbolic.throne_invariant import Claims
from castlerules.throne import kernel
from proofs.core import Result

THRONE_KINDS = (
    "place",
    "last place",
    "climb",
    "climb to the throne",
    "vote",
    "eliminated",
    "crowned, next round",
    "crowned, game over",
    "pass",
    "everyone passed, next round",
    "everyone passed, game over",
)
"""The kernel's cases (:func:`castlerules.throne.kernel.cases`) that must each have an
engine witness.  The case "eliminated, nobody left" is not required: B13 costs a No
card per elimination, and there are fewer No cards than characters
(throne.move_exists), so it is unreachable under the rules the proofs cover; the
kernel keeps it for the options that allow it."""

ASCENT_KINDS = (
    "Advance, favour pending",
    "Advance, turn ends",
    "Favour, remainder stays, turn goes on",
    "Favour, remainder removed, turn goes on",
    "EndTurn",
)
"""The Ascent cases (castlerules.symbolic.ascent_model.CASES) that must each have an engine witness.
The two cases "Favour, ..., turn ends" (a favour after which the mover has no
Advance left) are too rare in random games to be found in the time of a proof
run; their premises are shown satisfiable by Z3 in the Ascent induction itself
(``Prover.invariant`` asks, case by case, for a model of the case's hypotheses)."""


class _ThroneCases:
    """What the premises ask of one engine position and move, for one game (``rules``,
    ``players``): the system's ``Init`` and the invariant's claims
    (:class:`~castlerules.symbolic.throne_invariant.Claims`), built once over a
    position of variables and read at the position's values; the case the move
    takes and its post-state, from the rule kernel run on plain values."""

    def __init__(self, rules: throne.Rules, players: int) -> None:
        system = ThroneSystem(rules, players)
        self.system = system
        self.shape = system.shape
        self.options = kernel.Options.of(CONCRETE, rules)
        pre = system.fresh_state("w")
        self.variables = [e for _n, e in fields(pre)]
        self.init = system.init(pre)
        self.claims = Claims(system).invariant(pre)
        self.invariant = all_of(c for _n, c in self.claims)

    def ask(
        self, state: throne.State, move: throne.Move
    ) -> tuple[bool, list[str], list[str], list[kernel.KState]]:
        """(Init holds, the invariant's claims that do not, the kernel's cases whose
        condition holds of the move (none when the kernel refuses it), their
        post-states)."""
        s = kernel.from_state(state)
        read = _Reader(self.variables, [x for _n, x in fields(s)])
        broken: list[str] = []
        if not read.truth(self.invariant):
            broken = [name for name, claim in self.claims if not read.truth(claim)]
        p = kernel.Position(CONCRETE, self.shape, self.options, s)
        m = kernel.decode(p, self.system.number(move))
        hits: list[str] = []
        posts: list[kernel.KState] = []
        if kernel.legal(CONCRETE, kernel.guards(p, m)):
            for case in kernel.cases(p, m, kernel.next_objectives(state)):
                if case.when:
                    hits.append(case.label)
                    posts.append(case.make().post)
        return read.truth(self.init), broken, hits, posts

    def refusal(self, state: throne.State, move: throne.Move) -> str:
        """The kernel's reason to refuse ``move`` in ``state`` (empty if it is legal)."""
        verdict = kernel.judge(self.shape, kernel.from_state(state), self.system.number(move))
        return "" if verdict.legal else f"{verdict.clause}: {verdict.what}"


class _Reader:
    """The truth of a Z3 formula over ``variables`` at plain ``values``: the values
    substituted (Z3's C API, one call for all of them), then simplified to a literal."""

    def __init__(self, variables: Sequence[Expr], values: Sequence[int | bool]) -> None:
        size = len(variables)
        self.size = size
        self.old = (z3.Ast * size)()
        self.new = (z3.Ast * size)()
        self.keep = [lit(x) for x in values]  # the constants live as long as the arrays
        for i, (var, const) in enumerate(zip(variables, self.keep, strict=True)):
            self.old[i] = var.as_ast()
            self.new[i] = const.as_ast()

    def truth(self, formula: Expr) -> bool:
        """Whether ``formula`` holds; :class:`ValueError` if it does not reduce to a
        literal (a variable that is not one of ``variables``)."""
        ctx = formula.ctx
        done = z3.Z3_substitute(ctx.ref(), formula.as_ast(), self.size, self.old, self.new)
        value = z3.simplify(z3.BoolRef(done, ctx))
        if z3.is_true(value):
            return True
        if z3.is_false(value):
            return False
        raise ValueError(f"not a closed formula at these values: {str(value)[:80]}")


THRONE_SETUPS: tuple[tuple[str, int], ...] = (("SEED", 3),)


def throne_witnesses(games: int = 4) -> tuple[dict[str, str], list[str]]:
    """A witness per case kind (kind -> "position | move"), and the problems found."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for preset, players in THRONE_SETUPS:
        for allow_pass in (False, True):
            options = dict(throne.Rules.PRESETS[preset])
            rules = throne.Rules(**options, allow_pass=allow_pass)
            cases = _ThroneCases(rules, players)
            for seed in range(games):
                state = throne.new_game(players, rules, seed=seed)
                rng = Rng.from_seed(seed, "premises")
                first = True
                while not throne.is_over(state):
                    moves = throne.legal_moves(state)
                    passes = [m for m in moves if isinstance(m, throne.Pass)]
                    # Pass often enough that "everyone passed" happens.
                    coin, rng = rng.below(10)
                    move: throne.Move
                    if passes and coin < 6:
                        move = passes[0]
                    else:
                        move, rng = rng.choice(moves)
                    init, broken, hits, posts = cases.ask(state, move)
                    after = throne.apply(state, move)
                    where = f"{throne.to_text(state)} | {move}"
                    if first and not init:
                        problems.append(f"a new game is not an initial state of the model: {where}")
                    first = False
                    if broken:
                        problems.append(
                            f"a reachable position breaks the invariant ({', '.join(broken)}): "
                            f"{where}"
                        )
                    if len(hits) != 1:
                        refused = cases.refusal(state, move)
                        why = f" (the kernel refuses it, {refused})" if refused else ""
                        problems.append(f"{len(hits)} cases hold for {where}{why}")
                        break  # this game shows the problem; the next game goes on
                    if posts[0] != kernel.from_state(after):
                        problems.append(
                            f"case {hits[0]}: the post-state is not the engine's: {where}"
                        )
                    else:
                        found.setdefault(hits[0], where)
                    state = after
    return found, problems[:5]


def throne_result() -> Result:
    """``throne.premises``: every required case kind has an engine witness."""
    started = time.perf_counter()
    found, problems = throne_witnesses()
    missing = [k for k in THRONE_KINDS if k not in found]
    return _result(
        "throne",
        ["B6", "B8", "B10", "B11", "B12", "B13", "B16"],
        found,
        missing,
        problems,
        started,
        scope=", ".join(f"{p} {n}p" for p, n in THRONE_SETUPS) + ", allow_pass both",
    )


def ascent_witnesses(games: int = 12, stack_rank: str = "top") -> tuple[dict[str, str], list[str]]:
    """A witness per Ascent case (label -> "position | move"), and the problems found,
    under one value of ``stack_rank`` (A3)."""
    from castlerules.symbolic.ascent_model import AscentModel
    from castlerules.symbolic.ascent_model import Params as AParams
    from proofs.ascent_bridge import Bridge

    found: dict[str, str] = {}
    problems: list[str] = []
    rank = stack_rank
    setups = [(ascent.Rules(stack_rank=rank), 2)]
    setups += [(ascent.Rules(removal_in_lower_half=True, stack_rank=rank), 3)]
    setups += [(ascent.Rules(favours_per_move=None, stack_rank=rank), 4)]
    for rules, players in setups:
        model = AscentModel(AParams(rules, players))
        for seed in range(games):
            start = ascent.new_game(players, rules, seed=seed)
            history, _end, _rng = random_playout(
                ascent.legal_moves, ascent.apply, start, Rng.from_seed(seed, "premises")
            )
            for state, move in history:
                if len(found) == len(ASCENT_KINDS):
                    return found, problems[:5]
                # The bridge is slow (a solver per position): ask it only about the
                # moves whose kind, as the engine plays it, still lacks a witness.
                if _ascent_kind(state, move) in found:
                    continue
                bridge = Bridge(model, state)
                if bridge.invariant_breaks():
                    problems.append(f"{ascent.to_text(state)}: breaks the invariant")
                got = bridge.successor(move)
                where = f"{ascent.to_text(state)} | {move}"
                if not got.unique or got.state != ascent.apply(state, move):
                    problems.append(f"{got.case}: not the engine's successor: {where}")
                    continue
                found.setdefault(got.case, where)
    return found, problems[:5]


def _ascent_kind(state: ascent.State, move: ascent.Move) -> str:
    """The case an engine move takes, read from the engine alone (a guess that only
    decides which moves the bridge is asked about; the bridge names the case)."""
    from castlerules.symbolic.ascent_model import REMOVED
    from proofs.ascent_bridge import fields

    after = ascent.apply(state, move)
    if isinstance(move, ascent.EndTurn):
        return "EndTurn"
    if isinstance(move, ascent.Advance):
        pending = ascent.pending_favour(after)
        return "Advance, favour pending" if pending else "Advance, turn ends"
    gone = sum(1 for f in fields(after).cards if f[1] == REMOVED)
    gone -= sum(1 for f in fields(state).cards if f[1] == REMOVED)
    on = ascent.current_player(after) == ascent.current_player(state)
    return f"Favour, remainder {'removed' if gone else 'stays'}, turn {'goes on' if on else 'ends'}"


def ascent_result() -> Result:
    """``ascent.premises``: every Ascent case has an engine witness."""
    started = time.perf_counter()
    found: dict[str, str] = {}
    problems: list[str] = []
    missing: list[str] = []
    for rank in STACK_RANKS:  # A3: the induction runs under each value of stack_rank
        got, trouble = ascent_witnesses(stack_rank=rank)
        tag = "" if rank == "top" else f"stack_rank={rank}: "
        found |= {tag + k: v for k, v in got.items()}
        problems += [tag + p for p in trouble]
        missing += [tag + k for k in ASCENT_KINDS if k not in got]
    return _result(
        "ascent",
        ["A3", "A8", "A10", "A12", "A13", "A14"],
        found,
        missing,
        problems,
        started,
        scope="2p reference, 3p removal in both halves, 4p unlimited favours; each under "
        "stack_rank " + " and ".join(STACK_RANKS),
    )


def _result(
    game: str,
    clauses: Sequence[str],
    found: dict[str, str],
    missing: Sequence[str],
    problems: Sequence[str],
    started: float,
    scope: str,
) -> Result:
    holds = not missing and not problems
    detail = f"{len(found)} case kinds witnessed"
    if missing:
        detail += "; no witness for: " + ", ".join(missing)
    if problems:
        detail += "; " + "; ".join(problems)
    return Result(
        name=f"{game}.premises",
        game=game,
        title="The proofs' premises are satisfiable: initial states, the invariant, and "
        "every kind of move, each shown by a game the engine replays",
        clauses=tuple(clauses),
        method="witnesses replayed by the engine",
        depth=None,
        holds=holds,
        seconds=time.perf_counter() - started,
        queries=len(found),
        scope=scope,
        detail=detail,
    )
