"""A fast constructor for the engines' frozen states, made from the class itself.

Playing a move builds one state, so the state's constructor is the engines'
hot path.  attrs' frozen ``__init__`` must store each field through
``object.__setattr__``; :func:`builder` instead writes the fields with plain
attribute stores into an object of a twin class with the same memory layout
(the same slots, in order), then turns it into the frozen class by
``__class__`` assignment.  The result is a genuine instance, equal to
``cls(*fields)``, built faster (the figures: the docs' Measurements page).

The builder is generated from ``attrs.fields(cls)``, so it cannot drift from
the class: a field added, removed or reordered in the class changes the
builder with it.  Classes it would build wrongly are refused when the builder
is made: a field with a validator, a converter, a factory default or
``init=False`` (the builder would skip them), an ``__attrs_post_init__`` or
``__attrs_pre_init__``, a base class other than ``object``, or slots other
than exactly the fields (``weakref_slot=False``).

>>> import attrs
>>> @attrs.frozen(slots=True, weakref_slot=False)
... class Point:
...     x: int
...     y: int
>>> make = builder(Point)
>>> make(1, 2) == Point(1, 2), type(make(1, 2)) is Point
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def builder(cls: type[T], positional: int | None = None) -> Callable[..., T]:
    """``build(*fields)``: the same value as ``cls(*fields)``, faster.

    ``positional``: how many fields come first by position; the others are then
    keyword-only (``None``: every field by position).

    ``cls`` must be a slotted attrs class whose ``__init__`` only stores its
    arguments (see the module's docstring); anything else is a
    :class:`TypeError` here, not a wrong state later.
    """
    if not attrs.has(cls):
        raise TypeError(f"builder() needs an attrs class, not {cls!r}")
    fields = attrs.fields(cls)
    names = tuple(field.name for field in fields)
    if cls.__bases__ != (object,):
        raise TypeError(f"builder(): {cls.__name__} must derive from object only")
    if tuple(cls.__dict__.get("__slots__", ())) != names:
        raise TypeError(
            f"builder(): {cls.__name__} must be slotted with exactly its fields as slots "
            "(attrs.frozen(slots=True, weakref_slot=False))"
        )
    for hook in ("__attrs_post_init__", "__attrs_pre_init__"):
        if hasattr(cls, hook):
            raise TypeError(f"builder(): {cls.__name__} has {hook}, which the builder would skip")
    for field in fields:
        if (
            field.validator is not None
            or field.converter is not None
            or isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]
            or not field.init
            or field.alias != field.name
        ):
            raise TypeError(
                f"builder(): field {field.name!r} of {cls.__name__} has a validator, converter, "
                "factory, alias or init=False, which the builder would skip"
            )
    # The twin: the same slots in the same order, an ordinary __setattr__.
    twin = type(f"_{cls.__name__}Builder", (), {"__slots__": names, "__module__": cls.__module__})
    if positional is None or positional >= len(names):
        arguments = ", ".join(names)
    else:
        arguments = ", ".join((*names[:positional], "*", *names[positional:]))
    stores = "".join(f"    self.{name} = {name}\n" for name in names)
    source = (
        f"def build({arguments}):\n"
        "    self = _new(_twin)\n"
        f"{stores}"
        "    self.__class__ = _cls\n"
        "    return self\n"
    )
    namespace: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls}
    exec(compile(source, f"<builder of {cls.__qualname__}>", "exec"), namespace)
    build: Callable[..., T] = namespace["build"]
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    build.__module__ = cls.__module__
    build.__doc__ = f"``{cls.__name__}(*fields)``, faster (see castlerules.core.builder)."
    return build
