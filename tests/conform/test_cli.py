"""``castlerules conform`` on the command line: reports, JSON, exit statuses, replays, vectors.

Exit status 0: the engine agrees; 1: a disagreement or a protocol fault, with
its report; 2: bad input to the kit, in one line on standard error.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
JS = str(ROOT / "examples" / "engines" / "throne.js")


def kit(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("CASTLERULES_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "castlerules", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )


def test_a_planted_mistake_in_json_and_its_replay(node: str) -> None:
    done = kit(
        "conform", "throne", "--json", "--games", "2", "--seconds", "2", "--shrink-seconds", "2",
        "--", node, JS, "--plant", "climb-into-full",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["agree"] is False and isinstance(data["games"], int) and data["games"] > 0
    found = data["disagreement"]
    for field in ("moves", "position", "clause", "reference", "engine"):
        assert field in found
    assert found["clause"] == "B8" and found["kind"] == "legal moves"
    # the shortest casebook game that shows it may be one of another reading (ORIGINAL's)
    assert found["position"].startswith("throne ") and " movement " in found["position"]
    assert "conform: [SEED] casebook: " in done.stderr  # the progress, on standard error
    # The replay command plays that game again and finds the same thing.
    words = shlex.split(found["replay"])
    assert words[:3] == ["castlerules", "conform", "throne"]
    at = words.index("--")
    again = kit(*words[1:at], "--json", *words[at:])
    assert again.returncode == 1, again.stderr
    replayed = json.loads(again.stdout)["disagreement"]
    assert (replayed["clause"], replayed["move"], replayed["moves"]) == (
        "B8",
        found["move"],
        found["moves"],
    )


def test_an_engine_that_agrees_exits_0_and_says_how_fast(node: str) -> None:
    done = kit(
        "conform", "throne", "--rules", "original", "--games", "2", "--seconds", "1",
        "--phases", "casebook,random", "--", node, JS,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reading ORIGINAL: the engine AGREES with the reference" in done.stdout
    assert "games/s" in done.stdout and "the kit's" in done.stdout


def test_a_protocol_fault_exits_1_without_a_traceback() -> None:
    done = kit("conform", "ascent", "--timeout", "0.5", "--", sys.executable, "-c", "print('hi')")
    assert done.returncode == 1
    assert "BROKE THE PROTOCOL" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["conform", "chess", "--", "x"], "unknown game 'chess'"),
        (["conform", "throne"], "no engine command: put it after '--'"),
        (["conform", "throne", "--", "/no/such/engine"], "cannot start the engine"),
        (["conform", "throne", "--games", "-3", "--", "x"], "argument --games"),
        (["conform", "throne", "--seconds", "nan", "--", "x"], "argument --seconds"),
        (["conform", "throne", "--timeout", "0", "--", "x"], "argument --timeout"),
        (["conform", "throne", "--phases", "casebook,dreams", "--", "x"], "unknown phase"),
        (["conform", "throne", "--option", "allow_pass=maybe", "--", "x"], "allow_pass"),
        (["conform", "throne", "--rules", "HOUSE", "--", "x"], "unknown preset 'HOUSE'"),
        (["conform", "throne", "--readings", "all", "--rules", "SEED", "--", "x"], "--readings"),
        (["conform", "throne", "--replay", "4:x:A1", "--", "x"], "a replay is PLAYERS:SEED:MOVES"),
        (["conform", "throne", "--replay", "9:0:", "--", "x"], "the replay cannot start"),
        (["conform", "throne", "--bogus", "--", "x"], "unrecognized arguments: --bogus"),
        (["conform", "vectors"], "the following arguments are required: directory"),
        (["conform", "vectors", "d", "--", "x"], "takes a directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(args: list[str], says: str) -> None:
    done = kit(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert says in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_vectors_are_written_once_and_validated(tmp_path: Path) -> None:
    target = tmp_path / "vectors"
    done = kit("conform", "vectors", str(target), "--perft-depth", "2")
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in target.iterdir())
    assert names == sorted(
        ["schema.json", "throne-games.json", "ascent-games.json", "throne-perft.json",
         "ascent-perft.json"]
    )  # fmt: skip
    before = (target / "throne-perft.json").read_bytes()
    again = kit("conform", "vectors", str(target))
    assert again.returncode == 2 and "exists already" in again.stderr
    assert (target / "throne-perft.json").read_bytes() == before
    forced = kit("conform", "vectors", str(target), "--force", "--perft-depth", "1")
    assert forced.returncode == 0, forced.stderr
    perft: dict[str, Any] = json.loads((target / "throne-perft.json").read_text())
    assert all(len(p["perft"]) == 1 for p in perft["positions"])
    blocked = tmp_path / "a-file"
    blocked.write_text("mine", encoding="utf-8")
    refused = kit("conform", "vectors", str(blocked))
    assert refused.returncode == 2 and "is not a directory" in refused.stderr
    assert blocked.read_text(encoding="utf-8") == "mine"
    empty = kit("conform", "vectors", "")
    assert empty.returncode == 2 and "empty" in empty.stderr


def test_the_help_shows_the_usage_and_the_examples() -> None:
    done = kit("conform", "--help")
    assert done.returncode == 0
    assert "castlerules conform GAME" in done.stdout and "-- COMMAND [ARGS...]" in done.stdout
    assert "castlerules conform vectors DIR" in done.stdout and "--readings" in done.stdout


OPTIONS = [
    "--rules", "--option", "--readings", "--games", "--seconds", "--shrink-seconds",
    "--timeout", "--seed", "--sample", "--phases", "--replay", "--json", "--quiet",
    "--force", "--perft-depth", "--", "vectors", "throne", "ascent",
]  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(OPTIONS)
        | st.text(max_size=12)
        | st.sampled_from(["nan", "-1", "1e309", "99999999999", "all", "SEED", "x=y", "4:0:A1"]),
        max_size=8,
    ),
    game=st.sampled_from(["throne", "ascent", "vectors", "chess", ""]),
)
def test_hostile_command_lines_exit_0_1_or_2_in_one_line(words: list[str], game: str) -> None:
    """castlerules conform with hostile words, in this process: never a traceback, and
    never a real engine or file: the engine is a program that does not exist and the
    vectors' directory is under /dev/null."""
    import contextlib
    import io

    from castlerules.cli import main

    words = [w for w in words if w != "--"]
    tail = ["/dev/null/vectors"] if game == "vectors" else ["--", "/nonexistent/engine"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["conform", game, *words, *tail])
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 2
    text = err.getvalue()
    assert status in (0, 2), (status, text)
    assert "Traceback" not in text and "internal error" not in text, text
    if status == 2:
        assert len(text.strip().splitlines()) == 1, text
