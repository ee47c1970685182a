"""Edge cases of both games, found by search and replayed through the public API.

Each entry of :data:`CATALOGUE` names a rare rule (A7's protection above the
ceiling, A13's removal, B15's 33 points...) and brings two functions:

- a *search* that plays games with the engine's own legal moves (seeded
  random playouts, or playouts guided by a heuristic, with restarts) until the
  rule happens, and returns the game as an :class:`Example`: the
  ``new_game`` arguments and the moves in notation;
- a *check* that replays those moves from ``new_game`` through the public
  API only (``parse_move``, ``apply``, ``describe`` and the state queries)
  and asserts, in plain words, each thing the example claims.  A claim that
  no longer holds raises :class:`GalleryError`.

The documentation builds its edge-case gallery from :func:`build`, so a
change of the rules that breaks an example breaks the documentation build.

>>> example = find("throne-elimination")
>>> example.game, entry(example.key).clauses
('throne', ('B10', 'B11', 'B13'))
>>> shown = replay(example)
>>> shown.steps[-1].seat == shown.steps[example.focus].seat
False
>>> any("eliminated" in fact for fact in shown.facts)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.core.chance import Rng
from castlerules.core.errors import RulesError
from castlerules.core.protocol import Event

__all__ = [
    "CATALOGUE",
    "Entry",
    "Example",
    "GalleryError",
    "Replay",
    "Step",
    "build",
    "entry",
    "find",
    "replay",
]

GAMES: Mapping[str, Any] = {"throne": throne, "ascent": ascent}


class GalleryError(AssertionError):
    """An example of the gallery no longer shows what it claims (or cannot be found)."""


@attrs.frozen(slots=True)
class Example:
    """A game that shows a rare rule: the ``new_game`` arguments and the moves.

    ``moves`` are in the game's move notation, from the first position;
    ``moves[focus]`` is the first move the example is about (the ones
    before it only lead there).
    """

    key: str
    game: str
    players: int
    seed: int
    moves: tuple[str, ...]
    focus: int
    options: tuple[tuple[str, object], ...] = ()
    first_player: int | None = None
    found_by: str = ""

    def rules(self) -> Any:
        """The ``Rules`` of the example."""
        return GAMES[self.game].Rules(**dict(self.options))

    def start(self) -> Any:
        """The first position of the example's game."""
        module = GAMES[self.game]
        if self.game == "ascent":
            return module.new_game(
                self.players, rules=self.rules(), seed=self.seed, first_player=self.first_player
            )
        return module.new_game(self.players, rules=self.rules(), seed=self.seed)


@attrs.frozen(slots=True)
class Step:
    """One move of a replay: its number (from 1), the seat that played it, what it did."""

    number: int
    seat: int | None
    move: str
    events: tuple[Event, ...]


@attrs.frozen(slots=True)
class Replay:
    """An example replayed by the engine: every position, every step, the checked facts."""

    example: Example
    states: tuple[Any, ...]
    steps: tuple[Step, ...]
    facts: tuple[str, ...]

    @property
    def before(self) -> Any:
        """The position before the focus move."""
        return self.states[self.example.focus]

    @property
    def after(self) -> Any:
        """The last position."""
        return self.states[-1]


@attrs.frozen(slots=True)
class Entry:
    """An entry of the gallery: what it shows, how it is found, what is checked."""

    key: str
    game: str
    title: str
    clauses: tuple[str, ...]
    summary: str
    search: Callable[[], Example]
    check: Callable[[Replay], tuple[str, ...]]
    seat: int | None = None
    """The seat the example is about, if one (its favourites are marked on Throne boards)."""


# --------------------------------------------------------------------------- replay


def _fail(example: Example, message: str) -> GalleryError:
    return GalleryError(f"gallery example {example.key!r} no longer holds: {message}")


def _ensure(condition: bool, example: Example, message: str) -> None:
    if not condition:
        raise _fail(example, message)


def play_through(example: Example) -> tuple[tuple[Any, ...], tuple[Step, ...]]:
    """Replay the moves of an example from its first position; every move must be legal."""
    module = GAMES[example.game]
    try:
        state = example.start()
    except RulesError as err:
        raise _fail(example, f"the game cannot be set up: {err}") from err
    states = [state]
    steps = []
    for number, text in enumerate(example.moves, 1):
        seat = module.current_player(state)
        try:
            move = module.parse_move(state, text)
            after = module.apply(state, move)
        except RulesError as err:
            raise _fail(example, f"move {number} ({text}) is not legal any more: {err}") from err
        steps.append(Step(number, seat, text, tuple(module.describe(state, move, after))))
        states.append(after)
        state = after
    return tuple(states), tuple(steps)


def replay(example: Example) -> Replay:
    """Replay an example through the engine and check every claim of its entry."""
    states, steps = play_through(example)
    shown = Replay(example, states, steps, ())
    if not 0 <= example.focus < len(steps):
        raise _fail(example, f"the focus move {example.focus + 1} is not one of its moves")
    try:
        facts = entry(example.key).check(shown)
    except GalleryError:
        raise
    except (ValueError, KeyError, IndexError, AttributeError, AssertionError) as err:
        raise _fail(example, f"its moves no longer show what it is about ({err!r})") from err
    return attrs.evolve(shown, facts=facts)


def _cites(step: Step, clause: str) -> bool:
    return any(event.clause == clause for event in step.events)


# --------------------------------------------------------------------------- search

Policy = Callable[[Any, Sequence[Any], Rng], tuple[Any, Rng]]
Goal = Callable[[list[Any], list[Any], list[tuple[Event, ...]]], int | None]


def _random_policy(_state: Any, moves: Sequence[Any], rng: Rng) -> tuple[Any, Rng]:
    return rng.choice(moves)


class _Restart(Exception):
    """Raised by a goal to abandon a game that can no longer reach it."""


def search(
    key: str,
    game: str,
    *,
    players: int,
    goal: Goal,
    policy: Policy = _random_policy,
    attempts: int = 400,
    max_plies: int = 2000,
    options: Mapping[str, object] | None = None,
    how: str = "seeded random playouts",
) -> Example:
    """Play seeded games with ``policy`` until ``goal`` names a focus ply; return the game.

    ``goal(states, moves, events)`` is asked after every move; it returns
    the index of the focus move, or None to go on; it may raise
    :class:`_Restart` to abandon a game that can no longer reach it (for
    example a round that ended with the wrong score).  Attempt ``k`` plays
    the game of seed ``k`` with the generator of stream ``gallery.<key>.<k>``,
    so the result is the same on every machine.
    """
    module = GAMES[game]
    opts = tuple((options or {}).items())
    for attempt in range(attempts):
        found = Example(
            key=key,
            game=game,
            players=players,
            seed=attempt,
            moves=(),
            focus=0,
            options=opts,
            first_player=0 if game == "ascent" else None,
            found_by=f"{how}: found in game {attempt + 1} of at most {attempts}",
        )
        rng = Rng.from_seed(attempt, f"gallery.{key}")
        state = found.start()
        states = [state]
        moves: list[Any] = []
        events: list[tuple[Event, ...]] = []
        try:
            for _ in range(max_plies):
                legal = module.legal_moves(state)
                if not legal:
                    break
                move, rng = policy(state, legal, rng)
                after = module.apply(state, move)
                moves.append(move)
                events.append(tuple(module.describe(state, move, after)))
                states.append(after)
                state = after
                focus = goal(states, moves, events)
                if focus is not None:
                    return attrs.evolve(found, moves=tuple(str(m) for m in moves), focus=focus)
        except _Restart:
            continue
    raise GalleryError(f"gallery search {key!r} found no example in {attempts} games")


# --------------------------------------------------------------------------- Ascent


def _is_advance(text: str) -> bool:
    return len(text) == 2 and text[0] in "PBLCTF" and text[1].isdigit()


def _ascent_card(text: str) -> ascent.Card:
    return ascent.Card(int(text[1:]), ascent.Rank.from_letter(text[0]))


def bias_favours(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[Any, Rng]:
    """An Ascent policy that prefers favours (partial takes first) and splits.

    Random play rarely takes part of a stack in the upper half (A13); this
    policy makes the rare rules of favours come within a few hundred games.
    """
    favours = [m for m in moves if isinstance(m, ascent.Favour)]
    if favours:
        partial = [m for m in favours if _is_partial_take(state, m.card)]
        roll, rng = rng.below(4)
        pool = partial if partial and roll < 3 else favours
        return rng.choice(pool)
    advances = [m for m in moves if isinstance(m, ascent.Advance)]
    if advances:
        # Prefer moving a card that is not the top of its stack: it splits stacks.
        splits = [m for m in advances if _is_split(state, m.card)]
        roll, rng = rng.below(3)
        if splits and roll == 0:
            return rng.choice(splits)
        return rng.choice(advances)
    return rng.choice(moves)


def _is_partial_take(state: Any, card: ascent.Card) -> bool:
    place = ascent.where(state, card)
    if place is None:
        return False
    stack = ascent.stack_at(state, *place)
    return stack.index(card) < len(stack) - 1


def _is_split(state: Any, card: ascent.Card) -> bool:
    place = ascent.where(state, card)
    if place is None or place[1] == 0:
        return False
    stack = ascent.stack_at(state, *place)
    return stack.index(card) < len(stack) - 1


def _last_cites(clause: str) -> Goal:
    def goal(_s: list[Any], _m: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        return len(events) - 1 if any(e.clause == clause for e in events[-1]) else None

    return goal


def _search_protection() -> Example:
    return search("ascent-protection", "ascent", players=3, goal=_last_cites("A7"))


def _check_protection(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    step = shown.steps[ex.focus]
    before, after = shown.before, shown.after
    rules = before.rules
    mover = step.seat
    _ensure(mover is not None, ex, "the focus move has no seat")
    assert mover is not None
    _ensure(_is_advance(step.move), ex, f"move {step.number} ({step.move}) is not an Advance")
    leader = _ascent_card(step.move)
    place = ascent.where(after, leader)
    _ensure(place is not None and place[0] == mover, ex, f"{leader} left column {mover}")
    assert place is not None
    square = place[1]
    stack = ascent.stack_at(after, mover, square)
    facts = [
        f"Move {step.number}: seat {mover} advances {leader} ({leader.rank.title}), "
        f"with the cards above it, from square {ascent.where(before, leader)[1]} "  # type: ignore[index]
        f"to square {square}; its arrival square is {rules.arrival_of(leader.rank)} (A3, A6)."
    ]
    protected = []
    for index, card in enumerate(stack):
        ceiling = rules.arrival_of(card.rank)
        if square > ceiling:
            guards = [g for g in stack[:index] if g.rank.value > card.rank.value]
            _ensure(bool(guards), ex, f"{card} stands above its ceiling without protection")
            protected.append(card)
            facts.append(
                f"{card} ({card.rank.title}) now stands on square {square}, above its own "
                f"arrival square {ceiling}: allowed because {guards[0]} "
                f"({guards[0].rank.title}), a higher rank, is above it in the stack (A7)."
            )
    _ensure(bool(protected), ex, "no card of the moved stack is above its ceiling")
    _ensure(_cites(step, "A7"), ex, "describe() does not cite A7 for the move")
    return tuple(facts)


def _search_flipped_square() -> Example:
    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        if not any(e.clause == "A9" for e in events[-1]):
            return None
        before = states[-2]
        if _higher_jumper(before, moves[-1].card) is None:
            return None
        return len(moves) - 1

    return search("ascent-flipped-square", "ascent", players=3, goal=goal)


def _higher_jumper(before: Any, leader: ascent.Card) -> tuple[ascent.Card, int, int] | None:
    """A card of higher rank that, advanced instead, would jump over the flipped square."""
    mover = ascent.current_player(before)
    if mover is None:
        return None
    d = before.rules.arrival_of(leader.rank)
    for move in ascent.legal_moves(before):
        if not isinstance(move, ascent.Advance) or move.card == leader:
            continue
        place = ascent.where(before, move.card)
        if place is None or place[1] >= d:
            continue
        top = ascent.stack_at(before, *place)[0] if place[1] else move.card
        if top.rank.value <= leader.rank.value:
            continue
        landed = ascent.where(ascent.apply(before, move), move.card)
        if landed is not None and landed[1] > d:
            return move.card, place[1], landed[1]
    return None


def _check_flipped_square(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    step = shown.steps[ex.focus]
    before, after = shown.before, shown.after
    rules = before.rules
    mover = step.seat
    assert mover is not None
    _ensure(_is_advance(step.move), ex, f"move {step.number} ({step.move}) is not an Advance")
    leader = _ascent_card(step.move)
    d = rules.arrival_of(leader.rank)
    below = ascent.stack_at(before, mover, d)
    _ensure(bool(below), ex, f"square {d} of column {mover} is empty before the move")
    _ensure(
        all(ascent.is_flipped(before, c) for c in below),
        ex,
        f"the cards on square {d} are not flipped",
    )
    landed = ascent.where(after, leader)
    _ensure(landed == (mover, d), ex, f"{leader} did not land on square {d}")
    on_top = ascent.stack_at(after, mover, d)
    _ensure(on_top[0] == leader, ex, f"{leader} is not on top of square {d}")
    jumper = _higher_jumper(before, leader)
    _ensure(jumper is not None, ex, "no higher rank would have jumped over the square")
    assert jumper is not None
    high, source, target = jumper
    old = " ".join(str(c) for c in below)
    return (
        f"Before move {step.number}, square {d} of column {mover}, the {leader.rank.title}'s "
        f"arrival square, holds flipped cards ({old}) (A8).",
        f"Move {step.number}: seat {mover} advances {leader} ({leader.rank.title}); square {d} "
        f"is free for its rank, so it lands there, on top of the flipped cards, and is "
        "flipped in turn (A9, A8).",
        f"Had seat {mover} advanced {high} ({high.rank.title}, a higher rank) from "
        f"{'the Start' if source == 0 else f'square {source}'} instead, square {d} would have "
        f"counted as occupied: it would have jumped over it to square {target} (A9, A3).",
    )


def _search_removal() -> Example:
    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        if not isinstance(moves[-1], ascent.Favour):
            return None
        before, after = states[-2], states[-1]
        grew = any(
            len(ascent.removed(after, q)) > len(ascent.removed(before, q))
            for q in range(after.players)
        )
        if grew and any(e.clause == "A13" for e in events[-1]):
            return len(moves) - 1
        return None

    return search(
        "ascent-removal",
        "ascent",
        players=5,
        goal=goal,
        policy=bias_favours,
        attempts=600,
        how="seeded playouts that prefer favours and partial takes",
    )


def _check_removal(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    step = shown.steps[ex.focus]
    before, after = shown.before, shown.after
    rules = before.rules
    _ensure(step.move.startswith("x"), ex, f"move {step.number} ({step.move}) is not a favour")
    taken = _ascent_card(step.move[1:])
    place = ascent.where(before, taken)
    _ensure(place is not None, ex, f"{taken} is not on the board before the favour")
    assert place is not None
    column, square = place
    stack = ascent.stack_at(before, column, square)
    index = stack.index(taken)
    part, rest = stack[: index + 1], stack[index + 1 :]
    _ensure(bool(rest), ex, "the favour took the whole stack: nothing was left")
    top = rest[0]
    ceiling = rules.arrival_of(top.rank)
    _ensure(square > ceiling, ex, f"{top} is not above its ceiling {ceiling}")
    _ensure(rules.in_upper_half(square), ex, f"square {square} is not in the upper half")
    gone = ascent.removed(after, column)
    _ensure(
        all(c in gone and ascent.where(after, c) is None for c in rest),
        ex,
        "the remainder is still on the board",
    )
    mover = step.seat
    _ensure(
        all(ascent.where(after, c) == (mover, square) for c in part),
        ex,
        "the taken cards are not under the taker's stack",
    )
    _ensure(_cites(step, "A13"), ex, "describe() does not cite A13")
    taken_text = " ".join(str(c) for c in part)
    rest_text = " ".join(str(c) for c in rest)
    left = (
        f"The card left behind, {top} ({top.rank.title}),"
        if len(rest) == 1
        else f"The remainder ({rest_text}) has {top} ({top.rank.title}) on top; it"
    )
    values = "its value counts" if len(rest) == 1 else "their values count"
    return (
        f"Move {step.number}: seat {mover}'s stack, just moved to square {square}, takes "
        f"{taken_text} from column {column}: only part of that stack (A10).",
        f"{left} stands on square {square}, above its arrival square {ceiling}, and square "
        f"{square} is in the upper half (squares {rules.upper_half} and above) (A13).",
        f"So the whole remainder leaves the board: removed(state, {column}) lists "
        f"{rest_text}, and {values} against seat {column} (A13, A16).",
    )


def _search_favour_replay() -> Example:
    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        if len(moves) < 3 or not isinstance(moves[-1], ascent.Advance):
            return None
        if not isinstance(moves[-2], ascent.Favour) or not isinstance(moves[-3], ascent.Advance):
            return None
        seats = {ascent.current_player(s) for s in states[-4:-1]}
        return len(moves) - 3 if len(seats) == 1 else None

    return search(
        "ascent-favour-replay",
        "ascent",
        players=3,
        goal=goal,
        policy=bias_favours,
        how="seeded playouts that prefer favours",
    )


def _check_favour_replay(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    first, favour, again = shown.steps[ex.focus : ex.focus + 3]
    states = shown.states
    mover = first.seat
    _ensure(favour.seat == mover and again.seat == mover, ex, "the three moves are not one turn")
    moved = _ascent_card(first.move)
    after_first = states[ex.focus + 1]
    _ensure(ascent.pending_favour(after_first), ex, "no favour was available after the Advance")
    where = ascent.where(after_first, moved)
    assert where is not None
    taken = _ascent_card(favour.move[1:])
    after_favour = states[ex.focus + 2]
    _ensure(
        ascent.where(after_favour, taken) == (mover, where[1]),
        ex,
        f"{taken} is not under seat {mover}'s stack",
    )
    assert mover is not None
    stack = ascent.stack_at(after_favour, mover, where[1])
    _ensure(stack.index(taken) > stack.index(moved), ex, f"{taken} is not under {moved}")
    _ensure(ascent.current_player(after_favour) == mover, ex, "the turn passed after the favour")
    _ensure(_cites(favour, "A12"), ex, "describe() does not offer the replay (A12)")
    return (
        f"Move {first.number}: seat {mover} advances {moved} to square {where[1]}; a lower "
        f"rank stands on row {where[1]} of another column, so a favour is available (A10).",
        f"Move {favour.number}: the stack just moved takes {taken}, put under it; "
        f"{taken} now belongs to column {mover} (A10, A11).",
        f"Move {again.number}: seat {mover} plays again at once and advances {again.move} (A12).",
    )


# --------------------------------------------------------------------------- Throne


def _throne_guided(
    round_number: int,
    place: Callable[[Any, throne.Place], float],
    climb: Callable[[Any, throne.Climb], float],
    vote_yes: Callable[[Any], bool],
) -> Policy:
    """A policy: random before ``round_number``, then greedy on the scores, random ties."""

    def policy(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[Any, Rng]:
        if throne.round_of(state) != round_number:
            return rng.choice(moves)
        if throne.phase(state) == "election":
            wanted = throne.Vote(vote_yes(state))
            return (wanted if wanted in moves else moves[0]), rng
        best: list[Any] = []
        top = float("-inf")
        for move in moves:
            if isinstance(move, throne.Place):
                value = place(state, move)
            elif isinstance(move, throne.Climb):
                value = climb(state, move)
            else:
                value = -1e9
            if value > top:
                best, top = [move], value
            elif value == top:
                best.append(move)
        return rng.choice(best)

    return policy


def _to_act(state: Any) -> int:
    seat = throne.current_player(state)
    assert seat is not None, "the game is over"
    return seat


def _first_no(state: Any) -> bool:
    """Whether nobody has voted No yet in this election (the search peeks at the votes)."""
    return all(v != 0 for v in state.votes)


def _search_elimination() -> Example:
    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        if len(events) < 2 or not any(e.clause == "B13" for e in events[-2]):
            return None
        if not isinstance(moves[-1], throne.Climb):
            return None
        return max(i for i, evs in enumerate(events[:-2]) if any(e.clause == "B10" for e in evs))

    return search("throne-elimination", "throne", players=4, goal=goal)


def _check_elimination(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    steps = shown.steps[ex.focus :]
    states = shown.states[ex.focus :]
    climb, votes, resume = steps[0], steps[1:-1], steps[-1]
    candidate = climb.move[0]
    mover = climb.seat
    assert mover is not None
    players = ex.players
    _ensure(throne.candidate(states[1]) == candidate, ex, f"{candidate} is not the candidate")
    _ensure(len(votes) == players, ex, "not every seat voted")
    order = [v.seat for v in votes]
    _ensure(
        order == [(mover + k) % players for k in range(players)],
        ex,
        "the votes were not cast from the mover on, in seat order",
    )
    no_voters = [v.seat for v in votes if v.move == "no"]
    _ensure(bool(no_voters), ex, "nobody voted No")
    reveal = states[-2]
    _ensure(throne.is_eliminated(reveal, candidate), ex, f"{candidate} was not eliminated")
    _ensure(throne.floor_of(reveal, candidate) is None, ex, f"{candidate} is still in the castle")
    for seat in no_voters:
        assert seat is not None
        _ensure(
            throne.no_cards(reveal, seat) == throne.no_cards(states[0], seat) - 1,
            ex,
            f"seat {seat} did not discard exactly one No card",
        )
    _ensure(throne.phase(reveal) == "movement", ex, "play did not resume with a climb")
    _ensure(resume.seat == (mover + 1) % players, ex, "play did not resume after the mover")
    who = _and([str(s) for s in sorted(v for v in no_voters if v is not None)])
    return (
        f"Move {climb.number}: seat {mover} moves {candidate} from the nobles to the throne: "
        "an election (B10).",
        f"Moves {votes[0].number}-{votes[-1].number}: every seat votes face down, seat "
        f"{mover} first; seat{'s' if len(no_voters) > 1 else ''} {who} vote No (B11).",
        f"One No is enough: {candidate} is eliminated for the rest of the round and leaves "
        f"the castle; each No voter discards one No card (B13, B11).",
        f"Move {resume.number}: play resumes with seat {resume.seat}, the seat after the "
        f"mover, which moves {resume.move[0]} up (B13, B8).",
    )


def _and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def _favourites(state: Any, seat: int) -> frozenset[str]:
    return throne.objective(state, seat)


def _search_max_round() -> Example:
    target = 0

    def place(state: Any, move: throne.Place) -> float:
        return move.floor if move.character in _favourites(state, target) else -move.floor

    def climb(state: Any, move: throne.Climb) -> float:
        favourites = _favourites(state, target)
        floor = throne.floor_of(state, move.character) or 0
        top = state.rules.throne_floor
        if move.character in favourites:
            if floor + 1 == top:
                others = throne.castle_points(state, favourites - {move.character})
                best_others = 3 * state.rules.points_of(top - 1) + 2 * state.rules.points_of(
                    top - 2
                )
                return 100 if others == best_others else -100
            return 10 + floor
        if floor + 1 >= top - 1:
            return -50 - floor
        return -floor

    def vote_yes(state: Any) -> bool:
        if throne.candidate(state) in _favourites(state, target):
            return True
        return not (throne.no_cards(state, _to_act(state)) > 0 and _first_no(state))

    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        results = throne.round_scores(states[-1])
        if not results:
            return None
        if results[0][target] != 33:
            raise _Restart
        return max(i for i, evs in enumerate(events) if any(e.clause == "B10" for e in evs))

    return search(
        "throne-max-round",
        "throne",
        players=4,
        attempts=200,
        goal=goal,
        policy=_throne_guided(1, place, climb, vote_yes),
        how="playouts guided toward seat 0's highest score",
    )


def _check_max_round(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    target = 0
    last_vote = len(shown.states) - 2
    crowning = shown.states[last_vote]
    king = throne.candidate(crowning)
    _ensure(king is not None, ex, "no candidate before the last vote")
    assert king is not None
    favourites = _favourites(crowning, target)
    _ensure(king in favourites, ex, f"the king {king} is not a favourite of seat {target}")
    rules = crowning.rules
    top = rules.throne_floor
    by_floor: dict[int, list[str]] = {}
    for letter in sorted(favourites):
        floor = throne.floor_of(crowning, letter)
        _ensure(floor is not None, ex, f"favourite {letter} is not in the castle")
        assert floor is not None
        by_floor.setdefault(floor, []).append(letter)
    _ensure(
        throne.castle_points(crowning, favourites) == 33, ex, "the favourites do not add up to 33"
    )
    final = shown.after
    _ensure(throne.king(final, 1) == king, ex, f"{king} was not crowned")
    _ensure(throne.round_scores(final)[0][target] == 33, ex, "round 1 did not score 33")
    parts = [
        f"{', '.join(by_floor[f])} on floor {f} ({len(by_floor[f])} × {rules.points_of(f)})"
        for f in sorted(by_floor, reverse=True)
    ]
    return (
        f"Seat {target}'s favourites in round 1 are {''.join(sorted(favourites))} (B4).",
        f"Move {ex.focus + 1}: {king}, a favourite, climbs to the throne; at that moment "
        + "; ".join(parts)
        + " (B14).",
        f"Every seat votes Yes: {king} is king and round 1 ends (B12). Seat {target} scores "
        f"{throne.round_scores(final)[0][target]} = 10 + 3 × 5 + 2 × 4, the most a round can "
        f"give: the nobles' floor holds at most {rules.capacity(top - 1)} and the king came "
        "from it (the proof table proves the bound) (B14, B7).",
    )


def _search_bonus() -> Example:
    target = 0
    final_round = throne.Rules().rounds

    def place(state: Any, move: throne.Place) -> float:
        favourites = _favourites(state, target)
        if move.character in favourites:
            return 100 if move.floor == 1 else 10 + move.floor
        return -100 if move.floor == 1 else -abs(move.floor - 3)

    def cleared(state: Any) -> bool:
        return all(
            throne.floor_of(state, x) in (None, 1) and throne.floor_of(state, x) != 0
            for x in _favourites(state, target)
        )

    def climb(state: Any, move: throne.Climb) -> float:
        favourites = _favourites(state, target)
        floor = throne.floor_of(state, move.character) or 0
        top = state.rules.throne_floor
        if move.character in favourites:
            return -1000 if floor == 1 else 20 + floor
        if floor + 1 == top:
            return 100 if cleared(state) else -50
        return -floor

    def vote_yes(state: Any) -> bool:
        if throne.candidate(state) in _favourites(state, target):
            return False
        return cleared(state)

    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        results = throne.round_scores(states[-1])
        if len(results) < final_round:
            return None
        if results[-1][target] != 33 or throne.castle_points(
            states[-1], _favourites(states[-1], target)
        ):
            raise _Restart
        return min(i for i, s in enumerate(states) if throne.round_of(s) == final_round)

    return search(
        "throne-bonus",
        "throne",
        players=4,
        attempts=200,
        goal=goal,
        policy=_throne_guided(final_round, place, climb, vote_yes),
        how="playouts guided toward a round-3 score of 0 for seat 0",
    )


def _check_bonus(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    target = 0
    final = shown.after
    rules = final.rules
    last = rules.rounds
    _ensure(throne.is_over(final), ex, "the game is not over")
    _ensure(rules.bonus_applies(last), ex, f"round {last} is not a bonus round")
    favourites = throne.objective(final, target)
    low = sorted(x for x in favourites if throne.floor_of(final, x) == 1)
    gone = sorted(x for x in favourites if throne.is_eliminated(final, x))
    _ensure(len(low) + len(gone) == len(favourites), ex, "a favourite scores points")
    _ensure(throne.castle_points(final, favourites) == 0, ex, "the favourites' points are not 0")
    score = throne.round_scores(final)[-1][target]
    _ensure(score == rules.bonus_points, ex, f"round {last} scores {score}, not 33")
    return (
        f"In round {last}, seat {target}'s favourites are {''.join(sorted(favourites))} (B4).",
        f"When the round ends, {', '.join(low)} are still on floor 1, the servants (0 points "
        f"each), and {', '.join(gone) or 'none'} were eliminated (0 points) (B14, B13).",
        f"Seat {target} should score 0, but round {last} is the last scoring: the 0 counts as "
        f"{score}, the maximum a round can give (B15).",
    )


def _search_no_cards() -> Example:
    def place(_state: Any, move: throne.Place) -> float:
        return move.floor

    def climb(state: Any, move: throne.Climb) -> float:
        return throne.floor_of(state, move.character) or 0

    def vote_yes(state: Any) -> bool:
        return throne.no_cards(state, _to_act(state)) == 0

    def goal(states: list[Any], moves: list[Any], events: list[tuple[Event, ...]]) -> int | None:
        if not throne.round_scores(states[-1]):
            return None
        if any(throne.no_cards(states[-2], s) for s in range(states[-2].players)):
            raise _Restart
        return min(i for i, evs in enumerate(events) if any(e.clause == "B10" for e in evs))

    return search(
        "throne-no-cards",
        "throne",
        players=4,
        attempts=200,
        goal=goal,
        policy=_throne_guided(1, place, climb, vote_yes),
        how="playouts guided toward elections where everyone votes No",
    )


def _check_no_cards(shown: Replay) -> tuple[str, ...]:
    ex = shown.example
    start = shown.states[0]
    players = ex.players
    dealt = [throne.no_cards(start, s) for s in range(players)]
    last = shown.states[-2]
    _ensure(
        all(throne.no_cards(last, s) == 0 for s in range(players)),
        ex,
        "some No card is left at the last vote",
    )
    eliminated = [step for step in shown.steps if any(e.clause == "B13" for e in step.events)]
    climbs = [
        i for i, step in enumerate(shown.steps) if any(e.clause == "B10" for e in step.events)
    ]
    voting = range(climbs[-1] + 1, len(shown.states) - 1)
    forced = [i for i in voting if throne.legal_moves(shown.states[i]) != (throne.Vote(True),)]
    _ensure(not forced, ex, "a seat could still vote No in the last election")
    _ensure(throne.king(shown.after, 1) is not None, ex, "round 1 did not end with a king")
    gone = sorted(x for x in start.rules.letters() if throne.is_eliminated(shown.states[-2], x))
    return (
        f"Each seat starts round 1 with {dealt[0]} No cards ({sum(dealt)} in all) (B11).",
        f"{len(eliminated)} elections end with No votes: {', '.join(gone)} are eliminated, and "
        "every No card is discarded once used (B13, B11).",
        f"In the last election no seat has a No card left: the only legal vote is Yes, and "
        f"{throne.king(shown.after, 1)} is crowned (B11, B12).",
    )


# --------------------------------------------------------------------------- catalogue

CATALOGUE: tuple[Entry, ...] = (
    Entry(
        "ascent-protection",
        "ascent",
        "Protection above the ceiling",
        ("A7", "A6", "A3"),
        "A card carried inside a stack goes above its own arrival square, protected by a "
        "higher rank above it.",
        _search_protection,
        _check_protection,
    ),
    Entry(
        "ascent-flipped-square",
        "ascent",
        "A flipped arrival square is free for the same rank only",
        ("A9", "A8", "A3"),
        "A card lands on its arrival square on top of flipped cards of its rank; a higher "
        "rank would have jumped over that square.",
        _search_flipped_square,
        _check_flipped_square,
    ),
    Entry(
        "ascent-removal",
        "ascent",
        "Removal in the upper half",
        ("A13", "A10", "A16"),
        "A favour takes only the top of a stack in the upper half; the card left on top is "
        "above its arrival square, so the rest of the stack leaves the board.",
        _search_removal,
        _check_removal,
    ),
    Entry(
        "ascent-favour-replay",
        "ascent",
        "A favour, then a replay",
        ("A10", "A11", "A12"),
        "An Advance ends beside a lower rank; the moved stack takes it, and the player "
        "plays again at once.",
        _search_favour_replay,
        _check_favour_replay,
    ),
    Entry(
        "throne-elimination",
        "throne",
        "Elimination, then play resumes",
        ("B10", "B11", "B13"),
        "A character reaches the throne; a single No eliminates it, and play resumes with "
        "the seat after the mover.",
        _search_elimination,
        _check_elimination,
    ),
    Entry(
        "throne-bonus",
        "throne",
        "The 33 points of the last scoring",
        ("B15", "B14"),
        "In round 3 a player whose favourites all end on the servants' floor or eliminated "
        "scores 0, which counts as 33.",
        _search_bonus,
        _check_bonus,
        seat=0,
    ),
    Entry(
        "throne-max-round",
        "throne",
        "A maximal round: 33 points",
        ("B14", "B12", "B7"),
        "A favourite is crowned while three more favourites fill the nobles' floor and two "
        "stand on the dignitaries': 10 + 3 × 5 + 2 × 4 = 33.",
        _search_max_round,
        _check_max_round,
        seat=0,
    ),
    Entry(
        "throne-no-cards",
        "throne",
        "A round where every No card is spent",
        ("B11", "B13", "B12"),
        "Elections end in No until nobody has a No card left; then the only vote is Yes and "
        "a king is crowned.",
        _search_no_cards,
        _check_no_cards,
    ),
)
"""Every entry of the gallery, Ascent first, in the order the documentation shows them."""

_BY_KEY: Mapping[str, Entry] = {e.key: e for e in CATALOGUE}


def entry(key: str) -> Entry:
    """The catalogue entry ``key``; ``KeyError`` names the known keys."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown gallery entry {key!r}; known: {', '.join(_BY_KEY)}") from None


def find(key: str) -> Example:
    """Search for an example of entry ``key`` (deterministic: the same result every run)."""
    return entry(key).search()


def build(known: Mapping[str, Example] | None = None) -> tuple[Replay, ...]:
    """Find (or take from ``known``) every example and replay it; raise on any broken claim.

    ``known`` lets a caller reuse examples found earlier (the documentation
    caches them per version of the sources); they are replayed and checked
    all the same.
    """
    out = []
    for item in CATALOGUE:
        example = (known or {}).get(item.key)
        if example is None:
            example = item.search()
        out.append(replay(example))
    return tuple(out)
