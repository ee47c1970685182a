"""Golden regressions: perft counts of documented positions and recorded games.

A change to any of these numbers is a change to the rules as the engine reads
them: it must be deliberate, explained, and recorded in the changelog.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from castlerules import ascent
from castlerules.core import Rng
from castlerules.core import perft as generic_perft

DATA = Path(__file__).parent / "data"

# Each position: its notation, how it was reached, and perft counts by depth.
PERFT: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "start2": (
        # ascent.new_game(2, first_player=0): six single cards each, seat 0 to move.
        "P0B0L0C0T0F0,-,-,-,-,-,-,-/P1B1L1C1T1F1,-,-,-,-,-,-,- -/- 0 -",
        "the 2-player setup",
        (6, 36, 156, 966, 4380, 21925, 97893),
    ),
    "mid4": (
        # new_game(4, seed=11), then 30 actions chosen by Rng.from_seed(11, "perft").choice:
        # a stack mixing sets (P1B3: the Prince of set 1 took the Bishop of set 3), taken
        # cards left alone by later splits (T2 in column 1, C0 in column 2), flipped T1 and
        # F2, cards still on the Starts; seat 3 to act.
        "P0B0,F0,T0,-,L0,-,-,-/L1C1F1,-,T2,*T1,B1,P1B3,-,-/L2,C0,*F2,C2,P2,B2,-,-/"
        "P3C3T3,F3,L3,-,-,-,-,- -/-/-/- 3 -",
        "a 4-player middle game",
        (4, 12, 58, 208, 847, 3009, 11559),
    ),
    "fav5": (
        # new_game(5, Rules.preset("GENEROUS"), seed=3), then actions chosen by
        # Rng.from_seed(3, "perft").choice until a favour step offered 3 targets: seat 0's
        # Prince just moved to square 3; favours are unlimited.
        "L0T0F0,-,B3,P0,-,-,-,-/L1F1,C1T4,P1B0,C0,B1,-,-,-/L2C2T2,P2,*F2,B2,-,-,-,-/"
        "P3L3C3,T3,-,-,-,-,-,-/B4C4F4,F3,T1,L4,P4,-,-,- -/-/-/-/- 0:3:1:0 favours_per_move=none",
        "a 5-player favour step with unlimited favours",
        (4, 31, 145, 674, 3009, 12989),
    ),
}


@pytest.mark.parametrize("name", sorted(PERFT))
def test_golden_perft(name: str) -> None:
    text, _how, counts = PERFT[name]
    state = ascent.from_text(text)
    assert ascent.to_text(state) == text
    for depth, count in enumerate(counts, start=1):
        assert ascent.perft(state, depth) == count, f"{name} depth {depth}"
    assert ascent.perft(state, 0) == 1


@pytest.mark.parametrize("name", sorted(PERFT))
def test_perft_agrees_with_the_generic_perft(name: str) -> None:
    state = ascent.from_text(PERFT[name][0])
    assert generic_perft(ascent.legal_moves, ascent.apply, state, 4) == ascent.perft(state, 4)


def test_golden_mid4_is_reached_as_documented() -> None:
    s = ascent.new_game(4, seed=11)
    rng = Rng.from_seed(11, "perft")
    for _ in range(30):
        move, rng = rng.choice(ascent.legal_moves(s))
        s = ascent.apply(s, move)
    assert ascent.to_text(s) == PERFT["mid4"][0]


def test_golden_start2_is_the_setup() -> None:
    assert ascent.to_text(ascent.new_game(2, first_player=0)) == PERFT["start2"][0]


def test_perft_of_a_finished_game_is_one() -> None:
    record = json.loads((DATA / "record_4p_seed2024.json").read_text())
    s = ascent.from_text(record["final"])
    assert ascent.perft(s, 3) == 1


# --------------------------------------------------------------------------- records


def play_record(players: int, preset: str, seed: int) -> tuple[list[str], ascent.State]:
    """The recorded game: new_game(players, Rules.preset(preset), seed=seed), each move
    chosen by Rng.from_seed(seed, "ascent.record").choice(legal_moves)."""
    s = ascent.new_game(players, ascent.Rules.preset(preset), seed=seed)
    rng = Rng.from_seed(seed, "ascent.record")
    moves: list[str] = []
    while not ascent.is_over(s):
        move, rng = rng.choice(ascent.legal_moves(s))
        moves.append(str(move))
        s = ascent.apply(s, move)
    return moves, s


def write_record(path: Path, players: int, preset: str, seed: int) -> None:
    """Regenerate a record file (run by hand after a deliberate rules change)."""
    moves, final = play_record(players, preset, seed)
    record = {
        "comment": (
            f"Ascent golden game: new_game({players}, Rules.preset({preset!r}), seed={seed}); "
            f"moves chosen by Rng.from_seed({seed}, 'ascent.record').choice(legal_moves)."
        ),
        "players": players,
        "preset": preset,
        "seed": seed,
        "start": ascent.to_text(ascent.new_game(players, ascent.Rules.preset(preset), seed=seed)),
        "moves": " ".join(moves),
        "final": ascent.to_text(final),
        "scores": list(ascent.scores(final)),
        "winners": list(ascent.winners(final)),
    }
    path.write_text(json.dumps(record, indent=1) + "\n")


RECORDS = ["record_4p_seed2024.json", "record_6p_generous_seed7.json"]


@pytest.mark.parametrize("name", RECORDS)
def test_golden_record_replays(name: str) -> None:
    record = json.loads((DATA / name).read_text())
    rules = ascent.Rules.preset(record["preset"])
    s = ascent.new_game(record["players"], rules, seed=record["seed"])
    assert ascent.to_text(s) == record["start"]
    for text in record["moves"].split(" "):
        assert not ascent.is_over(s)
        s = ascent.apply(s, ascent.parse_move(s, text))
    assert ascent.is_over(s)
    assert ascent.to_text(s) == record["final"]
    assert list(ascent.scores(s)) == record["scores"]
    assert list(ascent.winners(s)) == record["winners"]


@pytest.mark.parametrize("name", RECORDS)
def test_golden_record_is_regenerated_identically(name: str) -> None:
    """The same seed gives the same game: move order and chance are stable."""
    record = json.loads((DATA / name).read_text())
    moves, final = play_record(record["players"], record["preset"], record["seed"])
    assert " ".join(moves) == record["moves"]
    assert ascent.to_text(final) == record["final"]


if __name__ == "__main__":  # pragma: no cover - regeneration by hand
    write_record(DATA / RECORDS[0], 4, "DEFAULT", 2024)
    write_record(DATA / RECORDS[1], 6, "GENEROUS", 7)
