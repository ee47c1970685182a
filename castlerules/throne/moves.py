"""The moves of Throne: place, climb, vote, and pass where the rules allow it.

A move is an immutable value; ``str(move)`` is its notation and
:func:`castlerules.throne.parse_move` reads it back:

- ``Place("C", 3)`` is ``"C3"``: put character C on floor 3 (placement phase, B6);
- ``Climb("C")`` is ``"C+"``: move character C up one floor (movement phase, B8);
- ``Vote(True)`` is ``"yes"``, ``Vote(False)`` is ``"no"`` (election, B11);
- ``Pass()`` is ``"pass"`` (movement phase, only with ``Rules(allow_pass=True)``).

>>> str(Place("C", 3)), str(Climb("C")), str(Vote(False)), str(Pass())
('C3', 'C+', 'no', 'pass')
>>> Place("C", 3) == Place("C", 3)
True

A move names a character by its letter and is checked against a position
only by :func:`castlerules.throne.apply`, so ``Place("C", 6)`` can be built
and is then refused there with the clause it breaks (B6).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs

from castlerules.core.errors import ArgumentError

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Character names: the first ``Rules.characters`` letters of this alphabet."""


def _check_character(_instance: Any, _attribute: Any, value: Any) -> None:
    if not isinstance(value, str):
        raise ArgumentError(
            f"a character is a capital letter such as 'C', not {type(value).__name__}"
        )


def _check_floor(_instance: Any, _attribute: Any, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"a floor is a whole number such as 3, not {value!r}")


def _check_yes(_instance: Any, _attribute: Any, value: Any) -> None:
    if not isinstance(value, bool):
        raise ArgumentError(f"a vote is yes=True or yes=False, not {value!r}")


@attrs.frozen(slots=True)
class Place:
    """Placement phase (B6): put ``character`` (a letter) on ``floor``."""

    character: str = attrs.field(validator=_check_character)
    floor: int = attrs.field(validator=_check_floor)

    def __str__(self) -> str:
        return f"{self.character}{self.floor}"


@attrs.frozen(slots=True)
class Climb:
    """Movement phase (B8): move ``character`` up one floor."""

    character: str = attrs.field(validator=_check_character)

    def __str__(self) -> str:
        return f"{self.character}+"


@attrs.frozen(slots=True)
class Vote:
    """Election (B11): the seat to act plays a Yes (``yes=True``) or a No card."""

    yes: bool = attrs.field(validator=_check_yes)

    def __str__(self) -> str:
        return "yes" if self.yes else "no"


@attrs.frozen(slots=True)
class Pass:
    """Movement phase: move nothing (only with ``Rules(allow_pass=True)``)."""

    def __str__(self) -> str:
        return "pass"


Move: TypeAlias = Place | Climb | Vote | Pass
"""Any Throne move."""

YES = Vote(True)
NO = Vote(False)
PASS = Pass()
CLIMBS: tuple[Climb, ...] = tuple(Climb(letter) for letter in ALPHABET)
"""``CLIMBS[i]`` climbs the character with index ``i`` (shared, immutable)."""
PLACES: tuple[tuple[Place, ...], ...] = tuple(
    tuple(Place(letter, floor) for floor in range(8)) for letter in ALPHABET
)
"""``PLACES[i][f]`` places the character with index ``i`` on floor ``f`` (shared)."""
