"""``python -m castlerules``: the same as the ``castlerules`` command."""

from castlerules.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
