"""Seeded chance, identical on every machine and every Python version.

The engine never uses :mod:`random`: its algorithms (``shuffle``,
``randrange``) are allowed to change between Python releases, which would
change every seeded deal.  :class:`Rng` is SplitMix64, a fixed 64-bit
generator, with unbiased bounded draws by rejection and a Fisher-Yates
shuffle, all written here.  It is an immutable value: each draw returns the
drawn value and the next generator.

>>> rng = Rng.from_seed(7, "example")
>>> value, rng = rng.below(6)
>>> 0 <= value < 6
True
>>> Rng.from_seed(7, "example").below(6)[0] == value
True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Sequence
from typing import TypeVar

import attrs

from castlerules.core.errors import ArgumentError

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


SEED_LIMIT = 1 << 64
"""Seeds are whole numbers in ``0 .. SEED_LIMIT - 1`` (0..2^64-1), for every game."""


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` if it is a seed (an int in ``0..2^64-1``), else :class:`ArgumentError`.

    The one definition of the seed domain: both games' ``new_game``, the
    record reader and the command line check seeds here, so a seed that one
    of them accepts is accepted by all (a record the library writes can
    always be read back).

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    castlerules.core.errors.ArgumentError: seed must be a whole number in 0..2^64-1, not -1
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ArgumentError(f"{what} must be a whole number in 0..2^64-1, not {seed!r:.40}")
    if not 0 <= seed < SEED_LIMIT:
        shown = str(seed) if seed.bit_length() <= 128 else f"a number of {seed.bit_length()} bits"
        raise ArgumentError(f"{what} must be a whole number in 0..2^64-1, not {shown}")
    return seed


def seed_from_text(text: str, what: str = "seed") -> int:
    """A seed written in decimal (``"7"``); anything else is :class:`ArgumentError`.

    Digit strings too long to be a seed are refused before conversion (Python
    refuses to convert more than 4300 digits).

    >>> seed_from_text("18446744073709551615")
    18446744073709551615
    >>> seed_from_text("9" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    castlerules.core.errors.ArgumentError: seed must be ... not a number of 5000 digits
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise ArgumentError(f"{what} must be a whole number in 0..2^64-1, not {text!r:.40}")
    if len(digits) > len(str(SEED_LIMIT)):
        raise ArgumentError(
            f"{what} must be a whole number in 0..2^64-1, not a number of {len(digits)} digits"
        )
    return check_seed(int(digits), what)


_TWO64 = 1 << 64
_LIMITS: tuple[int, ...] = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(256))
"""``_LIMITS[n]``: the rejection bound of a draw below ``n`` (for small ``n``)."""


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _u64(value: int) -> int:
    return int(value) & _MASK


def _draw(state: int, n: int) -> tuple[int, int]:
    """``below(n)`` on a bare generator state: ``(value in range(n), next state)``.

    The draws of :meth:`Rng.below`, :meth:`Rng.choice`, :meth:`Rng.shuffled`
    and :meth:`Rng.sample` all come from here, so that a shuffle builds one
    :class:`Rng` at its end instead of one per draw (same numbers).
    """
    limit = _LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n
    while True:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:  # rejection: no bias
            return z % n, state


def seed_digests(seeds: Iterable[int], stream: str = "") -> bytes:
    """The one seeding of every generator: for each seed (checked by the caller) a
    hash of the seed and the stream's name, 8 bytes, the state of
    ``Rng.from_seed(seed, stream)`` read little-endian; the seeds' hashes one after
    another (so that many games read them as one buffer)."""
    tail = f"\x00{stream}".encode()
    blake2b = hashlib.blake2b
    return b"".join([blake2b(b"%d" % seed + tail, digest_size=8).digest() for seed in seeds])


def seed_states(seeds: Iterable[int], stream: str = "") -> list[int]:
    """The states of ``Rng.from_seed(seed, stream)`` for each seed (checked by the
    caller): :func:`seed_digests` as numbers (no :class:`Rng` built, for many games
    at once)."""
    digests = seed_digests(seeds, stream)
    return list(struct.unpack(f"<{len(digests) // 8}Q", digests))


@attrs.frozen(slots=True)
class Rng:
    """An immutable SplitMix64 generator; every draw returns ``(value, next_rng)``."""

    state: int = attrs.field(converter=_u64)

    @classmethod
    def from_seed(cls, seed: int, stream: str = "") -> Rng:
        """A generator for ``seed`` (see :func:`check_seed`), independent for each ``stream``."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"a seed is an int, not {type(seed).__name__}")
        check_seed(seed)
        rng: Rng = _new(cls)  # cls(state) without the converter: 8 bytes are in range
        _set_state(rng, seed_states((seed,), stream)[0])
        return rng

    def next64(self) -> tuple[int, Rng]:
        """A uniform 64-bit integer and the next generator."""
        state = (self.state + _GOLDEN) & _MASK
        return _mix(state), _at(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in ``range(n)`` (rejection sampling, no bias)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, not {n}")
        value, state = _draw(self.state, n)
        return value, _at(state)

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One element of a non-empty sequence, uniformly."""
        n = len(items)
        # _draw inlined (the random playouts' hot path); the same numbers.
        state = (self.state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < (_LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n):  # _LIMITS[0] is 0
            rng: Rng = _new(Rng)
            _set_state(rng, state)
            return items[z % n], rng
        if n <= 0:  # an empty sequence: refused as below(0) refuses it
            raise ValueError(f"below() needs n >= 1, not {n}")
        index, state = _draw(state, n)  # rejected (odds below n / 2**64): draw again
        return items[index], _at(state)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """The items in a uniformly random order (Fisher-Yates)."""
        out = list(items)
        state = self.state
        for i in range(len(out) - 1, 0, -1):
            j, state = _draw(state, i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), _at(state)

    def sample(self, items: Sequence[T], k: int) -> tuple[tuple[T, ...], Rng]:
        """``k`` distinct elements in random order (a partial shuffle)."""
        if not 0 <= k <= len(items):
            raise ValueError(f"sample() needs 0 <= k <= {len(items)}, not {k}")
        out = list(items)
        size = len(out)
        state = self.state
        for i in range(k):
            n = size - i
            # _draw(state, n), inlined (the deals of every new game); the same numbers.
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < (_LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n):
                j = z % n
            else:
                j, state = _draw(state, n)  # rejected (odds below n / 2**64): draw again
            out[i], out[i + j] = out[i + j], out[i]
        return tuple(out[:k]), _at(state)

    def sample_mask(self, n: int, k: int) -> tuple[int, Rng]:
        """``sample(range(n), k)`` as a bit mask (bit i: i was drawn): the same draws.

        >>> rng = Rng.from_seed(3)
        >>> picked, after = rng.sample(range(13), 6)
        >>> rng.sample_mask(13, 6) == (sum(1 << i for i in picked), after)
        True
        """
        if not 0 <= k <= n:
            raise ValueError(f"sample() needs 0 <= k <= {n}, not {k}")
        out = list(range(n))
        state = self.state
        mask = 0
        for i in range(k):
            size = n - i
            # _draw(state, size), inlined (the deals of every new game); the same numbers.
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < (_LIMITS[size] if size < 256 else _TWO64 - _TWO64 % size):
                j = i + z % size
            else:
                j, state = _draw(state, size)  # rejected (odds below n / 2**64): draw again
                j += i
            picked = out[j]
            out[j] = out[i]
            mask |= 1 << picked
        return mask, _at(state)

    def die(self, faces: int = 6) -> tuple[int, Rng]:
        """A roll of a die with ``faces`` faces: 1..faces."""
        if faces <= 0:  # below(faces), inlined (every new game rolls); the same numbers
            raise ValueError(f"below() needs n >= 1, not {faces}")
        value, state = _draw(self.state, faces)
        return value + 1, _at(state)


_new = object.__new__
_set_state = Rng.__dict__["state"].__set__  # the slot itself: no converter, no frozen guard


def _at(state: int) -> Rng:
    """``Rng(state)`` for a state already in ``0 .. 2**64 - 1``, without the converter.

    An :class:`Rng` is built at every draw; this is the same frozen value
    (``_at(s) == Rng(s)``), made in less than half the time.
    """
    rng: Rng = _new(Rng)
    _set_state(rng, state)
    return rng
