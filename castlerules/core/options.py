"""Rules objects: options by name, checked, with clear errors for bad values.

Each game's ``Rules`` is a frozen attrs class declared with ``init=False``
whose ``__init__`` calls :func:`init_rules`, so that an unknown option name
raises :class:`ArgumentError` (a ``ValueError``) listing the known ones,
instead of a bare ``TypeError``.  Interpretation choices the engine makes
where the seed and the spec are silent are recorded as :class:`Note` values
next to the rules they concern, so the documentation can list them by clause.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from castlerules.core.errors import ArgumentError


def init_rules(self: Any, options: dict[str, object]) -> None:
    """Check option names, then run the attrs-generated initialiser."""
    cls = type(self)
    names = [f.name for f in attrs.fields(cls) if f.init]
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise ArgumentError(
            f"unknown option {unknown[0]!r} for {cls.__module__}.{cls.__qualname__}; "
            f"the options are: {', '.join(names)}"
        )
    self.__attrs_init__(**options)


def check(condition: bool, message: str) -> None:
    """Raise :class:`ArgumentError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ArgumentError(message)


def validator(test: Callable[[Any], bool], allowed: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator that names the option and the allowed values on failure."""

    def run(_instance: Any, attribute: Any, value: Any) -> None:
        ok = False
        try:
            ok = bool(test(value))
        except (TypeError, ValueError, AttributeError):
            ok = False
        if not ok:
            raise ArgumentError(f"option {attribute.name} must be {allowed}, not {value!r}")

    return run


@attrs.frozen(slots=True)
class Note:
    """An interpretation decision: where the seed and the spec are silent, what we chose.

    ``clause`` is the seed clause concerned, ``option`` the ``Rules`` option
    that switches it (``None`` when the choice is fixed).
    """

    clause: str
    topic: str
    decision: str
    option: str | None = None
    refuses: tuple[tuple[str, str], ...] = ()
    """The refusals whose clause the note promises: for each, its name (the engine's
    ``IllegalMove.refusal``, a kernel guard's name) and words of the sentence of
    ``decision`` that cites the clause.  The catalogue of refusals
    (``castlerules.casebook.refusals``) reads them."""


@attrs.frozen(slots=True)
class Option:
    """The one declaration of one option of a game's ``Rules``.

    Everything that names an option reads it from here: the register (its
    alternative readings, or why it has none), the kernel (the field of its
    ``Options`` that reads it, and how), the command line and the adapters (its
    values), the study's list and the options pages.  ``Rules.OPTIONS`` holds one
    per field of the game's ``Rules``, in field order.

    >>> Option("allow_pass", ("B8",), "a player may pass", kernel=bool).kernel(False)
    False
    """

    name: str
    """The option's one spelling: the ``Rules`` field, the ``--option`` name, the key of
    a game record, the field of the kernel's ``Options`` that reads it (if any)."""
    clauses: tuple[str, ...]
    """The seed clauses it concerns, the first one the clause it reads."""
    summary: str
    """What its values mean, in one sentence a player understands."""
    seed: str = ""
    """The seed's words it reads (French, quoted); empty for a number of the material."""
    values: tuple[object, ...] | None = None
    """Its values when they are a short list (the first one the default); None when the
    field's type says them (a number, a table)."""
    alternatives: tuple[object, ...] = ()
    """The register's readings of it besides the default and the presets' values (a
    flipped boolean and ``None`` for an optional number are always tried)."""
    fixed: str | None = None
    """Why the register never varies it (a number of the material, an option kept for
    the proofs); None when it does."""
    unplayable: tuple[object, str] | None = None
    """A value that names a reading of the seed the engine cannot play yet, and why."""
    kernel: Callable[[Any], int | bool] | None = None
    """How the kernel reads the option's value: a plain value of the kernel's
    ``Options`` field of the same name (None: the option is a size or a table of the
    kernel's shape, or a chance outcome)."""
    symbolic: str | None = None
    """The symbolic model's domain of it when left free (``"bool"``, ``"int 1..37"``);
    None when the symbolic model does not leave it free, with the reason in ``fixed``
    or in the proofs page."""
    notes: tuple[Note, ...] = ()
    """Its interpretation notes: the seed's words quoted, the readings, why the default
    reads it so (each note's ``option`` left None: :attr:`interpretation` fills it).  The
    game's ``NOTES`` gathers them after its notes on no option."""

    @property
    def interpretation(self) -> tuple[Note, ...]:
        """Its :attr:`notes`, each naming this option."""
        return tuple(attrs.evolve(note, option=self.name) for note in self.notes)


def declared(rules_cls: type) -> dict[str, Option]:
    """The declarations of a ``Rules`` class (``rules_cls.OPTIONS``), by name, in field
    order; ``ValueError`` when they are not exactly one per field."""
    options: tuple[Option, ...] = getattr(rules_cls, "OPTIONS", ())
    by_name = {option.name: option for option in options}
    fields = [f.name for f in attrs.fields(rules_cls)]
    if len(by_name) != len(options) or list(by_name) != fields:
        raise ValueError(
            f"{rules_cls.__qualname__}.OPTIONS must declare each field once, in field order: "
            f"{fields}, not {[o.name for o in options]}"
        )
    for option in options:
        strays = [n.topic for n in option.notes if n.option not in (None, option.name)]
        if strays:
            raise ValueError(f"option {option.name}'s notes name another option: {strays}")
    return by_name


def option_notes(rules_cls: type) -> tuple[Note, ...]:
    """The interpretation notes of a ``Rules`` class's options, in field order (each
    declaration's :attr:`Option.interpretation`)."""
    return tuple(note for option in declared(rules_cls).values() for note in option.interpretation)


def one_of(values: tuple[object, ...]) -> Callable[[Any, Any, Any], None]:
    """An attrs validator for an option whose values are ``values``."""
    shown = ", ".join(map(str, values))
    return validator(lambda v: v in values and not isinstance(v, bool), f"one of {shown}")
