"""The casebook: every case replays and shows what it claims; coverage read from the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attrs
import pytest

from castlerules import ascent, casebook, register, throne
from castlerules.casebook import store
from castlerules.casebook.declare import Game, Moment, Refusal, Split
from castlerules.casebook.search import find
from castlerules.core import CLAUSES

ROOT = Path(casebook.__file__).resolve().parents[1]
KEYS = [c.key for c in casebook.CASES]
FOUND = store.load()


@pytest.mark.parametrize("key", KEYS)
def test_every_case_replays_from_new_game_and_shows_what_it_claims(key: str) -> None:
    shown = casebook.show(key, FOUND)
    case = shown.case
    assert len(shown.states) == len(shown.found.moves) + 1
    focus = shown.focus
    kind = {"step": Moment, "game": Game, "refusal": Refusal, "reading": Split}[case.kind]
    assert isinstance(focus, kind)
    if isinstance(focus, Refusal):
        # The refused move's clause is one the case is about (B7: a full floor refuses).
        assert focus.clause in case.clauses
    if isinstance(focus, Split):
        assert focus.first_text != focus.second_text


def test_every_clause_is_the_subject_of_a_case() -> None:
    subjects = {c.clauses[0] for c in casebook.CASES}
    missing = sorted(set(CLAUSES) - subjects)
    assert not missing, f"clauses without a case about them: {missing}"


def _refusal_clauses(game: str) -> set[str]:
    """Every clause an IllegalMove of the game's engine cites literally (read from its source)."""
    found: set[str] = set()
    for path in (ROOT / game).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove":
                for arg in node.args[1:]:
                    if isinstance(arg, ast.Constant) and re.fullmatch(r"[AB]\d+", str(arg.value)):
                        found.add(str(arg.value))
    return found


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_every_clause_an_illegal_move_cites_has_a_refusal_case(game: str) -> None:
    cited = _refusal_clauses(game)
    assert len(cited) >= 6  # the scan itself works
    refused = {
        casebook.show(c.key, FOUND).focus.clause  # type: ignore[union-attr]
        for c in casebook.cases(game)
        if c.kind == "refusal"
    }
    assert not cited - refused, f"refusals without a case: {sorted(cited - refused)}"


@pytest.mark.parametrize("module", [throne, ascent], ids=["throne", "ascent"])
def test_every_reading_of_the_register_has_a_case_where_it_diverges(module: object) -> None:
    readings = [
        (point.option, reading)
        for point in register.open_points(module)
        if point.excluded is None
        for reading in point.readings[1:]
    ]
    assert readings
    cases = [c for c in casebook.cases(module.NAME) if c.kind == "reading"]  # type: ignore[attr-defined]
    for option, reading in readings:
        wanted = reading.rules(module)
        assert any(
            c.rules() == module.Rules() and c.second_rules() == wanted  # type: ignore[attr-defined]
            for c in cases
        ), f"no reading case for {option} ({reading.label})"


def test_the_cases_players_ask_about_are_there() -> None:
    asked = {
        "ascent-jump-several", "ascent-skipped", "ascent-game-end", "ascent-carried-scores",
        "ascent-removed-penalty", "throne-tie", "ascent-tie", "throne-no-king-passing",
        "throne-last-to-servants", "throne-original-floor-1", "throne-no-card-reset",
        "throne-no-card-kept-spent", "throne-own-favourite-candidate",
        # the gallery's eight
        "ascent-protection", "ascent-flipped-square", "ascent-removal", "ascent-favour-replay",
        "throne-elimination", "throne-bonus", "throne-max-round", "throne-no-cards",
    }  # fmt: skip
    assert asked <= set(KEYS)
    assert len(KEYS) >= 60
    assert {c.game for c in casebook.CASES} == {"throne", "ascent"}


def test_the_jump_over_several_squares_jumps_over_at_least_two() -> None:
    """The witness's move passes over two squares or more: one event names them all
    (A3), or each is told apart (an occupied square, A3; flipped cards on another
    rank's arrival square, A9)."""
    shown = casebook.show("ascent-jump-several", FOUND)
    assert isinstance(shown.focus, Moment)
    jumped = [e for e in shown.focus.events if e.text.startswith("It jumps over")]
    assert shown.focus.says("squares ", "A3") or len(jumped) >= 2, shown.focus.events


def test_a_case_that_no_longer_shows_its_claim_fails() -> None:
    found = FOUND["throne-full-floor"]
    with pytest.raises(casebook.CaseError, match="no longer"):
        casebook.verify(
            casebook.case("throne-full-floor"), attrs.evolve(found, moves=found.moves[:-1])
        )
    tie = FOUND["throne-tie"]
    with pytest.raises(casebook.CaseError, match="not legal any more"):
        casebook.verify(casebook.case("throne-tie"), attrs.evolve(tie, moves=("Z9", *tie.moves)))
    winner = casebook.case("throne-tie")
    with pytest.raises(casebook.CaseError, match="no longer shows it"):
        casebook.verify(attrs.evolve(winner, when=lambda m: False), tie)
    with pytest.raises(casebook.CaseError, match="has no game"):
        casebook.show("throne-tie", {})


def test_the_search_is_deterministic_and_its_games_verify() -> None:
    case = casebook.case("ascent-jump-several")
    one, two = find(case, bmc=False), find(case, bmc=False)  # BMC: tests/casebook/test_bmc.py
    assert one.hit.moves == two.hit.moves and one.found_by == two.found_by
    found = casebook.Found(
        case.key, one.players, one.seed, one.hit.moves, one.hit.tried, one.found_by
    )
    assert casebook.verify(case, found).found.plies == len(one.hit.moves)
    assert "hypothesis" in one.found_by or "playouts" in one.found_by


def test_the_cache_has_a_game_for_every_case_and_hashes_the_rules_sources() -> None:
    assert set(KEYS) <= set(FOUND)
    case = casebook.case("throne-tie")
    assert store.case_hash(case).startswith(store.game_hash("throne"))
    assert store.game_hash("throne") != store.game_hash("ascent")


def test_a_stale_cache_entry_is_reverified_not_searched(tmp_path: Path) -> None:
    case = casebook.case("throne-tie")
    stale = {
        case.key: attrs.evolve(
            FOUND[case.key], source="0000-" + store.case_hash(case).split("-")[-1]
        )
    }
    found, done = store.refresh([case], stale)
    assert done == {case.key: "re-verified"}
    assert found[case.key].moves == FOUND[case.key].moves
    store.save(found, tmp_path / "found.json")
    assert store.load(tmp_path / "found.json")[case.key].source == store.case_hash(case)


def test_records_of_the_cases_replay() -> None:
    from castlerules import records

    for key in ("throne-tie", "ascent-removed-penalty", "throne-reading-pass"):
        shown = casebook.show(key, FOUND)
        final = records.check(records.loads(records.dumps(shown.record(0))))
        assert (
            throne.to_text(final) == throne.to_text(shown.after)
            if shown.case.game == "throne"
            else True
        )
    versus = casebook.show("throne-reading-pass", FOUND).record(1)
    assert versus.moves[-1] == "pass"


def test_a_game_that_no_longer_shows_its_case_is_searched_again() -> None:
    # A case without a BMC step, found again by the generic search in about a second:
    # what is tested is the store's choice (search again) and that the new game shows the
    # case; a search that ends in BMC (the same find) is tested in tests/casebook/test_bmc.py.
    case = casebook.case("ascent-ceiling")
    assert case.bmc is None
    broken = {case.key: attrs.evolve(FOUND[case.key], moves=())}
    found, done = store.refresh([case], broken)
    assert done[case.key].startswith("search (its game no longer shows it)")
    assert casebook.verify(case, found[case.key]).focus.clause == "A6"  # type: ignore[union-attr]


def test_every_case_reads_in_the_engines_words_and_draws_its_boards() -> None:
    from castlerules.casebook import report

    for shown in casebook.show_all():
        lines = report.focus_lines(shown)
        assert lines and all(isinstance(line, str) for line in lines)
        boards = report.diagrams(shown)
        assert 1 <= len(boards) <= 3
        kinds = {"refusal": 1, "step": 2, "game": 2}
        if shown.case.kind in kinds:
            assert len(boards) == kinds[shown.case.kind]
        for _caption, state, extra in boards:
            assert shown.case.module.svg(state, **extra).startswith("<svg")
    game = casebook.show("ascent-carried-scores", FOUND)
    assert any("final scores" in line for line in report.focus_lines(game))


def test_b14_the_shared_favourite_case_names_it_and_who_scores_it() -> None:
    """B5, B14: the case says which favourite is shared, by whom, and what each scored."""

    shown = casebook.show("throne-shared-favourite")
    assert shown.details
    before = shown.before
    for line in shown.details:
        letter = line[0]
        holders = [s for s in range(before.players) if letter in throne.objective(before, s)]
        assert len(holders) >= 2
        assert f"is a favourite of seats {', '.join(map(str, holders[:-1]))}" in line
        assert f"scores its {throne.castle_points(before, letter)} point" in line


def test_b11_the_election_case_tries_a_climb() -> None:
    """B11: "Can I move a character while voting?" is answered with a climb refused."""

    shown = casebook.show("throne-climb-in-election")
    assert isinstance(shown.focus.move, throne.Climb)
    assert shown.focus.error.clause == "B11"


def test_a5_the_staggered_path_case_shows_a_move_one_reading_refuses() -> None:
    """A5: under the shared Start a Fire-eater on square 1 below a card on square 2 is
    stuck (its ceiling, A6); with staggered starts the same Advance jumps to square 3.
    The boards differ from the start (a path of 7 squares or 12), a view the case's
    condition does not accept, so the search plays on to that move."""
    from castlerules.casebook.play import split_at

    shown = casebook.show("ascent-reading-path", FOUND)
    split = shown.focus
    assert isinstance(split, Split) and split.kind == "outcome" and split.refused_by == 0
    assert "(A6)" in split.first_text and "from square 1 to square 3" in split.second_text
    case = casebook.case("ascent-reading-path")
    starts = (ascent.new_game(3, seed=0), ascent.new_game(3, seed=0, rules=case.second_rules()))
    assert split_at(case, starts, 0) is None
    seen = split_at(attrs.evolve(case, when=None), starts, 0)
    assert seen is not None and seen.kind == "view"
