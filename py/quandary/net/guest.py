"""A guest in a room: greets the host, sends intents, and keeps its own view in step.

The guest believes only messages its transport verified as signed with the
room's host key (the key in the link) and addressed to this connection: any
other peer, whatever it sends, is ignored. It speaks first to nobody; once the
host has spoken it greets that peer alone, so its secret seat token reaches
only the verified host. Updates apply only on top of the exact version they
were made from; anything else (a lost or reordered message) makes the guest
ask for a snapshot, so it always converges to what the host would show it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from quandary.engine import BadView, Move, read_header

from .messages import HOST_TYPES, ProtocolError, clean_name, encode, parse

Status = Literal["searching", "joined", "away", "replaced"]
REPLACED = (
    "Your seat is now open in another tab or window, so this page stopped."
    " Reload it to take the seat back here."
)
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
        self.name = clean_name(name) or "Player"
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
        self.greeted: str | None = None
        """The host connection this guest last said hello to."""

    # -- incoming ------------------------------------------------------------------

    def on_join(self, peer: str) -> None:
        """A peer arrived: it is nobody until it proves it is the host by speaking."""
        self.peers.add(peer)

    def on_leave(self, peer: str) -> None:
        """If the host left, the game is paused until it comes back."""
        self.peers.discard(peer)
        if peer == self.host:
            self.host, self.greeted = None, None
            if self.status != "replaced":
                self.status = "away"

    def on_message(self, peer: str, text: Any, from_host: bool = False) -> None:
        """Use a message the transport verified as the host's; ignore everything else.

        ``from_host`` is the transport's word that the message carries a valid
        signature of the room's host key, addressed to us, newer than the last.
        Within that, each message is checked and handled in its own boundary.
        """
        if not from_host or self.status == "replaced":
            return
        try:
            msg = parse(text, HOST_TYPES)
        except ProtocolError:
            return
        if peer != self.host:
            # The host on a new connection (it reloaded): carry on with that one.
            self.host = peer
        self.quiet = 0
        if self.greeted != peer:
            self.greeted = peer
            self._hello()
        if self.status == "away":
            self.status = "joined"
        kind = msg["t"]
        if kind == "host":
            return
        if kind == "replaced":
            self.status, self.notice = "replaced", None
            return
        if kind == "welcome":
            if msg["member"] != self.member:
                self.version, self.view = None, None
            self.token, self.member, self.status = msg["token"], msg["member"], "joined"
        elif kind == "lobby":
            self.lobby = msg["lobby"]
        elif kind == "snapshot":
            if _drawable(msg["view"]):
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
        if _drawable(view):
            self.version, self.view = msg["version"], view

    def beat(self) -> None:
        """One timer beat: a host that has been silent too long is away."""
        if self.status == "replaced":
            return
        self.quiet += 1
        if self.host is not None and self.quiet >= QUIET_BEATS:
            self.host, self.greeted, self.status = None, None, "away"
        self.retry()

    def retry(self) -> None:
        """Greet the host again while it has not welcomed us (a greeting may be lost)."""
        if self.host is not None and self.status == "searching":
            self._hello()

    def _hello(self) -> None:
        """The only message that holds our seat token: to the verified host, never broadcast."""
        if self.host is not None:
            self._send(self.host, {"t": "hello", "token": self.token, "name": self.name})

    # -- the player's actions ------------------------------------------------------

    def submit(self, move: Move) -> str | None:
        """Send a move for this guest's seat; returns the intent id (None if no host)."""
        if self.status == "replaced":
            self.notice = REPLACED
            return None
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
        self.name = clean_name(name) or self.name
        if self.host is not None:
            self._send(self.host, {"t": "name", "name": self.name})

    def sync(self) -> None:
        """Ask the host for a full snapshot of this guest's view."""
        if self.host is not None:
            self._send(self.host, {"t": "sync", "version": self.version or 0})

    def _send(self, peer: str, msg: dict[str, Any]) -> None:
        if self.status != "replaced":  # a replaced tab stops sending altogether
            self.send_text(peer, encode(msg))


def _drawable(view: dict[str, Any]) -> bool:
    """Whether a view from the host has a sound header: a damaged one is not kept."""
    try:
        read_header(view)
    except BadView:
        return False
    return True
