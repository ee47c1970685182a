"""``--svg``: draw positions side by side in one SVG file, with captions.

The drawings come from the game's own ``svg(state)`` (``throne.svg``,
``ascent.svg``); this module only places them next to each other:
each drawing becomes a nested ``<svg>`` element of the same size, under a
caption.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from castlerules.core import ArgumentError

_CAPTION = 28
_GAP = 24
_NUMBER = r"([0-9]+(?:\.[0-9]+)?)"


def svg_function(module: Any) -> Any:
    """The game's ``svg(state) -> str`` (``throne.svg``, ``ascent.svg``)."""
    draw = getattr(module, "svg", None)
    if not callable(draw):
        raise ArgumentError(f"--svg needs {module.__name__}.svg(state), which is missing")
    return draw


def _size(svg: str) -> tuple[float, float]:
    """Width and height of a drawing, from its root's width/height or viewBox."""
    root = re.search(r"<svg\b[^>]*>", svg)
    if root is None:
        raise ArgumentError("the game's drawing is not an SVG document")
    tag = root.group(0)
    width = re.search(r'\swidth="' + _NUMBER + r'(?:px)?"', tag)
    height = re.search(r'\sheight="' + _NUMBER + r'(?:px)?"', tag)
    if width and height:
        return float(width.group(1)), float(height.group(1))
    box = re.search(
        r'viewBox="\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+' + _NUMBER + r"[\s,]+" + _NUMBER, tag
    )
    if box:
        return float(box.group(1)), float(box.group(2))
    return 400.0, 400.0


def _body(svg: str) -> str:
    """The drawing without its XML declaration or doctype, ready to nest."""
    svg = re.sub(r"<\?xml[^>]*\?>", "", svg)
    svg = re.sub(r"<!DOCTYPE[^>]*>", "", svg)
    return svg.strip()


def _place(svg: str, x: float, y: float, width: float, height: float) -> str:
    """Position a nested ``<svg>`` root at (x, y) with an explicit size."""
    body = _body(svg)
    root = re.search(r"<svg\b[^>]*>", body)
    assert root is not None
    tag = root.group(0)
    tag = re.sub(r'\s(x|y|width|height)="[^"]*"', "", tag)
    tag = tag[:-1].rstrip("/").rstrip() + (
        f' x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}"'
    )
    tag += "/>" if root.group(0).endswith("/>") else ">"
    return body[: root.start()] + tag + body[root.end() :]


def side_by_side(drawings: Sequence[tuple[str, str]]) -> str:
    """One SVG document showing ``(caption, svg)`` drawings left to right."""
    sizes = [_size(svg) for _, svg in drawings]
    height = max(h for _, h in sizes) + _CAPTION
    width = sum(w for w, _ in sizes) + _GAP * (len(drawings) - 1)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f'<rect width="{width:g}" height="{height:g}" fill="white"/>',
    ]
    x = 0.0
    for (caption, svg), (w, h) in zip(drawings, sizes, strict=True):
        parts.append(
            f'<text x="{x + w / 2:g}" y="{_CAPTION - 9}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="15">{escape(caption)}</text>'
        )
        parts.append(_place(svg, x, _CAPTION, w, h))
        x += w + _GAP
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
