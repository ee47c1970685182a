"""The clause registry: stable IDs, the seed's French text verbatim."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from castlerules.core import CLAUSES, clause, clauses_of

SEEDS = Path(__file__).resolve().parents[2] / "docs" / "seeds"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_ids_are_the_spec_ids_in_seed_order() -> None:
    assert [c.id for c in clauses_of("throne")] == [f"B{i}" for i in range(1, 17)]
    assert [c.id for c in clauses_of("ascent")] == [f"A{i}" for i in range(1, 19)]
    assert len(CLAUSES) == 34


@pytest.mark.parametrize("game", ["throne", "ascent"])
def test_french_text_is_verbatim_from_the_seed(game: str) -> None:
    seed = _normal((SEEDS / f"{game}.fr.txt").read_text(encoding="utf-8"))
    for c in clauses_of(game):
        assert _normal(c.french) in seed, c.id


def test_seed_copies_match_the_users_documents() -> None:
    shared = Path(__file__).resolve().parents[3] / "shared" / "seeds"
    if not shared.is_dir():
        pytest.skip("the user's shared/seeds folder is not beside this checkout")
    for name in ("throne.fr.txt", "ascent.fr.txt"):
        assert (SEEDS / name).read_bytes() == (shared / name).read_bytes()


def test_unknown_clause_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="B16"):
        clause("B17")
    assert clause("A9").game == "ascent"
    assert str(clause("B7")) == "B7: At most 4 characters on a floor."
