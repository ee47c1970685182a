"""legal_codes: the rule of legal_moves (B6-B11) read in numbers, for the adapters.

``legal_codes`` and ``legal_moves`` are one function body read through two
alphabets (``throne.rules.Codes``); these tests check that the two agree on
every reachable position of the proofs' small games (exhaustively) and on
random games of the full rules, and that the check catches a planted mistake
in the numbering.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from castlerules import throne
from castlerules.adapters.numbering import ThroneActions
from castlerules.core import Rng
from castlerules.throne.rules import Codes, derived
from castlerules.throne.transitions import legal_codes
from proofs.equivalence import THRONE_SCOPES, Scope, initial_positions


def agrees(state: throne.State) -> bool:
    """legal_codes(state) names exactly legal_moves(state), in increasing order (B6-B11)."""
    codes = legal_codes(state)
    moves = derived(state.rules).codes.moves
    return tuple(moves[k] for k in codes) == throne.legal_moves(state) and list(codes) == sorted(
        set(codes)
    )


def reachable(scope: Scope) -> list[throne.State]:
    """Every position reachable in the scope's games (every deal, every move)."""
    seen: set[str] = set()
    queue = deque(initial_positions(scope))
    out = []
    while queue:
        state = queue.popleft()
        key = throne.to_text(state)
        if key in seen:
            continue
        seen.add(key)
        out.append(state)
        queue.extend(throne.apply(state, m) for m in throne.legal_moves(state))
    return out


@pytest.mark.parametrize("scope", THRONE_SCOPES, ids=[s.name for s in THRONE_SCOPES])
def test_codes_agree_with_moves_on_every_position_of_the_small_games(scope: Scope) -> None:
    """B6 (placement floors), B7 (room), B8 (climbs), B11 (votes), pass: exhaustively."""
    positions = reachable(scope)
    phases = {s.phase for s in positions}
    assert len(positions) > 1000 and len(phases) == 4  # every phase is visited
    assert all(agrees(s) for s in positions)


@pytest.mark.parametrize(
    "rules",
    [
        throne.Rules(),
        throne.Rules.preset("ORIGINAL"),
        throne.Rules(allow_pass=True, placement_floors=(1, 2, 4, 5)),
    ],
    ids=["SEED", "ORIGINAL", "pass-floors-1245"],
)
def test_codes_agree_with_moves_on_random_games(rules: throne.Rules) -> None:
    """The same on random games of the full rules, every player count (B3-B11)."""
    rng = Rng.from_seed(11, "test.codes")
    checked = 0
    for players in throne.PLAYERS:
        for seed in range(4):
            state = throne.new_game(players, rules, seed=seed)
            while True:
                assert agrees(state), throne.to_text(state)
                checked += 1
                moves = throne.legal_moves(state)
                if not moves:
                    break
                move, rng = rng.choice(moves)
                state = throne.apply(state, move)
    assert checked > 2000


def test_the_adapters_number_moves_as_the_engine_does() -> None:
    """ThroneActions takes the engine's numbering; its legal() is legal_codes (B6, B8, B11)."""
    rules = throne.Rules(allow_pass=True)
    table = ThroneActions(rules, 4)
    assert table.moves == derived(rules).codes.moves
    assert [table.code(m) for m in table.moves] == list(range(table.count))
    state = throne.new_game(4, rules, seed=3)
    assert table.legal(state) == list(legal_codes(state))


def test_the_agreement_check_catches_a_planted_numbering_mistake(monkeypatch: Any) -> None:
    """Not vacuous: climbs numbered one off (the numbers of the next character, B8) and
    a No offered without a No card (B11) are each caught on the small games."""
    scope = THRONE_SCOPES[0]
    positions = reachable(scope)
    rules = positions[0].rules  # the one Rules object of the scope's games
    table = derived(rules)
    right = table.codes
    wrong = Codes(rules, table.place_floors)
    wrong.climbs = (*right.climbs[1:], right.climbs[0])
    monkeypatch.setattr(table, "codes", wrong)
    assert not all(agrees(s) for s in positions)
    wrong = Codes(rules, table.place_floors)
    wrong.votes_yes = right.votes_no
    monkeypatch.setattr(table, "codes", wrong)
    assert not all(agrees(s) for s in positions)
    monkeypatch.setattr(table, "codes", right)
    assert all(agrees(s) for s in positions)
