"""``--option name=value`` and the records' JSON options, typed by the Rules fields."""

from __future__ import annotations

import attrs
import pytest

from castlerules import ascent, options_text, throne
from castlerules.core import ArgumentError

RULES = [throne.Rules, ascent.Rules]


def test_text_values_by_field_type() -> None:
    parse = options_text.parse_assignment
    assert parse(throne.Rules, "allow_pass=yes") == ("allow_pass", True)
    assert parse(throne.Rules, "allow_pass=False") == ("allow_pass", False)
    assert parse(throne.Rules, "rounds=5") == ("rounds", 5)
    assert parse(throne.Rules, "placement_floors=2,3,4,5") == ("placement_floors", (2, 3, 4, 5))
    assert parse(throne.Rules, "placement_floors=[2, 3]") == ("placement_floors", (2, 3))
    assert parse(throne.Rules, "bonus_rounds=[]") == ("bonus_rounds", ())
    assert parse(throne.Rules, "objective_deck=none") == ("objective_deck", None)
    assert parse(throne.Rules, "objective_deck=ABCDEF,GHIJKL") == (
        "objective_deck",
        ("ABCDEF", "GHIJKL"),
    )
    assert parse(throne.Rules, 'objective_deck=["ABCDEF"]') == ("objective_deck", ("ABCDEF",))
    assert parse(ascent.Rules, "favours_per_move=none") == ("favours_per_move", None)
    assert parse(ascent.Rules, "favours_per_move=2") == ("favours_per_move", 2)
    assert parse(ascent.Rules, "die=none") == ("die", "none")


@pytest.mark.parametrize(
    ("rules", "text", "message"),
    [
        (throne.Rules, "allow_pass=maybe", "option allow_pass must be true or false, not 'maybe'"),
        (throne.Rules, "rounds=three", "option rounds must be an integer, not 'three'"),
        (throne.Rules, "rounds=", "option rounds must be an integer, not ''"),
        (throne.Rules, "points=1,x", "option points must be a list of (an integer)"),
        (ascent.Rules, "favours_per_move=lots", "must be an integer or none"),
        (throne.Rules, "alow_pass=true", "unknown option 'alow_pass'; the options are: "),
        (throne.Rules, "allow_pass", "an option is written name=value"),
        (throne.Rules, "=true", "an option is written name=value"),
        (throne.Rules, "points=[1,2", "option points must be"),
    ],
)
def test_bad_text_names_the_option_and_what_is_expected(
    rules: type, text: str, message: str
) -> None:
    with pytest.raises(ArgumentError) as info:
        options_text.parse_assignment(rules, text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("rules_cls", RULES)
def test_every_option_of_every_preset_round_trips_as_text_and_json(rules_cls: type) -> None:
    presets = [rules_cls.preset(name) for name in rules_cls.PRESETS]  # type: ignore[attr-defined]
    for rules in presets:
        for field in attrs.fields(rules_cls):
            value = getattr(rules, field.name)
            text = options_text.to_text(value)
            assert options_text.parse_value(rules_cls, field.name, text) == value
            data = options_text.to_json(value)
            assert options_text.from_json(rules_cls, field.name, data) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("allow_pass", "true"),
        ("allow_pass", 1),
        ("rounds", True),
        ("rounds", 2.5),
        ("points", [1, "2"]),
        ("objective_deck", "ABCDEF"),
    ],
)
def test_json_values_must_have_the_field_type(name: str, value: object) -> None:
    with pytest.raises(ArgumentError, match=f"option {name} must be"):
        options_text.from_json(throne.Rules, name, value)
