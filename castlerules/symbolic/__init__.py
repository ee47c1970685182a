"""The rule kernels run on Z3 terms: the symbolic interpretation of :mod:`castlerules.core.ops`.

The kernels (:mod:`castlerules.throne.kernel`) are written over the operations
of :class:`~castlerules.core.ops.Ops`; :data:`Z3` is that interpretation on Z3
terms, so that a kernel's guards and effects become the formulas a solver
reasons about (the proofs, the casebook's shortest-witness search).  Z3 is the
``casebook`` extra: without it, importing this package says so in one line.

>>> import z3
>>> x = z3.Int("x")
>>> Z3.select((z3.IntVal(5), z3.IntVal(6)), x)
If(x == 1, 6, 5)
"""

from __future__ import annotations

try:
    import z3 as _z3  # noqa: F401
except ImportError as err:  # pragma: no cover - z3 is in the test extra
    raise ImportError("castlerules.symbolic needs Z3: pip install 'castlerules[casebook]'") from err

from castlerules.symbolic.z3ops import Z3, Symbolic

__all__ = ["Z3", "Symbolic"]
