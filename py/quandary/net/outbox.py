"""The host's one door out: every message is checked for size and for the recipient's
secrets before it leaves.

A message holding one of the recipient's secrets is a bug in a game's view, not
the guest's doing: it is counted in ``leaks`` and dropped, and the room goes on.
Raising here would unwind the move or broadcast that sent it, so one bad view
would stall every other guest; tests assert ``leaks == 0``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from quandary import engine

from .messages import MAX_BYTES, ProtocolError, encode
from .wire import HostMessage

QUOTED = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
"""Every JSON string in a message's text, quotes included: secrets are matched whole."""
_ESCAPED = re.compile(r'["\\\x00-\x1f]')
"""Characters that ``encode`` (JSON, not ASCII-only) writes as an escape."""


@functools.lru_cache(maxsize=4096)
def _quoted(text: str) -> str:
    """``text`` as a JSON string, as ``encode`` writes it (most need no escape at all).

    Remembered: a game's secrets are mostly the same card texts from one move to the
    next, quoted again for every seat after every move."""
    if _ESCAPED.search(text) is None:
        return f'"{text}"'
    return json.dumps(text, ensure_ascii=False)


class Outbox:
    """Sends checked messages; counts and drops those that would leak."""

    def __init__(self, send: Callable[[str, str], None]) -> None:
        self.send_text = send
        self.leaks = 0
        self._state: Any = None
        self._secrets: dict[int | None, frozenset[str]] = {}
        self._last: dict[int | None, tuple[frozenset[str], frozenset[str]]] = {}
        """Each seat's secrets at the last state they were read at, and their quoted
        forms: most moves change none of a seat's secrets (a vote, a bid)."""

    @staticmethod
    def encoded(msg: HostMessage) -> str | None:
        """``msg`` as it would be sent, or None if it is over a message's limit."""
        text = encode(msg)
        return text if len(text.encode("utf-8")) <= MAX_BYTES else None

    def send(
        self, peer: str, msg: HostMessage, seat: int | None, state: Any, text: str | None = None
    ) -> bool:
        """Send ``msg`` to ``peer`` (whose seat is ``seat``) unless it leaks; True if sent.

        ``state`` is the game now (None before it starts): what the recipient may
        not see is read from it, once per state and seat. ``text``: ``msg`` as
        ``encoded`` gave it, not encoded again.
        """
        text = text if text is not None else self.encoded(msg)
        if text is None:
            raise ProtocolError(f"A {msg['t']} message grew over 64 KiB.")
        if state is not None and set(QUOTED.findall(text)) & self._secrets_of(state, seat):
            self.leaks += 1
            return False
        self.send_text(peer, text)
        return True

    def _secrets_of(self, state: Any, seat: int | None) -> frozenset[str]:
        """The recipient's secrets as they would appear in JSON text, cached per state."""
        if self._state is not state:
            self._state, self._secrets = state, {}
        if seat not in self._secrets:
            raw = frozenset(engine.game_of(state).secrets(state, seat))
            last = self._last.get(seat)
            unchanged = last is not None and last[0] == raw
            quoted = last[1] if last and unchanged else frozenset(map(_quoted, raw))
            self._last[seat] = (raw, quoted)
            self._secrets[seat] = quoted
        return self._secrets[seat]
