"""Every kind of refusal the engines give: its clause, the note that says so, its case.

An :class:`~castlerules.core.IllegalMove` says in words what forbids a move, cites
one clause and names its kind (``refusal``).  Each *kind* of refusal (one way a move
can be illegal) is listed here once, by that name, with the clause it cites, the
interpretation note (``NOTES``) that promises that clause where the seed leaves the
choice open, and the casebook cases that show it.  Nothing here is written by hand: a
game's kinds are the names of its kernel's guards (:func:`castlerules.ascent.kernel.guards`,
each a :class:`~castlerules.core.ops.Guard` with its clause), then the refusals its engine
gives that no guard names (the game's ``ENGINE_REFUSALS``); a kind's note is the one
that declares it (:attr:`castlerules.core.Note.refuses`), its cases the casebook's
refusal cases that name it (:attr:`castlerules.casebook.declare.Case.refuses`).  So a
guard added to a kernel, with its note in the option's declaration, is a kind here with
no edit of this module.  The tests hold the three together: every refusal the engines
give over many games is of exactly one kind here and cites that kind's clause; the note
named says that clause in the sentence quoted; the case named refuses its move with that
kind and clause.

>>> from castlerules import IllegalMove, ascent
>>> state = ascent.from_text("P0B0L0F0,-,T1,T0,*C0,-,-,-/P1B1L1C1F1,-,-,-,-,-,-,- -/- 0 -")
>>> move = ascent.parse_move(state, "T1", check=False)
>>> try:
...     ascent.apply(state, move)
... except IllegalMove as err:
...     found = kind_of(ascent, state, move, err)
>>> found.key, found.clause, found.cases
('ascent-ceiling', 'A6', ('ascent-ceiling',))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.ascent import kernel as ascent_kernel
from castlerules.ascent import refusals as ascent_refusals
from castlerules.casebook import ascent_cases, throne_cases
from castlerules.casebook.declare import Case
from castlerules.core import IllegalMove, Note
from castlerules.core.errors import ArgumentError, EngineRefusal
from castlerules.core.ops import CONCRETE, Guard
from castlerules.throne import kernel as throne_kernel
from castlerules.throne import refusals as throne_refusals

__all__ = ["REFUSALS", "RefusalKind", "catalogue", "kind_of", "note_sentence"]


@attrs.frozen(slots=True)
class RefusalKind:
    """One way a move can be refused: the words of the refusal and the clause it cites."""

    key: str
    game: str
    clause: str
    note: tuple[str, str] | None = None
    """The interpretation note that promises the clause: its topic, and the words of the
    sentence that says it (None where the seed's clause speaks for itself)."""
    cases: tuple[str, ...] = ()
    """The casebook cases that show this refusal."""
    reachable: bool = True
    """False for a refusal no position of a game reaches (the engine still gives it for
    a state built by hand): the tests then do not require a game that shows it."""
    within: str | None = None
    """For a finer refusal of the engine, the kind of the kernel's guard it refines (the
    kernel refuses the move with that guard's name)."""

    def matches(self, module: Any, error: IllegalMove) -> bool:
        """Whether ``error``, raised by ``module``, is of this kind (by its name)."""
        return self.game == module.NAME and error.refusal == self.key


@attrs.frozen(slots=True)
class _Declared:
    """Where a game declares what the catalogue reads."""

    kernel: Any
    engine: Sequence[EngineRefusal]
    unreached: Mapping[str, str]
    cases: Sequence[Case]


_DECLARED = {
    "throne": _Declared(
        throne_kernel,
        throne_refusals.ENGINE_REFUSALS,
        throne_refusals.UNREACHED,
        throne_cases.CASES,
    ),
    "ascent": _Declared(
        ascent_kernel,
        ascent_refusals.ENGINE_REFUSALS,
        ascent_refusals.UNREACHED,
        ascent_cases.CASES,
    ),
}


def _guards(module: Any, kernel: Any) -> tuple[Guard, ...]:
    """The guards of the game's kernel, as it asks them (of any move of any position: the
    tuple of guards is the same for all; their values are not read)."""
    rules = module.Rules()
    players = min(module.PLAYERS)
    shape = kernel.Shape.of(rules, players)
    state = kernel.from_state(module.new_game(players, rules, seed=0))
    position = kernel.Position(CONCRETE, shape, kernel.Options.of(CONCRETE, rules), state)
    return tuple(kernel.guards(position, kernel.decode(position, 0)))


def catalogue(
    module: Any,
    *,
    guards: Sequence[Guard] | None = None,
    engine: Sequence[EngineRefusal] | None = None,
    notes: Sequence[Note] | None = None,
    cases: Sequence[Case] | None = None,
) -> tuple[RefusalKind, ...]:
    """The kinds of refusal of one game (``throne`` or ``ascent``): one per name of its
    kernel's guards, in the order the kernel asks them, then one per refusal its engine
    gives that no guard names, each with the note that declares it and the refusal cases
    of the casebook that name it.  ``guards``, ``engine``, ``notes`` and ``cases`` replace
    the game's own (for a check).

    ``ValueError`` for declarations that do not make one catalogue: guards of one name
    that cite two clauses, an engine refusal that repeats a guard's name or refines a
    guard the kernel does not have, a refusal declared by two notes, or a note or a case
    or an unreached refusal naming a refusal of no kind; ``ArgumentError`` for a module
    that is not a game."""
    game = getattr(module, "NAME", None)
    if not isinstance(game, str) or game not in _DECLARED:
        raise ArgumentError(
            f"catalogue() takes castlerules.throne or castlerules.ascent, not {module!r:.60}"
        )
    declared = _DECLARED[game]
    guards = _guards(module, declared.kernel) if guards is None else guards
    engine = declared.engine if engine is None else engine
    notes = module.NOTES if notes is None else notes
    cases = declared.cases if cases is None else cases
    clauses: dict[str, str] = {}
    for guard in guards:
        clause = clauses.setdefault(guard.refusal, guard[0])
        if clause != guard[0]:
            raise ValueError(f"guards named {guard.refusal} cite {clause} and {guard[0]}")
    within: dict[str, str | None] = dict.fromkeys(clauses)
    for refusal in engine:
        if refusal.refusal in clauses:
            raise ValueError(f"the engine refusal {refusal.refusal} is a kernel guard's name")
        if refusal.within is not None and refusal.within not in within:
            raise ValueError(
                f"the engine refusal {refusal.refusal} refines {refusal.within}, "
                "which no guard of the kernel names"
            )
        clauses[refusal.refusal] = refusal.clause
        within[refusal.refusal] = refusal.within
    said: dict[str, tuple[str, str]] = {}
    for note in notes:
        for key, words in note.refuses:
            if key in said:
                raise ValueError(
                    f"{key} is declared by two notes: {said[key][0]!r}, {note.topic!r}"
                )
            said[key] = (note.topic, words)
    shown: dict[str, list[str]] = {}
    for case in cases:
        if case.kind == "refusal" and case.refuses is not None:
            shown.setdefault(case.refuses, []).append(case.key)
    for what, names in (
        ("a note declares", said),
        ("a case shows", shown),
        ("unreached", declared.unreached),
    ):
        stray = sorted(set(names) - set(clauses))
        if stray:
            raise ValueError(f"{what} {stray[0]}, a refusal of no kind")
    return tuple(
        RefusalKind(
            key,
            game,
            clause,
            said.get(key),
            tuple(shown.get(key, ())),
            reachable=key not in declared.unreached,
            within=within[key],
        )
        for key, clause in clauses.items()
    )


REFUSALS: tuple[RefusalKind, ...] = catalogue(throne) + catalogue(ascent)
"""Every kind of refusal of both games, Throne first."""

_BY_KEY = {kind.key: kind for kind in REFUSALS}
assert len(_BY_KEY) == len(REFUSALS), "two refusal kinds have the same key"


def kind_of(module: Any, state: Any, move: Any, error: IllegalMove) -> RefusalKind:
    """The kind of a refusal (``error``, raised for ``move`` in ``state``); ``LookupError``
    if it is of no kind listed here, or of more than one."""
    found = [k for k in REFUSALS if k.matches(module, error)]
    if len(found) != 1:
        what = "no kind" if not found else f"{len(found)} kinds ({', '.join(k.key for k in found)})"
        raise LookupError(f"the refusal {str(error)!r} ({error.clause}) is of {what}")
    return found[0]


def note_sentence(kind: RefusalKind) -> str | None:
    """The sentence of the kind's note that says its clause (None if it names no note)."""
    if kind.note is None:
        return None
    topic, words = kind.note
    module = throne if kind.game == "throne" else ascent
    for note in module.NOTES:
        if note.topic == topic:
            for sentence in re.split(r"(?<=[.;])\s+", note.decision):
                if words in sentence:
                    return sentence
            return None
    return None
