"""castlerules.adapters.numbering: the tensors read back block by block (B4, B11, B12;
A7, A8, A13), with the standard library only (no OpenSpiel, no PettingZoo needed)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs
import pytest

from castlerules import ascent, throne
from castlerules.adapters.numbering import (
    ThroneEncoder,
    ascent_tensor,
    ascent_tensor_size,
    numbered_cards,
    throne_view,
)
from castlerules.ascent.rules import card_id
from castlerules.core import Rng


def _throne_positions(rules: throne.Rules, players: int, seed: int) -> Iterator[throne.State]:
    rng = Rng.from_seed(seed, "numbering")
    state = throne.new_game(players, rules, seed=seed)
    yield state
    while moves := throne.legal_moves(state):
        move, rng = rng.choice(moves)
        state = throne.apply(state, move)
        yield state


def _block(out: list[float], start: int, length: int) -> list[float]:
    return out[start : start + length]


def _one_hot(length: int, at: int | None) -> list[float]:
    return [1.0 if k == at else 0.0 for k in range(length)]


def test_the_throne_tensor_reads_back_the_vote_the_kings_and_the_no_counts() -> None:
    """B11: the seat's own vote (Yes and No apart), the No counts it may know (and
    whether it knows them); B12: each round's king, or none; B4: its own objective."""
    seen_votes: set[bool] = set()
    kingless = 0
    for rules in (throne.Rules(no_cards_public=False), throne.Rules()):
        players, n = 4, rules.characters
        encoder = ThroneEncoder(rules, players)
        letters = rules.letters()
        for seed in range(6):
            for state in _throne_positions(rules, players, seed):
                # A round may end without a king (B12, B13): its block then says none.
                kingless_state = attrs.evolve(state, kings=(-1,) * len(state.kings))
                for seat, view in itertools.product(range(players), (state, kingless_state)):
                    obs = throne.observation(view, seat)
                    out = [0.0] * encoder.size
                    encoder.write(obs, out)
                    assert _block(out, encoder.seat_at, players) == _one_hot(players, seat)
                    vote = _block(out, encoder.vote_at, 2)
                    assert vote == {None: [0.0, 0.0], True: [1.0, 0.0], False: [0.0, 1.0]}[obs.vote]
                    if obs.vote is not None:
                        seen_votes.add(obs.vote)
                    for q, count in enumerate(obs.no_cards):
                        pair = _block(out, encoder.no_at + 2 * q, 2)
                        assert pair == ([0.0, 0.0] if count is None else [float(count), 1.0])
                    mine = _block(out, encoder.objective_at, n)
                    assert mine == [1.0 if ch in obs.objective else 0.0 for ch in letters]
                    for number, king in enumerate(obs.kings):
                        at = encoder.kings_at + number * (n + 1)
                        index = n if king is None else letters.index(king)
                        assert _block(out, at, n + 1) == _one_hot(n + 1, index)
                        kingless += king is None
    assert seen_votes == {True, False}
    assert kingless > 0


def test_the_throne_view_string_reads_back_the_vote() -> None:
    """B11: the observation string says the seat's own vote, yes or no."""
    said: set[str] = set()
    for seed in range(4):
        for state in _throne_positions(throne.Rules(), 3, seed):
            for seat in range(3):
                obs = throne.observation(state, seat)
                part = next(p for p in throne_view(obs).split("; ") if p.startswith("vote "))
                assert part == "vote " + {None: "-", True: "yes", False: "no"}[obs.vote]
                said.add(part)
    assert said == {"vote -", "vote yes", "vote no"}


def _ascent_positions(
    players: int, seed: int, rules: ascent.Rules | None = None
) -> Iterator[ascent.State]:
    rng = Rng.from_seed(seed, "numbering")
    state = ascent.new_game(players, rules, seed=seed)
    yield state
    while moves := ascent.legal_moves(state):
        move, rng = rng.choice(moves)
        state = ascent.apply(state, move)
        yield state


REMOVAL = "P0B0C0T0F0,-,-,L0,-,-,-,-/P1B1L1T1,-,-,-,C1F1,-,-,- -/- 0 -"
"""The Lady takes the Charlatan off C1F1 on square 4 (``L0``, ``xC1``): the Fire-eater,
left alone above its ceiling in the upper half, is removed from column 1 (A13)."""


def _removal_positions() -> Iterator[ascent.State]:
    state = ascent.from_text(REMOVAL)
    for text in ("L0", "xC1"):
        yield state
        state = ascent.apply(state, ascent.parse_move(state, text))
    assert state.removed_cards == ((), (card_id(1, 1),))  # F1
    yield state


@pytest.mark.parametrize("deal", ["sets", "shuffled"])
def test_the_ascent_tensor_reads_back_every_card(deal: str) -> None:
    """Per card: its column, or the column it was removed from (A13); its square; its
    height in the stack counted from the bottom (A7: who protects whom); whether it is
    flipped (A8); under deal="shuffled", the seat dealt it (A18; a card left over is all
    zeros)."""
    flipped_cards = removed_cards = stacked = 0
    for players in (2, 3) if deal == "sets" else (2, 5):
        rules = ascent.Rules(deal=deal)
        squares = rules.squares
        cards = numbered_cards(rules, players)
        owner = players if deal == "shuffled" else 0
        per_card = 2 * players + squares + 1 + cards + 1 + owner
        games = [_ascent_positions(players, seed, rules) for seed in range(3)]
        if players == 2 and deal == "sets":
            games.append(_removal_positions())
        for game in games:
            for state in game:
                out = [0.0] * ascent_tensor_size(rules, players)
                assert len(out) == players + cards * per_card + squares + 4
                ascent_tensor(state, out)
                expected: dict[int, tuple[int | None, int | None, int | None, int, bool]] = {}
                for q, column in enumerate(state.columns):
                    for s, stack in enumerate(column):
                        flip = bool(state.flipped[q] >> s & 1)
                        for depth, c in enumerate(stack):
                            height = len(stack) - 1 - depth  # stacks are listed top first
                            expected[c] = (q, None, s, height, flip)
                for q, gone in enumerate(state.removed_cards):
                    for c in gone:
                        expected[c] = (None, q, None, 0, False)
                assert sorted(expected) == [c for c in range(cards) if state.owners[c] >= 0]
                for c in range(cards):
                    base = players + c * per_card
                    if c not in expected:
                        assert not any(_block(out, base, per_card))
                        continue
                    column, removed, square, height, flip = expected[c]
                    assert _block(out, base, players) == _one_hot(players, column)
                    assert _block(out, base + players, players) == _one_hot(players, removed)
                    at = base + 2 * players
                    assert _block(out, at, squares + 1) == _one_hot(squares + 1, square)
                    at += squares + 1
                    on_board = square is not None
                    assert _block(out, at, cards) == _one_hot(cards, height if on_board else None)
                    assert out[at + cards] == float(flip)
                    dealt = _block(out, at + cards + 1, owner)
                    assert dealt == (_one_hot(owner, state.owners[c]) if owner else [])
                    flipped_cards += flip
                    removed_cards += removed is not None
                    stacked += on_board and height > 0
    assert flipped_cards and stacked
    assert removed_cards or deal == "shuffled"
