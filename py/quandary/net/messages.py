"""Every message of the room protocol, and the checks each one passes before use.

A message is a JSON object with a type ``t`` and exactly the fields of that
type. ``parse`` checks size, JSON, type and every field's type and range, and
raises ``ProtocolError`` with a readable sentence, so a malformed message is
answered and dropped, never half-used.

>>> parse('{"t": "sync", "version": 3}', GUEST_TYPES)
{'t': 'sync', 'version': 3}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

MAX_BYTES = 64 * 1024
MAX_NAME = 20
MAX_ID = 64


class ProtocolError(Exception):
    """A message that cannot be used; the sentence is sent back to its sender."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


Check = Callable[[Any], bool]


def _text(limit: int) -> Check:
    return lambda v: isinstance(v, str) and 0 < len(v) <= limit


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**53


def _optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _object(v: Any) -> bool:
    return isinstance(v, dict)


def _seat(v: Any) -> bool:
    return v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 16)


def _keys(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(k, str) for k in v)


# What a guest may send to the host.
GUEST_TYPES: dict[str, dict[str, Check]] = {
    "hello": {"token": _optional(_text(MAX_ID)), "name": _text(MAX_NAME)},
    "name": {"name": _text(MAX_NAME)},
    "seat": {"seat": _seat},
    "intent": {"id": _text(MAX_ID), "version": _count, "move": _object},
    "sync": {"version": _count},
    "pong": {"at": _count},
}

# What the host may send to a guest.
HOST_TYPES: dict[str, dict[str, Check]] = {
    "welcome": {"token": _text(MAX_ID), "member": _text(MAX_ID)},
    "lobby": {"lobby": _object},
    "snapshot": {"version": _count, "view": _object},
    "update": {"base": _count, "version": _count, "set": _object, "drop": _keys},
    "tick": {"version": _count, "at": _count},
    "rejected": {"code": _text(MAX_ID), "reason": _text(400), "id": _optional(_text(MAX_ID))},
}

_WHAT = {
    "hello": "a greeting",
    "name": "a new name",
    "seat": "a seat choice",
    "intent": "a move",
    "sync": "a request for the table",
    "pong": "an answer to a tick",
}


def parse(text: Any, types: dict[str, dict[str, Check]]) -> dict[str, Any]:
    """The message in ``text`` if it is one of ``types`` and well formed."""
    if not isinstance(text, str):
        raise ProtocolError("A message must be text.")
    if len(text) > MAX_BYTES or len(text.encode("utf-8")) > MAX_BYTES:
        raise ProtocolError("That message is too large (over 64 KiB).")
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("That message is not valid JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise ProtocolError("A message must be an object with a type.")
    fields = types.get(data["t"])
    if fields is None:
        raise ProtocolError(f"Unknown message type {data['t'][:20]!r}.")
    if set(data) - {"t"} != set(fields):
        raise ProtocolError(
            f"A {data['t']!r} message needs exactly the fields {', '.join(sorted(fields))}."
        )
    for key, check in fields.items():
        if not check(data[key]):
            raise ProtocolError(
                f"The field {key!r} of {_WHAT.get(data['t'], 'a message')} is invalid."
            )
    return data


def encode(message: dict[str, Any]) -> str:
    """Compact JSON text for a message (the sender's own messages are trusted)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
