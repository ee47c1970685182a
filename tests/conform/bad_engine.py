"""An engine that misbehaves on purpose, for the kit's robustness tests.

It plays correctly (castlerules' own reference, in-process) until the request
named by ``--at OP`` (its first one, or its N-th with ``OP:N``), then does
what ``--fault`` says.  ``--fault none`` is a correct engine.

    python bad_engine.py --fault hang --at legal
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

from castlerules.conform import ReferenceEngine

FAULTS = (
    "none",
    "crash",
    "hang",
    "wrong-id",
    "garbage",
    "binary",
    "huge",
    "duplicates",
    "unknown-move",
    "banner",
    "close-stdout",
    "grandchild",
    "ignore-quit",
    "error",
    "extra-line",
    "escapes",
)


def main() -> int:
    args = sys.argv[1:]
    fault, at = "none", "legal"
    while args:
        flag = args.pop(0)
        if flag == "--fault":
            fault = args.pop(0)
        elif flag == "--at":
            at = args.pop(0)
    assert fault in FAULTS, fault
    op, _, nth = at.partition(":")
    wanted = int(nth or 1)
    engine = ReferenceEngine()
    out = sys.stdout
    if fault == "banner":
        out.write("bad engine 0.1 ready, waiting for requests\n")
        out.flush()
    if fault == "grandchild":
        # A helper process of the engine's own, which must not outlive the check.
        subprocess.Popen(["sleep", "600"])
    if fault == "ignore-quit":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    seen = 0
    for number, line in enumerate(sys.stdin):
        request = json.loads(line)
        if request.get("op") == "quit" and fault != "ignore-quit":
            return 0
        if request.get("op") == op:
            seen += 1
        answer = _answer(engine, request)
        if seen == wanted and request.get("op") == op:
            seen += 1  # once
            print(f"bad engine: the {fault} fault, on request {number + 1}", file=sys.stderr)
            for k in range(30):
                print(f"bad engine: last words {k}", file=sys.stderr)
            sys.stderr.flush()
            if fault == "crash":
                return 3
            if fault == "hang":
                time.sleep(3600)
            if fault == "wrong-id":
                answer["id"] = answer["id"] + 1
            if fault == "garbage":
                out.write("moves: A1 A2 A3\n")
                out.flush()
                continue
            if fault == "binary":
                sys.stdout.buffer.write(b"\xff\xfe{}\n")
                sys.stdout.buffer.flush()
                continue
            if fault == "huge":
                chunk = b"x" * (1 << 20)
                for _ in range(100):  # 100 MB, and no end of line
                    sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
                time.sleep(3600)
            if fault == "duplicates":
                answer["moves"] = [answer["moves"][0], *answer["moves"]]
            if fault == "unknown-move":
                answer["moves"] = [*answer["moves"], "teleport"]
            if fault == "close-stdout":
                os.close(1)
                time.sleep(3600)
            if fault == "error":
                answer = {"id": request["id"], "error": "internal error: out of cheese"}
            if fault == "escapes":
                out.write('{"id": ' + str(request["id"]) + ', "error": "\\u001b[2J\\ud800 boom"}\n')
                out.flush()
                continue
            if fault == "extra-line":
                out.write(json.dumps(answer) + "\n")  # answered twice
        out.write(json.dumps(answer) + "\n")
        out.flush()
    if fault == "ignore-quit":
        time.sleep(3600)
    return 0


def _answer(engine: ReferenceEngine, request: dict[str, Any]) -> dict[str, Any]:
    number, op = request["id"], request["op"]
    if op == "hello":
        return {
            "id": number,
            "name": "bad engine 0.1" + ("\x1b[31m\ud800" if "escapes" in sys.argv else ""),
            "games": ["throne", "ascent"],
            "protocol": 1,
        }
    if op == "start":
        ok = engine.start(request["game"], request["players"], request["rules"], request["deal"])
        return {"id": number, "ok": ok}
    if op == "legal":
        return {"id": number, "moves": list(engine.legal())}
    if op == "play":
        return {"id": number, "ok": engine.play(request["move"])}
    if op == "status":
        return {"id": number, **engine.status()}
    return {"id": number, "error": "unknown op"}


if __name__ == "__main__":
    sys.exit(main())
