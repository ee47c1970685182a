"""The batch of Throne games against the engine: the same games, step by step.

For every reading of the register (and the presets), games of a batch are
driven by seeded random action numbers, and the engine plays the same moves
one game at a time: after every step the batch's legal action mask is the
engine's ``legal_codes``, ``to_states`` gives the engine's states, the
seats' observations are ``throne.observation``'s, and the rewards, ends and
current players agree.  The numpy backend runs in CI on every reading; the
jax backend (compiled) on two.  ``benchmarks/bench_batch_equivalence.py``
runs the same comparison on 10,000 games of each game.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

from castlerules import IllegalMove, register, throne
from castlerules.bots import make_bot
from castlerules.core import ArgumentError
from castlerules.throne.transitions import legal_codes

DECK = ("ABCDEF", "GHIJKL", "ACEGIK", "BDFHJL", "ABCGHI", "DEFJKL", "AEIMBF")
"""An objective deck of seven cards (option objective_deck)."""

batch = pytest.importorskip("castlerules.batch")

READINGS = [
    (point.option, reading.label, reading.rules(throne))
    for point in register.open_points(throne)
    for reading in point.readings
] + [("preset", name, throne.Rules.preset(name)) for name in throne.Rules.PRESETS]


def _observation(obs: throne.Observation, rules: throne.Rules) -> dict[str, object]:
    """An engine observation in the batch's terms."""
    letters = rules.letters()

    def mask(letters_set: frozenset[str]) -> int:
        return sum(1 << letters.index(x) for x in letters_set)

    return {
        "round": obs.round,
        "floors": list(obs.floors),
        "no_cards": [-1 if x is None else x for x in obs.no_cards],
        "objective": mask(obs.objective),
        "voted": list(obs.voted),
        "vote": -1 if obs.vote is None else int(obs.vote),
        "passes": obs.passes,
        "turn": -1 if obs.turn is None else obs.turn,
        "finished_rounds": len(obs.round_scores),
        "round_scores": [list(r) for r in obs.round_scores],
        "revealed": [[mask(s) for s in r] for r in obs.revealed],
    }


def _batch_observation(view: dict[str, np.ndarray], i: int) -> dict[str, object]:
    done = int(view["finished_rounds"][i])
    return {
        "round": int(view["round"][i]),
        "floors": [int(x) for x in view["floors"][i]],
        "no_cards": [int(x) for x in view["no_cards"][i]],
        "objective": int(view["objective"][i]),
        "voted": [bool(x) for x in view["voted"][i]],
        "vote": int(view["vote"][i]),
        "passes": int(view["passes"][i]),
        "turn": int(view["turn"][i]),
        "finished_rounds": done,
        "round_scores": [[int(x) for x in r] for r in view["round_scores"][i][:done]],
        "revealed": [[int(x) for x in r] for r in view["revealed"][i][:done]],
    }


def lockstep(
    rules: throne.Rules, players: int, size: int, backend: str, seed: int, observe: bool = False
) -> Iterator[int]:
    """Play a batch and the engine side by side to the end; yield the steps."""
    env = batch.make("throne", players=players, rules=rules, size=size, backend=backend)
    b = env.init(seed=seed)
    states = [throne.new_game(players, rules, seed=seed + i) for i in range(size)]
    codes = rules._derived.codes.moves
    rng = np.random.default_rng(seed)
    step = 0
    while True:
        assert env.to_states(b) == states, f"step {step}"
        mask = np.asarray(b.legal_action_mask)
        for i, s in enumerate(states):
            expected = np.zeros(env.num_actions, dtype=bool)
            expected[list(legal_codes(s))] = True
            assert (mask[i] == expected).all(), f"step {step}, game {i}: legal actions"
        assert [int(x) for x in np.asarray(b.current_player)] == [
            -1 if throne.current_player(s) is None else throne.current_player(s) for s in states
        ]
        if observe:
            for seat in range(players):
                view = {k: np.asarray(v) for k, v in env.observe(b, seat).items()}
                for i, s in enumerate(states):
                    got = _batch_observation(view, i)
                    assert got == _observation(throne.observation(s, seat), rules), (step, i, seat)
        over = np.asarray(b.terminated)
        assert [bool(x) for x in over] == [throne.is_over(s) for s in states]
        if over.all():
            return
        choice = (rng.random(mask.shape) * mask).argmax(axis=1)
        before = [throne.is_over(s) for s in states]
        b = env.step(b, choice)
        states = [
            s if throne.is_over(s) else throne.apply(s, codes[a])
            for s, a in zip(states, choice, strict=True)
        ]
        rewards = np.asarray(b.rewards)
        for i, s in enumerate(states):
            ended_now = throne.is_over(s) and not before[i]
            expected = list(throne.totals(s)) if ended_now else [0] * players
            assert [int(x) for x in rewards[i]] == expected, f"step {step}, game {i}: rewards"
        step += 1
        yield step


def test_numpy_batch_is_the_engine(distinct_reading: tuple[str, str, throne.Rules]) -> None:
    """Every reading of the register and every preset: each distinct rules once
    (``distinct_reading``, tests/conftest.py; 8 of the 22 readings today)."""
    rules = distinct_reading[2]
    steps = sum(1 for _ in lockstep(rules, players=4, size=4, backend="numpy", seed=11))
    assert steps > 50  # the games were played to their ends (three rounds)


@pytest.mark.parametrize("players", [3, 6])
def test_observations_are_the_engine(players: int) -> None:
    """B4, B11: each seat sees in the batch what observation() shows it, no more."""
    rules = throne.Rules(no_cards_public=False)
    assert sum(1 for _ in lockstep(rules, players, size=3, backend="numpy", seed=3, observe=True))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["SEED", "ORIGINAL"])
def test_jax_batch_is_the_engine(preset: str) -> None:
    pytest.importorskip("jax")
    rules = throne.Rules.preset(preset)
    assert sum(1 for _ in lockstep(rules, players=5, size=8, backend="jax", seed=5)) > 50


def test_an_illegal_action_is_the_engines_refusal() -> None:
    env = batch.make("throne", players=4, size=3, backend="numpy")
    b = env.init(seed=1)
    codes = env.rules._derived.codes.moves
    yes = codes.index(throne.Vote(True))
    actions = np.asarray(b.legal_action_mask).argmax(axis=1)
    actions[2] = yes  # no election: B10
    with pytest.raises(IllegalMove, match=r"^game 2: ") as err:
        env.step(b, actions)
    assert err.value.clause == "B10"
    with pytest.raises(ArgumentError, match="names no move"):
        env.step(b, np.array([0, 0, 999]))
    with pytest.raises(ArgumentError, match="one whole number per game"):
        env.step(b, np.array([0.5, 0, 0]))
    assert env.to_states(b) == [throne.new_game(4, seed=1 + i) for i in range(3)]  # unchanged


def test_refusals_name_the_engines_clause() -> None:
    """``refusals``: for every move the notation can write, in positions of random
    games, the clause of the kernel's first broken guard is the clause of the
    engine's IllegalMove (-1 where the engine plays it).  Every move of a turn is
    asked in one call, of a batch holding each position once per move."""
    from castlerules.throne import kernel as K

    rules = throne.Rules.preset("ORIGINAL")
    universe = K.universe_of(rules)
    env = batch.make("throne", players=3, rules=rules, size=4 * len(universe), backend="numpy")
    numbers = np.repeat(np.arange(len(universe)), 4)  # game j asks move j // 4 of state j % 4
    rng = np.random.default_rng(8)
    states = [throne.new_game(3, rules, seed=20 + i) for i in range(4)]
    checked = refused = 0
    for _turn in range(60):
        got = env.refusals(env.from_states(states * len(universe)), numbers)
        for j, (number, state) in enumerate(zip(numbers, states * len(universe), strict=True)):
            move = universe[number]
            try:
                throne.apply(state, move)
                expected = -1
            except IllegalMove as err:
                expected = err.clause
                refused += 1
            assert (env.guard_clauses[got[j]] if got[j] >= 0 else -1) == expected, (j, move)
            checked += 1
        states = [
            s if throne.is_over(s) else throne.apply(s, ms[rng.integers(len(ms))])
            for s in states
            for ms in [throne.legal_moves(s) or [None]]
        ]
    assert refused > checked // 2 > 0


def test_finished_games_stay_finished() -> None:
    env = batch.make("throne", players=3, size=2, backend="numpy")
    states = [throne.new_game(3, seed=4), throne.new_game(3, seed=5)]
    rng = np.random.default_rng(4)
    while not throne.is_over(states[0]):
        moves = throne.legal_moves(states[0])
        states[0] = throne.apply(states[0], moves[rng.integers(len(moves))])
    b = env.from_states(states)
    assert [bool(x) for x in np.asarray(b.terminated)] == [True, False]
    after = env.step(b, np.array([-1, int(np.asarray(b.legal_action_mask)[1].argmax())]))
    assert env.to_states(after)[0] == states[0]
    assert not np.asarray(after.legal_action_mask)[0].any()


def test_the_random_streams_are_the_random_bots() -> None:
    """The batch's seeded draws are RandomBot's: a study's random games are the same games."""
    from castlerules.batch.chance import Streams

    seeds = list(range(20, 30))
    streams = Streams.from_seeds(seeds, "play.bot.0")
    bots = [make_bot("random", throne, 0, seed) for seed in seeds]
    state = throne.new_game(4, seed=0)
    moves = throne.legal_moves(state)
    for _ in range(5):
        drawn, streams = streams.below(np.full(len(seeds), len(moves)))
        assert [moves[int(k)] for k in drawn] == [bot(state, 0) for bot in bots]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess", "players": 4}, "throne or ascent"),
        ({"game": "ascent", "players": 7}, "2..6"),
        ({"game": "throne", "players": 9}, "3..6"),
        ({"game": "throne", "players": 4, "size": 0}, "size"),
        ({"game": "throne", "players": 4, "backend": "gpu"}, "backend"),
        ({"game": "throne", "players": 4, "rules": "SEED"}, "Rules"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        batch.make(**kwargs)  # type: ignore[arg-type]


def test_without_numpy_one_line_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "try:\n    import castlerules.batch\n"
        "except ImportError as err:\n    print(err)\n"
        "import castlerules; assert 'castlerules.batch' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == (
        "castlerules.batch needs numpy: pip install -e '.[batch]' (from a clone)"
    )


def test_random_seats_play_the_random_bots_games() -> None:
    """A batch with a random bot in every seat plays the engine's RandomBot games."""
    from castlerules.batch.play import RandomSeats

    seeds = [40 + i for i in range(5)]
    env = batch.make("throne", players=4, size=len(seeds), backend="numpy")
    b = env.init(seed=seeds[0])
    seats = RandomSeats(seeds, 4)
    while not np.asarray(b.terminated).all():
        b = env.step(b, seats.choose(np.asarray(b.legal_action_mask), np.asarray(b.current_player)))
    for state, seed in zip(env.to_states(b), seeds, strict=True):
        bots = [make_bot("random", throne, q, seed) for q in range(4)]
        game = throne.new_game(4, seed=seed)
        while not throne.is_over(game):
            seat = throne.current_player(game)
            assert seat is not None
            game = throne.apply(game, bots[seat](game, seat))
        assert state == game


@pytest.mark.parametrize(
    "rules",
    [throne.Rules(), throne.Rules.preset("ORIGINAL"), throne.Rules(objective_deck=DECK)],
    ids=["default", "ORIGINAL", "objective_deck"],
)
@pytest.mark.parametrize("players", [3, 6])
def test_the_batch_deals_the_engines_objectives(rules: throne.Rules, players: int) -> None:
    """B4: the batch's deal of a seed is new_game's, for all seeds at once."""
    from castlerules.batch.throne import deal

    seeds = [*range(150), 2**64 - 1]
    dealt = deal(rules, players, np.array(seeds, dtype=np.uint64))
    assert [tuple(map(tuple, x)) for x in dealt.tolist()] == [
        throne.new_game(players, rules, seed=s).objectives for s in seeds
    ]
    env = batch.make("throne", players=players, rules=rules, size=4, backend="numpy")
    assert env.to_states(env.init(seeds=[9, 3, 2**64 - 1, 9])) == [
        throne.new_game(players, rules, seed=s) for s in (9, 3, 2**64 - 1, 9)
    ]


def test_a_planted_deal_mistake_is_caught() -> None:
    """The deal's check compares with the engine: one swapped draw shows."""
    from castlerules.batch.throne import deal

    dealt = deal(throne.Rules(), 4, np.arange(20, dtype=np.uint64))
    dealt[3, 1, 2] ^= 1
    assert [tuple(map(tuple, x)) for x in dealt.tolist()] != [
        throne.new_game(4, seed=s).objectives for s in range(20)
    ]


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_step_kth_plays_the_kth_legal_action(backend: str) -> None:
    if backend == "jax":
        pytest.importorskip("jax")
    # 5 players and 8 games, as test_jax_batch_is_the_engine[SEED]'s: on JAX the same
    # compiled mask and step (the run's compilation cache), only the k-th step compiles.
    env = batch.make("throne", players=5, size=8, backend=backend)
    b = env.init(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        mask = np.asarray(b.legal_action_mask)
        counts = np.asarray(b.legal_counts)
        assert counts.tolist() == mask.sum(axis=1).tolist()
        live = ~np.asarray(b.terminated)
        k = np.where(live, rng.integers(0, np.maximum(counts, 1)), 0)
        actions = np.array(
            [np.flatnonzero(row)[x] if c else -1 for row, x, c in zip(mask, k, counts, strict=True)]
        )
        by_number = env.step(b, actions)
        b = env.step_kth(b, k)
        assert env.to_states(b) == env.to_states(by_number)
    with pytest.raises(ArgumentError, match="not below its"):
        env.step_kth(b, np.full(8, 999))


def test_autoreset_deals_the_next_seeds() -> None:
    """A game that ends is replaced at the next step by new_game of the next seed."""
    from castlerules.batch.play import RandomSeats

    env = batch.make("throne", players=3, size=3, backend="numpy", autoreset=True)
    b = env.init(seed=10)
    seats = RandomSeats([10, 11, 12], 3)
    finished: list[tuple[int, throne.State]] = []
    while len(finished) < 4:
        if b.reset is not None and np.asarray(b.reset).any():
            fresh = np.flatnonzero(np.asarray(b.reset))
            seats.reseed(fresh, [int(x) for x in b.seeds[fresh]])
            for i in fresh:
                assert env.to_states(b, [int(i)])[0] == throne.new_game(3, seed=int(b.seeds[i]))
        for i in np.flatnonzero(np.asarray(b.terminated)):
            finished.append((int(b.seeds[i]), env.to_states(b, [int(i)])[0]))
        b = env.step_kth(
            b, seats.choose_kth(np.asarray(b.legal_counts), np.asarray(b.current_player))
        )
    assert b.next_seed > 13 and len({int(x) for x in b.seeds}) == 3
    assert len({seed for seed, _ in finished}) == len(finished)
    for seed, state in finished:  # each is the RandomBot game of its seed
        bots = [make_bot("random", throne, q, seed) for q in range(3)]
        game = throne.new_game(3, seed=seed)
        while not throne.is_over(game):
            q = throne.current_player(game)
            assert q is not None
            game = throne.apply(game, bots[q](game, q))
        assert game == state
    with pytest.raises(ArgumentError, match="autoreset"):
        batch.make("throne", players=3, size=2, autoreset="yes")  # type: ignore[arg-type]


def test_the_jax_backend_compiles_with_its_cpu_options_where_jax_takes_them(
    real_xla_optimizations: None,
) -> None:
    """On a CPU the batch's programs are compiled with their game's
    :data:`castlerules.batch.CPU_OPTIONS` (a compiler's choice, not a rule: the games are
    the same, which every jax test of this folder checks against numpy and the engine);
    ``{}`` keeps XLA's defaults; an option this JAX does not know leaves none rather
    than failing.  Compiled at XLA's full effort, as users' programs are (the other
    tests compile at its lowest: tests/conftest.py)."""
    jax = pytest.importorskip("jax")
    assert not jax.config.read("jax_disable_most_optimizations")
    from castlerules import batch

    backend = batch.JaxBackend()
    if jax.default_backend() == "cpu":
        assert backend.compiler_options == batch.CPU_OPTIONS["throne"]
        for game in ("throne", "ascent"):
            made = batch.make(game, players=4, size=2, backend="jax").backend
            assert made.compiler_options == batch.CPU_OPTIONS[game]
        assert batch.CPU_OPTIONS["throne"] != batch.CPU_OPTIONS["ascent"]
        assert backend.play_options == {
            **batch.CPU_OPTIONS["throne"],
            **batch.PLAY_OPTIONS["throne"],
        }
    assert batch.JaxBackend({}).compiler_options == {}
    assert batch.JaxBackend({}).play_options == {}
    asked: dict[str, object] = {}

    class Spy:  # the jax module, recording what its jit is asked
        def __getattr__(self, name: str) -> object:
            return getattr(jax, name)

        def jit(self, function: object, **kwargs: object) -> object:
            asked.update(kwargs)
            return jax.jit(function, **kwargs)

    spied = batch.JaxBackend({"xla_cpu_use_fusion_emitters": False})
    spied._jax = Spy()
    spied.jit(lambda x: x)
    assert asked["compiler_options"] == {"xla_cpu_use_fusion_emitters": False}
    asked.clear()
    plain = batch.JaxBackend({})  # XLA's defaults: jit is asked for no options
    plain._jax = Spy()
    assert int(plain.jit(lambda x: x + 1)(jax.numpy.int32(2))) == 3
    assert "compiler_options" not in asked
    assert batch._taken({"xla_no_such_option": 1}) == {}

    # The batch's programs compiled with the CPU options at XLA's full effort play the
    # games of numpy's batch, the reference the other tests hold both backends to.
    default = batch.make("throne", players=4, size=8, backend="jax")
    reference = batch.make("throne", players=4, size=8, backend="numpy")
    a, b = default.init(seed=5), reference.init(seed=5)
    for _ in range(30):
        actions = np.asarray(a.legal_action_mask).argmax(axis=1)
        a, b = default.step(a, actions), reference.step(b, actions)
        assert np.array_equal(np.asarray(a.legal_action_mask), b.legal_action_mask)
    assert np.array_equal(np.asarray(a.data), np.asarray(b.data))
