"""The casebook's words are checked against their games (issue 43).

A case states its rule (its condition checks that the game shows it); every other
sentence it says about its game is a claim evaluated on that game, or a line generated
from the engine's state and events (the details, the referee's view).  A false claim
fails the case; the six cases the issue named say what their games show.
"""

from __future__ import annotations

import attrs
import pytest

from castlerules import ascent, casebook, throne
from castlerules.casebook import report
from castlerules.casebook.check import verify
from castlerules.casebook.declare import Moment, claim
from castlerules.casebook.store import load


def _lines(key: str) -> str:
    shown = casebook.show(key)
    return "\n".join([*report.focus_lines(shown), *report.referee_lines(shown)])


def test_every_case_renders_its_claims_and_the_referees_view() -> None:
    with_claims = 0
    for shown in casebook.show_all():
        assert len(shown.claims) == len(shown.case.claims)
        for line in shown.claims:
            assert "{" not in line and "}" not in line, (shown.case.key, line)
        view = report.referee_lines(shown)
        assert view, shown.case.key
        if shown.case.game == "throne":
            assert any("objectives" in v or "game is over" in v for v in view), shown.case.key
        else:
            assert any(v.startswith(("hands", "default: hands")) for v in view), shown.case.key
        with_claims += bool(shown.claims)
    assert with_claims >= 12


def test_a_planted_false_claim_fails_the_case() -> None:
    """The removed cards count against the column's player (penalty_to=column): a claim
    that they count against their owner instead is false on the game, and fails it."""
    case = casebook.case("ascent-removed-penalty")
    found = load()[case.key]
    verify(case, found)

    def against_owner(g: object) -> bool:
        final = g.final  # type: ignore[attr-defined]
        removal = case.show(g)  # type: ignore[misc]
        gone = [
            (q, c)
            for q in range(final.players)
            for c in ascent.removed(removal.after, q)
            if c not in ascent.removed(removal.before, q)
        ]
        return all(c in ascent.removed(final, ascent.owner_of(final, c)) for _, c in gone)

    false = claim("The removed cards count against their owner.", against_owner)
    planted = attrs.evolve(case, claims=(*case.claims, false), when=_with(case, false))
    with pytest.raises(casebook.CaseError, match="The removed cards count against their owner"):
        verify(planted, found)


def _with(case: casebook.Case, extra: object) -> object:
    """The case's condition with one more claim (as ``declare`` builds it)."""
    from castlerules.casebook.declare import _checked

    assert case.when is not None
    return _checked(case.when, (extra,))  # type: ignore[arg-type]


OLD_RESET_GAME = (
    "F2 K5 J1 A4 E2 L2 H3 I3 G1 C4 D2 B5 M1 K+ B+ B+ yes yes no no C+ K+ yes yes no yes C+ C+ "
    "yes yes yes yes B5 M3 G5 D1 H1 K2 F2 A4 J1 I3 L4 C2 E2 K+ A+ A+ A+ no"
)
"""The game ``throne-no-card-reset`` showed before issue 43 (4 players, seed 0): its last
move, a No in round 2, is by a seat that had spent one No card of three in round 1."""


def test_the_old_no_card_reset_game_fails_its_claim() -> None:
    """The issue's complaint: that No vote proves nothing (the seat would still have No
    cards without a reset).  The old game is refused with the claim that says why."""
    case = casebook.case("throne-no-card-reset")
    old = casebook.Found(case.key, 4, 0, tuple(OLD_RESET_GAME.split()), None, "by hand")
    with pytest.raises(casebook.CaseError, match="spent all its"):
        verify(case, old)
    # The old condition held there: the claim is what fails.
    from castlerules.casebook.throne_cases import _no_again

    state = throne.new_game(4, seed=0)
    seen: list[Moment] = []
    for text in OLD_RESET_GAME.split():
        move = throne.parse_move(state, text)
        after = throne.apply(state, move)
        events = tuple(throne.describe(state, move, after))
        seat = throne.current_player(state)
        seen.append(Moment(throne, len(seen) + 1, seat, state, move, after, events, tuple(seen)))
        state = after
    assert _no_again(seen[-1], True)


SIX = {
    "ascent-removed-penalty": (
        "count against seat 0, the player of that column",
        "Move 52: seat 1 plays xL0, and F3 leaves the board from column 0 (A13); owned by: "
        "F3 of seat 3.",
    ),
    "throne-no-card-reset": ("spent all its 3 No cards in round 1", "No cards left (of 3"),
    "throne-no-king": ("the seed gives no number", "(the published rules'"),
    "ascent-reading-deal": ("deal=shuffled: hands (deal=shuffled): seat 0 ", "and no Lady"),
    "throne-forced-climb": ("objectives of round 1: seat 0 ", "raises a favourite of another"),
    "ascent-only-up": ("(A4)", "cannot move down"),
}


@pytest.mark.parametrize("key", list(SIX))
def test_the_six_cases_say_what_their_games_show(key: str) -> None:
    text = _lines(key)
    for words in SIX[key]:
        assert words in text, (key, words, text)
    shown = casebook.show(key)
    assert "seed's four" not in shown.case.statement and "for its owner" not in shown.case.statement


def test_a_game_case_shows_the_move_it_is_about() -> None:
    shown = casebook.show("ascent-removed-penalty")
    assert shown.moment is not None and shown.moment.says("leaves the board", "A13")
    captions = [caption for caption, _, _ in report.diagrams(shown)]
    assert captions[0].startswith(f"Before move {shown.moment.ply} ")
