"""The rules of Ascent: ranks, options, presets, and the interpretation notes.

This module is the single source of every number of the game.  The engine
(:mod:`castlerules.ascent.transitions`), the proofs and the documentation read
them from a :class:`Rules` instance; nothing else spells them out.

>>> rules = Rules()
>>> rules.arrival_of(Rank.LADY)
5
>>> rules.in_upper_half(4), rules.in_upper_half(3)
(True, False)
>>> Rules(favours_per_move=None).favours_per_move is None
True
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, NoReturn

import attrs

from castlerules.core.errors import ArgumentError
from castlerules.core.options import Note, Option, declared, init_rules, validator
from castlerules.core.protocol import require


class Rank(enum.Enum):
    """The six ranks, high to low; ``.value`` is the card's value (A18, spec rule 2)."""

    PRINCE = 6
    BISHOP = 5
    LADY = 4
    CHARLATAN = 3
    TROUBADOUR = 2
    FIRE_EATER = 1

    @property
    def letter(self) -> str:
        """The one-letter symbol used in notation: P, B, L, C, T, F."""
        return _LETTERS[self.value]

    @property
    def title(self) -> str:
        """The English name: ``"Prince"`` ... ``"Fire-eater"``."""
        return _TITLES[self.value]

    @property
    def french(self) -> str:
        """The French name used in the seed (A18)."""
        return _FRENCH[self.value]

    @classmethod
    def from_letter(cls, letter: str) -> Rank:
        """The rank with this notation letter; :class:`ArgumentError` if there is none."""
        try:
            return _BY_LETTER[letter]
        except (KeyError, TypeError):
            raise ArgumentError(
                f"a rank letter is one of P, B, L, C, T, F, not {letter!r:.20}"
            ) from None

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        # Rank(7) raises ArgumentError (still a ValueError) instead of a bare ValueError.
        raise ArgumentError(f"a rank's value is an int in 1..6, not {value!r:.20}")


_LETTERS = {6: "P", 5: "B", 4: "L", 3: "C", 2: "T", 1: "F"}
_TITLES = {
    6: "Prince",
    5: "Bishop",
    4: "Lady",
    3: "Charlatan",
    2: "Troubadour",
    1: "Fire-eater",
}
_FRENCH = {
    6: "Prince",
    5: "Évêque",
    4: "Dame",
    3: "Charlatan",
    2: "Troubadour",
    1: "Cracheur de feu",
}
_BY_LETTER = {letter: Rank(value) for value, letter in _LETTERS.items()}

RANKS: tuple[Rank, ...] = tuple(Rank)
"""The ranks from the highest (Prince) to the lowest (Fire-eater)."""

SET_VALUE = sum(rank.value for rank in Rank)
"""The total value of one player's set of six cards: 21 (A18)."""

DIE_CHOICES = ("first_player", "none")
"""The values of option ``die`` (A18): what the die decides."""

END_TESTS = ("unreached", "unflipped", "can_move")
"""The values of option ``end_test`` (A14): who is still in the race when a turn ends."""
STACK_RANKS = ("top", "highest")
"""The values of option ``stack_rank`` (A3, A6, A7, A10): the rank a stack acts with."""
FAVOUR_TAKES = ("lower_top", "all_lower")
"""The values of option ``favour_takes`` (A10): what part of a stack a favour may take."""
PENALTY_TO = ("column", "owner")
"""The values of option ``penalty_to`` (A13): whose penalty a removed card is."""
DEALS = ("sets", "shuffled")
"""The values of option ``deal`` (A2, A18): one set per player, or every card dealt by chance."""

PATHS = ("shared_start", "staggered")
"""The values of option ``path`` (A1, A5)."""

STAGGERED_GEOMETRY: Mapping[str, object] = MappingProxyType(
    {"squares": 12, "arrival": (7, 8, 9, 10, 11, 12), "upper_half": 7}
)
"""The geometry ``path="staggered"`` reads where the shared Start's is given (A1, A5):
every rank travels 7 squares, from the Start (the Fire-eater) or a start row of its own
(row 1 the Troubadour's ... row 5 the Prince's), so the arrival squares are 7..12 of a
path of 12 squares; the upper half is its top six squares, 7..12, as 4..7 is of 7."""

UNLIMITED = 6 * 6 + 1
"""The kernel's number for ``favours_per_move=None``: more favours than there are cards."""


def _is_second(values: tuple[str, ...]) -> Any:
    """The kernel's reading of a two-valued option: whether it has its other value."""
    return lambda value: value == values[1]


OPTIONS: tuple[Option, ...] = (
    Option(
        "squares",
        ("A5",),
        "the number of squares of the path above the Start",
        seed="Le chemin à parcourir pour un personnage est de 7 cases.",
        fixed="a number of the material, not a reading: the seed says 'Le chemin ... "
        "est de 7 cases' (A5); other lengths are variants (and the proofs' small models)",
        notes=(
            Note(
                "A5",
                "length of the path",
                "Seed: « Le chemin à parcourir pour un personnage est de 7 cases. » The squares "
                "option is not in the spec: it sets the number of path squares above the Start "
                "(6..20), for variants and for the proofs' small models. The default 7 is A5 ('le "
                "chemin ... est de 7 cases'); the arrival squares and upper_half must lie on the "
                "path (1..squares).",
            ),
        ),
    ),
    Option(
        "arrival",
        ("A1", "A6"),
        "the arrival square (the ceiling) of the ranks of value 1..6",
        seed="Aucun personnage ne peut se déplacer sur une case supérieure à sa case d'arrivée.",
        fixed="no other reading of the seed: A7 and A9 need arrival squares that rise "
        "with the rank, one rank per square, and the Prince's is the end of the path of 7 "
        "squares (A5; nothing can protect a Prince above it); value + 1 puts the six ranks on "
        "squares 2-7 and the seed names no other placement, so another one (a rank on square "
        "1, a square between left to no rank) is a variant, not a reading",
        notes=(
            Note(
                "A6",
                "arrival squares strictly increase with rank",
                "Seed: « Aucun personnage ne peut se déplacer sur une case supérieure à sa case "
                "d’arrivée. » The arrival option must be strictly increasing in rank: then a "
                "higher ceiling means a higher rank (A7's protection), and each arrival square "
                "belongs to one rank only (A9).",
            ),
        ),
    ),
    Option(
        "upper_half",
        ("A13",),
        "the first square of the upper half of the board",
        seed="Si, dans la moitié supérieure du plateau, seule une partie d'une pile est prise",
        # "la moitié supérieure" of a path of 7 squares: 4-7 (default) or 5-7.
        alternatives=(5,),
        notes=(
            Note(
                "A13",
                "the upper half",
                "Seed: « Si, dans la moitié supérieure du plateau, seule une partie d'une pile est "
                "prise ». 'la moitié supérieure du plateau' is read on the whole board: eight rows "
                "counting the Start (0-7), whose upper half is rows 4-7 (spec rule 6), so "
                "upper_half=4. Reading it on the path alone (squares 1-7, A5), square 4 is the "
                "middle square and belongs to neither half; the upper half is then squares 5-7: "
                "upper_half=5. The two readings differ only when a take on square 4 exposes a "
                "remainder.",
            ),
        ),
    ),
    Option(
        "allow_exposing_split",
        ("A7",),
        "whether a split may leave a card on top of the remainder above its own arrival square",
        seed="dès lors qu'il est sous la protection d'un personnage de rang supérieur de la pile",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "A7",
                "exposing split when allowed",
                "Seed: « dès lors qu’il est sous la protection d’un personnage de rang supérieur "
                "de la pile ». With allow_exposing_split=True, a split may leave a card above its "
                "ceiling on top of the remainder; the remainder stays where it is in either half "
                "(A13 only removes what a take by another player exposes).",
            ),
        ),
    ),
    Option(
        "favours_per_move",
        ("A10",),
        "the most favours after one Advance (None: every target of the row)",
        seed="on peut prendre ces cartes sous son contrôle en les mettant sous sa carte",
        alternatives=(None,),
        kernel=lambda value: UNLIMITED if value is None else min(value, UNLIMITED),
        symbolic=f"int 1..{UNLIMITED}",
        notes=(
            Note(
                "A10",
                "several favours",
                "Seed: « on peut prendre ces cartes sous son contrôle en les mettant sous sa carte "
                "ou sa pile » (how many times is not said). favours_per_move=k allows up to k "
                "favours after each Advance; None allows any number: after a favour, further "
                "favours on the same row (from any other column, including the remainder just "
                "left) stay available, by the same moved stack, until the player advances again or "
                "ends the turn. A favour beyond the limit cites A10; a favour when no stack was "
                "just moved cites A11.",
                refuses=(
                    (
                        "ascent-favour-not-pending",
                        "a favour when no stack was just moved cites A11",
                    ),
                    ("ascent-favour-limit", "A favour beyond the limit cites A10"),
                ),
            ),
        ),
    ),
    Option(
        "replays_per_turn",
        ("A12",),
        "the most times a turn plays again after a favour (None: after every favour)",
        seed="Ensuite, on peut rejouer immédiatement si on le désire.",
        kernel=lambda value: UNLIMITED if value is None else min(value, UNLIMITED),
        symbolic=f"int 1..{UNLIMITED}",
        notes=(
            Note(
                "A12",
                "one replay per turn",
                "Seed: « On ne peut faire cette faveur qu’avec la carte ou la pile que l’on vient "
                "de déplacer. Ensuite, on peut rejouer immédiatement si on le désire. » "
                "replays_per_turn=None (default, spec rule 16): after each favour the player may "
                "Advance again, and after a favour of that Advance again, with no bound but the "
                "favours the board offers: 'rejouer' read as a right each favour gives. "
                "replays_per_turn=1: once per turn ('on peut rejouer' read as one more move); "
                "after the favours of that replay the turn ends, and a further Advance is refused "
                "citing A12. An integer k allows k. A position then counts the replays of its turn "
                "(the turn field of the notation gains a fifth number once there is one). The "
                "default keeps the reading of the spec's rule 16, under which every favour earns "
                "its replay.",
                refuses=(("ascent-replay-limit", "a further Advance is refused citing A12"),),
            ),
        ),
    ),
    Option(
        "stack_rank",
        ("A3", "A6", "A7", "A10"),
        "the rank a stack acts with: its top card's, or the highest in it",
        seed="sous la protection d'un personnage de rang supérieur de la pile",
        values=STACK_RANKS,
        alternatives=("highest",),
        kernel=_is_second(STACK_RANKS),
        symbolic="bool (highest)",
        notes=(
            Note(
                "A3",
                "the rank of a stack",
                "Seed: « un personnage déplacé à l'intérieur d'une pile peut aller plus haut dès "
                "lors qu’il est sous la protection d’un personnage de rang supérieur de la pile » "
                "and « des piles de cartes d’un rang inférieur ». stack_rank='top' (default, spec "
                "rules 5 and 8): a stack acts with its top card, the leader: 'sous la protection' "
                "places the protector above the protected card, so a card rides above its ceiling "
                "only under a higher card, and the moving part goes where its top card may go. "
                "stack_rank='highest': 'de rang supérieur de la pile' read as any card of the "
                "stack: a moving part acts with its highest rank (its free squares, its ceiling, "
                "where it flips), every lower card of the part is protected wherever it lies in "
                "it, a remainder is exposed only above its own highest card's ceiling, and a "
                "favour compares the moved stack's highest rank with the target stack's. The "
                "proofs cover 'top' only; 'highest' is checked by the engine's tests.",
            ),
        ),
    ),
    Option(
        "favour_takes",
        ("A10",),
        "what part of a stack a favour takes: a top part over a lower top card, or only "
        "a part whose every card ranks lower",
        seed="des cartes ou des piles de cartes d'un rang inférieur",
        values=FAVOUR_TAKES,
        alternatives=("all_lower",),
        kernel=_is_second(FAVOUR_TAKES),
        symbolic="bool (all_lower)",
        notes=(
            Note(
                "A10",
                "what a favour may take",
                "Seed: « on a des cartes ou des piles de cartes d’un rang inférieur dans une autre "
                "colonne mais sur la même rangée, on peut prendre ces cartes sous son contrôle ». "
                "favour_takes='lower_top' (default, spec rule 13): a stack acts with its top "
                "card's rank (rule 5), so 'une pile de cartes d'un rang inférieur' is a stack "
                "whose top ranks lower; the favour takes any top part of it, whatever lies under "
                "that top (a Lady may take a Charlatan-topped stack holding a Lady). "
                "favour_takes='all_lower': 'des cartes ... d'un rang inférieur' read card by card: "
                "only a part whose every card ranks lower than the taker's leader; the favour's "
                "card must lie above the first card that does not (a refusal cites A10).",
                refuses=(("ascent-favour-all-lower", "a refusal cites A10"),),
            ),
        ),
    ),
    Option(
        "favour_after_arrival",
        ("A8", "A10"),
        "whether a stack flipped on its arrival may still take a favour",
        seed="Si à la fin de son mouvement, on a des cartes ou des piles de cartes d'un rang "
        "inférieur",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "A10",
                "favour after arrival",
                "Seed: « Si à la fin de son mouvement, on a des cartes ou des piles de cartes d’un "
                "rang inférieur dans une autre colonne mais sur la même rangée » and « Elles ne "
                "peuvent plus être déplacées. » (a favour is not a move of the taker). By default "
                "a stack that has just been flipped on arrival may take a favour; "
                "favour_after_arrival=False forbids it (a refusal cites A10).",
                refuses=(("ascent-favour-after-arrival", "a refusal cites A10"),),
            ),
        ),
    ),
    Option(
        "flip_uncovered",
        ("A8",),
        "whether a stack left uncovered on the arrival square of the rank it acts with "
        "turns over there (a split or a favour took the cards above it)",
        seed="Des cartes ou des piles qui ont atteint leur case d’arrivée de but sont retournées.",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "A8",
                "a card left uncovered on its arrival square",
                "Seed: « Des cartes ou des piles qui ont atteint leur case d’arrivée de but sont "
                "retournées. Elles ne peuvent plus être déplacées. » A card can stand on its own "
                "arrival square unflipped: carried there under a higher card (A7), then left there "
                "when that card moves on (a split) or is taken with the cards above it (a favour). "
                "flip_uncovered=False (default, spec rule 12): only a part that lands on the "
                "arrival square of the rank it acts with turns over; the card left there has "
                "'reached' it for the score and the end test (A15, rule 18) but stays unflipped: "
                "it may move on, a favour may take it, and it holds the square against its own "
                "rank (A9 frees only a square holding flipped cards). flip_uncovered=True: the "
                "stack left uncovered on the arrival square of the rank it acts with turns over "
                "there, as if it had just arrived ('ont atteint ... sont retournées' read of any "
                "card that stands on its arrival square, not only of one that moves onto it); it "
                "never moves again and its square becomes free for its rank. The default keeps the "
                "flip an effect of arriving, as the seed's sentence follows the one on moving.",
            ),
        ),
    ),
    Option(
        "removal_in_lower_half",
        ("A13",),
        "whether an exposed remainder is removed in the lower half too",
        seed="Si, dans la moitié supérieure du plateau, seule une partie d'une pile est prise",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "A13",
                "an exposed remainder in the lower half",
                "Seed: « Si, dans la moitié supérieure du plateau, seule une partie d'une pile est "
                "prise par un autre joueur ». The seed removes an exposed remainder only 'dans la "
                "moitié supérieure du plateau'; in the lower half it stays where it is (spec rule "
                "15): its top card stands above its ceiling, so the remainder never advances again "
                "(A6), but it may still be taken as a favour. removal_in_lower_half=True (preset "
                "HARSH) removes it in both halves.",
            ),
        ),
    ),
    Option(
        "penalty_to",
        ("A13",),
        "whose penalty a removed card is: the column's player, or its set's owner",
        seed="toute la pile est retirée du plateau et placée devant leur propriétaire",
        values=PENALTY_TO,
        alternatives=("owner",),
        kernel=_is_second(PENALTY_TO),
        symbolic="bool (owner)",
        notes=(
            Note(
                "A13",
                "who loses removed cards",
                "Seed: « toute la pile est retirée du plateau et placée devant leur propriétaire. "
                "Dans le compte final, la valeur des cartes sera soustraite des points. » "
                "penalty_to='column' (default, spec rule 15): 'leur propriétaire' is the player of "
                "the column the remainder stood in, who controls it and would have scored it: the "
                "removed cards count against that player, whoever owned them at setup. The seed "
                "gives a favour's taker 'contrôle' of the cards it takes ('prendre ces cartes sous "
                "son contrôle'), so a card changes hands with its column, and A15-A16 score every "
                "card for the player of its column; a removal ends that card's race where it "
                "stood. penalty_to='owner': 'propriétaire' read against 'contrôle', as the owner "
                "of the card's set at setup: each removed card counts against its original owner.",
            ),
        ),
    ),
    Option(
        "end_test",
        ("A14",),
        "who is still in the race when a turn ends",
        seed="Le jeu finit quand il ne reste qu'un joueur dont les personnages peuvent se déplacer",
        values=END_TESTS,
        alternatives=("unflipped", "can_move"),
        kernel=END_TESTS.index,
        symbolic=f"int 0..{len(END_TESTS) - 1} (index of the value)",
        notes=(
            Note(
                "A14",
                "the end test",
                "Seed: « Le jeu finit quand il ne reste qu’un joueur dont les personnages peuvent "
                "se déplacer tandis que les personnages des autres joueurs ont atteint leurs cases "
                "d’arrivée. » When a turn ends, the game is over if at most one player is still in "
                "the race, or if no player has a legal Advance. end_test='unreached' (default, "
                "spec rule 18): a player is in the race while a card of their column (Start "
                "included) is not flipped and below its own arrival square. This reads the whole "
                "sentence: the others' characters « ont atteint leurs cases d’arrivée », and a "
                "card carried on or above its square has reached it, as A15 counts it (« ou se "
                "sont déplacées au-delà à l'intérieur d'une pile »), though it is not flipped and "
                "can never move again. end_test='unflipped' (the earlier reading): any unflipped "
                "card keeps its player in the race, so a player whose last unflipped card was "
                "carried past its square holds the game open, and the last real player plays on "
                "alone, which is what last_player_continues=False exists to prevent. "
                "end_test='can_move' (the most literal « peuvent se déplacer »): at most one "
                "player with a legal Advance now; a player whose unfinished cards are blocked for "
                "the moment counts as finished, though their cards have not reached their squares.",
            ),
        ),
    ),
    Option(
        "last_player_continues",
        ("A14",),
        "whether the last player in the race plays on alone",
        seed="il ne reste qu'un joueur",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "A14",
                "the last player",
                "With last_player_continues=True the last player in the race plays on, alone, and "
                "the game ends only when no player has a legal Advance; end_test then has no "
                "effect (every value gives the same game). The default (False) ends the game as "
                "soon as at most one player is left in the race, as the seed says (« il ne reste "
                "qu’un joueur »).",
            ),
        ),
    ),
    Option(
        "deal",
        ("A2", "A18"),
        "one set per player, or every card in play shuffled and dealt",
        seed="36 cartes personnages, 6 pour chaque valeur",
        values=DEALS,
        alternatives=("shuffled",),
        notes=(
            Note(
                "A18",
                "the deal",
                "Seed: « 36 cartes personnages, 6 pour chaque valeur (Prince, Evêque, Dame, "
                "Charlatan, Troubadour, Cracheur de feu) » and « Chaque joueur se voit attribuer "
                "une colonne de cases sur laquelle il déplace ses personnages. » Nothing says each "
                "player receives one card of each rank. deal='sets' (default, spec rule 1): one "
                "set per player (the same six ranks, worth 21), absent players' sets out of play. "
                "deal='shuffled': the cards of the six sets are shuffled by the game's seed "
                "(chance stream 'ascent.deal', apart from the die's) and dealt in blocks, 36//n "
                "cards to each seat in order; the cards left over (one with 5 players, who get 7 "
                "each) stay out of play. A player may then hold two cards of a rank, and each "
                "player's total value is a chance outcome: the score bounds follow the deal (at "
                "most the value dealt to the seat, plus what it captures), and the termination "
                "bound counts 36//n cards per seat. A card is still named by its set and rank (the "
                "set is the card's identity, no longer its owner); state.owners and "
                "owner_of(state, card) give the seat dealt each card, and the position notation "
                "gains a fifth field, the deal. The default stays 'sets': the spec's rule 1, and "
                "the reading under which every player's race is the same, which the seed's "
                "symmetric scoring suggests.",
            ),
        ),
    ),
    Option(
        "path",
        ("A1", "A5"),
        "one Start below the path, or seven squares for every rank from a start row of its own",
        seed="Le chemin à parcourir pour un personnage est de 7 cases.",
        values=PATHS,
        alternatives=("staggered",),
        notes=(
            Note(
                "A5",
                "the path",
                "Seed: « Le chemin à parcourir pour un personnage est de 7 cases. » and « Les "
                "cartes personnage doivent être déplacées de leurs cases Départ à leurs cases "
                "arrivée. » path='shared_start' (default, spec rule 3): one Start below a column "
                "of 7 squares, the arrival squares on it, so a Fire-eater travels 2 squares and a "
                "Prince 7. path='staggered': every character travels 7 squares, from a start row "
                "of its own rank ('leurs cases Départ' in the plural), the start rows staggered "
                "like the arrival squares: the Fire-eater's is the Start, the Troubadour's row 1 "
                "... the Prince's row 5, so the arrival squares are 7..12 of a path of 12 squares "
                "(Rules(path='staggered') reads the shared Start's geometry so; another one given "
                "is kept, each rank starting at its arrival square less the Fire-eater's). Where "
                "the seed is silent we chose: a start row is the Start of its rank, beside the "
                "column, not a square of the path: it holds any number of single cards, blocks no "
                "square, is no row for favours, and its cards count as Start cards (minus their "
                "value, still in the race); a card leaves it for the first free square above it "
                "(A3); the upper half is the path's top six squares, 7..12 (as 4..7 of 7). Stacks "
                "and favours then form among ranks whose start rows are near, and a Prince races "
                "as far as a Fire-eater. The proofs read both paths as a free option: every "
                "Ascent property is proved under each.",
            ),
        ),
    ),
    Option(
        "die",
        ("A18",),
        "what the die decides: the first player, or nothing (seat 0 begins)",
        seed="1 dé",
        values=DIE_CHOICES,
        alternatives=("none",),
        kernel=_is_second(DIE_CHOICES),
        symbolic="bool (none)",
        notes=(
            Note(
                "A18",
                "what the die decides",
                "Seed: « 1 dé » (the material; no rule says what it decides). The die decides the "
                "first player only. It is rolled (seeded chance, stream 'ascent.die') until it "
                "shows a face 1..n; seat face-1 begins. With six players one roll always suffices. "
                "new_game(first_player=...) overrides the roll; die='none' lets seat 0 begin.",
            ),
        ),
    ),
    Option(
        "protection",
        ("A7",),
        "whether the cards under a moving leader are protected by its ceiling (False is "
        "the wrong, strict reading kept for the proofs)",
        seed="un personnage déplacé à l'intérieur d'une pile peut aller plus haut",
        fixed="protection=false is not a reading of the seed: it exists for the "
        "proofs' sensitivity tests (see Rules)",
        kernel=bool,
        symbolic="bool",
        notes=(
            Note(
                "A7",
                "protection reading",
                "Seed: « un personnage déplacé à l'intérieur d'une pile peut aller plus haut dès "
                "lors qu’il est sous la protection d’un personnage de rang supérieur de la pile ». "
                "The moving part is bound by its leader's ceiling only (protection=True). "
                "protection=False is the wrong, strict reading where every card of the moving part "
                "is bound by its own ceiling; it exists for the proofs' sensitivity tests.",
            ),
        ),
    ),
    Option(
        "cards",
        ("A18",),
        "the cards in play (None: every card of every set in play)",
        fixed="not a reading of the seed: a subset of the cards in play exists for the "
        "exhaustive engine-kernel tie's small games (see Rules); the seed deals every card "
        "of every set in play (A18)",
    ),
)
"""The one declaration of each option, in field order (:class:`castlerules.core.Option`)."""

OPTIONS_BY_NAME: Mapping[str, Option] = MappingProxyType({o.name: o for o in OPTIONS})
""":data:`OPTIONS` by name."""


LINKED_OPTIONS = ("squares", "arrival", "upper_half")
"""The options that :class:`Rules` checks against one another (the arrival squares and
the upper half must lie on the path); the notation reader uses it to place errors."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_square(square: object) -> None:
    if not _is_int(square):
        raise ArgumentError(f"a square is an int, not {square!r:.40}")


def _card_texts(cards: tuple[object, ...]) -> bool:
    """Whether ``cards`` are distinct texts ``<rank letter><set digit>`` (option ``cards``)."""
    ok = all(
        isinstance(c, str) and len(c) == 2 and c[0] in _BY_LETTER and c[1] in "012345"
        for c in cards
    )
    return ok and len(set(cards)) == len(cards)


_SHARED_GEOMETRY: Mapping[str, object] = MappingProxyType(
    {"squares": 7, "arrival": (2, 3, 4, 5, 6, 7), "upper_half": 4}
)
"""The reference geometry of the shared Start (the defaults of ``squares``, ``arrival``,
``upper_half``)."""


def _as_given(value: object) -> object:
    """An option's value as :class:`Rules` stores it (a list of squares as a tuple)."""
    return tuple(value) if isinstance(value, list) else value


def _to_tuple(value: object) -> object:
    """Accept a list for ``arrival`` (a tuple is stored, so Rules stay hashable)."""
    if isinstance(value, list):
        return tuple(value)
    return value


@attrs.frozen(slots=True, init=False)
class Rules:
    """The options of Ascent; ``Rules()`` is the reference reading of the seed.

    Every open point of the seed is an option (see ``spec/ascent.md``):

    ``squares`` (A5)
        Number of squares of the path above the Start (default 7).
    ``arrival`` (A1, A6)
        Arrival square, which is also the ceiling, of the ranks of value
        1..6 (index ``value - 1``); default ``(2, 3, 4, 5, 6, 7)``, value + 1.
        Strictly increasing, in ``1..squares``.
    ``upper_half`` (A13)
        First square of the upper half of the board (default 4).
    ``allow_exposing_split`` (A7)
        ``False``: a split may not leave on top of the remainder a card
        above its own arrival square.  ``True``: it may; the exposed
        remainder then stays where it is.
    ``favours_per_move`` (A10)
        ``1`` (default): at most one favour per Advance; an integer ``k``: at
        most ``k``; ``None``: unlimited, every target of the row may be taken.
    ``replays_per_turn`` (A12)
        ``None`` (default): after each favour the player may Advance again,
        and again after a favour of that Advance, without end.  ``1``: once
        per turn (an integer ``k``: at most ``k`` times); after the favours
        of the last replay the turn ends.
    ``stack_rank`` (A3, A6, A7, A10)
        The rank a stack or a moving part acts with: ``"top"`` (default), its
        top card's; ``"highest"``, the highest rank in it.
    ``favour_takes`` (A10)
        ``"lower_top"`` (default): a favour takes a card and every card above
        it from a stack whose top card ranks lower than the taker's leader.
        ``"all_lower"``: only a part whose every card ranks lower.
    ``favour_after_arrival`` (A8, A10)
        Whether a stack that has just been flipped on arrival may still take
        a favour (default ``True``).
    ``flip_uncovered`` (A8)
        ``False`` (default): only a part that lands on the arrival square of
        the rank it acts with turns over.  ``True``: so does a remainder that a
        split or a favour leaves uncovered on its own arrival square.
    ``removal_in_lower_half`` (A13)
        Whether an exposed remainder is removed in the lower half too
        (default ``False``).
    ``end_test`` (A14)
        Who is still in the race when a turn ends (the game ends when at most
        one player is): ``"unreached"`` (default, rule 18), a player with a
        card not flipped and below its arrival square; ``"unflipped"``, with
        any unflipped card; ``"can_move"``, with a legal Advance now.
    ``penalty_to`` (A13)
        Whose penalty a removed card is: ``"column"`` (default), the player of
        the column it was removed from; ``"owner"``, the owner of its set.
    ``last_player_continues`` (A14)
        ``False`` (default): the game ends when at most one player is still
        in the race (``end_test``).  ``True``: that last player plays on,
        alone, until no player has a legal Advance; ``end_test`` then has no
        effect.
    ``deal`` (A2, A18)
        ``"sets"`` (default): seat p is dealt set p, one card of each rank;
        ``"shuffled"``: the cards in play (all 36 by default) are shuffled
        and dealt evenly by the seed's chance, ``36 // players`` to each
        seat, the cards left over out of play (see :func:`castlerules.ascent.deal_of`).
    ``path`` (A1, A5)
        ``"shared_start"`` (default): one Start below the path, each rank's
        arrival square on it.  ``"staggered"``: every rank travels as far as
        the Fire-eater, from a start row of its own: the row ``arrival(rank) -
        arrival(Fire-eater)``, the Fire-eater's the Start.  A start row is the
        Start for that rank (off the path: it holds single cards, blocks no
        square, is no row for favours); its cards leave it for the first free
        square above it.  Given with the shared Start's geometry (``squares``
        7, ``arrival`` value + 1, ``upper_half`` 4, as the register and a full
        set of options pass them), the geometry is ``rules.STAGGERED_GEOMETRY``:
        seven squares for every rank on a path of 12.
    ``die`` (A18)
        What the die decides: ``"first_player"`` (default) or ``"none"``
        (seat 0 begins; the die is unused).
    ``protection`` (A7)
        ``True`` (default, the reference reading): the moving part is bound
        by its leader's ceiling only; the cards under the leader are
        protected.  ``False`` is the *wrong*, strict reading where every card
        of the moving part is bound by its own ceiling.  It exists so that the
        proofs' sensitivity tests can show that the invariants depend on
        protection being read correctly; do not use it to play.
    ``cards`` (A18; proof-only)
        ``None`` (default): every card of every set in play.  A tuple of card
        texts (``("L0", "T1", "P1")``: rank letter and set) puts only those
        cards on the Starts; the other cards of the sets in play are out of
        play, as if removed before the game (they score nothing).  It is not
        a reading of the seed: it exists so that the exhaustive engine-kernel
        tie (``python -m proofs.equivalence``) can visit every position of
        small games that still reach favours, removals and game ends; do not
        use it to play.  No preset sets it.
    """

    squares: int = attrs.field(
        default=7, validator=validator(lambda v: _is_int(v) and 6 <= v <= 20, "an int in 6..20")
    )
    arrival: tuple[int, ...] = attrs.field(
        default=(2, 3, 4, 5, 6, 7),
        converter=_to_tuple,
        validator=validator(
            lambda v: (
                isinstance(v, tuple)
                and len(v) == 6
                and all(_is_int(x) for x in v)
                and all(a < b for a, b in itertools.pairwise(v))
                and v[0] >= 1
            ),
            "a tuple of 6 strictly increasing squares >= 1 (ranks of value 1..6)",
        ),
    )
    upper_half: int = attrs.field(
        default=4, validator=validator(lambda v: _is_int(v) and v >= 1, "an int in 1..squares")
    )
    allow_exposing_split: bool = attrs.field(
        default=False, validator=validator(lambda v: isinstance(v, bool), "True or False")
    )
    favours_per_move: int | None = attrs.field(
        default=1,
        validator=validator(lambda v: v is None or (_is_int(v) and v >= 1), "None or an int >= 1"),
    )
    replays_per_turn: int | None = attrs.field(
        default=None,
        validator=validator(lambda v: v is None or (_is_int(v) and v >= 1), "None or an int >= 1"),
    )
    stack_rank: str = attrs.field(
        default="top",
        validator=validator(lambda v: v in STACK_RANKS, "one of " + ", ".join(STACK_RANKS)),
    )
    favour_takes: str = attrs.field(
        default="lower_top",
        validator=validator(lambda v: v in FAVOUR_TAKES, "one of " + ", ".join(FAVOUR_TAKES)),
    )
    favour_after_arrival: bool = attrs.field(
        default=True, validator=validator(lambda v: isinstance(v, bool), "True or False")
    )
    flip_uncovered: bool = attrs.field(
        default=False, validator=validator(lambda v: isinstance(v, bool), "True or False")
    )
    removal_in_lower_half: bool = attrs.field(
        default=False, validator=validator(lambda v: isinstance(v, bool), "True or False")
    )
    penalty_to: str = attrs.field(
        default="column",
        validator=validator(lambda v: v in PENALTY_TO, "one of " + ", ".join(PENALTY_TO)),
    )
    end_test: str = attrs.field(
        default="unreached",
        validator=validator(lambda v: v in END_TESTS, "one of " + ", ".join(END_TESTS)),
    )
    last_player_continues: bool = attrs.field(
        default=False, validator=validator(lambda v: isinstance(v, bool), "True or False")
    )
    deal: str = attrs.field(
        default="sets",
        validator=validator(lambda v: v in DEALS, "one of " + ", ".join(DEALS)),
    )
    path: str = attrs.field(
        default="shared_start",
        validator=validator(lambda v: v in PATHS, "one of " + ", ".join(PATHS)),
    )
    die: str = attrs.field(
        default="first_player",
        validator=validator(lambda v: v in DIE_CHOICES, "one of " + ", ".join(DIE_CHOICES)),
    )
    protection: bool = attrs.field(
        default=True, validator=validator(lambda v: isinstance(v, bool), "True or False")
    )
    cards: tuple[str, ...] | None = attrs.field(
        default=None,
        converter=_to_tuple,
        validator=validator(
            lambda v: v is None or (isinstance(v, tuple) and len(v) > 0 and _card_texts(v)),
            "None or a non-empty tuple of distinct card texts such as 'L0' (rank letter P, B, "
            "L, C, T or F, then the set 0..5): with no card a game has no move",
        ),
    )

    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    """The one declaration of each option (:data:`castlerules.ascent.rules.OPTIONS`)."""

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = MappingProxyType(
        {
            "DEFAULT": MappingProxyType({}),
            "GENEROUS": MappingProxyType({"favours_per_move": None}),
            "HARSH": MappingProxyType({"removal_in_lower_half": True}),
        }
    )
    """Named readings: ``DEFAULT`` (the reference reading, ``Rules()``),
    ``GENEROUS`` (unlimited favours), ``HARSH`` (removal in both halves)."""

    def __init__(self, *args: object, **options: object) -> None:
        if args:
            names = ", ".join(f.name for f in attrs.fields(Rules))
            raise ArgumentError(
                f"Rules takes its options by name, e.g. Rules(squares=9), not {args[0]!r:.40}; "
                f"the options are: {names}"
            )
        if options.get("path") == "staggered":
            # A5: the shared Start's geometry, given or by default, reads as the staggered one
            for name, staggered in STAGGERED_GEOMETRY.items():
                if _as_given(options.get(name, _SHARED_GEOMETRY[name])) == _SHARED_GEOMETRY[name]:
                    options[name] = staggered
        init_rules(self, options)

    def __attrs_post_init__(self) -> None:
        # Cross-option checks (the per-option validators ran already); they involve the
        # LINKED_OPTIONS only.
        if self.arrival[-1] > self.squares:
            raise ArgumentError(
                f"option arrival must hold squares in 1..{self.squares} (the path, A5), "
                f"not {self.arrival!r}"
            )
        if self.upper_half > self.squares:
            raise ArgumentError(
                f"option upper_half must be an int in 1..{self.squares}, not {self.upper_half!r}"
            )

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset (see :attr:`PRESETS`).

        >>> Rules.preset("GENEROUS") == Rules(favours_per_move=None)
        True
        """
        if not isinstance(name, str) or name not in cls.PRESETS:
            raise ArgumentError(
                f"unknown preset {name!r:.40}; the presets are: {', '.join(cls.PRESETS)}"
            )
        return cls(**cls.PRESETS[name])

    def arrival_of(self, rank: Rank | int) -> int:
        """The arrival square (the ceiling) of a rank or rank value (A6, spec rule 4)."""
        value = rank.value if isinstance(rank, Rank) else rank
        if not _is_int(value) or not 1 <= value <= 6:
            raise ArgumentError(f"a rank is a Rank or a value in 1..6, not {rank!r}")
        return self.arrival[value - 1]

    def in_upper_half(self, square: int) -> bool:
        """Whether a path square lies in the upper half of the board (A13, spec rule 6)."""
        _check_square(square)
        return 1 <= square <= self.squares and square >= self.upper_half

    def removal_applies(self, square: int) -> bool:
        """Whether an exposed remainder on this square leaves the board (A13, rule 15)."""
        _check_square(square)
        return 1 <= square <= self.squares and (
            self.removal_in_lower_half or square >= self.upper_half
        )

    def advance_bound(self, players: int) -> int:
        """An upper bound on the number of Advances of a game (termination).

        Each Advance raises every card of its moving part by at least one
        square (A3, A4); no move lowers a card (a favour keeps the row, a
        removal takes cards off the board); a card rises at most ``squares``
        times from its Start.  So a game has at most ``cards * squares``
        Advances, each followed by at most ``cards`` favours and one EndTurn,
        where ``cards`` is the number of cards dealt: ``6 * players`` under
        ``deal="sets"``, ``(36 // players) * players`` at most under
        ``"shuffled"`` (A18).

        >>> Rules().advance_bound(4)
        168
        >>> Rules(deal="shuffled").advance_bound(4)
        252
        """
        if not _is_int(players) or players not in PLAYERS:
            raise ArgumentError(
                f"players must be an int in {PLAYERS.start}..{PLAYERS.stop - 1}, not {players!r}"
            )
        if self.deal == "shuffled":
            return MAX_SETS * CARDS_PER_SET // players * players * self.squares
        return CARDS_PER_SET * players * self.squares

    def options(self) -> dict[str, object]:
        """The options that differ from the reference reading, in declaration order."""
        default = _DEFAULT_VALUES
        return {
            f.name: getattr(self, f.name)
            for f in attrs.fields(Rules)
            if getattr(self, f.name) != default[f.name]
        }


_DEFAULT_VALUES: dict[str, object] = {f.name: f.default for f in attrs.fields(Rules)}
declared(Rules)  # one declaration per field, in field order (ValueError at import otherwise)


PLAYERS = range(2, 7)
"""Two to six players (spec rule 1): one column and one set each."""

CARDS_PER_SET = 6
"""One card of each rank per set (A18)."""

MAX_SETS = 6
"""Six sets of six cards: the 36 cards of the material (A18)."""


def card_id(owner: int, value: int) -> int:
    """The engine's number for a card: ``owner * 6 + (6 - value)`` (Prince first).

    Card numbers order the cards by set, then by rank from high to low; the
    notation and every canonical order (Start, removed piles) follow it.
    """
    return owner * CARDS_PER_SET + CARDS_PER_SET - value


def value_of(cid: int) -> int:
    """The value (6..1) of the card with engine number ``cid``."""
    return CARDS_PER_SET - cid % CARDS_PER_SET


def _card_text(cid: int) -> str:
    """The notation of card number ``cid``: rank letter, then set (``L1``)."""
    return f"{_LETTERS[value_of(cid)]}{cid // CARDS_PER_SET}"


@attrs.frozen(slots=True)
class Tables:
    """Tables derived once from a :class:`Rules` for the engine's inner loop.

    They hold no rule of their own: each entry is computed from the options
    by :meth:`of`.  Masks have bit ``s`` set for square ``s`` of a column.
    Per-card tables are indexed by the card number of :func:`card_id`.
    """

    squares: int
    path: int
    """Bits of the path squares 1..squares."""
    arrival: tuple[int, ...]
    """Arrival square (ceiling) of each card (A6)."""
    value: tuple[int, ...]
    """Value of each card (A18)."""
    arrival_bit: tuple[int, ...]
    """``1 << arrival`` of each card."""
    window: tuple[tuple[int, ...], ...]
    """For a leader card and a source square: the squares above the source up
    to the leader's ceiling, where its destination may lie (A3, A6)."""
    start_row: tuple[int, ...]
    """Per card: the row of its Start, 0 but under ``path="staggered"``, where it is its
    arrival square less the Fire-eater's (A1, A5)."""
    start_window: tuple[int, ...]
    """For a card on the Start: its ``window`` from its start row, the squares above it
    up to its ceiling (A3, A6)."""
    removal: int
    """Bits of the squares where an exposed remainder is removed (A13)."""
    favour_limit: int
    """Most favours per Advance (A10); a huge number for ``None``."""
    replay_limit: int
    """Most Advances played again after a favour in one turn (A12); a huge number for
    ``None``."""
    counts_replays: bool
    """``replays_per_turn`` is a number: a position counts the replays of its turn (under
    ``None`` it keeps 0, so that a position has one encoding)."""
    favour_after_arrival: bool
    flip_uncovered: bool
    """A remainder left on the arrival square of the rank it acts with turns over (A8)."""
    allow_exposing_split: bool
    protection: bool
    last_player_continues: bool
    highest: bool
    """``stack_rank == "highest"``: a stack acts with its highest rank."""
    all_lower: bool
    """``favour_takes == "all_lower"`` (A10)."""
    to_owner: bool
    """``penalty_to == "owner"`` (A13)."""
    top_part_leads: bool
    """``stack_rank == "top"`` with ``protection``: a moving part goes where its top
    card may go and the cards under it ride along (A6, A7), the engine's short path."""
    takes_any_top_part: bool
    """``stack_rank == "top"`` with ``favour_takes == "lower_top"``: a favour compares
    top cards and may take any top part of the stack (A10), the engine's short path."""
    end_test: str
    """The option ``end_test`` (A14): ``"unreached"``, ``"unflipped"`` or ``"can_move"``."""
    in_play: tuple[bool, ...]
    """Per card number: whether the card is in play when its set is (option ``cards``)."""
    dealable: tuple[int, ...]
    """The card numbers that ``deal="shuffled"`` shuffles and deals: every card that
    option ``cards`` keeps, of all six sets (A18)."""
    squares_of: dict[int, tuple[int, ...]] = attrs.field(factory=dict, eq=False, repr=False)
    """Memo of :meth:`set_squares`: the squares of a mask, lowest first."""

    def set_squares(self, mask: int) -> tuple[int, ...]:
        """The squares whose bits are set in ``mask``, lowest first (memoised)."""
        found = self.squares_of.get(mask)
        if found is None:
            found = tuple(s for s in range(mask.bit_length()) if mask >> s & 1)
            self.squares_of[mask] = found
        return found

    @classmethod
    def of(cls, rules: Rules) -> Tables:
        """The tables of ``rules``, derived once per distinct Rules value (memoised:
        Rules and Tables are immutable, so this is pure)."""
        return _tables_of(rules)

    @classmethod
    def derive(cls, rules: Rules) -> Tables:
        """Derive the tables of ``rules`` from scratch."""
        top = rules.squares
        path = ((1 << (top + 1)) - 1) & ~1
        arrival_of = tuple(
            rules.arrival[value_of(cid) - 1] for cid in range(MAX_SETS * CARDS_PER_SET)
        )
        window = tuple(
            tuple(
                path & ~((1 << (source + 1)) - 1) & ((1 << (ceiling + 1)) - 1)
                for source in range(top + 1)
            )
            for ceiling in arrival_of
        )
        start_row = tuple(
            a - rules.arrival[0] if rules.path == "staggered" else 0 for a in arrival_of
        )
        # A12: a bound of UNLIMITED replays or more bounds nothing (a turn takes fewer
        # favours than there are cards)
        replay_limit = UNLIMITED if rules.replays_per_turn is None else rules.replays_per_turn
        removal = 0
        for square in range(1, top + 1):
            if rules.removal_applies(square):
                removal |= 1 << square
        return cls(
            squares=top,
            path=path,
            arrival=arrival_of,
            value=tuple(value_of(cid) for cid in range(MAX_SETS * CARDS_PER_SET)),
            arrival_bit=tuple(1 << a for a in arrival_of),
            window=window,
            start_row=start_row,
            start_window=tuple(
                squares[row] for squares, row in zip(window, start_row, strict=True)
            ),
            removal=removal,
            favour_limit=rules.favours_per_move if rules.favours_per_move is not None else 1 << 62,
            replay_limit=replay_limit if replay_limit < UNLIMITED else 1 << 62,
            counts_replays=replay_limit < UNLIMITED,
            favour_after_arrival=rules.favour_after_arrival,
            flip_uncovered=rules.flip_uncovered,
            allow_exposing_split=rules.allow_exposing_split,
            protection=rules.protection,
            last_player_continues=rules.last_player_continues,
            highest=rules.stack_rank == "highest",
            all_lower=rules.favour_takes == "all_lower",
            to_owner=rules.penalty_to == "owner",
            top_part_leads=rules.stack_rank == "top" and rules.protection,
            takes_any_top_part=rules.stack_rank == "top" and rules.favour_takes == "lower_top",
            end_test=rules.end_test,
            in_play=tuple(
                rules.cards is None or _card_text(cid) in rules.cards
                for cid in range(MAX_SETS * CARDS_PER_SET)
            ),
            dealable=tuple(
                cid
                for cid in range(MAX_SETS * CARDS_PER_SET)
                if rules.cards is None or _card_text(cid) in rules.cards
            ),
        )


@functools.lru_cache(maxsize=64)
def _tables_of(rules: Rules) -> Tables:
    return Tables.derive(rules)


def arrival(rules: Rules, rank: Rank | int) -> int:
    """The arrival square of ``rank`` under ``rules`` (A6).

    >>> arrival(Rules(), Rank.PRINCE)
    7
    """
    require(rules, Rules, "rules")
    return rules.arrival_of(rank)
