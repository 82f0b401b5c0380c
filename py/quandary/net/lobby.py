"""The room's lobby as one declared type: what the host says about seats and people.

The host sends it to every guest whenever it changes, and the room's screens
(``web/render/room.py``) draw it. It arrives from the network, so a guest reads
it through ``read_lobby`` before keeping it: the shape is checked against these
very declarations (``engine.typed``), and then what the types cannot say (a game
Quandary has, a table size that game allows). A lobby that fails is refused
with a sentence and changes nothing; the screens never meet a missing field.
Pure standard library.
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from quandary import engine
from quandary.engine import BadSetup, typed

from .messages import ProtocolError

SeatKind = Literal["open", "bot"]
Patience = Literal["short", "normal", "long"]
MEMBERS_SHOWN = 64
"""More members than a lobby may list: seated players plus those waiting (net/members.py
admits far fewer), so a longer list is not a lobby this host could have made."""


class LobbySeat(TypedDict):
    """One seat as the lobby shows it: open for a person, or a bot, and who holds it."""

    kind: SeatKind
    level: str
    member: str | None
    name: str | None


class LobbyMember(TypedDict):
    """Someone in the room, seated or watching, here or away."""

    id: str
    name: str
    seat: int | None
    connected: bool


class RoomLobby(TypedDict):
    """Who is here and how the table is set: public, the same for everyone."""

    game: str
    title: str
    options: dict[str, object]
    started: bool
    host: str
    min: int
    max: int
    seats: list[LobbySeat]
    members: list[LobbyMember]
    patience: Patience
    locked: bool


def read_lobby(value: object) -> RoomLobby:
    """``value`` as a lobby, or ``ProtocolError`` saying what is wrong with it."""
    found = typed.problem(value, RoomLobby, "lobby")
    if found:
        raise ProtocolError(f"The room's lobby cannot be used: {found}.")
    lobby = cast(RoomLobby, value)
    try:
        spec = engine.spec_of(lobby["game"])
    except BadSetup as exc:
        raise ProtocolError(f"The room's lobby cannot be used: {exc.message}") from exc
    if (lobby["min"], lobby["max"]) != (spec.min_players, spec.max_players):
        raise ProtocolError(f"The room's lobby gives {spec.title} the wrong table sizes.")
    if not spec.min_players <= len(lobby["seats"]) <= spec.max_players:
        raise ProtocolError(f"The room's lobby sets {spec.title} for {len(lobby['seats'])}.")
    if len(lobby["members"]) > MEMBERS_SHOWN:
        raise ProtocolError("The room's lobby lists more people than a room holds.")
    return lobby
