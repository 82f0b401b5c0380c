"""A guest in a room: greets the host, sends intents, and keeps its own view in step.

The guest trusts only the peer that welcomed it. Updates apply only on top of
the exact version they were made from; anything else (a lost or reordered
message) makes the guest ask for a snapshot, so it always converges to what
the host would show it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from quandary.engine import Move

from .messages import HOST_TYPES, ProtocolError, encode, parse

Status = Literal["searching", "joined", "away"]
QUIET_BEATS = 3
"""Timer beats without a word from the host (it ticks every beat) before it counts as away."""


class RoomGuest:
    """One device's connection to a room it did not create."""

    def __init__(
        self,
        send: Callable[[str, str], None],
        make_id: Callable[[], str],
        name: str,
        token: str | None = None,
    ) -> None:
        self.send_text = send
        self.make_id = make_id
        self.name = name[:20] or "Player"
        self.token = token
        self.status: Status = "searching"
        self.host: str | None = None
        self.member: str | None = None
        self.lobby: dict[str, Any] | None = None
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.notice: str | None = None
        self.peers: set[str] = set()
        self.quiet = 0

    # -- incoming ------------------------------------------------------------------

    def on_join(self, peer: str) -> None:
        """Greet every new peer until one of them turns out to be the host."""
        self.peers.add(peer)
        if self.host is None:
            self._send(peer, {"t": "hello", "token": self.token, "name": self.name})

    def on_leave(self, peer: str) -> None:
        """If the host left, the game is paused until it comes back."""
        self.peers.discard(peer)
        if peer == self.host:
            self.host = None
            self.status = "away"

    def on_message(self, peer: str, text: Any) -> None:
        """Use a message from the host; ignore anything else or anything malformed."""
        try:
            msg = parse(text, HOST_TYPES)
        except ProtocolError:
            return
        if msg["t"] == "welcome" and (
            self.host is None or (self.token is not None and msg["token"] == self.token)
        ):
            # A welcome that knows our secret token comes from the host, even from a
            # new connection (a host that reloaded before its old one was seen to go).
            self.host = peer
        if peer != self.host:
            return
        self.quiet = 0
        if self.status == "away":
            self.status = "joined"
        kind = msg["t"]
        if kind == "welcome":
            if msg["member"] != self.member:
                self.version, self.view = None, None
            self.token, self.member, self.status = msg["token"], msg["member"], "joined"
        elif kind == "lobby":
            self.lobby = msg["lobby"]
        elif kind == "snapshot":
            self.version, self.view = msg["version"], msg["view"]
        elif kind == "update":
            self._update(msg)
        elif kind == "tick":
            # Answered at once: the host times the round trip to correct our throws.
            self._send(peer, {"t": "pong", "at": msg["at"]})
            started = bool(self.lobby and self.lobby.get("started"))
            if started and msg["version"] != self.version:
                self.sync()
        else:
            self.notice = msg["reason"]

    def _update(self, msg: dict[str, Any]) -> None:
        if self.view is None or msg["base"] != self.version:
            if self.version is None or msg["version"] > self.version:
                self.sync()
            return
        view = {k: v for k, v in self.view.items() if k not in msg["drop"]}
        view.update(msg["set"])
        self.version, self.view = msg["version"], view

    def beat(self) -> None:
        """One timer beat: a host that has been silent too long is away."""
        self.quiet += 1
        if self.host is not None and self.quiet >= QUIET_BEATS:
            self.host, self.status = None, "away"
        self.retry()

    def retry(self) -> None:
        """Greet every peer again while no host has answered (a greeting may be lost)."""
        if self.host is None:
            for peer in sorted(self.peers):
                self._send(peer, {"t": "hello", "token": self.token, "name": self.name})

    # -- the player's actions ------------------------------------------------------

    def submit(self, move: Move) -> str | None:
        """Send a move for this guest's seat; returns the intent id (None if no host)."""
        if self.host is None or self.version is None:
            self.notice = "The host is away: your move was not sent. Try again when it is back."
            return None
        intent = self.make_id()
        self.notice = None
        self._send(self.host, {"t": "intent", "id": intent, "version": self.version, "move": move})
        return intent

    def sit(self, seat: int | None) -> None:
        """Ask for a seat (None: stand up)."""
        if self.host is not None:
            self._send(self.host, {"t": "seat", "seat": seat})

    def rename(self, name: str) -> None:
        """Ask for a new name."""
        self.name = name[:20] or self.name
        if self.host is not None:
            self._send(self.host, {"t": "name", "name": self.name})

    def sync(self) -> None:
        """Ask the host for a full snapshot of this guest's view."""
        if self.host is not None:
            self._send(self.host, {"t": "sync", "version": self.version or 0})

    def _send(self, peer: str, msg: dict[str, Any]) -> None:
        self.send_text(peer, encode(msg))
