"""The kernel on Z3 terms (:mod:`castlerules.symbolic.throne`) against the kernel on
plain values (:func:`castlerules.throne.kernel.judge`), and the move split against
the kernel with a symbolic move number."""

from __future__ import annotations

from functools import cache

import pytest
import z3

from castlerules import throne
from castlerules.core import Rng
from castlerules.symbolic.throne import OPTION_NAMES, ThroneSystem, TMove, fields
from castlerules.throne import kernel


@cache
def system(preset: str, players: int, allow_pass: bool = False) -> ThroneSystem:
    rules = throne.Rules(**throne.Rules.PRESETS[preset], allow_pass=allow_pass)
    return ThroneSystem(rules, players)


def sampled(rules: throne.Rules, players: int, seed: int, every: int) -> list[throne.State]:
    """Every ``every``-th position of a seeded random game (passing often when allowed)."""
    state = throne.new_game(players, rules, seed=seed)
    rng = Rng.from_seed(seed, "symbolic")
    out = []
    ply = 0
    while not throne.is_over(state):
        if ply % every == 0:
            out.append(state)
        moves = throne.legal_moves(state)
        passes = [m for m in moves if isinstance(m, throne.Pass)]
        coin, rng = rng.below(3)
        if passes and coin == 0:
            move: throne.Move = passes[0]
        else:
            move, rng = rng.choice(moves)
        state = throne.apply(state, move)
        ply += 1
    out.append(state)
    return out


def agree(sys: ThroneSystem, state: throne.State) -> list[str]:
    """Every move number judged by the Z3 terms (simplified on the position's constants)
    and by the concrete kernel; the differences."""
    values = kernel.from_state(state)
    chance = kernel.next_objectives(state)
    pre = sys.plain(values)
    nobj = sys.encode(throne.Pass(), chance).nobj
    move = TMove(z3.Int("x_a"), nobj)
    cases = sys.cases(pre, move)
    bad = []
    for a, named in enumerate(sys.moves):
        verdict = kernel.judge(sys.shape, values, a, chance)
        legal = z3.simplify(sys.legal_at(pre, a))
        if z3.is_true(legal) != verdict.legal or not (z3.is_true(legal) or z3.is_false(legal)):
            bad.append(f"{named}: legality {legal} vs {verdict.legal}")
            continue
        if not verdict.legal:
            continue
        assert verdict.outcome is not None
        got = sys.outcome_at(pre, a, nobj)
        want = [x for _n, x in fields(verdict.outcome.post)]
        if not equal(got.post, want):
            bad.append(f"{named}: successor")
        # Exactly one case of the split holds for this move, with the same post.
        subs = [(move.a, z3.IntVal(a))]
        hits = [
            c
            for c in cases
            if a in c.numbers and z3.is_true(z3.simplify(z3.substitute(c.guard, *subs)))
        ]
        if len(hits) != 1:
            bad.append(f"{named}: {len(hits)} cases hold")
        elif not equal(hits[0].post, want, tuple(subs)):
            bad.append(f"{named}: the case's successor")
    return bad


def equal(
    post: kernel.KState,
    want: list[int | bool],
    subs: tuple[tuple[z3.ExprRef, z3.ExprRef], ...] = (),
) -> bool:
    """Every field of the Z3 position ``post`` (with ``subs`` substituted) simplifies to
    the plain value of ``want``.  A field that is a literal already is compared as it
    stands (substituting leaves it unchanged); the others as one conjunction of
    equalities, substituted and simplified at once, so that their shared subterms are
    simplified once."""
    terms = [x for _n, x in fields(post)]
    if len(terms) != len(want):
        return False
    rest = []
    for x, v in zip(terms, want, strict=True):
        if isinstance(v, bool):
            if z3.is_true(x) or z3.is_false(x):
                if z3.is_true(x) != v:
                    return False
                continue
            rest.append(x == z3.BoolVal(v))
        else:
            if z3.is_int_value(x):
                if x.as_long() != v:  # type: ignore[attr-defined]
                    return False
                continue
            rest.append(x == z3.IntVal(v))
    if not rest:
        return True
    same = z3.And(rest)
    return bool(z3.is_true(z3.simplify(z3.substitute(same, *subs) if subs else same)))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "players", "allow_pass"),
    [("SEED", 3, False), ("ORIGINAL", 4, True), ("SEED", 6, True)],
)
def test_b3_to_b16_the_z3_terms_judge_like_the_concrete_kernel(
    preset: str, players: int, allow_pass: bool
) -> None:
    sys = system(preset, players, allow_pass)
    for seed in range(2):
        for state in sampled(sys.rules, players, seed, every=13):
            assert agree(sys, state) == [], throne.to_text(state)


def test_b3_b6_a_new_game_is_an_initial_position() -> None:
    sys = ThroneSystem(throne.Rules(), 4, OPTION_NAMES)
    pre = sys.concrete(kernel.from_state(throne.new_game(4, seed=3)))
    solver = z3.Solver()
    solver.add(sys.init(pre), *(z3.Bool(f"option_{n}") for n in OPTION_NAMES))
    assert solver.check() == z3.sat
    later = sys.concrete(
        kernel.from_state(throne.apply(throne.new_game(4, seed=3), throne.Place("A", 1)))
    )
    assert z3.is_false(z3.simplify(sys.init(later)))


@pytest.mark.slow
@pytest.mark.parametrize("players", [4])
def test_b6_to_b13_the_split_legality_is_the_kernels_with_a_symbolic_move(players: int) -> None:
    """For every position (free variables) and every move number of the universe, the
    split legality is the kernel's guards read at a symbolic move number."""
    sys = ThroneSystem(throne.Rules(), players, OPTION_NAMES)
    pre = sys.fresh_state("s")
    move = sys.fresh_move("m")
    solver = z3.Solver()
    solver.set("timeout", 60_000)
    solver.add(move.a >= 0, move.a < len(sys.moves))
    solver.add(sys.legal_move(pre, move) != sys.direct_legal(pre, move.a))
    assert solver.check() == z3.unsat


def test_b7_a_planted_mistake_in_the_z3_interpretation_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sampled agreement sees a wrong Z3 operation (``count`` off by one)."""
    from castlerules.symbolic import z3ops

    real = z3ops.Symbolic.count

    def wrong(self: z3ops.Symbolic, conditions: object) -> object:
        return real(self, conditions) + 1  # type: ignore[arg-type, operator]

    monkeypatch.setattr(z3ops.Symbolic, "count", wrong)
    sys = ThroneSystem(throne.Rules(), 3)
    state = sampled(sys.rules, 3, 0, every=1)[12]
    assert agree(sys, state) != []
