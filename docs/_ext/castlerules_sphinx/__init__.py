"""The castlerules Sphinx extension: pages generated from the engine at build time.

At ``builder-inited`` it computes the site's data from the engine
(:mod:`castlerules_sphinx.site`) and writes the generated pages into
``docs/_generated/`` (:mod:`castlerules_sphinx.pages`), which the
hand-written pages include.  It also provides:

- the ``castlerules`` domain, the ``:clause:`B7``` role and the
  ``.. castlerules-clause:: B7`` directive (the seed's French text verbatim,
  the English rendering, a searchable object per clause);
- ``.. castlerules-board::``: a board drawn by the library's ``svg()`` from a
  game replayed at build time (options ``:game:``, ``:players:``, ``:seed:``,
  ``:moves:``, ``:position:``, ``:seat:``, ``:caption:``).

Any claim of a generated page that the engine no longer confirms (a casebook
case, a register divergence, a proof witness) stops the build with an
error naming it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import inspect
import os
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from castlerules.core import CLAUSES
from castlerules_sphinx import api, cli, pages, rules
from castlerules_sphinx.domain import ClauseDomain, anchor_of, clause_role
from castlerules_sphinx.site import GAMES, PROOFS_JSON, SiteError, collect

LOGGER = logging.getLogger(__name__)


class ClauseDirective(SphinxDirective):
    """``.. castlerules-clause:: B7``: the clause's French text and English, as a search object."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        clause_id = self.arguments[0].strip().upper()
        if clause_id not in CLAUSES:
            raise self.error(f"unknown clause {clause_id!r}")
        c = CLAUSES[clause_id]
        domain = self.env.get_domain("castlerules")
        assert isinstance(domain, ClauseDomain)
        domain.note_clause(clause_id, self.env.docname, f"{c.id}: {c.summary}")

        game = "Throne" if c.game == "throne" else "Ascent"
        index = addnodes.index(
            entries=[
                ("single", f"{c.id} ({game} clause)", anchor_of(c.id), "", None),
                ("single", f"{game}; clause {c.id}", anchor_of(c.id), "", None),
            ]
        )
        french = nodes.container(classes=["clause-french", "language-fr"])
        french += nodes.rubric("", f"Seed (French, verbatim) — {c.id}")
        block = nodes.line_block(classes=["french-text"])
        for line in c.french.split("\n"):
            block += nodes.line(line, line)
        french += block
        english = nodes.container(classes=["clause-english"])
        english += nodes.rubric("", "English rendering")
        english += nodes.paragraph(c.english, c.english)
        return [index, french, english]


class BoardDirective(SphinxDirective):
    """``.. castlerules-board::``: a position drawn by ``svg()``, replayed by the engine."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "game": directives.unchanged_required,
        "players": directives.positive_int,
        "seed": directives.nonnegative_int,
        "first-player": directives.nonnegative_int,
        "moves": directives.unchanged,
        "position": directives.unchanged,
        "seat": directives.nonnegative_int,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        game = self.options.get("game", "")
        if game not in GAMES:
            raise self.error(f":game: must be one of {', '.join(GAMES)}, not {game!r}")
        module = GAMES[game]
        try:
            if "position" in self.options:
                state = module.from_text(self.options["position"].strip())
            else:
                kwargs: dict[str, Any] = {"seed": self.options.get("seed", 0)}
                if game == "ascent" and "first-player" in self.options:
                    kwargs["first_player"] = self.options["first-player"]
                state = module.new_game(self.options.get("players", 4), **kwargs)
            for text in self.options.get("moves", "").split():
                state = module.apply(state, module.parse_move(state, text))
        except Exception as err:
            raise self.error(f"castlerules-board: the engine refuses this board: {err}") from err
        extra: dict[str, Any] = {}
        if "seat" in self.options and game == "throne":
            extra["seat"] = self.options["seat"]
        svg = pages.svg_of(game, state, **extra)
        caption = " ".join(self.options.get("caption", "").split())
        name, board_class = pages.board_file(svg)
        image = nodes.image(
            uri=f"/_generated/boards/{name}",
            alt=caption or f"A {game} board.",
            classes=board_class.split(),
        )
        figure = nodes.figure("", image, classes=["castlerules-diagram"])
        if caption:
            figure += nodes.caption(caption, caption)
        self.set_source_info(figure)
        text = module.to_text(state)
        literal = nodes.paragraph()
        literal += nodes.Text("Position: ")
        literal += nodes.literal(text, text)
        return [figure, literal]


def generate(app: Sphinx) -> None:
    """``builder-inited``: compute the site's data and write the generated pages."""
    srcdir = Path(app.srcdir)
    generated = srcdir / "_generated"
    if (
        os.environ.get(READ_ONCE) == "1"
        and generated.is_dir()
        and getattr(app.env, "castlerules_inputs", None) == inputs_key(srcdir.parent)
    ):
        # The build before this one (same doctree folder) wrote these pages from the
        # same inputs, and no page is read again (:func:`outdated`).
        LOGGER.info("castlerules: generated pages kept from the build before (same inputs)")
        return
    start = time.perf_counter()
    try:
        site = collect(
            srcdir.parent,
            generated,
            proofs_fast=app.config.castlerules_proofs_fast,
            run_proofs=app.config.castlerules_require_proofs,
        )
        if site.proofs is None and app.config.castlerules_require_proofs:
            raise SiteError(f"the proof table cannot be built: {site.proofs_error}")
        pages.write_all(site, generated)
        tick = time.perf_counter()
        cli.write(generated)
        rules.write(generated)
        site.timings["cli"] = time.perf_counter() - tick
    except (SiteError, cli.ExampleFailed) as err:
        raise ExtensionError(f"castlerules: {err}") from err
    LOGGER.info(
        "castlerules: generated pages in %.1f s (%s)",
        time.perf_counter() - start,
        ", ".join(f"{k} {v:.1f} s" for k, v in site.timings.items()),
    )


def inputs_key(root: Path) -> str:
    """A hash of what the pages' directives read besides their own text: every file of
    ``castlerules/`` and ``proofs/`` (the engine, its data, the proofs), of the
    extension (``docs/_ext/``), the data files beside the pages (``docs/*.json``),
    the saved proof results and the ``CASTLERULES_*`` variables."""
    digest = hashlib.sha256()
    paths = [
        *(p for base in ("castlerules", "proofs", "docs/_ext") for p in (root / base).rglob("*")),
        *(root / "docs").glob("*.json"),
        Path(os.environ.get("CASTLERULES_PROOFS_JSON") or root / PROOFS_JSON),
    ]
    for path in sorted(paths):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in sorted(os.environ):
        if name.startswith("CASTLERULES_") and name != READ_ONCE:
            digest.update(f"{name}={os.environ[name]}\0".encode())
    return digest.hexdigest()


READ_ONCE = "CASTLERULES_DOCS_READ_ONCE"
"""Set to ``1`` by ``bash dev docs`` for the doctest build that follows its HTML build
(same doctree folder), once that build has passed: pages are not read again if what
they read is unchanged (:func:`outdated`)."""


def outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages that show engine output are read again at every build (the engine may have
    changed, and a page that warned warns again); with :data:`READ_ONCE` only if what
    they read (:func:`inputs_key`) changed since the environment was saved."""
    key = inputs_key(Path(app.srcdir).parent)
    if os.environ.get(READ_ONCE) == "1" and getattr(env, "castlerules_inputs", None) == key:
        return []
    env.castlerules_inputs = key  # type: ignore[attr-defined]  # pickled with the environment
    return [doc for doc in env.found_docs if doc not in added | changed]


def _imported_from(module_name: str, name: str) -> str | None:
    """The module ``name`` is imported from in ``module_name``'s source (even under
    ``if TYPE_CHECKING:``), or None if the module does not import it."""
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if not path:
        return None
    try:
        stamp = Path(path).stat().st_mtime_ns
    except OSError:
        return None
    return _imports_of(path, stamp).get(name)


@functools.lru_cache(maxsize=512)
def _imports_of(path: str, stamp: int) -> dict[str, str]:
    """The names a source file imports under their own name (``from M import N``), each
    with the first module it is imported from (in :func:`ast.walk`'s order).  Read once
    per file and version (``stamp``: its modification time): every cross-reference of
    every page asks."""
    del stamp  # part of the cache's key only
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return {}
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.asname in (None, alias.name):
                    found.setdefault(alias.name, node.module)
    return found


def home_of(target: str, context: str | None = None, depth: int = 0) -> str | None:
    """Where a public name of castlerules is defined (and documented).

    ``castlerules.throne.Rules`` -> ``castlerules.throne.rules.Rules``;
    ``NOTES`` read in :mod:`castlerules.throne` -> ``castlerules.throne.notes.NOTES``;
    ``Move`` read in :mod:`castlerules.ascent.state` (imported there only for
    type checking) -> ``castlerules.ascent.moves.Move``.  None if ``target``
    is not such a name or is already its own home.
    """
    if depth > 5:
        return None
    if target.startswith("castlerules."):
        module_name, _, rest = target.rpartition(".")
        for split in range(target.count("."), 0, -1):
            module_name = ".".join(target.split(".")[:split])
            if module_name in sys.modules or _importable(module_name):
                rest = target[len(module_name) + 1 :]
                break
        else:
            return None
    elif context and context.startswith("castlerules"):
        module_name, rest = context, target
    else:
        return None
    head, _, tail = rest.partition(".")
    module = sys.modules.get(module_name)
    if module is None or not head:
        return None
    obj = getattr(module, head, None)
    if inspect.ismodule(obj):
        return None  # ``enum.Enum`` read in a module that imports enum: not ours
    real: str | None = None
    if obj is not None:
        home = getattr(obj, "__module__", None)
        name = getattr(obj, "__qualname__", None)
        if isinstance(home, str) and isinstance(name, str) and home.startswith("castlerules"):
            real = f"{home}.{name}"
    if real is None:
        source = _imported_from(module_name, head)
        if source is None:
            real = f"{module_name}.{head}" if obj is not None else None
        else:
            real = home_of(f"{source}.{head}", None, depth + 1) or f"{source}.{head}"
    if real is None:
        return None
    full = f"{real}.{tail}" if tail else real
    return None if full == target else full


def _importable(module_name: str) -> bool:
    try:
        importlib.import_module(module_name)
    except ImportError:
        return False
    return True


def point_reexports(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: aim references at the public name the reference documents.

    ``castlerules.throne`` re-exports ``Rules``, ``apply``... from the modules
    that define them; the reference documents them under the public name
    (``castlerules.throne.Rules``, see :mod:`castlerules_sphinx.api`).  So
    :class:`castlerules.throne.rules.Rules`, or ``Rules`` read in a docstring
    of :mod:`castlerules.throne.transitions`, is pointed at
    ``castlerules.throne.Rules``.  Anything else is left to Sphinx.
    """
    for node in doctree.findall(pending_xref):
        if node.get("refdomain") != "py":
            continue
        target = node.get("reftarget", "")
        context = node.get("py:module")
        real = home_of(target, context)
        candidates = [real] if real is not None else []
        defining = api.defining_module(node)
        if defining is not None and defining != context:
            # a docstring of castlerules.ascent.rules shown under castlerules.ascent
            real = home_of(target, defining)
            candidates.append(real or f"{defining}.{target}")
        if target.startswith("castlerules"):
            candidates.append(target)
        if context and context.startswith("castlerules"):
            candidates.append(f"{context}.{target}")
            if node.get("py:class"):
                candidates.append(f"{context}.{node['py:class']}.{target}")
        for candidate in candidates:
            public = api.public_of(candidate)
            if public is not None:
                node["reftarget"] = public
                node["refspecific"] = False
                break


_LINENO = re.compile(r'<span class="linenos">(\s*)(\d+)</span>')


def line_anchors(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: every numbered line of a highlighted source gets ``id="L<n>"``.

    The clause pages link to the lines of the engine that cite a clause
    (``_modules/castlerules/throne/transitions.html#L120``).
    """
    if not pagename.startswith("_modules/") or "body" not in context:
        return
    context["body"] = _LINENO.sub(
        lambda m: f'<span class="linenos" id="L{m.group(2)}">{m.group(1)}{m.group(2)}</span>',
        context["body"],
    )


_ANCHOR_STAMP = ".castlerules-line-anchors-1"


def refresh_sources(app: Sphinx) -> None:
    """``builder-inited``: highlighted sources written without line anchors are written again.

    viewcode rewrites a module's page only when the module is newer than the
    page, so pages of an older build (before :func:`line_anchors`) would stay
    without the anchors the clause pages link to.
    """
    pages = Path(app.outdir) / "_modules"
    if app.builder.format == "html" and pages.is_dir() and not (pages / _ANCHOR_STAMP).is_file():
        shutil.rmtree(pages)


def stamp_sources(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the highlighted sources now carry the line anchors."""
    pages = Path(app.outdir) / "_modules"
    if exception is None and pages.is_dir():
        (pages / _ANCHOR_STAMP).touch()


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("castlerules_proofs_fast", True, "env", bool)
    app.add_config_value("castlerules_require_proofs", True, "env", bool)
    app.add_domain(ClauseDomain)
    app.add_role("clause", clause_role)
    app.add_directive("castlerules-clause", ClauseDirective)
    app.add_directive("castlerules-board", BoardDirective)
    app.connect("builder-inited", generate)
    app.connect("env-get-outdated", outdated)
    app.connect("doctree-read", point_reexports)
    app.connect("doctree-read", api.shorten_values)
    app.add_directive("castlerules-api", api.PublicApiDirective)
    app.connect("missing-reference", api.internal_reference)
    app.connect("html-page-context", line_anchors)
    app.connect("builder-inited", refresh_sources)
    app.connect("build-finished", stamp_sources)
    return {
        "version": "1",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
        "env_version": 1,
    }
