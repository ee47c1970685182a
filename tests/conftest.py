"""Hypothesis profiles: ``default`` for CI and local runs, ``quick`` while editing."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    print_blob=True,
)
settings.register_profile("quick", parent=settings.get_profile("default"), max_examples=20)
# python -m proofs.mutants: one mutated copy per run, a kill needs one failing example.
settings.register_profile("mutants", parent=settings.get_profile("default"), max_examples=6)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
