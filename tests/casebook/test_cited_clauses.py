"""Each casebook case cites the clause its game shows.

A case's first clause is the rule it is about.  Its game shows a clause in
one of four ways: the events ``describe`` reports for its move (a step case,
the move a game case shows), the clause of the ``IllegalMove`` (a refusal
case, and a reading that refuses the move), or, for two readings that part
on what a seat sees or whose turn it is, the clause of the interpretation
note whose option the readings set differently.  The first clause cited
must be among those; where the rule is not one an event names (the board's
layout, the floors' names, a favourite shared, a forced climb...), the
exceptions below name that first clause and the clause the game shows
instead, and that one must be shown.  The table is exact: a case that comes to show
its first clause must leave it.

Planted mistakes (the secret vote citing B10 for B11; a refusal and a
reading citing a neighbour clause) are caught below.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from castlerules import casebook
from castlerules.casebook.declare import Game, Moment, Refusal, Split

# The cases whose first clause no event or refusal names: that clause, and the clause
# their game shows instead (an event of its move or, for a game case, of its game).
SHOWN_INSTEAD = {
    "throne-to-the-throne": ("B1", "B10"),  # B1, the throne's place, is the board's layout
    "throne-floor-names": ("B2", "B8"),  # B2 names the floors; the climb shows them
    "throne-shared-favourite": ("B5", "B14"),  # B5: the favourite shared shows in the score
    "throne-forced-climb": ("B9", "B8"),  # B9: the only move left is a climb
    "ascent-from-start": ("A1", "A3"),  # A1: the board's start
    "ascent-only-up": ("A4", "A3"),  # A4: a direction no move can take
    "ascent-last-square": ("A5", "A8"),  # A5: the length of the path
    "ascent-carried-scores": ("A15", "A17"),  # A15: the scores the end reports (A17)
    "ascent-removed-penalty": ("A16", "A13"),  # A16: the penalty of a removal (A13)
    "ascent-below-arrival": ("A16", "A17"),  # A16: the scores the end reports (A17)
    "ascent-die-first-player": ("A18", "A3"),  # A18: the die's roll is before the first move
    "ascent-reading-deal": ("A18", "A2"),  # A18: the deal shows in the columns
}


def _events(moment: Any) -> set[str]:
    return {str(e.clause) for e in moment.events}


def _option_clauses(case: Any) -> set[str]:
    """The clauses of the notes whose options the two readings of a reading case set apart."""
    first, second = case.rules(), case.second_rules()
    differ = {
        a.name
        for a in attrs.fields(type(first))
        if getattr(first, a.name) != getattr(second, a.name)
    }
    return {n.clause for n in case.module.NOTES if n.option in differ}


def shown_clauses(shown: Any) -> set[str]:
    """The clauses the case's game shows (see the module's documentation)."""
    focus = shown.focus
    if isinstance(focus, Moment):
        return _events(focus)
    if isinstance(focus, Refusal):
        return {focus.clause}
    if isinstance(focus, Game):
        return set().union(*(_events(m) for m in focus.moments))
    assert isinstance(focus, Split)
    out: set[str] = set()
    for outcome in (focus.first, focus.second):
        if isinstance(outcome, Refusal):
            out.add(outcome.clause)
        elif isinstance(outcome, Moment):
            out |= _events(outcome)
    if focus.kind in ("view", "turn", "result"):
        out |= _option_clauses(shown.case)
    return out


def citation_problem(shown: Any) -> str | None:
    """Why the clause the case cites is not the one its game shows (None if it is)."""
    case, shown_set = shown.case, shown_clauses(shown)
    first = case.clauses[0]
    if isinstance(shown.focus, Refusal) and shown.focus.clause != first:
        return f"the engine refuses citing {shown.focus.clause}, the case cites {first}"
    if first in shown_set:
        if case.key in SHOWN_INSTEAD:
            return f"its game now shows {first}: drop it from SHOWN_INSTEAD"
        return None
    if case.key not in SHOWN_INSTEAD:
        return f"it cites {first}, its game shows {sorted(shown_set)}"
    cited, instead = SHOWN_INSTEAD[case.key]
    if first != cited or instead not in shown_set:
        return (
            f"it cites {case.clauses}, its game shows {sorted(shown_set)}; "
            f"SHOWN_INSTEAD says {cited} shown by {instead}"
        )
    return None


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
