"""The Ascent batch (castlerules.batch.ascent) is the engine, game for game.

Every step of batches of random games, under every reading of the register:
the mask is the engine's legal moves, ``to_states`` the engine's states,
``rewards`` the engine's scores in the step a game ends (A13-A17).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from castlerules import IllegalMove, ascent, batch, register
from castlerules.batch.arrays import whole
from castlerules.core import ArgumentError

READINGS = [
    (point.option, reading.label, reading.rules(ascent))
    for point in register.open_points(ascent)
    for reading in point.readings
] + [("preset", name, ascent.Rules.preset(name)) for name in ascent.Rules.PRESETS]


def lockstep(
    rules: ascent.Rules, players: int, size: int, backend: str, seed: int, steps: int = 10_000
) -> Iterator[int]:
    env = batch.make("ascent", players=players, rules=rules, size=size, backend=backend)
    b = env.init(seed=seed)
    states = [ascent.new_game(players, rules, seed=seed + i) for i in range(size)]
    assert env.to_states(b) == states
    moves = env.shape.moves
    rng = np.random.default_rng(seed)
    step = 0
    while True:
        mask = np.asarray(b.legal_action_mask)
        for i, s in enumerate(states):
            legal = set(ascent.legal_moves(s)) if not ascent.is_over(s) else set()
            assert mask[i].tolist() == [m in legal for m in moves], f"step {step}, game {i}"
        assert [bool(x) for x in b.terminated] == [ascent.is_over(s) for s in states]
        if all(ascent.is_over(s) for s in states) or step == steps:
            return
        choice = (rng.random(mask.shape) * mask).argmax(axis=1)
        before = [ascent.is_over(s) for s in states]
        b = env.step(b, choice)
        states = [
            s if ascent.is_over(s) else ascent.apply(s, moves[a])
            for s, a in zip(states, choice, strict=True)
        ]
        assert env.to_states(b) == states, f"step {step}"
        rewards = np.asarray(b.rewards)
        for i, s in enumerate(states):
            ended = ascent.is_over(s) and not before[i]
            want = list(ascent.scores(s)) if ended else [0] * players
            assert [int(x) for x in rewards[i]] == want, f"step {step}, game {i}: rewards"
        step += 1
        yield step


def test_numpy_batch_is_the_engine(distinct_reading: tuple[str, str, ascent.Rules]) -> None:
    """Every reading of the register and every preset, each distinct rules once
    (``distinct_reading``, tests/conftest.py; 17 of the 37 readings today): the first 24
    steps of four games (the whole games: below)."""
    rules = distinct_reading[2]
    assert sum(1 for _ in lockstep(rules, 3, size=4, backend="numpy", seed=21, steps=24)) == 24


@pytest.mark.parametrize(("players", "steps"), [(2, 10_000), (4, 10_000), (6, 40)])
def test_every_player_count(players: int, steps: int) -> None:
    """Whole games of 2 and 4 players; the first 40 steps of 6."""
    assert sum(1 for _ in lockstep(ascent.Rules(), players, 2, "numpy", seed=4, steps=steps))


def test_jax_batch_is_the_engine() -> None:
    """The kernel compiled by JAX (one board of pairs of cards on an array axis,
    castlerules.core.lanes): whole games of 3 players, and the first 30 steps of a
    reading that changes the board's rules twice (A3 stack_rank, A7 protection), in one
    batch: one compiled mask and step for both (each compiles for seconds), where
    numpy's batch plays each reading alone (test_numpy_batch_is_the_engine)."""
    pytest.importorskip("jax")
    assert sum(1 for _ in lockstep(ascent.Rules(), 3, size=3, backend="jax", seed=8)) > 20
    rules = ascent.Rules(stack_rank="highest", protection=False)
    assert sum(1 for _ in lockstep(rules, 4, size=2, backend="jax", seed=5, steps=30)) == 30


def test_auto_takes_jax_for_ascent_when_installed() -> None:
    pytest.importorskip("jax")
    assert batch.make("ascent", players=2, size=1).backend.name == "jax"


def test_the_first_player_is_the_engines_die() -> None:
    """A18: the batch's die for every seed is new_game's."""
    from castlerules.batch.ascent import first_players

    for players in (2, 3, 6):
        seeds = [*range(300), 2**64 - 1]
        got = first_players(ascent.Rules(), players, np.array(seeds, dtype=np.uint64))
        assert got.tolist() == [
            ascent.current_player(ascent.new_game(players, seed=s)) for s in seeds
        ]
    assert set(first_players(ascent.Rules(die="none"), 4, np.arange(20)).tolist()) == {0}


def test_an_illegal_action_is_the_engines_refusal() -> None:
    env = batch.make("ascent", players=2, size=2, backend="numpy")
    b = env.init(seed=1)
    end_turn = env.num_actions - 1
    actions = np.asarray(b.legal_action_mask).argmax(axis=1)
    actions[1] = end_turn  # nothing moved yet this turn
    with pytest.raises(IllegalMove, match=r"^game 1: ") as err:
        env.step(b, actions)
    try:
        ascent.apply(ascent.new_game(2, seed=2), ascent.EndTurn())
    except IllegalMove as engine:
        assert err.value.clause == engine.clause
    with pytest.raises(ArgumentError, match="names no move"):
        env.step(b, np.array([int(actions[0]), 999]))
    assert env.to_states(b) == [ascent.new_game(2, seed=1 + i) for i in range(2)]


def test_random_seats_and_autoreset_play_seeded_random_games() -> None:
    """Random seats with auto-reset: each game is new_game of its seed, played by each
    seat's RandomBot stream drawing the k-th legal move in the order of the action
    numbers (Ascent's legal_moves lists them in another order, so these are not
    RandomBot's games: the same draws, another order)."""
    from castlerules.batch.play import RandomSeats
    from castlerules.core import Rng

    env = batch.make("ascent", players=3, size=3, backend="numpy", autoreset=True)
    b = env.init(seed=60)
    seats = RandomSeats([60, 61, 62], 3)
    finished: list[tuple[int, ascent.State]] = []
    while len(finished) < 5:
        if b.reset is not None and np.asarray(b.reset).any():
            fresh = np.flatnonzero(np.asarray(b.reset))
            seats.reseed(fresh, [int(x) for x in b.seeds[fresh]])
            for i in fresh:
                assert env.to_states(b, [int(i)])[0] == ascent.new_game(3, seed=int(b.seeds[i]))
        for i in np.flatnonzero(b.terminated):
            finished.append((int(b.seeds[i]), env.to_states(b, [int(i)])[0]))
        b = env.step_kth(b, seats.choose_kth(np.asarray(b.legal_counts), b.current_player))
    assert len({seed for seed, _ in finished}) == len(finished)
    number = {m: a for a, m in enumerate(env.shape.moves)}
    for seed, state in finished:
        streams = [Rng.from_seed(seed, f"play.bot.{q}") for q in range(3)]
        game = ascent.new_game(3, seed=seed)
        while not ascent.is_over(game):
            q = ascent.current_player(game)
            assert q is not None
            legal = sorted(ascent.legal_moves(game), key=number.__getitem__)
            k, streams[q] = streams[q].below(len(legal))
            game = ascent.apply(game, legal[k])
        assert game == state


def test_every_seat_sees_everything() -> None:
    env = batch.make("ascent", players=2, size=2, backend="numpy")
    b = env.init(seed=3)
    a, c = env.observe(b, 0), env.observe(b, 1)
    assert all(np.array_equal(a[key], c[key]) for key in a)
    with pytest.raises(ArgumentError, match="seat"):
        env.observe(b, 2)
    assert "owner" not in a


def test_a18_a_shuffled_batch_deals_each_game_as_new_game_does() -> None:
    """A18, deal="shuffled": every game of the batch is dealt from its own seed as the
    engine's new_game deals it, and every seat observes the deal."""
    rules = ascent.Rules(deal="shuffled")
    env = batch.make("ascent", players=5, rules=rules, size=3, backend="numpy")
    b = env.init(seed=4)
    states = env.to_states(b)
    assert len({s.owners for s in states}) == 3
    owner = env.observe(b, 2)["owner"]
    for row, state in zip(owner, states, strict=True):
        assert tuple(int(q) for q in row) == state.owners
        assert state.owners.count(-1) == 1 and env.num_actions == 73


def test_blocks_hold_512_games_and_no_more_pairs_of_cards_than_512_of_4_players() -> None:
    from castlerules.batch.ascent import block_of

    assert [block_of(cards) for cards in (12, 18, 24, 30, 36)] == [512, 512, 512, 512, 256]


def test_jax_blocks_of_games_play_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAX plays the random playouts a block of games at a time
    (castlerules.batch.ascent.CHUNK games, for the processor's cache); the games are
    independent, so the blocks play the moves the whole batch plays on numpy.  Blocks of
    2 games here, 3 blocks."""
    pytest.importorskip("jax")
    import castlerules.batch.ascent as batch_ascent
    from castlerules.batch.play import RandomSeats

    monkeypatch.setattr(batch_ascent, "CHUNK", 2)
    assert batch_ascent.block_of(18) == 2
    after = {}
    for backend in ("jax", "numpy"):
        env = batch.make("ascent", players=3, size=6, backend=backend, autoreset=True)
        b = env.init(seed=30)
        seats = RandomSeats(range(30, 36), 3)
        played = 0
        for _ in range(4):
            b, moves = env.play_random(b, seats, steps=6)
            played += moves
        after[backend] = (played, env.to_states(b), np.asarray(b.legal_action_mask).tolist())
    assert after["jax"] == after["numpy"]
    assert after["jax"][0] > 60


def test_the_speed_page_quotes_the_published_run() -> None:
    """docs/batch-ascent-cpu.json, the last Ascent run of ``bench.py --batch``: every
    figure of it is in docs/measurements.rst, with its ratio to the engine."""
    import json
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    report = json.loads((docs / "batch-ascent-cpu.json").read_text(encoding="utf-8"))
    page = (docs / "measurements.rst").read_text(encoding="utf-8")
    rows = report["batch"]["rows"]
    assert {(r["players"], r["size"]) for r in rows} == {
        (n, size) for n in (2, 4, 6) for size in (256, 1024, 4096, 8192)
    }
    for row in rows:
        assert f"{row['actions_per_cpu_s']:,} ({row['ratio']:.2f}x)" in page, row
        assert f"{row['scalar_actions_per_cpu_s']:,}" in page


def test_the_speed_page_quotes_the_side_by_side_run() -> None:
    """docs/batch-side-cpu.json, the last run of both games side by side (4 players,
    4096 games): its figures and ratios are those docs/measurements.rst gives."""
    import json
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    report = json.loads((docs / "batch-side-cpu.json").read_text(encoding="utf-8"))
    page = (docs / "measurements.rst").read_text(encoding="utf-8")
    rows = report["batch"]["rows"]
    assert sorted((r["game"], r["players"], r["size"]) for r in rows) == [
        ("ascent", 4, 4096),
        ("throne", 4, 4096),
    ]
    text = " ".join(page.split())  # the page's words, its line breaks as spaces
    for row in rows:
        name = row["game"].capitalize()
        assert f"{name} {row['actions_per_cpu_s']:,} " in text, row
        assert f"{row['scalar_actions_per_cpu_s']:,} (**{row['ratio']:.2f}x**)" in text, row


def _same(a: object, b: object) -> bool:
    if isinstance(a, tuple | list):
        return (
            isinstance(b, tuple | list)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
        )
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def test_a3_to_a11_the_board_after_a_move_is_the_next_positions_board() -> None:
    """A random move carries the board it built after the move (the kernel's
    ``successors``) into the next move as that position's board (rules 8-11: stacks,
    parts, ranks, destinations, who may advance): every term of it is the board the
    kernel builds of the next position, after Advances, Favours, EndTurns and the end."""
    from castlerules.ascent import kernel as K

    env = batch.make("ascent", players=4, size=8, backend="numpy")
    data = env.init(seed=5).data
    rng = np.random.default_rng(5)
    kinds = set()
    for _ in range(60):
        p = env._position(data)
        mask = np.asarray(env._rows_of(p))
        actions = (rng.random(mask.T.shape) * mask.T).argmax(axis=1)
        live = p.s.actor >= 0
        kinds |= {env.shape.kind[a] for a, on in zip(actions, live, strict=True) if on}
        (data, _ended), after = env._transition_on(p, actions, np.zeros(8, dtype=bool))
        env._last = None
        fresh = K.Board(env._ops.scoped(), env.shape, env._options, env.layout.unpack(data))
        carried_terms, fresh_terms = whole(after.terms()), whole(fresh.terms())
        for name, carried, built in zip(K.Board.TERMS, carried_terms, fresh_terms, strict=True):
            assert _same(carried, built), name
    assert kinds == {K.K_ADVANCE, K.K_FAVOUR, K.K_END}
    assert (np.asarray(env.layout.unpack(data).actor) < 0).any()  # some game ended


def test_the_board_terms_are_every_term_the_board_computes() -> None:
    """Board.TERMS names every term a board computes, so a carried board lacks none."""
    from castlerules.ascent import kernel as K
    from castlerules.core.ops import CONCRETE

    shape = K.Shape.of(ascent.Rules(), 2)
    s = K.from_state(ascent.new_game(2, seed=1))
    board = K.Board(CONCRETE, shape, K.Options.of(CONCRETE, shape.rules), s)
    assert set(vars(board)) == {*K.Board.TERMS, "o", "shape", "opt", "s", "lanes", "card"}
    again = K.Board.restored(board.o, shape, board.opt, s, board.terms())
    assert type(again.lanes) is type(board.lanes)
    assert {k: v for k, v in vars(again).items() if k != "lanes"} == {
        k: v for k, v in vars(board).items() if k != "lanes"
    }


@pytest.mark.parametrize(("backend", "blocks"), [("numpy", 1), ("jax", 2)])
def test_random_playouts_carrying_the_board_play_the_kth_moves(
    backend: str, blocks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """play_random (the board carried from move to move; under JAX, in blocks of games
    here 2 blocks of 2) plays the moves step_kth plays one at a time from positions built
    anew: the same games."""
    if backend == "jax":
        pytest.importorskip("jax")
    import castlerules.batch.ascent as batch_ascent
    from castlerules.batch.play import RandomSeats

    if blocks > 1:
        monkeypatch.setattr(batch_ascent, "CHUNK", 2)
        assert batch_ascent.block_of(24) == 2

    envs = [batch.make("ascent", players=4, size=4, backend=backend) for _ in range(2)]
    batches = [env.init(seed=70) for env in envs]
    seats = [RandomSeats(range(70, 74), 4) for _ in range(2)]
    played = 0
    for _ in range(12):
        batches[0], moves = envs[0].play_random(batches[0], seats[0], steps=9)
        played += moves
        for _ in range(9):
            b = batches[1]
            kth = seats[1].choose_kth(np.asarray(b.legal_counts), b.current_player)
            batches[1] = envs[1].step_kth(b, kth)
        assert envs[0].to_states(batches[0]) == envs[1].to_states(batches[1])
        assert (
            np.asarray(batches[0].legal_action_mask).tolist()
            == np.asarray(batches[1].legal_action_mask).tolist()
        )
    assert played > 200


def test_the_kernels_numbers_are_8_bit_where_the_shapes_bound_fits_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every reading of the register at every player count: 8-bit numbers (the bound
    holds every integer the kernel computes: a depth plus a part's size, a seat's
    points).  A shape whose bound does not fit takes 16 bits and plays the engine's
    games all the same."""
    from castlerules.ascent import kernel as K
    from castlerules.batch import ascent as batch_ascent

    bounds = set()
    for _option, _label, rules in READINGS:
        for players in (2, 3, 4, 5, 6):
            shape = K.Shape.of(rules, players)
            bounds.add(batch_ascent.largest_number(shape))
            assert batch_ascent.integers_of(shape, np) is np.int8
    assert max(bounds) <= 127
    assert batch.make("ascent", players=6, size=2, backend="numpy")._ops.int is np.int8
    monkeypatch.setattr(batch_ascent, "largest_number", lambda shape: 128)
    env = batch.make("ascent", players=4, size=2, backend="numpy")
    assert env._ops.int is np.int16
    assert sum(1 for _ in lockstep(ascent.Rules(), 4, 2, "numpy", seed=4, steps=60)) == 60


def _replayed(rules: ascent.Rules) -> ascent.State:
    """A position of 3 players with one replay played in its turn (A12)."""
    rng, s = np.random.default_rng(1), ascent.new_game(3, rules, seed=1)
    while s.replays == 0:
        legal = ascent.legal_moves(s)
        s = ascent.apply(s, legal[int(rng.integers(len(legal)))])
    return s


def test_a12_the_turns_rows_are_the_kernels_turn_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch keeps a row for each of the kernel's turn fields (every field of
    ``KState`` that is one number a game, not a tuple a card slot), derived from the
    declaration: a field added there is a row, with no edit of the batch.  A position
    with a replay played (A12) goes to the batch and back whole; with the replays'
    row planted missing, it comes back with none."""
    import attrs

    from castlerules.ascent import kernel as K
    from castlerules.batch import ascent as batch_ascent

    singles = [f.name for f in attrs.fields(K.KState) if not str(f.type).startswith("tuple")]
    assert batch_ascent.turn_fields(K.KState) == tuple(singles)
    assert "replays" in singles

    @attrs.frozen
    class Grown(K.KState):
        rounds: int = 0

    assert batch_ascent.turn_fields(Grown) == (*singles, "rounds")

    rules = ascent.Rules(replays_per_turn=2)
    s = _replayed(rules)
    env = batch.make("ascent", players=3, rules=rules, size=1, backend="numpy")
    assert env.to_states(env.from_states([s])) == [s]
    monkeypatch.setattr(batch_ascent, "_TURN", tuple(n for n in singles if n != "replays"))
    planted = batch.make("ascent", players=3, rules=rules, size=1, backend="numpy")
    back = planted.to_states(planted.from_states([s]))[0]
    assert (back.replays, s.replays) == (0, 1)
