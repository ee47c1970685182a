"""The learner's loop as both loop benchmarks time it: ours (``bench_batch_learner.py``)
and Pgx's (``bench_batch_pgx.py``, run by an interpreter of its own that has Pgx and not
castlerules), so that the two figures come from the same choice and the same clock.

Nothing here imports castlerules or JAX at module level: the caller passes ``jax``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def choose(jax: Any, mask: Any, key: Any, by_max: bool) -> Any:
    """The example's choice: the legal action of the largest Gumbel noise (uniform over
    the legal ones).  ``by_max``: the index found as the lowest index of the row's
    maximum (a max and a min) instead of :func:`jax.numpy.argmax`, the same action
    (ties of the noise aside), which XLA on a CPU reduces one number at a time."""
    jnp = jax.numpy
    noise = jnp.where(mask, jax.random.gumbel(key, mask.shape), -jnp.inf)
    if not by_max:
        return jnp.argmax(noise, axis=1)
    numbers = jnp.arange(mask.shape[1])[None, :]
    return jnp.min(jnp.where(noise == noise.max(axis=1, keepdims=True), numbers, 1 << 20), 1)


def time_calls(
    jax: Any, run: Callable[[Any, Any], tuple[Any, Any]], start: Callable[[], Any], seconds: float
) -> tuple[float, int, int, float]:
    """Compile ``run`` on ``start()`` (its first call, timed apart), then call it on fresh
    keys for ``seconds`` CPU-seconds.  ``run(state, key)`` returns the state and the
    actions played per step.  Returns the compile CPU-seconds, the actions, the calls
    and the CPU-seconds of the calls."""
    key = jax.random.key(0)
    cpu = time.process_time()
    state, played = run(start(), key)
    played.block_until_ready()
    compile_s = time.process_time() - cpu
    actions = calls = 0
    cpu = time.process_time()
    while time.process_time() - cpu < seconds:
        key, sub = jax.random.split(key)
        state, played = run(state, sub)
        actions += int(played.sum())
        calls += 1
    return compile_s, actions, calls, time.process_time() - cpu
