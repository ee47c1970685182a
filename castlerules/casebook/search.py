"""The one search for every case: Hypothesis, seeded playouts, then shortening.

For a case, :func:`find`:

1. asks Hypothesis (``hypothesis.find``) for a list of *move choices*
   (move ``k`` is the legal move number ``choices[k]`` modulo their number,
   the first legal move once the list runs out) whose game shows the case;
   Hypothesis shrinks the list it finds;
2. failing that, plays seeded playouts (game ``k`` is ``new_game(players,
   seed=k)``, the moves chosen by the case's *guide*, a policy of
   :data:`GUIDES`, from the generator of stream ``casebook.<key>``);
3. shortens the game it found: it deletes move choices, in chunks halving
   down to single moves (as Hypothesis's shrinker does), keeping any game
   that still shows the case within the moves it chose.

Every step is deterministic: the same sources find the same game on every
machine.  The result says how it was found and its length in plies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from castlerules import ascent, throne
from castlerules.casebook import bmc, bmc_reading
from castlerules.casebook.declare import Case, SearchError
from castlerules.casebook.play import MAX_PLIES, Hit, run, start
from castlerules.core import RulesError
from castlerules.core.chance import Rng

__all__ = ["GUIDES", "Result", "SearchError", "find", "shorten"]

Policy = Callable[[Any, Sequence[Any], Rng], tuple[int, Rng]]


HYPOTHESIS_PLIES = 40
"""Hypothesis tries games of at most this many moves (longer ones are for the playouts)."""


# --------------------------------------------------------------------------- guides


def _random(_state: Any, moves: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
    return rng.below(len(moves))


def _pick(moves: Sequence[Any], pool: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
    chosen, rng = rng.choice(pool)
    return moves.index(chosen), rng


def _favours(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
    """Ascent: favours first (partial takes most), and often a card from inside a stack."""
    favours = [m for m in moves if isinstance(m, ascent.Favour)]
    if favours:
        partial = [m for m in favours if _inside(state, m.card)]
        roll, rng = rng.below(4)
        return _pick(moves, partial if partial and roll < 3 else favours, rng)
    advances = [m for m in moves if isinstance(m, ascent.Advance)]
    if advances:
        splits = [m for m in advances if _inside(state, m.card)]
        roll, rng = rng.below(3)
        return _pick(moves, splits if splits and roll == 0 else advances, rng)
    return _random(state, moves, rng)


def _low_from_start(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
    """Ascent: the lowest card still on its Start leaves it (the low ranks crowd the
    bottom squares first), else a move at random."""
    leaving = [
        m
        for m in moves
        if isinstance(m, ascent.Advance) and (ascent.where(state, m.card) or (0, -1))[1] == 0
    ]
    if leaving:
        lowest = min(m.card.rank.value for m in leaving)
        return _pick(moves, [m for m in leaving if m.card.rank.value == lowest], rng)
    return _random(state, moves, rng)


def _inside(state: Any, card: Any) -> bool:
    place = ascent.where(state, card)
    if place is None or place[1] == 0:
        return False
    stack = ascent.stack_at(state, *place)
    return stack.index(card) < len(stack) - 1


def _no_favours(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
    """Ascent: decline favours, advance at random (long games, crowded boards)."""
    advances = [m for m in moves if isinstance(m, ascent.Advance)]
    if advances:
        return _pick(moves, advances, rng)
    return _pick(moves, [m for m in moves if isinstance(m, ascent.EndTurn)] or moves, rng)


def _throne_scored(
    score: Callable[[Any, Any], float],
) -> Policy:
    def policy(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
        values = [score(state, m) for m in moves]
        top = max(values)
        best = [m for m, v in zip(moves, values, strict=True) if v == top]
        return _pick(moves, best, rng)

    return policy


def _high(state: Any, move: Any) -> float:
    """Throne: place high, climb the highest character, vote as it comes."""
    if isinstance(move, throne.Place):
        return move.floor
    if isinstance(move, throne.Climb):
        return throne.floor_of(state, move.character) or 0
    return 0


def _no(state: Any, move: Any) -> float:
    """Throne: climb high and vote No whenever a No card is left."""
    if isinstance(move, throne.Vote):
        return 0 if move.yes else 1
    return _high(state, move)


def _one_no(state: Any, move: Any) -> float:
    """Throne: climb high; in each election only the seat with the most No cards votes No."""
    if isinstance(move, throne.Vote):
        counts = [throne.no_cards(state, s) for s in range(state.players)]
        seat = throne.current_player(state)
        against = max(counts) > 0 and seat == counts.index(max(counts))
        return 1 if move.yes != against else 0
    return _high(state, move)


def _yes(state: Any, move: Any) -> float:
    """Throne: climb high and always vote Yes."""
    if isinstance(move, throne.Vote):
        return 1 if move.yes else 0
    return _high(state, move)


def _passing(state: Any, move: Any) -> float:
    """Throne: pass whenever passing is allowed."""
    return 100 if isinstance(move, throne.Pass) else _high(state, move)


def _mine(state: Any, seat: int) -> frozenset[str]:
    return throne.objective(state, seat)


def _favourites_high(state: Any, move: Any) -> float:
    """Throne: seat 0's favourites as high as the castle allows, and crowned (B14's 33)."""
    mine = _mine(state, 0)
    top = state.rules.throne_floor
    if isinstance(move, throne.Vote):
        if throne.candidate(state) in mine:
            return 1 if move.yes else 0
        seat = throne.current_player(state)
        spare = seat is not None and throne.no_cards(state, seat) > 0
        return 0 if move.yes == spare else 1
    if isinstance(move, throne.Place):
        return move.floor if move.character in mine else -move.floor
    if isinstance(move, throne.Climb):
        floor = throne.floor_of(state, move.character) or 0
        if move.character in mine:
            if floor + 1 == top:
                rest = throne.castle_points(state, mine - {move.character})
                best = 3 * state.rules.points_of(top - 1) + 2 * state.rules.points_of(top - 2)
                return 100 if rest == best else -100
            return 10 + floor
        return -50 - floor if floor + 1 >= top - 1 else -floor
    return -1e9


def _favourites_low(state: Any, move: Any) -> float:
    """Throne: seat 0's favourites kept on the servants' floor (B15's 0 that counts 33)."""
    mine = _mine(state, 0)
    cleared = all(throne.floor_of(state, x) in (None, 1) for x in mine) and not any(
        throne.floor_of(state, x) == 0 for x in mine
    )
    if isinstance(move, throne.Vote):
        if throne.candidate(state) in mine:
            return 1 if not move.yes else 0
        return 1 if move.yes == cleared else 0
    if isinstance(move, throne.Place):
        if move.character in mine:
            return 100 if move.floor == 1 else 10 + move.floor
        return -100 if move.floor == 1 else -abs(move.floor - 3)
    if isinstance(move, throne.Climb):
        floor = throne.floor_of(state, move.character) or 0
        if move.character in mine:
            return -1000 if floor == 1 else 20 + floor
        if floor + 1 == state.rules.throne_floor:
            return 100 if cleared else -50
        return -floor
    return -1e9


def _in_round(round_number: int, policy: Policy) -> Policy:
    """``policy`` from round ``round_number`` on; random play before it."""

    def guided(state: Any, moves: Sequence[Any], rng: Rng) -> tuple[int, Rng]:
        if throne.round_of(state) < round_number:
            return _random(state, moves, rng)
        return policy(state, moves, rng)

    return guided


GUIDES: dict[str, Policy] = {
    "random": _random,
    "favours": _favours,
    "no-favours": _no_favours,
    "low-from-start": _low_from_start,
    "high": _throne_scored(_high),
    "no": _throne_scored(_no),
    "yes": _throne_scored(_yes),
    "one-no": _throne_scored(_one_no),
    "pass": _throne_scored(_passing),
    "favourites-high": _throne_scored(_favourites_high),
    "favourites-low": _in_round(3, _throne_scored(_favourites_low)),
}
"""The playout policies a case may name as its ``guide``."""


# --------------------------------------------------------------------------- search


class Result:
    """A game found for a case: where it starts, its moves, how it was found."""

    __slots__ = ("depth", "found_by", "hit", "players", "proof", "seed")

    def __init__(
        self,
        players: int,
        seed: int,
        hit: Hit,
        found_by: str,
        proof: str = "",
        depth: int | None = None,
    ) -> None:
        self.players = players
        self.seed = seed
        self.hit = hit
        self.found_by = found_by
        self.proof = proof
        self.depth = depth

    @property
    def plies(self) -> int:
        return len(self.hit.moves) + (1 if self.hit.tried is not None else 0)


def _strict(choices: Sequence[int]) -> Callable[[int, Any, Sequence[Any]], Any]:
    def choose(ply: int, _state: Any, legal: Sequence[Any]) -> Any:
        return legal[choices[ply] % len(legal)] if ply < len(choices) else None

    return choose


def _indices(case: Case, states: tuple[Any, ...], moves: Sequence[str]) -> list[int]:
    """The move choices (indices among the legal moves) that play ``moves``."""
    out = []
    chosen = list(moves)

    def choose(ply: int, _state: Any, legal: Sequence[Any]) -> Any:
        if ply >= len(chosen):
            return None
        texts = [str(m) for m in legal]
        out.append(texts.index(chosen[ply]))
        return legal[out[-1]]

    run(case, states, choose)
    return out


def _try(case: Case, players: int, seed: int, choose: Any, limit: int = MAX_PLIES) -> Hit | None:
    try:
        states = start(case, players, seed)
    except RulesError:
        return None
    return run(case, states, choose, limit)


def _hypothesis(case: Case, players: int, examples: int) -> Hit | None:
    try:
        import hypothesis
        from hypothesis import strategies as st
    except ImportError as err:  # pragma: no cover - the extra is part of dev
        raise SearchError(
            "the casebook search needs Hypothesis: pip install 'castlerules[casebook]'"
        ) from err
    settings = hypothesis.settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(hypothesis.HealthCheck),
        phases=[hypothesis.Phase.generate, hypothesis.Phase.shrink],
    )
    try:
        choices = hypothesis.find(
            st.lists(st.integers(0, 31), max_size=HYPOTHESIS_PLIES),
            lambda cs: _try(case, players, 0, _strict(cs), HYPOTHESIS_PLIES) is not None,
            settings=settings,
        )
    except hypothesis.errors.NoSuchExample:
        return None
    return _try(case, players, 0, _strict(choices), HYPOTHESIS_PLIES)


def _playouts(case: Case) -> tuple[int, int, Hit, int] | None:
    policy = GUIDES[case.guide]
    for attempt in range(case.budget):
        players = case.players[attempt % len(case.players)]
        rng = Rng.from_seed(attempt, f"casebook.{case.key}")

        def choose(_ply: int, state: Any, legal: Sequence[Any]) -> Any:
            nonlocal rng
            index, rng = policy(state, legal, rng)
            return legal[index]

        hit = _try(case, players, attempt, choose)
        if hit is not None:
            return players, attempt, hit, attempt + 1
    return None


def shorten(case: Case, players: int, seed: int, hit: Hit, budget: int = 250) -> tuple[Hit, int]:
    """Delete move choices while the game still shows the case; the shortest kept, evaluations.

    Chunks of half the moves, then a quarter, ... down to single moves
    (Hypothesis's shrinker deletes the same way); each candidate is played
    strictly (it must show the case within the moves it chose).
    """
    states = start(case, players, seed)
    best = _indices(case, states, hit.moves)
    evals = 0
    size = max(1, len(best) // 2)
    while evals < budget and best:
        i = len(best) - size
        improved = False
        while i >= 0 and evals < budget:
            candidate = best[:i] + best[i + size :]
            evals += 1
            found = run(case, states, _strict(candidate))
            if found is not None and len(found.moves) < len(best):
                hit, best, improved = found, _indices(case, states, found.moves), True
                i = min(i, len(best)) - size
            else:
                i -= size
        if not improved:
            if size == 1:
                break
            size //= 2
    return hit, evals


def find(case: Case, *, examples: int = 80, bmc: bool = True) -> Result:
    """Search for a game that shows ``case``: Hypothesis, then playouts; then shorten it.

    A case with a symbolic condition (``case.bmc``) then gets the shortest
    game there is, by bounded model checking up to the length found
    (:mod:`castlerules.casebook.bmc`); if Z3 gives up, the game found stays.
    """
    players = case.players[0]
    hit = _hypothesis(case, players, examples) if examples else None
    if hit is not None:
        seed = 0
        how = f"hypothesis.find over move choices ({players} players, seed 0), shrunk by Hypothesis"
    else:
        found = _playouts(case)
        if found is None:
            raise SearchError(
                f"case {case.key!r}: no game found in {case.budget} {case.guide} playouts"
            )
        players, seed, hit, games = found
        guide = "seeded random" if case.guide == "random" else f"seeded '{case.guide}'"
        how = (
            f"{guide} playouts: game {games} of at most {case.budget} "
            f"({players} players, seed {seed})"
        )
    before = len(hit.moves)
    hit, _evals = shorten(case, players, seed, hit)
    after = len(hit.moves)
    if after < before:
        how += f"; shortened from {before} to {after} moves before the one shown"
    if case.bmc is not None and bmc:
        return _bmc(case, players, seed, hit, how)
    return Result(players, seed, hit, how)


def _bmc(case: Case, players: int, seed: int, hit: Hit, how: str) -> Result:
    """The shortest game by BMC, bounded by the game ``hit`` the generic search found."""
    reading = case.kind == "reading"
    try:
        if reading:
            bmc.require()
            witness = bmc_reading.find(case, players, seed, len(hit.moves))
        else:
            witness = bmc.find(case, players, seed, len(hit.moves))
    except bmc.BmcError as err:
        if "pip install" in str(err):
            raise SearchError(str(err)) from err
        return Result(players, seed, hit, f"{how}; BMC gave no answer: {err}")
    agree = bmc_reading.agreement if reading else bmc.agreement
    compared = agree(case, players, [hit.moves, witness.hit.moves], seed)
    depth = witness.depth
    refuted = f"depths 0 to {depth - 1} refuted" if depth else "depth 0, the first position"
    proof = (
        f"{witness.scope}; {refuted}, {witness.queries} "
        f"queries, {witness.seconds:.0f} s; the symbolic and Python conditions agree on "
        f"{compared} steps of other games"
    )
    return Result(players, seed, witness.hit, "bmc", proof, witness.depth)
