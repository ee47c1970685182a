"""No module reads another module's private names: what a neighbour needs is public.

A private name (one leading underscore) is read only inside the module that defines
it: ``self._x`` and ``cls._x`` in a class of that module, a module's own ``_helper``.
Reading ``other._x`` or importing ``_x`` from another module is refused here.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

NOT_YET = ("castlerules/batch",)
"""Where a neighbour's private names are still read, until their owners make them public:
the batch (functional.py reads its sibling modules' helpers)."""


def private_reads(source: str) -> list[str]:
    """Where a source reads a private name of another object or module (``line: name``)."""
    tree = ast.parse(source)
    own = {  # the module's own private names: its functions, classes, instance fields
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    } | {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    }
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("castlerules")
        ):
            found += [f"{node.lineno}: {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                continue
            if isinstance(base, ast.Call) and getattr(base.func, "id", None) == "super":
                continue
            if node.attr in own:  # a name this module defines, reached through an instance
                continue
            found.append(f"{node.lineno}: {node.attr}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_reads_another_modules_private_names() -> None:
    found = {}
    for path in sorted(ROOT.glob("castlerules/**/*.py")):
        where = str(path.relative_to(ROOT))
        if where.startswith(NOT_YET):
            continue
        if hits := private_reads(path.read_text(encoding="utf-8")):
            found[where] = hits
    assert found == {}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = rules._derived\n", ["1: _derived"]),
        ("from castlerules.casebook.bmc import _placed\n", ["1: _placed"]),
        ("class A:\n    def f(self):\n        return self._x\n", []),
        ("def _h(): pass\nclass A:\n    _h = 1\ny = a._h\n", []),
        ("import os\nos.__name__\n", []),
    ],
)
def test_a_planted_private_read_is_found(source: str, expected: list[str]) -> None:
    assert private_reads(source) == expected
