"""castlerules.adapters.numbering: the tensors' blocks that ``test_numbering`` does not
read back: Throne's "who has voted" plane, turn, round, phase and passes (B8, B10,
B11), and Ascent's turn step, the square, the cards moved and the favours taken
(A10, A12).  Found by the held-out mutations (``proofs/heldout.py``): a plane
shifted by one seat and the favours written as the moved count went unnoticed."""

from __future__ import annotations

from collections.abc import Iterator

from castlerules import ascent, throne
from castlerules.adapters.numbering import (
    ThroneEncoder,
    ascent_tensor,
    ascent_tensor_size,
    numbered_cards,
)
from castlerules.core import Rng

PHASES = ("placement", "movement", "election", "over")


def _games(module: object, players: int, seeds: range, rules: object) -> Iterator[object]:
    for seed in seeds:
        rng = Rng.from_seed(seed, "tensor blocks")
        state = module.new_game(players, rules, seed=seed)  # type: ignore[attr-defined]
        yield state
        while moves := module.legal_moves(state):  # type: ignore[attr-defined]
            move, rng = rng.choice(moves)
            state = module.apply(state, move)  # type: ignore[attr-defined]
            yield state


def _one_hot(length: int, at: int | None) -> list[float]:
    return [1.0 if k == at else 0.0 for k in range(length)]


def test_the_throne_tensor_reads_back_who_voted_the_turn_round_phase_and_passes() -> None:
    """B10, B11: during an election, the seats that have voted (face down: whether, not
    how); B8: the passes in a row; the seat to act, the round, the phase."""
    players = 4
    rules = throne.Rules(allow_pass=True)
    encoder = ThroneEncoder(rules, players)
    partial = 0
    for state in _games(throne, players, range(4), rules):
        assert isinstance(state, throne.State)
        for seat in range(players):
            obs = throne.observation(state, seat)
            out = [0.0] * encoder.size
            encoder.write(obs, out)
            voted = out[encoder.voted_at : encoder.voted_at + players]
            want = [float(v) for v in obs.voted] if obs.phase == "election" else [0.0] * players
            assert voted == want
            partial += 0 < sum(want) < players
            turn = out[encoder.turn_at : encoder.turn_at + players]
            assert turn == _one_hot(players, obs.turn)
            rounds = out[encoder.round_at + 1 : encoder.round_at + 1 + rules.rounds]
            assert rounds == _one_hot(rules.rounds, obs.round - 1)
            phase = out[encoder.phase_at : encoder.phase_at + 4]
            assert phase == _one_hot(4, PHASES.index(obs.phase))
            assert out[encoder.passes_at] == float(obs.passes)
    assert partial > 0


def test_the_ascent_tensor_reads_back_the_turns_step() -> None:
    """A12: the step of the turn (the square of the stack just moved, one-hot, or the
    last slot at the start of a turn), the cards it moved and the favours taken (A10)."""
    favours_seen = differs = 0
    for players in (2, 3):
        rules = ascent.Rules(favours_per_move=None)
        squares = rules.squares
        size = ascent_tensor_size(rules, players)
        step_at = size - (squares + 4)
        assert step_at == players + numbered_cards(rules, players) * (
            2 * players + squares + 1 + numbered_cards(rules, players) + 1
        )
        for state in _games(ascent, players, range(4), rules):
            assert isinstance(state, ascent.State)
            out = [0.0] * size
            ascent_tensor(state, out)
            square = _one_hot(squares + 2, squares + 1 if state.step is None else state.step[0])
            assert out[step_at : step_at + squares + 2] == square
            moved, favours = (0, 0) if state.step is None else state.step[1:3]
            assert out[step_at + squares + 2 : step_at + squares + 4] == [moved, favours]
            favours_seen += favours > 0
            differs += favours != moved
    assert favours_seen and differs
