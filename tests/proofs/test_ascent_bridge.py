"""The bridge between the Ascent engine and its symbolic model (castlerules.symbolic.ascent_model).

On positions of random games under drawn options, the full model must admit
exactly the engine's legal moves and, for each, exactly the engine's
successor; the model's invariant must hold; its "has a legal Advance" must be
the engine's.  The option domains of the symbolic model must be what
``Rules`` accepts.  A mutated model must be caught.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import ascent
from castlerules.ascent.rules import END_TESTS, PATHS, UNLIMITED
from castlerules.ascent.transitions import advances_of
from castlerules.core import ArgumentError, IllegalMove, Rng
from castlerules.core.protocol import random_playout
from castlerules.symbolic.ascent_model import (
    OPTION_NAMES,
    AscentModel,
    Params,
    all_of,
    as_z3,
    squares_domain,
    unroll,
)
from castlerules.symbolic.smt import satisfiable
from proofs.ascent_bridge import Bridge, concrete, decode, fields, move_in, read, replay


@st.composite
def rules_strategy(draw: st.DrawFn) -> ascent.Rules:
    """Rules with every option the model reads drawn (the three readings of A5, A8, A12
    among them); the reference reading a third of the time."""
    if draw(st.integers(0, 2)) == 0:
        return ascent.Rules()
    squares = draw(st.sampled_from([6, 7, 7, 8, 10]))
    if draw(st.booleans()):
        arrival = tuple(sorted(draw(st.sets(st.integers(1, squares), min_size=6, max_size=6))))
    else:
        arrival = (2, 3, 4, 5, 6, squares) if squares > 6 else (1, 2, 3, 4, 5, 6)
    return ascent.Rules(
        squares=squares,
        arrival=arrival,
        upper_half=draw(st.integers(1, squares)),
        allow_exposing_split=draw(st.booleans()),
        favours_per_move=draw(st.sampled_from([1, 1, 2, None])),
        favour_after_arrival=draw(st.booleans()),
        removal_in_lower_half=draw(st.booleans()),
        favour_takes=draw(st.sampled_from(["lower_top", "all_lower"])),
        penalty_to=draw(st.sampled_from(["column", "owner"])),
        end_test=draw(st.sampled_from(["unreached", "unflipped", "can_move"])),
        last_player_continues=draw(st.booleans()),
        die=draw(st.sampled_from(["first_player", "none"])),
        protection=draw(st.sampled_from([True, True, False])),
        stack_rank=draw(st.sampled_from(["top", "top", "highest"])),
        path=draw(st.sampled_from(["shared_start", "shared_start", "staggered"])),
        flip_uncovered=draw(st.booleans()),
        replays_per_turn=draw(st.sampled_from([None, None, 1, 2])),
    )


@st.composite
def positions(draw: st.DrawFn) -> ascent.State:
    """A position of a random game: a drawn prefix of a random playout."""
    rules = draw(rules_strategy())
    players = draw(st.integers(2, 6))
    seed = draw(st.integers(0, 2**32))
    start = ascent.new_game(players, rules, seed=seed)
    history, end, _ = random_playout(
        ascent.legal_moves, ascent.apply, start, Rng.from_seed(seed, "bridge")
    )
    states = [s for s, _m in history] + [end]
    return states[draw(st.integers(0, len(states) - 1))]


EXAMPLES = min(25, settings().max_examples)
"""Positions per run (fewer with the ``quick`` profile): each checks every legal move."""


@settings(max_examples=EXAMPLES)
@given(positions())
def test_model_admits_exactly_the_engines_moves_and_successors(state: ascent.State) -> None:
    """Rules 8-19: legal moves, successors (turn passing included), the invariant."""
    check_bridge(state)


def check_bridge(state: ascent.State) -> None:
    """The model admits exactly the engine's moves and successors in ``state``, its
    invariant holds there, and its "has a legal Advance" is the engine's."""
    model = AscentModel(Params(state.rules, state.players))
    bridge = Bridge(model, state)
    assert bridge.invariant_breaks() == []
    assert bridge.legal_moves() == {str(m) for m in ascent.legal_moves(state)}
    for move in ascent.legal_moves(state):
        got = bridge.successor(move)
        assert got.unique, f"{move}: more than one successor admitted"
        assert got.state == ascent.apply(state, move), f"{move} ({got.case})"
    for seat in range(state.players):
        assert model.has_advance(bridge.pre, seat) is bool(advances_of(state, seat))


def ranked_apart(state: ascent.State) -> bool:
    """Some stack on the path has a card above its top's rank (A3: under
    ``stack_rank="highest"`` it acts with that card, not its top)."""
    for q in range(state.players):
        for square in range(1, state.rules.squares + 1):
            if ranked_under_top(ascent.stack_at(state, q, square)):
                return True
    return False


def ranked_under_top(cards: tuple[ascent.Card, ...]) -> bool:
    """Whether some card of ``cards`` (top first) ranks above the top one."""
    return bool(cards) and max(c.rank.value for c in cards) > cards[0].rank.value


HIGHEST_RULES = [
    ascent.Rules(stack_rank="highest"),
    ascent.Rules(stack_rank="highest", protection=False, favour_takes="all_lower"),
    ascent.Rules(stack_rank="highest", allow_exposing_split=True, favours_per_move=None),
    ascent.Rules(
        stack_rank="highest",
        squares=7,
        arrival=(1, 2, 3, 5, 6, 7),
        upper_half=3,
        removal_in_lower_half=True,
        favour_after_arrival=True,
    ),
]


@pytest.mark.parametrize("index", range(len(HIGHEST_RULES)))
def test_bridge_under_stack_rank_highest(index: int) -> None:
    """A3, A6, A7, A10, A13 under ``stack_rank="highest"``: on positions where a stack's
    rank card is not its top, the model's moves, successors (with their stack ranks),
    invariant and "has a legal Advance" are the engine's."""
    rules = HIGHEST_RULES[index]
    players = (4, 6, 3, 4)[index]  # two sets never part a stack's rank from its top
    checked = 0
    for seed in range(40):
        start = ascent.new_game(players, rules, seed=seed)
        history, end, _ = random_playout(
            ascent.legal_moves, ascent.apply, start, Rng.from_seed(seed, "highest")
        )
        apart = [s for s in [*(s for s, _m in history), end] if ranked_apart(s)]
        for state in apart[:: max(1, len(apart) // 2)][:2]:
            check_bridge(state)
            checked += 1
        if checked >= 4:
            break
    assert checked >= 4, "too few positions whose stack rank is not the top's"


@settings(max_examples=EXAMPLES // 2)
@given(positions(), st.data())
def test_model_refuses_what_the_engine_refuses(state: ascent.State, data: st.DataObject) -> None:
    """A2, A3, A10, A11, A12: a move outside legal_moves has no successor in the model."""
    model = AscentModel(Params(state.rules, state.players))
    bridge = Bridge(model, state)
    legal = {str(m) for m in ascent.legal_moves(state)}
    cards = [ascent.Card(q, r) for q in range(state.players) for r in ascent.Rank]
    moves: list[ascent.Move] = [ascent.EndTurn()]
    moves += [ascent.Advance(c) for c in cards] + [ascent.Favour(c) for c in cards]
    illegal = [m for m in moves if str(m) not in legal]
    for move in data.draw(st.lists(st.sampled_from(illegal), max_size=5, unique=True)):
        assert bridge.successor(move).state is None
        with pytest.raises(IllegalMove):
            ascent.apply(state, move)


def test_fields_round_trip_through_the_engine() -> None:
    """The model's fields of a position decode to the same engine state."""
    rng = Rng.from_seed(3, "fields")
    for players in (2, 4, 6):
        start = ascent.new_game(players, ascent.Rules(favours_per_move=None), seed=players)
        history, _end, rng = random_playout(ascent.legal_moves, ascent.apply, start, rng)
        for state, _move in history[:: max(1, len(history) // 10)]:
            assert decode(state.rules, fields(state)) == state


def test_squares_domain_is_what_rules_accept() -> None:
    """A5: the symbolic squares range is the range Rules accepts."""
    dom = squares_domain()
    for v in range(40):
        try:
            ascent.Rules(squares=v, arrival=tuple(range(1, 7)), upper_half=1)
            accepted = True
        except ArgumentError:
            accepted = False
        assert accepted == (v in dom)


@settings(max_examples=60)
@given(
    squares=st.integers(5, 21),
    arrival=st.lists(st.integers(-1, 22), min_size=6, max_size=6),
    upper=st.integers(-1, 22),
    limit=st.one_of(st.none(), st.integers(-1, 4)),
    replays=st.one_of(st.none(), st.integers(-1, 3), st.integers(UNLIMITED - 1, UNLIMITED + 2)),
    path=st.sampled_from(PATHS),
    flip=st.booleans(),
)
def test_symbolic_option_domains_are_what_rules_accept(
    squares: int,
    arrival: list[int],
    upper: int,
    limit: int | None,
    replays: int | None,
    path: str,
    flip: bool,
) -> None:
    """A5, A6, A8, A10, A12, A13: the assumptions on symbolic options accept exactly the
    values that Rules accepts (squares, arrival, upper_half, favours_per_move, path,
    flip_uncovered, replays_per_turn, the last as the kernel reads it)."""
    model = AscentModel(Params(ascent.Rules(), 2, symbolic=OPTION_NAMES))
    o = model.o
    fixes = [o.squares == squares, o.upper_half == upper]
    fixes += [a == v for a, v in zip(o.arrival, arrival, strict=True)]
    fixes.append(o.unlimited if limit is None else all_of([o.unlimited == False, o.limit == limit]))  # noqa: E712
    fixes += [o.staggered == (path == "staggered"), o.flip_uncovered == flip]
    # the kernel's number of replays_per_turn (UNLIMITED for None, a bound above it alike)
    fixes.append(o.replay_limit == (UNLIMITED if replays is None else min(replays, UNLIMITED)))
    admitted = satisfiable([*(as_z3(c) for c in model.assumptions()), *fixes]) is not None
    try:
        ascent.Rules(
            squares=squares,
            arrival=arrival,
            upper_half=upper,
            favours_per_move=limit,
            replays_per_turn=replays,
            path=path,
            flip_uncovered=flip,
        )
        accepted = True
    except ArgumentError:
        accepted = False
    assert admitted == accepted


@pytest.mark.parametrize("index", [-1, 0, 1, 2, 3])
def test_symbolic_end_test_is_one_of_the_values_rules_accepts(index: int) -> None:
    """A14: the symbolic end test ranges over END_TESTS, the values Rules accepts."""
    model = AscentModel(Params(ascent.Rules(), 2, symbolic=OPTION_NAMES))
    admitted = satisfiable([*(as_z3(c) for c in model.assumptions()), model.o.end_test == index])
    assert (admitted is not None) == (0 <= index < len(END_TESTS))
    if 0 <= index < len(END_TESTS):
        assert ascent.Rules(end_test=END_TESTS[index]).end_test == END_TESTS[index]
        assert AscentModel(Params(ascent.Rules(end_test=END_TESTS[index]), 2)).o.end_test == index


@pytest.mark.parametrize(
    "options",
    [{}, {"removal_in_lower_half": True}, {"upper_half": 1}, {"squares": 9, "upper_half": 9}],
)
def test_removal_is_rules_removal_applies(options: dict[str, object]) -> None:
    """A13: the model's removal squares are Rules.removal_applies."""
    rules = ascent.Rules(**options)
    model = AscentModel(Params(rules, 2))
    for square in range(rules.squares + 2):
        assert model.o.removal(square) is rules.removal_applies(square)


def test_bmc_paths_are_engine_games() -> None:
    """A BMC path of the bit-vector model, decoded state by state, is the engine's game."""
    rules = ascent.Rules()
    model = AscentModel(Params(rules, 2, bitvector=True))
    start = ascent.new_game(2, rules, first_player=1)

    def anything(_s: object) -> bool:
        return True

    path = unroll(model, anything, 4, min_depth=4, start=concrete(model, fields(start)))
    assert path is not None and path.depth == 4
    moves = [move_in(path.model, m) for m in path.moves]
    state = start
    for move, symbolic in zip(moves, path.states[1:], strict=True):
        state = ascent.apply(state, move)
        assert decode(rules, read(path.model, symbolic)) == state
    trace, end = replay(start, moves)
    assert end == state and len(trace.positions) == 5


def test_equal_rank_mutation_is_caught_by_the_bridge() -> None:
    """A10: a model whose favours may take an equal rank gives a successor the engine
    does not (a favour left pending where the engine passes the turn)."""
    rules = ascent.Rules()
    state = ascent.new_game(2, rules, first_player=0)
    for text in ("T0", "T1"):
        move = ascent.parse_move(state, text)
        if text == "T1":
            before = state
        state = ascent.apply(state, move)
    right = Bridge(AscentModel(Params(rules, 2)), before).successor(move)
    wrong = Bridge(AscentModel(Params(rules, 2, mutation="favour_equal_rank")), before).successor(
        move
    )
    assert right.state == state and right.unique
    assert wrong.state != state and wrong.state is not None
    assert ascent.pending_favour(wrong.state) and not ascent.pending_favour(state)


def test_has_advance_and_skips_on_a_crowded_column() -> None:
    """A14, rule 17: a seat whose cards are all flipped is skipped (model == engine)."""
    rules = ascent.Rules()
    for seed, players in itertools.product(range(3), (2, 3)):
        start = ascent.new_game(players, rules, seed=seed)
        history, end, _ = random_playout(
            ascent.legal_moves, ascent.apply, start, Rng.from_seed(seed, "skip")
        )
        state = history[-1][0]
        bridge = Bridge(AscentModel(Params(rules, players)), state)
        for move in ascent.legal_moves(state):
            assert bridge.successor(move).state == ascent.apply(state, move)
        assert ascent.is_over(end)


END_POSITIONS = (
    # seat 0's last unfinished card arrives; seat 1's only unflipped card is above its
    # arrival square; seat 2 still moves: the end tests part on F0
    "-,F0,-,*T0,*C0,*L0,*B0,*P0/-,-,-,F1,*C1T1,*L1,*B1,*P1/P2B2L2C2T2F2,-,-,-,-,-,-,- -/-/- 0",
    # seat 1 keeps unfinished cards, blocked below F2 and T2 left on their arrival squares
    "-,F0,-,*T0,*C0,*L0,*B0,*P0/F1,T1,F2,T2,*C1,*L1,*B1,*P1/P2B2L2C2,-,-,-,-,-,-,- -/-/- 0",
)


@pytest.mark.parametrize("end_test", END_TESTS)
@pytest.mark.parametrize("text", END_POSITIONS)
def test_model_turn_passing_agrees_under_each_end_test(text: str, end_test: str) -> None:
    """A14 (rule 18): on positions where the end tests part, the model's successor (who
    plays next, or the end) is the engine's, under each value of end_test."""
    options = "-" if end_test == "unreached" else f"end_test={end_test}"
    state = ascent.from_text(f"{text} {options}")
    bridge = Bridge(AscentModel(Params(state.rules, state.players)), state)
    for move in ascent.legal_moves(state):
        got = bridge.successor(move)
        assert got.unique and got.state == ascent.apply(state, move), f"{move} ({got.case})"


FAVOUR_POSITIONS = (
    # L0 just moved beside C1 above L1: all_lower takes C1 only (A10)
    "P0B0C0T0F0,-,-,-,L0,-,-,-/P1B1T1F1,-,-,-,C1L1,-,-,- -/- 0:4:1:0 {}",
    # P0 just moved beside B1 above F0: xB1 removes F0 (A13), to column 1's pile or F0's owner
    "B0L0C0T0,-,-,-,-,-,P0,-/P1L1C1T1F1,-,-,-,-,-,B1F0,- -/- 0:6:1:0 {}",
)


@pytest.mark.parametrize(
    "options",
    ["-", "favour_takes=all_lower", "penalty_to=owner", "favour_takes=all_lower;penalty_to=owner"],
)
@pytest.mark.parametrize("text", FAVOUR_POSITIONS)
def test_model_favours_agree_under_each_favour_reading(text: str, options: str) -> None:
    """A10, A13: on favour steps where favour_takes and penalty_to part, the model admits
    exactly the engine's favours, with the engine's successors (removed piles included),
    and refuses the others."""
    state = ascent.from_text(text.format(options))
    bridge = Bridge(AscentModel(Params(state.rules, state.players)), state)
    assert bridge.legal_moves() == {str(m) for m in ascent.legal_moves(state)}
    for move in ascent.legal_moves(state):
        got = bridge.successor(move)
        assert got.unique and got.state == ascent.apply(state, move), f"{move} ({got.case})"
    for q in range(state.players):
        for rank in ascent.Rank:
            move = ascent.Favour(ascent.Card(q, rank))
            if move not in ascent.legal_moves(state):
                assert bridge.successor(move).state is None, str(move)


def test_a18_the_model_refuses_the_shuffled_deal() -> None:
    """The proofs' parameters cover deal='sets' only (docs/proofs.rst says so): the
    model refuses the shuffled deal in one clear error rather than proving the sets."""
    from castlerules.symbolic.ascent_model import AscentModel, Params

    with pytest.raises(ValueError, match=r"deal='shuffled' \(A18\) is outside its parameters"):
        AscentModel(Params(ascent.Rules(deal="shuffled"), 2))


@pytest.mark.parametrize(
    "options",
    [{"path": "staggered"}, {"flip_uncovered": True}, {"replays_per_turn": 1}],
    ids=lambda o: next(iter(o)),
)
def test_a5_a8_a12_the_model_reads_every_declared_reading(
    options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proofs' model reads the staggered path, the flip of an uncovered stack and a
    bounded number of replays (free options of the proofs); a declared reading it did not
    read would be refused in one clear error rather than proved as the reference reading
    (planted here: the option taken out of the ones the model reads)."""
    from castlerules.symbolic import ascent_model
    from castlerules.symbolic.ascent_model import AscentModel, Params, unmodelled

    (name,) = options
    rules = ascent.Rules(**options)
    assert unmodelled(rules) == ()
    assert name in OPTION_NAMES
    AscentModel(Params(rules, 2))
    unread = tuple(option for option in OPTION_NAMES if option != name)
    monkeypatch.setattr(ascent_model, "OPTION_NAMES", unread)
    assert [text.split("=")[0] for text in unmodelled(rules)] == [name]
    with pytest.raises(ValueError, match=f"does not read {name}=.*outside its parameters"):
        AscentModel(Params(rules, 2))


def taker_ranked_apart(state: ascent.State) -> bool:
    """A favour is pending and the stack that may take it has a card above its top's rank
    (A10 under ``stack_rank="highest"``: the taker acts with that card)."""
    if not ascent.pending_favour(state) or state.step is None:
        return False
    return ranked_under_top(ascent.stack_at(state, state.actor, state.step[0]))


def test_a10_bridge_where_the_taker_is_ranked_by_a_card_under_its_top() -> None:
    """A10 under ``stack_rank="highest"``: positions with a favour pending whose taker's
    highest card is not its top (rare in random games, so searched for): the model's
    favours and successors are the engine's."""
    rules = ascent.Rules(stack_rank="highest", favours_per_move=None)
    checked = _bridge_where(rules, 5, "taker", taker_ranked_apart)
    assert checked >= 6, "too few favours pending for a taker ranked under its top"


def remainder_ranked_apart(state: ascent.State) -> bool:
    """Some legal Advance splits a stack and leaves a remainder whose highest card is not
    its top (A3, A7 under ``stack_rank="highest"``: the remainder acts with that card)."""
    for move in ascent.legal_moves(state):
        if not isinstance(move, ascent.Advance):
            continue
        place = ascent.where(state, move.card)
        if place is None or place[1] == 0:
            continue
        stack = ascent.stack_at(state, *place)
        if ranked_under_top(stack[stack.index(move.card) + 1 :]):
            return True
    return False


def test_a7_bridge_where_a_split_leaves_a_remainder_ranked_under_its_top() -> None:
    """A3, A7 under ``stack_rank="highest"``: positions where an Advance may split off a
    part and leave a remainder whose highest card is not its top (searched for): the
    model's successors (the remainder's rank, its ceiling) are the engine's."""
    rules = ascent.Rules(stack_rank="highest", allow_exposing_split=True)
    checked = _bridge_where(rules, 6, "remainder", remainder_ranked_apart)
    assert checked >= 6, "too few splits leaving a remainder ranked under its top"


def _bridge_where(
    rules: ascent.Rules,
    players: int,
    stream: str,
    wanted: Callable[[ascent.State], bool],
    enough: int = 6,
) -> int:
    """Bridge-check up to two positions per seeded random game for which ``wanted``
    holds, until ``enough`` are checked; returns how many were."""
    checked = 0
    for seed in range(400):
        start = ascent.new_game(players, rules, seed=seed)
        history, _end, _ = random_playout(
            ascent.legal_moves, ascent.apply, start, Rng.from_seed(seed, stream)
        )
        for state in [s for s, _m in history if wanted(s)][:2]:
            check_bridge(state)
            checked += 1
        if checked >= enough:
            break
    return checked


def uncovers(state: ascent.State) -> bool:
    """Some legal Advance or Favour leaves a remainder that turns over where it stands
    (A8 under ``flip_uncovered=True``: uncovered on the arrival square of its rank)."""
    for move in ascent.legal_moves(state):
        if isinstance(move, ascent.EndTurn):
            continue
        place = ascent.where(state, move.card)
        if place is None or place[1] == 0:
            continue
        after = ascent.apply(state, move)
        column, square = place
        if after.flipped[column] >> square & 1 and ascent.stack_at(after, column, square):
            return True
    return False


def replayed(state: ascent.State) -> bool:
    """A step is open after a replay (A12 under ``replays_per_turn``: a count kept)."""
    return state.step is not None and state.replays >= 1


READINGS = (
    (ascent.Rules(flip_uncovered=True), 3, uncovers),
    (ascent.Rules(flip_uncovered=True, stack_rank="highest", path="staggered"), 4, uncovers),
    (ascent.Rules(replays_per_turn=1, favours_per_move=None), 3, replayed),
    (ascent.Rules(replays_per_turn=2, path="staggered"), 4, replayed),
)
"""Games of the readings of A5, A8, A12, with where each reading shows."""


@pytest.mark.parametrize("index", range(len(READINGS)))
def test_a5_a8_a12_bridge_where_the_readings_show(index: int) -> None:
    """A5, A8, A12: positions where a remainder would turn over uncovered
    (``flip_uncovered``) or a replay was counted (``replays_per_turn``), on the shared or
    the staggered path (searched for in random games): the model's moves, successors,
    invariant and "has a legal Advance" are the engine's."""
    rules, players, wanted = READINGS[index]
    assert _bridge_where(rules, players, f"reading{index}", wanted, enough=3) >= 3


def test_a5_seat_advances_reads_the_staggered_start_rows() -> None:
    """A5 (path="staggered"): a Troubadour on its Start leaves from row 1, so with
    squares 2-12 of its column taken it has no Advance although square 1 is free; the
    proofs' model's ``seat_advances`` (which the exhaustive tie compares with the
    kernel) reads the start row as the kernel does."""
    import attrs

    from castlerules.ascent import kernel
    from castlerules.ascent.rules import card_id
    from castlerules.core.ops import CONCRETE
    from castlerules.symbolic.ascent_model import seat_advances

    rules = ascent.Rules(path="staggered")
    shape = kernel.Shape.of(rules, 2)
    options = kernel.Options.of(CONCRETE, rules)
    troubadour = shape.cards.index(card_id(0, ascent.Rank.TROUBADOUR.value))
    squares = iter(range(2, 13))
    sq = tuple(0 if j == troubadour else next(squares) for j in shape.slots)
    s = kernel.KState(
        col=(0,) * len(sq),
        sq=sq,
        dep=(0,) * len(sq),
        flp=(False,) * len(sq),
        own=shape.owner,
        actor=0,
        mid=False,
        sd=0,
        sm=0,
        sk=0,
    )
    board = kernel.Position(CONCRETE, shape, options, s).board
    assert tuple(board.advances) == (False, False)
    assert tuple(seat_advances(CONCRETE, shape, options, s, lambda: board)) == (False, False)
    blind = attrs.evolve(shape, start_row=(0,) * len(shape.start_row))
    assert tuple(seat_advances(CONCRETE, blind, options, s, lambda: board)) == (True, False)
