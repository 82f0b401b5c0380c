"""HTML built from escaped pieces: a string becomes markup only through this module.

``Markup`` is a ``str`` that means "already safe HTML". Everything else that
meets markup is escaped on the way in: a ``markup`` template's arguments,
``attrs`` values, ``join`` parts and the other side of ``Markup + str``. So a
name, a card text or any field of a view that came from another device can
only ever render as text, whatever it contains; no renderer has to remember to
escape it. An f-string, ``%`` or ``str.format`` makes a plain ``str``, which the
renderers' ``-> Markup`` types refuse and ``App.draw`` rejects at the door
(``tests/unit/test_markup.py`` also forbids HTML built that way in ``web/``).

This is MarkupSafe's idea in a few lines of stdlib, because the web layer ships
as plain Python into Pyodide. Escaping is ``html.escape(quote=True)``, so a
value is safe both as element text and inside a quoted attribute value
(single or double quotes).

>>> markup("<li{}>{}</li>", attrs(data_card="a<b", disabled=True), "<script>")
Markup('<li data-card="a&lt;b" disabled>&lt;script&gt;</li>')
>>> Markup("<b>") + "<i>"
Markup('<b>&lt;i&gt;')
>>> join(["<i>", markup("<b>{}</b>", 1)])
Markup('&lt;i&gt;<b>1</b>')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import SupportsIndex


class Markup(str):
    """A string that is already safe HTML; combining it with plain text escapes the text."""

    __slots__ = ()

    def __add__(self, other: str) -> Markup:
        return Markup(str.__add__(self, _text(other)))

    def __radd__(self, other: str) -> Markup:
        # Python calls this before ``str.__add__`` because Markup subclasses str,
        # so ``"<plain>" + Markup(...)`` escapes the plain side too.
        return Markup(str.__add__(_text(other), self))

    def __mul__(self, count: SupportsIndex) -> Markup:
        return Markup(str.__mul__(self, count))

    def __mod__(self, args: object) -> str:
        raise TypeError("Markup is not made with %: use markup(template, *values)")

    def format(self, *args: object, **kwargs: object) -> Markup:
        """The template with every argument escaped unless it is Markup already."""
        return Markup(str.format(self, *map(esc, args), **{k: esc(v) for k, v in kwargs.items()}))

    def __html__(self) -> Markup:
        """The protocol MarkupSafe and Jinja read: this is already markup."""
        return self

    def __repr__(self) -> str:
        return f"Markup({str.__repr__(self)})"


EMPTY = Markup()


def _text(value: object) -> str:
    """``value`` escaped as ``html.escape(quote=True)`` does, unless it is Markup.

    Inlined and with an int fast path because every screen calls it tens of
    thousands of times in Pyodide; the result is a plain str because callers wrap
    the whole of what they build in one Markup.
    """
    if isinstance(value, Markup):
        return value
    if type(value) is int:
        return str(value)
    return (
        str(value)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
    )


def esc(value: object) -> Markup:
    """``value`` as HTML text, safe in content and in quoted attribute values.

    Markup passes through unchanged, so escaping twice never shows ``&amp;lt;``.
    """
    if isinstance(value, Markup):
        return value
    return Markup(_text(value))


def markup(template: str, *values: object) -> Markup:
    """HTML from a template written in the source: each ``{}`` gets an escaped value.

    The template itself is trusted, so it must be a literal; a value is
    inserted raw only if it is Markup (made by these helpers) already.
    """
    return Markup(str.format(template, *map(_text, values)))


def attrs(**values: object) -> Markup:
    """HTML attributes from keywords, values escaped.

    ``data_x`` becomes ``data-x``; True is a bare attribute; False and None are dropped.
    """
    out = []
    for key, value in values.items():
        name = key.rstrip("_").replace("_", "-")
        if value is True:
            out.append(" " + name)
        elif value is not None and value is not False:
            # The name is a Python keyword, never data; the value is escaped.
            out.append(f' {name}="{_text(value)}"')
    return Markup("".join(out))


def join(parts: Iterable[object], sep: Markup = EMPTY) -> Markup:
    """Rendered fragments one after another; a part that is not Markup is escaped."""
    return Markup(sep.join(map(_text, parts)))


def repeated(piece: Markup | str, count: int, most: int) -> Markup:
    """``piece`` ``count`` times, but never more than ``most``: a count that came from
    another device (a card's slots, a player's lives) is drawn only as far as the game
    can go, so a damaged or hostile view cannot make a screen as large as its number."""
    return join([piece] * max(0, min(count, most)))


def stamped(element: Markup) -> Markup:
    """``element`` with ``data-h``: a digest of its whole markup, attributes and content.

    The page leaves a part of the screen whose digest has not changed as it is,
    without walking it (``static/js/draw.entry.js``): the log, the chat and the
    scoreboard of a room are most of its screen and rarely change with a move, and
    comparing them node by node was most of a draw's time. ``element`` must be one
    element made by these helpers: its opening tag is read as ``attrs`` writes one
    (an opening tag it cannot read is refused, so no stamp lands inside a value). A
    name's lone surrogate is digested too, as it is sent.
    """
    import hashlib  # here: slow to import in the browser, and the lobby has no use for it

    opening = _OPENING.match(element)
    if opening is None:
        raise ValueError("stamped takes one element")
    end = opening.end(1)
    digest = hashlib.blake2b(element.encode("utf-8", "surrogatepass"), digest_size=16)
    return Markup(f'{element[:end]} data-h="{digest.hexdigest()}"{element[end:]}')


_OPENING = re.compile(r'<[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*(?:="[^"<>]*")?)*(\s*)/?>')
"""An element's opening tag, its attributes' values double-quoted (as ``attrs`` writes
them) and holding no ``<`` or ``>``; group 1 ends where a stamp goes."""


class Remembered:
    """The last markup made for one part of the screen, and what it was made from.

    A room's screen is drawn again after every move on every device, and its log
    and chat panels rarely change with one: making them again was a third of a
    draw's time (describing every event of the game, escaping every line said).
    ``get`` makes the part again only when ``key`` differs from the last one, so a
    key must hold everything the part is made from, as values that do not change
    in place (tuples, frozen records, numbers, text).
    """

    __slots__ = ("_key", "_made")

    def __init__(self) -> None:
        self._key: object = _NOTHING
        self._made: Markup = EMPTY

    def get(self, key: object, make: Callable[[], Markup]) -> Markup:
        """The part for ``key``: the one made last if its key is equal, else ``make()``."""
        if self._key is _NOTHING or self._key != key:
            self._made = make()
            self._key = key
        return self._made


_NOTHING = object()
"""No part remembered yet (no key equals it)."""
