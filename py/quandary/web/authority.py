"""Who decides a table's moves, seen from the device that shows it.

The table controller never knows where the game runs: on this device
(``LocalAuthority``), in a room this device hosts (``HostAuthority``), or in a
room hosted elsewhere (``GuestAuthority``, which only holds the view the host
last sent). Each answers the same questions, so one controller draws and drives
every kind of table (the idea of boardgame.io's client over its transports).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from quandary import engine
from quandary.engine import GameError, IllegalMove, LogEntry, Move
from quandary.table import Table

if TYPE_CHECKING:
    # Only rooms need the room protocol: a game on one device never imports it.
    from quandary.net.guest import Ahead, RoomGuest
    from quandary.net.host import RoomHost
    from quandary.undo import Verdict

View = dict[str, Any]


class NotSent(GameError):
    """A move that could not reach the authority (the host is away): nothing changed."""

    code = "not_sent"


class Authority(Protocol):
    """What a table controller asks of whoever holds the game."""

    now: Callable[[], float]
    """This device's clock, in ms (the page's ``performance.now``)."""

    @property
    def game(self) -> str:
        """The game's id."""
        ...

    @property
    def can_restart(self) -> bool:
        """Whether this device may start the next game (a guest waits for the host)."""
        ...

    @property
    def remote(self) -> bool:
        """Whether views come from another device (and so may arrive damaged)."""
        ...

    def view(self, seat: int | None) -> View | None:
        """What ``seat`` may see (None: what anyone may); None when no game runs."""
        ...

    def my_seats(self) -> list[int]:
        """The seats played by people at this device."""
        ...

    def to_act(self) -> list[int]:
        """Those of ``my_seats`` the game is waiting for, in seat order."""
        ...

    def submit(self, seat: int, move: Move) -> None:
        """Play ``move`` for ``seat``; a ``GameError`` says why it was not played."""
        ...

    def ahead(self) -> Ahead | None:
        """Where and as what a move made now travels, if the page may send it itself at
        the click (a guest's intent); None where the move is played here."""
        ...

    def sent_ahead(self, seat: int, intent: str) -> bool:
        """The page sent ``seat``'s move itself, as ``intent`` (``ahead``): note it as
        submitted (True), or False if it went where it cannot be played (the move is
        to be submitted again); a ``GameError`` says why nothing can be sent now."""
        ...

    def advance(self) -> bool:
        """Let the authority's clock run (bots' throws, a window closing); True if it moved."""
        ...

    def next_wakeup(self) -> float | None:
        """When ``advance`` next has work, on the page's clock."""
        ...

    def elapsed(self, view: Mapping[str, Any]) -> int:
        """Milliseconds since the open timed window opened, as this device reckons it."""
        ...

    def full_log(self) -> list[LogEntry] | None:
        """Every event of the game, numbered, if this device holds it (a guest does not)."""
        ...

    def restart(self) -> None:
        """Begin the next game (same seats); only called when ``can_restart``."""
        ...

    def undo_verdict(self) -> Verdict | None:
        """Whether this device's person may take back their last move now, and why not;
        None where undo is never offered (a room, several people on one device)."""
        ...

    def undo(self) -> None:
        """Take back this device's person's last move and the bots' moves after it; a
        ``GameError`` says why not (and nothing changed)."""
        ...

    def record(self) -> str | None:
        """The finished game's record as text (quandary/replay.py), if this device has it."""
        ...


def _record_of(table: Table | None) -> str | None:
    """A finished table's record as text; None while it is being played."""
    if table is None or not table.over:
        return None
    from quandary import replay  # only once a game is over

    return replay.dumps(replay.build(table))


class PlayedHere:
    """What an authority that plays moves on this device says of moves sent ahead:
    there are none (only a guest's page sends its moves itself)."""

    def ahead(self) -> Ahead | None:
        """Moves are played on this device: the page never sends one itself."""
        return None

    def sent_ahead(self, seat: int, intent: str) -> bool:
        """Nothing is sent ahead here (``ahead`` is None): refused, nothing changes."""
        raise NotSent("That move was not sent. Try again.")


class LocalAuthority(PlayedHere):
    """A table on this device: every seat's view is here, humans share the screen."""

    can_restart = True
    remote = False

    def __init__(self, table: Table, now: Callable[[], float], new_seed: Callable[[], int]) -> None:
        self.table = table
        self.now = now
        self.new_seed = new_seed

    @property
    def game(self) -> str:
        """The game's id."""
        return self.table.game

    def view(self, seat: int | None) -> View | None:
        """Any seat's view: the people at this device take turns behind privacy screens."""
        return self.table.view(seat)

    def my_seats(self) -> list[int]:
        """Every human seat: they are all at this device."""
        return [i for i, s in enumerate(self.table.seats) if s.kind == "human"]

    def to_act(self) -> list[int]:
        """Humans the game waits for."""
        return self.table.humans_to_act()

    def submit(self, seat: int, move: Move) -> None:
        """Play the move, then let bots and the clock catch up."""
        self.table.submit(seat, move, self.now())
        self.table.advance(self.now())

    def advance(self) -> bool:
        """Bots' timed moves and closing windows, up to now."""
        return self.table.advance(self.now()) > 0

    def next_wakeup(self) -> float | None:
        """The table's next timed event."""
        return self.table.next_wakeup()

    def elapsed(self, view: Mapping[str, Any]) -> int:
        """The table keeps the time itself."""
        return self.table.elapsed(self.now())

    def full_log(self) -> list[LogEntry] | None:
        """The game is here: its log as the state keeps it."""
        return engine.full_log(self.table.state)

    def restart(self) -> None:
        """The same seats and options, a new seed."""
        old = self.table
        self.table = Table.new(old.game, old.seats, old.record.options, self.new_seed())
        self.table.advance(self.now())

    def undo_verdict(self) -> Verdict | None:
        """The table's own verdict: one person against bots, nothing hidden shown since."""
        return self.table.undo_verdict()

    def undo(self) -> None:
        """Back to the moment the person was to act, then bots take their moments again."""
        verdict = self.table.undo_verdict()
        if verdict is None:
            from quandary.undo import NOT_ALONE

            raise IllegalMove(NOT_ALONE)
        if verdict.to is None:
            raise IllegalMove(verdict.reason)
        self.table.rewind(verdict.to)
        self.table.advance(self.now())

    def record(self) -> str | None:
        """The game is here: its record once it is over."""
        return _record_of(self.table)


class HostAuthority(PlayedHere):
    """A room this device hosts: the game runs here, but only the host's seat is shown."""

    can_restart = True
    remote = False

    def __init__(self, host: RoomHost, now: Callable[[], float]) -> None:
        self.host = host
        self.now = now

    @property
    def game(self) -> str:
        """The room's game."""
        return self.host.game

    def _seat(self) -> int | None:
        return self.host.members[self.host.me].seat

    def view(self, seat: int | None) -> View | None:
        """The host's own seat's view (a host who only watches sees the spectators')."""
        return self.host.view_for(self.host.me)

    def my_seats(self) -> list[int]:
        """The host's seat, if it took one."""
        seat = self._seat()
        return [] if seat is None else [seat]

    def to_act(self) -> list[int]:
        """The host's seat while it has a move to make."""
        view = self.view(None)
        return [s for s in self.my_seats() if view is not None and view["legal_moves"]]

    def submit(self, seat: int, move: Move) -> None:
        """Judged and broadcast by the room's host."""
        self.host.submit(move)

    def advance(self) -> bool:
        """The room's table clock."""
        return self.host.advance()

    def next_wakeup(self) -> float | None:
        """The room's table's next timed event."""
        return self.host.next_wakeup()

    def elapsed(self, view: Mapping[str, Any]) -> int:
        """The host's table keeps the time."""
        table = self.host.table
        return table.elapsed(self.now()) if table is not None else 0

    def full_log(self) -> list[LogEntry] | None:
        """The room's game runs here: its log as the state keeps it (public, as in views)."""
        table = self.host.table
        return engine.full_log(table.state) if table is not None else None

    def restart(self) -> None:
        """Back to the room's lobby with the same seats: the host starts the next game."""
        self.host.reopen()

    def record(self) -> str | None:
        """The room's game runs here: its record once it is over."""
        return _record_of(self.host.table)

    def undo_verdict(self) -> Verdict | None:
        """Never in a room: the other players saw every move."""
        return None

    def undo(self) -> None:
        """Refused: in a room every move stands."""
        from quandary.undo import ROOM

        raise IllegalMove(ROOM)


class GuestAuthority:
    """A room hosted elsewhere: this device holds only the view the host sent it."""

    can_restart = False
    remote = True

    def __init__(self, guest: RoomGuest, now: Callable[[], float]) -> None:
        self.guest = guest
        self.now = now
        self._window_seen: tuple[Any, float] | None = None
        self._checked: tuple[Any, bool] = (None, False)
        """The last record the host sent, and whether it replays to its result."""

    @property
    def game(self) -> str:
        """The game the host's lobby names."""
        lobby = self.guest.lobby
        return lobby["game"] if lobby is not None else engine.specs()[0].id

    def view(self, seat: int | None) -> View | None:
        """The one view this guest has, once the game has started."""
        lobby = self.guest.lobby
        return self.guest.view if lobby is not None and lobby["started"] else None

    def my_seats(self) -> list[int]:
        """The seat the host gave this guest, if any."""
        view = self.view(None)
        seat = view.get("seat") if view is not None else None
        return [seat] if isinstance(seat, int) else []

    def to_act(self) -> list[int]:
        """This guest's seat while its view offers moves."""
        view = self.view(None)
        return [s for s in self.my_seats() if view is not None and view.get("legal_moves")]

    def submit(self, seat: int, move: Move) -> None:
        """Sent to the host as an intent; ``NotSent`` while the host is away."""
        if self.guest.submit(move) is None:
            raise NotSent(self.guest.notice or "Your move was not sent.")

    def ahead(self) -> Ahead | None:
        """The intent a move made on the view shown now goes as (``RoomGuest.ahead``)."""
        return self.guest.ahead()

    def sent_ahead(self, seat: int, intent: str) -> bool:
        """The page sent it at the click: True if to the host (``RoomGuest.sent_ahead``);
        ``NotSent`` if the host was away by then."""
        noted = self.guest.sent_ahead(intent)
        if noted is None:
            raise NotSent(self.guest.notice or "Your move was not sent.")
        return noted

    def advance(self) -> bool:
        """Only the host keeps time."""
        return False

    def next_wakeup(self) -> float | None:
        """Only the host keeps time."""
        return None

    def elapsed(self, view: Mapping[str, Any]) -> int:
        """Counted from when this device first saw the window open.

        Late by one network delay, which only changes the countdown shown, never
        the order of throws (the host times those). Negative during the window's
        countdown (its ``lead``), as on the host.
        """
        window = view.get("window")
        if not isinstance(window, dict):
            return 0
        if self._window_seen is None or self._window_seen[0] != window.get("id"):
            self._window_seen = (window.get("id"), self.now())
        lead = window.get("lead", 0)
        lead = lead if isinstance(lead, int) and 0 <= lead <= 10_000 else 0
        return max(-lead, round(self.now() - self._window_seen[1]) - lead)

    def full_log(self) -> list[LogEntry] | None:
        """A guest only ever has views: it gathers their events as they come."""
        return None

    def restart(self) -> None:
        """A guest cannot start the next game."""

    def record(self) -> str | None:
        """The record the host sent at the end of the game shown, if it checks out.

        It came from another device: it is replayed (once) like any record, and one
        that does not reach its result is not offered.
        """
        sent, view = self.guest.record, self.view(None)
        if sent is None or view is None or not view.get("result") or sent[0] != view.get("version"):
            return None
        if self._checked[0] is not sent:
            from quandary import replay

            try:
                replay.parse(sent[1])
            except replay.BadRecord:
                self._checked = (sent, False)
            else:
                self._checked = (sent, True)
        return sent[1] if self._checked[1] else None

    def undo_verdict(self) -> Verdict | None:
        """Never in a room: the other players saw every move."""
        return None

    def undo(self) -> None:
        """Refused: in a room every move stands."""
        from quandary.undo import ROOM

        raise IllegalMove(ROOM)
