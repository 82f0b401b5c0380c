"""The host's side of the room's chat: who said a line, who hears it, who may not speak.

The chat's own rules (cleaning, rates, reactions, the log) are ``net/chat.py``;
this is the routing the host adds. A line is stamped with the name and seat the
host keeps for the connection it came on, never with what the sender claims, and
goes to everyone; a refusal goes to its sender alone (or, for the host's own
line, onto its own chat log).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .chat import ChatRoom, Refused
from .members import LOCAL, Member
from .outbox import Outbox
from .wire import HostMessage, ReactionNews


class HostChat:
    """Chat lines and reactions in, stamped lines and reactions out."""

    def __init__(
        self,
        room: ChatRoom,
        outbox: Outbox,
        reject: Callable[[str, str, str], None],
        now: Callable[[], float],
    ) -> None:
        self.room = room
        self.outbox = outbox
        self.reject = reject
        """Answer a peer with (peer, code, reason): the host's own ``rejected``."""
        self.now = now

    def say(self, members: Iterable[Member], member: Member, text: str) -> None:
        """A member's line: cleaned, stamped with who said it and sent to everyone.

        The name and seat are the host's record of the connection it came on; a
        line refused (muted, too fast, empty) is answered to its sender alone.
        """
        try:
            line = self.room.say(member.id, member.name, member.seat, text, self.now())
        except Refused as exc:
            self._refuse(member, exc)
            return
        self._to_everyone(members, {"t": "chat", "lines": [line.to_json()], "whole": False})

    def react(self, members: Iterable[Member], member: Member, emoji: str) -> None:
        """A member's reaction, sent to everyone to show by their name for a moment."""
        try:
            self.room.react(member.id, emoji, self.now())
        except Refused as exc:
            self._refuse(member, exc)
            return
        self.room.log.react(member.id, member.name, member.seat, emoji, self.now())
        msg: ReactionNews = {
            "t": "react",
            "member": member.id,
            "name": member.name,
            "seat": member.seat,
            "emoji": emoji,
        }
        self._to_everyone(members, msg)

    def mute(self, member: Member, muted: bool) -> None:
        """Mute a member's lines and reactions, or let them speak again; they are told."""
        if muted:
            self.room.muted.add(member.id)
        else:
            self.room.muted.discard(member.id)
        if member.peer is not None and member.peer != LOCAL:
            self.send(member.peer, {"t": "muted", "muted": muted})

    def welcome(self, peer: str, member: Member) -> None:
        """A member (back) in the room reads what was said before, and whether it is muted."""
        for chat in self.room.history():
            self.send(peer, chat)
        if member.id in self.room.muted:
            self.send(peer, {"t": "muted", "muted": True})

    def send(self, peer: str, msg: HostMessage) -> None:
        """Chat leaves through the one door out, checked for size but not matched
        against the game's secrets: it is what people typed, never drawn from the
        game, and a player who types a card's text (as they could say it aloud)
        must not have their line dropped as a leak."""
        self.outbox.send(peer, msg, None, None)

    def _refuse(self, member: Member, refused: Refused) -> None:
        if member.peer == LOCAL:
            self.room.log.note = refused.message
        elif member.peer is not None:
            self.reject(member.peer, refused.code, refused.message)

    def _to_everyone(self, members: Iterable[Member], msg: HostMessage) -> None:
        for member in members:
            if member.peer is not None and member.peer != LOCAL:
                self.send(member.peer, msg)
