"""Hostile arguments to the surfaces issue 43 adds, and what the comparison lets a seat see.

``castlerules.register.compare`` and ``Start.read``, ``castlerules.casebook.question``,
``castlerules.records.Target`` and ``records.save``: any argument either works or is
refused with a :class:`~castlerules.core.RulesError` (never another exception, never a
file left behind).  And the comparison's JSON, apart from its rows' ``"after"`` (a whole
position, which the dispute desk's table view leaves out), holds no seat's objective.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlerules import ascent, records, throne
from castlerules.casebook import question
from castlerules.core import IllegalMove, RulesError
from castlerules.register import Start, compare

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.just(math.nan),
    st.text(max_size=40),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-:/,.*? ", max_size=60),
    st.binary(max_size=20),
    st.just("x" * 100_000),
    st.recursive(st.none() | st.text(max_size=3), lambda x: st.lists(x, max_size=3), max_leaves=8),
    st.sampled_from(["new:4", "new:3:7", "new:9", "new:2:99999999999999999999999", "new:", ""]),
)
GAMES = st.sampled_from([throne, ascent])
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(GAMES, HOSTILE)
def test_start_read_takes_anything(module: Any, text: Any) -> None:
    try:
        found = Start.read(module, text)
    except RulesError:
        return
    assert module.to_text(found.state)


@QUICK
@given(GAMES, HOSTILE, st.one_of(HOSTILE, st.lists(HOSTILE, max_size=3)), HOSTILE)
def test_compare_takes_anything(module: Any, move: Any, moves: Any, seat: Any) -> None:
    start = Start.read(module, "new:3:1")
    try:
        found = compare(module, start, move=move, moves=moves, seat=seat)
    except RulesError:
        return
    json.dumps(found.data())
    assert found.lines()


@QUICK
@given(GAMES, HOSTILE)
def test_question_takes_anything(module: Any, text: Any) -> None:
    answer = question(module, module.new_game(3), text)
    assert answer is None or isinstance(answer, IllegalMove)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(HOSTILE)
def test_a_target_takes_anything(tmp_path: Path, path: Any) -> None:
    before = set(tmp_path.iterdir())
    try:
        target = records.Target.check(path, "page")
    except RulesError:
        assert set(tmp_path.iterdir()) == before
        return
    assert isinstance(target.path, str)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.integers(3, 6))
def test_the_comparison_shows_no_objective_but_in_positions(
    seed: int, length: int, players: int
) -> None:
    """B4: the comparison's words (reasons, differences, events, refusals) never hold a
    seat's objective; only the rows' ``"after"`` positions do, as every position does."""
    state = throne.new_game(players, seed=seed)
    moves = []
    for number in range(length):
        legal = throne.legal_moves(state)
        if not legal:
            break
        move = legal[(seed + number) % len(legal)]
        moves.append(str(move))
        state = throne.apply(state, move)
    legal = throne.legal_moves(state)
    if not legal:
        return
    found = compare(
        throne, Start.read(throne, f"new:{players}:{seed}"), moves=moves, move=str(legal[0])
    )
    data = found.data()
    for row in data["readings"]:
        row.pop("after", None)
    text = json.dumps(data)
    field = throne.to_text(state).split(" ")[11]  # every round's objectives, every seat's
    secrets = set(field.replace("/", ",").split(","))
    assert len(secrets) > players
    for secret in secrets:
        assert secret not in text, secret
