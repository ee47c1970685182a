"""``castlerules play``, driven on a pseudo-terminal as a person at the keyboard would.

The short Throne games use one round of seven characters (``-o characters=7
-o objective_size=3 -o rounds=1 -o bonus_rounds=[]``) so that a whole game,
election included, takes a few dozen moves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from castlerules import throne

Cli = Callable[..., Any]
Start = Callable[..., Any]
SHORT = [
    "-o",
    "characters=7",
    "-o",
    "objective_size=3",
    "-o",
    "rounds=1",
    "-o",
    "bonus_rounds=[]",
]
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
TURN = (
    r"(Pass the device to seat (\d)\. Seat \d only: press Enter when ready \(the next "
    r"screen shows seat \d's secrets\)\. )|(seat (\d)> )|(Winner)"
)


def legal_moves(text: str) -> list[str]:
    """The moves of the last 'Legal moves (n): ...' list in ``text``."""
    found = re.findall(r"Legal moves \((\d+)\): ((?:.|\n  )*)", text)
    assert found, text[-2000:]
    count, moves = found[-1]
    listed = moves.split()
    assert len(listed) == int(count)
    return listed


def play_to_the_end(term: Any, choose: Callable[[int, list[str]], str]) -> list[tuple[int, str]]:
    """Answer every prompt until the game is over; return the (seat, view) of each turn."""
    views = []
    shown_from = 0
    while True:
        match = term.expect(TURN)
        if match.group(1):
            term.send("")
            shown_from = term.pos
            continue
        if match.group(5):
            return views
        seat = int(match.group(4))
        view = term.since(shown_from)
        views.append((seat, view))
        term.send(choose(seat, legal_moves(view)))
        shown_from = term.pos


def test_throne_illegal_input_is_explained_and_asked_again(terminal: Start, tmp_path: Path) -> None:
    term = terminal(
        "play",
        "throne",
        "--players",
        "3",
        "--bot",
        "1=greedy",
        "--bot",
        "2=random",
        "--seed",
        "5",
        "--save",
        "game.json",
    )
    # The seed deals every objective: it is not shown while the game is on (B4).
    term.expect(r"Throne: 3 players \(human seats: 0\), rules SEED\n")
    term.expect(r"Your objective \(seat 0, secret\): ")
    term.expect(r"seat 0> ")
    term.send("C6")
    term.expect(
        r"Illegal: Character C cannot be placed on floor 6: placement is on floors 1-5 "
        r"only \(B6\)\n  B6: Placement phase, in turn, on placement_floors only "
        r"\(by default floors 1-5\)\.\n"
    )
    term.expect(r"seat 0> ")
    term.send("A-")  # B9: a player's question, answered by the rule
    term.expect(r"Illegal: Character A cannot move down: no character ever moves down.*\(B9\)\n")
    term.expect(r"seat 0> ")
    term.send("hello")
    term.expect(r"Cannot read 'hello': a move is C3 .*Type help for help\.\n")
    term.expect(r"seat 0> ")
    term.send("help")
    term.expect(r"Type a move in the game's notation, e\.g\. A1, A2, A3\.")
    term.expect(r"seat 0> ")
    term.send("C3")
    term.expect(r"You played C3: Seat 0 places C on floor 3 \(merchants\)\. \(B6\)\n")
    term.expect(r"Since your last turn:\n  seat 1 \(bot\) plays ")
    term.expect(r"seat 0> ")
    term.send("quit")
    term.expect(r"Game stopped after 3 moves\.\nThe seed of this game was 5\.\n")
    term.expect(r"Record saved to game\.json")
    assert term.wait() == 0
    assert "seed 5" not in term.output
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["moves"][0] == "C3" and len(record["moves"]) == 3
    assert "result" not in record


def test_throne_hot_seat_hides_objectives_and_votes(
    terminal: Start, run_main: Cli, tmp_path: Path
) -> None:
    args = ["--players", "3", "--bot", "2=greedy", "--seed", "3", *SHORT]
    term = terminal("play", "throne", *args)
    start = throne.new_game(
        3,
        rules=throne.Rules(characters=7, objective_size=3, rounds=1, bonus_rounds=()),
        seed=3,
    )
    mine = {seat: " ".join(sorted(throne.objective(start, seat))) for seat in (0, 1)}

    def choose(seat: int, moves: list[str]) -> str:
        return "no" if "no" in moves else moves[0]  # vote No while No cards last

    views = play_to_the_end(term, choose)
    term.expect(r"Record saved to (castlerules-throne-\d{8}-\d{6}\.json)")
    path = tmp_path / term.output.rsplit("Record saved to ", 1)[1].split(" ")[0]
    assert term.wait() == 0
    assert {seat for seat, _ in views} == {0, 1}
    previous = None
    hand_overs = 0
    for seat, segment in views:
        other = 1 - seat
        # A new seat's view is on a screen cleared after the hand-over prompt.
        if seat != previous:
            assert CLEAR in segment
            hand_overs += 1
        previous = seat
        view = segment.rsplit(CLEAR, 1)[-1]
        assert f"Your objective (seat {seat}, secret): {mine[seat]}," in view
        assert f"(seat {other}, secret)" not in view
        assert f"seat {other} no" not in view or "The votes are revealed" in view
    assert any("votes face down" in view for _, view in views)
    assert term.output.count("Pass the device to seat ") == hand_overs > 2
    # Once entering the alternate screen, twice per hand-over, once leaving it.
    assert term.output.count(CLEAR) == 2 * hand_overs + 2
    assert "The game is over." in term.output
    done = run_main("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert "game over" in done.stdout and "(as recorded)" in done.stdout


def test_ascent_one_human_against_a_greedy_bot_to_the_end(
    terminal: Start, run_main: Cli, tmp_path: Path
) -> None:
    term = terminal(
        "play",
        "ascent",
        "--players",
        "2",
        "--bot",
        "1=greedy",
        "--seed",
        "4",
        "--save",
        "ascent.json",
    )
    term.expect(r"The die chooses seat (\d) to begin\.")
    views = play_to_the_end(term, lambda seat, moves: moves[-1])
    assert views and all(seat == 0 for seat, _ in views)
    assert "Pass the device" not in term.output  # Ascent hides nothing
    assert "square  seat 0" in views[0][1]
    assert re.search(r"final scores: seat 0: -?\d+, seat 1: -?\d+\nWinner", term.output)
    term.expect(r"Record saved to ascent\.json")
    assert term.wait() == 0
    done = run_main("replay", str(tmp_path / "ascent.json"))
    assert done.returncode == 0, done.stderr


def test_end_of_input_saves_the_record_and_is_bad_input(terminal: Start, tmp_path: Path) -> None:
    # Exit status 1 means "an illegal move was found"; input that ends early is bad input.
    term = terminal(
        "play",
        "throne",
        "--players",
        "4",
        "--seed",
        "1",
        "--save",
        "eof.json",
        "--bot",
        "1=random",
        "--bot",
        "2=random",
        "--bot",
        "3=random",
    )
    term.expect(r"seat 0> ")
    term.send("A1")
    term.expect(r"seat 0> ")
    term.send("\x04")  # Ctrl-D: end of input
    term.expect(r"castlerules play: the input ended before the game did")
    assert term.wait() == 2
    assert len(json.loads((tmp_path / "eof.json").read_text())["moves"]) >= 2


def test_bots_alone_play_a_whole_game(run_cli: Cli, run_main: Cli, tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    done = run_cli(
        "play",
        "throne",
        "--players",
        "4",
        "--seed",
        "9",
        "--save",
        str(path),
        "--bot",
        "0=greedy",
        "--bot",
        "1=greedy",
        "--bot",
        "2=random",
        "--bot",
        "3=random",
    )
    assert done.returncode == 0, done.stderr
    assert "Winner" in done.stdout
    # The record replays, and the same game is played again in this process (another
    # hash seed): castlerules.cli.main, as test_replay.py asks it.
    assert run_main("replay", str(path)).returncode == 0
    again = tmp_path / "again.json"
    run_main(
        "play",
        "throne",
        "--players",
        "4",
        "--seed",
        "9",
        "--save",
        str(again),
        "--bot",
        "0=greedy",
        "--bot",
        "1=greedy",
        "--bot",
        "2=random",
        "--bot",
        "3=random",
    )
    assert json.loads(again.read_text())["moves"] == json.loads(path.read_text())["moves"]


BAD = [
    (["chess", "--players", "3"], "unknown game 'chess'"),
    (["throne", "--players", "2"], "throne is played by 3 to 6 players, not 2"),
    (["throne", "--players", "3", "--bot", "3=greedy"], "--bot 3=greedy: the seats are 0..2"),
    (["throne", "--players", "3", "--bot", "1=clever"], "unknown bot 'clever'; the bots are"),
    (["throne", "--players", "3", "--bot", "one"], "--bot is written SEAT=KIND"),
    (["ascent", "--players", "3", "-o", "favours=2"], "unknown option 'favours'"),
    (["ascent"], "the following arguments are required: --players"),
]


def test_bad_arguments_are_one_clear_line(
    run_cli: Cli, run_main: Cli, failure: Callable[..., str]
) -> None:
    # On a real process: an error the command reports (status 2, one line); the rest,
    # and argparse's usage error, asked of castlerules.cli.main in this process.
    (args, message), *rest = BAD
    assert message in failure(run_cli("play", *args, "--no-save"))
    for args, message in rest:
        assert message in failure(run_main("play", *args, "--no-save"))


ESCAPES = re.compile(r"\x1b\[\?1049[hl]|\x1b\[[23]?J|\x1b\[H")


class Screens:
    """What a reader of the terminal could see, from the bytes sent: a main screen (every
    line ever written there, since some terminals keep a cleared screen in their scrollback
    until ``ESC[3J``) and an alternate screen (no scrollback: ``ESC[2J`` erases it)."""

    def __init__(self) -> None:
        self.main = ""  # the main screen and its scrollback
        self.alternate = ""
        self.on_alternate = False
        self.switches: list[str] = []

    def feed(self, text: str) -> None:
        position = 0
        for found in ESCAPES.finditer(text):
            self._write(text[position : found.start()])
            code = found.group(0)
            if code in ("\x1b[?1049h", "\x1b[?1049l"):
                self.on_alternate = code.endswith("h")
                self.switches.append(code[-1])
                self.alternate = ""  # xterm: a fresh alternate screen each time
            elif code in ("\x1b[2J", "\x1b[J") and self.on_alternate:
                self.alternate = ""
            elif code == "\x1b[3J" and not self.on_alternate:
                self.main = ""  # the scrollback goes (the screen was cleared just before)
            position = found.end()
        self._write(text[position:])

    def _write(self, text: str) -> None:
        if self.on_alternate:
            self.alternate += text
        else:
            self.main += text

    def readable(self) -> str:
        """Everything the person at the keyboard can read or scroll back to now."""
        return self.alternate if self.on_alternate else self.main


def test_throne_hot_seat_secrets_never_reach_the_main_screen_or_the_scrollback(
    terminal: Start, tmp_path: Path
) -> None:
    """On a pseudo-terminal: the game runs on the alternate screen, each hand-over erases
    the screen and the scrollback and waits on a "seat N only" screen, and when it ends
    the main screen (and its scrollback) holds no seat's objective."""
    args = ["--players", "3", "--bot", "2=greedy", "--seed", "3", "--no-save", *SHORT]
    term = terminal("play", "throne", *args)
    secret = re.compile(r"Your objective \(seat (\d), secret\)")
    screens = Screens()
    fed = 0
    turns = 0
    while True:
        match = term.expect(TURN)
        screens.feed(term.output[fed : term.pos])
        fed = term.pos
        if match.group(5):
            break
        if match.group(1):
            # The hand-over screen: nothing of any seat's secrets can be read or scrolled to.
            assert screens.on_alternate
            assert not secret.search(screens.readable()), screens.readable()[-2000:]
            term.send("")
            continue
        seat = int(match.group(4))
        shown = {int(s) for s in secret.findall(screens.readable())}
        assert shown == {seat}  # its own, and no other seat's
        turns += 1
        moves = legal_moves(term.output[: term.pos])
        term.send("no" if "no" in moves else moves[0])
    assert term.wait() == 0
    screens.feed(term.output[fed:])
    assert turns > 4
    assert screens.switches == ["h", "l"]  # in once, out once, at the end
    assert not screens.on_alternate
    assert "The game is over." in screens.main and "final scores:" in screens.main
    assert not secret.search(screens.main)
    assert "\x1b[?1049h" in term.output and "\x1b[3J" in term.output


def test_quitting_a_hot_seat_game_leaves_no_secret_on_the_main_screen(
    terminal: Start, tmp_path: Path
) -> None:
    term = terminal("play", "throne", "--players", "3", "--no-save", *SHORT)
    term.expect(TURN)
    term.send("")
    term.expect(r"seat 0> ")
    assert "Your objective (seat 0, secret)" in term.output
    term.send("quit")
    assert term.wait() == 0
    screens = Screens()
    screens.feed(term.output)
    assert not screens.on_alternate and "Game stopped after 0 moves." in screens.main
    assert "Your objective" not in screens.main
