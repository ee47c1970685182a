"""castlerules.boards: the text board of ``castlerules play`` shows what its seat may know
(B4, B11): a spectator sees no objective and, unless the rules make them public, no
seat's No count."""

from __future__ import annotations

from castlerules import throne
from castlerules.boards import board


def test_a_spectator_sees_no_objective_and_a_seat_sees_its_own() -> None:
    """B4: the objectives are secret; the seat's own is shown to it alone."""
    state = throne.new_game(4, seed=3)
    spectator = board(throne, state, None)
    assert "objective" not in spectator.lower()
    for seat in range(4):
        mine = " ".join(sorted(throne.objective(state, seat)))
        assert f"Your objective (seat {seat}, secret): {mine}," in board(throne, state, seat)


def test_a_spectator_sees_the_no_counts_only_where_they_are_public() -> None:
    """B11: without no_cards_public a spectator sees no No count; a seat sees its own."""
    hidden = throne.new_game(4, throne.Rules(no_cards_public=False), seed=3)
    assert "No cards left" not in board(throne, hidden, None)
    assert "No cards left: seat 2: " in board(throne, hidden, 2)
    assert "seat 0: " not in board(throne, hidden, 2).split("No cards left: ")[1].split("\n")[0]
    public = throne.new_game(4, throne.Rules(no_cards_public=True), seed=3)
    shown = board(throne, public, None).split("No cards left: ")[1].split("\n")[0]
    assert shown.count("seat ") == 4
