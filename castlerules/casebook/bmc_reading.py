"""Where two readings of Throne first part, proved earliest by bounded model checking.

A reading case (:func:`~castlerules.casebook.declare.reading`) shows the first
position where its two readings disagree, playing only moves legal under both
(:func:`~castlerules.casebook.play.run`).  Declared with ``bmc=readings_part``, its
game is the shortest there is: two copies of the rule kernel on Z3 terms
(:class:`~castlerules.symbolic.throne.ThroneSystem`), one per reading, take the same
move numbers from the case's first positions (``new_game(players, rules, seed)`` of
each, each dealt its objectives from the seed), and at depth 0, 1, 2 ... Z3 is asked
whether the readings part there (:attr:`ReadingStep.parted`):

- the two kernel positions differ (who is to act, a floor, a vote, a score ...), or
- a move number is legal under one reading and not the other, or
- a move legal under both leads to two different positions.

Every way the Python search sees the readings part implies one of these at the
same depth (a seat's view and the result are functions of the kernel position;
the events of a move are functions of the positions before and after it), so the
first depth where Z3 finds one is a lower bound; the witness, replayed through the
public API, must then show the case's Python split at exactly that depth, and that
makes it the shortest game there is.  A reading whose difference is only in what a
seat is shown (the same positions, the same legality) is not something the kernel
sees: its first split is found before any depth the search could prove, and the
replay says so (:class:`~castlerules.casebook.BmcError`, the generic game stays).

The implication is also checked on seeded random games in lockstep
(:func:`agreement`): at every Python split the symbolic condition holds.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs

from castlerules import throne
from castlerules.casebook.bmc import (
    TIMEOUT_MS,
    BmcError,
    Witness,
    checked_witness,
    placed_count,
    throne_lemmas,
    throne_system,
)
from castlerules.casebook.declare import Case, Moment, SearchError
from castlerules.casebook.play import outcome, split_at, start

AGREEMENT_GAMES = 6
"""Seeded random lockstep games on which every Python split must be a symbolic one."""

AGREEMENT_PLIES = 120
"""The most moves of each of those games (a game stops at its readings' first split)."""


def readings_part(z: ReadingStep) -> Any:
    """The symbolic condition of a reading case: the readings part at this depth."""
    return z.parted


class ReadingStep:
    """The words of a reading case's symbolic condition: the two systems (``one``,
    ``two``), their positions at this depth (``pre``, a pair) and a move number tried
    under both (``look``, a pair of moves that share the number and differ only in
    the objectives each reading's deal gives at a round's end)."""

    def __init__(self, systems: Sequence[Any], pre: Sequence[Any], look: Sequence[Any]) -> None:
        self.one, self.two = systems
        self.pre = tuple(pre)
        self.look = tuple(look)

    @property
    def positions_differ(self) -> Any:
        import z3

        return z3.Not(self.one.equal(*self.pre))

    @property
    def legality_differs(self) -> Any:
        """Some move number is legal under one reading only."""
        import z3

        a, b = self.pre
        return z3.Or(
            [self.one.legal_at(a, n) != self.two.legal_at(b, n) for n in range(len(self.one.moves))]
        )

    @property
    def successors_differ(self) -> Any:
        """A move legal under both readings leads to two different positions."""
        import z3

        (a, b), (la, lb) = self.pre, self.look
        return z3.And(
            self.one.legal_move(a, la),
            self.two.legal_move(b, lb),
            z3.Not(self.one.equal(self.one.step(a, la), self.two.step(b, lb))),
        )

    @property
    def parted(self) -> Any:
        import z3

        return z3.Or(self.positions_differ, self.legality_differs, self.successors_differ)


def _deal_of(first: Any, rules: throne.Rules, players: int) -> Any:
    """The objectives of each round of ``first``'s game, as a function of the round."""
    import z3

    from castlerules.symbolic import Z3

    letters = rules.letters()
    deals = [
        tuple(tuple(ch in deal[s] for ch in letters) for s in range(players))
        for deal in (throne.objectives_of_round(first, r) for r in range(1, rules.rounds + 1))
    ]

    def next_deal(rnd: Any) -> Any:
        out: Any = deals[-1]
        for r in range(rules.rounds - 1, 0, -1):
            out = tuple(
                tuple(Z3.ite(rnd == r, a, b) for a, b in zip(ra, rb, strict=True))
                for ra, rb in zip(deals[r], out, strict=True)
            )
        return tuple(tuple(z3.BoolVal(x) if isinstance(x, bool) else x for x in row) for row in out)

    return next_deal


def find(case: Case, players: int, seed: int, bound: int) -> Witness:
    """The shortest game (at most ``bound`` common moves) where the readings part."""
    import z3

    from castlerules.symbolic.throne_invariant import Claims
    from castlerules.throne import kernel
    from castlerules.throne.state import MOVEMENT, PLACEMENT

    if case.game != "throne":
        raise BmcError(f"case {case.key!r}: no symbolic reading search for {case.game} yet")
    if case.when is not None:
        raise BmcError(f"case {case.key!r}: a reading case with a condition has no BMC")
    tick = time.perf_counter()
    rules = (case.rules(), case.second_rules())
    systems = [throne_system(r, players) for r in rules]
    if [str(m) for m in systems[0].moves] != [str(m) for m in systems[1].moves]:
        raise BmcError(f"case {case.key!r}: the two readings number the moves differently")
    firsts = start(case, players, seed)
    queries = sum(throne_lemmas(r, players) for r in rules)
    deals = [_deal_of(f, r, players) for f, r in zip(firsts, rules, strict=True)]
    claims = [Claims(s) for s in systems]
    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    # One trajectory serves both readings: depth k is asked only once every shallower
    # depth was refuted, so along every common game the two positions were equal and
    # the same moves legal at each of them; the positions are then one (the second
    # reading's invariant holds of it too), and the first reading's moves are the
    # common ones.
    firsts_k = [s.plain(kernel.from_state(f)) for s, f in zip(systems, firsts, strict=True)]
    trajectory = [firsts_k[0]]
    moves: list[Any] = []

    def pair(tag: str, pres: Sequence[Any]) -> tuple[Any, Any]:
        base = systems[0].fresh_move(tag)
        return tuple(
            attrs.evolve(base, nobj=deal(pre.rnd)) for deal, pre in zip(deals, pres, strict=True)
        )

    one = systems[0]
    placements = rules[0].placements_for(players)
    for k in range(bound + 1):
        if k > 0:
            pre = trajectory[-1]
            move = pair(f"r{k}", [pre, pre])[0]
            nxt = one.fresh_state(f"s{k}")
            facts = [one.legal_move(pre, move), one.equal(nxt, one.step(pre, move))]
            facts += [c for claim in claims for _n, c in claim.invariant(nxt)]
            if k < placements:
                facts.append(z3.And(nxt.phase == PLACEMENT, placed_count(nxt) == k))
            elif k == placements:
                facts.append(nxt.phase == MOVEMENT)
            solver.add(*facts)
            trajectory.append(nxt)
            moves.append(move)
        pres = firsts_k if k == 0 else [trajectory[-1], trajectory[-1]]
        look = pair(f"l{k}", pres)
        target = readings_part(ReadingStep(systems, pres, look))
        solver.push()
        solver.add(target)
        queries += 1
        answer = solver.check()
        if answer == z3.sat:
            model = solver.model()
            found = [str(systems[0].decode(model, m)) for m in moves]
            tried = model.eval(look[0].a, model_completion=True).as_long()
            if 0 <= tried < len(systems[0].moves):
                found.append(str(systems[0].moves[tried]))
            scope = (
                f"from new_game({players}, {case.rules_code(0)}, seed={seed}) and "
                f"new_game({players}, {case.rules_code(1)}, seed={seed}), the same moves, "
                "in two copies of the rule kernel on Z3 terms (castlerules/symbolic/throne.py)"
            )
            return checked_witness(case, players, seed, found, k, tick, queries, scope)
        if answer != z3.unsat:
            raise BmcError(f"Z3 gave up at depth {k} ({solver.reason_unknown()})")
        solver.pop()
    raise SearchError(
        f"case {case.key!r}: BMC finds no parting of the readings within {bound} moves, but "
        "the generic search found one: a split the kernel does not see"
    )


def holds_on(case: Case, states: Sequence[Any]) -> bool:
    """:func:`readings_part` on the two concrete positions ``states`` (Z3 decides the
    move tried under both)."""
    import z3

    from castlerules.throne import kernel

    players = states[0].players
    systems = [throne_system(r, players) for r in (case.rules(), case.second_rules())]
    pres = [s.plain(kernel.from_state(x)) for s, x in zip(systems, states, strict=True)]
    base = systems[0].fresh_move("agree")
    look = [
        attrs.evolve(base, nobj=tuple(tuple(z3.BoolVal(v) for v in row) for row in nobj))
        for nobj in (kernel.next_objectives(x) for x in states)
    ]
    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    solver.add(readings_part(ReadingStep(systems, pres, look)))
    answer = solver.check()
    if answer == z3.unknown:
        raise BmcError(f"case {case.key!r}: Z3 gave up on a position")
    return bool(answer == z3.sat)


def agreement(case: Case, players: int, games: Sequence[Sequence[str]], seed: int = 0) -> int:
    """Check, on ``games`` (move lists from the case's first positions) and on seeded
    random lockstep games, that wherever the Python search sees the readings part the
    symbolic condition holds; the positions compared.  Raises ``SearchError`` otherwise."""
    from castlerules.core.chance import Rng

    module = case.module
    plans: list[tuple[int, Sequence[str] | None]] = [(seed, g) for g in games]
    plans += [(s, None) for s in range(AGREEMENT_GAMES)]
    compared = 0
    for game_seed, moves in plans:
        states = start(case, players, game_seed)
        rng = Rng.from_seed(game_seed, f"casebook.agreement.{case.key}")
        for ply in range(len(moves) + 1 if moves is not None else AGREEMENT_PLIES):
            split = split_at(case, (states[0], states[1]), ply) is not None
            other = {str(m) for m in module.legal_moves(states[1])}
            legal = [m for m in module.legal_moves(states[0]) if str(m) in other]
            after: tuple[Any, Any] | None = None
            if not split and legal:
                if moves is not None and ply < len(moves):
                    move = module.parse_move(states[0], moves[ply])
                else:
                    index, rng = rng.below(len(legal))
                    move = legal[index]
                one = outcome(module, states[0], move, ply)
                two = outcome(module, states[1], module.parse_move(states[1], str(move)), ply)
                if isinstance(one, Moment) and isinstance(two, Moment):
                    split = [str(e) for e in one.events] != [str(e) for e in two.events]
                    after = (one.after, two.after)
                else:
                    split = True
            compared += 1
            if split and not holds_on(case, states):
                raise SearchError(
                    f"case {case.key!r}: after {ply} common moves of a game (seed {game_seed}) "
                    "the readings part for the Python search but not for the symbolic condition"
                )
            if split or after is None:
                break
            states = after
    return compared
