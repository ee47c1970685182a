"""The errors every game raises.

``RulesError`` is the base of everything the engine raises on purpose.  A
caller that catches it catches every refusal of the engine and nothing else.
"""

from __future__ import annotations

import attrs

from castlerules.core.clauses import CLAUSES


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalMove(RulesError):
    """A move the rules forbid in this position.

    ``clause`` is the ID of the seed clause that forbids it (``"B7"``,
    ``"A6"``...).  Acting out of turn cites the clause that sets the turn
    order of that phase, acting after the end cites the clause that ends the
    game.  The message speaks to a player and ends with the clause in
    brackets; an unknown clause ID is a programming error (``ValueError``).

    ``refusal`` names the kind of refusal (``"ascent-ceiling"``), one per way a move
    can be illegal (the casebook lists them: ``castlerules.casebook.refusals``); tools
    key refusals on it, never on the words of the message.
    """

    clause: str
    refusal: str | None

    def __init__(self, message: str, clause: str, refusal: str | None = None) -> None:
        if clause not in CLAUSES:
            raise ValueError(f"IllegalMove must cite a known clause, not {clause!r}")
        suffix = f"({clause})"
        if not message.endswith(suffix):
            message = f"{message} {suffix}"
        super().__init__(message)
        self.clause = clause
        self.refusal = refusal

    def __reduce__(self) -> tuple[type[IllegalMove], tuple[str, str, str | None]]:
        return (type(self), (str(self), self.clause, self.refusal))


@attrs.frozen(slots=True)
class EngineRefusal:
    """A refusal an engine gives that no guard of its game's kernel names (the kernel's
    guards name the others, :class:`castlerules.core.ops.Guard`): a finer one of a guard
    (``within``: that guard's refusal name, when the engine says more precisely why the
    move breaks it), or one outside the kernel's moves (the seat argument of ``apply``, a
    question the notation has no move for).  A game lists its own (Ascent's:
    :data:`castlerules.ascent.refusals.ENGINE_REFUSALS`); the catalogue
    (:mod:`castlerules.casebook.refusals`) reads them with the guards.

    >>> EngineRefusal("ascent-moves-down", "A4").within is None
    True
    """

    refusal: str
    """Its name (:attr:`IllegalMove.refusal`)."""
    clause: str
    within: str | None = None
    """The refusal of the kernel's guard it refines (None: no guard of the kernel)."""


class NotationError(RulesError, ValueError):
    """A position or move text that cannot be read.

    ``text`` is the text given, ``index`` the 0-based character offset where
    reading failed (``None`` when the whole text is at fault).
    """

    text: str
    index: int | None

    def __init__(self, message: str, text: str = "", index: int | None = None) -> None:
        where = f" at character {index}" if index is not None else ""
        super().__init__(f"{message}{where}")
        self.text = text
        self.index = index

    def __reduce__(self) -> tuple[type[NotationError], tuple[str, str, int | None]]:
        # Rebuild from the plain message so that pickling round-trips.
        err = str(self)
        if self.index is not None:
            err = err.removesuffix(f" at character {self.index}")
        return (type(self), (err, self.text, self.index))


class ArgumentError(RulesError, ValueError):
    """A bad argument to the engine (``players=9``, an unknown option...).

    It is a ``ValueError``, so ``except ValueError`` works as the contract
    promises; the message names the allowed values.
    """
