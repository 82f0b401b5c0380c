"""The room protocol's messages as types: what each kind holds once it passed its checks.

``messages.py`` declares each kind's fields with the checks a peer's message must
pass (types, lengths, ranges); this module declares the same kinds as TypedDicts,
tagged by ``t``, so that the code using a message reads typed fields and mypy
follows each one from the wire to its use. ``read_guest``, ``read_host`` and
``read_peer`` are the only way a text from the network becomes a message: checked
whole, then typed. ``tests/net/test_wire.py`` holds the two declarations to the
same kinds and fields, so neither can drift from the other.

A view, a lobby, a move and a game's hidden part stay JSON objects here: their
own readers (``catalog.read_view``, ``lobby.read_lobby``, the game's rules) type
them, as they do for every other source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

from .chat import ChatLines
from .messages import GUEST_TYPES, HOST_TYPES, PEER_TYPES, parse
from .succession import DealJson

Json = Any
"""A JSON value whose reader is elsewhere (a game's hidden part, a view's field)."""
JsonObject = dict[str, Any]
"""A JSON object whose reader is elsewhere (a view, a lobby, a move)."""
Mandate = list[str]
"""[mandate text, its signature] (``succession.mandate_text``)."""
HeirEntry = list[str]
"""[member id, peer, device key]: one heir in the order of succession."""


# -- what a guest says to the host ------------------------------------------------------


class Hello(TypedDict):
    t: Literal["hello"]
    token: str | None
    name: str
    key: str | None
    waited: bool
    """This device had waited out the room's host before greeting this one."""


class Rename(TypedDict):
    t: Literal["name"]
    name: str


class SeatChoice(TypedDict):
    t: Literal["seat"]
    seat: int | None


class Intent(TypedDict):
    t: Literal["intent"]
    id: str
    version: int
    move: JsonObject


class Sync(TypedDict):
    t: Literal["sync"]
    version: int


class Pong(TypedDict):
    t: Literal["pong"]
    at: int


class Say(TypedDict):
    t: Literal["chat"]
    text: str


class ReactTo(TypedDict):
    t: Literal["react"]
    emoji: str


GuestMessage = Hello | Rename | SeatChoice | Intent | Sync | Pong | Say | ReactTo


# -- what the host says to a guest ------------------------------------------------------


class Greeting(TypedDict):
    t: Literal["host"]
    epoch: int
    chain: list[Mandate]


class Replaced(TypedDict):
    t: Literal["replaced"]


class Gone(TypedDict):
    """This device is the host no more: it stepped down for a successor."""

    t: Literal["gone"]


class Removed(TypedDict):
    t: Literal["removed"]
    reason: str


class Welcome(TypedDict):
    t: Literal["welcome"]
    token: str
    member: str


class LobbyNews(TypedDict):
    t: Literal["lobby"]
    lobby: Mapping[str, object]
    """A ``lobby.RoomLobby`` as sent; as received, untrusted until ``read_lobby``."""


class Snapshot(TypedDict):
    t: Literal["snapshot"]
    version: int
    view: JsonObject


class Lines(TypedDict):
    """A list's change in an update: its first ``skip`` lines leave, ``lines`` arrive."""

    skip: int
    lines: list[Any]


class Update(TypedDict):
    """What changed of a view since version ``base``: fields ``set``, lists whose lines
    moved (``add``), fields dropped (``net/view_diff.py``)."""

    t: Literal["update"]
    base: int
    version: int
    set: JsonObject
    add: dict[str, Lines]
    drop: list[str]


class Tick(TypedDict):
    t: Literal["tick"]
    version: int
    at: int
    epoch: int


class LogNews(TypedDict):
    """A backup's game log, apart from its world: the events of the backup ``base``
    (the last this heir was sent; 0 for none) less its first ``skip``, then ``lines``."""

    base: int
    skip: int
    lines: list[Json]


class BackupNews(TypedDict):
    t: Literal["backup"]
    serial: int
    epoch: int
    version: int
    heirs: list[HeirEntry]
    room: str
    part: Json
    salt: str
    chain: list[Mandate]
    log: LogNews


class Backed(TypedDict):
    """A move's backup and that move's view, to an heir in one message (``host.broadcast``)."""

    t: Literal["backed"]
    backup: BackupNews
    news: Snapshot | Update


class Rejected(TypedDict):
    t: Literal["rejected"]
    code: str
    reason: str
    id: str | None


class RecordNews(TypedDict):
    t: Literal["record"]
    version: int
    record: str
    deal: DealJson | None


class ReactionNews(TypedDict):
    t: Literal["react"]
    member: str
    name: str
    seat: int | None
    emoji: str


class Muted(TypedDict):
    t: Literal["muted"]
    muted: bool


HostMessage = (
    Greeting
    | Replaced
    | Gone
    | Removed
    | Welcome
    | LobbyNews
    | Snapshot
    | Update
    | Tick
    | BackupNews
    | Backed
    | Rejected
    | RecordNews
    | ChatLines
    | ReactionNews
    | Muted
)


# -- what one guest says to another (a succession's two messages) ------------------------


class Claim(TypedDict):
    t: Literal["claim"]
    serial: int
    epoch: int
    commit: str


class Opening(TypedDict):
    t: Literal["opening"]
    serial: int
    part: Json
    salt: str
    seed: int


PeerMessage = Claim | Opening


def read_guest(text: object) -> GuestMessage:
    """A guest's message, checked whole (``ProtocolError`` if it is none)."""
    return cast(GuestMessage, parse(text, GUEST_TYPES))


def read_host(text: object) -> HostMessage:
    """A host's message, checked whole (``ProtocolError`` if it is none)."""
    return cast(HostMessage, parse(text, HOST_TYPES))


def read_peer(text: object) -> PeerMessage:
    """A fellow guest's message, checked whole (``ProtocolError`` if it is none)."""
    return cast(PeerMessage, parse(text, PEER_TYPES))
