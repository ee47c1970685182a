"""The immutable position of a Throne game, and what one seat may see of it.

A :class:`State` is a flat value of small integers and tuples, so that
playing a move is cheap.  It holds everything, hidden information included
(every round's objectives, the votes cast face down); :class:`Observation`
is what one seat may know.  Build states with
:func:`castlerules.throne.new_game` or :func:`castlerules.throne.from_text`,
query them with the functions of :mod:`castlerules.throne`; the fields are
documented here for readers of the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from castlerules.core.builder import builder
from castlerules.throne.rules import Rules

PLACEMENT = 0
"""Phase code: characters are being placed (B6)."""
MOVEMENT = 1
"""Phase code: characters climb (B8)."""
ELECTION = 2
"""Phase code: a candidate is on the throne and the players vote (B10, B11)."""
OVER = 3
"""Phase code: the last round has been scored (B3, B16)."""

PHASES: tuple[str, ...] = ("placement", "movement", "election", "over")
"""``PHASES[code]``: the name of a phase code, as returned by ``phase(state)``."""

UNPLACED = 0
"""Floor code of a character not yet placed this round."""
ELIMINATED = -1
"""Floor code of a character eliminated this round (B13)."""


@attrs.frozen(slots=True, weakref_slot=False)
class State:
    """A Throne position: immutable, hashable, equal when the positions are equal.

    Fields (all plain integers and tuples):

    - ``rules``: the :class:`~castlerules.throne.Rules` in force;
    - ``players``: the number of seats (3..6), seats are ``0..players-1``;
    - ``round``: the current round, from 1 (the last round once the game is over);
    - ``phase``: :data:`PLACEMENT`, :data:`MOVEMENT`, :data:`ELECTION` or :data:`OVER`;
    - ``turn``: the seat to act, ``-1`` once the game is over;
    - ``floors``: for each character (index 0 is ``A``) its floor 1..7,
      :data:`UNPLACED` (0) or :data:`ELIMINATED` (-1);
    - ``counts``: ``counts[0]`` characters not yet placed, ``counts[f]`` characters on floor f;
    - ``no_cards``: No cards each seat holds (votes cast face down not yet deducted);
    - ``votes``: during an election, per seat ``-1`` not voted yet, ``0`` No, ``1`` Yes;
      ``()`` outside elections;
    - ``passes``: passes in a row in the movement phase (only with ``allow_pass``);
    - ``objectives``: per round, per seat, the favourites as a bit mask (bit i: character i);
    - ``results``: per finished round, per seat, the round score (B14, B15);
    - ``kings``: per finished round, the index of the crowned character or ``-1``.
    """

    rules: Rules
    players: int
    round: int
    phase: int
    turn: int
    floors: tuple[int, ...]
    counts: tuple[int, ...]
    no_cards: tuple[int, ...]
    votes: tuple[int, ...]
    passes: int
    objectives: tuple[tuple[int, ...], ...]
    results: tuple[tuple[int, ...], ...]
    kings: tuple[int, ...]


if TYPE_CHECKING:  # the type checker checks calls against State's own signature
    build_state = State
else:
    # Generated from attrs.fields(State) (castlerules.core.builder): the same
    # frozen State, built with plain slot stores; it cannot drift from State.
    build_state = builder(State, positional=4)
"""``build_state(rules, players, round, phase, *, turn=..., ...)`` is ``State(...)``,
faster (the engine's constructor); the fields past the fourth by name."""


@attrs.frozen(slots=True, weakref_slot=False)
class Observation:
    """What ``seat`` may know of a position (see ``NOTES``, topic "what observation() shows").

    Hidden: the other seats' objectives of the current and future rounds,
    the other seats' votes in the current election (only whether they have
    voted), and the other seats' No counts unless ``rules.no_cards_public``.
    """

    seat: int
    """The seat this is the view of."""
    rules: Rules
    players: int
    round: int
    phase: str
    """``"placement"``, ``"movement"``, ``"election"`` or ``"over"``."""
    turn: int | None
    """The seat to act (None once over)."""
    floors: tuple[int, ...]
    """Per character: floor 1..7, 0 not placed, -1 eliminated (the castle is public)."""
    no_cards: tuple[int | None, ...]
    """No cards per seat; ``None`` for other seats when the counts are not public."""
    objective: frozenset[str]
    """This seat's favourites in the current round."""
    voted: tuple[bool, ...]
    """Per seat: has it voted in the current election (all False outside elections)."""
    vote: bool | None
    """This seat's vote in the current election, None if not cast (or no election)."""
    passes: int
    """Passes in a row so far (with ``allow_pass``)."""
    revealed: tuple[tuple[frozenset[str], ...], ...]
    """Every seat's objective in each finished round (revealed at the scoring, B14)."""
    round_scores: tuple[tuple[int, ...], ...]
    """Per finished round, per seat, the round score."""
    kings: tuple[str | None, ...]
    """Per finished round, the king (None: the round ended without one)."""


if TYPE_CHECKING:
    build_observation = Observation
else:
    build_observation = builder(Observation, positional=4)
"""``build_observation(seat, rules, players, round, *, phase=..., ...)`` is
``Observation(...)``, faster (for ``observation()``); the fields past the fourth by name."""
