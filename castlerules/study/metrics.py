"""The numbers of a study: per reading, and per pair of readings, with 95% intervals.

Rates (ties, a seat among the winners, a clause firing in a game, a probe
refused, the winner changing between paired games) carry a Wilson score
interval; means (game length, score differences, events per game) a normal
interval, mean ± 1.96 standard errors.  Pairs compare game ``i`` of one
reading with game ``i`` of the other, for the games both readings have.

>>> lo, hi = wilson(30, 100)
>>> round(lo, 3), round(hi, 3)
(0.219, 0.396)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

__all__ = ["Estimate", "PairMetrics", "ReadingMetrics", "compute", "mean_ci", "wilson"]

Z = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution (two-sided 95%)."""


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``(0, 1)`` without trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + Z * Z / trials
    centre = (p + Z * Z / (2 * trials)) / denom
    half = Z * math.sqrt(p * (1 - p) / trials + Z * Z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% normal interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@attrs.frozen(slots=True)
class Estimate:
    """A value with its 95% interval (a rate is ``successes / trials``)."""

    value: float
    low: float
    high: float

    @classmethod
    def rate(cls, successes: int, trials: int) -> Estimate:
        """A proportion with its Wilson interval."""
        low, high = wilson(successes, trials)
        if not trials:
            return cls(math.nan, low, high)
        value = successes / trials
        # Rounding can leave the value a hair outside its interval (0 or all successes).
        return cls(value, min(low, value), max(high, value))

    @classmethod
    def mean(cls, values: Sequence[float]) -> Estimate:
        """A mean with its normal interval."""
        return cls(*mean_ci(values))

    def text(self, percent: bool = False, digits: int = 1) -> str:
        """``41.2% [38.1, 44.3]`` or ``152.3 [150.1, 154.5]``."""
        if math.isnan(self.value):
            return "-"
        k = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        low, high = f"{self.low * k:.{digits}f}", f"{self.high * k:.{digits}f}"
        return f"{self.value * k:.{digits}f}{unit} [{low}, {high}]"


@attrs.frozen(slots=True)
class ReadingMetrics:
    """The numbers of one reading."""

    name: str
    text: str
    games: int
    length: Estimate
    """Moves per game."""
    ties: Estimate
    """Games won by more than one seat."""
    seat_wins: tuple[Estimate, ...]
    """Per seat: games where the seat is among the winners."""
    mean_scores: tuple[Estimate, ...]
    """Per seat: the mean final score."""
    clause_games: Mapping[str, Estimate]
    """Per clause: games in which it fires at least once."""
    clause_events: Mapping[str, Estimate]
    """Per clause: events per game."""
    refusals: Mapping[str, Estimate]
    """Per clause: the share of probes it refused."""
    scores: tuple[int, ...]
    """Every final score of every seat (for the distribution plots)."""


@attrs.frozen(slots=True)
class PairMetrics:
    """Reading ``second`` against reading ``first``, game by game."""

    first: str
    second: str
    games: int
    """Games played under both."""
    winner_changed: Estimate
    """Paired games whose set of winners differs."""
    identical: Estimate
    """Paired games with the same scores and the same length."""
    score_diff: Estimate
    """Mean of ``second - first`` over every seat of every paired game."""
    abs_score_diff: Estimate
    """Mean of ``|second - first|`` over every seat of every paired game."""
    length_diff: Estimate
    """Mean of the difference in moves per game."""
    diffs: tuple[int, ...]
    """Every score difference (for the distribution plots)."""


def _clause_key(clause: str) -> tuple[str, int]:
    digits = "".join(ch for ch in clause if ch.isdigit())
    return (clause.rstrip("0123456789"), int(digits) if digits else 0)


def _reading(
    name: str, text: str, rows: Sequence[Mapping[str, Any]], players: int
) -> ReadingMetrics:
    n = len(rows)
    clauses = sorted(
        {c for r in rows for c in r["events"]} | {c for r in rows for c in r["refusals"]},
        key=_clause_key,
    )
    probes = sum(int(r["probes"]) for r in rows)
    return ReadingMetrics(
        name=name,
        text=text,
        games=n,
        length=Estimate.mean([float(r["actions"]) for r in rows]),
        ties=Estimate.rate(sum(1 for r in rows if r["tie"]), n),
        seat_wins=tuple(
            Estimate.rate(sum(1 for r in rows if seat in r["winners"]), n)
            for seat in range(players)
        ),
        mean_scores=tuple(
            Estimate.mean([float(r["scores"][seat]) for r in rows]) for seat in range(players)
        ),
        clause_games={
            c: Estimate.rate(sum(1 for r in rows if r["events"].get(c, 0) > 0), n)
            for c in clauses
            if any(c in r["events"] for r in rows)
        },
        clause_events={
            c: Estimate.mean([float(r["events"].get(c, 0)) for r in rows])
            for c in clauses
            if any(c in r["events"] for r in rows)
        },
        refusals={
            c: Estimate.rate(sum(int(r["refusals"].get(c, 0)) for r in rows), probes)
            for c in clauses
            if any(c in r["refusals"] for r in rows)
        },
        scores=tuple(int(s) for r in rows for s in r["scores"]),
    )


def _pair(first: str, second: str, a: Mapping[int, Any], b: Mapping[int, Any]) -> PairMetrics:
    common = sorted(set(a) & set(b))
    n = len(common)
    diffs = [
        int(y) - int(x) for g in common for x, y in zip(a[g]["scores"], b[g]["scores"], strict=True)
    ]
    return PairMetrics(
        first=first,
        second=second,
        games=n,
        winner_changed=Estimate.rate(
            sum(1 for g in common if set(a[g]["winners"]) != set(b[g]["winners"])), n
        ),
        identical=Estimate.rate(
            sum(
                1
                for g in common
                if list(a[g]["scores"]) == list(b[g]["scores"])
                and a[g]["actions"] == b[g]["actions"]
            ),
            n,
        ),
        score_diff=Estimate.mean([float(d) for d in diffs]),
        abs_score_diff=Estimate.mean([float(abs(d)) for d in diffs]),
        length_diff=Estimate.mean([float(b[g]["actions"] - a[g]["actions"]) for g in common]),
        diffs=tuple(diffs),
    )


def compute(
    readings: Sequence[tuple[str, str]], rows: Sequence[Mapping[str, Any]], players: int
) -> tuple[tuple[ReadingMetrics, ...], tuple[PairMetrics, ...]]:
    """The metrics of every reading (``(name, text)``, in order) and of every pair.

    ``rows`` are rows of the ``games`` table (:meth:`Store.rows
    <castlerules.study.store.Store.rows>`).
    """
    by_reading: dict[str, dict[int, Mapping[str, Any]]] = {name: {} for name, _ in readings}
    for row in rows:
        if row["reading"] in by_reading:
            by_reading[row["reading"]][int(row["game"])] = row
    per = tuple(
        _reading(name, text, [by_reading[name][g] for g in sorted(by_reading[name])], players)
        for name, text in readings
    )
    names = [name for name, _ in readings]
    pairs = tuple(
        _pair(x, y, by_reading[x], by_reading[y])
        for i, x in enumerate(names)
        for y in names[i + 1 :]
    )
    return per, pairs
