"""An Ascent position as an SVG picture: columns, stacks in order, flipped cards, arrivals.

:func:`svg` draws any :class:`~castlerules.ascent.State` through the public
queries only (``stack_at``, ``is_flipped``, ``removed``, ``scores``...):

- one column per seat (A2), the Start at the bottom and the path squares
  1..7 above it (A5), the seat to act marked;
- every stack with its cards in order, top card on top (A3), each card
  named by its rank letter and set (``L1``: the Lady of set 1) and tinted by
  its set; flipped cards (A8) greyed with a folded corner; a card standing
  above its own arrival square, protected inside its stack (A7), marked with
  an arrow;
- on the left, each square's number and the rank whose arrival square it is
  (A6, A9), and the upper half of the board shaded (A13);
- under each column, the cards removed from it (A13) and its score (A15, A16);
- mid-turn, the stack just moved (the one that may take a favour, A11) bracketed.

The package exports it as ``ascent.svg(state)``, as ``chess.svg`` draws a chess board.

>>> from castlerules import ascent
>>> picture = ascent.svg(ascent.new_game(players=3, seed=7))
>>> picture.count('class="card') == 18
True

The result is a complete, well-formed SVG document (a string); the same
position always gives the same text.
"""

from __future__ import annotations

from collections.abc import Iterable

from castlerules.ascent.rules import Rank
from castlerules.ascent.state import Card, State, is_flipped, removed, stack_at
from castlerules.ascent.transitions import current_player, pending_favour, scores, winners
from castlerules.core import svg as draw
from castlerules.core.protocol import require

__all__ = ["svg"]

_AXIS = 112
_COLUMN = 108
_CARD_W = 90
_CARD_H = 16
_GAP = 2
_TOP = 62
_INK = "#26303b"
_MUTED = "#66707a"
_GRID = "#c9cfd6"
_UPPER = "#fff3d1"
# Per set: the strong colour (strip) and a light tint (card body); Paul Tol's bright scheme.
_SETS = (
    ("#4477aa", "#d5e2f1"),
    ("#ee6677", "#fadadf"),
    ("#228833", "#d0ebd4"),
    ("#ccbb44", "#f3efc9"),
    ("#66ccee", "#d6f0f9"),
    ("#aa3377", "#ecd1e0"),
)


def svg(
    state: State,
    *,
    highlight: Iterable[Card] = (),
    caption: str | None = None,
) -> str:
    """The position as an SVG document (a string).

    ``highlight``: cards to outline (for example the card that just moved).
    ``caption``: a line of text under the picture.  Raises
    :class:`~castlerules.core.ArgumentError` for an argument of the wrong type.
    """
    require(state, State, "state")
    if caption is not None:
        require(caption, str, "caption")
    rules = state.rules
    players = state.players
    marked = frozenset(highlight)
    arrival_rank = {rules.arrival_of(rank): rank for rank in Rank}
    current = current_player(state)
    mid_turn = pending_favour(state)
    step = state.step if mid_turn else None

    stacks = [
        [stack_at(state, column, square) for square in range(rules.squares + 1)]
        for column in range(players)
    ]
    heights = [
        max(
            44,
            # 7 above the stack, 18 below it for the arrival badge.
            25 + max(len(stacks[c][sq]) for c in range(players)) * (_CARD_H + _GAP),
        )
        for sq in range(rules.squares + 1)
    ]
    start_lines = max((len(stacks[c][0]) + 1) // 2 for c in range(players))
    heights[0] = max(44, 14 + start_lines * (_CARD_H + _GAP))
    tops: dict[int, float] = {}
    y = float(_TOP)
    for sq in range(rules.squares, -1, -1):
        tops[sq] = y
        y += heights[sq]
    board_bottom = y
    removed_lines = max(1, *(len(removed(state, c)) for c in range(players)))
    headline = _headline(state)
    # Wide enough for the columns, and for the headline (about 8.5 units a letter).
    width = max(_AXIS + players * _COLUMN + 12, 24 + round(8.5 * len(headline)))
    height = board_bottom + 34 + removed_lines * (_CARD_H + _GAP) + 26 + (24 if caption else 4)

    body: list[str] = [
        draw.rect(0, 0, width, height, fill="#fcfdff"),
        draw.label(12, 24, headline, font_size=15, font_weight="bold", fill=_INK),
    ]

    # The upper half (A13), behind everything.
    upper = [sq for sq in range(1, rules.squares + 1) if rules.in_upper_half(sq)]
    if upper:
        band_top = tops[max(upper)]
        band_bottom = tops[min(upper)] + heights[min(upper)]
        body.append(
            draw.group(
                [
                    draw.title(f"the upper half of the board: squares {min(upper)} and above"),
                    draw.rect(6, band_top, width - 12, band_bottom - band_top, fill=_UPPER, rx=4),
                    draw.label(
                        18,
                        band_bottom - 6,
                        "upper half (A13)",
                        font_size=10,
                        fill="#9a7a1c",
                        font_style="italic",
                        transform=f"rotate(-90 18 {draw.number(band_bottom - 6)})",
                    ),
                ],
                class_="upper-half",
                data_from=min(upper),
            )
        )

    # The axis: square numbers and arrival squares.
    for sq in range(rules.squares, -1, -1):
        y0 = tops[sq]
        parts = [draw.line(6, y0, width - 6, y0, stroke=_GRID)]
        if sq == 0:
            parts.append(draw.label(14, y0 + 26, "Start", font_size=13, fill=_INK))
        else:
            parts.append(
                draw.label(
                    _AXIS - 70, y0 + 28, str(sq), font_size=16, font_weight="bold", fill=_INK
                )
            )
        rank = arrival_rank.get(sq)
        if rank is not None:
            parts.append(
                draw.label(
                    _AXIS - 52,
                    y0 + 28,
                    f"arrival {rank.letter}",
                    font_size=10,
                    fill=_MUTED,
                )
            )
        body.append(
            draw.group(
                parts,
                class_="row arrival" if rank is not None else "row",
                data_square=sq,
                data_arrival=rank.letter if rank is not None else None,
            )
        )
    body.append(draw.line(6, board_bottom, width - 6, board_bottom, stroke=_GRID))

    for column in range(players):
        x0 = _AXIS + column * _COLUMN
        body.append(
            _column(
                state,
                column,
                x0=x0,
                squares=stacks[column],
                tops=tops,
                heights=heights,
                arrival_rank=arrival_rank,
                marked=marked,
                to_act=current == column,
                step=step if current == column else None,
                board_bottom=board_bottom,
            )
        )

    if caption:
        body.append(draw.label(12, height - 10, caption, font_size=12, fill=_MUTED))
    return draw.document(
        width,
        height,
        body,
        title=f"Ascent position: {_headline(state)}",
        description=_describe(state, stacks),
        class_="castlerules-board ascent-board",
        data_game="ascent",
    )


def _headline(state: State) -> str:
    current = current_player(state)
    if current is None:
        best = winners(state)
        who = ", ".join(str(s) for s in best)
        return f"Ascent, game over: {'winner' if len(best) == 1 else 'winners'} seat {who}"
    if pending_favour(state):
        return f"Ascent, seat {current} to act: favour or replay (A10-A12)"
    return f"Ascent, seat {current} to act"


def _describe(state: State, stacks: list[list[tuple[Card, ...]]]) -> str:
    parts = []
    for column, squares in enumerate(stacks):
        held = [
            f"{sq}: {' '.join(str(c) for c in cards)}"
            for sq, cards in enumerate(squares)
            if cards and sq > 0
        ]
        parts.append(f"column {column}: " + ("; ".join(held) if held else "nothing on the path"))
    return ". ".join(parts)


def _column(
    state: State,
    column: int,
    *,
    x0: float,
    squares: list[tuple[Card, ...]],
    tops: dict[int, float],
    heights: list[int],
    arrival_rank: dict[int, Rank],
    marked: frozenset[Card],
    to_act: bool,
    step: tuple[int, int, int] | None,
    board_bottom: float,
) -> str:
    strong, _tint = _SETS[column % len(_SETS)]
    parts: list[str] = [
        draw.rect(x0 + 4, _TOP - 22, _COLUMN - 8, 18, rx=3, fill=strong if to_act else "#eef1f4"),
        draw.label(
            x0 + _COLUMN / 2,
            _TOP - 9,
            f"Seat {column}" + (" to act" if to_act else ""),
            font_size=12,
            font_weight="bold",
            text_anchor="middle",
            fill="#ffffff" if to_act else _INK,
        ),
        draw.line(x0, _TOP, x0, board_bottom, stroke=_GRID),
    ]
    for sq, cards in enumerate(squares):
        y0 = tops[sq]
        if sq > 0 and sq in arrival_rank:
            rank = arrival_rank[sq]
            parts.append(
                draw.group(
                    [
                        draw.title(f"square {sq} is the arrival square of the {rank.title} (A6)"),
                        draw.rect(
                            x0 + _COLUMN - 17,
                            y0 + heights[sq] - 15,
                            13,
                            12,
                            rx=3,
                            fill="#e3e7ec",
                        ),
                        draw.label(
                            x0 + _COLUMN - 10.5,
                            y0 + heights[sq] - 5.5,
                            rank.letter,
                            font_size=9,
                            text_anchor="middle",
                            fill=_MUTED,
                        ),
                    ],
                    class_="arrival-square",
                    data_column=column,
                    data_square=sq,
                    data_rank=rank.letter,
                )
            )
        if sq == 0:
            for k, card in enumerate(cards):
                cx = x0 + 8 + (k % 2) * (_CARD_W / 2 + 2)
                cy = y0 + 7 + (k // 2) * (_CARD_H + _GAP)
                parts.append(
                    _card(
                        state,
                        card,
                        x=cx,
                        y=cy,
                        width=_CARD_W / 2 - 1,
                        square=sq,
                        marked=marked,
                        short=True,
                    )
                )
            continue
        for k, card in enumerate(cards):
            cy = y0 + 7 + k * (_CARD_H + _GAP)
            parts.append(
                _card(
                    state,
                    card,
                    x=x0 + 8,
                    y=cy,
                    width=_CARD_W,
                    square=sq,
                    marked=marked,
                    short=False,
                )
            )
        if step is not None and step[0] == sq and cards:
            moved = min(step[1], len(cards))
            top = y0 + 6
            bottom = y0 + 6 + moved * (_CARD_H + _GAP)
            parts.append(
                draw.group(
                    [
                        draw.title("the stack just moved: it alone may take a favour (A11)"),
                        draw.line(x0 + 4, top, x0 + 4, bottom, stroke="#e07b00", stroke_width=3),
                    ],
                    class_="just-moved",
                    data_square=sq,
                    data_cards=moved,
                )
            )
    # Under the column: removed cards (A13) and the score (A15, A16).
    y = board_bottom + 16
    gone = removed(state, column)
    parts.append(draw.label(x0 + 6, y, "removed (A13):", font_size=10, fill=_MUTED))
    if not gone:
        parts.append(draw.label(x0 + 6, y + 14, "none", font_size=10, fill=_MUTED))
    for k, card in enumerate(gone):
        parts.append(
            _card(
                state,
                card,
                x=x0 + 8,
                y=y + 4 + k * (_CARD_H + _GAP),
                width=_CARD_W,
                square=None,
                marked=marked,
                short=False,
            )
        )
    points = scores(state)[column]
    lines = max(1, len(gone))
    parts.append(
        draw.label(
            x0 + 6,
            y + 18 + lines * (_CARD_H + _GAP),
            f"score {points:+d}",
            font_size=12,
            font_weight="bold",
            fill=_INK,
            class_="score",
        )
    )
    return draw.group(parts, class_="column current" if to_act else "column", data_column=column)


def _card(
    state: State,
    card: Card,
    *,
    x: float,
    y: float,
    width: float,
    square: int | None,
    marked: frozenset[Card],
    short: bool,
) -> str:
    strong, tint = _SETS[card.owner % len(_SETS)]
    flipped = square is not None and is_flipped(state, card)
    ceiling = state.rules.arrival_of(card.rank)
    above = square is not None and square > ceiling
    classes = ["card"]
    what = f"{card}: the {card.rank.title} of set {card.owner}"
    if square is None:
        classes.append("removed")
        what += ", removed (A13)"
    elif square == 0:
        what += ", on the Start"
    else:
        what += f", square {square} (arrival square {ceiling})"
    if flipped:
        classes.append("flipped")
        what += ", flipped (A8)"
    if above:
        classes.append("above-ceiling")
        what += ", above its arrival square (A7)"
    if card in marked:
        classes.append("highlight")
    parts = [
        draw.title(what),
        draw.rect(
            x,
            y,
            width,
            _CARD_H,
            rx=2,
            fill="#d4d6d9" if flipped else tint,
            stroke="#e07b00" if card in marked else strong,
            stroke_width=2.5 if card in marked else 1,
        ),
        draw.rect(x, y, 5, _CARD_H, fill=strong),
        draw.label(
            x + 8,
            y + 12,
            str(card),
            font_size=11,
            font_weight="bold",
            fill=_INK,
        ),
    ]
    if not short:
        parts.append(
            draw.label(
                x + 28,
                y + 12,
                card.rank.title,
                font_size=10,
                fill=_INK,
                font_style="italic" if flipped else None,
            )
        )
    if flipped:
        parts.append(
            draw.polygon(
                [(x + width, y), (x + width - 9, y), (x + width, y + 9)],
                fill="#555b62",
            )
        )
    if above:
        ax = x + width + 5  # just right of the card
        parts.append(
            draw.polygon(
                [(ax - 4, y + 13), (ax + 4, y + 13), (ax, y + 3)],
                fill="#c2410c",
            )
        )
    return draw.group(
        parts,
        class_=" ".join(classes),
        data_card=str(card),
        data_square=square,
    )
