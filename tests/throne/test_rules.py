"""Rules options and presets: the numbers, the readings, and that each option matters."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import attrs
import pytest

from castlerules.core import ArgumentError, IllegalMove, Note, Rng
from castlerules.throne import (
    NOTES,
    Climb,
    Pass,
    Place,
    Rules,
    State,
    Vote,
    apply,
    current_player,
    floor_of,
    is_over,
    king,
    legal_moves,
    new_game,
    no_cards,
    objective,
    objectives_of_round,
    observation,
    phase,
    round_of,
    round_scores,
    winners,
)

Play = Callable[[State, str], State]


def test_seed_defaults_are_the_spec_numbers() -> None:
    rules = Rules()
    assert rules == Rules.preset("SEED")
    assert tuple(Rules.PRESETS) == ("SEED", "ORIGINAL")
    assert rules.characters == 13 and rules.letters() == "ABCDEFGHIJKLM"
    assert [rules.capacity(f) for f in range(1, 8)] == [4, 4, 4, 4, 4, 4, 1]
    assert [rules.points_of(f) for f in range(1, 8)] == [0, 1, 2, 3, 4, 5, 10]
    assert [rules.no_cards_for(p) for p in range(3, 7)] == [4, 3, 2, 2]
    assert [rules.placements_for(p) for p in range(3, 7)] == [13] * 4
    assert rules.placement_floors == (1, 2, 3, 4, 5)
    assert (rules.throne_floor, rules.noble_floor) == (7, 6)
    assert (rules.rounds, rules.bonus_rounds, rules.bonus_points) == (3, (3,), 33)
    assert not rules.allow_pass and rules.no_cards_public and rules.first_player_rotates
    assert rules.no_cards_reset_each_round and rules.objective_deck is None
    with pytest.raises(ValueError, match=r"1\.\.7"):
        rules.capacity(8)
    with pytest.raises(ValueError, match=r"3\.\.6"):
        rules.no_cards_for(7)


def test_original_preset_places_equally(play: Play) -> None:
    rules = Rules.preset("ORIGINAL")
    assert rules.placement_floors == (2, 3, 4, 5) and rules.equal_placement
    assert [rules.placements_for(p) for p in range(3, 7)] == [12, 12, 10, 12]
    s = new_game(5, rules=rules, seed=1)
    s = play(s, "A2 B2 C2 D2 E3 F3 G3 H3 I4 J4")
    assert phase(s) == "movement"
    assert [floor_of(s, c) for c in "KLM"] == [1, 1, 1]


def test_rules_are_immutable_hashable_and_picklable() -> None:
    rules = Rules(allow_pass=True)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.allow_pass = False  # type: ignore[misc]
    assert hash(rules) == hash(Rules(allow_pass=True))
    assert rules != Rules()
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules
    # The rebuilt rules play (their derived tables exist).
    assert legal_moves(new_game(3, rules=again))
    assert Rules(points=[0, 1, 2, 3, 4, 5, 10]) == Rules()  # lists are accepted
    assert Rules(objective_deck=["FEDCBA", "GHIJKL", "ACEGIK"]).objective_deck == (
        "ABCDEF",
        "GHIJKL",
        "ACEGIK",
    )


def test_notes_cover_the_main_options() -> None:
    """Notes cite known clauses and options: tests/core/test_game_protocol.py."""
    for needed in ("allow_pass", "objective_deck", "no_cards_public", "equal_placement"):
        assert any(n.option == needed for n in NOTES), needed


def note(clause: str, topic: str) -> Note:
    found = [n for n in NOTES if (n.clause, n.topic) == (clause, topic)]
    assert len(found) == 1, (clause, topic)
    return found[0]


def test_notes_on_refusals_and_queries_hold(play: Play, fill_3p: str) -> None:
    """Each of these Notes states what the engine does; check that it does it."""
    deal = [["ABCDEF", "GHIJKL", "ACEGIK"], ["ABCDEG", "HIJKLM", "ABCGIK"]]
    deal.append(["ACDEFG", "BHIJKL", "BDFHJL"])
    s = play(new_game(3, objectives=deal), fill_3p + " M+ M+ M+")
    # B16: no winner before the end.
    assert "()" in note("B16", "winners before the end").decision
    assert winners(s) == () and winners(new_game(3)) == ()
    # B13: an eliminated character's climb cites B13 in the movement phase.
    assert "B13" in note("B13", "climbing an eliminated character").decision
    out = play(s, "no yes yes")
    with pytest.raises(IllegalMove) as info:
        apply(out, Climb("M"))
    assert info.value.clause == "B13"
    # B6: the seat argument.
    assert "ArgumentError" in note("B6", "the seat argument of apply()").decision
    with pytest.raises(ArgumentError):
        apply(out, Climb("L"), seat=True)
    with pytest.raises(IllegalMove) as info:
        apply(out, Climb("L"), seat=0)
    assert info.value.clause == "B8"
    # B3: after the end; B4: the last round's objective.
    rng = Rng.from_seed(4, "notes")
    done = out
    while not is_over(done):
        move, rng = rng.choice(legal_moves(done))
        done = apply(done, move)
    assert "B3" in note("B3", "moves after the end").decision
    with pytest.raises(IllegalMove) as info:
        apply(done, Vote(True))
    assert info.value.clause == "B3"
    assert legal_moves(done) == () and current_player(done) is None
    assert "last round" in note("B4", "objectives once the game is over").decision
    for seat in range(3):
        assert objective(done, seat) == objectives_of_round(done, 3)[seat]
        assert observation(done, seat).objective == frozenset(deal[2][seat])


# ---------------------------------------------------------------------------
# Each option changes the game (and "wrong" rules are expressible).


def test_floor_capacity_option(play: Play, objectives_3p: list[list[str]]) -> None:
    """Rules(floor_capacity=5): a fifth character fits on a floor (B7 switched)."""
    s = play(new_game(3, rules=Rules(floor_capacity=5), objectives=objectives_3p), "A1 B1 C1 D1")
    assert floor_of(apply(s, Place("E", 1)), "E") == 1


def test_bonus_rounds_option(play: Play, fill_3p: str) -> None:
    """Rules(bonus_rounds=(1, 2, 3)): a zero counts in every round (B15 switched)."""
    rules = Rules(bonus_rounds=(1, 2, 3), bonus_points=40, objective_size=4)
    assert rules.bonus_applies(1) and not Rules().bonus_applies(1)
    deal = [["ABCD", "EFGH", "IJKL"]] * 3
    moves = fill_3p + " M+ M+ M+ yes yes yes"
    s = play(new_game(3, rules=rules, objectives=deal), moves)
    assert round_scores(s)[0] == (40, 4, 8)  # ABCD on floor 1: 0 -> 40
    plain = play(new_game(3, rules=Rules(objective_size=4), objectives=deal), moves)
    assert round_scores(plain)[0] == (0, 4, 8)


def test_points_option(play: Play, objectives_3p: list[list[str]], fill_3p: str) -> None:
    rules = Rules(points=(1, 1, 1, 1, 1, 1, 1))
    s = play(new_game(3, rules=rules, objectives=objectives_3p), fill_3p + " M+ M+ M+ yes yes yes")
    assert round_scores(s)[0] == (6, 6, 6)


def test_no_cards_option_and_reset(
    play: Play, objectives_3p: list[list[str]], fill_3p: str
) -> None:
    rules = Rules(no_cards=(1, 3, 2, 2), no_cards_reset_each_round=False)
    s = play(new_game(3, rules=rules, objectives=objectives_3p), fill_3p + " M+ M+ M+")
    assert no_cards(s, 0) == 1
    s = play(s, "no yes yes")  # seat 0 uses its only No card; M is eliminated
    assert (no_cards(s, 0), no_cards(s, 1)) == (0, 1)
    s = play(s, "L+ L+ L+ L+")  # L reaches the throne; seat 1 votes first
    s = play(s, "yes yes")
    assert current_player(s) == 0 and legal_moves(s) == (Vote(True),)
    s = play(s, "yes")
    assert round_of(s) == 2 and (no_cards(s, 0), no_cards(s, 1)) == (0, 1)  # kept
    reset = Rules(no_cards=(1, 3, 2, 2))
    r = play(new_game(3, rules=reset, objectives=objectives_3p), fill_3p + " M+ M+ M+ no yes yes")
    r = play(r, "L+ L+ L+ L+ yes yes yes")
    assert round_of(r) == 2 and (no_cards(r, 0), no_cards(r, 1)) == (1, 1)  # restored


def test_allow_pass_option_ends_a_round_without_a_king(
    play: Play, objectives_3p: list[list[str]], fill_3p: str
) -> None:
    rules = Rules(allow_pass=True)
    s = play(new_game(3, rules=rules, objectives=objectives_3p), fill_3p)
    assert Pass() in legal_moves(s)
    s = play(s, "pass pass")
    assert s.passes == 2 and round_of(s) == 1
    assert play(s, "I+").passes == 0  # a climb breaks the run
    s = apply(s, Pass())  # the third pass in a row: every player passed
    assert round_of(s) == 2 and king(s) is None and king(s, 1) is None
    assert round_scores(s)[0] == (2, 1 + 1 + 2 + 2 + 2 + 2, 1 + 1 + 2 + 2)
    # Passing is for the movement phase only.
    assert Pass() not in legal_moves(new_game(3, rules=rules))


def test_no_cards_public_option() -> None:
    s = new_game(4, rules=Rules(no_cards_public=False), seed=3)
    view = observation(s, 1)
    assert view.no_cards == (None, 3, None, None)
    assert observation(new_game(4, seed=3), 1).no_cards == (3, 3, 3, 3)


def test_objective_deck_and_size_options() -> None:
    deck = ("ABCDE", "FGHIJ", "ABKLM", "CDEFG")
    rules = Rules(objective_deck=deck, objective_size=5)
    s = new_game(4, rules=rules, seed=5)
    for r in (1, 2, 3):
        assert {"".join(sorted(o)) for o in objectives_of_round(s, r)} == set(deck)
    assert all(len(objective(s, k)) == 5 for k in range(4))
    with pytest.raises(ValueError, match="objective_deck"):
        new_game(4, rules=rules, objectives=[["ABCDE", "FGHIJ", "ABKLM", "ABCDF"]] * 3)


def test_rounds_and_characters_options(play: Play) -> None:
    rules = Rules(rounds=1, bonus_rounds=(1,), characters=8, objective_size=3)
    s = new_game(3, rules=rules, seed=2)
    assert len(legal_moves(s)) == 8 * 5
    s = play(s, "A1 B1 C1 D1 E2 F2 G2 H3 H+ H+ H+ H+ yes yes yes")
    assert is_over(s) and king(s) == "H"


def test_first_player_rotates_option(play: Play) -> None:
    s = play(new_game(4, seed=1), "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L3 M4 M+ M+ M+")
    s = play(s, "yes yes yes yes")
    assert round_of(s) == 2 and current_player(s) == 1
    t = play(
        new_game(4, rules=Rules(first_player_rotates=False), seed=1),
        "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L3 M4 M+ M+ M+ yes yes yes yes",
    )
    assert round_of(t) == 2 and current_player(t) == 0


def test_placement_floors_option() -> None:
    rules = Rules(placement_floors=(1, 2, 3, 6))
    s = new_game(3, rules=rules, seed=0)
    assert {m.floor for m in legal_moves(s) if isinstance(m, Place)} == {1, 2, 3, 6}


def test_a_round_ends_without_a_king_when_everyone_is_eliminated(play: Play) -> None:
    """B13 (Note): with more No cards than characters, the castle can empty out."""
    rules = Rules(characters=3, objective_size=1, no_cards=(5, 5, 5, 5))
    s = new_game(3, rules=rules, objectives=[["A", "B", "C"]] * 3)
    s = play(s, "A5 B5 C5 A+ A+ no yes yes B+ B+ no yes yes C+ C+")
    assert phase(s) == "election"
    s = play(s, "no yes yes")
    assert round_of(s) == 2 and king(s, 1) is None
    assert round_scores(s) == ((0, 0, 0),)
    assert legal_moves(s)


def test_climb_is_any_living_character_not_only_favourites(
    play: Play, objectives_3p: list[list[str]], fill_3p: str
) -> None:
    s = play(new_game(3, objectives=objectives_3p), fill_3p)
    assert Climb("M") in legal_moves(s)  # M is nobody's favourite in round 1


def test_b8_movement_starter_option(play: Play, fill_3p: str) -> None:
    """B8: who starts the movement phase (option movement_starter, see NOTES)."""
    assert Rules().movement_starter == "after_last_placer"
    assert Rules.preset("ORIGINAL").movement_starter == "first_player"
    with pytest.raises(ArgumentError, match="movement_starter must be one of"):
        Rules(movement_starter="seat 0")
    # SEED, 3 players: seat 0 places first and last (13 placements), so by default
    # seat 1 moves first; with first_player the round's first player, seat 0.
    seed = play(new_game(3, seed=2), fill_3p)
    first = play(new_game(3, rules=Rules(movement_starter="first_player"), seed=2), fill_3p)
    assert phase(seed) == phase(first) == "movement"
    assert current_player(seed) == 1 and current_player(first) == 0
    # Round 2 is started by seat 1 (first_player_rotates): it also starts the movement.
    again = play(first, "M+ M+ M+ yes yes yes")
    assert round_of(again) == 2 and current_player(again) == 1
    again = play(again, fill_3p)
    assert current_player(again) == 1
    assert "movement_starter" in note("B8", "movement turn order").decision


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_b8_movement_starters_coincide_under_equal_placement(players: int) -> None:
    """Under ORIGINAL's equal placement the seat after the last placer is the round's
    first player: the two readings play the same games (B6, B8)."""
    original = Rules.preset("ORIGINAL")
    other = attrs.evolve(original, movement_starter="after_last_placer")
    for seed in range(3):
        a = new_game(players, rules=original, seed=seed)
        b = new_game(players, rules=other, seed=seed)
        rng = Rng.from_seed(seed, "starters")
        starts = 0
        while not is_over(a):
            moves = legal_moves(a)
            assert moves == legal_moves(b) and a.turn == b.turn
            was = phase(a)
            move, rng = rng.choice(moves)
            a, b = apply(a, move), apply(b, move)
            if was == "placement" and phase(a) == "movement":
                starts += 1
                assert current_player(a) == (round_of(a) - 1) % players
        assert starts == 3 and a.results == b.results


def test_b11_original_keeps_the_no_counts_secret() -> None:
    """B11: under ORIGINAL a seat sees only its own No count (the published rule)."""
    s = new_game(4, rules=Rules.preset("ORIGINAL"), seed=3)
    assert observation(s, 2).no_cards == (None, None, 3, None)
    assert observation(new_game(4, seed=3), 2).no_cards == (3, 3, 3, 3)
    decision = note("B11", "secret No counts (ORIGINAL)").decision
    assert "deduce" in decision and "è segreto" in decision
