"""What the parts of a room's host share: its fields, and the steps one part asks of another.

``RoomHost`` (``net/host.py``) is assembled from parts, each a module small enough
to read in one go: who may come in (``admission``), how the table is set before
the start (``seating``), and the room kept across a reload (``host_save``). Each
part names here what it reads of the host and what it asks another part to do;
the host sets the fields and ``RoomHost`` or a part defines the steps (a step
left undefined fails loudly, it never passes silently).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quandary.engine import Move
from quandary.table import BotSpeed, Table

from .backups import Backups
from .chat import ChatRoom
from .deliveries import Deliveries
from .host_chat import HostChat
from .lobby import Patience, RoomLobby
from .members import Member, SeatPlan
from .standing import Standing
from .wire import BackupNews, HostMessage


class HostBase:
    """The host's fields and its parts' shared steps (see the module's docstring)."""

    me: str
    """The host's own member id."""
    members: dict[str, Member]
    game: str
    options: dict[str, Any]
    plan: list[SeatPlan]
    table: Table | None
    speed: BotSpeed
    epochs: list[int]
    """Per seat, the version at which its legal moves last changed (older intents are stale)."""
    patience: Patience
    epoch: int
    locked: bool
    removed: set[str]
    peers: set[str]
    beats: int
    deliveries: Deliveries
    backups: Backups
    standing: Standing
    chat: ChatRoom
    talk: HostChat
    now: Callable[[], float]
    make_id: Callable[[], str]

    # -- steps one part asks of another ------------------------------------------

    def broadcast(self) -> None:
        """Send every connected guest what changed for them (``RoomHost``)."""
        raise NotImplementedError

    def lobby(self) -> RoomLobby:
        """The room's public lobby (``seating``)."""
        raise NotImplementedError

    def _send(self, peer: str, msg: HostMessage, seat: int | None, text: str | None = None) -> None:
        """Through the one door out (``RoomHost``)."""
        raise NotImplementedError

    def _send_view(
        self, member: Member, snapshot: bool = False, backup: BackupNews | None = None
    ) -> None:
        """What changed of a member's view (``RoomHost``)."""
        raise NotImplementedError

    def _reject(self, peer: str | None, code: str, reason: str, intent: str | None = None) -> None:
        """Tell a guest why its message changed nothing (``RoomHost``)."""
        raise NotImplementedError

    def _legal_now(self) -> list[list[Move]]:
        """Each seat's legal moves now (``RoomHost``)."""
        raise NotImplementedError

    def _after_move(self, before: list[list[Move]]) -> None:
        """The table moved: mark stale intents and broadcast (``RoomHost``)."""
        raise NotImplementedError

    def _free_name(self, name: str, member: Member | None = None) -> str:
        """``name`` made unlike every other name here (``seating``)."""
        raise NotImplementedError
