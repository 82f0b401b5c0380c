"""Players who are away, and players who are far: how long a seat waits, and how much
earlier than it arrived a timed move counts.

A room must never wait for ever on someone whose connection closed, nor let a
guest buy itself time by answering the host's ticks late. Both are judged here
from the host's own records of each member (``Member``), on the host's clock;
the host (``net/host.py``) acts on the answers.
"""

from __future__ import annotations

from collections.abc import Iterable

from quandary import engine
from quandary.table import Table

from .lobby import Patience
from .members import DELAY_SAMPLES, Member

PATIENCE: dict[Patience, tuple[int, int]] = {
    "short": (20_000, 60_000),
    "normal": (45_000, 120_000),
    "long": (90_000, 300_000),
}
"""How long (ms) a seated player may be away before the host is offered a bot for
their seat, and before a bot takes it by itself, so a table never waits forever.
On the player's own turn the offer comes sooner (``TURN_SHARE`` of the wait)."""
TURN_SHARE = 3
COVER_LEVEL = "heuristic"
"""The bot that plays for an absent player: the best level every game has."""
TRANSPORT_SLACK_MS = 30.0
"""What an honest tick-and-pong may take beyond the connection's own round trip (as
the host's browser measures it: its ICE checks, which no page can slow down): the
time both pages take to answer. A guest that answers ticks late buys no more."""


def patience_of(name: str) -> Patience | None:
    """The waiting time called ``name`` (a key of ``PATIENCE``), if there is one."""
    return next((known for known in PATIENCE if known == name), None)


def absent_seats(
    members: Iterable[Member], table: Table | None, patience: Patience, now: float, due: bool
) -> list[int]:
    """Seats whose player is away long enough for a bot to be offered for them.

    With ``due``, only those away so long that a bot takes over by itself. A
    seat a bot already plays, or a finished game, has nobody to wait for.
    """
    if table is None or table.over:
        return []
    offer, auto = PATIENCE[patience]
    waiting = engine.game_of(table.state).waiting_for(table.state)
    seats = []
    for member in members:
        seat, since = member.seat, member.away_since
        if seat is None or since is None or member.peer is not None:
            continue
        if table.seats[seat].covered or table.seats[seat].kind != "human":
            continue
        limit = auto if due else (offer // TURN_SHARE if seat in waiting else offer)
        if now - since >= limit:
            seats.append(seat)
    return sorted(seats)


def note_pong(member: Member, at: int, now: float) -> None:
    """A round trip measured, if ``at`` echoes a tick sent to this member, once.

    A claimed time would let a guest buy itself an earlier release in a race.
    """
    if at not in member.ticks:
        return
    member.ticks.remove(at)
    rtt = now - at
    if 0 <= rtt < 10_000:  # a reply to a tick from before a reload is no measure
        member.round_trips = [*member.round_trips[-(DELAY_SAMPLES - 1) :], rtt]


def credit(member: Member, measured: float | None) -> float:
    """How much earlier than it arrived a member's timed move counts (ms).

    Half the round trip of its ticks and pongs, but never more than half what the
    connection itself takes (``measured`` by the host's browser, plus
    ``TRANSPORT_SLACK_MS``): pongs are the guest's to delay, the connection is not.
    """
    rtt = min(member.round_trips, default=0.0)
    if measured is not None:
        rtt = min(rtt, measured + TRANSPORT_SLACK_MS)
    return rtt / 2
