"""How a room's table is set before the start: the game, its options, the seats.

The host's own choices and a guest's asks to sit or to change its name, each
checked (the host's own input is input too: a bad one raises ``BadSetup`` and
changes nothing), and the lobby every member reads, which says it all publicly.
A part of ``RoomHost`` (``net/host_base.py``).
"""

from __future__ import annotations

from typing import Any

from quandary import engine
from quandary.engine import BadSetup, GameSpec

from .host_base import HostBase
from .lobby import LobbySeat, RoomLobby
from .members import Member, SeatPlan, bot_name, free_name


class SeatingRole(HostBase):
    """The lobby's settings and seats, as the host keeps them."""

    # -- a guest's asks ----------------------------------------------------------

    def _rename(self, member: Member, name: str) -> None:
        if self.table is not None:
            self._reject(member.peer, "started", "Names are fixed once the game has started.")
            return
        member.name = self._free_name(name, member)
        self.broadcast()

    def _sit(self, member: Member, seat: int | None) -> None:
        reason = self.sit(member.id, seat)
        if reason:
            self._reject(member.peer, "seat", reason)

    # -- the host's own choices (checked too: BadSetup says why) -----------------

    def configure(self, game: str | None = None, options: dict[str, Any] | None = None) -> None:
        """Choose the game or its options before the start (``BadSetup`` if not allowed)."""
        if self.table is not None:
            raise BadSetup("The game has already started.")
        if game is not None and game != self.game:
            spec = engine.spec_of(game)
            self.game, self.options = game, spec.normalise_options(None)
            self.set_seat_count(max(spec.min_players, min(len(self.plan), spec.max_players)))
        if options is not None:
            self.options = engine.spec_of(self.game).normalise_options(options)
        self.broadcast()

    def set_seat_count(self, count: int) -> None:
        """Add or remove seats; players in removed seats stand up."""
        spec = engine.spec_of(self.game)
        if self.table is not None or not spec.min_players <= count <= spec.max_players:
            raise BadSetup(f"{spec.title} is for {spec.min_players} to {spec.max_players} players.")
        self.plan = (self.plan + [SeatPlan() for _ in range(count)])[:count]
        for member in self.members.values():
            if member.seat is not None and member.seat >= count:
                member.seat = None
        self.broadcast()

    def set_seat_kind(self, seat: int, kind: str, level: str = "heuristic") -> None:
        """Make a seat open for a person or give it to a bot (its player stands up)."""
        if self.table is not None or not 0 <= seat < len(self.plan) or kind not in ("open", "bot"):
            raise BadSetup("That seat cannot be changed now.")
        self.plan[seat] = SeatPlan(kind, level)
        if kind == "bot":
            for member in self.members.values():
                if member.seat == seat:
                    member.seat = None
        self.broadcast()

    def sit(self, member_id: str, seat: int | None) -> str | None:
        """Move a member to a seat (None: stand up); returns a reason if not allowed."""
        member = self.members[member_id]
        if self.table is not None:
            return "The game has started: seats are fixed. You can watch."
        if seat is not None:
            if seat >= len(self.plan) or self.plan[seat].kind != "open":
                return "That seat is not open for a player."
            if any(m.seat == seat and m is not member for m in self.members.values()):
                return "Someone already sits there."
        member.seat = seat
        self.broadcast()
        return None

    def rename_me(self, name: str) -> None:
        """The host's own name."""
        if self.table is None and name.strip():
            me = self.members[self.me]
            me.name = self._free_name(name, me)
            self.broadcast()

    # -- what everyone reads ----------------------------------------------------

    def lobby(self) -> RoomLobby:
        """Who is here and how the table is set: public, the same for everyone."""
        spec = engine.spec_of(self.game)
        holders = {m.seat: m for m in self.members.values() if m.seat is not None}
        seats: list[LobbySeat] = [
            {
                "kind": "bot" if p.kind == "bot" else "open",
                "level": p.level,
                "member": holders[i].id if i in holders else None,
                "name": holders[i].name
                if i in holders
                else (bot_name(i) if p.kind == "bot" else None),
            }
            for i, p in enumerate(self.plan)
        ]
        return {
            "game": self.game,
            "title": spec.title,
            "options": self.options if self.table is None else _dealt_options(spec, self.options),
            "started": self.table is not None,
            "host": self.me,
            "min": spec.min_players,
            "max": spec.max_players,
            "seats": seats,
            "members": [
                {"id": m.id, "name": m.name, "seat": m.seat, "connected": m.peer is not None}
                for m in self.members.values()
            ],
            "patience": self.patience,
            "locked": self.locked,
        }

    def _free_name(self, name: str, member: Member | None = None) -> str:
        """``name`` for ``member`` (a newcomer if None), made unlike every other name here."""
        return free_name(self.members.values(), len(self.plan), name, member)


def _dealt_options(spec: GameSpec, options: dict[str, Any]) -> dict[str, Any]:
    """The options a started game's lobby shows: a data option (The Game of Dilemmas'
    own card packs) as its default.

    Before the start, guests read which packs the host chose; once the cards are
    dealt, each reaches a guest in its view when the guest may see it, and a
    lobby listing every card beside the table would name the cards still hidden,
    which the outbox rightly refuses to send (and at every broadcast, up to the
    packs' whole size again)."""
    return {o.key: o.default if o.kind == "data" else options[o.key] for o in spec.options}
