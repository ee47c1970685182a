"""Paired studies of readings: does the reading matter over whole games?

A study plays the same games under two or more readings of the rules, with
the same seeds and the same bots (game ``i`` starts from the same deal under
every reading, and its bots draw from the same streams), and measures how
much the readings change the results: the winner, the scores, the length of
the game, the balance of the seats, how often each clause fires and refuses
a move.  The games run on Dask (:func:`~castlerules.study.run.run_study`), the results go to a
DuckDB file (:mod:`castlerules.study.store`, one row per game per reading)
and :func:`~castlerules.study.report.write_report` turns a file into an HTML page with plots.

The readings, the games and the metrics need nothing but castlerules; running
a study and its report need the ``study`` extra
(``pip install 'castlerules[study]'``: Dask, DuckDB, matplotlib, tqdm).

>>> from castlerules import throne
>>> from castlerules.study import Study, parse_reading, play_game
>>> study = Study("throne", 4, ("greedy",) * 4,
...               (parse_reading(throne, "SEED"), parse_reading(throne, "ORIGINAL")))
>>> study.check()
>>> a, b = (play_game(throne, r.name, r.rules(throne), 4, study.bots, 7, 0)
...         for r in study.readings)
>>> (a.seed, b.seed), a.scores == b.scores
((7, 7), False)
"""

from __future__ import annotations

from typing import Any

from castlerules.study.games import GameResult, Reading, Study, parse_reading, play_batch, play_game
from castlerules.study.metrics import PairMetrics, ReadingMetrics, compute

__all__ = [
    "GameResult",
    "PairMetrics",
    "Reading",
    "ReadingMetrics",
    "Study",
    "compute",
    "open_store",
    "parse_reading",
    "play_batch",
    "play_game",
    "run_study",
    "write_report",
]


def run_study(*args: Any, **kwargs: Any) -> Any:
    """See :func:`castlerules.study.run.run_study` (needs the ``study`` extra)."""
    from castlerules.study.run import run_study as run

    return run(*args, **kwargs)


def open_store(*args: Any, **kwargs: Any) -> Any:
    """See :func:`castlerules.study.store.open_store` (needs the ``study`` extra)."""
    from castlerules.study.store import open_store as opener

    return opener(*args, **kwargs)


def write_report(*args: Any, **kwargs: Any) -> Any:
    """See :func:`castlerules.study.report.write_report` (needs the ``study`` extra)."""
    from castlerules.study.report import write_report as writer

    return writer(*args, **kwargs)
