"""The study of every register option: the docs page "Does the reading matter?".

For each game, one study with the default reading and every alternative
reading of every open point of the interpretation register
(:func:`castlerules.register.open_points`, the options with no other reading
left out), played in this process (no Dask: the docs build stays small and
deterministic) into a DuckDB file; then the pairs *default vs. reading* and
the report's plots.  :func:`page` writes the reStructuredText and the PNG
files that ``docs/study.rst`` includes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from castlerules import ascent, register, throne
from castlerules.study.games import Reading, Study, default_preset
from castlerules.study.run import run_study
from castlerules.study.store import open_store

__all__ = ["PLAN", "page", "register_readings", "source_hash"]

PLAN: dict[str, dict[str, Any]] = {
    "throne": {"players": 4, "games": 100, "bots": "random"},
    "ascent": {"players": 2, "games": 100, "bots": "random"},
}
"""Per game: players, games per reading and bots of the docs' study."""


def register_readings(module: Any) -> tuple[Reading, ...]:
    """``default`` and every alternative reading of the register's open points."""
    preset = default_preset(module)
    out = [Reading("default", preset)]
    for point in register.open_points(module):
        if point.excluded is not None:
            continue
        for reading in point.readings[1:]:
            if reading.preset is not None:
                candidate = Reading(reading.label, reading.preset)
            else:
                candidate = Reading(reading.label, preset, tuple(reading.options))
            if all(r.name != candidate.name for r in out):
                out.append(candidate)
    return tuple(out)


def source_hash() -> str:
    """A hash of castlerules' sources and of :data:`PLAN` (the page's cache key)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(repr(sorted(PLAN.items())).encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _game_section(name: str, outdir: Path) -> list[str]:
    from castlerules.study import report

    module = {"throne": throne, "ascent": ascent}[name]
    plan = PLAN[name]
    study = Study(
        name,
        plan["players"],
        (plan["bots"],) * plan["players"],
        register_readings(module),
    )
    path = outdir / f"{name}.duckdb"
    path.unlink(missing_ok=True)
    run_study(path, study, plan["games"], workers=0, progress=False)
    store = open_store(path)
    try:
        per, pairs = report.summary(store)
    finally:
        store.close()
    pairs = tuple(p for p in pairs if p.first == "default")
    pictures = report.figures(per, pairs, study.players)
    for key, data in pictures.items():
        (outdir / f"{name}-{key}.png").write_bytes(data)
    title = f"{name.capitalize()}: {study.players} players, {plan['games']} games per reading"
    lines = [
        title,
        "-" * len(title),
        "",
        f"Bots: {plan['bots']} on every seat; game *i* has seed *i* under every reading. "
        "Each alternative reading is compared with the default, game by game.",
        "",
        report.tables_rst(per, pairs, study.players),
        "",
    ]
    captions = {
        "winner_change": "How often the reading changes the winner of a paired game (95% "
        "Wilson interval).",
        "score_diffs": "Score of a seat under the reading minus its score under the default, "
        "in paired games.",
        "scores": "Final scores of every seat, per reading.",
        "clauses": "Events per game that cite each clause, per reading.",
        "seats": "Games won by each seat, per reading (95% intervals).",
    }
    for key in ("winner_change", "score_diffs", "scores", "clauses", "seats"):
        if key in pictures:
            lines += [
                f".. figure:: /_generated/study/{name}-{key}.png",
                f"   :alt: {captions[key]}",
                "",
                f"   {captions[key]}",
                "",
            ]
    return lines


def page(outdir: Path) -> Path:
    """Write ``outdir/study.rst`` and its plots, unless they are those of these sources.

    The cache key (:func:`source_hash`) is kept in ``outdir/study.stamp``.
    """
    outdir.mkdir(parents=True, exist_ok=True)
    target = outdir / "study.rst"
    stamp = outdir / "study.stamp"
    key = source_hash()
    if target.exists() and stamp.exists() and stamp.read_text().strip() == key:
        return target
    lines: list[str] = []
    for name in PLAN:
        lines += _game_section(name, outdir)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stamp.write_text(key + "\n")
    return target
