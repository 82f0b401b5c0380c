"""Text that people type, as every device keeps and shows it.

Names, chat lines, pack names and card texts reach other players' screens, so each
is cleaned once, where it enters (typed here or received), and never again where
it is drawn. One cleaner for all of them keeps the rules the same everywhere: a
name comes out the same at a table on this device as in a room. Below
both ``net`` and ``games``, so either may use it; the standard library only.

>>> clean_line("  Fly\\u202e\\u0007  high\\n ")
'Fly high'
>>> clean_name("  Zoe\\u0301\\u0007 ")
'Zoé'
>>> clean_line("Hana\\u200b", 20) == clean_line("Hana", 20)
True
>>> clean_line("👩\\u200d👩\\u200d👧", joiners=True) == "👩\\u200d👩\\u200d👧"
True
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 20
"""The longest player name: it must fit beside a score on a 360 px phone."""
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co"})
"""Control characters; invisible format characters (zero-width spaces and joiners,
bidi overrides that would reorder the text around them); lone surrogates (no
character at all, and no message holding one can be encoded); private-use
characters (a different picture, or none, on every device)."""
_JOINER = "\u200d"
"""The zero-width joiner: it makes one emoji of several, so chat keeps it. Names
drop it: "Hana" and "Hana" with a joiner would look alike and pass for two people."""


def clean_line(text: str, limit: int | None = None, *, joiners: bool = False) -> str:
    """``text`` in NFC on one line: every kind of space or line break is one space
    between words, the characters in ``_DROPPED`` go (the joiner stays if
    ``joiners``), and it is cut to ``limit`` characters, if given.
    """
    kept = []
    for c in unicodedata.normalize("NFC", text):
        if c.isspace():
            kept.append(" ")  # a line break or a tab separates words; it is not dropped
        elif (joiners and c == _JOINER) or unicodedata.category(c) not in _DROPPED:
            kept.append(c)
    line = " ".join("".join(kept).split())
    return line if limit is None else line[:limit].strip()


def clean_name(name: str) -> str:
    """A player's name as everyone stores it, typed at this device's table or
    received in a room: one clean line of at most ``MAX_NAME`` characters."""
    return clean_line(name, MAX_NAME)
