"""Write the generated pages (reStructuredText) from a :class:`~castlerules_sphinx.site.Site`.

Generated files live in ``docs/_generated/`` and are included by the
hand-written pages; a file is rewritten only when its text changes, so that
Sphinx re-reads only what changed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from castlerules import casebook, desk, options_text, records, register
from castlerules.casebook import report as case_report
from castlerules.casebook.declare import Game, Moment, Refusal, Split
from castlerules.core import CLAUSES
from castlerules_sphinx import audience, rst
from castlerules_sphinx.api import PUBLIC_MODULES
from castlerules_sphinx.domain import anchor_of
from castlerules_sphinx.rst import write_if_changed
from castlerules_sphinx.scan import TestRef
from castlerules_sphinx.site import GAMES, ProofRow, Site, SiteError, highlight_of

TITLES = {"throne": "Throne", "ascent": "Ascent"}


def write_all(site: Site, generated: Path) -> None:
    """Write every generated page."""
    for game in GAMES:
        write_if_changed(generated / f"{game}-clauses.rst", clause_pages(site, game))
        write_if_changed(generated / f"{game}-options.rst", options_table(site, game))
    overview, parts = register_parts(site)
    write_if_changed(generated / "register.rst", overview)
    write_parts(generated.parent / "register", parts)
    case_parts: dict[str, str] = {}
    for game in GAMES:
        overview, parts = casebook_parts(site, game)
        write_if_changed(generated / f"casebook-{game}.rst", overview)
        case_parts.update(parts)
    write_parts(generated.parent / "casebook", case_parts)
    write_records(site, generated / "records")
    table, proof_parts = proofs_parts(site)
    write_if_changed(generated / "proofs.rst", table)
    write_parts(generated.parent / "proofs", proof_parts)
    tests_overview, tests_pages = tests_parts(site)
    write_if_changed(generated / "tests.rst", tests_overview)
    write_parts(generated.parent / "tests-by-file", tests_pages)
    write_if_changed(generated / "timings.rst", timings(site))
    write_if_changed(generated / "clause-index.rst", clause_index(site))
    # The dispute desk's list of cases (castlerules_desk serves it with the site).
    questions = [desk.case_question(shown) for shown in site.cases]
    write_if_changed(generated / "desk-cases.json", json.dumps(questions, ensure_ascii=False))


# --------------------------------------------------------------------------- helpers


def clause_ref(clause_id: str) -> str:
    return f":clause:`{clause_id}`"


def clause_refs(ids: Iterable[str]) -> str:
    return ", ".join(clause_ref(c) for c in ids)


def test_ref(test: TestRef) -> str:
    return f":ref:`{test.name} <{test.anchor}>`"


def desk_link(shown: casebook.Shown, up: str = "", text: str = "Try it at the dispute desk") -> str:
    """A "try it" link: the case's position and move, opened at the dispute desk (the
    desk finds them by the case's key in its case list, so the link stays short).

    ``up`` leads from the page to the site's root (``"../"`` from a page in a folder).
    """
    return f"`{text} <{up}desk.html#case={shown.case.key}>`__"


def _tests_by_file(tests: Sequence[TestRef]) -> str:
    """Tests grouped by file: each file links to its first test with the number of its
    tests that name the clause (the tests' page lists them by name: the names of every
    test outgrew the clause pages' budget)."""
    files: dict[str, list[TestRef]] = {}
    for test in tests:
        files.setdefault(test.path, []).append(test)
    return "; ".join(
        f":ref:`{rst.escape(path)} <{group[0].anchor}>` ({len(group)})"
        for path, group in files.items()
    )


def case_anchor(key: str) -> str:
    return f"case-{key}"


def case_ref(shown: casebook.Shown) -> str:
    return f":ref:`{rst.escape(shown.case.key)} <{case_anchor(shown.case.key)}>`"


def register_anchor(game: str, option: str) -> str:
    return f"register-{game}-{option.replace('_', '-')}"


def option_anchor(game: str, option: str) -> str:
    return f"option-{game}-{option.replace('_', '-')}"


def value_text(value: object) -> str:
    return rst.literal(options_text.to_text(value))


#: Where the boards are written, one ``.svg`` file each (``docs/_generated/boards``):
#: a page shows them as images, so that no page carries its drawings inline
#: (the casebook pages were megabytes of inline SVG; issue 12: pages of ~200 KB).
BOARDS = Path(__file__).resolve().parents[2] / "_generated" / "boards"
_CLASS = re.compile(r'^<svg\b[^>]*?\sclass="([^"]*)"')


def board_file(svg: str, folder: Path = BOARDS) -> tuple[str, str]:
    """Write a drawing to ``folder/<hash of its text>.svg`` if it is not there yet.

    Returns the name of the file (stable: the same drawing, the same name) and
    the class of the drawing's ``<svg>`` element (``castlerules-board throne-board``).
    The file is written in one step (:func:`~castlerules_sphinx.rst.write_at_once`), so
    that two builds at once (pytest-xdist) never read half a file; its name is its
    text's hash, so a file already there is not read again.
    """
    name = hashlib.sha256(svg.encode("utf-8")).hexdigest()[:20] + ".svg"
    target = folder / name
    if not target.is_file():
        rst.write_at_once(target, svg)
    found = _CLASS.match(svg)
    return name, found.group(1) if found else ""


def _figure_directive(svg: str, caption: str, classes: str = "", indent: str = "") -> str:
    """One ``figure`` directive: the drawing as an image file, its caption as text and alt."""
    name, board_class = board_file(svg)
    words = " ".join(caption.split())
    lines = [f".. figure:: /_generated/boards/{name}"]
    lines.append(f"   :alt: {words or 'A board.'}")
    if board_class:
        lines.append(f"   :class: {board_class}")
    lines.append(f"   :figclass: {' '.join(['castlerules-diagram', *classes.split()])}")
    lines.append("")
    if words:
        lines.append(f"   {rst.escape(words)}")
        lines.append("")
    return "".join(f"{indent}{line}\n" if line else "\n" for line in lines)


def figure(svg: str, caption: str, classes: str = "") -> str:
    """A figure: a board drawn by the library, written to its own ``.svg`` file."""
    return _figure_directive(svg, caption, classes) + "\n"


def figures(items: list[tuple[str, str]], classes: str = "") -> str:
    """Several figures side by side (they wrap on a narrow screen)."""
    group = " ".join(["castlerules-figures", *classes.split()])
    body = "".join(_figure_directive(svg, caption, indent="   ") for svg, caption in items)
    return f".. container:: {group}\n\n{body}\n"


def linked(text: str) -> str:
    """Plain text made safe for reStructuredText, with clause IDs in brackets made links."""
    escaped = rst.escape(text)
    return re.sub(
        r"(?<=[(\s,])([AB]\d{1,2})(?=[),])",
        lambda m: f":clause:`{m.group(1)}`" if m.group(1) in CLAUSES else m.group(1),
        escaped,
    )


def _doc(text: str) -> str:
    """An option's documentation: reStructuredText from its docstring, on one line."""
    return " ".join(text.split())


def _gist(text: str) -> str:
    """The first sentence of an option's documentation (the clauses' tables link to the
    whole text, in the page's list of options): the whole text if the cut would split
    inline markup."""
    whole = _doc(text)
    head, dot, _rest = whole.partition(". ")
    if not dot or head.count("``") % 2 or head.count("`") % 2:
        return whole
    return head + "."


def position_block(text: str, label: str = "The position in the game's notation") -> str:
    """A position's notation in a literal block (it may be long: the block scrolls)."""
    return f"{label}:\n\n.. code-block:: text\n\n   {text}\n\n"


@functools.cache
def _shown_sources() -> frozenset[str]:
    """The source files viewcode highlights: those defining a name of a public ``__all__``."""
    shown: set[str] = set()
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for public in getattr(module, "__all__", ()):
            owner = getattr(getattr(module, public), "__module__", None)
            if isinstance(owner, str) and owner.startswith("castlerules"):
                shown.add(owner.replace(".", "/") + ".py")
    return frozenset(shown)


def source_link(path: str, line: int) -> str:
    """A link to a line of the highlighted source (the ``[source]`` pages of viewcode).

    ``castlerules/throne/transitions.py`` line 120 is
    ``_modules/castlerules/throne/transitions.html#L120`` (the anchors of the
    lines are added by :func:`castlerules_sphinx.line_anchors`).
    """
    if path.endswith("__init__.py") or path not in _shown_sources():
        # viewcode writes a page only for a module that defines a documented
        # (public) name; a package's __init__ or an inner module has none.
        return str(line)
    page = "_modules/" + path.removesuffix(".py") + ".html"
    return f"`{line} <{page}#L{line}>`__"


def svg_of(game: str, state: Any, **kwargs: Any) -> str:
    """A position drawn by the game's own ``svg()`` (``throne.svg``, ``ascent.svg``)."""
    text: str = GAMES[game].svg(state, **kwargs)
    return text


# --------------------------------------------------------------------------- clause pages


def clause_pages(site: Site, game: str) -> str:
    out = [
        ".. This file is generated at build time from castlerules; do not edit.\n\n",
    ]
    for c in site.clauses[game]:
        out.append(rst.labels(anchor_of(c.id), c.id.lower()))
        out.append(rst.title(f"{c.id} · {rst.escape(c.summary)}", "-"))
        out.append(f"\n.. castlerules-clause:: {c.id}\n\n")
        out.append(_interpretation(site, game, c.id))
        out.append(_options_for(site, game, c.id))
        ill = site.illustrations[c.id]
        out.append(".. rubric:: Diagram\n\n")
        boards = [(ill.svg, ill.caption)]
        if ill.svg_after:
            boards.append((ill.svg_after, ill.caption_after))
        out.append(figures(boards, "clause-diagram"))
        if ill.case_key:
            shown = next(s for s in site.cases if s.case.key == ill.case_key)
            out.append(
                f"From the casebook: :ref:`{ill.case_key} <{case_anchor(ill.case_key)}>` "
                "(the moves, in the engine's words, and the record to replay). "
                f"{desk_link(shown)}: play on from it, or ask about another move.\n\n"
            )
        out.append(position_block(ill.position))
        out.append(_coverage(site, game, c.id))
    return "".join(out)


def _interpretation(site: Site, game: str, clause_id: str) -> str:
    """What the reference reading decides for the clause (not its heading again)."""
    out = [".. rubric:: Reference interpretation\n\n"]
    notes = site.notes_of(game, clause_id)
    options = site.options_of(game, clause_id)
    if not notes:
        tail = (
            "; the options below read it otherwise."
            if options
            else ", and no option or preset changes it."
        )
        out.append(
            f"Nothing to decide: the seed is explicit here, and ``{game}.Rules()`` applies the "
            f"English rendering above as it stands{tail}\n\n"
        )
        return "".join(out)
    module = GAMES[game]
    parts = [(note, audience.split(note, module)) for note in notes]
    player = [(note, part) for note, part in parts if part.player]
    if player:
        out.append(
            f"Where the seed leaves a point open, ``{game}.Rules()`` decides (recorded in "
            f"``{game}.NOTES``):\n\n"
        )
    else:
        out.append(
            f"Nothing to decide at the table: ``{game}.Rules()`` applies the English rendering "
            "above as it stands; what the library does around it is below.\n\n"
        )
    for note, part in player:
        line = f"- **{rst.escape(note.topic)}**: {rst.escape(part.player)}"
        if note.option:
            line += (
                f" Option :ref:`{note.option} <{option_anchor(game, note.option)}>`; "
                f"readings in the :ref:`register <{register_anchor(game, note.option)}>`."
            )
        out.append(line + "\n")
    out.append("\n")
    programmer = [(note, part) for note, part in parts if part.programmer]
    if programmer:
        # The library's side of the same decisions, in a block of its own.
        out.append(".. container:: castlerules-api-notes\n\n")
        out.append("   .. rubric:: For programmers\n\n")
        for note, part in programmer:
            out.append(f"   - **{rst.escape(note.topic)}**: {rst.escape(part.programmer)}\n")
        out.append("\n")
    return "".join(out)


def _options_for(site: Site, game: str, clause_id: str) -> str:
    options = site.options_of(game, clause_id)
    presets = site.presets[game]
    out = [".. rubric:: Options and presets\n\n"]
    if not options:
        out.append(
            f"No option of ``{game}.Rules`` changes this clause; every preset "
            f"({', '.join(presets)}) reads it the same way.\n\n"
        )
        return "".join(out)
    # A list, not a table: the clause pages stay light (each option's full entry is
    # on the options page its name links to).
    for o in options:
        set_by = ", ".join(f"{p}: {value_text(v)}" for p, v in o.presets)
        presets_text = f"; {set_by}" if set_by else ""
        gist = _gist(o.doc)
        out.append(
            f"- :ref:`{o.name} <{option_anchor(game, o.name)}>` (default "
            f"{value_text(o.default)}{presets_text})" + (f": {gist}" if gist else "") + "\n"
        )
    out.append("\n")
    return "".join(out)


def _coverage(site: Site, game: str, clause_id: str) -> str:
    out = [".. rubric:: Tests, proofs and cases\n\n"]
    tests = site.tests_of(clause_id)
    if tests:
        out.append(f"- Tests ({len(tests)}): " + _tests_by_file(tests) + ".\n")
    else:
        out.append("- Tests: none names this clause yet.\n")
    proofs = site.proofs_of(clause_id)
    if site.proofs is None:
        out.append("- Proofs: the proof table is not available in this build.\n")
    elif proofs:
        # each proof by its name, linked to its title and detail (page budget)
        out.append(
            "- Proofs: "
            + ", ".join(f":ref:`{rst.escape(p.name)} <{p.anchor}>` ({p.verdict})" for p in proofs)
            + ".\n"
        )
    else:
        out.append("- Proofs: none cites this clause.\n")
    shown = site.cases_of(clause_id)
    if shown:
        out.append(f"- Casebook ({len(shown)}): " + ", ".join(case_ref(s) for s in shown) + ".\n")
    cites = site.citations.get(clause_id, ())
    if cites:
        by_path: dict[str, list[Any]] = {}
        for c in cites:
            by_path.setdefault(c.path, []).append(c)
        # one path per file, the first line of each function linked, the functions in
        # italics rather than code (a code span's markup is four times the name's: page budget)
        where = "; ".join(
            f"{rst.literal(path)}: "
            + ", ".join(
                f"*{rst.escape(c.function)}* (line{'s' if len(c.lines) > 1 else ''} "
                + ", ".join([source_link(c.path, c.lines[0]), *map(str, c.lines[1:])])
                + ")"
                for c in group
            )
            for path, group in by_path.items()
        )
        out.append(f"- In the engine: {where}.\n")
    out.append("\n")
    return "".join(out)


def options_table(site: Site, game: str) -> str:
    """Every option of a game's ``Rules``, with an anchor each (linked from the clauses)."""
    out = [".. This file is generated at build time from castlerules; do not edit.\n\n"]
    presets = site.presets[game]
    for o in site.options[game]:
        out.append(rst.labels(option_anchor(game, o.name)))
        out.append(f"``{o.name}``\n   ")
        bits = [f"Default {value_text(o.default)}."]
        if o.presets:
            bits.append(
                "Set by preset " + ", ".join(f"{p} to {value_text(v)}" for p, v in o.presets) + "."
            )
        if o.clauses:
            bits.append(f"Clauses: {clause_refs(o.clauses)}.")
        if site.point(game, o.name) is not None:
            bits.append(
                f"An open point: see the :ref:`register <{register_anchor(game, o.name)}>`."
            )
        out.append(_doc(o.doc) + " " + " ".join(bits) if o.doc else " ".join(bits))
        out.append("\n\n")
    out.append(f"Presets: {', '.join(f'``{p}``' for p in presets)}.\n")
    return "".join(out)


# --------------------------------------------------------------------------- register


PAGE_BUDGET = 45_000
"""Characters of generated reStructuredText per page.  The boards are image
files (:func:`board_file`), so the text is what makes a page: its HTML is about
3.5 times its reStructuredText (tables, links, the theme's navigation), and a
page of this budget stays under the ~200 KB of HTML a reader's browser (and a
phone) loads comfortably."""


def pack(sections: list[tuple[str, str]], budget: int = PAGE_BUDGET) -> list[list[tuple[str, str]]]:
    """Consecutive ``(name, text)`` sections in groups of at most ``budget`` characters.

    A section larger than the budget has a page to itself; the order is kept.
    """
    groups: list[list[tuple[str, str]]] = []
    size = 0
    for name, text in sections:
        if groups and size + len(text) <= budget:
            groups[-1].append((name, text))
            size += len(text)
        else:
            groups.append([(name, text)])
            size = len(text)
    return groups


def write_parts(folder: Path, parts: dict[str, str]) -> None:
    """Write the generated documents of ``folder`` (``docs/register/``) and remove stale ones."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.rst"):
        if stale.stem not in parts:
            stale.unlink(missing_ok=True)  # (a parallel build may have removed it)
    for stem, text in parts.items():
        write_if_changed(folder / f"{stem}.rst", text)


def register_parts(site: Site) -> tuple[str, dict[str, str]]:
    """The register's overview (included by register.rst) and its pages, by file stem.

    The open points of each game are packed into pages of at most
    :data:`PAGE_BUDGET` characters, in order; the overview lists every open
    point with a link and holds the table of contents of the pages.
    """
    head = ".. This file is generated at build time from castlerules; do not edit.\n\n"
    overview = [head]
    parts: dict[str, str] = {}
    for game, module in GAMES.items():
        sections = [(p.option, _open_point(site, module, p)) for p in site.points[game]]
        overview.append(rst.labels(f"register-{game}"))
        overview.append(rst.title(TITLES[game], "-"))
        overview.append("\n")
        rows = [
            [
                f":ref:`{p.option} <{register_anchor(game, p.option)}>`",
                clause_refs(p.clauses),
                str(max(len(p.readings) - 1, 0)),
            ]
            for p in site.points[game]
        ]
        overview.append(rst.list_table(["Open point", "Clauses", "Other readings"], rows))
        groups = pack(sections)
        for number, group in enumerate(groups, 1):
            stem = f"{game}-{number}"
            first, last = group[0][0], group[-1][0]
            span = first if first == last else f"{first} to {last}"
            title = f"{TITLES[game]} open points: {rst.escape(span)}"
            parts[stem] = head + rst.title(title, "=") + "\n" + "".join(t for _, t in group)
    overview.append(".. toctree::\n   :maxdepth: 1\n   :caption: The open points, page by page\n\n")
    overview.extend(f"   register/{stem}\n" for stem in parts)
    overview.append("\n")
    return "".join(overview), parts


def _open_point(site: Site, module: Any, point: register.OpenPoint) -> str:
    game = point.game
    out = [rst.labels(register_anchor(game, point.option))]
    out.append(rst.title(f"{point.option} ({', '.join(point.clauses)})", "~"))
    out.append(f"\nClauses: {clause_refs(point.clauses)}. ")
    info = next(o for o in site.options[game] if o.name == point.option)
    if info.doc:
        out.append(_doc(info.doc))
    out.append("\n\n")
    for note in point.notes:
        topic, decision = rst.escape(note.topic), rst.escape(note.decision)
        out.append(f"- **{topic}** ({clause_ref(note.clause)}): {decision}\n")
    out.append("\n")
    if point.excluded is not None:
        out.append(
            ".. note::\n\n   No other reading is tried (``castlerules explain --compare`` does "
            f"not vary this option either): {linked(point.excluded)}.\n\n"
        )
    rows = []
    for reading in point.readings:
        value = (
            value_text(point.default)
            if not reading.options
            else ", ".join(f"{k} = {value_text(v)}" for k, v in reading.options)
        )
        rows.append(
            [
                "the default" if not reading.options else rst.escape(reading.label),
                value,
                rst.literal(reading.code(module)),
                rst.literal(reading.command_line())
                if reading.options or reading.preset
                else "(nothing)",
            ]
        )
    out.append(
        rst.list_table(
            ["Reading", "Value", "In Python", "On the command line"], rows, [18, 22, 32, 28]
        )
    )
    if len(point.readings) == 1 and point.excluded is None:
        out.append(
            "No alternative reading is declared for this option: the default is the only "
            "reading tried by ``castlerules explain --compare`` (set another value with "
            "``--option`` to experiment).\n\n"
        )
    for reading in point.readings[1:]:
        entry = site.divergences.get((game, point.option, reading.label))
        if entry is None:
            continue
        found, first, second = entry
        out.append(_divergence(point, reading, found, (first, second)))
        wanted = reading.rules(GAMES[game])
        for shown in site.cases:
            if shown.case.versus is not None and shown.case.second_rules() == wanted:
                out.append(
                    f"The casebook shows it in a shortened game, side by side: {case_ref(shown)} "
                    f"({shown.found.plies} plies).\n\n"
                )
    return "".join(out)


def _divergence(
    point: register.OpenPoint,
    reading: register.Reading,
    found: register.Divergence,
    states: tuple[Any, Any],
) -> str:
    game = point.game
    module = GAMES[game]
    out = [f"**Where the default and {rst.escape(reading.label)} differ** (found at build time). "]
    setup = f"{game}.new_game({found.players}, seed={found.seed})"
    if found.moves:
        shown = " ".join(found.moves[-8:])
        last = f"the last {min(8, len(found.moves))}: " if len(found.moves) > 8 else ""
        out.append(
            f"Start {rst.literal(setup)} under each reading and play the same "
            f"{len(found.moves)} moves ({last}{rst.literal(shown)}). "
        )
    else:
        out.append(f"Start {rst.literal(setup)} under each reading. ")
    if found.kind == "outcome":
        out.append(f"Then the move {rst.literal(found.move or '')} does different things:\n\n")
    else:
        out.append(f"The positions differ in {found.kind}:\n\n")
    one, two = found.first_outcome.split("\n"), found.second_outcome.split("\n")
    if found.kind == "outcome":
        same = [line for line in one if line in two]
        one = [line for line in one if line not in two] or ["(nothing more)"]
        two = [line for line in two if line not in same] or ["(nothing more)"]
        if same:
            out.append(
                f"Both readings: {linked(' '.join(same))}\n\nBut then (only the events that "
                "differ):\n\n"
            )
    out.append(f"- Default: {linked(' '.join(one))}\n")
    out.append(f"- {rst.escape(reading.label)}: {linked(' '.join(two))}\n\n")
    first, second = states
    if found.kind == "outcome" and found.move:
        extra = highlight_of(module, found.move)
        out.append(
            figure(
                svg_of(game, first, **extra),
                f"Before {found.move}: the same position under both readings.",
                "register-diagram",
            )
        )
        boards = []
        for label, state in (("the default", first), (reading.label, second)):
            after = module.apply(state, module.parse_move(state, found.move))
            boards.append((svg_of(game, after, **extra), f"After {found.move}, {label}."))
        out.append(figures(boards, "side-by-side"))
    else:
        out.append(
            figure(svg_of(game, first), "The position (default reading).", "register-diagram")
        )
    out.append(position_block(found.position, "The position in the default reading"))
    return "".join(out)


# --------------------------------------------------------------------------- casebook

KIND_TEXT = {
    "step": "a move",
    "game": "a whole game",
    "refusal": "a move the engine refuses",
    "reading": "two readings side by side",
}


def record_name(key: str, which: int = 0) -> str:
    return f"{key}{'-versus' if which else ''}.json"


def write_records(site: Site, directory: Path) -> None:
    """Every case's game as a record (two for a reading case), for download."""
    for shown in site.cases:
        for which in (0, 1) if shown.case.versus is not None else (0,):
            text = records.dumps(shown.record(which))
            write_if_changed(directory / record_name(shown.case.key, which), text)


def casebook_parts(site: Site, game: str) -> tuple[str, dict[str, str]]:
    """A game's casebook: its overview (included by ``casebook-<game>.rst``: the
    index by clause and by question, and the table of contents of the pages) and
    its pages of cases (``docs/casebook/<game>-<n>.rst``), by file stem.

    The cases are packed, in order, into pages of at most :data:`PAGE_BUDGET`
    characters; the links of the index go to the case's label on its page.
    """
    head = ".. This file is generated at build time from castlerules; do not edit.\n\n"
    shown = [s for s in site.cases if s.case.game == game]
    out = [head]
    kinds = {k: sum(1 for s in shown if s.case.kind == k) for k in KIND_TEXT}
    out.append(
        f"{len(shown)} cases: "
        + ", ".join(f"{n} showing {KIND_TEXT[k]}" for k, n in kinds.items() if n)
        + f"; {sum(s.found.plies for s in shown)} plies in all.\n\n"
    )
    out.append(rst.title("By clause", "-"))
    rows = []
    for c in site.clauses[game]:
        about = [s for s in shown if s.case.clauses[0] == c.id]
        also = [s for s in shown if c.id in s.case.clauses[1:]]
        rows.append(
            [
                clause_ref(c.id),
                ", ".join(case_ref(s) for s in about) or "\\-",
                ", ".join(case_ref(s) for s in also) or "\\-",
            ]
        )
    out.append(
        "\n" + rst.list_table(["Clause", "Cases about it", "Also at work in"], rows, [10, 50, 40])
    )
    out.append(rst.title("By question", "-"))
    out.append("\n")
    for s in shown:
        out.append(f"- {rst.escape(s.case.settles)} {case_ref(s)}\n")
    out.append("\n")
    parts: dict[str, str] = {}
    sections = [(s.case.clauses[0], _case_section(s)) for s in shown]
    groups = pack(sections)
    for number, group in enumerate(groups, 1):
        title = f"{TITLES[game]} casebook, page {number} of {len(groups)}"
        about = sorted({c for c, _ in group}, key=lambda c: (len(c), c))
        parts[f"{game}-{number}"] = (
            head
            + rst.title(title, "=")
            + f"\nCases about {clause_refs(about)}; the index of every case by clause and "
            + f"by question is on :doc:`/casebook-{game}`.\n\n"
            + "".join(t for _, t in group)
        )
    out.append(rst.title("The cases, page by page", "-"))
    out.append("\n.. toctree::\n   :maxdepth: 1\n\n")
    out.extend(f"   casebook/{stem}\n" for stem in parts)
    out.append("\n")
    return "".join(out), parts


def casebook_page(site: Site, game: str) -> str:
    """All the text of a game's casebook, its overview then its pages (for the tests)."""
    overview, parts = casebook_parts(site, game)
    return overview + "".join(parts.values())


def _said(events: Iterable[Any]) -> str:
    return "; ".join(f"{rst.escape(e.text)} ({clause_ref(e.clause)})" for e in events)


def _outcome_cell(result: Moment | Refusal | None) -> str:
    if isinstance(result, Moment):
        return _said(result.events)
    if isinstance(result, Refusal):
        return f"**refused**: {linked(str(result.error))}"
    return "not a move here"


def _case_section(shown: casebook.Shown) -> str:
    case, found, focus = shown.case, shown.found, shown.focus
    module = case.module
    out = [rst.labels(case_anchor(case.key))]
    out.append(rst.title(rst.escape(case.settles), "~"))
    out.append(
        f"\n**{rst.escape(case.statement)}**\n\n"
        f"- Case {rst.literal(case.key)}: {KIND_TEXT[case.kind]}; clauses "
        f"{clause_refs(case.clauses)}.\n"
        f"- Rules: {rst.literal(case.rules_code(0))}"
        + (f" against {rst.literal(case.rules_code(1))}" if case.versus is not None else "")
        + f"; {found.players} players, seed {found.seed}.\n"
        f"- {found.plies} plies; {rst.escape(found.how)}.\n\n"
    )
    if isinstance(focus, Moment | Game):
        last = shown.moment or (focus if isinstance(focus, Moment) else focus.moments[-1])
        out.append(f"Move {last.ply}, seat {last.seat} plays {rst.literal(last.text)}:\n\n")
        out.extend(f"- {rst.escape(e.text)} ({clause_ref(e.clause)})\n" for e in last.events)
        out.extend(f"- So: {rst.escape(line)}\n" for line in shown.details)
        if isinstance(focus, Game) and last is not focus.moments[-1]:
            end = focus.moments[-1]
            out.append(
                f"- The game ends with move {end.ply} (seat {end.seat} plays "
                f"{rst.literal(end.text)}).\n"
            )
        if isinstance(focus, Game):
            out.append(
                f"- Final scores {rst.literal(str(list(module.scores(focus.final))))}, "
                f"winners {rst.literal(str(list(module.winners(focus.final))))}.\n"
            )
        out.append("\n")
    elif isinstance(focus, Refusal):
        seat = module.current_player(focus.before)
        who = "Once the game is over" if seat is None else f"Seat {seat} tries"
        out.append(
            f"After move {focus.ply}: {who} {rst.literal(focus.text)}; the engine refuses: "
            f"{linked(str(focus.error))}\n\n"  # no emphasis: a :clause: role cannot nest in it
        )
    elif isinstance(focus, Split):
        where = f"After move {len(found.moves)}" if found.moves else "At the start"
        subject = (
            f"the move {rst.literal(focus.move)}"
            if focus.move is not None
            else f"the position ({focus.kind})"
        )
        out.append(f"{where}, the two readings part on {subject}:\n\n")
        cells = (
            [_outcome_cell(focus.first), _outcome_cell(focus.second)]
            if focus.move is not None
            else [rst.escape(focus.first_text), rst.escape(focus.second_text)]
        )
        out.append(
            rst.list_table(
                [rst.escape(case.reading_label(0)), rst.escape(case.reading_label(1))],
                [[rst.literal(case.rules_code(0)), rst.literal(case.rules_code(1))], cells],
                [50, 50],
            )
        )
    if shown.claims:
        out.append("Checked on this game (the build fails if one is false):\n\n")
        out.extend(f"- {rst.escape(line)}\n" for line in shown.claims)
        out.append("\n")
    out.append("The referee's view (read from the engine):\n\n")
    out.extend(f"- {rst.escape(line)}\n" for line in case_report.referee_lines(shown))
    out.append("\n")
    boards = [
        (svg_of(case.game, state, **extra), caption)
        for caption, state, extra in case_report.diagrams(shown)
    ]
    out.append(figures(boards))
    out.append(_moves_table(shown))
    downloads = ", ".join(
        f":download:`{label} </_generated/records/{record_name(case.key, which)}>`"
        for which, label in (
            ((0, case.reading_label(0)), (1, case.reading_label(1)))
            if case.versus is not None
            else ((0, "record"),)
        )
    )
    out.append(
        f"Replay it: {downloads}, then ``castlerules replay --annotate "
        f"{record_name(case.key)}``, or ``castlerules cases show {case.key}``; or "
        f"{desk_link(shown, '../', 'try it at the dispute desk')}.\n\n"
    )
    return "".join(out)


def _moves_table(shown: casebook.Shown) -> str:
    if not shown.moments:
        return ""
    rows = [
        [str(m.ply), "" if m.seat is None else str(m.seat), rst.literal(m.text), _said(m.events)]
        for m in shown.moments
    ]
    table = rst.list_table(
        ["#", "Seat", "Move", "What the engine says it did"], rows, [5, 6, 9, 80]
    )
    opening = (
        f'<details class="castlerules-moves"><summary>The {len(rows)} moves, in the '
        "engine's own words</summary>"
    )
    return f".. raw:: html\n\n   {opening}\n\n{table}\n.. raw:: html\n\n   </details>\n\n"


# --------------------------------------------------------------------------- proofs


def proofs_page(site: Site) -> str:
    out = [".. This file is generated at build time from castlerules; do not edit.\n\n"]
    if site.proofs is None:
        out.append(
            ".. warning::\n\n   The proof table is not available in this build: "
            f"{rst.escape(site.proofs_error)}\n\n"
        )
        return "".join(out)
    rows = []
    for p in site.proofs:
        rows.append(
            [
                f":ref:`{rst.escape(p.title)} <{p.anchor}>`",
                TITLES.get(p.game, p.game),
                clause_refs(p.clauses),
                rst.escape(p.method),
                _verdict(p),
                f"{p.seconds:.2f}",
            ]
        )
    total = sum(p.seconds for p in site.proofs)
    out.append(
        f"{len(site.proofs)} properties, {total:.1f} s of solver time (run: "
        f"{site.proofs_mode}).\n\n"
    )
    out.append(
        rst.list_table(
            ["Property", "Game", "Clauses", "Method", "Verdict", "Seconds"],
            rows,
            [34, 8, 16, 20, 12, 8],
        )
    )
    for p in site.proofs:
        out.append(_proof(p))
    return "".join(out)


def proofs_parts(site: Site) -> tuple[str, dict[str, str]]:
    """The proof table (included by proofs.rst) and the proofs' details, split in pages.

    The details (witness and counterexample boards) of each game are packed
    into pages of at most :data:`PAGE_BUDGET` characters; the table links to
    each property where it is.
    """
    whole = proofs_page(site)
    if site.proofs is None:
        return whole, {}
    head = ".. This file is generated at build time from castlerules; do not edit.\n\n"
    table = whole
    first = _proof(site.proofs[0])
    if first in whole:
        table = whole[: whole.index(first)]
    parts: dict[str, str] = {}
    for game in dict.fromkeys(p.game for p in site.proofs):
        sections = [(p.name, _proof(p)) for p in site.proofs if p.game == game]
        for number, group in enumerate(pack(sections), 1):
            title = f"{TITLES.get(game, game)} proofs, part {number}"
            parts[f"{game}-{number}"] = (
                head + rst.title(title, "=") + "\n" + "".join(t for _, t in group)
            )
    toc = ".. toctree::\n   :maxdepth: 1\n   :caption: Each property in detail\n\n"
    toc += "".join(f"   proofs/{stem}\n" for stem in parts) + "\n"
    return table + toc, parts


def _verdict(p: ProofRow) -> str:
    if not p.ok:
        return f"**{p.verdict}** (not as expected)"
    if p.verdict == "refuted":
        return "**refuted**, as expected"
    return f"**{p.verdict}**"


SENSITIVITY_NOTES: dict[str, tuple[str, str]] = {
    "ascent.sensitivity.favour_equal_rank": (
        "the invariant and the ceiling still hold",
        "What this check shows: the mutation (a favour that may also take a leader of the "
        "taker's own rank, where :clause:`A10` says *d'un rang inférieur*) breaks no "
        "invariant: the inductive invariant and the ceiling still hold under it (proved "
        "again by induction with the mutation, see the detail).  What it breaks is the "
        "agreement with the engine: the engine plays the mutated model's game until the "
        "two part, then refuses the equal-rank favour, citing {clause}{why}.  So the "
        "check shows that the proofs' model takes favours exactly as the engine does; "
        "no proved property depends on A10's strictness.",
    ),
}
"""Explanations of sensitivity checks whose refutation is not an invariant's: the
proof's name, a phrase its computed detail must contain (else the build fails: the
explanation no longer holds), and the explanation (``{clause}``: the clause the
engine cites when it refuses the mutation's move, read from the detail)."""

_REFUSAL = re.compile(r"the engine refuses \S+ \(move \d+, ([AB]\d{1,2})\)")


def _sensitivity_note(p: ProofRow) -> str:
    found = SENSITIVITY_NOTES.get(p.name)
    if found is None:
        return ""
    needed, text = found
    refusal = _REFUSAL.search(p.detail)
    if needed not in p.detail or refusal is None:
        raise SiteError(
            f"the proofs page explains {p.name} by '{needed}' and an engine refusal, which "
            f"its result no longer says: {p.detail}"
        )
    clause = refusal.group(1)
    why = (
        " (an equal rank being no favour under A10, the engine opened no favour after the "
        "move before, and only a stack just moved may take one)"
        if clause == "A11"
        else ""
    )
    return "\n" + text.format(clause=clause_ref(clause), why=why) + "\n\n"


def _proof(p: ProofRow) -> str:
    out = [rst.labels(p.anchor), rst.title(rst.escape(p.name), "-"), "\n"]
    out.append(f"**{rst.escape(p.title)}**\n\n")
    out.append(f"- Clauses: {clause_refs(p.clauses) or 'none'}.\n")
    out.append(f"- Method: {rst.escape(p.method)}; verdict {_verdict(p)}, in {p.seconds:.2f} s.\n")
    if p.verdict == "refuted" and p.ok:
        out.append(
            "- Refuted on purpose: a sensitivity check, which shows that the proofs notice a "
            "wrong claim or a wrong rule.\n"
        )
    if p.scope:
        out.append(f"- Scope: {rst.escape(p.scope)}\n")
    if p.detail:
        out.append(f"- Detail: {rst.escape(p.detail)}\n")
    out.append("\n")
    out.append(_sensitivity_note(p))
    if p.trace_positions:
        kind = "Witness" if p.verdict == "witness" else "Counterexample"
        note = p.trace_note if p.trace_note and p.trace_note != p.detail else ""
        out.append(
            f"{kind}, replayed through the engine at build time"
            + (f" ({rst.escape(note)})" if note else "")
            + ":\n\n"
        )
        if p.trace_moves:
            out.append(f"Moves: {rst.literal(' '.join(p.trace_moves))}\n\n")
        out.append(position_block(p.trace_positions[-1], "The last position"))
        if p.figures:
            out.append(figures(list(p.figures)))
    return "".join(out)


# --------------------------------------------------------------------------- tests


def tests_parts(site: Site) -> tuple[str, dict[str, str]]:
    """The tests page (included by tests.rst: the tests of each clause, and the
    table of contents of the pages by file) and its pages, by file stem
    (``docs/tests-by-file/<n>.rst``: each test with its label, docstring and clauses).

    The test files are packed, in order, into pages of at most :data:`PAGE_BUDGET`
    characters, so that the page stays small as the tests grow.
    """
    head = ".. This file is generated at build time from the test sources; do not edit.\n\n"
    out = [head]
    out.append(rst.title("By clause", "-"))
    out.append("\n")
    for game in GAMES:
        for c in site.clauses[game]:
            tests = site.tests_of(c.id)
            refs = ", ".join(test_ref(t) for t in tests) if tests else "*none yet*"
            out.append(f"- {clause_ref(c.id)} ({len(tests)}): {refs}\n")
    out.append("\n")
    by_file: dict[str, list[TestRef]] = {}
    for t in site.tests:
        by_file.setdefault(t.path, []).append(t)
    sections = []
    for path, tests in by_file.items():
        text = [rst.title(rst.literal(path), "-"), "\n"]
        for t in tests:
            text.append(rst.labels(t.anchor))
            text.append(f"{rst.literal(t.name)} (line {t.line})\n")
            doc = rst.escape(t.doc) + " " if t.doc else ""
            text.append(f"   {doc}Clauses: {clause_refs(t.clauses)}.\n\n")
        sections.append((path, "".join(text)))
    parts: dict[str, str] = {}
    for number, group in enumerate(pack(sections), 1):
        first, last = group[0][0], group[-1][0]
        span = first if first == last else f"{first} to {last}"
        title = f"Tests by file: {rst.escape(span)}"
        parts[str(number)] = head + rst.title(title, "=") + "\n" + "".join(t for _, t in group)
    out.append(rst.title("By file", "-"))
    out.append("\n.. toctree::\n   :maxdepth: 2\n\n")
    out.extend(f"   tests-by-file/{stem}\n" for stem in parts)
    out.append("\n")
    return "".join(out), parts


def clause_index(site: Site) -> str:
    """Every clause of both games, one line each, linked to its section."""
    out = [".. This file is generated at build time from castlerules; do not edit.\n\n"]
    for game in GAMES:
        rows = [
            [clause_ref(c.id), rst.escape(c.summary), str(len(site.tests_of(c.id)))]
            for c in site.clauses[game]
        ]
        out.append(f".. rubric:: {TITLES[game]}\n\n")
        out.append(rst.list_table(["Clause", "What it says", "Tests"], rows, [10, 80, 10]))
    return "".join(out)


def timings(site: Site) -> str:
    parts = ", ".join(f"{k} {v:.1f} s" for k, v in site.timings.items())
    return (
        "The generated pages were computed from the engine when this site was built "
        f"({parts}; searches and proofs are reused while the sources do not change).\n"
    )
