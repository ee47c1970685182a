"""Every property shown strong enough: the counter-witnesses its clause forbids.

A property proved true may still say too little: "a No count may rise by one"
is proved as happily as "a No count never rises".  For each proved property,
this module builds positions (or moves) that its clause forbids -- a No count
that rises by one, a score one past its bound, a throne holding two, a card one
square above its arrival square and unprotected -- and asks Z3 whether the
property *as written* (the very function its proof checks, in
:mod:`proofs.throne` and :mod:`proofs.ascent`) accepts them.  Each witness is
two queries: its values are consistent (the witness exists), and together with
them the property is false.  A property weakened until it accepts one of them
(a bound loosened by one, a comparison relaxed) fails ``python -m proofs``.

The witnesses are tight: each sits one step past the clause's bound, so that
loosening the bound by one is caught.  :data:`WITNESSES` lists them; the proofs
page of the documentation shows the same list (a test keeps them in step).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import attrs

from castlerules.symbolic.ascent_model import AscentModel, Card, as_z3, fresh_card
from castlerules.symbolic.smt import Expr, all_of, int_var, neg, satisfiable
from castlerules.symbolic.throne import ThroneSystem
from castlerules.throne.kernel import KState
from castlerules.throne.state import ELIMINATED, MOVEMENT, OVER
from proofs import ascent, throne
from proofs.core import Ledger, ProofFailure, Result

__all__ = ["WITNESSES", "Witness", "results"]

Built = tuple[Expr, list[Expr]]
"""A property's statement on fresh terms, and the witness's values as equations."""


@attrs.frozen(slots=True)
class Witness:
    """A counter-witness: what the clause forbids, and the property that must reject it."""

    property: str
    clause: str
    forbids: str
    build: Callable[[], Built]


# ----------------------------------------------------------------- Throne
THRONE_PLAYERS = 4
FLOOR_MOST = 4
"""B7: « pas plus de quatre prétendants dans un même étage » (the witnesses' own number)."""


def _tsys() -> ThroneSystem:
    config = next(c for c in throne.configs() if (c.preset, c.players) == ("SEED", 4))
    return config.system()


def _tstate(tag: str) -> tuple[ThroneSystem, KState]:
    system = _tsys()
    return system, system.fresh_state(tag)


def _floors(s: KState, values: dict[int, int]) -> list[Expr]:
    return [s.fl[c] == v for c, v in values.items()]


def _t_capacity_floor() -> Built:
    system, s = _tstate("w")
    return throne._room_floors(system, s), _floors(s, dict.fromkeys(range(FLOOR_MOST + 1), 1))


def _t_capacity_throne() -> Built:
    system, s = _tstate("w")
    top = system.shape.top
    return throne._room_floors(system, s), _floors(s, {0: top, 1: top})


StepStatement = Callable[[ThroneSystem, KState, KState], Expr]


def _t_step(
    statement: StepStatement, pre_values: dict[str, int], post_values: dict[str, int]
) -> Built:
    """A move within round 1 that sets ``field+index`` (``fl0``, ``no0``) before and after."""
    system, pre = _tstate("a")
    post = system.fresh_state("b")
    eqs: list[Expr] = [post.rnd == pre.rnd, pre.rnd == 1]
    for state, values in ((pre, pre_values), (post, post_values)):
        for key, value in values.items():
            field, index = key[:-1], int(key[-1])
            eqs.append(getattr(state, field)[index] == value)
    return statement(system, pre, post), eqs


def _t_descends() -> Built:
    return _t_step(throne._no_descent, {"fl0": 3}, {"fl0": 2})


def _t_returns() -> Built:
    return _t_step(throne._no_descent, {"fl0": ELIMINATED}, {"fl0": 1})


def _t_no_rises() -> Built:
    return _t_step(throne._no_cards_step, {"no0": 1}, {"no0": 2})


def _t_no_negative() -> Built:
    return _t_step(throne._no_cards_step, {"no0": 0}, {"no0": -1})


def _t_score(rnd: int, value: int) -> Callable[[], Built]:
    def build() -> Built:
        r, x = int_var("w_rnd"), int_var("w_score")
        return throne._round_score_ok(r, x), [r == rnd, x == value]

    return build


def _t_total(value: int) -> Callable[[], Built]:
    def build() -> Built:
        _system, s = _tstate("w")
        return throne._final_totals_ok(s), [s.phase == OVER, s.total[0] == value]

    return build


def _t_no_climb() -> Built:
    system, s = _tstate("w")
    eqs = [s.phase == MOVEMENT, *(f == ELIMINATED for f in s.fl)]
    return throne._climb_exists(system, s), eqs


def _t_measure_over() -> Built:
    system, s = _tstate("w")
    n, shape = system.n, system.shape
    # The claim's number, stated here on its own (not read from the proof): every
    # character climbs to the throne and is eliminated, n - 1 seats vote, n - 1 pass.
    bound = n * (shape.characters * (shape.top + n) + n - 1) + n - 1
    eqs = [*(f == 0 for f in s.fl), *(v == -1 for v in s.votes), s.passes == bound + 1]
    return throne._measure_bounded(system, s), eqs


def _t_measure_still() -> Built:
    system, pre = _tstate("a")
    post = system.fresh_state("b")
    eqs = [*(a == b for a, b in zip(pre.fl, post.fl, strict=True))]
    eqs += [*(a == b for a, b in zip(pre.votes, post.votes, strict=True))]
    eqs.append(pre.passes == post.passes)
    return throne._measure_rises(system, pre, post), eqs


def _t_invariant(values: dict[int, int]) -> Callable[[], Built]:
    def build() -> Built:
        from castlerules.symbolic.throne_invariant import Claims

        system, s = _tstate("w")
        claims = Claims(system)
        floors = dict.fromkeys(range(FLOOR_MOST + 1), 1) if not values else {}
        eqs = _floors(s, floors) + [s.no[q] == v for q, v in values.items()]
        return all_of(c for _n, c in claims.invariant(s)), eqs

    return build


# ----------------------------------------------------------------- Ascent
ASCENT_PLAYERS = 2


def _model() -> AscentModel:
    return ascent.Prover(ASCENT_PLAYERS).model


def _cards(*tags: str) -> list[Card]:
    return [fresh_card(t) for t in tags]


def _a_score(points: Sequence[int]) -> Callable[[], Built]:
    def build() -> Built:
        xs = [int_var(f"w_p{q}") for q in range(len(points))]
        return ascent.scores_ok(len(points), xs), [x == v for x, v in zip(xs, points, strict=True)]

    return build


def _a_set_sum(value: int) -> Callable[[], Built]:
    def build() -> Built:
        xs = [int_var(f"w_a{k}") for k in range(6)]
        return ascent.set_sum_ok(xs), [xs[0] == value, *(x == 0 for x in xs[1:])]

    return build


def _a_flipped(moved: str) -> Callable[[], Built]:
    def build() -> Built:
        c, d = _cards("w_c", "w_d")
        eqs = [c.flp, c.col == 0, c.sq == 3]
        eqs += {
            "square": [d.col == 0, d.sq == 4, d.flp],
            "column": [d.col == 1, d.sq == 3, d.flp],
            "face": [d.col == 0, d.sq == 3, neg(d.flp)],
        }[moved]
        return ascent.flipped_stays(c, d), eqs

    return build


def _a_down() -> Built:
    m = _model()
    c, d = _cards("w_c", "w_d")
    return ascent.never_down(m, c, d), [c.sq == 3, d.sq == 2]


def _a_still() -> Built:
    m = _model()
    c, d = _cards("w_c", "w_d")
    return ascent.card_rises(m, c, d), [c.sq == 3, d.sq == 3]


def _a_strict() -> Built:
    m = _model()
    (c,) = _cards("w_c")
    return ascent.strictly_below(m, c), [*m.assumptions(), c.sq >= 1, c.sq == m.arr(c) + 1]


def _a_unprotected() -> Built:
    m = _model()
    c, t = _cards("w_c", "w_t")
    eqs = [*m.assumptions(), c.sq >= 1, c.sq == m.arr(c) + 1, c.dep == 1]
    eqs += [t.same_stack(c), t.dep == 0, t.val == c.val - 1, neg(m.excused(t))]
    return ascent.protected_or_excused(m, c, t), eqs


def _a_invariant_above() -> Built:
    """A stack's top one square above its ceiling, not excused."""
    m = _model()
    (c,) = _cards("w_c")
    eqs = [*m.assumptions(), c.sq >= 1, c.dep == 0, c.sq == m.ceiling(c) + 1, neg(m.excused(c))]
    return all_of(g for _n, g in m.inv_card(c)), eqs


n21 = 21 * ASCENT_PLAYERS

WITNESSES: tuple[Witness, ...] = (
    Witness(
        "throne.invariant", "B7", "a floor holding one character more than it may", _t_invariant({})
    ),
    Witness("throne.invariant", "B11", "a seat holding -1 No cards", _t_invariant({0: -1})),
    Witness("throne.capacity", "B7", "five characters on floor 1", _t_capacity_floor),
    Witness("throne.capacity", "B1", "a throne holding two", _t_capacity_throne),
    Witness("throne.no_descent", "B9", "a character going down from floor 3 to 2", _t_descends),
    Witness("throne.no_descent", "B13", "an eliminated character back on floor 1", _t_returns),
    Witness("throne.no_cards", "B11", "a No count rising from 1 to 2 within a round", _t_no_rises),
    Witness("throne.no_cards", "B11", "a No count falling below 0", _t_no_negative),
    Witness("throne.move_exists", "B8", "the movement phase with no climb legal", _t_no_climb),
    Witness(
        "throne.round_ends_with_king",
        "B12",
        "a ranking function one past its bound",
        _t_measure_over,
    ),
    Witness(
        "throne.round_ends_with_king",
        "B12",
        "a move that leaves the ranking function where it was",
        _t_measure_still,
    ),
    Witness("throne.round_score", "B15", "a round score of 34", _t_score(1, 34)),
    Witness("throne.round_score", "B14", "a round score of -1", _t_score(1, -1)),
    Witness("throne.round_score", "B15", "a round-3 score of 0", _t_score(3, 0)),
    Witness("throne.totals", "B16", "a final total of 100", _t_total(100)),
    Witness("throne.totals", "B16", "a final total of 0", _t_total(0)),
    Witness(
        "ascent.invariant",
        "A6",
        "a stack's top one square above its ceiling, not excused",
        _a_invariant_above,
    ),
    Witness(
        "ascent.ceiling",
        "A7",
        "a card one square above its arrival square under a lower card",
        _a_unprotected,
    ),
    Witness("ascent.strict_ceiling", "A6", "a card one square above its arrival square", _a_strict),
    Witness("ascent.flipped", "A8", "a flipped card moving up a square", _a_flipped("square")),
    Witness("ascent.flipped", "A8", "a flipped card changing column", _a_flipped("column")),
    Witness("ascent.flipped", "A8", "a flipped card turned face up", _a_flipped("face")),
    Witness("ascent.conservation", "A18", "a set whose contributions sum to 22", _a_set_sum(22)),
    Witness("ascent.conservation", "A18", "a set whose contributions sum to 20", _a_set_sum(20)),
    Witness("ascent.scores", "A17", f"a score of {n21 + 1} with 2 players", _a_score([n21 + 1, 0])),
    Witness(
        "ascent.scores", "A16", f"a score of {-n21 - 1} with 2 players", _a_score([-n21 - 1, 0])
    ),
    Witness(
        "ascent.scores", "A17", f"scores {n21} and 1: their sum one past {n21}", _a_score([n21, 1])
    ),
    Witness("ascent.termination", "A4", "a card going down from square 3 to 2", _a_down),
    Witness("ascent.termination", "A3", "an advanced card staying on its square", _a_still),
)
"""Every counter-witness, by property (each proved property has at least one)."""


def check(witness: Witness, ledger: Ledger) -> None:
    """The witness exists, and the property rejects it (else :class:`ProofFailure`)."""
    statement, values = witness.build()
    ledger.queries += 1
    if satisfiable([as_z3(v) for v in values]) is None:
        raise ProofFailure(f"{witness.property}: the witness '{witness.forbids}' does not exist")
    try:
        ledger.check(witness.forbids, neg(statement), values)
    except ProofFailure:
        raise ProofFailure(
            f"{witness.property} accepts '{witness.forbids}', which {witness.clause} forbids"
        ) from None


def results(games: Sequence[str] = ("throne", "ascent")) -> list[Result]:
    """One result per game: every witness of its properties rejected."""
    out = []
    for game in games:
        chosen = [w for w in WITNESSES if w.property.startswith(game + ".")]
        ledger = Ledger()
        started = time.perf_counter()
        failures = []
        for witness in chosen:
            try:
                check(witness, ledger)
            except ProofFailure as failure:
                failures.append(str(failure))
        props = sorted({w.property for w in chosen})
        out.append(
            Result(
                name=f"{game}.strength",
                game=game,
                title="Every property rejects the counter-witnesses its clauses forbid",
                clauses=tuple(sorted({w.clause for w in chosen}, key=lambda c: int(c[1:]))),
                method="counter-witnesses",
                depth=None,
                holds=not failures,
                seconds=time.perf_counter() - started,
                queries=ledger.queries,
                scope=f"{len(chosen)} witnesses of {len(props)} properties",
                detail="; ".join(failures),
            )
        )
    return out


def docs_table() -> str:
    """The witnesses as the reStructuredText list table of the proofs page."""
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 30 10 60",
        "",
        "   * - property",
        "     - clause",
        "     - counter-witness (the property must reject it)",
    ]
    for w in WITNESSES:
        lines += [f"   * - ``{w.property}``", f"     - {w.clause}", f"     - {w.forbids}"]
    return "\n".join(lines) + "\n"
