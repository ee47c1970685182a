"""An engine under test as a child process, spoken to over its standard input and output.

:class:`ProcessChannel` starts the engine in a process group of its own, writes
one request line at a time and reads its answer with a deadline
(:attr:`ProcessChannel.timeout` per request) and a size limit
(:data:`~castlerules.conform.wire.MAX_LINE_BYTES`), so that an engine that hangs,
crashes, floods its output or writes garbage is a report, never a hang of the kit.
The engine's standard error is read all along by a thread that keeps its last
lines (bounded), for the report.  :meth:`ProcessChannel.close` asks the engine
to quit, then ends its whole process group: no process outlives the check.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from castlerules.conform.wire import MAX_LINE_BYTES, Answer, EngineFault, decode, encode, shorten
from castlerules.core import ArgumentError

__all__ = ["STDERR_LINES", "ProcessChannel"]

STDERR_LINES = 12
"""How many of the engine's last standard-error lines a report quotes."""

_STDERR_KEEP = 64 * 1024
"""The bytes of standard error kept (the last ones), however much the engine writes."""

_QUIT_GRACE = 0.5
"""Seconds an engine has to exit after ``quit`` before its process group is ended."""


class _StderrTail:
    """A thread that reads a pipe to its end and keeps its last bytes."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._data = bytearray()
        self._total = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="conform-stderr", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                chunk = os.read(self._fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._total += len(chunk)
                self._data += chunk
                if len(self._data) > _STDERR_KEEP:
                    del self._data[: len(self._data) - _STDERR_KEEP]

    def settle(self, most: float = 0.5) -> None:
        """Wait until the engine's standard error has been quiet for a moment (at most
        ``most`` seconds): its last words, written just before a fault, are then read."""
        deadline = time.monotonic() + most
        size = -1
        while time.monotonic() < deadline and self._thread.is_alive():
            with self._lock:
                now = self._total
            if now == size:
                return
            size = now
            time.sleep(0.05)

    def lines(self, count: int = STDERR_LINES) -> tuple[str, ...]:
        with self._lock:
            text = bytes(self._data).decode("utf-8", "backslashreplace")
        rows = [shorten(row.rstrip("\r"), 200) for row in text.splitlines() if row.strip()]
        return tuple(rows[-count:])

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


class ProcessChannel:
    """The engine ``command`` as a child process; :meth:`ask` one request at a time.

    ``timeout`` is the longest wait, in seconds, for each answer.  A command that
    cannot be started (no such program, not executable) is an
    :class:`~castlerules.core.ArgumentError` (bad input to the kit); everything
    the engine does wrong once started is an :class:`EngineFault`.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        timeout: float = 5.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if not command:
            raise ArgumentError("no engine command given: put it after '--'")
        self.command = tuple(command)
        self.timeout = timeout
        self.name = shlex.join(self.command)
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group: close() ends it whole
                env=None if env is None else dict(env),
                bufsize=0,
            )
        except (OSError, ValueError) as err:
            what = getattr(err, "strerror", None) or str(err)
            raise ArgumentError(
                f"cannot start the engine {shorten(self.name, 120)!r}: {what}"
            ) from None
        assert self._process.stdin and self._process.stdout and self._process.stderr
        self._stdin = self._process.stdin
        self._stdout_fd = self._process.stdout.fileno()
        os.set_blocking(self._stdout_fd, False)
        self._stderr = _StderrTail(self._process.stderr.fileno())
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout_fd, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._closed = False
        self._eof = False
        self.seconds_waiting = 0.0
        """Seconds from writing each request to reading its answer: the engine's share of a
        check's time (its work and the pipe's)."""

    @property
    def pid(self) -> int:
        """The engine's process id (its process group's too)."""
        return self._process.pid

    def stderr_tail(self) -> tuple[str, ...]:
        """The engine's last lines of standard error (once they have stopped coming)."""
        self._stderr.settle()
        return self._stderr.lines()

    def _exited(self) -> str:
        code = self._process.poll()
        if code is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._process.wait(0.2)
        if code is None:
            return "closed its standard output"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"was killed by {name}"
        return f"exited with status {code}"

    def ask(self, request: Mapping[str, Any]) -> Answer:
        """Send ``request`` and return its answer line, decoded (not yet checked)."""
        if self._closed:
            raise EngineFault("crash", "the engine was closed", request)
        started = time.monotonic()
        try:
            self._stdin.write(encode(request))
            self._stdin.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            raise self._fault(
                "crash",
                f"{self._exited()} before reading request {request['id']} ({request['op']})",
                request,
            ) from None
        try:
            line = self._read_line(request, started + self.timeout)
        finally:
            self.seconds_waiting += time.monotonic() - started
        return decode(line, request)

    def _fault(self, kind: str, reason: str, request: Mapping[str, Any] | None) -> EngineFault:
        return EngineFault(kind, reason, request, None, self.stderr_tail())

    def _read_line(self, request: Mapping[str, Any], deadline: float) -> bytes:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > MAX_LINE_BYTES:
                fault = self._fault(
                    "too-long",
                    f"answered {request['op']} with a line longer than "
                    f"{MAX_LINE_BYTES // 1024} KiB (the kit stopped reading it)",
                    request,
                )
                shown = bytes(self._buffer[:200]).decode("utf-8", "backslashreplace")
                raise EngineFault(
                    fault.kind, fault.reason, request, shorten(shown, 100), fault.stderr
                )
            if self._eof:
                raise self._eof_fault(request)
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fault(
                    "timeout",
                    f"gave no answer to request {request['id']} ({request['op']}) within "
                    f"{self.timeout:g} s",
                    request,
                )
            if not self._selector.select(left):
                continue
            try:
                chunk = os.read(self._stdout_fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._eof = True
            else:
                self._buffer += chunk

    def _eof_fault(self, request: Mapping[str, Any]) -> EngineFault:
        fault = self._fault(
            "crash",
            f"{self._exited()} without answering request {request['id']} ({request['op']})",
            request,
        )
        if self._buffer:
            shown = bytes(self._buffer).decode("utf-8", "backslashreplace")
            return EngineFault(
                "crash",
                fault.reason + " (its last output had no end of line)",
                request,
                shorten(shown),
                fault.stderr,
            )
        return fault

    def close(self) -> None:
        """Ask the engine to quit, then end its process group (always; idempotent)."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        with contextlib.suppress(OSError, ValueError):
            if process.poll() is None:
                self._stdin.write(encode({"id": 0, "op": "quit"}))
                self._stdin.flush()
        with contextlib.suppress(OSError, ValueError):
            self._stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(_QUIT_GRACE)
        # The whole group, even after a clean quit: helpers the engine started go too.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            if sig == signal.SIGTERM:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(0.3)
                time.sleep(0.05)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2.0)
        self._selector.close()
        self._stderr.join(1.0)
        for stream in (process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()

    def __enter__(self) -> ProcessChannel:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
