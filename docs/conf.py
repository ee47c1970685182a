"""Sphinx configuration of the castlerules site.

Build with ``bash dev docs`` (HTML with warnings as errors, then the doctests).
Everything that depends on the engines (clause pages, boards, the register of
open points, the casebook, the proof table) is generated at build
time by the local extension ``docs/_ext/castlerules_sphinx`` into
``docs/_generated/`` (git-ignored), so the site can never disagree with the
code it documents.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))
sys.path.insert(0, str(DOCS / "_ext"))

import castlerules  # noqa: E402

project = "castlerules"
author = "the castlerules authors"
copyright = "2025, the castlerules authors"
version = release = castlerules.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "castlerules_sphinx",
    "castlerules_study",
    "castlerules_desk",
]

root_doc = "index"
language = "en"
exclude_patterns = ["_build", "_generated", "seeds", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
nitpicky = True
# The seeds are quoted verbatim: no "smart" quotes, dashes or ellipses.
smartquotes = False

# Furo (the ``docs`` extra): a sidebar of pages, an "on this page" outline of
# the current page, a layout that reflows on a phone, light and dark modes.
html_theme = "furo"
html_title = f"castlerules {release}"
html_static_path = ["_static"]
html_css_files = ["castlerules.css"]
html_theme_options = {
    "source_directory": "docs/",
    "navigation_with_keys": True,
}
# The highlighted sources behind the [source] links, with numbered lines that
# the clause pages link to (castlerules_sphinx adds an anchor per line).
viewcode_line_numbers = True

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True, "show-inheritance": True}
# No napoleon: the docstrings are reStructuredText, and napoleon would read an
# attribute docstring such as "Phase code: ..." as a type annotation.

# No network at build time: no intersphinx.  References to the standard
# library and to attrs cannot be resolved without it, so only those are
# ignored; any other unresolved reference still fails the build.
nitpick_ignore_regex = [
    (r"py:.*", r"(collections\.abc|typing|types|enum|re|pathlib|random|attr|attrs|os|json)(\..*)?"),
    (r"py:.*", r"(Callable|Iterable|Iterator|Mapping|Sequence|Any|TypeVar|Enum|IntEnum)"),
    # Type variables of generic helpers (``T`` of Rng.choice, ``S``/``M`` of perft).
    (r"py:class", r"(castlerules\.[a-z_.]+\.)?[TSM]"),
    # Private helpers that appear in signatures or as base classes (not documented).
    (r"py:.*", r"castlerules\.[a-z_.]+\._[A-Za-z_]+"),
    # Third-party base classes (PettingZoo's AEC environment), not documented here.
    (r"py:class", r"pettingzoo\..*"),
    # Type aliases without a docstring are not documented objects.
    (r"py:class", r"castlerules\.ascent\.state\.Column"),
]

# The doctest builder runs the ``.. doctest::`` blocks of the pages (the
# tutorial, the casebook's replay example).  The ``>>>`` examples of the docstrings
# pulled in by autodoc run under ``pytest --doctest-modules``, in their own
# module's namespace, so they are not run a second time here.
doctest_test_doctest_blocks = ""
doctest_global_setup = """
from castlerules import ascent, throne
"""

# The proof table shows the results ``bash dev prove`` saved in
# artifacts/proofs.json ($CASTLERULES_PROOFS_JSON) when they are those of the
# sources at hand; else the build runs the proofs, in their fast mode (about a
# minute; see castlerules_sphinx.site).
castlerules_proofs_fast = True
# Without the proof table the build fails.  Only a build that does not look at
# the table (the browser test's, tests/docs/test_site_renders.py) sets
# CASTLERULES_DOCS_WITHOUT_PROOFS=1: the proofs are then not run, and the page
# says so unless saved or cached results exist.
castlerules_require_proofs = os.environ.get("CASTLERULES_DOCS_WITHOUT_PROOFS") != "1"
