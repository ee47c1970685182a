#!/usr/bin/env python3
"""An Ascent engine in plain Python (standard library only), for castlerules' conformance kit.

Written from the rules pages (ascent.md: the seed's clauses A1-A18 and the
reference interpretation, rules 1-19, and the interpretation notes), not
from castlerules' code: it imports nothing from castlerules.  It is two
things at once:

- a process speaking the protocol of spec/conform.md on standard input and
  output: ``python3 ascent.py [--plant NAME[,NAME]]``;
- a Python object with the methods of ``castlerules.conform.Engine``
  (``AscentEngine(plants=...)``), checked in-process without a pipe.

It plays the presets DEFAULT, GENEROUS and HARSH and the options in
``SUPPORTED``; any other reading is refused.  ``--plant`` plants a mistake
against one clause (``PLANTS``), for the kit's own tests.

    castlerules conform ascent -- python3 examples/engines/ascent.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

NAME = "ascent.py 1.0"
RANKS = "PBLCTF"  # Prince 6, Bishop 5, Lady 4, Charlatan 3, Troubadour 2, Fire-eater 1
VALUE = {letter: 6 - i for i, letter in enumerate(RANKS)}
SQUARES = 7  # the path (A5); square 0 is the Start

PLANTS = {
    "any-column": "A2: a seat may advance the cards of any column, not only its own",
    "no-split": "A3: only a whole stack moves, never a part of it",
    "ceiling-plus-one": "A6: a card may end one square above its arrival square",
    "exposing-split": "A7: a split may leave the remainder exposed above its ceiling",
    "favour-any-rank": "A10: a favour may take a stack led by an equal or higher rank",
    "favour-any-time": "A11: a favour played with no stack just moved is accepted (not listed)",
    "no-replay": "A12: the turn ends after a favour",
    "no-removal": "A13: an exposed remainder in the upper half stays on the board",
    "end-at-two": "A14: the game ends when at most two players are still in the race",
    "lowest-wins": "A17: the lowest score wins",
}

PRESETS: Mapping[str, Mapping[str, Any]] = {
    "DEFAULT": {},
    "GENEROUS": {"favours_per_move": None},
    "HARSH": {"removal_in_lower_half": True},
}
DEFAULTS: Mapping[str, Any] = {
    "upper_half": 4,  # rows 4-7 of the eight rows counting the Start (rule 6)
    "allow_exposing_split": False,
    "favours_per_move": 1,
    "favour_after_arrival": True,
    "removal_in_lower_half": False,
    "penalty_to": "column",
    "end_test": "unreached",
    "last_player_continues": False,
    "die": "first_player",  # only decides the deal, which the kit sends
    "deal": "sets",
}
SUPPORTED = tuple(DEFAULTS)


def arrival(card: str) -> int:
    """A rank's arrival square, its ceiling: its value + 1 (rule 4)."""
    return VALUE[card[0]] + 1


class Stack:
    """Cards on a square, top first; a stack is wholly flipped or not at all."""

    __slots__ = ("cards", "flipped")

    def __init__(self, cards: list[str], flipped: bool = False) -> None:
        self.cards = cards
        self.flipped = flipped


class AscentEngine:
    """One game of Ascent at a time; the methods of ``castlerules.conform.Engine``."""

    name = NAME
    games: Sequence[str] = ("ascent",)

    def __init__(self, plants: Sequence[str] = ()) -> None:
        unknown = [p for p in plants if p not in PLANTS]
        if unknown:
            raise ValueError(f"unknown plant {unknown[0]}; the plants are: {', '.join(PLANTS)}")
        self.plants = frozenset(plants)
        self.over = True
        self.rules: dict[str, Any] = dict(DEFAULTS)

    # ------------------------------------------------------------ the protocol

    def start(
        self, game: str, players: int, rules: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> bool:
        if game != "ascent" or not isinstance(players, int) or not 2 <= players <= 6:
            return False
        preset = rules.get("preset") if isinstance(rules, Mapping) else None
        if preset not in PRESETS:
            return False
        chosen = {**DEFAULTS, **PRESETS[preset]}
        for name, value in dict(rules.get("options") or {}).items():
            if name not in SUPPORTED:
                return False
            chosen[name] = value
        first = deal.get("first_player")
        if not isinstance(first, int) or not 0 <= first < players:
            return False
        self.rules = chosen
        self.n = players
        self.start_row: list[list[str]] = [[] for _ in range(players)]
        self.owner: dict[str, int] = {}
        if chosen["deal"] == "shuffled":
            owners = deal.get("owners")
            if not isinstance(owners, list) or len(owners) != 36:
                return False
            for number, seat in enumerate(owners):
                if isinstance(seat, int) and 0 <= seat < players:
                    card = f"{RANKS[number % 6]}{number // 6}"
                    self.start_row[seat].append(card)
                    self.owner[card] = seat
        else:
            for seat in range(players):  # rule 1: seat p holds set p, one card per rank
                self.start_row[seat] = [f"{letter}{seat}" for letter in RANKS]
                self.owner.update((card, seat) for card in self.start_row[seat])
        self.squares: list[list[Stack | None]] = [[None] * (SQUARES + 1) for _ in range(players)]
        self.removed: list[list[str]] = [[] for _ in range(players)]
        self.turn = first
        self.phase = "advance"  # or "favour" (after an Advance), "replay" (after a favour)
        self.moved_at = 0  # the square of the stack just moved
        self.favours_taken = 0
        self.over = False
        return True

    def legal(self) -> list[str]:
        if self.over:
            return []
        seat = self.turn
        if self.phase == "advance":
            return [c for c in self._cards_of(seat) if self._advance(seat, c) is not None]
        favours = [f"x{c}" for c in self._favours()]
        if self.phase == "favour":
            return [*favours, "end"]
        advances = [c for c in self._cards_of(seat) if self._advance(seat, c) is not None]
        return [*favours, *advances, "end"]

    def play(self, move: str) -> bool:
        if "favour-any-time" in self.plants and self.phase == "advance" and move[:1] == "x":
            return True  # accepted, and nothing happens
        if not isinstance(move, str) or move not in self.legal():
            return False
        if move == "end":
            self._end_turn()
        elif move.startswith("x"):
            self._take(move[1:])
        else:
            self._move(move)
        return True

    def status(self) -> dict[str, Any]:
        scores = self._scores()
        out: dict[str, Any] = {
            "to_move": None if self.over else self.turn,
            "over": self.over,
            "scores": scores,
        }
        if self.over:
            pick = min if "lowest-wins" in self.plants else max
            best = pick(scores)
            out["winners"] = [seat for seat, s in enumerate(scores) if s == best]
        return out

    # ------------------------------------------------------------ the board

    def _where(self, card: str) -> tuple[int, int, int] | None:
        """(column, square, index from the top) of a card on the board."""
        for column in range(self.n):
            if card in self.start_row[column]:
                return column, 0, 0
            for square in range(1, SQUARES + 1):
                stack = self.squares[column][square]
                if stack is not None and card in stack.cards:
                    return column, square, stack.cards.index(card)
        return None

    def _cards_of(self, seat: int) -> list[str]:
        """The unflipped cards a seat may choose (A2: those of its own column)."""
        columns = range(self.n) if "any-column" in self.plants else (seat,)
        out: list[str] = []
        for column in columns:
            out += self.start_row[column]
            for square in range(1, SQUARES + 1):
                stack = self.squares[column][square]
                if stack is not None and not stack.flipped:
                    out += stack.cards
        return out

    def _free(self, column: int, square: int, leader: str) -> bool:
        """A9: empty, or the leader's arrival square holding flipped cards."""
        stack = self.squares[column][square]
        if stack is None:
            return True
        return square == arrival(leader) and stack.flipped

    def _advance(self, seat: int, card: str) -> tuple[int, int, int, int] | None:
        """Where advancing ``card`` goes: (column, from, index, to), or None if it cannot."""
        found = self._where(card)
        if found is None:
            return None
        column, square, index = found
        if square > 0:
            stack = self.squares[column][square]
            assert stack is not None
            if stack.flipped:
                return None  # A8: flipped cards never move again
            if "no-split" in self.plants and index != len(stack.cards) - 1:
                return None
            leader = stack.cards[0]
            rest = stack.cards[index + 1 :]
            exposed = rest and square > arrival(rest[0])
            if (
                exposed
                and not self.rules["allow_exposing_split"]
                and "exposing-split" not in self.plants
            ):
                return None  # A7: protection lasts only while a higher card covers it
        else:
            leader = card
        to = square + 1
        while to <= SQUARES and not self._free(column, to, leader):
            to += 1  # A3: jump over occupied squares
        ceiling = arrival(leader) + ("ceiling-plus-one" in self.plants)
        if to > SQUARES or to > ceiling:
            return None  # A6
        return column, square, index, to

    def _move(self, card: str) -> None:
        found = self._advance(self.turn, card)
        assert found is not None
        column, square, index, to = found
        if square == 0:
            self.start_row[column].remove(card)
            part = [card]
        else:
            stack = self.squares[column][square]
            assert stack is not None
            part = stack.cards[: index + 1]
            stack.cards = stack.cards[index + 1 :]
            if not stack.cards:
                self.squares[column][square] = None
        leader = part[0]
        if to == arrival(leader):
            # A8: on its arrival square the part lands on any flipped cards, all flipped.
            below = self.squares[column][to]
            self.squares[column][to] = Stack(part + (below.cards if below else []), True)
        else:
            self.squares[column][to] = Stack(part)
        self.mover_column = column
        self.moved_at = to
        self.moved_part = len(part)
        self.favours_taken = 0
        if self._favours():
            self.phase = "favour"
        else:
            self._end_turn()

    def _favours(self) -> list[str]:
        """The cards a favour may take now (A10, A11), on the row of the stack just moved."""
        limit = self.rules["favours_per_move"]
        if limit is not None and self.favours_taken >= limit:
            return []
        row = self.moved_at
        taker = self.squares[self.mover_column][row]
        if row < 1 or taker is None:
            return []
        if taker.flipped and not self.rules["favour_after_arrival"]:
            return []
        rank = VALUE[taker.cards[0][0]]
        out: list[str] = []
        for column in range(self.n):
            if column == self.mover_column:
                continue
            stack = self.squares[column][row]
            if stack is None or stack.flipped:
                continue
            if VALUE[stack.cards[0][0]] < rank or "favour-any-rank" in self.plants:
                out += stack.cards
        return out

    def _take(self, card: str) -> None:
        column, row, index = self._where(card)  # type: ignore[misc]
        target = self.squares[column][row]
        taker = self.squares[self.mover_column][row]
        assert target is not None and taker is not None
        taken, rest = target.cards[: index + 1], target.cards[index + 1 :]
        # A10: under the moved part, above older flipped cards (a note of the rules).
        at = self.moved_part
        taker.cards = taker.cards[:at] + taken + taker.cards[at:]
        self.moved_part += len(taken)
        self.favours_taken += 1
        if not rest:
            self.squares[column][row] = None
        else:
            target.cards = rest
            upper = row >= self.rules["upper_half"] or self.rules["removal_in_lower_half"]
            if upper and row > arrival(rest[0]) and "no-removal" not in self.plants:
                # A13: the exposed remainder leaves the board, a penalty.
                self.squares[column][row] = None
                for removed in rest:
                    whose = column if self.rules["penalty_to"] == "column" else self.owner[removed]
                    self.removed[whose].append(removed)
        if "no-replay" in self.plants:
            self._end_turn()
            return
        self.phase = "replay"  # A12: play again, or end the turn
        if not self._favours() and not any(
            self._advance(self.turn, c) for c in self._cards_of(self.turn)
        ):
            self._end_turn()

    # ------------------------------------------------------------ turns and the end

    def _can_advance(self, seat: int) -> bool:
        return any(self._advance(seat, c) is not None for c in self._cards_of(seat))

    def _in_race(self, seat: int) -> bool:
        test = self.rules["end_test"]
        if test == "can_move":
            return self._can_advance(seat)
        if self.start_row[seat]:
            return True  # a card on the Start is unflipped and below its square
        for square in range(1, SQUARES + 1):
            stack = self.squares[seat][square]
            if stack is None or stack.flipped:
                continue
            if test == "unflipped" or any(square < arrival(c) for c in stack.cards):
                return True
        return False

    def _end_turn(self) -> None:
        """Rules 17-18: the end test, else the next seat that has a legal Advance."""
        self.phase = "advance"
        movers = [s for s in range(self.n) if self._can_advance(s)]
        racing = sum(self._in_race(s) for s in range(self.n))
        most = 2 if "end-at-two" in self.plants and self.n > 2 else 1
        if not movers or (not self.rules["last_player_continues"] and racing <= most):
            self.over = True
            return
        for step in range(1, self.n + 1):
            seat = (self.turn + step) % self.n
            if seat in movers:
                self.turn = seat
                return

    def _scores(self) -> list[int]:
        """A15, A16: plus a card's value on or above its square, minus below or removed."""
        scores = [0] * self.n
        for column in range(self.n):
            for card in self.start_row[column]:
                scores[column] -= VALUE[card[0]]
            for square in range(1, SQUARES + 1):
                stack = self.squares[column][square]
                for card in stack.cards if stack else ():
                    value = VALUE[card[0]]
                    scores[column] += value if square >= arrival(card) else -value
            for card in self.removed[column]:
                scores[column] -= VALUE[card[0]]
        return scores


def answer(engine: AscentEngine, request: Any) -> dict[str, Any]:
    """The answer to one request of the protocol."""
    if not isinstance(request, dict):
        return {"id": None, "error": "a request is a JSON object"}
    number, op = request.get("id"), request.get("op")
    if op == "hello":
        return {"id": number, "name": NAME, "games": ["ascent"], "protocol": 1}
    if op == "start":
        ok = engine.start(
            request.get("game", ""),
            request.get("players", 0),
            request.get("rules") or {},
            request.get("deal") or {},
        )
        return (
            {"id": number, "ok": ok} if ok else {"id": number, "ok": False, "error": "not played"}
        )
    if op == "legal":
        return {"id": number, "moves": engine.legal()}
    if op == "play":
        return {"id": number, "ok": engine.play(request.get("move"))}
    if op == "status":
        return {"id": number, **engine.status()}
    return {"id": number, "error": f"unknown request {op!r}"}


def main(argv: Sequence[str]) -> int:
    plants: list[str] = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--plant" and args:
            plants += args.pop(0).split(",")
        else:
            print(f"ascent.py: unknown argument {arg!r}", file=sys.stderr)
            return 2
    try:
        engine = AscentEngine(plants)
    except ValueError as err:
        print(f"ascent.py: {err}", file=sys.stderr)
        return 2
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        if isinstance(request, dict) and request.get("op") == "quit":
            break
        sys.stdout.write(json.dumps(answer(engine, request)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
