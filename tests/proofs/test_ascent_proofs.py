"""The Ascent proofs (proofs/ascent.py): every property proved, every wrong rule refuted.

The results are those of the whole proof run saved in ``artifacts/proofs.json``
(``bash dev prove``, which CI runs first) when it is this code's (its source hash) and
complete; else they run here, for 2 and 6 players (``results(fast=True)``; the full
run covers 2..6).  Each sensitivity check must come with a game that the engine
replays here, from the notation of its trace, and whose last position shows the
failure (or whose last move the engine refuses).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from castlerules import ascent
from castlerules.ascent.transitions import ceiling_violations
from castlerules.core import CLAUSES, IllegalMove
from castlerules.symbolic.ascent_model import all_of, neg
from proofs import source_hash
from proofs.ascent import Prover, results
from proofs.core import Ledger, ProofFailure, Result, Trace

SAVED = Path(__file__).resolve().parents[2] / "artifacts" / "proofs.json"
OTHER_JOBS = ("ascent.equal.", "ascent.premises", "ascent.strength")
"""The Ascent results of a whole run that other modules than proofs.ascent give (the
model proved to be the kernel, the premises, the properties' counter-witnesses)."""


def saved_results(path: Path = SAVED) -> list[Result] | None:
    """The Ascent results of the whole proof run saved by ``python -m proofs --save``, if
    that run was complete (no ``--fast``, no ``--only``) and of the sources at hand."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or (data.get("mode"), data.get("only")) != ("full", []):
        return None
    if data.get("source") != source_hash():
        return None
    return [
        Result.from_json(item)
        for item in data["results"]
        if item["game"] == "ascent" and not item["name"].startswith(OTHER_JOBS)
    ]


@pytest.fixture(scope="module")
def by_name() -> dict[str, Result]:
    return {r.name: r for r in saved_results() or results(fast=True)}


def test_saved_results_are_read_back_as_the_run_gave_them(tmp_path: Path) -> None:
    """A saved run is used only when complete and of these sources; its results read back
    equal to those saved (trace included)."""
    proved = Result("ascent.x", "ascent", "t", ("A6",), "induction", None, True, 1.0, 3, "s")
    refuted = Result(
        "ascent.y",
        "ascent",
        "t",
        ("A7",),
        "BMC depth 2",
        2,
        False,
        1.0,
        3,
        "s",
        "d",
        False,
        Trace("ascent", 2, ("protection=False",), ("a", "b"), ("m",), "n"),
    )
    other = Result("throne.z", "throne", "t", ("B1",), "induction", None, True, 1.0, 3, "s")
    equal = Result("ascent.equal.turn", "ascent", "t", ("A12",), "induction", None, True, 1, 3, "s")
    payload = {
        "mode": "full",
        "only": [],
        "source": source_hash(),
        "results": [r.to_json() for r in (proved, refuted, other, equal)],
    }
    for changed, usable in (
        ({}, True),
        ({"mode": "fast"}, False),
        ({"only": ["ascent"]}, False),
        (
            {"source": "0" * 24},
            False,
        ),
    ):
        (tmp_path / "proofs.json").write_text(json.dumps({**payload, **changed}))
        assert (saved_results(tmp_path / "proofs.json") == [proved, refuted]) is usable, changed


PROVED = [
    "ascent.invariant",
    "ascent.ceiling",
    "ascent.strict_ceiling",
    "ascent.flipped",
    "ascent.conservation",
    "ascent.scores",
    "ascent.termination",
]
REFUTED = [
    "ascent.sensitivity.no_protection",
    "ascent.sensitivity.no_lower_half_exception",
    "ascent.sensitivity.exposing_split_upper_half",
    "ascent.sensitivity.favour_takes_flipped",
    "ascent.sensitivity.favour_equal_rank",
]


def replay_trace(trace: Trace) -> ascent.State:
    """Replay a trace from its notation: every position must be the engine's."""
    state = ascent.from_text(trace.positions[0])
    assert trace.game == "ascent"
    assert len(trace.positions) == len(trace.moves) + 1
    for move_text, expected in zip(trace.moves, trace.positions[1:], strict=True):
        state = ascent.apply(state, ascent.parse_move(state, move_text))
        assert ascent.to_text(state) == expected
    return state


def above(state: ascent.State, tops_only: bool, low: int = 1) -> list[ascent.Card]:
    rules = state.rules
    out = []
    for q in range(state.players):
        for square in range(low, rules.squares + 1):
            stack = ascent.stack_at(state, q, square)
            for card in stack[:1] if tops_only else stack:
                if square > rules.arrival_of(card.rank):
                    out.append(card)
    return out


def test_results_shape(by_name: dict[str, Result]) -> None:
    assert set(by_name) == {*PROVED, *REFUTED}
    for r in by_name.values():
        assert r.game == "ascent"
        assert r.clauses and all(c in CLAUSES for c in r.clauses)
        assert r.method == "induction" or r.method.startswith("BMC depth ")
        assert r.ok, f"{r.name}: {r.detail}"


@pytest.mark.parametrize("name", PROVED)
def test_property_proved_by_induction(by_name: dict[str, Result], name: str) -> None:
    """A6-A18 consequences: proved for 2 and 6 players with every option symbolic."""
    r = by_name[name]
    assert r.holds and r.expected and r.verdict == "proved", r.detail
    assert r.method == "induction" and r.queries > 0
    assert "every option symbolic" in r.scope


def test_termination_bound_matches_rules(by_name: dict[str, Result]) -> None:
    """A3, A4: the proved bound on Advances is Rules.advance_bound."""
    assert "= Rules.advance_bound(n)" in by_name["ascent.termination"].detail


def test_a7_protection_lets_cards_above_their_arrival(by_name: dict[str, Result]) -> None:
    """A6, A7: the claim 'no card above its arrival square' is refuted under the
    reference rules; the engine's own ceiling check passes at the end."""
    r = by_name["ascent.sensitivity.no_protection"]
    assert r.verdict == "refuted" and r.trace is not None
    end = replay_trace(r.trace)
    assert above(end, tops_only=False)
    assert not above(end, tops_only=True)
    assert ceiling_violations(end) == ()


def test_a13_exposed_remainder_stays_in_the_lower_half(by_name: dict[str, Result]) -> None:
    """A13, rule 15: a stack's top above its arrival square, left in the lower half."""
    r = by_name["ascent.sensitivity.no_lower_half_exception"]
    assert r.verdict == "refuted" and r.trace is not None
    end = replay_trace(r.trace)
    rules = end.rules
    exposed = above(end, tops_only=True)
    assert exposed
    for card in exposed:
        square = ascent.where(end, card)
        assert square is not None and not rules.in_upper_half(square[1])
    assert ceiling_violations(end) == ()
    assert r.trace.moves[-1].startswith("x")  # left by a favour


def test_a7_exposing_split_reaches_the_upper_half(by_name: dict[str, Result]) -> None:
    """A7: allow_exposing_split=True leaves an exposed top in the upper half."""
    r = by_name["ascent.sensitivity.exposing_split_upper_half"]
    assert r.verdict == "refuted" and r.trace is not None
    assert r.trace.options == ("allow_exposing_split=True",)
    end = replay_trace(r.trace)
    assert end.rules.allow_exposing_split
    assert above(end, tops_only=True, low=end.rules.upper_half)
    # The same game is refused under the reference rules.
    state = ascent.new_game(2, ascent.Rules(), first_player=0)
    with pytest.raises(IllegalMove) as err:
        for text in r.trace.moves:
            state = ascent.apply(state, ascent.parse_move(state, text))
    assert err.value.clause == "A7"


@pytest.mark.parametrize(
    "name", ["ascent.sensitivity.favour_takes_flipped", "ascent.sensitivity.favour_equal_rank"]
)
def test_a10_mutated_favour_is_refused_by_the_engine(by_name: dict[str, Result], name: str) -> None:
    """A8, A10: the mutation's game replays up to its last move, which the engine refuses."""
    r = by_name[name]
    assert r.verdict == "refuted" and r.trace is not None
    end = replay_trace(r.trace)
    assert "the engine refuses" in r.detail
    refused = r.detail.split("the engine refuses ")[1].split(" ")[0]
    with pytest.raises(IllegalMove):
        ascent.apply(end, ascent.parse_move(end, refused))
    if name.endswith("equal_rank"):
        assert "still hold with this mutation" in r.detail


def test_a7_strict_ceiling_needs_the_strict_reading() -> None:
    """A7: 'no card above its arrival' is inductive only with protection=False."""
    Prover(2).strict_ceiling(Ledger())
    with pytest.raises(ProofFailure, match="consecution"):
        Prover(2).strict_ceiling(Ledger(), strict_reading=False)


def test_a8_flipped_property_fails_if_favours_take_flipped_cards() -> None:
    """A8: with a favour that may take flipped cards, the induction step fails."""
    with pytest.raises(ProofFailure, match="Favour"):
        Prover(2, mutation="favour_flipped").flipped(Ledger())


def test_a8_invariant_fails_if_an_uncovered_remainder_stays_unflipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A8 (``flip_uncovered``, a free option of the induction): a model whose remainder
    never turns over where it is left uncovered breaks the induction step."""
    from castlerules.ascent import kernel

    monkeypatch.setattr(kernel, "left_flipped", lambda *_args: False)
    with pytest.raises(ProofFailure, match=r"consecution .*lies flipped \(flip_uncovered\)"):
        Prover(2).invariant(Ledger())


def test_a12_invariant_fails_if_a_turn_replays_once_too_often(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A12 (``replays_per_turn``, a free option of the induction): a model that allows
    one replay beyond the bound breaks the induction step."""
    from castlerules.ascent import kernel

    monkeypatch.setattr(kernel, "replays_left", lambda _ops, replays, limit: replays <= limit)
    with pytest.raises(ProofFailure, match=r"consecution .*at most replays_per_turn"):
        Prover(2).invariant(Ledger())


def test_a13_lower_half_exception_is_needed() -> None:
    """A13: the invariant does not imply 'no exposed top' (rule 15's exception)."""
    prover = Prover(3)
    sm = prover.small()
    t = sm.reps[0]
    m = prover.model
    exposed = all_of([t.on_path(), t.dep == 0, t.sq > m.arr(t)])
    with pytest.raises(ProofFailure):
        Ledger().check("no exposed top", neg(exposed), sm.base())


def test_results_run_standalone() -> None:
    """``results`` is importable and its entry point callable without the CLI."""
    import proofs.ascent as module

    assert callable(module.results)
    assert module.GAME == "ascent"
