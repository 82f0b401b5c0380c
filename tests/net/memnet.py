"""An in-memory network for the room protocol: queued messages we can drop or shuffle.

It is also the transport's signing, done as the page's transport does it
(``static/js/room.entry.js``) with a real Ed25519 implementation: the host's
connection signs every message it sends as an envelope
``{"m": text, "n": counter, "s": signature}`` over
``room \\n from \\n to \\n counter \\n text``, and a receiver passes
``from_host=True`` only for an envelope that verifies against the room's host
key (or the one successor's device key that receiver was told to trust), came
from the connection it names, to this connection, newer than the last. Text that
is no envelope arrives as ``from_host=False``; an envelope that verifies from no
key it knows, or is replayed, is dropped (``forged`` counts them). That policy is
``Receiver``, held case by case to the JS that ships by
tests/e2e/test_transport_policy.py. Every guest has its own device key pair
(``devices``), as the page makes one when it first opens a room.
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
from quandary.net.succession import MANDATES

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


SAFE = 2**53 - 1
"""JavaScript's largest safe integer: an envelope's counter is one (``Number.isSafeInteger``)."""
MANDATE_CHARS = 4096
"""The longest mandate the page's transport reads, in JavaScript's characters (UTF-16)."""
MOST_HEIRS = 16


def _js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def envelope(text: str) -> tuple[str, int, str] | None:
    """(message, counter, signature) if ``text`` is a signed envelope, as the page's
    transport reads one (static/js/room.entry.js ``envelope``), else None."""
    if not text.startswith('{"m":'):
        return None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or sorted(value) != ["m", "n", "s"]:
        return None
    message, counter, signature = value["m"], value["n"], value["s"]
    if isinstance(counter, float) and counter.is_integer():
        counter = int(counter)  # JSON has one kind of number: 1.0 is 1 there
    if not isinstance(message, str) or not isinstance(signature, str):
        return None
    if isinstance(counter, bool) or not isinstance(counter, int) or abs(counter) > SAFE:
        return None
    return message, counter, signature


def _is_text_at(items: list[Any], index: int) -> bool:
    """Whether ``items[index]`` is text (JavaScript's missing item is no text either)."""
    return len(items) > index and isinstance(items[index], str)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def mandated(room: str, keys: list[str], message: str) -> list[str]:
    """The heirs' keys a host greeting's chain of mandates ends with, if each mandate
    is signed by a key the one before names (the first by ``keys``); empty if any
    link fails. As static/js/room.entry.js ``mandated`` checks it."""
    try:
        greeting = json.loads(message, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return []
    is_greeting = isinstance(greeting, dict) and greeting.get("t") == "host"
    chain = greeting.get("chain") if is_greeting else None
    if not isinstance(chain, list) or not chain or len(chain) > MANDATES:
        return []
    named: list[str] = []
    for link in chain:
        if not isinstance(link, list) or len(link) != 2:
            return []
        text, signature = link
        if not isinstance(text, str) or _js_length(text) > MANDATE_CHARS:
            return []
        if not isinstance(signature, str):
            return []
        payload = f"mandate\n{room}\n{text}".encode()
        if not any(_verifies_raw(k, payload, signature) for k in keys):
            return []
        try:
            heirs = json.loads(text, parse_constant=_no_constant)["heirs"]
        except (ValueError, RecursionError, TypeError, KeyError, IndexError):
            return []
        if not isinstance(heirs, list) or len(heirs) > MOST_HEIRS:
            return []
        keys = named = [h[1] for h in heirs if isinstance(h, list) and _is_text_at(h, 1)]
    return named


@dataclass
class Receiver:
    """What one connection takes from its peers: the page transport's policy
    (static/js/room.entry.js ``receiver``), which tests/e2e/test_transport_policy.py
    holds this copy to, case by case, against the JS that ships."""

    room: str
    me: str
    host_key: str
    trusted: list[str] = field(default_factory=list)
    heard: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.verifiers = [self.host_key, *self.trusted[-1:]]

    def open(self, peer: str, text: str) -> tuple[str, bool, str | None] | None:
        """[text, from the host, the heir's key a chain names], or None: dropped."""
        sealed = envelope(text)
        if sealed is None:
            return text, False, None
        message, counter, signature = sealed
        if counter <= self.heard.get(peer, 0):
            return None  # replayed
        signed = signed_payload(self.room, peer, self.me, counter, message)
        if any(_verifies_raw(k, signed, signature) for k in self.verifiers):
            self.heard[peer] = counter
            return message, True, None
        for key in mandated(self.room, self.verifiers, message):
            if _verifies_raw(key, signed, signature):
                self.heard[peer] = counter
                return message, False, key
        return None

    def trust(self, key: str) -> None:
        """The successor followed from now on, in place of any before."""
        self.verifiers = [self.host_key, key]

    def forget(self, peer: str) -> None:
        self.heard.pop(peer, None)


@dataclass
class Signing:
    """What the page's transport does with the room's key, on the in-memory network."""

    net: Network
    src: str

    def become_host(self, key: str) -> None:
        """Sign with ``key`` (PKCS#8, base64url) from now on, as the page imports it."""
        self.net.signers[self.src] = private_key(key)

    def trust(self, key: str) -> None:
        self.net.receiver(self.src).trust(key)

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
    clock: float = 0.0
    """Milliseconds: every delivery takes ``step_ms``, so rates mean something here."""
    step_ms: float = STEP_MS
    backing_up: bool = False
    """Whether hosts added here back the room up on their guests (tests of succession
    turn it on: a backup costs a deal per move, which the other room tests need not pay)."""
    devices: dict[str, HostKey] = field(default_factory=dict)
    """Each guest's own device key pair, named in the order of succession."""
    trusted: dict[str, list[str]] = field(default_factory=dict)
    """The successors' keys each connection opened the room with (the last is followed)."""
    receivers: dict[str, Receiver] = field(default_factory=dict)
    """Each connection's transport policy (``Receiver``), made at its first message."""
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
        for other in list(self.nodes):
            self._left(other, peer)
            self._left(peer, other)  # and it sees them leave (it may come back)
        for node in self.nodes.values():
            node.on_leave(peer)

    def _left(self, a: str, b: str) -> None:
        """``a``'s transport sees ``b`` leave: it forgets the counters between them, as
        the page's does (``receiver.forget``; its sending counter starts again)."""
        self.receiver(a).forget(b)
        self.counters.pop((a, b), None)
        self.counters.pop((b, a), None)

    def cut(self, a: str, b: str) -> None:
        """``a`` and ``b`` lose each other (each sees the other leave); others see both."""
        self.cuts.add(frozenset((a, b)))
        self.queue = [m for m in self.queue if {m[0], m[1]} != {a, b}]
        self._left(a, b)
        self._left(b, a)
        self.nodes[a].on_leave(b)
        self.nodes[b].on_leave(a)

    def mend(self, a: str, b: str) -> None:
        """``a`` and ``b`` reach each other again."""
        self.cuts.discard(frozenset((a, b)))
        self.nodes[a].on_join(b)
        self.nodes[b].on_join(a)

    def receiver(self, dst: str) -> Receiver:
        """``dst``'s transport policy, opened with the keys it was given (``trusted``)."""
        if dst not in self.receivers:
            self.receivers[dst] = Receiver(ROOM, dst, self.key.public, self.trusted.get(dst, []))
        return self.receivers[dst]

    def open(self, src: str, dst: str, text: str) -> tuple[str, bool, str | None] | None:
        """What the receiving transport hands on (``Receiver.open``): the text, whether it
        is the host's, and the heir's key a chain of mandates names; None if dropped."""
        opened = self.receiver(dst).open(src, text)
        if opened is None:
            self.forged += 1  # signed by no key it knows, or a replay
        return opened

    def deliver(self, index: int = 0) -> None:
        self.clock += self.step_ms
        src, dst, text = self.queue.pop(index)
        if dst in self.nodes and src in self.nodes and frozenset((src, dst)) not in self.cuts:
            opened = self.open(src, dst, text)
            if opened is None:
                return
            message, from_host, heir = opened
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
