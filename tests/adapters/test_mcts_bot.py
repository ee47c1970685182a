"""``castlerules play --bot SEAT=mcts``: OpenSpiel's search plays whole games, is
deterministic for a seed, and reads only its seat's observation (B4, B11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from castlerules import ascent, throne
from castlerules.bots.mcts import SIMULATIONS, simulations_of
from castlerules.cli.bots import KINDS, make_bot
from castlerules.core import ArgumentError


def castlerules(*args: str, pre: str = "") -> Any:
    """``python -m castlerules ARGS`` (``pre``: Python run first, to hide a library)."""
    code = f"{pre}import sys; from castlerules.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_mcts_bots_play_whole_games_the_same_for_a_seed(tmp_path: Path) -> None:
    for game, bots in (
        ("throne", ["0=mcts:2", "1=random", "2=greedy"]),
        ("ascent", ["0=mcts:4", "1=greedy"]),
    ):
        records = []
        for name in ("one.json", "two.json"):
            path = tmp_path / f"{game}-{name}"
            args = [a for bot in bots for a in ("--bot", bot)]
            players = str(len(bots))
            done = castlerules(
                "play", game, "--players", players, "--seed", "3", "--save", str(path), *args
            )
            assert done.returncode == 0, done.stderr
            assert "Winner" in done.stdout
            records.append(json.loads(path.read_text())["moves"])
        assert records[0] == records[1]


def test_the_throne_bot_reads_only_its_seats_view() -> None:
    """Two positions that differ only in what seat 0 cannot see (the others'
    objectives, B4) get the same move from the same bot."""
    assert "mcts" in KINDS
    state = throne.new_game(3, seed=5)
    for move in ("A1", "B2", "C3", "D4", "E5", "F1"):
        state = throne.apply(state, throne.parse_move(state, move))
    assert throne.current_player(state) == 0
    objectives = list(state.objectives)
    objectives[0] = (objectives[0][0], objectives[0][2], objectives[0][1])
    other = attrs.evolve(state, objectives=tuple(objectives))
    assert throne.observation(other, 0) == throne.observation(state, 0)
    assert throne.observation(other, 1) != throne.observation(state, 1)
    moves = [make_bot("mcts:6", throne, 0, seed=8)(s, 0) for s in (state, other)]
    assert moves[0] == moves[1]
    assert moves[0] in throne.legal_moves(state)


def test_the_ascent_bot_plays_a_legal_move() -> None:
    state = ascent.new_game(2, seed=1)
    bot = make_bot("mcts:5", ascent, state.actor, seed=1)
    assert bot(state, state.actor) in ascent.legal_moves(state)


def test_simulations_and_bad_kinds() -> None:
    assert simulations_of("") == SIMULATIONS
    assert simulations_of("7") == 7
    with pytest.raises(ArgumentError, match=r"write mcts:N with N simulations in 1\.\.100000"):
        simulations_of("0")
    done = castlerules("play", "throne", "--players", "3", "--bot", "1=mcts:x", "--no-save")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "write mcts:N" in done.stderr and "Traceback" not in done.stderr


def test_without_openspiel_the_bot_names_the_extra() -> None:
    done = castlerules(
        "play",
        "throne",
        "--players",
        "3",
        "--bot",
        "1=mcts",
        "--no-save",
        pre="import sys; sys.modules['pyspiel'] = None; ",
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "castlerules play: the mcts bot needs OpenSpiel: pip install 'castlerules[openspiel]'"
    ]
