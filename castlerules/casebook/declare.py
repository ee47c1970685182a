"""What a case is: a declaration, and the views its condition is asked about.

A :class:`Case` is *declared*, not programmed: a key, the clauses, a one-line
statement of the rule, the question it settles, the rules and player counts
it applies to, and a condition written against the public API and the
events that ``describe`` reports.  There are four kinds:

``step``
    ``when(moment)`` over one move: a :class:`Moment` (``before``, ``move``,
    ``after``, ``events``).  The case's game ends with that move.
``game``
    ``when(game)`` over a finished game: a :class:`Game` (every moment, the
    final position).
``refusal``
    ``when(refusal)`` over a move a player might try and the engine refuses:
    a :class:`Refusal` (``before``, ``move``, the ``IllegalMove``).
``reading``
    the same moves under two readings of the rules (``rules`` and
    ``versus``) lead to a position where they disagree: what a move does,
    whether it is legal, what a seat sees, or the final result.  ``when``
    (optional) narrows it, over a :class:`Split`.

The helpers :func:`step`, :func:`game`, :func:`refusal` and :func:`reading`
make a declaration a few lines long.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.core import Event, IllegalMove

__all__ = [
    "GAMES",
    "KINDS",
    "Case",
    "Claim",
    "Game",
    "Moment",
    "Refusal",
    "Split",
    "claim",
    "game",
    "reading",
    "refusal",
    "step",
]

GAMES: Mapping[str, Any] = {"throne": throne, "ascent": ascent}
KINDS = ("step", "game", "refusal", "reading")


@attrs.frozen(slots=True)
class Moment:
    """One move of a game: the position before it, the move, the position after, the events."""

    module: Any
    ply: int
    """The move's number in the game, from 1."""
    seat: int | None
    before: Any
    move: Any
    after: Any
    events: tuple[Event, ...]
    earlier: tuple[Moment, ...] = attrs.field(default=(), eq=False, repr=False)
    """The moves of the game before this one (given to a step case's condition)."""

    @property
    def text(self) -> str:
        """The move in the game's notation."""
        return str(self.move)

    def cites(self, *clauses: str) -> bool:
        """Whether ``describe`` cites every one of ``clauses`` for this move."""
        cited = {e.clause for e in self.events}
        return all(c in cited for c in clauses)

    def says(self, words: str, clause: str | None = None) -> bool:
        """Whether an event (of ``clause``, if given) contains ``words``."""
        return any(words in e.text and (clause is None or e.clause == clause) for e in self.events)

    def count(self, clause: str) -> int:
        """How many events cite ``clause``."""
        return sum(1 for e in self.events if e.clause == clause)

    def is_a(self, kind: type) -> bool:
        """Whether the move is of this move class (``throne.Climb``, ``ascent.Favour``...)."""
        return isinstance(self.move, kind)


@attrs.frozen(slots=True)
class Game:
    """A whole game, ended: every moment and the final position."""

    module: Any
    start: Any
    moments: tuple[Moment, ...]

    @property
    def final(self) -> Any:
        """The last position."""
        return self.moments[-1].after if self.moments else self.start

    def cites(self, clause: str) -> bool:
        """Whether some move of the game cites ``clause``."""
        return any(m.cites(clause) for m in self.moments)

    def says(self, words: str, clause: str | None = None) -> bool:
        """Whether some event of the game (of ``clause``, if given) contains ``words``."""
        return any(m.says(words, clause) for m in self.moments)


@attrs.frozen(slots=True)
class Refusal:
    """A move tried in a position and refused by the engine, with its ``IllegalMove``."""

    module: Any
    ply: int
    """How many moves were played before it."""
    before: Any
    move: Any
    error: IllegalMove

    @property
    def text(self) -> str:
        return str(self.move)

    @property
    def clause(self) -> str:
        return str(self.error.clause)

    def says(self, words: str) -> bool:
        """Whether the engine's message contains ``words``."""
        return words in str(self.error)

    def is_a(self, kind: type) -> bool:
        return isinstance(self.move, kind)


Outcome = Moment | Refusal | None
"""What a move does under one reading: a :class:`Moment`, a :class:`Refusal`, or nothing."""


@attrs.frozen(slots=True)
class Split:
    """Where two readings part: the position under each and what differs.

    ``kind`` is ``"outcome"`` (``move`` does different things, or is legal
    under one reading only), ``"view"`` (a seat may see different things),
    ``"turn"`` (a different seat is to act) or ``"result"`` (the game is
    over under both, with different scores or winners).  ``first`` and
    ``second`` are what ``move`` does under each reading (outcome only).
    """

    module: Any
    kind: str
    before: tuple[Any, Any]
    move: Any
    first: Outcome
    second: Outcome
    first_text: str
    second_text: str

    @property
    def refused_by(self) -> int | None:
        """0 or 1: the reading that refuses ``move`` (None if both play it)."""
        if isinstance(self.first, Refusal):
            return 0
        if isinstance(self.second, Refusal):
            return 1
        return None


@attrs.frozen(slots=True)
class Claim:
    """A sentence a case says about its game, and the condition that makes it true there.

    ``text`` may hold ``{name}`` fields, filled from ``values(focus)`` (numbers, seats,
    cards read from the engine's state and events of the game shown); ``holds(focus)``
    is evaluated on that game whenever the case is found or replayed, so a claim that
    the game contradicts fails the case (:func:`castlerules.casebook.check.verify`).
    """

    text: str
    holds: Callable[[Any], bool]
    values: Callable[[Any], Mapping[str, object]] | None = None

    def render(self, focus: Any) -> str:
        """The sentence for the game shown, its fields filled."""
        if self.values is None:
            return self.text
        return self.text.format(**self.values(focus))


def claim(
    text: str,
    holds: Callable[[Any], bool],
    values: Callable[[Any], Mapping[str, object]] | None = None,
) -> Claim:
    """A :class:`Claim`: ``text``, true of the game shown when ``holds(focus)``."""
    return Claim(text, holds, values)


def _checked(when: Callable[[Any], bool], claims: tuple[Claim, ...]) -> Callable[[Any], bool]:
    """The case's condition with its claims: a game shows the case only where every
    sentence the case says about it holds."""

    def checked(focus: Any) -> bool:
        return bool(when(focus)) and all(c.holds(focus) for c in claims)

    return checked


StepCondition = Callable[[Moment], bool]
GameCondition = Callable[[Game], bool]
RefusalCondition = Callable[[Refusal], bool]
SplitCondition = Callable[[Split], bool]


class SearchError(RuntimeError):
    """No game was found that shows a case (within the search's budget), or the
    search's symbolic and Python conditions disagree."""


def _options(value: Mapping[str, object] | None) -> tuple[tuple[str, object], ...]:
    return tuple((value or {}).items())


@attrs.frozen(slots=True)
class Case:
    """A declared case (see the module's documentation)."""

    key: str
    game: str
    kind: str
    clauses: tuple[str, ...]
    statement: str
    settles: str
    """The question players ask that the case answers."""
    when: Callable[[Any], bool] | None
    players: tuple[int, ...] = (4,)
    preset: str | None = None
    options: tuple[tuple[str, object], ...] = ()
    versus: tuple[str | None, tuple[tuple[str, object], ...]] | None = None
    """Reading cases: the second reading, as (preset, options)."""
    guide: str = "random"
    """The playout policy the search uses (``castlerules.casebook.search.GUIDES``)."""
    seat: int | None = None
    """The seat the case is about (its favourites are marked on Throne boards)."""
    budget: int = 300
    """How many seeded playouts the search may try."""
    bmc: Callable[[Any], Any] | None = None
    """The condition over the proofs' Z3 model (``castlerules.casebook.bmc``), if any:
    the search then finds the shortest game by bounded model checking."""
    detail: Callable[[Any], tuple[str, ...]] | None = None
    """Lines that spell out what the focus shows where its events give only a total
    (which favourite two seats share, and what each scored for it), generated from the
    engine's state and events of the game shown."""
    claims: tuple[Claim, ...] = ()
    """The sentences the case says about its game, each checked on it (part of ``when``)."""
    show: Callable[[Any], Moment] | None = None
    """Game cases: the move the case is about (default: the last move of the game)."""
    refuses: str | None = None
    """Refusal cases: the name of the refusal it shows (the engine's
    ``IllegalMove.refusal``; the catalogue ``castlerules.casebook.refusals`` lists the
    case under that name).  ``refusal()`` makes it the case's key unless told."""

    @property
    def module(self) -> Any:
        return GAMES[self.game]

    def rules(self) -> Any:
        """The rules of the case (the first reading, for a reading case)."""
        return _rules(self.module, self.preset, self.options)

    def second_rules(self) -> Any:
        """The second reading's rules (reading cases only)."""
        assert self.versus is not None, f"{self.key} is not a reading case"
        return _rules(self.module, *self.versus)

    def reading_label(self, which: int) -> str:
        """A short name of the first (0) or second (1) reading."""
        preset, options = (self.preset, self.options) if which == 0 else self.versus or (None, ())
        parts = [preset] if preset else []
        parts += [f"{k}={_text(v)}" for k, v in options]
        return ", ".join(parts) or "default"

    def rules_code(self, which: int = 0) -> str:
        """How to ask for this case's rules in Python."""
        preset, options = (self.preset, self.options) if which == 0 else self.versus or (None, ())
        name = self.game
        if preset and not options:
            return f'{name}.Rules.preset("{preset}")'
        if not options:
            return f"{name}.Rules()"
        args = ", ".join(f"{k}={v!r}" for k, v in options)
        return f"{name}.Rules({args})"


def _text(value: object) -> str:
    from castlerules import options_text

    return options_text.to_text(value)


def _rules(module: Any, preset: str | None, options: tuple[tuple[str, object], ...]) -> Any:
    base = module.Rules.preset(preset) if preset else module.Rules()
    if not options:
        return base
    merged = {f.name: getattr(base, f.name) for f in attrs.fields(module.Rules)}
    merged.update(dict(options))
    return module.Rules(**merged)


def _case(
    kind: str,
    key: str,
    clauses: str,
    statement: str,
    settles: str,
    when: Callable[[Any], bool] | None,
    *,
    players: tuple[int, ...] | int = 4,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    versus: Mapping[str, object] | str | None = None,
    guide: str = "random",
    seat: int | None = None,
    budget: int = 300,
    bmc: Callable[[Any], Any] | None = None,
    detail: Callable[[Any], tuple[str, ...]] | None = None,
    claims: tuple[Claim, ...] = (),
    show: Callable[[Any], Moment] | None = None,
    refuses: str | None = None,
) -> Case:
    game = "throne" if clauses.startswith("B") else "ascent"
    if claims:
        when = _checked(when if when is not None else (lambda _focus: True), claims)
    second: tuple[str | None, tuple[tuple[str, object], ...]] | None = None
    if isinstance(versus, str):
        second = (versus, ())
    elif versus is not None:
        second = (None, _options(versus))
    return Case(
        key=key,
        game=game,
        kind=kind,
        clauses=tuple(clauses.split()),
        statement=statement,
        settles=settles,
        when=when,
        players=(players,) if isinstance(players, int) else tuple(players),
        preset=preset,
        options=_options(options),
        versus=second,
        guide=guide,
        seat=seat,
        budget=budget,
        bmc=bmc,
        detail=detail,
        claims=claims,
        show=show,
        refuses=refuses,
    )


def step(
    key: str, clauses: str, statement: str, settles: str, when: StepCondition, **kw: Any
) -> Case:
    """A case whose game ends with a move satisfying ``when(moment)``.

    ``clauses`` is a space-separated list of clause IDs, the first the one
    the case is about; the game is the one these IDs belong to.  ``bmc=``
    (optional) states the same condition over the proofs' Z3 model
    (:mod:`castlerules.casebook.bmc`): the game is then the shortest there is.
    """
    return _case("step", key, clauses, statement, settles, when, **kw)


def game(
    key: str, clauses: str, statement: str, settles: str, when: GameCondition, **kw: Any
) -> Case:
    """A case whose finished game satisfies ``when(game)``."""
    return _case("game", key, clauses, statement, settles, when, **kw)


def refusal(
    key: str,
    clauses: str,
    statement: str,
    settles: str,
    when: RefusalCondition,
    *,
    refuses: str | None = None,
    **kw: Any,
) -> Case:
    """A case of a move the engine refuses, satisfying ``when(refusal)``; ``refuses``
    names the refusal it shows (:attr:`Case.refuses`), by default the case's own key."""
    return _case("refusal", key, clauses, statement, settles, when, refuses=refuses or key, **kw)


def reading(
    key: str,
    clauses: str,
    statement: str,
    settles: str,
    versus: Mapping[str, object] | str,
    when: SplitCondition | None = None,
    **kw: Any,
) -> Case:
    """A case where ``versus`` (options, or a preset name) reads the rules differently."""
    return _case("reading", key, clauses, statement, settles, when, versus=versus, **kw)
