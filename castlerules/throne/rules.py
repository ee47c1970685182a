"""The rules of Throne: options, presets, rule tables and interpretation notes.

This module is the single source of every number of the game (floors,
capacities, points, No cards, placements, rounds, the 33 bonus).  The
engine, the proofs and the documentation read them from a :class:`Rules`
instance; nothing else spells them out.

>>> rules = Rules()
>>> rules.capacity(5), rules.capacity(rules.throne_floor), rules.points_of(7)
(4, 1, 10)
>>> rules.no_cards_for(4)
3
>>> Rules.preset("ORIGINAL").placement_floors
(2, 3, 4, 5)
>>> Rules(players=4)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
castlerules.core.errors.ArgumentError: unknown option 'players' for ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import pairwise
from operator import itemgetter, lt
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from castlerules.core.errors import ArgumentError
from castlerules.core.options import Note, Option, declared, init_rules, validator
from castlerules.throne.moves import ALPHABET, CLIMBS, NO, PASS, PLACES, YES, Climb, Move, Place

MOVEMENT_STARTERS: tuple[str, ...] = ("after_last_placer", "first_player")
"""The values of option ``movement_starter`` (B8): the seed's reading first."""

PLAYERS = range(3, 7)
"""Allowed player counts: 3 to 6 (spec, reference interpretation 1)."""

FLOOR_NAMES: tuple[str, ...] = (
    "",
    "servants",
    "craftsmen",
    "merchants",
    "officers",
    "dignitaries",
    "nobles",
    "throne",
)
"""``FLOOR_NAMES[f]``: who lives on floor ``f`` (B2; floor 7 is the throne, B1)."""


def floor_label(floor: int) -> str:
    """A floor as messages and events name it (B2): ``"floor 2 (craftsmen)"``."""
    return f"floor {floor} ({FLOOR_NAMES[floor]})"


def is_int(value: object) -> bool:
    """Whether ``value`` is an ``int`` and not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(low: int, high: int) -> Callable[[object], bool]:
    return lambda v: is_int(v) and low <= v <= high  # type: ignore[operator]


def _ints(length: int, low: int, high: int) -> Callable[[object], bool]:
    def test(value: object) -> bool:
        return (
            isinstance(value, tuple)
            and len(value) == length
            and all(is_int(v) and low <= v <= high for v in value)
        )

    return test


def _increasing(low: int, high: int, *, empty: bool) -> Callable[[object], bool]:
    def test(value: object) -> bool:
        if not isinstance(value, tuple) or (not value and not empty):
            return False
        if not all(is_int(v) and low <= v <= high for v in value):
            return False
        return all(a < b for a, b in pairwise(value))

    return test


def _is_bool(value: object) -> bool:
    return isinstance(value, bool)


def _to_tuple(value: object) -> object:
    """Accept a list where a tuple is expected (anything else is left to the validator)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def _to_deck(value: object) -> object:
    """A deck as a tuple of cards, each card's letters in alphabetical order."""
    if isinstance(value, list | tuple):
        return tuple("".join(sorted(card)) if isinstance(card, str) else card for card in value)
    return value


def _deck_shape(value: object) -> bool:
    return value is None or (
        isinstance(value, tuple) and len(value) > 0 and all(isinstance(c, str) for c in value)
    )


OPTIONS: tuple[Option, ...] = (
    Option("characters", ("B4",), "the number of characters, named A, B, ..."),
    Option(
        "floors",
        ("B1",),
        "the floors of the castle, the throne the top one (fixed at 7)",
    ),
    Option("floor_capacity", ("B7",), "the most characters on one of floors 1-6"),
    Option("points", ("B14",), "the points of a favourite on floors 1..7"),
    Option(
        "placement_floors",
        ("B6",),
        "the floors characters may be placed on",
        seed="seulement dans les cinq premiers étages",
        alternatives=((2, 3, 4, 5),),
        notes=(
            Note(
                "B6",
                "the placement floors",
                "Seed: « placent un personnage dans le château (seulement dans les cinq "
                "premiers étages) »: placement_floors=(1, 2, 3, 4, 5) (default) reads it as "
                "the five floors from the servants' up. The published rules place on floors "
                "2-5 only, the servants' floor left to the leftovers of equal placement "
                "(preset ORIGINAL); placement_floors=(2, 3, 4, 5) alone plays that part of "
                "them: a character may not be placed on floor 1.",
            ),
        ),
    ),
    Option(
        "equal_placement",
        ("B6",),
        "whether every player places the same number, the leftovers on floor 1",
        seed="les joueurs à tour de rôle placent un personnage dans le château",
        kernel=bool,
        symbolic="fixed per query",
        notes=(
            Note(
                "B6",
                "placement order",
                "The seed says « les joueurs à tour de rôle placent un personnage dans le château "
                "»: placement starts with the round's first player and goes on in seat order, one "
                "character per turn, until every character is placed (so some players place one "
                "more than others). Any character not yet placed may be placed by any player.",
            ),
            Note(
                "B6",
                "equal placement (ORIGINAL)",
                "With equal_placement every player places placements_per_player characters (3p: 4, "
                "4p: 3, 5p: 2, 6p: 2) on placement_floors (ORIGINAL: 2-5); the move that completes "
                "the placements also puts every leftover character on floor 1. Floor 1 may then "
                "not be a placement floor.",
            ),
        ),
    ),
    Option("placements_per_player", ("B6",), "with equal_placement: the characters each places"),
    Option("no_cards", ("B11",), "the No cards of each player, for 3, 4, 5, 6 players"),
    Option(
        "no_cards_reset_each_round",
        ("B11",),
        "whether every player gets its No cards back at the start of each round",
        seed='chaque joueur ne détient qu\'un nombre limité de cartes "non"',
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "B11",
                "No cards between rounds",
                "The seed says only « chaque joueur ne détient qu'un nombre limité de cartes "
                '"non" ». Every player gets no_cards_for(players) No cards back at the start of '
                "each round (published rule). With no_cards_reset_each_round=False the cards left "
                "carry over.",
            ),
        ),
    ),
    Option(
        "first_player_rotates",
        ("B3",),
        "whether round k is started by seat k-1 (else always seat 0)",
        seed="Au début de chaque manche les joueurs à tour de rôle placent un personnage",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "B3",
                "first player of each round",
                "The seed, « Au début de chaque manche les joueurs à tour de rôle placent un "
                "personnage dans le château », does not say who begins. Round 1 starts with seat "
                "0; round k+1 starts with the seat after the one that started round k. With "
                "first_player_rotates=False every round starts with seat 0.",
            ),
        ),
    ),
    Option(
        "movement_starter",
        ("B8",),
        "who starts the movement phase: the seat after the last placer, or the round's "
        "first player",
        seed="Une fois les personnages disposés, chaque joueur à tour de rôle peut faire monter",
        values=MOVEMENT_STARTERS,
        kernel=lambda value: value == MOVEMENT_STARTERS[1],
        symbolic="fixed per query",
        notes=(
            Note(
                "B8",
                "movement turn order",
                "The movement phase goes on in seat order; a move raises any living character (not "
                "only a favourite) by one floor. Who moves first is option movement_starter. The "
                "seed, « Une fois les personnages disposés, chaque joueur à tour de rôle peut "
                "faire monter un personnage », continues the turn order of the placement: by "
                "default (after_last_placer) the seat after the last placer starts, as one turn "
                "order running through the round would. The published rules start the movement "
                "with the round's first player (first_player, preset ORIGINAL). With "
                "equal_placement every player places the same number of characters, so the last "
                "placer sits just before the first player and the two readings coincide; with the "
                "seed's 13 placements they part whenever the players do not divide 13.",
            ),
        ),
    ),
    Option(
        "allow_pass",
        ("B8",),
        "whether a player may pass in the movement phase",
        seed="chaque joueur à tour de rôle peut faire monter un personnage d'un étage",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "B8",
                "passing",
                "The seed's « chaque joueur à tour de rôle peut faire monter un personnage d'un "
                "étage » is read as a turn that climbs: by default a player must climb (a climb "
                "always exists). With allow_pass=True a player may Pass in the movement phase only "
                "(not while placing or voting); a climb resets the count, and when every player "
                "has passed in a row the round ends without a king and is scored as usual.",
            ),
        ),
    ),
    Option(
        "no_cards_public",
        ("B11",),
        "whether how many No cards each player has left is public",
        seed="défaussées après usage",
        notes=(
            Note(
                "B11",
                "what observation() shows",
                "observation(state, seat) shows the castle, the round, phase and seat to act, the "
                "seat's own objective, every objective of a finished round (revealed at its "
                "scoring, B14), who has voted in the current election and the seat's own vote, and "
                "the No counts of every seat when no_cards_public (else only its own). A state "
                "holds no history: how each seat voted in a finished election is told by "
                "describe(), not by observation().",
            ),
            Note(
                "B11",
                "secret No counts (ORIGINAL)",
                "The seed says only that the No cards are few and « défaussées après usage »; the "
                "default (no_cards_public=True) reads the discards as face up, so every count is "
                "public. The published rules keep the number of No cards in a hand secret (“Il "
                "numero di carte in mano ... è segreto”): preset ORIGINAL has "
                "no_cards_public=False, and observation() shows a seat its own count only. The "
                "votes are still revealed together at each election (B11), so a seat that "
                "remembers every election since the start of the round can deduce every count (it "
                "knows the number dealt and sees each No); the observation hides the count itself, "
                "not the votes.",
            ),
        ),
    ),
    Option("objective_size", ("B4",), "the favourites on an objective card"),
    Option(
        "objective_deck",
        ("B4",),
        "None: random distinct objectives; else the cards of a physical deck",
        seed="En début de manche les joueurs reçoivent une carte",
        fixed="material, not a reading: the seed does not list the objective "
        "cards, so by default every seat gets a random set of six distinct from the others'; "
        "objective_deck lists the cards of a physical box to deal from instead. Any deck deals "
        "other objectives from the same seed, so the two differ from the first position on",
        notes=(
            Note(
                "B4",
                "dealing objectives",
                "The seed, « En début de manche les joueurs reçoivent une carte », does not list "
                "the cards. new_game deals every round's objectives at the start, from its seed "
                "(SplitMix64, stream 'throne/objectives'): for each round, one uniformly random "
                "set of objective_size characters per seat, redrawn while it equals another seat's "
                "set. With objective_deck, the whole deck is shuffled at the start of each round "
                "and seat 0, 1, ... take the first cards. The state holds all of them (full "
                "information); observation() shows each seat its own only.",
            ),
        ),
    ),
    Option(
        "rounds",
        ("B3",),
        "the rounds of a game",
        seed="Le jeu se joue en trois manches",
        fixed="a number of the game, not a reading: the seed says 'Le jeu se joue en "
        "trois manches' (B3); other counts are variants",
        notes=(
            Note(
                "B3",
                "between rounds and at the end",
                "When a round ends, its scores are recorded and the next round starts at once: the "
                "castle is emptied, eliminations are forgotten, the new objectives apply. After "
                "the last round the final castle is kept in the state, so that it can be "
                "inspected.",
            ),
            Note(
                "B3",
                "moves after the end",
                "Once the last round is scored the game is over: apply() refuses every move with "
                "an IllegalMove citing B3 (« Le jeu se joue en trois manches »; option rounds), "
                "legal_moves() is empty and current_player() is None.",
                refuses=(("throne-game-over", "refuses every move with an IllegalMove citing B3"),),
            ),
        ),
    ),
    Option(
        "bonus_rounds",
        ("B15",),
        "the rounds whose score of 0 counts as bonus_points",
        seed="au troisième et dernier décompte si un joueur marque 0 point",
        fixed="no other reading of the seed: 'au troisième et dernier décompte' "
        "(B15) names the third round, which is also the last; the option only matters for "
        "variants with another number of rounds",
        notes=(
            Note(
                "B15",
                "the 33 rule",
                "Seed: « au troisième et dernier décompte si un joueur marque 0 point et bien il "
                "en marque en réalité 33 ». In a round listed in bonus_rounds (by default the "
                "third, the last scoring), a round score of exactly 0 counts as bonus_points (33).",
            ),
        ),
    ),
    Option("bonus_points", ("B15",), "what a round score of 0 becomes in a bonus round"),
)
"""The one declaration of each option, in field order (:class:`castlerules.core.Option`)."""


class Tables:
    """Tables built once per :class:`Rules` from its options, for speed: ``rules.tables``
    (the engine, the kernel, the notation and the adapters read them).

    Floors are indexed 0..7 (index 0 unused) so that a character's floor
    indexes them directly.
    """

    __slots__ = (
        "cap",
        "cap_above",
        "climbs",
        "codes",
        "index",
        "letter_sets",
        "letters",
        "max_points",
        "members",
        "movement_from_first",
        "n",
        "place_caps",
        "place_counts",
        "place_floors",
        "place_ok",
        "place_rows",
        "placements",
        "places",
        "points",
        "points_or_0",
        "room_of",
        "text",
        "top",
        "votes_no",
        "votes_yes",
        "with_pass",
    )

    def __init__(self, rules: Rules) -> None:
        self.n: int = rules.characters
        self.letters: str = ALPHABET[: rules.characters]
        self.index: dict[str, int] = {ch: i for i, ch in enumerate(self.letters)}
        self.cap: tuple[int, ...] = tuple(rules.capacity(f) if f else 0 for f in range(8))
        self.cap_above: tuple[int, ...] = self.cap[2:]  # capacity of floor f + 1, from f = 1
        # Memo of room_of(): per castle count, which floors a character can climb from.
        self.room_of: dict[tuple[int, ...], Callable[[int], bool]] = {}
        self.points: tuple[int, ...] = (0, *rules.points)
        # points_or_0[f]: the points of floor f; 0 for 0 (unplaced) and -1 (eliminated, B13).
        self.points_or_0: tuple[int, ...] = (*self.points, 0)
        # Memo of members(): the characters of an objective mask.
        self.members: dict[int, tuple[int, ...]] = {}
        # Memo of letter_set(): the letters of an objective mask, as a frozenset.
        self.letter_sets: dict[int, frozenset[str]] = {}
        self.place_ok: tuple[bool, ...] = tuple(f in rules.placement_floors for f in range(8))
        self.place_floors: tuple[int, ...] = rules.placement_floors
        floors = rules.placement_floors
        # The counts of the placement floors, as a tuple (itemgetter of one index is no tuple).
        self.place_counts: Callable[[tuple[int, ...]], tuple[int, ...]] = (
            itemgetter(*floors) if len(floors) > 1 else lambda counts: (counts[floors[0]],)
        )
        self.place_caps: tuple[int, ...] = tuple(self.cap[f] for f in floors)
        # Memo of place_rows(): per pattern of open placement floors, filled on first use.
        self.place_rows: dict[tuple[bool, ...], tuple[tuple[Place, ...], ...]] = {}
        self.places: tuple[tuple[Place, ...], ...] = PLACES  # places[c][f]: Place(c, f)
        self.climbs: tuple[Climb, ...] = CLIMBS[: rules.characters]
        self.votes_yes: tuple[Move, ...] = (YES,)
        self.votes_no: tuple[Move, ...] = (YES, NO)
        self.with_pass: tuple[Move, ...] = (PASS,) if rules.allow_pass else ()
        self.movement_from_first: bool = rules.movement_starter == "first_player"
        self.top: int = rules.throne_floor
        self.text: str = options_text(rules)
        self.placements: tuple[int, ...] = tuple(
            rules.placements_for(p) if p in PLAYERS else 0 for p in range(PLAYERS.stop)
        )
        self.max_points: int = _max_points(rules)
        self.codes: Codes = Codes(rules, self.place_floors)


class Codes:
    """The moves of these rules numbered ``0..count-1`` (the adapters' actions), and the
    same tables as :class:`Tables` spelt in numbers, so that
    :func:`~castlerules.throne.transitions.legal_codes` reads the rule of
    ``legal_moves`` once, through either alphabet.

    ``Place(c, f)`` is ``c * len(placement_floors) + j`` where ``f`` is the ``j``-th
    placement floor (B6); then one ``Climb`` per character (B8), then ``Vote(True)``
    and ``Vote(False)`` (B11), then ``Pass`` if the rules allow it.
    """

    __slots__ = ("climbs", "moves", "place_rows", "places", "votes_no", "votes_yes", "with_pass")

    def __init__(self, rules: Rules, floors: tuple[int, ...]) -> None:
        n = rules.characters
        moves: list[Move] = [PLACES[c][f] for c in range(n) for f in floors]
        self.climbs: tuple[int, ...] = tuple(range(len(moves), len(moves) + n))
        moves += CLIMBS[:n]
        self.votes_yes: tuple[int, ...] = (len(moves),)
        self.votes_no: tuple[int, ...] = (len(moves), len(moves) + 1)
        moves += [YES, NO]
        self.with_pass: tuple[int, ...] = (len(moves),) if rules.allow_pass else ()
        if rules.allow_pass:
            moves.append(PASS)
        self.moves: tuple[Move, ...] = tuple(moves)
        """The move of each number."""
        # places[c][f]: the number of Place(c, f) (f a placement floor; others unused).
        self.places: tuple[dict[int, int], ...] = tuple(
            {f: c * len(floors) + j for j, f in enumerate(floors)} for c in range(n)
        )
        # Memo of place_rows(), in numbers.
        self.place_rows: dict[tuple[bool, ...], tuple[tuple[int, ...], ...]] = {}


def members(table: Tables, mask: int) -> tuple[int, ...]:
    """The characters (indexes) whose bits are set in ``mask``, kept in ``table.members``."""
    found = tuple(i for i in range(table.n) if mask >> i & 1)
    table.members[mask] = found
    return found


def letter_set(table: Tables, mask: int) -> frozenset[str]:
    """The letters whose bits are set in ``mask``, kept in ``table.letter_sets``."""
    found = frozenset(ch for i, ch in enumerate(table.letters) if mask >> i & 1)
    table.letter_sets[mask] = found
    return found


def room_of(table: Tables, counts: tuple[int, ...]) -> Callable[[int], bool]:
    """For the floor counts ``counts``: floor -> can a character climb from it (B7, B8).

    A character climbs from floor ``f`` if floor ``f + 1`` holds fewer than its
    capacity (B7: 4; the throne: 1).  Index 0 (unplaced), the throne and the
    last index (read for -1, eliminated) say False.  Built once per count
    pattern and kept in ``table.room_of`` (a few thousand patterns at most).
    """
    room = [False, *map(lt, counts[2:], table.cap_above), False, False]
    table.room_of[counts] = found = room.__getitem__
    return found


def place_rows(
    table: Tables, pattern: tuple[bool, ...], alphabet: Tables | Codes | None = None
) -> tuple[tuple[Any, ...], ...]:
    """Per character, its Place moves onto the open placement floors (B6, B7).

    ``pattern`` says, per placement floor, whether it has room; the rows are
    built once per pattern and kept in ``alphabet.place_rows`` (at most 64):
    the moves for the table itself (the default), their numbers for ``table.codes``.
    """
    alphabet = alphabet or table
    places: Any = alphabet.places
    rows = tuple(
        tuple(places[i][f] for f, ok in zip(table.place_floors, pattern, strict=True) if ok)
        for i in range(table.n)
    )
    memo: Any = alphabet.place_rows
    memo[pattern] = rows
    return rows


def _max_points(rules: Rules) -> int:
    """The most points a player's favourites can bring in a round (B14), before B15.

    A round ends either with a king on the throne (B12), who climbed from the
    nobles' floor (B8) so that at most ``floor_capacity - 1`` others stay
    there, or without a king (every player passed, or the castle emptied)
    with at most ``floor_capacity`` nobles; each floor below holds at most
    ``floor_capacity``.  The favourites take the best places of either castle.
    """
    best = 0
    top, nobles = rules.throne_floor, rules.noble_floor
    for crowned in (True, False):
        places: list[int] = []
        for floor in range(1, top + 1):
            room = rules.capacity(floor)
            if floor == top:
                room = 1 if crowned else 0
            elif floor == nobles and crowned:
                room -= 1
            places += [rules.points_of(floor)] * room
        places.sort(reverse=True)
        best = max(best, sum(places[: rules.objective_size]))
    return best


class _Cache:
    __slots__ = ("tables",)
    tables: Tables


@attrs.frozen(slots=True, init=False)
class Rules(_Cache):
    """The options of Throne; the defaults are the seed's reading (preset ``SEED``).

    Every option is checked; a bad value raises
    :class:`~castlerules.core.ArgumentError` (a ``ValueError``) naming the
    allowed values.  ``Rules.preset("ORIGINAL")`` gives the published rules.
    Options make other readings expressible too (``Rules(floor_capacity=5)``),
    so that tests and proofs can show that each rule matters.
    """

    PRESETS: ClassVar[Mapping[str, Mapping[str, object]]] = MappingProxyType(
        {
            "SEED": MappingProxyType({}),
            "ORIGINAL": MappingProxyType(
                {
                    "placement_floors": (2, 3, 4, 5),
                    "equal_placement": True,
                    "movement_starter": "first_player",
                    "no_cards_public": False,
                }
            ),
        }
    )
    """The named presets, as the options they change from the defaults (``SEED``)."""

    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    """The one declaration of each option (:data:`castlerules.throne.rules.OPTIONS`)."""

    characters: int = attrs.field(
        default=13, validator=validator(_int_in(1, 26), "a whole number in 1..26")
    )
    """Number of characters, named ``A``, ``B``, ... (13 in the published game)."""
    floors: int = attrs.field(
        default=7,
        validator=validator(lambda v: is_int(v) and v == 7, "7 (the seed's castle, B1)"),
    )
    """Floors of the castle, the throne being the top one (B1: fixed at 7)."""
    floor_capacity: int = attrs.field(
        default=4, validator=validator(_int_in(1, 26), "a whole number in 1..26")
    )
    """Most characters on one of floors 1-6 (B7: four); the throne always holds one."""
    points: tuple[int, ...] = attrs.field(
        default=(0, 1, 2, 3, 4, 5, 10),
        converter=_to_tuple,
        validator=validator(_ints(7, 0, 1000), "7 whole numbers in 0..1000, floor 1 first"),
    )
    """Points of a favourite on floors 1..7 (B14), floor 1 first."""
    placement_floors: tuple[int, ...] = attrs.field(
        default=(1, 2, 3, 4, 5),
        converter=_to_tuple,
        validator=validator(
            _increasing(1, 6, empty=False), "increasing floor numbers in 1..6, at least one"
        ),
    )
    """Floors that characters may be placed on (B6: the first five)."""
    equal_placement: bool = attrs.field(
        default=False, validator=validator(_is_bool, "True or False")
    )
    """True: every player places ``placements_per_player`` characters, leftovers go to floor 1."""
    placements_per_player: tuple[int, ...] = attrs.field(
        default=(4, 3, 2, 2),
        converter=_to_tuple,
        validator=validator(_ints(4, 1, 26), "4 whole numbers in 1..26 (for 3, 4, 5, 6 players)"),
    )
    """With ``equal_placement``: characters each player places, for 3, 4, 5, 6 players."""
    no_cards: tuple[int, ...] = attrs.field(
        default=(4, 3, 2, 2),
        converter=_to_tuple,
        validator=validator(_ints(4, 0, 99), "4 whole numbers in 0..99 (for 3, 4, 5, 6 players)"),
    )
    """No cards of each player (B11), for 3, 4, 5, 6 players."""
    no_cards_reset_each_round: bool = attrs.field(
        default=True, validator=validator(_is_bool, "True or False")
    )
    """True: every player gets all their No cards back at the start of each round."""
    first_player_rotates: bool = attrs.field(
        default=True, validator=validator(_is_bool, "True or False")
    )
    """True: round k is started by seat k-1 (modulo the players); False: always seat 0."""
    movement_starter: str = attrs.field(
        default="after_last_placer",
        validator=validator(
            lambda v: v in MOVEMENT_STARTERS, "one of " + ", ".join(map(repr, MOVEMENT_STARTERS))
        ),
    )
    """Who starts the movement phase (B8): the seat after the last placer, or the round's
    first player."""
    allow_pass: bool = attrs.field(default=False, validator=validator(_is_bool, "True or False"))
    """True: in the movement phase a player may pass (the seed's "peut faire monter")."""
    no_cards_public: bool = attrs.field(
        default=True, validator=validator(_is_bool, "True or False")
    )
    """True: how many No cards each player has left is public (discards are face up)."""
    objective_size: int = attrs.field(
        default=6, validator=validator(_int_in(1, 26), "a whole number in 1..26")
    )
    """Favourites on an objective card (B4: six)."""
    objective_deck: tuple[str, ...] | None = attrs.field(
        default=None,
        converter=_to_deck,
        validator=validator(_deck_shape, "None or a non-empty sequence of cards such as 'ABCDEF'"),
    )
    """None: objectives are random distinct sets; else the cards of a physical deck."""
    rounds: int = attrs.field(
        default=3, validator=validator(_int_in(1, 99), "a whole number in 1..99")
    )
    """Rounds in a game (B3: three)."""
    bonus_rounds: tuple[int, ...] = attrs.field(
        default=(3,),
        converter=_to_tuple,
        validator=validator(_increasing(1, 99, empty=True), "increasing round numbers"),
    )
    """Rounds whose score of 0 counts as ``bonus_points`` (B15: the third)."""
    bonus_points: int = attrs.field(
        default=33, validator=validator(_int_in(0, 1000), "a whole number in 0..1000")
    )
    """What a round score of 0 becomes in a bonus round (B15: 33)."""

    if TYPE_CHECKING:  # type checkers see options by name only: Rules(7) is a static error

        def __init__(self, **options: object) -> None: ...

    else:

        def __init__(self, *positional: object, **options: object) -> None:
            if positional:
                raise ArgumentError(
                    "Rules takes its options by name, such as Rules(allow_pass=True) (or "
                    f"Rules.preset('ORIGINAL')), not the positional value {positional[0]!r:.60}"
                )
            init_rules(self, options)

    def __attrs_post_init__(self) -> None:
        if self.objective_size > self.characters:
            raise ArgumentError(
                f"option objective_size must be at most characters ({self.characters}), "
                f"not {self.objective_size}"
            )
        if self.objective_deck is not None:
            letters = ALPHABET[: self.characters]
            for card in self.objective_deck:
                if (
                    len(card) != self.objective_size
                    or len(set(card)) != len(card)
                    or not set(card) <= set(letters)
                ):
                    raise ArgumentError(
                        f"option objective_deck must hold cards of {self.objective_size} "
                        f"distinct letters from {letters[0]}-{letters[-1]}, not {card!r}"
                    )
            if len(set(self.objective_deck)) != len(self.objective_deck):
                raise ArgumentError(
                    "option objective_deck must hold distinct cards (no card twice)"
                )
        if self.bonus_rounds and self.bonus_rounds[-1] > self.rounds:
            raise ArgumentError(
                f"option bonus_rounds must name rounds in 1..{self.rounds}, "
                f"not {self.bonus_rounds!r}"
            )
        if self.equal_placement and 1 in self.placement_floors:
            raise ArgumentError(
                "option placement_floors must leave out floor 1 when equal_placement is True "
                "(the leftover characters go to floor 1), "
                f"not {self.placement_floors!r}"
            )
        object.__setattr__(self, "tables", Tables(self))

    @property
    def _derived(self) -> Tables:
        """The former name of :attr:`tables` (the batch reads it until it follows)."""
        return self.tables

    def __reduce__(self) -> tuple[Callable[..., Rules], tuple[dict[str, Any]]]:
        # Pickle and copy by options, so that the derived tables are rebuilt.
        return (_rebuild, (attrs.asdict(self, recurse=False),))

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset: ``"SEED"`` (the default) or ``"ORIGINAL"``."""
        if not isinstance(name, str) or name not in cls.PRESETS:
            raise ArgumentError(
                f"unknown preset {name!r}; the presets are: {', '.join(cls.PRESETS)}"
            )
        return cls(**cls.PRESETS[name])

    @property
    def throne_floor(self) -> int:
        """The throne's floor (B1: the 7th)."""
        return self.floors

    @property
    def noble_floor(self) -> int:
        """The nobles' floor, just below the throne (B2: the 6th)."""
        return self.floors - 1

    def capacity(self, floor: int) -> int:
        """Most characters on ``floor``: ``floor_capacity`` on floors 1-6 (B7), 1 on the throne."""
        if not is_int(floor) or not 1 <= floor <= self.floors:
            raise ArgumentError(f"floor must be in 1..{self.floors}, not {floor!r}")
        return 1 if floor == self.throne_floor else self.floor_capacity

    def points_of(self, floor: int) -> int:
        """Points of a favourite on ``floor`` at the scoring (B14)."""
        if not is_int(floor) or not 1 <= floor <= self.floors:
            raise ArgumentError(f"floor must be in 1..{self.floors}, not {floor!r}")
        return self.points[floor - 1]

    def no_cards_for(self, players: int) -> int:
        """No cards each player holds at the start of a round (B11)."""
        return self.no_cards[_seat_count_index(players)]

    def placements_for(self, players: int) -> int:
        """Place moves in one round's placement phase (B6).

        Every character is placed by the players, unless ``equal_placement``:
        then each player places ``placements_per_player`` characters and the
        rest go to floor 1 without a move.
        """
        index = _seat_count_index(players)
        if self.equal_placement:
            return players * self.placements_per_player[index]
        return self.characters

    def bonus_applies(self, round_number: int) -> bool:
        """Whether a round score of 0 in this round (1-based) counts as ``bonus_points`` (B15)."""
        return self._round(round_number) in self.bonus_rounds

    def max_round_score(self, round_number: int) -> int:
        """The largest score a player can make in round ``round_number`` (B14, B15).

        The best castle a round can end with: either a king on the throne
        (B12) and at most ``floor_capacity - 1`` others on the nobles' floor
        (the king climbed from it, B8), or no king (every player passed, or
        the castle emptied) and a full nobles' floor; the favourites take the
        best places, ``floor_capacity`` per floor below.  In a bonus round a
        score of 0 counts as ``bonus_points`` (B15), which may be more.  With
        the defaults this is 33 in every round: the king (10), three nobles
        (3 x 5) and two dignitaries (2 x 4), or the bonus 33.

        >>> Rules().max_round_score(1), Rules(points=(0, 1, 2, 3, 4, 20, 10)).max_round_score(1)
        (33, 88)
        """
        best: int = self.tables.max_points
        if self.bonus_applies(round_number):
            best = max(best, self.bonus_points)
        return best

    def _round(self, round_number: object) -> int:
        if not is_int(round_number) or not 1 <= round_number <= self.rounds:  # type: ignore[operator]
            raise ArgumentError(f"round must be in 1..{self.rounds}, not {round_number!r}")
        assert isinstance(round_number, int)
        return round_number

    def letters(self) -> str:
        """The character names, in order: ``"ABCDEFGHIJKLM"`` by default."""
        return ALPHABET[: self.characters]

    def check_players(self, players: object) -> int:
        """Check that a game of ``players`` can be set up with these rules; return it.

        Raises :class:`~castlerules.core.ArgumentError` naming the allowed
        values: 3-6 players, enough room on the placement floors, enough
        objective cards for everyone.
        """
        if not is_int(players) or players not in PLAYERS:
            raise ArgumentError(
                f"players must be a whole number in {PLAYERS.start}..{PLAYERS.stop - 1}, "
                f"not {players!r}"
            )
        assert isinstance(players, int)
        room = sum(self.capacity(f) for f in self.placement_floors)
        placed = self.placements_for(players)
        if placed > min(room, self.characters):
            raise ArgumentError(
                f"these rules cannot be played by {players}: {placed} placements need at most "
                f"{min(room, self.characters)} (room on the placement floors and characters)"
            )
        if self.characters - placed > self.capacity(1):
            raise ArgumentError(
                f"these rules cannot be played by {players}: {self.characters - placed} "
                f"leftover characters do not fit on floor 1 (capacity {self.capacity(1)})"
            )
        if self.objective_deck is not None and len(self.objective_deck) < players:
            raise ArgumentError(
                f"option objective_deck must hold at least {players} cards for {players} "
                f"players, not {len(self.objective_deck)}"
            )
        if _distinct_sets(self.characters, self.objective_size) < players:
            raise ArgumentError(
                f"these rules cannot be played by {players}: fewer than {players} distinct "
                "objectives exist"
            )
        return players


declared(Rules)  # one declaration per field, in field order (ValueError at import otherwise)


def _rebuild(options: dict[str, Any]) -> Rules:
    return Rules(**options)


def _seat_count_index(players: int) -> int:
    if not is_int(players) or players not in PLAYERS:
        raise ArgumentError(
            f"players must be a whole number in {PLAYERS.start}..{PLAYERS.stop - 1}, "
            f"not {players!r}"
        )
    return players - PLAYERS.start


def _distinct_sets(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


OPTION_KINDS: tuple[tuple[str, str], ...] = tuple(
    (
        f.name,
        {
            "int": "int",
            "bool": "bool",
            "tuple[int, ...]": "ints",
            "tuple[str, ...] | None": "cards",
            "str": "word",
        }[str(f.type)],
    )
    for f in attrs.fields(Rules)
)
"""Each option and how its value is written in notation: int, bool, ints or cards."""


def value_text(kind: str, value: Any) -> str:
    """An option value as notation writes it: ``true``, ``4``, ``0/1/2``, ``-``, ``none``,
    ``first_player``."""
    if kind == "bool":
        return "true" if value else "false"
    if kind in ("int", "word"):
        return str(value)
    if value is None:
        return "none"
    if not value:
        return "-"
    return "/".join(str(v) for v in value)


def options_text(rules: Rules) -> str:
    """The rules as notation writes them: the preset that needs the fewest options
    (``SEED`` on a tie), then ``,name=value`` for each option that differs from it.

    >>> options_text(Rules(allow_pass=True))
    'SEED,allow_pass=true'
    >>> options_text(Rules.preset("ORIGINAL"))
    'ORIGINAL'
    """
    defaults = {f.name: f.default for f in attrs.fields(Rules)}
    best: list[str] | None = None
    for name, changes in Rules.PRESETS.items():
        parts = [name]
        for option, kind in OPTION_KINDS:
            value = getattr(rules, option)
            if value != changes.get(option, defaults[option]):
                parts.append(f"{option}={value_text(kind, value)}")
        if best is None or len(parts) < len(best):
            best = parts
    assert best is not None
    return ",".join(best)


def derived(rules: Rules) -> Tables:
    """The derived tables of ``rules`` (built once, by the constructor)."""
    table: Tables = rules.tables
    return table


def floors_text(floors: tuple[int, ...]) -> str:
    """``(1, 2, 3, 4, 5)`` -> ``"floors 1-5"``; ``(2, 4)`` -> ``"floors 2 and 4"``."""
    if len(floors) == 1:
        return f"floor {floors[0]}"
    if floors == tuple(range(floors[0], floors[-1] + 1)):
        return f"floors {floors[0]}-{floors[-1]}"
    return "floors " + ", ".join(map(str, floors[:-1])) + f" and {floors[-1]}"
