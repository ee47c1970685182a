"""Every proved property rejects the counter-witnesses its clauses forbid (proofs.strength).

Each planted weakening below is a property made too weak to mean anything: a
bound loosened by one, a comparison relaxed, Ascent's score bound doubled.  The
proofs would still prove each of them; the counter-witnesses must not let them
pass.  Every property with a bound has its bound loosened here.
"""

from __future__ import annotations

from typing import Any

import pytest

from castlerules.symbolic.smt import Expr, all_of, implies
from proofs import ascent, strength, throne


def _verdicts() -> dict[str, tuple[bool, str]]:
    return {r.name: (r.holds, r.detail) for r in strength.results()}


def test_every_property_has_counter_witnesses_and_rejects_them() -> None:
    witnessed = {w.property for w in strength.WITNESSES}
    assert witnessed == set(throne.PROPERTIES) | {p.name for p in ascent.PROPERTIES}
    assert all(held for held, _detail in _verdicts().values())


def _no_cards_rise_by_one(system: Any, pre: Any, post: Any) -> Expr:
    same = post.rnd == pre.rnd
    return all_of(
        [
            *(implies(same, b <= a + 1) for a, b in zip(pre.no, post.no, strict=True)),
            *(b >= 0 for b in post.no),
        ]
    )


def _measure_rises_weakly(system: Any, pre: Any, post: Any) -> Expr:
    return throne._measure(system, post) >= throne._measure(system, pre)


def _no_descent_by_one(system: Any, pre: Any, post: Any) -> Expr:
    return all_of(
        implies(all_of([post.rnd == pre.rnd, f >= 1]), g >= f - 1)
        for f, g in zip(pre.fl, post.fl, strict=True)
    )


def _strict_by_one(m: Any, u: Any) -> Expr:
    return implies(u.on_path(), u.sq <= m.arr(u) + 1)


def _rises_by_zero(m: Any, before: Any, after: Any) -> Expr:
    return m.height(after) >= m.height(before)


def _down_by_one(m: Any, before: Any, after: Any) -> Expr:
    return m.height(after) >= m.height(before) - 1


def _doubled_scores(players: int, points: Any) -> Expr:
    bound = 2 * ascent.CLAIM_SET_VALUE * players
    return all_of([*(p >= -bound for p in points), *(p <= bound for p in points)])


def _flip_column_free(before: Any, after: Any) -> Expr:
    return implies(before.flp, all_of([after.sq == before.sq, after.flp]))


def _ceiling_excused(m: Any, c: Any, t: Any) -> Expr:
    return implies(all_of([c.on_path(), c.sq > m.arr(c) + 1]), t.same_stack(c))


_bound = throne.measure_bound

PLANTED: list[tuple[str, Any, str, Any]] = [
    ("throne.capacity", throne, "CLAIM_FLOOR", throne.CLAIM_FLOOR + 1),
    ("throne.capacity", throne, "CLAIM_THRONE", throne.CLAIM_THRONE + 1),
    ("throne.round_score", throne, "CLAIM_ROUND_MAX", throne.CLAIM_ROUND_MAX + 1),
    ("throne.round_score", throne, "CLAIM_LAST_ROUND", throne.CLAIM_LAST_ROUND + 1),
    ("throne.totals", throne, "CLAIM_TOTAL", (throne.CLAIM_TOTAL[0] - 1, throne.CLAIM_TOTAL[1])),
    ("throne.totals", throne, "CLAIM_TOTAL", (throne.CLAIM_TOTAL[0], throne.CLAIM_TOTAL[1] + 1)),
    ("throne.round_ends_with_king", throne, "measure_bound", lambda s: _bound(s) + 1),
    ("throne.round_ends_with_king", throne, "_measure_rises", _measure_rises_weakly),
    ("throne.no_cards", throne, "_no_cards_step", _no_cards_rise_by_one),
    ("throne.no_descent", throne, "_no_descent", _no_descent_by_one),
    ("throne.move_exists", throne, "_climb_exists", lambda system, s: s.phase == s.phase),
    ("ascent.scores", ascent, "CLAIM_SET_VALUE", ascent.CLAIM_SET_VALUE + 1),
    ("ascent.scores", ascent, "scores_ok", _doubled_scores),
    ("ascent.strict_ceiling", ascent, "strictly_below", _strict_by_one),
    ("ascent.termination", ascent, "card_rises", _rises_by_zero),
    ("ascent.termination", ascent, "never_down", _down_by_one),
    ("ascent.flipped", ascent, "flipped_stays", _flip_column_free),
    ("ascent.ceiling", ascent, "protected_or_excused", _ceiling_excused),
]


@pytest.mark.parametrize(
    ("prop", "module", "name", "weak"),
    PLANTED,
    ids=[f"{p}-{n}-{i}" for i, (p, _m, n, _w) in enumerate(PLANTED)],
)
def test_a_weakened_property_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, prop: str, module: Any, name: str, weak: Any
) -> None:
    monkeypatch.setattr(module, name, weak)
    game = prop.split(".", maxsplit=1)[0]
    held, detail = _verdicts()[f"{game}.strength"]
    assert not held
    assert f"{prop} accepts" in detail


def test_the_set_sum_and_the_invariants_are_tight() -> None:
    """The conservation's 21 and the invariants' capacity: one more is refused too."""
    import castlerules.symbolic.throne_invariant as inv

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ascent, "CLAIM_SET_VALUE", 22)
        held, detail = _verdicts()["ascent.strength"]
        assert not held and "ascent.conservation accepts" in detail
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(inv.Claims, "cap", lambda self, floor: 5)
        held, detail = _verdicts()["throne.strength"]
        assert not held and "throne.invariant accepts" in detail


def test_the_proofs_page_shows_every_witness() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "proofs.rst"
    assert strength.docs_table() in page.read_text(encoding="utf-8")
