"""Who is in a room, as its host keeps them: members, the seats planned, the limits.

A member is a connection that said hello (a seat token makes it the same member
again after a reload); a seat plan is what the lobby sets up before the game.
Plain values: the host (``net/host.py``) decides who comes in and who goes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from quandary.bots import BOT_NAMES

from ..text import clean_name
from .saved import MemberJson
from .succession import HASHED, hashed

LOCAL = "local"
"""The host's own connection: its moves never travel as messages."""
SEEN_LIMIT = 64
"""Intent ids remembered per member: a move sent twice is applied once."""
DELAY_SAMPLES = 5
"""Round trips remembered per member; the smallest is the least disturbed by jitter."""
TICKS_REMEMBERED = 4
"""Ticks a member may still answer: a pong must echo one of them, once."""
WAITING = 8
"""Members without a seat at one time (friends who watch, or wait for a seat):
seated players never count, so a crowd of strangers can never keep them out, and
what a flood of greetings makes the host store and broadcast stays bounded."""
WAIT_LIMIT_MS = 60_000
"""How long a member without a seat keeps its place when a newcomer needs it: the
longest-waiting one then gives way, so strangers who join and idle hold the room
for a minute at most."""


@dataclass
class Member:
    """Someone in the room. ``token`` is secret; ``id`` is what others see."""

    id: str
    token: str
    name: str
    seat: int | None = None
    peer: str | None = None
    seen: list[str] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)
    ticks: list[int] = field(default_factory=list)
    """The times of ticks sent to this member and not yet answered."""
    snapshot_at: tuple[int, int] | None = None
    """(version, beat) of the last snapshot asked for: one per version and beat."""
    away_since: float | None = None
    """When this member's connection closed (host's clock), while it stays away."""
    since: float = 0.0
    """When this member came in (host's clock): the longest waiting gives way first."""
    key: str | None = None
    """The public half of the key this member's device would sign with as the room's
    successor (net/succession.py): named in the order of succession."""
    waited: bool = False
    """This member's device said in its hello that it had waited out the room's host
    before greeting this one: it was free to follow a successor, so its presence
    does not hold a reloaded host (``Standing.yields_to``). Not saved: it belongs
    to one connection."""

    def holds(self, token: str | None) -> bool:
        """Whether ``token`` is this member's: a successor knows tokens only as hashes."""
        if not token:
            return False
        if self.token.startswith(HASHED):
            return hashed(token) == self.token
        return token == self.token

    @property
    def delay(self) -> float:
        """The one-way network delay to this member (half the best recent round trip)."""
        return min(self.round_trips, default=0.0) / 2

    def to_json(self) -> MemberJson:
        """What the host's save keeps of a member (its connection aside)."""
        return {
            "id": self.id,
            "token": self.token,
            "name": self.name,
            "seat": self.seat,
            "seen": self.seen,
            "key": self.key,
        }

    @staticmethod
    def from_json(data: Any) -> Member:
        """A saved member (``KeyError``/``TypeError`` if it is not one)."""
        key = data.get("key")
        saved_key = key if isinstance(key, str) and 0 < len(key) <= 64 else None
        return Member(
            data["id"],
            data["token"],
            data["name"],
            data["seat"],
            None,
            list(data["seen"]),
            key=saved_key,
        )


@dataclass
class SeatPlan:
    """A seat before the game starts: open for a person, or a bot."""

    kind: str = "open"
    level: str = "heuristic"


def bot_name(seat: int) -> str:
    """The name a bot in ``seat`` plays under (the same at every table)."""
    return f"Bot {BOT_NAMES[seat % len(BOT_NAMES)]}"


def free_name(
    members: Iterable[Member], seats: int, name: str, member: Member | None = None
) -> str:
    """``name`` cleaned, with a number added if another member or a bot of the ``seats``
    already goes by it (``member``'s own name does not count): two players one name
    would make every line of the table ambiguous."""
    taken = {m.name.casefold() for m in members if m is not member}
    taken |= {bot_name(i).casefold() for i in range(seats)}
    base, n = clean_name(name) or "Player", 2
    candidate = base
    while candidate.casefold() in taken:
        candidate, n = f"{base[:17]} {n}", n + 1
    return candidate
