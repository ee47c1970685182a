"""``explain --compare`` replays the whole dispute under every reading (issue 43).

The comparison (:func:`castlerules.register.dispute.compare`) reads the position
under each reading (a new game dealt under it, a written position read back under
it), plays each ``--after`` move, then judges the move; a reading under which the
dispute does not replay disagrees and says why; readings that cannot apply are listed
with the reason.  The tests check the two disputes of the issue, then a held-out set
of disputes against an oracle written here with the public API only (a new game under
each reading, ``parse_move`` and ``apply``): every row's status must be the oracle's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from castlerules import ascent, throne
from castlerules.casebook.play import tries
from castlerules.core import IllegalMove, NotationError, Rng, RulesError
from castlerules.register import dispute

Cli = Callable[..., Any]

THRONE_AFTER = "A1 B1 C1 D1 E2 F2 G2 H2 I3 J3 K3 L4 M5"
ASCENT_OVER = (
    "P0B0L0C0T0F0,-,-,-,-,-,-,-/-,T1,*F1,F2,*C1,*L1,*B1,*P1/-,-,-,*T2,*C2,*L2,*B2,*P2 -/-/- 0 -"
)


def test_b8_movement_starter_disagrees_when_the_dispute_is_replayed(run_cli: Cli) -> None:
    """The issue's first dispute: after 13 placements, under movement_starter=first_player
    seat 0 moves first, so its M+ is legal; the base (SEED) refuses it (B8)."""
    args = ("explain", "throne", "new:4:7", "M+", "--after", THRONE_AFTER, "--seat", "0")
    done = run_cli(*args, "--compare")
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert "all of them agree" not in out and "none disagrees" not in out
    assert "    movement_starter=first_player: LEGAL:\n" in out
    assert (
        "      why: M+ is legal under this reading; the base refuses it (B8); the position "
        "before the move differs: the seat to act: 0 (the base: 1)"
    ) in out
    # ORIGINAL places on floors 2-5: the first --after move is already refused there.
    assert (
        "    ORIGINAL: --after move 1 (A1) is illegal under this reading: Character A cannot be "
        "placed on floor 1: placement is on floors 2-5 only (B6)"
    ) in out
    data = json.loads(run_cli(*args, "--compare", "--json").stdout)["compare"]
    assert "movement_starter=first_player" in data["disagree"]
    row = next(r for r in data["readings"] if r["reading"] == "movement_starter=first_player")
    assert row["status"] == "disagrees" and row["legal"] is True and row["stage"] == "move"
    assert row["differences"] == ["the seat to act: 0 (the base: 1)"]
    original = next(r for r in data["readings"] if r["reading"] == "ORIGINAL")
    assert (original["stage"], original["at_move"], original["clause"]) == ("after", 1, "B6")


def test_a14_a_reading_under_which_the_game_is_over_disagrees(run_cli: Cli) -> None:
    """The issue's second dispute: under end_test=can_move the position is already over,
    so the comparison names that reading in the default output, with the final scores."""
    done = run_cli("explain", "ascent", ASCENT_OVER, "F0", "--compare")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "all of them agree" not in out
    assert "    end_test=can_move: ILLEGAL: the game is over: F0 cannot be played (A14)\n" in out
    assert (
        "      why: the game is already over in this position under this reading (its end "
        "test, A14): scores -21, 18, 20; won by seat 2"
    ) in out
    assert "    HARSH: the position cannot exist under this reading: card F2 stands" in out
    data = json.loads(
        run_cli("explain", "ascent", ASCENT_OVER, "F0", "--compare", "--json").stdout
    )["compare"]
    assert data["disagree"] == ["HARSH", "end_test=can_move", "deal=shuffled", "path=staggered"]
    row = next(r for r in data["readings"] if r["reading"] == "end_test=can_move")
    assert (row["stage"], row["legal"], row["clause"]) == ("over", False, "A14")


# ---------------------------------------------------------------------------
# The JSON shape (the desk shows it; docs/cli.rst describes it)

ROW_KEYS = {"reading", "status", "agrees", "applicable", "stage", "reason", "at_move"}


def test_the_json_comparison_has_the_documented_shape(run_cli: Cli) -> None:
    done = run_cli("explain", "throne", "new:4", "C1", "--compare", "--json")
    data = json.loads(done.stdout)["compare"]
    assert set(data) == {
        "base",
        "dispute",
        "base_answer",
        "readings",
        "disagree",
        "agree",
        "cannot_apply",
        "depends",
        "not_varied",
        "excluded",
    }
    assert data["dispute"] == {"new_game": "new:4:0", "after_moves": [], "move": "C1", "seat": None}
    assert "after" not in data["base_answer"]  # the answer's own "after" holds it
    assert data["base_answer"]["legal"] is True and data["base_answer"]["summary"].startswith(
        "LEGAL: Seat 0 places C"
    )
    for row in data["readings"]:
        assert ROW_KEYS | {"differences", "legal", "summary"} <= set(row)
        assert row["status"] in dispute.STATUSES and row["stage"] in dispute.STAGES
        assert row["agrees"] == (row["status"] == "agrees")
        assert row["applicable"] == (row["status"] != "cannot apply")
        assert bool(row["reason"]) == (row["status"] != "agrees"), row
        if row["legal"] is True:
            throne.from_text(row["after"])  # a whole position: it reads back
    labels = [r["reading"] for r in data["readings"]]
    assert data["disagree"] + data["agree"] + [r["reading"] for r in data["cannot_apply"]] == [
        label
        for status in ("disagrees", "agrees", "cannot apply")
        for label, row in zip(labels, data["readings"], strict=True)
        if row["status"] == status
    ]


# ---------------------------------------------------------------------------
# A held-out set of disputes, against an oracle of the public API


def _board(module: Any, state: Any) -> str:
    parts = module.to_text(state).split(" ")
    if module is throne:
        return " ".join(parts[:1] + parts[2:])
    return " ".join(parts[:3])


def _oracle(
    module: Any, players: int, seed: int, rules: Any, after: tuple[str, ...], move: str
) -> tuple[object, ...]:
    """The answer under ``rules``, replayed from a new game with the public API only."""
    try:
        state = module.new_game(players, rules=rules, seed=seed)
    except (RulesError, ValueError):
        return ("no game",)
    for text in after:
        try:
            state = module.apply(state, module.parse_move(state, text, check=False))
        except RulesError:
            return ("stopped",)
    if module.is_over(state):
        return ("over",)
    try:
        parsed = module.parse_move(state, move, check=False)
    except NotationError:
        return ("unreadable",)
    try:
        result = module.apply(state, parsed)
    except IllegalMove as err:
        return (False, err.clause, str(err))
    return (True, _board(module, result), tuple(module.describe(state, parsed, result)))


def _disputes(module: Any, count: int) -> list[tuple[int, int, tuple[str, ...], str]]:
    """``count`` disputes from new games: players, seed, the moves first, the move asked
    (a legal move, or one a player might try), drawn from seeded streams."""
    out = []
    for seed in range(count):
        rng = Rng.from_seed(seed, f"tests.compare.{module.NAME}")
        players, rng = rng.choice(tuple(module.PLAYERS))
        length, rng = rng.choice(tuple(range(40)))
        state = module.new_game(players, seed=seed)
        after = []
        for _ in range(length):
            if module.is_over(state):
                break
            move, rng = rng.choice(module.legal_moves(state))
            after.append(str(move))
            state = module.apply(state, move)
        pool = module.legal_moves(state) if seed % 2 and not module.is_over(state) else ()
        asked, rng = rng.choice(tuple(pool) or tuple(tries(module, state)))
        out.append((players, seed, tuple(after), str(asked)))
    return out


@pytest.mark.parametrize("module", [throne, ascent], ids=["throne", "ascent"])
def test_a_held_out_set_of_disputes_agrees_with_the_oracle(module: Any) -> None:
    """Every row of every dispute says what the oracle says: agrees exactly when the answer
    under that reading is the base's; a dispute that does not replay disagrees, with why."""
    seen = {dispute.AGREES: 0, dispute.DISAGREES: 0}
    for players, seed, after, move in _disputes(module, 20):
        start = dispute.Start.read(module, f"new:{players}:{seed}")
        found = dispute.compare(module, start, move=move, moves=after)
        base = _oracle(module, players, seed, module.Rules(), after, move)
        for row in found.rows:
            if row.status == dispute.CANNOT_APPLY:
                assert row.rules is None and row.reason
                continue
            mine = _oracle(module, players, seed, row.rules, after, move)
            expected = dispute.AGREES if mine == base else dispute.DISAGREES
            if mine == ("over",) == base:
                expected = row.status  # both over: the same refusal (checked by the key)
            assert row.status == expected, (players, seed, after, move, row.label, mine)
            if row.status == dispute.DISAGREES:
                assert row.reason, row
                if mine[0] in ("no game", "stopped"):
                    assert row.stage in ("position", "after", "over"), row
            seen[row.status] += 1
        lines = "\n".join(found.lines())
        for row in found.rows:
            assert row.label in lines
    assert seen[dispute.AGREES] and seen[dispute.DISAGREES]  # both kinds were asked


def test_a_written_position_is_read_under_each_reading() -> None:
    """A written start is the same position under each reading (its rules field rewritten,
    read back by from_text): the move is judged there, not in the base's successor."""
    state = throne.new_game(4, seed=3)
    for text in THRONE_AFTER.split():
        state = throne.apply(state, throne.parse_move(state, text))
    start = dispute.Start.read(throne, throne.to_text(state))
    found = dispute.compare(throne, start, move="M+", seat=0)
    row = found.row("movement_starter=first_player")
    # The position says seat 1 is to act, and under that reading it can exist as written.
    assert row.status == dispute.AGREES and not row.differences
    assert found.base.clause == "B8"


def test_every_divergence_of_the_register_is_a_disagreement_of_the_comparison() -> None:
    """The register and the comparison agree: where the register finds two readings part
    on a move (the same seeded game, moves legal under both), the comparison of that
    dispute (the new game, the moves before, the move) names that reading as disagreeing."""
    from castlerules import register

    checked = 0
    for module in (throne, ascent):
        for point in register.open_points(module):
            if point.excluded is not None:
                continue
            for other in point.readings[1:]:
                found = register.diverge(module, point.readings[0], other)
                if found is None or found.move is None:
                    continue
                start = dispute.Start.read(module, f"new:{found.players}:{found.seed}")
                compared = dispute.compare(module, start, moves=found.moves, move=found.move)
                rows = [r for r in compared.rows if r.rules == other.rules(module)]
                assert rows and all(r.status == dispute.DISAGREES for r in rows), other.label
                checked += 1
    assert checked >= 8
