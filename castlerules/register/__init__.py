"""The interpretation register: each open point, its readings, and where they differ.

An *open point* is an option of a game's ``Rules`` that one of its
interpretation notes (``NOTES``) names: the seed is silent or ambiguous
there, and the engine lets the user choose.  Its *readings* are the default
(``Rules()``) and every alternative worth trying: the presets that change it
and the alternative values that ``castlerules explain --compare`` tries
(:func:`castlerules.register.readings.readings_of`), so the command line and
the documentation agree on what the readings are.

For each alternative, :func:`diverge` finds a concrete position where the two
readings give different outcomes: it plays the same seeded game under both
readings in lockstep, with moves legal under both, and stops at the first
position where they disagree (who is to act, which moves are legal, what a
seat may see, what a move does, or the final result).  Nothing is written by
hand: the documentation prints what this module computes at build time.

>>> from castlerules import throne
>>> point = next(p for p in open_points(throne) if p.option == "allow_pass")
>>> [r.label for r in point.readings]
['default', 'allow_pass=true']
>>> found = diverge(throne, point.readings[0], point.readings[1])
>>> found.kind, found.second_outcome.startswith("also legal: pass")
('legal moves', True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from castlerules import options_text
from castlerules.core.chance import Rng
from castlerules.core.errors import RulesError
from castlerules.core.options import Note
from castlerules.register.dispute import Answer, Comparison, Row, Start, compare, judge
from castlerules.register.readings import readings_of

__all__ = [
    "Answer",
    "Comparison",
    "Divergence",
    "OpenPoint",
    "Reading",
    "Row",
    "Start",
    "compare",
    "diverge",
    "judge",
    "open_points",
]


@attrs.frozen(slots=True)
class Reading:
    """A reading of the rules: a label and the options that differ from ``Rules()``."""

    label: str
    options: tuple[tuple[str, object], ...] = ()
    preset: str | None = None

    def rules(self, module: Any) -> Any:
        """This reading's ``Rules`` for the game ``module``."""
        if self.preset is not None:
            return module.Rules.preset(self.preset)
        return module.Rules(**dict(self.options))

    def code(self, module: Any) -> str:
        """How to ask for this reading in Python."""
        name = module.NAME
        if self.preset is not None:
            return f'{name}.Rules.preset("{self.preset}")'
        if not self.options:
            return f"{name}.Rules()"
        args = ", ".join(f"{k}={v!r}" for k, v in self.options)
        return f"{name}.Rules({args})"

    def command_line(self) -> str:
        """How to ask for this reading on the command line."""
        if self.preset is not None:
            return f"--rules {self.preset}"
        return " ".join(f"--option {k}={options_text.to_text(v)}" for k, v in self.options)


@attrs.frozen(slots=True)
class OpenPoint:
    """An option named by the interpretation notes, with its readings (the default first)."""

    game: str
    option: str
    clauses: tuple[str, ...]
    notes: tuple[Note, ...]
    default: object
    readings: tuple[Reading, ...]
    excluded: str | None = None
    """Why the option is not a reading to try (None: it is)."""


@attrs.frozen(slots=True)
class Divergence:
    """A position where two readings disagree, reached by the same moves under both.

    ``moves`` lead from ``new_game(players, seed=seed)`` under each reading
    to the position ``position`` (written under the first reading).  ``kind``
    says what differs: ``"turn"``, ``"legal moves"``, ``"view"`` (what a seat
    may know), ``"outcome"`` (what ``move`` does) or ``"result"`` (the final
    scores).
    """

    game: str
    first: Reading
    second: Reading
    players: int
    seed: int
    moves: tuple[str, ...]
    position: str
    second_position: str
    kind: str
    move: str | None
    first_outcome: str
    second_outcome: str


def open_points(module: Any) -> tuple[OpenPoint, ...]:
    """Every option named by ``module.NOTES``, in the order the notes first name it."""
    default = module.Rules()
    found, _not_varied, excluded, _invalid = readings_of(module, default, None, {})
    why = dict(excluded)
    presets = dict(module.Rules.PRESETS)
    out = []
    seen: list[str] = []
    for note in module.NOTES:
        option = note.option
        if option is None or option in seen:
            continue
        seen.append(option)
        notes = tuple(n for n in module.NOTES if n.option == option)
        clauses = tuple(dict.fromkeys(n.clause for n in notes))
        readings = [Reading("default")]
        for name, changes in presets.items():
            if option in changes and module.Rules.preset(name) != default:
                readings.append(Reading(name, tuple(changes.items()), preset=name))
        for reading in found:
            label = reading.label
            if label.startswith(f"{option}="):
                value = getattr(reading.rules, option)
                readings.append(Reading(label, ((option, value),)))
        out.append(
            OpenPoint(
                game=module.NAME,
                option=option,
                clauses=clauses,
                notes=notes,
                default=getattr(default, option),
                readings=tuple(readings),
                excluded=why.get(option),
            )
        )
    return tuple(out)


Policy = Callable[[Any, Sequence[Any], Rng], tuple[Any, Rng]]


def _policy(module: Any) -> Policy:
    if module.NAME == "ascent":
        from castlerules.casebook.search import GUIDES

        guide = GUIDES["favours"]

        def favours(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[Any, Rng]:
            index, rng = guide(state, moves, rng)
            return moves[index], rng

        return favours

    def uniform(_state: Any, moves: Sequence[Any], rng: Rng) -> tuple[Any, Rng]:
        return rng.choice(moves)

    return uniform


def _view(module: Any, state: Any, seat: int) -> dict[str, object]:
    seen = module.observation(state, seat)
    if not attrs.has(type(seen)):
        return {"observation": seen}
    skip = {"rules", "tables", "moves", "occupied"}
    return {
        field.name: getattr(seen, field.name)
        for field in attrs.fields(type(seen))
        if field.name not in skip
    }


def _seats(state: Any) -> int:
    return int(state.players)


def _list(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "nothing"


def _compare(module: Any, a: Any, b: Any) -> tuple[str, str, str] | None:
    """What differs between two positions of the same game under two readings, if anything."""
    turn_a, turn_b = module.current_player(a), module.current_player(b)
    if turn_a != turn_b:
        return ("turn", _turn(turn_a), _turn(turn_b))
    moves_a = [str(m) for m in module.legal_moves(a)]
    moves_b = [str(m) for m in module.legal_moves(b)]
    if set(moves_a) != set(moves_b):
        only_a = [m for m in moves_a if m not in moves_b]
        only_b = [m for m in moves_b if m not in moves_a]
        return (
            "legal moves",
            f"also legal: {_list(only_a)} ({len(moves_a)} legal moves)"
            if only_a
            else f"not legal: {_list(only_b)} ({len(moves_a)} legal moves)",
            f"also legal: {_list(only_b)} ({len(moves_b)} legal moves)"
            if only_b
            else f"not legal: {_list(only_a)} ({len(moves_b)} legal moves)",
        )
    for seat in range(_seats(a)):
        view_a, view_b = _view(module, a, seat), _view(module, b, seat)
        if view_a != view_b:
            name = next(k for k in view_a if view_a[k] != view_b.get(k))
            return (
                "view",
                f"seat {seat} sees {name} = {_show(view_a[name])}",
                f"seat {seat} sees {name} = {_show(view_b.get(name))}",
            )
    if not moves_a:
        scores_a, scores_b = module.scores(a), module.scores(b)
        if scores_a != scores_b or module.winners(a) != module.winners(b):
            return (
                "result",
                f"scores {_show(scores_a)}, winners {_show(module.winners(a))}",
                f"scores {_show(scores_b)}, winners {_show(module.winners(b))}",
            )
    return None


def _same_end(module: Any, a: Any, b: Any) -> bool:
    """Both readings end the game here, with the same board, scores and winners: the
    move does the same thing, though each reading gives its own reason for the end."""
    return (
        not module.legal_moves(a) and not module.legal_moves(b) and _compare(module, a, b) is None
    )


def _turn(seat: int | None) -> str:
    return "the game is over" if seat is None else f"seat {seat} is to act"


def _show(value: object) -> str:
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(str(v) for v in value)) + "}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    return str(value)


def _events(module: Any, before: Any, move: Any, after: Any) -> str:
    """What a move did, one event per line (``describe``)."""
    return "\n".join(str(e) for e in module.describe(before, move, after))


def diverge(
    module: Any,
    first: Reading,
    second: Reading,
    *,
    attempts: int = 300,
    max_plies: int = 5000,
) -> Divergence | None:
    """The first position, over seeded games, where ``first`` and ``second`` disagree.

    Game ``k`` is seed ``k`` under both readings (3 to 5 players, in turn),
    with the moves chosen by a generator of stream ``register.<game>.<k>``
    among those legal under both.  None if no disagreement shows within
    ``attempts`` games.
    """
    rules_a, rules_b = first.rules(module), second.rules(module)
    policy = _policy(module)
    counts = [p for p in (4, 3, 5) if p in module.PLAYERS]
    for attempt in range(attempts):
        players = counts[attempt % len(counts)]
        try:
            a = module.new_game(players, rules=rules_a, seed=attempt)
            b = module.new_game(players, rules=rules_b, seed=attempt)
        except RulesError:
            continue
        rng = Rng.from_seed(attempt, f"register.{module.NAME}")
        moves: list[str] = []
        for _ in range(max_plies):
            differs = _compare(module, a, b)
            if differs is not None:
                kind, one, two = differs
                return _found(
                    module,
                    game=(first, second, players, attempt, moves),
                    states=(a, b),
                    kind=kind,
                    move=None,
                    outcomes=(one, two),
                )
            legal_b = {str(m) for m in module.legal_moves(b)}
            common = [m for m in module.legal_moves(a) if str(m) in legal_b]
            if not common:
                break
            move, rng = policy(a, common, rng)
            text = str(move)
            move_b = module.parse_move(b, text)
            next_a, next_b = module.apply(a, move), module.apply(b, move_b)
            said_a = _events(module, a, move, next_a)
            said_b = _events(module, b, move_b, next_b)
            if said_a != said_b and not _same_end(module, next_a, next_b):
                return _found(
                    module,
                    game=(first, second, players, attempt, moves),
                    states=(a, b),
                    kind="outcome",
                    move=text,
                    outcomes=(said_a, said_b),
                )
            moves.append(text)
            a, b = next_a, next_b
    return None


def _found(
    module: Any,
    *,
    game: tuple[Reading, Reading, int, int, list[str]],
    states: tuple[Any, Any],
    kind: str,
    move: str | None,
    outcomes: tuple[str, str],
) -> Divergence:
    first, second, players, seed, moves = game
    a, b = states
    one, two = outcomes
    return Divergence(
        game=module.NAME,
        first=first,
        second=second,
        players=players,
        seed=seed,
        moves=tuple(moves),
        position=module.to_text(a),
        second_position=module.to_text(b),
        kind=kind,
        move=move,
        first_outcome=one,
        second_outcome=two,
    )


def replay_divergence(module: Any, found: Divergence) -> tuple[Any, Any]:
    """Replay a divergence under both readings and check it still shows; return both positions.

    Raises ``AssertionError`` (with the reason) if the moves are no longer
    legal or the readings no longer disagree there in the same way.
    """
    a = module.new_game(found.players, rules=found.first.rules(module), seed=found.seed)
    b = module.new_game(found.players, rules=found.second.rules(module), seed=found.seed)
    for number, text in enumerate(found.moves, 1):
        try:
            a = module.apply(a, module.parse_move(a, text))
            b = module.apply(b, module.parse_move(b, text))
        except RulesError as err:
            raise AssertionError(f"move {number} ({text}) is no longer legal: {err}") from err
    if found.move is None:
        differs = _compare(module, a, b)
        expected = (found.kind, found.first_outcome, found.second_outcome)
        if differs != expected:
            raise AssertionError(f"the readings no longer differ as recorded: {differs}")
    else:
        move_a, move_b = module.parse_move(a, found.move), module.parse_move(b, found.move)
        said = (
            _events(module, a, move_a, module.apply(a, move_a)),
            _events(module, b, move_b, module.apply(b, move_b)),
        )
        if said != (found.first_outcome, found.second_outcome) or said[0] == said[1]:
            raise AssertionError(f"move {found.move} no longer does what was recorded: {said}")
    if module.to_text(a) != found.position or module.to_text(b) != found.second_position:
        raise AssertionError("the moves no longer lead to the recorded position")
    return a, b
