"""``castlerules study``: a study and its report from the command line, errors in one line.

The exit statuses on a real process (``run_cli``: ``python -m castlerules``): a study
and its report (0, the progress bar on a pipe), a report or a study refused because
the page exists (2), a bad reading (2, one line), a study on a Dask scheduler, the
compile cache kept between two processes (and a folder that cannot be made: 2).  The
other command lines are asked of :func:`castlerules.cli.main` in this process
(``run_main``), with the same standard streams and environment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Cli = Callable[..., Any]
SHORT = ["-o", "characters=7", "-o", "objective_size=3", "-o", "rounds=1", "-o", "bonus_rounds=[]"]
STUDY = [
    "study",
    "throne",
    "--players",
    "3",
    "--bots",
    "random",
    "--reading",
    "SEED",
    "--reading",
    "floors: placement_floors=2,3,4,5",
    *SHORT,
]


def table(path: Path) -> list[tuple[Any, ...]]:
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        return list(con.execute("SELECT * FROM games ORDER BY reading, game").fetchall())
    finally:
        con.close()


def test_a_study_and_its_report(run_cli: Cli, run_main: Cli, tmp_path: Path) -> None:
    done = run_cli(*STUDY, "--games", "6", "--workers", "0", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "study-throne-3.duckdb: 12 games played" in done.stdout
    assert "game/s" in done.stderr  # the progress bar
    assert (tmp_path / "study-throne-3.html").is_file()
    assert len(table(tmp_path / "study-throne-3.duckdb")) == 12
    done = run_main("study", "report", "study-throne-3.duckdb", "--out", "page.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Winner-change rate" in (tmp_path / "page.html").read_text()
    # A report that exists is refused before any game is played (the study file is
    # extended, never replaced); --force replaces it.
    (tmp_path / "page.html").write_text("PRECIOUS")
    done = run_cli("study", "report", "study-throne-3.duckdb", "--out", "page.html", cwd=tmp_path)
    assert done.returncode == 2 and "exists already: nothing was written" in done.stderr
    assert (tmp_path / "page.html").read_text() == "PRECIOUS"
    done = run_main(*STUDY, "--games", "8", "--workers", "0", cwd=tmp_path)
    assert done.returncode == 2 and "study-throne-3.html' exists already" in done.stderr
    assert len(table(tmp_path / "study-throne-3.duckdb")) == 12
    done = run_main(*STUDY, "--games", "8", "--workers", "0", "--force", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(table(tmp_path / "study-throne-3.duckdb")) == 16


def test_scheduler_on_loopback(run_cli: Cli, run_main: Cli, tmp_path: Path) -> None:
    """--scheduler: the games run on a Dask cluster started here, on 127.0.0.1, and the
    file is the one a run in this process writes."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        host="127.0.0.1",
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        args = [*STUDY, "--games", "5", "--no-report", "--quiet"]
        done = run_cli(*args, "--scheduler", address, "--out", "remote.duckdb", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 Dask workers" in done.stdout
    local = run_main(*args, "--workers", "0", "--out", "local.duckdb", cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    assert table(tmp_path / "remote.duckdb") == table(tmp_path / "local.duckdb")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--reading", "SEED", "--reading", "SEED + colour=red"], "unknown option 'colour'"),
        (["--reading", "SEED", "--reading", "NOPE"], "unknown preset 'NOPE'"),
        (["--reading", "SEED"], "two or more readings"),
        (["--reading", "SEED", "--reading", "ORIGINAL", "--bots", "clever"], "unknown bot"),
        (["--reading", "SEED", "--reading", "ORIGINAL", "--bot", "7=random"], "seats are 0..3"),
        (
            ["--reading", "SEED", "--reading", "ORIGINAL", "--scheduler", "tcp://127.0.0.1:9"],
            "cannot reach the Dask scheduler",
        ),
    ],
)
def test_bad_input(
    run_cli: Cli, run_main: Cli, failure: Any, tmp_path: Path, args: list[str], message: str
) -> None:
    # On a real process for the first case (status 2, one line on stderr); in this
    # process for the others.
    run = run_cli if message == "unknown option 'colour'" else run_main
    done = run("study", "throne", "--players", "4", "--games", "3", *args, cwd=tmp_path)
    assert message in failure(done)
    assert list(tmp_path.iterdir()) == []


def test_bad_counts_and_files(run_main: Cli, failure: Any, tmp_path: Path) -> None:
    two = ["--reading", "SEED", "--reading", "ORIGINAL"]
    assert "players must be" in failure(
        run_main("study", "throne", "--players", "8", "--games", "3", *two, cwd=tmp_path)
    )
    assert "--games must be" in failure(
        run_main("study", "throne", "--players", "4", "--games", "0", *two, cwd=tmp_path)
    )
    assert "unknown game" in failure(
        run_main("study", "chess", "--players", "4", "--games", "3", *two, cwd=tmp_path)
    )
    assert "no study file" in failure(run_main("study", "report", "missing.duckdb", cwd=tmp_path))
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "old.duckdb").write_bytes(b"\x00" * 64)
    assert "not a study file" in failure(run_main("study", "report", "old.duckdb", cwd=tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.duckdb"]


def test_a_study_file_of_another_version(run_main: Cli, failure: Any, tmp_path: Path) -> None:
    import duckdb

    done = run_main(
        *STUDY, "--games", "2", "--workers", "0", "--no-report", "--quiet", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    path = tmp_path / "study-throne-3.duckdb"
    con = duckdb.connect(str(path))
    con.execute("UPDATE study_meta SET value = '0' WHERE key = 'format_version'")
    con.close()
    before = path.read_bytes()
    assert "format version 0" in failure(
        run_main(*STUDY, "--games", "4", "--workers", "0", cwd=tmp_path)
    )
    assert "format version 0" in failure(run_main("study", "report", path.name, cwd=tmp_path))
    assert path.read_bytes() == before
    assert not (tmp_path / "study-throne-3.html").exists()


def test_play_with_the_montecarlo_bot(run_main: Cli, tmp_path: Path) -> None:
    args = ["play", "throne", "--players", "3", "--seed", "2", "--no-save", *SHORT]
    bots = ["--bot", "0=montecarlo", "--bot", "1=greedy", "--bot", "2=random"]
    done = run_main(*args, *bots, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "The game is over." in done.stdout


def test_compile_cache_keeps_the_batch_loop(
    run_cli: Cli, failure: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--compile-cache DIR: the batch's compiled loop is written there (JAX's persistent
    cache; this small study's loop compiles in under a second, which JAX's default
    threshold would leave out: castlerules.batch.MIN_COMPILE_SECONDS), and a later run
    with the same folder plays the same rows; a folder that cannot be made is one line
    and status 2, before any game.  The command compiles at XLA's full effort, as a
    user's does (at the tests' lowest effort, tests/conftest.py, the loop may compile in
    less time than the threshold)."""
    pytest.importorskip("jax")
    # run_cli's processes take the environment of its module (tests/cli/conftest.py).
    monkeypatch.setitem(run_cli.__globals__["ENV"], "JAX_DISABLE_MOST_OPTIMIZATIONS", "0")
    cache = tmp_path / "cache"
    args = [*STUDY, "--games", "3", "--workers", "0", "--engine", "batch", "--no-report"]
    done = run_cli(*args, "--out", "a.duckdb", "--compile-cache", str(cache), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    kept = [p.name for p in cache.iterdir()]
    assert any(name.startswith("jit_run") for name in kept), kept
    done = run_cli(*args, "--out", "b.duckdb", "--compile-cache", str(cache), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert table(tmp_path / "a.duckdb") == table(tmp_path / "b.duckdb")
    (tmp_path / "file").write_text("")
    line = failure(run_cli(*args, "--compile-cache", str(tmp_path / "file" / "x"), cwd=tmp_path))
    assert "compile cache" in line and not (tmp_path / "study-throne-3.duckdb").exists()


def test_compile_cache_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: Any) -> None:
    """Which folder a study's compiled loops go to: the user's own JAX variable stands,
    then $CASTLERULES_COMPILE_CACHE ('off' turns it off), then the user's cache folder;
    a default folder that cannot be made is a warning, not an error."""
    pytest.importorskip("numpy")
    from castlerules import batch, throne
    from castlerules.cli.study import _compile_cache
    from castlerules.study.games import Study, parse_reading

    study = Study("throne", 3, ("random",) * 3, (parse_reading(throne, "SEED"),))
    seen: list[Any] = []
    monkeypatch.setattr(batch, "compile_cache", seen.append)
    monkeypatch.setenv("JAX_COMPILATION_CACHE_DIR", str(tmp_path / "own"))
    _compile_cache(None, "auto", study)
    assert seen == []
    _compile_cache(str(tmp_path / "given"), "auto", study)
    _compile_cache(str(tmp_path / "given"), "scalar", study)  # the engine: no batch
    assert seen == [str(tmp_path / "given")]
    monkeypatch.delenv("JAX_COMPILATION_CACHE_DIR")
    monkeypatch.setenv("CASTLERULES_COMPILE_CACHE", "off")
    _compile_cache(None, "auto", study)
    assert len(seen) == 1
    monkeypatch.delenv("CASTLERULES_COMPILE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    _compile_cache(None, "auto", study)
    assert seen[-1] == tmp_path / "xdg" / "castlerules" / "jax"
    assert batch.default_cache() == tmp_path / "xdg" / "castlerules" / "jax"
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    monkeypatch.delenv("JAX_COMPILATION_CACHE_DIR", raising=False)
    monkeypatch.delenv("CASTLERULES_COMPILE_CACHE", raising=False)
    (tmp_path / "file").write_text("")
    _compile_cache(None, "auto", study)
    assert "the batch compiles every run" in capsys.readouterr().err
