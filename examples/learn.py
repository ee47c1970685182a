"""A policy for Throne trained on the batch's pure functions, measured on the engine.

A small network (an MLP on one seat's observation) learns to play Throne at 4
players against three random bots, by policy gradient (REINFORCE with the
batch's mean as the baseline), entirely inside compiled loops: each iteration
plays a batch of whole games in one :func:`jax.lax.scan` over the batch's pure
``step`` (``env.functional()``), the random bots and the policy sampling inside
it, then takes one optax step on the games' outcomes.  The learner's seat
rotates with the game (game ``i`` plays seat ``i % 4``), so that the random
bots' share is exactly a quarter.

Then the scalar engine (:mod:`castlerules.throne`) plays 10,000 new games: in
the learner's seat the trained policy picks among the engine's legal moves,
read as the batch's action numbers (``legal_codes``), from the same
observation (:func:`castlerules.throne.observation` read into the batch's
arrays); the other seats pick uniformly among their legal moves.  A game won
alone counts 1, a win shared by ``k`` seats (B16: the seats tied at the highest
total) counts ``1/k``: the learner's win share, with its 95% Wilson interval,
against the random bots' 25%.

    pip install -e '.[jax,learn]'
    python examples/learn.py                       # the run of docs/batch.rst
    python examples/learn.py --iterations 2 --games 64 --eval-games 20 --out /tmp/learn

The same script runs unchanged on a GPU (JAX places the compiled loops there).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PLAYERS = 4
CHARACTERS = 13
FLOOR_VALUES = 9
"""A character's floor in the observation: -1 (eliminated), 0 (not placed), 1..7."""
PHASES = ("placement", "movement", "election", "over")
"""The engine's phase names, in the order of the batch's phase numbers."""
FEATURES = 2 * CHARACTERS * FLOOR_VALUES + CHARACTERS + len(PHASES) + 3 + 2 * PLAYERS + 3
"""The length of :func:`features`' vector."""
PASSES = 4
"""Optimizer steps on each iteration's games."""
CLIP = 0.2
"""PPO's clip of the ratio of the policy's probabilities to those that played."""
EVAL_SEED = 1_000_000_000
"""The engine's evaluation plays seeds from here on: none of them was trained on."""


def require_learn_extra() -> Any:
    """JAX and optax, or one line naming the missing extra and exit status 2."""
    for name, extra in (("optax", "learn"), ("jax", "jax")):  # optax first: nothing imported
        try:
            importlib.import_module(name)
        except ImportError:
            print(
                f"examples/learn.py needs the '{extra}' extra ({name} is missing): "
                "pip install -e '.[jax,learn]'",
                file=sys.stderr,
            )
            raise SystemExit(2) from None
    import jax
    import optax

    return jax, optax


# ---------------------------------------------------------------------- the observation


def features(xp: Any, view: dict[str, Any], seat: Any) -> Any:
    """``(games, FEATURES)`` float32: one seat's observation (``view``, the batch's
    ``observe`` arrays, one game per row) as the network's input, ``seat`` being
    each game's seat (``(games,)`` ints): each character's floor (one-hot), the
    same for the seat's favourites only (B4, B5), the favourites, the phase and
    the round, the No cards and the totals so far of each seat counted from this
    one (B11, B16), and this seat's vote in the election under way."""
    floors = xp.asarray(view["floors"]).astype(xp.int32)
    games = floors.shape[0]
    at_floor = (floors[:, :, None] == (xp.arange(FLOOR_VALUES) - 1)[None, None, :]).astype(
        xp.float32
    )
    objective = xp.asarray(view["objective"]).astype(xp.int32)
    mine = ((objective[:, None] >> xp.arange(CHARACTERS)[None, :]) & 1).astype(xp.float32)
    phase = xp.asarray(view["phase"]).astype(xp.int32)
    rnd = xp.asarray(view["round"]).astype(xp.int32)
    order = (xp.asarray(seat).astype(xp.int32)[:, None] + xp.arange(PLAYERS)[None, :]) % PLAYERS
    no_cards = xp.take_along_axis(xp.asarray(view["no_cards"]).astype(xp.float32), order, axis=1)
    scores = xp.asarray(view["round_scores"]).astype(xp.float32).sum(axis=1)
    totals = xp.take_along_axis(scores, order, axis=1)
    vote = xp.asarray(view["vote"]).astype(xp.int32)
    return xp.concatenate(
        [
            at_floor.reshape(games, -1),
            (at_floor * mine[:, :, None]).reshape(games, -1),
            mine,
            (phase[:, None] == xp.arange(len(PHASES))[None, :]).astype(xp.float32),
            (rnd[:, None] == xp.arange(1, 4)[None, :]).astype(xp.float32),
            no_cards / 3.0,
            totals / 99.0,
            (vote[:, None] == xp.arange(-1, 2)[None, :]).astype(xp.float32),
        ],
        axis=1,
    )


def engine_view(observations: Sequence[Any]) -> dict[str, Any]:
    """The engine's observations (:class:`castlerules.throne.Observation`, one seat
    each) as the arrays of the batch's ``observe``, the fields :func:`features`
    reads."""
    import numpy as np

    letters = observations[0].rules.letters()
    bit = {ch: 1 << i for i, ch in enumerate(letters)}
    scores = np.zeros((len(observations), 3, PLAYERS), dtype=np.int32)
    for row, obs in enumerate(observations):
        for done, result in enumerate(obs.round_scores):
            scores[row, done] = result
    return {
        "floors": np.array([obs.floors for obs in observations], dtype=np.int32),
        "objective": np.array([sum(bit[ch] for ch in obs.objective) for obs in observations]),
        "phase": np.array([PHASES.index(obs.phase) for obs in observations]),
        "round": np.array([obs.round for obs in observations]),
        "no_cards": np.array(
            [[-1 if n is None else n for n in obs.no_cards] for obs in observations]
        ),
        "round_scores": scores,
        "vote": np.array([-1 if obs.vote is None else int(obs.vote) for obs in observations]),
    }


# ---------------------------------------------------------------------- the policy


def init_policy(jax: Any, key: Any, hidden: int, actions: int) -> dict[str, Any]:
    """The network's weights: two hidden layers of ``hidden`` units, one logit per action."""
    sizes = [FEATURES, hidden, hidden, actions]
    params = {}
    for layer, (fan_in, fan_out) in enumerate(itertools.pairwise(sizes)):
        key, sub = jax.random.split(key)
        scale = 0.01 if layer == len(sizes) - 2 else math.sqrt(2.0 / fan_in)
        params[f"w{layer}"] = scale * jax.random.normal(sub, (fan_in, fan_out))
        params[f"b{layer}"] = jax.numpy.zeros(fan_out)
    return params


def logits_of(xp: Any, params: dict[str, Any], inputs: Any) -> Any:
    """The network's logits (``xp``: jax.numpy while training, numpy on the engine)."""
    hidden = inputs
    layers = len(params) // 2
    for layer in range(layers):
        hidden = hidden @ params[f"w{layer}"] + params[f"b{layer}"]
        if layer < layers - 1:
            hidden = xp.maximum(hidden, 0.0)
    return hidden


# ---------------------------------------------------------------------- training


def trainer(jax: Any, optax: Any, games: int, steps: int, learning_rate: float) -> Any:
    """``(env, optimizer, iterate)``: ``iterate(params, opt_state, seeds, key)`` plays
    ``games`` whole games (``steps`` steps at most) and takes one optimizer step;
    compiled as one program."""
    jnp = jax.numpy
    from castlerules import batch

    env = batch.make("throne", players=PLAYERS, size=games, backend="jax")
    init, step = env.functional()
    optimizer = optax.adam(learning_rate)
    games_axis = jnp.arange(games)

    def learner_inputs(state: Any, seat: Any) -> Any:
        # Every seat's observation (state.observation[q], one traced program for the
        # seats), then each game's learner's.
        views = jax.vmap(lambda q: env.observe_data(jnp, state.data, q))(jnp.arange(PLAYERS))
        view = {name: value[seat, games_axis] for name, value in views.items()}
        # Stored as float16 for the gradient: the policy reads the same rounding.
        return features(jnp, view, seat).astype(jnp.float16), view["round"].astype(jnp.int8)

    def rollout(params: Any, seeds: Any, key: Any) -> tuple[Any, ...]:
        state = init(seeds)
        seat = (seeds % PLAYERS).astype(jnp.int32)

        def one(carry: tuple[Any, Any], key: Any) -> tuple[tuple[Any, Any], tuple[Any, ...]]:
            state, points = carry
            inputs, rnd = learner_inputs(state, seat)
            mask = state.legal_action_mask
            mine = state.current_player == seat
            learner_key, bot_key = jax.random.split(key)
            logits = logits_of(jnp, params, inputs.astype(jnp.float32))
            masked = jnp.where(mask, logits, -1e9)
            chosen = jax.random.categorical(learner_key, masked)
            taken = jax.nn.log_softmax(masked)[games_axis, chosen]
            noise = jax.random.gumbel(bot_key, mask.shape)
            uniform = jnp.argmax(jnp.where(mask, noise, -jnp.inf), axis=1)
            action = jnp.where(mine, chosen, uniform)
            after = step(state, action)
            ended = jnp.logical_and(after.terminated, jnp.logical_not(state.terminated))
            points = jnp.where(ended[:, None], after.rewards, points)
            return (after, points), (inputs, mask, action, mine, rnd, taken)

        start = (state, jnp.zeros((games, PLAYERS), jnp.float32))
        (final, points), trail = jax.lax.scan(one, start, jax.random.split(key, steps))
        best = points.max(axis=1, keepdims=True)
        top = points == best
        share = jnp.where(top[games_axis, seat], 1.0 / top.sum(axis=1), 0.0)
        finished = jnp.logical_and(final.terminated, jnp.logical_not(final.forfeited))
        margin = points[games_axis, seat] - (points.sum(axis=1) - points[games_axis, seat]) / 3
        # Each round's margin: the learner's round score over the others' mean (B14).
        scores = final.observation[0]["round_scores"].astype(jnp.float32)  # (games, 3, seats)
        own = jnp.take_along_axis(scores, seat[:, None, None], axis=2)[:, :, 0]
        rounds = own - (scores.sum(axis=2) - own) / (PLAYERS - 1)
        return trail, share, finished, margin, rounds

    def loss(params: Any, trail: tuple[Any, ...], advantage: Any) -> Any:
        inputs, mask, action, mine, rnd, played = trail
        logits = logits_of(jnp, params, inputs.astype(jnp.float32))
        log_probs = jax.nn.log_softmax(jnp.where(mask, logits, -1e9), axis=-1)
        taken = jnp.take_along_axis(log_probs, action[..., None], axis=-1)[..., 0]
        # Each move is credited with the margin of its own round (the rounds are
        # independent: the castle emptied, new objectives, the No cards restored, B3).
        credit = jnp.take_along_axis(advantage[None], jnp.clip(rnd - 1, 0, 2)[..., None], 2)
        credit = credit[..., 0]
        # PPO's clipped ratio: several passes over the same games stay near the policy
        # that played them.
        ratio = jnp.exp(taken - played)
        gain = jnp.minimum(ratio * credit, jnp.clip(ratio, 1 - CLIP, 1 + CLIP) * credit)
        return -(jnp.where(mine, gain, 0.0).sum(axis=0)).mean()

    def iterate(params: Any, opt_state: Any, seeds: Any, key: Any) -> tuple[Any, ...]:
        trail, share, finished, margin, rounds = rollout(params, seeds, key)
        counted = finished.astype(jnp.float32)[:, None]
        total = jnp.maximum(counted.sum(), 1.0)
        mean = (rounds * counted).sum(axis=0) / total
        spread = jnp.sqrt(((rounds - mean) ** 2 * counted).sum(axis=0) / total)
        advantage = jax.lax.stop_gradient((rounds - mean) / (spread + 1e-6) * counted)
        counted = counted[:, 0]

        def one_pass(carry: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
            params, opt_state = carry
            grads = jax.grad(loss)(params, trail, advantage)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), None

        (params, opt_state), _ = jax.lax.scan(one_pass, (params, opt_state), None, PASSES)
        won = (share * counted).sum() / jnp.maximum(counted.sum(), 1.0)
        return params, opt_state, won, counted.sum(), (margin * counted).sum() / counted.sum()

    # The batch's XLA options on a CPU (faster to compile and to run; none on a GPU).
    return env, optimizer, jax.jit(iterate, compiler_options=env.backend.compiler_options or None)


# ---------------------------------------------------------------------- the engine's games


def evaluate(
    params: dict[str, Any],
    count: int,
    *,
    greedy: bool = True,
    seed: int = EVAL_SEED,
    batch_rows: int = 1000,
) -> dict[str, Any]:
    """``count`` games of the engine (seeds ``seed``, ``seed + 1``, ...): the policy in
    seat ``i % 4`` of game ``i``, playing its most likely legal action number (``greedy``)
    or sampling among them;
    uniform random moves in the other seats.  Played ``batch_rows`` games side by side
    so that the policy runs on many observations at once (numpy)."""
    import numpy as np

    from castlerules import throne
    from castlerules.adapters.numbering import ThroneActions
    from castlerules.throne.transitions import legal_codes

    weights = {name: np.asarray(value, dtype=np.float32) for name, value in params.items()}
    numbering = ThroneActions(throne.Rules(), PLAYERS)
    rng = np.random.default_rng(seed)
    shares = []
    for first in range(seed, seed + count, batch_rows):
        seeds = range(first, min(first + batch_rows, seed + count))
        states = [throne.new_game(PLAYERS, seed=s) for s in seeds]
        seats = [s % PLAYERS for s in seeds]
        live = list(range(len(states)))
        while live:
            mine = [g for g in live if throne.current_player(states[g]) == seats[g]]
            picks: dict[int, int] = {}
            if mine:
                observations = [throne.observation(states[g], seats[g]) for g in mine]
                inputs = features(np, engine_view(observations), np.array([seats[g] for g in mine]))
                logits = logits_of(np, weights, inputs.astype(np.float16).astype(np.float32))
                for row, g in enumerate(mine):
                    legal = list(legal_codes(states[g]))
                    chosen = logits[row, legal]
                    if greedy:
                        picks[g] = legal[int(chosen.argmax())]
                        continue
                    chance = np.exp(chosen - chosen.max())
                    picks[g] = legal[int(rng.choice(len(legal), p=chance / chance.sum()))]
            still = []
            for g in live:
                state = states[g]
                if g in picks:
                    code = picks[g]
                else:
                    legal = list(legal_codes(state))
                    code = legal[int(rng.integers(len(legal)))]
                state = throne.apply(state, numbering.move(code))
                states[g] = state
                if throne.is_over(state):
                    winners = throne.winners(state)
                    shares.append(1.0 / len(winners) if seats[g] in winners else 0.0)
                else:
                    still.append(g)
            live = still
    share = float(np.mean(shares))
    low, high = wilson(share, len(shares))
    return {
        "games": len(shares),
        "win_share": share,
        "interval95": [low, high],
        "wins_alone": int(sum(1 for s in shares if s == 1.0)),
        "wins_shared": int(sum(1 for s in shares if 0.0 < s < 1.0)),
        "random_share": 1.0 / PLAYERS,
        "policy": "greedy" if greedy else "sampled",
        "seeds": [seed, seed + count - 1],
    }


def wilson(share: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a share over ``games`` games."""
    if games == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    return centre - half / (1 + z * z / games), centre + half / (1 + z * z / games)


# ---------------------------------------------------------------------- the run


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--games", type=int, default=512, help="games a training iteration")
    parser.add_argument("--steps", type=int, default=330, help="steps a training game at most")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--eval-games", type=int, default=10_000)
    parser.add_argument(
        "--sampled",
        action="store_true",
        help="the engine's games sample the policy (default: its likeliest move)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/_static/learn", help="writes OUT.json, OUT.png")
    args = parser.parse_args(argv)
    jax, optax = require_learn_extra()
    wall, cpu = time.perf_counter(), time.process_time()
    env, optimizer, iterate = trainer(jax, optax, args.games, args.steps, args.learning_rate)
    key = jax.random.key(args.seed)
    key, sub = jax.random.split(key)
    params = init_policy(jax, sub, args.hidden, env.num_actions)
    opt_state = optimizer.init(params)
    curve: list[dict[str, Any]] = []
    compile_cpu = 0.0
    for iteration in range(args.iterations):
        key, sub = jax.random.split(key)
        seeds = jax.numpy.arange(args.games, dtype=jax.numpy.uint32) + iteration * args.games
        started = time.process_time()
        params, opt_state, won, counted, margin = iterate(params, opt_state, seeds, sub)
        won = float(won)
        if iteration == 0:
            compile_cpu = time.process_time() - started
        curve.append(
            {
                "iteration": iteration + 1,
                "win_share": round(won, 4),
                "margin": round(float(margin), 3),
                "finished": int(counted),
            }
        )
        print(
            f"iteration {iteration + 1}: win share {won:.3f}, "
            f"margin {float(margin):+.2f}, {int(counted)}/{args.games} games finished",
            file=sys.stderr,
            flush=True,
        )
    train_cpu, train_wall = time.process_time() - cpu, time.perf_counter() - wall
    result = evaluate(params, args.eval_games, greedy=not args.sampled)
    low, high = result["interval95"]
    print(
        f"engine, {result['games']:,} games: win share {result['win_share']:.4f} "
        f"(95% interval {low:.4f} to {high:.4f}) against the random bots' 0.25",
        file=sys.stderr,
    )
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python examples/learn.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "game": "throne",
        "players": PLAYERS,
        "iterations": args.iterations,
        "games_per_iteration": args.games,
        "steps_per_game": args.steps,
        "hidden": args.hidden,
        "learning_rate": args.learning_rate,
        "curve": curve,
        "evaluation": result,
        "train_cpu_s": round(train_cpu, 1),
        "train_wall_s": round(train_wall, 1),
        "compile_cpu_s": round(compile_cpu, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        "wall_s": round(time.perf_counter() - wall, 1),
        "machine": {
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "jax": jax.__version__,
            "device": str(jax.devices()[0]),
        },
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    plot(report, out.with_suffix(".png"))
    return report


def plot(report: dict[str, Any], path: Path) -> None:
    """The learning curve (the training games' win share per iteration) and the
    engine's measured share with its interval; nothing if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no plot: matplotlib is in the 'study' extra", file=sys.stderr)
        return
    figure, axes = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    xs = [point["iteration"] for point in report["curve"]]
    ys = [100 * point["win_share"] for point in report["curve"]]
    axes.plot(xs, ys, lw=1, label=f"training games ({report['games_per_iteration']} a step)")
    axes.axhline(25, color="grey", ls="--", lw=1, label="three random bots' share (25%)")
    result = report["evaluation"]
    low, high = result["interval95"]
    axes.errorbar(
        [xs[-1] if xs else 0],
        [100 * result["win_share"]],
        yerr=[[100 * (result["win_share"] - low)], [100 * (high - result["win_share"])]],
        fmt="o",
        color="black",
        capsize=3,
        label=f"the engine, {result['games']:,} games (95%)",
    )
    axes.set_xlabel("training iteration")
    axes.set_ylabel("learner's win share (%)")
    axes.set_title("Throne, 4 players: the learner against three random bots")
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


if __name__ == "__main__":
    main()
