"""``python -m castlerules.casebook``: verify the casebook, or refresh its found games.

``--refresh`` is ``castlerules cases search`` (search again only what
changed; ``--all`` searches every case from scratch; ``--only KEY``);
without it, ``castlerules cases verify`` (replay and check every case).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from castlerules.cli import main as cli

    args = list(sys.argv[1:] if argv is None else argv)
    if "--refresh" in args or "--all" in args or any(a.startswith("--only") for a in args):
        return cli(["cases", "search", *(a for a in args if a != "--refresh")])
    return cli(["cases", "verify", *args])


if __name__ == "__main__":
    sys.exit(main())
