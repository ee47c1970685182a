"""The exhaustive tie's one search and its command (both games, B3-B16, A3-A18).

The searches themselves run in ``tests/throne/test_kernel.py`` and
``tests/ascent/test_kernel.py``; here, what the declarations promise: every
declared boundary is one the game counts, a declared boundary the search does
not meet fails the scope and is reported, and ``python -m proofs.equivalence``
prints each scope's counts and each game's totals.
"""

from __future__ import annotations

import attrs
import pytest

from proofs import equivalence
from proofs.equivalence import BOUNDARIES, KERNEL_SCOPES, Scope, search

SMALL = equivalence.THRONE_KERNEL_SCOPES[4]
"""The smallest Throne scope (under a thousand positions), no passing allowed."""

ASCENT_SMALL = equivalence.HAND_ASCENT_SCOPES[-1]
"""A small Ascent scope (the last written by hand)."""


def test_every_scope_declares_boundaries_its_game_counts() -> None:
    """Every scope of both games declares what it must reach, in its game's names."""
    assert {s.game for s in KERNEL_SCOPES} == set(BOUNDARIES)
    for scope in KERNEL_SCOPES:
        assert scope.reaches, scope.name
        assert set(scope.reaches) <= set(BOUNDARIES[scope.game]), scope.name


def test_b8_a_declared_boundary_that_is_not_met_fails_the_scope() -> None:
    """B8: without allow_pass nobody passes, so a scope that declares passes fails,
    although engine and kernel agree everywhere."""
    scope = attrs.evolve(SMALL, reaches=("crowned", "passes"))
    found = search(scope)
    assert found.mismatches == () and found.get("crowned") > 0
    assert found.unmet == ("passes",) and not found.ok
    lines: list[str] = []
    (again,) = equivalence.run([scope], lines.append)
    assert again.unmet == ("passes",)
    assert lines[0].startswith(f"throne: {SMALL.name}")
    assert lines[1].startswith("  NOT REACHED passes: ")


def test_a_declared_boundary_the_game_does_not_count_is_refused() -> None:
    """A boundary of the other game (an Ascent favour in a Throne scope) is an error."""
    with pytest.raises(ValueError, match="favours"):
        search(attrs.evolve(SMALL, reaches=("favours",)))


def test_the_command_prints_positions_pairs_and_boundaries_per_scope(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """B3-B16, A3-A18: one line per scope with its counts, then each game's totals;
    exit 0 when every scope holds, 1 when one does not."""
    monkeypatch.setattr(equivalence, "KERNEL_SCOPES", (SMALL, ASCENT_SMALL))
    assert equivalence.main([]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"throne: {SMALL.name} (3 players): ")
    assert out[1].startswith(f"ascent: {ASCENT_SMALL.name} ({ASCENT_SMALL.players} players): ")
    for line in out[:2]:
        assert "reachable positions" in line and "(position, move) pairs" in line
        assert "declared: " in line
    assert out[2].startswith("throne: 1 scopes, ") and out[3].startswith("ascent: 1 scopes, ")
    assert out[-1].startswith("2 scopes, 0 failed")
    failing = Scope(SMALL.game, SMALL.name, SMALL.players, SMALL.options, ("passes",))
    monkeypatch.setattr(equivalence, "KERNEL_SCOPES", (failing,))
    assert equivalence.main(["--game", "throne"]) == 1
    assert "NOT REACHED passes" in capsys.readouterr().out
