"""An in-memory network for the room protocol: queued messages we can drop or shuffle.

It is also the transport's signing, done as the page's transport does it
(``static/js/room.entry.js``) with a real Ed25519 implementation: the host's
connection signs every message it sends as an envelope
``{"m": text, "n": counter, "s": signature}`` over
``room \\n from \\n to \\n counter \\n text``, and a receiver passes
``from_host=True`` only for an envelope that verifies against the room's host
key, came from the connection it names, to this connection, newer than the
last. Everything else arrives as ``from_host=False``.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
from dataclasses import dataclass, field
from typing import Any

from Crypto.Protocol.SecretSharing import Shamir
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from quandary.net.guest import RoomGuest
from quandary.net.host import RoomHost
from quandary.net.succession import Unseal

ROOM = "testroom0001"
STEP_MS = 20.0
"""How long one message takes on this network (a LAN's round trip is about this)."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


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


def seal(plaintext: str, holders: int) -> tuple[str, list[str]]:
    """As the page's transport seals a backup: AES-GCM under a fresh key split 2-of-n.

    Python's ``cryptography`` for AES-GCM and PyCryptodome's Shamir secret sharing
    stand in for WebCrypto and the page's ``shamir-secret-sharing``.
    """
    key, nonce = AESGCM.generate_key(bit_length=128), os.urandom(12)
    blob = b64(nonce + AESGCM(key).encrypt(nonce, plaintext.encode(), None))
    shares = [b64(bytes([index]) + share) for index, share in Shamir.split(2, holders, key)]
    return blob, shares


def unseal(request: Unseal) -> str:
    """Open a backup with two shares (``ValueError``/``InvalidTag`` if they do not fit)."""
    return open_blob(request.backup.blob, request.shares)


def open_blob(blob: str, shares: tuple[str, str]) -> str:
    """As the page's transport opens a sealed backup's blob with two shares."""
    parts = [unb64(share) for share in shares]
    key = Shamir.combine([(part[0], part[1:]) for part in parts])
    raw = unb64(blob)
    return AESGCM(key).decrypt(raw[:12], raw[12:], None).decode()


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

    def backup(self, text: str, holders: list[str], template: str) -> None:
        self.net.sealer(self.src)(text, holders, template)

    def become_host(self, key: str) -> None:
        assert key == self.net.key.pkcs8, "a successor signs with the room's own key"
        self.net.signers[self.src] = self.net.key.private

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
    sealing: bool = False
    """Whether hosts added here back the room up (tests of succession turn it on: sealing
    costs a key split per move, which the other room tests do not need to pay)."""
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

    def sealer(self, src: str):
        """How ``src`` (a host) seals a backup: each holder gets the blob and its own share."""
        send = self.sender(src)

        def sealed(plaintext: str, holders: list[str], template: str) -> None:
            blob, shares = seal(plaintext, len(holders))
            for holder, share in zip(holders, shares, strict=True):
                extra = f',"blob":{json.dumps(blob)},"share":{json.dumps(share)}}}'
                send(holder, template[:-1] + extra)

        return sealed

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
        if self.sealing:
            host.seal, host.signing_key = self.sealer(peer), self.key.pkcs8
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

    def open(self, src: str, dst: str, text: str) -> tuple[str, bool]:
        """What the receiving transport hands on: the text, and whether it is the host's."""
        if not text.startswith('{"m":'):  # as the page's transport: only envelopes are opened
            return text, False
        try:
            envelope = json.loads(text)
        except (ValueError, RecursionError):
            return text, False
        if not isinstance(envelope, dict) or set(envelope) != {"m", "n", "s"}:
            return text, False
        message, counter, signature = envelope["m"], envelope["n"], envelope["s"]
        public = Ed25519PublicKey.from_public_bytes(unb64(self.key.public))
        try:
            if not isinstance(message, str) or not isinstance(counter, int):
                raise InvalidSignature
            public.verify(unb64(signature), signed_payload(ROOM, src, dst, counter, message))
        except (InvalidSignature, ValueError, TypeError):
            self.forged += 1
            return text, False
        if counter <= self.last.get((src, dst), 0):
            self.forged += 1  # a replay
            return text, False
        self.last[(src, dst)] = counter
        return message, True

    def deliver(self, index: int = 0) -> None:
        self.clock += self.step_ms
        src, dst, text = self.queue.pop(index)
        if dst in self.nodes and src in self.nodes and frozenset((src, dst)) not in self.cuts:
            message, from_host = self.open(src, dst, text)
            self.received.setdefault(dst, []).append(message)
            self.nodes[dst].on_message(src, message, from_host)

    def settle(self, limit: int = 10_000) -> None:
        """Deliver everything in order until nothing is in flight."""
        for _ in range(limit):
            if not self.queue:
                return
            self.deliver()
        raise AssertionError("the network never went quiet")
