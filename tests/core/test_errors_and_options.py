"""Errors carry their clause and speak plainly; Rules options are checked by name."""

from __future__ import annotations

import pickle

import attrs
import pytest

from castlerules.core import ArgumentError, IllegalMove, NotationError, Note, RulesError
from castlerules.core.notation import check_text, expect_count, fields, integer
from castlerules.core.options import init_rules, validator


def test_illegal_move_cites_its_clause() -> None:
    err = IllegalMove("Character C cannot go to floor 6: placement is on floors 1-5 only", "B6")
    assert err.clause == "B6"
    assert str(err).endswith("(B6)")
    assert isinstance(err, RulesError)
    again = pickle.loads(pickle.dumps(err))
    assert (str(again), again.clause) == (str(err), "B6")


def test_illegal_move_refuses_an_unknown_clause() -> None:
    with pytest.raises(ValueError, match="known clause"):
        IllegalMove("nothing", "B99")


def test_notation_error_names_the_position() -> None:
    err = NotationError("bad floor", "A9", 1)
    assert isinstance(err, ValueError)
    assert isinstance(err, RulesError)
    assert str(err) == "bad floor at character 1"
    again = pickle.loads(pickle.dumps(err))
    assert (str(again), again.index, again.text) == (str(err), 1, "A9")


def test_notation_helpers() -> None:
    assert fields("a bb c") == [(0, "a"), (2, "bb"), (5, "c")]
    with pytest.raises(NotationError) as info:
        fields("a  b")
    assert info.value.index == 2
    with pytest.raises(NotationError, match="3 fields where 2"):
        expect_count(fields("a b c"), 2, "the move", "a b c")
    assert integer("12", 0, "12", 0, 20, "floor") == 12
    for bad in ("012", "-1", "x", "²"):
        with pytest.raises(NotationError):
            integer(bad, 0, bad, 0, 20, "floor")
    with pytest.raises(NotationError, match=r"in 0..5"):
        integer("7", 0, "7", 0, 5, "floor")
    with pytest.raises(NotationError, match="printable ASCII"):
        check_text("a\nb", "a move")
    with pytest.raises(NotationError, match="must be a str"):
        check_text(b"x", "a move")


@attrs.frozen(slots=True, init=False)
class _Demo:
    size: int = attrs.field(default=4, validator=validator(lambda v: 1 <= v <= 9, "in 1..9"))

    def __init__(self, **options: object) -> None:
        init_rules(self, options)


def test_rules_options_by_name() -> None:
    assert _Demo().size == 4
    assert _Demo(size=5).size == 5
    with pytest.raises(ArgumentError, match=r"unknown option 'sise'.*the options are: size"):
        _Demo(sise=5)
    with pytest.raises(ValueError, match=r"option size must be in 1..9, not 12"):
        _Demo(size=12)
    with pytest.raises(ValueError, match=r"option size must be in 1..9"):
        _Demo(size="x")


def test_note_is_a_value() -> None:
    note = Note("B8", "passing", "not allowed by default", "allow_pass")
    assert note == Note("B8", "passing", "not allowed by default", "allow_pass")


def test_huge_numbers_are_notation_errors() -> None:
    """Python refuses int() of very long strings; the reader must refuse them first."""
    huge = "9" * 5000
    with pytest.raises(NotationError, match="whole number"):
        integer(huge, 0, huge, 0, 20, "floor")


def test_require_names_the_expected_type() -> None:
    from castlerules.core import require

    require(3, int, "the depth")
    with pytest.raises(ArgumentError, match=r"the state must be a builtins.int, not None"):
        require(None, int, "the state")
