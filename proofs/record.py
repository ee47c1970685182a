"""The long run's record: its last result, kept in the repository with the key of what
it read, so that a run of the same sources need not prove it again.

The long run (``python -m proofs --long``: the Ascent model's Favour and the converse
proved equal to the kernel, :data:`proofs.ASCENT_EQUAL_LONG`) costs about as much
CPU as the proof run.  Its result depends only on the modules its code can import and
on the solver, so :func:`inputs_key` hashes exactly these: every module of
``castlerules/`` and ``proofs/`` that :mod:`proofs.ascent_equal` imports, directly or
not, anywhere in its code (found by reading the code, :mod:`modulefinder`, not by
running it), and Z3's version.  ``python -m proofs --long --record FILE`` runs the
long run and writes its report with that key; ``--reuse FILE`` prints the recorded
report instead of running it when the key is the key of the sources at hand, and
runs it otherwise (saying why).  A change to the model, the kernel or anything they
import changes the key, so the long run is proved again; a change elsewhere (the
command line, the batch, the desk) does not.
"""

from __future__ import annotations

import hashlib
import json
import modulefinder
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from proofs.core import Result

ROOT = Path(__file__).resolve().parent.parent

RECORD = ROOT / "proofs" / "long-run.json"
"""Where the repository keeps the long run's record (``bash dev prove-long`` reuses it)."""

ENTRY = "proofs/ascent_equal.py"
"""The long run's code: the module whose imports make its inputs."""


def long_inputs(root: Path = ROOT) -> tuple[str, ...]:
    """The files the long run's code can import: every module of ``castlerules/`` and
    ``proofs/`` reachable by an import statement from :data:`ENTRY`, as paths relative
    to ``root``, sorted."""
    # Searched for in ``root`` only: the standard library and the installed packages
    # are not inputs (Z3's version is part of the key).
    finder = modulefinder.ModuleFinder(path=[str(root)])
    finder.run_script(str(root / ENTRY))
    found = set()
    for module in finder.modules.values():
        where = getattr(module, "__file__", None)  # modulefinder.Module, untyped
        if not where:
            continue
        path = Path(where).resolve()
        if path.is_relative_to(root) and path.relative_to(root).parts[0] in (
            "castlerules",
            "proofs",
        ):
            found.add(path.relative_to(root).as_posix())
    return tuple(sorted(found))


def solver_version() -> str:
    """Z3's version, as the ``z3`` package gives it."""
    import z3

    return str(z3.get_version_string())


def inputs_key(
    root: Path = ROOT, solver: str | None = None, files: tuple[str, ...] | None = None
) -> str:
    """A hash of the long run's inputs: each file of :func:`long_inputs` (``files`` if
    given: its path and its bytes) and Z3's version."""
    digest = hashlib.sha256()
    for name in long_inputs(root) if files is None else files:
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update((root / name).read_bytes())
        digest.update(b"\0")
    digest.update((solver if solver is not None else solver_version()).encode())
    return digest.hexdigest()[:24]


def make_record(payload: Mapping[str, Any], root: Path = ROOT) -> dict[str, Any]:
    """The record of a long run's report ``payload`` (what ``--save`` writes): the
    report with its inputs (key, Z3's version, the files)."""
    solver = solver_version()
    files = long_inputs(root)
    return {
        **payload,
        "inputs": {"key": inputs_key(root, solver, files), "z3": solver, "files": list(files)},
    }


def reusable(
    path: Path, root: Path = ROOT
) -> tuple[tuple[dict[str, Any], list[Result]] | None, str]:
    """The record at ``path`` and its results read back, if it can stand for a run of
    the sources at hand, and a line saying why it can or cannot (no file, not a record,
    not a passed long run, a result it cannot read, or made from other inputs)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"no record at {path}"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        return None, f"the record {path} cannot be read ({type(err).__name__})"
    inputs = record.get("inputs") if isinstance(record, dict) else None
    if not isinstance(inputs, dict) or not isinstance(record.get("results"), list):
        return None, f"{path} is not a record of the long run"
    if not str(record.get("mode", "")).startswith("long") or record.get("only"):
        return None, f"{path} records another run than the whole long run"
    if record.get("ok") is not True:
        return None, f"the record {path} is of a long run that failed"
    try:
        results = [Result.from_json(item) for item in record["results"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None, f"the record {path} holds a result it cannot read"
    solver = solver_version()
    if inputs.get("z3") != solver:
        return None, f"the record {path} was proved by Z3 {inputs.get('z3')}, this is Z3 {solver}"
    key = inputs_key(root, solver)
    if inputs.get("key") != key:
        return None, (
            f"the record {path} is of other sources (key {inputs.get('key')}, these are {key}: "
            "a module the long run imports has changed)"
        )
    files = len(inputs.get("files", ()))
    return (record, results), (
        f"its inputs ({files} modules of castlerules/ and proofs/, Z3 {solver}; key {key}) "
        f"are those of the record {path}, proved in {record.get('seconds', 0):.1f} s"
    )
