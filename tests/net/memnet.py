"""An in-memory network for the room protocol: queued messages we can drop or shuffle.

It is also the transport's signing, done as the page's transport does it
(``static/js/room.entry.js``) with a real Ed25519 implementation: the host's
connection signs every message it sends as an envelope
``{"m": text, "n": counter, "s": signature}`` over
``room \\n from \\n to \\n counter \\n text``, and a receiver passes
``from_host=True`` only for an envelope that verifies against the room's host
key (or a key that receiver was told to trust: a successor's device key), came
from the connection it names, to this connection, newer than the last.
Everything else arrives as ``from_host=False``. Every guest has its own device
key pair (``devices``), as the page makes one when it first opens a room.
"""

from __future__ import annotations

import base64
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from quandary.net.guest import RoomGuest
from quandary.net.host import RoomHost

ROOM = "testroom0001"
STEP_MS = 20.0
"""How long one message takes on this network (a LAN's round trip is about this)."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def private_key(pkcs8: str) -> Ed25519PrivateKey:
    """A private key as the page keeps it (PKCS#8, base64url), read back."""
    key = serialization.load_der_private_key(unb64(pkcs8), None)
    assert isinstance(key, Ed25519PrivateKey), "a room's keys are Ed25519"
    return key


@dataclass
class HostKey:
    """A room's host key pair, as the page keeps it (public raw, private PKCS#8)."""

    private: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)

    @property
    def public(self) -> str:
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return b64(raw)

    @property
    def pkcs8(self) -> str:
        return b64(
            self.private.private_bytes(
                serialization.Encoding.DER,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )


def _verifies_raw(key: Any, payload: bytes, signature: Any) -> bool:
    """Whether ``signature`` (base64url) is ``key``'s over ``payload``."""
    try:
        public = Ed25519PublicKey.from_public_bytes(unb64(key))
        public.verify(unb64(signature), payload)
    except (InvalidSignature, ValueError, TypeError, AttributeError):
        return False
    return True


def mandate_payload(text: str) -> bytes:
    return f"mandate\n{ROOM}\n{text}".encode()


def signed_payload(room: str, src: str, dst: str, counter: int, text: str) -> bytes:
    return f"{room}\n{src}\n{dst}\n{counter}\n{text}".encode()


def sign(key: Ed25519PrivateKey, room: str, src: str, dst: str, counter: int, text: str) -> str:
    signature = key.sign(signed_payload(room, src, dst, counter, text))
    return json.dumps({"m": text, "n": counter, "s": b64(signature)}, separators=(",", ":"))


@dataclass
class Signing:
    """What the page's transport does with the room's key, on the in-memory network."""

    net: Network
    src: str

    def become_host(self, key: str) -> None:
        """Sign with ``key`` (PKCS#8, base64url) from now on, as the page imports it."""
        self.net.signers[self.src] = private_key(key)

    def trust(self, key: str) -> None:
        self.net.trusted.setdefault(self.src, set()).add(key)

    def certify(self, text: str) -> None:
        """Sign a mandate with the key this connection signs with, as the page does."""
        signature = self.net.signers[self.src].sign(mandate_payload(text))
        node = self.net.nodes[self.src]
        host = node if isinstance(node, RoomHost) else node.host  # a page's room controller
        host.backups.certified(text, b64(signature))

    def step_down(self) -> None:
        self.net.signers.pop(self.src, None)


@dataclass
class Network:
    """Peers by id, and the messages in flight between them, in send order."""

    nodes: dict[str, Any] = field(default_factory=dict)
    queue: list[tuple[str, str, str]] = field(default_factory=list)
    received: dict[str, list[str]] = field(default_factory=dict)
    key: HostKey = field(default_factory=HostKey)
    signers: dict[str, Ed25519PrivateKey] = field(default_factory=dict)
    """Connections that sign what they send (the host's)."""
    counters: dict[tuple[str, str], int] = field(default_factory=dict)
    last: dict[tuple[str, str], int] = field(default_factory=dict)
    clock: float = 0.0
    """Milliseconds: every delivery takes ``step_ms``, so rates mean something here."""
    step_ms: float = STEP_MS
    backing_up: bool = False
    """Whether hosts added here back the room up on their guests (tests of succession
    turn it on: a backup costs a deal per move, which the other room tests need not pay)."""
    devices: dict[str, HostKey] = field(default_factory=dict)
    """Each guest's own device key pair, named in the order of succession."""
    trusted: dict[str, set[str]] = field(default_factory=dict)
    """Keys each receiver takes as the host's besides the room's (``Signing.trust``)."""
    forged: int = 0
    """Envelopes that failed verification (dropped as host messages)."""
    cuts: set[frozenset[str]] = field(default_factory=set)
    """Pairs of peers that cannot reach each other (``cut``), though both are online."""
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def sender(self, src: str, key: Ed25519PrivateKey | None = None):
        """How ``src`` sends: signed envelopes if it holds a host key."""
        if key is not None:
            self.signers[src] = key

        def send(dst: str, text: str) -> None:
            signer = self.signers.get(src)
            if signer is not None:
                counter = self.counters.get((src, dst), 0) + 1
                self.counters[(src, dst)] = counter
                text = sign(signer, ROOM, src, dst, counter, text)
            self.queue.append((src, dst, text))

        return send

    def signing(self, src: str) -> Signing:
        """The transport's key work for the device at ``src`` (``RoomController.opened``)."""
        return Signing(self, src)

    def make_id(self) -> str:
        return f"id{next(self._ids):06d}"

    def now(self) -> float:
        return self.clock

    def add_host(self, name: str = "Hana", peer: str = "H") -> RoomHost:
        host = RoomHost(
            self.sender(peer, self.key.private), self.make_id, lambda: 1234, name, self.now
        )
        host.backups.on = self.backing_up
        if self.backing_up:
            host.backups.certify = self.signing(peer).certify
        self.connect(peer, host)
        return host

    def connect(self, peer: str, node: Any) -> None:
        """Bring a node online: everyone present sees it join, and it sees them."""
        present = [p for p in self.nodes if p != peer]
        self.nodes[peer] = node
        for other in present:
            self.nodes[other].on_join(peer)
            node.on_join(other)

    def add_guest(self, peer: str, name: str, token: str | None = None) -> RoomGuest:
        guest = RoomGuest(self.sender(peer), self.make_id, name, token, self.now)
        guest.peer_id = peer  # so a test can take this very connection offline
        device = self.devices.setdefault(peer, HostKey())
        guest.key = device.public
        guest.trust = self.signing(peer).trust
        self.connect(peer, guest)
        return guest

    def disconnect(self, peer: str) -> None:
        """Take a node offline; messages to or from it are lost."""
        self.nodes.pop(peer, None)
        self.queue = [m for m in self.queue if peer not in (m[0], m[1])]
        for node in self.nodes.values():
            node.on_leave(peer)

    def cut(self, a: str, b: str) -> None:
        """``a`` and ``b`` lose each other (each sees the other leave); others see both."""
        self.cuts.add(frozenset((a, b)))
        self.queue = [m for m in self.queue if {m[0], m[1]} != {a, b}]
        self.nodes[a].on_leave(b)
        self.nodes[b].on_leave(a)

    def mend(self, a: str, b: str) -> None:
        """``a`` and ``b`` reach each other again."""
        self.cuts.discard(frozenset((a, b)))
        self.nodes[a].on_join(b)
        self.nodes[b].on_join(a)

    def open(self, src: str, dst: str, text: str) -> tuple[str, bool, str | None]:
        """What the receiving transport hands on: the text, whether it is the host's, and
        the heir's key a chain of mandates names, if it is signed with one."""
        if not text.startswith('{"m":'):  # as the page's transport: only envelopes are opened
            return text, False, None
        try:
            envelope = json.loads(text)
        except (ValueError, RecursionError):
            return text, False
        if not isinstance(envelope, dict) or set(envelope) != {"m", "n", "s"}:
            return text, False, None
        message, counter, signature = envelope["m"], envelope["n"], envelope["s"]
        keys = [self.key.public, *sorted(self.trusted.get(dst, ()))]
        if not any(self._verifies(key, src, dst, message, counter, signature) for key in keys):
            named = self._mandated(keys, message)
            heir = next(
                (k for k in named if self._verifies(k, src, dst, message, counter, signature)),
                None,
            )
            if heir is None:
                self.forged += 1
                return text, False, None
            if counter <= self.last.get((src, dst), 0):
                self.forged += 1  # a replay
                return text, False, None
            self.last[(src, dst)] = counter
            return message, False, heir
        if counter <= self.last.get((src, dst), 0):
            self.forged += 1  # a replay
            return text, False, None
        self.last[(src, dst)] = counter
        return message, True, None

    @staticmethod
    def _mandated(keys: list[str], message: Any) -> list[str]:
        """The heirs' keys a host greeting's chain of mandates ends with, if each mandate
        is signed by a key the one before names (the first by ``keys``: the room's and
        those trusted); empty if any link fails. As the page's transport checks it."""
        try:
            inner = json.loads(message)
            chain = inner["chain"] if inner.get("t") == "host" else None
            if not isinstance(chain, list) or not chain or len(chain) > 8:
                return []
            for text, signature in chain:
                payload = mandate_payload(text)
                if not any(_verifies_raw(k, payload, signature) for k in keys):
                    return []
                keys = [key for _, key in json.loads(text)["heirs"]]
        except (ValueError, TypeError, KeyError, AttributeError):
            return []
        return keys

    @staticmethod
    def _verifies(key: str, src: str, dst: str, message: Any, counter: Any, signature: Any) -> bool:
        if not isinstance(message, str) or not isinstance(counter, int):
            return False
        return _verifies_raw(key, signed_payload(ROOM, src, dst, counter, message), signature)

    def deliver(self, index: int = 0) -> None:
        self.clock += self.step_ms
        src, dst, text = self.queue.pop(index)
        if dst in self.nodes and src in self.nodes and frozenset((src, dst)) not in self.cuts:
            message, from_host, heir = self.open(src, dst, text)
            self.received.setdefault(dst, []).append(message)
            node = self.nodes[dst]
            node.on_message(src, message, from_host, heir)

    def settle(self, limit: int = 10_000) -> None:
        """Deliver everything in order until nothing is in flight."""
        for _ in range(limit):
            if not self.queue:
                return
            self.deliver()
        raise AssertionError("the network never went quiet")
