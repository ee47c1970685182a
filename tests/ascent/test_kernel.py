"""The fast engine against the rule kernel, exhaustively, on small games.

For every scope of :data:`SCOPES`, every position reachable from every initial
position (every seat the die can show: all chance outcomes) and every move
number of :attr:`castlerules.ascent.kernel.Shape.moves` (every Advance and Favour
the notation can write, and EndTurn), legal or not: the same legality (``apply``
and ``legal_moves``), the same clause for each refusal (the engine's IllegalMove
and the kernel's first broken guard), the same successor (through
:func:`~castlerules.ascent.kernel.from_state`), the same scores and end
(:func:`castlerules.ascent.kernel.check_position`).  The scopes are small games
of the proof-only option ``cards``; each declares the boundaries it must reach,
and together they break every reachable guard and set every option of the
register to its other value.
"""

from __future__ import annotations

import itertools
import time
from collections import deque

import attrs
import pytest

from castlerules import ascent
from castlerules.ascent import kernel
from castlerules.ascent.rules import CARDS_PER_SET, Tables
from castlerules.ascent.setup import deal_in_order, first_player_of
from castlerules.core.ops import CONCRETE


@attrs.frozen(slots=True)
class Scope:
    """A small Ascent game: its options (``cards`` among them) and player count."""

    name: str
    players: int
    options: dict[str, object]
    reaches: tuple[str, ...] = ()
    """Boundary counts (see :func:`check_scope`) that must be above 0."""

    @property
    def rules(self) -> ascent.Rules:
        return ascent.Rules(**self.options)


SCOPES: tuple[Scope, ...] = (
    Scope(
        # L0 takes T1 on row 1 and carries it past its arrival square 3 (A7); P1 then
        # takes L0 on row 4 and the exposed T1 leaves the board (A13, upper half).
        "Lady against Troubadour and Prince, the reference reading",
        2,
        {"cards": ("L0", "T1", "P1")},
        reaches=("favours", "removals", "carried", "ceilings", "jumps", "flips", "over"),
    ),
    Scope(
        # The same game under the strict reading: T1 may not be carried past square 3.
        "Lady against Troubadour and Prince, no protection",
        2,
        {"cards": ("L0", "T1", "P1"), "protection": False},
        reaches=("favours", "strict_refusals", "over"),
    ),
    Scope(
        # Removal in both halves (HARSH) with the upper half from square 5; penalties to
        # the owner of the set: a removed T1 counts against seat 1 from column 0 (A13).
        "Lady and two Troubadours against Prince, HARSH, upper half 5, penalty to the owner",
        2,
        {
            "cards": ("L0", "T0", "T1", "P1"),
            "upper_half": 5,
            "removal_in_lower_half": True,
            "penalty_to": "owner",
        },
        reaches=("favours", "removals", "removals_to_owner", "lower_removals", "skips"),
    ),
    Scope(
        # Unlimited favours (GENEROUS); an exposed remainder stays in the lower half
        # (squares 1-4) and C0, flipped on its arrival square 4, may not take it; one
        # player in the race plays on.
        "Lady and Charlatan against Troubadour and Prince, unlimited favours, no favour "
        "after arrival, the last player continues",
        2,
        {
            "cards": ("L0", "C0", "T1", "P1"),
            "upper_half": 5,
            "favours_per_move": None,
            "favour_after_arrival": False,
            "last_player_continues": True,
        },
        reaches=(
            "favours",
            "second_favours",
            "replays",
            "ends",
            "exposures",
            "declined",
            "alone",
            "over",
        ),
    ),
    Scope(
        # The other stack rank reading; the die decides nothing; any unflipped card
        # keeps its player in the race.
        "Lady and Charlatan against Troubadour and Prince, highest rank, unflipped, no die",
        2,
        {
            "cards": ("L0", "C0", "T1", "P1"),
            "stack_rank": "highest",
            "die": "none",
            "end_test": "unflipped",
        },
        reaches=("favours", "removals", "highest_differs", "over"),
    ),
    Scope(
        # Three seats: turns skip a seat with no Advance; the end test can_move; a split
        # may leave a card exposed.
        "three seats: Lady, Troubadour, Charlatan and Prince, can_move, exposing splits",
        3,
        {"cards": ("L0", "T1", "C2", "P2"), "end_test": "can_move", "allow_exposing_split": True},
        reaches=("favours", "removals", "skips", "over", "blocked_end", "exposing_splits"),
    ),
    Scope(
        # L0 takes T1 and then C2 on one row: [L0, T1, C2]; once L0 has gone on alone,
        # C1 may take T1 but not T1 with C2 under it (all_lower, A10).
        "three seats: Lady, Troubadour and Charlatan, Charlatan; two favours, all lower",
        3,
        {"cards": ("L0", "T1", "C1", "C2"), "favours_per_move": 2, "favour_takes": "all_lower"},
        reaches=("favours", "second_favours", "all_lower_refusals", "over"),
    ),
    Scope(
        # The shuffled deal: three cards dealt one by one by chance (every deal); a
        # removed card counts against its owner, the seat dealt it (A13, A18).
        "Lady, Troubadour and Prince shuffled between three seats, penalty to the owner",
        3,
        {"cards": ("L0", "T1", "P2"), "deal": "shuffled", "penalty_to": "owner"},
        reaches=("favours", "removals", "removals_to_owner", "over"),
    ),
    Scope(
        # C0 reaches row 1 with T1 and C2 there: it may take T1, not C2 (equal rank).
        "three seats: Charlatan, Troubadour, Charlatan",
        3,
        {"cards": ("C0", "T1", "C2")},
        reaches=("favours", "equal_refusals", "over"),
    ),
)
"""The scopes of the exhaustive tie, each with the boundaries it must reach."""


@attrs.frozen(slots=True)
class Count:
    """What one scope's search covered."""

    scope: str
    players: int
    initial: int
    states: int
    pairs: int
    legal: int
    seconds: float
    marks: tuple[tuple[str, int], ...]
    refusals: tuple[tuple[str, int], ...]
    """Refused pairs per kernel guard (``clause: what``)."""

    def get(self, name: str) -> int:
        return dict(self.marks)[name]

    def line(self) -> str:
        marks = ", ".join(f"{k} {v}" for k, v in self.marks)
        return (
            f"{self.scope} ({self.players} players): {self.initial} initial positions, "
            f"{self.states} reachable positions, {self.pairs} position x move pairs "
            f"({self.legal} legal); {marks}; {self.seconds:.1f} s"
        )


MARKS = (
    "favours",
    "second_favours",
    "replays",
    "ends",
    "declined",
    "removals",
    "removals_to_owner",
    "lower_removals",
    "exposures",
    "carried",
    "ceilings",
    "jumps",
    "flips",
    "skips",
    "alone",
    "over",
    "blocked_end",
    "highest_differs",
    "all_lower_refusals",
    "strict_refusals",
    "exposing_splits",
    "equal_refusals",
)
"""The boundary counts of :func:`check_scope`:

``favours`` legal Favours; ``second_favours`` a Favour after one (``sk >= 1``);
``replays`` an Advance after a favour (A12); ``ends`` legal EndTurns;
``declined`` an Advance onto its arrival square whose row has a lower stack it may
not take (``favour_after_arrival=False``); ``removals`` a favour that removes a
remainder (A13); ``removals_to_owner`` a removed card on a pile other than its
column's; ``lower_removals`` a removal below the upper half; ``exposures`` a favour
that leaves an exposed remainder on the board; ``carried`` a move after which a
card stands above its arrival square; ``ceilings`` A6 refusals for the leader's
ceiling; ``jumps`` an Advance over an occupied square; ``flips`` an Advance onto its
arrival square; ``skips`` the turn passes over a seat; ``alone`` the turn goes on
with at most one player in the race (``last_player_continues``); ``over`` finished
games; ``blocked_end`` a game over with a card still below its arrival square
and unflipped; ``highest_differs`` an Advance whose part's rank is not its top
card's; ``all_lower_refusals``, ``strict_refusals`` refusals by those options'
guards; ``exposing_splits`` an Advance leaving a remainder above its ceiling;
``equal_refusals`` a favour refused for a target of the taker's own rank (A10)."""


def initial_positions(scope: Scope) -> list[ascent.State]:
    """Every new game of the scope: every seat the die can show (A18); with
    ``die="none"`` the one game seat 0 begins.  Each is checked against the kernel's
    :func:`~castlerules.ascent.kernel.initial` of that chance outcome."""
    rules, n = scope.rules, scope.players
    shape = kernel.Shape.of(rules, n)
    options = kernel.Options.of(CONCRETE, rules)
    rolled = ascent.Rules()  # the die as rolled when it decides (it reads no other option)
    out: list[ascent.State] = []
    for seed in range(4 * n):
        state = ascent.new_game(n, rules, seed=seed)
        roll = first_player_of(rolled, n, seed)
        deal = _deal_of_slots(shape, state.owners) if rules.deal == "shuffled" else None
        assert kernel.from_state(state) == kernel.initial(CONCRETE, shape, options, roll, deal)
        if rules.die == "first_player":
            state = ascent.new_game(n, rules, first_player=roll, owners=state.owners)
        if state not in out:
            out.append(state)
    if rules.deal == "shuffled":  # every deal of the cards, with every first player
        for owners in _every_deal(rules, n):
            deal = _deal_of_slots(shape, owners)
            for roll in range(n) if rules.die == "first_player" else (0,):
                state = ascent.new_game(n, rules, first_player=roll, owners=owners)
                assert kernel.from_state(state) == kernel.initial(
                    CONCRETE, shape, options, roll, deal
                )
                if state not in out:
                    out.append(state)
    return out


def _deal_of_slots(shape: kernel.Shape, owners: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(owners[c] for c in shape.cards)


def _every_deal(rules: ascent.Rules, n: int) -> list[tuple[int, ...]]:
    """Every outcome of the shuffled deal (A18): each seat ``len // n`` of the cards."""
    deck = Tables.of(rules).dealable
    return sorted({deal_in_order(rules, n, order) for order in itertools.permutations(deck)})


def check_scope(scope: Scope) -> Count:
    """Breadth-first search of every reachable position of ``scope``; at each, every
    move of the kernel's universe judged by the engine and by the kernel
    (:func:`~castlerules.ascent.kernel.check_position` raises on a disagreement)."""
    started = time.perf_counter()
    rules, n = scope.rules, scope.players
    shape = kernel.Shape.of(rules, n)
    options = kernel.Options.of(CONCRETE, rules)
    starts = initial_positions(scope)
    marks = dict.fromkeys(MARKS, 0)
    refused: dict[str, int] = {}
    seen: set[ascent.State] = set(starts)
    queue: deque[ascent.State] = deque(starts)
    pairs = legal = 0
    while queue:
        state = queue.popleft()
        ks = kernel.from_state(state)
        position = kernel.Position(CONCRETE, shape, options, ks)
        marks["over"] += ascent.is_over(state)
        for a, verdict, after in kernel.check_position(shape, state, position):
            pairs += 1
            if after is None:
                why = f"{verdict.clause}: {verdict.what}"
                refused[why] = refused.get(why, 0) + 1
                marks["equal_refusals"] += (
                    why == "A10: a stack of lower rank"
                    and position.board.stack_rank[shape.slot[a]] == position.taker
                )
                continue
            legal += 1
            _mark(marks, shape, position, a, verdict, after)
            if after not in seen:
                seen.add(after)
                queue.append(after)
    marks["ceilings"] = refused.get("A6: a free square up to the leader's arrival square", 0)
    marks["all_lower_refusals"] = refused.get(
        "A10: every taken card of lower rank (favour_takes=all_lower)", 0
    )
    marks["strict_refusals"] = refused.get(
        "A6: every moving card within its own arrival square (protection=False)", 0
    )
    return Count(
        scope=scope.name,
        players=n,
        initial=len(starts),
        states=len(seen),
        pairs=pairs,
        legal=legal,
        seconds=time.perf_counter() - started,
        marks=tuple(marks.items()),
        refusals=tuple(sorted(refused.items())),
    )


def _mark(
    marks: dict[str, int],
    shape: kernel.Shape,
    p: kernel.Position,
    a: int,
    verdict: kernel.Verdict,
    after: ascent.State,
) -> None:
    """Count the boundaries one legal move meets (the kernel's view, which the engine's
    successor has just been found equal to)."""
    s, b, post = p.s, p.board, verdict.post
    assert post is not None
    kind, k = shape.kind[a], shape.slot[a]
    slots = shape.slots
    if kind == kernel.K_ADVANCE:
        d = b.dest[k]
        marks["replays"] += s.mid
        marks["jumps"] += any(b.occ[s.actor][x] for x in range(s.sq[k] + 1, d))
        marks["flips"] += d == b.ceil[k]
        top = sum(shape.value[j] for j in slots if b.stk[k][j] and s.dep[j] == 0)
        marks["highest_differs"] += b.part_rank[k] != top
        marks["exposing_splits"] += b.has_rest[k] and s.sq[k] > shape.ceiling[b.rest_rank[k]]
        marks["declined"] += (
            d == b.ceil[k] and not post.mid and b.targets(s.actor, d, b.part_rank[k])
        )
    elif kind == kernel.K_FAVOUR:
        marks["favours"] += 1
        marks["second_favours"] += s.sk >= 1
        gone = [j for j in slots if post.sq[j] == kernel.REMOVED and s.sq[j] != kernel.REMOVED]
        marks["removals"] += bool(gone)
        marks["removals_to_owner"] += any(post.col[j] != s.col[j] for j in gone)
        marks["lower_removals"] += bool(gone) and s.sd < shape.upper_half
        marks["exposures"] += not gone and b.has_rest[k] and s.sd > shape.ceiling[b.rest_rank[k]]
    else:
        marks["ends"] += 1
    marks["carried"] += any(post.sq[j] > shape.arrival[j] for j in slots)
    if post.actor >= 0 and not post.mid:
        marks["skips"] += post.actor != (s.actor + 1) % shape.players
        alive = sum(
            any(
                post.col[j] == q
                and post.sq[j] >= 0
                and not post.flp[j]
                and post.sq[j] < shape.arrival[j]
                for j in slots
            )
            for q in range(shape.players)
        )
        marks["alone"] += alive <= 1
    if ascent.is_over(after):
        marks["blocked_end"] += any(
            0 <= post.sq[j] < shape.arrival[j] and not post.flp[j] for j in slots
        )


@pytest.fixture(scope="module")
def counts() -> dict[str, Count]:
    out = {}
    for scope in SCOPES:
        found = check_scope(scope)
        print(found.line())
        out[scope.name] = found
    return out


@pytest.mark.parametrize("scope", SCOPES, ids=lambda s: s.name)
def test_a1_to_a18_the_engine_is_the_kernel_on_every_reachable_position(
    counts: dict[str, Count], scope: Scope
) -> None:
    found = counts[scope.name]
    assert found.states > 0 and found.legal > 0
    for boundary in scope.reaches:
        assert found.get(boundary) > 0, (scope.name, boundary)


UNREACHABLE = {
    # The step after an Advance onto its arrival square is never opened when
    # favour_after_arrival=False (rule 16), and a favour never flips the taker.
    "A10: no favour by a stack just flipped (favour_after_arrival=False)",
}
"""Guards no position breaks, with the reason (the engine asks them all the same)."""


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
    counts: dict[str, Count],
) -> None:
    """A2-A14: each guard refuses some move, so the clause of each is compared."""
    broken = {name for found in counts.values() for name, n in found.refusals if n}
    assert broken == _every_guard() - UNREACHABLE
    assert _every_guard() >= UNREACHABLE


def test_every_register_option_takes_its_other_value_in_some_scope() -> None:
    """Each option of Rules that is not a size takes a value other than the default in
    some scope (sizes: squares, arrival, upper_half, cards; deal and path have one
    playable value)."""
    default = ascent.Rules()
    varied = {name for scope in SCOPES for name in scope.rules.options()}
    sizes = {"squares", "arrival", "upper_half", "cards", "deal", "path"}
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
        assert kernel.check_game(rules, players, seed=players) > 10


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
        deal = _deal_of_slots(shape, state.owners)
        first = ascent.current_player(state)
        assert kernel.from_state(state) == kernel.initial(CONCRETE, shape, options, first, deal)
        assert deal.count(-1) == 36 % players
    assert kernel.check_game(rules, players, seed=players) > 10


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
    with pytest.raises(kernel.Disagreement, match="successor differs"):
        check_scope(SCOPES[0])


def test_a6_the_tie_catches_a_kernel_without_the_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that lets a leader rise past its arrival square (A6) is refused."""
    right = kernel.Shape.of

    def no_ceiling(rules: ascent.Rules, players: int) -> kernel.Shape:
        shape = right(rules, players)
        return attrs.evolve(shape, ceiling=(0, *(rules.squares,) * 6))

    monkeypatch.setattr(kernel.Shape, "of", staticmethod(no_ceiling))
    with pytest.raises(kernel.Disagreement):
        check_scope(SCOPES[0])


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
    )
    names = [f.name for f in attrs.fields(kernel.Options)]
    options = kernel.Options(
        **{name: z3.Int(name) if name in ("limit", "end_test") else z3.Bool(name) for name in names}
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
