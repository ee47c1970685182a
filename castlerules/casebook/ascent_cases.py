"""The Ascent cases (A1-A18): each declared in a few lines, found by the one search."""

# ruff: noqa: E501
from __future__ import annotations

from typing import Any

from castlerules import ascent as a
from castlerules.casebook.declare import Case, Game, Moment, Split, claim, reading, refusal, step
from castlerules.casebook.declare import game as whole
from castlerules.casebook.questions import question


def _cards(state: Any) -> list[a.Card]:
    return [a.Card(owner, rank) for owner in range(state.players) for rank in a.Rank]


def _above_arrival(g: Game) -> bool:
    """A card ends the game above its arrival square (carried up, protected) (A15)."""
    final = g.final
    for card in _cards(final):
        place = a.where(final, card)
        if place is not None and place[1] > final.rules.arrival_of(card.rank):
            return True
    return False


def _removed_at_end(g: Game) -> bool:
    """Cards removed in the upper half (A13), the game played to its end (A16)."""
    return g.says("leaves the board", "A13") and any(
        a.removed(g.final, q) for q in range(g.final.players)
    )


def _removal(g: Game) -> Moment:
    """The move of the game that removed cards from the board (A13)."""
    return next(m for m in g.moments if m.says("leaves the board", "A13"))


def _removed_by(m: Moment) -> tuple[int, tuple[a.Card, ...]]:
    """The column a removal took cards from, and those cards (its pile grew by them)."""
    for q in range(m.after.players):
        new = tuple(c for c in a.removed(m.after, q) if c not in a.removed(m.before, q))
        if new:
            return q, new
    raise LookupError("no card was removed by this move")


def _board_value(state: Any, seat: int) -> int:
    """What seat's column gives at the end: plus the value of each card on or above its
    arrival square, minus the value of each card below it, Start included (A15, A16)."""
    total = 0
    for card in _cards(state):
        place = a.where(state, card)
        if place is not None and place[0] == seat:
            reached = place[1] >= state.rules.arrival_of(card.rank)
            total += card.rank.value if reached else -card.rank.value
    return total


def _penalty(state: Any, seat: int) -> int:
    return sum(c.rank.value for c in a.removed(state, seat))


def _scored_as_counted(g: Game) -> bool:
    """Every seat's final score is its column's value less its removed cards (A15, A16)."""
    final = g.final
    return all(
        a.scores(final)[q] == _board_value(final, q) - _penalty(final, q)
        for q in range(final.players)
    )


def _penalty_to_column(g: Game) -> bool:
    """The cards removed stay in the pile of the column they were removed from, and that
    seat's score counts them against it (A13, A16; penalty_to=column)."""
    column, cards = _removed_by(_removal(g))
    final = g.final
    return all(c in a.removed(final, column) for c in cards) and _scored_as_counted(g)


def _penalty_values(g: Game) -> dict[str, object]:
    moment = _removal(g)
    column, cards = _removed_by(moment)
    final = g.final
    owners = ", ".join(f"{c} of seat {a.owner_of(final, c)}" for c in cards)
    return {
        "ply": moment.ply,
        "seat": moment.seat,
        "move": moment.text,
        "cards": " ".join(str(c) for c in cards),
        "leave": "leaves" if len(cards) == 1 else "leave",
        "column": column,
        "owners": owners,
        "score": a.scores(final)[column],
        "board": _board_value(final, column),
        "penalty": _penalty(final, column),
    }


def _carried(g: Game) -> tuple[a.Card, int, int]:
    final = g.final
    for card in _cards(final):
        place = a.where(final, card)
        if place is not None and place[1] > final.rules.arrival_of(card.rank):
            return card, place[0], place[1]
    raise LookupError("no card above its arrival square")


def _short(g: Game) -> tuple[a.Card, int, int]:
    final = g.final
    for card in _cards(final):
        place = a.where(final, card)
        if place is not None and 0 < place[1] < final.rules.arrival_of(card.rank):
            return card, place[0], place[1]
    raise LookupError("no card below its arrival square")


def _card_values(found: tuple[a.Card, int, int], g: Game) -> dict[str, object]:
    card, column, square = found
    final = g.final
    return {
        "card": card,
        "column": column,
        "square": square,
        "arrival": final.rules.arrival_of(card.rank),
        "value": card.rank.value,
        "score": a.scores(final)[column],
        "board": _board_value(final, column),
        "penalty": _penalty(final, column),
    }


def _up_only(m: Moment) -> bool:
    """Every Advance legal before the move takes its card up (A4)."""
    for move in a.legal_moves(m.before):
        if isinstance(move, a.Advance):
            start = a.where(m.before, move.card)
            end = a.where(a.apply(m.before, move), move.card)
            if start is None or end is None or end[1] <= start[1] or end[0] != start[0]:
                return False
    return True


def _advances(m: Moment) -> str:
    out = []
    for move in a.legal_moves(m.before):
        if isinstance(move, a.Advance):
            start = a.where(m.before, move.card)
            end = a.where(a.apply(m.before, move), move.card)
            if start is not None and end is not None:
                where = f"square {start[1]}" if start[1] else "the Start"
                out.append(f"{move} from {where} to square {end[1]}")
    return "; ".join(out)


def _two_of_a_rank(split: Split) -> dict[str, object] | None:
    """Under the second reading (deal=shuffled): a seat dealt two cards of a rank or more
    and none of another (its seat, how many, the cards, the rank, a rank missing)."""
    state = split.before[1]
    for seat in range(state.players):
        hand = [c for c in _all_cards() if _dealt_to(state, c) == seat]
        ranks = [c.rank for c in hand]
        double = next((r for r in a.Rank if ranks.count(r) >= 2), None)
        missing = next((r for r in a.Rank if r not in ranks), None)
        if double is not None and missing is not None:
            cards = ", ".join(str(c) for c in hand if c.rank == double)
            return {
                "seat": seat,
                "count": ranks.count(double),
                "cards": cards,
                "rank": double.title,
                "missing": missing.title,
            }
    return None


def _all_cards() -> list[a.Card]:
    return [a.Card(owner, rank) for owner in range(6) for rank in a.Rank]


def _dealt_to(state: Any, card: a.Card) -> int | None:
    try:
        return a.owner_of(state, card)
    except ValueError:
        return None


def _below_arrival(g: Game) -> bool:
    """A card that never reached its arrival square counts against its owner (A16)."""
    final = g.final
    return any(
        (place := a.where(final, card)) is not None
        and 0 < place[1] < final.rules.arrival_of(card.rank)
        for card in _cards(final)
    )


def _rises(m: Moment, squares: int) -> bool:
    """An Advance that raises its card by at least ``squares`` squares (A3, A4)."""
    if not m.is_a(a.Advance):
        return False
    start, end = a.where(m.before, m.move.card), a.where(m.after, m.move.card)
    return start is not None and end is not None and end[1] - start[1] >= squares


def _other_owner(split: Split) -> bool:
    """A removal where a card goes to a pile other than its column's (A13)."""
    return bool(split.kind == "outcome" and "the owner of each card" in split.second_text)


def _ends_one(split: Split) -> bool:
    """The move ends the game under one reading and not under the other (A14)."""
    if split.kind != "outcome" or split.refused_by is not None:
        return False
    first, second = split.first, split.second
    if not isinstance(first, Moment) or not isinstance(second, Moment):
        return False
    return bool(a.is_over(first.after) != a.is_over(second.after))


def _legal_under_one(split: Split) -> bool:
    """A move one reading plays and the other refuses (the boards differ from the start,
    so the split must be a move, not what a seat sees)."""
    return split.kind == "outcome" and split.refused_by is not None


CASES: tuple[Case, ...] = (
    # ------------------------------------------------------------------ the path (A1-A5)
    step("ascent-from-start", "A1 A3",
         "Cards leave the Start one at a time, each for the first free square of its column.",
         "Where does a card go when it leaves the Start?",
         lambda m: m.says("from the Start to square 1"),
         bmc=lambda z: z.all(z.advance, z.moved_card(lambda a, b: z.all(a.sq == z.k(0), b.sq == z.k(1))))),
    refusal("ascent-other-column", "A2",
            "A player moves only the cards of its own column.",
            "Can I move a card in someone else's column?",
            lambda r: r.clause == "A2", players=3),
    step("ascent-jump-several", "A3 A4",
         "A card jumps over every occupied square to the next free one: here over several.",
         "Does a card stop behind an occupied square, or jump over several?",
         lambda m: _rises(m, 3) and m.says("It jumps over"), players=3,
         bmc=lambda z: z.all(z.advance, z.moved_card(lambda a, b: b.sq - a.sq >= z.k(3)))),
    step("ascent-split", "A3 A7",
         "A card inside a stack moves with the cards above it; the ones below stay.",
         "Can I move only the top part of a stack?",
         lambda m: m.says(" stays on square ", "A3"), players=3, guide="favours"),
    step("ascent-only-up", "A4 A3",
         "A card on the path moves up only, to the next free square above it.",
         "Can a card move back down, or sideways?",
         lambda m: m.is_a(a.Advance) and m.says(" from square ", "A3") and not m.says("jumps"),
         bmc=lambda z: z.all(z.advance, z.moved_card(lambda a, b: z.all(a.sq >= z.k(1), b.sq == a.sq + z.k(1)))),
         claims=(
             claim("Every Advance legal here takes its card up its own column: {advances}.",
                   _up_only, lambda m: {"advances": _advances(m)}),
             claim("Asked instead whether {card} may go back down ({card}-), the rules answer no: {answer}",
                   lambda m: getattr(question(a, m.before, f"{m.move}-"), "clause", None) == "A4",
                   lambda m: {"card": m.move, "answer": str(question(a, m.before, f"{m.move}-"))}),
         )),
    step("ascent-last-square", "A5 A8",
         "The path has seven squares: the seventh is the Prince's arrival square, the top.",
         "How long is the path, and what is at the end?",
         lambda m: m.says("to square 7", "A3"), players=3),
    # ------------------------------------------------------------------ ceiling, protection (A6, A7)
    refusal("ascent-ceiling", "A6",
            "No card goes above its arrival square on its own: with no free square up to it, it cannot move.",
            "Can a card jump past its own arrival square?",
            lambda r: r.clause == "A6", players=3),
    step("ascent-protection", "A7 A6 A3",
         "A card carried inside a stack goes above its own arrival square, protected by a higher rank above it.",
         "Can a low card ride above its ceiling?",
         lambda m: m.cites("A7"), players=3),
    refusal("ascent-exposing-split", "A7",
            "A split that would leave a card exposed above its arrival square is refused.",
            "Can I move the top of a stack away and leave a card above its ceiling?",
            lambda r: r.clause == "A7", players=3, guide="favours"),
    # ------------------------------------------------------------------ flipping (A8, A9)
    step("ascent-flip", "A8",
         "A card that reaches its arrival square is flipped: it will never move again.",
         "What happens when a card reaches its arrival square?",
         lambda m: m.cites("A8"),
         bmc=lambda z: z.some_card(lambda a, b: z.all(b.flp, z.am.neg(a.flp)))),
    refusal("ascent-flipped-never-moves", "A8",
            "A flipped card never moves again.",
            "Can a flipped card move on?",
            lambda r: r.clause == "A8", players=3,
            refuses="ascent-flipped"),
    step("ascent-flipped-square", "A9 A8 A3",
         "A card lands on its arrival square on top of flipped cards of its rank; for a higher rank the square would count as occupied.",
         "Is a square with flipped cards free or occupied?",
         lambda m: m.cites("A9"), players=3),
    # ------------------------------------------------------------------ favours (A10-A13)
    step("ascent-favour", "A10 A11",
         "The stack just moved takes a lower-rank card of the same row of another column, under it.",
         "What is a favour, and what can it take?",
         lambda m: m.is_a(a.Favour), players=3, guide="favours",
         bmc=lambda z: z.favour),
    step("ascent-favour-offered", "A10",
         "An Advance that ends beside a lower rank offers a favour: take it, or end the turn.",
         "Must I take a favour when one is available?",
         lambda m: m.says("A favour is available", "A10"), players=3),
    refusal("ascent-favour-higher-rank", "A10",
            "A favour takes only a stack led by a lower rank than the taker's.",
            "Can my stack take a card of the same or a higher rank?",
            lambda r: r.clause == "A10" and r.says("does not rank lower"), players=3, guide="favours",
            refuses="ascent-favour-rank"),
    refusal("ascent-favour-own-column", "A10",
            "A favour takes cards of another column only.",
            "Can a favour take a card in my own column?",
            lambda r: r.clause == "A10" and r.says("your own column"), players=3, guide="favours"),
    refusal("ascent-favour-not-pending", "A11",
            "Only the card or stack just moved does a favour: none is pending before an Advance.",
            "Can a stack that did not move take a favour?",
            lambda r: r.clause == "A11"),
    step("ascent-favour-replay", "A12 A10 A11",
         "After a favour the player may play again at once.",
         "Do I play again after taking a favour?",
         lambda m: m.is_a(a.Favour) and m.says("may play again", "A12"), players=3, guide="favours"),
    refusal("ascent-advance-before-favour", "A12",
            "Right after an Advance that offers a favour, the player takes it or ends the turn: no second Advance first.",
            "Can I advance again instead of answering the favour?",
            lambda r: r.clause == "A12", players=3),
    refusal("ascent-end-before-advance", "A3",
            "A turn cannot end before its Advance: ending a turn only declines a favour or a replay.",
            "May I skip my turn?",
            lambda r: r.clause == "A3",
         bmc=lambda z: z.all(z.am.neg(z.pre.turn.mid), z.pre.turn.actor >= z.k(0))),
    step("ascent-removal", "A13 A10 A16",
         "A favour takes only the top of a stack in the upper half; the card left on top is above its arrival square, so the rest of the stack leaves the board.",
         "What happens to the cards left exposed by a favour high up?",
         lambda m: m.says("leaves the board", "A13") or m.says("leave the board", "A13"),
         players=(5, 4, 3), guide="favours", budget=600),
    step("ascent-no-removal-low", "A13 A10",
         "A card left exposed above its arrival square in the lower half stays: removal is for the upper half.",
         "Is an exposed card removed anywhere on the path?",
         lambda m: m.says("where no removal applies", "A13"), players=(5, 4, 3), guide="favours", budget=600),
    # ------------------------------------------------------------------ the end (A14-A17)
    step("ascent-skipped", "A14 A3",
         "A player with no legal Advance is skipped.",
         "What if I cannot move?",
         lambda m: m.says("is skipped", "A14"), players=3),
    step("ascent-last-one-moves", "A14",
         "When nobody else can move, the one who can plays again.",
         "Does play go round to players who cannot move?",
         lambda m: m.says("nobody else can move", "A14"), players=3),
    step("ascent-game-end", "A14 A17",
         "The game ends when at most one player still has a card below its arrival square.",
         "When is the game over?",
         lambda m: m.says("The game is over", "A14"), players=3),
    refusal("ascent-game-over", "A14",
            "Once the game is over, no move is played.",
            "Can the last player go on alone?",
            lambda r: r.clause == "A14", players=3),
    whole("ascent-carried-scores", "A15 A7",
          "A card carried above its arrival square by a higher rank ends the game there and scores its value.",
          "Does a card above its arrival square score?",
          _above_arrival, players=3,
          claims=(
              claim("{card} ends on square {square} of column {column}, above its arrival square {arrival}: it counts +{value} for seat {column}, whose score {score} is its column's {board:+d} less {penalty} for removed cards (A15, A16).",
                    _scored_as_counted, lambda g: _card_values(_carried(g), g)),
          )),
    whole("ascent-removed-penalty", "A16 A13",
          "A card removed in the upper half counts minus its value at the end for the player of the column it was removed from (penalty_to=column, the default), whoever owned it.",
          "Do removed cards cost points?",
          _removed_at_end, players=(5, 4, 3), guide="favours", budget=600, show=_removal,
          claims=(
              claim("Move {ply}: seat {seat} plays {move}, and {cards} {leave} the board from column {column} (A13); owned by: {owners}.",
                    lambda g: bool(_removed_by(_removal(g))[1]), _penalty_values),
              claim("At the end they count against seat {column}, the player of that column: its score {score} is its column's {board:+d} less {penalty} for its removed cards (A15, A16).",
                    _penalty_to_column, _penalty_values),
          )),
    whole("ascent-below-arrival", "A16 A15",
          "A card still below its arrival square at the end counts minus its value.",
          "Do cards that never arrived cost points?",
          _below_arrival, players=3,
          claims=(
              claim("{card} ends on square {square} of column {column}, below its arrival square {arrival}: it counts -{value} for seat {column}, whose score {score} is its column's {board:+d} less {penalty} for removed cards (A15, A16).",
                    _scored_as_counted, lambda g: _card_values(_short(g), g)),
          )),
    step("ascent-winner", "A17",
         "The most points wins.",
         "Who wins?",
         lambda m: m.says("wins.", "A17"), players=3),
    step("ascent-tie", "A17 A16",
         "Players with the same highest score share the win.",
         "What if two players tie?",
         lambda m: m.says("share the win", "A17"), players=3),
    # ------------------------------------------------------------------ material (A18)
    step("ascent-die-first-player", "A18 A3",
         "The die decides who begins: here not seat 0.",
         "Who begins?",
         lambda m: m.ply == 1 and m.seat != 0, players=3),
    # ------------------------------------------------------------------ readings
    reading("ascent-reading-die", "A18",
            "Who begins: the die (default) or always seat 0 (die=none).",
            "Do we roll for the first player?",
            {"die": "none"}, players=3),
    reading("ascent-reading-exposing-split", "A7",
            "A split that leaves a card exposed above its ceiling: refused (default) or allowed.",
            "May I leave a card exposed when I split a stack?",
            {"allow_exposing_split": True}, players=3, guide="favours"),
    reading("ascent-reading-generous", "A10",
            "One favour per Advance (default) or as many as the row offers (GENEROUS).",
            "May one Advance take several favours?",
            "GENEROUS", players=3, guide="favours"),
    reading("ascent-reading-favour-after-arrival", "A10 A8",
            "A stack flipped on arrival still takes a favour (default), or not.",
            "Does a stack that has just arrived take a favour?",
            {"favour_after_arrival": False}, players=3, guide="favours"),
    reading("ascent-reading-upper-half", "A13",
            "Where the upper half begins: square 4 (default) or 5.",
            "Is square 4 in the upper half?",
            {"upper_half": 5}, players=(5, 4, 3), guide="favours", budget=600),
    reading("ascent-reading-flip-uncovered", "A8 A9",
            "A card left uncovered on its own arrival square, carried there under a higher one, stays unflipped (default), or turns over (flip_uncovered=true).",
            "Does a card left on its arrival square when the card above it moves on turn over?",
            {"flip_uncovered": True}, players=3, guide="favours"),
    reading("ascent-reading-harsh", "A13",
            "Removal in the upper half only (default) or on the whole path (HARSH).",
            "Are exposed cards removed in the lower half too?",
            "HARSH", players=(5, 4, 3), guide="favours", budget=600),
    reading("ascent-reading-replays-per-turn", "A12 A10",
            "After each favour the player may play again, as often as favours come (default), or once per turn (replays_per_turn=1): then a second replay is refused.",
            "May I play again after the favour my replay took?",
            {"replays_per_turn": 1}, players=3, guide="favours"),
    reading("ascent-reading-stack-rank", "A3 A6 A7",
            "A stack acts with its top card's rank (default), or with its highest rank (stack_rank=highest): then a higher card anywhere in it protects the others.",
            "Is a card above its ceiling protected by a higher card under it?",
            {"stack_rank": "highest"}, players=3, guide="favours"),
    reading("ascent-reading-favour-takes", "A10",
            "A favour takes any top part of a stack whose top ranks lower (default), or only a part whose every card ranks lower (favour_takes=all_lower).",
            "May my Lady take a Charlatan-topped stack that holds a Lady?",
            {"favour_takes": "all_lower"}, players=3, guide="favours"),
    reading("ascent-reading-penalty-to", "A13 A16",
            "Removed cards count against the player of their column (default), or against each card's owner at setup (penalty_to=owner).",
            "Whose penalty is a card removed from someone else's column?",
            {"penalty_to": "owner"}, _other_owner, players=(5, 4, 3), guide="favours", budget=600),
    reading("ascent-reading-end-test", "A14 A15",
            "A card carried past its arrival square has reached it (default), or, unflipped, still keeps its player in the game (end_test=unflipped).",
            "Does a card left unflipped above its arrival square keep its player in the game?",
            {"end_test": "unflipped"}, _ends_one, players=3, guide="favours"),
    reading("ascent-reading-end-test-literal", "A14",
            "The game ends when at most one player has cards below their arrival squares (default), or at most one can move now (end_test=can_move).",
            "Is a player whose cards are blocked for the moment still in the game?",
            {"end_test": "can_move"}, _ends_one, players=3),
    reading("ascent-reading-deal", "A18 A2",
            "Each player gets one set of the six ranks (default), or the 36 cards are shuffled and dealt evenly (deal=shuffled): a player may hold two cards of a rank and none of another.",
            "Does every player get one card of each rank?",
            {"deal": "shuffled"}, players=3,
            claims=(
                claim("Under deal=shuffled seat {seat} was dealt {count} cards of one rank, {rank}s ({cards}), and no {missing}.",
                      lambda s: _two_of_a_rank(s) is not None,
                      lambda s: _two_of_a_rank(s) or {}),
            )),
    reading("ascent-reading-path", "A5 A1",
            "One Start below a path of 7 squares, the arrival squares on it (default), or every character travels 7 squares from a start row of its own rank (path=staggered): a Prince leaves from row 5 for square 12.",
            "Does a Fire-eater travel as far as a Prince?",
            {"path": "staggered"}, _legal_under_one, players=3, guide="low-from-start"),
    reading("ascent-reading-last-player", "A14",
            "The game ends when one player is left with cards to move (default), or that player plays on.",
            "Does the last player with cards to move play on alone?",
            {"last_player_continues": True}, players=3),
)  # fmt: skip
