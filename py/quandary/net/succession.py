"""When a room's host leaves for good, a guest carries the game on: who, and with what.

The host keeps a sealed backup of the whole room on the seated guests' devices:
after every change it hands the transport the room's state, its signing key and
the order of succession (``backup_text``); the transport encrypts it with a
fresh key (AES-GCM, WebCrypto in the page), splits that key 2-of-n among the
connected seated guests (Shamir's secret sharing, a maintained library) and
sends each guest the ciphertext with its own share, signed like every host
message, before anything the host sends after it. No single guest can read the
backup while the host is there: it takes two shares.

When the host has been silent for the room's waiting time (``succession_ms``),
every guest works out the same successor: the first heir in the host's last
order who is still here (``successor``). The successor asks the other heirs for
their shares (a ``claim``); each heir checks, on its own, that the host is away
for it too and that the claimant is the one it would choose, and only then
answers. With two shares the successor opens the backup, becomes the host
(``HostAuthority`` over the restored ``RoomHost``) and signs with the room's key,
so every guest verifies it exactly as it verified the first host. Every host
message names the host's *epoch*, one more at each succession, and devices
ignore a host of an older epoch: a first host who comes back finds it was
succeeded and sits down as a guest.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from quandary import engine
from quandary.engine import CorruptState, GameError, Record

from .messages import encode

if TYPE_CHECKING:
    from .host import RoomHost

SUCCESSION_MS = {"short": 20_000, "normal": 45_000, "long": 90_000}
"""How long (ms) guests wait for a silent host before a successor takes over, by the
room's waiting time (the same as the wait before a bot is offered for a guest)."""
BACKUPS_KEPT = 3
"""Backups a guest keeps: the successor's newest may be one its partner has not yet got."""


@dataclass(frozen=True)
class Backup:
    """One sealed backup as a guest holds it: opening it takes a second heir's share."""

    serial: int
    epoch: int
    heirs: tuple[tuple[str, str], ...]
    blob: str
    share: str
    kept_at: float = 0.0
    """When this guest received it (its own clock, ms): the host heard of after that
    had run on since (``RoomGuest.ran_on``)."""


@dataclass(frozen=True)
class Unseal:
    """What the successor asks its page to open: a backup and two shares of its key."""

    backup: Backup
    shares: tuple[str, str]


def backup_template(serial: int, epoch: int, heirs: list[tuple[str, str]]) -> str:
    """The backup message without its blob and share, which the transport appends."""
    return encode(
        {"t": "backup", "serial": serial, "epoch": epoch, "heirs": [list(h) for h in heirs]}
    )


def backup_text(room: dict[str, Any], key: str, epoch: int, replayable: bool = False) -> str:
    """What is sealed: the room as the host would save it, its key and epoch, compressed.

    With ``replayable`` the table's state is left out: its record of moves
    rebuilds it exactly (``read_backup`` does), at a fraction of the bytes sent
    after every move. Compressed so a long game's backup stays far below a
    message's 64 KiB.
    """
    table = room.get("table")
    if replayable and isinstance(table, dict):
        room = {**room, "table": {k: v for k, v in table.items() if k != "state"}}
    data = json.dumps({"room": room, "key": key, "epoch": epoch}, separators=(",", ":"))
    return base64.b64encode(zlib.compress(data.encode("utf-8"), 6)).decode("ascii")


def read_backup(text: str) -> tuple[dict[str, Any], str, int]:
    """The room, key and epoch in an opened backup; ``CorruptState`` if it is not one."""
    try:
        raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
        data = json.loads(raw.decode("utf-8"))
        room, key, epoch = data["room"], data["key"], data["epoch"]
    except (binascii.Error, zlib.error, ValueError, KeyError, TypeError, UnicodeError):
        raise CorruptState("The room's backup cannot be read.") from None
    if not isinstance(room, dict) or not isinstance(key, str) or type(epoch) is not int:
        raise CorruptState("The room's backup is damaged.")
    table = room.get("table")
    if isinstance(table, dict) and "state" not in table:
        try:
            state = Record.from_json(table.get("record")).replay()
        except (GameError, CorruptState, KeyError, TypeError, ValueError):
            raise CorruptState("The room's backup holds moves that cannot be replayed.") from None
        room = {**room, "table": {**table, "state": engine.to_json(state)}}
    return room, key, epoch


def heirs_of(members: list[tuple[str, str | None, int | None]], me: str) -> list[tuple[str, str]]:
    """The order of succession: connected seated guests, longest in the room first.

    ``members`` are (member id, peer, seat) in the order they joined. A spectator
    is nobody's successor: the players are the ones with a game to go on with.
    """
    return [
        (member, peer)
        for member, peer, seat in members
        if member != me and peer is not None and seat is not None
    ]


def successor(heirs: tuple[tuple[str, str], ...], present: set[str]) -> tuple[str, str] | None:
    """The first heir still here (``present``: peers this device can reach, and itself)."""
    return next((heir for heir in heirs if heir[1] in present), None)


def take_over(
    host: RoomHost, opened: str, member: str, present: set[str], ran_on: float = 0.0
) -> str:
    """Make ``host`` (new, on the successor's device) the room in the opened backup.

    ``member`` is the successor's own member id: its seat becomes the host's seat.
    The host that left stays a member whose seat a bot plays at once (the table
    already waited for it all this time), until it comes back as a guest. Every
    peer here is greeted as a new host greets, with the next epoch. Returns the
    room's signing key, for the transport. ``CorruptState`` if anything is wrong.
    ``ran_on`` (ms): how long the old host was still heard of after the backup, so
    an open timed window goes on with the time its players had left.
    """
    room, key, epoch = read_backup(opened)
    gone = room.get("me")
    members = room.get("members")
    if not isinstance(members, list) or not any(
        isinstance(m, dict) and m.get("id") == member for m in members
    ):
        raise CorruptState("The room's backup does not name this device's seat.")
    host.restore({**room, "me": member, "epoch": epoch + 1}, ran_on)
    host.signing_key = key
    if isinstance(gone, str) and gone in host.members:
        host.members[gone].away_since = float("-inf")  # a bot plays its seat from the next tick
    for peer in sorted(present):
        host.on_join(peer)
    host.tick()
    return key
