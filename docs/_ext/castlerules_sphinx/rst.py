"""Small helpers to write reStructuredText safely (generated pages only), and to
write a generated page in one step."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

_SPECIAL = re.compile(r"([\\`*_|\[\]<>:])")


def escape(text: str) -> str:
    """Inline text with every markup character escaped (one line)."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def title(text: str, underline: str) -> str:
    """A section title with its underline (as long as the title)."""
    return f"{text}\n{underline * max(len(text), 4)}\n"


def labels(*names: str) -> str:
    """Explicit targets written right before a section."""
    return "".join(f".. _{name}:\n" for name in names) + "\n"


def literal(text: str) -> str:
    """Inline literal text; backquotes are kept out of the literal."""
    clean = " ".join(text.split()).replace("`", "'")
    return f"``{clean}``" if clean else "``''``"


def list_table(
    header: Sequence[str], rows: Iterable[Sequence[str]], widths: Sequence[int] | None = None
) -> str:
    """A ``list-table`` with one header row; cells are already-valid inline markup."""
    out = [".. list-table::", "   :header-rows: 1", "   :class: castlerules-table"]
    if widths:
        out.append("   :widths: " + " ".join(str(w) for w in widths))
    out.append("")
    for row in [header, *rows]:
        for i, cell in enumerate(row):
            lead = "   * - " if i == 0 else "     - "
            lines = str(cell).splitlines() or [""]
            out.append(lead + lines[0])
            out.extend("       " + line if line.strip() else "" for line in lines[1:])
    out.append("")
    return "\n".join(out) + "\n"


def write_at_once(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one step: to a file of its own first, which then
    replaces ``path``, so that a build reading it at the same time (the tests build
    sites in parallel workers) sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def write_if_changed(path: Path, text: str) -> None:
    """:func:`write_at_once`, unless ``path`` holds ``text`` already."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        write_at_once(path, text)
