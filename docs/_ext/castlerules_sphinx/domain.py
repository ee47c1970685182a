"""The ``castlerules`` domain: seed clauses as searchable, linkable objects.

A clause section carries three ids: the one docutils derives from its title,
``clause-b7`` and ``b7`` (two labels written before it), so ``page.html#b7``
and ``page.html#clause-b7`` both land on it.  The ``castlerules:clause``
directive placed at the top of the section registers the clause with this
domain, which hands it to the search index as an object: typing ``B7`` in
the search box lists the clause first.  ``:clause:`B7``` links to it from
anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from docutils import nodes
from docutils.nodes import Element
from sphinx.addnodes import pending_xref
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util.nodes import make_refnode


def anchor_of(clause_id: str) -> str:
    """The HTML id of a clause section (``B7`` -> ``clause-b7``)."""
    return f"clause-{clause_id.lower()}"


class ClauseDomain(Domain):
    """Clauses ``A1``..``A18`` and ``B1``..``B16`` as objects of the search index."""

    name = "castlerules"
    label = "castlerules"
    object_types = {"clause": ObjType("clause", "clause")}  # noqa: RUF012
    roles = {"clause": XRefRole()}  # noqa: RUF012
    initial_data: dict[str, Any] = {"clauses": {}}  # noqa: RUF012

    @property
    def clauses(self) -> dict[str, tuple[str, str, str]]:
        """Clause ID -> (docname, anchor, title)."""
        data: dict[str, tuple[str, str, str]] = self.data.setdefault("clauses", {})
        return data

    def note_clause(self, clause_id: str, docname: str, title: str) -> None:
        """Record where a clause is documented (one place per clause)."""
        self.clauses[clause_id] = (docname, anchor_of(clause_id), title)

    def clear_doc(self, docname: str) -> None:
        for key, (doc, _anchor, _title) in list(self.clauses.items()):
            if doc == docname:
                del self.clauses[key]

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key, value in otherdata["clauses"].items():
            if value[0] in docnames:
                self.clauses[key] = value

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> nodes.reference | None:
        found = self.clauses.get(target.strip().upper())
        if found is None:
            return None
        docname, anchor, title = found
        return make_refnode(builder, fromdocname, docname, anchor, contnode, title)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        ref = self.resolve_xref(env, fromdocname, builder, "clause", target, node, contnode)
        return [] if ref is None else [("castlerules:clause", ref)]

    def get_objects(self) -> Iterable[tuple[str, str, str, str, str, int]]:
        for key, (docname, anchor, _title) in sorted(self.clauses.items()):
            # Priority 1: listed with the important objects, first in results.
            yield key, key, "clause", docname, anchor, 1


def clause_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``:clause:`B7``` -> a link to the clause, shown as ``B7``.

    A short alias of the domain's own role, ``:castlerules:clause:``.
    """
    target = text.strip().upper()
    ref = pending_xref(
        rawtext,
        refdomain="castlerules",
        reftype="clause",
        reftarget=target,
        refexplicit=True,
        refwarn=True,
    )
    ref += nodes.inline(target, target, classes=["clause-ref"])
    return [ref], []
