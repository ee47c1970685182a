"""Random bots inside the compiled step: the 32-bit words' draws, the k-th legal
action found in bit words, and ``play_random``'s games against the engine's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from castlerules import ascent, batch, throne
from castlerules.batch.chance import Streams, below_words, state_of, words_of
from castlerules.batch.play import RandomSeats, kth_legal
from castlerules.bots import make_bot
from castlerules.core import Rng
from castlerules.core.errors import ArgumentError

_GOLDEN = 0x9E3779B97F4A7C15
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_ALL = 2**64 - 1


def _unshift(y: int, s: int) -> int:
    x = y
    for _ in range(64 // s + 1):
        x = y ^ (x >> s)
    return x


def state_before(z: int) -> int:
    """The generator state whose next 64-bit draw is ``z`` (SplitMix64 undone)."""
    x = _unshift(z, 31)
    x = (x * pow(_M2, -1, 2**64)) & _ALL
    x = _unshift(x, 27)
    x = (x * pow(_M1, -1, 2**64)) & _ALL
    x = _unshift(x, 30)
    return (x - _GOLDEN) & _ALL


def python_loop(cond: Any, body: Any, carry: Any) -> Any:
    while cond(carry):
        carry = body(carry)
    return carry


def test_state_before_undoes_the_draw() -> None:
    for z in (0, 1, 12345, _ALL):
        assert Rng(state_before(z)).next64()[0] == z


def test_words_draw_the_numbers_of_rng_and_redraw_the_biased_tail() -> None:
    """The draws of :func:`below_words` are :meth:`Rng.below`'s, the redraw of a value
    in the biased tail of 2**64 included (``2**64 - 1`` is in it for any n that is not
    a power of two)."""
    rs = np.random.default_rng(5)
    n = np.concatenate([rs.integers(1, 300, 400), [80, 3, 6, 7, 64]])
    states = [int(x) for x in rs.integers(0, 2**63, len(n) - 5, dtype=np.uint64)]
    states += [state_before(_ALL), state_before(_ALL), state_before(_ALL - 2), 7, 9]
    expected = [Rng(s).below(int(k)) for s, k in zip(states, n, strict=True)]
    lo, hi = words_of(np.array(states, dtype=np.uint64))
    value, lo2, hi2 = below_words(np, lo, hi, n, python_loop)
    assert [int(v) for v in value] == [v for v, _ in expected]
    assert [int(s) for s in state_of(lo2, hi2)] == [r.state for _, r in expected]
    # The planted tails were redrawn: those generators moved on twice (a power of two
    # has no tail: 64 draws once).
    after = [int(x) for x in state_of(lo2, hi2)]
    moved = [
        next(k for k in (1, 2, 3) if (s + k * _GOLDEN) & _ALL == x)
        for s, x in zip(states, after, strict=True)
    ]
    assert moved[-5:] == [2, 2, 2, 1, 1] and set(moved[:-5]) == {1}
    numpy_values, _ = Streams(np.array(states, dtype=np.uint64)).below(n)
    assert np.array_equal(numpy_values, value)


def test_words_draw_the_same_under_jax() -> None:
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    states = np.array([state_before(_ALL), 3, 2**63 + 5], dtype=np.uint64)
    n = np.array([80, 7, 1], dtype=np.uint32)
    lo, hi = words_of(states)
    draw = jax.jit(lambda lo, hi, n: below_words(jnp, lo, hi, n, jax.lax.while_loop))
    value, lo2, hi2 = draw(lo, hi, n)
    expected = [Rng(int(s)).below(int(k)) for s, k in zip(states, n, strict=True)]
    assert [int(v) for v in value] == [v for v, _ in expected]
    assert [int(s) for s in state_of(lo2, hi2)] == [r.state for _, r in expected]


def test_kth_action_in_words_is_the_kth_legal_action() -> None:
    """The bit-word ranking finds the k-th legal action as the host's ``kth_legal``
    does, for masks over one, two and three words, every rank."""
    env = batch.make("throne", players=4, size=1, backend="numpy")
    rs = np.random.default_rng(2)
    for actions in (5, 32, 33, 80):
        env.num_actions = actions  # the ranking only reads the mask's width
        mask = rs.random((actions, 200)) < rs.random(200)
        mask[:, 0] = False
        mask[actions - 1, 1] = True
        counts = mask.sum(axis=0)
        words = env._words(mask)
        assert np.array_equal(env._count(words), counts)
        for k in range(int(counts.max())):
            ok = counts > k
            got = env._kth_action(words, np.full(200, k))
            assert np.array_equal(got[ok], kth_legal(mask.T, np.full(200, k))[ok])


def random_bot_game(module: Any, players: int, seed: int) -> tuple[Any, int]:
    """The engine's game of ``seed`` with RandomBot in every seat, and its moves."""
    bots = [make_bot("random", module, q, seed) for q in range(players)]
    game, moves = module.new_game(players, seed=seed), 0
    while not module.is_over(game):
        q = module.current_player(game)
        game, moves = module.apply(game, bots[q](game, q)), moves + 1
    return game, moves


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_play_random_plays_the_random_bots_games(backend: str) -> None:
    """Several steps per call, auto-reset between calls: every game that ends is the
    RandomBot game of its seed (spec rule 1: B1..B16 as the engine plays them)."""
    if backend == "jax":
        pytest.importorskip("jax")
    env = batch.make("throne", players=3, size=4, backend=backend, autoreset=True)
    b = env.init(seed=30)
    seats = RandomSeats(range(30, 34), 3)
    finished: dict[int, throne.State] = {}
    played = 0
    while len(finished) < 6:
        b, moves = env.play_random(b, seats, steps=9)
        played += moves
        assert np.array_equal(np.asarray(b.ended) & ~np.asarray(b.terminated), np.zeros(4))
        for i in np.flatnonzero(np.asarray(b.terminated)):
            finished[int(b.seeds[i])] = env.to_states(b, [int(i)])[0]
    moves_of_finished = 0
    for seed, state in finished.items():
        game, moves = random_bot_game(throne, 3, seed)
        assert state == game
        moves_of_finished += moves
    assert played >= moves_of_finished


def test_play_random_steps_as_step_kth_with_choose_kth() -> None:
    """One step per call is :meth:`step_kth` with :meth:`RandomSeats.choose_kth`, for
    both games (Ascent's draws rank its legal actions in number order too)."""
    for game, players in (("throne", 4), ("ascent", 3)):
        env = batch.make(game, players=players, size=5, backend="numpy")
        fused, stepped = env.init(seed=50), env.init(seed=50)
        seats, other = RandomSeats(range(50, 55), players), RandomSeats(range(50, 55), players)
        for _ in range(60):
            fused, moves = env.play_random(fused, seats, steps=1)
            live = np.asarray(stepped.current_player) >= 0
            kth = other.choose_kth(np.asarray(stepped.legal_counts), stepped.current_player)
            stepped = env.step_kth(stepped, kth)
            assert moves == int(live.sum())
            assert np.array_equal(np.asarray(fused.data), np.asarray(stepped.data))
            assert np.array_equal(fused.legal_action_mask, stepped.legal_action_mask)
            assert np.array_equal(seats.state, other.state)
        assert getattr(fused, "effect", None) is None
    assert isinstance(env.to_states(fused)[0], ascent.State)


def test_play_random_refuses_bad_steps_and_seats() -> None:
    env = batch.make("throne", players=3, size=2, backend="numpy")
    b = env.init(seed=1)
    with pytest.raises(ArgumentError, match=r"steps must be a whole number in 1\.\.1048576"):
        env.play_random(b, RandomSeats([1, 2], 3), steps=0)
    with pytest.raises(ArgumentError, match="this batch holds 2 games of 3 players"):
        env.play_random(b, RandomSeats([1, 2], 4))
    with pytest.raises(ArgumentError, match="this batch holds 2 games of 3 players"):
        env.play_random(b, RandomSeats([1, 2, 3], 3))
    assert np.array_equal(np.asarray(b.data), np.asarray(env.init(seed=1).data))


def test_the_benchmark_counts_the_moves_of_games_in_play() -> None:
    """``bench.py --batch``'s playouts (a short run): the moves counted are those
    ``play_random`` reports, the batch kept full by auto-reset."""
    import bench_batch  # benchmarks/ is on pytest's path

    row = bench_batch.batch_playouts(3, 6, "numpy", 5, 1.5, "throne", steps=40)
    assert row["steps"] == 40 * (row["steps"] // 40) > 0
    assert 0.5 < row["utilisation"] <= 1.0
    assert abs(row["actions"] / (row["steps"] * 6) - row["utilisation"]) <= 0.0005
    assert row["games_started"] >= 6 and row["backend"] == "numpy"


def test_a_large_batchs_unrolled_loop_plays_the_same_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From ``LARGE_BATCH`` games on, Ascent's compiled ``play_random`` plays two steps a
    turn of its loop (``_steps_unrolled``): an odd number of steps gives the games, the
    moves and the bots' draws of numpy's one step at a time (A3, A12: turns and replays
    cross the loop's turns).  A planted loop that skips the second step is caught."""
    pytest.importorskip("jax")
    from castlerules.batch import slots

    monkeypatch.setattr(slots, "LARGE_BATCH", 6)
    compiled = batch.make("ascent", players=3, size=6, backend="jax")
    plain = batch.make("ascent", players=3, size=6, backend="numpy")
    assert compiled._steps_unrolled == 2
    seats, other = RandomSeats(range(70, 76), 3), RandomSeats(range(70, 76), 3)
    fast, slow = compiled.init(seed=70), plain.init(seed=70)
    for _ in range(3):
        fast, moves = compiled.play_random(fast, seats, steps=9)
        slow, expected = plain.play_random(slow, other, steps=9)
        assert moves == expected
        assert np.array_equal(np.asarray(fast.data), np.asarray(slow.data))
        assert np.array_equal(seats.state, other.state)
    skipping = batch.make("ascent", players=3, size=6, backend="numpy")
    original = skipping.backend.repeat
    monkeypatch.setattr(
        skipping.backend,
        "repeat",
        lambda count, body, carry, unroll=1: original((count + 1) // 2, body, carry),
    )
    wrong, _moves = skipping.play_random(
        skipping.init(seed=70), RandomSeats(range(70, 76), 3), steps=9
    )
    assert not np.array_equal(np.asarray(wrong.data), np.asarray(fast.data))
