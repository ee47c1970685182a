"""Where the games of a check come from, in the order they are played.

1. :func:`casebook_plans`: the casebook's game of every case, shortest first,
   with the move each case tries, under the reading checked or under the case's
   own readings (both readings of a reading case); every clause of the game is
   shown by one of them.
2. :func:`scope_plans`: every game of a small scope: all the move sequences of
   length 0, 1, 2, ... from the start of each player count, deepened while the
   scope's time lasts; every illegal move of the notation is tried in the
   positions of depth 0 and 1.
3. :func:`random_plan`: seeded random games, the player counts in turn.
4. :func:`hypothesis_games`: games whose every move Hypothesis chooses (its
   generation leans to the first and last moves of the list, and to repeats).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from castlerules.conform import reference
from castlerules.conform.reference import Reading
from castlerules.conform.runner import Plan
from castlerules.core import RulesError

__all__ = [
    "casebook_plans",
    "hypothesis_games",
    "player_counts",
    "random_plan",
    "scope_plans",
]


def player_counts(reading: Reading) -> tuple[int, ...]:
    """The player counts these rules can be played by (Throne 3-6, Ascent 2-6)."""
    module = reading.module
    out = []
    for players in module.PLAYERS:
        try:
            reference.start(reading, players, 0)
        except RulesError:
            continue
        out.append(players)
    return tuple(out)


def casebook_plans(game: str, reading: Reading | None = None) -> list[tuple[Reading, Plan]]:
    """The casebook's games of ``game``, each with the reading it is played under,
    shortest first (ties: case order): those of ``reading`` only, or (None) every case
    under its own reading (both readings of a reading case)."""
    from castlerules import casebook
    from castlerules.casebook.store import load

    found = load()
    plans: list[tuple[int, int, Reading, Plan]] = []
    for order, case in enumerate(casebook.cases(game=game)):
        item = found.get(case.key)
        if item is None:
            continue
        sides = [case.rules()]
        if case.kind == "reading":
            sides.append(case.second_rules())
        for which, rules in enumerate(sides):
            if reading is not None and rules != reading.rules:
                continue
            played = reading if reading is not None else Reading.of(game, rules)
            try:
                start = reference.start(played, item.players, item.seed)
            except RulesError:
                continue
            moves = tuple(item.moves)
            probes: dict[int, tuple[str, ...]] = {}
            if item.tried is not None:
                probes[len(moves)] = (item.tried,)
                moves += (item.tried,)
            source = f"casebook {case.key}" + (" (its second reading)" if which else "")
            plan = Plan(start, source, moves=moves, probes=probes)
            plans.append((item.plies, order, played, plan))
    plans.sort(key=lambda p: (p[0], p[1]))
    return [(played, plan) for _, _, played, plan in plans]


def scope_plans(reading: Reading, counts: Sequence[int]) -> Iterator[Plan]:
    """Every game of depth 0, 1, 2, ... from the start of each player count (seed 0).

    Each plan plays the moves to a leaf and compares the leaf only (the
    positions above it were leaves of the depth before).  Endless: the caller
    stops when the scope's time is spent.
    """
    module = reading.module
    depth = 0
    while True:
        produced = False
        for players in counts:
            start = reference.start(reading, players, 0)
            for path in _paths(module, start.state, depth):
                produced = True
                yield Plan(
                    start,
                    f"scope depth {depth}",
                    moves=path,
                    check_from=depth,
                    probe_all_at=depth if depth <= 1 else None,
                )
        if not produced:
            return
        depth += 1


def _paths(module: Any, state: Any, depth: int) -> Iterator[tuple[str, ...]]:
    if depth == 0:
        yield ()
        return
    for move in module.legal_moves(state):
        after = module.apply(state, move)
        for rest in _paths(module, after, depth - 1):
            yield (str(move), *rest)


def random_plan(reading: Reading, counts: Sequence[int], seed: int, number: int) -> Plan:
    """Random game ``number`` of a check seeded ``seed``: its deal and every move drawn
    from generators of that seed (player counts in turn)."""
    players = counts[number % len(counts)]
    deal = random.Random(f"conform:{seed}:deal:{number}").randrange(1 << 32)
    start = reference.start(reading, players, deal)
    rng = random.Random(f"conform:{seed}:moves:{number}")

    def choose(_state: Any, legal: Sequence[Any], _ply: int) -> int:
        return rng.randrange(len(legal))

    return Plan(start, f"random game {number}", choose=choose)


def hypothesis_games(
    reading: Reading,
    counts: Sequence[int],
    *,
    seed: int,
    examples: int,
    play: Callable[[Plan], object],
) -> bool:
    """Play ``examples`` games whose moves Hypothesis chooses (one block); says whether
    Hypothesis can go on (False: an engine that answered the same moves differently when
    Hypothesis played them again).

    ``play(plan)`` plays one whole game.  Every example plays its game to the end, even
    once the budget is spent or a disagreement is found: Hypothesis requires an example
    to draw the same choices each time it meets it (an example that returned without
    drawing would make it stop the check with an error of its own), so the budget is
    read between blocks, never inside one.  Hypothesis is the ``conform`` extra's.
    """
    try:
        import hypothesis
        from hypothesis import strategies as st
    except ImportError:  # pragma: no cover - the conform extra installs it
        raise RulesError(
            "Hypothesis-chosen games need Hypothesis: pip install -e '.[conform]' (from a clone)"
        ) from None

    @hypothesis.seed(seed)
    @hypothesis.settings(
        max_examples=max(1, examples),
        database=None,
        deadline=None,
        derandomize=False,
        phases=[hypothesis.Phase.generate],
        suppress_health_check=list(hypothesis.HealthCheck),
        verbosity=hypothesis.Verbosity.quiet,
        print_blob=False,
    )
    @hypothesis.given(st.data())
    def games(data: Any) -> None:
        players = data.draw(st.sampled_from(tuple(counts)))
        deal = data.draw(st.integers(0, (1 << 32) - 1))
        start = reference.start(reading, players, deal)

        def choose(_state: Any, legal: Sequence[Any], _ply: int) -> int:
            return int(data.draw(st.integers(0, len(legal) - 1)))

        play(Plan(start, "hypothesis game", choose=choose))

    # An example never fails (Hypothesis would replay it); an engine whose answers change
    # from one play of the same moves to the next makes Hypothesis's record of the
    # choices inconsistent: its games end there (the other sources go on).
    try:
        games()
    except hypothesis.errors.Flaky:
        return False
    return True
