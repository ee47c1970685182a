"""``castlerules demo``: a seeded game between random players, as an annotated record.

Each move is printed with what it did and the clause IDs it exercised (the
games' ``describe``), then the scores and the winners.  The same seed gives
the same game on every machine.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from castlerules import ascent, throne
from castlerules.core import Game, Rng

GAMES: dict[str, Game] = {"throne": throne, "ascent": ascent}


def add_parser(sub: Any, name: str) -> None:
    """Register the ``demo`` sub-command."""
    parser = sub.add_parser(name, help="play a seeded game between random players, annotated")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="default: both")
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deal and the players")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print one game per chosen game."""
    for name in args.game or ["throne", "ascent"]:
        play(GAMES[name], args.players, args.seed, sys.stdout.write)
    return 0


def play(game: Game, players: int, seed: int, write: Callable[[str], Any]) -> Any:
    """Play a seeded random game and write its annotated record; return the final state."""
    state = game.new_game(players, seed=seed)
    rng = Rng.from_seed(seed, f"demo.{game.NAME}")
    write(f"{game.NAME.capitalize()}: {players} random players, seed {seed}\n")
    write(f"start  {game.to_text(state)}\n")
    ply = 0
    while not game.is_over(state):
        moves = game.legal_moves(state)
        move, rng = rng.choice(moves)
        seat = game.current_player(state)
        after = game.apply(state, move)
        ply += 1
        notes = "; ".join(str(e) for e in game.describe(state, move, after))
        write(f"{ply:4}. seat {seat}  {move!s:<8} {notes}\n")
        state = after
    scores = game.scores(state)
    write("scores " + "  ".join(f"seat {i}: {p}" for i, p in enumerate(scores)) + "\n")
    winners = game.winners(state)
    word = "winner" if len(winners) == 1 else "winners (shared win)"
    write(f"{word}: " + ", ".join(f"seat {w}" for w in winners) + "\n")
    write(f"end    {game.to_text(state)}\n\n")
    return state


