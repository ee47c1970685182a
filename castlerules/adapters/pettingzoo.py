"""Throne and Ascent as PettingZoo AEC environments: ``throne_env()``, ``ascent_env()``.

Needs ``pip install -e '.[pettingzoo]'`` (in a clone).  The agents are ``seat_0``,
``seat_1``, ...; an action is a number (the numbering of
:mod:`castlerules.adapters.numbering`, the same as the OpenSpiel adapter's); each
observation is a dict with ``"observation"`` (a float32 vector computed from
``observation(state, seat)`` alone, so a seat never sees another's objective
or vote; computed when first read, a :class:`LazyObservation`) and
``"action_mask"`` (1 for the legal actions of the seat to act).
The chance of the game (Throne's objectives, Ascent's die) is dealt from the
seed of ``reset(seed=...)``, exactly as ``new_game(players, rules, seed)``
deals it.  The rewards come at the end: each seat's final score (B14-B16,
A15-A17).  ``render_mode``: ``"ansi"`` (the text board of ``castlerules
play``) or ``"svg"`` (the SVG diagram, as a string); ``render_seat`` chooses
whose view of Throne the text board draws (None: a spectator, public facts only);
the SVG shows what every seat at the table may see (no seat's favourites, B4; no
hidden No count, B11), ``render_seat`` marking that seat's line.

>>> from castlerules.adapters.pettingzoo import throne_env
>>> env = throne_env(players=3)
>>> env.reset(seed=7)
>>> env.agent_selection
'seat_0'
>>> observation, reward, terminated, truncated, info = env.last()
>>> int(observation["action_mask"].sum())  # 13 characters on 5 placement floors
65
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Iterator
from operator import attrgetter
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as _err:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "castlerules.adapters.pettingzoo needs PettingZoo: pip install -e '.[pettingzoo]' "
        "(in a clone of castlerules)"
    ) from _err

from castlerules import ascent, throne
from castlerules.adapters.numbering import (
    AscentActions,
    ThroneActions,
    ThroneEncoder,
    ascent_tensor,
    ascent_tensor_size,
    seat_names,
    throne_tensor_size,
)
from castlerules.core.chance import check_seed
from castlerules.core.errors import ArgumentError, IllegalMove
from castlerules.throne.transitions import legal_codes

__all__ = ["CastleEnv", "LazyObservation", "ascent_env", "throne_env"]

RENDER_MODES = ("ansi", "svg")

_KEYS = ("observation", "action_mask")
"""The keys of an observation, in order."""
MASK_MEMO = 16384
"""Most action masks an environment keeps, by their legal moves (then it starts anew)."""


class LazyObservation(dict):  # type: ignore[type-arg]
    """The observation dict of an agent: the ``"action_mask"`` from the start, the
    ``"observation"`` vector computed when first read.

    An AEC loop asks for an observation at every step (``env.last()``) and
    reads the mask to choose an action, but often not the vector, which is
    then never built.  The dict has both keys from the start and behaves as a
    plain dict for every read (``obs[key]``, ``get``, ``values``, ``items``,
    iteration, ``dict(obs)``, ``==``, ``copy``, pickling: all compute first).
    The vector is computed from the position of the step that made the dict
    (states are immutable), so reading it late gives the same values.
    :meth:`CastleEnv.observe` makes them.
    """

    __slots__ = ("_env", "_seat", "_state")

    # The environment, the position of the step and the seat (set by ``observe``; three
    # slots rather than a tuple: one object less for the garbage collector each step).
    _env: CastleEnv
    _state: Any
    _seat: int

    def __missing__(self, key: str) -> Any:
        # dict's own lookup found no "observation" yet: compute it now (the mask is stored).
        if key != "observation":
            raise KeyError(key)
        value = self._env._vector(self._state, self._seat)
        dict.__setitem__(self, key, value)
        return value

    def _computed(self) -> dict[str, Any]:
        return {key: self[key] for key in _KEYS}

    def __iter__(self) -> Iterator[str]:  # not dict's own: dict(obs) then reads obs[key]
        return iter(_KEYS)

    def __contains__(self, key: object) -> bool:
        return key in _KEYS

    def __len__(self) -> int:
        return len(_KEYS)

    def keys(self) -> Any:
        """The two keys (nothing is computed)."""
        return dict.fromkeys(_KEYS).keys()

    def get(self, key: str, default: Any = None) -> Any:
        """``self[key]`` (computed if needed), or ``default`` for another key."""
        return self[key] if key in _KEYS else default

    def values(self) -> Any:
        """The computed entries."""
        return self._computed().values()

    def items(self) -> Any:
        """The keys with their computed entries."""
        return self._computed().items()

    def copy(self) -> dict[str, Any]:
        """A plain dict of the computed entries."""
        return self._computed()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyObservation):
            other = other._computed()
        return self._computed() == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self._computed())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self._computed(),))


class CastleEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment over one castlerules game module (``throne`` or ``ascent``)."""

    def __init__(
        self,
        module: Any,
        players: int,
        rules: Any = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ArgumentError(
                f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        self.module = module
        self.rules = module.Rules() if rules is None else rules
        if not isinstance(self.rules, module.Rules):
            raise ArgumentError(
                f"rules must be a castlerules.{module.NAME}.Rules, not {type(rules).__name__}"
            )
        self.players = players
        self.render_mode = render_mode
        self.render_seat = render_seat
        if module is throne:
            self.table: Any = ThroneActions(self.rules, players)
            size = throne_tensor_size(self.rules, players)
            self._encoder = ThroneEncoder(self.rules, players)
        else:
            self.table = AscentActions(self.rules, players)
            size = ascent_tensor_size(self.rules, players)
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
            "name": f"castlerules_{module.NAME}",
        }
        self.possible_agents = seat_names(players)
        self.agents = self.possible_agents[:]
        self._seat = {name: q for q, name in enumerate(self.possible_agents)}
        box = gymnasium.spaces.Box(0.0, 1.0e6, shape=(size,), dtype=np.float32)
        mask = gymnasium.spaces.Box(0, 1, shape=(self.table.count,), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": box, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.table.count) for a in self.possible_agents
        }
        self._size = size
        # The seat to act, -1 once the game is over (current_player's None).
        self._actor = attrgetter("turn" if module is throne else "actor")
        # The generator of unseeded resets, made when first needed: from the seed of
        # the last reset(seed=...), else from fresh entropy.
        self._rng: Any = None
        self._rng_seed: int | None = None
        self._apply = module.apply
        self._throne = module is throne
        # Action masks already built, by legal_key (a bounded memo; copies are handed out).
        self._masks: dict[Any, Any] = {}
        self._no_mask = np.zeros(self.table.count, np.int8)
        self.state_: Any = None

    def observation_space(self, agent: str) -> Any:
        """The same space object for an agent every time (PettingZoo's rule)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(number of actions of these rules)``."""
        return self.action_spaces[agent]

    @property
    def engine(self) -> Any:
        """The castlerules state of the current game."""
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, dealt from ``seed`` (None: from the environment's own generator)."""
        if seed is not None:
            # An integer of any kind (numpy's too); anything else is refused as
            # new_game refuses it, with the seed domain (ArgumentError).
            value = seed
            if not isinstance(seed, bool):
                with contextlib.suppress(TypeError):
                    value = operator.index(seed)
            game_seed = check_seed(value, "reset's seed")
            self._rng, self._rng_seed = None, game_seed
        else:
            if self._rng is None:
                self._rng = np.random.default_rng(self._rng_seed)
            game_seed = int(self._rng.integers(0, 2**63))
        self.state_ = self.module.new_game(self.players, self.rules, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.module.current_player(self.state_)]

    def observe(self, agent: str) -> dict[str, Any]:
        """What the agent's seat may know, and its legal actions (if it is to act).

        A :class:`LazyObservation`: the mask now, the vector when read, both
        from the position of this step and from what the seat may know
        (``observation(state, seat)`` for Throne) alone.
        """
        try:
            seat = self._seat[agent]
        except (KeyError, TypeError):
            raise ArgumentError(
                f"unknown agent {agent!r:.40}: the agents are {', '.join(self.possible_agents)}"
            ) from None
        if self.state_ is None:
            raise _not_reset("observe")
        return self._observation(seat)

    def _observation(self, seat: int) -> LazyObservation:
        obs = LazyObservation()
        obs["action_mask"] = self._mask(self.state_, seat)
        obs._env, obs._state, obs._seat = self, self.state_, seat
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv's ``last``: the selected agent's observation (a :class:`LazyObservation`),
        cumulative reward, termination, truncation and info."""
        if self.state_ is None:
            raise _not_reset("last")
        agent = self.agent_selection
        return (
            self._observation(self._seat[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _vector(self, state: Any, seat: int) -> Any:
        vector = np.zeros(self._size, np.float32)
        if self._throne:
            self._encoder.write(throne.observation(state, seat), vector)
        else:
            ascent_tensor(state, vector)
        return vector

    def _mask(self, state: Any, seat: int) -> Any:
        if self._actor(state) != seat:  # -1 once over
            return self._no_mask.copy()
        # What names the legal moves, the key of their mask: Throne's numbers (the
        # engine's legal_codes); the identities of Ascent's moves, which are the
        # engine's own objects (moves.BY_CODE), listed by legal_moves (state.moves).
        key = legal_codes(state) if self._throne else tuple(map(id, state.moves))
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= MASK_MEMO:
                self._masks.clear()
            built = bytearray(self.table.count)
            for code in key if self._throne else self.table.legal(state):
                built[code] = 1
            mask = self._masks[key] = np.frombuffer(built, np.int8)
        return mask.copy()  # the caller's own (writable) array

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to act; at the end, every seat gets its score."""
        if self.state_ is None:
            raise _not_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            code = int(action)
            if code < 0:
                raise IndexError(code)
            after = self._apply(self.state_, self.table.moves[code])
        except (TypeError, ValueError, IndexError, IllegalMove):
            raise ArgumentError(
                f"{agent} cannot play action {action!r}: not legal here (see the action_mask)"
            ) from None
        self.state_ = after
        seat = self._actor(after)
        if seat < 0:  # the game is over (B3, A14)
            self._cumulative_rewards[agent] = 0.0
            scores = self.module.scores(after)
            self.rewards = {a: float(scores[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            return
        # The rewards come at the end only: until then self.rewards and every
        # cumulative reward stay the zeros of reset() (so this agent's needs no reset).
        self.agent_selection = self.possible_agents[seat]

    def render(self) -> str | None:
        """The text board (``"ansi"``) or the SVG diagram (``"svg"``) of the position."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.state_ is None:
            raise _not_reset("render")
        seat = self.render_seat
        if self.render_mode == "ansi":
            from castlerules.boards import board

            return board(self.module, self.state_, seat)
        if self.module is throne:
            # B4, B11: the table's board, without any seat's favourites or hidden No
            # counts (the SVG has no one-seat view; render_seat marks that seat's line).
            return throne.svg(self.state_, seat=seat, secrets=False)
        return ascent.svg(self.state_)

    def close(self) -> None:
        """Nothing to release."""


def _not_reset(method: str) -> ArgumentError:
    """The error of a method called before the first game."""
    return ArgumentError(f"{method}() before the first game: call env.reset(seed=...) first")


def throne_env(
    players: int = 4,
    rules: throne.Rules | None = None,
    render_mode: str | None = None,
    render_seat: int | None = None,
) -> CastleEnv:
    """Throne as a PettingZoo AEC environment (``rules``: a :class:`throne.Rules`)."""
    return CastleEnv(throne, players, rules, render_mode, render_seat)


def ascent_env(
    players: int = 2,
    rules: ascent.Rules | None = None,
    render_mode: str | None = None,
) -> CastleEnv:
    """Ascent as a PettingZoo AEC environment (``rules``: an :class:`ascent.Rules`)."""
    return CastleEnv(ascent, players, rules, render_mode)
