"""A referee at the table: positions without the objectives (``?``), moves played first.

B14, B15: the rules read an objective only to score its round; ``explain``
answers from a position whose objectives are unknown, says when the answer
depends on one (naming the seat and every score it could give), and never
shows an objective that the position did not give.

``explain`` is asked through :func:`castlerules.cli.main` in this process
(``run_main``); its exit statuses on a real process are checked in test_explain.py.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from castlerules import ascent, throne
from castlerules.core import NotationError, Rng
from castlerules.throne import notation

Cli = Callable[..., Any]

UNKNOWN_ALL = "throne SEED 4 1 movement 1 H/BFI/CDJ/EL/AGKM/-/- - 3/3/3/3 - 0 ? - -"
"""The issue's position: every objective unknown."""
KNOWN = (
    "throne SEED 4 1 election 1 I/AEGJ/CFHM/D/B/-/K L 3/2/3/3 y.yy 0 "
    "CDEJKM,DEGIKL,ABCFHK,DEFGJL/CEGJKM,AEIJLM,ABEFJM,DEFGHK/BEFJKL,CDGHIM,ACEHJL,AEHKLM - -"
)
"""An election whose last vote (seat 1's yes) crowns K and scores round 1."""
SCORING = KNOWN.replace(
    "CDEJKM,DEGIKL,ABCFHK,DEFGJL/CEGJKM,AEIJLM,ABEFJM,DEFGHK/BEFJKL,CDGHIM,ACEHJL,AEHKLM",
    "CDEJKM,?,ABCFHK,DEFGJL/?,?,?,?/?,?,?,?",
)
"""The same, seat 1's objective of round 1 and every later one unknown."""


def stand_ins(text: str) -> set[str]:
    """The objectives that read_partial invented for ``text`` (never to be shown)."""
    read = notation.read_partial(text)
    full = throne.to_text(read.state).split(" ")[11].split("/")
    return {full[r - 1].split(",")[s] for r, s in read.unknown}


# --------------------------------------------------------------------------- the notation


def test_read_partial_reads_question_marks_and_writes_them_back() -> None:
    read = notation.read_partial(UNKNOWN_ALL)
    assert read.unknown == {(r, s) for r in (1, 2, 3) for s in range(4)}
    assert read.text() == UNKNOWN_ALL
    read = notation.read_partial(SCORING)
    assert read.unknown == {(1, 1)} | {(r, s) for r in (2, 3) for s in range(4)}
    assert read.text() == SCORING
    # Stand-ins are distinct from the round's known objectives and from each other.
    for deal in read.state.objectives:
        assert len(set(deal)) == 4
    # Everything else is checked as from_text checks it.
    overfull = "throne SEED 4 1 movement 1 -/BI/CDJ/EFGHL/AKM/-/- - 3/3/3/3 - 0 ? - -"
    with pytest.raises(NotationError, match=r"floor 4 holds 5 characters, more than 4 \(B7\)"):
        notation.read_partial(overfull)
    spelled_out = UNKNOWN_ALL.replace(" ? ", " " + "/".join(["?,?,?,?"] * 3) + " ")
    with pytest.raises(NotationError, match="not the canonical notation"):
        notation.read_partial(spelled_out)


def test_from_text_refuses_a_question_mark_and_names_the_reader() -> None:
    for text in (UNKNOWN_ALL, SCORING):
        with pytest.raises(NotationError, match=r"read by throne\.notation\.read_partial"):
            throne.from_text(text)
    with pytest.raises(NotationError, match=r"the objectives list 3 rounds separated by '/'"):
        throne.from_text(UNKNOWN_ALL.replace(" ? ", " - "))


def test_a_finished_game_with_unknown_objectives_keeps_its_written_scores() -> None:
    """Once over, a stand-in gives the seat's written score of the last round; a score that no
    objective can give with the final castle is refused (B14, B15)."""
    state = throne.new_game(3, seed=4)
    rng = Rng.from_seed(4, "referee")
    while not throne.is_over(state):
        move, rng = rng.choice(throne.legal_moves(state))
        state = throne.apply(state, move)
    parts = throne.to_text(state).split(" ")
    deals = parts[11].split("/")
    deals[2] = "?," + deals[2].split(",", 1)[1]
    parts[11] = "/".join(deals)
    text = " ".join(parts)
    read = notation.read_partial(text)
    assert read.text() == text and throne.scores(read.state) == throne.scores(state)
    rows = parts[12].split("/")
    first, rest = rows[2].split(",", 1)
    rows[2] = f"{int(first) + 100},{rest}"  # far above any castle's points
    parts[12] = "/".join(rows)
    with pytest.raises(NotationError):
        notation.read_partial(" ".join(parts))


def test_only_the_scoring_of_a_round_reads_its_objectives() -> None:
    """The design's premise, checked on seeded games: two different completions of every
    objective give the same answer to every legal move, apart from the scores of a round
    the move ends (and the objectives themselves)."""
    for seed in range(6):
        state = throne.new_game(4, seed=seed)
        rng = Rng.from_seed(seed, "premise")
        cards = notation.objective_cards(state.rules)
        alternative = tuple(tuple(cards[-1 - k] for k in range(4)) for _ in range(3))
        assert alternative != state.objectives
        while not throne.is_over(state):
            other = attrs.evolve(state, objectives=alternative)
            for move in throne.legal_moves(state):
                one, two = throne.apply(state, move), throne.apply(other, move)
                scored = len(one.results) > len(state.results)
                a, b = throne.to_text(one).split(" "), throne.to_text(two).split(" ")
                assert a[:11] == b[:11] and a[13:] == b[13:]
                if not scored:
                    assert a[12] == b[12]
                    assert throne.describe(state, move, one) == throne.describe(other, move, two)
            move, rng = rng.choice(throne.legal_moves(state))
            state = throne.apply(state, move)


# --------------------------------------------------------------------------- explain


def test_the_issues_position_is_answered_without_objectives(run_main: Cli) -> None:
    done = run_main("explain", "throne", UNKNOWN_ALL, "E+")
    assert done.returncode == 1, done.stderr
    assert "ILLEGAL: Character E cannot climb from floor 4 to floor 5" in done.stdout
    assert "(no objective is given; the rules read an objective only to score its round, " in (
        done.stdout
    )
    done = run_main("explain", "throne", UNKNOWN_ALL, "H+")
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("position after:\n  ", 1)[1].strip()
    assert after == "throne SEED 4 1 movement 2 -/BFHI/CDJ/EL/AGKM/-/- - 3/3/3/3 - 0 ? - -"
    assert not any(card in done.stdout for card in stand_ins(UNKNOWN_ALL))


def test_a_score_that_depends_on_an_unknown_objective_says_so(run_main: Cli) -> None:
    done = run_main("explain", "throne", SCORING, "yes")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "The score depends on seat 1's objective (not given): round 1 is scored" in out
    assert "seat 1 ? (its objective is not given)" in out
    assert "position after: not written, its scores depend on seat 1's objective" in out
    # Every score seat 1 could get: each objective it could hold, played in full.
    known = KNOWN.split(" ")[11].split("/", maxsplit=1)[0].split(",")
    letters = "ABCDEFGHIJKLM"
    possible = set()
    for chosen in itertools.combinations(letters, 6):
        card = "".join(chosen)
        if card in known:
            continue
        text = KNOWN.replace(f"CDEJKM,{known[1]},", f"CDEJKM,{card},", 1)
        state = throne.from_text(text)
        possible.add(throne.apply(state, throne.parse_move(state, "yes")).results[0][1])
    listed = out.split("seat 1 scores one of ", 1)[1].split(", by its objective")[0]
    assert [int(v) for v in listed.replace(" or ", ", ").split(", ")] == sorted(possible)
    data = json.loads(run_main("explain", "throne", SCORING, "yes", "--json").stdout)
    assert data["after"] is None
    assert data["depends_on_unknown"] == [
        {"round": 1, "seat": 1, "possible_scores": sorted(possible)}
    ]
    assert data["position"] == SCORING
    shown = out + json.dumps(data)
    assert not any(card in shown for card in stand_ins(SCORING))
    # The other seats' scores are known: they are given.
    assert "seat 0 19, seat 1 ?" in out and "seat 2 21, seat 3 8." in out


def test_what_would_show_an_unknown_objective_is_refused(run_main: Cli, tmp_path: Any) -> None:
    done = run_main("explain", "throne", SCORING, "yes", "--compare")
    assert done.returncode == 2 and "depend on seat 1's objective" in done.stderr
    done = run_main("explain", "throne", UNKNOWN_ALL, "H+", "--svg", str(tmp_path / "x.svg"))
    assert done.returncode == 2 and "--svg draws every seat's objective" in done.stderr
    assert not list(tmp_path.iterdir())
    done = run_main("explain", "throne", SCORING, "A1", "--after", "yes")
    assert done.returncode == 2 and "--after: move 1 (yes) scores round 1" in done.stderr
    # A comparison that does not depend on them is shown, with the texts masked.
    done = run_main("explain", "throne", UNKNOWN_ALL, "H+", "--compare")
    assert done.returncode == 0 and "Compared under" in done.stdout
    assert not any(card in done.stdout for card in stand_ins(UNKNOWN_ALL))


def test_after_chains_moves_from_a_position(run_main: Cli) -> None:
    """'Seat 1 has just moved P1': --after plays the moves, then judges MOVE mid-turn."""
    done = run_main("explain", "ascent", "new:2", "xB0", "--after", "B0 P1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Ascent, rules DEFAULT: after B0 P1, seat 1 plays xB0"
    start = ascent.new_game(2, seed=0)
    for text in ("B0", "P1"):
        start = ascent.apply(start, ascent.parse_move(start, text))
    assert lines[2] == "  " + ascent.to_text(start) and " 1:1:1:0 " in lines[2]
    data = json.loads(
        run_main("explain", "ascent", "new:2", "xB0", "--after", "B0,P1", "--json").stdout
    )
    assert data["after_moves"] == ["B0", "P1"] and data["position"] == ascent.to_text(start)
    for chain, why in (("B0 B0", "move 2 (B0) is illegal there: "), ("B0 P9", "cannot be read")):
        done = run_main("explain", "ascent", "new:2", "xB0", "--after", chain)
        assert done.returncode == 2 and why in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""
    # The unknown objectives carry through a chain that scores nothing.
    done = run_main("explain", "throne", UNKNOWN_ALL, "C+", "--after", "H+")
    assert done.returncode == 0, done.stderr
    assert "position then:\n  throne SEED 4 1 movement 2 -/BFHI/" in done.stdout
