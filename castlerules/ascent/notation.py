"""Position and move notation of Ascent, read and written exactly.

A position is four fields separated by single spaces, five under
``deal=shuffled``::

    <columns> <removed> <turn> <options> [<deal>]

``columns``
    One column per seat, separated by ``/``.  A column is its squares
    ``0..squares`` separated by ``,``: ``-`` for an empty square, otherwise
    the cards top first, each written as its rank letter (``P B L C T F``)
    and set number (``L1`` is the Lady of set 1).  A flipped stack is
    prefixed with ``*``.  Square 0 is the Start; its cards are written in
    card order (by set, then Prince to Fire-eater).
``removed``
    One entry per seat, separated by ``/``: ``-`` or the cards removed from
    that seat's column (A13), in card order.
``turn``
    ``-`` once the game is over; the seat to act at the start of a turn;
    mid-turn ``seat:square:moved:favours`` (see :class:`~castlerules.ascent.state.State`),
    then the counters of the turn (the fields of ``State`` that are a
    :class:`~castlerules.core.notation.TurnCounter`: ``replays``, A12), each after a
    ``:``, up to the last one that is not at its start (``1:4:2:1:1``: one replay).
``options``
    ``-`` for the reference rules, otherwise the options that differ from
    it, in declaration order: ``name=value`` separated by ``;`` (``none``,
    ``true``, ``false``, integers, and arrival squares or cards joined by ``.``).
``deal``
    Only under ``deal=shuffled`` (A18): one entry per seat, separated by
    ``/``, the cards dealt to that seat in card order (see
    :func:`~castlerules.ascent.deal_of`).  Under ``deal=sets``
    seat p holds set p and the field is not written.

Notation is canonical: one spelling per position, and ``from_text`` refuses
any other with a :class:`~castlerules.core.errors.NotationError` naming the
offending character.  It also refuses positions that no game can reach in
the ways the engine checks (a card missing or twice, a flipped stack off its
arrival square, a card above its ceiling without protection, a turn that
would already have passed).

Moves: ``L1`` (Advance), ``xT2`` (Favour), ``end`` (EndTurn).

>>> from castlerules.ascent import new_game
>>> text = to_text(new_game(2, first_player=1))
>>> text
'P0B0L0C0T0F0,-,-,-,-,-,-,-/P1B1L1C1T1F1,-,-,-,-,-,-,- -/- 1 -'
>>> to_text(from_text(text)) == text
True
"""

from __future__ import annotations

import attrs

from castlerules.ascent import setup
from castlerules.ascent.moves import ADVANCES, END, FAVOURS, EndTurn, Move
from castlerules.ascent.rules import (
    CARDS_PER_SET,
    LINKED_OPTIONS,
    MAX_SETS,
    PLAYERS,
    Rank,
    Rules,
    Tables,
    card_id,
)
from castlerules.ascent.stacks import rank_card
from castlerules.ascent.state import CARDS, Column, State
from castlerules.ascent.transitions import (
    apply,
    ceiling_violations,
    game_over_test,
    legal_moves,
    make_state,
)
from castlerules.core.errors import ArgumentError, NotationError
from castlerules.core.notation import TurnCounter, check_text, fields, integer, turn_counters
from castlerules.core.protocol import require

_OPTION_FIELDS = attrs.fields_dict(Rules)
_OPTION_NAMES = tuple(_OPTION_FIELDS)


def _split(field: str, sep: str, offset: int, text: str) -> list[tuple[int, str]]:
    """:func:`~castlerules.core.notation.fields` of a part of ``text`` at ``offset``,
    with errors placed in the whole text."""
    try:
        return fields(field, sep)
    except NotationError as err:
        index = None if err.index is None else offset + err.index
        message = str(err)
        if err.index is not None:
            message = message.removesuffix(f" at character {err.index}")
        raise NotationError(message, text, index) from None


def _card_text(cid: int) -> str:
    return str(CARDS[cid])


def _option_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ".".join(str(x) for x in value)
    return str(value)


def to_text(state: State) -> str:
    """The notation of a position (see the module documentation)."""
    require(state, State, "state")
    flipped = state.flipped
    cols = []
    for q, col in enumerate(state.columns):
        squares = []
        for s, st in enumerate(col):
            if not st:
                squares.append("-")
            else:
                mark = "*" if flipped[q] >> s & 1 else ""
                squares.append(mark + "".join(_card_text(c) for c in st))
        cols.append(",".join(squares))
    removed = "/".join(
        "".join(_card_text(c) for c in pile) if pile else "-" for pile in state.removed_cards
    )
    if state.actor < 0:
        turn = "-"
    elif state.step is None:
        turn = str(state.actor)
    else:
        turn = ":".join(str(x) for x in (state.actor, *state.step, *_counters_text(state)))
    options = state.rules.options()
    opts = ";".join(f"{k}={_option_text(v)}" for k, v in options.items()) or "-"
    text = f"{'/'.join(cols)} {removed} {turn} {opts}"
    if state.rules.deal == "shuffled":
        text += " " + deal_text(state.owners, len(state.columns))
    return text


def _counters_text(state: State) -> list[int]:
    """The counters of the turn (``replays``, A12), up to the last one not at its start."""
    counters = turn_counters(type(state))
    values = [getattr(state, name) for name, _counter in counters]
    while values and values[-1] == counters[len(values) - 1][1].start:
        values.pop()
    return values


def deal_text(owners: tuple[int, ...], players: int) -> str:
    """The deal field (A18): per seat the cards dealt to it, in card order, ``/`` between
    seats and ``-`` for a seat dealt none.

    >>> deal_text((0, 1, 1, -1), 2)
    'P0/B0L0'
    """
    return "/".join(
        "".join(_card_text(c) for c, o in enumerate(owners) if o == q) or "-"
        for q in range(players)
    )


# --------------------------------------------------------------------------- reading


def _read_card(token: str, offset: int, text: str, players: int) -> int:
    letter, digit = token[0], token[1]
    try:
        rank = Rank.from_letter(letter)
    except ArgumentError:
        raise NotationError(
            f"{letter!r} is not a rank letter (P, B, L, C, T, F)", text, offset
        ) from None
    if not digit.isascii() or not digit.isdigit():
        raise NotationError(f"a card's set is a digit, not {digit!r}", text, offset + 1)
    owner = int(digit)
    if owner >= players:
        within = (
            f"the material has six sets, 0..{MAX_SETS - 1}"
            if players == MAX_SETS
            else f"with {players} players the sets are 0..{players - 1}"
        )
        raise NotationError(f"card {token} is not in play: {within} (A18)", text, offset + 1)
    return card_id(owner, rank.value)


def _read_cards(field: str, offset: int, text: str, players: int) -> tuple[int, ...]:
    if len(field) % 2:
        raise NotationError(
            "cards are written as two characters each (rank letter, set digit)",
            text,
            offset + len(field) - 1,
        )
    return tuple(
        _read_card(field[i : i + 2], offset + i, text, players) for i in range(0, len(field), 2)
    )


def _read_options(field: str, offset: int, text: str) -> Rules:
    if field == "-":
        return Rules()
    options: dict[str, object] = {}
    value_at: dict[str, int] = {}
    last = -1
    for rel, item in _split(field, ";", offset, text):
        at = offset + rel
        name, sep, raw = item.partition("=")
        if not sep:
            raise NotationError(f"an option is written name=value, not {item!r}", text, at)
        if name not in _OPTION_NAMES:
            raise NotationError(
                f"unknown option {name!r}; the options are: {', '.join(_OPTION_NAMES)}",
                text,
                at,
            )
        index = _OPTION_NAMES.index(name)
        if index <= last:
            raise NotationError(
                "options are written once each, in declaration order: " + ", ".join(_OPTION_NAMES),
                text,
                at,
            )
        last = index
        vat = at + len(name) + 1
        field_ = _OPTION_FIELDS[name]
        default = field_.default
        value: object
        if name == "die":
            value = raw
        elif raw == "none":
            value = None
        elif raw in ("true", "false"):
            value = raw == "true"
        elif name == "cards":
            value = tuple(part for _r, part in _split(raw, ".", vat, text))
        elif name == "arrival":
            value = tuple(
                integer(part, vat + r, text, 1, 99, "an arrival square")
                for r, part in _split(raw, ".", vat, text)
            )
        elif raw[:1].isdigit():
            value = integer(raw, vat, text, 0, 10**6, f"option {name}")
        else:
            value = raw
        if value == default and type(value) is type(default):
            raise NotationError(
                f"option {name} has its default value; the notation lists only the "
                "options that differ",
                text,
                at,
            )
        if field_.validator is not None:
            try:  # this option's own check, reported at its value
                field_.validator(None, field_, value)
            except ArgumentError as err:
                raise NotationError(f"bad options: {err}", text, vat) from None
        options[name] = value
        value_at[name] = vat
    try:
        return Rules(**options)
    except ArgumentError as err:
        # Options checked against one another: point at the one written option concerned,
        # or at the whole field when several are written.
        linked = [name for name in options if name in LINKED_OPTIONS]
        index = value_at[linked[0]] if len(linked) == 1 else offset
        raise NotationError(f"bad options: {err}", text, index) from None


def _read_deal(part: tuple[int, str], text: str, rules: Rules, n: int) -> tuple[int, ...]:
    """The fifth field under ``deal=shuffled``: per seat, the cards dealt to it (A18)."""
    d_at, d_field = part
    seat_fields = _split(d_field, "/", d_at, text)
    if len(seat_fields) != n:
        raise NotationError(
            f"the deal field has {len(seat_fields)} entries for {n} columns", text, d_at
        )
    owners = [-1] * (MAX_SETS * CARDS_PER_SET)
    for q, (q_at, q_field) in enumerate(seat_fields):
        at = d_at + q_at
        cards = () if q_field == "-" else _read_cards(q_field, at, text, MAX_SETS)
        if list(cards) != sorted(set(cards)):
            raise NotationError("the cards dealt are written once each, in card order", text, at)
        for i, cid in enumerate(cards):
            if owners[cid] >= 0:
                raise NotationError(
                    f"card {_card_text(cid)} is dealt twice (A18)", text, at + 2 * i
                )
            owners[cid] = q
    try:
        return setup.check_owners(rules, n, tuple(owners))
    except ArgumentError as err:
        raise NotationError(f"the deal: {err}", text, d_at) from None


def _read_turn(
    field: str, offset: int, text: str, players: int, squares: int
) -> tuple[int, tuple[int, int, int] | None, dict[str, int]]:
    """The seat to act, the open step and the counters of the turn (``replays``, A12), by
    name: those not written are at their start."""
    counters = turn_counters(State)
    written = {name: counter.start for name, counter in counters}
    if field == "-":
        return -1, None, written
    parts = _split(field, ":", offset, text)
    if len(parts) != 1 and not 4 <= len(parts) <= 4 + len(counters):
        more = "".join(f":{name}" for name, _counter in counters)
        clauses = ", ".join(dict.fromkeys(counter.clause for _name, counter in counters))
        then = f" (then {more}, {clauses})" if counters else ""
        raise NotationError(
            f"the turn is '-', a seat, or seat:square:moved:favours{then}", text, offset
        )
    seat = integer(parts[0][1], offset + parts[0][0], text, 0, players - 1, "the seat to act")
    if len(parts) == 1:
        return seat, None, written
    d = integer(parts[1][1], offset + parts[1][0], text, 1, squares, "the square just moved to")
    m = integer(
        parts[2][1],
        offset + parts[2][0],
        text,
        1,
        MAX_SETS * CARDS_PER_SET,
        "the size of the moved stack",
    )
    k = integer(parts[3][1], offset + parts[3][0], text, 0, 10**6, "the favours taken")
    for i, (at, part) in enumerate(parts[4:]):
        name, counter = counters[i]
        # the last one written is not at its start: one spelling per position
        low = counter.start + (i == len(parts) - 5)
        written[name] = integer(part, offset + at, text, low, 10**6, f"the {name} of the turn")
    return seat, (d, m, k), written


def _check_counters(rules: Rules, counters: dict[str, int], text: str, offset: int) -> None:
    """Each counter of the turn within the option that bounds it (``replays_per_turn``)."""
    declared: dict[str, TurnCounter] = dict(turn_counters(State))
    for name, value in counters.items():
        bound = declared[name].at_most
        limit = None if bound is None else getattr(rules, bound)
        if limit is not None and value > limit:
            raise NotationError(
                f"{value} {name} this turn, but at most {limit} ({declared[name].clause})",
                text,
                offset,
            )


def from_text(text: str) -> State:
    """Read a position written by :func:`to_text` (exact round trip).

    Raises :class:`~castlerules.core.errors.NotationError` (a ``ValueError``)
    for anything else, naming the offending character where it can.
    """
    check_text(text, "an Ascent position")
    parts = _split(text, " ", 0, text)
    if len(parts) not in (4, 5):
        raise NotationError(
            f"a position has 4 fields (columns, removed, turn, options), and a fifth, the deal, "
            f"under deal=shuffled; not {len(parts)}",
            text,
            None,
        )
    (c_at, c_field), (r_at, r_field), (t_at, t_field), (o_at, o_field) = parts[:4]
    rules = _read_options(o_field, o_at, text)
    shuffled = rules.deal == "shuffled"
    if len(parts) == 5 and not shuffled:
        raise NotationError(
            "a fifth field (the deal) is written only under deal=shuffled: under deal=sets "
            "seat p holds set p (A2)",
            text,
            parts[4][0],
        )
    if len(parts) == 4 and shuffled:
        raise NotationError(
            "under deal=shuffled a position has a fifth field, the deal: per seat the cards "
            "dealt to it (A18)",
            text,
            None,
        )
    t = Tables.of(rules)
    col_fields = _split(c_field, "/", c_at, text)
    n = len(col_fields)
    if n not in PLAYERS:
        raise NotationError(
            f"a game has {PLAYERS.start}..{PLAYERS.stop - 1} columns, not {n}", text, c_at
        )
    sets = MAX_SETS if shuffled else n  # the sets whose cards may be in play
    owners = _read_deal(parts[4], text, rules, n) if shuffled else setup.deal_of(rules, n, 0)
    seen: dict[int, int] = {}
    cols: list[Column] = []
    flipped: list[int] = []
    for q, (q_at, q_field) in enumerate(col_fields):
        squares = _split(q_field, ",", c_at + q_at, text)
        if len(squares) != t.squares + 1:
            raise NotationError(
                f"column {q} has {len(squares)} squares where {t.squares + 1} are expected "
                "(the Start and the path)",
                text,
                c_at + q_at,
            )
        col: list[tuple[int, ...]] = []
        fmask = 0
        for s, (s_at, s_field) in enumerate(squares):
            at = c_at + q_at + s_at
            if s_field == "-":
                col.append(())
                continue
            flip = s_field.startswith("*")
            body = s_field[1:] if flip else s_field
            if flip and s == 0:
                raise NotationError("cards on a Start are never flipped (A8)", text, at)
            if not body:
                raise NotationError("a flipped stack needs cards", text, at)
            cards = _read_cards(body, at + flip, text, sets)
            for i, cid in enumerate(cards):
                if cid in seen:
                    raise NotationError(
                        f"card {_card_text(cid)} appears twice (A18)", text, at + flip + 2 * i
                    )
                seen[cid] = at + flip + 2 * i
            if s == 0:
                if any(owners[cid] != q for cid in cards):
                    whose = "dealt to seat" if shuffled else "of set"
                    raise NotationError(
                        f"the Start of column {q} holds only cards {whose} {q}: cards never "
                        "go back to a Start (A4)",
                        text,
                        at,
                    )
                if list(cards) != sorted(cards):
                    raise NotationError(
                        "the cards on a Start are written in card order (P, B, L, C, T, F)",
                        text,
                        at,
                    )
            if flip:
                leader = rank_card(t, cards)
                if t.arrival[leader] != s:
                    raise NotationError(
                        f"a flipped stack stands on its leader's arrival square, and "
                        f"{_card_text(leader)}'s is {t.arrival[leader]}, not {s} (A8)",
                        text,
                        at,
                    )
                fmask |= 1 << s
            col.append(cards)
        cols.append(tuple(col))
        flipped.append(fmask)
    rem_fields = _split(r_field, "/", r_at, text)
    if len(rem_fields) != n:
        raise NotationError(
            f"the removed field has {len(rem_fields)} entries for {n} columns", text, r_at
        )
    removed: list[tuple[int, ...]] = []
    for q_at, q_field in rem_fields:
        at = r_at + q_at
        if q_field == "-":
            removed.append(())
            continue
        cards = _read_cards(q_field, at, text, sets)
        if list(cards) != sorted(set(cards)):
            raise NotationError("removed cards are written once each, in card order", text, at)
        for i, cid in enumerate(cards):
            if cid in seen:
                raise NotationError(f"card {_card_text(cid)} appears twice (A18)", text, at + 2 * i)
            seen[cid] = at + 2 * i
        removed.append(cards)
    stray = [cid for cid in seen if not t.in_play[cid]]
    if stray:
        raise NotationError(
            f"card {_card_text(stray[0])} is not in play (option cards)", text, seen[stray[0]]
        )
    if shuffled:
        undealt = [cid for cid in seen if owners[cid] < 0]
        if undealt:
            raise NotationError(
                f"card {_card_text(undealt[0])} was not dealt (the deal field): it is out of "
                "play (A18)",
                text,
                seen[undealt[0]],
            )
    missing = [cid for cid, o in enumerate(owners) if o >= 0 and cid not in seen]
    if missing:
        dealt = "card dealt" if shuffled else f"card of the {n} sets in play"
        raise NotationError(
            f"card {_card_text(missing[0])} is missing: every {dealt} is on the board or "
            "removed (A18)",
            text,
            None,
        )
    actor, step, counters = _read_turn(t_field, t_at, text, n, t.squares)
    cols_t = tuple(cols)
    flipped_t = tuple(flipped)
    if step is not None:
        d, m = step[0], step[1]
        stack = cols_t[actor][d]
        if not stack:
            raise NotationError(
                f"mid-turn, square {d} of column {actor} must hold the stack just moved",
                text,
                t_at,
            )
        limit = rules.favours_per_move
        if limit is not None and step[2] > limit:
            raise NotationError(
                f"{step[2]} favours taken, but at most {limit} per Advance (A10)", text, t_at
            )
        if m > len(stack) or (not flipped_t[actor] >> d & 1 and m != len(stack)):
            raise NotationError(f"the moved stack on square {d} cannot have {m} cards", text, t_at)
        _check_counters(rules, counters, text, t_at)
        if not rules.favour_after_arrival and flipped_t[actor] >> d & 1:
            raise NotationError(
                f"mid-turn on square {d}, flipped: with favour_after_arrival=false a stack "
                "just flipped on arrival takes no favour, so no favour step follows (A10)",
                text,
                t_at,
            )
    state = make_state(
        rules,
        t=t,
        cols=cols_t,
        flipped=flipped_t,
        removed=tuple(removed),
        actor=actor,
        step=step,
        owners=owners,
        **counters,
    )
    bad = ceiling_violations(state)
    if bad:
        raise NotationError(
            f"card {CARDS[bad[0]]} stands above its arrival square without a higher card "
            "above it in its stack: no game reaches this (A6, A7)",
            text,
            seen[bad[0]],
        )
    over = game_over_test(t, cols_t, flipped_t, state.occupied)
    if actor < 0:
        if not over:
            raise NotationError("the game is marked over but the end test fails (A14)", text, t_at)
    elif step is None:
        if over:
            raise NotationError("the game is over (A14): the turn must be '-'", text, t_at)
        if not state.moves:
            raise NotationError(
                f"seat {actor} has no legal Advance and would have been skipped (A14)",
                text,
                t_at,
            )
    elif all(isinstance(move, EndTurn) for move in state.moves):
        raise NotationError(
            "mid-turn with neither a favour nor a replay left: the turn would have ended (A12)",
            text,
            t_at,
        )
    return state


def parse_move(state: State, text: str, *, check: bool = True) -> Move:
    """The move written ``text``: ``L1`` (Advance), ``xT2`` (Favour) or ``end`` (EndTurn).

    A text that is not a move of a card in play raises
    :class:`~castlerules.core.errors.NotationError`; a well-formed move that
    is illegal in ``state`` raises the :class:`~castlerules.core.errors.IllegalMove`
    of :func:`~castlerules.ascent.transitions.apply`, with its clause.
    ``check=False`` reads the notation only and returns the move without
    judging it (``apply`` then refuses it if it is illegal).

    >>> from castlerules.ascent import new_game
    >>> s = new_game(2, first_player=0)
    >>> str(parse_move(s, "L0"))
    'L0'
    >>> parse_move(s, "L1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    castlerules.core.errors.IllegalMove: the Lady of set 1 (L1) stands in column 1: ... (A2)
    >>> str(parse_move(s, "L1", check=False))
    'L1'
    """
    if not isinstance(state, State):
        raise ArgumentError(f"parse_move needs an Ascent State, not {type(state).__name__}")
    check_text(text, "an Ascent move")
    move: Move
    if text == "end":
        move = END
    else:
        favour = text.startswith("x")
        body = text[1:] if favour else text
        if len(body) != 2:
            index = int(favour) + 2 if len(body) > 2 else len(text)
            raise NotationError("a move is a card (L1), x and a card (xT2), or 'end'", text, index)
        cid = _read_card(body, int(favour), text, len(state.columns))
        move = FAVOURS[cid] if favour else ADVANCES[cid]
    if check and move not in legal_moves(state):
        apply(state, move)  # raises the IllegalMove, with its clause
    return move
