"""The dispute desk's Python side (castlerules.desk): the answers are the command line's,
and no request, however malformed, escapes as an exception.

The browser test (``test_browser.py``) checks the page; these check the
requests the page sends, in CPython, against ``castlerules explain --json``
run as a separate process; ``test_boundary.py`` checks the table view.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.parse
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import casebook, desk, throne
from castlerules.desk import compare, requests, serve
from castlerules.desk import table as tables


def ask(desk_: desk.Desk | None = None, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads((desk_ or desk.Desk()).handle(json.dumps(request)))
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
    table = ask(**request)  # the table view: the same verdict, without the positions
    assert table["verdict"] == {k: v for k, v in expected.items() if k in serve.VERDICT_FIELDS}
    assert "answer" not in table


def test_a_refusal_names_its_clause_and_french_text() -> None:
    answer = ask(op="explain", game="throne", position="new:4", move="C6")
    a = answer["verdict"]
    assert answer["status"] == 1 and not a["legal"]
    assert a["clause"] == "B6"
    assert "cinq premiers" in a["clause_text"]["french"]
    assert "floor 6" in a["message"]


def test_compare_lists_only_the_readings_that_disagree_or_cannot_apply() -> None:
    status, expected = cli_json("throne", "new:4", "C1", "--compare")
    answer = ask(op="explain", game="throne", position="new:4", move="C1", compare=True)
    assert answer["status"] == status
    shown = answer["compare"]
    rows = {r["reading"]: r for r in shown["rows"]}
    for row in expected["compare"]["readings"]:
        if row["status"] == "cannot apply":
            assert rows[row["reading"]]["kind"] == compare.CANNOT_APPLY
            assert rows[row["reading"]]["why"] == row["reason"]
        elif row["status"] == "agrees":
            assert row["reading"] not in rows
        else:
            assert rows[row["reading"]]["kind"] in {compare.DISAGREES, compare.DEPENDS}
            assert rows[row["reading"]]["why"] == row["reason"]
    assert set(expected["compare"]["disagree"]) <= set(rows)
    assert shown["agree"] == sum(1 for r in expected["compare"]["readings"] if r.get("agrees"))


def test_a_game_is_played_by_keys() -> None:
    """The page keeps keys; a move's answer gives the next position's key."""
    desk_ = desk.Desk()
    first = ask(desk_, op="position", game="ascent", position="new:3:1")
    assert first["moves"] == ["P1", "B1", "L1", "C1", "T1", "F1"]
    assert first["current_player"] == 1 and not first["over"]
    assert first["position"].startswith("P0B0L0C0T0F0")  # Ascent hides nothing
    played = ask(desk_, op="explain", key=first["key"], move="L1")
    assert played["status"] == 0 and played["next"]["key"] != first["key"]
    again = ask(desk_, op="position", key=first["key"], view="referee")
    assert again["position"] == first["position"]
    gone = ask(desk.Desk(), op="position", key=first["key"])  # another desk: not there
    assert not gone["ok"] and "load the position again" in gone["error"]


def test_a_table_link_hides_what_the_table_does_not_see() -> None:
    """B4, B11: mid-election with secret No counts (the issue's reproducer): the link
    writes ? for the objectives, the vote cast and every count; the referee's all."""
    text = (
        "throne SEED,no_cards_public=false 4 1 election 1 -/FHI/BCD/EL/GJ/AK/M - 3/3/3/3 "
        "y... 0 CDEJKM,DEGIKL,ABCFHK,DEFGJL/CEGJKM,AEIJLM,ABEFJM,DEFGHK/BEFJKL,CDGHIM,"
        "ACEHJL,AEHKLM - -"
    )
    answer = ask(op="position", game="throne", position=text)
    public = (
        "throne SEED,no_cards_public=false 4 1 election 1 -/FHI/BCD/EL/GJ/AK/M - "
        "?/?/?/? ?... 0 ? - -"
    )
    assert answer["link_position"] == public and answer["position"] is None
    assert urllib.parse.parse_qs(answer["link"])["position"] == [public]
    assert answer["moves"] == ["yes", "no"]
    referee = ask(op="position", game="throne", position=text, view="referee")
    assert referee["position"] == text == referee["link_position"]
    opened = ask(op="position", game="throne", position=public)  # the link, opened
    assert opened["hidden"] == {
        "objectives": [[r, s] for r in (1, 2, 3) for s in range(4)],
        "votes": [0],
        "no_cards": [0, 1, 2, 3],
    }
    assert opened["link_position"] == public


def test_a_no_vote_with_a_secret_count_is_not_judged_at_the_table() -> None:
    """B11: three candidates eliminated this round, so seat 1 may hold 0 to 3 No cards
    (it holds 0): whether it may vote No depends on its secret count, and the table
    view does not say (nor play it); the referee view does.  (In round 1 before any
    elimination every count is the full allowance, which every seat can tell.)"""
    text = (
        "throne SEED,no_cards_public=false 4 1 election 1 -/FHI/BCD/E/G/A/J KLM 3/0/3/3 "
        "y... 0 CDEJKM,DEGIKL,ABCFHK,DEFGJL/CEGJKM,AEIJLM,ABEFJM,DEFGHK/BEFJKL,CDGHIM,"
        "ACEHJL,AEHKLM - -"
    )
    assert ask(op="position", game="throne", position=text)["moves"] == ["yes", "no"]
    table = ask(op="explain", game="throne", position=text, move="no")
    assert table["status"] is None and "secret No counts" in table["withheld"]
    assert table["next"] is None and set(table["verdict"]) == {"seat", "rules"}
    assert "no No card" not in json.dumps(table)
    referee = ask(op="explain", game="throne", position=text, move="no", view="referee")
    assert referee["status"] == 1 and "no No card left" in referee["verdict"]["message"]


def test_a_scoring_move_from_a_table_link() -> None:
    """The issue's link whose move scores a round, opened in a fresh desk: an answer
    (no AttributeError), the score named as depending on the objectives not given."""
    desk_ = desk.Desk()
    key = ask(desk_, op="position", game="throne", position="new:4:0")["key"]
    moves = "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L3 M4 M+ M+ M+ yes yes yes"
    for move in moves.split(" "):
        key = ask(desk_, op="explain", key=key, move=move)["next"]["key"]
    link = ask(desk_, op="position", key=key)["link_position"]
    for move in ("yes", "no"):
        answer = ask(op="explain", game="throne", position=link, move=move)
        assert answer["ok"] and answer["withheld"] and "votes" in answer["withheld"]
    # With the votes given (a referee's link), the objectives alone are unknown.
    full = ask(desk_, op="position", key=key, view="referee")["position"]
    public = tables.full_text(*tables.read_text(full))
    partial = " ".join([*public.split(" ")[:11], "?", "-", "-"])
    answer = ask(op="explain", game="throne", position=partial, move="yes", view="referee")
    assert answer["ok"] and answer["status"] == 0 and answer["next"] is None
    assert answer["verdict"]["depends_on_unknown"] and answer["next_note"]


def test_public_text_agrees_with_the_notation() -> None:
    """Without a secret to hide, the table's notation is the notation itself; with
    objectives only, it is the partial notation of explain (B4, B14)."""
    rng = random.Random(3)
    state = throne.new_game(3, seed=3)
    seen_over = False
    while not seen_over:
        text = desk.public_text(tables.table_of(state))
        hidden = {
            (n, s)
            for n in range(len(state.results) + 1, state.rules.rounds + 1)
            for s in range(state.players)
        }
        if state.phase != 2:  # no face-down vote
            assert text == throne.notation.write_partial(state, frozenset(hidden))
        seen_over = throne.is_over(state)
        if not seen_over:
            state = throne.apply(state, rng.choice(throne.legal_moves(state)))
    assert desk.public_text(tables.table_of(state)) == throne.to_text(state)
    assert tables.table_of(state).totals() == throne.scores(state)


def test_fragment_and_cases() -> None:
    assert desk.fragment("ascent", "new:2", compare=True, view="referee") == (
        "game=ascent&position=new%3A2&view=referee&compare=1"
    )
    shown = casebook.show("throne-full-floor")
    q = desk.case_question(shown)
    assert q["game"] == "throne" and q["clauses"][0] == "B7"
    answer = ask(op="explain", game="throne", position=q["position"], move=q["move"])
    assert answer["verdict"]["clause"] == "B7"  # the case's refusal, as the desk answers it


# --------------------------------------------------------------------------- bad requests


@pytest.mark.parametrize(
    ("request_text", "error"),
    [
        ("not json", "the request is not JSON"),
        ("[1]", "the request is a JSON object"),
        ('{"op": "x"}', "unknown request 'x'"),
        ('{"op": "position", "game": "chess", "position": "new:4"}', "chess"),
        ('{"op": "position", "game": "throne", "position": "new:9"}', "3 to 6 players"),
        ('{"op": "position", "game": "throne", "position": "throne SEED"}', "position"),
        ('{"op": "position", "game": "throne", "position": 4}', "'position' is a position"),
        ('{"op": "position", "game": "throne", "position": "new:4", "view": "x"}', "a view is"),
        ('{"op": "explain", "game": "throne", "position": "new:4", "move": "A@"}', "A@"),
        ('{"op": "explain", "game": "throne", "position": "new:4", "options": [1]}', "options"),
        ('{"op": "explain", "game": "throne", "position": "new:4", "move": "-h"}', "not a move"),
        (
            '{"op": "explain", "game": "throne", "position": "new:4", "move": "--help"}',
            "not a move",
        ),
        ('{"op": "explain", "game": "throne", "position": "new:4", "move": "--"}', "not a move"),
        ('{"op": "explain", "game": "throne", "position": "new:4", "move": "-"}', "not a move"),
        (
            '{"op": "explain", "game": "ascent", "position": "new:4", "move": "@/etc/passwd"}',
            "not a move",
        ),
        ('{"op": "position", "game": "throne", "position": "new:4", "extra": 1}', "no field"),
        (
            '{"op": "explain", "game": "throne", "position": "new:4", "move": "C1", '
            '"compare": "yes"}',
            "true or false",
        ),
        ('{"op": "position", "key": "p99"}', "no position 'p99'"),
        ("[" * 100_000 + "]" * 100_000, "characters long"),
        ('{"a":' * 5_000 + "1" + "}" * 5_000, "nested too deeply"),
    ],
)
def test_bad_requests_get_one_line(request_text: str, error: str) -> None:
    answer = json.loads(desk.handle(request_text))
    assert answer["ok"] is False
    assert error in answer["error"]
    assert "\n" not in answer["error"] and "Traceback" not in answer["error"]


def test_a_request_nested_100000_deep_is_one_line() -> None:
    """The issue's RecursionError: 100,000 levels (within the request's length limit
    too, as nested objects in a position field are refused the same)."""
    for text in ("[" * 100_000 + "]" * 100_000, '{"op":' * 100_000 + "1" + "}" * 100_000):
        answer = json.loads(desk.handle(text))
        assert answer["ok"] is False and "\n" not in answer["error"]
    old = requests.MAX_REQUEST
    try:
        requests.MAX_REQUEST = 10**7  # past the length check: the parser's own depth
        answer = json.loads(desk.handle("[" * 100_000 + "]" * 100_000))
        assert answer == {
            "ok": False,
            "error": "the request is nested too deeply to be a desk request",
        }
    finally:
        requests.MAX_REQUEST = old


def test_a_move_never_reaches_the_parser_as_an_option() -> None:
    """Every move goes after ``--``: a move that starts like an option is judged as a
    move (and the desk refuses those before, see above)."""
    status, answer = serve.run_explain("throne", "new:4", "-h", compare=False)
    assert status == 2 and "cannot read the move" in str(answer)


# Hypothesis: hostile values in every field of the request schema.
HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.text(alphabet="-@?/ ,.:=yn0123456789ABCDEFGHIJKLMthrone", max_size=60),
    st.sampled_from(
        [
            "new:4",
            "new:3:1",
            "new:99999999999999999999",
            "-h",
            "--help",
            "--",
            "@x",
            "-",
            "yes",
            "no",
            "C1",
            "A7",
            "L1",
            "xP0",
            "table",
            "referee",
            "throne",
            "ascent",
            "p1",
            "ORIGINAL",
            "SEED",
            "no_cards_public=false",
            "x" * 10_000,
        ]
    ),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
FIELD_NAMES = [*sorted(requests.FIELDS["explain"]), "extra"]


@settings(max_examples=300, deadline=None)
@given(
    op=st.sampled_from(["position", "explain", "nonsense", ""]),
    fields=st.dictionaries(st.sampled_from(FIELD_NAMES), HOSTILE, max_size=6),
    good=st.booleans(),
)
def test_any_request_gets_one_json_answer(op: str, fields: dict[str, Any], good: bool) -> None:
    request: dict[str, Any] = {"op": op}
    if good:  # a well-formed base, so that the hostile fields reach deeper
        request.update(game="throne", position="new:4")
    request.update(fields)
    try:
        text = json.dumps(request)
    except (ValueError, TypeError):
        return
    answer = json.loads(desk.handle(text))
    assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
    if not answer["ok"]:
        assert isinstance(answer["error"], str) and answer["error"]
        assert "\n" not in answer["error"] and "Traceback" not in answer["error"]
        assert "bug of castlerules" not in answer["error"], answer["error"]


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=50).map(repr)))
def test_any_text_gets_one_json_answer(text: str) -> None:
    answer = json.loads(desk.handle(text))
    assert isinstance(answer["ok"], bool)
    assert answer["ok"] or "\n" not in answer["error"]


def test_handle_never_raises_even_on_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error the desk did not foresee is still one JSON answer, one line."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AttributeError("planted\nbug")

    monkeypatch.setattr(serve, "position_answer", broken)
    answer = json.loads(desk.handle('{"op": "position", "game": "throne", "position": "new:4"}'))
    assert answer["ok"] is False and "AttributeError" in answer["error"]
    assert "\n" not in answer["error"]
    assert json.loads(desk.handle(12))["ok"] is False  # not even a text
