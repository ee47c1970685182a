"""The Throne cases (B1-B16): each declared in a few lines, found by the one search."""

# ruff: noqa: E501
from __future__ import annotations

from typing import Any

from castlerules import throne as t
from castlerules.casebook.bmc_reading import readings_part
from castlerules.casebook.declare import Case, Moment, claim, reading, refusal, step
from castlerules.casebook.questions import question


def _on(state: Any, floor: int) -> int:
    return sum(1 for x in state.rules.letters() if t.floor_of(state, x) == floor)


def _dealt(state: Any) -> int:
    return int(state.rules.no_cards[state.players - 3])


def _shared(state: Any) -> bool:
    """A character above the servants is a favourite of two seats or more (B5)."""
    seats = range(state.players)
    return any(
        (t.floor_of(state, x) or 0) >= 2 and sum(x in t.objective(state, s) for s in seats) >= 2
        for x in state.rules.letters()
    )


def _shared_detail(m: Moment) -> tuple[str, ...]:
    """Which favourite two seats share, and the points it brings each in the round (B14)."""
    state = m.before
    seats = range(state.players)
    out = []
    for x in state.rules.letters():
        floor = t.floor_of(state, x) or 0
        holders = [s for s in seats if x in t.objective(state, s)]
        if floor >= 2 and len(holders) >= 2:
            who = ", ".join(map(str, holders[:-1])) + f" and {holders[-1]}"
            points = t.castle_points(state, x)
            worth = f"{points} point" + ("" if points == 1 else "s")
            out.append(
                f"{x}, on floor {floor}, is a favourite of seats {who}: each of them scores "
                f"its {worth} in the round's score (B14)."
            )
    return tuple(out)


def _no_again(m: Moment, given_back: bool) -> bool:
    """A seat votes No in round 2 after a No in round 1; its No cards were given back, or not."""
    said_no = {
        e.seat for e in m.earlier if e.is_a(t.Vote) and not e.move.yes and t.round_of(e.before) == 1
    }
    return (
        m.is_a(t.Vote)
        and not m.move.yes
        and t.round_of(m.before) == 2
        and m.seat in said_no
        and (t.no_cards(m.before, m.seat or 0) == _dealt(m.before)) == given_back
    )


def _spent_in_round_1(m: Moment) -> list[Moment]:
    """The No votes the seat of ``m`` cast in round 1."""
    return [
        e
        for e in m.earlier
        if e.seat == m.seat and e.is_a(t.Vote) and not e.move.yes and t.round_of(e.before) == 1
    ]


def _all_spent_then_no(m: Moment) -> bool:
    """B11, B3: the seat spent every No card it had in round 1, and votes No in round 2:
    without the reset it would have none left (and could only vote Yes)."""
    return (
        m.is_a(t.Vote)
        and not m.move.yes
        and t.round_of(m.before) == 2
        and len(_spent_in_round_1(m)) == _dealt(m.before)
        and t.no_cards(m.before, m.seat or 0) == _dealt(m.before)
    )


def _reset_values(m: Moment) -> dict[str, object]:
    spent = _spent_in_round_1(m)
    return {
        "seat": m.seat,
        "dealt": _dealt(m.before),
        "moves": ", ".join(str(e.ply) for e in spent),
        "now": t.no_cards(m.before, m.seat or 0),
    }


def _others_favourites(state: Any, seat: int, letter: str) -> list[int]:
    return [s for s in range(state.players) if s != seat and letter in t.objective(state, s)]


def _climbs_only(m: Moment) -> bool:
    """Every move of the seat raises a favourite of another seat, none of its own (B8, B9)."""
    seat = m.seat or 0
    mine = t.objective(m.before, seat)
    return m.is_a(t.Climb) and all(
        isinstance(x, t.Climb)
        and x.character not in mine
        and _others_favourites(m.before, seat, x.character)
        for x in t.legal_moves(m.before)
    )


def _climbs_values(m: Moment) -> dict[str, object]:
    seat = m.seat or 0
    moves = []
    for x in t.legal_moves(m.before):
        others = _others_favourites(m.before, seat, getattr(x, "character", ""))
        moves.append(f"{x} (a favourite of {', '.join(f'seat {s}' for s in others)})")
    return {
        "seat": seat,
        "mine": "".join(sorted(t.objective(m.before, seat))),
        "moves": "; ".join(moves),
    }


def _down(m: Moment) -> Any:
    return question(t, m.before, f"{m.move.character}-")


def _no_king_values(m: Moment) -> dict[str, object]:
    rules, n = m.before.rules, m.before.players
    default = t.Rules().no_cards[n - 3]
    return {
        "players": n,
        "count": rules.no_cards[n - 3],
        "total": rules.no_cards[n - 3] * n,
        "characters": rules.characters,
        "default": default,
        "default_total": default * n,
    }


def _no_king_counts(m: Moment) -> bool:
    """B11, B13: the No cards of the game suffice to eliminate every character; the
    reference count of the player count would not (fewer No cards than characters)."""
    rules, n = m.before.rules, m.before.players
    default = int(t.Rules().no_cards[n - 3]) * n
    return bool(default < int(rules.characters) <= int(rules.no_cards[n - 3]) * n)


def _max_detail(m: Moment) -> tuple[str, ...]:
    """Where seat 0's favourites stood when the king was crowned, and what each scored (B14)."""
    state = m.before
    parts = []
    for x in sorted(t.objective(state, 0)):
        floor = t.floor_of(state, x)
        points = 10 if floor == 7 else t.castle_points(state, x)
        where = "the throne (crowned)" if floor == 7 else f"floor {floor}"
        parts.append(f"{x} on {where}: {points}")
    total = t.round_scores(m.after)[-1][0]
    return (f"Seat 0's favourites: {'; '.join(parts)}; the round gives seat 0 {total} (B14).",)


_MOVER_VOTES_FIRST = claim(
    "Seat {seat}, who raised {character} to the throne, is the first to vote on it (B11).",
    lambda m: t.current_player(m.after) == m.seat and t.phase(m.after) == "election",
    lambda m: {"seat": m.seat, "character": m.move.character},
)

CASES: tuple[Case, ...] = (
    # ------------------------------------------------------------------ the castle (B1, B2)
    step("throne-to-the-throne", "B1 B10",
         "The seventh floor is the throne: a noble who climbs there is a candidate.",
         "Is the throne a floor like the others, that a character simply climbs to?",
         lambda m: m.says("to floor 7 (throne)"),
         bmc=lambda z: z.all(z.climb, z.moved(z.post) == 7)),
    step("throne-floor-names", "B2 B8",
         "Floors 1 to 6 are the servants, craftsmen, merchants, officers, dignitaries, nobles.",
         "Which floor is which, and does a servant climb like any other character?",
         lambda m: m.says("from floor 1 (servants) to floor 2 (craftsmen)"),
         bmc=lambda z: z.all(z.climb, z.moved(z.pre) == 1)),
    # ------------------------------------------------------------------ rounds, objectives
    step("throne-second-round", "B3 B4 B14",
         "After the first scoring the second of three rounds begins, started by the next seat.",
         "Who starts round 2?",
         lambda m: m.says("places first in round 2", "B3"),
         bmc=lambda z: z.all(z.pre.rnd == 1, z.post.rnd == 2),
         claims=(
             claim("Seat {first} places first in round 2: the seat after seat 0, who placed first in round 1 (B3).",
                   lambda m: t.current_player(m.after) == 1 % m.after.players,
                   lambda m: {"first": t.current_player(m.after)}),
         )),
    step("throne-new-objectives", "B4 B3",
         "Each round every seat receives a new secret objective of six favourites.",
         "Do I keep my favourites from one round to the next?",
         lambda m: m.cites("B4") and t.objective(m.after, 0) != t.objective(m.before, 0),
         claims=(
             claim("Every seat holds six new favourites for round {round}: {objectives}.",
                   lambda m: all(len(t.objective(m.after, s)) == 6 for s in range(m.after.players)),
                   lambda m: {"round": t.round_of(m.after), "objectives": "; ".join(
                       f"seat {s} {''.join(sorted(t.objective(m.after, s)))}" for s in range(m.after.players))}),
         )),
    step("throne-shared-favourite", "B5 B14",
         "Two seats may have the same favourite: both score it.",
         "If my favourite is also yours, who scores it?",
         lambda m: m.cites("B14") and _shared(m.before), detail=_shared_detail),
    # ------------------------------------------------------------------ placement (B6, B7)
    step("throne-place-high", "B6",
         "In the placement phase each seat in turn places a character, as high as floor 5.",
         "How high can a character start?",
         lambda m: m.is_a(t.Place) and m.move.floor == 5,
         bmc=lambda z: z.all(z.place, z.move.floor == 5)),
    step("throne-last-to-servants", "B6",
         "With the ORIGINAL placement rules, the characters nobody placed go to the servants.",
         "With equal placement, where does the last, unplaced character go?",
         lambda m: m.says("leftover characters", "B6"), preset="ORIGINAL"),
    refusal("throne-original-floor-1", "B6",
            "With the ORIGINAL placement rules nobody may place on the servants' floor.",
            "Can I place a character straight on floor 1 with the published rules?",
            lambda r: r.clause == "B6" and r.says("placement is on") and r.move.floor == 1,
            preset="ORIGINAL", refuses="throne-placement-floors",
         bmc=lambda z: z.pre.phase == z.PLACE),
    refusal("throne-place-on-sixth", "B6",
            "Placement is on floors 1-5 only: the nobles' floor is reached by climbing.",
            "Can I place a character directly on the nobles' floor?",
            lambda r: r.says("placement is on") and r.move.floor == 6,
            refuses="throne-placement-floors",
         bmc=lambda z: z.pre.phase == z.PLACE),
    refusal("throne-place-twice", "B6",
            "A character already in the castle cannot be placed again.",
            "Can I move a character that someone else placed, during placement?",
            lambda r: r.says("already in the castle"),
            refuses="throne-placed-twice",
         bmc=lambda z: z.all(z.pre.phase == z.PLACE, z.any(f >= 1 for f in z.pre.fl))),
    refusal("throne-full-floor", "B7 B6",
            "A floor holds at most four characters: a fifth cannot be placed there.",
            "Can a fifth character be squeezed onto a floor?",
            lambda r: r.clause == "B7",
         bmc=lambda z: z.all(z.pre.phase == z.PLACE, z.any(z.full(z.pre, f) for f in z.rules.placement_floors))),
    # ------------------------------------------------------------------ movement (B8, B9)
    step("throne-fourth-on-floor", "B8 B7",
         "A character climbs into a floor that holds three: it becomes the fourth, the most.",
         "Can a character climb into a floor that already holds three?",
         lambda m: m.is_a(t.Climb) and _on(m.after, t.floor_of(m.after, m.move.character) or 0) == 4,
         bmc=lambda z: z.all(z.climb, z.on(z.post, z.moved(z.post)) == 4)),
    refusal("throne-climb-into-full", "B8 B7",
            "A character cannot climb into a floor that already holds four.",
            "Can my character climb past a full floor, or into it?",
            lambda r: r.clause == "B8" and r.says("already holds"),
         bmc=lambda z: z.all(z.pre.phase == z.MOVE, z.any(z.all(f == g, z.full(z.pre, g + 1)) for f in z.pre.fl for g in range(1, 6)))),
    refusal("throne-place-in-movement", "B8 B6",
            "Once every character is placed, a seat must move one up: no more placing.",
            "Can I still place a character once the movement phase has begun?",
            lambda r: r.clause == "B8" and r.says("must move a character up, not place"),
         bmc=lambda z: z.pre.phase == z.MOVE),
    refusal("throne-pass-refused", "B8",
            "By default a seat may not pass in the movement phase: it must move a character up.",
            "May I pass instead of moving a character I would rather keep down?",
            lambda r: r.is_a(t.Pass) and r.clause == "B8",
         bmc=lambda z: z.pre.phase == z.MOVE),
    step("throne-forced-climb", "B9 B8",
         "No character ever moves down: a seat whose every move raises other seats' favourites, and none of its own, must still move one up.",
         "If every move helps my opponents, can I move a character down instead?",
         _climbs_only,
         claims=(
             claim("Seat {seat}'s favourites are {mine}; every move it may make raises a favourite of another seat: {moves}.",
                   _climbs_only, _climbs_values),
             claim("Asked instead whether {character} may move down ({character}-), the rules answer no: {answer}",
                   lambda m: _down(m) is not None and _down(m).clause == "B9",
                   lambda m: {"character": m.move.character, "answer": str(_down(m))}),
         )),
    step("throne-no-king-passing", "B8 B13 B14",
         "With passing allowed, a round can end with every seat passing in a row: no king.",
         "If everybody passes, does the round ever end?",
         lambda m: m.says("passed in a row"), options={"allow_pass": True}, guide="pass",
         bmc=lambda z: z.all(z.passed, z.pre.passes == z.n - 1)),
    # ------------------------------------------------------------------ elections (B10-B13)
    step("throne-election", "B10 B11",
         "A character reaching the throne starts an election; the mover votes first.",
         "Who votes first when a character reaches the throne?",
         lambda m: m.cites("B10"),
         bmc=lambda z: z.all(z.climb, z.moved(z.post) == 7),
         claims=(_MOVER_VOTES_FIRST,)),
    step("throne-own-favourite-candidate", "B10 B11 B4",
         "The mover raises its own favourite to the throne, then votes first on it.",
         "Does the player who moved the candidate vote, and first?",
         lambda m: m.cites("B10") and m.move.character in t.objective(m.before, m.seat or 0),
         bmc=lambda z: z.all(z.climb, z.moved(z.post) == 7, z.mine),
         claims=(_MOVER_VOTES_FIRST,)),
    step("throne-secret-vote", "B11",
         "Votes are cast face down, one seat after another, and revealed together.",
         "Do I see how the others voted before I vote?",
         lambda m: m.says("votes face down")),
    refusal("throne-no-card-left", "B11",
            "A seat that has spent all its No cards can only vote Yes.",
            "Can I still vote No when my No cards are gone?",
            lambda r: r.clause == "B11" and r.says("no No card left"), guide="no"),
    refusal("throne-vote-no-election", "B10",
            "There is nothing to vote on until a character reaches the throne.",
            "Can I call a vote on a character before it reaches the throne?",
            lambda r: r.clause == "B10",
            refuses="throne-no-election",
         bmc=lambda z: z.any([z.pre.phase == z.PLACE, z.pre.phase == z.MOVE])),
    refusal("throne-climb-in-election", "B11",
            "During an election nobody moves: every seat votes.",
            "Can I move a character while the others are voting?",
            lambda r: r.clause == "B11" and r.is_a(t.Climb) and r.says("election is under way"),
            refuses="throne-move-in-election",
         bmc=lambda z: z.pre.phase == z.ELECT),
    refusal("throne-climb-from-throne", "B8 B1",
            "The candidate on the throne cannot climb higher: the throne is the top.",
            "Can the candidate climb on, out of the election?",
            lambda r: r.is_a(t.Climb) and r.says("on the throne"),
         bmc=lambda z: z.pre.phase == z.ELECT),
    step("throne-king", "B12 B14",
         "Every vote Yes: the candidate is crowned king and the round ends.",
         "What happens when everybody votes Yes?",
         lambda m: m.cites("B12"),
         bmc=lambda z: z.crowned),
    step("throne-elimination", "B13 B10 B11",
         "A single No eliminates the candidate; play resumes with the seat after the mover.",
         "Does one No vote suffice to reject a candidate, and who plays next?",
         lambda m: m.says("Play resumes", "B13"),
         bmc=lambda z: z.all(z.pre.phase == z.ELECT, z.post.phase == z.MOVE)),
    refusal("throne-eliminated-cannot-climb", "B13",
            "An eliminated character has left the castle for the rest of the round.",
            "Can an eliminated character come back this round?",
            lambda r: r.clause == "B13", guide="no",
            refuses="throne-eliminated",
         bmc=lambda z: z.all(z.pre.phase == z.MOVE, z.any(f == z.GONE for f in z.pre.fl))),
    step("throne-no-king", "B13 B14",
         "When every character is eliminated, the round ends without a king.",
         "What if nobody is ever crowned?",
         lambda m: m.says("without a king", "B13"), players=3,
         options={"no_cards": (5, 4, 4, 4)}, guide="one-no",
         claims=(
             claim("Here the {players} seats hold {count} No cards each, {total} in all, enough to eliminate the {characters} characters; with the reference count for {players} players, {default} each (the published rules': the seed gives no number, B11), they would hold {default_total}, fewer than the characters, and some candidate would be crowned (B12).",
                   _no_king_counts, _no_king_values),
         )),
    step("throne-no-cards", "B11 B13 B12",
         "Elections end in No until nobody has a No card left; then the only vote is Yes.",
         "What happens once every No card is spent?",
         lambda m: m.cites("B12") and all(t.no_cards(m.before, s) == 0 for s in range(m.before.players)),
         guide="no"),
    step("throne-no-card-reset", "B11 B3",
         "By default a seat gets every No card back at each round: one spent in round 1 "
         "is there again in round 2.",
         "Are No cards spent in round 1 gone for the rest of the game?",
         _all_spent_then_no, guide="no",
         claims=(
             claim("Seat {seat} spent all its {dealt} No cards in round 1 (moves {moves}); in round 2 it holds {now} again and votes No: without the reset it would hold none and could only vote Yes (B11).",
                   _all_spent_then_no, _reset_values),
         )),
    step("throne-no-card-kept-spent", "B11 B3",
         "With no_cards_reset_each_round=false, a No card spent in round 1 is still missing in round 2.",
         "If No cards are not reset, what is left in round 2?",
         lambda m: _no_again(m, False), options={"no_cards_reset_each_round": False}),
    # ------------------------------------------------------------------ scoring (B14-B16)
    step("throne-scoring", "B14 B5",
         "At the end of a round each seat scores its favourites by floor: 10/5/4/3/2/1/0.",
         "How is a round scored?",
         lambda m: m.says("Round 1 is scored", "B14"),
         bmc=lambda z: z.all(z.pre.rnd == 1, z.post.rnd == 2)),
    step("throne-max-round", "B14 B12 B7",
         "A crowned favourite, three favourites on the nobles' floor and two on the "
         "dignitaries': 10 + 3 × 5 + 2 × 4 = 33, the most a round gives.",
         "What is the most a round can score?",
         lambda m: m.cites("B12") and t.round_scores(m.after)[-1][0] == 33,
         guide="favourites-high", seat=0, budget=200, detail=_max_detail,
         bmc=lambda z: z.all(z.crowned, z.post.total[0] - z.pre.total[0] == 33)),
    step("throne-bonus", "B15 B14",
         "In round 3 a seat whose favourites are all on the servants' floor or eliminated "
         "scores 0, which counts as 33.",
         "Is it ever good to have all my favourites at the bottom?",
         lambda m: m.says("Seat 0 scored 0", "B15"),
         guide="favourites-low", seat=0, budget=200),
    step("throne-winner", "B16 B14",
         "After the third scoring the highest total wins.",
         "Who wins?",
         lambda m: m.says(" wins with ", "B16")),
    step("throne-tie", "B16 B14",
         "Two seats with the same highest total share the win.",
         "What if two players tie?",
         lambda m: m.says("share the win", "B16")),
    refusal("throne-game-over", "B3 B16",
            "After the third scoring the game is over: no move is played.",
            "Is there a fourth round?",
            lambda r: r.clause == "B3"),
    # ------------------------------------------------------------------ readings
    reading("throne-reading-first-player", "B3",
            "Who starts each round: the next seat (default) or always seat 0.",
            "Does the first player change from round to round?",
            {"first_player_rotates": False}, bmc=readings_part),
    reading("throne-reading-original-placement", "B6",
            "The ORIGINAL placement rules (equal placement, floors 2-5) against the seed's.",
            "May a player place on floor 1, and does everybody place the same number?",
            "ORIGINAL"),
    reading("throne-reading-placement-floors", "B6",
            "Placement on the five first floors (default), or on floors 2-5 only, as the "
            "published rules place.",
            "May a character be placed on the servants' floor?",
            {"placement_floors": (2, 3, 4, 5)}),
    reading("throne-reading-pass", "B8",
            "Passing in the movement phase: refused by default, allowed with allow_pass.",
            "May a player pass?",
            {"allow_pass": True}, bmc=readings_part),
    reading("throne-reading-no-card-reset", "B11",
            "No cards given back at each round (default) or spent for the whole game.",
            "Do spent No cards come back at the next round?",
            {"no_cards_reset_each_round": False}, guide="no", bmc=readings_part),
    reading("throne-reading-movement-starter", "B8",
            "Who starts the movement phase: the seat after the last placer (default) or the "
            "round's first player (the published rules).",
            "Who moves first once every character is placed?",
            {"movement_starter": "first_player"}, bmc=readings_part),
    reading("throne-reading-public-no-cards", "B11",
            "How many No cards each seat has left: public (default) or secret.",
            "May I know how many No cards the others have left?",
            {"no_cards_public": False}),
)  # fmt: skip
