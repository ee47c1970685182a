"""Refusals: every IllegalMove cites its clause and leaves the input state unchanged;
bad arguments raise ValueError (ArgumentError) naming the allowed values."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from castlerules import ascent
from castlerules.ascent import Advance, Card, EndTurn, Favour, Rank, Rules
from castlerules.core import ArgumentError, IllegalMove, RulesError

Builder = Callable[..., ascent.State]
CardOf = Callable[[str], Card]
Play = Callable[..., ascent.State]


def refused(state: ascent.State, move: object, clause: str, **kwargs: object) -> str:
    """Apply ``move``, expect IllegalMove citing ``clause``; the state must not change."""
    text = ascent.to_text(state)
    copy = ascent.from_text(text)
    with pytest.raises(IllegalMove) as info:
        ascent.apply(state, move, **kwargs)  # type: ignore[arg-type]
    assert info.value.clause == clause
    assert str(info.value).endswith(f"({clause})")
    assert ascent.to_text(state) == text
    assert state == copy
    assert state.moves == copy.moves
    return str(info.value)


# --------------------------------------------------------------------------- Advance


def test_a2_advancing_a_card_of_another_column_is_refused(card: CardOf) -> None:
    s = ascent.new_game(2, first_player=0)
    message = refused(s, Advance(card("P1")), "A2")
    assert "column 1" in message


def test_a2_advancing_a_removed_card_is_refused(position: Builder, card: CardOf) -> None:
    s = position({}, turn="0", removed={0: "F0"})
    assert "removed" in refused(s, Advance(card("F0")), "A2")


def test_a2_advancing_a_card_not_in_play_is_refused(card: CardOf) -> None:
    s = ascent.new_game(2, first_player=0)
    assert "not in play" in refused(s, Advance(card("P4")), "A2")


def test_a8_advancing_a_flipped_card_is_refused(position: Builder, card: CardOf) -> None:
    s = position({(0, 5): "*L0T1"}, turn="0")
    assert "flipped" in refused(s, Advance(card("T1")), "A8")


def test_a6_a_destination_above_the_leaders_arrival_square_is_refused(
    position: Builder, card: CardOf
) -> None:
    s = position({(0, 4): "L0", (0, 5): "B1"}, turn="0")
    message = refused(s, Advance(card("L0")), "A6")
    assert "arrival square 5" in message
    assert "next free square is 6" in message


def test_a6_a_card_on_the_start_is_said_to_be_on_the_start(position: Builder, card: CardOf) -> None:
    """A6: F0 on the Start would jump squares 1 and 2 to square 3, above its ceiling 2."""
    s = position({(0, 1): "T0", (0, 2): "C0"}, turn="0")
    message = refused(s, Advance(card("F0")), "A6")
    assert message.startswith("the Fire-eater of set 0 (F0) on the Start cannot advance")
    assert "square 0" not in message


def test_a6_a_leader_stuck_above_its_ceiling_cannot_move(position: Builder, card: CardOf) -> None:
    s = position({(0, 3): "F0T1"}, turn="0")
    refused(s, Advance(card("T1")), "A6")


def test_a6_the_strict_reading_refuses_a_protected_card(position: Builder, card: CardOf) -> None:
    s = position({(0, 3): "L0F1"}, turn="0", options="protection=false")
    assert "no protection" in refused(s, Advance(card("F1")), "A6")


def test_a7_a_split_exposing_a_card_above_its_ceiling_is_refused(
    position: Builder, card: CardOf
) -> None:
    s = position({(0, 4): "L0F1"}, turn="0")
    assert "exposed" in refused(s, Advance(card("L0")), "A7")


def test_a12_advancing_before_taking_or_declining_the_favour_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1"}, turn="0"), "L0")
    message = refused(s, Advance(card("P0")), "A12")
    assert message.startswith("the Prince of set 0 (P0) cannot advance now")


# --------------------------------------------------------------------------- Favour


def test_a11_a_favour_at_the_start_of_a_turn_is_refused(position: Builder, card: CardOf) -> None:
    s = position({(1, 1): "T1"}, turn="0")
    assert "no favour is pending" in refused(s, Favour(card("T1")), "A11")


def test_a10_a_favour_on_an_equal_rank_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1", (2, 1): "L2"}, players=3, turn="0"), "L0")
    assert "does not rank lower" in refused(s, Favour(card("L2")), "A10")


def test_a10_a_favour_on_a_higher_rank_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1", (2, 1): "B2"}, players=3, turn="0"), "L0")
    refused(s, Favour(card("B2")), "A10")


def test_a10_a_favour_judges_the_leader_of_the_target_stack(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A low card under a higher leader cannot be taken by a middle rank."""
    s = play(position({(1, 1): "T1", (2, 1): "P2F2"}, players=3, turn="0"), "L0")
    refused(s, Favour(card("F2")), "A10")


def test_a10_a_favour_on_a_flipped_stack_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 3): "F1", (2, 3): "*T2", (0, 2): "L0"}, players=3, turn="0"), "L0")
    assert "flipped" in refused(s, Favour(card("T2")), "A10")


def test_a10_a_favour_on_another_row_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1", (1, 2): "F1"}, turn="0"), "L0")
    assert "same row" in refused(s, Favour(card("F1")), "A10")


def test_a11_a_favour_by_another_stack_than_the_one_just_moved_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(0, 2): "L0", (1, 2): "T1", (1, 1): "F1"}, turn="0"), "B0")
    assert "only the stack just moved" in refused(s, Favour(card("T1")), "A11")


def test_a10_a_favour_in_ones_own_column_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1"}, turn="0"), "L0")
    assert "own column" in refused(s, Favour(card("F0")), "A10")
    # The stack just moved, on the favour's row, is of one's own column too: refused for
    # its column, not for its rank.
    assert "own column" in refused(s, Favour(card("L0")), "A10")


def test_a10_a_favour_on_a_start_is_refused(position: Builder, card: CardOf, play: Play) -> None:
    s = play(position({(1, 1): "T1"}, turn="0"), "L0")
    assert "Start" in refused(s, Favour(card("F1")), "A10")


def test_a10_a_favour_on_a_removed_card_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1"}, turn="0", removed={1: "F1"}), "L0")
    assert "removed" in refused(s, Favour(card("F1")), "A10")


def test_a10_a_second_favour_beyond_the_limit_is_refused(
    position: Builder, card: CardOf, play: Play
) -> None:
    s = play(position({(1, 1): "T1", (2, 1): "F2"}, players=3, turn="0"), "L0", "xT1")
    assert "at most 1" in refused(s, Favour(card("F2")), "A10")


def test_a10_a_favour_by_a_just_flipped_stack_is_refused_when_switched_off(
    position: Builder, card: CardOf, play: Play
) -> None:
    """A10, option favour_after_arrival=False: T0 arrives (and flips) on row 3 next to F1;
    no favour step follows, so taking F1 is refused: no favour is pending (A11)."""
    s = position({(0, 2): "T0", (1, 3): "F1"}, turn="0", options="favour_after_arrival=false")
    after = play(s, "T0")
    assert ascent.is_flipped(after, card("T0"))
    assert not ascent.pending_favour(after)
    assert "no favour is pending" in refused(after, Favour(card("F1")), "A11")


# --------------------------------------------------------------------------- turns


def test_a3_ending_a_turn_before_any_advance_is_refused() -> None:
    s = ascent.new_game(2, first_player=0)
    refused(s, EndTurn(), "A3")


def test_a3_a_move_from_the_wrong_seat_is_refused(card: CardOf) -> None:
    s = ascent.new_game(3, first_player=0)
    assert "seat 0's turn" in refused(s, Advance(card("P1")), "A3", seat=1)
    # the right seat is accepted
    ascent.apply(s, Advance(card("P0")), seat=0)


def test_a14_acting_after_the_end_is_refused(position: Builder, card: CardOf, play: Play) -> None:
    arrival = {"P": 7, "B": 6, "L": 5, "C": 4, "T": 3}
    cells = {(0, a): f"*{x}0" for x, a in arrival.items()}
    s = play(position({**cells, (0, 1): "F0"}, turn="0"), "F0")
    assert ascent.is_over(s)
    refused(s, Advance(card("P1")), "A14")
    refused(s, EndTurn(), "A14")
    refused(s, Advance(card("P1")), "A14", seat=1)


def test_illegal_moves_are_rules_errors() -> None:
    assert issubclass(IllegalMove, RulesError)


# --------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("players", [0, 1, 7, "4", True, None, 2.0])
def test_bad_player_counts_name_the_allowed_range(players: object) -> None:
    with pytest.raises(ValueError, match=r"2\.\.6"):
        ascent.new_game(players)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"rules": "default"}, "Rules"),
        ({"seed": "7"}, r"whole number in 0\.\.2\^64-1"),
        ({"seed": 1.5}, r"whole number in 0\.\.2\^64-1"),
        ({"seed": -1}, r"whole number in 0\.\.2\^64-1"),
        ({"first_player": 4}, r"0\.\.3"),
        ({"first_player": -1}, r"0\.\.3"),
        ({"first_player": True}, r"0\.\.3"),
    ],
)
def test_bad_new_game_arguments(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(ArgumentError, match=needle):
        ascent.new_game(4, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"squares": 5}, r"6\.\.20"),
        ({"squares": "7"}, r"6\.\.20"),
        ({"arrival": (2, 3, 4, 5, 6)}, "strictly increasing"),
        ({"arrival": (3, 2, 4, 5, 6, 7)}, "strictly increasing"),
        ({"arrival": (0, 2, 3, 4, 5, 6)}, ">= 1"),
        ({"arrival": (2, 3, 4, 5, 6, 8)}, r"1\.\.7"),
        ({"upper_half": 0}, "1..squares"),
        ({"upper_half": 8}, r"1\.\.7"),
        ({"allow_exposing_split": 1}, "True or False"),
        ({"favours_per_move": 0}, "None or an int >= 1"),
        ({"favour_after_arrival": None}, "True or False"),
        ({"removal_in_lower_half": "no"}, "True or False"),
        ({"last_player_continues": 0}, "True or False"),
        ({"die": "movement"}, "first_player, none"),
        ({"protection": "yes"}, "True or False"),
        ({"colour": "red"}, "the options are: squares, arrival"),
    ],
)
def test_bad_options_name_the_allowed_values(options: dict[str, object], needle: str) -> None:
    with pytest.raises(ArgumentError, match=needle):
        Rules(**options)


@pytest.mark.parametrize("name", ["ORIGINAL", "default", ["DEFAULT"], {}, None, 1, ("DEFAULT",)])
def test_unknown_preset_names_the_presets(name: object) -> None:
    with pytest.raises(ArgumentError, match="the presets are: DEFAULT, GENEROUS, HARSH"):
        Rules.preset(name)  # type: ignore[arg-type]
    assert Rules.preset("DEFAULT") == Rules()


@pytest.mark.parametrize("args", [(7,), (Rules(),), ("squares",)])
def test_rules_take_options_by_name_only(args: tuple[object, ...]) -> None:
    with pytest.raises(ArgumentError, match="by name"):
        Rules(*args)  # type: ignore[call-arg]


def test_bad_query_arguments(card: CardOf) -> None:
    s = ascent.new_game(2, first_player=0)
    with pytest.raises(ArgumentError, match=r"0\.\.1"):
        ascent.stack_at(s, 2, 0)
    with pytest.raises(ArgumentError, match=r"0\.\.7"):
        ascent.stack_at(s, 0, 8)
    with pytest.raises(ArgumentError, match=r"0\.\.1"):
        ascent.removed(s, -1)
    with pytest.raises(ArgumentError, match=r"0\.\.1"):
        ascent.observation(s, 5)
    with pytest.raises(ArgumentError, match="not in play"):
        ascent.where(s, card("P3"))
    with pytest.raises(ArgumentError, match="Card"):
        ascent.is_flipped(s, "P0")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=">= 0"):
        ascent.perft(s, -1)
    with pytest.raises(ArgumentError, match=r"1\.\.6"):
        Rules().arrival_of(7)
    with pytest.raises(ArgumentError, match=r"0\.\.5"):
        Card(6, Rank.LADY)
    with pytest.raises(ArgumentError, match="Rank"):
        Card(0, 4)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="Card"):
        Advance("L0")  # type: ignore[arg-type]


def test_apply_refuses_what_is_not_a_move(card: CardOf) -> None:
    s = ascent.new_game(2, first_player=0)
    with pytest.raises(ArgumentError, match="Advance, Favour and EndTurn"):
        ascent.apply(s, "L0")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="seat must be an int"):
        ascent.apply(s, Advance(card("L0")), seat="1")  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, "0", 2, -1, 99])
def test_apply_checks_the_seat_before_the_turn(
    seat: object, position: Builder, card: CardOf, play: Play
) -> None:
    """A bad seat is a bad argument naming 0..n-1, not a move out of turn (A3) nor one
    after the end (A14)."""
    s = ascent.new_game(2, first_player=0)
    with pytest.raises(ArgumentError, match=r"seat must be an int in 0\.\.1"):
        ascent.apply(s, Advance(card("L0")), seat=seat)  # type: ignore[arg-type]
    arrival = {"P": 7, "B": 6, "L": 5, "C": 4, "T": 3}
    cells = {(0, a): f"*{x}0" for x, a in arrival.items()}
    over = play(position({**cells, (0, 1): "F0"}, turn="0"), "F0")
    assert ascent.is_over(over)
    with pytest.raises(ArgumentError, match=r"seat must be an int in 0\.\.1"):
        ascent.apply(over, EndTurn(), seat=seat)  # type: ignore[arg-type]


def test_equal_but_distinct_move_objects_are_accepted() -> None:
    """Moves compare by value: a freshly built Advance works like the engine's own."""
    s = ascent.new_game(2, first_player=0)
    mine = Advance(Card(0, Rank.LADY))
    assert mine in ascent.legal_moves(s)
    assert ascent.apply(s, mine) == ascent.apply(s, ascent.parse_move(s, "L0"))


# --------------------------------------------------------------------------- wrong types


def _wrong_typed_calls() -> list[tuple[str, Callable[[], object]]]:
    """Every public function and constructor of ascent, each argument in turn replaced
    by values of the wrong type (or out of range)."""
    s = ascent.new_game(2, first_player=0)
    lady = Card(0, Rank.LADY)
    move = Advance(lady)
    after = ascent.apply(s, move)
    rules = Rules()
    states = (None, "x", 7, 1.5, object(), rules, [], ascent.to_text(s))
    moves = (None, "L0", 7, object(), lady, Rank.LADY)
    cards = (None, "L0", 0, object(), move, Rank.LADY)
    seats = (None, "0", 1.5, True, -1, 2, object())
    squares = (None, "0", 1.5, True, -1, 8)
    texts = (None, 7, b"L0", [], s)
    ranks = (None, "P", 0, 7, 1.5, True, object(), lady)
    ints = (None, "4", 1.5, True, [], object())
    not_rules = (None, "x", 7, object(), {}, s, ascent.State)
    table: list[
        tuple[str, Callable[..., object], tuple[object, ...], dict[int, tuple[object, ...]]]
    ]
    table = [
        (
            "new_game",
            ascent.new_game,
            (2, rules, 0, 0),
            {
                0: (None, "2", 1.5, True, 1, 7),
                1: not_rules[1:],
                2: (None, "1", 1.5, True),
                3: ("1", 1.5, True, -1, 2),
            },
        ),
        ("apply", ascent.apply, (s, move), {0: states, 1: moves}),
        ("describe", ascent.describe, (s, move, after), {0: states, 1: moves, 2: states}),
        ("perft", ascent.perft, (s, 1), {0: states, 1: (None, "1", 1.5, True, -1)}),
        ("observation", ascent.observation, (s, 0), {0: states, 1: seats}),
        ("where", ascent.where, (s, lady), {0: states, 1: cards}),
        ("owner_of", ascent.owner_of, (s, lady), {0: states, 1: cards}),
        (
            "deal_of",
            ascent.deal_of,
            (rules, 2, 0),
            {0: not_rules, 1: (None, "2", 1.5, 1, 7), 2: (None, "0", 1.5, -1)},
        ),
        ("is_flipped", ascent.is_flipped, (s, lady), {0: states, 1: cards}),
        ("stack_at", ascent.stack_at, (s, 0, 0), {0: states, 1: seats, 2: squares}),
        ("removed", ascent.removed, (s, 0), {0: states, 1: seats}),
        ("parse_move", ascent.parse_move, (s, "L0"), {0: states, 1: texts}),
        ("from_text", ascent.from_text, (ascent.to_text(s),), {0: texts}),
        ("arrival", ascent.arrival, (rules, Rank.LADY), {0: not_rules, 1: ranks}),
        ("Rules.preset", Rules.preset, ("DEFAULT",), {0: (None, 7, [], {}, ("DEFAULT",))}),
        ("Rules.arrival_of", rules.arrival_of, (Rank.LADY,), {0: ranks}),
        ("Rules.in_upper_half", rules.in_upper_half, (4,), {0: ints}),
        ("Rules.removal_applies", rules.removal_applies, (4,), {0: ints}),
        ("Rules.advance_bound", rules.advance_bound, (4,), {0: (*ints, 0, 1, 7)}),
        ("Card", Card, (0, Rank.LADY), {0: (None, "0", 1.5, True, -1, 6), 1: ranks}),
        ("Advance", Advance, (lady,), {0: cards}),
        ("Favour", Favour, (lady,), {0: cards}),
        ("Rank", Rank, (4,), {0: (None, "P", 0, 7, 1.5, object(), lady)}),
        ("Rank.from_letter", Rank.from_letter, ("L",), {0: (None, "Q", "l", "", 4, [])}),
        ("Rules", Rules, (), {}),
    ]
    for name in ("current_player", "legal_moves", "is_over", "scores", "winners"):
        table.append((name, getattr(ascent, name), (s,), {0: states}))
    table += [
        ("to_text", ascent.to_text, (s,), {0: states}),
        ("pending_favour", ascent.pending_favour, (s,), {0: states}),
        ("svg", ascent.svg, (s,), {0: states}),
    ]
    calls: list[tuple[str, Callable[[], object]]] = []
    for name, function, args, bad in table:
        function(*args)  # the valid call works
        for index, values in bad.items():
            for value in values:
                wrong = (*args[:index], value, *args[index + 1 :])
                label = f"{name}({', '.join(repr(a)[:20] for a in wrong)})"
                calls.append((label, lambda f=function, a=wrong: f(*a)))
    calls.append(("Rules(7)", lambda: Rules(7)))  # type: ignore[call-arg]
    calls.append(("Rules(squares='7')", lambda: Rules(squares="7")))
    calls.append(("svg(caption=5)", lambda: ascent.svg(s, caption=5)))  # type: ignore[arg-type]
    calls.append(("apply(seat=1.0)", lambda: ascent.apply(s, move, seat=1.0)))  # type: ignore[arg-type]
    return calls


WRONG_TYPED = _wrong_typed_calls()


@pytest.mark.parametrize(("label", "call"), WRONG_TYPED, ids=[label for label, _ in WRONG_TYPED])
def test_wrong_typed_arguments_raise_rules_errors_only(
    label: str, call: Callable[[], object]
) -> None:
    """Every public function refuses a wrong-typed argument with a RulesError (an
    ArgumentError, a NotationError for text, or an IllegalMove for a real move that does
    not fit), never an AttributeError or TypeError from inside the engine."""
    with pytest.raises(RulesError):
        call()


def test_every_public_function_is_called_with_wrong_types_here() -> None:
    """A public function added to ascent later must join the wrong-typed table above."""
    called = {label.split("(")[0].split(".")[0] for label, _call in WRONG_TYPED}
    for name in ascent.__all__:
        thing = getattr(ascent, name)
        if callable(thing) and name not in ("State", "Move", "EndTurn"):
            assert name in called, name


def test_a_wrong_state_says_what_was_expected() -> None:
    with pytest.raises(
        ArgumentError, match=r"must be a castlerules\.ascent\.state\.State, not None"
    ):
        ascent.apply(None, EndTurn())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="State"):
        ascent.legal_moves("x")  # type: ignore[arg-type]
