"""The interpretation notes of Ascent: each decision the seed leaves open, with its
clause, as the docs' interpretation notes print them.

The notes on an option live in its declaration (:attr:`castlerules.core.Option.notes`,
in ``rules.py``); this module adds the decisions that no option switches.
"""

from __future__ import annotations

from castlerules.ascent.rules import Rules
from castlerules.core.options import Note, option_notes

GENERAL_NOTES: tuple[Note, ...] = (
    Note(
        "A2",
        "seats, columns and sets",
        "Seats are numbered 0..n-1. Seat p owns column p and set p; the sets of absent "
        "players stay out of play. A card is identified by its set (owner) and rank; "
        "whoever's column it stands in controls it, moves it and scores it.",
    ),
    Note(
        "A3",
        "turn order",
        "Turns pass by increasing seat, cyclically, from the first player.",
    ),
    Note(
        "A3",
        "acting out of turn",
        "A move given for a seat that is not the seat to act is refused citing A3 "
        "('A son tour un joueur deplace'), the clause that sets whose turn it is.",
        refuses=(("ascent-turn", "is refused citing A3"),),
    ),
    Note(
        "A6",
        "no free square under the ceiling",
        "If every square from c's square up to the leader's arrival square is occupied "
        "(or the path ends), c has no move; the refusal cites A6 since the next free "
        "square would lie above the ceiling. It names what occupies each of those squares: "
        "the stack on it, flipped or not, and the clause that makes it occupied (A3: a "
        "square holding a stack is occupied; A9: the leader's own arrival square is free "
        "only when the cards on it are flipped, and a flipped arrival square of a lower "
        "rank is occupied for higher ranks). A leader that already stands above its "
        "ceiling (an exposed remainder in the lower half) can never move again.",
        refuses=(("ascent-ceiling", "the refusal cites A6"),),
    ),
    Note(
        "A8",
        "a card left on its own arrival square",
        "A card reaches its own arrival square unflipped when it gets there other than as "
        "a leader: inside a moving part that lands short of its leader's arrival square, "
        "or taken as a favour by an unflipped stack; a split may then leave it uncovered "
        "there. It stays unflipped (A8 flips a moving part on its leader's arrival square "
        "only). Uncovered, it cannot advance (its next square is above its ceiling, A6) "
        "and it blocks that rank's arrival square in its column, since A9 frees the square "
        "only for flipped cards. It may still be taken as a favour, has reached its square "
        "for the end of the game (A14, end_test='unreached'; under end_test='unflipped' it "
        "keeps its player in the race), and scores plus its value (A15).",
    ),
    Note(
        "A8",
        "flipped stacks are all flipped",
        "A stack is either wholly flipped or not at all: a part landing on flipped cards "
        "is flipped, and taken cards are flipped with a just-flipped taker (rule 14).",
    ),
    Note(
        "A10",
        "where taken cards go",
        "Taken cards go directly under the moved part (above any older flipped cards of "
        "that arrival square). With several favours, each take goes under the previous "
        "ones: the moved stack grows downward.",
    ),
    Note(
        "A10",
        "the Start row",
        "The Start is not a row for favours: cards on a Start are never taken (a favour "
        "there is refused citing A10).",
        refuses=(("ascent-favour-start", "a favour there is refused citing A10"),),
    ),
    Note(
        "A10",
        "choosing a favour",
        "A favour is Favour(t): t and every card above t in another column's unflipped "
        "stack on the moved stack's square, whose leader ranks lower than the moved "
        "leader. The player's own column is never a target (a refusal cites A10). A favour "
        "on a flipped stack is refused citing A10 (the favour's conditions), as is one on a "
        "leader of equal or higher rank, and one on another row where the player has no "
        "unflipped stack of its own. A favour on a row where one of the player's own "
        "unflipped stacks stands (one that did not just move, such as a stack the Advance "
        "jumped over) cites A11: only the card or stack just moved takes a favour. A "
        "favour of a card not in play (removed, of a set not dealt) is refused citing A10.",
        refuses=(
            ("ascent-favour-jumped-row", "cites A11"),
            ("ascent-favour-other-row", "one on another row"),
            ("ascent-favour-flipped", "A favour on a flipped stack is refused citing A10"),
            ("ascent-favour-rank", "on a leader of equal or higher rank"),
            (
                "ascent-favour-not-in-play",
                "card not in play (removed, of a set not dealt) is refused citing A10",
            ),
            (
                "ascent-favour-removed",
                "card not in play (removed, of a set not dealt) is refused citing A10",
            ),
            ("ascent-favour-own-column", "The player's own column is never a target"),
        ),
    ),
    Note(
        "A12",
        "ending the turn",
        "EndTurn declines: it is legal whenever a favour or a replay is available. After "
        "an Advance with no favour available the turn ends by itself; after a favour, if "
        "the player has neither another favour nor an Advance, the turn ends by itself. "
        "EndTurn at the start of a turn is refused citing A3 (a turn is a move). An "
        "Advance while a favour is pending (before any favour) is refused citing A12 "
        "(playing again comes after a favour).",
        refuses=(
            ("ascent-advance-before-favour", "An Advance while a favour is pending"),
            ("ascent-end-before-advance", "EndTurn at the start of a turn is refused citing A3"),
        ),
    ),
    Note(
        "A12",
        "the replay",
        "The replay after a favour may advance any stack of the player, and that Advance "
        "brings its own favour.",
    ),
    Note(
        "A14",
        "skipping a player",
        "A player with no legal Advance is skipped when the turn passes; the skip cites "
        "A14, whose end condition implies that players who cannot move stop playing "
        "while others go on. The same player may play again if everyone else is skipped.",
    ),
    Note(
        "A1",
        "observation",
        "Ascent has no hidden information: observation(state, seat) is the state itself.",
    ),
    Note(
        "A15",
        "cards above their arrival square",
        "Every card on or above its arrival square scores its value (A15), whether a "
        "higher card protects it or it is an exposed remainder left in the lower half: "
        "in both cases it went beyond inside a stack.",
    ),
    Note(
        "A2",
        "cards that are not yours to move",
        "An Advance of a card outside the player's column (another column, removed, or "
        "of a set not in play) is refused citing A2.",
        refuses=(
            ("ascent-other-column", "is refused citing A2"),
            ("ascent-advance-not-in-play", "is refused citing A2"),
            ("ascent-advance-removed", "is refused citing A2"),
        ),
    ),
    Note(
        "A3",
        "order of the legal moves",
        "legal_moves lists the Favours (columns in seat order, each stack top first), "
        "then the Advances (Start cards in card order, then stacks from the lowest "
        "square up, top card first), then EndTurn.",
    ),
    Note(
        "A3",
        "notation of moves",
        "parse_move reads the text of a move (Advance 'L1', Favour 'xT2', EndTurn 'end') "
        "and checks it against the state, as both games do: a text that is not a move of a "
        "card in play is a NotationError; a well-formed move that is illegal here is the "
        "IllegalMove of apply, with its clause. parse_move(state, text, check=False) reads "
        "the notation only.",
    ),
)
"""The decisions on no option (an option's notes are in its declaration, ``Rules.OPTIONS``)."""

NOTES: tuple[Note, ...] = (*GENERAL_NOTES, *option_notes(Rules))
"""Every interpretation decision where the seed and the spec are silent: the general
ones, then each option's, in field order."""


__all__ = ["NOTES"]
