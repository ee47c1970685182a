"""Drive the ``castlerules`` command as a user would: a subprocess, or a pseudo-terminal.

The helpers are given to the tests as fixtures (the test modules cannot
import this file under ``--import-mode=importlib``).  ``cli(*args, stdin=...)``
runs ``python -m castlerules ARGS`` and returns the completed process;
``cli_in_process(*args, stdin=...)`` runs the same command line through
:func:`castlerules.cli.main` in the test's process (no interpreter to start) and
returns the same three fields, for the tests that are about what a command says,
not about the process boundary (each command's exit statuses are still checked
on a real process by some of its tests).
``Terminal`` runs it on a pseudo-terminal (:func:`os.openpty`), so that the
program sees a real terminal: ``expect`` waits for a regular expression in
what it writes, ``send`` types a line.  ``find_move`` plays seeded random
games through the public API until a move does what a test wants (legal,
with an event of some clause), so that the tests do not depend on
hand-written positions."""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from castlerules import ascent, throne
from castlerules.core import Rng

GAMES: dict[str, Any] = {"throne": throne, "ascent": ascent}
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
ENV.pop("CASTLERULES_DEBUG", None)
ENV.pop("JAX_COMPILATION_CACHE_DIR", None)
ENV["CASTLERULES_COMPILE_CACHE"] = "off"  # a study's compiled loops: not in the user's cache


def cli(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None) -> Any:
    """Run ``python -m castlerules ARGS``; the result has ``returncode``, ``stdout``, ``stderr``."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "castlerules", *args],
        input=data if data is not None else b"",
        capture_output=True,
        env=ENV,
        cwd=cwd,
        timeout=60,
        check=False,
    )
    done.stdout = done.stdout.decode("utf-8")
    done.stderr = done.stderr.decode("utf-8")
    return done


@attrs.frozen
class Done:
    """What :func:`cli_in_process` gives: the fields of a completed process."""

    returncode: int
    stdout: str
    stderr: str


def cli_in_process(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None) -> Done:
    """``castlerules ARGS`` run by :func:`castlerules.cli.main` in this process, as
    :func:`cli` runs it in a new one: the environment of :data:`ENV` (for the call),
    ``cwd`` as the working directory, standard input the bytes of ``stdin`` (empty
    without it), standard output and error caught as UTF-8 text; argparse's exits
    (``SystemExit``) give their status, as the process would.  Any other exception
    propagates: the test fails, as a traceback on a process's stderr fails it."""
    from castlerules.cli import main

    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    out, err = io.BytesIO(), io.BytesIO()
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    # Kept in names of their own: a wrapper that is collected closes its buffer.
    streams = (
        io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        os.environ.clear()
        os.environ.update(ENV)
        if cwd is not None:
            os.chdir(cwd)
        try:
            status = main(list(args))
        except SystemExit as done:  # argparse: --help, or a usage error
            code = done.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
        for stream in streams[1:]:
            with contextlib.suppress(ValueError):  # a stream the command closed
                stream.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return Done(status, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8"))


def one_line_error(done: Any, status: int = 2) -> str:
    """Assert the process failed with ``status``, one line on stderr, no traceback."""
    assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("castlerules")
    return lines[0]


class Terminal:
    """``castlerules ARGS`` on a pseudo-terminal, read and written like a person would."""

    def __init__(self, *args: str, cwd: Path, timeout: float = 30.0) -> None:
        master, slave = os.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "castlerules", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env={**ENV, "TERM": "xterm"},
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.fd = master
        self.timeout = timeout
        self.output = ""
        self.pos = 0

    def _read(self, deadline: float) -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([self.fd], [], [], min(left, 0.5))
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the program closed the terminal
            chunk = b""
        if not chunk:
            return self.proc.poll() is None
        self.output += chunk.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return True

    def expect(self, pattern: str) -> re.Match[str]:
        """Wait until ``pattern`` appears after the last match; move past it."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + self.timeout
        while True:
            found = regex.search(self.output, self.pos)
            if found:
                self.pos = found.end()
                return found
            if not self._read(deadline):
                found = regex.search(self.output, self.pos)
                if found:
                    self.pos = found.end()
                    return found
                raise AssertionError(
                    f"{pattern!r} not found; output after the last match:\n"
                    f"{self.output[self.pos :][-3000:]}"
                )

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.fd, (line + "\n").encode())

    def since(self, start: int) -> str:
        """The output from offset ``start`` to the last match."""
        return self.output[start : self.pos]

    def wait(self) -> int:
        """Read to the end; the exit status."""
        deadline = time.monotonic() + self.timeout
        while self._read(deadline):
            if self.proc.poll() is not None:
                while self._read(time.monotonic() + 0.2):
                    pass
                break
        return self.proc.wait(timeout=self.timeout)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    """Start ``castlerules ARGS`` on a pseudo-terminal in a temporary directory."""
    opened: list[Terminal] = []

    def start(*args: str) -> Terminal:
        term = Terminal(*args, cwd=tmp_path)
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


def find_move(
    game: str,
    players: int,
    wanted: Callable[[Any, Any, Any], bool],
    *,
    rules: Any = None,
    seeds: range = range(200),
) -> tuple[Any, Any, Any]:
    """``(state, move, after)`` of the first move of seeded random games with ``wanted``."""
    module = GAMES[game]
    for seed in seeds:
        state = module.new_game(players, rules=rules, seed=seed)
        rng = Rng.from_seed(seed, "tests.cli")
        while not module.is_over(state):
            move, rng = rng.choice(module.legal_moves(state))
            after = module.apply(state, move)
            if wanted(state, move, after):
                return state, move, after
            state = after
    raise AssertionError(f"no {game} move found as wanted")


def has_event(module: Any, clause: str, word: str = "") -> Callable[[Any, Any, Any], bool]:
    """A ``find_move`` test: the move has an event of ``clause`` whose text holds ``word``."""

    def test(before: Any, move: Any, after: Any) -> bool:
        return any(
            e.clause == clause and word in e.text for e in module.describe(before, move, after)
        )

    return test


@pytest.fixture(scope="session")
def run_cli() -> Callable[..., Any]:
    """The :func:`cli` runner."""
    return cli


@pytest.fixture(scope="session")
def run_main() -> Callable[..., Any]:
    """The :func:`cli_in_process` runner."""
    return cli_in_process


@pytest.fixture(scope="session")
def failure() -> Callable[..., str]:
    """The :func:`one_line_error` check."""
    return one_line_error


@pytest.fixture(scope="session")
def scenario() -> Callable[..., tuple[Any, Any, Any]]:
    """Find a move: ``scenario(game, players, clause, word="", rules=None, also=None)``.

    ``also(before, move, after)``, if given, is a further condition on the move.
    """

    def find(
        game: str,
        players: int,
        clause: str,
        word: str = "",
        *,
        rules: Any = None,
        also: Callable[[Any, Any, Any], bool] | None = None,
    ) -> tuple[Any, Any, Any]:
        event = has_event(GAMES[game], clause, word)

        def wanted(before: Any, move: Any, after: Any) -> bool:
            return event(before, move, after) and (also is None or also(before, move, after))

        return find_move(game, players, wanted, rules=rules)

    return find
