"""The batch on every position of the kernel's small scopes (B3-B16, A3-A18).

The scopes of the exhaustive tie between the engine and the kernel
(:data:`proofs.equivalence.THRONE_KERNEL_SCOPES` and
:data:`proofs.equivalence.ASCENT_KERNEL_SCOPES`) are searched breadth-first with the engine,
from every initial position (every chance outcome).  Every reachable position
is then loaded into a batch (numpy backend, ``from_states``), and the batch
must give back the position (``to_states``), the engine's legal action
numbers (the mask), the seat to act and the end; and for every legal action
of every position, the batch's step must reach the engine's successor, with
the engine's rewards in the step a game ends.  The counts are printed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from castlerules import ascent, throne
from castlerules.throne.transitions import legal_codes
from proofs.equivalence import ASCENT_KERNEL_SCOPES, THRONE_KERNEL_SCOPES, initial_positions

batch = pytest.importorskip("castlerules.batch")

CHUNK = 4096


def reachable(starts: Sequence[Any], game: Any) -> list[Any]:
    """Every position reachable from ``starts`` with the engine, in search order."""
    seen = dict.fromkeys(starts)
    queue = deque(seen)
    while queue:
        state = queue.popleft()
        for move in game.legal_moves(state):
            after = game.apply(state, move)
            if after not in seen:
                seen[after] = None
                queue.append(after)
    return list(seen)


def check(
    name: str,
    players: int,
    rules: Any,
    states: list[Any],
    legal_numbers: Callable[[Any], set[int]],
    move_of: Callable[[int], Any],
    game: Any,
) -> tuple[int, int]:
    """The batch against the engine on ``states``: (positions, successors) checked."""
    successors = 0
    for first in range(0, len(states), CHUNK):
        chunk = states[first : first + CHUNK]
        env = batch.make(name, players=players, rules=rules, size=len(chunk), backend="numpy")
        b = env.from_states(chunk)
        assert env.to_states(b) == chunk
        mask = np.asarray(b.legal_action_mask)
        numbers = [sorted(legal_numbers(s)) for s in chunk]
        for i, s in enumerate(chunk):
            assert np.flatnonzero(mask[i]).tolist() == numbers[i], (name, game.to_text(s))
        seat = [int(x) for x in np.asarray(b.current_player)]
        assert seat == [-1 if game.is_over(s) else game.current_player(s) for s in chunk]
        assert [bool(x) for x in np.asarray(b.terminated)] == [game.is_over(s) for s in chunk]
        counts = np.array([len(n) for n in numbers])
        for k in range(int(counts.max(initial=0))):
            kth = np.minimum(k, np.maximum(counts - 1, 0))
            after = env.step_kth(b, kth)
            # Read back only the games that have a k-th legal move (the others play
            # their last one again, or nothing, and are not checked at this k).
            playing = [int(i) for i in np.flatnonzero(counts > k)]
            got = dict(zip(playing, env.to_states(after, playing), strict=True))
            rewards = np.asarray(after.rewards)
            for i in playing:
                s = chunk[i]
                expected = game.apply(s, move_of(numbers[i][k]))
                assert got[i] == expected, (name, game.to_text(s), k)
                ends = game.is_over(expected)
                want = list(game.scores(expected)) if ends else [0] * players
                assert [int(x) for x in rewards[i]] == want, (name, game.to_text(s), k)
                successors += 1
    return len(states), successors


@pytest.mark.slow
@pytest.mark.parametrize("scope", THRONE_KERNEL_SCOPES, ids=lambda s: s.name)
def test_throne_batch_on_every_position_of_the_scopes(scope: Any) -> None:
    rules = scope.rules
    codes = rules._derived.codes.moves
    states = reachable(initial_positions(scope), throne)
    positions, successors = check(
        "throne",
        scope.players,
        rules,
        states,
        lambda s: set(legal_codes(s)),
        codes.__getitem__,
        throne,
    )
    print(f"throne {scope.name}: {positions:,} positions, {successors:,} successors")
    assert successors >= sum(not throne.is_over(s) for s in states) > 0


@pytest.mark.slow
@pytest.mark.parametrize("scope", ASCENT_KERNEL_SCOPES, ids=lambda s: s.name)
def test_ascent_batch_on_every_position_of_the_scopes(scope: Any) -> None:
    rules = scope.rules
    shape = batch.make("ascent", players=scope.players, rules=rules, size=1, backend="numpy")
    moves = shape.shape.moves
    number = {m: a for a, m in enumerate(moves)}
    states = reachable(initial_positions(scope), ascent)
    positions, successors = check(
        "ascent",
        scope.players,
        rules,
        states,
        lambda s: {number[m] for m in ascent.legal_moves(s)},
        moves.__getitem__,
        ascent,
    )
    print(f"ascent {scope.name}: {positions:,} positions, {successors:,} successors")
    assert successors >= sum(not ascent.is_over(s) for s in states) > 0
