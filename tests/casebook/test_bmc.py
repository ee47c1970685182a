"""The casebook's BMC search: shortest witnesses proved by Z3, replayed, and checked.

Each planted mistake below is one the checks must catch: a symbolic condition
weaker or stricter than the Python one, a witness one ply too long, a depth
that does not match the game, a changed helper that must change the cache key.
"""

from __future__ import annotations

import subprocess
import sys

import attrs
import pytest

from castlerules import casebook
from castlerules.casebook import bmc, store
from castlerules.casebook.search import SearchError, find

FOUND = store.load()
BMC_KEYS = sorted(k for k, f in FOUND.items() if f.found_by == "bmc")


def test_cases_with_a_symbolic_condition_are_found_by_bmc() -> None:
    declared = {c.key for c in casebook.CASES if c.bmc is not None}
    assert len(declared) >= 15
    assert {"throne-to-the-throne", "throne-elimination", "ascent-favour"} <= declared
    # Every declared case whose BMC answered is recorded as proved shortest.
    assert len(BMC_KEYS) >= 10
    assert set(BMC_KEYS) <= declared


@pytest.mark.parametrize("key", BMC_KEYS)
def test_a_case_found_by_bmc_replays_and_shows_it_first_at_its_last_ply(key: str) -> None:
    found = FOUND[key]
    shown = casebook.show(key, FOUND)  # replay through the public API, and the checks
    assert found.depth == len(found.moves)
    assert found.plies == found.depth + (found.tried is not None)
    assert "shortest possible: proven by bounded model checking to depth" in found.how
    assert "new_game(" in found.proof
    assert "refuted" in found.proof or found.depth == 0
    assert shown.focus is not None


def test_a_fresh_bmc_search_finds_the_cached_game() -> None:
    case = casebook.case("ascent-from-start")
    result = find(case)
    # Z3 may pick another witness of the same length (its models depend on the terms
    # built before): the length is what is proved, and the witness must verify.
    assert result.found_by == "bmc" and result.depth == FOUND[case.key].depth == 1
    found = casebook.Found(
        case.key, result.players, result.seed, result.hit.moves, result.hit.tried, "bmc",
        proof=result.proof, depth=result.depth,
    )  # fmt: skip
    assert casebook.verify(case, found).found.plies == 1


def test_a_witness_one_ply_too_long_is_caught() -> None:
    case = casebook.case("throne-full-floor")
    found = FOUND[case.key]
    assert found.found_by == "bmc"
    # One more placement before the move tried (onto a floor the witness leaves empty):
    # the refusal was there a ply earlier.
    empty = next(f for f in "12345" if not any(m.endswith(f) for m in found.moves))
    longer = attrs.evolve(found, moves=(*found.moves, f"H{empty}"), depth=found.depth + 1)  # type: ignore[operator]
    with pytest.raises(casebook.CaseError, match="not the shortest"):
        casebook.verify(case, longer)
    with pytest.raises(casebook.CaseError, match="BMC depth"):
        casebook.verify(case, attrs.evolve(found, depth=found.depth + 1))  # type: ignore[operator]
    # A step case: the BMC answer replayed with one move too many.
    step = casebook.case("ascent-from-start")
    with pytest.raises(SearchError, match="stricter"):
        bmc.checked_witness(step, 4, 0, ["C2", "D1"], 2, 0.0, 2, "planted")


def test_a_symbolic_condition_weaker_than_the_python_one_is_caught() -> None:
    case = casebook.case("ascent-jump-several")
    weaker = attrs.evolve(case, bmc=lambda z: z.advance)  # any Advance: depth 1
    with pytest.raises(SearchError, match="weaker"):
        bmc.find(weaker, 3, 0, 7)


def test_a_symbolic_condition_stricter_than_the_python_one_is_caught() -> None:
    case = casebook.case("ascent-from-start")
    # "to square 2": the Python condition (from the Start to square 1) holds a move earlier.
    stricter = attrs.evolve(
        case,
        bmc=lambda z: z.all(z.advance, z.moved_card(lambda a, b: b.sq == z.k(2))),
    )
    with pytest.raises(SearchError, match="stricter"):
        bmc.find(stricter, 4, 0, 4)
    # No game within the generic search's bound: stricter too.
    never = attrs.evolve(case, bmc=lambda z: z.all(z.advance, z.favour))
    with pytest.raises(SearchError, match="stricter"):
        bmc.find(never, 4, 0, 1)


def test_the_two_conditions_must_agree_on_other_games() -> None:
    # A real mistake the check caught: "no favour pending" is not when A11 refuses.
    case = attrs.evolve(
        casebook.case("ascent-favour-not-pending"),
        bmc=lambda z: z.all(z.am.neg(z.pre.turn.mid), z.pre.turn.actor >= z.k(0)),
    )
    with pytest.raises(SearchError, match="the symbolic condition says False"):
        bmc.agreement(case, 4, [])
    good = casebook.case("throne-to-the-throne")
    assert bmc.agreement(good, 4, [FOUND[good.key].moves]) > 100


def test_the_core_does_not_import_z3_and_a_missing_z3_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code = (
        "import sys, castlerules.casebook as c; c.show_all(); "
        "assert 'z3' not in sys.modules and 'proofs' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    monkeypatch.setitem(sys.modules, "z3", None)
    with pytest.raises(bmc.BmcError, match=r"pip install 'castlerules\[casebook\]'"):
        bmc.require()


# --------------------------------------------------------------------------- the cache key


def _helper_one(m: casebook.Moment) -> bool:
    return m.ply == 1


def _helper_two(m: casebook.Moment) -> bool:
    return m.ply == 2


def _calls_helper(m: casebook.Moment) -> bool:
    return _helper(m)


def test_the_cache_key_follows_the_helpers_a_condition_calls() -> None:
    for helper in (_helper_one, _helper_two):
        helper.__module__ = "castlerules.casebook.planted"
    case = attrs.evolve(casebook.case("ascent-from-start"), when=_calls_helper, bmc=None)
    keys = []
    for helper in (_helper_one, _helper_two):
        globals()["_helper"] = helper
        keys.append(store.case_hash(case))
    assert keys[0] != keys[1]
    # The real cases: a helper's source is part of its case's key, and only of its own.
    forced = store.closure_source(casebook.case("throne-forced-climb").when)
    assert "def _climbs_only" in forced
    assert "def _no_again" not in forced
    # The symbolic condition and the model sources are part of a BMC case's key.
    plain = attrs.evolve(casebook.case("throne-to-the-throne"), bmc=None)
    assert store.case_hash(plain) != store.case_hash(casebook.case("throne-to-the-throne"))


_helper = _helper_one


def test_re_keying_after_an_engine_change_keeps_a_bmc_game_without_searching() -> None:
    case = casebook.case("throne-to-the-throne")
    found = FOUND[case.key]
    stale = attrs.evolve(found, source="0" * 16 + "-" + found.source.split("-")[-1])
    out, done = store.refresh([case], {case.key: stale})
    assert done[case.key] == "re-verified"
    assert out[case.key].found_by == "bmc" and out[case.key].moves == found.moves
    assert out[case.key].source == store.case_hash(case)


def test_a_change_of_wording_keeps_a_key_and_a_change_of_code_does_not() -> None:
    """B1-B16, A1-A18: the cache keys follow the rules' code, not its docstrings."""
    before = 'X = 1\n"""Say one."""\n\n\ndef f(x):\n    """Twice x."""\n    return 2 * x\n'
    reworded = 'X = 1\n"""Say it."""\n\n\ndef f(x):  # note\n    """Two."""\n    return 2 * x\n'
    changed = 'X = 1\n"""Say one."""\n\n\ndef f(x):\n    """Twice x."""\n    return 3 * x\n'
    assert store.code_text(before) == store.code_text(reworded)
    assert store.code_text(before) != store.code_text(changed)
    # The model files are hashed as their code: a docstring of the Throne kernel is not
    # in the text hashed, its code is.
    from castlerules.casebook import bmc

    text = bmc.model_sources("throne")
    assert "The rules of Throne" not in text and "def guards(" in text
