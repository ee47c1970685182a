"""``castlerules explain GAME POSITION MOVE``, run as a user would.

Positions come from seeded random games (``scenario``): the first move that
does what the test needs (jumps, flips, opens a favour, removes a stack,
starts an election...), written in the game's own notation.

The exit statuses, the output streams and the single line of an error are checked
on a real process (``run_cli``: ``python -m castlerules``) for each status: 0 (a
legal move), 1 (an illegal one), 2 (bad input, from the engine's errors and from
argparse) and ``--help``; the other tests ask the same command line of
:func:`castlerules.cli.main` in this process (``run_main``), with the same
standard streams and environment, to check what it answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from castlerules import ascent, throne
from castlerules.cli import common
from castlerules.core import IllegalMove, NotationError

Cli = Callable[..., Any]
Scenario = Callable[..., tuple[Any, Any, Any]]
GAMES = {"throne": throne, "ascent": ascent}


def test_b6_illegal_placement_gives_the_clause_in_plain_words(run_cli: Cli) -> None:
    done = run_cli("explain", "throne", "new:4", "C6")
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "Throne, rules SEED: seat 0 plays C6"
    assert lines[1] == (
        "ILLEGAL: Character C cannot be placed on floor 6: placement is on floors 1-5 only (B6)"
    )
    assert (
        lines[2]
        == "B6: Placement phase, in turn, on placement_floors only (by default floors 1-5)."
    )
    assert lines[3].startswith("  « Au début de chaque manche")


def test_b6_legal_placement_shows_what_happened_and_the_position(run_cli: Cli) -> None:
    done = run_cli("explain", "throne", "new:4:7", "C3")
    assert done.returncode == 0, done.stderr
    assert (
        "LEGAL. What happened:\n  - Seat 0 places C on floor 3 (merchants). (B6)\n" in done.stdout
    )
    assert "next: seat 1 to play (placement phase, round 1)" in done.stdout
    after = done.stdout.splitlines()[-1].strip()
    start = throne.new_game(4, seed=7)
    assert throne.from_text(after) == throne.apply(start, throne.Place("C", 3))


@pytest.mark.parametrize(
    ("game", "clause", "word", "expected"),
    [
        ("ascent", "A3", "jumps", "It jumps over the occupied square"),
        ("ascent", "A8", "", "reaches its arrival square"),
        ("ascent", "A10", "available", "A favour is available on row"),
        ("ascent", "A13", "leave the board", "leave the board and count against seat"),
        ("throne", "B10", "", "reaches the throne: every player votes on it"),
        ("throne", "B13", "", "is rejected and eliminated for the rest of the round"),
        ("throne", "B12", "", "is crowned king; round 1 ends"),
    ],
)
def test_a_legal_move_tells_what_happened(
    *, run_main: Cli, scenario: Scenario, game: str, clause: str, word: str, expected: str
) -> None:
    module = GAMES[game]
    before, move, after = scenario(game, 3, clause, word)
    done = run_main("explain", game, module.to_text(before), str(move))
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert f"({clause})" in done.stdout
    assert done.stdout.splitlines()[-1].strip() == module.to_text(after)


def test_json_answer_for_machines(run_main: Cli, scenario: Scenario) -> None:
    before, move, after = scenario("ascent", 3, "A8")
    done = run_main("explain", "ascent", ascent.to_text(before), str(move), "--json")
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["legal"] is True
    assert data["after"] == ascent.to_text(after)
    assert [e["clause"] for e in data["events"]] == [
        e.clause for e in ascent.describe(before, move, after)
    ]
    assert data["options"]["favours_per_move"] == 1
    done = run_main("explain", "throne", "new:3", "A7", "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert (data["legal"], data["clause"]) == (False, "B6")
    assert data["clause_text"]["french"].startswith("Au début de chaque manche")


def test_a_move_by_the_wrong_seat_is_refused_with_the_turn_clause(run_main: Cli) -> None:
    done = run_main("explain", "throne", "new:4", "C3", "--seat", "2")
    assert done.returncode == 1
    assert "ILLEGAL" in done.stdout and "seat 2" in done.stdout.lower()
    assert "(B6)" in done.stdout


def test_compare_b6_original_placement_disagrees(run_main: Cli) -> None:
    done = run_main("explain", "throne", "new:4", "C1", "--compare")
    assert done.returncode == 0
    out = done.stdout
    assert (
        "Compared under 7 other readings (base: SEED), each replaying the dispute: the new "
        "game new:4:0, then C1:\n  2 disagree with the base:"
    ) in out
    assert "    ORIGINAL: ILLEGAL: Character C cannot be placed on floor 1" in out
    assert "      why: C1 is illegal under this reading (B6); the base plays it" in out
    assert "    placement_floors=[2,3,4,5]: ILLEGAL:" in out
    assert "agree with the base: no_cards_reset_each_round=false, first_player_rotates=false" in out
    # The reading that cannot apply is listed with its reason, without --verbose.
    assert "  1 cannot apply here:\n    equal_placement=true: not a valid combination" in out
    # And the other way round: under ORIGINAL, SEED disagrees.
    done = run_main(
        "explain", "throne", "new:4", "C1", "--rules", "original", "--compare", "--json"
    )
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["rules"] == "ORIGINAL"
    assert data["compare"]["disagree"] == ["SEED"]
    assert data["compare"]["readings"][0]["reason"] == (
        "C1 is legal under this reading; the base refuses it (B6)"
    )


def test_compare_b3_b11_round_end_readings(run_main: Cli, scenario: Scenario) -> None:
    before, move, _ = scenario("throne", 3, "B12")
    done = run_main("explain", "throne", throne.to_text(before), str(move), "--compare", "--json")
    assert done.returncode == 0
    data = json.loads(done.stdout)["compare"]
    assert data["disagree"] == ["no_cards_reset_each_round=false", "first_player_rotates=false"]
    rows = {row["reading"]: row for row in data["readings"]}
    assert rows["first_player_rotates=false"]["events"][-1]["text"] == (
        "Seat 0 places first in round 2."
    )
    assert rows["allow_pass=true"]["agrees"] is True


def test_compare_a18_the_deal_names_why_it_cannot_apply(run_main: Cli) -> None:
    """A18: a position dealt one set per player cannot be read under deal=shuffled with
    fewer than six players (each seat would hold 36 // n cards); with six it can, the
    sets being one of the shuffled deals, and the readings agree on the move."""
    two = "P0B0L0C0T0F0,-,-,-,-,-,-,-/P1B1L1C1T1F1,-,-,-,-,-,-,- -/- 0 -"
    done = run_main("explain", "ascent", two, "F0", "--compare")
    assert done.returncode == 0
    assert (
        "    deal=shuffled: the position cannot exist under this reading: the "
        "deal: deal=shuffled deals 18 cards to each of 2 seats (A18), not [6, 6]"
    ) in done.stdout
    six = ascent.to_text(ascent.new_game(6, first_player=0))
    done = run_main("explain", "ascent", six, "F0", "--compare", "--json")
    rows = {row["reading"]: row for row in json.loads(done.stdout)["compare"]["readings"]}
    assert rows["deal=shuffled"]["agrees"] is True


def on_square_4(before: Any, move: Any, after: Any) -> bool:
    """A favour taken on square 4: the first square of the upper half by default (A13)."""
    return (
        isinstance(move, ascent.Favour)
        and ascent.where(before, move.card) is not None
        and (
            ascent.where(before, move.card)[1] == 4  # type: ignore[index]
        )
    )


def test_compare_a13_upper_half_reading(run_main: Cli, scenario: Scenario) -> None:
    before, move, _ = scenario("ascent", 3, "A13", "In the upper half", also=on_square_4)
    done = run_main("explain", "ascent", ascent.to_text(before), str(move), "--compare")
    assert done.returncode == 0
    out = done.stdout
    assert "    upper_half=5: LEGAL:" in out
    assert "where no removal applies: it stays. (A13)" in out
    assert "      why: legal under both, with other events" in out
    # The answer, not the list of what was not varied: that takes --verbose.
    assert "not varied:" not in out
    assert out.rstrip().endswith(
        "(4 options not varied, having no other reading: --verbose lists them and why)"
    )
    verbose = run_main(
        "explain", "ascent", ascent.to_text(before), str(move), "--compare", "--verbose"
    ).stdout
    answer = out.split("\n  (", 1)[0]  # the answer, before the notes on what was left out
    assert verbose.startswith(answer)  # the same answer first
    assert "not varied: protection: protection=false is not a reading of the seed" in verbose


def test_options_apply_to_the_positions_own_rules(run_main: Cli) -> None:
    start = throne.new_game(3, rules=throne.Rules(allow_pass=True), seed=2)
    text = throne.to_text(start)
    assert "allow_pass=true" in text
    done = run_main("explain", "throne", text, "A1", "-o", "no_cards_public=false")
    assert done.returncode == 0
    assert "rules SEED + allow_pass=true, no_cards_public=false" in done.stdout
    # --rules replaces them: the preset, with the options given.
    done = run_main("explain", "throne", text, "A1", "--rules", "SEED")
    assert done.returncode == 0
    assert done.stdout.startswith("Throne, rules SEED: ")


def test_position_from_a_file_or_standard_input(run_main: Cli, tmp_path: Path) -> None:
    text = ascent.to_text(ascent.new_game(2, first_player=1))
    path = tmp_path / "position.txt"
    path.write_text(text + "\n")
    by_file = run_main("explain", "ascent", f"@{path}", "P1")
    by_stdin = run_main("explain", "ascent", "-", "P1", stdin=text)
    assert by_file.returncode == by_stdin.returncode == 0
    assert by_file.stdout == by_stdin.stdout
    assert "Seat 1 advances the Prince of set 1 (P1) from the Start to square 1." in by_file.stdout


def test_svg_draws_before_and_after(run_main: Cli, tmp_path: Path) -> None:
    """``--svg`` draws the position before and after the move with ``ascent.svg``."""
    path = tmp_path / "move.svg"
    done = run_main("explain", "ascent", "new:3", "P0", "--svg", str(path), "--seat", "0")
    assert done.returncode in (0, 1), done.stderr
    drawing = path.read_text()
    assert drawing.startswith("<?xml")
    assert drawing.count("<svg") >= 2  # the frame and the position
    assert 'class="castlerules-board ascent-board"' in drawing


BAD_INPUT = [
    (["chess", "new:4", "C3"], "unknown game 'chess'; the games are: throne, ascent"),
    (["throne", "garbage", "C3"], "cannot read the throne position: "),
    (["ascent", "P0,-,- - 0 -", "P0"], "cannot read the ascent position: "),
    (["throne", "new:4", "Z!"], "cannot read the move 'Z!': "),
    (["ascent", "new:2", "Q0"], "cannot read the move 'Q0': "),
    (["throne", "new:9", "C3"], "throne is played by 3 to 6 players, not 9"),
    (["throne", "new:four", "C3"], "a new game is written new:PLAYERS or new:PLAYERS:SEED"),
    (["throne", "new:4", "C3", "-o", "foo=1"], "throne: unknown option 'foo'; the options are"),
    (["throne", "new:4", "C3", "-o", "rounds=x"], "option rounds must be an integer, not 'x'"),
    (["throne", "new:4", "C3", "-o", "rounds=0"], "option rounds must be a whole number in 1..99"),
    (["throne", "new:4", "C3", "--rules", "HOUSE"], "unknown preset 'HOUSE' for throne"),
    (["throne", "new:4", "C3", "--seat", "7"], "--seat must be a seat in 0..3, not 7"),
    (["throne", "@/nonexistent/p.txt", "C3"], "cannot read the position from '/nonexistent/p.txt'"),
    (["throne", "new:4"], "the following arguments are required: MOVE"),
    (["throne", "new:4", "C3", "--bogus"], "unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_clear_line(
    run_main: Cli, failure: Callable[..., str], args: list[str], message: str
) -> None:
    line = failure(run_main("explain", *args))
    assert message in line


def test_bad_input_is_status_2_and_one_line_from_the_process(
    run_cli: Cli, failure: Callable[..., str]
) -> None:
    """On a real process: an error the command reports (main's handler) and a usage
    error (argparse's exit), each status 2 with one line on stderr."""
    for args, message in (BAD_INPUT[0], BAD_INPUT[-1]):
        assert message in failure(run_cli("explain", *args))


def test_help_lists_every_command(run_cli: Cli) -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    for command in ("demo", "explain", "replay", "play"):
        assert command in done.stdout


def test_b9_a_character_moving_down_is_answered_with_the_rule(run_main: Cli) -> None:
    """``A-`` is no move of the notation, but a player asks it: B9 answers (exit 1)."""
    done = run_main("explain", "throne", "new:4", "A-")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("ILLEGAL: Character A cannot move down: no character ever moves")
    assert lines[1].endswith("(B9)")
    assert lines[2] == "B9: No character ever moves down."
    data = json.loads(run_main("explain", "throne", "new:4", "A-", "--json").stdout)
    assert data["legal"] is False and data["clause"] == "B9"
    # The library has no such move to read (nor to refuse); the command line answers.
    with pytest.raises(NotationError):
        throne.parse_move(throne.new_game(4), "A-", check=False)
    answer = common.question_answer(throne, throne.new_game(4), "A-")
    assert isinstance(answer, IllegalMove) and answer.clause == "B9"
    assert common.question_answer(ascent, ascent.new_game(2), "A-") is None
    # Ascent's card going down (A4): no move of the game either, answered the same way.
    done = run_main("explain", "ascent", "new:2", "F0-")
    assert done.returncode == 1 and "cannot move down" in done.stdout and "(A4)" in done.stdout
    done = run_main("explain", "throne", "new:4", "Z-")  # not a character: not a move
    assert done.returncode == 2 and "cannot read the move 'Z-'" in done.stderr


@pytest.mark.parametrize(
    ("game", "position", "move"),
    [("throne", "new:4", "C1"), ("throne", "new:3", "A-"), ("ascent", "new:3", "P0")],
)
def test_compare_lists_the_readings_that_cannot_apply_with_the_reason(
    run_main: Cli, game: str, position: str, move: str
) -> None:
    """Readings that cannot apply (a combination of options the others forbid) are listed,
    each with its reason, in the default output; --verbose adds only what is not varied."""
    args = ("explain", game, position, move, "--compare")
    out = run_main(*args).stdout
    data = json.loads(run_main(*args, "--json").stdout)["compare"]
    cannot = data["cannot_apply"]
    assert [r["reading"] for r in cannot] == [
        r["reading"] for r in data["readings"] if r["applicable"] is False
    ]
    for row in cannot:
        assert f"    {row['reading']}: {row['reason']}" in out
    if cannot:
        assert f"  {len(cannot)} cannot apply here:" in out
    else:
        assert "cannot apply here" not in out
    verbose = run_main(*args, "--verbose").stdout
    assert verbose.startswith(out.split("\n  (", 1)[0])
    if game == "throne" and position == "new:4":
        assert cannot  # equal_placement=true with floor 1 among the placement floors
        assert "    equal_placement=true: not a valid combination" in out
