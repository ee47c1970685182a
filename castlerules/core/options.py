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
