"""Playing a case's game: one loop for the search and for the replay.

:func:`run` plays a case's game under its reading (or, for a reading case,
under both readings in lockstep, with the moves legal under both) and asks
the case's condition at every step.  The moves come from a *chooser*: the
search chooses by index among the legal moves (a policy, or a list of
choices that Hypothesis and the shortening edit); the replay
(:mod:`castlerules.casebook.check`) reads the recorded texts with
``parse_move``.  Everything goes through the public API of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from castlerules import ascent, throne
from castlerules.casebook.declare import Case, Game, Moment, Outcome, Refusal, Split
from castlerules.core import IllegalMove, RulesError

__all__ = ["MAX_PLIES", "Hit", "outcome", "run", "split_at", "start", "tries"]

MAX_PLIES = 1500
"""No game of either game is longer (Throne: 3 rounds of at most a few hundred plies)."""

Chooser = Callable[[int, Any, Sequence[Any]], Any]
"""``(ply, state, legal moves) -> move``, or None to stop (the choices ran out)."""


@attrs.frozen(slots=True)
class Hit:
    """What a game showed: the moves played (texts), the move tried after them, the view."""

    moves: tuple[str, ...]
    tried: str | None
    shown: Moment | Game | Refusal | Split


def start(case: Case, players: int, seed: int) -> tuple[Any, ...]:
    """The first position under each reading of the case (one, or two for a reading case)."""
    module = case.module
    rules = [case.rules()]
    if case.kind == "reading":
        rules.append(case.second_rules())
    return tuple(module.new_game(players, rules=r, seed=seed) for r in rules)


def tries(module: Any, state: Any) -> list[Any]:
    """The moves a player might try in ``state``, legal or not, in a natural order."""
    if module is throne:
        letters = state.rules.letters()
        top = state.rules.throne_floor
        return [
            *(throne.Place(x, f) for x in letters for f in range(1, top + 1)),
            *(throne.Climb(x) for x in letters),
            throne.Vote(False),
            throne.Vote(True),
            throne.Pass(),
        ]
    cards = [ascent.Card(owner, rank) for owner in range(state.players) for rank in ascent.Rank]
    return [
        *(ascent.Advance(c) for c in cards),
        *(ascent.Favour(c) for c in cards),
        ascent.EndTurn(),
    ]


def outcome(module: Any, state: Any, move: Any, ply: int) -> Outcome:
    """What ``move`` does in ``state``: a Moment, a Refusal (IllegalMove), or None."""
    try:
        after = module.apply(state, move)
    except IllegalMove as err:
        return Refusal(module, ply, state, move, err)
    except RulesError:
        return None
    events = tuple(module.describe(state, move, after))
    return Moment(module, ply + 1, module.current_player(state), state, move, after, events)


def _said(result: Outcome) -> str:
    if isinstance(result, Moment):
        return "\n".join(str(e) for e in result.events)
    if isinstance(result, Refusal):
        return f"refused: {result.error}"
    return "not a move here"


def _view(module: Any, state: Any, seat: int) -> object:
    seen = module.observation(state, seat)
    if not attrs.has(type(seen)):
        return seen
    skip = {"rules", "tables", "moves", "occupied"}
    return {f.name: getattr(seen, f.name) for f in attrs.fields(type(seen)) if f.name not in skip}


def split_at(case: Case, states: tuple[Any, Any], ply: int) -> Split | None:
    """Where the readings disagree in this position before any move (None if they agree).

    In order: who is to act, which moves are legal (the first move legal
    under one reading only is the split's move), what a seat may see (unless the
    case's condition does not accept that view: then the search plays on), and
    at the end the result.
    """
    module = case.module
    a, b = states
    turn = (module.current_player(a), module.current_player(b))
    if turn[0] != turn[1]:
        texts = tuple("the game is over" if t is None else f"seat {t} is to act" for t in turn)
        return Split(module, "turn", states, None, None, None, *texts)
    legal_a = [str(m) for m in module.legal_moves(a)]
    legal_b = [str(m) for m in module.legal_moves(b)]
    if set(legal_a) != set(legal_b):
        text = next(m for m in [*legal_a, *legal_b] if (m in legal_a) != (m in legal_b))
        one = outcome(module, a, _parse(module, a, b, text), ply)
        two = outcome(module, b, _parse(module, b, a, text), ply)
        return Split(module, "outcome", states, text, one, two, _said(one), _said(two))
    for seat in range(a.players):
        seen_a, seen_b = _view(module, a, seat), _view(module, b, seat)
        if seen_a != seen_b:
            seen = Split(
                module,
                "view",
                states,
                None,
                None,
                None,
                f"seat {seat} sees {_show(seen_a, seen_b)}",
                f"seat {seat} sees {_show(seen_b, seen_a)}",
            )
            if case.when is None or case.when(seen):
                return seen
            # A view the case does not show (the readings' boards differ from the start,
            # as path="staggered"'s): the game goes on to where a move parts them.
            break
    if not legal_a and module.is_over(a) and module.is_over(b):
        results = [(module.scores(s), module.winners(s)) for s in (a, b)]
        if results[0] != results[1]:
            said = [f"scores {list(sc)}, winners {list(w)}" for sc, w in results]
            return Split(module, "result", states, None, None, None, said[0], said[1])
    return None


def _parse(module: Any, state: Any, other: Any, text: str) -> Any:
    """The move ``text`` as an object, read where it is legal (it is legal in one of them)."""
    for where in (state, other):
        try:
            return module.parse_move(where, text)
        except IllegalMove:
            continue
    raise AssertionError(f"{text} is legal in neither position")  # pragma: no cover


def _show(mine: object, theirs: object) -> str:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        name = next(k for k in mine if mine[k] != theirs.get(k))
        return f"{name} = {mine[name]}"
    return str(mine)


def run(case: Case, states: tuple[Any, ...], choose: Chooser, limit: int = MAX_PLIES) -> Hit | None:
    """Play the case's game from ``states`` with ``choose``; the first thing it shows, or None.

    A step case stops at the first move ``when`` accepts; a refusal case at
    the first position where a move a player might try is refused as
    ``when`` wants; a reading case where the readings first disagree (and
    ``when``, if any, accepts); a game case at the end of the game.
    """
    module = case.module
    when = case.when
    kind = case.kind
    moves: list[str] = []
    moments: list[Moment] = []
    for ply in range(limit):
        state = states[0]
        if kind == "refusal":
            assert when is not None
            legal_text = {str(m) for m in module.legal_moves(state)}
            for move in tries(module, state):
                if str(move) in legal_text:
                    continue
                found = outcome(module, state, move, ply)
                if isinstance(found, Refusal) and when(found):
                    return Hit(tuple(moves), str(move), found)
        elif kind == "reading":
            split = split_at(case, (states[0], states[1]), ply)
            if split is not None:
                return Hit(tuple(moves), split.move, split) if not when or when(split) else None
        legal = list(module.legal_moves(state))
        if kind == "reading" and legal:
            other = {str(m) for m in module.legal_moves(states[1])}
            legal = [m for m in legal if str(m) in other]
        if not legal:
            break
        move = choose(ply, state, legal)
        if move is None:
            return None
        text = str(move)
        moment = outcome(module, state, move, ply)
        assert isinstance(moment, Moment)
        if kind == "reading":
            second = outcome(
                module, states[1], module.parse_move(states[1], text, check=False), ply
            )
            if _said(moment) != _said(second):
                split = Split(
                    module, "outcome", (states[0], states[1]), text, moment, second,
                    _said(moment), _said(second),
                )  # fmt: skip
                return Hit(tuple(moves), text, split) if not when or when(split) else None
            assert isinstance(second, Moment)
            states = (moment.after, second.after)
        else:
            states = (moment.after,)
        moves.append(text)
        moments.append(moment)
        if kind == "step":
            assert when is not None
            moment = attrs.evolve(moment, earlier=tuple(moments[:-1]))
            if when(moment):
                return Hit(tuple(moves), None, moment)
    if kind == "game" and module.is_over(states[0]):
        assert when is not None
        whole = Game(module, start_of(moments, states[0]), tuple(moments))
        if when(whole):
            return Hit(tuple(moves), None, whole)
    return None


def start_of(moments: Sequence[Moment], state: Any) -> Any:
    return moments[0].before if moments else state
