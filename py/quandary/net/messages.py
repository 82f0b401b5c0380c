"""Every message of the room protocol, and the checks each one passes before use.

A message is a JSON object with a type ``t`` and exactly the fields of that
type. ``parse`` checks size and nesting depth before it parses anything, then
JSON, every text (no lone surrogates, no control characters) and every
field's type and range, and raises ``ProtocolError`` with a readable sentence,
so a malformed message is answered and dropped, never half-used. Everything a
peer sends is untrusted, whoever it claims to be.

>>> parse('{"t": "sync", "version": 3}', GUEST_TYPES)
{'t': 'sync', 'version': 3}
>>> parse('[' * 100 + ']' * 100, GUEST_TYPES)
Traceback (most recent call last):
...
quandary.net.messages.ProtocolError: That message is nested too deeply (more than 24 levels).
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import Any

from ..text import MAX_NAME
from .chat import CHUNK, MAX_CHAT, REACTIONS
from .limits import MESSAGE_BYTES

MAX_BYTES = MESSAGE_BYTES
"""The largest message either way (net/limits.json, shared with the page's transport)."""
MAX_ID = 64
MAX_ROOM = 120_000
"""A backup's room, compressed and base64: a few KiB, and the message has its own limit."""
MAX_RECORD = MAX_BYTES
"""A finished game's record (quandary/replay.py) sent to guests: bounded by the
message's own limit (a record too long for it is not sent; the host can still
download it)."""
MAX_HASH = 64
"""A SHA-256 in hex."""
MAX_LOG = 4096
"""Events in a backup's game log, as an heir rebuilds it from the parts it is sent
(``_keep`` in net/guest.py): a whole game logs about a hundred at most (two of the
four keep their last twelve only)."""
MAX_DEPTH = 24
"""Deep enough for any view we send (about 8 levels), far too shallow to exhaust a
parser's stack: Pyodide's dies near 6,000 levels, and takes the page with it."""

_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})
"""Each bracket as a signed byte: +1 opens a level, -1 (0xff) closes one."""
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Control characters, and the invisible ones that reorder text around them."""
_ESCAPE = re.compile(r"\\[bfnrtu]")
"""A JSON escape that may make a refused character (``\\n``, ``\\u0000``, a lone
``\\udc00``)."""


def _may_hide_text(text: str) -> bool:
    """Whether a message's parsed strings may hold a refused character: the text holds
    the character itself, or an escape that makes one (raw lone surrogates never get
    this far). A text without either is clean, so the walk over every parsed string
    (``check_texts``) is skipped.

    Each half is asked the cheap way first: a text with no backslash has no escape,
    and a printable one (``str.isprintable``: no control, format or separator
    character, which every refused one is) has none of the characters. One search
    for both, as one expression, took over a third of reading a message in the browser
    (0.27 ms for a 9 KB message in Pyodide; 0.04 ms this way).
    """
    if "\\" in text and _ESCAPE.search(text) is not None:
        return True
    return not text.isprintable() and _CONTROL.search(text) is not None


class ProtocolError(Exception):
    """A message that cannot be used; the sentence is sent back to its sender."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


Check = Callable[[Any], bool]


def _text(limit: int) -> Check:
    return lambda v: isinstance(v, str) and 0 < len(v) <= limit


def _move(v: Any) -> bool:
    """A move is an object with a text type; the game judges the rest."""
    return isinstance(v, dict) and isinstance(v.get("type"), str) and 0 < len(v["type"]) <= MAX_ID


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


def _moves(v: Any) -> bool:
    """Lists of a view whose lines moved: each, how many leave its start and which
    arrive at its end (``net/view_diff.py``)."""
    return isinstance(v, dict) and all(
        isinstance(m, dict)
        and set(m) == {"skip", "lines"}
        and _count(m["skip"])
        and isinstance(m["lines"], list)
        for m in v.values()
    )


def _heirs(v: Any) -> bool:
    """An order of succession: up to 16 [member, peer, device key] triples."""
    return (
        isinstance(v, list)
        and len(v) <= 16
        and all(
            isinstance(heir, list)
            and len(heir) == 3
            and _text(MAX_ID)(heir[0])
            and _text(MAX_ID)(heir[1])
            and _key(heir[2])
            for heir in v
        )
    )


def _chain(v: Any) -> bool:
    """Mandates from the room's key to a host's (net/succession.py): [text, signature]s."""
    return (
        isinstance(v, list)
        and len(v) <= 8
        and all(
            isinstance(m, list) and len(m) == 2 and _text(4096)(m[0]) and _text(128)(m[1])
            for m in v
        )
    )


_KEY = re.compile(r"[A-Za-z0-9_-]{43}")
"""An Ed25519 public key, raw, base64url without padding."""


def _deal(v: Any) -> bool:
    """How a successor dealt (``Deal.to_json``): its share, up to 16 others', the seats kept."""
    if not isinstance(v, dict) or set(v) != {"serial", "own", "shares", "kept"}:
        return False
    shares, kept = v["shares"], v["kept"]
    return (
        _count(v["serial"])
        and _count(v["own"])
        and isinstance(shares, list)
        and len(shares) <= 16
        and all(
            isinstance(x, list) and len(x) == 2 and _seat(x[0]) and _count(x[1]) for x in shares
        )
        and isinstance(kept, list)
        and len(kept) <= 16
        and all(_seat(x) and x is not None for x in kept)
    )


def _key(v: Any) -> bool:
    return isinstance(v, str) and _KEY.fullmatch(v) is not None


def _any(v: Any) -> bool:
    """Any JSON value: a game's own hidden part, which the game itself checks."""
    return True


def _event(v: Any) -> bool:
    """One event of a game's log as its state keeps it (``Event``): its data the game's."""
    return isinstance(v, dict) and set(v) == {"kind", "data"} and isinstance(v["kind"], str)


def _log_news(v: Any) -> bool:
    """A backup's log (``LogNews``): a damaged event is refused here, so the backup is
    not kept, rather than found only when a successor carries the room on from it."""
    return (
        isinstance(v, dict)
        and set(v) == {"base", "skip", "lines"}
        and _count(v["base"])
        and _count(v["skip"])
        and isinstance(v["lines"], list)
        and len(v["lines"]) <= MAX_LOG
        and all(_event(line) for line in v["lines"])
    )


def _hash(v: Any) -> bool:
    return isinstance(v, str) and len(v) == MAX_HASH and all(c in "0123456789abcdef" for c in v)


def _reaction(v: Any) -> bool:
    return isinstance(v, str) and v in REACTIONS


def _flag(v: Any) -> bool:
    return isinstance(v, bool)


def _host_message(*kinds: str) -> Check:
    """One of the host's messages of ``kinds``, whole, inside another (``backed``)."""

    def check(v: Any) -> bool:
        if not isinstance(v, dict) or v.get("t") not in kinds:
            return False
        try:
            _check_fields(v, HOST_TYPES[v["t"]])
        except ProtocolError:
            return False
        return True

    return check


_LINE = {
    "n": _count,
    "member": _text(MAX_ID),
    "name": _text(MAX_NAME),
    "seat": _seat,
    "text": _text(MAX_CHAT),
}


def _lines(v: Any) -> bool:
    """Chat lines as the host stamped them (net/chat.py ``Line``): at most ``CHUNK``."""
    return (
        isinstance(v, list)
        and len(v) <= CHUNK
        and all(
            isinstance(line, dict)
            and set(line) == set(_LINE)
            and all(check(line[k]) for k, check in _LINE.items())
            for line in v
        )
    )


# What a guest may send to the host.
GUEST_TYPES: dict[str, dict[str, Check]] = {
    "hello": {
        "token": _optional(_text(MAX_ID)),
        "name": _text(MAX_NAME),
        "key": _optional(_key),
        # Whether this device had waited out the room's host before this greeting.
        "waited": _flag,
    },
    "name": {"name": _text(MAX_NAME)},
    "seat": {"seat": _seat},
    "intent": {"id": _text(MAX_ID), "version": _count, "move": _move},
    "sync": {"version": _count},
    "pong": {"at": _count},
    # Chat beside the game (net/chat.py): the host stamps who said it.
    "chat": {"text": _text(MAX_CHAT)},
    "react": {"emoji": _reaction},
}

# What the host may send to a guest.
HOST_TYPES: dict[str, dict[str, Check]] = {
    "host": {"epoch": _count, "chain": _chain},
    "replaced": {},
    # This device is the host no more: it stepped down for a successor (net/host.py).
    "gone": {},
    # This connection is out of the room (the host removed it, or it gave way).
    "removed": {"reason": _text(400)},
    "welcome": {"token": _text(MAX_ID), "member": _text(MAX_ID)},
    "lobby": {"lobby": _object},
    "snapshot": {"version": _count, "view": _object},
    "update": {"base": _count, "version": _count, "set": _object, "add": _moves, "drop": _keys},
    "tick": {"version": _count, "at": _count, "epoch": _count},
    # A backup of the room, nothing secret in it, and the heir's own part (net/succession.py).
    "backup": {
        "serial": _count,
        "epoch": _count,
        "version": _count,
        "heirs": _heirs,
        "room": _text(MAX_ROOM),
        "part": _any,
        "salt": _text(MAX_ID),
        "chain": _chain,
        # The game's log, apart from its world: mostly what the last backup did not hold.
        "log": _log_news,
    },
    # A move's backup and the view of that move, to an heir in one message: the backup
    # is kept before the view is shown, and neither waits for a message of its own.
    "backed": {"backup": _host_message("backup"), "news": _host_message("update", "snapshot")},
    "rejected": {"code": _text(MAX_ID), "reason": _text(400), "id": _optional(_text(MAX_ID))},
    # A finished game's record, for the guest's replay (checked again there, as any record),
    # and after a succession how its host dealt (net/succession.py ``Deal``).
    "record": {"version": _count, "record": _text(MAX_RECORD), "deal": _optional(_deal)},
    # Chat lines (new ones, or the history: ``whole`` replaces what the guest kept),
    # a reaction to show by its sender's name, and whether the host muted this guest.
    "chat": {"lines": _lines, "whole": _flag},
    "react": {"member": _text(MAX_ID), "name": _text(MAX_NAME), "seat": _seat, "emoji": _reaction},
    "muted": {"muted": _flag},
}

# What one guest may say to another: only a succession's two messages.
PEER_TYPES: dict[str, dict[str, Check]] = {
    "claim": {"serial": _count, "epoch": _count, "commit": _hash},
    "opening": {"serial": _count, "part": _any, "salt": _text(MAX_ID), "seed": _count},
}

_WHAT = {
    "hello": "a greeting",
    "name": "a new name",
    "seat": "a seat choice",
    "intent": "a move",
    "sync": "a request for the table",
    "pong": "an answer to a tick",
    "chat": "a chat line",
    "react": "a reaction",
}


def parse(text: Any, types: dict[str, dict[str, Check]]) -> dict[str, Any]:
    """The message in ``text`` if it is one of ``types`` and well formed."""
    if not isinstance(text, str):
        raise ProtocolError("A message must be text.")
    if len(text) > MAX_BYTES:
        raise ProtocolError("That message is too large (over 64 KiB).")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise ProtocolError("That message holds broken text (a lone surrogate).") from None
    if size > MAX_BYTES:
        raise ProtocolError("That message is too large (over 64 KiB).")
    check_depth(text)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("That message is not valid JSON.") from None
    if _may_hide_text(text):
        check_texts(data)
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise ProtocolError("A message must be an object with a type.")
    fields = types.get(data["t"])
    if fields is None:
        raise ProtocolError(f"Unknown message type {data['t'][:20]!r}.")
    _check_fields(data, fields)
    return data


def _check_fields(data: dict[str, Any], fields: dict[str, Check]) -> None:
    """``data`` holds exactly ``fields`` besides its type, each passing its check."""
    if set(data) - {"t"} != set(fields):
        raise ProtocolError(
            f"A {data['t']!r} message needs exactly the fields {', '.join(sorted(fields))}."
        )
    for key, check in fields.items():
        if not check(data[key]):
            raise ProtocolError(
                f"The field {key!r} of {_WHAT.get(data['t'], 'a message')} is invalid."
            )


def check_depth(text: str) -> None:
    """Refuse JSON nested deeper than ``MAX_DEPTH``, before any parser sees it.

    Linear and in C wherever it can be, whatever the text: escapes are removed
    (so every quote left delimits a string), the text outside strings is kept,
    and the running depth of its brackets is summed by ``accumulate``. Text
    with brackets that close nothing, or an unclosed string, is no JSON at all.
    """
    plain = text.replace("\\\\", "").replace('\\"', "")
    parts = plain.split('"')
    if len(parts) % 2 == 0:
        raise ProtocolError("That message is not valid JSON.")
    outside = "".join(parts[0::2])
    if outside.count("[") + outside.count("{") <= MAX_DEPTH:
        return
    steps = array("b", _NOT_BRACKETS.sub("", outside).translate(_STEP).encode("latin-1"))
    depths = list(accumulate(steps))
    if max(depths) > MAX_DEPTH:
        raise ProtocolError(f"That message is nested too deeply (more than {MAX_DEPTH} levels).")
    if min(depths) < 0 or depths[-1] != 0:
        raise ProtocolError("That message is not valid JSON.")


def check_texts(data: Any) -> None:
    """Refuse lone surrogates and control characters in any key or text, at any depth."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ProtocolError("That message holds broken text (a lone surrogate).") from None
            if _CONTROL.search(item):
                raise ProtocolError("That message holds control characters in its text.")


def encode(message: Mapping[str, object]) -> str:
    """Compact JSON text for a message (the sender's own messages are trusted)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
