"""The compact comparison: ``explain --compare --json`` as the desk shows it.

Only the readings that answer otherwise than the base, or that cannot apply
to the position, each with why in one line; the readings that agree are
counted.  :func:`compact` is the one place that reads the command line's
comparison: it reads, of the ``compare`` object, ``base``, ``invalid``
(``reading``, ``error``) and per entry of ``readings``: ``reading``,
``applicable`` and ``note`` (a reading that cannot apply), ``agrees``,
``legal``, ``clause``, ``message`` and ``events`` (``clause``, ``text``); of
the base answer, ``legal`` and ``events``.  Never a resulting position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

DISAGREES = "disagrees"
CANNOT_APPLY = "cannot apply"
DEPENDS = "depends on what the table view hides"


def _events(events: Sequence[Mapping[str, Any]]) -> str:
    return "; ".join(f"{e.get('clause')}: {e.get('text')}" for e in events)


def _why(row: Mapping[str, Any], base: Mapping[str, Any]) -> str:
    """One line: what the reading answers that the base does not."""
    if not row.get("legal"):
        return f"illegal ({row.get('clause') or 'no clause'}): {row.get('message', '')}"
    events = row.get("events") or []
    if base.get("legal") and list(events) == list(base.get("events") or []):
        return "legal, with the same events, but another resulting position"
    return "legal: " + _events(events)


def compact(comparison: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """The compact view of a comparison (``answer["compare"]``) for the base answer
    ``base`` (the rest of the same answer).

    >>> view = compact(
    ...     {"base": "SEED", "readings": [
    ...         {"reading": "ORIGINAL", "legal": False, "clause": "B6",
    ...          "message": "Placement is on floors 2-5 only", "agrees": False},
    ...         {"reading": "allow_pass=true", "legal": True, "events": [], "agrees": True},
    ...         {"reading": "rounds=1", "applicable": False, "note": "round 2 is past"}],
    ...      "invalid": []},
    ...     {"legal": True, "events": []})
    >>> view["tried"], view["agree"], [r["reading"] for r in view["rows"]]
    (2, 1, ['ORIGINAL', 'rounds=1'])
    >>> view["rows"][0]["why"]
    'illegal (B6): Placement is on floors 2-5 only'
    """
    rows: list[dict[str, Any]] = []
    tried = agree = 0
    for row in comparison.get("readings") or []:
        label = str(row.get("reading"))
        if row.get("applicable") is False:
            rows.append({"reading": label, "kind": CANNOT_APPLY, "why": str(row.get("note", ""))})
            continue
        tried += 1
        if row.get("agrees"):
            agree += 1
            continue
        rows.append({"reading": label, "kind": DISAGREES, "why": _why(row, base)})
    for bad in comparison.get("invalid") or []:
        rows.append(
            {"reading": str(bad.get("reading")), "kind": CANNOT_APPLY, "why": str(bad.get("error"))}
        )
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
