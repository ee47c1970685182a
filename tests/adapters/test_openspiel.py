"""castlerules.adapters.openspiel: OpenSpiel's own consistency test, agreement with the engine,
hidden information (B4, B11, B14), the proved bounds, and OpenSpiel's search bots."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import attrs
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from castlerules import ascent, throne
from castlerules.adapters import openspiel
from castlerules.adapters.numbering import throne_view
from castlerules.core import ArgumentError, Rng

CONFIGS = [
    *(
        (openspiel.THRONE, {"players": n, "preset": p})
        for p in ("SEED", "ORIGINAL")
        for n in throne.PLAYERS
    ),
    (openspiel.THRONE, {"players": 4, "allow_pass": True, "no_cards_public": False}),
    *((openspiel.ASCENT, {"players": n}) for n in ascent.PLAYERS),
    (openspiel.ASCENT, {"players": 3, "preset": "GENEROUS", "die": "none"}),
    (openspiel.ASCENT, {"players": 5, "deal": "shuffled"}),
    (openspiel.ASCENT, {"players": 2, "deal": "shuffled", "die": "none"}),
]


def _id(config: tuple[str, dict[str, Any]]) -> str:
    name, params = config
    return name.split("_")[1] + "-" + "-".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_openspiel_random_simulation_test_with_serialization(
    config: tuple[str, dict[str, Any]],
) -> None:
    """OpenSpiel's own API checks (legal actions, chance, observations, clone,
    serialization) on a random game of every configuration."""
    name, params = config
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def play_random(game: Any, seed: int) -> tuple[Any, list[tuple[int, int, Any]]]:
    """A random game through the adapter: the final state and (player, action, engine after)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    steps = []
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        steps.append((player, action, openspiel.engine_state(state)))
    return state, steps


@pytest.mark.parametrize("preset", ["SEED", "ORIGINAL"])
@pytest.mark.parametrize("players", list(throne.PLAYERS))
def test_throne_agrees_with_the_engine(players: int, preset: str) -> None:
    """The moves played through OpenSpiel give exactly the engine's states (B3-B16)."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": players, "preset": preset})
    table = game.table
    for seed in range(2):
        final, steps = play_random(game, seed)
        engine_final = openspiel.engine_state(final)
        letters = [
            [throne.sampling.mask_letters(game.rules, m) for m in deal]
            for deal in engine_final.objectives
        ]
        state = throne.new_game(players, game.rules, objectives=letters)
        moves = 0
        for player, action, after in steps:
            if player == pyspiel.PlayerId.CHANCE:
                continue
            assert player == throne.current_player(state)
            state = throne.apply(state, table.move(action))
            moves += 1
            # Equal, but for the rounds the adapter has not dealt yet.
            assert after == attrs.evolve(state, objectives=after.objectives)
            assert all(any(deal) for deal in after.objectives[: after.round - 1])
            for number, deal in enumerate(after.objectives):
                assert not any(deal) or deal == state.objectives[number]
        assert state == engine_final
        assert final.returns() == [float(v) for v in throne.scores(state)]
        assert moves <= game.max_game_length()


@pytest.mark.parametrize("players", list(ascent.PLAYERS))
def test_ascent_agrees_with_the_engine(players: int) -> None:
    """The moves played through OpenSpiel give exactly the engine's states (A1-A18)."""
    game = pyspiel.load_game(openspiel.ASCENT, {"players": players})
    for seed in range(2):
        final, steps = play_random(game, seed)
        (chance, first, _), *rest = steps
        assert chance == pyspiel.PlayerId.CHANCE
        state = ascent.new_game(players, first_player=first)
        for player, action, after in rest:
            assert player == ascent.current_player(state)
            assert game.table.legal(state) == sorted(
                game.table.code(m) for m in ascent.legal_moves(state)
            )
            state = ascent.apply(state, game.table.move(action))
            assert after == state
        assert final.returns() == [float(v) for v in ascent.scores(state)]
        assert len(rest) <= game.max_game_length()


@pytest.mark.parametrize(
    ("players", "die"), [(2, "first_player"), (5, "first_player"), (3, "none")]
)
def test_a18_the_shuffled_deal_is_chance_card_by_card(players: int, die: str) -> None:
    """A18, deal="shuffled": one chance node per card dealt, uniform over the cards not
    dealt yet, in blocks of 36 // n per seat; then the die; the game is the engine's
    new_game with that deal (the 5-player deal leaves one card out of play)."""
    game = pyspiel.load_game(openspiel.ASCENT, {"players": players, "deal": "shuffled", "die": die})
    assert game.num_distinct_actions() == 2 * 36 + 1
    hand = 36 // players
    rng = np.random.RandomState(players)
    state = game.new_initial_state()
    dealt: list[int] = []
    while len(dealt) < hand * players:
        assert state.is_chance_node() and str(state) == "cards not dealt"
        outcomes = state.chance_outcomes()
        assert sorted(c for c, _p in outcomes) == sorted(set(range(36)) - set(dealt))
        assert all(p == pytest.approx(1 / (36 - len(dealt))) for _c, p in outcomes)
        card = int(rng.choice([c for c, _p in outcomes]))
        seat = len(dealt) // hand
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card).endswith(f"to seat {seat}")
        with pytest.raises(ArgumentError, match="cards are dealt"):
            openspiel.engine_state(state)
        if dealt:
            with pytest.raises(ArgumentError, match=r"not a card left to deal \(A18"):
                state.clone().apply_action(dealt[0])
        state.apply_action(card)
        dealt.append(card)
    first = 0
    if die != "none":
        assert state.is_chance_node() and len(state.chance_outcomes()) == players
        first = players - 1
        state.apply_action(first)
    owners = [-1] * 36
    for i, c in enumerate(dealt):
        owners[c] = i // hand
    want = ascent.new_game(
        players, ascent.Rules(deal="shuffled", die=die), first_player=first, owners=tuple(owners)
    )
    assert openspiel.engine_state(state) == want
    assert owners.count(-1) == 36 - hand * players
    again = openspiel.ascent_state(game, want)
    assert openspiel.engine_state(again) == want and not again.is_chance_node()
    assert again.legal_actions() == state.legal_actions()


def test_legal_actions_are_the_engine_moves() -> None:
    """Every state's legal actions are the numbers of legal_moves, and back (B6, B8, B11)."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 4, "allow_pass": True})
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    kinds = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _p in state.chance_outcomes()])))
            continue
        engine = openspiel.engine_state(state)
        actions = state.legal_actions()
        assert [game.table.move(a) for a in actions] == sorted(
            throne.legal_moves(engine), key=game.table.code
        )
        kinds |= {type(game.table.move(a)).__name__ for a in actions}
        state.apply_action(int(rng.choice(actions)))
    assert kinds == {"Place", "Climb", "Vote", "Pass"}


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (openspiel.THRONE, {"players": 3}),
        (openspiel.THRONE, {"players": 5, "preset": "ORIGINAL", "allow_pass": True}),
        (openspiel.ASCENT, {"players": 3}),
    ],
)
def test_python_answers_are_pyspiels_and_legal_actions_ascend(
    name: str, params: dict[str, Any]
) -> None:
    """legal_actions and is_chance_node, answered in Python for speed, give what
    pyspiel's C++ methods give (which call _legal_actions and current_player), for
    every seat; the actions are in increasing order (Throne's without a sort)."""
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(3)
    checked = 0
    for _game_index in range(2):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            actions = state.legal_actions()
            assert actions == list(pyspiel.State.legal_actions(state))
            assert actions == sorted(set(actions))
            for seat in range(game.num_players()):
                assert state.legal_actions(seat) == list(pyspiel.State.legal_actions(state, seat))
            checked += 1
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(actions)))
    assert checked > 100


def test_chance_nodes_deal_each_round_and_roll_the_die() -> None:
    """B4: one chance node per seat and round, uniform over the cards not dealt yet;
    A18: the die designates the first seat, each with probability 1/n."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 3})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1716 == game.max_chance_outcomes()
    assert sum(p for _a, p in outcomes) == pytest.approx(1.0)
    state.apply_action(7)
    second = state.chance_outcomes()
    assert len(second) == 1715 and 7 not in {a for a, _p in second}
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "objective ABCDEF"
    state.apply_action(8)
    state.apply_action(9)
    assert state.current_player() == 0
    assert sorted(throne.objective(openspiel.engine_state(state), 1)) == list(
        game.table.card_names[8]
    )
    # The next round is dealt when the first one ends, not before.
    _final, steps = play_random(game, 3)
    rounds = [after.round for player, _a, after in steps if player == pyspiel.PlayerId.CHANCE]
    assert rounds == [1] * 3 + [2] * 3 + [3] * 3

    dice = pyspiel.load_game(openspiel.ASCENT, {"players": 5}).new_initial_state()
    assert dice.chance_outcomes() == [(q, 0.2) for q in range(5)]
    dice.apply_action(3)
    assert dice.current_player() == 3
    no_die = pyspiel.load_game(openspiel.ASCENT, {"players": 3, "die": "none"})
    assert no_die.new_initial_state().current_player() == 0


def test_game_parameters_are_the_rules_options_and_presets() -> None:
    """Presets and options by name; the game's name reads back to the same game."""
    original = pyspiel.load_game(openspiel.THRONE, {"players": 5, "preset": "ORIGINAL"})
    assert original.rules == throne.Rules.preset("ORIGINAL")
    assert original.num_distinct_actions() == 13 * 4 + 13 + 2
    seed = pyspiel.load_game(openspiel.THRONE, {"players": 4})
    assert seed.rules == throne.Rules() and seed.num_players() == 4
    assert seed.num_distinct_actions() == 13 * 5 + 13 + 2
    custom = pyspiel.load_game(
        openspiel.THRONE,
        {"players": 3, "allow_pass": True, "points": "0/1/2/3/4/6/12", "bonus_rounds": "[]"},
    )
    assert custom.rules == throne.Rules(
        allow_pass=True, points=(0, 1, 2, 3, 4, 6, 12), bonus_rounds=()
    )
    assert custom.num_distinct_actions() == seed.num_distinct_actions() + 1
    again = pyspiel.load_game(str(custom))
    assert again.rules == custom.rules and again.num_players() == 3
    generous = pyspiel.load_game(openspiel.ASCENT, {"players": 2, "favours_per_move": 0})
    assert generous.rules == ascent.Rules.preset("GENEROUS")
    assert generous.num_distinct_actions() == 12 * 2 + 1
    assert openspiel.params_of(ascent.Rules.preset("GENEROUS"), 2) == {
        "players": 2,
        "favours_per_move": 0,
    }
    assert openspiel.game_of(throne.Rules.preset("ORIGINAL"), 6).rules == throne.Rules.preset(
        "ORIGINAL"
    )
    with pytest.raises(Exception, match="option floor_capacity must be"):
        pyspiel.load_game(openspiel.THRONE, {"floor_capacity": 0})
    with pytest.raises(Exception, match=r"players must be a whole number in 3\.\.6"):
        pyspiel.load_game(openspiel.THRONE, {"players": 2})


def test_bounds_are_the_proved_ones() -> None:
    """Max game length from the proofs' ranking bound (B3, B8, B13) and
    Rules.advance_bound (A14); utility bounds from B14/B15 (1..99) and A15-A16 (±21n)."""
    from proofs.throne import configs, measure_bound

    for config in configs():
        game = openspiel.game_of(config.rules, config.players)
        per_round = measure_bound(config.system()) + 1
        assert game.max_game_length() == config.rules.rounds * per_round
        assert (game.min_utility(), game.max_utility()) == (1.0, 99.0)
    for n in ascent.PLAYERS:
        game = pyspiel.load_game(openspiel.ASCENT, {"players": n})
        assert game.max_game_length() == ascent.Rules().advance_bound(n) * (6 * n + 2)
        assert (game.min_utility(), game.max_utility()) == (-21.0 * n, 21.0 * n)
    no_bonus = pyspiel.load_game(openspiel.THRONE, {"bonus_rounds": "[]"})
    assert (no_bonus.min_utility(), no_bonus.max_utility()) == (0.0, 99.0)


# ---------------------------------------------------------------------------
# Hidden information


def views(state: Any, seat: int) -> tuple[Any, ...]:
    return (
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
    )


def perturbed(game: Any, steps: list[tuple[int, int, Any]], seat: int) -> Any:
    """The same game, but other seats' hidden deals and votes changed where possible."""
    final = steps[-1][2]
    finished = len(final.results)
    table = game.table
    state = game.new_initial_state()
    for index, (player, real_action, _after) in enumerate(steps):
        action = real_action
        if player == pyspiel.PlayerId.CHANCE:
            number, dealt_seat = state.next_deal()
            if number > finished and dealt_seat != seat:
                # Another card, none of this round's real ones (so no other deal changes).
                real = {table.card_index[m] for m in final.objectives[number - 1]}
                action = next(a for a, _p in state.chance_outcomes() if a not in real)
            state.apply_action(action)
            continue
        move = table.move(action)
        if isinstance(move, throne.Vote) and player != seat:
            # Flip a vote still face down at the end (cast in the open election).
            face_down = all(later.phase == 2 for _p, _a, later in steps[index:])
            flipped = table.code(throne.Vote(not move.yes))
            if face_down and flipped in state.legal_actions():
                action = flipped
        state.apply_action(action)
    return state


def test_a_seat_sees_only_its_observation_hidden_parts_perturbed() -> None:
    """B4/B11/B14: changing what a seat cannot know (others' objectives of the
    current round, others' face-down votes) leaves its information state and
    observation, strings and tensors, unchanged; the changed seats' views differ."""
    changed_somewhere = 0
    for params in ({"players": 3}, {"players": 4, "no_cards_public": False}):
        game = pyspiel.load_game(openspiel.THRONE, params)
        rng = np.random.RandomState(11)
        for _game_index in range(2):
            state = game.new_initial_state()
            steps: list[tuple[int, int, Any]] = []
            while not state.is_terminal() and len(steps) < 400:
                player = state.current_player()
                if state.is_chance_node():
                    action = int(rng.choice([a for a, _p in state.chance_outcomes()]))
                else:
                    action = int(rng.choice(state.legal_actions()))
                state.apply_action(action)
                steps.append((player, action, openspiel.engine_state(state)))
                if state.is_chance_node() or len(steps) % 23:
                    continue
                for seat in range(game.num_players()):
                    other = perturbed(game, steps, seat)
                    assert views(other, seat) == views(state, seat)
                    if openspiel.engine_state(other) != openspiel.engine_state(state):
                        changed_somewhere += 1
                        differs = [
                            q
                            for q in range(game.num_players())
                            if views(other, q) != views(state, q)
                        ]
                        assert differs and seat not in differs
    assert changed_somewhere > 10


def test_distinct_views_give_distinct_strings_and_tensors() -> None:
    """Two different observations of a seat never share a string or a tensor, and the
    observation string is the Observation written out (nothing else goes in)."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 3})
    by_string: dict[str, Any] = {}
    by_tensor: dict[bytes, Any] = {}
    info_by_string: dict[str, Any] = {}
    for seed in range(3):
        _final, steps = play_random(game, seed)
        state = game.new_initial_state()
        for player, action, _after in steps:
            state.apply_action(action)
            if player == pyspiel.PlayerId.CHANCE:
                continue
            engine = openspiel.engine_state(state)
            for seat in range(3):
                obs = throne.observation(engine, seat)
                text = state.observation_string(seat)
                assert text == throne_view(obs)
                tensor = np.asarray(state.observation_tensor(seat), np.float32).tobytes()
                assert by_string.setdefault(text, obs) == obs
                assert by_tensor.setdefault(tensor, obs) == obs
                known = (obs, tuple(state.visible_log(seat)))
                info = state.information_state_string(seat)
                assert info_by_string.setdefault(info, known) == known
    assert len(by_string) > 300


def test_votes_are_shown_after_the_reveal_only() -> None:
    """B11: an other seat's vote is 'voted' in the information state until the
    election ends, then shown; the own vote is always shown."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 3})
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        engine = openspiel.engine_state(state)
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _p in state.chance_outcomes()])))
            continue
        if engine.phase == 2 and all(v < 0 for v in engine.votes):
            voter = state.current_player()
            state.apply_action(game.table.code(throne.Vote(False)))
            watcher = (voter + 1) % 3
            assert state.information_state_string(watcher).endswith(f"{voter}:voted")
            assert state.information_state_string(voter).endswith(f"{voter}:no")
            while openspiel.engine_state(state).phase == 2:
                state.apply_action(game.table.code(throne.Vote(True)))
            assert f" {voter}:no" in state.information_state_string(watcher)
            return
        state.apply_action(int(rng.choice(state.legal_actions())))
    pytest.fail("no election in this game")


def test_determinize_keeps_the_view_and_draws_the_hidden_parts() -> None:
    """The search bots' sampled states (B4, B11): the seat's observation is exactly
    the one it was drawn from; others' objectives are drawn anew."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 4, "no_cards_public": False})
    _final, steps = play_random(game, 2)
    rng = Rng.from_seed(1)
    differ = 0
    for _player, _action, engine in steps[::17]:
        for seat in range(4):
            obs = throne.observation(engine, seat)
            drawn, rng = openspiel.determinize(obs, rng)
            assert throne.observation(drawn, seat) == obs
            differ += drawn.objectives[engine.round - 1] != engine.objectives[engine.round - 1]
            if engine.phase != 3:
                sampled = openspiel.throne_state(game, drawn)
                assert sampled.observation_string(seat) == throne_view(obs)
                if engine.turn == seat:  # its own No cards are known to it
                    assert sampled.legal_actions() == game.table.legal(engine)
    assert differ > 0


def test_the_resampler_draws_from_the_seats_view_only() -> None:
    """B4, B11: ISMCTS's resampler hands back a state drawn from the seat's observation:
    the seat's view is kept, and the other seats' objectives are drawn anew, so that the
    search never reads the real ones."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 4})
    _final, steps = play_random(game, 3)
    resample = openspiel.resampler(4)
    redrawn = 0
    for player, _action, engine in steps[::11]:
        if player == pyspiel.PlayerId.CHANCE or engine.phase == 3:
            continue
        state = openspiel.throne_state(game, engine)
        for seat in range(4):
            drawn = openspiel.engine_state(resample(state, seat))
            assert throne.observation(drawn, seat) == throne.observation(engine, seat)
            number = engine.round - 1
            redrawn += drawn.objectives[number] != engine.objectives[number]
    assert redrawn > 10


# ---------------------------------------------------------------------------
# OpenSpiel's algorithms


def test_openspiel_mcts_bot_plays_a_whole_ascent_game() -> None:
    """OpenSpiel's MCTSBot (random rollouts) against random play, to the end (A14)."""
    game = pyspiel.load_game(openspiel.ASCENT, {"players": 2})
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _p in state.chance_outcomes()])))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            played += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert played > 5
    assert state.returns() == [float(v) for v in ascent.scores(openspiel.engine_state(state))]


def test_information_set_mcts_plays_a_whole_throne_game() -> None:
    """OpenSpiel's IS-MCTS, resampling from the seat's observation only, plays seat 0."""
    game = pyspiel.load_game(openspiel.THRONE, {"players": 3})
    rng = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        2.0,
        2,
        random_state=rng,
        use_observation_string=True,
    )
    bot.set_resampler(openspiel.resampler(5))
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _p in state.chance_outcomes()])))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
            played += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert played > 20
    assert all(1 <= v <= 99 for v in state.returns())


def test_missing_openspiel_is_one_line_naming_the_extra() -> None:
    """Without OpenSpiel, importing the adapter says which extra to install."""
    code = "import sys; sys.modules['pyspiel'] = None; import castlerules.adapters.openspiel"
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ImportError: castlerules.adapters.openspiel needs OpenSpiel: "
        "pip install -e '.[openspiel]' (in a clone of castlerules)"
    )


@pytest.mark.parametrize("name", [openspiel.THRONE, openspiel.ASCENT])
@pytest.mark.parametrize("action", [10**6, -2])
def test_an_action_number_that_names_nothing_is_an_argument_error(name: str, action: int) -> None:
    """At a chance node and at a seat's turn, an action out of range is the library's
    ArgumentError naming the action (never an IndexError), and the state is unchanged."""
    state = pyspiel.load_game(name).new_initial_state()
    for _ in range(2):  # a chance node first, then (after one outcome) the next node
        before = str(state)
        with pytest.raises(ArgumentError, match=rf"action {action}\b.*(chance_outcomes|legal)"):
            state.apply_action(action)
        assert str(state) == before
        state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    count = state.get_game().num_distinct_actions()
    for bad in (count, action):
        with pytest.raises(ArgumentError, match=rf"action {bad} is not a move.*legal_actions"):
            state.apply_action(bad)


def test_a_throne_objective_dealt_twice_in_a_round_is_refused() -> None:
    """B4: a round deals distinct objectives; a chance action repeating one is refused."""
    state = pyspiel.load_game(openspiel.THRONE, {"players": 3}).new_initial_state()
    state.apply_action(0)
    with pytest.raises(ArgumentError, match=r"chance action 0 .* already dealt .*\(B4\)"):
        state.apply_action(0)
    state.apply_action(1)
    state.apply_action(2)
    assert not state.is_chance_node()
