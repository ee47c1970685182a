"""``castlerules replay FILE``, run as a user would: check every move, stop at the first illegal.

Also ``castlerules demo`` (the README's main job), which writes the records
replayed here.

Each exit status of ``replay`` is checked on a real process (``run_cli``: ``python -m
castlerules``): 0 (the demo records), 1 (the first illegal move), 2 (a missing file),
and ``demo``'s output is compared between a process and this one; the other tests ask
the same command lines of :func:`castlerules.cli.main` in this process (``run_main``),
with the same standard streams and environment, to check what they answer.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Cli = Callable[..., Any]


@pytest.fixture(scope="module")
def demo_records(run_main: Cli, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The records of ``castlerules demo --players 3 --seed 5`` (shared, read-only)."""
    tmp_path = tmp_path_factory.mktemp("demo")
    done = run_main("demo", "--players", "3", "--seed", "5", "--record-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    return {game: tmp_path / f"{game}-seed5.json" for game in ("throne", "ascent")}


def test_demo_prints_an_annotated_game_of_each_engine(run_cli: Cli, run_main: Cli) -> None:
    done = run_cli("demo", "--players", "3", "--seed", "7")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Throne: 3 random players, seed 7\nstart  throne SEED 3 ")
    assert "\nAscent: 3 random players, seed 7\n" in out
    assert "(B6)" in out and "(B10)" in out and "(A3)" in out
    assert out.count("\nscores ") == 2
    # The same game again, in this process: another hash seed, the caches warm.
    assert done.stdout == run_main("demo", "--players", "3", "--seed", "7").stdout


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_a_demo_record_replays_without_fault(
    run_cli: Cli, demo_records: dict[str, Path], game: str
) -> None:
    done = run_cli("replay", str(demo_records[game]))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("ok: ")
    assert f"moves of {game}, all legal; game over, scores " in done.stdout
    assert "(as recorded)" in done.stdout


def test_annotate_prints_each_move_with_what_it_did(
    run_main: Cli, demo_records: dict[str, Path]
) -> None:
    path = demo_records["throne"]
    moves = json.loads(path.read_text())["moves"]
    done = run_main("replay", "--annotate", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Throne: 3 players, rules SEED, seed 5, {len(moves)} moves"
    assert lines[1].startswith("start  throne SEED 3 1 placement 0 ")
    plies = [line for line in lines if line[:5].strip().rstrip(".").isdigit()]
    assert len(plies) == len(moves)
    assert plies[0].split()[3] == moves[0]
    assert plies[0].endswith("(B6)")
    assert any("The votes are revealed" in line for line in plies)
    assert lines[-3].startswith("scores seat 0: ")
    assert lines[-1].startswith("end    throne SEED 3 3 over - ")


def test_json_output(run_main: Cli, demo_records: dict[str, Path]) -> None:
    done = run_main("replay", "--json", str(demo_records["ascent"]))
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["ok"] is True and data["over"] is True
    assert data["moves"][0]["events"][0]["clause"] == "A3"
    assert len(data["scores"]) == 3


def test_replay_stops_at_the_first_illegal_move_with_its_clause(
    run_cli: Cli, run_main: Cli, demo_records: dict[str, Path], tmp_path: Path
) -> None:
    data = json.loads(demo_records["throne"].read_text())
    data["moves"][1] = data["moves"][1][0] + "6"  # a placement on floor 6 (B6)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = run_cli("replay", "--annotate", str(bad))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"castlerules replay: move 2 '{data['moves'][1]}' (seat 1 ")
    assert "placement is on floors 1-5 only (B6)" in done.stderr
    assert "   1. seat 0" in done.stdout and "   2. seat" not in done.stdout
    # The printed command examines the move, and gives the same answer.
    hint = done.stdout.splitlines()[-1].strip()
    assert hint.startswith("castlerules explain throne ")
    again = run_main(*shlex.split(hint)[1:])
    assert again.returncode == 1
    assert "ILLEGAL" in again.stdout and "(B6)" in again.stdout


def test_a_move_after_the_end_is_illegal(
    run_main: Cli, demo_records: dict[str, Path], tmp_path: Path
) -> None:
    data = json.loads(demo_records["ascent"].read_text())
    data["moves"].append("end")
    del data["result"]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data))
    done = run_main("replay", str(path))
    assert done.returncode == 1
    assert f"move {len(data['moves'])} 'end' is illegal" in done.stderr


def test_a_result_that_the_moves_do_not_give_is_reported(
    run_main: Cli, demo_records: dict[str, Path], tmp_path: Path
) -> None:
    data = json.loads(demo_records["throne"].read_text())
    data["result"]["scores"][0] += 1
    path = tmp_path / "score.json"
    path.write_text(json.dumps(data))
    done = run_main("replay", str(path))
    assert done.returncode == 1
    assert "the record gives scores" in done.stderr and "but its moves give" in done.stderr


def _edit(data: dict[str, Any], change: str) -> Any:
    """Apply one named corruption to a record's data."""
    if change == "version 2":
        data["version"] = 2
    elif change == "version 99 with new fields":
        data = {"format": "castlerules.record", "version": 99, "clock": {"white": 3}}
    elif change == "unknown game":
        data["game"] = "chess"
    elif change == "players 9":
        data["players"] = 9
    elif change == "players as text":
        data["players"] = "3"
    elif change == "unknown option":
        data["rules"]["options"] = {"alow_pass": True}
    elif change == "option of the wrong type":
        data["rules"]["options"] = {"allow_pass": "yes"}
    elif change == "option out of range":
        data["rules"]["options"] = {"rounds": 0}
    elif change == "unknown preset":
        data["rules"]["preset"] = "HOUSE"
    elif change == "unknown field":
        data["comment"] = "hello"
    elif change == "missing moves":
        del data["moves"]
    elif change == "a move that is a number":
        data["moves"][3] = 12
    elif change == "negative seed":
        data["seed"] = -1
    elif change == "not a record":
        data = {"hello": "world"}
    elif change == "a list":
        data = [1, 2, 3]
    elif change == "bad objectives":
        data["objectives"] = "ABCDEF"
    elif change == "objectives that cannot be dealt":
        data["objectives"] = [["ABCDEF", "ABCDEF", "XYZ"]] * 3
    return data


CORRUPTIONS = [
    ("version 2", "format version 2, newer than this castlerules reads (up to version 1)"),
    ("version 99 with new fields", "format version 99"),
    ("unknown game", "field 'game' must be one of throne, ascent, not 'chess'"),
    ("players 9", "field 'players' must be a whole number in 3..6, not the number 9"),
    ("players as text", "field 'players' must be a whole number in 3..6, not a text"),
    ("unknown option", "unknown option 'alow_pass' for throne"),
    ("option of the wrong type", "option allow_pass must be true or false"),
    ("option out of range", "option rounds must be a whole number in 1..99, not 0"),
    ("unknown preset", "unknown preset 'HOUSE' for throne; the presets are: SEED, ORIGINAL"),
    ("unknown field", "unknown field 'comment' in a throne record"),
    ("missing moves", "the record has no 'moves' field"),
    ("a move that is a number", "move 4 of field 'moves' must be a text"),
    ("negative seed", "field 'seed' must be a whole number in 0..2^64-1"),
    ("not a record", "not a game record: its 'format' field is not 'castlerules.record'"),
    ("a list", "not a game record: the JSON is a list, not an object"),
    ("bad objectives", "field 'objectives' must be a list of rounds"),
    ("objectives that cannot be dealt", "the record's game cannot start: "),
]


@pytest.mark.parametrize(("change", "message"), CORRUPTIONS, ids=[c for c, _ in CORRUPTIONS])
def test_a_bad_record_is_one_clear_line(
    *,
    run_main: Cli,
    failure: Callable[..., str],
    demo_records: dict[str, Path],
    tmp_path: Path,
    change: str,
    message: str,
) -> None:
    data = _edit(json.loads(demo_records["throne"].read_text()), change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    line = failure(run_main("replay", str(path)))
    assert message in line


TEXTS = [
    ("truncated", None, "the JSON ends too early (truncated?)"),
    ("empty", b"", "the file is empty"),
    ("not UTF-8", b"\xff\xfe{}", "not UTF-8 text"),
    ("not JSON", b"moves: C3 D4", "invalid JSON at line 1 column 1"),
    ("trailing text", None, "more text after its end"),
    ("duplicate key", b'{"format": "castlerules.record", "format": 1}', "appears twice"),
    ("NaN", b'{"format": "castlerules.record", "version": NaN}', "NaN is not a number"),
    ("deep nesting", b"[" * 100_000, "not a game record"),
    (
        "huge number",
        b'{"format": "castlerules.record", "version": 1' + b"0" * 5000 + b"}",
        "not a game record",
    ),
]


@pytest.mark.parametrize(("name", "raw", "message"), TEXTS, ids=[t[0] for t in TEXTS])
def test_an_unreadable_record_is_one_clear_line(
    *,
    run_main: Cli,
    failure: Callable[..., str],
    demo_records: dict[str, Path],
    tmp_path: Path,
    name: str,
    raw: bytes | None,
    message: str,
) -> None:
    good = demo_records["throne"].read_bytes()
    if name == "truncated":
        raw = good[: len(good) // 2]
    elif name == "trailing text":
        raw = good + b"{}"
    assert raw is not None
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    assert message in failure(run_main("replay", str(path)))
    if name == "truncated":  # the same from standard input
        assert message in failure(run_main("replay", "-", stdin=raw))


def test_a_missing_file_is_one_clear_line(run_cli: Cli, failure: Callable[..., str]) -> None:
    assert "cannot read 'nowhere.json': No such file or directory" in failure(
        run_cli("replay", "nowhere.json")
    )


def test_loading_a_record_never_runs_code(
    run_main: Cli, demo_records: dict[str, Path], tmp_path: Path
) -> None:
    data = json.loads(demo_records["throne"].read_text())
    trap = tmp_path / "pwned"
    code = f"__import__('os').system('touch {trap}')"
    data["moves"][0] = code
    data["rules"]["options"] = {}
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(data))
    done = run_main("replay", str(path))
    assert done.returncode == 1
    assert "move 1 " in done.stderr and "cannot be read" in done.stderr
    data["rules"]["options"] = {"allow_pass": {"__class__": code}}
    path.write_text(json.dumps(data))
    done = run_main("replay", str(path))
    assert done.returncode == 2
    assert "option allow_pass must be true or false" in done.stderr
    pickled = b"\x80\x04\x95" + code.encode()
    path.write_bytes(pickled)
    assert run_main("replay", str(path)).returncode == 2
    assert not trap.exists()
