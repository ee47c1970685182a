"""castlerules.core.builder: the engines' fast state constructor, made from attrs.fields."""

from __future__ import annotations

import inspect
from typing import Any

import attrs
import pytest

from castlerules import ascent, throne
from castlerules.ascent.state import build_state as ascent_build
from castlerules.core import Rng
from castlerules.core.builder import builder
from castlerules.throne.state import build_state as throne_build

ENGINES: list[tuple[Any, Any]] = [(throne, throne_build), (ascent, ascent_build)]


@pytest.mark.parametrize(("game", "build"), ENGINES, ids=["throne", "ascent"])
def test_the_builder_takes_exactly_the_states_fields_in_order(game: Any, build: Any) -> None:
    """Generated from attrs.fields(State): it cannot drift from the class."""
    names = [field.name for field in attrs.fields(game.State)]
    assert list(inspect.signature(build).parameters) == names
    assert list(game.State.__slots__) == names


@pytest.mark.parametrize(("game", "build"), ENGINES, ids=["throne", "ascent"])
def test_the_builder_gives_the_same_frozen_state_along_random_games(game: Any, build: Any) -> None:
    rng = Rng.from_seed(5, "builder")
    for players in (3, 4):
        state = game.new_game(players, seed=players)
        for _ in range(80):
            moves = game.legal_moves(state)
            if not moves:
                break
            move, rng = rng.choice(moves)
            state = game.apply(state, move)
            fields = [getattr(state, f.name) for f in attrs.fields(game.State)]
            names = [f.name for f in attrs.fields(game.State)]
            by_name = dict(zip(names, fields, strict=True))
            built, plain = build(**by_name), game.State(*fields)
            assert type(built) is game.State
            assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
            assert [getattr(built, f.name) for f in attrs.fields(game.State)] == fields
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.rules = None


def test_the_builder_follows_a_changed_class() -> None:
    """A field added to the class is a parameter of its builder, stored in order."""

    @attrs.frozen(slots=True, weakref_slot=False)
    class Two:
        a: int
        b: str

    @attrs.frozen(slots=True, weakref_slot=False)
    class Three:
        a: int
        c: float
        b: str

    assert builder(Two)(1, "x") == Two(1, "x")
    assert builder(Three)(1, 2.5, "x") == Three(1, 2.5, "x")
    with pytest.raises(TypeError):
        builder(Two)(1, 2.5, "x")
    by_name = builder(Three, positional=1)
    assert by_name(1, c=2.5, b="x") == Three(1, 2.5, "x")
    with pytest.raises(TypeError):
        by_name(1, 2.5, "x")  # past the first field, by name only


def _refused(**field: Any) -> type:
    @attrs.frozen(slots=True, weakref_slot=False)
    class Bad:
        a: int = attrs.field(**field)

    return Bad


@pytest.mark.parametrize(
    "cls",
    [
        _refused(validator=attrs.validators.instance_of(int)),
        _refused(converter=int),
        _refused(factory=int),
        _refused(alias="other"),
    ],
    ids=["validator", "converter", "factory", "alias"],
)
def test_a_field_the_builder_would_skip_is_refused(cls: type) -> None:
    with pytest.raises(TypeError, match="builder"):
        builder(cls)


def test_classes_of_another_shape_are_refused() -> None:
    @attrs.frozen(slots=True)  # with a __weakref__ slot: another layout
    class Weak:
        a: int

    @attrs.frozen(slots=True, weakref_slot=False)
    class Hooked:
        a: int

        def __attrs_post_init__(self) -> None:
            pass

    @attrs.frozen(slots=True, weakref_slot=False)
    class Base:
        a: int

    @attrs.frozen(slots=True, weakref_slot=False)
    class Derived(Base):
        b: int

    @attrs.frozen(slots=False)
    class Dict:
        a: int

    class Plain:
        pass

    for cls in (Weak, Hooked, Derived, Dict, Plain):
        with pytest.raises(TypeError, match="builder"):
            builder(cls)
