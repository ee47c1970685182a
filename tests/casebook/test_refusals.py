"""The engine, the notes and the casebook agree on the clause of every refusal (issue 43).

Every refusal the engines give, over seeded games under several readings, every move a
player might try (out of turn, after the end, with a letter or a card that is not in
play), is of exactly one kind of :data:`castlerules.casebook.refusals.REFUSALS` and
cites that kind's clause; every kind is seen; the note a kind names says its clause
in the sentence quoted; the case a kind names refuses its move with that kind.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from castlerules import ascent, casebook, throne
from castlerules.casebook import refusals
from castlerules.casebook.declare import Moment, Refusal, Split
from castlerules.casebook.play import tries
from castlerules.casebook.questions import question
from castlerules.core import IllegalMove, Rng

READINGS: dict[Any, tuple[tuple[int, Any], ...]] = {
    throne: (
        (3, throne.Rules()),
        (4, throne.Rules.preset("ORIGINAL")),
        (5, throne.Rules(no_cards=(5, 4, 3, 2))),
    ),
    ascent: (
        (3, ascent.Rules()),
        (4, ascent.Rules.preset("HARSH")),
        (3, ascent.Rules(favour_after_arrival=False, favour_takes="all_lower")),
        (5, ascent.Rules(deal="shuffled")),
        (2, ascent.Rules(protection=False)),
        (3, ascent.Rules(cards=("P0", "B0", "L0", "C0", "T0", "F0", "P1", "T1", "P2", "F2"))),
    ),
}


def _extra(module: Any, state: Any) -> list[Any]:
    """Moves beyond the ones a player might try: a letter or a card not in play."""
    if module is throne:
        return [throne.Place("N", 1), throne.Climb("N")]
    return [
        ascent.Advance(ascent.Card(5, ascent.Rank.PRINCE)),
        ascent.Favour(ascent.Card(5, ascent.Rank.FIRE_EATER)),
    ]


REPLAYED_THEN_FAVOUR = (
    "L0T0F0,-,P0,-,L1,-,-,-/C1,F1,T1,B1C0,P1B0,-,-,- -/- 1:4:2:1:1 "
    "favours_per_move=none;replays_per_turn=1"
)
"""Seat 1 has played again once and taken a favour since, with more favours to take:
under replays_per_turn=1 a further Advance is refused (A12)."""
REMOVED_THEN_FAVOUR = (
    "-,-,-,*T0,B0F1,-,B1,*P0/C1,T1,T2L0,C2,L1,P1,-,-/-,F2,L2,-,P2,-,*B2C0,- -/-/F0 1:1:1:0 "
    "removal_in_lower_half=true"
)
"""Ascent, HARSH: F0 was removed from column 2 earlier; seat 1 has a favour to take (xF0
is a favour of a card no longer on the board)."""


def _names_every_blocker(state: Any, move: Any, message: str) -> None:
    """A6: the refusal names what stands on every square between the card and its
    leader's ceiling, flipped or not, with the clause that makes it occupied."""
    column, square = ascent.where(state, move.card) or (0, 0)
    stack = ascent.stack_at(state, column, square) if square else (move.card,)
    part = stack[: stack.index(move.card) + 1]
    ranks = [c.rank for c in part]
    lead = max(ranks, key=lambda r: r.value) if state.rules.stack_rank == "highest" else ranks[0]
    ceiling = state.rules.arrival_of(lead)
    for d in range(square + 1, ceiling + 1):
        here = ascent.stack_at(state, column, d)
        assert here, (message, d)  # every square up to the ceiling is occupied
        words = (
            f"square {d}, the {lead.title}'s own arrival square, holds"
            if d == ceiling
            else f"square {d} holds"
        )
        assert words in message, (message, d)
        flipped = ascent.is_flipped(state, here[0])
        said = message.split(words, 1)[1].split(";", maxsplit=1)[0]
        assert ("flipped on the" if flipped else "not flipped") in said
    assert "(A9)" in message or "(A3)" in message or square >= ceiling, message


def test_the_ceiling_refusal_says_what_blocks_each_square() -> None:
    """The issue's position: T1 on square 2; square 3 (the Troubadour's arrival square)
    holds T0, not flipped, which A9 does not free; square 4 is above the ceiling."""
    state = ascent.from_text("P0B0L0F0,-,T1,T0,*C0,-,-,-/P1B1L1C1F1,-,-,-,-,-,-,- -/- 0 -")
    with pytest.raises(IllegalMove) as info:
        ascent.apply(state, ascent.parse_move(state, "T1", check=False))
    assert info.value.clause == "A6"
    assert str(info.value) == (
        "the Troubadour of set 1 (T1) on square 2 cannot advance: square 3, the Troubadour's "
        "own arrival square, holds the Troubadour of set 0 (T0), not flipped: an arrival "
        "square is free only when the cards on it are flipped (A9); so the next free square "
        "is 5, and the Troubadour cannot go above its arrival square 3 (A6)"
    )
    _names_every_blocker(state, ascent.parse_move(state, "T1", check=False), str(info.value))


def _refusals(module: Any) -> Counter[str]:
    """Try moves in seeded games; check each refusal's kind and clause; count the kinds."""
    seen: Counter[str] = Counter()

    def check(state: Any, move: Any, seat: int | None = None) -> None:
        try:
            module.apply(state, move, seat=seat)
        except IllegalMove as err:
            kind = refusals.kind_of(module, state, move, err)
            assert kind.clause == err.clause, (kind.key, str(err), err.clause)
            if kind.key == "ascent-ceiling":
                _names_every_blocker(state, move, str(err))
            seen[kind.key] += 1

    # The positions the casebook's cases are about, under each of their readings (favours,
    # removals, readings whose favours differ: what random games rarely reach).
    for shown in casebook.show_all():
        if shown.case.module is not module:
            continue
        states = {shown.states[-1], *shown.second_states[-1:]}
        if shown.case.kind == "game":  # a whole game: what follows a removal, too
            states |= set(shown.states)
        if isinstance(shown.focus, Split):
            states |= {
                m.after for m in (shown.focus.first, shown.focus.second) if isinstance(m, Moment)
            }
        for state in states:
            for move in [*tries(module, state), *_extra(module, state)]:
                check(state, move)
    if module is ascent:
        for text in (REMOVED_THEN_FAVOUR, REPLAYED_THEN_FAVOUR):
            state = ascent.from_text(text)
            for move in tries(module, state):
                check(state, move)
    for number, (players, rules) in enumerate(READINGS[module]):
        for seed in range(2):
            state = module.new_game(players, rules=rules, seed=seed)
            rng = Rng.from_seed(seed, f"tests.refusals.{number}")
            ply = 0
            while True:
                if ply % 3 == 0 or module.is_over(state):
                    for move in [*tries(module, state), *_extra(module, state)]:
                        check(state, move)
                    turn = module.current_player(state)
                    legal = module.legal_moves(state)
                    if turn is not None and legal:
                        check(state, legal[0], (turn + 1) % players)
                if module.is_over(state):
                    break
                move, rng = rng.choice(module.legal_moves(state))
                state = module.apply(state, move)
                ply += 1
    return seen


@pytest.mark.parametrize("module", [throne, ascent], ids=["throne", "ascent"])
def test_every_refusal_is_of_one_kind_and_cites_its_clause(module: Any) -> None:
    seen = _refusals(module)
    # The questions players ask as moves (a character or a card moving down).
    state = module.new_game(4)
    down = question(module, state, "A-" if module is throne else "F0-")
    assert down is not None
    kind = refusals.kind_of(module, state, None, down)
    assert kind.clause == down.clause
    seen[kind.key] += 1
    kinds = {k.key for k in refusals.REFUSALS if k.game == module.NAME and k.reachable}
    assert kinds <= set(seen), f"kinds never seen: {sorted(kinds - set(seen))}"


def test_every_note_a_kind_names_says_its_clause() -> None:
    named = 0
    for kind in refusals.REFUSALS:
        if kind.note is None:
            continue
        sentence = refusals.note_sentence(kind)
        assert sentence is not None, f"{kind.key}: no sentence of {kind.note} says it"
        assert kind.clause in sentence, (kind.key, sentence)
        named += 1
    assert named >= 20


def test_every_case_a_kind_names_refuses_with_that_kind() -> None:
    named = {key: kind for kind in refusals.REFUSALS for key in kind.cases}
    assert len(named) >= 20
    for key, kind in named.items():
        focus = casebook.show(key).focus
        assert isinstance(focus, Refusal), key
        found = refusals.kind_of(focus.module, focus.before, focus.move, focus.error)
        assert found == kind and focus.clause == kind.clause, (key, found.key)
    # And every refusal case of the casebook is one a kind names.
    for case in casebook.CASES:
        if case.kind == "refusal":
            assert case.key in named, case.key


def test_a_wrong_clause_in_a_note_or_in_the_table_is_caught() -> None:
    """The checks themselves: a kind citing another clause fails the kind check, and a
    note quoted for a clause it does not say fails the note check."""
    import attrs

    kind = next(k for k in refusals.REFUSALS if k.key == "ascent-favour-jumped-row")
    wrong = attrs.evolve(kind, clause="A10")
    assert wrong.clause not in (refusals.note_sentence(wrong) or "")
    with pytest.raises(LookupError, match="no kind"):
        refusals.kind_of(ascent, ascent.new_game(2), None, IllegalMove("something else", "A1"))


def test_a_guard_added_to_the_kernel_is_a_kind_with_no_edit_of_the_catalogue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The catalogue is read from the kernel's guards, the notes, the engine's other
    refusals and the casebook's refusal cases: a planted guard, the note that declares it
    and a case that shows it make a kind of the catalogue, its clause, note and case those
    declared."""
    from castlerules.ascent import kernel
    from castlerules.casebook.ascent_cases import CASES
    from castlerules.casebook.declare import refusal
    from castlerules.core import Note
    from castlerules.core.ops import Guard

    real = kernel.guards

    def planted(p: Any, m: Any) -> tuple[Guard, ...]:
        return (*real(p, m), Guard("A12", "a planted rule", False, "ascent-planted"))

    monkeypatch.setattr(kernel, "guards", planted)
    words = "a planted Advance is refused citing A12"
    note = Note(
        "A12", "a planted note", f"The rule. {words}.", refuses=(("ascent-planted", words),)
    )
    case = refusal("ascent-planted-case", "A12", "s", "q", lambda r: True, refuses="ascent-planted")
    kinds = {
        k.key: k
        for k in refusals.catalogue(ascent, notes=(*ascent.NOTES, note), cases=(*CASES, case))
    }
    kind = kinds["ascent-planted"]
    assert (kind.game, kind.clause, kind.note, kind.cases, kind.reachable) == (
        "ascent",
        "A12",
        ("a planted note", words),
        ("ascent-planted-case",),
        True,
    )
    # Everything else is as the game declares it.
    del kinds["ascent-planted"]
    assert tuple(kinds.values()) == tuple(k for k in refusals.REFUSALS if k.game == "ascent")


def test_declarations_that_make_no_catalogue_are_refused() -> None:
    """Planted mistakes in what the catalogue reads: each is named, none is listed."""
    from castlerules.casebook.declare import refusal
    from castlerules.core import Note
    from castlerules.core.errors import EngineRefusal
    from castlerules.core.ops import Guard

    ceiling = Guard("A6", "up to the ceiling", False, "ascent-ceiling")
    with pytest.raises(ValueError, match="cite A6 and A7"):
        refusals.catalogue(ascent, guards=(ceiling, Guard("A7", "x", False, "ascent-ceiling")))
    with pytest.raises(ValueError, match="refines ascent-nowhere"):
        refusals.catalogue(
            ascent, engine=(EngineRefusal("ascent-x", "A2", within="ascent-nowhere"),)
        )
    with pytest.raises(ValueError, match="is a kernel guard's name"):
        refusals.catalogue(ascent, engine=(EngineRefusal("ascent-ceiling", "A6"),))
    twice = Note("A6", "again", "cites A6", refuses=(("ascent-ceiling", "cites A6"),))
    with pytest.raises(ValueError, match="ascent-ceiling is declared by two notes"):
        refusals.catalogue(ascent, notes=(*ascent.NOTES, twice))
    stray = Note("A6", "stray", "cites A6", refuses=(("ascent-stray", "cites A6"),))
    with pytest.raises(ValueError, match="a note declares ascent-stray, a refusal of no kind"):
        refusals.catalogue(ascent, notes=(stray,))
    case = refusal("ascent-stray", "A6", "s", "q", lambda r: True)
    with pytest.raises(ValueError, match="a case shows ascent-stray, a refusal of no kind"):
        refusals.catalogue(ascent, cases=(case,))
    # A catalogue that dropped the engine's own refusals: the notes then declare refusals
    # of no kind (a card of the player's own column, not in play...).
    with pytest.raises(ValueError, match="a note declares ascent-advance-not-in-play"):
        refusals.catalogue(ascent, engine=())
    # And one that dropped the notes: the note check finds kinds without theirs.
    bare = refusals.catalogue(ascent, notes=())
    assert all(kind.note is None for kind in bare)
