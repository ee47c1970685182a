"""Everything the site shows that comes from the engine, computed once per build.

:func:`collect` gathers, for both games: the clauses (``castlerules.core``),
the options and presets of ``Rules`` with their documentation, the
interpretation notes, the tests and the engine lines that cite each clause,
an illustration per clause (the before/after boards of a casebook case
about it), the casebook (its found games replayed and checked), the
register of open points with a position where each pair of readings
disagrees (searched, then replayed and checked) and the proof table.

The casebook's games come from ``castlerules/casebook/found.json``; a case
whose game no longer shows it is searched again (and kept in the cache
below).  Searches (casebook, register) and proofs are cached in
``docs/_generated/.cache`` under a hash of every source file of
``castlerules/`` and ``proofs/``: the HTML and the doctest builds of one
``bash dev docs`` run share them, and any change of the code invalidates
them.  Replays and checks run at every build: a claim that no longer holds
fails the build.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

from castlerules import ascent, casebook, register, throne
from castlerules.casebook import report as case_report
from castlerules.casebook import store as case_store
from castlerules.core import CLAUSES, Clause, Note, clauses_of
from castlerules_sphinx.scan import Citation, TestRef, clause_ids_in, scan_citations, scan_tests

LOGGER = logging.getLogger(__name__)

GAMES: dict[str, ModuleType] = {"throne": throne, "ascent": ascent}
CACHE_VERSION = 3


class SiteError(Exception):
    """Something the site claims no longer holds: the build must fail."""


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game's ``Rules``."""

    game: str
    name: str
    default: object
    doc: str
    clauses: tuple[str, ...]
    presets: tuple[tuple[str, object], ...]  # presets that set it, with the value


@dataclass(frozen=True)
class Illustration:
    """The boards of a casebook case that shows a clause at work: before, and after."""

    game: str
    clause: str
    svg: str
    caption: str
    position: str
    case_key: str | None = None
    svg_after: str = ""
    caption_after: str = ""


@dataclass(frozen=True)
class ProofRow:
    """One line of the proof table (a ``proofs`` result, flattened for the docs)."""

    name: str
    game: str
    title: str
    clauses: tuple[str, ...]
    method: str
    verdict: str
    ok: bool
    seconds: float
    scope: str
    detail: str
    trace_positions: tuple[str, ...]
    trace_moves: tuple[str, ...]
    trace_note: str
    figures: tuple[tuple[str, str], ...] = ()
    """Boards drawn from the replayed trace: (svg, caption)."""

    @property
    def anchor(self) -> str:
        return "proof-" + re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")


@dataclass
class Site:
    """Everything generated for one build."""

    root: Path
    clauses: dict[str, tuple[Clause, ...]] = field(default_factory=dict)
    options: dict[str, tuple[OptionInfo, ...]] = field(default_factory=dict)
    notes: dict[str, tuple[Note, ...]] = field(default_factory=dict)
    presets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tests: tuple[TestRef, ...] = ()
    citations: dict[str, tuple[Citation, ...]] = field(default_factory=dict)
    illustrations: dict[str, Illustration] = field(default_factory=dict)
    cases: tuple[casebook.Shown, ...] = ()
    points: dict[str, tuple[register.OpenPoint, ...]] = field(default_factory=dict)
    divergences: dict[tuple[str, str, str], tuple[register.Divergence, Any, Any]] = field(
        default_factory=dict
    )
    """(game, option, reading label) -> the divergence and its position under each reading."""
    proofs: tuple[ProofRow, ...] | None = None
    proofs_error: str = ""
    proofs_mode: str = ""
    timings: dict[str, float] = field(default_factory=dict)

    def tests_of(self, clause_id: str) -> tuple[TestRef, ...]:
        return tuple(t for t in self.tests if clause_id in t.clauses)

    def cases_of(self, clause_id: str) -> tuple[casebook.Shown, ...]:
        return tuple(s for s in self.cases if clause_id in s.case.clauses)

    def proofs_of(self, clause_id: str) -> tuple[ProofRow, ...]:
        return tuple(p for p in self.proofs or () if clause_id in p.clauses)

    def options_of(self, game: str, clause_id: str) -> tuple[OptionInfo, ...]:
        return tuple(o for o in self.options[game] if clause_id in o.clauses)

    def notes_of(self, game: str, clause_id: str) -> tuple[Note, ...]:
        return tuple(n for n in self.notes[game] if n.clause == clause_id)

    def point(self, game: str, option: str) -> register.OpenPoint | None:
        return next((p for p in self.points[game] if p.option == option), None)


# --------------------------------------------------------------------------- cache


def source_hash(root: Path) -> str:
    """A hash of the Python sources that searches and proofs depend on.

    Every ``.py`` file of ``castlerules/`` and ``proofs/`` except the drawings
    (``diagram.py``), which change no search result and no proof.
    """
    digest = hashlib.sha256(f"{CACHE_VERSION} {sys.version}".encode())
    for base in (root / "castlerules", root / "proofs"):
        for path in sorted(base.rglob("*.py")):
            if path.name == "diagram.py":
                continue
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


class Cache:
    """Search results and proof results, keyed by the sources' hash (pickled, local only)."""

    def __init__(self, directory: Path, key: str) -> None:
        self.path = directory / ".cache" / f"{key}.pickle"
        self.data: dict[str, Any] = {}
        if self.path.is_file():
            try:
                with self.path.open("rb") as handle:
                    self.data = pickle.load(handle)
            except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
                self.data = {}

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for old in self.path.parent.glob("*.pickle"):
            if old != self.path:
                old.unlink()
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as handle:
            pickle.dump(self.data, handle)
        tmp.replace(self.path)


# --------------------------------------------------------------------------- options


def _rules_docstring_entries(cls: type) -> dict[str, tuple[tuple[str, ...], str]]:
    """``name -> (clauses, text)`` from a definition list in the class docstring:

    ``name`` (A1, A6)
        Description...
    """
    doc = cls.__doc__ or ""
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    lines = doc.splitlines()
    head = re.compile(r"^\s*``(\w+)``\s*(?:\(([^)]*)\))?\s*$")
    i = 0
    while i < len(lines):
        match = head.match(lines[i])
        if match:
            name, cited = match.group(1), match.group(2) or ""
            body: list[str] = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("        ")):
                blank = not lines[i].strip()
                if blank and body and i + 1 < len(lines) and not lines[i + 1].startswith(" " * 8):
                    break
                body.append(lines[i].strip())
                i += 1
            out[name] = (clause_ids_in(cited, CLAUSES), " ".join(b for b in body if b))
            continue
        i += 1
    return out


def collect_options(module: ModuleType) -> tuple[OptionInfo, ...]:
    rules_cls = module.Rules
    default = rules_cls()
    attr_docs = ModuleAnalyzer.for_module(rules_cls.__module__).find_attr_docs()
    listed = _rules_docstring_entries(rules_cls)
    presets = dict(rules_cls.PRESETS)
    out = []
    for option in attrs.fields(rules_cls):
        name = option.name
        text = " ".join(line.strip() for line in attr_docs.get(("Rules", name), [])).strip()
        cited: tuple[str, ...] = ()
        if name in listed:
            cited, listed_text = listed[name]
            text = text or listed_text
        declared = next(o for o in rules_cls.OPTIONS if o.name == name)
        ids = list(dict.fromkeys([*declared.clauses, *cited]))
        ids += [c for c in clause_ids_in(text, CLAUSES) if c not in ids]
        text = text or declared.summary
        for note in module.NOTES:
            if note.option == name and note.clause not in ids:
                ids.append(note.clause)
        out.append(
            OptionInfo(
                game=module.NAME,
                name=name,
                default=getattr(default, name),
                doc=text,
                clauses=tuple(ids),
                presets=tuple(
                    (preset, changes[name])
                    for preset, changes in presets.items()
                    if name in changes
                ),
            )
        )
    return tuple(out)


# --------------------------------------------------------------------------- illustrations


def _svg(module: ModuleType, state: Any, **kwargs: Any) -> str:
    """The position drawn by the game's own ``svg()`` (``throne.svg``, ``ascent.svg``)."""
    text: str = module.svg(state, **kwargs)
    return text


def highlight_of(module: ModuleType, move_text: str) -> dict[str, Any]:
    """The ``svg()`` keyword that outlines the piece a move names (nothing for votes, end)."""
    if module is throne:
        if move_text[:1].isalpha() and move_text[:1].isupper():
            return {"highlight": (move_text[0],)}
        return {}
    card = move_text.removeprefix("x")
    if len(card) == 2 and card[1].isdigit():
        return {"highlight": (ascent.Card(int(card[1]), ascent.Rank.from_letter(card[0])),)}
    return {}


_KIND_ORDER = {"step": 0, "game": 1, "refusal": 2, "reading": 3}


def illustrate(module: ModuleType, site: Site) -> dict[str, Illustration]:
    """The boards of the casebook case about each clause of a game (before, and after).

    The case whose first clause it is; a move or a game before a refusal,
    a refusal before a reading.  A clause without a case fails the build:
    no clause page shows a board where the clause is not at work.
    """
    chosen: dict[str, Illustration] = {}
    for c in clauses_of(module.NAME):
        about = [s for s in site.cases if s.case.clauses[0] == c.id]
        if not about:
            raise SiteError(f"no casebook case is about {c.id}: declare one (castlerules.casebook)")
        shown = min(about, key=lambda s: _KIND_ORDER[s.case.kind])
        boards = case_report.diagrams(shown)
        (caption, state, extra), rest = boards[0], boards[1:]
        after = rest[0] if rest else None
        chosen[c.id] = Illustration(
            game=module.NAME,
            clause=c.id,
            svg=_svg(module, state, **extra),
            caption=f"{caption}: {shown.case.statement}",
            position=module.to_text(state),
            case_key=shown.case.key,
            svg_after="" if after is None else _svg(module, after[1], **after[2]),
            caption_after="" if after is None else f"{after[0]}.",
        )
    return chosen


def collect_cases(cache: Cache) -> tuple[casebook.Shown, ...]:
    """Replay and check every case from ``found.json``; search again any that fails.

    A case searched again here is kept in the build cache (so the HTML and
    doctest builds share it) and named in the log: ``castlerules cases
    search`` writes it to ``found.json``.  A case that cannot be found fails
    the build.
    """
    known = case_store.load()
    known.update(cache.data.get("casebook", {}))
    again: dict[str, casebook.Found] = {}
    out = []
    for item in casebook.CASES:
        try:
            out.append(casebook.show(item.key, known))
            continue
        except casebook.CaseError as err:
            LOGGER.info("castlerules: %s; searching again", err)
        found, done = case_store.refresh([item], {})
        if item.key not in found:
            raise SiteError(f"casebook: {done[item.key]}")
        again[item.key] = found[item.key]
        out.append(casebook.verify(item, found[item.key]))
    if again:
        LOGGER.info(
            "castlerules: %d casebook cases were searched again (%s): run "
            "'castlerules cases search' to keep their games in found.json",
            len(again),
            ", ".join(again),
        )
    cache.data["casebook"] = again
    return tuple(out)


# --------------------------------------------------------------------------- proofs


def _proof_rows(results: Any) -> tuple[ProofRow, ...]:
    rows = []
    for r in results:
        trace = getattr(r, "trace", None)
        rows.append(
            ProofRow(
                name=str(r.name),
                game=str(r.game),
                title=str(r.title),
                clauses=tuple(str(c) for c in r.clauses),
                method=str(r.method),
                verdict=str(getattr(r, "verdict", "proved" if r.holds else "refuted")),
                ok=bool(getattr(r, "ok", r.holds)),
                seconds=float(r.seconds),
                scope=str(getattr(r, "scope", "")),
                detail=str(getattr(r, "detail", "")),
                trace_positions=tuple(trace.positions) if trace is not None else (),
                trace_moves=tuple(trace.moves) if trace is not None else (),
                trace_note=str(getattr(trace, "note", "")) if trace is not None else "",
            )
        )
    return tuple(rows)


PROOFS_JSON = "artifacts/proofs.json"
"""Where ``bash dev prove`` leaves its results (``python -m proofs --save``)."""


def _recorded_proofs(root: Path) -> tuple[tuple[ProofRow, ...], str] | None:
    """The results of a proofs run saved as JSON, if they are those of the code at hand.

    ``$CASTLERULES_PROOFS_JSON`` names the file (default ``artifacts/proofs.json``,
    written by ``python -m proofs --save``): ``{"ok", "seconds", "mode",
    "source", "results": [Result.to_json(), ...]}``.  The results are used
    only if they are fresh: when the file records ``source``, it must equal
    ``proofs.source_hash()`` of the sources at hand; an older file without it
    must be newer than every ``.py`` file of ``castlerules/`` and ``proofs/``.
    Else (or without the file) None: the build runs the proofs itself.  A file
    that cannot be read as proof results fails the build.
    """
    path = Path(os.environ.get("CASTLERULES_PROOFS_JSON") or root / PROOFS_JSON)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data["results"] if isinstance(data, dict) else data
        rows = tuple(_row_from_json(item) for item in items)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise SiteError(f"{path} cannot be read as proof results: {err}") from err
    stale = _stale(root, path, data.get("source") if isinstance(data, dict) else None)
    if stale:
        LOGGER.info("castlerules: %s is not used: %s; the proofs run now", path, stale)
        return None
    mode = str(data.get("mode", "recorded")) if isinstance(data, dict) else "recorded"
    try:
        shown = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        shown = path.name
    return rows, f"{mode} mode, saved by ``python -m proofs --save`` in ``{shown}``"


def _stale(root: Path, path: Path, source: object) -> str:
    """Why the saved results at ``path`` are not those of the sources at hand ("" if they are)."""
    if source is not None:
        hasher = getattr(importlib.import_module("proofs"), "source_hash", None)
        if hasher is not None:
            now = str(hasher())
            return "" if str(source) == now else f"its source hash {source} is not {now}"
    stamp = path.stat().st_mtime
    for base in (root / "castlerules", root / "proofs"):
        newer = next((p for p in base.rglob("*.py") if p.stat().st_mtime > stamp), None)
        if newer is not None:
            return f"{newer.relative_to(root)} is newer"
    return ""


def _row_from_json(item: dict[str, Any]) -> ProofRow:
    trace = item.get("trace") or {}
    return ProofRow(
        name=str(item["name"]),
        game=str(item["game"]),
        title=str(item["title"]),
        clauses=tuple(str(c) for c in item["clauses"]),
        method=str(item["method"]),
        verdict=str(item["verdict"]),
        ok=bool(item["ok"]),
        seconds=float(item["seconds"]),
        scope=str(item.get("scope", "")),
        detail=str(item.get("detail", "")),
        trace_positions=tuple(trace.get("positions", ())),
        trace_moves=tuple(trace.get("moves", ())),
        trace_note=str(trace.get("note", "")),
    )


def _run_proofs(fast: bool, say: Any = None) -> tuple[Any, str]:
    """Run the proofs (``proofs.run_all(fast=...)``); return the results and the run's mode.

    A long step: it says so first, then one line per property as each job ends
    (``say``, default the build's log), so the build is never silent for minutes.
    """
    runner = getattr(importlib.import_module("proofs"), "run_all", None)
    if runner is None:
        raise SiteError("the proofs package has no run_all()")
    say = LOGGER.info if say is None else say
    say(
        f"castlerules: running the proofs ({'fast' if fast else 'full'} mode; "
        "'bash dev prove' saves them for the next builds), one line per property:"
    )
    start = time.perf_counter()

    def progress(done: int, total: int, job: str, results: Any) -> None:
        elapsed = time.perf_counter() - start
        for result in results:
            verdict = "ok" if result.ok else "FAILED"
            say(
                f"castlerules: proofs [{done}/{total} jobs, {elapsed:.0f} s] {result.game}: "
                f"{result.title}: {verdict} ({result.seconds:.1f} s)"
            )

    results = runner(fast=fast, progress=progress)
    return results, f"{'fast' if fast else 'full'} mode, run by the docs build"


def _check_trace(row: ProofRow) -> tuple[tuple[str, str], ...]:
    """Replay a witness or counterexample through the engine; draw its last positions.

    The trace's first position is read with ``from_text``, each move with
    ``parse_move`` and played with ``apply``; every position the proof
    recorded must be the one the engine reaches.  Returns the boards before
    and after the last move.
    """
    if not row.trace_positions:
        return ()
    module = GAMES.get(row.game)
    if module is None:
        raise SiteError(f"proof {row.name}: unknown game {row.game!r}")
    try:
        state = module.from_text(row.trace_positions[0])
        states = [state]
        for i, text in enumerate(row.trace_moves):
            state = module.apply(state, module.parse_move(state, text))
            states.append(state)
            recorded = row.trace_positions[i + 1] if i + 1 < len(row.trace_positions) else None
            if recorded is not None and module.to_text(state) != recorded:
                raise SiteError(
                    f"proof {row.name}: move {i + 1} ({text}) does not lead to the position "
                    "the proof recorded"
                )
    except SiteError:
        raise
    except Exception as err:  # any engine refusal is a broken claim
        raise SiteError(f"proof {row.name}: its trace cannot be replayed: {err}") from err
    out = []
    if len(states) > 1:
        last = row.trace_moves[-1]
        out.append((_svg(module, states[-2]), f"Before the last move ({last})."))
    out.append((_svg(module, states[-1]), "The last position."))
    return tuple(out)


# --------------------------------------------------------------------------- collect


def collect(
    root: Path, generated: Path, *, proofs_fast: bool = True, run_proofs: bool = True
) -> Site:
    """Compute the whole site's data; raise :class:`SiteError` when a claim fails.

    The proof table comes from fresh saved results (:func:`_recorded_proofs`),
    else from this build's cache, else from running the proofs, unless
    ``run_proofs`` is false: the table is then left out unless saved or
    cached results exist.
    """
    site = Site(root=root)
    cache = Cache(generated, source_hash(root))
    tick = time.perf_counter()

    for name, module in GAMES.items():
        site.clauses[name] = clauses_of(name)
        site.notes[name] = tuple(module.NOTES)
        site.options[name] = collect_options(module)
        site.presets[name] = tuple(module.Rules.PRESETS)
        site.citations.update(
            {
                c.id: scan_citations(root, name, c.id, skip=("diagram.py", "kernel.py"))
                for c in site.clauses[name]
            }
        )
    site.tests = scan_tests(root, CLAUSES)
    site.timings["scan"] = time.perf_counter() - tick

    # The casebook: every found game replayed and checked (searched again if it fails).
    tick = time.perf_counter()
    site.cases = collect_cases(cache)
    site.timings["casebook"] = time.perf_counter() - tick

    # The register: divergences (cached), replayed and checked.
    tick = time.perf_counter()
    found: dict[tuple[str, str, str], register.Divergence | None] = cache.data.get("register", {})
    for name, module in GAMES.items():
        site.points[name] = register.open_points(module)
        for point in site.points[name]:
            if point.excluded is not None:
                continue
            base = point.readings[0]
            for reading in point.readings[1:]:
                key = (name, point.option, reading.label)
                if key not in found:
                    found[key] = register.diverge(module, base, reading)
                divergence = found[key]
                if divergence is None:
                    raise SiteError(
                        f"register: no position found where {name} readings 'default' and "
                        f"{reading.label!r} differ"
                    )
                try:
                    first, second = register.replay_divergence(module, divergence)
                except AssertionError as err:
                    raise SiteError(f"register {name} {reading.label}: {err}") from err
                site.divergences[key] = (divergence, first, second)
    cache.data["register"] = found
    site.timings["register"] = time.perf_counter() - tick

    # One illustration per clause.
    tick = time.perf_counter()
    for module in GAMES.values():
        site.illustrations.update(illustrate(module, site))
    site.timings["illustrations"] = time.perf_counter() - tick

    # The proof table.
    tick = time.perf_counter()
    cached = _recorded_proofs(root) or cache.data.get("proofs")
    if cached is None and not run_proofs:
        site.proofs_error = "the proofs were not run for this build"
    elif cached is None:
        try:
            results, mode = _run_proofs(proofs_fast)
            cached = (_proof_rows(results), mode)
        except SiteError as err:
            site.proofs_error = str(err)
        except ImportError as err:
            site.proofs_error = f"the proofs package cannot be imported: {err}"
        else:
            cache.data["proofs"] = cached
    if cached is not None:
        rows, site.proofs_mode = cached
        site.proofs = tuple(with_trace_svg(row) for row in rows)
    site.timings["proofs"] = time.perf_counter() - tick

    cache.save()
    return site


def with_trace_svg(row: ProofRow) -> ProofRow:
    """The row with the boards of its trace (replayed through the engine)."""
    return ProofRow(**{**row.__dict__, "figures": _check_trace(row)})
