"""The pure functions (env.functional): the issue's example as written, for both games;
the same games as the host API; forfeit on an illegal action; auto-reset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from castlerules import batch  # noqa: E402
from castlerules.batch.functional import seed_words  # noqa: E402
from castlerules.core.chance import seed_states  # noqa: E402
from castlerules.core.errors import ArgumentError, IllegalMove  # noqa: E402

SIZE = 64


def test_seed_words_hash_as_the_engine() -> None:
    seeds = [0, 1, 9, 10, 99, 12345, 2**31 - 1, 2**32 - 1, 999_999_999, 1_000_000_000]
    for stream in ("throne/objectives", "ascent.die"):
        lo, hi = seed_words(np, np.array(seeds, dtype=np.uint32), stream)
        got = [(int(h) << 32) | int(low) for low, h in zip(lo, hi, strict=True)]
        assert got == seed_states(seeds, stream)
    lo, hi = seed_words(np, np.array([12], dtype=np.uint32), "throne/objectives")
    assert (int(hi[0]) << 32) | int(lo[0]) != seed_states([21], "throne/objectives")[0]


@pytest.fixture(scope="module", params=["throne", "ascent"])
def env(request: Any) -> Any:
    return batch.make(request.param, players=4, size=SIZE, backend="jax")


@pytest.fixture(scope="module")
def pure(env: Any) -> Any:
    """``env.functional()``, once per game: each call compiles its programs anew."""
    return env.functional()


@pytest.fixture(scope="module")
def host(env: Any) -> Any:
    """The host API's env of the same games on numpy: what the pure functions' games are
    checked against.  On numpy it compiles nothing (the jax env's host programs, its
    legal mask and step, would compile for these tests alone); the host API on JAX is
    the numpy one's, game for game (test_throne_batch, test_ascent_batch)."""
    return batch.make(env.game, players=env.players, size=env.size, backend="numpy")


def test_the_issues_example_runs_as_written(env: Any, pure: Any, host: Any) -> None:
    init, step = pure  # pure JAX functions: env.functional()
    state = init(jnp.arange(SIZE))  # game i dealt from seed i, as env.init(seeds=...)
    dealt = host.init(seeds=list(range(SIZE)))
    assert np.array_equal(np.asarray(state.data), dealt.host)
    assert np.array_equal(np.asarray(state.legal_action_mask), dealt.legal_action_mask)

    def one(state: Any, key: Any) -> Any:
        noise = jax.random.gumbel(key, state.legal_action_mask.shape)
        action = jnp.argmax(jnp.where(state.legal_action_mask, noise, -jnp.inf), axis=1)
        state = step(state, action)
        return state, (~state.terminated).sum()

    run = jax.jit(lambda s, k: jax.lax.scan(one, s, jax.random.split(k, 8)))
    state, live = run(state, jax.random.key(0))
    assert live.shape == (8,) and not bool(state.forfeited.any())
    # the same positions as the engine's, through the host API
    games = host.to_states(host.batch_of(state))
    assert len(games) == SIZE
    seat = state.observation[1]
    host_obs = host.observe(host.from_states(games), 1)
    for name, value in host_obs.items():
        assert np.array_equal(np.asarray(seat[name]), value), name
    with pytest.raises(ArgumentError):
        state.observation[4]


def test_an_illegal_action_forfeits_and_the_checked_step_refuses(
    env: Any, pure: Any, host: Any
) -> None:
    init, step = pure
    state = init(jnp.arange(SIZE))
    mask = np.asarray(state.legal_action_mask)
    legal = mask.argmax(axis=1)
    illegal = int(np.flatnonzero(~mask[0])[0])
    actions = legal.copy()
    actions[0] = illegal
    actions[1] = env.num_actions + 5  # names no move: forfeits too
    after = step(state, jnp.asarray(actions))
    forfeited = np.asarray(after.forfeited)
    assert forfeited[:2].all() and not forfeited[2:].any()
    assert np.asarray(after.terminated)[:2].all()
    assert (np.asarray(after.current_player)[:2] == -1).all()
    actor = int(np.asarray(state.current_player)[0])
    rewards = np.asarray(after.rewards)
    assert rewards[0, actor] == -1 and rewards[0].sum() == -1
    data = np.asarray(after.data)
    assert np.array_equal(data[:, 0], np.asarray(state.data)[:, 0])  # where it stood
    assert not np.asarray(after.legal_action_mask)[:2].any()
    later = step(after, jnp.asarray(legal))  # finished games ignore their action
    assert np.array_equal(np.asarray(later.data)[:, :2], data[:, :2])
    assert (np.asarray(later.rewards)[:2] == 0).all()
    # the rest played as the host's checked step plays them
    played = host.step(host.init(seeds=list(range(SIZE))), np.where(actions < 0, 0, legal))
    assert np.array_equal(data[:, 2:], played.host[:, 2:])
    with pytest.raises(IllegalMove) as refused:
        host.step(
            host.init(seeds=list(range(SIZE))), np.where(np.arange(SIZE) == 0, illegal, legal)
        )
    assert refused.value.clause


def test_autoreset_keeps_the_batch_full_from_the_next_seeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from castlerules.batch import functional

    # The games over replaced two at a time (three take two rounds), and the pool of
    # 2 * size games dealt ahead moved on by a block once a block is taken: the same
    # games as the host's init of those seeds.
    monkeypatch.setattr(functional, "REFILL_AT_ONCE", 2)
    size = 12
    env = batch.make("throne", players=4, size=size, backend="jax")
    host = batch.make("throne", players=4, size=size, backend="numpy")  # the games to match
    init, step = env.functional(autoreset=True)
    state = init(jnp.arange(size))

    def forfeit(state: Any, games: list[int]) -> Any:
        mask = np.asarray(state.legal_action_mask)
        chosen = np.where(np.isin(np.arange(size), games), (~mask).argmax(1), mask.argmax(1))
        return step(state, jnp.asarray(chosen))

    state = forfeit(state, [0, 1, 2])  # games 0..2 forfeit
    assert np.asarray(state.terminated).tolist()[:4] == [True, True, True, False]
    state = forfeit(state, [])  # three replaced, in two rounds
    fresh = host.init(seeds=[12, 13, 14, *range(3, size)])
    assert np.array_equal(np.asarray(state.data)[:, :3], fresh.host[:, :3])
    assert np.asarray(state.seeds)[:4].tolist() == [12, 13, 14, 3]
    assert not np.asarray(state.terminated)[:3].any()
    assert int(state.next_seed) == 15
    state = forfeit(forfeit(state, [5, 9]), [])  # two replaced, in one round
    fresh = host.init(seeds=[15, 16, *range(2, size)])
    assert np.array_equal(np.asarray(state.data)[:, [5, 9]], fresh.host[:, :2])
    assert np.asarray(state.seeds)[[4, 5, 9]].tolist() == [4, 15, 16]
    assert int(state.next_seed) == 17 and int(state.pool_used) == 5
    # Every game forfeits: 12 more columns taken, so the pool's first block (seeds
    # 12..23) is spent and the pool moves on to seeds 24..47, dealt in the step.
    state = forfeit(forfeit(state, list(range(size))), [])
    assert int(state.next_seed) == 29 and int(state.pool_used) == 5
    fresh = host.init(seeds=range(17, 29))
    assert np.array_equal(np.asarray(state.data), fresh.host)
    state = forfeit(forfeit(state, list(range(size))), [])  # from the moved pool
    fresh = host.init(seeds=range(29, 41))
    assert np.array_equal(np.asarray(state.data), fresh.host)
    assert int(state.pool_used) == 5  # moved on again: the pool holds seeds 36..59
    assert np.array_equal(np.asarray(state.pool)[:, :size], host.init(seeds=range(36, 48)).host)


def test_functional_needs_jax_and_a_bool() -> None:
    with pytest.raises(ArgumentError):
        batch.make("throne", players=4, size=4, backend="numpy").functional()
    with pytest.raises(ArgumentError):
        batch.make("throne", players=4, size=4, backend="jax").functional(autoreset=1)
