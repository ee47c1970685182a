"""The interpretation register: open points from the notes, readings that really differ."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import attrs
import pytest

from castlerules import ascent, register, throne
from castlerules.core.options import Note
from castlerules.register.readings import readings_of

GAMES = {"throne": throne, "ascent": ascent}


def _alternatives() -> list[tuple[str, str, str]]:
    out = []
    for name, module in GAMES.items():
        for point in register.open_points(module):
            if point.excluded is None:
                out.extend((name, point.option, r.label) for r in point.readings[1:])
    return out


def _reading(game: str, option: str, label: str) -> tuple[register.OpenPoint, register.Reading]:
    point = next(p for p in register.open_points(GAMES[game]) if p.option == option)
    return point, next(r for r in point.readings if r.label == label)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_named_by_a_note_is_an_open_point(game: str) -> None:
    module = GAMES[game]
    points = register.open_points(module)
    named = list(dict.fromkeys(n.option for n in module.NOTES if n.option is not None))
    assert [p.option for p in points] == named
    for point in points:
        assert point.readings[0].label == "default"
        assert point.readings[0].rules(module) == module.Rules()
        assert point.default == getattr(module.Rules(), point.option)
        assert all(n.option == point.option for n in point.notes)


def test_b8_allow_pass_has_both_readings_and_the_switches() -> None:
    point, reading = _reading("throne", "allow_pass", "allow_pass=true")
    assert point.clauses == ("B8",)
    assert reading.code(throne) == "throne.Rules(allow_pass=True)"
    assert reading.command_line() == "--option allow_pass=true"
    assert reading.rules(throne).allow_pass is True


def test_b6_original_preset_is_a_reading_of_equal_placement() -> None:
    point = next(p for p in register.open_points(throne) if p.option == "equal_placement")
    original = next(r for r in point.readings if r.preset == "ORIGINAL")
    assert original.code(throne) == 'throne.Rules.preset("ORIGINAL")'
    assert original.command_line() == "--rules ORIGINAL"


def test_a7_protection_false_is_listed_but_not_played() -> None:
    point = next(p for p in register.open_points(ascent) if p.option == "protection")
    assert point.excluded is not None
    assert "not a reading" in point.excluded


@pytest.mark.parametrize(("game", "option", "label"), _alternatives())
def test_each_alternative_reading_differs_somewhere_and_replays(
    game: str, option: str, label: str
) -> None:
    module = GAMES[game]
    point, reading = _reading(game, option, label)
    found = register.diverge(module, point.readings[0], reading)
    assert found is not None, f"no position where {label} differs from the default"
    assert found.first_outcome != found.second_outcome
    first, second = register.replay_divergence(module, found)
    assert module.to_text(first) == found.position
    assert first.rules == module.Rules()
    assert second.rules == reading.rules(module)


def test_a_divergence_that_no_longer_shows_is_refused() -> None:
    point, reading = _reading("throne", "allow_pass", "allow_pass=true")
    found = register.diverge(throne, point.readings[0], reading)
    assert found is not None
    same = attrs.evolve(found, second=point.readings[0])
    with pytest.raises(AssertionError, match="no longer differ"):
        register.replay_divergence(throne, same)
    with pytest.raises(AssertionError, match="no longer legal"):
        register.replay_divergence(throne, attrs.evolve(found, moves=("A6",)))


SPEC_OPEN_POINTS = {
    # spec/throne.md and spec/ascent.md, "Open points kept as options".
    "throne": ("allow_pass", "no_cards_public", "objective_deck"),
    "ascent": (
        "arrival",
        "upper_half",
        "allow_exposing_split",
        "favours_per_move",
        "favour_after_arrival",
        "removal_in_lower_half",
        "last_player_continues",
        "die",
        # "Open points added 2026-12-02"
        "end_test",
        "stack_rank",
        "favour_takes",
        "penalty_to",
        "deal",
        "path",
    ),
}


@pytest.mark.parametrize(
    ("game", "option"), [(g, o) for g, options in SPEC_OPEN_POINTS.items() for o in options]
)
def test_every_open_point_of_the_spec_has_readings_or_says_why_not(game: str, option: str) -> None:
    """Each open point of the spec is in the register: with an alternative reading (whose
    divergence the docs compute), or excluded with the reason why there is none."""
    point = next((p for p in register.open_points(GAMES[game]) if p.option == option), None)
    assert point is not None, f"no note names the open point {option}"
    if point.excluded is None:
        assert len(point.readings) > 1, f"{option}: no alternative reading and no reason"
    else:
        assert len(point.readings) == 1
        assert len(point.excluded) > 40


def test_a13_upper_half_readings_are_squares_4_and_5() -> None:
    point, reading = _reading("ascent", "upper_half", "upper_half=5")
    assert point.default == 4
    assert point.clauses == ("A13",)
    assert reading.rules(ascent) == ascent.Rules(upper_half=5)
    found = register.diverge(ascent, point.readings[0], reading)
    assert found is not None and found.kind == "outcome"
    assert "In the upper half" in found.first_outcome
    assert "where no removal applies: it stays. (A13)" in found.second_outcome


@pytest.mark.parametrize(
    ("game", "option"),
    [("throne", "rounds"), ("throne", "bonus_rounds"), ("ascent", "squares")],
)
def test_numbers_the_seed_gives_are_not_readings(game: str, option: str) -> None:
    point = next(p for p in register.open_points(GAMES[game]) if p.option == option)
    assert point.excluded is not None
    assert "not a reading" in point.excluded or "no other reading" in point.excluded
    assert [r.label for r in point.readings] == ["default"]


SEED = Path(__file__).resolve().parents[2] / "docs" / "seeds"


def _seed_text(game: str) -> str:
    return " ".join((SEED / f"{game}.fr.txt").read_text(encoding="utf-8").split())


QUOTE = re.compile(r"«\s*(.+?)\s*»")
"""A quotation of the seed in a note.  « » quote the seed only (a note quoting another
text, such as the published rules, uses other quotation marks)."""


def _quotes(notes: Sequence[Note]) -> list[str]:
    return [" ".join(q.split()) for note in notes for q in QUOTE.findall(note.decision)]


def _not_in_seed(quote: str, seed: str) -> bool:
    """Whether ``quote`` is not the seed's text: each of its parts (an elision is
    written ``...``) must appear in the seed, in order; a final full stop may be dropped."""
    at = 0
    for part in (p.strip() for p in quote.rstrip(".").split("...")):
        found = seed.find(part, at)
        if not part or found < 0:
            return True
        at = found + len(part)
    return False


OPEN_POINTS = [
    (game, point) for game in sorted(GAMES) for point in register.open_points(GAMES[game])
]


@pytest.mark.parametrize(
    ("game", "point"), OPEN_POINTS, ids=[f"{g}-{p.option}" for g, p in OPEN_POINTS]
)
def test_every_open_point_quotes_the_seed(game: str, point: register.OpenPoint) -> None:
    """Each reading's notes quote the French of the seed, verbatim, « like this »."""
    seed = _seed_text(game)
    quotes = _quotes(point.notes)
    assert quotes, f"{game} {point.option}: no note quotes the seed"
    for quote in quotes:
        assert not _not_in_seed(quote, seed), f"{point.option}: {quote!r} is not in the seed"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_quote_of_the_seed_in_the_notes_is_verbatim(game: str) -> None:
    """The notes that are no open point quote the seed verbatim too."""
    seed = _seed_text(game)
    wrong = [q for q in _quotes(GAMES[game].NOTES) if _not_in_seed(q, seed)]
    assert not wrong, f"{game}: not in the seed: {wrong}"


def test_a_quote_that_is_not_the_seed_is_caught() -> None:
    """Planted mistakes: a word changed, parts out of order, another language."""
    seed = _seed_text("throne")
    assert not _not_in_seed("Le jeu se joue en trois manches.", seed)
    assert not _not_in_seed("chaque joueur ne détient ... cartes", seed)
    assert _not_in_seed("Le jeu se joue en quatre manches", seed)
    assert _not_in_seed("cartes ... chaque joueur ne détient", seed)
    assert _not_in_seed("Il numero di carte in mano ... è segreto", seed)
    note = Note("B3", "planted", "« Le jeu se joue en deux manches »", "rounds")
    assert _quotes([note]) == ["Le jeu se joue en deux manches"]


def test_the_study_reads_the_end_test_readings() -> None:
    """A14: the study of the register compares both other end tests with the default."""
    from castlerules.study.register_study import register_readings

    names = [r.name for r in register_readings(ascent)]
    assert "end_test=unflipped" in names and "end_test=can_move" in names


def test_the_staggered_path_is_a_reading_the_register_tries() -> None:
    """A1/A5 (the path): path=staggered is playable; the register tries it, with the
    staggered geometry (7 squares for every rank), and its note says what it changes."""
    found, _not_varied, excluded, _invalid = readings_of(ascent, ascent.Rules(), None, {})
    staggered = next(r.rules for r in found if r.label == "path=staggered")
    assert "path" not in dict(excluded)
    assert staggered == ascent.Rules(path="staggered")
    assert (staggered.squares, staggered.arrival, staggered.upper_half) == (
        12,
        (7, 8, 9, 10, 11, 12),
        7,
    )
    point = next(p for p in register.open_points(ascent) if p.option == "path")
    assert any("7 squares, from a start row" in n.decision for n in point.notes)
    prince = ascent.Advance(ascent.Card(0, ascent.Rank.PRINCE))
    after = ascent.apply(ascent.new_game(2, staggered, first_player=0), prince)
    assert ascent.where(after, prince.card) == (0, 6)  # from its start row 5 (A5)
