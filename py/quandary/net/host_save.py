"""A room kept across a reload of its host's page, and the room an heir carries on.

``to_json`` is everything needed to run the room again (connections aside);
without its history it is what a backup gives an heir (``net/backups.py``).
``restore`` takes it back, refusing a damaged one whole. A part of ``RoomHost``
(``net/host_base.py``).
"""

from __future__ import annotations

from typing import Any

from quandary import engine
from quandary.engine import BadSetup, CorruptState
from quandary.table import Table

from .absence import patience_of
from .host_base import HostBase
from .members import LOCAL, Member, SeatPlan
from .saved import RoomJson
from .succession import MANDATES


class SavedRoom(HostBase):
    """The host's room, written down and read back."""

    def to_json(self, history: bool = True) -> RoomJson:
        """Everything needed to run the room again after a reload (connections aside);
        without ``history``, its table without moves or state (``Table.to_json``)."""
        room: RoomJson = {
            "format": 1,
            "me": self.me,
            "game": self.game,
            "options": self.options,
            "plan": [{"kind": p.kind, "level": p.level} for p in self.plan],
            "members": [m.to_json() for m in self.members.values()],
            # The record alone: its replay is the state (``Table.to_json``).
            "table": self.table.to_json(history, state=False) if self.table else None,
            # How far into an open timed window the table is: a successor (or this
            # host reloaded) counts on from there, not from the window's last play.
            "window": self.table.window_now(self.now()) if self.table else None,
            "epochs": self.epochs,
            "patience": self.patience,
            "epoch": self.epoch,
            "locked": self.locked,
            "muted": sorted(self.chat.muted),
            # Lines are numbered on from here after a reload: guests show each line
            # once, by its number, and would take a line numbered anew for one seen.
            "chat_serial": self.chat.serial,
        }
        if history:
            room["chain"] = [list(m) for m in self.backups.chain]
        return room

    def restore(self, data: Any, ran_on: float = 0.0) -> None:
        """Take back a room saved by ``to_json``; ``CorruptState`` if it is damaged.

        ``ran_on`` (ms) is how long the room it came from was known to run after it
        was written (a successor heard the old host that long after its backup): an
        open timed window had run that much further, and goes on from there."""
        try:
            members = {m["id"]: Member.from_json(m) for m in data["members"]}
            plan = [SeatPlan(p["kind"], p["level"]) for p in data["plan"]]
            table = Table.from_json(data["table"]) if data["table"] is not None else None
            me, epochs = data["me"], [int(e) for e in data["epochs"]]
            patience = data.get("patience", "normal")
            locked = data.get("locked", False) is True
            muted = {m for m in data.get("muted", []) if isinstance(m, str)}
            chat_serial = int(data.get("chat_serial", 0))
            epoch = int(data.get("epoch", 0))
            chain = _chain(data.get("chain", []))
            if patience_of(patience) is None:
                raise CorruptState("The saved room's waiting time is unknown.")
            options = engine.spec_of(data["game"]).normalise_options(data["options"])
            if data["format"] != 1 or me not in members:
                raise CorruptState("The saved room is from another version.")
        except (KeyError, TypeError, ValueError, BadSetup) as exc:
            raise CorruptState(f"The saved room is damaged ({exc}).") from None
        members[me].peer = LOCAL
        # A member without a seat had nothing to keep: it comes back as a newcomer.
        members = {k: m for k, m in members.items() if m.seat is not None or k == me}
        for member in members.values():
            if member.id != me:
                member.away_since = self.now()  # everyone is away until they reconnect
        self.me, self.members, self.plan, self.table = me, members, plan, table
        if table is not None:
            table.speed = self.speed
            table.resume_window(data.get("window"), self.now() - max(0.0, ran_on))
        self.patience, self.epoch, self.locked = patience, epoch, locked
        self.backups.chain = chain
        self.chat.muted = muted & set(members)
        self.chat.serial = max(self.chat.serial, chat_serial)
        self.game, self.options, self.epochs = data["game"], options, epochs
        self.standing.restored(self.beats)
        self.deliveries.forget_all()


def _chain(data: Any) -> list[tuple[str, str]]:
    """A saved chain of mandates, read back (``ValueError`` if it is not one)."""
    if not isinstance(data, list) or len(data) > MANDATES:
        raise ValueError("the chain of mandates is not a list of at most 8")
    if not all(isinstance(m, list) and len(m) == 2 for m in data):
        raise ValueError("a mandate is not a text and its signature")
    if not all(isinstance(t, str) for m in data for t in m):
        raise ValueError("a mandate is not a text and its signature")
    return [(m[0], m[1]) for m in data]
