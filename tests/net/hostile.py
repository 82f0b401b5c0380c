"""A hostile peer for the in-memory network: someone with the link and bad intentions.

It joins like anyone who opened the link, records everything it receives, and
sends whatever text it likes to whomever it likes. Each attack is a method, so
the suite can run them one by one or all together against a live room, then
check that the room goes on with nothing lost or leaked.
"""

from __future__ import annotations

import json
from typing import Any

from .memnet import HostKey, Network, sign

PAYLOAD = '<script type="py">import js; js.document.title = "pwned"</script>'


class HostilePeer:
    """A connection that speaks the protocol only when it suits it."""

    def __init__(self, net: Network, peer: str = "X") -> None:
        self.net = net
        self.peer = peer
        self.received: list[tuple[str, str, bool]] = []
        self.fake_key = HostKey()
        net.connect(peer, self)

    # -- what a node must answer -----------------------------------------------------

    def on_join(self, peer: str) -> None:
        """Noted, nothing more."""

    def on_leave(self, peer: str) -> None:
        """Noted, nothing more."""

    def on_message(
        self, peer: str, text: str, from_host: bool = False, certified: str | None = None
    ) -> None:
        self.received.append((peer, text, from_host))

    def heard(self) -> str:
        """Everything it received, as one text to search for secrets."""
        return "\n".join(text for _, text, _ in self.received)

    # -- attacks -----------------------------------------------------------------------

    def send(self, dst: str, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        self.net.queue.append((self.peer, dst, text))

    def greet(self, host: str, name: str = "Mallory", token: str | None = None) -> None:
        self.send(host, {"t": "hello", "token": token, "name": name, "key": None, "waited": False})

    def pose_as_host(self, target: str, view: dict[str, Any] | None = None) -> None:
        """Every host message it can make up, plain and in envelopes it signed itself."""
        view = view or forged_view()
        lobby = {"game": "dilemmas", "title": PAYLOAD, "started": True, "host": "x"}
        messages = [
            {"t": "host"},
            {"t": "welcome", "token": "forged", "member": "x"},
            {"t": "lobby", "lobby": lobby},
            {"t": "snapshot", "version": 999, "view": view},
            {
                "t": "update",
                "base": 0,
                "version": 1000,
                "set": {"version": PAYLOAD},
                "add": {},
                "drop": [],
            },
            {"t": "replaced"},
        ]
        for n, message in enumerate(messages, start=1):
            text = json.dumps(message)
            self.send(target, text)
            self.send(
                target, sign(self.fake_key.private, "testroom0001", self.peer, target, n, text)
            )

    def replay_host_message(self, captured: str, target: str) -> None:
        """A signed message of the host's, captured on the wire, sent again from here."""
        self.net.queue.append((self.peer, target, captured))

    def claim_seat_with(self, host: str, token: str) -> None:
        """A seat token, if it ever got hold of one."""
        self.greet(host, "Anna", token)

    def broken_names(self, host: str) -> None:
        for name in ('"\\ud800"', '"\\u0000x"', '"a\\u202eb"', json.dumps("x" * 200)):
            self.send(host, '{"t":"name","name":' + name + "}")
            self.send(
                host, '{"t":"hello","token":null,"key":null,"waited":false,"name":' + name + "}"
            )

    def flood(self, host: str, message: dict[str, Any], count: int = 2_000) -> None:
        for _ in range(count):
            self.send(host, message)

    def nest(self, target: str, depth: int = 6_000) -> None:
        self.send(target, '{"t":"sync","version":' + "[" * depth + "]" * depth + "}")

    def forge_pong(self, host: str, at: int) -> None:
        self.send(host, {"t": "pong", "at": at})

    def odd_moves(self, host: str) -> None:
        for move in ({"type": ["build"]}, {"type": None}, {"type": {"x": 1}}, {"type": "close"}):
            self.send(host, {"t": "intent", "id": "odd", "version": 0, "move": move})


def forged_view() -> dict[str, Any]:
    """A view with markup in every text field and nonsense in the rest."""
    return {
        "game": "dilemmas",
        "version": PAYLOAD,
        "seat": 1,
        "names": [PAYLOAD] * 3,
        "phase": PAYLOAD,
        "legal_moves": "all",
    }
