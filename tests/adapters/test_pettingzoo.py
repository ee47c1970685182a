"""castlerules.adapters.pettingzoo: PettingZoo's own API and seed tests, agreement with the engine,
hidden information (B4, B11), rewards at the end (B14-B16, A15-A17), rendering."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import attrs
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from castlerules import ascent, throne
from castlerules.adapters.numbering import throne_tensor, throne_tensor_size
from castlerules.adapters.pettingzoo import ascent_env, throne_env
from castlerules.boards import board
from castlerules.core import ArgumentError

ENVS = [
    *(
        (f"throne-{n}-{p}", lambda n=n, p=p: throne_env(n, throne.Rules.preset(p)))
        for p in ("SEED", "ORIGINAL")
        for n in throne.PLAYERS
    ),
    *((f"ascent-{n}", lambda n=n: ascent_env(n)) for n in ascent.PLAYERS),
    ("ascent-5-shuffled", lambda: ascent_env(5, ascent.Rules(deal="shuffled"))),
]


# PettingZoo's general advice, not failures: observations are dicts holding the
# action mask (its own form for masked actions), and a seat not to act has no legal action.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros:UserWarning")
@pytest.mark.parametrize(("name", "make"), ENVS, ids=[name for name, _make in ENVS])
def test_pettingzoo_api_and_seed_tests(name: str, make: Any) -> None:
    """PettingZoo's own checks of the AEC API and of determinism for a seed."""
    api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=200)


def play(env: Any, seed: int) -> list[tuple[str, int]]:
    """A random game through the environment: the (agent, action) pairs."""
    rng = np.random.RandomState(seed)
    env.reset(seed=seed)
    played = []
    for agent in env.agent_iter():
        observation, _reward, terminated, _truncated, _info = env.last()
        if terminated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append((agent, action))
        env.step(action)
    return played


@pytest.mark.parametrize("module", [throne, ascent])
def test_a_game_is_the_engine_game_and_rewards_are_the_final_scores(module: Any) -> None:
    """reset(seed) deals as new_game(players, rules, seed); the actions are the engine's
    moves; the only rewards are the final scores, given at the end."""
    env = throne_env(4) if module is throne else ascent_env(3)
    rng = np.random.RandomState(1)
    env.reset(seed=9)
    state = module.new_game(env.players, env.rules, seed=9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, _truncated, _info = env.last()
        totals[agent] += reward
        if terminated:
            env.step(None)
            continue
        assert env.possible_agents[module.current_player(state)] == agent
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == env.table.legal(state)
        action = int(rng.choice(legal))
        state = module.apply(state, env.table.move(action))
        env.step(action)
        assert env.engine == state
        if not module.is_over(state):
            assert all(r == 0 for r in env.rewards.values())
    assert module.is_over(state)
    assert totals == {
        a: float(s) for a, s in zip(env.possible_agents, module.scores(state), strict=True)
    }


@pytest.mark.parametrize("module", [throne, ascent])
def test_masks_from_the_memo_are_the_legal_moves_and_each_callers_own(
    module: Any, monkeypatch: Any
) -> None:
    """The masks kept by the environment (B6-B11, A3-A12): equal to the legal moves
    whether kept or built anew, also when the memo starts anew (a memo of 3), and
    writing into one changes no other observation."""
    import castlerules.adapters.pettingzoo as pz

    monkeypatch.setattr(pz, "MASK_MEMO", 3)
    env = throne_env(4) if module is throne else ascent_env(2)
    rng = np.random.RandomState(2)
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _reward, terminated, _truncated, _info = env.last()
            if terminated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            expected = np.zeros(env.table.count, np.int8)
            expected[env.table.legal(env.engine)] = 1
            assert mask.dtype == np.int8 and np.array_equal(mask, expected)
            assert len(env._masks) <= 3
            mask[:] = 1  # the caller's own array
            again = env.observe(agent)["action_mask"]
            assert np.array_equal(again, expected)
            env.step(int(rng.choice(np.flatnonzero(expected))))


def test_observations_come_from_the_seats_view_only() -> None:
    """B4/B11: each agent's vector is its observation(state, seat) encoded; another
    seat's objective does not change it, its own does."""
    env = throne_env(3)
    env.reset(seed=4)
    state = env.engine
    for seat, agent in enumerate(env.possible_agents):
        expected = np.zeros(throne_tensor_size(env.rules, 3), np.float32)
        throne_tensor(throne.observation(state, seat), expected)
        assert np.array_equal(env.observe(agent)["observation"], expected)
    before = [env.observe(a)["observation"].copy() for a in env.possible_agents]
    objectives = list(state.objectives)
    objectives[0] = (objectives[0][1], objectives[0][0], objectives[0][2])  # swap seats 0, 1
    env.state_ = attrs.evolve(state, objectives=tuple(objectives))
    after = [env.observe(a)["observation"] for a in env.possible_agents]
    assert np.array_equal(before[2], after[2])
    assert not np.array_equal(before[0], after[0])
    assert not np.array_equal(before[1], after[1])


def test_a18_a_shuffled_deal_is_the_engines_deal_of_the_seed() -> None:
    """A18, deal="shuffled": reset(seed) deals as new_game(seed) does; the 36 cards are
    numbered (73 actions) and the observation says which seat was dealt each card."""
    rules = ascent.Rules(deal="shuffled")
    env = ascent_env(4, rules)
    env.reset(seed=11)
    assert env.state_ == ascent.new_game(4, rules, seed=11)
    assert env.state_.owners == ascent.deal_of(rules, 4, 11) != ascent.deal_of(rules, 4, 12)
    assert env.action_space("seat_0").n == 73
    vector = env.observe(env.agent_selection)["observation"]
    assert vector.shape == env.observation_space("seat_0")["observation"].shape


def test_only_the_seat_to_act_has_legal_actions() -> None:
    env = ascent_env(2)
    env.reset(seed=3)
    acting = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)


def test_renders_the_text_board_and_the_svg() -> None:
    """render_mode "ansi": the text board of castlerules play, for render_seat (None: a
    spectator, no objective shown); "svg": the SVG diagram."""
    env = throne_env(3, render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == board(throne, env.engine, None)
    assert "Your objective" not in env.render()
    seat_view = throne_env(3, render_mode="ansi", render_seat=1)
    seat_view.reset(seed=2)
    assert "Your objective (seat 1" in seat_view.render()
    picture = throne_env(3, render_mode="svg")
    picture.reset(seed=2)
    assert picture.render().startswith("<svg")
    tower = ascent_env(2, render_mode="svg")
    tower.reset(seed=2)
    assert tower.render().startswith("<svg")
    text = ascent_env(2, render_mode="ansi")
    text.reset(seed=2)
    assert text.render() == board(ascent, text.engine, None)


def test_the_svg_rendering_keeps_every_seats_secrets() -> None:
    """B4, B11: the SVG rendering draws the table's board, for a spectator and for a
    render_seat alike: no seat's favourites, no hidden No count."""
    rules = throne.Rules(no_cards_public=False)
    for seat in (None, 1):
        env = throne_env(4, rules, render_mode="svg", render_seat=seat)
        env.reset(seed=2)
        picture = env.render()
        assert picture is not None
        favourites = ["".join(sorted(throne.objective(env.engine, s))) for s in range(4)]
        assert not [f for f in favourites if f in picture]
        assert picture.count(">secret") == 8  # four objectives, four No counts
        assert picture == throne.svg(env.engine, seat=seat, secrets=False)


def test_bad_arguments_are_typed_errors() -> None:
    with pytest.raises(ArgumentError, match="render_mode must be None or one of ansi, svg"):
        throne_env(3, render_mode="human")
    with pytest.raises(ArgumentError, match=r"rules must be a castlerules\.throne\.Rules"):
        throne_env(3, ascent.Rules())  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"players must be a whole number in 3\.\.6"):
        throne_env(2)
    env = throne_env(3)
    env.reset(seed=1)
    with pytest.raises(ArgumentError, match="cannot play action 79: not legal here"):
        env.step(79)  # a No vote while placing
    with pytest.raises(ArgumentError, match="cannot play action -1"):
        env.step(-1)
    assert env.engine == throne.new_game(3, seed=1)


@pytest.mark.parametrize("seed", [float("nan"), "x", 1.5, -1, 2**64, True, None])
def test_a_bad_seed_is_new_games_argument_error(seed: Any) -> None:
    """reset(seed=...) checks the seed as new_game does (0..2**64-1), whatever its type."""
    env = throne_env(3)
    if seed is None:  # the control: an unseeded reset is fine
        env.reset(seed=seed)
        return
    with pytest.raises(ArgumentError, match=r"seed must be a whole number in 0\.\.2\^64-1"):
        env.reset(seed=seed)


def test_a_numpy_integer_seed_is_the_same_seed() -> None:
    one, two = throne_env(3), throne_env(3)
    one.reset(seed=np.int64(7))
    two.reset(seed=7)
    assert one.engine == two.engine == throne.new_game(3, seed=7)


def test_before_reset_and_unknown_agents_say_what_to_do() -> None:
    env = throne_env(3, render_mode="ansi")
    for call in (lambda: env.step(0), env.last, env.render, lambda: env.observe("seat_0")):
        with pytest.raises(ArgumentError, match=r"before the first game: call env\.reset"):
            call()
    env.reset(seed=1)
    with pytest.raises(ArgumentError, match=r"unknown agent 'player_99': the agents are seat_0"):
        env.observe("player_99")
    assert env.observe("seat_0")["action_mask"].sum() == 65


def test_same_seed_same_game_and_unseeded_resets_differ() -> None:
    first = play(throne_env(3), 5)
    assert play(throne_env(3), 5) == first
    env = throne_env(3)
    env.reset(seed=1)
    env.reset()
    one = env.engine
    env.reset()
    assert env.engine != one


def test_missing_pettingzoo_is_one_line_naming_the_extra() -> None:
    code = "import sys; sys.modules['pettingzoo'] = None; import castlerules.adapters.pettingzoo"
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ImportError: castlerules.adapters.pettingzoo needs PettingZoo: "
        "pip install -e '.[pettingzoo]' (in a clone of castlerules)"
    )


def test_the_readme_examples_run() -> None:
    """The README's Python blocks of the section on OpenSpiel and PettingZoo."""
    from pathlib import Path

    text = Path(__file__).parents[2].joinpath("README.md").read_text()
    section = text.split("## Use it from OpenSpiel and PettingZoo")[1].split("\n## ")[0]
    blocks = [b.split("```")[0] for b in section.split("```python\n")[1:]]
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_observations_are_computed_when_read_from_their_own_step(monkeypatch: Any) -> None:
    """observe() returns a LazyObservation: the mask is made with it (every AEC loop
    reads it), the vector only when read, and read after later steps it is the one of
    its own step (states are immutable); every way of reading it (items, dict(), ==,
    copy, pickle) computes."""
    import copy
    import pickle

    from castlerules.adapters.pettingzoo import CastleEnv, LazyObservation

    env = throne_env(3)
    env.reset(seed=9)
    made: list[str] = []
    vector, mask = CastleEnv._vector, CastleEnv._mask
    monkeypatch.setattr(CastleEnv, "_vector", lambda s, *a: made.append("v") or vector(s, *a))
    monkeypatch.setattr(CastleEnv, "_mask", lambda s, *a: made.append("m") or mask(s, *a))
    agent = env.agent_selection
    early = env.observe(agent)
    assert isinstance(early, LazyObservation) and isinstance(early, dict)
    assert made == ["m"]
    assert set(early) == {"observation", "action_mask"} and len(early) == 2
    assert "observation" in early and "reward" not in early
    assert list(early.keys()) == ["observation", "action_mask"] and made == ["m"]
    state = env.engine
    legal = early["action_mask"].nonzero()[0].tolist()
    assert made == ["m"]
    env.step(legal[0])
    env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    expected = np.zeros(throne_tensor_size(env.rules, 3), np.float32)
    throne_tensor(throne.observation(state, env.possible_agents.index(agent)), expected)
    assert np.array_equal(early["observation"], expected) and made.count("v") == 1
    with pytest.raises(KeyError):
        early["reward"]
    assert [env.table.move(a) for a in legal] == list(throne.legal_moves(state))
    for late in (env.observe(agent), env.observe(env.agent_selection)):
        plain = dict(late)
        assert set(plain) == {"observation", "action_mask"}
        assert all(isinstance(v, np.ndarray) for v in plain.values())
        for other in (late.copy(), copy.deepcopy(late), pickle.loads(pickle.dumps(late))):
            assert type(other) is dict and other.keys() == plain.keys()
            assert all(np.array_equal(other[k], plain[k]) for k in plain)
        assert [k for k, _v in late.items()] == list(plain)
        assert late.get("observation") is plain["observation"] and late.get("x", 7) == 7
        assert "array" in repr(late)
