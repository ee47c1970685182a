"""What the batches of both games share: seeds, steps by number or by rank, auto-reset.

:class:`Slots` holds a batch's games as slots (one column of the batch's array
each) and does, the same way for every game, everything that is not the game:
the seeds of :meth:`~Slots.init`, the checks of an action or a rank per game,
the replacement of finished games by new ones dealt ahead (auto-reset), and
the choice of the k-th legal action inside the compiled step.  A game's env
(:class:`castlerules.batch.throne.ThroneEnv`,
:class:`castlerules.batch.ascent.AscentEnv`) gives the rest: its deal, its
kernel's transition, its refusals and its batch class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from castlerules.core.chance import check_seed
from castlerules.core.errors import ArgumentError


class Slots:
    """The part of a game's batch env that does not depend on the game."""

    size: int
    autoreset: bool
    backend: Any
    num_actions: int
    _step: Any
    _step_kth: Any

    def _slots_init(self) -> None:
        self._none_reset = np.zeros(self.size, dtype=bool)
        self._dealt: list[np.ndarray] = []
        self._dealt_from = 0
        """Games dealt ahead for auto-reset (of seeds ``_dealt_from`` on)."""

    # ------------------------------------------------------------------ given by the game

    def deal(self, seeds: Any) -> np.ndarray:
        """``(len(seeds), rows)``: the new games of ``seeds`` as the batch's columns."""
        raise NotImplementedError

    def _start(self, data: np.ndarray, seeds: Any, next_seed: int) -> Any:
        raise NotImplementedError

    def _after(self, out: tuple[Any, ...], reset: Any, seeds: Any, next_seed: int) -> Any:
        raise NotImplementedError

    def _refuse(self, batch: Any, game: int, action: int) -> None:
        raise NotImplementedError

    def _transition(self, data: Any, actions: Any, hold: Any) -> tuple[Any, ...]:
        raise NotImplementedError

    # ------------------------------------------------------------------ shared

    def _transition_kth(self, data: Any, mask: Any, kth: Any, hold: Any) -> tuple[Any, ...]:
        """:meth:`_transition` of each game's ``kth``-th legal action (in number order)."""
        xp = self.backend.xp
        # The kth legal action is the number of actions with at most kth legal up to them.
        seen: Any = 0
        actions: Any = 0
        for a in range(self.num_actions):
            seen = seen + mask[a].astype(xp.int16)
            actions = actions + (seen <= kth).astype(xp.int16)
        return self._transition(data, xp.minimum(actions, self.num_actions - 1), hold)

    def init(self, seed: int = 0, seeds: Sequence[int] | None = None) -> Any:
        """``size`` new games; game ``i`` is the engine's ``new_game(players, rules,
        seed + i)`` (or of ``seeds[i]``, when given; auto-reset then goes on from
        ``max(seeds) + 1``)."""
        if seeds is None:
            check_seed(seed)
            check_seed(seed + self.size - 1)
            dealt = np.arange(self.size, dtype=np.uint64) + np.uint64(seed)
            after = seed + self.size
        else:
            if len(seeds) != self.size:
                raise ArgumentError(
                    f"a batch of this env holds {self.size} games, not {len(seeds)}"
                )
            for x in seeds:
                check_seed(x)
            dealt = np.array([int(x) for x in seeds], dtype=np.uint64)
            after = max(int(x) for x in seeds) + 1
        return self._start(self.deal(dealt).T.copy(), dealt, after)

    def step(self, batch: Any, actions: Any) -> Any:
        """Every game still playing plays its action number; finished games stay as they
        are (or, with auto-reset, are replaced by new games).

        An action that is not legal in a game still playing raises the engine's
        :class:`~castlerules.core.IllegalMove` for that game (its clause, in plain
        words, prefixed with the game's index); the batch is then unchanged.
        """
        xp = self.backend.xp
        acts = np.asarray(actions)
        if acts.shape != (self.size,) or acts.dtype.kind not in "iu":
            raise ArgumentError(
                f"actions is one whole number per game, shape ({self.size},), not "
                f"{acts.dtype} of shape {acts.shape}"
            )
        mask = np.asarray(batch.legal_action_mask)
        live = ~np.asarray(batch.terminated)
        inside = (acts >= 0) & (acts < self.num_actions)
        ok = np.where(
            inside, mask[np.arange(self.size), np.clip(acts, 0, self.num_actions - 1)], False
        )
        bad = np.flatnonzero(live & ~ok)
        if bad.size:
            self._refuse(batch, int(bad[0]), int(acts[bad[0]]))
        data, reset, seeds, next_seed = self._resets(batch)
        out = self._step(data, xp.asarray(acts.astype(np.int16)), xp.asarray(reset))
        return self._after(out, reset, seeds, next_seed)

    def step_kth(self, batch: Any, kth: Any) -> Any:
        """Every game still playing plays its ``kth``-th legal action (0-based, in the
        order of the action numbers: ``kth`` below the batch's ``legal_counts``); the
        same as :meth:`step` with those action numbers, chosen inside the compiled step."""
        xp = self.backend.xp
        ks = np.asarray(kth)
        if ks.shape != (self.size,) or ks.dtype.kind not in "iu":
            raise ArgumentError(
                f"kth is one whole number per game, shape ({self.size},), not "
                f"{ks.dtype} of shape {ks.shape}"
            )
        live = ~np.asarray(batch.terminated)
        counts = np.asarray(batch.legal_counts)
        bad = np.flatnonzero(live & ((ks < 0) | (ks >= counts)))
        if bad.size:
            g = int(bad[0])
            raise ArgumentError(
                f"game {g}: kth {int(ks[g])} is not below its {int(counts[g])} legal actions"
            )
        data, reset, seeds, next_seed = self._resets(batch)
        out = self._step_kth(
            data, batch.mask_rows, xp.asarray(ks.astype(np.int16)), xp.asarray(reset)
        )
        return self._after(out, reset, seeds, next_seed)

    def _resets(self, batch: Any) -> tuple[Any, Any, Any, int]:
        """With auto-reset: the games, where those that are over are replaced by new
        games (dealt from the next seeds, in the games' order); which were replaced;
        the games' seeds; the next seed."""
        if not self.autoreset:
            return batch.data, self._none_reset, batch.seeds, batch.next_seed
        over = np.flatnonzero(batch.terminated)
        if not over.size:
            return batch.data, self._none_reset, batch.seeds, batch.next_seed
        if batch.seeds is None:
            raise ArgumentError(
                "auto-reset deals new games from seeds: start the batch with init()"
            )
        data = batch.host.copy()
        data[:, over] = self._take_dealt(batch.next_seed, over.size).T
        reset = np.zeros(self.size, dtype=bool)
        reset[over] = True
        seeds = np.array(batch.seeds, copy=True)
        seeds[over] = np.arange(over.size, dtype=np.uint64) + np.uint64(batch.next_seed)
        return self.backend.xp.asarray(data), reset, seeds, batch.next_seed + over.size

    def _take_dealt(self, first: int, count: int) -> np.ndarray:
        """The games of seeds ``first .. first+count-1``, dealt ``size`` at a time ahead."""
        have = sum(len(x) for x in self._dealt)
        if not self._dealt or self._dealt_from != first:
            self._dealt, self._dealt_from, have = [], first, 0
        while have < count:
            seeds = np.arange(self.size, dtype=np.uint64) + np.uint64(self._dealt_from + have)
            self._dealt.append(self.deal(seeds).astype(np.int16))
            have += self.size
        pool = np.concatenate(self._dealt) if len(self._dealt) > 1 else self._dealt[0]
        self._dealt = [pool[count:]] if count < len(pool) else []
        self._dealt_from = first + count
        return pool[:count]
