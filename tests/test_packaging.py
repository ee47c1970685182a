"""The package metadata in pyproject.toml uses the forms current setuptools expects."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
)


def test_the_license_is_an_spdx_expression() -> None:
    # license = { text = ... } makes setuptools >= 77 print a deprecation warning at set-up
    # (three times); the SPDX string is the current form (PEP 639).
    assert PYPROJECT["project"]["license"] == "MIT"
    assert not any("License ::" in c for c in PYPROJECT["project"].get("classifiers", []))


def test_the_build_needs_a_setuptools_that_reads_it() -> None:
    requires = PYPROJECT["build-system"]["requires"]
    found = [re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", r) for r in requires]
    versions = [int(m.group(1)) for m in found if m]
    assert versions and versions[0] >= 77, requires  # PEP 639 license strings: setuptools 77
