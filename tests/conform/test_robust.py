"""The kit against engines that misbehave: each fault is a clear report, never a hang,
a traceback or a process left behind (the folder's conftest checks the last).

Each test starts an engine that plays correctly until one request, then
crashes, hangs, floods, answers garbage or a wrong id, lists a move twice or
a word that is no move, talks before hello, or refuses to die; the report
must name the request, what came back, the fault, and the engine's last
standard-error lines, within a few seconds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from castlerules.conform import ProcessChannel, ReferenceEngine, check
from castlerules.conform.wire import EngineFault
from castlerules.core import ArgumentError

QUICK = {"games": 1, "seconds": 1, "shrink_seconds": 1, "phases": ["casebook"]}


def run(command: list[str], **kw: Any) -> Any:
    started = time.monotonic()
    report = check("throne", command, timeout=kw.pop("timeout", 2.0), **{**QUICK, **kw})
    return report, time.monotonic() - started


def fault_of(report: Any) -> Any:
    assert not report.agree
    found = report.disagreement
    assert found is not None and found.kind == "protocol", found
    return found


@pytest.mark.parametrize(
    ("fault", "at", "says", "came_back"),
    [
        ("crash", "legal", "exited with status 3 without answering request", None),
        ("hang", "legal", "gave no answer to request", None),
        ("wrong-id", "status", "every answer repeats its request's id", '"id"'),
        ("garbage", "legal", "not JSON", "moves: A1 A2 A3"),
        ("binary", "play", "not UTF-8", "\\xff"),
        ("huge", "legal", "longer than 1024 KiB", "xxxxxxxx"),
        ("duplicates", "legal", "twice: the legal moves have no duplicates", '"moves"'),
        ("unknown-move", "legal", "'teleport', which is not a move", '"moves"'),
        ("close-stdout", "status", "without answering request", None),
        ("error", "legal", "an error: internal error: out of cheese", "out of cheese"),
        ("extra-line", "status", "every answer repeats its request's id", '"id"'),
    ],
)
def test_a_fault_is_a_report_with_the_request_and_the_last_stderr_lines(
    bad_engine: Callable[..., list[str]],
    fault: str,
    at: str,
    says: str,
    came_back: str | None,
) -> None:
    # 3 s an answer: room for the engine's Python to start on a loaded machine before it
    # answers hello (at 1 s, four of these failed under a load average of 7).
    report, seconds = run(bad_engine(fault, at), timeout=3.0)
    found = fault_of(report)
    assert says in found.engine, found.engine
    assert found.request is not None
    if fault != "extra-line":  # the second answer is read as the next request's
        assert found.request["op"] == at
    if came_back is None:
        assert found.answer is None
    else:
        assert found.answer is not None and came_back in found.answer
        assert len(found.answer) < 400  # quoted, not pasted whole
    assert any("last words 29" in line for line in found.stderr), found.stderr
    assert len(found.stderr) <= 12
    assert seconds < 15, f"{fault}: {seconds:.1f} s"
    text = report.text()
    assert "BROKE THE PROTOCOL" in text and "request:" in text and "| bad engine" in text
    data = report.data()
    assert data["agree"] is False and data["disagreement"]["kind"] == "protocol"
    assert data["disagreement"]["request"]["op"] == found.request["op"]


def test_output_before_hello_is_named(bad_engine: Callable[..., list[str]]) -> None:
    report, _ = run(bad_engine("banner"))
    found = fault_of(report)
    assert found.source == "hello"
    assert "first line the engine wrote is not its answer to hello" in found.engine
    assert found.answer == "bad engine 0.1 ready, waiting for requests"
    assert "before any game" in report.text()


def test_a_crash_at_hello_and_no_answer_at_all(bad_engine: Callable[..., list[str]]) -> None:
    report, _ = run(bad_engine("crash", "hello"))
    assert "without answering request 1 (hello)" in fault_of(report).engine
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    report, seconds = run(silent, timeout=0.5)
    assert "gave no answer to request 1 (hello) within 0.5 s" in fault_of(report).engine
    assert seconds < 10


def test_an_engine_that_ignores_quit_and_sigterm_is_ended(
    bad_engine: Callable[..., list[str]], no_process_left: str
) -> None:
    report, seconds = run(bad_engine("ignore-quit", "nothing"))
    assert report.agree, report.text()
    assert seconds < 20


def test_the_engines_helper_processes_are_ended_too(bad_engine: Callable[..., list[str]]) -> None:
    report, _ = run(bad_engine("grandchild", "nothing"))
    assert report.agree  # and the conftest checks that its 'sleep 600' is gone


def test_a_command_that_cannot_start_is_bad_input() -> None:
    with pytest.raises(ArgumentError, match="cannot start the engine"):
        check("throne", ["/nonexistent/engine"], **QUICK)
    with pytest.raises(ArgumentError, match="no engine command"):
        ProcessChannel([])


def test_an_in_process_engine_that_raises_gets_its_traceback_in_the_report() -> None:
    class Broken(ReferenceEngine):
        def legal(self) -> Sequence[str]:
            raise ZeroDivisionError("divided by the number of kings")

    report = check("throne", Broken(), **QUICK)
    found = fault_of(report)
    assert "raised ZeroDivisionError on request" in found.engine
    assert any("divided by the number of kings" in line for line in found.stderr)


def test_an_in_process_engine_with_answers_of_the_wrong_type() -> None:
    class Sloppy(ReferenceEngine):
        def status(self) -> Mapping[str, Any]:
            return {**super().status(), "over": "no"}

    found = fault_of(check("throne", Sloppy(), **QUICK))
    assert "without over (true or false), with a string" in found.engine


def test_the_kit_killed_by_sigterm_ends_its_engine(
    bad_engine: Callable[..., list[str]],
    no_process_left: str,
    find_tagged: Callable[[str], list[int]],
) -> None:
    """The check is stopped from outside (SIGTERM) while the engine hangs: the kit exits
    with 130, in one line, and takes its engine with it."""
    kit = subprocess.Popen(
        [sys.executable, "-m", "castlerules", "conform", "throne", "--timeout", "60",
         "--quiet", "--", *bad_engine("hang", "legal")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if [pid for pid in find_tagged(no_process_left) if pid != kit.pid]:
                break
            time.sleep(0.1)
        time.sleep(2.0)  # the engine starts, answers hello, start and status, then hangs
        kit.send_signal(signal.SIGTERM)
        out, err = kit.communicate(timeout=20)
    finally:
        if kit.poll() is None:
            kit.kill()
            kit.wait()
    assert kit.returncode == 130, (out, err)
    assert "Traceback" not in err
    assert err.strip().endswith("castlerules conform: interrupted")


def test_an_engine_that_only_writes_stderr_forever_is_bounded(tmp_path: Any) -> None:
    """Megabytes on standard error: the kit keeps the last lines only, and goes on."""
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import sys, json\n"
        "sys.stderr.write('noise ' * 2_000_000 + '\\n')\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['op'] == 'quit': break\n"
        "    sys.stdout.write(json.dumps({'id': r['id'], 'name': 'noisy', 'games': [],"
        " 'protocol': 1}) + '\\n'); sys.stdout.flush()\n",
        encoding="utf-8",
    )
    report, _ = run([sys.executable, str(noisy)])
    assert report.disagreement is not None and report.disagreement.kind == "start"
    assert "plays no game" in report.disagreement.engine


def test_faults_are_typed() -> None:
    fault = EngineFault("timeout", "gave no answer", {"id": 1, "op": "hello"})
    assert str(fault) == "gave no answer"
    assert fault.with_stderr(["x"]).stderr == ("x",)
    assert os.environ.get("CASTLERULES_CONFORM_TAG")


@pytest.mark.parametrize("as_json", [False, True])
def test_an_engines_escape_sequences_are_not_printed_raw(
    bad_engine: Callable[..., list[str]], as_json: bool
) -> None:
    """An engine's name, error and answers may hold terminal escapes or lone surrogates:
    the report writes them as escapes (the text) or in ASCII JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "castlerules", "conform", "throne",
         *(["--json"] if as_json else []), "--", *bad_engine("escapes", "legal")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    for text in (done.stdout, done.stderr):
        assert all(ch == "\n" or ch.isprintable() for ch in text), text[-300:]
    if as_json:
        data = json.loads(done.stdout)
        assert data["engine"]["name"] == "bad engine 0.1\x1b[31m\ud800"
        assert done.stdout.isascii()
    else:
        assert "\\x1b[2J\\ud800 boom" in done.stdout
