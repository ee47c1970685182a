"""The API reference under the names people import.

``from castlerules import throne`` then ``throne.apply``: the reference
documents ``castlerules.throne.apply``, not the module that happens to
define it (``castlerules.throne.transitions``).  The public names are those
of the ``__all__`` of the public modules (:data:`PUBLIC_MODULES`, in order:
a name exported by two of them is documented under the first, e.g.
``castlerules.IllegalMove`` rather than ``castlerules.core.IllegalMove``).

- ``.. castlerules-api:: castlerules.throne`` documents every public name
  that module owns (a name added to its ``__all__`` appears by itself);
- :func:`public_of` turns a defining name (``castlerules.throne.rules.Rules.preset``)
  into its public one (``castlerules.throne.Rules.preset``); cross-references
  of docstrings and signatures are aimed there;
- :func:`shorten_values` replaces the value of a large constant (``CLAUSES``,
  ``NOTES``, ``PLACES``, ``BY_CODE``: thousands of characters) by a short
  description of its size.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

PUBLIC_MODULES: tuple[str, ...] = (
    "castlerules",
    "castlerules.core",
    "castlerules.throne",
    "castlerules.ascent",
    "castlerules.records",
    "castlerules.casebook",
    "castlerules.bots",
    "castlerules.study",
    "castlerules.adapters.openspiel",
    "castlerules.adapters.pettingzoo",
    "castlerules.register",
    "castlerules.register.readings",
    "castlerules.conform",
    "castlerules.conform.vectors",
)
"""The modules whose ``__all__`` is the public surface, first owner first."""

LONG_VALUE = 100
"""A constant's value longer than this (in characters) is not printed."""


def _defining_name(module_name: str, name: str, obj: object) -> str | None:
    """Where ``obj`` (``module_name.name``) is defined, or None when it cannot be told."""
    from castlerules_sphinx import home_of

    home = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if (
        isinstance(home, str)
        and isinstance(qualname, str)
        and home.startswith("castlerules")
        and (inspect.isclass(obj) or inspect.isfunction(obj))
    ):
        return f"{home}.{qualname}"
    return home_of(f"{module_name}.{name}")


@functools.cache
def owners() -> dict[str, tuple[str, ...]]:
    """The public names each public module documents (its own, not an earlier module's)."""
    seen: set[int] = set()
    out: dict[str, tuple[str, ...]] = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        names = []
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or name.startswith("__"):
                continue
            key = id(obj) if (inspect.isclass(obj) or inspect.isroutine(obj)) else None
            real = _defining_name(module_name, name, obj)
            ident = key if key is not None else hash(real or f"{module_name}.{name}")
            if ident in seen:
                continue
            seen.add(ident)
            names.append(name)
        out[module_name] = tuple(names)
    return out


@functools.cache
def public_names() -> dict[str, str]:
    """Defining name -> public name, for every public object."""
    out: dict[str, str] = {}
    for module_name, names in owners().items():
        module = importlib.import_module(module_name)
        for name in names:
            real = _defining_name(module_name, name, getattr(module, name))
            public = f"{module_name}.{name}"
            if real is not None and real != public:
                out.setdefault(real, public)
            # The same object read through another public module (castlerules.core.IllegalMove).
            obj = getattr(module, name)
            for other in PUBLIC_MODULES:
                if (
                    other != module_name
                    and name in getattr(importlib.import_module(other), "__all__", ())
                    and getattr(importlib.import_module(other), name) is obj
                ):
                    out.setdefault(f"{other}.{name}", public)
    return out


def lookup(dotted: str) -> tuple[bool, object]:
    """Whether ``dotted`` names an existing object of castlerules, and the object."""
    parts = dotted.split(".")
    if parts[0] != "castlerules":
        return False, None
    for split in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:]:
            fields = getattr(obj, "__attrs_attrs__", None)
            if hasattr(obj, part):
                obj = getattr(obj, part)
            elif fields is not None and any(f.name == part for f in fields):
                obj = None
            else:
                return False, None
        return True, obj
    return False, None


def public_of(target: str) -> str | None:
    """The public name of a defining name (or of a member of one), or None."""
    table = public_names()
    if target in table:
        return table[target]
    if not lookup(target)[0]:
        return None
    head, _, tail = target.rpartition(".")
    rest = [tail]
    while head:
        if head in table:
            return ".".join([table[head], *reversed(rest)])
        head, _, tail = head.rpartition(".")
        rest.append(tail)
    return None


class PublicApiDirective(SphinxDirective):
    """``.. castlerules-api:: castlerules.throne``: the module and the public names it owns."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        module_name = self.arguments[0].strip()
        if module_name not in PUBLIC_MODULES:
            raise self.error(f"{module_name!r} is not one of {', '.join(PUBLIC_MODULES)}")
        module = importlib.import_module(module_name)
        lines = [f".. automodule:: {module_name}", "   :no-members:", ""]
        for name in owners()[module_name]:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                kind = "autoexception" if issubclass(obj, BaseException) else "autoclass"
                lines.extend([f".. {kind}:: {name}", ""])
            elif inspect.isroutine(obj):
                lines.extend([f".. autofunction:: {name}", ""])
            else:
                lines.extend(_data_entry(module_name, name, obj))
        content = StringList(lines, source=f"<castlerules-api {module_name}>")
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, content, holder)
        return list(holder.children)


def _data_entry(module_name: str, name: str, value: object) -> list[str]:
    """A constant re-exported by ``module_name``, with the docstring of its definition.

    autodoc reads a constant's docstring from the source of the module it is
    documented in, which for a re-export holds none: it is read here from
    the defining module.
    """
    real = _defining_name(module_name, name, value) or f"{module_name}.{name}"
    home, _, attr = real.rpartition(".")
    doc: list[str] = []
    try:
        docs = ModuleAnalyzer.for_module(home).find_attr_docs()
        doc = list(docs.get(("", attr), []))
    except PycodeError:
        doc = []
    shown = repr(value)
    lines = [f".. py:data:: {name}", f"   :module: {module_name}"]
    if len(shown) <= LONG_VALUE:
        lines.append(f"   :value: {shown}")
    lines.append("")
    lines.extend(f"   {line}" if line.strip() else "" for line in doc)
    if len(shown) > LONG_VALUE:
        lines.extend(["", f"   Its value is {_summary(shown)}."])
    lines.append("")
    return lines


def _value_annotations(sig: addnodes.desc_signature) -> Iterator[addnodes.desc_annotation]:
    for child in sig.children:
        if isinstance(child, addnodes.desc_annotation) and child.astext().lstrip().startswith("="):
            yield child


def shorten_values(app: Any, doctree: nodes.document) -> None:
    """``doctree-read``: a constant whose value is long shows its size, not a wall of text."""
    for desc in doctree.findall(addnodes.desc):
        if desc.get("domain") != "py" or desc.get("objtype") not in ("data", "attribute"):
            continue
        for sig in desc.findall(addnodes.desc_signature):
            for note in list(_value_annotations(sig)):
                text = note.astext().lstrip()[1:].strip()
                if len(text) <= LONG_VALUE:
                    continue
                short = addnodes.desc_annotation(
                    "", "", nodes.Text(" = "), nodes.emphasis("", _summary(text))
                )
                sig.replace(note, short)


def _summary(text: str) -> str:
    kind = {"(": "a tuple", "{": "a mapping", "[": "a list"}.get(text[:1], "a value")
    return f"{kind} of {len(text):,} characters when printed (not shown)"


def defining_module(node: nodes.Node) -> str | None:
    """The module whose docstring holds ``node`` (autodoc: ``"...docstring of <name>"``)."""
    source = node.source or (node.parent.source if node.parent is not None else None) or ""
    _, found, name = str(source).rpartition("docstring of ")
    if not found or not name.startswith("castlerules"):
        return None
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        module_name = ".".join(parts[:split])
        if module_name in sys.modules:
            return module_name
    return None


def _sibling_modules(context: str) -> list[str]:
    """The loaded modules of the package of ``context`` (``castlerules.throne.*``)."""
    package = context if context.count(".") <= 1 else context.rsplit(".", 1)[0]
    return [name for name in sorted(sys.modules) if name.startswith(package + ".")]


def internal_reference(app: Any, env: Any, node: Any, contnode: nodes.Element) -> Any:
    """``missing-reference``: a name of castlerules that exists but is not public.

    Internal names (``castlerules.ascent.state.UNPLACED``, the
    ``castlerules.throne.diagram`` module) have no page in the reference: a
    docstring that names one shows it as code, without a link.  A name that
    does not exist at all is still an error.
    """
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    context = node.get("py:module") or ""
    candidates = [target, f"{context}.{target}", f"{context}.{node.get('py:class')}.{target}"]
    if context.startswith("castlerules") and "." not in target:
        candidates.extend(f"{sibling}.{target}" for sibling in _sibling_modules(context))
    for candidate in candidates:
        if candidate.startswith("castlerules") and lookup(candidate)[0]:
            return contnode
    return None
