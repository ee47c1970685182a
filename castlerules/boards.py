"""Text pictures of a position (``castlerules play``, PettingZoo's ``ansi`` render), showing only
what a seat may know.

Throne is drawn from ``observation(state, seat)`` (the castle, the No
counts that are public, the seat's own objective and vote), so a hidden fact
cannot leak into the picture.  Ascent has no hidden information.
"""

from __future__ import annotations

from typing import Any

from castlerules import ascent, throne
from castlerules.throne.rules import FLOOR_NAMES


def board(module: Any, state: Any, seat: int | None) -> str:
    """The picture of ``state`` for ``seat`` (``None``: a spectator, public facts only)."""
    if module is throne:
        return throne_board(state, seat)
    return ascent_board(state)


def _viewer(state: Any, seat: int | None) -> int:
    return 0 if seat is None else seat


def throne_board(state: Any, seat: int | None) -> str:
    """Throne for one seat: round, phase, castle, No cards, totals, the seat's objective."""
    obs = throne.observation(state, _viewer(state, seat))
    rules = obs.rules
    letters = rules.letters()
    lines = []
    turn = "game over" if obs.turn is None else f"seat {obs.turn} to play"
    lines.append(f"Throne, round {obs.round} of {rules.rounds}, {obs.phase} phase, {turn}")
    width = max(len(n) for n in FLOOR_NAMES)
    for floor in range(rules.floors, 0, -1):
        here = " ".join(c for i, c in enumerate(letters) if obs.floors[i] == floor)
        cap = rules.capacity(floor)
        lines.append(f"  {floor} {FLOOR_NAMES[floor]:<{width}} [{cap}] | {here}".rstrip())
    waiting = "".join(c for i, c in enumerate(letters) if obs.floors[i] == 0)
    out = "".join(c for i, c in enumerate(letters) if obs.floors[i] < 0)
    if waiting and obs.phase != "over":
        lines.append(f"  not placed yet: {' '.join(waiting)}")
    if out:
        lines.append(f"  eliminated this round: {' '.join(out)}")
    counts = [
        f"seat {i}: {'?' if n is None else n}"
        for i, n in enumerate(obs.no_cards)
        if seat is None or n is not None
    ]
    if counts and ((seat is None and rules.no_cards_public) or seat is not None):
        lines.append("  No cards left: " + ", ".join(counts))
    totals = [sum(r[i] for r in obs.round_scores) for i in range(obs.players)]
    lines.append("  totals: " + ", ".join(f"seat {i}: {t}" for i, t in enumerate(totals)))
    if obs.phase == "election":
        voted = [i for i, v in enumerate(obs.voted) if v]
        candidate = next((c for i, c in enumerate(letters) if obs.floors[i] == rules.floors), "?")
        lines.append(
            f"  election of {candidate}: voted so far: "
            + (", ".join(f"seat {i}" for i in voted) or "nobody")
        )
    if seat is not None and obs.phase != "over":
        mine = "".join(sorted(obs.objective))
        worth = sum(
            rules.points_of(obs.floors[letters.index(c)])
            for c in mine
            if obs.floors[letters.index(c)] > 0
        )
        lines.append(f"Your objective (seat {seat}, secret): {' '.join(mine)}, worth {worth} now")
        if obs.vote is not None:
            lines.append(f"Your vote (secret until all have voted): {'yes' if obs.vote else 'no'}")
    return "\n".join(lines)


def _stack(cards: tuple[Any, ...], flipped: bool) -> str:
    text = "/".join(str(c) for c in cards)
    return f"{text}*" if flipped and cards else text


def ascent_board(state: Any) -> str:
    """Ascent: every column, top square first, stacks written top card first."""
    players = len(ascent.scores(state))
    rules = state.rules
    header = ["square"] + [f"seat {p}" for p in range(players)]
    rows: list[list[str]] = []
    for square in range(rules.squares, -1, -1):
        row = ["Start" if square == 0 else str(square)]
        for column in range(players):
            cards = ascent.stack_at(state, column, square)
            if square == 0:
                row.append(" ".join(str(c) for c in cards) or "-")
            else:
                flipped = bool(cards) and ascent.is_flipped(state, cards[0])
                row.append(_stack(cards, flipped) or ".")
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    current = ascent.current_player(state)
    turn = "game over" if current is None else f"seat {current} to play"
    lines = [f"Ascent, {turn} (a stack is written top card first; * flipped)"]
    for row in [header, *rows]:
        cells = (cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        lines.append(("  " + "  ".join(cells)).rstrip())
    lost = [
        f"seat {p}: {' '.join(str(c) for c in ascent.removed(state, p))}"
        for p in range(players)
        if ascent.removed(state, p)
    ]
    if lost:
        lines.append("  removed: " + "; ".join(lost))
    scores = ascent.scores(state)
    lines.append("  scores now: " + ", ".join(f"seat {i}: {s}" for i, s in enumerate(scores)))
    return "\n".join(lines)
