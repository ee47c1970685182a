"""The interpretation notes of Throne: each decision the seed leaves open, with its
clause, as the docs' interpretation notes print them.

The notes on an option live in its declaration (:attr:`castlerules.core.Option.notes`,
in ``rules.py``); this module adds the decisions that no option switches.
"""

from __future__ import annotations

from castlerules.core.options import Note, option_notes
from castlerules.throne.rules import Rules

GENERAL_NOTES: tuple[Note, ...] = (
    Note(
        "B1",
        "the throne's capacity",
        "The throne holds exactly one character (the candidate, then the king); "
        "floor_capacity only sets floors 1-6.",
    ),
    Note(
        "B4",
        "explicit objectives",
        "new_game(objectives=...) takes one sequence per round with one string per seat; "
        "each string holds objective_size distinct letters (in any order, stored "
        "alphabetically), and within a round no two seats hold the same set (a deck has no "
        "two identical cards); with objective_deck every objective must be one of its cards.",
    ),
    Note(
        "B10",
        "moves outside their phase",
        "A Vote outside an election is refused citing B10 (no candidate is on the throne); "
        "a Place after the placement phase cites the clause of the current phase (B8 or "
        "B11); a Climb while placing cites B6, a Climb during an election cites B11, except "
        "a Climb of the candidate, which cites B8 (nothing is above the throne).",
        refuses=(
            (
                "throne-place-in-movement",
                "a Place after the placement phase cites the clause of the current phase",
            ),
            ("throne-move-in-placement", "a Climb while placing cites B6"),
            ("throne-move-in-election", "a Climb during an election cites B11"),
            ("throne-climb-from-throne", "except a Climb of the candidate, which cites B8"),
            ("throne-no-election", "A Vote outside an election is refused citing B10"),
        ),
    ),
    Note(
        "B11",
        "voting order and secrecy",
        "Every player votes, the candidate's mover first, then in seat order. Votes are "
        "recorded face down and revealed together after the last one; the No cards are "
        "discarded at the reveal, so a public No count never betrays a vote before it. A "
        "player with no No card left can only vote Yes, and still casts that vote.",
    ),
    Note(
        "B11",
        "what a bot may know",
        "Bots (castlerules.bots) decide from what observation(state, seat) shows. The "
        "montecarlo bot plays its playouts from determinizations: the position with what the "
        "seat sees kept and the rest drawn at random: the other seats' objectives of the "
        "round and every objective of later rounds (distinct sets, B4), the votes already "
        "cast face down (No only by a seat holding a No card) and, when no_cards_public is "
        "off, the other seats' No counts, uniformly among those a game reaches (a position "
        "holds no history, so the draw reads the castle: each character eliminated this "
        "round cost at least one No card, and a seat spends at most one per elimination, "
        "B13; see castlerules.throne.sampling.spent_bounds). Where the No cards are kept "
        "between rounds (no_cards_reset_each_round off), the eliminations of the finished "
        "rounds count too, read from the castles that give each seat its round score under "
        "the revealed objectives and the round's king (castlerules.throne.sampling."
        "elimination_totals, may_have_spent).",
    ),
    Note(
        "B13",
        "after an elimination",
        "Each No voter discards one No card, the candidate leaves the castle for the rest "
        "of the round (it scores 0) and play resumes with the seat after the mover. If no "
        "character is left (only possible when the No cards outnumber the characters, "
        "never with the published numbers), the round ends without a king.",
    ),
    Note(
        "B12",
        "king(state)",
        "king(state) is the king crowned in the last finished round (None before the end "
        "of round 1, or if that round ended without a king); king(state, round) asks about "
        "a given round.",
    ),
    Note(
        "B14",
        "scores(state)",
        "scores(state) and totals(state) are the sums of the finished rounds' scores; "
        "round_scores(state) lists them round by round. An eliminated favourite scores 0.",
    ),
    Note(
        "B16",
        "ties",
        "winners(state) lists every seat with the highest total: a tie is a shared win.",
    ),
    Note(
        "B6",
        "ORIGINAL preset",
        "ORIGINAL differs from SEED in placement (floors 2-5, equal placement, leftovers to "
        "floor 1), in who starts the movement (the round's first player, the same seat under "
        "equal placement) and in the secret No counts (no_cards_public=False); on every other "
        "point the published rules and the seed's reading agree on the defaults.",
    ),
    Note(
        "B6",
        "unknown characters",
        "A move naming a letter that is not a character of these rules is refused citing "
        "the clause of the current phase (B6 while placing, B8 while moving, B11 while "
        "voting).",
        refuses=(
            ("throne-unknown-placement", "citing the clause of the current phase"),
            ("throne-unknown-movement", "citing the clause of the current phase"),
        ),
    ),
    Note(
        "B13",
        "climbing an eliminated character",
        "In the movement phase a Climb of a character eliminated this round is refused citing "
        "B13 (it has left the castle for the rest of the round), not B8. While placing or "
        "voting the clause of the phase comes first (see moves outside their phase).",
        refuses=(("throne-eliminated", "is refused citing B13"),),
    ),
    Note(
        "B6",
        "the seat argument of apply()",
        "apply(state, move, seat=None) claims nothing. Any other seat must be a whole number "
        "in 0..players-1, not a bool, a float or a string even if equal to one, else "
        "apply() raises ArgumentError before looking at the position (even after the end of "
        "the game). A valid seat that is not the seat to act is an IllegalMove citing the "
        "turn order of the phase: B6 while placing, B8 while moving, B11 while voting; "
        "once the game is over every move cites B3, whichever seat claims it.",
        refuses=(
            ("throne-turn-placement", "B6 while placing"),
            ("throne-turn-movement", "B8 while moving"),
            ("throne-turn-election", "B11 while voting"),
        ),
    ),
    Note(
        "B16",
        "winners before the end",
        "winners(state) is () until the game is over: nobody has won yet, even when one "
        "total leads; scores(state) gives the running totals.",
    ),
    Note(
        "B4",
        "objectives once the game is over",
        "A finished game stays in its last round, so objective(state, seat) and "
        "observation(state, seat).objective give the seat's objective of the last round; "
        "objectives_of_round(state, r) gives any round's.",
    ),
    Note(
        "B11",
        "parse_move and illegal moves",
        "parse_move(state, text) reads a move and checks it against the state, as both games "
        "do (and as python-chess does): a text that is not a move is a NotationError; a "
        "well-formed move that is illegal here is the IllegalMove of apply, with its clause. "
        "parse_move(state, text, check=False) reads the notation only (castlerules explain "
        "uses it, to judge the move itself).",
    ),
    Note(
        "B4",
        "the seed is a secret during a game",
        "The seed determines every round's objectives, so whoever knows it knows every "
        "seat's objectives (castlerules explain throne new:4:SEED shows them). The seed "
        "domain is 0..2^64-1 for both games, checked in one place (new_game, the record "
        "reader and the command line use castlerules.core.check_seed). castlerules play "
        "draws a secret 64-bit seed (too many to search for the one that deals a seat's own "
        "objective) "
        "and never shows it before the game is over: it is printed with the result and kept "
        "in the saved record, which is read after the game. A seed given with --seed is "
        "known to whoever gave it: it replays a game. demo, explain and replay show whole "
        "positions (every objective) by design: they are tools for a finished game or for "
        "analysis, not for a table.",
    ),
)
"""The decisions on no option (an option's notes are in its declaration, ``Rules.OPTIONS``)."""

NOTES: tuple[Note, ...] = (*GENERAL_NOTES, *option_notes(Rules))
"""Every interpretation decision where the seed and the spec are silent: the general
ones, then each option's, in field order."""


__all__ = ["NOTES"]
