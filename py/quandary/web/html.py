"""Tiny HTML building helpers: escaping in one place, so renderers stay readable.

Renderers build strings (fast in Pyodide: one DOM write per screen) and every
piece of text that came from a player or a card goes through ``esc``.

>>> attrs(data_card="a<b", disabled=True, hidden=False)
' data-card="a&lt;b" disabled'
"""

from __future__ import annotations

import html
from collections.abc import Iterable


def esc(text: object) -> str:
    """Text made safe for HTML content and attribute values."""
    return html.escape(str(text), quote=True)


def attrs(**values: object) -> str:
    """HTML attributes from keywords.

    ``data_x`` becomes ``data-x``; True is a bare attribute; False and None are dropped.
    """
    out = []
    for key, value in values.items():
        name = key.rstrip("_").replace("_", "-")
        if value is True:
            out.append(f" {name}")
        elif value is not None and value is not False:
            out.append(f' {name}="{esc(value)}"')
    return "".join(out)


def join(parts: Iterable[str]) -> str:
    """Concatenate rendered fragments."""
    return "".join(parts)


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 point', '3 points'."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def names_list(names: list[str]) -> str:
    """'Anna', 'Anna and Ben', 'Anna, Ben and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
