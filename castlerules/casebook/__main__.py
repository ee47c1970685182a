"""``python -m castlerules.casebook``: verify the casebook, or refresh its found games.

``--refresh`` searches again the cases whose declaration changed, that have
no game, or whose game no longer shows them (the others are re-verified and
kept); ``--all`` searches every case from scratch; ``--only KEY`` limits to
some cases.  Without an option, every case is replayed and checked.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from castlerules import casebook
from castlerules.casebook import store


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m castlerules.casebook")
    parser.add_argument("--refresh", action="store_true", help="search what changed")
    parser.add_argument("--all", action="store_true", help="search every case again")
    parser.add_argument("--only", action="append", default=[], metavar="KEY")
    args = parser.parse_args(argv)
    chosen = [casebook.case(k) for k in args.only] or list(casebook.CASES)
    tick = time.perf_counter()
    if args.refresh or args.all:
        known = store.load()
        found, done = store.refresh(
            chosen, known, everything=args.all, progress=lambda s: print(s, file=sys.stderr)
        )
        known.update(found)
        live = {c.key for c in casebook.CASES}
        store.save({k: v for k, v in known.items() if k in live})
        searched = sum(1 for v in done.values() if v.startswith("search"))
        print(
            f"{len(done)} cases: {searched} searched, {len(done) - searched} kept "
            f"in {time.perf_counter() - tick:.1f} s; wrote {store.PATH}"
        )
        missing = [k for k, v in done.items() if v.startswith("NOT FOUND")]
        if missing:
            print(f"no game found for: {', '.join(missing)}", file=sys.stderr)
        return 1 if missing else 0
    failed = 0
    known = store.load()
    for item in chosen:
        try:
            casebook.show(item.key, known)
        except casebook.CaseError as err:
            failed += 1
            print(err, file=sys.stderr)
    seconds = time.perf_counter() - tick
    print(f"{len(chosen) - failed}/{len(chosen)} cases verified in {seconds:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
