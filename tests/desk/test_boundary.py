"""The desk's hidden-information boundary (B4, B11): nothing a seat keeps hidden
reaches the table view.

A property test over random Throne positions of every reading that hides
something more (both presets, secret No counts, No counts carried over,
passing allowed), in every phase: placement, movement, mid-election, the
moment a round ends and the game's end.  For each position, the table view's
answers (the position, a legal move, an illegal one, a No vote, sometimes the
comparison of readings) are checked field by field and link by link:

- no objective of a round not yet scored appears anywhere (B4);
- every notation the answer carries (the dispute links, ``link_position``)
  writes ``?`` for each of them, for every vote cast face down and every
  secret No count (B11), and reads back to what every seat may see;
- the board record holds no objective, no vote, no secret count;
- the answer is the same for a *twin*: the same position with every hidden
  fact drawn again (other objectives, other votes, other secret counts), when
  the move reveals nothing (a move that ends an election reveals its votes,
  one that scores a round its objectives).

``test_a_planted_leak_is_caught`` plants leaks (a vote copied into a table
field; a vote written into a link) and shows the same checks fail.
"""

from __future__ import annotations

import functools
import json
import random
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import records, throne
from castlerules.desk import serve
from castlerules.desk import table as tables
from castlerules.throne import notation
from castlerules.throne.state import ELECTION, ELIMINATED, MOVEMENT, OVER

READINGS = {
    "SEED": records.build_rules(throne, None, {}),
    "ORIGINAL": records.build_rules(throne, "ORIGINAL", {}),
    "SEED,no_cards_public=false": records.build_rules(throne, None, {"no_cards_public": False}),
    "ORIGINAL,no_cards_reset_each_round=false": records.build_rules(
        throne, "ORIGINAL", {"no_cards_reset_each_round": False}
    ),
    "SEED,allow_pass=true": records.build_rules(throne, None, {"allow_pass": True}),
}
"""Every Throne reading hides objectives and votes; these also hide No counts or change
when they are dealt, or add passing."""

KINDS = ("placement", "movement", "election", "round end", "over")
SEEN: dict[str, int] = dict.fromkeys(KINDS, 0)
ANSWERS = {"count": 0}


def _kind(before: throne.State | None, state: throne.State) -> str:
    if state.phase == OVER:
        return "over"
    if before is not None and len(state.results) > len(before.results):
        return "round end"
    if state.phase == ELECTION:
        return "election"
    return "movement" if state.phase == MOVEMENT else "placement"


def playout(rules: throne.Rules, players: int, seed: int) -> Iterator[tuple[str, throne.State]]:
    """Every position of a random game, with its kind."""
    state = throne.new_game(players, rules=rules, seed=seed)
    rng = random.Random(seed)
    before = None
    for _ in range(600):
        kind = _kind(before, state)
        if kind != "election" or any(v >= 0 for v in state.votes):
            yield kind, state  # an election once a vote is cast (mid-election)
        if state.phase == OVER:
            return
        before, state = state, throne.apply(state, rng.choice(throne.legal_moves(state)))


# --------------------------------------------------------------------------- secrets


def secret_objectives(state: throne.State, revealed: int | None = None) -> set[str]:
    """The objectives of the rounds not yet scored (B4), as the notation writes them
    (less any card that a scored round revealed: the same card may be dealt again)."""
    rules = state.rules
    scored = len(state.results)
    shown = {
        notation._letters(rules, mask)
        for number, deal in enumerate(state.objectives, start=1)
        if number <= scored or number == revealed
        for mask in deal
    }
    return {
        notation._letters(rules, mask)
        for number, deal in enumerate(state.objectives, start=1)
        if number > scored and number != revealed
        for mask in deal
    } - shown


def twin(state: throne.State, rng: random.Random) -> throne.State:
    """``state`` with every hidden fact drawn again, as the notation allows: the
    objectives of the rounds not scored, the votes cast, the secret No counts."""
    rules = state.rules
    cards = list(notation.objective_cards(rules))
    scored = len(state.results)
    full = rules.no_cards_for(state.players)
    gone = sum(1 for f in state.floors if f == ELIMINATED)
    checked = rules.no_cards_reset_each_round or state.round == 1
    for _ in range(50):
        objectives = list(state.objectives)
        for number in range(scored + 1, rules.rounds + 1):
            objectives[number - 1] = tuple(rng.sample(cards, state.players))
        counts = list(state.no_cards)
        if not rules.no_cards_public:
            cap = min(gone, full) if checked else full
            counts = [full - rng.randint(0, cap) for _ in counts]
            if checked and full * state.players - sum(counts) < gone:
                continue
        votes = list(state.votes)
        for seat, vote in enumerate(votes):
            if vote >= 0:
                votes[seat] = rng.choice((0, 1)) if counts[seat] > 0 else 1
        other = attrs.evolve(
            state, objectives=tuple(objectives), votes=tuple(votes), no_cards=tuple(counts)
        )
        assert tables.table_of(other) == tables.table_of(state)  # what the table sees
        try:
            throne.from_text(throne.to_text(other))
        except Exception:
            continue
        return other
    return state


# --------------------------------------------------------------------------- checks


def _texts(answer: Any) -> Iterator[tuple[str, str]]:
    """Every notation an answer carries, with where: its link_position fields and the
    position of every dispute link in it."""
    if isinstance(answer, dict):
        for name, value in answer.items():
            if name == "link_position" and value is not None:
                yield name, value
            elif name == "link" and isinstance(value, str):
                yield name, urllib.parse.parse_qs(value)["position"][0]
            else:
                yield from _texts(value)
    elif isinstance(answer, list):
        for item in answer:
            yield from _texts(item)


def check_text(text: str, state: throne.State, where: str) -> None:
    """A table-view notation of ``state``: ``?`` for every hidden fact, and it reads
    back to what every seat may see of ``state``."""
    parts = text.split(" ")
    scored = len(state.results)
    deals = parts[tables.OBJECTIVES_FIELD]
    if deals != "?":
        for number, deal in enumerate(deals.split("/"), start=1):
            if number > scored:
                assert set(deal.split(",")) == {"?"}, f"{where}: round {number}'s objectives"
    assert not set(parts[tables.VOTES_FIELD]) & {"y", "n"}, f"{where}: a vote is written"
    if not state.rules.no_cards_public:
        assert set(parts[tables.NO_CARDS_FIELD].split("/")) == {"?"}, f"{where}: No counts"
    read, hidden = tables.read_text(text)
    assert tables.table_of(read, hidden) == tables.table_of(state), f"{where}: reads back"


def check_position(answer: dict[str, Any], state: throne.State, where: str) -> None:
    """A table-view position answer of ``state``."""
    assert answer["view"] == "table" and answer["position"] is None, where
    for seat in answer["board"]["seats"]:
        assert seat["objective"] is None and seat["vote"] is None, f"{where}: board {seat}"
        if not state.rules.no_cards_public:
            assert seat["no_cards"] is None, f"{where}: board shows a secret No count"


def check_answer(
    answer: dict[str, Any], state: throne.State, where: str, revealed: int | None = None
) -> None:
    """Every field and link of a table-view answer about ``state`` (and of the position
    after, in ``next``), against the secrets of ``state``."""
    assert answer["ok"], f"{where}: {answer.get('error')}"
    ANSWERS["count"] += 1
    shown = json.dumps(answer)
    for secret in secret_objectives(state, revealed):
        assert secret not in shown, f"{where}: the objective {secret} is shown (B4)"
    assert "answer" not in answer  # the command line's whole answer: referee only
    following = answer.get("next")
    if "board" in answer:
        check_position(answer, state, where)
    if following is not None:
        after = throne.apply(state, throne.parse_move(state, answer["move"]))
        check_position(following, after, where + " (after)")
        for name, text in _texts(following):
            check_text(text, after, f"{where}: next.{name}")
        for secret in secret_objectives(after):
            assert secret not in shown, f"{where}: the next objective {secret} is shown"
    before = {k: v for k, v in answer.items() if k != "next"}
    for name, text in _texts(before):
        check_text(text, state, f"{where}: {name}")


def _same(first: dict[str, Any], second: dict[str, Any], where: str) -> None:
    def keyless(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: keyless(v) for k, v in value.items() if k != "key"}
        if isinstance(value, list):
            return [keyless(v) for v in value]
        return value

    assert keyless(first) == keyless(second), f"{where}: the answer depends on a hidden fact"


def _ask(state: throne.State, **request: Any) -> dict[str, Any]:
    desk = serve.Desk()
    key = desk.keep(serve.Entry(throne, state))
    answer: dict[str, Any] = json.loads(desk.handle(json.dumps({**request, "key": key})))
    return answer


def reveals(state: throne.State, move: str) -> tuple[bool, int | None]:
    """Whether the move ends an election (its votes are revealed, B11), and the round
    it scores (its objectives are revealed, B14)."""
    try:
        after = throne.apply(state, throne.parse_move(state, move))
    except Exception:
        return False, None
    ends = state.phase == ELECTION and (after.phase != ELECTION or after.round != state.round)
    return ends, state.round if len(after.results) > len(state.results) else None


def check_state(state: throne.State, rng: random.Random, *, moves: int, compare: bool) -> None:
    """The table view's answers about ``state``, checked (see the module's description)."""
    where = notation.to_text(state)
    other = twin(state, rng)
    position = _ask(state, op="position")
    check_answer(position, state, where)
    _same(position, _ask(other, op="position"), where)
    if state.phase == OVER or not moves:
        return
    legal = [str(m) for m in throne.legal_moves(state)]
    asked = [rng.choice(legal), "A7"]  # a legal move, and one no reading allows (B6, B8)
    if state.phase == ELECTION:
        asked.append("no")  # legal only with a No card: secret under no_cards_public=false
    for move in asked[:moves]:
        ends, scored = reveals(state, move)
        request = {"op": "explain", "move": move, "compare": compare and move == asked[0]}
        answer = _ask(state, **request)
        check_answer(answer, state, f"{where} {move}", revealed=scored)
        if not (ends or scored):
            _same(answer, _ask(other, **request), f"{where} {move}")


def positions_of(
    data: st.DataObject, reading: str, players: int, seed: int
) -> list[tuple[str, throne.State]]:
    """One position of each kind the game reaches, chosen by Hypothesis."""
    by_kind: dict[str, list[throne.State]] = {}
    for kind, state in playout(READINGS[reading], players, seed):
        by_kind.setdefault(kind, []).append(state)
    chosen = []
    for kind in KINDS:
        found = by_kind.get(kind)
        if found:
            index = data.draw(st.integers(0, len(found) - 1), label=kind)
            chosen.append((kind, found[index]))
    return chosen


@settings(max_examples=210, deadline=None)
@given(
    data=st.data(),
    reading=st.sampled_from(sorted(READINGS)),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
)
def _property(data: st.DataObject, reading: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    for number, (kind, state) in enumerate(positions_of(data, reading, players, seed)):
        SEEN[kind] += 1
        check_state(state, rng, moves=3 if number == seed % 5 else 0, compare=seed % 23 == 0)


@pytest.fixture
def cards_once() -> Iterator[None]:
    """Reading a Throne text lists every objective card of its rules, each time
    (``notation.objective_cards``, 1,716 cards by default): kept once per rules here,
    for speed only (the function is pure)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notation, "objective_cards", functools.cache(notation.objective_cards))
        yield


@pytest.mark.slow
@pytest.mark.usefixtures("cards_once")
def test_the_table_view_shows_no_secret() -> None:
    """The property, then its coverage: at least 1,000 positions, every kind of them."""
    SEEN.update(dict.fromkeys(KINDS, 0))
    ANSWERS["count"] = 0
    _property()
    assert sum(SEEN.values()) >= 1000, SEEN
    assert all(count >= 50 for count in SEEN.values()), SEEN
    assert ANSWERS["count"] >= 1000 + 150, ANSWERS


# --------------------------------------------------------------------------- planted leaks


def _election(reading: str) -> throne.State:
    for kind, state in playout(READINGS[reading], 4, 3):
        if kind == "election" and sum(v >= 0 for v in state.votes) >= 2:
            return state
    raise AssertionError("no election reached")


def _plant_votes_in_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A vote copied into a table field: ``voted`` true only for a Yes."""
    real: Callable[..., tables.ThroneTable] = tables.table_of

    def leaky(state: throne.State, hidden: tables.Hidden = tables.NOTHING_HIDDEN) -> Any:
        table = real(state, hidden)
        if state.phase != ELECTION:
            return table
        return attrs.evolve(table, voted=tuple(v == 1 for v in state.votes))

    monkeypatch.setattr(tables, "table_of", leaky)


def _plant_votes_in_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """A vote written into the table's dispute link."""
    real = tables.public_text

    def leaky(table: tables.ThroneTable) -> str:
        parts = real(table).split(" ")
        parts[tables.VOTES_FIELD] = parts[tables.VOTES_FIELD].replace("?", "y")
        return " ".join(parts)

    monkeypatch.setattr(tables, "public_text", leaky)


def _plant_count_in_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """A secret No count copied into the board record."""
    real = serve.position_answer

    def leaky(entry: serve.Entry, key: str, view: str) -> dict[str, Any]:
        answer = real(entry, key, view)
        for row, count in zip(answer["board"]["seats"], entry.state.no_cards, strict=True):
            row["no_cards"] = count
        return answer

    monkeypatch.setattr(serve, "position_answer", leaky)


@pytest.mark.parametrize(
    ("plant", "reading"),
    [
        (_plant_votes_in_table, "SEED"),
        (_plant_votes_in_link, "SEED"),
        (_plant_count_in_board, "ORIGINAL"),
    ],
)
def test_a_planted_leak_is_caught(
    monkeypatch: pytest.MonkeyPatch, plant: Callable[[pytest.MonkeyPatch], None], reading: str
) -> None:
    state = _election(reading)
    check_state(state, random.Random(1), moves=1, compare=False)  # holds without the leak
    plant(monkeypatch)
    rng = random.Random(1)
    with pytest.raises(AssertionError):
        for _ in range(20):  # a twin may happen to draw the same votes
            check_state(state, rng, moves=1, compare=False)


# --------------------------------------------------------------------------- the twins


def test_the_twins_redraw_every_objective_of_the_round_under_way() -> None:
    """B4: a twin is only a test of the boundary if it changes what the table may not
    see; here every seat's objective of the round under way (and of the rounds to come)
    differs from the real one in some twin."""
    state = throne.new_game(4, seed=1)
    twins = tables.alternatives(state)
    assert twins
    for number in range(1, state.rules.rounds + 1):
        for seat in range(state.players):
            assert any(
                twin.objectives[number - 1][seat] != state.objectives[number - 1][seat]
                for twin in twins
            ), (number, seat)
