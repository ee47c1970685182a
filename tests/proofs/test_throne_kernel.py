"""The Throne model's legality is the kernel's, for every state of the model's invariant.

:func:`proofs.throne_kernel.tie` runs the kernel on Z3 terms
(:data:`castlerules.symbolic.Z3`) and proves, for every move number, that the
model's ``legal_move`` and the kernel's guards agree on every state the
model's inductive invariant admits (Boolean options symbolic).
"""

from __future__ import annotations

import pytest

from castlerules.throne import kernel
from proofs.throne import configs
from proofs.throne_kernel import bookkeeping, tie


@pytest.mark.parametrize("label", ["SEED 3p", "ORIGINAL 4p"])
def test_b6_to_b13_the_model_legality_is_the_kernel_guards(label: str) -> None:
    config = next(c for c in configs() if c.label == label)
    result = tie(config)
    print(result.line())
    assert result.failures == ()
    assert result.moves == 107 and result.queries == 107


def test_b11_the_election_bookkeeping_is_inductive() -> None:
    """B11: the seat to act is the voted-th after the mover (what --successors assumes)."""
    config = next(c for c in configs() if c.label == "SEED 4p")
    failures, asked = bookkeeping(config.system())
    assert failures == [] and asked > 20


def test_b7_a_planted_kernel_mistake_breaks_the_tie(monkeypatch: pytest.MonkeyPatch) -> None:
    """B7: a kernel that forgets the room of a placement floor differs from the model."""
    real = kernel.guards

    def lax(p: kernel.Position, m: kernel.Parts) -> tuple[kernel.Guard, ...]:
        return tuple(g for g in real(p, m) if g[1] != "onto a floor with room")

    monkeypatch.setattr(kernel, "guards", lax)
    config = next(c for c in configs() if c.label == "SEED 3p")
    result = tie(config, only=("A1", "A6", "A+"))
    assert result.failures == ("A1: legality",)
