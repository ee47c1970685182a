"""The report of a study: an HTML page with matplotlib plots and the tables.

:func:`figures` draws the plots (PNG bytes, by name): the distribution of
final scores per reading, the winner-change rate of every pair with its
interval, how often each clause fires per reading, and the balance of the
seats.  :func:`html` puts them, base64-embedded, in one self-contained page
with the tables of :mod:`castlerules.study.metrics`.
"""

from __future__ import annotations

import base64
import html as html_mod
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from castlerules.core import ArgumentError
from castlerules.records import Target
from castlerules.study import metrics as metrics_mod
from castlerules.study.metrics import PairMetrics, ReadingMetrics
from castlerules.study.store import Store, open_store

__all__ = [
    "figures",
    "html",
    "report_html",
    "report_page",
    "summary",
    "tables_rst",
    "write_report",
]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ArgumentError(
            "study reports need the 'study' extra: pip install 'castlerules[study]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def summary(store: Store) -> tuple[tuple[ReadingMetrics, ...], tuple[PairMetrics, ...]]:
    """The metrics of a study file's readings and pairs."""
    study = store.study
    return metrics_mod.compute(
        [(r.name, r.text()) for r in study.readings], store.rows(), study.players
    )


def _png(fig: Any) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    return out.getvalue()


def figures(
    per: Sequence[ReadingMetrics], pairs: Sequence[PairMetrics], players: int
) -> dict[str, bytes]:
    """The report's plots, as PNG bytes by name."""
    plt = _pyplot()
    out: dict[str, bytes] = {}
    labels = [m.name for m in per]

    fig, ax = plt.subplots(figsize=(7, 3.2))
    data = [list(m.scores) or [0] for m in per]
    ax.violinplot(data, showmedians=True)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20, ha="right")
    ax.set_ylabel("final score (every seat)")
    ax.set_title("Score distributions per reading")
    out["scores"] = _png(fig)
    plt.close(fig)

    if pairs:
        fig, ax = plt.subplots(figsize=(7, 3.2))
        for pair in pairs[:6]:
            if pair.diffs:
                low, high = min(pair.diffs), max(pair.diffs)
                bins = range(low, high + 2)
                ax.hist(
                    pair.diffs, bins=bins, histtype="step", label=f"{pair.second} - {pair.first}"
                )
        ax.set_xlabel("score difference of a seat in paired games")
        ax.set_ylabel("seats x games")
        ax.set_yscale("log")
        ax.set_title(
            "Distribution of paired score differences"
            + (" (first 6 pairs)" if len(pairs) > 6 else "")
        )
        ax.legend(fontsize="small")
        out["score_diffs"] = _png(fig)
        plt.close(fig)

        fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(pairs)))
        names = [f"{p.first} vs {p.second}" for p in pairs]
        values = [100 * p.winner_changed.value for p in pairs]
        errors = [
            [max(0.0, 100 * (p.winner_changed.value - p.winner_changed.low)) for p in pairs],
            [max(0.0, 100 * (p.winner_changed.high - p.winner_changed.value)) for p in pairs],
        ]
        ax.barh(range(len(pairs)), values, xerr=errors, color="#4c72b0", capsize=3)
        ax.set_yticks(range(len(pairs)), names)
        ax.invert_yaxis()
        ax.set_xlabel("paired games whose winner changes (%), 95% interval")
        ax.set_title("Winner-change rate")
        out["winner_change"] = _png(fig)
        plt.close(fig)

    clauses = sorted(
        {c for m in per for c in m.clause_events}, key=lambda c: (c[0], int(c[1:] or 0))
    )
    if clauses:
        fig, ax = plt.subplots(figsize=(7, 3.2))
        width = 0.8 / max(len(per), 1)
        for i, m in enumerate(per):
            ys = [m.clause_events[c].value if c in m.clause_events else 0.0 for c in clauses]
            xs = [j + (i - (len(per) - 1) / 2) * width for j in range(len(clauses))]
            ax.bar(xs, ys, width=width, label=m.name)
        ax.set_xticks(range(len(clauses)), clauses)
        ax.set_ylabel("events per game")
        ax.set_yscale("symlog", linthresh=1)
        ax.set_title("How often each clause fires")
        ax.legend(fontsize="small")
        out["clauses"] = _png(fig)
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 3))
    width = 0.8 / max(len(per), 1)
    for i, m in enumerate(per):
        xs = [s + (i - (len(per) - 1) / 2) * width for s in range(players)]
        ys = [100 * e.value for e in m.seat_wins]
        err = [
            [max(0.0, 100 * (e.value - e.low)) for e in m.seat_wins],
            [max(0.0, 100 * (e.high - e.value)) for e in m.seat_wins],
        ]
        ax.bar(xs, ys, width=width, yerr=err, capsize=2, label=m.name)
    ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
    ax.set_xticks(range(players), [f"seat {s}" for s in range(players)])
    ax.set_ylabel("games won (%), 95% interval")
    ax.set_title("Seat balance (dotted: 1 / players)")
    ax.legend(fontsize="small")
    out["seats"] = _png(fig)
    plt.close(fig)
    return out


def _e(text: object) -> str:
    return html_mod.escape(str(text))


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["<table>", "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"]
    out.extend("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    out.append("</table>")
    return "\n".join(out)


def table_rows(
    per: Sequence[ReadingMetrics], pairs: Sequence[PairMetrics], players: int
) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The report's tables, as ``(header, rows)`` by name."""
    readings = (
        [
            "reading",
            "rules",
            "games",
            "moves per game",
            "ties",
            *(f"seat {s} wins" for s in range(players)),
        ],
        [
            [
                m.name,
                m.text,
                str(m.games),
                m.length.text(),
                m.ties.text(percent=True),
                *(e.text(percent=True) for e in m.seat_wins),
            ]
            for m in per
        ],
    )
    pair_rows = (
        [
            "first",
            "second",
            "paired games",
            "winner changes",
            "identical games",
            "score difference",
            "|score difference|",
            "length difference",
        ],
        [
            [
                p.first,
                p.second,
                str(p.games),
                p.winner_changed.text(percent=True),
                p.identical.text(percent=True),
                p.score_diff.text(digits=2),
                p.abs_score_diff.text(digits=2),
                p.length_diff.text(),
            ]
            for p in pairs
        ],
    )
    clauses = sorted(
        {c for m in per for c in (*m.clause_events, *m.refusals)},
        key=lambda c: (c[0], int(c[1:] or 0)),
    )
    clause_rows = (
        ["clause", *(f"{m.name}: games / events per game / probes refused" for m in per)],
        [
            [
                c,
                *(
                    " / ".join(
                        [
                            m.clause_games[c].text(percent=True) if c in m.clause_games else "-",
                            m.clause_events[c].text(digits=2) if c in m.clause_events else "-",
                            m.refusals[c].text(percent=True) if c in m.refusals else "-",
                        ]
                    )
                    for m in per
                ),
            ]
            for c in clauses
        ],
    )
    return {"readings": readings, "pairs": pair_rows, "clauses": clause_rows}


STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; }
th { background: #eee; }
img { max-width: 100%; }
"""


def html(store: Store) -> str:
    """The report of a study file, as one self-contained HTML page."""
    study = store.study
    per, pairs = summary(store)
    if not any(m.games for m in per):
        raise ArgumentError(f"{str(store.path)!r} holds no games yet: nothing to report")
    pictures = figures(per, pairs, study.players)
    tables = table_rows(per, pairs, study.players)
    title = f"castlerules study: {study.game}, {study.players} players"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>',
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p>Bots per seat: {_e(', '.join(study.bots))}; game <i>i</i> has seed "
        f"{study.seed} + <i>i</i> under every reading (paired games). Intervals are 95% "
        "(Wilson for rates, normal for means). Played by castlerules "
        f"{_e(store.engine_version)}.</p>",
        "<h2>Readings</h2>",
        _table(*tables["readings"]),
        "<h2>Pairs of readings</h2>",
        "<p>Score difference: the second reading's score minus the first's, for every seat "
        "of every paired game.</p>",
        _table(*tables["pairs"]),
    ]
    captions = {
        "scores": "Score distributions",
        "score_diffs": "Score differences",
        "winner_change": "Winner-change rate",
        "clauses": "Clause frequencies",
        "seats": "Seat balance",
    }
    for name, data in pictures.items():
        encoded = base64.b64encode(data).decode("ascii")
        parts.append(f"<h2>{captions[name]}</h2>")
        parts.append(f'<img alt="{captions[name]}" src="data:image/png;base64,{encoded}">')
    parts += [
        "<h2>Clauses</h2>",
        "<p>Per clause and reading: the games in which it fires, its events per game, and "
        "the share of probes (one random move tried at every decision) that it refused.</p>",
        _table(*tables["clauses"]),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def report_page(path: Path | str) -> Path:
    """Where the report of the study file ``path`` goes by default: its name with ``.html``
    (ArgumentError where that is the study file itself)."""
    path = Path(path)
    page = path.with_suffix(".html")
    if page == path:
        raise ArgumentError(
            f"the study file {str(path)!r} ends with .html, where its report would go: "
            "give the report another name (--out), or the study file another suffix (.duckdb)"
        )
    return page


def report_html(path: Path | str) -> str:
    """The HTML report of the study file ``path``."""
    store = open_store(Path(path))
    try:
        return html(store)
    finally:
        store.close()


def write_report(path: Path | str, out: Path | str | None = None, *, force: bool = False) -> Path:
    """Write the HTML report of the study file ``path`` (default: ``path`` + ``.html``)
    under the write policy (:data:`castlerules.records.WRITE_POLICY`): never over the
    study file, and over an existing page only with ``force``."""
    page = report_page(path) if out is None else Path(out)
    target = Target.check(page, "report", force=force, inputs=(path,))
    return Path(target.write(report_html(path)).path)


def tables_rst(per: Sequence[ReadingMetrics], pairs: Sequence[PairMetrics], players: int) -> str:
    """The readings and pairs tables as reStructuredText list-tables (for the docs)."""
    tables = table_rows(per, pairs, players)
    out: list[str] = []
    for name in ("readings", "pairs"):
        head, rows = tables[name]
        out += [f".. list-table:: {name.capitalize()}", "   :header-rows: 1", ""]
        for row in [head, *rows]:
            out.append("   * - " + _rst_cell(row[0]))
            out.extend("     - " + _rst_cell(c) for c in row[1:])
        out.append("")
    return "\n".join(out)


def _rst_cell(text: str) -> str:
    return text.replace("*", "\\*").replace("|", "\\|") or "\\ "
