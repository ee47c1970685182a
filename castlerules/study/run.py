"""Running a study: the missing games, in batches, on Dask (or in this process).

The games still missing from the file (``(reading, game)`` pairs) are cut into
batches of consecutive games of one reading; each batch is a call of the pure
function :func:`castlerules.study.games.play_batch`, so the rows do not
depend on how many workers play them, nor in which order.  The file gets one
transaction per finished batch.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

import castlerules
from castlerules.core import ArgumentError
from castlerules.study import store as store_mod
from castlerules.study.games import ENGINES, Study, batchable, play_batch

__all__ = ["RunSummary", "run_study"]

BATCH = 20
"""Games per batch by default."""


@attrs.frozen(slots=True)
class RunSummary:
    """What a run did."""

    path: Path
    played: int
    """Games played by this run (all readings)."""
    total: int
    """Games in the file at the end (all readings)."""
    seconds: float
    """The whole run, Dask's start-up included."""
    workers: int
    """Dask workers used (0: played in this process)."""
    startup: float = 0.0
    """Seconds before the first game could start (the Dask cluster, the file)."""

    @property
    def games_per_s(self) -> float:
        """Games played per second once the games started."""
        playing = self.seconds - self.startup
        return self.played / playing if playing > 0 else 0.0


def _need(module: str, extra: str = "study") -> Any:
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        raise ArgumentError(
            f"studies need the {extra!r} extra: pip install 'castlerules[{extra}]'"
        ) from None


def _compatible(found: Study, wanted: Study, path: Path) -> None:
    where = str(path)
    for field in ("game", "players", "bots", "seed"):
        mine, theirs = getattr(wanted, field), getattr(found, field)
        if mine != theirs:
            raise ArgumentError(
                f"{where!r} holds a study with {field} {_show(theirs)}, not {_show(mine)}; "
                "give the same settings to extend it, or another file"
            )
    known = {r.name: r for r in found.readings}
    for reading in wanted.readings:
        old = known.get(reading.name)
        if old is not None and (old.preset, dict(old.options)) != (
            reading.preset,
            dict(reading.options),
        ):
            raise ArgumentError(
                f"{where!r} already has a reading named {reading.name!r} ({old.text()}), "
                f"not {reading.text()}"
            )


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


@contextlib.contextmanager
def _client(scheduler: str | None, workers: int) -> Iterator[Any]:
    """A Dask client: to ``scheduler``, or to a new LocalCluster of ``workers`` processes."""
    distributed = _need("distributed")
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout="3s", set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as err:
            why = " ".join(str(err).split()) or type(err).__name__
            raise ArgumentError(f"cannot reach the Dask scheduler {scheduler!r}: {why}") from None
        try:
            _check_workers(client, scheduler)
            yield client
        finally:
            client.close()
        return
    cluster = distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def _engine_version() -> str:
    """castlerules' version where this runs (on a Dask worker)."""
    import castlerules as engine

    return str(engine.__version__)


def _check_workers(client: Any, scheduler: str) -> None:
    """The cluster at ``scheduler`` has workers, and they run this castlerules."""
    try:
        client.wait_for_workers(1, timeout=30)
    except (OSError, TimeoutError):
        raise ArgumentError(f"the Dask scheduler {scheduler!r} has no workers") from None
    try:
        versions = client.run(_engine_version)
    except Exception as err:
        why = " ".join(str(err).split()) or type(err).__name__
        raise ArgumentError(
            f"the workers of {scheduler!r} cannot run castlerules ({why}): install it there"
        ) from None
    for worker, version in sorted(versions.items()):
        if version != castlerules.__version__:
            raise ArgumentError(
                f"worker {worker} runs castlerules {version}, not {castlerules.__version__}"
            )


def _batches(missing: list[tuple[str, int]], size: int) -> list[tuple[str, tuple[int, ...]]]:
    out: list[tuple[str, tuple[int, ...]]] = []
    for reading, index in missing:
        if out and out[-1][0] == reading and len(out[-1][1]) < size:
            out[-1] = (reading, (*out[-1][1], index))
        else:
            out.append((reading, (index,)))
    return out


def _progress(total: int, enabled: bool) -> Any:
    tqdm = _need("tqdm")
    return tqdm.tqdm(
        total=total,
        unit="game",
        desc="study",
        disable=not enabled,
        file=sys.stderr,
        smoothing=0.1,
        dynamic_ncols=True,
    )


AUTO_BATCH = 1024
"""``--engine auto`` takes the batch only for tasks of at least this many games: the
compiled batch pays for its compilation (seconds) only over thousands of games."""

AUTO_GAMES = 4096
"""``--engine auto`` also needs some reading to have at least this many games to play
per process (each Dask worker, or this process): every process traces and compiles
the program of each family of readings once (SEED and ORIGINAL are one,
:func:`castlerules.study.batched.family`), which costs about as much as the engine's
play of a few thousand random games (``benchmarks/bench.py --batch --batch-study-games N`` and the
docs page on the batch give the figures)."""


def _worth_batching(missing: list[tuple[str, int]], processes: int) -> bool:
    """Whether some reading has :data:`AUTO_GAMES` games to play per process."""
    per_reading = Counter(name for name, _index in missing)
    return max(per_reading.values(), default=0) >= AUTO_GAMES * max(processes, 1)


def _engine(study: Study, engine: str, batch: int) -> str:
    """The engine that plays the games: ``auto`` is the batch where it applies, JAX is
    installed (the numpy batch is slower than the engine) and the tasks are large
    (:data:`AUTO_BATCH`), else the engine (and :func:`run_study` takes the engine
    when the games are too few: :data:`AUTO_GAMES`)."""
    spec = study.data()
    if engine == "batch" and not batchable(spec):
        raise ArgumentError(
            "--engine batch plays Throne with random bots in every seat only "
            f"(this study: {spec['game']}, bots {', '.join(spec['bots'])})"
        )
    if engine != "auto":
        return engine
    if not batchable(spec) or batch < AUTO_BATCH:
        return "scalar"
    try:
        import jax  # noqa: F401

        import castlerules.batch  # noqa: F401
    except ImportError:
        return "scalar"
    return "batch"


def run_study(
    path: Path | str,
    study: Study,
    games: int,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    batch: int = BATCH,
    progress: bool = True,
    engine: str = "auto",
) -> RunSummary:
    """Play ``games`` games of every reading of ``study`` into the study file ``path``.

    A file that exists is extended: only the missing games are played (the
    settings must be those of the file; new readings are added).  With
    ``scheduler`` the games run on that Dask cluster; else on a new
    ``LocalCluster`` of ``workers`` processes, or in this process when
    ``workers`` is 0.  Bad input is an ``ArgumentError``, raised before the
    file is created or changed.
    """
    path = Path(path)
    if games < 1:
        raise ArgumentError(f"--games must be at least 1, not {games}")
    if workers < 0:
        raise ArgumentError(f"--workers must be 0 or more, not {workers}")
    if batch < 1:
        raise ArgumentError(f"--batch must be at least 1, not {batch}")
    if engine not in ENGINES:
        raise ArgumentError(f"--engine is one of {', '.join(ENGINES)}, not {engine!r:.20}")
    study.check()
    asked, engine = engine, _engine(study, engine, batch)
    _need("duckdb")
    if scheduler is None and workers > 0:
        _need("distributed")
    _need("tqdm")
    start = time.perf_counter()
    existing = None
    if path.exists():
        existing = store_mod.open_store(path, writable=True)
        try:
            _compatible(existing.study, study, path)
            if existing.engine_version != castlerules.__version__:
                raise ArgumentError(
                    f"{str(path)!r} was played by castlerules {existing.engine_version}, "
                    f"this is {castlerules.__version__}: start another file to add games"
                )
            done = existing.done()
        except BaseException:
            existing.close()
            raise
    else:
        done = set()
    missing = [
        (reading.name, index)
        for reading in study.readings
        for index in range(games)
        if (reading.name, index) not in done
    ]
    spec = study.data()
    if asked == "auto" and engine == "batch" and not _worth_batching(missing, workers):
        engine = "scalar"  # too few games to pay for the compilation
    batches = _batches(missing, batch)
    used = 0 if (scheduler is None and workers == 0) else workers
    with contextlib.ExitStack() as stack:
        client = None
        if batches and (scheduler is not None or workers > 0):
            try:
                client = stack.enter_context(_client(scheduler, workers))
            except BaseException:
                if existing is not None:
                    existing.close()
                raise
            if scheduler is not None:
                used = len(client.scheduler_info().get("workers", {}))
        target = existing if existing is not None else store_mod.create(path, study)
        stack.callback(target.close)
        target.add_readings(study.readings)
        bar = stack.enter_context(_progress(len(missing), progress))
        startup = time.perf_counter() - start
        if client is None:
            for reading, indices in batches:
                target.add_games(play_batch(spec, reading, indices, engine))
                bar.update(len(indices))
        else:
            distributed = _need("distributed")
            futures = [
                client.submit(play_batch, spec, reading, indices, engine, pure=False)
                for reading, indices in batches
            ]
            try:
                for _done, lines in distributed.as_completed(
                    futures, with_results=True, loop=client.loop
                ):
                    target.add_games(lines)
                    bar.update(len(lines))
            finally:
                client.cancel(futures)
        total = int(target.connection.execute("SELECT count(*) FROM games").fetchone()[0])
    return RunSummary(path, len(missing), total, time.perf_counter() - start, used, startup)
