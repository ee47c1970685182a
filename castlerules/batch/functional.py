"""The batch as pure functions: ``init(seeds)`` and ``step(state, actions)`` for JAX.

:meth:`castlerules.batch.slots.Slots.functional` gives them: both are traced code
(no host work, no Python-side check), so a learner places them inside its own
:func:`jax.jit`, :func:`jax.lax.scan` or :func:`jax.vmap` with its policy, in
the style of Pgx.  They run the same kernel on the same arrays as the host
methods (:meth:`~castlerules.batch.slots.Slots.step`, ``play_random``).

Seeds are hashed here as :func:`castlerules.core.chance.seed_digests` hashes
them (BLAKE2b of the seed's decimal digits and the stream's name), on arrays
of 32-bit words, so that ``init(seeds)`` deals game ``i`` from ``seeds[i]``
exactly as :meth:`~castlerules.batch.slots.Slots.init` does, inside a compiled
program too.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import attrs

# ---------------------------------------------------------------------- BLAKE2b on words

_IV = (
    0x6A09E667F3BCC908,
    0xBB67AE8584CAA73B,
    0x3C6EF372FE94F82B,
    0xA54FF53A5F1D36F1,
    0x510E527FADE682D1,
    0x9B05688C2B3E6C1F,
    0x1F83D9ABFB41BD6B,
    0x5BE0CD19137E2179,
)
_SIGMA = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    (14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3),
    (11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4),
    (7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8),
    (9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13),
    (2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9),
    (12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11),
    (13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10),
    (6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5),
    (10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0),
)
_W = 0xFFFFFFFF

SEED_DIGITS = 10
"""The decimal digits of the largest seed the pure functions take (``2**32 - 1``):
compiled code holds a seed in 32 bits (JAX's default integers)."""


def seed_words(xp: Any, seeds: Any, stream: str, repeat: Any = None) -> tuple[Any, Any]:
    """The states of ``Rng.from_seed(seed, stream)`` of every seed of ``seeds`` (whole
    numbers in ``0..2**32-1``, any integer type), as their low and high 32-bit words:
    :func:`~castlerules.core.chance.seed_digests` (BLAKE2b with an 8-byte digest of the
    decimal digits, a zero byte and the stream's name) as array code.  ``repeat(count,
    body, carry)``: the loop of the rounds (a backend's ``repeat``; None: Python's)."""
    if repeat is None:

        def repeat(count: int, body: Any, carry: Any) -> Any:
            for i in range(count):
                carry = body(i, carry)
            return carry

    u = xp.uint32
    n = xp.asarray(seeds).astype(u)
    tail = b"\x00" + stream.encode()
    if len(tail) + SEED_DIGITS > 128:
        raise ValueError(f"a stream name of {len(tail)} bytes: one block of BLAKE2b at most")
    powers = [10**j for j in range(SEED_DIGITS)]
    digits = xp.ones(n.shape, dtype=u)
    for p in powers[1:]:
        digits = digits + (n >= u(p)).astype(u)
    length = digits + u(len(tail))
    table = xp.asarray(powers[::-1] + [1] * SEED_DIGITS, dtype=u)  # 10^(digits-1-j)
    tail_table = xp.asarray(list(tail) + [0] * (SEED_DIGITS + 1), dtype=u)
    message: list[Any] = []
    for j in range(SEED_DIGITS + len(tail)):
        power = xp.take(table, xp.clip(u(SEED_DIGITS) - digits + u(j), 0, 2 * SEED_DIGITS - 1))
        digit = (n // power) % u(10) + u(48)
        after = xp.take(tail_table, xp.clip(u(j) - digits, 0, len(tail) + SEED_DIGITS))
        message.append(xp.where(u(j) < digits, digit, xp.where(u(j) < length, after, u(0))))
    while len(message) % 4:
        message.append(xp.zeros(n.shape, dtype=u))
    zero = xp.zeros(n.shape, dtype=u)
    words = [
        message[i]
        | (message[i + 1] << u(8))
        | (message[i + 2] << u(16))
        | (message[i + 3] << u(24))
        for i in range(0, len(message), 4)
    ]
    words += [zero] * (32 - len(words))
    m = [(words[2 * i], words[2 * i + 1]) for i in range(16)]

    def const(value: int) -> tuple[Any, Any]:
        return xp.full(n.shape, value & _W, dtype=u), xp.full(n.shape, value >> 32, dtype=u)

    def add(a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
        lo = a[0] + b[0]
        return lo, a[1] + b[1] + (lo < a[0]).astype(u)

    def xor(a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
        return a[0] ^ b[0], a[1] ^ b[1]

    def rotr(a: tuple[Any, Any], s: int) -> tuple[Any, Any]:
        lo, hi = a
        if s == 32:
            return hi, lo
        if s == 63:  # a rotation left by 1
            return (lo << u(1)) | (hi >> u(31)), (hi << u(1)) | (lo >> u(31))
        return (lo >> u(s)) | (hi << u(32 - s)), (hi >> u(s)) | (lo << u(32 - s))

    h0 = _IV[0] ^ 0x01010000 ^ 8  # digest of 8 bytes, no key
    v = [const(h0), *(const(x) for x in _IV[1:]), *(const(x) for x in _IV)]
    v[12] = (v[12][0] ^ length, v[12][1])  # the bytes hashed (one block, the last)
    v[14] = (~v[14][0], ~v[14][1])

    m_lo = xp.stack([w[0] for w in m])
    m_hi = xp.stack([w[1] for w in m])
    sigma = xp.asarray(_SIGMA, dtype=xp.int32)

    def one_round(r: Any, carry: tuple[Any, ...]) -> tuple[Any, ...]:
        """One of BLAKE2b's 12 rounds (a loop's body: the compiler sees one round)."""
        v = [(carry[2 * i], carry[2 * i + 1]) for i in range(16)]
        order = sigma[r % 10]

        def word(i: int) -> tuple[Any, Any]:
            return xp.take(m_lo, order[i], axis=0), xp.take(m_hi, order[i], axis=0)

        def mix(a: int, b: int, c: int, d: int, i: int) -> None:
            v[a] = add(add(v[a], v[b]), word(i))
            v[d] = rotr(xor(v[d], v[a]), 32)
            v[c] = add(v[c], v[d])
            v[b] = rotr(xor(v[b], v[c]), 24)
            v[a] = add(add(v[a], v[b]), word(i + 1))
            v[d] = rotr(xor(v[d], v[a]), 16)
            v[c] = add(v[c], v[d])
            v[b] = rotr(xor(v[b], v[c]), 63)

        mix(0, 4, 8, 12, 0)
        mix(1, 5, 9, 13, 2)
        mix(2, 6, 10, 14, 4)
        mix(3, 7, 11, 15, 6)
        mix(0, 5, 10, 15, 8)
        mix(1, 6, 11, 12, 10)
        mix(2, 7, 8, 13, 12)
        mix(3, 4, 9, 14, 14)
        return tuple(x for pair in v for x in pair)

    flat = repeat(12, one_round, tuple(x for pair in v for x in pair))
    v = [(flat[2 * i], flat[2 * i + 1]) for i in range(16)]
    return xor(xor(const(h0), v[0]), v[8])


# ---------------------------------------------------------------------- the state

REFILL_AT_ONCE = 64
"""With auto-reset, how many of the games over a step replaces at a time, by writing
their columns (more take as many rounds as they need; the same games either way)."""


class Seats(Sequence[dict[str, Any]]):
    """``observation[seat]``: what ``seat`` may know of every game (the env's
    ``observe``), computed from the state's arrays when read."""

    def __init__(self, env: Any, data: Any) -> None:
        self._env, self._data = env, data

    def __len__(self) -> int:
        return int(self._env.players)

    def __getitem__(self, seat: Any) -> Any:
        if isinstance(seat, slice):
            return [self[q] for q in range(len(self))[seat]]
        self._env._check_seat(seat)
        return self._env.observe_data(self._env.backend.xp, self._data, seat)


@attrs.frozen(slots=True, eq=False)
class State:
    """The games of a batch for the pure functions: a JAX pytree (its arrays are the
    leaves; the env is static), one entry per game on the first axis of each field
    but :attr:`data`."""

    data: Any
    """``(rows, size)`` int16: the games' numbers (as :attr:`Batch.data`)."""
    legal_action_mask: Any
    """``(size, num_actions)`` bool."""
    current_player: Any
    """``(size,)`` int32: the seat to act, -1 once the game is over (forfeited too)."""
    terminated: Any
    """``(size,)`` bool: the game is over, by the rules or by forfeit."""
    rewards: Any
    """``(size, players)`` float32: in the step a game ends, each seat's final points
    (as :attr:`Batch.rewards`); in the step a game is forfeited, -1 for the seat
    that forfeited and 0 for the others; else 0."""
    forfeited: Any
    """``(size,)`` bool: the game ended by an illegal action (its position is the one
    before that action)."""
    seeds: Any
    """``(size,)`` uint32: the seed each game was dealt from."""
    next_seed: Any
    """``()`` uint32: with auto-reset, the seed of the next game dealt."""
    pool: Any
    """With auto-reset: ``(rows, 2 * size)`` int16, the games of the next seeds dealt
    ahead (from :attr:`next_seed` on, the first :attr:`pool_used` taken); else ``()``."""
    pool_used: Any
    """``()`` int32: the pool's columns already taken."""
    env: Any = attrs.field(default=None, repr=False)

    @property
    def observation(self) -> Seats:
        """``observation[seat]``: the env's ``observe`` of the games for ``seat``."""
        return Seats(self.env, self.data)


_FIELDS = tuple(f.name for f in attrs.fields(State) if f.name != "env")
_REGISTERED: list[bool] = []


def register(jax: Any) -> None:
    """:class:`State` as a JAX pytree (once per process)."""
    if _REGISTERED:
        return
    jax.tree_util.register_pytree_node(
        State,
        lambda s: (tuple(getattr(s, n) for n in _FIELDS), s.env),
        lambda env, leaves: State(**dict(zip(_FIELDS, leaves, strict=True)), env=env),
    )
    _REGISTERED.append(True)


def build(env: Any, autoreset: bool) -> tuple[Any, Any]:
    """The pure ``init`` and ``step`` of ``env`` (a game's batch env on JAX)."""
    xp = env.backend.xp
    size, players, actions = env.size, env.players, env.num_actions
    few = min(size, REFILL_AT_ONCE)

    def state_of(
        data: Any, *, rewards: Any, forfeited: Any, seeds: Any, ahead: tuple[Any, ...]
    ) -> State:
        """The state of the games ``data``; ``ahead``: the next seed, the pool of games
        dealt ahead and its columns taken (auto-reset)."""
        seat = data[env._seat_row].astype(xp.int32)
        over = xp.logical_or(seat < 0, forfeited)
        rows = env._legal_rows(data)
        mask = xp.logical_and(rows.T, xp.logical_not(over)[:, None])
        next_seed, pool, pool_used = ahead
        return State(
            data=data,
            legal_action_mask=mask,
            current_player=xp.where(over, -1, seat),
            terminated=over,
            rewards=rewards,
            forfeited=forfeited,
            seeds=seeds,
            next_seed=next_seed,
            pool=pool,
            pool_used=pool_used,
            env=env,
        )

    def deal(seeds: Any) -> Any:
        return env.dealt_data(seeds)

    def init(seeds: Any) -> State:
        seeds = xp.asarray(seeds).astype(xp.uint32).reshape(size)
        if autoreset:
            after = seeds.max() + xp.uint32(1)
            # The games and the pool's dealt in one deal (each game's column is its own
            # seed's): the program holds the deal's code once, not twice.
            ahead_seeds = after + xp.arange(2 * size, dtype=xp.uint32)
            dealt = deal(xp.concatenate([seeds, ahead_seeds]))
            data, ahead = dealt[:, :size], dealt[:, size:]
            pool = (after, ahead, xp.zeros((), dtype=xp.int32))
        else:
            data = deal(seeds)
            pool = (xp.zeros((), dtype=xp.uint32), (), xp.zeros((), dtype=xp.int32))
        nobody = xp.zeros(size, dtype=bool)
        no_rewards = xp.zeros((size, players), xp.float32)
        return state_of(data, rewards=no_rewards, forfeited=nobody, seeds=seeds, ahead=pool)

    def step(state: State, action: Any) -> State:
        data, seeds, forfeited = state.data, state.seeds, state.forfeited
        pool: tuple[Any, ...] = (state.next_seed, state.pool, state.pool_used)
        held = state.terminated
        if autoreset:
            data, seeds, forfeited, pool, held = refill(state)
        # The caller's action computed once (backend.keep): the step reads it in many
        # places, and XLA would otherwise copy the caller's whole choice (a policy, a
        # Gumbel draw over the mask) into each of them.
        action = env.backend.keep(xp.asarray(action).astype(xp.int32).reshape(size))
        inside = xp.logical_and(action >= 0, action < actions)
        # The state's own mask: a game replaced by auto-reset is held (its action
        # ignored), every other game's data is the one the mask was computed from.
        picked = xp.take_along_axis(
            state.legal_action_mask, xp.clip(action, 0, actions - 1)[:, None], axis=1
        )[:, 0]
        illegal = xp.logical_and(
            xp.logical_not(held), xp.logical_not(xp.logical_and(inside, picked))
        )
        hold = xp.logical_or(held, illegal)
        # Kept once more (as the random bots' action is): the kernel reads its tables by it.
        played = env.backend.keep(xp.where(hold, 0, action))
        new, ended = env._transition(data, played, hold)[:2]
        # The new games computed once (backend.keep): their points, seats and legal
        # mask read them, and XLA would otherwise copy the step into each reader.
        new, ended = env.backend.keep((new, ended))
        points = env.points_of(new).astype(xp.float32)
        actor = data[env._seat_row].astype(xp.int32)
        penalty = -(xp.arange(players)[None, :] == actor[:, None]).astype(xp.float32)
        rewards = xp.where(
            ended[:, None], points, xp.where(illegal[:, None], penalty, xp.float32(0))
        )
        forfeited = xp.logical_or(forfeited, illegal)
        return state_of(new, rewards=rewards, forfeited=forfeited, seeds=seeds, ahead=pool)

    def refill(state: State) -> tuple[Any, ...]:
        """The games over replaced by the pool's next games (in the games' order); the
        pool moved on by a block, dealt from the next seeds, once a block is taken.

        Both are loops that run as often as there is work (no game over: not at all; a
        few: once; a block taken: the pool moved once), each writing its arrays where
        they stand: conditionals here had XLA copy the pool and the games into and out
        of them at every step, whichever branch ran."""
        import jax

        over = state.terminated
        count = over.astype(xp.int32).sum()
        first = state.next_seed - state.pool_used.astype(xp.uint32)  # the pool's first seed

        def replace_some(carry: tuple[Any, ...]) -> tuple[Any, ...]:
            # The next games over (in order) take the pool's next columns: a write of a
            # few columns rather than a read of the pool for every game.
            data, seeds, waiting, used = carry
            slots = xp.nonzero(waiting, size=few, fill_value=size)[0]
            taken = used + xp.arange(few, dtype=xp.int32)
            columns = xp.take(state.pool, xp.clip(taken, 0, 2 * size - 1), axis=1)
            data = data.at[:, slots].set(columns, mode="drop")
            seeds = seeds.at[slots].set(first + taken.astype(xp.uint32), mode="drop")
            now = xp.minimum(waiting.astype(xp.int32).sum(), few)
            return data, seeds, waiting.at[slots].set(False, mode="drop"), used + now

        start = (state.data, state.seeds, over, state.pool_used)
        data, seeds, _none, used = jax.lax.while_loop(
            lambda carry: carry[2].any(), replace_some, start
        )

        next_seed = state.next_seed + count.astype(xp.uint32)

        def move_on(carry: tuple[Any, Any]) -> tuple[Any, Any]:
            pool, used = carry
            # The block's seeds read from the loop's own numbers (the pool's first seed
            # is the next seed less the columns taken): computed from values outside the
            # loop alone, the compiler would hoist the deal out of it, into every step.
            after = next_seed - used.astype(xp.uint32) + xp.uint32(2 * size)
            block = deal(after + xp.arange(size, dtype=xp.uint32))
            return xp.concatenate([pool[:, size:], block], axis=1), used - size

        # At most once: no more than a block is taken in a step (used < 2 * size).
        pool, used = jax.lax.while_loop(lambda carry: carry[1] >= size, move_on, (state.pool, used))
        ahead = (next_seed, pool, used)
        return data, seeds, xp.where(over, False, state.forfeited), ahead, over

    import jax

    return compiled(jax, env, init), compiled(jax, env, step)


def compiled(jax: Any, env: Any, function: Any) -> Any:
    """``function`` compiled with the batch's XLA options (``env.backend.compiler_options``)
    where it is called on arrays, and traced into the caller's program as it stands
    where it is called inside one (JAX takes XLA options only on the outermost
    :func:`jax.jit`)."""
    options = env.backend.compiler_options or None
    alone = jax.jit(function, compiler_options=options)

    @functools.wraps(function)
    def call(*args: Any) -> Any:
        if any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(args)):
            return function(*args)
        return alone(*args)

    return call


__all__ = [
    "REFILL_AT_ONCE",
    "SEED_DIGITS",
    "Seats",
    "State",
    "build",
    "compiled",
    "register",
    "seed_words",
]
