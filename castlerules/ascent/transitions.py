"""The rules in motion: setup, legal moves, applying a move, the end and the score.

Every rule check cites its clause.  The numbers come from the state's
:class:`~castlerules.ascent.rules.Rules` through its derived
:class:`~castlerules.ascent.rules.Tables`; this module spells out none.

The reference interpretation (``spec/ascent.md``, rules 8-19) in short:

* An Advance moves card ``c`` of the player's column, unflipped, with every
  card above it (rule 8, A2, A3, A8).  Its destination is the lowest square
  above ``c``'s square free for the leader's rank, jumping over occupied
  squares (rule 9, A3, A4); a square is free for rank ``r`` if it is empty or
  is ``r``'s arrival square holding flipped cards (A9).
* The destination may not lie above the leader's arrival square (rule 10,
  A6); the cards under the leader are protected (A7).  A split may not leave
  on top of the remainder a card above its own arrival square (rule 11, A7).
* Arriving on the leader's arrival square flips the moving part (rule 12, A8).
* A favour then takes a top part of a lower-ranked, unflipped stack of
  another column on the same row, under the moved stack (rules 13-14, A10,
  A11); an exposed remainder in the upper half leaves the board (rule 15,
  A13); after a favour the player may play again (rule 16, A12).
* When a turn ends the game-over test runs, then the turn passes to the next
  seat with a legal Advance (rules 17-18, A14).  Scores: rule 19 (A15-A17).
"""

from __future__ import annotations

import functools

from castlerules.ascent.moves import (
    ADVANCES,
    CODE_BY_ID,
    END,
    END_CODE,
    FAVOUR_BASE,
    FAVOURS,
    Move,
    code_of,
)
from castlerules.ascent.refusals import ceiling_error, favour_elsewhere, named, not_in_column
from castlerules.ascent.rules import PLAYERS, Rules, Tables
from castlerules.ascent.setup import (
    check_every_seat_dealt,
    check_owners,
    check_players,
    deal_of,
    first_player_of,
)
from castlerules.ascent.stacks import other_reading_advances, rank_card
from castlerules.ascent.state import Column, State, build_state, check_seat
from castlerules.core.chance import check_seed
from castlerules.core.errors import ArgumentError, IllegalMove
from castlerules.core.protocol import require

_NO_MOVES: tuple[Move, ...] = ()
_DEFAULT_RULES = Rules()
_OTHERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(q for q in range(n) if q != p) for p in range(n)) for n in range(PLAYERS.stop)
)
"""``_OTHERS[n][p]``: the seats of an ``n``-player game other than ``p``, in seat order."""
_AFTER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((p + k) % n for k in range(1, n + 1)) for p in range(n))
    for n in range(PLAYERS.stop)
)
"""``_AFTER[n][p]``: the seats in turn order after ``p``, ``p`` itself last."""


# --------------------------------------------------------------------------- moves


def _advances(t: Tables, col: Column, flipped_mask: int, occupied_mask: int) -> list[Move]:
    """The legal Advances of a column (rules 8-11).

    ``flipped_mask`` and ``occupied_mask`` are the column's flipped and occupied square masks.
    Order: the Start cards in card-number order, then the stacks from the
    lowest square up, each from its top card down.
    """
    out: list[Move] = []
    free = ~occupied_mask  # A3: any empty square is free...
    arrival_bit = t.arrival_bit
    from_start = t.start_window
    for c in col[0]:
        # ...and so is the rank's own arrival square holding flipped cards (A9).
        # The window stops at the card's ceiling (A6); from the Start it holds the
        # arrival square, so the A9 square needs no window.
        if from_start[c] & free or flipped_mask & arrival_bit[c]:
            out.append(ADVANCES[c])
    live = occupied_mask & ~flipped_mask  # A8: flipped stacks never move
    if not live:
        return out
    squares = t.squares_of.get(live) or t.set_squares(live)
    if not t.top_part_leads:
        out += other_reading_advances(t, col, squares, free, flipped_mask)
        return out
    window = t.window
    for s in squares:
        stack = col[s]
        lead = stack[0]
        w = window[lead][s]
        if not (w & free or w & flipped_mask & arrival_bit[lead]):
            continue  # A6: the next free square is above the leader's ceiling
        n = len(stack)
        if n == 1:
            out.append(ADVANCES[lead])
        elif t.allow_exposing_split:  # A7: the part below the leader is protected
            out += map(ADVANCES.__getitem__, stack)
        else:
            arr = t.arrival
            for i in range(n - 1):
                # A7 (rule 11): the remainder's top must not stand above its ceiling
                if s <= arr[stack[i + 1]]:
                    out.append(ADVANCES[stack[i]])
            out.append(ADVANCES[stack[-1]])
    return out


def _favour_targets(
    t: Tables, cols: tuple[Column, ...], flipped: tuple[int, ...], p: int, d: int, m: int
) -> list[Move]:
    """Favours on row ``d`` for the stack of column ``p`` there, ``m`` cards of it moved
    (rule 13, A10, A11).

    Every card of an unflipped stack of another column on square ``d`` whose
    rank (its leader's, option ``stack_rank``) is lower than the moved stack's;
    columns in seat order, cards top first.
    """
    out: list[Move] = []
    bit = 1 << d
    value = t.value
    r = value[rank_card(t, cols[p][d][:m])]
    for q in _OTHERS[len(cols)][p]:  # A10: another column
        stack = cols[q][d]
        # A10: lower rank only; flipped cards are never taken (A8, rule 13)
        if stack and value[rank_card(t, stack)] < r and not flipped[q] & bit:
            out += map(FAVOURS.__getitem__, _takeable(t, stack, r))
    return out


def _takeable(t: Tables, stack: tuple[int, ...], r: int) -> tuple[int, ...]:
    """The cards ``t`` of a stack whose top ranks lower than ``r`` that a favour may name:
    every card (``favour_takes="lower_top"``), or those down to the first card that does
    not rank lower than ``r`` (``"all_lower"``: every taken card ranks lower, A10)."""
    if not t.all_lower:
        return stack
    value = t.value
    for i, c in enumerate(stack):
        if value[c] >= r:
            return stack[:i]
    return stack


def _favours_open(
    t: Tables,
    state_cols: tuple[Column, ...],
    flipped: tuple[int, ...],
    p: int,
    step: tuple[int, int, int],
) -> list[Move]:
    """The favours still open in a mid-turn step (A10, A11; options favours_per_move,
    favour_after_arrival)."""
    d, m, k = step
    if k >= t.favour_limit:
        return []
    if not t.favour_after_arrival and flipped[p] >> d & 1:
        return []
    return _favour_targets(t, state_cols, flipped, p, d, m)


def _moves_for(
    t: Tables,
    *,
    cols: tuple[Column, ...],
    flipped: tuple[int, ...],
    occ: tuple[int, ...],
    actor: int,
    step: tuple[int, int, int] | None,
    replays: int,
) -> tuple[Move, ...]:
    """The legal moves of a position, from scratch (rule 16)."""
    if actor < 0:
        return _NO_MOVES
    if step is None:
        return tuple(_advances(t, cols[actor], flipped[actor], occ[actor]))
    favours = _favours_open(t, cols, flipped, actor, step)
    if step[2] == 0 or replays >= t.replay_limit:  # A12: no replay (yet, or any more)
        return (*favours, END)
    advances = _advances(t, cols[actor], flipped[actor], occ[actor])  # A12: replay
    return (*favours, *advances, END)


def occupancy(t: Tables, cols: tuple[Column, ...]) -> tuple[int, ...]:
    """Per column, the bit mask of its non-empty path squares."""
    out = []
    for col in cols:
        mask = 0
        for s in range(1, t.squares + 1):
            if col[s]:
                mask |= 1 << s
        out.append(mask)
    return tuple(out)


def in_race(t: Tables, col: Column, flipped_mask: int, occupied_mask: int) -> bool:
    """Whether a column's player is still in the race under ``end_test`` (rule 18, A14).

    ``"unreached"``: an unfinished card, not flipped and below its own arrival
    square (a Start card always is); ``"unflipped"``: any card not flipped;
    ``"can_move"``: a legal Advance now.  A player in none of them has no legal
    Advance either (an Advance moves an unflipped leader below its ceiling).
    """
    test = t.end_test
    if test == "can_move":
        return bool(_advances(t, col, flipped_mask, occupied_mask))
    if col[0]:
        return True  # Start cards are unflipped and below their arrival squares
    live = occupied_mask & ~flipped_mask
    if not live:
        return False
    if test == "unflipped":
        return True
    arr = t.arrival
    for s in t.squares_of.get(live) or t.set_squares(live):
        for c in col[s]:
            if s < arr[c]:
                return True
    return False


def game_over_test(
    t: Tables, cols: tuple[Column, ...], flipped: tuple[int, ...], occ: tuple[int, ...]
) -> bool:
    """The test run when a turn ends (rule 18, A14).

    Over if at most one player is still in the race (:func:`in_race`, option
    ``end_test``), unless ``last_player_continues``; or if no player has a
    legal Advance.
    """
    n = len(cols)
    if not t.last_player_continues:
        alive = 0
        for q in range(n):
            if in_race(t, cols[q], flipped[q], occ[q]):
                alive += 1
        if alive <= 1:
            return True
    return not any(_advances(t, cols[q], flipped[q], occ[q]) for q in range(n))


def _end_turn(
    rules: Rules,
    t: Tables,
    cols: tuple[Column, ...],
    flipped: tuple[int, ...],
    removed: tuple[tuple[int, ...], ...],
    owners: tuple[int, ...],
    occ: tuple[int, ...],
    p: int,
) -> State:
    """End ``p``'s turn: the game-over test, then the next seat with a move (rules 17-18).

    The seats are taken in turn order after ``p`` (``p`` last).  The first with a
    legal Advance plays next; the game goes on as soon as a second seat still in
    the race (:func:`in_race`) is seen, and ends otherwise (A14).
    """
    alive = 0  # seats still in the race seen so far, the next seat to play included
    nxt = -1
    moves: list[Move] = []
    test = t.end_test
    for q in _AFTER[len(cols)][p]:
        col = cols[q]
        if not (col[0] or occ[q] & ~flipped[q]):
            continue  # A14: every card flipped: out of the race, nothing to move
        if nxt < 0:
            found = _advances(t, col, flipped[q], occ[q])
            if found:
                # The next seat, in turn, with a legal Advance: in the race under every
                # end_test (in_race).
                if alive:  # a seat before it is still in the race: the game goes on
                    return build_state(
                        rules,
                        cols,
                        flipped,
                        removed,
                        actor=q,
                        step=None,
                        replays=0,
                        owners=owners,
                        occupied=occ,
                        moves=(*found,),
                        tables=t,
                    )
                nxt = q
                moves = found
                alive = 1
            elif test != "can_move" and in_race(t, col, flipped[q], occ[q]):
                alive += 1  # A14: in the race, but no legal Advance now: skipped
        elif (
            # in_race, inlined where it is plain: every seat left here holds an unflipped
            # card, and a Start card is unflipped and below its arrival square
            (col[0] and test != "can_move")
            or test == "unflipped"
            or in_race(t, col, flipped[q], occ[q])
        ):
            # A14: a second seat still in the race: the game goes on
            return build_state(
                rules,
                cols,
                flipped,
                removed,
                actor=nxt,
                step=None,
                replays=0,
                owners=owners,
                occupied=occ,
                moves=(*moves,),
                tables=t,
            )
    if (alive <= 1 and not t.last_player_continues) or nxt < 0:
        # A14: at most one player is still in the race, or no player has a legal Advance
        return build_state(
            rules,
            cols,
            flipped,
            removed,
            actor=-1,
            step=None,
            replays=0,
            owners=owners,
            occupied=occ,
            moves=_NO_MOVES,
            tables=t,
        )
    return build_state(
        rules,
        cols,
        flipped,
        removed,
        actor=nxt,
        step=None,
        replays=0,
        owners=owners,
        occupied=occ,
        moves=tuple(moves),
        tables=t,
    )


# --------------------------------------------------------------------------- setup


def new_game(
    players: int,
    rules: Rules | None = None,
    seed: int = 0,
    first_player: int | None = None,
    *,
    owners: tuple[int, ...] | None = None,
) -> State:
    """A new game: every card alone on its owner's Start (spec rule 7).

    ``seed`` decides the first player by the die (A18) and, under
    ``deal="shuffled"``, the deal (:func:`deal_of`); ``first_player`` and
    ``owners`` (a deal, checked by :func:`check_owners`) override them.

    >>> s = new_game(4, seed=7)
    >>> current_player(s) in range(4)
    True
    >>> current_player(new_game(3, first_player=2))
    2
    """
    n = check_players(players)
    if rules is None:
        rules = _DEFAULT_RULES  # Rules() (immutable): built once, not per game
    elif not isinstance(rules, Rules):
        raise ArgumentError(f"rules must be an ascent Rules, not {type(rules).__name__}")
    check_seed(seed)  # 0..2^64-1, the one seed domain (castlerules.core.chance)
    if first_player is None:
        first = first_player_of(rules, n, seed)
    elif (
        isinstance(first_player, int)
        and not isinstance(first_player, bool)
        and 0 <= first_player < n
    ):
        first = first_player
    else:
        raise ArgumentError(
            f"first_player must be None or an int in 0..{n - 1}, not {first_player!r}"
        )
    check_every_seat_dealt(rules, n)
    dealt = deal_of(rules, n, seed) if owners is None else check_owners(rules, n, owners)
    return _opening(rules, n, first, dealt)


@functools.lru_cache(maxsize=256)
def _opening(rules: Rules, n: int, first: int, owners: tuple[int, ...]) -> State:
    """The opening position (memoised: it depends on its arguments only, and states
    are immutable)."""
    t = Tables.of(rules)
    empty: tuple[int, ...] = ()
    cols = tuple(
        (tuple(c for c, o in enumerate(owners) if o == q),) + (empty,) * t.squares for q in range(n)
    )
    return make_state(
        rules,
        t=t,
        cols=cols,
        flipped=(0,) * n,
        removed=(empty,) * n,
        actor=first,
        step=None,
        owners=owners,
    )


def make_state(
    rules: Rules,
    *,
    t: Tables,
    cols: tuple[Column, ...],
    flipped: tuple[int, ...],
    removed: tuple[tuple[int, ...], ...],
    actor: int,
    step: tuple[int, int, int] | None,
    owners: tuple[int, ...] | None = None,
    replays: int = 0,
) -> State:
    """A state with its derived caches computed (for setup and notation).

    ``replays``: the Advances played again after a favour in this turn (A12).

    ``owners`` is the deal (:func:`deal_of`); ``None`` is the one deal of
    ``deal="sets"``.
    """
    if owners is None:
        if rules.deal != "sets":
            raise ArgumentError("deal=shuffled: a state needs its deal (owners) (A18)")
        owners = deal_of(rules, len(cols), 0)
    occ = occupancy(t, cols)
    moves = _moves_for(
        t, cols=cols, flipped=flipped, occ=occ, actor=actor, step=step, replays=replays
    )
    return build_state(
        rules,
        cols,
        flipped,
        removed,
        actor=actor,
        step=step,
        replays=replays,
        owners=owners,
        occupied=occ,
        moves=moves,
        tables=t,
    )


# --------------------------------------------------------------------------- queries


def current_player(state: State) -> int | None:
    """The seat to act, or None once the game is over."""
    require(state, State, "state")
    return None if state.actor < 0 else state.actor


def legal_moves(state: State) -> tuple[Move, ...]:
    """The legal moves, in a deterministic order without duplicates (empty once over).

    At the start of a turn: the Advances.  After an Advance with a favour
    available: the Favours and EndTurn.  After a favour: any further Favours,
    the Advances (the replay, A12) and EndTurn.
    """
    if not isinstance(state, State):
        require(state, State, "state")
    return state.moves


def is_over(state: State) -> bool:
    """Whether the game is over (A14)."""
    require(state, State, "state")
    return state.actor < 0


def pending_favour(state: State) -> bool:
    """Whether the current player is mid-turn, in the favour / EndTurn step (A10-A12).

    True after an Advance that left a favour available and after a favour
    (when a further favour or the replay is available); in that step
    :class:`~castlerules.ascent.moves.EndTurn` is legal.  False at the start
    of a turn and once the game is over.
    """
    require(state, State, "state")
    return state.step is not None and state.actor >= 0


def scores(state: State) -> tuple[int, ...]:
    """Each seat's points (rule 19, A15, A16); available at any time.

    A card in a seat's column scores its value for that seat if it stands on
    or above its arrival square, minus its value if below (the Start
    included); each removed card scores minus its value.
    """
    require(state, State, "state")
    t = state.tables
    arr = t.arrival
    val = t.value
    out = []
    for q, col in enumerate(state.columns):
        total = 0
        for s, stack in enumerate(col):
            for c in stack:
                total += val[c] if s >= arr[c] else -val[c]
        for c in state.removed_cards[q]:
            total -= val[c]
        out.append(total)
    return tuple(out)


def winners(state: State) -> tuple[int, ...]:
    """The seats with the most points once the game is over; ties are shared (A17)."""
    require(state, State, "state")
    if state.actor >= 0:
        return ()
    points = scores(state)
    best = max(points)
    return tuple(q for q, v in enumerate(points) if v == best)


def advances_of(state: State, seat: int) -> tuple[Move, ...]:
    """The Advances ``seat`` could make in this position, whoever is to act."""
    require(state, State, "state")
    check_seat(state, seat)
    return tuple(
        _advances(state.tables, state.columns[seat], state.flipped[seat], state.occupied[seat])
    )


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Move, *, seat: int | None = None) -> State:
    """Play ``move`` and return the new state; ``state`` is unchanged.

    ``seat``, if given, is the seat that plays (an int in ``0..n-1``, else
    :class:`~castlerules.core.errors.ArgumentError`); a seat other than the
    seat to act is refused (A3).  An illegal move raises
    :class:`~castlerules.core.errors.IllegalMove` citing the clause it breaks.
    """
    if not isinstance(state, State):
        require(state, State, "state")
    c = CODE_BY_ID.get(id(move))  # the engine's own move objects (code_of, inlined)
    if c is None:
        c = code_of(move)
    p = state.actor
    if seat is not None:
        check_seat(state, seat)
        if seat != p and p >= 0:  # (a finished game is refused below, A14)
            raise IllegalMove(
                f"it is seat {p}'s turn, not seat {seat}'s", "A3", refusal="ascent-turn"
            )
    if p < 0:
        raise IllegalMove(
            f"the game is over: {move} cannot be played", "A14", refusal="ascent-game-over"
        )
    if c >= FAVOUR_BASE:
        if c < END_CODE:
            return _favour(state, p, c - FAVOUR_BASE)
        if state.step is None:
            raise IllegalMove(
                "a turn cannot end before an Advance: EndTurn only declines a favour or a replay",
                "A3",
                refusal="ascent-end-before-advance",
            )
        return _end_turn(
            state.rules,
            state.tables,
            state.columns,
            state.flipped,
            state.removed_cards,
            state.owners,
            state.occupied,
            p,
        )
    # An Advance of card c (rules 8-12), here rather than in a function of its own:
    # it is the hot path of every game.
    step = state.step
    t = state.tables
    replays = 0
    if step is not None:  # A12: playing again, after a favour
        if step[2] == 0:
            raise IllegalMove(
                f"{named(c)} cannot advance now: after an Advance, take a favour or end the "
                "turn; playing again comes after a favour",
                "A12",
                refusal="ascent-advance-before-favour",
            )
        # counted where replays_per_turn bounds them (a position has one encoding)
        replays = state.replays + 1 if t.counts_replays else 0
        if replays > t.replay_limit:
            raise IllegalMove(
                f"{named(c)} cannot advance now: a turn plays again at most "
                f"{t.replay_limit} time{'s' if t.replay_limit > 1 else ''} "
                "(replays_per_turn); take a favour or end the turn",
                "A12",
                refusal="ascent-replay-limit",
            )
    cols = state.columns
    col = cols[p]
    flipped = state.flipped
    flipped_mask = flipped[p]
    occ = state.occupied
    occupied_mask = occ[p]
    start = col[0]
    if c in start:
        s = 0
        j = start.index(c)
        part: tuple[int, ...] = (c,)
        rest = start[:j] + start[j + 1 :]
        lead = c
    else:
        for s in t.squares_of.get(occupied_mask) or t.set_squares(
            occupied_mask
        ):  # the non-empty squares
            if c in col[s]:
                break
        else:
            raise not_in_column(state, p, c)
        if flipped_mask >> s & 1:
            raise IllegalMove(
                f"{named(c)} is flipped on square {s} and can never move again",
                "A8",
                refusal="ascent-flipped",
            )
        stack = col[s]
        i = stack.index(c)
        part = stack[: i + 1]
        rest = stack[i + 1 :]
        lead = rank_card(t, part) if t.highest else stack[0]
    # A3, A6: the squares above the card's up to the leader's ceiling (from the Start: above
    # the start row of its rank, path="staggered", A5)
    window = t.window[lead][s] if s else t.start_window[lead]
    reach = (~occupied_mask | (flipped_mask & t.arrival_bit[lead])) & window
    if not reach:
        raise ceiling_error(state, p, c, s, lead)
    low = reach & -reach
    d = low.bit_length() - 1
    arr = t.arrival
    rest_flips = False
    if s and rest:
        bare = rank_card(t, rest) if t.highest else rest[0]
        # A8 (flip_uncovered): the remainder left on its own arrival square turns over
        rest_flips = t.flip_uncovered and s == arr[bare]
        if s > arr[bare] and not t.allow_exposing_split:
            raise IllegalMove(
                f"advancing {named(c)} would leave {named(bare)} exposed on square {s}, "
                f"above its arrival square {arr[bare]}: protection only lasts while a "
                "higher card covers it",
                "A7",
                refusal="ascent-exposing-split",
            )
    if not t.protection:
        for x in part:
            if arr[x] < d:
                raise IllegalMove(
                    f"{named(x)} cannot go to square {d}, above its arrival square "
                    f"{arr[x]} (strict reading: no protection)",
                    "A6",
                    refusal="ascent-strict-protection",
                )
    # The move itself (A3, A4): the part lands on d, on top of flipped cards if any (A9).
    target = col[d]
    squares_list = list(col)
    squares_list[s] = rest
    squares_list[d] = part + target if target else part
    columns_list = list(cols)
    columns_list[p] = tuple(squares_list)
    new_cols = tuple(columns_list)
    occupied_after = occupied_mask | low
    if s and not rest:
        occupied_after &= ~(1 << s)
    occupied_list = list(occ)
    occupied_list[p] = occupied_after
    occ = tuple(occupied_list)
    flip_now = d == arr[lead]
    if flip_now or rest_flips:  # A8: arrival flips the whole moving part
        flipped_list = list(flipped)
        flipped_list[p] = flipped_mask | (low if flip_now else 0) | (1 << s if rest_flips else 0)
        flipped = tuple(flipped_list)
    if t.favour_after_arrival or not flip_now:
        # A10: the cards of a lower-ranked stack of another column on row d; flipped
        # cards are never taken (A8, rule 13).  Where a stack acts with its top card and
        # a favour may take any top part, _favour_targets inlined (every Advance runs it).
        if t.takes_any_top_part:
            favours: list[Move] = []
            value = t.value
            r = value[lead]
            for q in _OTHERS[len(cols)][p]:
                stack = new_cols[q][d]
                if stack and value[stack[0]] < r and not flipped[q] >> d & 1:
                    favours += map(FAVOURS.__getitem__, stack)  # any top part of it
        else:
            favours = _favour_targets(t, new_cols, flipped, p, d, len(part))
        if favours:  # A10: a favour is available
            favours.append(END)
            return build_state(
                state.rules,
                new_cols,
                flipped,
                state.removed_cards,
                actor=p,
                step=(d, len(part), 0),
                replays=replays,
                owners=state.owners,
                occupied=occ,
                moves=tuple(favours),
                tables=t,
            )
    return _end_turn(state.rules, t, new_cols, flipped, state.removed_cards, state.owners, occ, p)


def _favour(state: State, p: int, c: int) -> State:
    step = state.step
    if step is None:
        raise IllegalMove(
            f"no favour is pending: only the card or stack just moved can take {named(c)}",
            "A11",
            refusal="ascent-favour-not-pending",
        )
    d, m, k = step
    t = state.tables
    if k >= t.favour_limit:
        raise IllegalMove(
            f"no more favours after this Advance: at most {t.favour_limit} per Advance",
            "A10",
            refusal="ascent-favour-limit",
        )
    cols = state.columns
    flipped = state.flipped
    q = -1
    for col_index, col in enumerate(cols):
        if col_index != p and c in col[d]:
            q = col_index
            break
    if q < 0:
        raise favour_elsewhere(state, p, c, d)
    stack = cols[q][d]
    if flipped[q] >> d & 1:
        raise IllegalMove(
            f"{named(c)} is flipped on square {d}: flipped cards are never taken",
            "A10",
            refusal="ascent-favour-flipped",
        )
    taker = cols[p][d]
    value = t.value
    if t.highest:
        lead_q, lead_p = rank_card(t, stack), rank_card(t, taker[:m])
    else:
        lead_q, lead_p = stack[0], taker[0]
    if value[lead_q] >= value[lead_p]:
        raise IllegalMove(
            f"cannot take {named(c)}: its stack's leader, {named(lead_q)}, does not rank "
            f"lower than {named(lead_p)}",
            "A10",
            refusal="ascent-favour-rank",
        )
    if not t.favour_after_arrival and flipped[p] >> d & 1:
        raise IllegalMove(
            "a stack that has just been flipped on arrival takes no favour "
            "(favour_after_arrival=False)",
            "A10",
            refusal="ascent-favour-after-arrival",
        )
    j = stack.index(c)
    taken = stack[: j + 1]
    rest = stack[j + 1 :]
    if t.all_lower:
        for x in taken:
            if value[x] >= value[lead_p]:
                raise IllegalMove(
                    f"cannot take {named(c)}: the part taken would hold {named(x)}, who does "
                    f"not rank lower than {named(lead_p)} (favour_takes=all_lower)",
                    "A10",
                    refusal="ascent-favour-all-lower",
                )
    columns_list = list(cols)
    taker_column = list(cols[p])
    taker_column[d] = taker[:m] + taken + taker[m:]  # A10: under the moved stack
    columns_list[p] = tuple(taker_column)
    giver_column = list(cols[q])
    removed = state.removed_cards
    occ = state.occupied
    if rest and t.removal >> d & 1 and d > t.arrival[rank_card(t, rest)]:
        # A13: the exposed remainder leaves the board, against its column's player
        # (penalty_to="owner": against each card's owner)
        giver_column[d] = ()
        piles = list(removed)
        if t.to_owner:
            owners = state.owners
            for x in rest:
                owner = owners[x]
                piles[owner] = tuple(sorted((*piles[owner], x)))
        else:
            piles[q] = tuple(sorted(removed[q] + rest))
        removed = tuple(piles)
        rest = ()
    else:
        giver_column[d] = rest
        if rest and t.flip_uncovered and d == t.arrival[rank_card(t, rest)]:
            # A8 (flip_uncovered): the remainder left on its own arrival square turns over
            flipped_list = list(flipped)
            flipped_list[q] = flipped[q] | 1 << d
            flipped = tuple(flipped_list)
    columns_list[q] = tuple(giver_column)
    new_cols = tuple(columns_list)
    if not rest:
        occupied_list = list(occ)
        occupied_list[q] = occ[q] & ~(1 << d)
        occ = tuple(occupied_list)
    new_step = (d, m + len(taken), k + 1)
    moves = _favours_open(t, new_cols, flipped, p, new_step)
    if state.replays < t.replay_limit:  # A12: play again
        moves.extend(_advances(t, new_cols[p], flipped[p], occ[p]))
    if moves:
        moves.append(END)
        return build_state(
            state.rules,
            new_cols,
            flipped,
            removed,
            actor=p,
            step=new_step,
            replays=state.replays,
            owners=state.owners,
            occupied=occ,
            moves=tuple(moves),
            tables=t,
        )
    return _end_turn(state.rules, t, new_cols, flipped, removed, state.owners, occ, p)


# --------------------------------------------------------------------------- tools


def ceiling_violations(state: State) -> tuple[int, ...]:
    """Card numbers that break the ceiling invariant (A6, A7, A13).

    The invariant: every card above its own arrival square has a card of
    higher rank above it in its stack.  Excused: the cards of an exposed
    remainder, a stack whose top stands above its own arrival square, where
    it may stay (on a square where A13 does not remove it, or anywhere with
    ``allow_exposing_split``).  Every reachable position has none; the
    tests check this after every move, and ``from_text`` refuses a position
    that has some.
    """
    t = state.tables
    arr = t.arrival
    val = t.value
    bad: list[int] = []
    for col in state.columns:
        for s in range(1, t.squares + 1):
            stack = col[s]
            if not stack:
                continue
            if s > arr[rank_card(t, stack)] and (t.allow_exposing_split or not t.removal >> s & 1):
                continue  # an exposed remainder stays where it is (rule 15)
            if t.highest:  # protected by a higher card anywhere in the stack (A7)
                top = max(val[c] for c in stack)
                bad.extend(c for c in stack if s > arr[c] and val[c] >= top)
                continue
            best = 0
            for c in stack:
                if s > arr[c] and best <= val[c]:
                    bad.append(c)
                best = max(best, val[c])
    return tuple(bad)


def perft(state: State, depth: int) -> int:
    """The number of leaves of the move tree ``depth`` plies below ``state``.

    Every move (Advance, Favour, EndTurn) is a ply; a finished game is a
    leaf at any depth.

    >>> perft(new_game(2, first_player=0), 1)
    6
    """
    require(state, State, "state")
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise ArgumentError(f"perft depth must be an int >= 0, not {depth!r}")
    return _perft(state, depth)


def _perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.moves
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(_perft(apply(state, m), depth - 1) for m in moves)


def observation(state: State, seat: int) -> State:
    """What ``seat`` may know: everything, since Ascent hides nothing.

    The state itself is returned (it is immutable); ``seat`` is checked.
    """
    require(state, State, "state")
    check_seat(state, seat)
    return state
