"""The game protocol both engines implement, and algorithms written once for both.

A game is a module (``castlerules.throne``, ``castlerules.ascent``) of pure
functions over immutable states.  :class:`Game` spells out that surface, so
that tools (perft, random play, the command line, the proofs' bridge tests)
are written once against it and type-checked against both modules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import attrs

from castlerules.core.chance import Rng
from castlerules.core.errors import ArgumentError

S = TypeVar("S")
M = TypeVar("M")


@attrs.frozen(slots=True)
class Event:
    """Something a move did, in plain words, with the clause that made it happen.

    ``describe(before, move, after)`` in each game returns these; the annotated
    records, the command line's ``explain`` and the docs print them.
    """

    clause: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.clause})"


def require(value: object, cls: type[Any], what: str) -> None:
    """Refuse an argument of the wrong type with :class:`ArgumentError`, not a traceback.

    The public entry points of each game call it on the state (and the move)
    they are given, so that ``apply(None, move)`` says what was expected.
    """
    if not isinstance(value, cls):
        raise ArgumentError(
            f"{what} must be a {cls.__module__}.{cls.__qualname__}, not {value!r:.60}"
        )


class Game(Protocol):
    """What every game module provides (see ``docs`` and ``api.md``)."""

    NAME: str
    PLAYERS: range

    def new_game(self, players: int, rules: Any = None, seed: int = 0) -> Any: ...
    def current_player(self, state: Any) -> int | None: ...
    def legal_moves(self, state: Any) -> tuple[Any, ...]: ...
    def apply(self, state: Any, move: Any) -> Any: ...
    def is_over(self, state: Any) -> bool: ...
    def scores(self, state: Any) -> tuple[int, ...]: ...
    def winners(self, state: Any) -> tuple[int, ...]: ...
    def to_text(self, state: Any) -> str: ...
    def from_text(self, text: str) -> Any: ...
    def parse_move(self, state: Any, text: str, *, check: bool = True) -> Any: ...
    def perft(self, state: Any, depth: int) -> int: ...
    def observation(self, state: Any, seat: int) -> Any: ...
    def describe(self, before: Any, move: Any, after: Any) -> tuple[Event, ...]: ...


def perft(
    legal_moves: Callable[[S], Sequence[M]],
    apply: Callable[[S, M], S],
    state: S,
    depth: int,
) -> int:
    """Count the leaves of the move tree ``depth`` plies below ``state``.

    A state with no legal move (the game is over) is a leaf at any depth.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(legal_moves, apply, apply(state, m), depth - 1) for m in moves)


def random_playout(
    legal_moves: Callable[[S], Sequence[M]],
    apply: Callable[[S, M], S],
    state: S,
    rng: Rng,
    max_plies: int = 1_000_000,
) -> tuple[list[tuple[S, M]], S, Rng]:
    """Play uniformly random legal moves until none is left.

    Returns the list of ``(state_before, move)`` pairs, the final state and
    the generator after the last draw.
    """
    history: list[tuple[S, M]] = []
    for _ in range(max_plies):
        moves = legal_moves(state)
        if not moves:
            break
        move, rng = rng.choice(moves)
        history.append((state, move))
        state = apply(state, move)
    return history, state, rng
