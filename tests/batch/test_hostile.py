"""Every hostile input of issue 45 gets a typed error (ArgumentError) or the right answer."""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlerules import batch
from castlerules.batch.play import RandomSeats
from castlerules.batch.slots import MAX_STEPS
from castlerules.core.errors import ArgumentError, RulesError

SIZE = 3


@pytest.fixture(scope="module")
def env() -> Any:
    return batch.make("throne", players=4, size=SIZE, backend="numpy")


@pytest.fixture(scope="module")
def b(env: Any) -> Any:
    return env.init(seed=7)


@pytest.mark.parametrize(
    "moves", [np.full(3, 2**40), np.full(3, -1), [1.7] * 3, [np.nan] * 3, [np.inf] * 3, [10**6] * 3]
)
def test_refusals_validate_before_any_cast(env: Any, b: Any, moves: Any) -> None:
    with pytest.raises(ArgumentError):
        env.refusals(b, moves)


def test_refusals_still_answer_legal_moves(env: Any, b: Any) -> None:
    legal = np.asarray(b.legal_action_mask).argmax(axis=1)
    assert (env.refusals(b, legal) == -1).all()


@pytest.mark.parametrize("games", [[SIZE], [-1], [1.5], "0", 5])
def test_to_states_refuses_other_games(env: Any, b: Any, games: Any) -> None:
    with pytest.raises(ArgumentError):
        env.to_states(b, games)


@pytest.mark.parametrize("seat", [True, -1, 4, 1.0, "0", None])
def test_observe_refuses_non_seats(env: Any, b: Any, seat: Any) -> None:
    with pytest.raises(ArgumentError):
        env.observe(b, seat)


def test_init_takes_numpy_seeds_and_generators(env: Any) -> None:
    by_list = env.init(seeds=[4, 5, 6])
    assert np.array_equal(env.init(seeds=np.arange(4, 7)).host, by_list.host)
    assert np.array_equal(env.init(seeds=(x for x in range(4, 7))).host, by_list.host)
    for bad in ([1.5, 2, 3], [-1, 2, 3], [2**64, 1, 2], 7, "abc", [1, 2]):
        with pytest.raises(ArgumentError):
            env.init(seeds=bad)


def test_random_seats_and_play_random_refuse(env: Any, b: Any) -> None:
    for seeds, players in (([1.5], 3), ([1], 2.0), ([-1], 3), ("ab", 3), ([1], True)):
        with pytest.raises(ArgumentError):
            RandomSeats(seeds, players)  # type: ignore[arg-type]
    seats = RandomSeats(range(7, 7 + SIZE), 4)
    for bad_seats, steps in ((None, 1), (seats, 2**31), (seats, 0), (seats, True)):
        with pytest.raises(ArgumentError):
            env.play_random(b, bad_seats, steps)


def test_sizes_and_other_envs_batches(env: Any, b: Any) -> None:
    sizes: tuple[Any, ...] = (2**40, 0, -1, 1.5, True)
    for size in sizes:
        with pytest.raises(ArgumentError):
            batch.make("throne", players=4, size=size, backend="numpy")
    other = batch.make("throne", players=4, size=SIZE + 1, backend="numpy")
    with pytest.raises(ArgumentError):
        env.step(other.init(seed=0), np.zeros(SIZE, dtype=np.int64))


hostile = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=5),
    st.lists(st.floats(), max_size=4),
    st.recursive(st.integers(), lambda c: st.lists(c, max_size=3), max_leaves=20),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    method=st.sampled_from(["step", "step_kth", "refusals", "to_states", "observe", "init"]),
    value=hostile,
)
def test_every_public_method_answers_hostile_arguments_with_a_typed_error(
    env: Any, b: Any, method: str, value: Any
) -> None:
    calls = {
        "step": lambda: env.step(b, value),
        "step_kth": lambda: env.step_kth(b, value),
        "refusals": lambda: env.refusals(b, value),
        "to_states": lambda: env.to_states(b, value),
        "observe": lambda: env.observe(b, value),
        "init": lambda: env.init(seeds=value),
    }
    with contextlib.suppress(RulesError):  # a typed error, or an answer: nothing else
        calls[method]()


# The JAX backend on a share: the same checks stand before anything is compiled, so the
# hostile values here are those no method accepts (an accepted one would compile a
# program per method: seconds each).  play_random's steps are JAX's own risk (a loop's
# count held in 32 bits).
refused_everywhere = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70).filter(
        lambda value: not 0 <= value <= MAX_STEPS
    ),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=5).filter(
        lambda values: len(values) != SIZE
    ),
    st.lists(st.floats(allow_nan=True), min_size=SIZE, max_size=SIZE).filter(
        lambda values: any(not float(x).is_integer() for x in values)
    ),
)


@pytest.fixture(scope="module")
def jax_env() -> Any:
    pytest.importorskip("jax")
    return batch.make("throne", players=4, size=SIZE, backend="jax")


@pytest.fixture(scope="module")
def jax_b(jax_env: Any, env: Any, b: Any) -> Any:
    return jax_env.from_states(env.to_states(b))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    method=st.sampled_from(["step", "step_kth", "refusals", "observe", "play_random"]),
    value=refused_everywhere,
)
def test_the_jax_backend_refuses_hostile_arguments_with_a_typed_error(
    jax_env: Any, jax_b: Any, method: str, value: Any
) -> None:
    seats = RandomSeats(range(7, 7 + SIZE), 4)
    calls = {
        "step": lambda: jax_env.step(jax_b, value),
        "step_kth": lambda: jax_env.step_kth(jax_b, value),
        "refusals": lambda: jax_env.refusals(jax_b, value),
        "observe": lambda: jax_env.observe(jax_b, value),
        "play_random": lambda: jax_env.play_random(jax_b, seats, value),
    }
    with pytest.raises(RulesError):
        calls[method]()
