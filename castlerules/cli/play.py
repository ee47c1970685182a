"""``castlerules play GAME --players N``: a hot-seat game in the terminal, with bots.

Each human seat in turn sees the position as that seat may know it, the
moves played since its last turn, and its legal moves; it types a move in
the game's notation (or ``help``, ``moves``, ``board``, ``quit``).  Input
that is not a move, or a move the rules forbid, is explained (with the
clause) and asked again.  ``--bot SEAT=random|greedy|montecarlo`` lets the computer
play a seat (see :mod:`castlerules.cli.bots`).

Hidden information (Throne's objectives and votes) is respected: with two or
more human seats on a terminal, the game is played on the terminal's
alternate screen (which keeps no scrollback), and before each human turn the
screen and the scrollback are cleared and a "pass the device to seat N; seat
N only" screen waits for Enter, so a seat's objective and vote are shown only
to that seat, and nothing is left to scroll back to; the end of the game
(scores, objectives, the last moves, all public by then) is printed on the
main screen, which never held a secret.  Every vote is announced as cast
face down until the election's last vote, when the game reveals them
together (B11).  The position is drawn from ``observation(state, seat)``.
With one human seat there is nobody to hide from, so there is no prompt.

The seed is secret during play: Throne deals every round's objectives from
it, so whoever knows it knows every seat's objectives (``castlerules explain
throne new:4:SEED ...`` shows them).  Without ``--seed`` a random 64-bit seed
is drawn and never shown before the game is over; it is printed with the
result and kept in the saved record, which is read after the game.  A seed
given with ``--seed`` is known to whoever typed it: use it to replay a game,
not at a table with hidden objectives.

At the end (or on ``quit``, end of input or Ctrl-C) the game record is saved
(``--save FILE``, by default a new ``castlerules-GAME-DATE-TIME.json`` in the
current directory; ``--no-save`` to skip); ``castlerules replay`` checks it.
Where it goes is checked before the game starts: a ``--save`` file that exists
already is refused (exit status 2) unless ``--force``.

Exit status: 0 when the game is over or a player quit, 2 for bad arguments
or when the input ended before the game did (the record of the moves played
is still saved), 130 on Ctrl-C.  (1 is never used: ``play`` refuses an
illegal move and asks again.)
"""

from __future__ import annotations

import argparse
import secrets
import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any

from castlerules import boards, records, throne
from castlerules.cli import bots, common
from castlerules.core import ArgumentError, IllegalMove, NotationError, RulesError

ALTERNATE_SCREEN = "\x1b[?1049h"
"""ANSI: switch to the terminal's alternate screen, which keeps no scrollback."""
MAIN_SCREEN = "\x1b[?1049l"
"""ANSI: back to the main screen, as it was before the game (no secret was ever on it)."""
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""ANSI: go home, clear the screen and clear the scrollback (terminals that keep a cleared
screen in their scrollback drop it too)."""

HELP = """\
Type a move in the game's notation, e.g. {examples}.
Other commands: moves (list the legal moves), board (show the position),
help (this text), quit (stop; the record is saved)."""


def add_parser(sub: Any, name: str) -> None:
    """Register the ``play`` sub-command."""
    parser = sub.add_parser(
        name,
        help="play a hot-seat game in the terminal, with bots",
        description=textwrap.fill(
            "A hot-seat game: each human seat plays in turn on this terminal; bots "
            "fill the seats given with --bot. The seed (it deals the secret objectives) is "
            "shown only once the game is over; the record is saved at the end, and where "
            "it goes is checked before the game starts. Exit status: 0 the game is over or "
            "a player quit; 2 bad arguments, or the input ended before the game did (the "
            "moves played are saved); 130 interrupted.",
            78,
        ),
        epilog="examples:\n"
        "  castlerules play throne --players 4 --bot 2=greedy --bot 3=random\n"
        "  castlerules play ascent --players 2 --bot 1=greedy --save game.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="throne or ascent")
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument(
        "--bot",
        metavar="SEAT=KIND",
        action="append",
        default=[],
        help="a computer player for SEAT: random, greedy, montecarlo or mcts[:N] (repeatable)",
    )
    common.add_rules_arguments(parser)
    parser.add_argument(
        "--seed",
        type=common.seed_argument,
        help="seed of the deal, the die and the bots, in 0..2^64-1 (default: a secret random "
        "seed, shown only once the game is over; a seed you give is known to you, so it "
        "reveals the Throne objectives)",
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="where to save the record (checked before the game starts: a file that exists "
        "is refused unless --force)",
    )
    parser.add_argument("--no-save", action="store_true", help="do not save the record")
    common.add_force_argument(parser)
    parser.set_defaults(run=run)


def parse_bots(module: Any, players: int, texts: list[str], seed: int) -> dict[int, Any]:
    """``["1=greedy", "2=random"]`` -> the bot of each seat."""
    return {
        seat: bots.make_bot(kind, module, seat, seed)
        for seat, kind in common.seat_kinds(players, texts).items()
    }


class Session:
    """One game at the terminal: the state, the moves, what each seat has seen."""

    def __init__(
        self,
        module: Any,
        state: Any,
        seats: dict[int, Any],
        *,
        read: Callable[[str], str],
        write: Callable[[str], Any],
        clear: str,
    ) -> None:
        self.module = module
        self.state = state
        self.bots = seats
        self.read = read
        self.write = write
        self.clear = clear
        self.moves: list[Any] = []
        self.log: list[str] = []
        self.seen: dict[int, int] = {}
        players = len(module.scores(state))
        self.humans = [p for p in range(players) if p not in seats]
        self.hidden = module is throne and len(self.humans) > 1
        self.last_viewer: int | None = None

    # -- the log of public events -------------------------------------------------

    def record_move(self, seat: int, move: Any, after: Any) -> None:
        """Play ``move`` and log what every seat may know of it."""
        module = self.module
        before = self.state
        events = module.describe(before, move, after)
        who = f"seat {seat}" + (" (bot)" if seat in self.bots else "")
        notes = "; ".join(str(e) for e in events)
        if isinstance(move, throne.Vote):
            # The vote itself stays secret until the last one: the game's events
            # say "votes face down", then reveal every vote together (B11).
            self.log.append(f"{who} votes: {notes}")
        else:
            self.log.append(f"{who} plays {move}: {notes}")
        self.moves.append(move)
        self.state = after

    def show_news(self, seat: int) -> None:
        """Write the log lines that ``seat`` has not seen yet (the last 40 at most)."""
        start = self.seen.get(seat, 0)
        news = self.log[start:]
        if news:
            if len(news) > 40:
                self.write(f"... {len(news) - 40} earlier moves not shown\n")
                news = news[-40:]
            self.write("Since your last turn:\n" if start else "So far:\n")
            for line in news:
                self.write(f"  {line}\n")
        self.seen[seat] = len(self.log)

    # -- turns -------------------------------------------------------------------

    def hand_over(self, seat: int) -> None:
        """With hidden information and several humans: clear, and wait for ``seat``."""
        if not self.hidden or self.last_viewer == seat:
            return
        self.write(self.clear)
        self.read(
            f"Pass the device to seat {seat}. Seat {seat} only: press Enter when ready "
            f"(the next screen shows seat {seat}'s secrets). "
        )
        self.write(self.clear)
        self.last_viewer = seat

    def legal_line(self) -> str:
        moves = [str(m) for m in self.module.legal_moves(self.state)]
        return textwrap.fill(
            f"Legal moves ({len(moves)}): " + " ".join(moves),
            width=78,
            subsequent_indent="  ",
        )

    def human_turn(self, seat: int) -> bool:
        """Ask ``seat`` for a move until it gives a legal one; False if the player quits."""
        module = self.module
        self.hand_over(seat)
        self.write("\n")
        self.show_news(seat)
        self.write(boards.board(module, self.state, seat) + "\n")
        self.write(self.legal_line() + "\n")
        while True:
            text = self.read(f"seat {seat}> ").strip()
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "exit"):
                return False
            if command in ("help", "?"):
                examples = ", ".join(str(m) for m in module.legal_moves(self.state)[:3])
                self.write(HELP.format(examples=examples) + "\n")
                continue
            if command == "moves":
                self.write(self.legal_line() + "\n")
                continue
            if command == "board":
                self.write(boards.board(module, self.state, seat) + "\n")
                continue
            answer = common.question_answer(module, self.state, text)  # Throne's C-: B9
            if answer is not None:
                self._illegal(answer)
                continue
            try:
                move = module.parse_move(self.state, text, check=False)
                after = module.apply(self.state, move, seat=seat)
            except NotationError as err:
                self.write(f"Cannot read {text!r}: {common.safe_error(err)}. Type help for help.\n")
                continue
            except IllegalMove as err:
                self._illegal(err)
                continue
            except RulesError as err:
                self.write(f"Cannot play {text!r}: {common.safe_error(err)}\n")
                continue
            self.record_move(seat, move, after)
            self.write(f"You played {move}: {self.log[-1].split(': ', 1)[1]}\n")
            self.seen[seat] = len(self.log)
            return True

    def _illegal(self, err: IllegalMove) -> None:
        self.write(f"Illegal: {common.safe_error(err)}\n  {common.clause_line(err.clause)}\n")
        self.write("Try again (moves lists the legal moves).\n")

    def bot_turn(self, seat: int) -> None:
        move = self.bots[seat](self.state, seat)
        after = self.module.apply(self.state, move, seat=seat)
        self.record_move(seat, move, after)
        if not self.humans:
            self.write(self.log[-1] + "\n")
            self.seen[seat] = len(self.log)

    def run(self) -> bool:
        """Play to the end; False if a player quit."""
        module = self.module
        while not module.is_over(self.state):
            seat = module.current_player(self.state)
            assert seat is not None
            if seat in self.bots:
                self.bot_turn(seat)
            elif not self.human_turn(seat):
                return False
        return True

    def finish(self) -> None:
        """Show the end of the game to everyone: all moves, the scores and the winners."""
        module = self.module
        self.write("The game is over.\n")
        if self.humans:
            # Everything is public now: the moves that some player has not seen yet.
            first = min(self.seen.get(seat, 0) for seat in self.humans)
            last = self.log[max(first, len(self.log) - 40) :]
            if last:
                self.write("The last moves:\n")
            for line in last:
                self.write(f"  {line}\n")
        self.write(boards.board(module, self.state, None) + "\n")
        if module is throne:
            for number, scores in enumerate(throne.round_scores(self.state), 1):
                king = throne.king(self.state, number)
                line = ", ".join(
                    f"seat {i}: {s} ({''.join(sorted(objs))})"
                    for i, (s, objs) in enumerate(
                        zip(scores, throne.objectives_of_round(self.state, number), strict=True)
                    )
                )
                self.write(f"round {number} (king {king or 'none'}): {line}\n")
        scores = module.scores(self.state)
        self.write("final scores: " + ", ".join(f"seat {i}: {s}" for i, s in enumerate(scores)))
        self.write("\n")
        winners = module.winners(self.state)
        word = "Winner" if len(winners) == 1 else "Winners (shared win)"
        self.write(f"{word}: {', '.join(f'seat {w}' for w in winners)}\n")


def run(args: argparse.Namespace) -> int:
    """Play a game at the terminal; save its record."""
    module = common.game_module(args.game)
    players = module.PLAYERS
    if args.players not in players:
        raise ArgumentError(
            f"{module.NAME} is played by {players.start} to {players.stop - 1} players, "
            f"not {args.players}"
        )
    preset, rules = common.rules_from_args(module, args)
    # A secret seed of 64 random bits: too many to find from one's own objective.
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    seats = parse_bots(module, args.players, args.bot, seed)
    target = None
    if not args.no_save:
        path = args.save
        if path is None:
            path = common.unused_path(
                time.strftime(f"castlerules-{module.NAME}-%Y%m%d-%H%M%S.json")
            )
        target = common.check_output_file(path, "record", force=args.force)  # before the game
    state = module.new_game(args.players, rules=rules, seed=seed)
    write = sys.stdout.write

    def read(prompt: str) -> str:
        sys.stdout.flush()
        return input(prompt)

    # Bytes that are not UTF-8 are read as lone surrogates, then refused as any other
    # unreadable text is (and shown escaped), never a UnicodeDecodeError.
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if callable(reconfigure):
        reconfigure(errors="surrogateescape")

    terminal = sys.stdout.isatty()
    clear = CLEAR if terminal else "\n" + "-" * 60 + "\n"
    session = Session(module, state, seats, read=read, write=write, clear=clear)
    label = common.rules_label(module, rules, preset)
    humans = ", ".join(str(s) for s in session.humans) or "none"
    write(
        f"{module.NAME.capitalize()}: {args.players} players (human seats: {humans}), "
        f"rules {label}\n"
    )
    if module is not throne:
        write(f"The die chooses seat {module.current_player(state)} to begin.\n")
    status = common.EXIT_OK
    secret = session.hidden and terminal  # the secrets go on the alternate screen only
    try:
        try:
            if secret:
                write(ALTERNATE_SCREEN + CLEAR)
            try:
                finished = session.run()
            finally:
                if secret:  # whatever happened: erase the secrets, back to the main screen
                    write(CLEAR + MAIN_SCREEN)
                    sys.stdout.flush()
        except EOFError:
            write("\n")
            print("castlerules play: the input ended before the game did", file=sys.stderr)
            finished, status = False, common.EXIT_BAD_INPUT
        except KeyboardInterrupt:
            write("\n")
            finished, status = False, common.EXIT_INTERRUPTED
        if finished:
            session.finish()
        else:
            write(f"Game stopped after {len(session.moves)} moves.\n")
        # Only now, the game over: the seed determines the hidden objectives.
        write(f"The seed of this game was {seed}.\n")
    finally:
        # Whatever happened, the moves played so far are kept.
        if target is not None:
            record = records.make(
                module,
                args.players,
                rules,
                seed=seed,
                preset=preset,
                moves=session.moves,
                final=session.state,
            )
            written = common.write_file(target, records.dumps(record))
            shown = common.shown(written.path)
            write(f"Record saved to {shown} (check it with: castlerules replay {shown})\n")
            if written.kept is not None and status == common.EXIT_OK:
                status = common.EXIT_BAD_INPUT
    return status
