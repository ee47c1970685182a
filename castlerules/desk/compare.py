"""The compact comparison: ``explain --compare --json`` as the desk shows it.

Only the readings that answer otherwise than the base, or that cannot apply
to the dispute, each with why in one line; the readings that agree are
counted.  :func:`compact` is the one place that reads the comparison
(:meth:`castlerules.register.Comparison.data`, under ``answer["compare"]``):
it reads ``base`` and, per entry of ``readings``, ``reading``, ``status``
(``agrees``, ``disagrees``, ``cannot apply``, ``depends``) and ``reason``
(one line, the register's own words; ``summary`` where a row has no
reason).  Never a resulting position (a row's ``after``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

DISAGREES = "disagrees"
CANNOT_APPLY = "cannot apply"
DEPENDS = "depends on what the table view hides"

_KINDS = {"disagrees": DISAGREES, "cannot apply": CANNOT_APPLY, "depends": DEPENDS}
"""The comparison's statuses that the compact view lists, and how it names them."""


def _why(row: Mapping[str, Any]) -> str:
    """One line: why the reading answers otherwise (the register's reason)."""
    return str(row.get("reason") or row.get("summary") or "")


def compact(comparison: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """The compact view of a comparison (``answer["compare"]``) for the base answer
    ``base`` (the rest of the same answer; kept for the caller's symmetry).

    >>> view = compact(
    ...     {"base": "SEED", "readings": [
    ...         {"reading": "ORIGINAL", "status": "disagrees",
    ...          "reason": "--after move 1 (A1) is illegal under this reading (B6)"},
    ...         {"reading": "allow_pass=true", "status": "agrees", "reason": ""},
    ...         {"reading": "equal_placement=true", "status": "cannot apply",
    ...          "reason": "not a valid combination with the other options"}]},
    ...     {"legal": True, "events": []})
    >>> view["tried"], view["agree"], [r["reading"] for r in view["rows"]]
    (2, 1, ['ORIGINAL', 'equal_placement=true'])
    >>> view["rows"][0]["why"]
    '--after move 1 (A1) is illegal under this reading (B6)'
    """
    del base
    rows: list[dict[str, Any]] = []
    tried = agree = 0
    for row in comparison.get("readings") or []:
        label = str(row.get("reading"))
        status = str(row.get("status"))
        if status != "cannot apply":
            tried += 1
        if status == "agrees":
            agree += 1
            continue
        rows.append({"reading": label, "kind": _KINDS.get(status, DISAGREES), "why": _why(row)})
    return {"base": str(comparison.get("base")), "tried": tried, "agree": agree, "rows": rows}


def guarded(views: Sequence[Mapping[str, Any]], hides: str) -> dict[str, Any]:
    """The compact view shown at the table: ``views[0]`` (the position's), where each
    reading's row is kept only if it is the same in every view (the positions the table
    cannot tell apart); a row that differs says what it depends on (``hides``)."""
    first = views[0]
    rows_of = [{r["reading"]: r for r in v["rows"]} for v in views]
    labels = list(dict.fromkeys(label for rows in rows_of for label in rows))
    rows = []
    agree = first["agree"]
    for label in labels:
        seen = [rows.get(label) for rows in rows_of]
        if all(r == seen[0] for r in seen):
            if seen[0] is not None:
                rows.append(seen[0])
            continue
        if seen[0] is None:
            agree -= 1
        rows.append({"reading": label, "kind": DEPENDS, "why": f"it depends on {hides}"})
    same_count = all(v["tried"] == first["tried"] for v in views)
    return {
        "base": first["base"],
        "tried": first["tried"] if same_count else None,
        "agree": agree if same_count else None,
        "rows": rows,
    }


__all__ = ["CANNOT_APPLY", "DEPENDS", "DISAGREES", "compact", "guarded"]
