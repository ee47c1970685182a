"""Small helpers to build SVG documents as strings, shared by the games' ``svg()``.

Pure string building with no dependency: every text and attribute value goes
through :func:`escape`, numbers are written the same way on every machine,
and attributes keep the order they are given in, so that the same position
always gives the same bytes.  Colours and sizes are presentation attributes
(no ``<style>`` element), so a drawing looks the same on its own, inlined in
an HTML page beside other drawings, or in a notebook.

>>> print(element("text", {"x": 1.5, "y": 2, "class": "label"}, text="A & B"))
<text x="1.5" y="2" class="label">A &amp; B</text>
>>> doc = document(20, 10, [rect(0, 0, 20, 10, fill="#fff")], title="a <tiny> board")
>>> doc.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> "<title>a &lt;tiny&gt; board</title>" in doc
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

# Characters XML 1.0 does not allow at all; they are replaced, never written.
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")


def escape(text: object) -> str:
    """Text made safe for XML character data and double-quoted attribute values.

    >>> escape('<a href="x">&\\'</a>')
    '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;'
    >>> escape("bell\\x07")
    'bell\\ufffd'
    """
    value = _INVALID.sub("\ufffd", str(text))
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def number(value: float) -> str:
    """A coordinate as short, stable text: at most two decimals, no ``-0``.

    >>> number(3.0), number(2.345), number(-0.001), number(10)
    ('3', '2.35', '0', '10')
    """
    if isinstance(value, bool):
        raise TypeError("a coordinate is a number, not a bool")
    rounded = round(float(value) + 0.0, 2)
    if rounded == 0:
        return "0"
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return number(value)
    return escape(value)


def attributes(attrs: Mapping[str, object] | None) -> str:
    """The attributes as text (a leading space each); ``None`` values are left out.

    >>> attributes({"x": 1, "fill": None, "data-name": "K<"})
    ' x="1" data-name="K&lt;"'
    """
    if not attrs:
        return ""
    parts: list[str] = []
    for name, value in attrs.items():
        if value is None:
            continue
        if not _NAME.fullmatch(name):
            raise ValueError(f"not an XML attribute name: {name!r}")
        parts.append(f' {name}="{_value(value)}"')
    return "".join(parts)


def element(
    tag: str,
    attrs: Mapping[str, object] | None = None,
    children: Iterable[str] = (),
    text: str | None = None,
) -> str:
    """One element; ``children`` are already-built elements, ``text`` is escaped here."""
    if not _NAME.fullmatch(tag):
        raise ValueError(f"not an XML element name: {tag!r}")
    inner = "".join(children)
    if text is not None:
        inner = escape(text) + inner
    if not inner:
        return f"<{tag}{attributes(attrs)}/>"
    return f"<{tag}{attributes(attrs)}>{inner}</{tag}>"


def group(children: Iterable[str], **attrs: object) -> str:
    """A ``<g>`` element; keyword names use ``_`` for ``-`` (``data_seat`` -> ``data-seat``).

    A trailing ``_`` is dropped, for names that are Python keywords (``class_``).
    """
    return element("g", _names(attrs), children)


def rect(x: float, y: float, width: float, height: float, **attrs: object) -> str:
    """A rectangle; extra keywords are attributes (``stroke_width`` -> ``stroke-width``)."""
    base: dict[str, object] = {"x": x, "y": y, "width": width, "height": height}
    base.update(_names(attrs))
    return element("rect", base)


def line(x1: float, y1: float, x2: float, y2: float, **attrs: object) -> str:
    """A straight line."""
    base: dict[str, object] = {"x1": x1, "y1": y1, "x2": x2, "y2": y2}
    base.update(_names(attrs))
    return element("line", base)


def circle(cx: float, cy: float, r: float, **attrs: object) -> str:
    """A circle."""
    base: dict[str, object] = {"cx": cx, "cy": cy, "r": r}
    base.update(_names(attrs))
    return element("circle", base)


def polygon(points: Iterable[tuple[float, float]], **attrs: object) -> str:
    """A closed polygon through ``points``."""
    base: dict[str, object] = {"points": " ".join(f"{number(x)},{number(y)}" for x, y in points)}
    base.update(_names(attrs))
    return element("polygon", base)


def label(x: float, y: float, content: str, **attrs: object) -> str:
    """A text label (escaped) at ``x, y``; default font is a system sans-serif."""
    base: dict[str, object] = {"x": x, "y": y, "font-family": "sans-serif"}
    base.update(_names(attrs))
    return element("text", base, text=content)


def title(content: str) -> str:
    """A ``<title>`` child: the tooltip and the accessible name of its parent."""
    return element("title", text=content)


def document(
    width: float,
    height: float,
    body: Iterable[str],
    *,
    title: str,
    description: str | None = None,
    **attrs: object,
) -> str:
    """A complete ``<svg>`` document, ``width`` x ``height`` user units, with a title.

    ``role="img"`` and the title make it readable by screen readers; the
    result is well-formed XML and can be written to a ``.svg`` file as is or
    inlined in HTML.
    """
    base: dict[str, object] = {
        "xmlns": SVG_NAMESPACE,
        "viewBox": f"0 0 {number(width)} {number(height)}",
        "width": width,
        "height": height,
        "role": "img",
    }
    base.update(_names(attrs))
    head = [element("title", text=title)]
    if description is not None:
        head.append(element("desc", text=description))
    return element("svg", base, [*head, *body])


def _names(attrs: Mapping[str, object]) -> dict[str, object]:
    # ``class_`` -> ``class``; ``stroke_width`` -> ``stroke-width``.
    return {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
