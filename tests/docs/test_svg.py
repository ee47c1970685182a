"""The boards drawn by ``svg(state)``: well-formed XML, every piece shown, same text each time."""

from __future__ import annotations

import importlib
import types
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from castlerules import ArgumentError, ascent, casebook, throne
from castlerules.ascent.diagram import svg as ascent_svg
from castlerules.core import Rng
from castlerules.core import svg as draw
from castlerules.throne.diagram import svg as throne_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.find("svg:title", NS) is not None
    return root


def _with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def _play(game: Any, state: Any, plies: int, seed: int) -> Any:
    rng = Rng.from_seed(seed, "tests.docs.svg")
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves:
            break
        move, rng = rng.choice(moves)
        state = game.apply(state, move)
    return state


def _to_end(game: Any, state: Any, seed: int) -> Any:
    return _play(game, state, 100_000, seed)


# --------------------------------------------------------------------------- shared helpers


def test_escape_makes_text_and_attributes_safe() -> None:
    assert draw.escape("<a & 'b' \"c\">") == "&lt;a &amp; &#39;b&#39; &quot;c&quot;&gt;"
    assert draw.escape("\x00\x1b") == "\ufffd\ufffd"
    doc = draw.document(10, 10, [draw.label(1, 2, "</svg><script>")], title='a"b')
    root = _parse(doc)
    assert "".join(root.itertext()).count("</svg><script>") == 1


def test_element_refuses_bad_names() -> None:
    with pytest.raises(ValueError, match="element name"):
        draw.element("g onload")
    with pytest.raises(ValueError, match="attribute name"):
        draw.element("g", {"on load": 1})


def test_numbers_are_written_the_same_way_everywhere() -> None:
    assert [draw.number(v) for v in (0, -0.0, 1.0, 2.5, 1 / 3, 100)] == [
        "0",
        "0",
        "1",
        "2.5",
        "0.33",
        "100",
    ]
    with pytest.raises(TypeError):
        draw.number(True)


# --------------------------------------------------------------------------- Throne


def test_b2_throne_board_draws_seven_floors_and_every_placed_character() -> None:
    state = _play(throne, throne.new_game(4, seed=3), 20, 1)
    root = _parse(throne_svg(state))
    floors = {int(e.get("data-floor", "0")) for e in _with_class(root, "floor")}
    assert floors == set(range(1, 8))
    drawn = {
        e.get("data-character"): int(e.get("data-floor", "0"))
        for e in _with_class(root, "character")
        if e.get("data-floor")
    }
    expected = {
        x: throne.floor_of(state, x)
        for x in throne.Rules().letters()
        if throne.floor_of(state, x) is not None
    }
    assert drawn == expected
    for e in _with_class(root, "floor"):
        count = int(e.get("data-count", "-1"))
        assert count == sum(1 for f in expected.values() if f == int(e.get("data-floor", "0")))
        assert count <= int(e.get("data-capacity", "0"))


def test_b6_throne_board_lists_characters_not_placed_yet() -> None:
    state = _play(throne, throne.new_game(4, seed=3), 5, 2)
    root = _parse(throne_svg(state))
    waiting = {e.get("data-character") for e in _with_class(root, "unplaced")}
    assert len(waiting) == 13 - 5
    assert all(throne.floor_of(state, x) is None for x in waiting)


def test_b10_b13_candidate_and_eliminated_are_marked() -> None:
    shown = casebook.show("throne-elimination")
    election = next(m.after for m in reversed(shown.moments) if m.cites("B10"))
    root = _parse(throne_svg(election))
    candidates = _with_class(root, "candidate")
    assert [e.get("data-character") for e in candidates] == [throne.candidate(election)]
    after = shown.after
    root = _parse(throne_svg(after))
    gone = {e.get("data-character") for e in _with_class(root, "eliminated")}
    assert gone == {x for x in throne.Rules().letters() if throne.is_eliminated(after, x)}
    assert gone


def test_b12_king_is_crowned_on_the_throne_at_the_end() -> None:
    final = _to_end(throne, throne.new_game(3, seed=11), 4)
    root = _parse(throne_svg(final))
    king = throne.king(final)
    assert king is not None
    kings = _with_class(root, "king")
    assert [e.get("data-character") for e in kings] == [king]
    assert _with_class(root, "crown")
    assert "Kings (B12)" in "".join(root.itertext())


def test_b4_seat_marks_that_seats_favourites_only() -> None:
    state = _play(throne, throne.new_game(4, seed=5), 13, 3)
    root = _parse(throne_svg(state, seat=2))
    marked = {e.get("data-character") for e in _with_class(root, "favourite")}
    assert marked == set(throne.objective(state, 2))
    with pytest.raises(ArgumentError):
        throne_svg(state, seat=9)
    with pytest.raises(ArgumentError):
        throne_svg(state, highlight=["Z"])


def test_throne_board_is_deterministic_and_escapes_its_caption() -> None:
    one = _play(throne, throne.new_game(4, seed=9), 30, 7)
    two = _play(throne, throne.new_game(4, seed=9), 30, 7)
    assert one == two
    caption = 'a <b> & "c"'
    assert throne_svg(one, caption=caption) == throne_svg(two, caption=caption)
    root = _parse(throne_svg(one, caption=caption))
    assert caption in list(root.itertext())


# --------------------------------------------------------------------------- Ascent


def _cards_drawn(root: ET.Element) -> list[str]:
    return [e.get("data-card", "") for e in _with_class(root, "card")]


def test_a2_a18_ascent_board_shows_every_card_once_in_its_column() -> None:
    state = _play(ascent, ascent.new_game(4, seed=2), 60, 4)
    root = _parse(ascent_svg(state))
    drawn = _cards_drawn(root)
    assert sorted(drawn) == sorted(
        str(ascent.Card(owner, rank)) for owner in range(4) for rank in ascent.Rank
    )
    columns = {int(e.get("data-column", "-1")) for e in _with_class(root, "column")}
    assert columns == {0, 1, 2, 3}
    for column in _with_class(root, "column"):
        c = int(column.get("data-column", "-1"))
        for card in _with_class(column, "card"):
            square = card.get("data-square")
            if square is None:
                continue
            text = card.get("data-card", "")
            where = ascent.where(
                state, ascent.Card(int(text[1:]), ascent.Rank.from_letter(text[0]))
            )
            assert where == (c, int(square))


def test_a3_stack_order_is_top_first_in_the_drawing() -> None:
    shown = casebook.show("ascent-protection")
    state = shown.after
    root = _parse(ascent_svg(state))
    for column in _with_class(root, "column"):
        c = int(column.get("data-column", "-1"))
        for square in range(1, state.rules.squares + 1):
            cards = [
                e.get("data-card")
                for e in _with_class(column, "card")
                if e.get("data-square") == str(square)
            ]
            assert cards == [str(x) for x in ascent.stack_at(state, c, square)]


def test_a8_flipped_cards_are_marked_flipped() -> None:
    final = _to_end(ascent, ascent.new_game(3, seed=8), 5)
    root = _parse(ascent_svg(final))
    for e in _with_class(root, "card"):
        text = e.get("data-card", "")
        card = ascent.Card(int(text[1:]), ascent.Rank.from_letter(text[0]))
        flipped = "flipped" in (e.get("class") or "").split()
        assert flipped == ascent.is_flipped(final, card)
    assert _with_class(root, "flipped")


def test_a6_a9_arrival_squares_are_marked_per_rank_and_column() -> None:
    rules = ascent.Rules()
    root = _parse(ascent_svg(ascent.new_game(3, seed=1)))
    marks = {
        (int(e.get("data-column", "-1")), int(e.get("data-square", "-1")), e.get("data-rank"))
        for e in _with_class(root, "arrival-square")
    }
    assert marks == {
        (c, rules.arrival_of(rank), rank.letter) for c in range(3) for rank in ascent.Rank
    }


def test_a13_upper_half_is_shaded_from_its_first_square() -> None:
    for first in (4, 5):
        rules = ascent.Rules(upper_half=first)
        root = _parse(ascent_svg(ascent.new_game(2, rules=rules, seed=1)))
        bands = _with_class(root, "upper-half")
        assert [b.get("data-from") for b in bands] == [str(first)]


def test_a7_protected_card_above_its_ceiling_is_marked() -> None:
    shown = casebook.show("ascent-protection")
    root = _parse(ascent_svg(shown.after))
    above = {e.get("data-card") for e in _with_class(root, "above-ceiling")}
    expected = set()
    for column in range(shown.after.players):
        for square in range(1, 8):
            for card in ascent.stack_at(shown.after, column, square):
                if square > shown.after.rules.arrival_of(card.rank):
                    expected.add(str(card))
    assert above == expected
    assert above


def test_a13_removed_cards_are_drawn_under_their_column() -> None:
    shown = casebook.show("ascent-removal")
    state = shown.after
    root = _parse(ascent_svg(state))
    for column in _with_class(root, "column"):
        c = int(column.get("data-column", "-1"))
        gone = [e.get("data-card") for e in _with_class(column, "removed")]
        assert gone == [str(x) for x in ascent.removed(state, c)]
    assert _with_class(root, "removed")


def test_a11_stack_just_moved_is_bracketed_mid_turn() -> None:
    shown = casebook.show("ascent-favour-replay")
    mid = shown.before
    assert ascent.pending_favour(mid)
    root = _parse(ascent_svg(mid))
    assert len(_with_class(root, "just-moved")) == 1
    start = _parse(ascent_svg(shown.states[0]))
    assert not _with_class(start, "just-moved")


def test_ascent_board_is_deterministic_and_highlights() -> None:
    one = _play(ascent, ascent.new_game(5, seed=4), 40, 9)
    two = _play(ascent, ascent.new_game(5, seed=4), 40, 9)
    card = ascent.Card(0, ascent.Rank.LADY)
    assert ascent_svg(one, highlight=[card]) == ascent_svg(two, highlight=[card])
    root = _parse(ascent_svg(one, highlight=[card], caption="x < y"))
    assert [e.get("data-card") for e in _with_class(root, "highlight")] == ["L0"]
    assert "x < y" in list(root.itertext())


# --------------------------------------------------------------------------- the public name


@pytest.mark.parametrize("game", [throne, ascent], ids=["throne", "ascent"])
def test_svg_is_exported_by_each_game_like_chess_svg(game: Any) -> None:
    """``throne.svg(state)`` / ``ascent.svg(state)`` draw a position.  The function lives in
    ``castlerules.<game>.diagram``: no submodule is named ``svg``, so no import (pytest's
    ``--import-mode=importlib`` included) can shadow the function with a module."""
    assert "svg" in game.__all__
    module = importlib.import_module(f"{game.__name__}.diagram")
    assert game.svg is module.svg
    assert not isinstance(game.svg, types.ModuleType)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"{game.__name__}.svg")
    state = _play(game, game.new_game(3, seed=5), 12, 5)
    picture = game.svg(state)
    assert picture == module.svg(state)
    _parse(picture)
    assert f'class="castlerules-board {game.NAME}-board"' in picture
    assert (throne_svg, ascent_svg) == (throne.svg, ascent.svg)


@pytest.mark.parametrize("game", ["throne", "ascent"])
@pytest.mark.parametrize("bad", [None, 3, "throne 3 1"])
def test_svg_refuses_a_non_state_with_a_typed_error(game: str, bad: object) -> None:
    """svg(state) is public API: a wrong argument is an ArgumentError naming it."""
    module = importlib.import_module(f"castlerules.{game}")
    with pytest.raises(ArgumentError, match="state must be"):
        module.svg(bad)
    with pytest.raises(ArgumentError, match="caption must be"):
        module.svg(module.new_game(3), caption=5)
