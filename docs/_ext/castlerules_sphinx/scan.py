"""Find what covers each clause by reading the sources: tests, and the engine's citations.

A test covers a clause when its name holds the clause ID as a word
(``test_b7_full_floor_refuses_placement``) or its docstring cites it
(``"... (B7)"``, see :func:`cited_ids`): the convention every test of the
project follows.  A test under ``tests/ascent/`` covers only Ascent clauses
and one under ``tests/throne/`` only Throne clauses, so that the card ``B1``
(the Bishop of seat 1) of an Ascent test is not taken for clause B1.  The
engine cites a clause in a comment or a string next to the check it makes;
those lines are listed so a reader can go from the rule to the code.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_NAME_ID = re.compile(r"(?:^|_)([ab]\d{1,2})(?=_|$)")
_TEXT_ID = re.compile(r"(?<![A-Za-z0-9_])([AB]\d{1,2})(?![0-9])")


@dataclass(frozen=True)
class TestRef:
    """One test function (or method) and the clauses it names."""

    path: str  # relative to the repository root, with "/"
    name: str  # "test_x" or "TestClass.test_x"
    line: int
    end_line: int
    doc: str
    clauses: tuple[str, ...]

    @property
    def anchor(self) -> str:
        """The label of the test on the tests page."""
        stem = self.path.removesuffix(".py").replace("/", "-").replace("_", "-")
        return f"test-{stem}-{self.name.replace('.', '-').replace('_', '-')}".lower()


@dataclass(frozen=True)
class Citation:
    """Lines of one engine function (or module level) that cite a clause."""

    path: str
    function: str
    lines: tuple[int, ...]


def clause_ids_in(text: str, known: Iterable[str]) -> tuple[str, ...]:
    """The known clause IDs cited in a text, in order of first mention, without repeats."""
    known_set = set(known)
    seen: dict[str, None] = {}
    for match in _TEXT_ID.finditer(text):
        if match.group(1) in known_set:
            seen.setdefault(match.group(1), None)
    return tuple(seen)


_ID = r"[AB]\d{1,2}(?![A-Za-z0-9])"
_LIST = rf"{_ID}(?:\s*(?:,|;|/|-|and|or|\+)\s*{_ID})*"
_CITATIONS = (
    # "(B7)", "(A9, A13)", "(rule 15; A13)": inside brackets
    re.compile(r"\(([^()]*)\)"),
    # "A13 (rule 15): ...", "B10/B13: ...": IDs that open the text
    re.compile(rf"^\s*({_LIST})"),
    # "clause B7", "clauses A9 and A13", "rule B15"
    re.compile(rf"\b(?:clauses?|rules?|cites?|citing)\s+({_LIST})", re.IGNORECASE),
)
_CITED_ID = re.compile(rf"(?<![A-Za-z0-9_])({_ID})")


def cited_ids(text: str, known: Iterable[str], game: str | None = None) -> tuple[str, ...]:
    """The clause IDs a text *cites*, in order of first mention, without repeats.

    An ID counts by its context, not as a bare token: in brackets (``(B7)``,
    ``(A9, A13)``), opening the text (``A13 (rule 15): ...``) or after
    "clause"/"rule" (``clauses A9 and A13``); and as a whole word (``B1F1L1``
    is a stack of Ascent cards, not B1).  With ``game``, only that game's
    clauses count: in an Ascent test, "B1" is the Bishop of seat 1.
    """
    known_set = {k for k in known if game is None or CLAUSE_GAMES.get(k[:1]) == game}
    found: list[tuple[int, str]] = []
    for pattern in _CITATIONS:
        for match in pattern.finditer(text):
            for inner in _CITED_ID.finditer(match.group(1)):
                if inner.group(1) in known_set:
                    found.append((match.start(1) + inner.start(1), inner.group(1)))
    return tuple(dict.fromkeys(ident for _, ident in sorted(found)))


CLAUSE_GAMES = {"A": "ascent", "B": "throne"}
"""The game of a clause ID, by its letter."""


def game_of_test(path: str) -> str | None:
    """The game a test file is about (``tests/ascent/...``), or None (both, or neither)."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[1] in CLAUSE_GAMES.values() else None


def _name_ids(name: str, known: set[str]) -> list[str]:
    out = []
    for part in name.split("."):
        for match in _NAME_ID.finditer(part.lower()):
            ident = match.group(1).upper()
            if ident in known:
                out.append(ident)
    return out


def _tests_in(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    item.name.startswith("test") or _is_rule_method(item)
                ):
                    yield f"{node.name}.{item.name}", item


def _is_rule_method(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A Hypothesis stateful ``@rule`` or ``@invariant`` method (it tests, too)."""
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("rule", "invariant", "precondition"):
            return True
    return False


def scan_tests(root: Path, known: Iterable[str]) -> tuple[TestRef, ...]:
    """Every test under ``root/tests`` that names at least one known clause."""
    known_set = set(known)
    out: list[TestRef] = []
    tests = root / "tests"
    for path in sorted(tests.rglob("test_*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError):
            continue
        rel = path.relative_to(root).as_posix()
        game = game_of_test(rel)
        mine = {k for k in known_set if game is None or CLAUSE_GAMES.get(k[:1]) == game}
        for name, node in _tests_in(tree):
            doc = ast.get_docstring(node) or ""
            ids = list(dict.fromkeys(_name_ids(name, mine)))
            for ident in cited_ids(doc, mine):
                if ident not in ids:
                    ids.append(ident)
            if ids:
                out.append(
                    TestRef(
                        path=rel,
                        name=name,
                        line=node.lineno,
                        end_line=node.end_lineno or node.lineno,
                        doc=doc.strip().splitlines()[0] if doc.strip() else "",
                        clauses=tuple(ids),
                    )
                )
    return tuple(out)


def scan_citations(
    root: Path, package: str, clause_id: str, skip: tuple[str, ...] = ()
) -> tuple[Citation, ...]:
    """The functions of ``castlerules/<package>`` whose lines cite ``clause_id``.

    ``skip`` names files to leave out (the drawings cite clauses in their
    labels, but they implement no rule).
    """
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(clause_id)}(?![0-9])")
    out: list[Citation] = []
    for path in sorted((root / "castlerules" / package).glob("*.py")):
        if path.name in skip:
            continue
        source = path.read_text(encoding="utf-8")
        lines = [i for i, text in enumerate(source.splitlines(), 1) if pattern.search(text)]
        if not lines:
            continue
        try:
            spans = _function_spans(ast.parse(source))
        except SyntaxError:
            spans = []
        by_function: dict[str, list[int]] = {}
        for number in lines:
            by_function.setdefault(_enclosing(spans, number), []).append(number)
        rel = path.relative_to(root).as_posix()
        for function, numbers in by_function.items():
            out.append(Citation(rel, function, tuple(numbers)))
    return tuple(out)


def _function_spans(tree: ast.Module) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                spans.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, f"{name}.")

    visit(tree, "")
    return spans


def _enclosing(spans: list[tuple[int, int, str]], line: int) -> str:
    best = "(module)"
    size = None
    for start, end, name in spans:
        if start <= line <= end and (size is None or end - start < size):
            best, size = name, end - start
    return best
