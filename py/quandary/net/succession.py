"""When a room's host leaves for good, a guest carries the game on: who, and with what.

Nothing secret leaves the host for it (RULINGS §5). After every change the
host sends each seated guest (an *heir*) a backup of the room as a world nobody
has seen: the public table exactly, every card no seat may see dealt anew
(``engine.dealing.redeal`` keeping no seat), seat tokens only as hashes, and
each heir's salted commitment to its own hidden part; with it, to that heir
alone, its own hidden part and salt. Pooled, the backups of any group of guests
tell it nothing its seats did not see at the table. The host's signing key
stays on the host: the order of succession names each heir's own device key.

When the host has been silent for the room's waiting time (``SUCCESSION_MS``),
every guest works out the same successor: the first heir in the host's last
order who is still here (``successor``). The successor asks the other heirs
for their parts (a ``claim``, with a commitment to its share of the deal's
seed); each heir checks, on its own, that the host is away for it too and that
the claimant is the one it would choose, and only then answers with its part,
salt and share of the seed (an ``opening``), and trusts the successor's key.
The successor checks each opening against its commitment, puts the parts back
(``reinstate``), deals every card no present seat has seen again with the seed
they all contributed to, and becomes the host (``take_over``), signing with its
own device key. Every host message names the host's *epoch*, one more at each
succession, and devices ignore a host of an older epoch: a first host who comes
back finds it was succeeded and sits down as a guest.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypedDict

from quandary import engine
from quandary.engine import CorruptState, Event, GameError, Record, dealing
from quandary.table import Table

from .saved import MemberJson, RoomJson

if TYPE_CHECKING:
    from .host import RoomHost

SUCCESSION_MS = {"short": 20_000, "normal": 45_000, "long": 90_000}
"""How long (ms) guests wait for a silent host before a successor takes over, by the
room's waiting time (the same as the wait before a bot is offered for a guest)."""
LEFT_MS = 4_000
"""How long (ms) guests wait once the host's connection has closed (its page left the
room: a tab closed, a reload, a connection that failed) before a successor takes over.
A host that only falls silent, still connected, gets the room's whole waiting time
(``SUCCESSION_MS``). A reload that takes longer finds a successor and sits down as a
guest, its seat given back; nobody is ever deposed while it still speaks to them."""
CLAIM_WAIT_MS = 4_000
"""How long heirs wait, once their wait for the host is over, for the successor they
chose to claim: one still connected but silent (a frozen tab, a device that will not
answer) is passed over for the next heir still here, so it cannot hold the room."""
BACKUPS_KEPT = 3
"""Backups a guest keeps: the successor's newest may be one another heir has not yet got."""
OPENING_WAIT_MS = 6_000
"""How long a successor waits for the other heirs' openings before dealing without
them: an heir that is here but does not answer is dealt for like an absent one."""
TAKEOVER_MS = 12_000
"""How long heirs give a successor, from its first claim heard, to carry the room on (its
greeting heard): one that claims and then never does (a page that hangs, a device that
gathers the parts and keeps quiet) is passed over for the next heir, as one that never
claimed is (``CLAIM_WAIT_MS``), so it cannot hold the room either."""
GIVE_UP_MS = 8_000
"""How long a successor gathers, from its first claim, before it gives up and follows
the next heir: longer than ``OPENING_WAIT_MS`` (it may deal without an heir that does
not answer) and shorter than ``TAKEOVER_MS`` by a margin for its claim's way to the
others, so it never carries on a room the others have already passed it over in."""
REDEALT = "redealt"
"""The log's event for a successor's deal: public, and it names no card."""
HASHED = "sha256:"
"""How a seat token is kept in a backup: only its hash, so holding the backup gives
no seat; the successor checks a returning player's token against it."""


Heir = tuple[str, str, str]
"""(member id, connection, device key): one place in the order of succession."""


MANDATES = 8
"""The longest chain of mandates a host shows (one per succession): beyond it, a
device that never saw the room's successions cannot join it (those that did can)."""


def mandate_text(epoch: int, named: list[tuple[str, str]]) -> str:
    """What a host signs to name its heirs' keys: a device that only knows the room's
    key (a newcomer, a player back after the succession) checks a successor by it.

    ``named``: (member id, device key) of every seated player but the host, connected
    or not. A player who is away now is named too, so when they come back (their
    device keeps its key) they are an heir the chain already names: were they named
    only once back, a host that left before its page signed the new mandate would
    leave a successor nobody new could believe."""
    return json.dumps({"epoch": epoch, "heirs": [[m, k] for m, k in named]}, separators=(",", ":"))


@dataclass(frozen=True)
class Backup:
    """One backup as an heir holds it: the room as a world nobody has seen, and this
    heir's own hidden part."""

    serial: int
    epoch: int
    version: int
    """The version of the table it was made at (public, as every view says it)."""
    heirs: tuple[Heir, ...]
    room: str
    part: Any
    salt: str
    chain: tuple[tuple[str, str], ...] = ()
    """The mandates from the room's key to this backup's heirs (``mandate_text``)."""
    kept_at: float = 0.0
    """When this guest received it (its own clock, ms): the host heard of after that
    had run on since (``RoomGuest.ran_on``)."""
    log: tuple[Any, ...] = ()
    """The game's log (its events, as JSON), kept apart from ``room``, whose world has
    none: the host sends each heir only the events its last backup did not hold
    (``LogNews``); ``world_of`` puts them back."""


@dataclass
class Takeover:
    """What the successor has gathered: a backup, the openings that fit it, and the
    shares of the deal's seed."""

    backup: Backup
    claimed_at: float
    seed: int
    """This device's own share of the seed (committed to in its claim)."""
    parts: dict[int, Any] = field(default_factory=dict)
    """Seat -> hidden part, each checked against its commitment."""
    seeds: dict[int, int] = field(default_factory=dict)
    """Seat -> the share of the seed that seat's owner sent with its opening."""
    chain: tuple[tuple[str, str], ...] = ()
    """The mandates the successor shows (``mandates``): the longest any backup of this
    epoch carried, which may be newer than ``backup``'s own."""


def mandates(backups: Iterable[Backup], epoch: int) -> tuple[tuple[str, str], ...]:
    """The longest chain of mandates the backups of ``epoch`` carry (the newest of equals).

    A host's transport signs its mandate after the backup that asked for it has gone,
    so its first backups carry none, and the next one (the same table) carries it. A
    successor that carries on from such a first backup (its newer twin opened late, or
    never by an heir that missed it) still shows the mandate that names its key: without
    it, a device that did not see the succession (the old host back from a reload, a
    newcomer) could never believe it, and the room would run as two tables."""
    held = [b for b in backups if b.epoch == epoch]
    if not held:
        return ()
    return max(held, key=lambda b: (len(b.chain), b.serial)).chain[:MANDATES]


def hashed(token: str) -> str:
    """A seat token as a backup keeps it."""
    return HASHED + hashlib.sha256(token.encode()).hexdigest()


def _hashed_once(token: str) -> str:
    """A token as a backup keeps it: a successor's own backups pass on the hashes it has."""
    return token if token.startswith(HASHED) else hashed(token)


def seed_commitment(seed: int) -> str:
    """What a successor's claim says of its share of the seed, before seeing the others'."""
    return hashlib.sha256(f"seed\n{seed}".encode()).hexdigest()


def joint_seed(seeds: Mapping[int, int], own: int) -> int:
    """The deal's seed from every present seat's share: no one chose it alone."""
    text = json.dumps([own, sorted(seeds.items())], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def world_room(room: RoomJson, state: Any, seed: int) -> RoomJson:
    """The room as the host saves it, with its table a world nobody has seen.

    Every hidden card is dealt anew keeping no seat; the record starts from that
    world (its moves would replay the real deal); seat tokens become hashes.
    ``room``'s table may leave its moves and state out (``Table.to_json`` without
    history): its moves are none, and its state, the world's start, is in the record
    alone (``unpack`` puts it back): written twice, it took half the time of packing
    a backup, on every move. Its state's log is left out too (``Backup.log``): public,
    and most of a late game's world, it went whole to every heir after every move.
    """
    world = replace(dealing.redeal(state, (), seed), log=())
    table = room["table"]
    if table is None:
        raise ValueError("a room without a game has no world to back up")
    header = Record.from_json({**table["record"], "moves": []})
    start = engine.to_json(world)
    record = Record(header.game, header.players, header.options, seed).to_json()
    members: list[MemberJson] = [{**m, "token": _hashed_once(m["token"])} for m in room["members"]]
    return {
        **room,
        "members": members,
        "table": {
            "format": table["format"],
            "seats": table["seats"],
            "record": {**record, "start": start},
        },
    }


def pack(room: RoomJson) -> str:
    """A backup's room as compact text: compressed, so it stays far below a message's limit."""
    data = json.dumps(room, separators=(",", ":"))
    return base64.b64encode(zlib.compress(data.encode("utf-8"), 6)).decode("ascii")


def unpack(text: str) -> dict[str, Any]:
    """The room in a backup; ``CorruptState`` if it is not one."""
    try:
        raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
        room = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, ValueError, UnicodeError):
        raise CorruptState("The room's backup cannot be read.") from None
    if not isinstance(room, dict) or not isinstance(room.get("table"), dict):
        raise CorruptState("The room's backup is damaged.")
    table, record = room["table"], room["table"].get("record")
    if "state" not in table and isinstance(record, dict) and "start" in record:
        table["state"] = record["start"]  # a world has made no moves (``world_room``)
    return room


def world_of(backup: Backup) -> dict[str, Any]:
    """The room in a backup with its game's log back in its world (``Backup.log``);
    ``CorruptState`` if it is not one."""
    room = unpack(backup.room)
    record = room["table"].get("record")
    if not isinstance(record, dict) or not isinstance(record.get("start"), dict):
        raise CorruptState("The room's backup is damaged.")
    # The same object as the table's state (``unpack``): both get the log.
    record["start"]["log"] = list(backup.log)
    return room


def seats_of(room: dict[str, Any]) -> dict[str, int]:
    """Member id -> seat, for the seated members of a backup's room."""
    members = room.get("members")
    if not isinstance(members, list):
        return {}
    return {
        m["id"]: m["seat"]
        for m in members
        if isinstance(m, dict) and isinstance(m.get("id"), str) and type(m.get("seat")) is int
    }


def heirs_of(members: list[tuple[str, str | None, int | None, str | None]], me: str) -> list[Heir]:
    """The order of succession: connected seated guests with a device key, longest here first.

    ``members`` are (member id, peer, seat, device key) in the order they joined.
    A spectator is nobody's successor: the players are the ones with a game to go on.
    """
    return [
        (member, peer, key)
        for member, peer, seat, key in members
        if member != me and peer is not None and seat is not None and key is not None
    ]


def successor(heirs: tuple[Heir, ...], present: set[str]) -> Heir | None:
    """The first heir still here (``present``: peers this device can reach, and itself)."""
    return next((heir for heir in heirs if heir[1] in present), None)


def successors_deal(
    world: Any, parts: Mapping[int, Any], shares: Mapping[int, int], own: int
) -> tuple[int, Any]:
    """The seed and the table a successor carries on from: the owners' ``parts`` put
    back into the backup's ``world``, and every card none of them has seen dealt
    again with the seed from every share. Made by the successor (``take_over``) and
    made again by each heir once the game is over (``check_deal``)."""
    rebuilt = dealing.reinstate(world, parts)
    seed = joint_seed(shares, own)
    dealt = dealing.redeal(rebuilt, parts, seed)
    return seed, replace(dealt, log=(*dealt.log, Event(REDEALT, {})))


class DealJson(TypedDict):
    """How a successor dealt, as the protocol carries it (``Deal``)."""

    serial: int
    own: int
    shares: list[list[int]]
    kept: list[int]


@dataclass(frozen=True)
class Deal:
    """What a successor dealt with, kept on its device alone until the game is over.

    Shown during the game, the shares would give the seed, and with it the deck's
    order to any heir that can tell what the pool held (a lone guest can); once
    every hand may be shown, each heir that gave a share checks the deal with them.
    """

    serial: int
    """The backup it carried on from."""
    own: int
    """Its own share, committed to in its claim."""
    shares: tuple[tuple[int, int], ...]
    """(seat, share) of every heir whose opening it used."""
    kept: tuple[int, ...]
    """The seats whose parts stayed where they were (the heirs' and its own)."""

    @classmethod
    def from_json(cls, data: Any) -> Deal | None:
        """A deal as this device saved it (``to_json``); None if there is none, or it
        is not one (the heirs are then told it was not shown, not misled)."""
        if not isinstance(data, dict):
            return None
        try:
            shares = tuple((int(s), int(v)) for s, v in data["shares"])
            kept = tuple(int(s) for s in data["kept"])
            return cls(int(data["serial"]), int(data["own"]), shares, kept)
        except (KeyError, TypeError, ValueError):
            return None

    def to_json(self) -> DealJson:
        return {
            "serial": self.serial,
            "own": self.own,
            "shares": [list(s) for s in self.shares],
            "kept": list(self.kept),
        }


def check_deal(opened: Backup, commit: str, seat: int, share: int, deal: Any, record: Any) -> str:
    """Why a successor's deal was not what the heirs agreed to, or "" if it was.

    ``opened``: the backup this heir opened its part for, with ``commit`` (the
    successor's commitment to its own share) and ``share`` (this heir's, for its
    ``seat``); ``deal``: what the successor showed once the game was over
    (``Deal.to_json``); ``record``: the finished game's record (``Record``). The
    deal is made again from those and must be the record's very start.
    """
    shown = Deal.from_json(deal)
    if shown is None:
        return "the new host did not show how it dealt"
    own, told, seats = shown.own, dict(shown.shares), shown.kept
    if seed_commitment(own) != commit:
        return "its own share of the shuffle is not the one it promised"
    if told.get(seat) != share or seat not in seats:
        return "it left this device's share of the shuffle out"
    try:
        room = world_of(opened)
        world = Table.from_json(room["table"]).state
        start = engine.from_json(record.start)
        parts = {s: dealing.hidden(start, s) for s in seats}
        seed, dealt = successors_deal(world, parts, told, own)
    except (CorruptState, GameError, LookupError, TypeError, ValueError, AttributeError):
        return "its deal cannot be made again from the backup"
    if seed != record.seed or engine.to_json(dealt) != record.start:
        return "the cards were not dealt with the shuffle every player shared"
    return ""


def take_over(
    host: RoomHost,
    takeover: Takeover,
    member: str,
    present: set[str],
    ran_on: float = 0.0,
    token: str | None = None,
) -> None:
    """Make ``host`` (new, on the successor's device) the room the heirs rebuilt.

    The present owners' parts go back into the world of the backup, every card
    none of them has seen is dealt again with the joint seed, and ``member`` (the
    successor) takes the host's place. Seats whose owner is absent, the first
    host's included, are played by bots at once (the table already waited for
    them all this time), until their players come back. Every peer here is greeted
    as a new host greets, with the next epoch. ``ran_on`` (ms): how long the old
    host was still heard of after the backup, so an open timed window goes on with
    the time its players had left. ``token``: the successor's own seat token (the
    backup holds only its hash). ``CorruptState`` if anything is wrong.
    """
    backup = takeover.backup
    room = world_of(backup)
    seats = seats_of(room)
    if member not in seats:
        raise CorruptState("The room's backup does not name this device's seat.")
    parts = {**takeover.parts, seats[member]: backup.part}
    try:
        table = Table.from_json(room["table"])
        seed, dealt = successors_deal(table.state, parts, takeover.seeds, takeover.seed)
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise CorruptState(f"The room's backup cannot be carried on ({exc}).") from None
    start = engine.to_json(dealt)
    record = Record(table.record.game, table.record.players, table.record.options, seed, (), start)
    host.deal = Deal(
        backup.serial, takeover.seed, tuple(sorted(takeover.seeds.items())), tuple(sorted(parts))
    )
    gone = room.get("me")
    new_table = {**room["table"], "record": record.to_json(), "state": start}
    host.restore({**room, "table": new_table, "me": member, "epoch": backup.epoch + 1}, ran_on)
    host.backups.chain = list(takeover.chain or backup.chain)[:MANDATES]
    if token:
        host.members[member].token = token  # its own, whole: it may sit down as a guest later
    for other in host.members.values():
        if other.id == gone or (other.seat is not None and other.seat not in parts):
            other.away_since = float("-inf")  # a bot plays its seat from the next tick
    for peer in sorted(present):
        host.on_join(peer)
    host.tick()
