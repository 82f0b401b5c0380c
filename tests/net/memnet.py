"""An in-memory network for the room protocol: queued messages we can drop or shuffle."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from quandary.net.guest import RoomGuest
from quandary.net.host import RoomHost


@dataclass
class Network:
    """Peers by id, and the messages in flight between them, in send order."""

    nodes: dict[str, Any] = field(default_factory=dict)
    queue: list[tuple[str, str, str]] = field(default_factory=list)
    received: dict[str, list[str]] = field(default_factory=dict)
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def sender(self, src: str):
        return lambda dst, text: self.queue.append((src, dst, text))

    def make_id(self) -> str:
        return f"id{next(self._ids):06d}"

    def add_host(self, name: str = "Hana") -> RoomHost:
        host = RoomHost(self.sender("H"), self.make_id, lambda: 1234, name)
        self.nodes["H"] = host
        return host

    def connect(self, peer: str, node: Any) -> None:
        """Bring a node online: everyone present sees it join, and it sees them."""
        present = [p for p in self.nodes if p != peer]
        self.nodes[peer] = node
        for other in present:
            self.nodes[other].on_join(peer)
            node.on_join(other)

    def add_guest(self, peer: str, name: str, token: str | None = None) -> RoomGuest:
        guest = RoomGuest(self.sender(peer), self.make_id, name, token)
        guest.peer_id = peer  # so a test can take this very connection offline
        self.connect(peer, guest)
        return guest

    def disconnect(self, peer: str) -> None:
        """Take a node offline; messages to or from it are lost."""
        self.nodes.pop(peer, None)
        self.queue = [m for m in self.queue if peer not in (m[0], m[1])]
        for node in self.nodes.values():
            node.on_leave(peer)

    def deliver(self, index: int = 0) -> None:
        src, dst, text = self.queue.pop(index)
        if dst in self.nodes and src in self.nodes:
            self.received.setdefault(dst, []).append(text)
            self.nodes[dst].on_message(src, text)

    def settle(self, limit: int = 10_000) -> None:
        """Deliver everything in order until nothing is in flight."""
        for _ in range(limit):
            if not self.queue:
                return
            self.deliver()
        raise AssertionError("the network never went quiet")
