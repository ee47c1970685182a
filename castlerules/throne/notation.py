"""Throne notation: positions (:func:`to_text`, :func:`from_text`) and moves (:func:`parse_move`).

A position is one line of 14 fields separated by single spaces::

    throne SEED 3 1 movement 2 LM/IJK/GH/F/CDE/AB/- - 4/4/4 - 0 ABCDEF,... - -

1. ``throne``, the game;
2. the rules: a preset name (``SEED``, ``ORIGINAL``), then ``,name=value`` for
   every option that differs from it, in the order of the ``Rules`` fields
   (``SEED,allow_pass=true,no_cards=4/3/3/2``); tuples are written with ``/``,
   an empty tuple as ``-``, None as ``none``;
3. the number of players;
4. the round (from 1);
5. the phase: ``placement``, ``movement``, ``election`` or ``over``;
6. the seat to act (``-`` once over);
7. the castle: floors 1 to 7 separated by ``/``, each the letters of its
   characters in alphabetical order or ``-`` when empty;
8. the characters eliminated this round (B13), or ``-``;
9. the No cards of each seat, ``/``-separated;
10. the votes of the current election, one per seat: ``y``, ``n``, or ``.``
    (not yet voted); ``-`` outside elections;
11. the passes in a row (always 0 without ``allow_pass``);
12. the objectives: rounds separated by ``/``, seats by ``,``, letters in
    alphabetical order;
13. the scores of the finished rounds: rounds separated by ``/``, seats by
    ``,`` (``-`` before the first scoring);
14. the kings of the finished rounds, one letter per round, ``.`` for a round
    without a king (``-`` before the first scoring).

Notation is canonical: one spelling per position, and :func:`from_text`
refuses any other (``to_text(from_text(t)) == t`` whenever it succeeds).  It
also refuses positions that the rules could not reach, naming the field (and
the seat, round or floor) at fault:

- an overfull floor (B7), a character on the throne outside an election
  (B10), a full nobles' floor under the candidate or king (it climbed from
  there, B8), votes out of seat order or a No vote without a No card (B11);
- No cards used without an elimination: each elimination costs at least one
  No card and each seat discards at most one per elimination (B11, B13),
  checked in round 1 and whenever ``no_cards_reset_each_round``;
- a finished round's score above
  :meth:`~castlerules.throne.Rules.max_round_score` (33 with the
  defaults: the king, three nobles and two dignitaries, B14), or a 0 in a
  bonus round, where it counts as ``bonus_points`` (B15);
- a round without a king (``.``), unless players may pass (``allow_pass``)
  or hold at least as many No cards as there are characters, so that every
  character can be eliminated (B12, B13); and a finished game without a king
  whose castle still holds characters, unless ``allow_pass``.

It does not replay history: a position it accepts may still be unreachable
in subtler ways (a score that no castle gives, No cards kept between rounds).

A move is ``C3`` (place C on floor 3), ``C+`` (C climbs), ``yes``, ``no`` or
``pass``.

>>> from castlerules.throne import new_game, apply, Place
>>> s = apply(new_game(3, objectives=[["ABCDEF", "GHIJKL", "ACEGIK"]] * 3), Place("C", 3))
>>> text = to_text(s)
>>> text.split(" ")[:11]
['throne', 'SEED', '3', '1', 'placement', '1', '-/-/C/-/-/-/-', '-', '4/4/4', '-', '0']
>>> from_text(text) == s
True
>>> parse_move(s, "A5")
Place(character='A', floor=5)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, compress

import attrs

from castlerules.core.errors import ArgumentError, NotationError
from castlerules.core.notation import check_text, expect_count, fields, integer
from castlerules.core.protocol import require
from castlerules.throne.moves import ALPHABET, NO, PASS, YES, Climb, Move, Place
from castlerules.throne.rules import OPTION_KINDS, PLAYERS, Rules, derived
from castlerules.throne.state import (
    ELECTION,
    ELIMINATED,
    MOVEMENT,
    OVER,
    PHASES,
    PLACEMENT,
    UNPLACED,
    State,
)
from castlerules.throne.transitions import apply, first_player, round_score

GAME = "throne"

_PRESET_RULES: dict[str, Rules] = {name: Rules.preset(name) for name in Rules.PRESETS}
_MAX_SCORE = 10**6


def _integer(field: str, offset: int, text: str, low: int, high: int, *, what: str) -> int:
    """A canonical decimal integer in ``low..high``; refuses overlong digit strings early.

    (Python refuses to convert strings of more than 4300 digits with a
    ``ValueError``; such a field is out of range anyway.)
    """
    if len(field) > len(str(high)) and field.isascii() and field.isdigit() and field[0] != "0":
        raise NotationError(f"{what} must be in {low}..{high}, not {field[:12]}...", text, offset)
    return integer(field, offset, text, low, high, what)


# ---------------------------------------------------------------------------
# Writing


def rules_text(rules: Rules) -> str:
    """The rules field: the closest preset, then each option that differs from it."""
    require(rules, Rules, "rules")
    return rules.tables.text


def _letters(rules: Rules, mask: int) -> str:
    return _mask_letters(rules.characters, mask)


@lru_cache(maxsize=8192)
def _mask_letters(characters: int, mask: int) -> str:
    """The letters of an objective mask (kept: to_text writes every objective of every round)."""
    bits = format(mask, f"0{characters}b")[::-1]  # bit i is character i
    return "".join(compress(ALPHABET, map("1".__eq__, bits)))


def to_text(state: State) -> str:
    """The canonical one-line notation of a position (see the module documentation)."""
    require(state, State, "state")
    rules = state.rules
    letters = ALPHABET[: rules.characters]
    castle = "/".join(
        "".join(ch for ch, f in zip(letters, state.floors, strict=True) if f == floor) or "-"
        for floor in range(1, rules.floors + 1)
    )
    gone = "".join(ch for ch, f in zip(letters, state.floors, strict=True) if f == ELIMINATED)
    votes = "".join(".ny"[v + 1] for v in state.votes) or "-"
    objectives = "/".join(
        ",".join(_letters(rules, mask) for mask in deal) for deal in state.objectives
    )
    results = "/".join(",".join(map(str, r)) for r in state.results) or "-"
    kings = "".join("." if k < 0 else letters[k] for k in state.kings) or "-"
    return " ".join(
        (
            GAME,
            rules_text(rules),
            str(state.players),
            str(state.round),
            PHASES[state.phase],
            "-" if state.phase == OVER else str(state.turn),
            castle,
            gone or "-",
            "/".join(map(str, state.no_cards)),
            votes,
            str(state.passes),
            objectives,
            results,
            kings,
        )
    )


# ---------------------------------------------------------------------------
# Reading


def _parse_value(kind: str, value: str, offset: int, text: str, option: str) -> object:
    if kind == "bool":
        if value not in ("true", "false"):
            raise NotationError(f"option {option} is true or false, not {value!r}", text, offset)
        return value == "true"
    if kind == "int":
        return _integer(value, offset, text, 0, _MAX_SCORE, what=f"option {option}")
    if kind == "word":  # checked by Rules, which names the allowed values
        return value
    if kind == "cards" and value == "none":
        return None
    if value == "-":
        return ()
    items = _fields_at(value, "/", offset, text)
    if kind == "ints":
        return tuple(
            _integer(item, at, text, 0, _MAX_SCORE, what=f"option {option}") for at, item in items
        )
    for at, item in items:
        if not item.isascii() or not item.isalpha() or not item.isupper():
            raise NotationError(
                f"option {option} holds cards of capital letters, not {item!r}", text, at
            )
    return tuple(item for _, item in items)


def parse_rules(field: str, offset: int = 0, text: str | None = None) -> Rules:
    """Read a rules field (``SEED``, ``ORIGINAL,allow_pass=true``...) into :class:`Rules`."""
    field = check_text(field, "a Throne rules field")
    known = _PARSED_RULES.get(field)
    if known is not None:
        return known
    text = field if text is None else text
    parts = _fields_at(field, ",", offset, text)
    base_at, base = parts[0]
    if base not in _PRESET_RULES:
        raise NotationError(
            f"the rules start with a preset name ({', '.join(_PRESET_RULES)}), not {base!r}",
            text,
            base_at,
        )
    kinds = dict(OPTION_KINDS)
    options: dict[str, object] = dict(Rules.PRESETS[base])
    for at, part in parts[1:]:
        name, sep, value = part.partition("=")
        if not sep or name not in kinds:
            raise NotationError(
                f"an option is name=value with a name among {', '.join(kinds)}, not {part!r}",
                text,
                at,
            )
        if not value:
            raise NotationError(f"option {name} has no value", text, at)
        options[name] = _parse_value(kinds[name], value, at + len(name) + 1, text, name)
    if len(parts) == 1:
        return _PRESET_RULES[base]
    try:
        rules = Rules(**options)
    except ArgumentError as err:
        raise NotationError(f"bad rules: {err}", text, offset) from err
    if len(_PARSED_RULES) < _PARSED_RULES_KEPT:
        _PARSED_RULES[field] = rules
    return rules


_PARSED_RULES: dict[str, Rules] = {}
"""Rules fields read before (a field always reads as the same Rules; building Rules
derives its tables, which every position text read would otherwise repeat)."""
_PARSED_RULES_KEPT = 1024


def _fields_at(field: str, sep: str, offset: int, text: str) -> list[tuple[int, str]]:
    try:
        return [(offset + at, part) for at, part in fields(field, sep)]
    except NotationError as err:
        where = None if err.index is None else offset + err.index
        raise NotationError(str(err).split(" at character")[0], text, where) from None


def _letter_group(group: str, at: int, text: str, letters: str, what: str) -> list[int]:
    """Letters in strictly alphabetical order, each a character; ``-`` for none."""
    if group == "-":
        return []
    out: list[int] = []
    for k, ch in enumerate(group):
        i = letters.find(ch) if ch.isalpha() else -1
        if i < 0:
            raise NotationError(
                f"{what} holds characters {letters[0]}-{letters[-1]}, not {ch!r}", text, at + k
            )
        if out and i <= out[-1]:
            raise NotationError(
                f"{what} lists its characters once each, in alphabetical order", text, at + k
            )
        out.append(i)
    return out


def from_text(text: str) -> State:
    """The position written ``text`` (see the module documentation).

    Any text that is not the canonical notation of a consistent position
    raises :class:`~castlerules.core.NotationError` naming the place where
    reading failed, and nothing else.  An unknown objective (``?``) is read
    only by :func:`read_partial`.
    """
    return _read(text, partial=False).state


@attrs.frozen(slots=True)
class Partial:
    """A position whose objectives are known only in part (:func:`read_partial`).

    ``state`` holds a *stand-in* for each unknown objective (the first cards
    in card order that the round's known objectives leave free, or, once the
    game is over, the first that give the written score), so that the engine
    can play on; ``unknown`` names each of them as ``(round, seat)``, rounds
    from 1.  A stand-in is no information: whoever shows ``state`` to a
    player writes it with :func:`write_partial`, and whoever answers from it
    must say what depends on it (``castlerules explain`` does both).
    """

    state: State
    unknown: frozenset[tuple[int, int]]

    def text(self, state: State | None = None) -> str:
        """``state`` (default: this position) written with ``?`` for the unknown objectives."""
        return write_partial(self.state if state is None else state, self.unknown)


def read_partial(text: str) -> Partial:
    """A position text in which objectives may be unknown: ``?`` for a seat's objective
    of a round, or ``?`` for the whole objectives field (every seat, every round).

    Everything else is read and checked as :func:`from_text` does (a finished
    round's score of a seat whose objective is unknown must be one that some
    objective gives).  The text is canonical when :func:`write_partial`
    writes it back unchanged.

    >>> text = "throne SEED 4 1 movement 1 H/BFI/CDJ/EL/AGKM/-/- - 3/3/3/3 - 0 ? - -"
    >>> partial = read_partial(text)
    >>> sorted(partial.unknown)[:2], len(partial.unknown)
    ([(1, 0), (1, 1)], 12)
    >>> partial.text() == text
    True
    """
    return _read(text, partial=True)


def write_partial(state: State, unknown: frozenset[tuple[int, int]]) -> str:
    """:func:`to_text` with ``?`` for each unknown objective ``(round, seat)``
    (``?`` for the whole field when no objective is known)."""
    text = to_text(state)
    if not unknown:
        return text
    parts = text.split(" ")
    if len(unknown) == state.rules.rounds * state.players:
        parts[11] = UNKNOWN
    else:
        rounds = [deal.split(",") for deal in parts[11].split("/")]
        for number, seat in unknown:
            rounds[number - 1][seat] = UNKNOWN
        parts[11] = "/".join(",".join(deal) for deal in rounds)
    return " ".join(parts)


UNKNOWN = "?"
"""An objective the text does not give (:func:`read_partial`)."""


def _read(text: str, *, partial: bool) -> Partial:
    text = check_text(text, "a Throne position")
    if not text:
        raise NotationError(
            "an empty text is not a Throne position (14 fields are expected)", text, 0
        )
    parts = fields(text, " ")
    expect_count(parts, 14, "a Throne position", text)
    (
        (tag_at, tag),
        (rules_at, rules_field),
        (players_at, players_field),
        (round_at, round_field),
        (phase_at, phase_field),
        (turn_at, turn_field),
        (castle_at, castle_field),
        (gone_at, gone_field),
        (nos_at, nos_field),
        (votes_at, votes_field),
        (passes_at, passes_field),
        (objectives_at, objectives_field),
        (results_at, results_field),
        (kings_at, kings_field),
    ) = parts
    if tag != GAME:
        raise NotationError(f"a Throne position starts with {GAME!r}, not {tag!r}", text, tag_at)
    rules = parse_rules(rules_field, rules_at, text)
    letters = rules.letters()
    players = _integer(
        players_field,
        players_at,
        text,
        PLAYERS.start,
        PLAYERS.stop - 1,
        what="the number of players",
    )
    try:
        rules.check_players(players)
    except ArgumentError as err:
        raise NotationError(str(err), text, players_at) from err
    number = _integer(round_field, round_at, text, 1, rules.rounds, what="the round")
    if phase_field not in PHASES:
        raise NotationError(
            f"the phase is one of {', '.join(PHASES)}, not {phase_field!r}", text, phase_at
        )
    phase_code = PHASES.index(phase_field)
    if phase_code == OVER:
        if turn_field != "-":
            raise NotationError("once the game is over the seat to act is '-'", text, turn_at)
        turn = -1
    else:
        turn = _integer(turn_field, turn_at, text, 0, players - 1, what="the seat to act")

    # The castle (B1, B7) and the eliminated characters (B13).
    floors = [UNPLACED] * rules.characters
    groups = _fields_at(castle_field, "/", castle_at, text)
    if len(groups) != rules.floors:
        raise NotationError(
            f"the castle lists {rules.floors} floors separated by '/', not {len(groups)}",
            text,
            castle_at,
        )
    counts = [0] * (rules.floors + 1)
    places: dict[str, list[int]] = {"castle": [at for at, _ in groups]}
    for floor, (at, group) in enumerate(groups, start=1):
        members = _letter_group(group, at, text, letters, f"floor {floor}")
        if len(members) > rules.capacity(floor):
            raise NotationError(
                f"floor {floor} holds {len(members)} characters, more than "
                f"{rules.capacity(floor)} (B7)",
                text,
                at,
            )
        for i in members:
            if floors[i] != UNPLACED:
                raise NotationError(f"character {letters[i]} is on two floors", text, at)
            floors[i] = floor
        counts[floor] = len(members)
    for i in _letter_group(gone_field, gone_at, text, letters, "the eliminated characters"):
        if floors[i] != UNPLACED:
            raise NotationError(
                f"character {letters[i]} is both in the castle and eliminated", text, gone_at
            )
        floors[i] = ELIMINATED
    counts[0] = floors.count(UNPLACED)
    eliminated = floors.count(ELIMINATED)

    # No cards (B11) and votes.
    full = rules.no_cards_for(players)
    nos_parts = _fields_at(nos_field, "/", nos_at, text)
    expect_count(nos_parts, players, "the No cards", text)
    places["nos"] = [at for at, _ in nos_parts]
    no_cards = tuple(_integer(v, at, text, 0, full, what="a No count") for at, v in nos_parts)
    if votes_field == "-":
        votes: tuple[int, ...] = ()
    else:
        if len(votes_field) != players or set(votes_field) - set("yn."):
            raise NotationError(
                f"the votes are '-' or one of y, n, . per seat ({players}), not {votes_field!r}",
                text,
                votes_at,
            )
        votes = tuple(".ny".index(v) - 1 for v in votes_field)
        places["votes"] = [votes_at + seat for seat in range(players)]
    passes = _integer(passes_field, passes_at, text, 0, players - 1, what="the passes in a row")

    # Objectives (B4), results and kings.
    objectives, unknown = _read_objectives(
        rules, players, objectives_field, objectives_at, text, partial=partial
    )
    if results_field == "-":
        results: tuple[tuple[int, ...], ...] = ()
    else:
        rounds = _fields_at(results_field, "/", results_at, text)
        rows = []
        places["results"] = []
        for at, row in rounds:
            items = _fields_at(row, ",", at, text)
            expect_count(items, players, "a round's scores", text)
            rows.append(
                tuple(_integer(v, a, text, 0, _MAX_SCORE, what="a score") for a, v in items)
            )
            places["results"] += [a for a, _ in items]
        results = tuple(rows)
    if kings_field == "-":
        kings: tuple[int, ...] = ()
    else:
        kings_list = []
        for k, ch in enumerate(kings_field):
            if ch != "." and letters.find(ch) < 0:
                raise NotationError(
                    f"a king is a character {letters[0]}-{letters[-1]} or '.', not {ch!r}",
                    text,
                    kings_at + k,
                )
            kings_list.append(-1 if ch == "." else letters.index(ch))
        kings = tuple(kings_list)
        places["kings"] = [kings_at + k for k in range(len(kings_field))]

    state = State(
        rules,
        players,
        number,
        phase_code,
        turn,
        tuple(floors),
        tuple(counts),
        no_cards,
        votes,
        passes,
        objectives,
        results,
        kings,
    )
    if unknown and phase_code == OVER:
        state = _scoring_stand_ins(state, unknown, text, results_at)
    problem = _inconsistency(state, eliminated)
    if problem is not None:
        message, where, item = problem
        starts = {
            "phase": phase_at,
            "turn": turn_at,
            "castle": castle_at,
            "gone": gone_at,
            "nos": nos_at,
            "votes": votes_at,
            "passes": passes_at,
            "results": results_at,
            "kings": kings_at,
        }
        offsets = places.get(where, [])
        raise NotationError(message, text, offsets[item] if item < len(offsets) else starts[where])
    canonical = write_partial(state, unknown)
    if canonical != text:
        index = next(
            (k for k, (a, b) in enumerate(zip(canonical, text, strict=False)) if a != b),
            min(len(canonical), len(text)),
        )
        raise NotationError(
            f"not the canonical notation of this position, which is {canonical!r}", text, index
        )
    return Partial(state, unknown)


def _read_objectives(
    rules: Rules, players: int, field: str, offset: int, text: str, *, partial: bool
) -> tuple[tuple[tuple[int, ...], ...], frozenset[tuple[int, int]]]:
    """The objectives field: the masks, stand-ins for the unknown ones, and which are unknown."""
    letters = rules.letters()
    if field == UNKNOWN:
        if not partial:
            raise NotationError(
                "unknown objectives '?' are read by throne.notation.read_partial "
                "(and castlerules explain), not by from_text",
                text,
                offset,
            )
        field = "/".join([",".join([UNKNOWN] * players)] * rules.rounds)
    deals = _fields_at(field, "/", offset, text)
    if field == "-" or len(deals) != rules.rounds:
        raise NotationError(
            f"the objectives list {rules.rounds} rounds separated by '/', not {len(deals)}: "
            "one objective per seat for each round, seats separated by ','"
            + (" ('?' for one that is not known, '?' alone for all)" if partial else ""),
            text,
            offset,
        )
    out = []
    unknown: list[tuple[int, int]] = []
    for number, (at, deal) in enumerate(deals, start=1):
        cards = _fields_at(deal, ",", at, text)
        expect_count(cards, players, "a round's objectives", text)
        masks: list[int] = []
        for seat, (card_at, card) in enumerate(cards):
            if card == UNKNOWN:
                if not partial:
                    raise NotationError(
                        "an unknown objective '?' is read by throne.notation.read_partial "
                        "(and castlerules explain), not by from_text",
                        text,
                        card_at,
                    )
                unknown.append((number, seat))
                masks.append(0)
                continue
            members = _letter_group(card, card_at, text, letters, "an objective")
            if len(members) != rules.objective_size:
                raise NotationError(
                    f"an objective holds {rules.objective_size} characters, not {card!r}",
                    text,
                    card_at,
                )
            if rules.objective_deck is not None and card not in rules.objective_deck:
                raise NotationError(
                    f"objective {card!r} is not a card of the objective_deck", text, card_at
                )
            mask = sum(1 << i for i in members)
            if mask in masks:
                raise NotationError(
                    f"objective {card!r} is dealt twice in one round", text, card_at
                )
            masks.append(mask)
        stand_in_seats = [s for n, s in unknown if n == number]
        if stand_in_seats:  # the free cards (up to 1,716 by default) only when needed
            free = _free_cards(rules, [m for m in masks if m])
            for k, seat in enumerate(stand_in_seats):
                masks[seat] = free[k]
        out.append(tuple(masks))
    return tuple(out), frozenset(unknown)


def objective_cards(rules: Rules) -> tuple[int, ...]:
    """Every objective card of these rules, as masks in card order (the deck's, else
    every set of ``objective_size`` characters, by the characters' order)."""
    if rules.objective_deck is not None:
        letters = rules.letters()
        return tuple(sum(1 << letters.index(ch) for ch in card) for card in rules.objective_deck)
    return tuple(
        sum(1 << i for i in chosen)
        for chosen in combinations(range(rules.characters), rules.objective_size)
    )


def _free_cards(rules: Rules, taken: list[int]) -> list[int]:
    return [m for m in objective_cards(rules) if m not in taken]


def _scoring_stand_ins(
    state: State, unknown: frozenset[tuple[int, int]], text: str, results_at: int
) -> State:
    """Once over, the last round's stand-ins give the written scores of their seats."""
    rules = state.rules
    last = state.round
    deal = list(state.objectives[last - 1])
    seats = sorted(seat for number, seat in unknown if number == last)
    taken = [m for seat, m in enumerate(deal) if seat not in seats]
    if not seats or len(state.results) != last:
        return state
    for seat in seats:
        wanted = state.results[-1][seat]
        fits = [
            m
            for m in _free_cards(rules, taken)
            if round_score(rules, last, state.floors, m) == wanted
        ]
        if not fits:
            raise NotationError(
                f"seat {seat}'s score of round {last}, {wanted}, is no score an objective "
                "gives with this castle (B14, B15)",
                text,
                results_at,
            )
        deal[seat] = fits[0]
        taken.append(fits[0])
    objectives = list(state.objectives)
    objectives[last - 1] = tuple(deal)
    return attrs.evolve(state, objectives=tuple(objectives))


_Problem = tuple[str, str, int]
"""Why a position cannot arise: the message, the field at fault and the item in that
field (a seat's No count, a round's score, a floor of the castle...; 0: the field)."""


def _inconsistency(state: State, eliminated: int) -> _Problem | None:
    """Why this position cannot arise, and where the text says so; None if it can."""
    rules = state.rules
    players = state.players
    top = rules.throne_floor
    counts = state.counts
    finished = len(state.results)
    if len(state.kings) != finished:
        return (
            f"{finished} rounds are scored but {len(state.kings)} kings are listed",
            "kings",
            0,
        )
    if state.phase == OVER:
        if state.round != rules.rounds or finished != rules.rounds:
            return (f"the game is over only after round {rules.rounds} is scored", "phase", 0)
    elif finished != state.round - 1:
        return (
            f"in round {state.round}, {state.round - 1} rounds are scored, not {finished}",
            "results",
            0,
        )
    problem = _past_rounds(state)
    if problem is not None:
        return problem
    if state.votes and state.phase != ELECTION:
        return ("votes are written only during an election ('-' otherwise)", "votes", 0)
    if state.passes and (state.phase != MOVEMENT or not rules.allow_pass):
        return ("passes happen only in the movement phase, with allow_pass", "passes", 0)
    if state.phase == PLACEMENT:
        placed = rules.characters - counts[0]
        if eliminated:
            return ("no character is eliminated during placement", "gone", 0)
        if any(f > 0 and f not in rules.placement_floors for f in state.floors):
            return (
                "during placement every character stands on a placement floor (B6)",
                "castle",
                0,
            )
        if placed >= rules.placements_for(players):
            return ("every placement is made: the movement phase has begun", "phase", 0)
        expected = (first_player(rules, players, state.round) + placed) % players
        if state.turn != expected:
            return (f"after {placed} placements it is seat {expected}'s turn (B6)", "turn", 0)
        return _no_card_check(state, eliminated)
    if counts[0]:
        return ("after placement every character is in the castle or eliminated", "castle", 0)
    living = sum(counts[1:top])
    if state.phase == MOVEMENT:
        if counts[top]:
            return ("a character on the throne means an election (B10)", "phase", 0)
        if living == 0:
            return ("with no character left in the castle the round is over", "castle", 0)
        return _no_card_check(state, eliminated)
    nobles = rules.noble_floor
    if counts[top] and counts[nobles] >= rules.capacity(nobles):
        # B8: the character on the throne climbed from the nobles' floor, leaving room there.
        return (
            f"the character on the throne climbed from floor {nobles}, so that floor holds at "
            f"most {rules.capacity(nobles) - 1} others (B8)",
            "castle",
            nobles - 1,
        )
    if state.phase == ELECTION:
        if counts[top] != 1:
            return ("an election needs a candidate on the throne (B10)", "castle", 0)
        if not state.votes:
            return ("during an election the votes are written, one per seat", "votes", 0)
        cast = sum(1 for v in state.votes if v >= 0)
        if cast == players:
            return ("when every seat has voted the votes are revealed at once (B11)", "votes", 0)
        mover = (state.turn - cast) % players
        for k in range(players):
            seat = (mover + k) % players
            if (state.votes[seat] >= 0) != (k < cast):
                return (
                    "the votes are cast in seat order from the candidate's mover to the "
                    f"seat to act (B11); seat {seat} does not fit",
                    "votes",
                    seat,
                )
            if state.votes[seat] == 0 and state.no_cards[seat] == 0:
                return (f"seat {seat} voted No without a No card (B11)", "votes", seat)
        return _no_card_check(state, eliminated)
    # Over: the last round's castle is kept; its scoring must match it.
    last = state.round
    king_index = state.floors.index(top) if counts[top] else -1
    if state.kings[-1] != king_index:
        return ("the last king is the character on the throne ('.' if none)", "kings", last - 1)
    if king_index < 0 and living and not rules.allow_pass:
        return (
            "without allow_pass a round ends without a king only once every character is "
            "eliminated (B13), and this castle still holds some",
            "castle",
            0,
        )
    expected_scores = tuple(
        round_score(rules, last, state.floors, mask) for mask in state.objectives[last - 1]
    )
    if state.results[-1] != expected_scores:
        return (
            f"the last round's scores of this castle are {expected_scores} (B14, B15)",
            "results",
            (last - 1) * players,
        )
    return _no_card_check(state, eliminated)


def _past_rounds(state: State) -> _Problem | None:
    """Each finished round's scores and king are ones a round can end with."""
    rules = state.rules
    players = state.players
    best_castle = derived(rules).max_points
    for r, row in enumerate(state.results):
        number = r + 1
        bonus = rules.bonus_applies(number)
        for seat, score in enumerate(row):
            if bonus and score == rules.bonus_points:
                continue
            if score > rules.max_round_score(number):
                return (
                    f"a score in round {number} is at most {rules.max_round_score(number)}, "
                    f"not {score} (B14, B15; see Rules.max_round_score)",
                    "results",
                    r * players + seat,
                )
            if score > best_castle:
                return (
                    f"a score in round {number} is {rules.bonus_points} (for a 0, B15) or at "
                    f"most {best_castle} (B14), not {score}",
                    "results",
                    r * players + seat,
                )
            if bonus and score == 0:
                return (
                    f"in round {number} a score of 0 counts as {rules.bonus_points} (B15)",
                    "results",
                    r * players + seat,
                )
    no_cards = rules.no_cards_for(players) * players
    if not rules.allow_pass and no_cards < rules.characters:
        # B12, B13: a round ends without a king only when every player passed (allow_pass)
        # or every character was eliminated, each elimination costing a No card.
        for r, king_index in enumerate(state.kings):
            if king_index < 0:
                return (
                    f"round {r + 1} cannot end without a king: nobody may pass (allow_pass) "
                    f"and eliminating all {rules.characters} characters takes more than the "
                    f"{no_cards} No cards of the players (B12, B13)",
                    "kings",
                    r,
                )
    return None


def _no_card_check(state: State, eliminated: int) -> _Problem | None:
    """The No cards used this round match the eliminations (B11, B13).

    Each elimination cost at least one No card, and each seat discards at most
    one per elimination; checkable when the cards were full at the start of
    the round (round 1, or ``no_cards_reset_each_round``).
    """
    rules = state.rules
    if not (rules.no_cards_reset_each_round or state.round == 1):
        return None
    full = rules.no_cards_for(state.players)
    for seat, left in enumerate(state.no_cards):
        used = full - left
        if used > eliminated:
            if eliminated == 0:
                why = "no candidate has been eliminated yet this round"
            else:
                why = (
                    f"only {eliminated} {'candidate was' if eliminated == 1 else 'candidates were'}"
                    " eliminated this round"
                )
            return (
                f"seat {seat} holds {left} No card{'' if left == 1 else 's'}, not {full}, but "
                f"{why}: a seat discards at most one No card per elimination, and none "
                "otherwise (B11, B13)",
                "nos",
                seat,
            )
    used = full * state.players - sum(state.no_cards)
    if eliminated > used:
        return (
            f"{eliminated} characters are eliminated but only {used} No cards were used "
            "this round (B13)",
            "gone",
            0,
        )
    return None


def parse_move(state: State, text: str, *, check: bool = True) -> Move:
    """The move written ``text`` (``C3``, ``C+``, ``yes``, ``no``, ``pass``), legal in ``state``.

    A text that is not a move raises :class:`~castlerules.core.NotationError`;
    a well-formed move that is illegal in ``state`` raises the
    :class:`~castlerules.core.IllegalMove` of :func:`apply`, with its clause.
    ``check=False`` reads the notation only and returns the move without
    judging it (for tools that judge it themselves, such as
    ``castlerules explain``); ``apply`` then refuses it if it is illegal.

    >>> from castlerules.throne import new_game
    >>> s = new_game(3)
    >>> parse_move(s, "C6")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    castlerules.core.errors.IllegalMove: Character C cannot be placed on floor 6: ... (B6)
    >>> parse_move(s, "C6", check=False)
    Place(character='C', floor=6)
    >>> parse_move(s, "C@6")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    castlerules.core.errors.NotationError: a move is C3 (place C on floor 3), ... not 'C@6' ...
    """
    require(state, State, "state")
    text = check_text(text, "a Throne move")
    move: Move
    if text == "yes":
        move = YES
    elif text == "no":
        move = NO
    elif text == "pass":
        move = PASS
    elif len(text) >= 2 and "A" <= text[0] <= "Z" and (text[1:] == "+" or text[1:].isdigit()):
        if text[1:] == "+":
            move = Climb(text[0])
        else:
            move = Place(text[0], _integer(text[1:], 1, text, 0, 10**9, what="a floor"))
    else:
        raise NotationError(
            f"a move is C3 (place C on floor 3), C+ (C climbs), yes, no or pass, not {text!r}",
            text,
            0,
        )
    if check:
        apply(state, move)  # raises the IllegalMove, with its clause
    return move
