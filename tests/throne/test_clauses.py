"""One test (at least) per seed clause of Throne, B1 to B16, each citing its clause."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from castlerules.core import CLAUSES, ArgumentError, IllegalMove, Rng, clauses_of
from castlerules.throne import (
    FLOOR_NAMES,
    Climb,
    Place,
    Rules,
    State,
    Vote,
    apply,
    candidate,
    castle_points,
    current_player,
    describe,
    floor_of,
    from_text,
    is_eliminated,
    is_over,
    king,
    legal_moves,
    new_game,
    no_cards,
    objective,
    observation,
    parse_move,
    phase,
    round_of,
    round_scores,
    scores,
    to_text,
    totals,
    winners,
)

# The fixtures play, objectives_3p, fill_3p, filled and electing: see conftest.py.
Play = Callable[[State, str], State]


# Round 3, an election: M on the throne, raised by seat 1; seats 1 and 2 voted
# Yes, seat 0 votes last. E and F were eliminated earlier this round.
# Objectives of round 3: seat 0 ABCDEF (all on floor 1 or eliminated: 0 points),
# seat 1 GHIJKM (1+2+4+4+5+10 = 26 if M is crowned), seat 2 ACEKLM (0+0+0+5+5+10 = 20).
ROUND3 = (
    "throne SEED 3 3 election 0 ABCD/G/H/-/IJ/KL/M EF 4/3/3 .yy 0 "
    "ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKM,ACEKLM "
    "10,20,30/5,5,5 AB"
)


def test_b1_castle_has_seven_floors_throne_on_top(electing: State) -> None:
    """B1: seven floors, the throne is the 7th and holds one character."""
    rules = Rules()
    assert rules.floors == 7
    assert rules.throne_floor == 7
    assert rules.capacity(7) == 1
    with pytest.raises(ValueError, match="7"):
        Rules(floors=8)
    s = electing
    assert floor_of(s, "M") == 7
    assert candidate(s) == "M"
    # The castle field of the notation lists exactly seven floors.
    assert len(to_text(s).split(" ")[6].split("/")) == 7


def test_b2_floor_names_and_points_order(play: Play, filled: State) -> None:
    """B2: floors 1 servants ... 6 nobles, 7 throne; the events name them."""
    assert FLOOR_NAMES[1:] == (
        "servants",
        "craftsmen",
        "merchants",
        "officers",
        "dignitaries",
        "nobles",
        "throne",
    )
    s = play(filled, "M+")
    events = describe(s, Climb("M"), apply(s, Climb("M")))
    assert "floor 5 (dignitaries) to floor 6 (nobles)" in events[0].text
    assert events[0].clause == "B8"
    assert Rules().noble_floor == 6


def test_b3_three_rounds_then_over() -> None:
    """B3: a game is three rounds; then it is over and no move can be played."""
    s = new_game(4, seed=3)
    rng = Rng.from_seed(3, "b3")
    rounds_seen = [round_of(s)]
    while not is_over(s):
        move, rng = rng.choice(legal_moves(s))
        s = apply(s, move)
        if round_of(s) != rounds_seen[-1]:
            rounds_seen.append(round_of(s))
    assert rounds_seen == [1, 2, 3]
    assert len(round_scores(s)) == 3
    assert current_player(s) is None
    assert legal_moves(s) == ()
    with pytest.raises(IllegalMove) as info:
        apply(s, Climb("A"))
    assert info.value.clause == "B3"
    assert "over" in str(info.value)


def test_b3_first_player_rotates_each_round() -> None:
    """B3 (spec 6): round 1 starts with seat 0, round 2 with seat 1, round 3 with seat 2."""
    s = from_text(
        ROUND3.replace(" 3 3 election", " 3 1 election").replace(" 10,20,30/5,5,5 AB", " - -")
    )
    after = apply(s, Vote(True))  # crowned: round 2 begins
    assert (round_of(after), phase(after), current_player(after)) == (2, "placement", 1)
    # The same election in round 2: crowning starts round 3 with seat 2.
    s2 = from_text(
        ROUND3.replace(" 3 3 election", " 3 2 election").replace(" 10,20,30/5,5,5 AB", " 1,2,3 A")
    )
    third = apply(s2, Vote(True))
    assert (round_of(third), phase(third), current_player(third)) == (3, "placement", 2)
    fixed = Rules(first_player_rotates=False)
    for election in (s, s2):
        unrotated = from_text(to_text(election).replace("SEED", "SEED,first_player_rotates=false"))
        assert unrotated.rules == fixed
        assert current_player(apply(unrotated, Vote(True))) == 0


def test_b4_no_two_seats_share_an_objective_in_a_round() -> None:
    """B4: each seat's objective of a round is its own card: over many deals no two seats
    get the same six favourites (with seven characters, only seven objectives of six
    exist, so six seats would share one in most rounds of a careless deal)."""
    for players in range(3, 7):
        for seed in range(40):
            for masks in new_game(players, seed=seed).objectives:
                assert len(set(masks)) == players == len(masks)
    few = Rules(characters=7)
    for seed in range(20):
        for masks in new_game(6, seed=seed, rules=few).objectives:
            assert len(set(masks)) == 6 == len(masks)


def test_b4_each_round_a_secret_objective_of_six(objectives_3p: list[list[str]]) -> None:
    """B4: every round every player gets six distinct favourites, hidden from the others."""
    s = new_game(5, seed=11)
    for seat in range(5):
        assert len(objective(s, seat)) == 6
    assert len({objective(s, seat) for seat in range(5)}) == 5  # distinct cards
    assert new_game(5, seed=11) == s  # the deal is reproducible
    assert new_game(5, seed=12) != s
    assert observation(s, 2).objective == objective(s, 2)  # each seat sees its own
    with pytest.raises(ValueError, match="3 rounds"):
        new_game(3, objectives=objectives_3p[:2])
    # A new objective each round.
    s = from_text(
        ROUND3.replace(" 3 3 election", " 3 2 election").replace(" 10,20,30/5,5,5 AB", " 1,2,3 A")
    )
    assert objective(s, 0) == frozenset("ABCDEF")
    after = apply(s, Vote(True))
    assert round_of(after) == 3
    assert objective(after, 1) == frozenset("GHIJKM")


def test_b5_shared_favourites_both_score_higher_is_better() -> None:
    """B5: players may share favourites; the higher a favourite, the more it scores."""
    s = from_text(ROUND3)
    # Seats 1 and 2 share K and M; both score them.
    over = apply(s, Vote(True))
    r3 = round_scores(over)[2]
    assert r3[1] == 1 + 2 + 4 + 4 + 5 + 10  # G2 H3 I5 J5 K6 M7
    assert r3[2] == 0 + 0 + 0 + 5 + 5 + 10  # A1 C1 E(out) K6 L6 M7
    points = [Rules().points_of(f) for f in range(1, 8)]
    assert points == sorted(points)


def test_b6_placement_in_turn_on_the_first_five_floors(
    objectives_3p: list[list[str]], fill_3p: str
) -> None:
    """B6: placement in turn, one character each, floors 1-5 only."""
    s = new_game(3, objectives=objectives_3p)
    assert {m.floor for m in legal_moves(s) if isinstance(m, Place)} == {1, 2, 3, 4, 5}
    seats = []
    for text in fill_3p.split():
        seats.append(current_player(s))
        s = apply(s, parse_move(s, text))
    assert seats == [0, 1, 2] * 4 + [0]
    assert phase(s) == "movement"
    with pytest.raises(IllegalMove) as info:
        apply(new_game(3), Place("C", 6))
    assert info.value.clause == "B6"
    assert "floors 1-5 only" in str(info.value)


def test_b6_original_places_on_floors_2_to_5_equally_leftovers_to_floor_1(play: Play) -> None:
    """B6 (ORIGINAL): floors 2-5, every player places 3 (4 players), the leftover goes to 1."""
    rules = Rules.preset("ORIGINAL")
    s = new_game(4, rules=rules, seed=2)
    assert {m.floor for m in legal_moves(s) if isinstance(m, Place)} == {2, 3, 4, 5}
    with pytest.raises(IllegalMove) as info:
        apply(s, Place("A", 1))
    assert info.value.clause == "B6"
    s = play(s, "A2 B2 C2 D2 E3 F3 G3 H3 I4 J4 K4")
    assert phase(s) == "placement"
    before = s
    s = play(s, "L5")
    assert phase(s) == "movement"
    assert floor_of(s, "M") == 1  # the leftover
    assert current_player(s) == 0  # after the last placer, seat 3
    assert any("leftover" in e.text for e in describe(before, Place("L", 5), s))


def test_b7_no_more_than_four_on_a_floor(play: Play, objectives_3p: list[list[str]]) -> None:
    """B7: a fifth character cannot be placed on a floor."""
    s = play(new_game(3, objectives=objectives_3p), "A1 B1 C1 D1")
    assert all(m.floor != 1 for m in legal_moves(s) if isinstance(m, Place))
    with pytest.raises(IllegalMove) as info:
        apply(s, Place("E", 1))
    assert info.value.clause == "B7"
    assert "already holds 4" in str(info.value)


def test_b8_climb_one_floor_into_a_floor_with_room(filled: State) -> None:
    """B8: in turn, one character climbs one floor if the floor above holds fewer than 4."""
    s = filled
    assert current_player(s) == 1
    climbers = {m.character for m in legal_moves(s) if isinstance(m, Climb)}
    # Floors 2 and 3 are full: only floor 3 (IJKL, into 4) and M (4 -> 5) may climb.
    assert climbers == set("IJKLM")
    with pytest.raises(IllegalMove) as info:
        apply(s, Climb("A"))
    assert info.value.clause == "B8"
    after = apply(s, Climb("I"))
    assert (floor_of(after, "I"), current_player(after)) == (4, 2)


def test_b9_no_character_ever_moves_down() -> None:
    """B9: every legal move leaves every character as high or higher (a random game)."""
    s = new_game(6, seed=9)
    rng = Rng.from_seed(9, "b9")
    while not is_over(s):
        move, rng = rng.choice(legal_moves(s))
        after = apply(s, move)
        if round_of(after) == round_of(s) and not is_over(after):
            for a, b in zip(s.floors, after.floors, strict=True):
                assert b >= a or b == -1  # -1: eliminated from the throne (B13)
            if isinstance(move, Climb):
                moved = [
                    i for i, (a, b) in enumerate(zip(s.floors, after.floors, strict=True)) if a != b
                ]
                assert len(moved) == 1 and after.floors[moved[0]] == s.floors[moved[0]] + 1
        s = after


def test_b10_reaching_the_throne_starts_an_election(play: Play, filled: State) -> None:
    """B10: a character climbing from the nobles to the throne triggers the election."""
    s = play(filled, "M+ M+")
    assert floor_of(s, "M") == 6 and phase(s) == "movement"
    mover = current_player(s)
    after = apply(s, Climb("M"))
    assert phase(after) == "election"
    assert current_player(after) == mover  # the mover votes first (B11)
    assert candidate(after) == "M"
    assert [e.clause for e in describe(s, Climb("M"), after)] == ["B8", "B10"]
    with pytest.raises(IllegalMove) as info:
        apply(filled, Vote(True))
    assert info.value.clause == "B10"


def test_b11_secret_votes_limited_no_cards_discarded_after_use(play: Play, electing: State) -> None:
    """B11: secret Yes/No votes; limited No cards, discarded once used, never before the reveal."""
    s = electing
    assert no_cards(s, 0) == 4
    s = apply(s, Vote(False))  # seat 0, face down
    assert no_cards(s, 0) == 4  # not yet revealed
    view = observation(s, 1)
    assert view.voted == (True, False, False)
    assert view.vote is None
    assert observation(s, 0).vote is False
    s = play(s, "yes yes")
    assert no_cards(s, 0) == 3  # discarded at the reveal
    assert (no_cards(s, 1), no_cards(s, 2)) == (4, 4)
    # With no No card left, only Yes.
    # Seat 0 used its four No cards in earlier rounds (cards not restored between rounds).
    kept = ROUND3.replace("SEED", "SEED,no_cards_reset_each_round=false")
    empty = from_text(kept.replace("4/3/3 .yy", "0/3/3 .yy"))
    assert legal_moves(empty) == (Vote(True),)
    with pytest.raises(IllegalMove) as info:
        apply(empty, Vote(False))
    assert info.value.clause == "B11"
    assert "no No card left" in str(info.value)


def test_b12_all_yes_crowns_the_king_and_ends_the_round(play: Play, electing: State) -> None:
    """B12: if every vote is Yes the candidate is king and the round ends."""
    s = play(electing, "yes yes")
    after = apply(s, Vote(True))
    assert king(after) == "M" and king(after, 1) == "M"
    assert (round_of(after), phase(after)) == (2, "placement")
    assert len(round_scores(after)) == 1
    assert [e.clause for e in describe(s, Vote(True), after)][:3] == ["B11", "B12", "B14"]


def test_b13_a_single_no_eliminates_the_candidate_and_play_resumes(
    play: Play, electing: State
) -> None:
    """B13: one No vote eliminates the candidate; play resumes after the mover."""
    s = electing  # the mover is seat 0
    s = play(s, "yes no yes")
    assert is_eliminated(s, "M") and floor_of(s, "M") is None
    assert (phase(s), round_of(s), current_player(s)) == ("movement", 1, 1)
    assert no_cards(s, 1) == 3
    with pytest.raises(IllegalMove) as info:
        apply(s, Climb("M"))
    assert info.value.clause == "B13"
    # The eliminated favourite scores nothing: seat 0's objective ABCDEF has no M.
    r = from_text(ROUND3)
    resumed = apply(r, Vote(False))
    assert floor_of(resumed, "M") is None and current_player(resumed) == 2


def _round1_election_text() -> str:
    return (
        ROUND3.replace(" 3 3 election", " 3 1 election")
        .replace(" 10,20,30/5,5,5 AB", " - -")
        .replace(
            "ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKM,ACEKLM",
            "ABCDEF,GHIJKM,ACEKLM/ABCDEF,GHIJKL,ACEGIK/ABCDEF,GHIJKL,ACEGIK",
        )
    )


def _round1_election() -> State:
    """ROUND3's castle as the election of round 1 (M on the throne, E and F eliminated),
    seat 1 holding GHIJKM."""
    return from_text(_round1_election_text())


def test_b14_round_scoring_by_floor() -> None:
    """B14: 10 / 5 / 4 / 3 / 2 / 1 / 0 points by floor; eliminated favourites score 0."""
    assert [Rules().points_of(f) for f in range(7, 0, -1)] == [10, 5, 4, 3, 2, 1, 0]
    s = _round1_election()
    after = apply(s, Vote(True))
    # Seat 0: A-D floor 1 (0), E, F eliminated (0); seat 1: G2 H3 I5 J5 K6 M7.
    assert round_scores(after) == ((0, 1 + 2 + 4 + 4 + 5 + 10, 5 + 5 + 10),)
    assert scores(after) == totals(after) == round_scores(after)[0]


def test_b13_b14_an_eliminated_favourite_scores_nothing_even_where_floor_1_scores() -> None:
    """B13, B14: an eliminated favourite has left the castle and scores 0, also under a
    ``points`` option where floor 1 is worth something (with the seed's points floor 1
    and "eliminated" both score 0, and a mix-up of the two would not show)."""
    rules = "SEED,points=1/2/3/4/5/6/10"
    s = from_text(_round1_election_text().replace("throne SEED ", f"throne {rules} "))
    assert s.rules.points_of(1) == 1
    assert castle_points(s, "EF") == 0  # eliminated (B13)
    assert castle_points(s, "AB") == 2  # floor 1, worth 1 each here
    after = apply(s, Vote(True))
    # Seat 0: A-D floor 1 (1 each), E, F eliminated (0).
    assert round_scores(after)[0][0] == 4


def test_b14_castle_points_are_what_the_round_would_score_now() -> None:
    """B14: castle_points gives the floor points of characters as they stand; with every
    seat's favourites, it is the round score that an all-Yes election then records."""
    s = _round1_election()
    after = apply(s, Vote(True))
    standing = tuple(castle_points(s, objective(s, seat)) for seat in range(3))
    assert standing == round_scores(after)[0] == (0, 26, 20)
    assert castle_points(s, "M") == 10  # the candidate on the throne
    assert castle_points(s, "EF") == 0  # eliminated (B13)
    assert castle_points(s, "MM") == castle_points(s, ["M"]) == 10  # each counted once
    assert castle_points(s, "") == 0
    with pytest.raises(ArgumentError, match="character must be a letter"):
        castle_points(s, "AZ")
    with pytest.raises(ArgumentError, match="characters must be letters"):
        castle_points(s, 7)  # type: ignore[arg-type]


def test_b15_a_zero_in_the_third_scoring_counts_33() -> None:
    """B15: in the third scoring a round score of 0 becomes 33 (not in rounds 1 and 2)."""
    over = apply(from_text(ROUND3), Vote(True))
    assert is_over(over)
    assert round_scores(over)[2][0] == 33
    events = describe(from_text(ROUND3), Vote(True), over)
    assert any(e.clause == "B15" and "counts as 33" in e.text for e in events)
    first = from_text(
        ROUND3.replace(" 3 3 election", " 3 1 election").replace(" 10,20,30/5,5,5 AB", " - -")
    )
    assert round_scores(apply(first, Vote(True)))[0][0] == 0
    assert Rules(bonus_rounds=(1, 2, 3)).bonus_applies(1)


def test_b16_highest_total_wins_ties_share() -> None:
    """B16: the highest total after the last scoring wins; equal totals share the win."""
    s = from_text(ROUND3)
    assert winners(s) == ()
    over = apply(s, Vote(True))
    # Totals: 10+5+33 = 48, 20+5+26 = 51, 30+5+20 = 55.
    assert totals(over) == (48, 51, 55)
    final = totals(over)
    assert final == tuple(sum(r[k] for r in round_scores(over)) for k in range(3))
    assert winners(over) == (final.index(max(final)),)
    # A tie: make seat 0's earlier rounds bring it level with the best.
    r3 = round_scores(over)[2]
    best = max(final)
    first = best - 5 - r3[0]
    tied = from_text(ROUND3.replace("10,20,30/5,5,5", f"{first},20,30/5,5,5"))
    tied_over = apply(tied, Vote(True))
    assert totals(tied_over)[0] == max(totals(tied_over))
    assert len(winners(tied_over)) == 2 and 0 in winners(tied_over)
    assert any(
        e.clause == "B16" and "share" in e.text for e in describe(tied, Vote(True), tied_over)
    )


def test_every_throne_clause_has_a_test_here() -> None:
    """Each of B1..B16 is named by a test of this module."""
    names = [name for name in globals() if name.startswith("test_b")]
    for c in clauses_of("throne"):
        assert any(name.startswith(f"test_{c.id.lower()}_") for name in names), c.id
        assert c.id in CLAUSES
