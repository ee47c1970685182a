"""The public surface of castlerules.ascent (api.md), Rules, presets and Notes."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from castlerules import ascent
from castlerules.ascent import Card, Rank, Rules
from castlerules.ascent.notes import NOTES
from castlerules.ascent.rules import Tables

Builder = Callable[..., ascent.State]

# Ascent's own names; the names every game exports are checked in
# tests/core/test_game_protocol.py.
REQUIRED = [
    "Rank",
    "Card",
    "Advance",
    "Favour",
    "EndTurn",
    "where",
    "stack_at",
    "is_flipped",
    "removed",
    "pending_favour",
    "arrival",
]


def test_the_module_exports_the_contract() -> None:
    for name in REQUIRED:
        assert hasattr(ascent, name), name
        assert name in ascent.__all__


def test_ranks_and_their_values() -> None:
    """A18 / rule 2: six ranks, Prince 6 down to Fire-eater 1."""
    assert [r.name for r in Rank] == [
        "PRINCE",
        "BISHOP",
        "LADY",
        "CHARLATAN",
        "TROUBADOUR",
        "FIRE_EATER",
    ]
    assert [r.value for r in Rank] == [6, 5, 4, 3, 2, 1]
    assert "".join(r.letter for r in Rank) == "PBLCTF"
    assert Rank.FIRE_EATER.french == "Cracheur de feu"


def test_cards_and_moves_are_frozen_values() -> None:
    c = Card(2, Rank.BISHOP)
    assert c == Card(2, Rank.BISHOP)
    assert hash(c) == hash(Card(2, Rank.BISHOP))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        c.owner = 3  # type: ignore[misc]
    assert ascent.Advance(c) == ascent.Advance(Card(2, Rank.BISHOP))
    assert ascent.Favour(c) != ascent.Advance(c)
    assert ascent.EndTurn() == ascent.EndTurn()


def test_default_rules_are_the_reference_reading() -> None:
    rules = Rules()
    assert rules.squares == 7
    assert rules.arrival == (2, 3, 4, 5, 6, 7)
    assert rules.upper_half == 4
    assert rules.allow_exposing_split is False
    assert rules.favours_per_move == 1
    assert rules.favour_after_arrival is True
    assert rules.removal_in_lower_half is False
    assert rules.last_player_continues is False
    assert rules.die == "first_player"
    assert rules.protection is True
    assert rules.options() == {}
    assert Rules.preset("DEFAULT") == rules
    assert "DEFAULT" in Rules.PRESETS
    assert hash(rules) == hash(Rules())


def test_rules_helpers() -> None:
    rules = Rules(upper_half=5, removal_in_lower_half=False)
    assert rules.arrival_of(Rank.PRINCE) == 7
    assert rules.arrival_of(1) == 2
    assert [rules.in_upper_half(s) for s in range(9)] == [False] * 5 + [True] * 3 + [False]
    assert rules.removal_applies(5) and not rules.removal_applies(4)
    assert Rules(removal_in_lower_half=True).removal_applies(1)
    assert Rules(arrival=[1, 2, 3, 4, 5, 6]).arrival == (1, 2, 3, 4, 5, 6)


def test_presets_are_valid_rules() -> None:
    for name in Rules.PRESETS:
        assert isinstance(Rules.preset(name), Rules)
    assert Rules.preset("GENEROUS").favours_per_move is None


def test_tables_follow_the_rules() -> None:
    """The engine's tables hold no number of their own (single source: Rules)."""
    rules = Rules(squares=9, arrival=(1, 3, 4, 6, 8, 9), upper_half=6)
    t = Tables.of(rules)
    for q in range(6):
        for rank in Rank:
            cid = q * 6 + 6 - rank.value
            assert t.arrival[cid] == rules.arrival_of(rank)
            assert t.value[cid] == rank.value
    assert t.removal == sum(1 << s for s in range(6, 10))


def test_notes_cover_the_main_options() -> None:
    """Notes cite known clauses and options: tests/core/test_game_protocol.py."""
    for option in ("die", "favours_per_move", "last_player_continues", "protection", "squares"):
        assert any(n.option == option for n in NOTES), option


def test_notes_record_the_decisions_the_audit_asked_for() -> None:
    """The uncovered card on its own arrival square (A8, A9) and the squares option (A5),
    which the spec does not name, are recorded decisions."""
    topics = {(n.clause, n.topic) for n in NOTES}
    assert ("A8", "a card left on its own arrival square") in topics
    squares = [n for n in NOTES if n.option == "squares"]
    assert squares and squares[0].clause == "A5"
    assert "7" in squares[0].decision


def test_observation_is_the_whole_state() -> None:
    """Ascent hides nothing (Note 'observation')."""
    s = ascent.new_game(3, seed=1)
    for seat in range(3):
        assert ascent.observation(s, seat) is s


def test_pending_favour_marks_the_favour_step(position: Builder) -> None:
    s = position({(1, 1): "T1"}, turn="0")
    assert not ascent.pending_favour(s)
    mid = ascent.apply(s, ascent.parse_move(s, "L0"))
    assert ascent.pending_favour(mid)
    after = ascent.apply(mid, ascent.parse_move(mid, "xT1"))
    assert ascent.pending_favour(after)  # the replay step
    done = ascent.apply(after, ascent.EndTurn())
    assert not ascent.pending_favour(done)


def test_queries() -> None:
    s = ascent.new_game(2, first_player=0)
    lady = Card(0, Rank.LADY)
    s = ascent.apply(s, ascent.Advance(lady))
    assert ascent.where(s, lady) == (0, 1)
    assert ascent.stack_at(s, 0, 1) == (lady,)
    assert not ascent.is_flipped(s, lady)
    assert ascent.removed(s, 0) == ()
    assert ascent.current_player(s) == 1
    assert ascent.scores(s) == (-21, -21)


def test_the_engines_fast_constructor_builds_the_same_frozen_state() -> None:
    """build_state (the engine's constructor, state.py) is State(...), only faster."""
    from castlerules.ascent.state import State, build_state

    s = ascent.new_game(4, seed=3)
    s = ascent.apply(s, ascent.legal_moves(s)[2])
    fields = {a.name: getattr(s, a.name) for a in attrs.fields(State)}
    first = [fields.pop(name) for name in ("rules", "columns", "flipped", "removed_cards")]
    built, plain = build_state(*first, **fields), State(*first, **fields)
    with pytest.raises(TypeError):
        build_state(*first, *fields.values())  # past the fourth field, by name only
    assert type(built) is State
    assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
    assert built.moves == plain.moves and built.tables is plain.tables
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.actor = 2  # type: ignore[misc]
