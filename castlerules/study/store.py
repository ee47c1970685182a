"""The study file: a DuckDB database, one row per game per reading.

Schema (format version :data:`FORMAT_VERSION`; query it with DuckDB's SQL; the
column types are those of :data:`SCHEMA`):

``study_meta(key VARCHAR PRIMARY KEY, value VARCHAR)``
    ``format`` (``castlerules-study``), ``format_version``,
    ``castlerules_version`` (of the engine that played the games), ``game``,
    ``players``, ``bots`` (JSON list, one kind per seat), ``seed`` (game ``i``
    has seed ``seed + i`` under every reading).
``readings(name, position, preset, options, text)``
    one row per reading: its preset, the options changed from it (JSON
    object) and its text (``ORIGINAL + allow_pass=true``).
``games(reading, game, seed, actions, scores, winners, tie, events, probes, refusals)``
    primary key ``(reading, game)``: game ``game`` (its seed, the number of
    moves played, the final score of every seat, the winning seats, whether
    the win is shared), the number of events per clause (``events['B8']``),
    the number of probes (one per decision) and the probes refused per clause.

A new file is written whole, then renamed into place; games are added one
batch per transaction, so a run that is interrupted leaves a valid file
holding the batches that finished, and a later run with the same arguments
plays only the games that are missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import castlerules
from castlerules.core import ArgumentError
from castlerules.study.games import Reading, Study, game_module

__all__ = ["FORMAT", "FORMAT_VERSION", "SCHEMA", "Store", "create", "open_store"]

FORMAT = "castlerules-study"
"""The ``format`` of a study file."""
FORMAT_VERSION = "1"
"""The version of the schema below; a file of another version is refused."""

SCHEMA = """
CREATE TABLE study_meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE readings (
    name VARCHAR PRIMARY KEY, position INTEGER, preset VARCHAR, options VARCHAR, text VARCHAR
);
CREATE TABLE games (
    reading VARCHAR, game INTEGER, seed BIGINT, actions INTEGER,
    scores INTEGER[], winners INTEGER[], tie BOOLEAN,
    events MAP(VARCHAR, INTEGER), probes INTEGER, refusals MAP(VARCHAR, INTEGER),
    PRIMARY KEY (reading, game)
);
"""
"""The tables of a study file, in DuckDB's SQL."""

_COLUMNS = (
    "{'reading': 'VARCHAR', 'game': 'INTEGER', 'seed': 'BIGINT', 'actions': 'INTEGER', "
    "'scores': 'INTEGER[]', 'winners': 'INTEGER[]', 'tie': 'BOOLEAN', "
    "'events': 'MAP(VARCHAR, INTEGER)', 'probes': 'INTEGER', "
    "'refusals': 'MAP(VARCHAR, INTEGER)'}"
)


def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError:
        raise ArgumentError(
            "studies need the 'study' extra: pip install 'castlerules[study]'"
        ) from None
    return duckdb


class Store:
    """An open study file."""

    def __init__(self, path: Path, connection: Any, study: Study, engine_version: str) -> None:
        self.path = path
        self.connection = connection
        self.study = study
        self.engine_version = engine_version
        """The castlerules version that played the file's games."""

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def done(self) -> set[tuple[str, int]]:
        """The ``(reading, game)`` pairs already played."""
        rows = self.connection.execute("SELECT reading, game FROM games").fetchall()
        return {(str(r), int(g)) for r, g in rows}

    def add_readings(self, readings: Sequence[Reading]) -> None:
        """Record readings not in the file yet (one transaction)."""
        known = {r.name for r in self.study.readings}
        new = [r for r in readings if r.name not in known]
        if not new:
            return
        con = self.connection
        con.begin()
        start = len(self.study.readings)
        for position, reading in enumerate(new, start):
            _insert_reading(con, position, reading)
        con.commit()
        self.study = Study(
            self.study.game,
            self.study.players,
            self.study.bots,
            (*self.study.readings, *new),
            self.study.seed,
        )

    def add_games(self, lines: Sequence[str]) -> None:
        """Add one batch of games (JSON lines of rows), in one transaction."""
        if not lines:
            return
        handle, name = tempfile.mkstemp(suffix=".jsonl", prefix="castlerules-study-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
            con = self.connection
            con.begin()
            try:
                con.execute(
                    "INSERT INTO games SELECT reading, game, seed, actions, scores, winners, "
                    "tie, events, probes, refusals FROM read_json(?, format='newline_delimited', "
                    f"columns={_COLUMNS})",
                    [name],
                )
            except BaseException:
                con.rollback()
                raise
            con.commit()
        finally:
            with contextlib.suppress(OSError):
                os.unlink(name)

    def rows(self) -> list[dict[str, Any]]:
        """Every game, as dictionaries, ordered by reading position and game."""
        cur = self.connection.execute(
            "SELECT g.reading, g.game, g.seed, g.actions, g.scores, g.winners, g.tie, "
            "g.events, g.probes, g.refusals FROM games g JOIN readings r ON g.reading = r.name "
            "ORDER BY r.position, g.game"
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _insert_reading(con: Any, position: int, reading: Reading) -> None:
    con.execute(
        "INSERT INTO readings VALUES (?, ?, ?, ?, ?)",
        [
            reading.name,
            position,
            reading.preset,
            json.dumps(reading.data()["options"]),
            reading.text(),
        ],
    )


def create(path: Path, study: Study) -> Store:
    """A new study file at ``path`` (written to a temporary name, then renamed)."""
    duckdb = _duckdb()
    path = Path(path)
    if not path.parent.is_dir():
        raise ArgumentError(f"cannot create the study file {str(path)!r}: no such directory")
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        con = duckdb.connect(str(temp))
        try:
            con.execute(SCHEMA)
            meta = {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "castlerules_version": castlerules.__version__,
                "game": study.game,
                "players": str(study.players),
                "bots": json.dumps(list(study.bots)),
                "seed": str(study.seed),
            }
            con.executemany("INSERT INTO study_meta VALUES (?, ?)", list(meta.items()))
            for position, reading in enumerate(study.readings):
                _insert_reading(con, position, reading)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(temp, path)
    except OSError as err:
        raise ArgumentError(f"cannot create the study file {str(path)!r}: {err.strerror}") from None
    finally:
        for leftover in (temp, Path(f"{temp}.wal")):
            with contextlib.suppress(OSError):
                leftover.unlink()
    return open_store(path, writable=True)


def open_store(path: Path, *, writable: bool = False) -> Store:
    """Open an existing study file; a file that is not one of this version is refused."""
    duckdb = _duckdb()
    path = Path(path)
    where = str(path)
    if not path.is_file():
        raise ArgumentError(f"no study file {where!r}")
    try:
        con = duckdb.connect(where, read_only=not writable)
    except duckdb.Error as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        if "lock" in first.lower():
            raise ArgumentError(f"{where!r} is in use by another process") from None
        raise ArgumentError(f"{where!r} is not a study file ({first})") from None
    try:
        meta = dict(con.execute("SELECT key, value FROM study_meta").fetchall())
    except duckdb.Error:
        con.close()
        raise ArgumentError(f"{where!r} is not a castlerules study file") from None
    if meta.get("format") != FORMAT:
        con.close()
        raise ArgumentError(f"{where!r} is not a castlerules study file")
    version = meta.get("format_version")
    if version != FORMAT_VERSION:
        con.close()
        raise ArgumentError(
            f"{where!r} is a study file of format version {version}; this castlerules "
            f"({castlerules.__version__}) reads version {FORMAT_VERSION}"
        )
    module = game_module(meta["game"])
    readings = tuple(
        Reading.from_data(module, {"name": n, "preset": p, "options": json.loads(o)})
        for n, p, o in con.execute(
            "SELECT name, preset, options FROM readings ORDER BY position"
        ).fetchall()
    )
    study = Study(
        game=meta["game"],
        players=int(meta["players"]),
        bots=tuple(json.loads(meta["bots"])),
        readings=readings,
        seed=int(meta["seed"]),
    )
    return Store(path, con, study, meta.get("castlerules_version", ""))


@contextlib.contextmanager
def opened(path: Path, *, writable: bool = False) -> Iterator[Store]:
    """:func:`open_store` as a context manager."""
    store = open_store(path, writable=writable)
    try:
        yield store
    finally:
        store.close()
