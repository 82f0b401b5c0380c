"""The room's saved form: what a host's device keeps across a reload, and a backup holds.

``RoomHost.to_json`` writes it, ``succession.world_room`` makes a backup's world of
it and ``succession.pack`` compresses it. Reading one back (``RoomHost.restore``,
``succession.unpack``) starts from untrusted JSON and checks every field there, so
these types describe what is written, not what may arrive.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from quandary.engine.spec import Json
from quandary.table import TableJson


class MemberJson(TypedDict):
    """A member as the host's save keeps it (its connection aside): ``Member.to_json``."""

    id: str
    token: str
    name: str
    seat: int | None
    seen: list[str]
    key: str | None


class PlanJson(TypedDict):
    """A seat of the room's plan: who will sit there when the game starts."""

    kind: str
    level: str


class RoomJson(TypedDict):
    """The whole room: ``RoomHost.to_json``."""

    format: int
    me: str
    game: str
    options: dict[str, Json]
    plan: list[PlanJson]
    members: list[MemberJson]
    table: TableJson | None
    window: dict[str, int] | None
    epochs: list[int]
    patience: str
    epoch: int
    locked: bool
    muted: list[str]
    chat_serial: int
    chain: NotRequired[list[list[str]]]
    """A saved room only (not a backup's): the mandates that make this host's key the
    room's, so a successor back from a reload can still prove it is the host."""
    commitments: NotRequired[dict[str, str]]
    """A backup's room only: each heir's seat -> the salted commitment to its hidden
    part, which the heir's own opening must match (``engine.dealing.commitment``)."""
