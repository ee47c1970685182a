"""Auto-reset inside the compiled call: the games dealt ahead (the seeds' hashes for
many streams at once, Throne's deal as array code) and ``play_random``'s games with
the replacement inside the call are those of the host's path, step for step."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from castlerules import batch, throne
from castlerules.batch import slots
from castlerules.batch.chance import block_states, words_of
from castlerules.batch.play import RandomSeats
from castlerules.batch.throne import deal, deal_words
from castlerules.core.chance import SEED_LIMIT, seed_states


def python_loop(cond: Any, body: Any, carry: Any) -> Any:
    while cond(carry):
        carry = body(carry)
    return carry


def test_block_states_are_the_seeding_of_every_stream() -> None:
    seeds = [0, 9, 10, 2**32, 10**19, SEED_LIMIT - 1, *range(500, 530)]
    streams = ("throne/objectives", "play.bot.0", "study.probe", "")
    states = block_states(seeds, streams)
    for row, stream in zip(states, streams, strict=True):
        assert [int(x) for x in row] == seed_states(seeds, stream)
    assert np.array_equal(block_states(range(500, 530), streams), states[:, 6:])


DECK = ("ABCDEF", "BCDEFG", "GHIJKL", "ABCGHI", "DEFJKL", "ACEGIK", "BDFHJL")


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (throne.Rules(), 4),
        (throne.Rules.preset("ORIGINAL"), 6),
        (throne.Rules(objective_deck=DECK), 3),
        (throne.Rules(objective_size=2, characters=5), 5),
    ],
)
def test_the_deal_as_array_code_is_the_engines(rules: throne.Rules, players: int) -> None:
    """B4: deal_words draws what deal (and new_game) draws, redraws of equal cards
    included (5 characters, cards of 2: equal cards are frequent)."""
    seeds = range(40, 440)
    lo, hi = words_of(block_states(seeds, ("throne/objectives",))[0])
    with np.errstate(over="ignore"):
        masks = deal_words(np, python_loop, rules, players, lo, hi)
    got = np.stack([np.stack(r, axis=-1) for r in masks], axis=1)
    assert np.array_equal(got, deal(rules, players, np.array(seeds, dtype=np.uint64)))


def host_path(env: Any, b: Any, seats: RandomSeats, steps: int) -> tuple[Any, int]:
    """``play_random`` by the host's auto-reset (taken where the seeds run out)."""
    limit = slots.SEED_LIMIT
    slots.SEED_LIMIT = 0  # type: ignore[misc]
    try:
        out: tuple[Any, int] = env.play_random(b, seats, steps)
        return out
    finally:
        slots.SEED_LIMIT = limit  # type: ignore[misc]


# The numpy cases play a few calls past the first move of the pool by a block (the
# pool's first seed reaches 40 + 2 * size at call 27 of the first, call 252 of the
# second: the seeded games are the same every run), each call a few tenths of a second
# of numpy on both paths.  Every game replaced before then is checked against the host's.
@pytest.mark.parametrize(
    ("backend", "players", "size", "steps", "calls"),
    [("numpy", 3, 8, 9, 30), ("numpy", 6, 3, 1, 260), ("jax", 4, 16, 16, 60)],
)
def test_play_random_replaces_inside_the_call_as_the_host_does(
    backend: str, players: int, size: int, steps: int, calls: int
) -> None:
    """Every call: the same games, masks, ends, replaced games, seeds, next seed, moves
    and bots' generators, up to and past a move of the pool by a block."""
    if backend == "jax":
        pytest.importorskip("jax")
    env = batch.make("throne", players=players, size=size, backend=backend, autoreset=True)
    a, b = env.init(seed=40), env.init(seed=40)
    sa, sb = RandomSeats(range(40, 40 + size), players), RandomSeats(range(40, 40 + size), players)
    for _ in range(calls):
        a, moves_a = env.play_random(a, sa, steps)
        b, moves_b = host_path(env, b, sb, steps)
        assert (moves_a, a.next_seed) == (moves_b, b.next_seed)
        assert np.array_equal(np.asarray(a.data), np.asarray(b.data))
        assert np.array_equal(np.asarray(a.mask_rows), np.asarray(b.mask_rows))
        assert np.array_equal(np.asarray(a.ended), np.asarray(b.ended))
        assert np.array_equal(np.asarray(a.reset), np.asarray(b.reset))
        assert np.array_equal(a.seeds, b.seeds) and a.seeds.dtype == np.uint64
        assert np.array_equal(sa.state, sb.state)
    assert env._pool.first >= 40 + 2 * size  # the pool moved on by a block at least once


def test_random_seats_hold_the_compiled_words_until_read() -> None:
    seats = RandomSeats(range(3), 2)
    before = seats.state.copy()
    lo, hi = seats.words()
    seats.hold(lo + np.uint32(1), hi)
    assert seats.shape == (2, 3)
    assert np.array_equal(seats.state, before + np.uint64(1))
    seats.reseed(np.array([1]), [0])
    assert int(seats.state[0, 1]) == int(before[0, 0])


def test_blocks_of_new_games_dealt_by_a_compiled_program_are_the_hosts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From ``LARGE_BATCH`` games on, ``play_random``'s auto-reset deals its
    blocks of new games in a compiled program (each generator's seed hashed in array
    code): the same games and bots' generators as the host's hashing, up to the last
    seeds below ``2**32``; beyond them, below that size and under ``deal="shuffled"``
    the host deals.  The bots' streams planted one seat off are caught."""
    pytest.importorskip("jax")
    from castlerules import ascent

    env = batch.make("ascent", players=3, size=8, backend="jax", autoreset=True)
    assert not env._compiles_blocks(0)
    monkeypatch.setattr(slots, "LARGE_BATCH", 8)
    assert env._compiles_blocks(2**32 - 8) and not env._compiles_blocks(2**32 - 7)
    shuffled = ascent.Rules(deal="shuffled")
    made = batch.make("ascent", players=3, rules=shuffled, size=8, backend="jax", autoreset=True)
    assert not made._compiles_blocks(0)

    def same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
        return all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b, strict=True))

    for first in (0, 123_456_789, 2**32 - 8):
        assert same(env._block(first), env._host_block(first))
    # The compiled program kept, the host's bots planted one seat off: told apart.
    monkeypatch.setattr(env, "_bot_streams", lambda: ("play.bot.1", "play.bot.2", "play.bot.0"))
    assert not same(env._block(5), env._host_block(5))
