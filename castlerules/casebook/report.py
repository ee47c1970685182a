"""A case in plain text: what the command line prints and the documentation shows."""

from __future__ import annotations

from typing import Any

from castlerules.casebook.check import Shown
from castlerules.casebook.declare import Case, Game, Moment, Refusal, Split

__all__ = [
    "focus_lines",
    "highlight",
    "outcome_lines",
    "referee_lines",
    "rules_line",
    "summary",
]


def rules_line(case: Case, which: int = 0) -> str:
    """The reading(s) of a case, as Python code."""
    return case.rules_code(which)


def summary(shown: Shown) -> str:
    """One line: the game, players, seed and length, and how it was found."""
    found = shown.found
    return (
        f"{shown.case.game}, {found.players} players, seed {found.seed}, "
        f"{found.plies} plies; {found.how}"
    )


def outcome_lines(result: Moment | Refusal | None, indent: str = "  ") -> list[str]:
    """What a move did (its events), or the engine's refusal."""
    if isinstance(result, Moment):
        return [f"{indent}{e}" for e in result.events]
    if isinstance(result, Refusal):
        return [f"{indent}refused: {result.error}"]
    return [f"{indent}not a move here"]


def focus_lines(shown: Shown) -> list[str]:
    """What the case shows, in the engine's own words."""
    case, focus = shown.case, shown.focus
    out: list[str] = []
    if isinstance(focus, Moment):
        out.append(f"move {focus.ply}: seat {focus.seat} plays {focus.text}")
        out += outcome_lines(focus)
    elif isinstance(focus, Game):
        shown_move = shown.moment or focus.moments[-1]
        last = focus.moments[-1]
        if shown_move is not last:
            out.append(f"move {shown_move.ply}: seat {shown_move.seat} plays {shown_move.text}")
            out += outcome_lines(shown_move)
        out.append(f"the game ends with move {last.ply}: seat {last.seat} plays {last.text}")
        out += outcome_lines(last)
        module = case.module
        out.append(
            f"  final scores {list(module.scores(focus.final))}, "
            f"winners {list(module.winners(focus.final))}"
        )
    elif isinstance(focus, Refusal):
        seat = case.module.current_player(focus.before)
        who = "after the game" if seat is None else f"seat {seat} tries"
        out.append(f"after move {focus.ply}, {who} {focus.text}:")
        out += outcome_lines(focus)
    elif isinstance(focus, Split):
        played = len(shown.found.moves)
        where = f"after move {played}" if played else "at the start"
        subject = f"{focus.move}" if focus.move is not None else f"the position ({focus.kind})"
        out.append(f"{where}, the readings part on {subject}:")
        for which, (result, text) in enumerate(
            ((focus.first, focus.first_text), (focus.second, focus.second_text))
        ):
            out.append(f"  {case.reading_label(which)}:")
            if focus.move is not None:
                out += outcome_lines(result, "    ")
            else:
                out.append(f"    {text}")
    out += [f"  so: {line}" for line in shown.details]
    out += [f"  checked on this game: {line}" for line in shown.claims]
    return out


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) or "none"


def _throne_view(state: Any) -> list[str]:
    from castlerules import throne

    seats = range(state.players)
    turn = throne.current_player(state)
    out = [
        f"round {throne.round_of(state)}, {throne.phase(state)} phase, "
        + ("the game is over" if turn is None else f"seat {turn} to act")
    ]
    if turn is not None:
        out.append(
            f"objectives of round {throne.round_of(state)}: "
            + "; ".join(f"seat {s} {''.join(sorted(throne.objective(state, s)))}" for s in seats)
        )
        dealt = state.rules.no_cards[state.players - 3]
        out.append(
            f"No cards left (of {dealt} dealt a round): "
            + ", ".join(f"seat {s} {throne.no_cards(state, s)}" for s in seats)
        )
    if state.results:
        totals = throne.totals(state)
        out.append("totals so far: " + ", ".join(f"seat {s} {t}" for s, t in enumerate(totals)))
    return out


def _ascent_view(state: Any) -> list[str]:
    from castlerules import ascent

    seats = range(state.players)
    rules = state.rules
    out = []
    if rules.deal == "sets" and rules.cards is None:
        out.append("hands (deal=sets): seat p was dealt set p, one card of each rank")
    else:
        dealt: dict[int, list[Any]] = {seat: [] for seat in seats}
        for card in (ascent.Card(owner, rank) for owner in range(6) for rank in ascent.Rank):
            try:
                dealt[ascent.owner_of(state, card)].append(card)
            except (ValueError, KeyError, IndexError):  # a card out of play
                continue
        hands = [f"seat {seat} {_cards(cards)}" for seat, cards in dealt.items()]
        out.append(f"hands (deal={rules.deal}): " + "; ".join(hands))
    gone = [(q, ascent.removed(state, q)) for q in seats]
    if any(cards for _, cards in gone):
        out.append(
            f"removed cards (penalty_to={rules.penalty_to}): "
            + "; ".join(
                f"seat {q} {_cards(cards)} (-{sum(c.rank.value for c in cards)})"
                for q, cards in gone
                if cards
            )
        )
    if ascent.is_over(state):
        scores = ascent.scores(state)
        out.append("scores: " + ", ".join(f"seat {q} {v}" for q, v in enumerate(scores)))
    return out


def referee_lines(shown: Shown) -> list[str]:
    """The referee's view of the position a case is about, read from the engine: Throne's
    objectives, No cards and totals; Ascent's hands (who was dealt which card) and removed
    cards; under each reading where the two differ."""
    case = shown.case
    view = _throne_view if case.game == "throne" else _ascent_view
    moment = shown.moment
    before = moment.before if moment is not None else shown.before
    first = view(before)
    if case.kind != "reading" or not shown.second_states:
        return first
    second = view(shown.second_states[-1])
    if second == first:
        return first
    return [
        *(f"{case.reading_label(0)}: {line}" for line in first),
        *(f"{case.reading_label(1)}: {line}" for line in second),
    ]


def highlight(module: Any, text: str | None) -> dict[str, Any]:
    """The ``svg()`` keyword that outlines the piece a move names (nothing for votes, end)."""
    from castlerules import ascent, throne

    if not text:
        return {}
    if module is throne:
        return {"highlight": (text[0],)} if text[:1].isalpha() and text[:1].isupper() else {}
    card = text.removeprefix("x")
    if len(card) == 2 and card[1].isdigit() and card[0] in "PBLCTF":
        return {"highlight": (ascent.Card(int(card[1]), ascent.Rank.from_letter(card[0])),)}
    return {}


def diagrams(shown: Shown) -> list[tuple[str, Any, dict[str, Any]]]:
    """The boards to draw: (caption, position, ``svg()`` keywords), before then after."""
    case, focus = shown.case, shown.focus
    module = case.module
    extra: dict[str, Any] = {}
    if case.seat is not None and case.game == "throne":
        extra["seat"] = case.seat
    if isinstance(focus, Moment | Game):
        last = shown.moment or (focus if isinstance(focus, Moment) else focus.moments[-1])
        mark = {**extra, **highlight(module, last.text)}
        return [
            (f"Before move {last.ply} ({last.text})", last.before, mark),
            (f"After move {last.ply} ({last.text})", last.after, mark),
        ]
    if isinstance(focus, Refusal):
        mark = {**extra, **highlight(module, focus.text)}
        return [(f"Refused here: {focus.text}", focus.before, mark)]
    assert isinstance(focus, Split)
    mark = {**extra, **highlight(module, focus.move)}
    first = f"Before {focus.move}" if focus.move else f"The position, {case.reading_label(0)}"
    out = [(first, focus.before[0], mark)]
    for which, result in enumerate((focus.first, focus.second)):
        label = case.reading_label(which)
        if isinstance(result, Moment):
            out.append((f"After {focus.move}, {label}", result.after, mark))
        elif isinstance(result, Refusal):
            out.append((f"{label}: {focus.move} refused", result.before, mark))
        elif which == 1:
            out.append((f"The same position, {label}", focus.before[1], mark))
    return out
