"""The Throne model's legality is the kernel's, for every state of the model's invariant.

:func:`proofs.throne_kernel.tie` runs the kernel on Z3 terms
(:data:`castlerules.symbolic.Z3`) and proves, for every move number, that the
model's ``legal_move`` and the kernel's guards agree on every state the
model's inductive invariant admits (Boolean options symbolic).
"""

from __future__ import annotations

import pytest

from proofs.throne import configs
from proofs.throne_kernel import tie


@pytest.mark.parametrize("label", ["SEED 3p", "ORIGINAL 4p"])
def test_b6_to_b13_the_model_legality_is_the_kernel_guards(label: str) -> None:
    config = next(c for c in configs() if c.label == label)
    result = tie(config)
    print(result.line())
    assert result.failures == ()
    assert result.moves == 107 and result.queries == 107
