"""Each casebook case cites the clause its game shows.

A case's first clause is the rule it is about; ``castlerules.casebook.check``'s
``verify`` (run on every case by ``castlerules cases check`` and the casebook's pages)
refuses a case whose game does not show it (``citation_problem``).  Its game shows a
clause in one of four ways: the events ``describe`` reports for its move (a step case,
the move a game case shows), the clause of the ``IllegalMove`` (a refusal case, and a
reading that refuses the move), or, for two readings that part on what a seat sees or
whose turn it is, the clause of the interpretation note whose option the readings set
differently.  The first clause cited must be among those; where the rule is not one an
event names (the board's layout, the floors' names, a favourite shared, a forced
climb...), the exceptions (``SHOWN_INSTEAD``, in the same module) name that first
clause and the clause the game shows instead, and that one must be shown.  The table is
exact: a case that comes to show its first clause must leave it.

Planted mistakes (the secret vote citing B10 for B11; a refusal and a reading citing a
neighbour clause) are caught below.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from castlerules import casebook
from castlerules.casebook.check import SHOWN_INSTEAD, CaseError, citation_problem, verify


@pytest.fixture(scope="module")
def every_case() -> dict[str, Any]:
    return {s.case.key: s for s in casebook.show_all()}


def test_every_case_cites_the_clause_its_game_shows(every_case: dict[str, Any]) -> None:
    wrong = {k: p for k, s in every_case.items() if (p := citation_problem(s)) is not None}
    assert wrong == {}


def test_the_exceptions_name_cases_that_exist(every_case: dict[str, Any]) -> None:
    unknown = set(SHOWN_INSTEAD) - set(every_case)
    assert unknown == set()


def _cite(shown: Any, *clauses: str) -> Any:
    return attrs.evolve(shown, case=attrs.evolve(shown.case, clauses=clauses))


@pytest.mark.parametrize(
    ("key", "planted"),
    [
        ("throne-secret-vote", ("B10",)),  # the swap: B10 for B11
        ("throne-no-card-left", ("B10",)),  # a refusal citing a neighbour
        ("throne-election", ("B11", "B10")),  # the clauses' order swapped
        ("ascent-favour-not-pending", ("A10",)),
        ("ascent-reading-upper-half", ("A11",)),  # a reading that plays the move
        ("throne-reading-public-no-cards", ("B10",)),  # a reading that parts on a view
        ("ascent-carried-scores", ("A16", "A7")),  # an exception citing another clause
        ("throne-forced-climb", ("B8", "B9")),  # an exception whose order is swapped
    ],
)
def test_a_planted_wrong_citation_is_caught(
    every_case: dict[str, Any], key: str, planted: tuple[str, ...]
) -> None:
    shown = every_case[key]
    assert citation_problem(shown) is None
    assert citation_problem(_cite(shown, *planted)) is not None


def test_verify_refuses_a_case_citing_another_clause(every_case: dict[str, Any]) -> None:
    """The issue's swap (B10 for B11) planted in the declaration: ``verify`` refuses it."""
    shown = every_case["throne-secret-vote"]
    wrong = attrs.evolve(shown.case, clauses=("B10",))
    with pytest.raises(CaseError, match="cites B10"):
        verify(wrong, shown.found)
