"""The kit's Python surface: hostile arguments, hostile answers, the wire checks, the
report's JSON contract, progress on a terminal, the vectors and their schema."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import ascent, throne
from castlerules.conform import (
    Engine,
    Progress,
    Reading,
    ReferenceEngine,
    Report,
    check,
    parse_replay,
    readings_of,
    vectors,
)
from castlerules.conform import reference as ref
from castlerules.conform.runner import Tally
from castlerules.conform.wire import EngineFault, check_answer, decode
from castlerules.core import ArgumentError

NOTHING = {"games": 0, "seconds": 0, "shrink_seconds": 0, "phases": ()}


def nested(depth: int) -> list[Any]:
    """A list in a list ... ``depth`` deep."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
hostile = (
    json_values
    | st.just("x" * 100_000)
    | st.just(nested(200))
    | st.just(object())
    | st.just(math.nan)
    | st.just(10**100)
    | st.just(-1)
)


@settings(max_examples=60)
@given(
    name=st.sampled_from(
        ["game", "engine", "rules", "games", "seconds", "shrink_seconds", "timeout", "seed",
         "sample", "phases", "replay", "all_readings"]
    ),
    value=hostile,
)  # fmt: skip
def test_hostile_arguments_are_refused_in_one_line_or_checked(name: str, value: Any) -> None:
    arguments: dict[str, Any] = {"game": "throne", "engine": ReferenceEngine(), **NOTHING}
    if name == "engine" and isinstance(value, list) and value:
        value = ["/nonexistent/" + str(v) for v in value]  # no real program is started
    arguments[name] = value
    try:
        report = check(**arguments)
    except ArgumentError as err:
        assert "\n" not in str(err) and len(str(err)) < 400
    else:
        assert isinstance(report, Report)
        json.dumps(report.data())


class Scripted(ReferenceEngine):
    """The reference, except that one answer comes from Hypothesis."""

    def __init__(self, op: str, value: Any) -> None:
        super().__init__()
        self.op, self.value, self.calls = op, value, 0

    def _scripted(self, op: str, normal: Any) -> Any:
        self.calls += 1
        return self.value if op == self.op and self.calls > 3 else normal

    def start(
        self, game: str, players: int, rules: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> bool:
        return self._scripted("start", super().start(game, players, rules, deal))  # type: ignore[no-any-return]

    def legal(self) -> Sequence[str]:
        return self._scripted("legal", super().legal())  # type: ignore[no-any-return]

    def play(self, move: str) -> bool:
        return self._scripted("play", super().play(move))  # type: ignore[no-any-return]

    def status(self) -> Mapping[str, Any]:
        normal = super().status()
        if isinstance(self.value, dict):
            return self._scripted("status", {**normal, **self.value})  # type: ignore[no-any-return]
        return self._scripted("status", normal)  # type: ignore[no-any-return]


@settings(max_examples=80)
@given(op=st.sampled_from(["start", "legal", "play", "status"]), value=hostile)
def test_hostile_answers_are_a_report(op: str, value: Any) -> None:
    report = check("ascent", Scripted(op, value), games=1, seconds=1, phases=["random"])
    json.dumps(report.data())
    report.text()
    if not report.agree:
        assert report.disagreement is not None


@settings(max_examples=150)
@given(line=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_line_decodes_or_is_a_fault(line: bytes) -> None:
    request = {"id": 3, "op": "legal"}
    try:
        answer = decode(line + b"\n", request)
        check_answer(request, answer, game="throne", is_move=lambda t: ref.grammatical("throne", t))
    except EngineFault as fault:
        assert fault.request == request and fault.kind in (
            "garbage", "wrong-id", "bad-answer", "error-answer"
        )  # fmt: skip


def test_the_wire_checks_name_what_is_wrong() -> None:
    legal = {"id": 2, "op": "legal"}
    with pytest.raises(EngineFault, match="with id 3"):
        check_answer(legal, {"id": 3, "moves": []})
    with pytest.raises(EngineFault, match="listing 'A1' twice"):
        check_answer(legal, {"id": 2, "moves": ["A1", "A1"]})
    status = {"id": 4, "op": "status"}
    assert check_answer(
        status, {"id": 4, "to_move": 0, "over": False, "scores": None}, game="ascent"
    )
    with pytest.raises(EngineFault, match="without scores"):
        check_answer(status, {"id": 4, "to_move": 0, "over": False, "scores": None}, game="throne")
    with pytest.raises(EngineFault, match="over without winners"):
        check_answer(status, {"id": 4, "to_move": None, "over": True, "scores": [1, 2, 3]})
    with pytest.raises(EngineFault, match="protocol 2"):
        check_answer({"id": 1, "op": "hello"}, {"id": 1, "name": "x", "games": [], "protocol": 2})
    with pytest.raises(EngineFault, match="not JSON"):
        decode(b'{"id": 1, "x": NaN}\n', {"id": 1, "op": "status"})


def test_an_engine_is_a_protocol_class() -> None:
    assert isinstance(ReferenceEngine(), Engine)
    assert not isinstance(object(), Engine)


def test_the_deal_gives_the_seeded_game_back() -> None:
    for game, module in (("throne", throne), ("ascent", ascent)):
        reading = Reading.named(game)
        for players in module.PLAYERS:
            start = ref.start(reading, players, 17)
            assert start.state == module.new_game(players, seed=17)
    shuffled = Reading.named("ascent", deal="shuffled")
    assert "owners" in ref.start(shuffled, 4, 3).deal


def test_the_json_has_the_fields_the_contract_names() -> None:
    report = check("throne", ReferenceEngine(built_for=throne.Rules.preset("ORIGINAL")), games=0)
    data = report.data()
    assert data["agree"] is False and isinstance(data["games"], int)
    found = data["disagreement"]
    assert {"moves", "position", "clause", "reference", "engine"} <= set(found)
    assert found["clause"] == "B6" and found["moves"] == [] and found["move"] == "A1"
    assert found["replay"].startswith("castlerules.conform.check('throne', engine")


def test_progress_on_a_terminal_says_what_is_tried_and_how_fast() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    check(
        "ascent",
        ReferenceEngine(),
        games=20,
        seconds=2,
        phases=["random"],
        progress=Progress(screen),
    )
    text = screen.getvalue()
    assert "\r" in text and "games/s" in text and "random game" in text
    lines: list[str] = []
    check(
        "ascent", ReferenceEngine(), games=1, seconds=1, phases=["casebook"], progress=lines.append
    )
    assert any(line.startswith("conform: [DEFAULT] casebook: ") for line in lines)
    assert Progress(None).update("x", Tally()) is None


def test_replays_and_readings() -> None:
    assert parse_replay("4:7:A1,B2") == (4, 7, ("A1", "B2"))
    assert parse_replay("3:0:") == (3, 0, ())
    with pytest.raises(ArgumentError, match="PLAYERS:SEED:MOVES"):
        parse_replay("4:7")
    labels = [r.label for r in readings_of("throne")]
    assert labels[:2] == ["SEED", "ORIGINAL"] and "SEED + allow_pass=true" in labels
    report = check("throne", ReferenceEngine(), replay="4:0:A1,B1,C1,D1")
    assert report.agree and report.tally.refusals == 107 - 36  # every illegal move, at its end


def test_vectors_match_their_schema_and_the_reference() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    files = vectors.build(perft_depth=2)
    schema = files["schema.json"]
    jsonschema.Draft202012Validator.check_schema(schema)
    games = files["throne-games.json"]
    assert games["format"] == vectors.FORMAT and games["version"] == vectors.VERSION
    names = [g["name"] for g in games["games"]]
    assert "casebook throne-full-floor" in names and any(n.startswith("random game") for n in names)
    clauses = {r["clause"] for g in games["games"] for r in g["refusals"]}
    assert {"B6", "B7", "B8", "B10", "B11", "B13", "B3"} <= clauses
    # Every step of a vector is the reference's (replayed through the public API).
    for vector in games["games"][:5]:
        state = throne.new_game(vector["players"], objectives=vector["deal"]["objectives"])
        for step in vector["steps"]:
            state = throne.apply(state, throne.parse_move(state, step["move"]))
            assert [str(m) for m in throne.legal_moves(state)] == step["legal"]
    perft = files["ascent-perft.json"]["positions"][0]
    assert perft["perft"] == [6, 36]
    broken = {**games, "version": 2}
    with pytest.raises(jsonschema.ValidationError):
        vectors.validate(broken)


@settings(max_examples=40)
@given(directory=hostile | st.sampled_from(["", " ", "a\x00b", "/dev/null", "/proc/nonexistent/x"]),
       depth=hostile)  # fmt: skip
def test_hostile_vector_arguments_are_refused_in_one_line(directory: Any, depth: Any) -> None:
    if isinstance(directory, str) and directory.strip() and "\x00" not in directory:
        directory = "/dev/null/" + directory  # never a real folder: nothing is written
    with pytest.raises(ArgumentError) as caught:
        vectors.write(directory, perft_depth=depth)
    assert "\n" not in str(caught.value)
