"""Throne and Ascent as OpenSpiel games: ``pyspiel.load_game("castlerules_throne")``.

Importing this module registers two Python games with
``pyspiel.register_game`` (needs ``pip install -e '.[openspiel]'`` in a clone):

``castlerules_throne``
    Parameters: ``players`` (3..6, default 4), ``preset`` (``SEED`` or
    ``ORIGINAL``) and every option of :class:`castlerules.throne.Rules` by
    name (booleans and whole numbers as such, the other options as their
    command-line text, e.g. ``points="0,1,2,3,4,5,10"``).  Chance deals each
    seat's objective at the start of every round (B4), one chance node per
    seat, uniformly among the cards not dealt yet in that round.  Imperfect
    information: a seat's observation is ``observation(state, seat)``; its
    information state adds the moves it has seen (other seats' votes only
    once revealed, B11).
``castlerules_ascent``
    Parameters: ``players`` (2..6, default 2), ``preset`` (``DEFAULT``,
    ``GENEROUS``, ``HARSH``) and every option of
    :class:`castlerules.ascent.Rules`.  Chance: the die that designates the
    first player (A18), one chance node with one outcome per seat; under
    ``deal="shuffled"`` the deal comes first, one chance node per card dealt
    (uniformly among the cards not dealt yet, the first ``36 // players`` to
    seat 0, the next to seat 1, ...; the cards left over stay out of play).
    Perfect information.

Both: the returns are the final scores (B14-B16, A15-A17; 0 before the end),
general-sum; the utility bounds and the maximum game length are the proved
ones (see :mod:`castlerules.adapters.numbering`).  ``engine_state(state)`` gives the
castlerules state behind an OpenSpiel state.

>>> import pyspiel
>>> import castlerules.adapters.openspiel
>>> game = pyspiel.load_game("castlerules_throne", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1716)
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as _err:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "castlerules.adapters.openspiel needs OpenSpiel: pip install -e '.[openspiel]' "
        "(in a clone of castlerules)"
    ) from _err

import attrs

from castlerules import ascent, throne
from castlerules.adapters.numbering import (
    AscentActions,
    ThroneActions,
    ThroneEncoder,
    ascent_tensor,
    ascent_tensor_size,
    options_from,
    throne_tensor_size,
    throne_view,
)
from castlerules.ascent.moves import ADVANCES
from castlerules.ascent.rules import Tables
from castlerules.ascent.setup import deal_in_order
from castlerules.core.chance import Rng
from castlerules.core.errors import ArgumentError
from castlerules.throne.moves import Vote as _VOTE_CLASS
from castlerules.throne.sampling import determinize as sample_state
from castlerules.throne.state import ELECTION
from castlerules.throne.state import OVER as _OVER
from castlerules.throne.transitions import apply as _throne_apply
from castlerules.throne.transitions import legal_codes as _throne_legal_codes

__all__ = [
    "ASCENT",
    "THRONE",
    "ascent_state",
    "determinize",
    "engine_state",
    "game_of",
    "params_of",
    "resampler",
    "rules_of",
    "throne_state",
]

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)

THRONE = "castlerules_throne"
"""The OpenSpiel name of Throne."""
ASCENT = "castlerules_ascent"
"""The OpenSpiel name of Ascent."""


def option_text(value: object) -> str:
    """An option value as a text parameter: ``none``, ``[0/1/2]`` (a list), the text itself.

    Lists are written with ``/`` so that the game's name (``castlerules_throne(...)``,
    which separates parameters with commas) can be read back.
    """
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "[" + "/".join(map(str, value)) + "]"
    return str(value)


def _parameters(rules_cls: type, players: int, preset: str) -> dict[str, Any]:
    """The parameter specification: players, preset and every option with its default."""
    spec: dict[str, Any] = {"players": players, "preset": preset}
    for field in attrs.fields(rules_cls):
        value = field.default
        if field.type in ("bool", "int"):
            spec[field.name] = value
        elif field.type == "int | None":  # 0 stands for None (no limit)
            spec[field.name] = 0 if value is None else value
        else:
            spec[field.name] = option_text(value)
    return spec


def rules_of(rules_cls: type, params: dict[str, Any]) -> Any:
    """The ``Rules`` of OpenSpiel game parameters (``rules_cls``: a game's ``Rules`` class).

    An option left at its default value keeps the preset's value (so
    ``{"preset": "ORIGINAL"}`` is the ORIGINAL rules); any other value
    replaces it.  A bad value raises :class:`~castlerules.core.ArgumentError`.
    """
    defaults = _parameters(rules_cls, 0, "")
    nullable = {f.name for f in attrs.fields(rules_cls) if f.type == "int | None"}
    changes: list[tuple[str, object]] = []
    for name, value in params.items():
        if name in ("players", "preset") or value == defaults[name]:
            continue
        if name in nullable and value == 0:
            changes.append((name, None))
        else:
            changes.append((name, value.replace("/", ",") if isinstance(value, str) else value))
    return options_from(rules_cls, str(params.get("preset", "")), changes)


_THRONE_TYPE = pyspiel.GameType(
    short_name=THRONE,
    long_name="castlerules Throne",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=throne.PLAYERS.stop - 1,
    min_num_players=throne.PLAYERS.start,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_parameters(throne.Rules, 4, "SEED"),
)

_ASCENT_TYPE = pyspiel.GameType(
    short_name=ASCENT,
    long_name="castlerules Ascent",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=ascent.PLAYERS.stop - 1,
    min_num_players=ascent.PLAYERS.start,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_parameters(ascent.Rules, 2, "DEFAULT"),
)


def _players(params: dict[str, Any], allowed: range) -> int:
    players = params.get("players")
    if not isinstance(players, int) or players not in allowed:
        raise ArgumentError(
            f"players must be a whole number in {allowed.start}..{allowed.stop - 1}, "
            f"not {players!r}"
        )
    return players


# ---------------------------------------------------------------------------
# Throne


class ThroneGame(pyspiel.Game):  # type: ignore[misc]
    """Throne as an OpenSpiel game (see the module's description)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(_THRONE_TYPE.parameter_specification) | dict(params or {})
        players = _players(params, throne.PLAYERS)
        self.rules: throne.Rules = rules_of(throne.Rules, params)
        self.table = ThroneActions(self.rules, players)
        low, high = self.table.utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.count,
            max_chance_outcomes=len(self.table.cards),
            num_players=players,
            min_utility=float(low),
            max_utility=float(high),
            max_game_length=self.table.max_game_length(),
        )
        super().__init__(_THRONE_TYPE, info, params)
        self.players = players
        blank = ((0,) * players,) * self.rules.rounds
        self.start = attrs.evolve(throne.new_game(players, self.rules), objectives=blank)
        self.obs_size = throne_tensor_size(self.rules, players)
        self.encoder = ThroneEncoder(self.rules, players)
        # History block of the information state: (kind, value) per entry.
        self.history_size = 2 * (self.table.max_game_length() + self.rules.rounds * players)

    def new_initial_state(self) -> ThroneState:
        """The start of a game: a chance node deals seat 0's first objective."""
        return ThroneState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ThroneObserver:
        """The observer of a seat (perfect recall: the information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own view (public and its private information)")
        return ThroneObserver(self, recall)


class Shared(tuple):  # type: ignore[type-arg]
    """The immutable fields of an OpenSpiel state, as one tuple.

    OpenSpiel clones a Python state by deep-copying its attributes; these
    fields (an engine state, numbers, tuples) are immutable and need not be
    copied, so :meth:`__deepcopy__` returns the same object (pickling, for
    serialization, is a tuple's).
    """

    __slots__ = ()

    def __deepcopy__(self, memo: Any) -> Shared:
        return self


# Log entries of a Throne game: (kind, seat, value, tag), kept as a linked list
# ((entry, previous), None at the start) so that a clone shares it.
_DEAL, _MOVE, _VOTE = 0, 1, 2
Log = tuple[tuple[int, int, int, int], Any] | None


def _entries(log: Log) -> list[tuple[int, int, int, int]]:
    out = []
    while log is not None:
        entry, log = log
        out.append(entry)
    out.reverse()
    return out


def _bad_action(name: str, count: int, action: int) -> ArgumentError:
    """The error of an action number that names no move of the game."""
    return ArgumentError(
        f"{name}: action {action} is not a move of this game (its actions are 0..{count - 1}); "
        "play one of legal_actions()"
    )


def _bad_deal(table: ThroneActions, number: int, seat: int, action: int) -> ArgumentError:
    """The error of a chance action that is not a card left to deal (B4)."""
    if 0 <= action < len(table.cards):
        why = f"objective {table.card_names[action]} is already dealt this round"
    else:
        why = f"the objective cards are 0..{len(table.cards) - 1}"
    return ArgumentError(
        f"{THRONE}: chance action {action} cannot deal seat {seat}'s objective of round "
        f"{number}: {why} (B4); play one of chance_outcomes()"
    )


class ThroneState(pyspiel.State):  # type: ignore[misc]
    """A Throne position in OpenSpiel: the engine state and the log of what happened.

    :attr:`engine` is the castlerules state; the objectives of a round not yet
    dealt are 0 (no favourite).
    """

    def __init__(self, game: ThroneGame) -> None:
        super().__init__(game)
        # (engine state, numbers of the cards dealt so far in the round being dealt,
        #  rounds fully dealt, elections finished, log)
        self._core = Shared((game.start, (), 0, 0, None))

    @property
    def engine(self) -> throne.State:
        """The castlerules state (objectives of rounds not dealt yet: 0)."""
        engine: throne.State = self._core[0]
        return engine

    def current_player(self) -> int:
        """The seat to act, or CHANCE while a round's objectives are dealt, or TERMINAL."""
        core = self._core
        engine = core[0]
        if engine.phase == _OVER:
            return _TERMINAL
        if core[2] < engine.round:
            return _CHANCE
        turn: int = engine.turn
        return turn

    def _legal_actions(self, player: int) -> list[int]:
        table: ThroneActions = self.get_game().table
        return table.legal(self._core[0])

    def legal_actions(self, *player: int) -> list[int]:
        """pyspiel's ``legal_actions``, answered in Python at a seat's turn (the same list).

        The C++ method would call back into Python several times (the seat
        to act, the node's kind, ``_legal_actions``); other calls go to it.
        """
        core = self._core
        engine = core[0]
        if not player and engine.phase != _OVER and core[2] >= engine.round:
            return list(_throne_legal_codes(engine))  # ThroneActions.legal, inlined
        return list(pyspiel.State.legal_actions(self, *player))

    def is_chance_node(self) -> bool:
        """Whether a round's objectives are being dealt (pyspiel's, answered in Python)."""
        engine, _dealt, rounds_dealt, _elections, _log = self._core
        return bool(rounds_dealt < engine.round and engine.phase != _OVER)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the next seat may be dealt, all equally likely (B4)."""
        table: ThroneActions = self.get_game().table
        return table.outcomes(self._core[1])

    def _apply_action(self, action: int) -> None:
        engine, dealt, rounds_dealt, elections, log = self._core
        if rounds_dealt < engine.round:
            game: ThroneGame = self.get_game()
            if not 0 <= action < len(game.table.cards) or action in dealt:
                raise _bad_deal(game.table, engine.round, len(dealt), action)
            seat = len(dealt)
            log = ((_DEAL, seat, action, engine.round), log)
            dealt += (action,)
            if len(dealt) == game.players:
                number = engine.round
                objectives = list(engine.objectives)
                objectives[number - 1] = tuple(game.table.cards[k] for k in dealt)
                engine = attrs.evolve(engine, objectives=tuple(objectives))
                dealt, rounds_dealt = (), number
            self._core = Shared((engine, dealt, rounds_dealt, elections, log))
            return
        moves = engine.rules.tables.codes.moves  # the table's numbering (rules.Codes)
        if not 0 <= action < len(moves):
            raise _bad_action(THRONE, len(moves), action)
        move = moves[action]
        if move.__class__ is _VOTE_CLASS:
            after = _throne_apply(engine, move)
            # An election ends with the last vote (B11): the next votes are another one's.
            done = elections + 1 if after.phase != ELECTION else elections
            log = ((_VOTE, engine.turn, action, elections), log)
            self._core = Shared((after, dealt, rounds_dealt, done, log))
        else:
            log = ((_MOVE, engine.turn, action, 0), log)
            self._core = Shared((_throne_apply(engine, move), dealt, rounds_dealt, elections, log))

    def _action_to_string(self, player: int, action: int) -> str:
        game: ThroneGame = self.get_game()
        if player == pyspiel.PlayerId.CHANCE:
            return f"objective {game.table.card_names[action]}"
        return str(game.table.moves[action])

    def is_terminal(self) -> bool:
        """Whether the last round has been scored (B3)."""
        return bool(self._core[0].phase == _OVER)

    def returns(self) -> list[float]:
        """The final scores (B14-B16) once the game is over, else zeros."""
        engine = self._core[0]
        if engine.phase != _OVER:
            return [0.0] * engine.players
        return [float(v) for v in throne.scores(engine)]

    def __str__(self) -> str:
        return throne.to_text(self._core[0])

    def next_deal(self) -> tuple[int, int]:
        """At a chance node: the round and the seat of the objective it deals (B4)."""
        engine, dealt, _rounds_dealt, _elections, _log = self._core
        return engine.round, len(dealt)

    def visible_log(self, seat: int) -> list[tuple[int, int, int]]:
        """The game so far as ``seat`` knows it: (kind, seat, value), value -1 when hidden.

        Other seats' objectives are hidden until their round is scored (B14);
        other seats' votes until the election's reveal (B11).
        """
        engine, _dealt, _rounds_dealt, elections, log = self._core
        finished = len(engine.results)
        open_election = elections if engine.phase == ELECTION else -1
        out = []
        for kind, who, value, tag in _entries(log):
            hidden = who != seat and (
                (kind == _DEAL and tag > finished) or (kind == _VOTE and tag == open_election)
            )
            out.append((kind, who, -1 if hidden else value))
        return out


class ThroneObserver:
    """A seat's observation (``perfect_recall=False``) or information state (True)."""

    def __init__(self, game: ThroneGame, recall: bool) -> None:
        self._game = game
        self._recall = recall
        size = game.obs_size + (game.history_size if recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: game.obs_size]}
        if recall:
            self.dict["history"] = self.tensor[game.obs_size :].reshape(-1, 2)

    def set_from(self, state: ThroneState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        self.tensor.fill(0)
        self._game.encoder.write(throne.observation(state.engine, player), self.tensor)
        if self._recall:
            history = self.dict["history"]
            for k, (kind, _who, value) in enumerate(state.visible_log(player)):
                history[k, 0] = 1 + kind + (3 if value < 0 else 0)
                history[k, 1] = value

    def string_from(self, state: ThroneState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        text = throne_view(throne.observation(state.engine, player))
        if not self._recall:
            return text
        table = self._game.table
        words: list[str] = []
        for kind, who, value in state.visible_log(player):
            if kind == _DEAL:
                words.append(f"{who}:{'?' if value < 0 else table.card_names[value]}")
            elif value < 0:
                words.append(f"{who}:voted")
            else:
                words.append(f"{who}:{table.moves[value]}")
        return text + " | " + " ".join(words)


# ---------------------------------------------------------------------------
# Ascent


class AscentGame(pyspiel.Game):  # type: ignore[misc]
    """Ascent as an OpenSpiel game (see the module's description)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(_ASCENT_TYPE.parameter_specification) | dict(params or {})
        players = _players(params, ascent.PLAYERS)
        self.rules: ascent.Rules = rules_of(ascent.Rules, params)
        self.table = AscentActions(self.rules, players)
        low, high = self.table.utility_bounds()
        deck = Tables.of(self.rules).dealable if self.rules.deal == "shuffled" else ()
        self.deck: tuple[int, ...] = deck
        """The card numbers the deal draws from (A18; none under ``deal="sets"``)."""
        self.hand = len(deck) // players
        """How many cards the deal gives each seat (A18)."""
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.count,
            max_chance_outcomes=max(players, len(deck)),
            num_players=players,
            min_utility=float(low),
            max_utility=float(high),
            max_game_length=self.table.max_game_length(),
        )
        super().__init__(_ASCENT_TYPE, info, params)
        self.players = players
        self.starts = (
            ()
            if deck
            else tuple(ascent.new_game(players, self.rules, first_player=q) for q in range(players))
        )
        self.obs_size = ascent_tensor_size(self.rules, players)

    def new_initial_state(self) -> AscentState:
        """The start of a game: the deal under ``deal="shuffled"``, then the die (chance
        nodes) unless ``die="none"``."""
        return AscentState(self)

    def start(self, dealt: tuple[int, ...], first: int) -> ascent.State:
        """The engine's first position: seat ``first`` to act, the cards ``dealt`` in
        order under ``deal="shuffled"`` (A18)."""
        if not self.deck:
            return self.starts[first]
        owners = deal_in_order(self.rules, self.players, dealt)
        return ascent.new_game(self.players, self.rules, first_player=first, owners=owners)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The position (perfect information); perfect recall: the history."""
        if params:
            raise ValueError(f"observation parameters are not supported, not {params!r}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return AscentObserver(self)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class AscentState(pyspiel.State):  # type: ignore[misc]
    """An Ascent position in OpenSpiel; :attr:`engine` is the castlerules state."""

    def __init__(self, game: AscentGame) -> None:
        super().__init__(game)
        # (engine state or None before the deal, whether the game has begun, the cards
        # dealt so far under deal="shuffled")
        begun = game.rules.die == "none" and not game.deck
        self._core = Shared((None if game.deck else game.starts[0], begun, ()))

    @property
    def engine(self) -> ascent.State:
        """The castlerules state (before the die: seat 0 to act)."""
        engine: ascent.State | None = self._core[0]
        if engine is None:
            dealt: tuple[int, ...] = self._core[2]
            raise ArgumentError(
                f"{ASCENT}: no position yet: {len(dealt)} of "
                f"{self.get_game().hand * self.get_game().players} cards are dealt (A18)"
            )
        return engine

    @property
    def rolled(self) -> bool:
        """Whether the game has begun: the cards dealt and the die rolled (A18)."""
        return bool(self._core[1])

    def _dealing(self) -> bool:
        game: AscentGame = self.get_game()
        return len(self._core[2]) < game.hand * game.players

    def current_player(self) -> int:
        """The seat to act, CHANCE for the deal and the die, or TERMINAL."""
        engine, rolled, _dealt = self._core
        if not rolled:
            return int(pyspiel.PlayerId.CHANCE)
        actor: int = engine.actor
        return actor if actor >= 0 else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        table: AscentActions = self.get_game().table
        return table.legal(self._core[0])

    def legal_actions(self, *player: int) -> list[int]:
        """pyspiel's ``legal_actions``, answered in Python at a seat's turn (the same list)."""
        engine, rolled, _dealt = self._core
        if not player and rolled and engine.actor >= 0:
            table: AscentActions = self.get_game().table
            return table.legal(engine)
        return list(pyspiel.State.legal_actions(self, *player))

    def is_chance_node(self) -> bool:
        """Whether a card is to be dealt or the die rolled (pyspiel's, answered in Python)."""
        return not self._core[1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each equally likely, while dealing; then the seat the
        die designates, each equally likely (A18: rerolled above n)."""
        game: AscentGame = self.get_game()
        if self._dealing():
            left = [c for c in game.deck if c not in self._core[2]]
            return [(c, 1.0 / len(left)) for c in left]
        return [(q, 1.0 / game.players) for q in range(game.players)]

    def _apply_action(self, action: int) -> None:
        game: AscentGame = self.get_game()
        engine, rolled, dealt = self._core
        if self._dealing():
            if action not in game.deck or action in dealt:
                raise ArgumentError(
                    f"{ASCENT}: chance action {action} is not a card left to deal (A18; "
                    "chance_outcomes() lists them)"
                )
            dealt = (*dealt, action)
            done = len(dealt) == game.hand * game.players
            begun = done and game.rules.die == "none"
            start = game.start(dealt, 0) if begun else None
            self._core = Shared((start, begun, dealt))
        elif not rolled:
            if not 0 <= action < game.players:
                raise ArgumentError(
                    f"{ASCENT}: the die's outcome is a seat in 0..{game.players - 1}, not "
                    f"action {action} (A18; chance_outcomes() lists them)"
                )
            self._core = Shared((game.start(dealt, action), True, dealt))
        else:
            moves = game.table.moves
            if not 0 <= action < len(moves):
                raise _bad_action(ASCENT, len(moves), action)
            self._core = Shared((ascent.apply(engine, moves[action]), True, dealt))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            game: AscentGame = self.get_game()
            if self._dealing() and 0 <= action < len(ADVANCES):
                seat = len(self._core[2]) // game.hand
                return f"deal: {ADVANCES[action].card} to seat {seat}"
            return f"die: seat {action} begins"
        table: AscentActions = self.get_game().table
        return str(table.moves[action])

    def is_terminal(self) -> bool:
        """Whether the game is over (A14)."""
        engine, rolled, _dealt = self._core
        return bool(rolled and engine.actor < 0)

    def returns(self) -> list[float]:
        """The final scores (A15-A17) once the game is over, else zeros."""
        if not self.is_terminal():
            return [0.0] * self.get_game().players
        return [float(v) for v in ascent.scores(self.engine)]

    def __str__(self) -> str:
        if self.rolled:
            return ascent.to_text(self.engine)
        return "cards not dealt" if self._dealing() else "die not rolled"


class AscentObserver:
    """The position of Ascent, as a tensor and as its notation (public to every seat)."""

    def __init__(self, game: AscentGame) -> None:
        self.tensor = np.zeros(game.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: AscentState, player: int) -> None:
        """Fill :attr:`tensor` with the position (the same for every seat)."""
        self.tensor.fill(0)
        if state.rolled:
            ascent_tensor(state.engine, self.tensor)

    def string_from(self, state: AscentState, player: int) -> str:
        """The position's notation (the same for every seat)."""
        return str(state)


def params_of(rules: Any, players: int) -> dict[str, Any]:
    """The game parameters of a castlerules ``Rules`` and a player count.

    >>> params_of(throne.Rules(allow_pass=True), 4)
    {'players': 4, 'allow_pass': True}
    """
    cls = type(rules)
    defaults = _parameters(cls, players, "")
    out: dict[str, Any] = {"players": players}
    for field in attrs.fields(cls):
        value = getattr(rules, field.name)
        if field.type in ("bool", "int"):
            text: Any = value
        elif field.type == "int | None":
            text = 0 if value is None else value
        else:
            text = option_text(value)
        if text != defaults[field.name]:
            out[field.name] = text
    return out


def game_of(rules: Any, players: int) -> Any:
    """The OpenSpiel game of these castlerules rules (Throne's or Ascent's) and players."""
    name = THRONE if isinstance(rules, throne.Rules) else ASCENT
    return pyspiel.load_game(name, params_of(rules, players))


def determinize(obs: throne.Observation, rng: Rng) -> tuple[throne.State, Rng]:
    """A Throne state drawn from what one seat knows (``observation(state, seat)``) alone.

    :func:`castlerules.throne.sampling.determinize` with the rounds to come
    left undealt (their objectives are 0), for the chance nodes of the
    OpenSpiel game to deal: the seat's own view is kept, the other seats'
    objectives of the round, their face-down votes and hidden No counts are
    drawn (B4, B11).  Used by the search bots (information-set MCTS), so that
    they never read a hidden fact.
    """
    return sample_state(obs, rng, deal_future=False)


def throne_state(game: Any, engine: throne.State) -> ThroneState:
    """An OpenSpiel state of ``game`` at the castlerules position ``engine`` (no history).

    The rounds after the current one are left to the chance nodes.
    """
    state: ThroneState = game.new_initial_state()
    blank = (0,) * engine.players
    objectives = engine.objectives[: engine.round] + (blank,) * (
        len(engine.objectives) - engine.round
    )
    engine = attrs.evolve(engine, objectives=objectives)
    state._core = Shared((engine, (), engine.round, 0, None))
    return state


def ascent_state(game: Any, engine: ascent.State) -> AscentState:
    """An OpenSpiel state of ``game`` at the castlerules position ``engine`` (no history)."""
    state: AscentState = game.new_initial_state()
    dealt: tuple[int, ...] = ()
    if engine.rules.deal == "shuffled":  # the deal as chance would have made it (A18)
        dealt = tuple(
            sorted(
                (c for c, q in enumerate(engine.owners) if q >= 0), key=engine.owners.__getitem__
            )
        )
    state._core = Shared((engine, True, dealt))
    return state


def resampler(seed: int) -> Any:
    """A resampling function for OpenSpiel's ``ISMCTSBot.set_resampler``.

    ``resample(state, player)`` returns a state drawn by :func:`determinize`
    from ``observation(state, player)`` only (use the bot with
    ``use_observation_string=True``: the sampled states share the player's
    observation, not its history).
    """
    box = [Rng.from_seed(seed, "openspiel.resample")]

    def resample(state: ThroneState, player: int) -> ThroneState:
        drawn, box[0] = determinize(throne.observation(state.engine, player), box[0])
        return throne_state(state.get_game(), drawn)

    return resample


def engine_state(state: Any) -> Any:
    """The castlerules state behind an OpenSpiel state of these games."""
    if not isinstance(state, ThroneState | AscentState):
        raise ArgumentError(f"not a castlerules OpenSpiel state: {type(state).__name__}")
    return state.engine


pyspiel.register_game(_THRONE_TYPE, ThroneGame)
pyspiel.register_game(_ASCENT_TYPE, AscentGame)
