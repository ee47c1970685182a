"""Each kernel guard names its refusal (``Guard.refusal``), and the name is the engine's.

On every position of a small game of each game, every move the kernel refuses is
refused by the engine with the refusal the guard names, or with one of the finer
refusals that guard stands for (the engine says why a card is not one the player may
move: removed, not in play...).  A guard given another name is found.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from castlerules import ascent, throne
from castlerules.ascent import kernel as ascent_kernel
from castlerules.casebook.refusals import REFUSALS
from castlerules.core import IllegalMove
from castlerules.core.ops import CONCRETE, Guard
from castlerules.throne import kernel as throne_kernel

FINER: Mapping[str, frozenset[str]] = {
    kind.within: frozenset(k.key for k in REFUSALS if k.within == kind.within)
    for kind in REFUSALS
    if kind.within is not None
}
"""The guards that stand for several refusals of the engine: the finer ones (as the
games declare them, ``ENGINE_REFUSALS``)."""


def test_the_finer_refusals_are_the_engines() -> None:
    assert FINER["ascent-other-column"] == {"ascent-advance-not-in-play", "ascent-advance-removed"}
    assert FINER["ascent-favour-other-row"] >= {
        "ascent-favour-not-in-play",
        "ascent-favour-own-column",
        "ascent-favour-start",
    }


SCOPES = {
    "ascent": (ascent, ascent_kernel, ascent.Rules(cards=("L0", "T1", "P1")), 2),
    "throne": (throne, throne_kernel, throne.Rules.preset("SEED"), 3),
}


def _mismatches(game: str, limit: int = 120) -> set[str]:
    """The (kernel name, engine name) pairs that disagree over the first ``limit``
    positions of the scope's game, breadth first."""
    module, kernel, rules, players = SCOPES[game]
    shape = kernel.Shape.of(rules, players)
    start = module.new_game(players, rules, seed=0)
    queue, seen, bad = [start], set[str](), set[str]()
    while queue and len(seen) < limit:
        state = queue.pop(0)
        text = module.to_text(state)
        if text in seen:
            continue
        seen.add(text)
        ks = kernel.from_state(state)
        for a, move in enumerate(shape.moves):
            verdict = kernel.judge(shape, ks, a)
            try:
                queue.append(module.apply(state, move))
                continue
            except IllegalMove as err:
                engine = err.refusal
            named = verdict.refusal
            if named != engine and engine not in FINER.get(named or "", ()):
                bad.add(f"{named} / {engine}")
    return bad


@pytest.mark.parametrize("game", ["ascent", "throne"])
def test_each_refusal_is_the_one_its_guard_names(game: str) -> None:
    assert _mismatches(game) == set()


@pytest.mark.parametrize("game", ["ascent", "throne"])
def test_every_guard_name_is_a_listed_refusal(game: str) -> None:
    module, kernel, rules, players = SCOPES[game]
    shape = kernel.Shape.of(rules, players)
    state = kernel.from_state(module.new_game(players, rules, seed=0))
    position = kernel.Position(CONCRETE, shape, kernel.Options.of(CONCRETE, rules), state)
    found = kernel.guards(position, kernel.decode(position, 0))
    assert all(isinstance(g, Guard) for g in found)
    # The catalogue reads the guards of the default rules, its smallest game and move 0:
    # those of other rules, another player count and the last move are the same names.
    last = kernel.guards(position, kernel.decode(position, len(shape.moves) - 1))
    listed = {kind.key: kind.clause for kind in REFUSALS if kind.game == game and not kind.within}
    guarded = {g.refusal: g[0] for g in found}
    assert guarded == {g.refusal: g[0] for g in last}
    assert guarded.items() <= listed.items()


def test_a_guard_given_another_name_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ascent_kernel.guards

    def renamed(p: Any, m: Any) -> tuple[Guard, ...]:
        return tuple(
            Guard(*g, "ascent-favour-rank") if g.refusal == "ascent-ceiling" else g
            for g in real(p, m)
        )

    monkeypatch.setattr(ascent_kernel, "guards", renamed)
    assert "ascent-favour-rank / ascent-ceiling" in _mismatches("ascent")
