"""The edge-case gallery: every example is found, replays, and fails loudly once broken."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlerules import ascent, gallery, throne
from castlerules.core import Rng
from castlerules.gallery import CATALOGUE, GalleryError, find, replay

KEYS = [item.key for item in CATALOGUE]


@pytest.fixture(scope="module")
def examples() -> dict[str, gallery.Example]:
    return {key: find(key) for key in KEYS}


def test_the_catalogue_covers_the_rare_rules_of_the_brief() -> None:
    clauses = {c for item in CATALOGUE for c in item.clauses}
    assert {"A7", "A9", "A13", "A10", "A12", "B13", "B15", "B14", "B11"} <= clauses
    assert len(set(KEYS)) == len(KEYS)
    with pytest.raises(KeyError, match="known"):
        gallery.entry("no-such-example")


@pytest.mark.parametrize("key", KEYS)
def test_each_example_is_found_and_every_claim_is_confirmed(
    examples: dict[str, gallery.Example], key: str
) -> None:
    example = examples[key]
    shown = replay(example)
    assert shown.facts, "an example must state what it shows"
    assert len(shown.states) == len(example.moves) + 1
    assert 0 <= example.focus < len(example.moves)
    item = gallery.entry(key)
    step = shown.steps[example.focus]
    # The focus move (or the scoring it leads to) exercises the entry's first clause.
    cited = {e.clause for s in shown.steps[example.focus :] for e in s.events}
    assert item.clauses[0] in cited, (item.clauses[0], step)


@pytest.mark.parametrize("key", KEYS)
def test_search_is_deterministic(examples: dict[str, gallery.Example], key: str) -> None:
    assert find(key) == examples[key]


def test_a7_protection_example_shows_a_card_above_its_ceiling(
    examples: dict[str, gallery.Example],
) -> None:
    shown = replay(examples["ascent-protection"])
    step = shown.steps[shown.example.focus]
    assert any(e.clause == "A7" for e in step.events)
    assert any("above its own arrival square" in fact for fact in shown.facts)


def test_a13_removal_example_removes_cards(examples: dict[str, gallery.Example]) -> None:
    shown = replay(examples["ascent-removal"])
    before, after = shown.before, shown.after
    assert sum(len(ascent.removed(after, s)) for s in range(after.players)) > sum(
        len(ascent.removed(before, s)) for s in range(before.players)
    )


def test_b15_bonus_example_scores_33_from_nothing(examples: dict[str, gallery.Example]) -> None:
    shown = replay(examples["throne-bonus"])
    assert throne.round_scores(shown.after)[-1][0] == 33
    assert throne.is_over(shown.after)


def test_b14_max_round_example_scores_33_in_round_one(
    examples: dict[str, gallery.Example],
) -> None:
    shown = replay(examples["throne-max-round"])
    assert throne.round_scores(shown.after)[0][0] == 33


def test_b11_no_cards_example_spends_every_no_card(examples: dict[str, gallery.Example]) -> None:
    shown = replay(examples["throne-no-cards"])
    last = shown.states[-2]
    assert all(throne.no_cards(last, s) == 0 for s in range(last.players))


def test_a_move_that_became_illegal_breaks_the_example(
    examples: dict[str, gallery.Example],
) -> None:
    example = examples["throne-elimination"]
    broken = attrs.evolve(example, moves=(*example.moves[:-1], "A6"))
    with pytest.raises(GalleryError, match="no longer holds: move"):
        replay(broken)


def test_a_claim_that_no_longer_holds_breaks_the_example(
    examples: dict[str, gallery.Example],
) -> None:
    # The same moves under rules where the favourite's floor scores differently: the
    # 33 points of the maximal round are gone, and the check says so.
    example = examples["throne-max-round"]
    other = attrs.evolve(example, options=(("points", (0, 1, 2, 3, 5, 5, 10)),))
    with pytest.raises(GalleryError, match="33"):
        replay(other)
    # An A13 example under the reading where removal also applies below: still removal,
    # but a focus moved off the favour is refused.
    removal = examples["ascent-removal"]
    with pytest.raises(GalleryError):
        replay(attrs.evolve(removal, focus=removal.focus - 1))


def test_build_reuses_known_examples_and_checks_them(
    examples: dict[str, gallery.Example],
) -> None:
    shown = gallery.build(examples)
    assert [r.example for r in shown] == [examples[k] for k in KEYS]


# --------------------------------------------------------------------------- any occurrence
# The checks are not tailored to the one example the search found: Hypothesis draws other
# games, and every occurrence of the rare rule in them passes the same check.


def _occurrences(game: str, seed: int, clause: str) -> list[gallery.Example]:
    module = gallery.GAMES[game]
    if game == "ascent":
        state = module.new_game(3, seed=seed, first_player=0)
    else:
        state = module.new_game(4, seed=seed)
    rng = Rng.from_seed(seed, "tests.docs.gallery")
    moves: list[str] = []
    found = []
    while not module.is_over(state) and len(moves) < 400:
        move, rng = rng.choice(module.legal_moves(state))
        after = module.apply(state, move)
        moves.append(str(move))
        if any(e.clause == clause for e in module.describe(state, move, after)):
            found.append(len(moves) - 1)
        state = after
    return [
        gallery.Example(
            key="",
            game=game,
            players=3 if game == "ascent" else 4,
            seed=seed,
            moves=tuple(moves[: focus + 1]),
            focus=focus,
            first_player=0 if game == "ascent" else None,
        )
        for focus in found[:3]
    ]


@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_a7_every_protection_in_random_games_passes_the_gallery_check(seed: int) -> None:
    for example in _occurrences("ascent", seed, "A7"):
        shown = replay(attrs.evolve(example, key="ascent-protection"))
        assert any("(A7)" in fact for fact in shown.facts)


@settings(max_examples=10)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_b13_every_elimination_in_random_games_passes_the_gallery_check(seed: int) -> None:
    module = throne
    for example in _occurrences("throne", seed, "B13"):
        # The check starts at the climb to the throne and ends with the resumed climb.
        states, steps = gallery.play_through(example)
        climbs = [i for i, s in enumerate(steps) if any(e.clause == "B10" for e in s.events)]
        if module.is_over(states[-1]) or module.phase(states[-1]) != "movement":
            continue
        resume = module.legal_moves(states[-1])[0]
        longer = attrs.evolve(
            example,
            key="throne-elimination",
            moves=(*example.moves, str(resume)),
            focus=climbs[-1],
        )
        shown = replay(longer)
        assert any("eliminated" in fact for fact in shown.facts)
