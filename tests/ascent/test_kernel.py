"""The fast engine against the rule kernel, exhaustively, on small games.

For every scope of :data:`proofs.equivalence.ASCENT_KERNEL_SCOPES`, every position
reachable from every initial position (every seat the die can show: all chance
outcomes) and every move number of :attr:`castlerules.ascent.kernel.Shape.moves`
(every Advance and Favour the notation can write, and EndTurn), legal or not: the
same legality (``apply`` and ``legal_moves``), the same clause for each refusal
(the engine's IllegalMove and the kernel's first broken guard), the same successor
(through :func:`~castlerules.ascent.kernel.from_state`), the same scores and end
(:func:`proofs.ascent_judged.check_position`, run by
:func:`proofs.equivalence.search`, the search both games share).  The scopes are
small games of the proof-only option ``cards``; each declares the boundaries it
must reach, and together they break every reachable guard and set every option
of the register to its other value.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import attrs
import pytest

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.ascent.rules import CARDS_PER_SET
from castlerules.core.ops import CONCRETE
from proofs import ascent_judged as judged_moves
from proofs.equivalence import (
    ASCENT_KERNEL_SCOPES,
    Count,
    Scope,
    ascent_deal,
    initial_positions,
    search,
)

SCOPES = ASCENT_KERNEL_SCOPES

pytestmark = pytest.mark.slow  # the exhaustive tie: started first (tests/conftest.py)


@pytest.mark.parametrize("scope", SCOPES, ids=lambda s: s.name)
def test_a1_to_a18_the_engine_is_the_kernel_on_every_reachable_position(
    searched: Callable[[Scope], Count],
    scope: Scope,
    record_property: Callable[[str, object], None],
) -> None:
    found = searched(scope)
    record_property("exhaustive", found.line())  # printed at the end
    assert found.mismatches == ()
    assert found.states > 0 and found.legal > 0
    for boundary in scope.reaches:
        assert found.get(boundary) > 0, (scope.name, boundary)


UNREACHABLE = {
    # The step after an Advance onto its arrival square is never opened when
    # favour_after_arrival=False (rule 16), and a favour never flips the taker.
    "A10: no favour by a stack just flipped (favour_after_arrival=False)",
}
"""Guards no position breaks, with the reason (the engine asks them all the same)."""

BEYOND_THE_SCOPES = {
    # One replay per turn (A12): a position where the replay is spent and a favour is still
    # open needs two targets on one row after a favour and a replay; the smallest scope
    # that reaches it (B0 F0 P1 L1, unlimited favours) costs 15 s, so the tie is checked
    # on such a position of a full game and every position one move on.
    "A12: at most replays_per_turn replays in a turn": (
        "L0T0F0,-,P0,-,L1,-,-,-/C1,F1,T1,B1C0,P1B0,-,-,- -/- 1:4:2:1:1 "
        "favours_per_move=none;replays_per_turn=1"
    ),
}
"""Guards no scope breaks, each with a position where the engine and the kernel are
compared move by move instead (:func:`test_guards_beyond_the_scopes_are_tied_on_a_position`)."""


@pytest.mark.parametrize("guard", sorted(BEYOND_THE_SCOPES))
def test_guards_beyond_the_scopes_are_tied_on_a_position(guard: str) -> None:
    state = ascent.from_text(BEYOND_THE_SCOPES[guard])
    shape = kernel.Shape.of(state.rules, state.players)
    judged = judged_moves.check_position(shape, state)
    assert guard in {f"{v.clause}: {v.what}" for _a, v, after in judged if after is None}
    for _a, _verdict, after in judged:
        if after is not None:
            judged_moves.check_position(shape, after)


def _every_guard() -> set[str]:
    shape = kernel.Shape.of(ascent.Rules(), 2)
    position = kernel.Position(
        CONCRETE,
        shape,
        kernel.Options.of(CONCRETE, shape.rules),
        kernel.from_state(ascent.new_game(2, first_player=0)),
    )
    return {f"{c}: {w}" for c, w, _b in kernel.guards(position, kernel.decode(position, 0))}


def test_every_reachable_guard_of_the_kernel_is_broken_in_some_scope(
    searched: Callable[[Scope], Count],
) -> None:
    """A2-A14: each guard refuses some move, so the clause of each is compared."""
    broken = {name for scope in SCOPES for name, n in searched(scope).refusals if n}
    assert broken == _every_guard() - UNREACHABLE - set(BEYOND_THE_SCOPES)
    assert _every_guard() >= UNREACHABLE | set(BEYOND_THE_SCOPES)


def test_every_register_option_takes_its_other_value_in_some_scope() -> None:
    """Each option of Rules that is not a size takes a value other than the default in
    some scope (sizes: squares, arrival, upper_half, cards; deal is a chance outcome)."""
    default = ascent.Rules()
    varied = {name for scope in SCOPES for name in scope.rules.options()}
    sizes = {"squares", "arrival", "upper_half", "cards", "deal"}
    names = {f.name for f in attrs.fields(ascent.Rules)} - sizes
    assert names <= varied, sorted(names - varied)
    assert all(getattr(default, name) is not None for name in ("end_test", "die"))


def test_a3_the_universe_is_the_adapters_numbers() -> None:
    """Advance of card c is c, Favour 6n + c, EndTurn 12n (the adapters' actions)."""
    for n in (2, 6):
        shape = kernel.Shape.of(ascent.Rules(), n)
        assert len(shape.moves) == 12 * n + 1
        assert shape.moves[-1] == ascent.EndTurn()
        assert all(kernel.cid_of_move(m) == c for c, m in enumerate(shape.moves[: 6 * n]))
        cards = [kernel.cid_of_move(m) for m in shape.moves[6 * n : 12 * n]]
        assert cards == list(range(6 * n))
        assert len(shape.cards) == CARDS_PER_SET * n


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a14_the_kernel_judges_full_games_like_the_engine(players: int) -> None:
    """On full games (every card, seven squares), seeded random games under the
    reference reading and GENEROUS: every move of the universe at every position."""
    for rules in (ascent.Rules(), ascent.Rules.preset("GENEROUS")):
        assert judged_moves.check_game(rules, players, seed=players) > 10


@pytest.mark.parametrize("players", [2, 5])
def test_a18_the_kernel_deals_and_plays_full_shuffled_games_like_the_engine(players: int) -> None:
    """deal="shuffled" on full games: the kernel's first position of the engine's deal
    (with 5 players one card left over, out of play), then a seeded random game judged
    move by move."""
    rules = ascent.Rules(deal="shuffled")
    shape = kernel.Shape.of(rules, players)
    options = kernel.Options.of(CONCRETE, rules)
    for seed in range(3):
        state = ascent.new_game(players, rules, seed=seed)
        deal = ascent_deal(shape, state.owners)
        first = ascent.current_player(state)
        assert kernel.from_state(state) == kernel.initial(CONCRETE, shape, options, first, deal)
        assert deal.count(-1) == 36 % players
    assert judged_moves.check_game(rules, players, seed=players) > 10


# ---------------------------------------------------------------------------
# A planted mistake is caught


def test_a13_the_tie_catches_a_kernel_that_never_removes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel whose favours never remove the exposed remainder (A13) parts from the
    engine in the first scope."""
    right = kernel.Board.__init__

    def no_removal(self: kernel.Board, *args: object) -> None:
        right(self, *args)  # type: ignore[arg-type]
        self.has_rest = tuple(False for _ in self.has_rest)

    monkeypatch.setattr(kernel.Board, "__init__", no_removal)
    found = search(SCOPES[0])
    assert any("successor differs" in line for line in found.mismatches), found.mismatches


def test_a6_the_tie_catches_a_kernel_without_the_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that lets a leader rise past its arrival square (A6) is refused."""
    right = kernel.Shape.of

    def no_ceiling(rules: ascent.Rules, players: int) -> kernel.Shape:
        shape = right(rules, players)
        return attrs.evolve(shape, ceiling=(0, *(rules.squares,) * 6))

    monkeypatch.setattr(kernel.Shape, "of", staticmethod(no_ceiling))
    found = search(SCOPES[0])
    assert found.mismatches and not found.ok


def test_a14_the_tie_catches_a_proof_model_that_lets_a_blocked_seat_advance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The proofs' model reads who may advance in a form of its own
    (:func:`castlerules.symbolic.ascent_model.seat_advances`, its turn passing, A14); one
    that lets every seat advance parts from the kernel's ``Board.advances`` in the first
    scope."""
    from proofs import equivalence

    def every_seat(*args: object) -> tuple[bool, ...]:
        return (True, True)

    monkeypatch.setattr(equivalence, "seat_advances", every_seat)
    found = search(SCOPES[0])
    assert any("seat_advances" in line for line in found.mismatches), found.mismatches


# ---------------------------------------------------------------------------
# The same kernel on Z3 terms


def _symbolic(shape: kernel.Shape) -> tuple[kernel.KState, kernel.Options, object]:
    """A position, the options and a move number, all free Z3 constants."""
    import z3

    slots = shape.slots

    def ints(name: str) -> tuple[object, ...]:
        return tuple(z3.Int(f"{name}{j}") for j in slots)

    state = kernel.KState(
        col=ints("col"),
        sq=ints("sq"),
        dep=ints("dep"),
        flp=tuple(z3.Bool(f"flp{j}") for j in slots),
        own=ints("own"),
        actor=z3.Int("actor"),
        mid=z3.Bool("mid"),
        sd=z3.Int("sd"),
        sm=z3.Int("sm"),
        sk=z3.Int("sk"),
        replays=z3.Int("replays"),
    )
    names = [f.name for f in attrs.fields(kernel.Options)]
    numbers = {o.name for o in ascent.Rules.OPTIONS if (o.symbolic or "").startswith("int")}
    options = kernel.Options(
        **{name: z3.Int(name) if name in numbers else z3.Bool(name) for name in names}
    )
    return state, options, z3.Int("a")


def _values(
    symbolic: kernel.KState | kernel.Options, concrete: kernel.KState | kernel.Options
) -> list[tuple[object, object]]:
    """The pairs ``(free constant, its value)`` for ``z3.substitute``."""
    import z3

    out: list[tuple[object, object]] = []
    for f in attrs.fields(type(symbolic)):
        xs, vs = getattr(symbolic, f.name), getattr(concrete, f.name)
        for x, v in zip(xs, vs, strict=True) if isinstance(xs, tuple) else [(xs, vs)]:
            out.append((x, z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)))
    return out


@pytest.mark.parametrize("index", [0, 5], ids=lambda i: SCOPES[i].name)
def test_a3_the_kernel_on_z3_terms_is_the_kernel_on_values(index: int) -> None:
    """The guards and the successor built once on free Z3 terms (position, options and
    move number all symbolic) give, with the values of a position substituted, the
    plain kernel's first broken guard and successor: the kernel never branches in
    Python on a value, so it runs where the proofs and the batch need it."""
    z3 = pytest.importorskip("z3")
    from castlerules.symbolic import Z3

    scope = SCOPES[index]
    shape = kernel.Shape.of(scope.rules, scope.players)
    state, options, a = _symbolic(shape)
    p = kernel.Position(Z3, shape, options, state)
    m = kernel.decode(p, a)
    checks = kernel.guards(p, m)
    failed = kernel.first_broken(Z3, checks)
    outcome = kernel.step(p, m)
    post = [t for f in attrs.fields(kernel.KState) for t in _flat(getattr(outcome.post, f.name))]
    fixed = _values(options, kernel.Options.of(CONCRETE, scope.rules))
    for position in _sample(scope, 24):
        ks = kernel.from_state(position)
        where = [*fixed, *_values(state, ks)]
        for x in range(len(shape.moves)):
            verdict = kernel.judge(shape, ks, x)
            here = [*where, (a, z3.IntVal(x))]
            index_of = z3.simplify(z3.substitute(failed, *here)).as_long()
            assert (index_of < 0) == verdict.legal
            if not verdict.legal:
                assert (checks[index_of][0], checks[index_of][1]) == (verdict.clause, verdict.what)
                continue
            got = [z3.simplify(z3.substitute(t, *here)) for t in post]
            want = [
                z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)
                for v in _flat_state(verdict.post)
            ]
            assert [str(g) for g in got] == [str(w) for w in want], (position, shape.moves[x])


def _flat(value: object) -> list[object]:
    return list(value) if isinstance(value, tuple) else [value]


def _flat_state(s: kernel.KState | None) -> list[object]:
    assert s is not None
    return [v for f in attrs.fields(kernel.KState) for v in _flat(getattr(s, f.name))]


def _sample(scope: Scope, size: int) -> list[ascent.State]:
    """About ``size`` reachable positions of the scope spread over its breadth-first
    order, and every position where a favour removes a remainder (A13)."""
    starts = initial_positions(scope)
    order, seen, queue = list(starts), set(starts), deque(starts)
    removing: list[ascent.State] = []
    while queue:
        here = queue.popleft()
        for move in ascent.legal_moves(here):
            after = ascent.apply(here, move)
            if sum(map(len, after.removed_cards)) > sum(map(len, here.removed_cards)):
                removing.append(here)
            if after not in seen:
                seen.add(after)
                order.append(after)
                queue.append(after)
    assert removing
    return [*order[:: max(1, len(order) // size)], *removing[:2]]
