"""The dispute desk's Python side (castlerules.desk): the answers are the command line's.

The browser test (``test_browser.py``) checks the page; these check the
requests the page sends, in CPython, against ``castlerules explain --json``
run as a separate process, and that the table view of Throne holds no
seat's objective (B4).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from castlerules import casebook, desk, throne


def ask(**request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(desk.handle(json.dumps(request)))
    return answer


def cli_json(*args: str) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "castlerules", "explain", *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize(
    ("game", "position", "move", "extra"),
    [
        ("throne", "new:4:3", "C6", ()),  # B6: placement only on floors 1-5
        ("throne", "new:4:3", "C5", ()),
        ("throne", "new:3", "C1", ("--rules", "ORIGINAL")),  # B6 under placement_floors 2-5
        ("ascent", "new:3:1", "P0", ()),  # A2: another seat's column
        ("ascent", "new:3:1", "L1", ()),
        ("ascent", "new:3:1", "xP0", ()),  # A11: no favour pending
    ],
)
def test_explain_is_the_command_line_answer(
    game: str, position: str, move: str, extra: tuple[str, ...]
) -> None:
    status, expected = cli_json(game, position, move, *extra)
    request: dict[str, Any] = {"op": "explain", "game": game, "position": position, "move": move}
    if extra:
        request["rules"] = extra[1]
    answer = ask(**request, view="referee")
    assert answer["ok"] and answer["status"] == status
    assert answer["answer"] == expected


def test_a_refusal_names_its_clause_and_french_text() -> None:
    answer = ask(op="explain", game="throne", position="new:4", move="C6")
    a = answer["answer"]
    assert answer["status"] == 1 and not a["legal"]
    assert a["clause"] == "B6"
    assert "cinq premiers" in a["clause_text"]["french"]
    assert "floor 6" in a["message"]


def test_compare_is_explain_compare() -> None:
    status, expected = cli_json("throne", "new:4", "C1", "--compare")
    answer = ask(op="explain", game="throne", position="new:4", move="C1", compare=True)
    assert answer["status"] == status
    got = answer["answer"]["compare"]
    assert [r["reading"] for r in got["readings"]] == [
        r["reading"] for r in expected["compare"]["readings"]
    ]
    assert got["disagree"] == expected["compare"]["disagree"]


def _objectives(state: throne.State) -> list[str]:
    return ["".join(sorted(throne.objective(state, seat))) for seat in range(state.players)]


def test_the_table_view_holds_no_objective() -> None:
    """B4: in the table view no answer holds a seat's objective; the referee view does."""
    state = throne.new_game(4, seed=11)
    secrets = _objectives(state)
    table = json.dumps(ask(op="position", game="throne", position="new:4:11"))
    move = str(throne.legal_moves(state)[0])
    table_move = ask(op="explain", game="throne", position="new:4:11", move=move, compare=True)
    shown = json.dumps({k: v for k, v in table_move.items() if k != "next_position"})
    for secret in secrets:
        assert secret not in table
        assert secret not in shown
    assert "secret" in table  # the seat table says so instead
    referee = json.dumps(ask(op="position", game="throne", position="new:4:11", view="referee"))
    assert all(secret in referee for secret in secrets)
    # What the page keeps to play on from is the whole position, never shown in the table view.
    assert table_move["next_position"] == throne.to_text(
        throne.apply(state, throne.parse_move(state, move))
    )


def test_secret_no_cards_are_not_drawn() -> None:
    """B11: with no_cards_public=false the table view's board says "secret" for the counts."""
    answer = ask(op="position", game="throne", position="new:4", options=["no_cards_public=false"])
    assert answer["ok"] and answer["svg"].count(">secret") == 8  # objectives and counts
    public = ask(op="position", game="throne", position="new:4")
    assert public["svg"].count(">secret") == 4  # the objectives only


def test_a_position_lists_its_legal_moves() -> None:
    answer = ask(op="position", game="ascent", position="new:3:1")
    assert answer["moves"] == ["P1", "B1", "L1", "C1", "T1", "F1"]
    assert answer["current_player"] == 1 and not answer["over"]
    assert answer["position"].startswith("P0B0L0C0T0F0")  # Ascent hides nothing
    assert answer["svg"].startswith("<svg")


@pytest.mark.parametrize(
    ("request_text", "error"),
    [
        ("not json", "the request is not JSON"),
        ("[1]", "the request is a JSON object"),
        ('{"op": "x"}', "unknown request 'x'"),
        ('{"op": "position", "game": "chess", "position": "new:4"}', "chess"),
        ('{"op": "position", "game": "throne", "position": "new:9"}', "3 to 6 players"),
        ('{"op": "position", "game": "throne", "position": "throne SEED"}', "position"),
        ('{"op": "position", "game": "throne", "position": 4}', "'position' is a text"),
        ('{"op": "position", "game": "throne", "position": "new:4", "view": "x"}', "a view is"),
        ('{"op": "explain", "game": "throne", "position": "new:4", "move": "A@"}', "A@"),
        ('{"op": "explain", "game": "throne", "position": "new:4", "options": [1]}', "options"),
    ],
)
def test_bad_requests_get_one_line(request_text: str, error: str) -> None:
    answer = json.loads(desk.handle(request_text))
    assert answer["ok"] is False
    assert error in answer["error"]
    assert "\n" not in answer["error"]


def test_fragment_and_cases() -> None:
    assert desk.fragment("ascent", "new:2", compare=True, view="referee") == (
        "game=ascent&position=new%3A2&view=referee&compare=1"
    )
    shown = casebook.show("throne-full-floor")
    q = desk.case_question(shown)
    assert q["game"] == "throne" and q["clauses"][0] == "B7"
    answer = ask(op="explain", game="throne", position=q["position"], move=q["move"])
    assert answer["answer"]["clause"] == "B7"  # the case's refusal, as the desk answers it


def test_a_table_link_hides_only_the_objectives_not_yet_revealed() -> None:
    """B4, B14: the public notation keeps a scored round's objectives, hides the others."""
    rng = __import__("random").Random(3)
    state = throne.new_game(3, seed=3)
    while len(state.results) < 1:
        state = throne.apply(state, rng.choice(throne.legal_moves(state)))
    text = desk.public_text(throne, state)
    deals = text.split(" ")[11].split("/")
    assert deals[0] == throne.to_text(state).split(" ")[11].split("/")[0]  # revealed
    assert deals[1:] == ["?,?,?", "?,?,?"]
    answer = ask(op="position", game="throne", position=text, view="referee")
    assert answer["ok"] and answer["position"] == text  # read back, never shown filled in
    assert answer["unknown"] == [[2, 0], [2, 1], [2, 2], [3, 0], [3, 1], [3, 2]]
    assert ">secret" in answer["svg"]  # the board draws no stand-in objective
