"""Who comes into a room, who comes back, and who is shown out.

A connection is nobody until it says hello; its seat token makes it the member it
was (after a reload, in a new tab), else it is a newcomer, let in while there is
room among those without a seat (``members.WAITING``). The host may remove a
member and close the room to newcomers. A part of ``RoomHost``
(``net/host_base.py``).
"""

from __future__ import annotations

from quandary.engine import BadSetup

from .absence import COVER_LEVEL
from .host_base import HostBase
from .members import LOCAL, WAIT_LIMIT_MS, WAITING, Member
from .succession import HASHED
from .wire import Greeting


class AdmissionRole(HostBase):
    """The room's door: greetings, admissions, removals, the lock."""

    def on_join(self, peer: str) -> None:
        """A connection opened: tell it who the host is (it is nobody until it says hello).

        The host speaks first, signed by the transport: guests greet only a peer
        they verified, so their seat tokens reach nobody else.
        """
        self.peers.add(peer)
        self._send(peer, self._greeting(), None)

    def _greeting(self) -> Greeting:
        """Who the host is: its epoch, and the mandates that name its key (a successor's)."""
        chain = [list(m) for m in self.backups.chain]
        return {"t": "host", "epoch": self.epoch, "chain": chain}

    def _hello(
        self, peer: str, token: str | None, name: str, key: str | None, waited: bool
    ) -> None:
        member = next((m for m in self.members.values() if m.holds(token)), None)
        if member is not None and member.id == self.me:
            member = None  # nobody can take the host's own place
        if member is None:
            # A connection is one member: greeting again does not make another.
            member = self._member_at(peer)
        if member is None:
            refused = self._admit(peer)
            if refused is not None:
                self._reject(peer, *refused)
                return
            name = self._free_name(name)
            member = Member(self.make_id(), self.make_id(), name, since=self.now())
            self.members[member.id] = member
        for other in self.members.values():
            if other.peer == peer and other is not member:
                other.peer = None
        if member.peer not in (None, peer, LOCAL) and member.peer in self.peers:
            # The same seat opened in another tab: the newer one takes it, and the
            # older one is told to stop, or the two would swap it back and forth.
            self._send(member.peer, {"t": "replaced"}, None)
            self.deliveries.forget(member.peer)
        moved = member.peer != peer or member.key != key
        member.peer, member.away_since, member.key = peer, None, key
        member.waited = waited
        if member.token.startswith(HASHED):
            member.token = self.make_id()  # a successor's guest gets a token it knows again
        if self.table is not None and member.seat is not None:
            self.table.uncover(member.seat)  # back: the seat is theirs again at once
        self.deliveries.forget(peer)
        self._send(peer, {"t": "welcome", "token": member.token, "member": member.id}, None)
        self.talk.welcome(peer, member)  # a late joiner reads what was said before
        if moved:
            self.broadcast()  # someone new, or back: everyone's lobby says so
        else:
            self._catch_up(member)  # a greeting again (a lost welcome): only this one hears

    def _admit(self, peer: str) -> tuple[str, str] | None:
        """Whether a newcomer may come in; if not, (code, reason) of the refusal.

        Seats are never at stake: a newcomer takes a place among those without
        one, of which there are ``WAITING``. When they are all taken, the one
        that has waited longest gives way if it waited ``WAIT_LIMIT_MS``.
        """
        if peer in self.removed:
            return "removed", "The host removed you from this room."
        if self.locked:
            return "locked", "The host has closed this room to newcomers."
        waiting = [m for m in self.members.values() if m.seat is None and m.id != self.me]
        if len(waiting) < WAITING:
            return None
        longest = min(waiting, key=lambda m: m.since)
        if self.now() - longest.since < WAIT_LIMIT_MS:
            return "full", (
                "Every place without a seat in this room is taken: try again in a"
                " minute, or ask the host to make room."
            )
        self._let_go(
            longest, "You were a minute in the room without a seat, and someone new needed it."
        )
        return None

    def _let_go(self, member: Member, reason: str) -> None:
        """Take a member out of the room; its connection is told why and refused after."""
        if member.peer is not None and member.peer != LOCAL:
            self.removed.add(member.peer)
            self._send(member.peer, {"t": "removed", "reason": reason}, None)
            self.deliveries.forget(member.peer)
        del self.members[member.id]

    def remove(self, member_id: str) -> None:
        """The host takes someone out of the room (``BadSetup`` if it cannot be done).

        Their connection is refused from then on (lock the room to keep them from
        coming back on a new one); a seat of theirs in a game is played by a bot.
        """
        member = self.members.get(member_id)
        if member is None or member.id == self.me:
            raise BadSetup("That member cannot be removed.")
        seat = member.seat
        self._let_go(member, "The host removed you from this room.")
        if self.table is not None and seat is not None and not self.table.over:
            before = self._legal_now()
            if not self.table.seats[seat].covered:
                self.table.cover(seat, COVER_LEVEL)
            self._after_move(before)
        else:
            self.broadcast()

    def lock(self, locked: bool) -> None:
        """Close the room to newcomers, or open it again; members come and go as before."""
        self.locked = locked
        self.broadcast()

    def _catch_up(self, member: Member) -> None:
        """Send one member the lobby and its whole view, as after a fresh welcome."""
        if member.peer is None or member.peer == LOCAL:
            return
        self.deliveries.lobby(member, self.lobby(), self.table, again=True)
        self._send_view(member, snapshot=True)

    def _member_at(self, peer: str) -> Member | None:
        return next((m for m in self.members.values() if m.peer == peer), None)

    # -- persistence (the host's device keeps the room across a reload) -----------
