"""Position and move notation: exact round trips, canonical refusals, fuzzing."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from castlerules import ascent
from castlerules.ascent import Advance, Card, EndTurn, Favour, Rank, Rules
from castlerules.core import IllegalMove, NotationError, Rng

START2 = "P0B0L0C0T0F0,-,-,-,-,-,-,-/P1B1L1C1T1F1,-,-,-,-,-,-,- -/- 0 -"


def _pool() -> list[str]:
    """Position texts from seeded random games under several readings."""
    texts = []
    readings = [Rules(), Rules.preset("GENEROUS"), Rules(allow_exposing_split=True, upper_half=6)]
    rng = Rng.from_seed(0, "notation.pool")
    for k in range(12):
        s = ascent.new_game(2 + k % 5, readings[k % 3], seed=k)
        step = 0
        while not ascent.is_over(s):
            move, rng = rng.choice(ascent.legal_moves(s))
            s = ascent.apply(s, move)
            step += 1
            if step % 9 == 0 or ascent.pending_favour(s):
                texts.append(ascent.to_text(s))
        texts.append(ascent.to_text(s))
    return texts


POOL = _pool()


def test_the_setup_is_written_as_documented() -> None:
    assert ascent.to_text(ascent.new_game(2, first_player=0)) == START2


def test_every_pooled_position_round_trips() -> None:
    assert len(POOL) > 100
    assert any(":" in t.split(" ")[2] for t in POOL)  # mid-turn steps
    assert any(t.split(" ")[2] == "-" for t in POOL)  # finished games
    assert any("*" in t for t in POOL)  # flipped stacks
    for text in POOL:
        state = ascent.from_text(text)
        assert ascent.to_text(state) == text


def test_options_round_trip_in_declaration_order() -> None:
    rules = Rules(
        squares=9,
        arrival=(1, 3, 4, 6, 8, 9),
        upper_half=5,
        favours_per_move=None,
        die="none",
        protection=False,
    )
    s = ascent.new_game(3, rules)
    text = ascent.to_text(s)
    assert text.endswith(
        " squares=9;arrival=1.3.4.6.8.9;upper_half=5;favours_per_move=none;die=none;"
        "protection=false"
    )
    again = ascent.from_text(text)
    assert again == s
    assert again.rules == rules


def test_moves_are_written_and_read_back() -> None:
    s = ascent.new_game(3)
    lady = Card(1, Rank.LADY)
    assert str(Advance(lady)) == "L1"
    assert str(Favour(lady)) == "xL1"
    assert str(EndTurn()) == "end"
    for move in (Advance(lady), Favour(lady), EndTurn()):
        assert ascent.parse_move(s, str(move), check=False) == move


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("", 0),
        ("L", 1),
        ("L9", 1),
        ("L3", 1),  # not in play with 3 players
        ("Q1", 0),
        ("xx1", 1),
        ("x", 1),
        ("End", 2),
        ("end ", 2),
        ("L1 ", 2),
        ("l1", 0),
        ("\u00e91", 0),
    ],
)
def test_bad_moves_raise_notation_errors(text: str, index: int | None) -> None:
    s = ascent.new_game(3)
    with pytest.raises(NotationError) as info:
        ascent.parse_move(s, text)
    assert info.value.text in (text, "")
    if index is not None:
        assert info.value.index == index


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (START2.replace(" 0 -", " 0"), "4 fields"),
        (START2.replace("P0B0", "B0P0"), "card order"),
        (START2.replace(",-,-,-,-,-,-,-/", ",-,-,-,-,-,-/"), "squares where 8"),
        (START2.replace("F1,-", "F1F1,-"), "twice"),
        (START2.replace("T1F1", "T1"), "missing"),
        ("-,-,*F0,*T0,*C0,*L0,*B0,*P0/P1B1L1C1T1F1,-,-,-,-,-,-,- -/- 1 -", "turn must be"),
        (START2.replace(" 0 -", " 2 -"), r"0\.\.1"),
        (START2.replace(" 0 -", " 00 -"), "whole number"),
        (START2.replace(" 0 -", " - -"), "marked over"),
        (START2.replace(" 0 -", " 0:1:1:0 -"), "stack just moved"),
        (START2.replace(" -/- ", " -/-/- "), "entries"),
        (START2.replace(" -/- ", " F0P0/- ").replace("P0B0L0C0T0F0", "B0L0C0T0"), "card order"),
        (START2.replace(" -/- ", " P0/- "), "twice"),
        (START2.replace(" 0 -", " 0 favours_per_move=1"), "default value"),
        (START2.replace(" 0 -", " 0 die=none;squares=8"), "declaration order"),
        (START2.replace(" 0 -", " 0 colour=red"), "unknown option"),
        (START2.replace(" 0 -", " 0 upper_half=9"), "bad options"),
        (START2.replace(" 0 -", " 0 squares"), "name=value"),
        (START2.replace("P0B0L0C0T0F0", "*P0B0L0C0T0F0"), "never flipped"),
        (START2.replace("P0B0L0C0T0F0,-", "B0L0C0T0F0,*P0"), "arrival square"),
        (START2.replace("P0B0L0C0T0F0,-,-,-,-", "P0B0L0C0T0,-,-,-,F0"), "no game reaches"),
        (START2.replace("P1B1", "P1B1P0").replace("P0B0", "B0"), "only cards of set 1"),
        (START2.replace("  ", " ").replace("/- ", "/-  "), "empty field"),
        (START2.replace(" 0 -", " 0 -").replace("/P1", "/P1Q"), "two characters"),
        (START2 + "\n", "printable"),
    ],
)
def test_bad_positions_raise_notation_errors(text: str, needle: str) -> None:
    with pytest.raises(NotationError, match=needle) as info:
        ascent.from_text(text)
    index = info.value.index
    assert index is None or 0 <= index <= len(text)


def test_a_turn_that_would_have_passed_is_refused() -> None:
    """Seat 1 has no legal Advance (a stuck Fire-eater, which keeps it in the race under
    end_test='unflipped'): it cannot be the seat to act."""
    text = "P0B0L0C0T0F0,-,-,-,-,-,-,-/-,-,-,F1,*C1T1,*L1,*B1,*P1 -/- 1 end_test=unflipped"
    with pytest.raises(NotationError, match="skipped"):
        ascent.from_text(text)
    assert ascent.current_player(ascent.from_text(text.replace(" 1 end", " 0 end"))) == 0


@pytest.mark.parametrize(
    ("options", "culprit"),
    [
        ("favours_per_move=0", "0"),
        ("allow_exposing_split=yes", "yes"),
        ("die=none;protection=maybe", "maybe"),
        ("arrival=3.2.4.5.6.7", "3.2.4.5.6.7"),
        # checked against the default squares=7: the one written option is at fault
        ("upper_half=9", "9"),
        ("upper_half=9;favours_per_move=none;die=none", "9;"),
    ],
)
def test_a_bad_option_is_pointed_at(options: str, culprit: str) -> None:
    """A bad option value is reported at that value, not at the start of the field."""
    text = START2.replace(" 0 -", f" 0 {options}")
    with pytest.raises(NotationError, match="bad options") as info:
        ascent.from_text(text)
    assert info.value.index == text.index(options) + options.index(culprit)


@pytest.mark.parametrize(
    "options", ["squares=8;upper_half=9", "arrival=2.3.4.5.6.8;upper_half=8", "squares=6"]
)
def test_options_at_odds_are_reported_at_the_field(options: str) -> None:
    """Two written options that clash (or one clashing with a default it did not set,
    squares=6 with the arrival squares ending at 7) point at the options field...
    except a lone written option, which is pointed at."""
    text = START2.replace(" 0 -", f" 0 {options}")
    with pytest.raises(NotationError, match="bad options") as info:
        ascent.from_text(text)
    field = text.index(options)
    expected = field if ";" in options else field + options.index("=") + 1
    assert info.value.index == expected


def test_a_favour_step_after_arrival_is_refused_when_switched_off() -> None:
    """favour_after_arrival=False: a stack just flipped on arrival never takes a favour,
    so no mid-turn step can stand on a flipped square of the seat to act (A10)."""
    text = (
        "P0B0L0C0F0,-,-,*T0F1,-,-,-,-/P1B1L1C1T1,-,-,F2,-,-,-,-/P2B2L2C2T2,-,-,-,-,-,-,- "
        "-/-/- 0:3:2:1 favours_per_move=none;favour_after_arrival=false"
    )
    with pytest.raises(NotationError, match="favour_after_arrival") as info:
        ascent.from_text(text)
    assert info.value.index == text.index(" 0:3:2:1") + 1
    # the same step is reachable with the reference reading
    ascent.from_text(text.replace(";favour_after_arrival=false", ""))


def test_a_mid_turn_step_with_nothing_left_is_refused() -> None:
    """Mid-turn after an Advance, with no favour to take: the turn would have ended."""
    text = "P0B0C0T0F0,L0,-,-,-,-,-,-/P1B1L1C1T1F1,-,-,-,-,-,-,- -/- 0:1:1:0 -"
    with pytest.raises(NotationError, match="would have ended"):
        ascent.from_text(text)


def test_non_text_is_refused() -> None:
    with pytest.raises(NotationError):
        ascent.from_text(42)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        ascent.parse_move(ascent.new_game(2), None)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- fuzzing

ALPHABET = st.sampled_from(list("PBLCTFx*-,/:;= 0123456789end_ruqtaslovwphi"))


@given(st.text(max_size=80))
@example("end")
@example("L1")
@example("xB0")
def test_fuzz_random_text_raises_only_notation_errors(text: str) -> None:
    """Bad text is a NotationError that points inside the text; a move written well but
    illegal in the position (``end`` before an Advance, A3; another column's card, A2;
    a favour with none pending, A11) is the IllegalMove ``parse_move`` documents, with
    its clause."""
    for reader in (ascent.from_text, lambda t: ascent.parse_move(ascent.new_game(3), t)):
        try:
            reader(text)
        except NotationError as err:
            assert err.index is None or 0 <= err.index <= len(text)
        except IllegalMove as err:
            assert reader is not ascent.from_text
            assert err.clause in {f"A{i}" for i in range(1, 19)}, err


@given(st.text(ALPHABET, max_size=40))
def test_fuzz_move_text(text: str) -> None:
    s = ascent.new_game(4)
    try:
        move = ascent.parse_move(s, text)
    except NotationError:
        return
    assert str(move) == text


@st.composite
def mutations(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(POOL))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "cut"]))
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "delete":
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            text = text[:i] + draw(ALPHABET) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(ALPHABET) + text[i + 1 :]
        elif kind == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
        else:
            text = text[:i]
    return text


@settings(max_examples=5 * settings.default.max_examples)
@given(mutations())
def test_fuzz_mutated_positions_raise_notation_errors_or_round_trip(text: str) -> None:
    try:
        state = ascent.from_text(text)
    except NotationError as err:
        assert err.index is None or 0 <= err.index <= len(text)
        assert err.text in (text, "")
        return
    assert ascent.to_text(state) == text
    assert ascent.from_text(ascent.to_text(state)) == state


def test_the_mutation_fuzzer_finds_parsable_mutants() -> None:
    """Not every mutant fails: a card swapped with another of the same stack still
    reads (so the round-trip branch of the fuzz test is exercised)."""
    text = "P0B0L0C0T0F0,-,-,-,-,-,-,-/P1B1C1F1,L1T1,-,-,-,-,-,- -/- 0 -"
    swapped = text.replace("L1T1", "T1L1")
    assert ascent.to_text(ascent.from_text(swapped)) == swapped


MID_TURN = "P0B0C0T0F0,-,-,-,L0,-,-,-/P1B1L1T1,-,-,-,C1F1,-,-,- -/- 0:4:1:0 -"
"""Seat 0's Lady just moved to square 4, beside C1F1: a favour may follow (A10)."""


@pytest.mark.parametrize(
    ("text", "error"),
    [
        # A18: 36 cards, each once: F1 cannot stand on square 4 and lie removed as well.
        (
            "P0B0C0T0F0,-,-,L0,-,-,-,-/P1B1L1T1,-,-,-,C1F1,-,-,- -/F1 0 -",
            r"card F1 appears twice \(A18\)",
        ),
        # A10: by default one favour per Advance; two cannot have been taken.
        (MID_TURN.replace("0:4:1:0", "0:4:1:2"), r"2 favours taken, but at most 1 .*\(A10\)"),
        # A3: a move goes to a square of the path; the Start (square 0) is none.
        (MID_TURN.replace("0:4:1:0", "0:0:1:0"), r"the square just moved to must be in 1\.\.7"),
    ],
)
def test_a_position_no_game_reaches_is_refused_for_its_rule(text: str, error: str) -> None:
    """The notation's own checks name the rule a text breaks (A3, A10, A18)."""
    assert ascent.from_text(MID_TURN).step == (4, 1, 0)
    with pytest.raises(NotationError, match=error):
        ascent.from_text(text)
