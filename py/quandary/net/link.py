"""Room links: ``<page>#r=<room id>.<secret>&k=<host key>``, optionally ``&relays=``
(signalling relays) and ``&turn=&tu=&tp=`` (TURN servers and their credential).

The secret lives only in the fragment, which browsers never send to a server,
and is the password that encrypts the WebRTC handshake, so neither the static
host nor the signalling relays can read it. The host key is the public half of
the Ed25519 key the room's creator signs every host message with: a guest
believes only messages it verifies against it, so knowing the link does not
let anyone speak as the host. The room id is derived from the secret and the
key (a hash prefix), so a link whose secret or key was changed or mistyped is
recognised at once, on the device, instead of waiting for peers that cannot
decrypt each other. The relays and TURN servers a link names are part of that
derivation too: whoever doctors a link to send its guests through servers of
their own (or through 3,000 of them) makes a link that opens nothing, and the
guest is told the link was changed. At most eight of each, ``wss:`` relays (or a
``ws:`` relay on this very machine, as ``make run`` starts), ``turn:``/``turns:``.

>>> link = RoomLink.create("A" * 22, "K" * 43, ())
>>> parse_fragment(link.fragment()) == link
True
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

# ``hashlib`` and ``urllib.parse`` are imported where a room link is made or read:
# a page that opens no room (most starts) does not wait for them while it boots.

ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{8,32}$")
SECRET = re.compile(r"^[A-Za-z0-9_-]{22,64}$")  # 22 base64url characters = 132 bits
HOST_KEY = re.compile(r"^[A-Za-z0-9_-]{43}$")  # an Ed25519 public key: 32 bytes, base64url
RELAY = re.compile(
    r"^(wss://[^\s,#]{1,200}|ws://(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?(/[^\s,#]{0,100})?)$"
)
MAX_SERVERS = 8
"""Relays, and TURN servers, a link may name: more is a doctored link, not a room."""
TURN = re.compile(r"^turns?:[^\s,#/]{1,200}$")
CREDENTIAL = re.compile(r"^[^\s,#&]{0,100}$")


class BadLink(ValueError):
    """A room link that cannot be used, with a sentence for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WrongSecret(BadLink):
    """A well-formed link whose secret does not belong to its room."""


def room_for(
    secret: str, host_key: str, relays: tuple[str, ...] = (), turn: Turn | None = None
) -> str:
    """The room id that belongs to a secret, host key and the servers the link names:
    12 characters of their SHA-256 (a link naming no server has the id it always had)."""
    import hashlib
    import json

    text = f"quandary-room:{secret}:{host_key}"
    if relays or turn is not None:
        servers = [list(relays), [list(turn.urls), turn.username, turn.credential] if turn else []]
        text += ":" + json.dumps(servers, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:12]


@dataclass(frozen=True)
class RoomLink:
    """Where a room is and the secret to enter it."""

    room: str
    secret: str
    host_key: str
    relays: tuple[str, ...]
    turn: Turn | None = None

    @classmethod
    def create(
        cls, secret: str, host_key: str, relays: tuple[str, ...], turn: Turn | None = None
    ) -> RoomLink:
        """The link of a new room with this secret and its creator's public key."""
        return cls(room_for(secret, host_key, relays, turn), secret, host_key, relays, turn)

    def fragment(self) -> str:
        """The URL fragment (without '#') that opens this room."""
        from urllib.parse import quote

        out = f"r={self.room}.{self.secret}&k={self.host_key}"
        if self.relays:
            out += "&relays=" + ",".join(quote(r, safe="") for r in self.relays)
        if self.turn is not None:
            out += "&turn=" + ",".join(quote(u, safe="") for u in self.turn.urls)
            out += f"&tu={quote(self.turn.username, safe='')}"
            out += f"&tp={quote(self.turn.credential, safe='')}"
        return out


@dataclass(frozen=True)
class Turn:
    """TURN servers that relay a room's connections when peers cannot reach each other.

    Everyone in the room needs them, so they travel in the link with their one
    username and password: whoever has the link may use these servers (which is
    what a TURN server given to a room is for). Traffic through them stays
    end-to-end encrypted by WebRTC.
    """

    urls: tuple[str, ...]
    username: str = ""
    credential: str = ""

    @classmethod
    def parse(cls, urls: str, username: str, credential: str) -> Turn | None:
        """TURN settings as typed (URLs separated by commas or spaces); ``BadLink`` if wrong."""
        found = tuple(u for u in re.split(r"[\s,]+", urls.strip()) if u)
        if not found:
            return None
        if len(found) > MAX_SERVERS:
            raise BadLink(f"A room may name at most {MAX_SERVERS} TURN servers.")
        if any(not TURN.match(u) for u in found):
            raise BadLink("A TURN server is written turn:host:port (or turns:host:port).")
        if not CREDENTIAL.match(username) or not CREDENTIAL.match(credential):
            raise BadLink("A TURN username or password may not hold spaces, commas, # or &.")
        return cls(found, username, credential)

    def ice_servers(self) -> list[dict[str, object]]:
        """The servers as the browser's ``RTCPeerConnection`` takes them."""
        return [{"urls": list(self.urls), "username": self.username, "credential": self.credential}]


def is_room_fragment(fragment: str) -> bool:
    """Whether a fragment is meant as a room link (well formed or not)."""
    return fragment.lstrip("#").startswith("r=")


def parse_fragment(fragment: str) -> RoomLink:
    """The room in a fragment like ``r=<room>.<secret>``; ``BadLink`` if it is damaged."""
    from urllib.parse import parse_qsl

    try:
        fields = dict(parse_qsl(fragment.lstrip("#"), strict_parsing=True))
    except ValueError:
        raise BadLink("This room link is damaged: it cannot be read.") from None
    room, _, secret = fields.get("r", "").partition(".")
    host_key = fields.get("k", "")
    if not ROOM_ID.match(room) or not SECRET.match(secret) or not HOST_KEY.match(host_key):
        raise BadLink(
            "This room link is incomplete or damaged: its room, secret or host key is missing."
        )
    relays = tuple(r for r in fields.get("relays", "").split(",") if r)
    urls = fields.get("turn", "").replace(",", " ")
    if len(relays) > MAX_SERVERS or len(urls.split()) > MAX_SERVERS:
        raise BadLink(f"This room link names more than {MAX_SERVERS} relays or TURN servers.")
    if any(not RELAY.match(r) for r in relays):
        raise BadLink("This room link names a relay that is not a wss:// address.")
    turn = Turn.parse(urls, fields.get("tu", ""), fields.get("tp", ""))
    if room_for(secret, host_key, relays, turn) != room:
        raise WrongSecret(
            "Cannot join this room: this is not the link it was opened with (its secret,"
            " host key, relays or TURN servers were changed or mistyped)."
            " Ask for the link again, or create a new room."
        )
    return RoomLink(room, secret, host_key, relays, turn)
