"""The found games, cached in the repository (``found.json``), keyed by a hash of the sources.

Each case's entry records the hash it was found under: the sources of the
rules of its game (``castlerules/core`` and ``castlerules/<game>``, the
drawings excepted) and the case's own declaration (its data and the source
text of its condition).  A source file is hashed as its code alone
(:func:`code_text`: docstrings and comments dropped), so that a change of
wording never sends a case back to its search.  :func:`refresh` searches again only the cases
whose declaration changed, that are missing, or whose game no longer shows
them; a case whose game's sources changed but whose recorded game still
verifies keeps its game (it is verified all the same, at every use) and
takes the new hash.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import json
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import attrs

from castlerules.casebook import declare
from castlerules.casebook.check import CaseError, Found, verify
from castlerules.casebook.declare import Case

__all__ = [
    "PATH",
    "case_hash",
    "closure_source",
    "code_text",
    "game_hash",
    "load",
    "refresh",
    "save",
]

PATH = Path(__file__).with_name("found.json")
FORMAT = "castlerules.casebook"
_ROOT = Path(__file__).resolve().parents[1]


def code_text(source: str) -> str:
    r"""A Python source's code alone: its docstrings (every string standing as a
    statement, attribute docstrings included) and comments dropped, the rest
    written out again by :func:`ast.unparse`.

    >>> code_text("def f(x):\n    'Twice x.'\n    return 2 * x  # doubled\n")
    'def f(x):\n    return 2 * x'
    """
    tree = ast.parse(source)
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            kept = [
                statement
                for statement in body
                if not (
                    isinstance(statement, ast.Expr)
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                )
            ]
            if len(kept) != len(body):
                setattr(node, field, kept or [ast.Pass()])
    return ast.unparse(tree)


def file_code(path: Path) -> str:
    """:func:`code_text` of a file, computed once per version of the file in a process
    (a search hashes the same engine files for every case)."""
    found = path.stat()
    return _file_code(str(path), found.st_mtime_ns, found.st_size)


@functools.lru_cache(maxsize=256)
def _file_code(path: str, _mtime: int, _size: int) -> str:
    return code_text(Path(path).read_text(encoding="utf-8"))


def game_hash(game: str) -> str:
    """A hash of the code that decides a game's rules (its drawings excepted)."""
    digest = hashlib.sha256()
    for base in (_ROOT / "core", _ROOT / game):
        for path in sorted(base.glob("*.py")):
            if path.name == "diagram.py":
                continue
            digest.update(path.relative_to(_ROOT).as_posix().encode())
            digest.update(file_code(path).encode())
    return digest.hexdigest()[:16]


_OWN = "castlerules.casebook"
"""Helpers of this package are hashed with the conditions that call them (the engine is
hashed whole, by :func:`game_hash`)."""


def _source(item: object) -> str:
    try:
        return inspect.getsource(item)  # type: ignore[arg-type]
    except (OSError, TypeError):  # pragma: no cover - conditions are defined in files
        return repr(item)


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def closure_source(*functions: object, views: Sequence[type] = ()) -> str:
    """The source of ``functions`` and of every helper of the casebook they call.

    Followed: the globals a function's code names that are functions or
    classes defined in ``castlerules.casebook`` (a case module's ``_shared``,
    the methods of ``views`` it names: ``says``, ``cites`` ...), the functions held
    in its closure cells, recursively.  So a changed helper changes the hash
    of every case whose condition calls it, and of no other.
    """
    seen: dict[str, str] = {}
    done: set[types.CodeType] = set()
    todo = [f for f in functions if f is not None]
    while todo:
        item = todo.pop()
        code = getattr(item, "__code__", None)
        name = f"{getattr(item, '__module__', '')}.{getattr(item, '__qualname__', repr(item))}"
        if code is None or code in done:
            continue
        done.add(code)
        if name in seen:  # two lambdas (or two functions of one name): both are hashed,
            # numbered in the order they are met (not by line: an edit above them keeps keys)
            name = f"{name}#{sum(1 for k in seen if k.split('#')[0] == name) + 1}"
        seen[name] = _source(item)
        names = {n for c in _codes(code) for n in c.co_names}
        scope = getattr(item, "__globals__", {})
        for n in sorted(names):
            found = scope.get(n)
            if callable(found) and getattr(found, "__module__", "").startswith(_OWN):
                todo.append(found)
            for view in views:
                attr = inspect.getattr_static(view, n, None)
                if attr is not None and n not in ("__init__",):
                    target = attr.fget if isinstance(attr, property) else attr
                    if hasattr(target, "__code__"):
                        todo.append(target)
        for cell in getattr(item, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:  # pragma: no cover - an empty cell
                continue
            for held in value if isinstance(value, tuple) else (value,):
                if isinstance(held, declare.Claim):  # a case's claims: their text too
                    seen[f"claim {held.text}"] = held.text
                    todo.extend(f for f in (held.holds, held.values) if f is not None)
                elif callable(held) and getattr(held, "__module__", "").startswith(_OWN):
                    todo.append(held)
    return "\n".join(f"# {k}\n{v}" for k, v in sorted(seen.items()))


def _declaration(case: Case) -> str:
    from castlerules.casebook.search import GUIDES

    data = (case.kind, case.clauses, case.players, case.preset, case.options, case.versus)
    views = (declare.Moment, declare.Game, declare.Refusal, declare.Split)
    text = f"{data!r} {case.guide} {case.budget} "
    text += closure_source(case.when, GUIDES[case.guide], views=views)
    if case.bmc is not None and case.kind == "reading":
        from castlerules.casebook import bmc, bmc_reading

        steps: tuple[type, ...] = (bmc_reading.ReadingStep,)
        model = bmc.model_sources(case.game)
        text += f" bmc {closure_source(case.bmc, bmc_reading.find, views=steps)} {model}"
    elif case.bmc is not None:
        from castlerules.casebook import bmc

        steps = (bmc.ThroneStep, bmc.AscentStep)
        model = bmc.model_sources(case.game)
        text += f" bmc {closure_source(case.bmc, bmc.find, views=steps)} {model}"
    return text


def case_hash(case: Case) -> str:
    """The hash a case's game is found under: its game's sources and its declaration."""
    digest = hashlib.sha256(_declaration(case).encode())
    return f"{game_hash(case.game)}-{digest.hexdigest()[:12]}"


def load(path: Path = PATH) -> dict[str, Found]:
    """The cached games, by case key (empty if there is no cache)."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        return {}
    return {key: Found.from_json(key, item) for key, item in data["cases"].items()}


def save(found: dict[str, Found], path: Path = PATH) -> None:
    """Write the cache, cases in key order, one field a line (small diffs)."""
    lines = [
        f"  {json.dumps(key)}: {json.dumps(found[key].to_json(), ensure_ascii=False)}"
        for key in sorted(found)
    ]
    text = f'{{\n "format": "{FORMAT}",\n "cases": {{\n' + ",\n".join(lines) + "\n }\n}\n"
    # The cache is updated by design (records.WRITE_POLICY): written beside it, then put
    # in its place at once, so that an interrupted search never leaves half a file.
    temp = path.with_name(f".{path.name}.part")
    try:
        temp.write_text(text, encoding="utf-8")
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)


def refresh(
    cases: Iterable[Case],
    known: dict[str, Found],
    *,
    everything: bool = False,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, Found], dict[str, str]]:
    """Bring the found games up to date; return them and what was done to each case.

    A case is searched again when ``everything`` is set, when it has no
    game, when its declaration changed, or when its game no longer shows
    it; otherwise its game is re-verified and kept.
    """
    from castlerules.casebook.search import SearchError, find

    out: dict[str, Found] = {}
    done: dict[str, str] = {}
    todo = list(cases)
    for number, case in enumerate(todo, 1):
        tick = time.perf_counter()
        key_hash = case_hash(case)
        old = known.get(case.key)
        action = "search"
        if old is not None and not everything:
            same_case = old.source.split("-")[-1] == key_hash.split("-")[-1]
            if same_case:
                try:
                    verify(case, old)
                except CaseError:
                    action = "search (its game no longer shows it)"
                else:
                    action = "kept" if old.source == key_hash else "re-verified"
        if action in ("kept", "re-verified"):
            assert old is not None
            out[case.key] = attrs.evolve(old, source=key_hash)
        else:
            try:
                result = find(case)
            except SearchError as err:
                done[case.key] = f"NOT FOUND: {err}"
                if old is not None:
                    out[case.key] = old
                if progress is not None:
                    progress(f"[{number}/{len(todo)}] {case.key}: {done[case.key]}")
                continue
            hit = result.hit
            found = Found(
                case.key,
                result.players,
                result.seed,
                hit.moves,
                hit.tried,
                result.found_by,
                key_hash,
                result.proof,
                result.depth,
            )
            verify(case, found)
            out[case.key] = found
        done[case.key] = action
        if progress is not None:
            seconds = time.perf_counter() - tick
            progress(
                f"[{number}/{len(todo)}] {case.key}: {action}, {out[case.key].plies} plies "
                f"({seconds:.1f} s)"
            )
    return out, done


def _print(line: str) -> None:  # pragma: no cover - terminal output
    print(line, file=sys.stderr, flush=True)
