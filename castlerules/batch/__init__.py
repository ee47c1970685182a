"""Many games of one game at once, as arrays: the rule kernel run on every game together.

Throne (:mod:`castlerules.batch.throne`) and Ascent
(:mod:`castlerules.batch.ascent`) run on numpy or JAX.

The ``batch`` extra (numpy) runs the kernel's operations on numpy arrays;
the ``jax`` extra compiles the same kernel with :func:`jax.jit` (faster, on
a CPU or, where one is present, a GPU).  The interface is functional, in
the style of Pgx and Gymnasium's vector environments::

    from castlerules import batch
    env = batch.make("throne", players=4, size=4096)   # rules=None: the reference reading
    b = env.init(seed=0)               # game i is throne.new_game(4, seed=0 + i)
    b.legal_action_mask                # (size, num_actions) bool
    b = env.step(b, actions)           # (size,) action numbers, the adapters' numbers
    b.current_player, b.terminated, b.rewards, env.observe(b, seat)
    env.to_states(b)                   # the engine's State of every game
    b, moves = env.play_random(b, seats, steps=16)   # random bots, in one compiled call

Finished games stay finished: their actions are ignored.  Nothing of this
package is imported by ``import castlerules``.

>>> from castlerules import throne
>>> env = make("throne", players=4, size=3, backend="numpy")
>>> b = env.init(seed=7)
>>> b.legal_action_mask.shape, env.num_actions
((3, 80), 80)
>>> b = env.step(b, b.legal_action_mask.argmax(axis=1))
>>> env.to_states(b)[0] == throne.apply(throne.new_game(4, seed=7), throne.Place("A", 1))
True
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any

try:
    import numpy as np
except ImportError:  # pragma: no cover - the extra is missing
    raise ImportError(
        "castlerules.batch needs numpy: pip install -e '.[batch]' (from a clone)"
    ) from None

import attrs

from castlerules.core.errors import ArgumentError

BACKENDS = ("numpy", "jax")
"""``numpy``: the kernel's operations one array operation at a time; ``jax``: the
same kernel compiled once by :func:`jax.jit`."""


class NumpyBackend:
    """The kernel on numpy arrays, operation by operation."""

    name = "numpy"
    xp: Any = np

    def jit(self, function: Any, static: tuple[int, ...] = (), play: bool = False) -> Any:
        return function

    def repeat(self, count: int, body: Any, carry: Any, unroll: int = 1) -> Any:
        """``body(i, carry)`` for ``i`` in ``range(count)`` (``unroll``: the compiled
        loop's)."""
        for i in range(count):
            carry = body(i, carry)
        return carry

    def settle(self, value: Any) -> Any:
        """``value``, computed where it stands (numpy computes everything there)."""
        return value

    keep = settle
    """:meth:`JaxBackend.keep`: numpy computes everything where it stands."""

    def loop(self, cond: Any, body: Any, carry: Any) -> Any:
        """``body(carry)`` while ``cond(carry)``."""
        while cond(carry):
            carry = body(carry)
        return carry


CPU_OPTIONS: dict[str, dict[str, Any]] = {
    "throne": {
        "xla_cpu_use_fusion_emitters": False,
        "xla_cpu_prefer_vector_width": 512,
        "xla_cpu_copy_insertion_use_region_analysis": True,
    },
    "ascent": {
        "xla_cpu_use_fusion_emitters": True,
        "xla_cpu_prefer_vector_width": 512,
        "xla_cpu_copy_insertion_use_region_analysis": True,
    },
}
"""XLA's options for each game's batch programs on a CPU (:class:`JaxBackend`): 512-bit
vectors where the processor has them; for Throne, XLA's classic loop emitters rather
than its fusion emitters (they compile a study's loop faster); for Ascent, the fusion
emitters: where XLA writes a result over an operand's array (the same type and shape,
at the operand's last use), the classic emitters' loop checks the two arrays for
overlap at run time and then runs one number at a time, and Ascent's board has such a
loop; the fusion emitters have no such fallback.  For both, the copies that keep a
loop's and a conditional's values apart found by region analysis, which leaves out
copies the plain analysis inserts (each :meth:`JaxBackend.keep` is a conditional).
Their measurements: the documentation's Measurements page."""

PLAY_OPTIONS: dict[str, dict[str, Any]] = {
    "throne": {"xla_cpu_use_fusion_emitters": True},
    "ascent": {},
}
"""What the compiled calls of an env's ``play_random`` change of their game's
:data:`CPU_OPTIONS` (:meth:`JaxBackend.jit` with ``play=True``), from 1024 games on:
Throne's random playouts run faster under the fusion emitters, which a study's loop or
a small batch, compiled from a cold start, does not repay (seconds more of
compilation)."""


class JaxBackend:
    """The kernel traced once and compiled by :func:`jax.jit` (the ``jax`` extra).

    ``compiler_options``: XLA's options for every program the batch compiles; by
    default ``game``'s :data:`CPU_OPTIONS` when JAX computes on the CPU (none on a
    GPU), or none where this JAX does not take them (:attr:`compiler_options` says
    which applied)."""

    name = "jax"

    def __init__(
        self, compiler_options: dict[str, Any] | None = None, game: str = "throne"
    ) -> None:
        try:
            import jax
            import jax.numpy as jnp
        except ImportError:
            raise ImportError(
                "the batch's jax backend needs JAX: pip install -e '.[jax]' (from a clone)"
            ) from None
        self._jax = jax
        self.xp = jnp
        _register_pytrees(jax)
        play_options = dict(compiler_options or {})
        if compiler_options is None:
            cpu = jax.default_backend() == "cpu"
            compiler_options = _taken(CPU_OPTIONS[game]) if cpu else {}
            play = {**CPU_OPTIONS[game], **PLAY_OPTIONS[game]}
            play_options = (_taken(play) or compiler_options) if cpu else {}
        self.compiler_options = dict(compiler_options)
        """The XLA options of the batch's programs (empty: XLA's defaults)."""
        self.play_options = dict(play_options)
        """The XLA options of the random playouts' programs (:data:`PLAY_OPTIONS`)."""

    def jit(self, function: Any, static: tuple[int, ...] = (), play: bool = False) -> Any:
        """``function`` compiled with :attr:`compiler_options` (``play``: with
        :attr:`play_options`, for the random playouts' calls)."""
        options = self.play_options if play else self.compiler_options
        if not options:
            return self._jax.jit(function, static_argnums=static)
        return self._jax.jit(function, static_argnums=static, compiler_options=options)

    def repeat(self, count: int, body: Any, carry: Any, unroll: int = 1) -> Any:
        """``body(i, carry)`` for ``i`` in ``range(count)``, compiled once (``unroll``
        bodies a turn of the compiled loop)."""
        return self._jax.lax.fori_loop(0, count, body, carry, unroll=unroll)

    def each(self, function: Any, items: Any) -> Any:
        """``function`` of each item along the first axis of ``items`` (a tuple of
        arrays), one after the other, compiled once; the results stacked.

        Each item's arrays are computed once where its turn starts (:meth:`keep`): an
        item is a slice of ``items`` at the loop's index, and XLA would otherwise fuse
        that slice into its readers, so that every element of a grid read from it (the
        first board of a block of Ascent games, 24 x 24 pairs of cards of 512 games)
        reads its numbers through the index, about twenty times the cost of the same
        grid read from an array."""
        return self._jax.lax.map(lambda args: function(*self.keep(args)), items)

    def settle(self, value: Any) -> Any:
        """``value``, computed where it stands: the compiler may not copy its
        computation into each of its uses (it would, for the legal mask, which feeds
        both the choice of an action and the next step, and run it many times)."""
        barrier: Any = self._jax.lax.optimization_barrier
        return barrier(value)

    def loop(self, cond: Any, body: Any, carry: Any) -> Any:
        """``body(carry)`` while ``cond(carry)``, compiled once."""
        return self._jax.lax.while_loop(cond, body, carry)

    def keep(self, value: Any) -> Any:
        """``value`` (arrays, or a tuple or attrs instance of them), computed once where it
        stands.  XLA on a CPU copies a cheap computation into each of its uses, and
        into each element of a use that broadcasts it (a per-card value read in a grid
        of pairs of cards, a per-game one read per card): a kernel's board then costs
        hundreds of times its operations.  ``optimization_barrier`` does not stop that
        there; a conditional does, since the compiler fuses nothing across one: its
        condition is read from the value and always holds (a 16-bit integer or a Boolean,
        widened, is never 40000), its other branch (zeros) is never taken."""
        jax, jnp = self._jax, self._jax.numpy
        leaves = jax.tree_util.tree_leaves(value)
        if not leaves:
            return value
        holds = jnp.ravel(leaves[0])[0].astype(jnp.int32) != 40000
        return jax.lax.cond(
            holds, lambda v: v, lambda v: jax.tree_util.tree_map(jnp.zeros_like, v), value
        )


def _taken(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` if this JAX compiles a small program with them (an older JAX has no
    ``compiler_options``, or not these options), else none; found once per process."""
    return dict(_compiles_with(tuple(sorted(options.items()))))


@functools.cache
def _compiles_with(options: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    """:func:`_taken` of hashable options (the cache's key): a compilation of its own."""
    import jax

    try:
        jax.jit(lambda x: x + 1, compiler_options=dict(options))(jax.numpy.zeros(2))
    except Exception:  # TypeError (no compiler_options), JaxRuntimeError (no such option)
        return ()
    return options


_REGISTERED: set[type] = set()


def _register_pytrees(jax: Any) -> None:
    """The kernels' position classes as JAX pytrees (their fields are the leaves)."""
    from castlerules.throne.kernel import KState, Outcome

    for cls in (KState, Outcome):
        if cls in _REGISTERED:
            continue
        names = tuple(f.name for f in attrs.fields(cls))
        jax.tree_util.register_pytree_node(
            cls,
            lambda x, names=names: (tuple(getattr(x, n) for n in names), None),
            lambda _aux, leaves, cls=cls: cls(*leaves),
        )
        _REGISTERED.add(cls)


CACHE_VARIABLE = "JAX_COMPILATION_CACHE_DIR"
"""The environment variable of JAX's persistent compilation cache (JAX reads it when it
is first imported; :func:`compile_cache` sets it)."""


def default_cache() -> Path:
    """Where ``castlerules study`` keeps its compiled loops unless told otherwise:
    ``castlerules/jax`` in the user's cache folder (``$XDG_CACHE_HOME``, or
    ``~/.cache``)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "castlerules" / "jax"


MIN_COMPILE_SECONDS = 0.2
"""The programs :func:`compile_cache` keeps: those that took this long or longer to
compile (the batch's loops take 0.9 s to a few seconds; the small programs of the
host's array operations a few hundredths, and stay out).  JAX's own default, 1 s,
would leave out a small study's loop (0.94 s for 3 players and 7 characters)."""

MIN_COMPILE_VARIABLE = "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"


def compile_cache(folder: str | os.PathLike[str]) -> Path:
    """Keep the JAX backend's compiled programs in ``folder`` from one run to the next
    (JAX's persistent compilation cache), for this process and the processes it starts
    from now on (a study's Dask workers): a later run of the same loop (the same game,
    players, bots and sizes) reads the program there instead of compiling it again.
    The folder is made if needed.  Call it before the first compilation: JAX reads
    the setting once.  Only programs that took :data:`MIN_COMPILE_SECONDS` or more
    to compile are kept.  What it saves: the documentation's Measurements page."""
    path = Path(folder).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArgumentError(
            f"the compile cache {str(path)!r:.80} cannot be made: {err.strerror}"
        ) from None
    os.environ[CACHE_VARIABLE] = str(path)
    os.environ[MIN_COMPILE_VARIABLE] = str(MIN_COMPILE_SECONDS)
    jax = sys.modules.get("jax")
    if jax is not None:  # imported already: it read the variables before they were set
        jax.config.update("jax_compilation_cache_dir", str(path))
        jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)
    return path


def backend_of(name: str, game: str = "throne") -> NumpyBackend | JaxBackend:
    """The backend ``name`` (``"numpy"``, ``"jax"``; ``"auto"``: jax if installed), with
    ``game``'s compiler options (:data:`CPU_OPTIONS`)."""
    if name == "auto":
        try:
            return JaxBackend(game=game)
        except ImportError:
            return NumpyBackend()
    if name == "numpy":
        return NumpyBackend()
    if name == "jax":
        return JaxBackend(game=game)
    raise ArgumentError(f"a batch backend is one of auto, {', '.join(BACKENDS)}, not {name!r:.20}")


MAX_SIZE = 1 << 22
"""The most games one batch holds (about 4 million: a few GiB of arrays)."""


def make(
    game: str,
    players: int,
    *,
    rules: Any = None,
    size: int = 1024,
    backend: str = "auto",
    autoreset: bool = False,
) -> Any:
    """A batch of ``size`` games of ``game`` for ``players`` seats under ``rules``;
    with ``autoreset``, a finished game is replaced by a new one at the next step."""
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIZE:
        raise ArgumentError(f"size must be a whole number in 1..{MAX_SIZE}, not {size!r:.20}")
    if not isinstance(game, str) or game not in CPU_OPTIONS:
        raise ArgumentError(f"a game is throne or ascent, not {game!r:.20}")
    chosen = backend_of(backend, game)
    if game == "throne":
        from castlerules.batch.throne import ThroneEnv

        return ThroneEnv(players, rules, size=size, backend=chosen, autoreset=autoreset)
    if game == "ascent":
        from castlerules.batch.ascent import AscentEnv

        return AscentEnv(players, rules, size=size, backend=chosen, autoreset=autoreset)
    raise ArgumentError(f"a game is throne or ascent, not {game!r:.20}")


__all__ = [
    "BACKENDS",
    "CACHE_VARIABLE",
    "CPU_OPTIONS",
    "MAX_SIZE",
    "MIN_COMPILE_SECONDS",
    "PLAY_OPTIONS",
    "JaxBackend",
    "NumpyBackend",
    "backend_of",
    "compile_cache",
    "default_cache",
    "make",
]
