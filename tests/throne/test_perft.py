"""Golden perft counts: the number of move sequences of each length from fixed positions.

A change in any count means the legal moves changed somewhere in the tree.
Each position is stored as notation, with how it was reached; the generic
:func:`castlerules.core.perft` (which plays through the checked ``apply``)
must agree with the engine's own ``perft`` (which plays generated moves
unchecked).
"""

from __future__ import annotations

import pytest

from castlerules.core import Rng
from castlerules.core import perft as generic_perft
from castlerules.throne import apply, from_text, legal_moves, new_game, perft, to_text

# 3 players, SEED: new_game(3, seed=1), the start of the game (placement).
START_3P = (
    "throne SEED 3 1 placement 0 -/-/-/-/-/-/- - 4/4/4 - 0 "
    "DFIJKL,CFGKLM,ACDIKM/ACEFIK,CDGHIL,ACDGIK/CFGHLM,CEFHJL,ABEFKM - -"
)

# 4 players, ORIGINAL: new_game(4, Rules.preset("ORIGINAL"), seed=11), then 34 moves
# drawn with Rng.from_seed(11, "perft-walk"), stopping in the movement phase after
# move 30 (I has been eliminated by a No vote).
MOVEMENT_4P_ORIGINAL = (
    "throne ORIGINAL 4 1 movement 2 -/M/EKL/DFJ/ABCH/G/- I 3/3/2/2 - 0 "
    "ABCEGJ,ADFGIK,ABFIKL,DEFHJK/CEFHKL,EGHIJL,BFGHKM,BFHJKM/BCHKLM,ABEFIM,AFGIJM,CEFGJK - -"
)

# 5 players, SEED: new_game(5, seed=5), then 22 moves drawn with
# Rng.from_seed(5, "perft-walk"), stopping when C is on the throne and one vote
# (seat 0's No, face down) is cast: an election pending, seat 1 to vote.
ELECTION_5P = (
    "throne SEED 5 1 election 1 G/H/FJK/ABDE/IM/L/C - 2/2/2/2/2 n.... 0 "
    "ABCHJK,CEHJKL,CEFGHI,BEGJKM,ACDEGH/BCEHJK,ABDFJL,ABEJKM,BCFGHL,BCHIJL/"
    "AEFHJM,ABCHKL,EFIJKM,CEFGHI,ACFGKM - -"
)

# 6 players, SEED with allow_pass: new_game(6, Rules(allow_pass=True), seed=8), then
# 194 moves drawn with Rng.from_seed(8, "perft-walk"), stopping in round 3's
# movement phase with two characters on the nobles' floor (kings so far: A, D).
PASSING_6P = (
    "throne SEED,allow_pass=true 6 3 movement 0 IJ/EG/FHK/LM/CD/AB/- - 2/2/2/2/2/2 - 0 "
    "ABDELM,FGIJKL,ADHIJK,ABDFIL,ACGHJM,ACFIJK/DEGHJL,AEFGIK,ACDEGK,ABFIKM,AEGIJL,ABCEGJ/"
    "EGHIJL,ABCGLM,BCFKLM,ABFIJK,BDFIJM,ADEGIK 17,8,15,22,17,23/23,17,27,13,11,17 AD"
)

# 3 players, SEED, written by hand: round 3, M on the throne raised by seat 1,
# seats 1 and 2 voted Yes, seat 0 votes last; Yes ends the game (a leaf at any depth).
LAST_VOTE_3P = (
    "throne SEED 3 3 election 0 ABCD/G/H/-/IJ/KL/M EF 4/3/3 .yy 0 "
    "ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKM,ACEKLM 10,20,30/5,5,5 AB"
)

GOLDEN = [
    (START_3P, [65, 3900, 214500]),
    (MOVEMENT_4P_ORIGINAL, [9, 77, 663, 5406, 42408]),
    (ELECTION_5P, [2, 4, 8, 16, 144, 1360, 12848, 118176]),
    (PASSING_6P, [14, 170, 1974, 22254]),
    (LAST_VOTE_3P, [2, 11, 85, 665, 5049, 37333]),
]


@pytest.mark.parametrize(("text", "counts"), GOLDEN)
def test_golden_perft(text: str, counts: list[int]) -> None:
    state = from_text(text)
    assert to_text(state) == text
    assert perft(state, 0) == 1
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("text", "counts"), GOLDEN)
def test_generic_perft_agrees(text: str, counts: list[int]) -> None:
    state = from_text(text)
    depth = min(3, len(counts))
    assert generic_perft(legal_moves, apply, state, depth) == counts[depth - 1]


def test_start_position_is_new_game() -> None:
    assert to_text(new_game(3, seed=1)) == START_3P


@pytest.mark.parametrize(
    ("players", "preset", "seed", "stop"),
    [
        (4, "ORIGINAL", 11, MOVEMENT_4P_ORIGINAL),
        (5, "SEED", 5, ELECTION_5P),
        (6, "SEED,allow_pass=true", 8, PASSING_6P),
    ],
)
def test_positions_are_reached_as_described(
    players: int, preset: str, seed: int, stop: str
) -> None:
    """Replays the walks described above: the stored positions are reachable."""
    from castlerules.throne.notation import parse_rules

    state = new_game(players, rules=parse_rules(preset), seed=seed)
    rng = Rng.from_seed(seed, "perft-walk")
    for _ in range(300):
        if to_text(state) == stop:
            break
        move, rng = rng.choice(legal_moves(state))
        state = apply(state, move)
    assert to_text(state) == stop
