"""Every position the command line prints reads back (issue 43).

A referee pastes what a command printed into the next command.  Each path that prints
a position (explain's "position then" and "position after", the comparison's rows,
``--json``, ``replay``'s stop and its ``--annotate`` lines, ``demo``) is run here, every
position in its output is found, and each must read back with the game's ``from_text``
(or, for a Throne position that leaves objectives unknown, ``read_partial``, as every
command reads a POSITION argument) to a text that writes back the same.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from castlerules import ascent, records, throne
from castlerules.cli import main
from castlerules.register.positions import read_back, text_of

COLUMNS = re.compile(r"^[-*PBLCTF0-9,]+(?:/[-*PBLCTF0-9,]+)+$")
"""An Ascent columns field: squares separated by ',', columns by '/'."""
DEAL = re.compile(r"^[PBLCTF0-9-]+(?:/[PBLCTF0-9-]+)+$")
"""An Ascent removed-cards or deal field: one entry per seat, separated by '/'."""
THRONE_RULES = re.compile(r"^(?:SEED|ORIGINAL)(?:,|$)")


def positions_in(text: str) -> Iterator[tuple[Any, str]]:
    """Every Throne or Ascent position written in ``text`` (quotes around it dropped)."""
    for line in text.replace("'", " ").replace('"', " ").splitlines():
        tokens = line.split()
        for i, token in enumerate(tokens):
            after = tokens[i + 1] if len(tokens) > i + 1 else ""
            if token == "throne" and (after.isdigit() or THRONE_RULES.match(after)):
                yield throne, " ".join(tokens[i : i + 14])  # short if the line is
            elif "," in token and COLUMNS.match(token) and DEAL.match(after):
                end = i + 4  # the columns, the removed cards, the turn, the rules
                if len(tokens) > end and DEAL.match(tokens[end]) and "," not in tokens[end]:
                    end += 1  # the deal
                yield ascent, " ".join(tokens[i:end])


def strings(data: Any) -> Iterator[str]:
    """Every string of a JSON value."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


def run(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue() + ("\n" + err.getvalue() if err.getvalue() else "")


def read_backs(text: str) -> int:
    """Check every position of ``text`` reads back; how many there were."""
    found = 0
    for module, written in positions_in(text):
        state = read_back(module, written)
        unknown = throne.notation.read_partial(written).unknown if module is throne else frozenset()
        assert text_of(module, state, unknown) == written
        found += 1
    return found


THRONE_AFTER = "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L4 M5"
ASCENT_OVER = (
    "P0B0L0C0T0F0,-,-,-,-,-,-,-/-,T1,*F1,F2,*C1,*L1,*B1,*P1/-,-,-,*T2,*C2,*L2,*B2,*P2 -/-/- 0 -"
)
UNKNOWN = "throne SEED 4 1 movement 1 H/BFI/CDJ/EL/AGKM/-/- - 3/3/3/3 - 0 ? - -"

EXPLAIN = {
    "throne after, compare": (
        "throne", "new:4:7", "M+", "--after", THRONE_AFTER, "--seat", "0", "--compare",
    ),
    "throne legal, compare": ("throne", "new:4", "C1", "--compare"),
    "ascent over, compare": ("ascent", ASCENT_OVER, "F0", "--compare"),
    "ascent after": ("ascent", "new:2", "xB0", "--after", "B0 P1"),
    "ascent shuffled, compare": ("ascent", "new:3:5", "F2", "-o", "deal=shuffled", "--compare"),
    "throne unknown, compare": ("throne", UNKNOWN, "A+", "--compare"),
    "throne unknown, after": ("throne", UNKNOWN, "G+", "--after", "A+"),
    "throne option": ("throne", UNKNOWN, "A+", "-o", "allow_pass=true", "--compare"),
}  # fmt: skip


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("name", list(EXPLAIN))
def test_every_position_explain_prints_reads_back(name: str, json_output: bool) -> None:
    args = ("explain", *EXPLAIN[name], *(("--json",) if json_output else ()))
    status, out = run(*args)
    assert status in (0, 1), out
    text = "\n".join(strings(json.loads(out))) if json_output else out
    assert read_backs(text) >= 1, out


def test_every_position_replay_and_demo_print_reads_back(tmp_path: Path) -> None:
    status, out = run("demo", "--players", "3", "--record-dir", str(tmp_path))
    assert status == 0 and read_backs(out) >= 4  # the start and the end of each game
    for record in sorted(tmp_path.glob("*.json")):
        status, out = run("replay", "--annotate", str(record))
        assert status == 0 and read_backs(out) >= 2
        status, out = run("replay", "--json", str(record))
        assert status == 0 and read_backs("\n".join(strings(json.loads(out)))) >= 1
        # A record with a wrong move: the replay stops, printing the position before it
        # and the explain command that examines it.
        data = json.loads(record.read_text())
        data["moves"][3] = data["moves"][0]
        data.pop("result", None)
        broken = tmp_path / f"broken-{record.name}"
        broken.write_text(json.dumps(data))
        status, out = run("replay", "--annotate", str(broken))
        assert status == 1 and read_backs(out) >= 2, out
        status, out = run("replay", "--json", str(broken))
        data = json.loads(out[: out.rindex("}") + 1])  # the JSON, then the error line
        assert status == 1 and read_backs("\n".join(strings(data))) >= 1


def test_the_finder_finds_positions_and_a_broken_one_fails() -> None:
    """The check itself: it finds a position in a line, and one that does not read back
    (the comparison's old rows, without the rules field) fails it."""
    text = throne.to_text(throne.new_game(3))
    assert read_backs(f"position after:\n  {text}\n") == 1
    parts = text.split(" ")
    broken = " ".join(parts[:1] + parts[2:] + ["-"])
    with pytest.raises(Exception, match=r"position|field|rules|preset"):
        read_backs(f"    ORIGINAL: {broken}\n")
    state = ascent.new_game(3, rules=ascent.Rules(deal="shuffled"), seed=2)
    assert read_backs(ascent.to_text(state)) == 1
    assert records.GAMES["ascent"] is ascent
