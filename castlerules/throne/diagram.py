"""A Throne position as an SVG picture: the castle, its floors, the characters, the king.

:func:`svg` draws any :class:`~castlerules.throne.State` through the public
queries only, so the picture shows exactly what the engine holds:

- the seven floors (B1, B2) with their names, their points (B14) and one slot
  per place a floor holds (B7), the throne on top with its single slot;
- each placed character as a token with its letter; the candidate of an
  election (B10) outlined in red; the king (B12) in gold with a crown, on the
  throne of a finished game;
- the characters not yet placed (B6) and those eliminated this round (B13),
  struck through, beside the castle;
- per seat: its No cards (B11), its total (B16) and its favourites of the
  round (B4), with the seat to act marked.

The package exports it as ``throne.svg(state)``, as ``chess.svg`` draws a chess board.

>>> from castlerules import throne
>>> picture = throne.svg(throne.new_game(players=4, seed=7))
>>> picture.startswith("<svg") and picture.endswith("</svg>")
True
>>> 'data-character="A"' in picture
True

The result is a complete, well-formed SVG document (a string): write it to a
``.svg`` file, inline it in HTML, or show it in a notebook.  The same
position always gives the same text.
"""

from __future__ import annotations

from collections.abc import Iterable

from castlerules.core import svg as draw
from castlerules.core.protocol import require
from castlerules.throne.rules import FLOOR_NAMES
from castlerules.throne.state import State
from castlerules.throne.transitions import (
    candidate,
    current_player,
    floor_of,
    is_eliminated,
    is_over,
    king,
    no_cards,
    objective,
    phase,
    round_of,
    totals,
)

__all__ = ["svg"]

_ROW = 46
_SLOT = 44
_TOKEN = 16
_LABELS = 150
_TOP = 44
_INK = "#3b3226"
_STONE = "#e9e1cf"
_STONE_DARK = "#cbbd9c"
_THRONE = "#f3d9a4"
_GOLD = "#f2c230"
_RED = "#b3261e"
_FAVOURITE = "#1f6f8b"


def svg(
    state: State,
    *,
    seat: int | None = None,
    highlight: Iterable[str] = (),
    caption: str | None = None,
    secrets: bool = True,
) -> str:
    """The position as an SVG document (a string).

    ``seat``: mark that seat's favourites on the board (a blue ring) and its
    line in the seat table.  ``secrets=False`` draws what every seat at the
    table may see: no seat's favourites (B4) and, unless the rules make them
    public, no seat's count of No cards (B11); ``seat`` then marks only that
    seat's line.  ``highlight``: characters to outline (for
    example the one that just moved).  ``caption``: a line of text under
    the picture.  Raises :class:`~castlerules.core.ArgumentError` for an
    unknown seat or character.
    """
    require(state, State, "state")
    if caption is not None:
        require(caption, str, "caption")
    rules = state.rules
    letters = rules.letters()
    top = rules.throne_floor
    require(secrets, bool, "secrets")
    shown_seat = seat if secrets else None
    chosen: frozenset[str] = objective(state, shown_seat) if shown_seat is not None else frozenset()
    if seat is not None and not secrets:
        objective(state, seat)  # an unknown seat is an ArgumentError all the same
    marked = frozenset(highlight)
    for letter in sorted(marked):
        floor_of(state, letter)  # an unknown letter is an ArgumentError
    capacity = max(rules.capacity(f) for f in range(1, top))
    castle_width = capacity * _SLOT + 24
    castle_left = _LABELS + 12
    panel_left = castle_left + castle_width + 24
    panel_width = 250
    width = panel_left + panel_width + 12
    floors_bottom = _TOP + top * _ROW
    seats_top = floors_bottom + 30
    height = seats_top + 22 + 20 * state.players + (26 if caption else 8)

    over = is_over(state)
    on_throne = candidate(state)
    crowned = king(state) if over else None
    body: list[str] = [
        draw.rect(0, 0, width, height, fill="#fffdf8"),
        draw.label(12, 24, _headline(state), font_size=15, font_weight="bold", fill=_INK),
    ]

    # The castle, top floor (the throne) first.
    by_floor: dict[int, list[str]] = {}
    for letter in letters:
        f = floor_of(state, letter)
        if f is not None:
            by_floor.setdefault(f, []).append(letter)
    for f in range(top, 0, -1):
        y = _TOP + (top - f) * _ROW
        slots = rules.capacity(f)
        is_throne = f == top
        row_width = slots * _SLOT + 24
        x0 = castle_left + (castle_width - row_width) / 2
        items: list[str] = [
            draw.rect(
                x0,
                y + 2,
                row_width,
                _ROW - 4,
                rx=4,
                fill=_THRONE if is_throne else _STONE,
                stroke=_STONE_DARK,
                stroke_width=1.5,
            ),
            draw.title(_floor_title(f, rules.points_of(f), slots, is_throne)),
        ]
        if is_throne:
            items.append(_crenellations(x0, y + 2, row_width))
        for k in range(slots):
            cx = x0 + 12 + _SLOT / 2 + k * _SLOT
            items.append(
                draw.circle(
                    cx,
                    y + _ROW / 2,
                    _TOKEN + 2,
                    fill="none",
                    stroke=_STONE_DARK,
                    stroke_dasharray="3 3",
                    class_="slot",
                )
            )
        for k, letter in enumerate(by_floor.get(f, [])):
            cx = x0 + 12 + _SLOT / 2 + k * _SLOT
            role = "character"
            if is_throne and letter == crowned:
                role = "character king"
            elif is_throne and letter == on_throne:
                role = "character candidate"
            items.append(
                _token(
                    cx,
                    y + _ROW / 2,
                    letter,
                    role=role,
                    f=f,
                    favourite=letter in chosen,
                    marked=letter in marked,
                )
            )
        name = FLOOR_NAMES[f] if f < len(FLOOR_NAMES) else ""
        points = rules.points_of(f)
        body.append(
            draw.group(
                [
                    draw.label(12, y + 21, f"{f} {name}", font_size=13, fill=_INK),
                    draw.label(
                        12,
                        y + 37,
                        f"{points} point{'s' if points != 1 else ''} · holds {slots}",
                        font_size=11,
                        fill="#6b5d45",
                    ),
                ],
                class_="floor-label",
            )
        )
        body.append(
            draw.group(
                items,
                class_="floor throne" if is_throne else "floor",
                data_floor=f,
                data_capacity=slots,
                data_count=len(by_floor.get(f, [])),
            )
        )
    body.append(
        draw.rect(castle_left - 6, floors_bottom, castle_width + 12, 8, fill=_STONE_DARK, rx=2)
    )

    # Beside the castle: characters not placed yet, and eliminated ones.
    waiting = [x for x in letters if floor_of(state, x) is None and not is_eliminated(state, x)]
    gone = [x for x in letters if is_eliminated(state, x)]
    y = _TOP + 14
    body.append(draw.label(panel_left, y, "Not placed yet (B6)", font_size=12, fill=_INK))
    body.extend(
        _row_of_tokens(
            panel_left, y + 8, waiting, role="character unplaced", chosen=chosen, marked=marked
        )
    )
    y += 20 + 36 * _lines(len(waiting))
    body.append(draw.label(panel_left, y, "Eliminated this round (B13)", font_size=12, fill=_INK))
    body.extend(
        _row_of_tokens(
            panel_left, y + 8, gone, role="character eliminated", chosen=chosen, marked=marked
        )
    )
    y += 20 + 36 * _lines(len(gone))
    kings = [king(state, r) for r in range(1, len(state.kings) + 1)]
    if kings:
        text = ", ".join(f"round {r}: {k or 'none'}" for r, k in enumerate(kings, 1))
        body.append(
            draw.group(
                [draw.label(panel_left, y, f"Kings (B12): {text}", font_size=12, fill=_INK)],
                class_="kings",
            )
        )

    body.append(_seat_table(state, seats_top, width, seat, secrets))
    if caption:
        body.append(draw.label(12, height - 10, caption, font_size=12, fill="#6b5d45"))
    description = "; ".join(
        f"floor {f}: {', '.join(by_floor[f])}" for f in sorted(by_floor, reverse=True)
    )
    return draw.document(
        width,
        height,
        body,
        title=f"Throne position: {_headline(state)}",
        description=description or "The castle is empty.",
        class_="castlerules-board throne-board",
        data_game="throne",
    )


def _headline(state: State) -> str:
    rules = state.rules
    current = current_player(state)
    if current is None:
        return f"Throne, game over after round {round_of(state)} of {rules.rounds}"
    return (
        f"Throne, round {round_of(state)} of {rules.rounds}, {phase(state)}: seat {current} to act"
    )


def _floor_title(f: int, points: int, slots: int, is_throne: bool) -> str:
    what = "the throne" if is_throne else f"floor {f}"
    return f"{what}: {points} points for a favourite here, room for {slots}"


def _crenellations(x0: float, y: float, width: float) -> str:
    parts = []
    step = width / 5
    for k in (0, 4):  # the middle stays clear for the crown
        parts.append(draw.rect(x0 + k * step, y - 8, step, 8, fill=_STONE_DARK))
    return draw.group(parts, class_="crenellations")


def _token(
    cx: float, cy: float, letter: str, *, role: str, f: int, favourite: bool, marked: bool
) -> str:
    fill = "#fbf7ee"
    stroke = _INK
    width = 1.5
    dash: str | None = None
    parts: list[str] = []
    what = f"{letter} on floor {f}"
    if "king" in role:
        fill = _GOLD
        what = f"{letter}, the king"
        parts.append(
            draw.polygon(
                [
                    (cx - 11, cy - 13),
                    (cx - 11, cy - 24),
                    (cx - 5, cy - 17),
                    (cx, cy - 26),
                    (cx + 5, cy - 17),
                    (cx + 11, cy - 24),
                    (cx + 11, cy - 13),
                ],
                fill=_GOLD,
                stroke=_INK,
                stroke_width=1,
                class_="crown",
            )
        )
    elif "candidate" in role:
        fill = "#fde4e1"
        stroke = _RED
        width = 2.5
        dash = "4 2"
        what = f"{letter}, the candidate: the players vote"
    if favourite:
        what += " (a favourite of the marked seat)"
    ring = (
        [draw.circle(cx, cy, _TOKEN + 4, fill="none", stroke=_FAVOURITE, stroke_width=3)]
        if favourite
        else []
    )
    halo = (
        [draw.circle(cx, cy, _TOKEN + 7, fill="none", stroke="#e07b00", stroke_width=2.5)]
        if marked
        else []
    )
    return draw.group(
        [
            draw.title(what),
            *halo,
            *ring,
            draw.circle(
                cx, cy, _TOKEN, fill=fill, stroke=stroke, stroke_width=width, stroke_dasharray=dash
            ),
            draw.label(
                cx,
                cy + 5,
                letter,
                font_size=15,
                font_weight="bold",
                text_anchor="middle",
                fill=_INK,
            ),
            *parts,
        ],
        class_=role + (" favourite" if favourite else "") + (" highlight" if marked else ""),
        data_character=letter,
        data_floor=f,
    )


def _lines(count: int) -> int:
    return max(1, (count + 6) // 7)


def _row_of_tokens(
    x: float,
    y: float,
    letters: list[str],
    *,
    role: str,
    chosen: frozenset[str],
    marked: frozenset[str],
) -> list[str]:
    if not letters:
        return [draw.label(x + 4, y + 20, "none", font_size=11, fill="#8a7d66")]
    out = []
    for k, letter in enumerate(letters):
        cx = x + 16 + (k % 7) * 34
        cy = y + 16 + (k // 7) * 36
        favourite = letter in chosen
        parts = [
            draw.title(f"{letter}: {role.rsplit(maxsplit=1)[-1]}"),
            draw.circle(cx, cy, 13, fill="#f4f1ea", stroke="#8a7d66", stroke_width=1.2),
        ]
        if role.endswith("eliminated"):
            parts.append(
                draw.line(cx - 12, cy + 12, cx + 12, cy - 12, stroke=_RED, stroke_width=1.5)
            )
        parts.append(draw.label(cx, cy + 5, letter, font_size=13, text_anchor="middle", fill=_INK))
        if favourite:
            parts.insert(
                1, draw.circle(cx, cy, 16, fill="none", stroke=_FAVOURITE, stroke_width=2.5)
            )
        if letter in marked:
            parts.insert(
                1, draw.circle(cx, cy, 19, fill="none", stroke="#e07b00", stroke_width=2.5)
            )
        out.append(
            draw.group(
                parts,
                class_=role + (" favourite" if favourite else ""),
                data_character=letter,
            )
        )
    return out


def _seat_table(state: State, y: float, width: float, marked: int | None, secrets: bool) -> str:
    current = current_player(state)
    points = totals(state)
    rows = [
        draw.line(12, y - 14, width - 12, y - 14, stroke=_STONE_DARK),
        draw.label(12, y + 4, "Seat", font_size=12, font_weight="bold", fill=_INK),
        draw.label(70, y + 4, "No cards (B11)", font_size=12, font_weight="bold", fill=_INK),
        draw.label(180, y + 4, "Total (B16)", font_size=12, font_weight="bold", fill=_INK),
        draw.label(270, y + 4, "Favourites (B4)", font_size=12, font_weight="bold", fill=_INK),
    ]
    for s in range(state.players):
        row_y = y + 24 + 20 * s
        weight = "bold" if s == current else "normal"
        # B4: the favourites are secret; B11: so are the No cards unless the rules say not.
        favourites = "".join(sorted(objective(state, s))) if secrets else "secret"
        shown_no = secrets or state.rules.no_cards_public
        no_text = str(no_cards(state, s)) if shown_no else "secret"
        mark = " ◀ to act" if s == current else ""
        if marked == s:
            mark += " (marked)"
        rows.append(
            draw.group(
                [
                    draw.label(12, row_y, f"{s}", font_size=12, font_weight=weight, fill=_INK),
                    draw.label(70, row_y, no_text, font_size=12, fill=_INK),
                    draw.label(180, row_y, str(points[s]), font_size=12, fill=_INK),
                    draw.label(
                        270,
                        row_y,
                        favourites + mark,
                        font_size=12,
                        font_weight=weight,
                        fill=_FAVOURITE if marked == s else _INK,
                        font_family="monospace",
                    ),
                ],
                class_="seat current" if s == current else "seat",
                data_seat=s,
            )
        )
    return draw.group(rows, class_="seats")
