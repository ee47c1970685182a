"""The docs page "Does the reading matter?": a small study of every register option.

At ``builder-inited`` it writes ``docs/_generated/study/study.rst`` and its
plots with :func:`castlerules.study.register_study.page`, unless the files
there were made from the same sources (a hash of ``castlerules/`` is kept
beside them), so that a rebuild without a change of the engine costs nothing.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)


def generate(app: Sphinx) -> None:
    """``builder-inited``: the study page (from its cache when the sources are unchanged)."""
    from castlerules.study.register_study import page

    start = time.perf_counter()
    page(Path(app.srcdir) / "_generated" / "study")
    LOGGER.info("castlerules: the study page in %.1f s", time.perf_counter() - start)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
