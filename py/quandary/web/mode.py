"""Where the app is, as one value: a place, and perhaps an overlay lying over it.

The controller once kept this in five nullable fields (a room, a local table and its
save id, a practice, the game waiting for it, a replay) and asked combinations of
them; a room and a local table at once, or a waiting game with no practice, could
be written down though nothing meant them. Here they cannot:

- the *place* is exactly one of the lobby, a local table or a room. A game in
  progress goes on at its place whatever is shown over it;
- the *overlay* is at most one of the practice throw or a replay. It hides the place
  without replacing it, so closing it shows again the place it was opened from.

Every value is frozen: the controller changes its mode by building a new one in a few
named transitions, never by setting a field, and ``match`` over these classes with
``assert_never`` lets ``mypy --strict`` say when a case is forgotten.

>>> Mode().place, Mode().overlay
(InLobby(), None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from quandary.table import Table

    from .practice import Practice
    from .replay_screen import ReplayScreen
    from .room_controller import RoomController
    from .table_controller import TableController


@dataclass(frozen=True)
class InLobby:
    """No game at this device's place: the setup and the games in progress."""


@dataclass(frozen=True)
class AtTable:
    """A game played on this device, kept as the saved game ``save_id``."""

    table: TableController
    save_id: str


@dataclass(frozen=True)
class InRoom:
    """A room this device hosts or joined; its own controller knows which."""

    room: RoomController


Place: TypeAlias = InLobby | AtTable | InRoom
"""Where the device is: one place at a time, whatever lies over it."""


@dataclass(frozen=True)
class PendingGame:
    """A new game set up in the lobby, begun once the practice throw is done."""

    table: Table
    save_id: str


@dataclass(frozen=True)
class Practising:
    """Dilemma's practice arena. ``pending`` is the first game it was offered before,
    if any: skipping the practice then means giving up that game, not just the arena."""

    practice: Practice
    pending: PendingGame | None = None


@dataclass(frozen=True)
class Watching:
    """A finished game's record, stepped through over the place it was opened from."""

    replay: ReplayScreen


Overlay: TypeAlias = Practising | Watching
"""What may hide the place for a while: at most one at a time."""


@dataclass(frozen=True)
class Mode:
    """The place, and the overlay over it if there is one."""

    place: Place = InLobby()
    overlay: Overlay | None = None

    @property
    def shown(self) -> Overlay | Place:
        """What the screen shows: the overlay if there is one, else the place. One
        ``match`` over it then meets each of the five screens once.

        >>> Mode().shown
        InLobby()
        """
        return self.overlay if self.overlay is not None else self.place
