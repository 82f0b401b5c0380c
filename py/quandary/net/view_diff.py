"""A view sent as what changed: the host's diff, and the guest's way of applying it.

The host sends each guest its view once whole (a snapshot), then only what changed
(an update). A view's recent log (a window of the game's last events) and its
history of rounds change by lines leaving at the start and arriving at the end, and
they are most of a view late in a game: sent whole on every move, they made a Game
of Dilemmas message to a guest average 10 KB at 4 players, half of it the log. So a
list whose start is the end of what the guest holds goes as how many lines leave
and which arrive (``add``: ``{"skip": 2, "lines": [...]}``), everything else that
changed as its new value (``set``), and fields that went as their names (``drop``).

A guest trusts no host's words about sizes: its view may hold no more, as JSON, than
one message holds (``MAX_BYTES`` characters), as every honest view does, since a
snapshot of it must fit in one message. Each update fits in a message, but fields
set anew and lines that arrive pile up: an update that would take the view past
that bound, or that moves lines the view does not hold, is refused, and the guest
asks for a snapshot. What a verified host says is otherwise taken as said: a host
that sends a false line once has the guest show it until a snapshot (a host decides
what its guests see in any case).
"""

from __future__ import annotations

import json
from typing import Any

from .messages import MAX_BYTES
from .wire import JsonObject, Lines

Sizes = dict[str, int]
"""The length of each field of a guest's view, as JSON text with its name (their sum is
bounded by ``apply``)."""


def diff(old: JsonObject, new: JsonObject) -> tuple[JsonObject, dict[str, Lines], list[str]]:
    """(set, add, drop) that make ``new`` of ``old`` (``apply``)."""
    changed: JsonObject = {}
    added: dict[str, Lines] = {}
    for key, value in new.items():
        before = old.get(key)
        if before == value:
            continue
        moved = _moved(before, value) if isinstance(value, list) else None
        if moved is None:
            changed[key] = value
        else:
            added[key] = moved
    gone = [key for key in old if key not in new]
    return changed, added, gone


def _moved(before: Any, value: list[Any]) -> Lines | None:
    """``value`` as ``before`` with lines leaving its start and arriving at its end,
    if some of ``before`` stays (the fewest lines leaving). Only lines that are objects
    or lists: a list of numbers or names is shorter sent whole."""
    first = value[0] if value else None
    if not isinstance(before, list) or not isinstance(first, (dict, list)):
        return None
    for skip, line in enumerate(before):
        kept = len(before) - skip
        if line == first and kept <= len(value) and value[:kept] == before[skip:]:
            return {"skip": skip, "lines": value[kept:]}
    return None


def sizes(view: JsonObject) -> Sizes:
    """The JSON length of each field of a view (with its name), as ``apply`` counts."""
    return {key: _field(key, value) for key, value in view.items()}


def apply(
    view: JsonObject, known: Sizes, changed: JsonObject, added: dict[str, Lines], gone: list[str]
) -> tuple[JsonObject, Sizes] | None:
    """``view`` with an update's fields, and the sizes of its fields (``known``: those
    of ``view``); None if the update cannot be applied: lines moved in a list the
    view does not hold or in a field also set, more lines leaving than the list holds,
    or a view longer than one message holds. Neither ``view`` nor ``known`` changes."""
    new = {key: value for key, value in view.items() if key not in gone}
    new.update(changed)
    lengths = {key: n for key, n in known.items() if key in new and key not in changed}
    lengths.update(sizes(changed))
    for key, moved in added.items():
        before, skip, lines = new.get(key), moved["skip"], moved["lines"]
        if key in changed or not isinstance(before, list) or skip > len(before):
            return None
        length = lengths[key] if key in lengths else _field(key, before)
        lengths[key] = length - _chars(before[:skip]) + _chars(lines)
        new[key] = before[skip:] + lines
    if sum(lengths.values()) > MAX_BYTES:
        return None
    return new, lengths


def changed(set_: JsonObject, added: dict[str, Lines]) -> dict[str, int | None]:
    """What an update that ``apply`` took set anew, for the guest's check of the view
    (``typed.Changed``): each field set whole, and each list's count of new lines
    (the lines it kept were checked when they arrived)."""
    out: dict[str, int | None] = dict.fromkeys(set_)
    out.update({key: len(moved["lines"]) for key, moved in added.items()})
    return out


def _field(key: str, value: Any) -> int:
    """A field's name, value and punctuation as JSON (a list's lines as ``_chars``)."""
    text = value if isinstance(value, list) else [value]
    return len(key) + 4 + _chars(text)


def _chars(value: list[Any]) -> int:
    """Each line's JSON length and its comma: sizes that add up as lines come and go."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False)) - 1 if value else 0
