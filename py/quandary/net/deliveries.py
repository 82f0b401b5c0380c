"""What the host last sent each connection, and what it sends them next: lobbies,
views as diffs, backups' logs as what the last backup lacked, a finished game's record.

Every message leaves through the one door out (``Outbox``), checked against the
recipient's secrets. A view goes as a diff against the last view that peer was
sent, so the host must remember what each peer holds; a message dropped for a
leak makes that memory void, and the next view goes whole (and is checked whole).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quandary.engine import codec
from quandary.table import Table

from . import view_diff
from .lobby import RoomLobby
from .members import LOCAL, Member
from .messages import MAX_BYTES, encode
from .outbox import Outbox
from .succession import Deal
from .wire import Backed, BackupNews, HostMessage, LogNews, RecordNews, Snapshot, Update


class Deliveries:
    """The host's memory of what each connection holds, and its way of sending more."""

    def __init__(self, send_text: Callable[[str, str], None]) -> None:
        self.outbox = Outbox(send_text)
        self.views: dict[str, tuple[int, dict[str, Any]]] = {}
        """The version and view each peer was last sent (diffs are made against it)."""
        self.lobbies: dict[str, RoomLobby] = {}
        """The lobby each peer was last sent (sent again only when it changes)."""
        self.records: dict[str, int] = {}
        """The version whose record each peer was sent (once the game is over)."""
        self._record: tuple[Any, str | None] = (None, None)
        """The finished state last made into a record, and that record's text."""
        self.logs: dict[str, tuple[int, tuple[Any, ...], int]] = {}
        """The serial, log events and ``log_start`` of the last backup each peer was sent
        (``backup_log`` sends the next one's log against it)."""
        self._encoded: tuple[tuple[Any, ...], list[Any]] = ((), [])
        """The events last encoded for a backup's log, and their encoding: the heirs in
        step are all sent the same new events after a move, encoded once for them all."""

    def send(
        self,
        peer: str,
        msg: HostMessage,
        seat: int | None,
        table: Table | None,
        text: str | None = None,
    ) -> None:
        """Through the one door out (``text``: ``msg`` already encoded by it). A message
        dropped for a leak voids the view last sent to that peer."""
        state = table.state if table is not None else None
        if not self.outbox.send(peer, msg, seat, state, text):
            self.views.pop(peer, None)
            self.logs.pop(peer, None)

    def forget_all(self) -> None:
        """Nobody holds anything we know of (the room was restored from its save)."""
        self.views.clear()
        self.lobbies.clear()
        self.logs.clear()

    def forget(self, peer: str) -> None:
        """The peer holds nothing we know of (it left, or greets anew): next time, all of it."""
        self.views.pop(peer, None)
        self.lobbies.pop(peer, None)
        self.logs.pop(peer, None)

    def backup_log(self, peer: str, serial: int, state: Any) -> LogNews:
        """The game's log for the peer's backup ``serial``: the events its last backup
        did not hold, when that one's are this log's start (a log only grows, and may
        let its oldest go, counted in ``log_start``); else the whole log.

        The world in a backup holds no log (``world_room``): the log is most of a late
        game's state, and it went whole to every heir after every move. Events are
        compared as objects: a state's next state keeps its events, so what is kept is
        known without comparing their data.
        """
        events: tuple[Any, ...] = tuple(state.log)
        start: int = getattr(state, "log_start", 0)
        held = self.logs.get(peer)
        base, skip, new = 0, 0, events
        if held is not None:
            held_serial, held_events, held_start = held
            dropped = start - held_start
            kept = held_events[dropped:] if 0 <= dropped <= len(held_events) else None
            if (
                kept is not None
                and len(kept) <= len(events)
                and all(a is b for a, b in zip(kept, events, strict=False))
            ):
                base, skip, new = held_serial, dropped, events[len(kept) :]
        self.logs[peer] = (serial, events, start)
        return {"base": base, "skip": skip, "lines": self._lines(new)}

    def _lines(self, new: tuple[Any, ...]) -> list[Any]:
        """``new`` events encoded, once for every heir sent the same ones (compared as
        objects, like the logs: the cache holds them, so none is mistaken for another)."""
        events, lines = self._encoded
        if len(events) != len(new) or any(a is not b for a, b in zip(events, new, strict=True)):
            lines = [codec.encode(e) for e in new]
            self._encoded = (new, lines)
        return list(lines)

    def lobby(self, member: Member, lobby: RoomLobby, table: Table | None, again: bool) -> None:
        """The room's lobby to a member, if it changed since its last (or ``again``)."""
        peer = member.peer
        if peer is None or peer == LOCAL or (not again and self.lobbies.get(peer) == lobby):
            return
        self.lobbies[peer] = lobby
        self.send(peer, {"t": "lobby", "lobby": lobby}, member.seat, table)

    def view(
        self,
        member: Member,
        table: Table | None,
        deal: Deal | None,
        snapshot: bool = False,
        backup: BackupNews | None = None,
    ) -> None:
        """Send what changed of the member's view (all of it for a ``snapshot``), with
        ``backup`` in one message if the two fit in one, else just before it (alone if
        the view did not change); then the record, once the game is over."""
        peer = member.peer
        if table is None or peer is None or peer == LOCAL:
            return
        view = table.view(member.seat)
        version = view["version"]
        last = self.views.get(peer)
        if last is None or snapshot:
            msg: Snapshot | Update = {"t": "snapshot", "version": version, "view": view}
        else:
            base, old = last
            changed, added, gone = view_diff.diff(old, view)
            if base == version and not (changed or added or gone):
                if backup is not None:
                    self.send(peer, backup, member.seat, table)
                return
            msg = {
                "t": "update",
                "base": base,
                "version": version,
                "set": changed,
                "add": added,
                "drop": gone,
            }
        self.views[peer] = (version, view)
        if backup is not None:
            backed: Backed = {"t": "backed", "backup": backup, "news": msg}
            text = self.outbox.encoded(backed)
            if text is not None:
                self.send(peer, backed, member.seat, table, text)
            else:  # too long together: the backup goes first, on its own
                self.send(peer, backup, member.seat, table)
                self.send(peer, msg, member.seat, table)
        else:
            self.send(peer, msg, member.seat, table)
        self.record(peer, member.seat, table, deal)

    def record(self, peer: str, seat: int | None, table: Table, deal: Deal | None) -> None:
        """Once the game is over, its record, so every guest may watch it again.

        Nothing in it is secret any more (every hand may be shown at the end). A
        record too long for one message is not sent: the guest is not offered a
        replay, and the host may still share the record as a file.
        """
        if not table.over or self.records.get(peer) == table.state.version:
            return
        if self._record[0] is not table.state:
            from quandary import replay  # only once a game is over

            made = replay.dumps(replay.build(table))
            fits = len(encode(_record_news(table, made, deal)).encode("utf-8")) <= MAX_BYTES
            self._record = (table.state, made if fits else None)
        kept = self._record[1]
        if kept is not None:
            self.records[peer] = table.state.version
            self.send(peer, _record_news(table, kept, deal), seat, table)


def _record_news(table: Table, record: str, deal: Deal | None) -> RecordNews:
    """The record message; how a successor dealt goes with it (read only at the end)."""
    made = deal.to_json() if deal is not None else None
    return {"t": "record", "version": table.state.version, "record": record, "deal": made}
