"""Playing Throne: setting up, the legal moves, applying a move, scoring, queries.

Every rule check cites its clause.  The legal moves and the move application
read every number from the :class:`~castlerules.throne.Rules` in the state
(through tables it builds once); nothing is spelled out here.

>>> s = new_game(players=4, seed=7)
>>> phase(s), current_player(s), len(legal_moves(s))
('placement', 0, 65)
>>> s = apply(s, Place("C", 3))
>>> floor_of(s, "C"), current_player(s)
(3, 1)
>>> apply(s, Place("D", 6))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
castlerules.core.errors.IllegalMove: Character D cannot be placed on floor 6: ... (B6)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, compress
from operator import lt, not_
from typing import Any

from castlerules.core.chance import check_seed
from castlerules.core.errors import ArgumentError, IllegalMove
from castlerules.core.protocol import require
from castlerules.throne.moves import Climb, Move, Pass, Place, Vote
from castlerules.throne.rules import (
    Codes,
    Rules,
    Tables,
    floor_label,
    floors_text,
    is_int,
    letter_set,
    members,
    place_rows,
    room_of,
)
from castlerules.throne.sampling import (
    deal_objectives,
    read_objectives,
)
from castlerules.throne.state import (
    ELECTION,
    ELIMINATED,
    MOVEMENT,
    OVER,
    PHASES,
    PLACEMENT,
    UNPLACED,
    Observation,
    State,
    build_observation,
    build_state,
)

# ---------------------------------------------------------------------------
# Setting up

_DEFAULT_RULES = Rules()


def new_game(
    players: int,
    rules: Rules | None = None,
    seed: int = 0,
    objectives: Sequence[Sequence[str]] | None = None,
) -> State:
    """A new game: round 1, placement phase, seat 0 to place (B3, B6).

    ``objectives``, if given, is one sequence per round of one string per
    seat (``["ABCDEF", "GHIJKL", "ACEGIK"]`` for 3 players); otherwise every
    round's objectives are dealt from ``seed`` (B4; see ``NOTES``).

    >>> s = new_game(3, objectives=[["ABCDEF", "GHIJKL", "ACEGIK"]] * 3)
    >>> sorted(objective(s, 2))
    ['A', 'C', 'E', 'G', 'I', 'K']
    >>> new_game(2)
    Traceback (most recent call last):
    ...
    castlerules.core.errors.ArgumentError: players must be a whole number in 3..6, not 2
    """
    if rules is None:
        rules = _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise ArgumentError(
            f"rules must be a castlerules.throne.Rules (or None), not {type(rules).__name__}"
        )
    count = rules.check_players(players)
    check_seed(seed)  # 0..2^64-1, the one seed domain (castlerules.core.chance)
    if objectives is None:
        masks = deal_objectives(rules, count, seed)
    else:
        masks = read_objectives(rules, count, objectives)
    full = (rules.no_cards_for(count),) * count
    return _round_start(
        rules, count, number=1, no_cards=full, objectives=masks, results=(), kings=()
    )


def first_player(rules: Rules, players: int, round_number: int) -> int:
    """The seat that starts round ``round_number`` (B3; option ``first_player_rotates``)."""
    return (round_number - 1) % players if rules.first_player_rotates else 0


def _round_start(
    rules: Rules,
    players: int,
    *,
    number: int,
    no_cards: tuple[int, ...],
    objectives: tuple[tuple[int, ...], ...],
    results: tuple[tuple[int, ...], ...],
    kings: tuple[int, ...],
) -> State:
    """Round ``number`` begins: empty castle, placement by its first player (B3, B4, B6)."""
    n = rules.characters
    return build_state(
        rules,
        players,
        number,
        PLACEMENT,
        turn=first_player(rules, players, number),
        floors=(UNPLACED,) * n,
        counts=(n,) + (0,) * rules.floors,
        no_cards=no_cards,
        votes=(),
        passes=0,
        objectives=objectives,
        results=results,
        kings=kings,
    )


# ---------------------------------------------------------------------------
# Legal moves


def _legal_rule(numbers: bool) -> Callable[[State], tuple[Any, ...]]:
    """The rule of the legal moves, written once: :func:`legal_moves` spells it in
    moves, :func:`legal_codes` in their numbers (``numbers``), with no call between
    (``legal_moves`` is the hot path of every playout)."""

    def legal(state: State) -> tuple[Any, ...]:
        if not isinstance(state, State):  # inlined require(): legal_moves is the hot path
            require(state, State, "state")
        phase_code = state.phase
        table = state.rules.tables
        alphabet: Tables | Codes = table.codes if numbers else table
        if phase_code == MOVEMENT:
            # B8: a character climbs one floor if the floor above holds fewer than
            # its capacity (B7: 4; the throne: 1). B9: nothing moves down.
            # room(f): can a character climb from floor f (False for 0, unplaced,
            # for the throne and for -1, eliminated); memoised per count pattern.
            counts = state.counts
            room = table.room_of.get(counts) or room_of(table, counts)
            found = tuple(compress(alphabet.climbs, map(room, state.floors)))
            return found + alphabet.with_pass if alphabet.with_pass else found
        if phase_code == ELECTION:
            # B11: a player with no No card left can only vote Yes.
            return alphabet.votes_no if state.no_cards[state.turn] else alphabet.votes_yes
        if phase_code == PLACEMENT:
            # B6: placement floors only (the first five); B7: floors with room.
            pattern = tuple(map(lt, table.place_counts(state.counts), table.place_caps))
            rows = alphabet.place_rows.get(pattern) or place_rows(table, pattern, alphabet)
            # rows[i]: character i onto each open floor; take the rows of the
            # unplaced characters, character by character.
            return tuple(chain.from_iterable(compress(rows, map(not_, state.floors))))
        return ()

    return legal


def _named(function: Any, name: str, returns: str, doc: str) -> Any:
    """``function`` (made by :func:`_legal_rule`) under its public name, type and text."""
    function.__name__ = function.__qualname__ = name
    function.__annotations__ = {"state": "State", "return": returns}
    function.__doc__ = doc
    return function


legal_moves: Callable[[State], tuple[Move, ...]] = _named(
    _legal_rule(numbers=False),
    "legal_moves",
    "tuple[Move, ...]",
    """Every legal move of the seat to act, in a fixed order, without duplicates.

    Placement (B6, B7): each unplaced character (A first) on each placement
    floor with room. Movement (B8, B9): each living character whose floor
    above has room, then Pass if allowed. Election (B11): Yes, then No if the
    seat has a No card left. Once over: nothing.
    """,
)

legal_codes: Callable[[State], tuple[int, ...]] = _named(
    _legal_rule(numbers=True),
    "legal_codes",
    "tuple[int, ...]",
    """The numbers of ``legal_moves(state)``, in the same order (increasing).

    For the adapters (:mod:`castlerules.adapters.numbering`): number ``k`` is the move
    ``state.rules.tables.codes.moves[k]`` (:class:`~castlerules.throne.rules.Codes`).
    """,
)


# ---------------------------------------------------------------------------
# Applying a move


def apply(state: State, move: Move, *, seat: int | None = None) -> State:
    """The state after ``move``; ``state`` is unchanged.

    ``seat``, if given, is the seat claiming to act: a whole number in
    ``0..players-1`` (anything else is an :class:`~castlerules.core.ArgumentError`,
    checked first); any other seat than the one to act is refused citing the
    turn order of the phase (B6, B8, B11).  An illegal move raises
    :class:`~castlerules.core.IllegalMove` with the clause it breaks; a move
    after the end cites B3.  A state or move of the wrong type is an
    :class:`~castlerules.core.ArgumentError`.
    """
    if not isinstance(state, State):  # inlined require(): apply is the hot path
        require(state, State, "state")
    phase_code = state.phase
    if seat is not None:
        _seat(state, seat)
        if phase_code != OVER and seat != state.turn:
            _check_move(move)
            _out_of_turn(state, seat)
    # The legal moves first, the most frequent first (Climb, Vote, Place); an
    # illegal one falls through to _refuse, which says why (B3 once over).
    kind = type(move)
    if kind is Climb:
        if phase_code == MOVEMENT:
            table = state.rules.tables
            i = table.index.get(move.character)  # type: ignore[union-attr]
            if i is not None:
                f = state.floors[i]
                # B8 (B7): the floor above must have room; B9: only upwards.
                if 0 < f < table.top and state.counts[f + 1] < table.cap[f + 1]:
                    return _climb(state, i, f, table.top)
    elif kind is Vote:
        # B11: Yes always; No only with a No card left.
        if phase_code == ELECTION and (move.yes or state.no_cards[state.turn] > 0):  # type: ignore[union-attr]
            return _vote(state, move.yes)  # type: ignore[union-attr]
    elif kind is Place:
        if phase_code == PLACEMENT:
            table = state.rules.tables
            i = table.index.get(move.character)  # type: ignore[union-attr]
            f = move.floor  # type: ignore[union-attr]
            # B6: an unplaced character, on a placement floor; B7: with room.
            if (
                i is not None
                and state.floors[i] == UNPLACED
                and 0 < f < len(table.place_ok)
                and table.place_ok[f]
                and state.counts[f] < table.cap[f]
            ):
                return _place(state, i, f)
    elif kind is Pass:
        if phase_code == MOVEMENT and state.rules.tables.with_pass:
            return _pass(state)
    elif phase_code != OVER and isinstance(move, Place | Climb | Vote | Pass):
        # An instance of a subclass of a move class: judge it as the move it is.
        return apply(state, _plain(move), seat=seat)
    if phase_code == OVER:
        _check_move(move)
        # B3: the game has three rounds (option rounds); nothing follows the last scoring.
        raise IllegalMove(
            f"The game is over: all {state.rules.rounds} rounds have been scored, "
            f"so {_show(move)} cannot be played",
            "B3",
            refusal="throne-game-over",
        )
    _refuse(state, move)
    raise AssertionError("unreachable: _refuse always raises")  # pragma: no cover


def _plain(move: Move) -> Move:
    if isinstance(move, Place):
        return Place(move.character, move.floor)
    if isinstance(move, Climb):
        return Climb(move.character)
    if isinstance(move, Vote):
        return Vote(move.yes)
    return Pass()


def _play(state: State, move: Move) -> State:
    """Apply a move generated by ``legal_moves(state)`` without checking it (perft only).

    Any other move would give an inconsistent state: this stays private.
    """
    kind = type(move)
    table = state.rules.tables
    if kind is Climb:
        i = table.index[move.character]  # type: ignore[union-attr]
        return _climb(state, i, state.floors[i], table.top)
    if kind is Place:
        return _place(state, table.index[move.character], move.floor)  # type: ignore[union-attr]
    if kind is Vote:
        return _vote(state, move.yes)  # type: ignore[union-attr]
    return _pass(state)


def _climb(state: State, i: int, f: int, top: int) -> State:
    """Character ``i`` climbs from floor ``f`` (checked by the caller, B8); ``top``: the throne."""
    floors = list(state.floors)
    floors[i] = f = f + 1
    counts = list(state.counts)
    counts[f - 1] -= 1
    counts[f] += 1
    if f == top:
        # B10: reaching the throne triggers the election; the mover votes first (B11).
        return build_state(
            state.rules,
            state.players,
            state.round,
            ELECTION,
            turn=state.turn,
            floors=tuple(floors),
            counts=tuple(counts),
            no_cards=state.no_cards,
            votes=(-1,) * state.players,
            passes=0,
            objectives=state.objectives,
            results=state.results,
            kings=state.kings,
        )
    turn = state.turn + 1
    if turn == state.players:
        turn = 0
    return build_state(
        state.rules,
        state.players,
        state.round,
        MOVEMENT,
        turn=turn,
        floors=tuple(floors),
        counts=tuple(counts),
        no_cards=state.no_cards,
        votes=(),
        passes=0,
        objectives=state.objectives,
        results=state.results,
        kings=state.kings,
    )


def _place(state: State, i: int, f: int) -> State:
    floors = list(state.floors)
    floors[i] = f
    counts = list(state.counts)
    counts[0] -= 1
    counts[f] += 1
    rules = state.rules
    table = rules.tables
    turn = state.turn + 1
    if turn == state.players:
        turn = 0
    phase_code = PLACEMENT
    if table.n - counts[0] == table.placements[state.players]:
        # B8: placement is over; by default movement continues the turn order from the
        # last placer, else (movement_starter) the round's first player starts it.
        phase_code = MOVEMENT
        if table.movement_from_first:
            turn = first_player(rules, state.players, state.round)
        if counts[0]:
            # B6 (equal_placement): the leftover characters go to floor 1.
            for j, where in enumerate(floors):
                if where == UNPLACED:
                    floors[j] = 1
            counts[1] += counts[0]
            counts[0] = 0
    return build_state(
        rules,
        state.players,
        state.round,
        phase_code,
        turn=turn,
        floors=tuple(floors),
        counts=tuple(counts),
        no_cards=state.no_cards,
        votes=(),
        passes=0,
        objectives=state.objectives,
        results=state.results,
        kings=state.kings,
    )


def _vote(state: State, yes: bool) -> State:
    votes = list(state.votes)
    turn = state.turn
    votes[turn] = 1 if yes else 0
    nxt = turn + 1
    if nxt == state.players:
        nxt = 0
    if votes[nxt] < 0:
        # B11: the votes stay face down until everyone has voted.
        return build_state(
            state.rules,
            state.players,
            state.round,
            ELECTION,
            turn=nxt,
            floors=state.floors,
            counts=state.counts,
            no_cards=state.no_cards,
            votes=tuple(votes),
            passes=0,
            objectives=state.objectives,
            results=state.results,
            kings=state.kings,
        )
    # Everyone has voted: the cards are revealed together (B11); ``nxt`` is the mover.
    top = state.rules.tables.top
    candidate = state.floors.index(top)
    if 0 not in votes:
        # B12: all Yes, the candidate is crowned and the round ends.
        return _end_round(state, state.floors, state.counts, state.no_cards, candidate)
    # B13: at least one No: the candidate is eliminated and play resumes;
    # B11: each No voter discards a No card.
    no_cards_left = list(state.no_cards)
    for voter, v in enumerate(votes):
        if not v:
            no_cards_left[voter] -= 1
    no_cards = tuple(no_cards_left)
    floors = list(state.floors)
    floors[candidate] = ELIMINATED
    counts = list(state.counts)
    counts[top] = 0
    if not any(counts[1:top]):
        # Nobody left in the castle (only with more No cards than characters): the round ends.
        return _end_round(state, tuple(floors), tuple(counts), no_cards, -1)
    resume = nxt + 1
    if resume == state.players:
        resume = 0
    return build_state(
        state.rules,
        state.players,
        state.round,
        MOVEMENT,
        turn=resume,
        floors=tuple(floors),
        counts=tuple(counts),
        no_cards=no_cards,
        votes=(),
        passes=0,
        objectives=state.objectives,
        results=state.results,
        kings=state.kings,
    )


def _pass(state: State) -> State:
    passes = state.passes + 1
    if passes == state.players:
        # allow_pass: every player passed in a row, the round ends without a king.
        return _end_round(state, state.floors, state.counts, state.no_cards, -1)
    turn = state.turn + 1
    if turn == state.players:
        turn = 0
    return build_state(
        state.rules,
        state.players,
        state.round,
        MOVEMENT,
        turn=turn,
        floors=state.floors,
        counts=state.counts,
        no_cards=state.no_cards,
        votes=(),
        passes=passes,
        objectives=state.objectives,
        results=state.results,
        kings=state.kings,
    )


def favourite_points(rules: Rules, floors: Sequence[int], mask: int) -> int:
    """The points of the favourites in ``mask`` at these floors (B14), before B15."""
    table = rules.tables
    chosen = table.members.get(mask) or members(table, mask)
    # B13: an eliminated (-1) or unplaced (0) favourite scores nothing.
    return sum(map(table.points_or_0.__getitem__, map(floors.__getitem__, chosen)))


def round_score(rules: Rules, round_number: int, floors: Sequence[int], mask: int) -> int:
    """One player's score for a round: their favourites' points (B14), 0 -> 33 (B15).

    ``floors`` gives each character's floor (0 or -1: scores nothing, B13);
    ``mask`` the favourites (bit i: character i).
    """
    total = favourite_points(rules, floors, mask)
    if total == 0 and rules.bonus_applies(round_number):
        total = rules.bonus_points  # B15: in the last scoring, 0 counts as 33.
    return total


def _end_round(
    state: State,
    floors: tuple[int, ...],
    counts: tuple[int, ...],
    no_cards: tuple[int, ...],
    king_index: int,
) -> State:
    """Score the round (B14, B15); start the next one or end the game (B3)."""
    rules = state.rules
    number = state.round
    scores = tuple(
        round_score(rules, number, floors, mask) for mask in state.objectives[number - 1]
    )
    results = (*state.results, scores)
    kings = (*state.kings, king_index)
    if number == rules.rounds:
        # B3, B16: the last scoring ends the game; the final castle stays visible.
        return build_state(
            rules,
            state.players,
            number,
            OVER,
            turn=-1,
            floors=floors,
            counts=counts,
            no_cards=no_cards,
            votes=(),
            passes=0,
            objectives=state.objectives,
            results=results,
            kings=kings,
        )
    if rules.no_cards_reset_each_round:
        no_cards = (rules.no_cards_for(state.players),) * state.players
    return _round_start(
        rules,
        state.players,
        number=number + 1,
        no_cards=no_cards,
        objectives=state.objectives,
        results=results,
        kings=kings,
    )


# ---------------------------------------------------------------------------
# Why a move is refused


def _show(move: Move) -> str:
    return repr(str(move))


def _check_move(move: object) -> None:
    if not isinstance(move, Place | Climb | Vote | Pass):
        raise ArgumentError(
            "apply() takes a Place, Climb, Vote or Pass move (parse_move reads text), "
            f"not {move!r:.60}"
        )


_TURN_CLAUSE = {PLACEMENT: "B6", MOVEMENT: "B8", ELECTION: "B11"}
_TURN_REFUSAL = {
    PLACEMENT: "throne-turn-placement",
    MOVEMENT: "throne-turn-movement",
    ELECTION: "throne-turn-election",
}


def _out_of_turn(state: State, seat: int) -> None:
    turn = state.turn
    if state.phase == PLACEMENT:
        what = "place a character: the players place in turn"
    elif state.phase == MOVEMENT:
        what = "move a character up: the players move in turn"
    else:
        what = "vote: the votes go round from the player who raised the candidate"
    raise IllegalMove(
        f"It is seat {turn}'s turn to {what}, so seat {seat} cannot act now",
        _TURN_CLAUSE[state.phase],
        refusal=_TURN_REFUSAL[state.phase],
    )


def _wrong_phase(state: State, tried: str) -> IllegalMove:
    seat = state.turn
    if state.phase == PLACEMENT:
        return IllegalMove(
            f"The castle is being filled: seat {seat} must place a character, not {tried}",
            "B6",
            refusal="throne-move-in-placement",
        )
    if state.phase == MOVEMENT:
        return IllegalMove(
            f"Every character is placed: seat {seat} must move a character up, not {tried}",
            "B8",
            refusal="throne-place-in-movement",
        )
    return IllegalMove(
        f"An election is under way: seat {seat} must vote Yes or No, not {tried}",
        "B11",
        refusal="throne-move-in-election",
    )


def _character(state: State, letter: str, clause: str) -> int:
    table = state.rules.tables
    i = table.index.get(letter)
    if i is None:
        raise IllegalMove(
            f"There is no character {letter!r}: the characters are "
            f"{table.letters[0]}-{table.letters[-1]}",
            clause,
            refusal="throne-unknown-placement" if clause == "B6" else "throne-unknown-movement",
        )
    return i


def _refuse(state: State, move: object) -> None:
    """Raise the IllegalMove (or ArgumentError) that explains why ``move`` is refused."""
    rules = state.rules
    table = rules.tables
    seat = state.turn
    if isinstance(move, Place):
        if state.phase != PLACEMENT:
            raise _wrong_phase(state, f"place {move.character} (move {move})")
        i = _character(state, move.character, "B6")
        where = state.floors[i]
        c = move.character
        if where != UNPLACED:
            raise IllegalMove(
                f"Character {c} is already in the castle (floor {where}): "
                "place a character not yet placed",
                "B6",
                refusal="throne-placed-twice",
            )
        f = move.floor
        if not (0 < f < len(table.place_ok) and table.place_ok[f]):
            raise IllegalMove(
                f"Character {c} cannot be placed on floor {f}: placement is on "
                f"{floors_text(rules.placement_floors)} only",
                "B6",
                refusal="throne-placement-floors",
            )
        raise IllegalMove(
            f"Character {c} cannot be placed on floor {f}: it already holds "
            f"{_characters(state.counts[f])}, the most a floor may hold",
            "B7",
            refusal="throne-full-floor",
        )
    if isinstance(move, Climb):
        c = move.character
        on_throne = table.index.get(c)
        if on_throne is not None and state.floors[on_throne] == table.top:
            raise IllegalMove(
                f"Character {c} is on the throne, the top floor: it cannot climb higher",
                "B8",
                refusal="throne-climb-from-throne",
            )
        if state.phase != MOVEMENT:
            raise _wrong_phase(state, f"climb {c} (move {move})")
        i = _character(state, c, "B8")
        f = state.floors[i]
        if f == ELIMINATED:
            raise IllegalMove(
                f"Character {c} was eliminated this round: it has left the castle",
                "B13",
                refusal="throne-eliminated",
            )
        if f == UNPLACED:  # pragma: no cover - every character is placed in the movement phase
            raise IllegalMove(
                f"Character {c} is not in the castle", "B8", refusal="throne-not-in-castle"
            )
        above = f + 1
        cap = rules.capacity(above)
        room = f"a floor holding fewer than {cap}" if cap > 1 else "an empty floor"
        raise IllegalMove(
            f"Character {c} cannot climb from floor {f} to floor {above}: "
            f"{floor_label(above)} already holds {_characters(state.counts[above])}, and a "
            f"character climbs only into {room}",
            "B8",
            refusal="throne-climb-into-full",
        )
    if isinstance(move, Vote):
        if state.phase != ELECTION:
            raise IllegalMove(
                "There is no election to vote in: an election happens only when a "
                "character reaches the throne",
                "B10",
                refusal="throne-no-election",
            )
        raise IllegalMove(
            f"Seat {seat} has no No card left (used No cards are discarded): it can only vote Yes",
            "B11",
            refusal="throne-no-card-left",
        )
    if isinstance(move, Pass):
        if state.phase == MOVEMENT:
            raise IllegalMove(
                f"Seat {seat} must move a character up: these rules do not allow passing "
                "(option allow_pass)",
                "B8",
                refusal="throne-pass-refused",
            )
        raise _wrong_phase(state, "pass")
    _check_move(move)


def _characters(count: int) -> str:
    return "1 character" if count == 1 else f"{count} characters"


# ---------------------------------------------------------------------------
# Queries


def current_player(state: State) -> int | None:
    """The seat to act, or None once the game is over."""
    require(state, State, "state")
    return None if state.phase == OVER else state.turn


def is_over(state: State) -> bool:
    """Whether the last round has been scored (B3)."""
    require(state, State, "state")
    return state.phase == OVER


def phase(state: State) -> str:
    """``"placement"``, ``"movement"``, ``"election"`` or ``"over"``."""
    require(state, State, "state")
    return PHASES[state.phase]


def round_of(state: State) -> int:
    """The current round, from 1 (the last round once the game is over) (B3)."""
    require(state, State, "state")
    return state.round


def round_scores(state: State) -> tuple[tuple[int, ...], ...]:
    """The scores of the finished rounds, per round, per seat (B14, B15)."""
    require(state, State, "state")
    return state.results


def totals(state: State) -> tuple[int, ...]:
    """Each seat's total over the finished rounds (B16)."""
    require(state, State, "state")
    out = [0] * state.players
    for result in state.results:
        for seat, points in enumerate(result):
            out[seat] += points
    return tuple(out)


def scores(state: State) -> tuple[int, ...]:
    """Each seat's score so far: the totals of the finished rounds (final once over)."""
    require(state, State, "state")
    return totals(state)


def winners(state: State) -> tuple[int, ...]:
    """The seats with the highest total once the game is over (ties share the win, B16).

    Before the end there is no winner yet: ``()`` (see ``NOTES``).
    """
    require(state, State, "state")
    if state.phase != OVER:
        return ()
    final = totals(state)
    best = max(final)
    return tuple(seat for seat, points in enumerate(final) if points == best)


def _letter_index(state: State, character: object) -> int:
    require(state, State, "state")
    table = state.rules.tables
    i = table.index.get(character) if isinstance(character, str) else None
    if i is None:
        raise ArgumentError(
            f"character must be a letter in {table.letters[0]}-{table.letters[-1]}, "
            f"not {character!r}"
        )
    return i


def _seat(state: State, seat: object) -> int:
    require(state, State, "state")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise ArgumentError(f"seat must be a whole number in 0..{state.players - 1}, not {seat!r}")
    return seat


def floor_of(state: State, character: str) -> int | None:
    """The floor (1..7) of ``character``; None if not placed yet or eliminated."""
    i = _letter_index(state, character)
    f = state.floors[i]
    return f if f > 0 else None


def castle_points(state: State, characters: str | Iterable[str]) -> int:
    """The floor points (B14) of ``characters`` as they stand: what they would score
    if the round ended now, before B15's 0 -> 33.  ``characters`` is letters
    (``"ABF"``) or any iterable of letters, each counted once; a character not
    placed yet or eliminated counts 0.

    >>> s = new_game(3, seed=1)
    >>> castle_points(s, "ABC")
    0
    """
    require(state, State, "state")
    if isinstance(characters, str):
        letters: Iterable[object] = characters
    elif isinstance(characters, Iterable):
        letters = characters
    else:
        raise ArgumentError(
            f"characters must be letters or an iterable of letters, not {characters!r:.60}"
        )
    points = state.rules.tables.points
    chosen = {_letter_index(state, letter) for letter in letters}  # unknown letters: ArgumentError
    return sum(points[state.floors[i]] for i in chosen if state.floors[i] > 0)


def is_eliminated(state: State, character: str) -> bool:
    """Whether ``character`` was eliminated in the current round (B13)."""
    i = _letter_index(state, character)
    return state.floors[i] == ELIMINATED


def no_cards(state: State, seat: int) -> int:
    """No cards ``seat`` holds (votes still face down are not yet deducted, B11)."""
    me = _seat(state, seat)
    return state.no_cards[me]


def objective(state: State, seat: int) -> frozenset[str]:
    """The favourites of ``seat`` in the current round (B4); hidden information.

    Once the game is over, the objective of the last round (see ``NOTES``).
    """
    me = _seat(state, seat)
    mask = state.objectives[state.round - 1][me]
    table = state.rules.tables
    return table.letter_sets.get(mask) or letter_set(table, mask)


def objectives_of_round(state: State, round_number: int) -> tuple[frozenset[str], ...]:
    """Every seat's objective in round ``round_number`` (full information)."""
    number = _round_number(state, round_number)
    return _letter_sets(state.rules, state.objectives[number - 1])


def _letter_sets(rules: Rules, masks: tuple[int, ...]) -> tuple[frozenset[str], ...]:
    """The objectives ``masks`` as sets of letters (memoised per mask in the rules' tables)."""
    table = rules.tables
    known = table.letter_sets
    return tuple([known.get(mask) or letter_set(table, mask) for mask in masks])


def _round_number(state: State, round_number: object) -> int:
    require(state, State, "state")
    if not is_int(round_number) or not 1 <= round_number <= state.rules.rounds:  # type: ignore[operator]
        raise ArgumentError(f"round must be in 1..{state.rules.rounds}, not {round_number!r}")
    assert isinstance(round_number, int)
    return round_number


def candidate(state: State) -> str | None:
    """The character on the throne during an election (B10), else None."""
    require(state, State, "state")
    if state.phase != ELECTION:
        return None
    return state.rules.letters()[state.floors.index(state.rules.tables.top)]


def king(state: State, round_number: int | None = None) -> str | None:
    """The king crowned in ``round_number`` (default: the last finished round) (B12).

    None if that round ended without a king (all characters eliminated, or
    every player passed) or has not finished.
    """
    if round_number is None:
        require(state, State, "state")
        if not state.kings:
            return None
        index = state.kings[-1]
    else:
        number = _round_number(state, round_number)
        if number > len(state.kings):
            return None
        index = state.kings[number - 1]
    return None if index < 0 else state.rules.letters()[index]


def observation(state: State, seat: int) -> Observation:
    """What ``seat`` may know: everything but hidden objectives, votes and counts (B4, B11)."""
    me = _seat(state, seat)
    rules = state.rules
    table = rules.tables
    known = table.letter_sets
    finished = len(state.results)
    players = state.players
    phase_code = state.phase
    if phase_code == ELECTION:
        # B11: the votes are cast face down: whether each seat has voted, and this seat's vote.
        voted = tuple([v >= 0 for v in state.votes])
        mine = state.votes[me]
        vote = None if mine < 0 else mine == 1
    else:
        voted = (False,) * players
        vote = None
    if rules.no_cards_public:
        no_cards: tuple[int | None, ...] = state.no_cards
    else:  # B11: the other seats' No cards are hidden unless the option makes them public
        hidden: list[int | None] = [None] * players
        hidden[me] = state.no_cards[me]
        no_cards = tuple(hidden)
    # B4: this seat's objective of the current round; B14: every objective of a scored round.
    mask = state.objectives[state.round - 1][me]
    letters = table.letters
    return build_observation(
        me,
        rules,
        players,
        state.round,
        phase=PHASES[phase_code],
        turn=None if phase_code == OVER else state.turn,
        floors=state.floors,
        no_cards=no_cards,
        objective=known.get(mask) or letter_set(table, mask),
        voted=voted,
        vote=vote,
        passes=state.passes,
        revealed=tuple([_letter_sets(rules, deal) for deal in state.objectives[:finished]]),
        round_scores=state.results,
        kings=tuple([None if k < 0 else letters[k] for k in state.kings[:finished]])
        + (None,) * (finished - len(state.kings)),  # (a round without its king: None)
    )


# ---------------------------------------------------------------------------
# Move tree


def perft(state: State, depth: int) -> int:
    """The number of leaves of the move tree ``depth`` plies below ``state``.

    A finished game is a leaf at any depth (as in :func:`castlerules.core.perft`).

    >>> perft(new_game(3, seed=1), 2)  # 13 characters x 5 floors, then 12 x 5
    3900
    """
    require(state, State, "state")
    if not is_int(depth) or depth < 0:
        raise ArgumentError(f"perft depth must be a whole number >= 0, not {depth!r}")
    return _perft(state, depth)


def _perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(_perft(_play(state, move), depth - 1) for move in moves)
