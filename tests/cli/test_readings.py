"""``explain --compare`` names the Ascent end test (A14, option end_test) where its
readings part: on a referee's position and on the move that decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Cli = Callable[..., Any]

REFEREE = "P0B0L0C0T0F0,T1,-,-,-,-,-,-/-,-,-,F1,*C1,*L1,*B1,*P1/-,-,*F2,*T2,*C2,*L2,*B2,*P2 -/-/-"
"""Seat 1's only unflipped card, F1, stands above its arrival square; seat 2 is all flipped."""

DECIDES = (
    "-,F0,-,*T0,*C0,*L0,*B0,*P0/-,-,-,F1,*C1T1,*L1,*B1,*P1/P2B2L2C2T2F2,-,-,-,-,-,-,- -/-/- 0 -"
)
"""Seat 0's last unfinished card, F0, arrives; seat 1 as above; seat 2 still moves."""


def test_a14_the_referee_position_is_over_under_the_default(run_cli: Cli) -> None:
    """A14 (rule 18): only seat 0 is left in the race, so the game is over (the turn
    must be '-'); under end_test=unflipped seat 0 plays on alone, and --compare names
    the reference reading, under which the game is already over there (the replay says
    so, and why, without --verbose)."""
    done = run_cli("explain", "ascent", f"{REFEREE} 0 -", "F0", "--compare")
    assert done.returncode == 2
    assert "the game is over (A14): the turn must be '-'" in done.stderr
    over = run_cli("explain", "ascent", f"{REFEREE} - -", "F0")
    assert over.returncode == 1  # an illegal move
    assert "ILLEGAL: the game is over: F0 cannot be played (A14)" in over.stdout
    assert "il ne reste qu’un joueur" in over.stdout
    old = run_cli("explain", "ascent", f"{REFEREE} 0 end_test=unflipped", "F0", "--compare")
    assert old.returncode == 0
    out = old.stdout
    assert "Seat 0 plays again: nobody else can move. (A14)" in out
    for other in ("end_test=unreached", "end_test=can_move"):
        assert f"    {other}: ILLEGAL: the game is over: F0 cannot be played (A14)\n" in out
    assert (
        "      why: the game is already over in this position under this reading (its end "
        "test, A14): scores "
    ) in out


def test_a14_compare_names_the_end_test_on_the_move_that_decides(run_cli: Cli) -> None:
    """A14: F0 ends the game under the default; under end_test=unflipped seat 1's carried
    card keeps the game going (seat 1 skipped, seat 2 plays)."""
    done = run_cli("explain", "ascent", DECIDES, "F0", "--compare")
    assert done.returncode == 0
    out = done.stdout
    assert (
        "The game is over: at most one player still has a card that has not reached its "
        "arrival square. (A14)" in out
    )
    assert "    end_test=unflipped: LEGAL:" in out
    assert "      - Seat 2's turn. (A3)" in out
    assert "      why: legal under both, with other events" in out
