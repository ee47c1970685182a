"""``castlerules demo``: a seeded game between random players, as an annotated record.

Each move is printed with what it did and the clause IDs it exercised (the
games' ``describe``), then the scores and the winners.  The same seed gives
the same game on every machine.  ``--record-dir DIR`` also saves each game
as a record (``castlerules replay`` checks it again).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from castlerules import records
from castlerules.cli import annotate, common
from castlerules.core import ArgumentError, Game, Rng

GAMES: dict[str, Game] = dict(common.GAMES)


def add_parser(sub: Any, name: str) -> None:
    """Register the ``demo`` sub-command."""
    parser = sub.add_parser(
        name,
        help="play a seeded game between random players, annotated",
        description="Play a seeded game of each engine between random players and print "
        "it, each move with what it did and the clause it exercised; the same seed gives "
        "the same game on every machine. Exit status: 0 done, 2 bad input (one line on "
        "standard error).",
    )
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="default: both")
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument(
        "--seed",
        type=common.seed_argument,
        default=7,
        help="seed of the deal and the players, in 0..2^64-1 (default 7); the games are "
        "printed whole, every objective included",
    )
    parser.add_argument(
        "--record-dir",
        metavar="DIR",
        help="also save each game's record as DIR/GAME-seedSEED.json (checked before the "
        "first game is played: a record that exists is refused unless --force)",
    )
    common.add_force_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print one game per chosen game."""
    names = args.game or ["throne", "ascent"]
    targets: dict[str, records.Target] = {}
    if args.record_dir is not None and not args.record_dir.strip():
        raise ArgumentError("--record-dir is empty: give a directory ('.' for this one)")
    for name in names:  # every argument and every output is checked before any game
        players = GAMES[name].PLAYERS
        if args.players not in players:
            raise ArgumentError(
                f"{name} is played by {players.start} to {players.stop - 1} players, "
                f"not {args.players}"
            )
        if args.record_dir is not None:
            path = os.path.join(args.record_dir, f"{name}-seed{args.seed}.json")
            targets[name] = common.check_output_file(path, "record", force=args.force)
    status = common.EXIT_OK
    for name in names:
        record = random_record(GAMES[name], args.players, args.seed)
        print_record(record, sys.stdout.write)
        if name in targets:
            written = common.write_file(targets[name], records.dumps(record))
            sys.stdout.write(f"record saved to {common.shown(written.path)}\n\n")
            if written.kept is not None:
                status = common.EXIT_BAD_INPUT
    return status


def random_record(game: Game, players: int, seed: int) -> records.Record:
    """A seeded game between random players, as a record (with its result)."""
    state = game.new_game(players, seed=seed)
    rng = Rng.from_seed(seed, f"demo.{game.NAME}")
    moves = []
    while not game.is_over(state):
        move, rng = rng.choice(game.legal_moves(state))
        moves.append(move)
        state = game.apply(state, move)
    return records.make(game, players, seed=seed, moves=moves, final=state)


def print_record(record: records.Record, write: Callable[[str], Any]) -> Any:
    """Write the annotated record of a demo game; return the final state."""
    module = record.module
    write(f"{module.NAME.capitalize()}: {record.players} random players, seed {record.seed}\n")
    state = records.start(record)
    annotate.start_line(module, state, write)
    for step in records.replay(record):
        annotate.step_line(step, write)
        state = step.after
    annotate.footer(module, state, write)
    write("\n")
    return state


def play(game: Game, players: int, seed: int, write: Callable[[str], Any]) -> Any:
    """Play a seeded random game and write its annotated record; return the final state."""
    return print_record(random_record(game, players, seed), write)
