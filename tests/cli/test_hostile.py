"""Hostile input against the library and the command line (issue 12).

Each case below was once an internal error (exit status 3 or worse), a leak or
a terminal escape printed raw.  The command line runs in this process
(``castlerules.cli.main``), so that many inputs take little time: whatever
the input, the status is 0, 1 or 2, a status 2 is one line on standard
error, and nothing written holds a control character (other than the end of
a line) or a lone surrogate.  The Hypothesis tests at the end are bounded
fuzzing of the parsers, the record reader and the command line, so that
these stay found.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import ascent, records, throne
from castlerules.cli import common, main
from castlerules.core import ArgumentError, IllegalMove, NotationError, check_seed

GAMES: dict[str, Any] = {"throne": throne, "ascent": ascent}
MIB16 = 16 * 1024 * 1024


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: bytes = b"",
) -> tuple[int, str, str]:
    """``castlerules ARGS`` in this process: the status, standard output and error."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    monkeypatch.delenv("CASTLERULES_DEBUG", raising=False)
    status = main(list(args))
    out, err = capsys.readouterr()
    check_output(status, out, err)
    return status, out, err


def check_output(status: int, out: str, err: str) -> None:
    """The conventions of every command: 0, 1 or 2; one line for 2; nothing unprintable."""
    assert status in (0, 1, 2), (status, out[-500:], err)
    assert "Traceback" not in out + err and "internal error" not in err, err
    if status == 2:
        assert len(err.splitlines()) == 1 and err.startswith("castlerules"), err
    for text in (out, err):
        bad = [ch for ch in text if ch != "\n" and not ch.isprintable()]
        assert not bad, (bad[:5], text[-500:])


def a_record(game: str = "throne", moves: tuple[str, ...] = ("C3", "A5")) -> dict[str, Any]:
    module = GAMES[game]
    players = 3
    return records.to_data(records.make(module, players, seed=7, moves=moves))


# ---------------------------------------------------------------------------
# The cases of the issue


@pytest.mark.parametrize(
    "position",
    ["new:" + "9" * 5000, "new:3:" + "9" * 5000, "new:3:18446744073709551616", "new:3:-1"],
)
def test_huge_or_negative_numbers_in_new_positions_are_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, position: str
) -> None:
    status, _, err = run(capsys, monkeypatch, "explain", "throne", position, "C1")
    assert status == 2
    assert len(err) < 300  # the digits are not echoed back


def test_the_largest_seed_is_accepted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(capsys, monkeypatch, "explain", "throne", f"new:3:{2**64 - 1}", "C1")
    assert status == 0 and "LEGAL" in out


@pytest.mark.parametrize("move", ["\ud800", "\x1b[2J\x1b[31mfake line", "C3\r\nok: 0 moves"])
def test_a_hostile_recorded_move_is_shown_escaped(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    move: str,
) -> None:
    path = tmp_path / "hostile.json"
    data = a_record(moves=("C3", move))
    path.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: \ud800 as an escape
    status, out, err = run(capsys, monkeypatch, "replay", str(path))
    assert status == 1  # an unreadable move was found
    assert "\x1b" not in out + err and "examine it with:" in out
    status, out, err = run(capsys, monkeypatch, "replay", "--json", str(path))
    assert status == 1 and json.loads(out)["illegal"]["move"] == move


def test_echoed_input_is_escaped_everywhere(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    escape = "\x1b]0;owned\x07\x1b[2J"
    position = tmp_path / "position.txt"
    position.write_text(escape, encoding="utf-8")
    cases = [
        ("explain", "throne", "new:3", escape),
        ("explain", "throne", f"@{position}", "C1"),
        ("explain", "throne", "-", "C1"),
        ("explain", escape, "new:3", "C1"),
        ("explain", "throne", "new:3", "C1", "-o", escape),
        ("play", "throne", "--players", "3", "--bot", escape, "--no-save"),
        ("replay", escape),
    ]
    for args in cases:
        status, _, _ = run(capsys, monkeypatch, *args, stdin=escape.encode())
        assert status == 2, args


def test_one_input_limit_for_stdin_at_file_and_records(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert common.MAX_INPUT_BYTES == records.MAX_BYTES == MIB16
    big = b" " * (MIB16 + 1)
    (tmp_path / "big").write_bytes(big)
    for args in (
        ("explain", "throne", "-", "C1"),
        ("explain", "throne", "new:3", "-"),
        ("explain", "throne", f"@{tmp_path / 'big'}", "C1"),
        ("replay", "-"),
        ("replay", str(tmp_path / "big")),
    ):
        status, _, err = run(capsys, monkeypatch, *args, stdin=big)
        assert status == 2 and "larger than 16 MiB" in err, (args, err)
    # Just under the limit is read (and refused for what it is, not for its size).
    status, _, err = run(capsys, monkeypatch, "explain", "throne", "-", "C1", stdin=big[1:])
    assert status == 2 and "larger than" not in err


def test_a_nul_byte_in_a_path_is_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(records.RecordError, match="NUL"):
        records.load("game\x00.json")
    with pytest.raises(records.RecordError, match="NUL"):
        records.save(records.make(throne, 3), "game\x00.json")
    for args in (
        ("replay", "game\x00.json"),
        ("explain", "throne", "@pos\x00.txt", "C1"),
        ("explain", "throne", "new:3", "C1", "--svg", "a\x00.svg"),
        ("play", "throne", "--players", "3", "--save", "a\x00.json"),
        ("demo", "--record-dir", "a\x00b"),
    ):
        status, out, err = run(capsys, monkeypatch, *args)
        assert status == 2 and "NUL" in err and out == "", args


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_one_seed_domain_for_new_game_and_the_records(game: str, tmp_path: Path) -> None:
    module = GAMES[game]
    for seed in (-1, 2**64, 10**5000, True, "7", 1.0):
        with pytest.raises(ArgumentError, match=r"seed must be a whole number in 0..2\^64-1"):
            module.new_game(3, seed=seed)
    for seed in (0, 2**64 - 1):
        start = module.new_game(3, seed=seed)
        path = tmp_path / f"{game}-{seed}.json"
        records.save(records.make(module, 3, seed=seed), path)
        assert records.start(records.load(path)) == start
    with pytest.raises(ArgumentError):
        check_seed(-1)


def test_outputs_are_checked_before_the_game_starts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    for args in (
        ("play", "throne", "--players", "3", "--save", str(missing / "x.json")),
        ("demo", "--players", "3", "--record-dir", str(missing)),
        ("explain", "throne", "new:3", "C1", "--compare", "--svg", str(missing / "x.svg")),
        ("play", "throne", "--players", "3", "--save", str(tmp_path)),
    ):
        status, out, err = run(capsys, monkeypatch, *args)
        assert status == 2 and out == "", (args, out)
        assert "cannot write" in err
    assert not any(tmp_path.iterdir())  # nothing was left behind
    # An existing record file is refused; with force it may be overwritten, and is
    # left as it is until then.
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    with pytest.raises(ArgumentError, match="exists already: nothing was written"):
        common.check_output_file(str(kept), "record")
    common.check_output_file(str(kept), "record", force=True)
    assert kept.read_text() == "old"


def test_play_shows_the_seed_only_once_the_game_is_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    args = ("play", "throne", "--players", "3", "--bot", "1=random", "--bot", "2=random")
    status, out, err = run(capsys, monkeypatch, *args, "--save", str(path), stdin=b"C3\nA5\n")
    assert status == 2 and "the input ended before the game did" in err
    seed = json.loads(path.read_text())["seed"]
    before, _, after = out.partition("Game stopped after")
    assert str(seed) not in before and "seed" not in before
    assert f"The seed of this game was {seed}." in after
    run(capsys, monkeypatch, *args, "--save", str(path), "--force", stdin=b"C3\n")
    assert json.loads(path.read_text())["seed"] != seed


# ---------------------------------------------------------------------------
# One parse_move for both games


@pytest.mark.parametrize(
    ("game", "illegal", "clause", "malformed"),
    [("throne", "C6", "B6", "C@6"), ("ascent", "L1", "A2", "L@1")],
)
def test_parse_move_is_the_same_in_both_games(
    game: str, illegal: str, clause: str, malformed: str
) -> None:
    module = GAMES[game]
    state = module.new_game(3, seed=0) if game == "throne" else module.new_game(3, first_player=0)
    with pytest.raises(IllegalMove) as info:
        module.parse_move(state, illegal)
    assert info.value.clause == clause and not isinstance(info.value, NotationError)
    assert str(module.parse_move(state, illegal, check=False)) == illegal
    for check in (True, False):
        with pytest.raises(NotationError):
            module.parse_move(state, malformed, check=check)
    legal = str(module.legal_moves(state)[0])
    assert module.parse_move(state, legal) == module.legal_moves(state)[0]


# ---------------------------------------------------------------------------
# Bounded fuzzing

ALPHABET = st.one_of(  # any code point: control characters and lone surrogates included
    st.characters(),
    st.characters(max_codepoint=0x9F),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
)
NOTATION = "ABCLPTFx0123456789+-:/,.;= \x00\x1b\ud800endyspa"
texts = st.one_of(st.text(ALPHABET, max_size=12), st.text(NOTATION, max_size=12))


@settings(max_examples=150)
@given(game=st.sampled_from(sorted(GAMES)), text=texts)
def test_fuzz_parse_move(game: str, text: str) -> None:
    module = GAMES[game]
    state = module.new_game(3)
    try:
        move = module.parse_move(state, text, check=False)
    except NotationError:
        with pytest.raises(NotationError):
            module.parse_move(state, text)
        return
    assert str(move) == text
    try:
        checked = module.parse_move(state, text)
    except IllegalMove as err:
        with pytest.raises(IllegalMove) as info:
            module.apply(state, move)
        assert info.value.clause == err.clause
        return
    assert checked == move
    module.apply(state, move)


FIELDS = ["version", "game", "players", "rules", "seed", "moves", "result", "objectives"]
values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(ALPHABET, max_size=8),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=100)
@given(
    game=st.sampled_from(sorted(GAMES)),
    field=st.sampled_from(FIELDS),
    value=values,
    moves=st.lists(texts, max_size=3),
)
def test_fuzz_records(game: str, field: str, value: object, moves: list[str]) -> None:
    data = a_record(game, moves=("C3",) if game == "throne" else ())
    data["moves"] = data["moves"] + moves
    data[field] = value
    text = json.dumps(data)
    try:
        record = records.loads(text)
    except records.RecordError:
        return
    assert records.loads(records.dumps(record)) == record
    with contextlib.suppress(records.RecordError):
        records.check(record)


@settings(max_examples=60)
@given(
    game=st.sampled_from(["throne", "ascent", "Throne", "chess"]),
    position=st.one_of(
        st.builds("new:{}".format, st.from_regex(r"[0-9]{0,30}(:[0-9]{0,30})?", fullmatch=True)),
        st.builds("new:3:{}{}".format, st.sampled_from(["", "-", "1"]), st.integers(0, 6000)),
        st.builds(lambda n: "new:" + "9" * n, st.integers(0, 6000)),
        st.text(ALPHABET, max_size=20),
        st.sampled_from(["-", "@", "@/no/such/file", "new:3", "new:4:7"]),
    ),
    move=texts,
    extra=st.lists(
        st.sampled_from(["--compare", "--json", "--seat", "1", "-o", "allow_pass=true", "-v"]),
        max_size=3,
    ),
)
def test_fuzz_explain(game: str, position: str, move: str, extra: list[str]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(
            sys, "stdin", io.TextIOWrapper(io.BytesIO(move.encode("utf-8", "surrogatepass")))
        )
        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        try:
            status = main(["explain", game, position, move, *extra])
        except SystemExit as done:  # argparse: a usage error
            status = int(done.code or 0)
    check_output(status, out.getvalue(), err.getvalue())


@settings(max_examples=40)
@given(
    game=st.sampled_from(sorted(GAMES)),
    moves=st.lists(texts, max_size=3),
    annotate=st.booleans(),
)
def test_fuzz_replay(game: str, moves: list[str], annotate: bool) -> None:
    module = GAMES[game]
    first = str(module.legal_moves(module.new_game(3, seed=7))[0])
    data = a_record(game, moves=(first,))
    data["moves"] += moves
    raw = json.dumps(data).encode()
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        status = main(["replay", *(["--annotate"] if annotate else []), "-"])
    check_output(status, out.getvalue(), err.getvalue())
    assert status in (0, 1)


@settings(max_examples=30)
@given(
    game=st.sampled_from(sorted(GAMES)),
    lines=st.lists(
        st.one_of(texts, st.sampled_from(["help", "moves", "board", "quit"])), max_size=5
    ),
    junk=st.binary(max_size=8),
)
def test_fuzz_play(game: str, lines: list[str], junk: bytes) -> None:
    raw = "\n".join(lines).encode("utf-8", "surrogatepass") + junk
    with pytest.MonkeyPatch.context() as monkeypatch:
        # A strict UTF-8 standard input, as under a UTF-8 locale.
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        args = ["play", game, "--players", "3", "--bot", "1=random", "--bot", "2=greedy"]
        status = main([*args, "--seed", "3", "--no-save"])
    check_output(status, out.getvalue(), err.getvalue())
    assert status in (0, 2)


@pytest.mark.parametrize("seed", ["-1", str(2**64), "9" * 5000, "7.0", "seven"])
@pytest.mark.parametrize("command", ["demo", "play"])
def test_a_seed_outside_the_domain_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, seed: str
) -> None:
    args = ["--players", "3"] if command == "demo" else ["throne", "--players", "3", "--no-save"]
    with pytest.raises(SystemExit) as done:
        run(capsys, monkeypatch, command, *args, "--seed", seed)
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and len(err) < 300
    assert "0..2^64-1" in err or "invalid" in err
