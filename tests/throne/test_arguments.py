"""Wrong-typed arguments to every public function: a typed RulesError, never a traceback.

Each public function is called with its valid arguments, one of them replaced
by a value of the wrong type (another game's object, an Observation where a
State is expected, a bool where a whole number is expected...).  The call must
raise a :class:`~castlerules.core.RulesError` (ArgumentError or, for text,
NotationError); nothing else may come out, and nothing may be silently
accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from castlerules.core import ArgumentError, NotationError, RulesError
from castlerules.throne import (
    Climb,
    Observation,
    Place,
    Rules,
    State,
    Vote,
    apply,
    candidate,
    castle_points,
    current_player,
    describe,
    floor_of,
    from_text,
    is_eliminated,
    is_over,
    king,
    legal_moves,
    new_game,
    no_cards,
    objective,
    objectives_of_round,
    observation,
    parse_move,
    perft,
    phase,
    round_of,
    round_scores,
    scores,
    svg,
    to_text,
    totals,
    winners,
)
from castlerules.throne import __all__ as PUBLIC
from castlerules.throne.notation import parse_rules, rules_text

# An election (seat 0 to vote), so that every query has something to answer: the
# ``electing`` position of conftest.py (3 players, ``fill_3p`` then "M+ M+ M+"), written
# out because the cases below are listed when the module is collected, before fixtures.
STATE = from_text(
    "throne SEED 3 1 election 0 ABCD/EFGH/IJKL/-/-/-/M - 4/4/4 ... 0 "
    "ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK - -"
)
AFTER = apply(STATE, Vote(True))
VIEW = observation(STATE, 0)


class Foreign:
    """An object with a State's field names but none of its meaning."""

    rules = Rules()
    players = 3
    round = 1
    phase = 1
    turn = 0
    floors = (1,) * 13
    counts = (0, 13, 0, 0, 0, 0, 0, 0)
    no_cards = (4, 4, 4)
    votes = ()
    passes = 0
    objectives = ((1, 2, 3),) * 3
    results = ()
    kings = ()


# The wrong values for each kind of parameter.
WRONG: dict[str, tuple[object, ...]] = {
    "state": (
        None,
        "x",
        0,
        1.5,
        True,
        b"x",
        object(),
        [],
        VIEW,
        Rules(),
        Vote(True),
        to_text(STATE),
        Foreign(),
    ),
    "int": (None, "0", "1", 1.0, True, False, b"1", object(), [1], VIEW),
    "round": ("1", 1.0, True, False, b"1", object(), [1], 0, 4),
    "seat": ("0", 0.0, 1.0, True, False, b"0", object(), [0], 9, -1, 3),
    "character": (None, 0, 1.5, True, b"A", object(), ["A"], ("A",)),
    "characters": (None, 0, 1.5, True, b"A", object(), ["A", 7], "AZ", ("A", None)),
    "text": (None, 0, b"yes", object(), ["yes"], STATE),
    "move": (None, "yes", "A1", 0, True, object(), STATE, VIEW, (Place, "A", 1)),
    "bool": (None, 1, 0, "yes", object(), 1.0),
    "rules": ("SEED", 0, True, object(), VIEW, Rules),
    "objectives": ("ABCDEF", 0, object(), [[1, 2, 3]] * 3, [["ABCDEF"] * 3] * 3, None.__class__),
    "option": ("x", 1.5, b"x", object(), [object()], {"a": 1}),
}

# Every public call: (name, function, valid arguments, the kind of each argument).
CALLS: list[tuple[str, Callable[..., Any], tuple[object, ...], tuple[str, ...]]] = [
    ("new_game", new_game, (3, None, 0, None), ("int", "rules", "int", "objectives")),
    ("current_player", current_player, (STATE,), ("state",)),
    ("legal_moves", legal_moves, (STATE,), ("state",)),
    ("apply", apply, (STATE, Vote(True)), ("state", "move")),
    (
        "apply(seat=)",
        lambda s, m, seat: apply(s, m, seat=seat),
        (STATE, Vote(True), 0),
        ("state", "move", "seat"),
    ),
    ("is_over", is_over, (STATE,), ("state",)),
    ("scores", scores, (STATE,), ("state",)),
    ("totals", totals, (STATE,), ("state",)),
    ("winners", winners, (STATE,), ("state",)),
    ("round_scores", round_scores, (STATE,), ("state",)),
    ("phase", phase, (STATE,), ("state",)),
    ("round_of", round_of, (STATE,), ("state",)),
    ("candidate", candidate, (STATE,), ("state",)),
    ("king", king, (AFTER, 1), ("state", "round")),
    ("objectives_of_round", objectives_of_round, (STATE, 1), ("state", "int")),
    ("floor_of", floor_of, (STATE, "A"), ("state", "character")),
    ("castle_points", castle_points, (STATE, "AB"), ("state", "characters")),
    ("is_eliminated", is_eliminated, (STATE, "A"), ("state", "character")),
    ("no_cards", no_cards, (STATE, 0), ("state", "int")),
    ("objective", objective, (STATE, 0), ("state", "int")),
    ("observation", observation, (STATE, 0), ("state", "int")),
    ("perft", perft, (STATE, 1), ("state", "int")),
    ("to_text", to_text, (STATE,), ("state",)),
    ("from_text", from_text, (to_text(STATE),), ("text",)),
    ("parse_move", parse_move, (STATE, "yes"), ("state", "text")),
    ("describe", describe, (STATE, Vote(True), AFTER), ("state", "move", "state")),
    ("Place", Place, ("A", 1), ("character", "int")),
    ("Climb", Climb, ("A",), ("character",)),
    ("Vote", Vote, (True,), ("bool",)),
    ("Rules.preset", Rules.preset, ("SEED",), ("text",)),
    ("Rules.capacity", Rules().capacity, (1,), ("int",)),
    ("Rules.points_of", Rules().points_of, (1,), ("int",)),
    ("Rules.no_cards_for", Rules().no_cards_for, (3,), ("int",)),
    ("Rules.placements_for", Rules().placements_for, (3,), ("int",)),
    ("Rules.bonus_applies", Rules().bonus_applies, (3,), ("int",)),
    ("Rules.check_players", Rules().check_players, (3,), ("int",)),
    ("Rules.max_round_score", Rules().max_round_score, (3,), ("int",)),
    ("parse_rules", parse_rules, ("SEED",), ("text",)),
    ("rules_text", rules_text, (Rules(),), ("rules",)),
    ("svg", svg, (STATE,), ("state",)),
]


def cases() -> list[tuple[str, Callable[..., Any], tuple[object, ...]]]:
    out = []
    for name, function, valid, kinds in CALLS:
        for k, kind in enumerate(kinds):
            for w, wrong in enumerate(WRONG[kind]):
                args = (*valid[:k], wrong, *valid[k + 1 :])
                # The id names the wrong value by its kind and index, never by its
                # repr: a repr holding an address would differ between xdist workers.
                out.append((f"{name}[{k}]={kind}#{w}", function, args))
    return out


def test_the_valid_arguments_are_valid() -> None:
    for _name, function, valid, _kinds in CALLS:
        function(*valid)


@pytest.mark.parametrize(("call", "function", "args"), cases(), ids=[c[0] for c in cases()])
def test_a_wrong_typed_argument_is_a_rules_error(
    call: str, function: Callable[..., Any], args: tuple[object, ...]
) -> None:
    with pytest.raises(RulesError) as info:
        function(*args)
    assert isinstance(info.value, ArgumentError | NotationError), call


def test_a_wrong_state_names_what_was_expected() -> None:
    for thing in ("x", VIEW, None):
        with pytest.raises(ArgumentError, match=r"state must be a castlerules\.throne"):
            legal_moves(thing)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match=r"state must be a castlerules\.throne"):
            apply(thing, Place("A", 1))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="before must be"):
        describe(VIEW, Vote(True), AFTER)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="after must be"):
        describe(STATE, Vote(True), VIEW)  # type: ignore[arg-type]


def test_every_option_refuses_wrong_types() -> None:
    for option in attrs.fields(Rules):
        for wrong in WRONG["option"]:
            with pytest.raises(ArgumentError, match=option.name):
                Rules(**{option.name: wrong})


def test_rules_take_options_by_name_only() -> None:
    """Rules(7) is an ArgumentError that says how options are given."""
    with pytest.raises(ArgumentError, match="by name"):
        Rules(7)  # type: ignore[call-arg]
    with pytest.raises(ArgumentError, match="by name"):
        Rules("SEED", allow_pass=True)  # type: ignore[call-arg]


def test_every_public_function_is_called_here() -> None:
    """A public function added later must be added to CALLS."""
    called = {name.split("(")[0].split(".")[0] for name, *_ in CALLS}
    from castlerules import throne

    for name in PUBLIC:
        thing = getattr(throne, name)
        if callable(thing) and name not in ("State", "Observation", "Pass", "Move"):
            assert name in called, name
    # State and Observation are plain values built by the engine; Pass takes no argument.
    assert Observation is type(VIEW)


def test_the_state_is_the_election_of_the_shared_fixture(electing: State) -> None:
    """STATE is written out; it must stay the ``electing`` position of conftest.py."""
    assert electing == STATE
