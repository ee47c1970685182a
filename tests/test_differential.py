"""The CI share of the differential benchmark (``benchmarks/bench_differential.py``).

B3-B16 and A3-A17: seeded random full Throne and Ascent games under every reading of the register
(each at every player count), every move number of the kernel's universe judged
by the fast engine and by the kernel at every position: the same legality, the
same clause for every refusal, the same successor.  The planted mistakes show
that the comparison catches a wrong clause, a wrong legality and a wrong
successor.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import bench_differential as BENCH  # benchmarks/ is on pytest's path (pyproject)
import pytest

from castlerules import throne
from castlerules.throne import kernel

ROOT = Path(__file__).resolve().parents[1]


THRONE = BENCH.GAMES["throne"]


@pytest.mark.slow
def test_b3_b16_throne_games_under_every_reading_agree_with_the_kernel() -> None:
    names = [n for n, _r in BENCH.readings(THRONE)]
    games = len(names) * len(throne.PLAYERS)  # every reading at every player count
    result = BENCH.run_game("throne", games, quiet=True)
    assert result["kernel"]
    assert [r["name"] for r in result["readings"]] == names
    assert {"default", "ORIGINAL", "allow_pass=true"} <= set(names)
    total = result["total"]
    assert total["mismatches"] == 0, total["examples"]
    assert total["games"] == games and all(r["games"] == 4 for r in result["readings"])
    assert total["positions"] == total["moves"] + games  # the final positions too
    assert total["pairs"] > 100 * total["positions"] > 0 and 0 < total["legal"] < total["pairs"]


def test_the_plan_pairs_every_reading_with_every_player_count() -> None:
    plan = BENCH.plan(THRONE, 56, 100)
    pairs = {(name, players) for name, players, _seed in plan}
    assert len(pairs) == len(BENCH.readings(THRONE)) * len(throne.PLAYERS)
    assert [seed for _n, _p, seed in plan] == list(range(100, 156))


def _wrong_kernel(**planted: Any) -> SimpleNamespace:
    """The Throne kernel with some functions replaced."""
    names = ("Shape", "Position", "Options", "from_state", "next_objectives", "judge")
    names += ("guards", "decode", "first_broken")
    return SimpleNamespace(**{n: planted.get(n, getattr(kernel, n)) for n in names})


def _one_game(wrong: SimpleNamespace) -> Any:
    return BENCH.play_game(THRONE, wrong, "default", throne.Rules(), 4, 3)


def test_the_kernel_itself_agrees_on_that_game() -> None:
    count = _one_game(_wrong_kernel())
    assert count.mismatches == 0 and count.moves > 100


def test_a_wrong_clause_is_caught() -> None:
    """Planted: the kernel cites B8 where it refuses for B7 (a full floor)."""

    def guards(p: Any, m: Any) -> Any:
        return tuple(("B8", w, b) if c == "B7" else (c, w, b) for c, w, b in kernel.guards(p, m))

    count = _one_game(_wrong_kernel(guards=guards))
    assert count.mismatches > 0
    assert "engine refuses (B7), kernel refuses (B8)" in count.examples[0]


def test_a_wrong_legality_is_caught() -> None:
    """Planted: the kernel refuses every No vote (as if no seat held a No card)."""

    def guards(p: Any, m: Any) -> Any:
        return (*kernel.guards(p, m), ("B11", "planted", m.kind == kernel.K_NO))

    count = _one_game(_wrong_kernel(guards=guards))
    assert count.mismatches > 0
    assert any("engine legal, kernel refuses (B11)" in e for e in count.examples)


def test_a_wrong_successor_is_caught() -> None:
    """Planted: the kernel's successor of every legal move keeps the seat to act."""

    def judge(shape: Any, s: Any, a: int, *rest: Any) -> Any:
        verdict = kernel.judge(shape, s, a, *rest)
        if verdict.legal:
            return attrs.evolve(verdict, post=attrs.evolve(verdict.post, turn=s.turn))
        return verdict

    count = _one_game(_wrong_kernel(judge=judge))
    assert count.mismatches > 0
    assert any("successor differs in turn" in e for e in count.examples)


def test_a_game_without_a_kernel_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = attrs.evolve(THRONE, name="nokernel", kernel_module="castlerules.no_such_kernel")
    monkeypatch.setitem(BENCH.GAMES, "nokernel", missing)
    assert BENCH.run_game("nokernel", 10, quiet=True) == {
        "kernel": False,
        "note": "nokernel: no kernel yet",
    }


def test_the_published_run_is_the_one_the_docs_describe() -> None:
    """docs/differential.json is the run docs/proofs.rst reports (the same figures)."""
    saved = json.loads((ROOT / "docs" / "differential.json").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "proofs.rst").read_text(encoding="utf-8")
    total = saved["games"]["throne"]["total"]
    assert total["mismatches"] == 0
    for key in ("games", "moves", "positions", "pairs"):
        assert f"{total[key]:,}" in page, key
    assert saved["command"] in page


def test_the_published_ascent_run_is_the_one_the_docs_describe() -> None:
    """docs/differential-ascent.json is the 20,000-game run docs/proofs.rst reports."""
    saved = json.loads((ROOT / "docs" / "differential-ascent.json").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "proofs.rst").read_text(encoding="utf-8")
    result = saved["games"]["ascent"]
    total = result["total"]
    assert total["mismatches"] == 0 and total["games"] >= 20_000
    assert result["on"] == "arrays" and saved["command"] in page
    for key in ("games", "moves", "positions", "pairs"):
        assert f"{total[key]:,}" in page, key
    names = [n for n, _r in BENCH.readings(BENCH.GAMES["ascent"])]
    published = [r["name"] for r in result["readings"]]
    # Every reading the run played is still a reading (the order may have changed with
    # the declarations); readings added since the run (the docs name them) are played
    # by the next run.
    assert len(set(published)) == len(published) and set(published) <= set(names)
    later = [n for n in names if n not in published]
    assert all(f"``{n}``" in page for n in later), later


@pytest.mark.slow
def test_a3_a17_ascent_games_under_every_reading_agree_with_the_kernel() -> None:
    """Seeded full Ascent games, every reading of the register at least once (the
    benchmark plays the thousands): every move number judged by engine and kernel at
    every position.  The same games judged by the kernel on arrays give the same counts
    (one run on values serves both checks)."""
    game = BENCH.GAMES["ascent"]
    names = [n for n, _r in BENCH.readings(game)]
    games = len(names) + 9  # every reading with 2 players, nine of them with 3 too
    on_values = BENCH.run_game("ascent", games, seed=7, quiet=True)
    assert on_values["kernel"] and on_values["on"] == "values"
    assert [r["name"] for r in on_values["readings"]] == names
    assert all(r["games"] >= 1 for r in on_values["readings"])
    total = on_values["total"]
    assert total["mismatches"] == 0, total["examples"]
    assert total["games"] == games and 0 < total["legal"] < total["pairs"]
    # The kernel on values and on arrays: the same counts on the same games.
    on_arrays = BENCH.run_game("ascent", games, seed=7, quiet=True, on="arrays")
    assert on_arrays["on"] == "arrays"
    assert on_values["readings"] == on_arrays["readings"]
    assert total["pairs"] > 10_000


ASCENT = BENCH.GAMES["ascent"]


def test_a3_a17_on_arrays_every_reading_at_every_player_count_agrees() -> None:
    """The kernel run on numpy arrays of all the positions of a chunk of games (the
    benchmark's ``--on arrays``): every reading meets every player count."""
    from castlerules import ascent

    names = [n for n, _r in BENCH.readings(ASCENT)]
    games = len(names) * len(ascent.PLAYERS)
    result = BENCH.run_game("ascent", games, quiet=True, on="arrays")
    assert result["on"] == "arrays"
    total = result["total"]
    assert total["mismatches"] == 0, total["examples"]
    assert total["games"] == games and all(r["games"] == 5 for r in result["readings"])
    assert total["positions"] == total["moves"] + games
    assert 0 < total["legal"] < total["pairs"]


def _ascent_kernel(**planted: Any) -> SimpleNamespace:
    """The Ascent kernel with some functions replaced."""
    from castlerules.ascent import kernel as ak

    names = ("Shape", "Position", "Options", "from_state", "judge", "guards", "decode")
    names += ("first_broken", "step")
    return SimpleNamespace(**{n: planted.get(n, getattr(ak, n)) for n in names})


def _ascent_arrays_game(wrong: SimpleNamespace) -> Any:
    from castlerules import ascent

    return BENCH.play_games_on_arrays(ASCENT, wrong, "default", ascent.Rules(), 3, [3, 4])


def test_on_arrays_the_kernel_itself_agrees() -> None:
    count = _ascent_arrays_game(_ascent_kernel())
    assert count.mismatches == 0 and count.games == 2 and count.moves > 40


def test_on_arrays_a_wrong_clause_is_caught() -> None:
    """Planted: the kernel cites A7 wherever it refuses for A6 (the ceiling)."""
    from castlerules.ascent import kernel as ak

    def guards(p: Any, m: Any) -> Any:
        return tuple(("A7", w, b) if c == "A6" else (c, w, b) for c, w, b in ak.guards(p, m))

    count = _ascent_arrays_game(_ascent_kernel(guards=guards))
    assert any("engine refuses (A6), kernel refuses (A7)" in e for e in count.examples)


def test_on_arrays_a_wrong_legality_is_caught() -> None:
    """Planted: the kernel refuses every move number 0 (an extra broken guard)."""
    from castlerules.ascent import kernel as ak

    def guards(p: Any, m: Any) -> Any:
        return (*ak.guards(p, m), ("A3", "planted", True))

    count = _ascent_arrays_game(_ascent_kernel(guards=guards))
    assert any("engine legal, kernel refuses (A3)" in e for e in count.examples)


def test_on_arrays_a_wrong_successor_is_caught() -> None:
    """Planted: the kernel's successor keeps the seat to act."""
    from castlerules.ascent import kernel as ak

    def step(p: Any, m: Any) -> Any:
        out = ak.step(p, m)
        return attrs.evolve(out, post=attrs.evolve(out.post, actor=p.s.actor))

    count = _ascent_arrays_game(_ascent_kernel(step=step))
    assert any("successor differs" in e for e in count.examples)
