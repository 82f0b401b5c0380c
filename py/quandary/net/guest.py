"""A guest in a room: greets the host, sends intents, and keeps its own view in step.

The guest believes only messages its transport verified as signed with the
room's host key (the key in the link) and addressed to this connection: any
other peer, whatever it sends, is ignored. It speaks first to nobody; once the
host has spoken it greets that peer alone, so its secret seat token reaches
only the verified host. Updates apply only on top of the exact version they
were made from; anything else (a lost or reordered message) makes the guest
ask for a snapshot, so it always converges to what the host would show it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from quandary.engine import BadView, Move, read_header

from .messages import HOST_TYPES, PEER_TYPES, ProtocolError, clean_name, encode, parse
from .succession import BACKUPS_KEPT, SUCCESSION_MS, Backup, Unseal, successor

Status = Literal["searching", "joined", "away", "replaced", "removed"]
REPLACED = (
    "Your seat is now open in another tab or window, so this page stopped."
    " Reload it to take the seat back here."
)
QUIET_BEATS = 3
"""Timer beats without a word from the host (it ticks every beat) before it counts as away."""


@dataclass(frozen=True)
class Handover:
    """Where the host's succession stands, as this guest sees it: what its players are told.

    Without it a room whose heirs cannot reach each other looks merely paused,
    for ever; with it each device says who takes the game on and what it waits for.
    """

    successor: str | None
    """The member whose device takes the game on (None: no heir is here)."""
    heirs: tuple[str, ...]
    """Every heir of the newest backup but this guest: the devices holding a share."""
    waited: bool
    """The room's waiting time for the host is over on this device."""
    partners: bool
    """The successor can reach another heir (on the successor: one is connected here;
    elsewhere: this guest holds a share and the successor is connected)."""


class RoomGuest:
    """One device's connection to a room it did not create."""

    def __init__(
        self,
        send: Callable[[str, str], None],
        make_id: Callable[[], str],
        name: str,
        token: str | None = None,
        now: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.send_text = send
        self.make_id = make_id
        self.name = clean_name(name) or "Player"
        self.token = token
        self.status: Status = "searching"
        self.host: str | None = None
        self.member: str | None = None
        self.lobby: dict[str, Any] | None = None
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.notice: str | None = None
        self.peers: set[str] = set()
        self.quiet = 0
        self.greeted: str | None = None
        """The host connection this guest last said hello to."""
        self.now = now
        self.epoch = 0
        """The newest host epoch heard of: a host of an older one is no longer the host."""
        self.stale: set[str] = set()
        """Connections that spoke as a host of an older epoch (a host that was succeeded)."""
        self.backups: list[Backup] = []
        self.away_since: float | None = None
        self.answered: set[tuple[str, int, int]] = set()
        """(peer, serial, beat) claims answered: one share per claimant and beat at most."""
        self.unseal: Unseal | None = None
        """Set when this guest is the successor and holds two shares: the page opens it."""
        self.refused: set[tuple[int, str]] = set()
        """(serial, share) pairs that did not open their backup: a peer that sent
        garbage once is not believed again, and the next heir's share is tried."""
        self.heard_at = 0.0
        """When the host last spoke (this guest's clock, ms)."""

    @property
    def stopped(self) -> bool:
        """This page is out of the room: its seat went to another tab, or the host
        removed it. It sends nothing and hears nothing more."""
        return self.status in ("replaced", "removed")

    # -- incoming ------------------------------------------------------------------

    def on_join(self, peer: str) -> None:
        """A peer arrived: it is nobody until it proves it is the host by speaking."""
        self.peers.add(peer)

    def on_leave(self, peer: str) -> None:
        """If the host left, the game is paused until it comes back or is succeeded."""
        self.peers.discard(peer)
        if peer == self.host:
            self.host, self.greeted = None, None
            if not self.stopped:
                self._away()

    def _away(self) -> None:
        self.status = "away"
        if self.away_since is None:
            self.away_since = self.now()

    def on_message(self, peer: str, text: Any, from_host: bool = False) -> None:
        """Use a message the transport verified as the host's; ignore everything else.

        ``from_host`` is the transport's word that the message carries a valid
        signature of the room's host key, addressed to us, newer than the last.
        Within that, each message is checked and handled in its own boundary.
        """
        if self.stopped:
            return
        if not from_host:
            self._from_guest(peer, text)
            return
        try:
            msg = parse(text, HOST_TYPES)
        except ProtocolError:
            return
        if not self._current(peer, msg):
            return
        if peer != self.host:
            # The host on a new connection (it reloaded): carry on with that one.
            self.host = peer
        self.quiet = 0
        if self.greeted != peer:
            self.greeted = peer
            self._hello()
        if self.status == "away":
            self.status = "joined"
        self.away_since, self.unseal = None, None
        self.heard_at = self.now()
        kind = msg["t"]
        if kind == "host":
            return
        if kind == "backup":
            self._keep(msg)
            return
        if kind == "replaced":
            self.status, self.notice = "replaced", None
            return
        if kind == "removed":
            self.status, self.notice = "removed", msg["reason"]
            self.token, self.member, self.view, self.version = None, None, None, None
            return
        if kind == "welcome":
            if msg["member"] != self.member:
                self.version, self.view = None, None
            self.token, self.member, self.status = msg["token"], msg["member"], "joined"
            self.notice = None  # why it was kept out before (a full or closed room) is past
        elif kind == "lobby":
            self.lobby = msg["lobby"]
        elif kind == "snapshot":
            if _drawable(msg["view"]):
                self.version, self.view = msg["version"], msg["view"]
        elif kind == "update":
            self._update(msg)
        elif kind == "tick":
            # Answered at once: the host times the round trip to correct our throws.
            self._send(peer, {"t": "pong", "at": msg["at"]})
            started = bool(self.lobby and self.lobby.get("started"))
            if started and msg["version"] != self.version:
                self.sync()
        else:
            self.notice = msg["reason"]

    def _current(self, peer: str, msg: dict[str, Any]) -> bool:
        """Whether ``peer`` speaks for the host of the newest epoch this guest knows.

        Every host greets with its epoch before anything else, so a host that was
        succeeded (it kept the room's key) is known as stale from its first word.
        """
        epoch = msg.get("epoch") if msg["t"] in ("host", "tick") else None
        if epoch is None:
            return peer not in self.stale
        if epoch < self.epoch:
            self.stale.add(peer)
            if peer == self.host:
                self.host, self.greeted = None, None
            return False
        if epoch > self.epoch and peer != self.host and not self._may_change_host():
            return False  # a claim while the host is here (or not yet waited for) deposes nobody
        # A device that spoke for an older epoch, stepped down and now carries the
        # room on itself (it was next in line) is the host again, on the same connection.
        self.stale.discard(peer)
        if epoch > self.epoch:
            self.epoch = epoch
            self.backups = [b for b in self.backups if b.epoch >= epoch]
        return True

    def _may_change_host(self) -> bool:
        """Whether a newer host may take over here: only once this guest has itself
        lost the host for the room's whole waiting time (or never had one yet).

        Holding the room's key is not enough: while the host still speaks to this
        guest, no claim of a newer epoch, however well signed, makes it follow
        another device. A newcomer follows the first host it hears.
        """
        if self.host is not None:
            return False
        return self.status == "searching" or self._waited()

    def _keep(self, msg: dict[str, Any]) -> None:
        """Hold a sealed backup of the room (this guest's share of its key with it)."""
        if msg["epoch"] != self.epoch:
            return
        heirs = tuple((member, peer) for member, peer in msg["heirs"])
        backup = Backup(msg["serial"], msg["epoch"], heirs, msg["blob"], msg["share"], self.now())
        self.backups = [*self.backups[-(BACKUPS_KEPT - 1) :], backup]
        if self.host is not None:
            self._send(self.host, {"t": "kept", "serial": backup.serial})

    # -- succession (net/succession.py) -----------------------------------------

    def _waited(self) -> bool:
        """Whether the host has been away for the room's whole waiting time, here."""
        if self.status != "away" or self.away_since is None:
            return False
        patience = (self.lobby or {}).get("patience")
        wait = SUCCESSION_MS.get(patience if isinstance(patience, str) else "", 45_000)
        return self.now() - self.away_since >= wait

    def _heir(self, backup: Backup) -> tuple[str, str] | None:
        """The successor this guest would choose for ``backup``'s order of succession."""
        here = set(self.peers)
        here |= {peer for member, peer in backup.heirs if member == self.member}
        return successor(backup.heirs, here)

    def handover(self) -> Handover | None:
        """The succession as it stands here, while the host is away and a backup is held."""
        if self.status != "away" or not self.backups:
            return None
        newest = self.backups[-1]
        heir = self._heir(newest)
        others = tuple(m for m, _ in newest.heirs if m != self.member)
        mine = any(m == self.member for m, _ in newest.heirs)
        if heir is None:
            partners = False
        elif heir[0] == self.member:
            partners = any(p in self.peers for m, p in newest.heirs if m != self.member)
        else:
            partners = mine and heir[1] in self.peers
        return Handover(heir[0] if heir else None, others, self._waited(), partners)

    def ran_on(self, backup: Backup) -> float:
        """How long (ms) the host was still heard of after it sent ``backup``: the
        room it describes ran on that long, open windows included."""
        return max(0.0, self.heard_at - backup.kept_at)

    def _claim(self) -> None:
        """If this guest is the successor, ask the other heirs here for their shares.

        Who succeeds is read from the newest backup, as every heir reads it from its
        own (``_answer``). The shares asked for are those of every backup kept, newest
        first: the host may have died after this guest got its newest backup but
        before the others did. No guest heard of what that backup adds (the host
        tells nobody of a change before every heir keeps its backup), so the newest
        backup two heirs share loses nothing. Answers come back in the order asked,
        so the newest that can be opened is opened.
        """
        if not self._waited() or not self.backups or self.unseal is not None:
            return
        heir = self._heir(self.backups[-1])
        if heir is None or heir[0] != self.member:
            return
        for backup in reversed(self.backups):
            claim = {"t": "claim", "serial": backup.serial, "epoch": backup.epoch}
            for member, peer in backup.heirs:
                if member != self.member and peer in self.peers:
                    self._send(peer, claim)

    def _from_guest(self, peer: str, text: Any) -> None:
        """A claim or a share from another guest, untrusted, each in its own boundary."""
        try:
            msg = parse(text, PEER_TYPES)
        except ProtocolError:
            return
        backup = next((b for b in self.backups if b.serial == msg["serial"]), None)
        if backup is None:
            return
        if msg["t"] == "claim":
            self._answer(peer, backup, msg["epoch"])
        else:
            self._take_share(peer, backup, msg["share"])

    def _answer(self, peer: str, backup: Backup, epoch: int) -> None:
        """Give our share only to the successor we would choose ourselves (by our newest
        backup, whichever backup it asks about), the host away here too."""
        heir = self._heir(self.backups[-1])
        if epoch != backup.epoch or not self._waited() or heir is None or heir[1] != peer:
            return
        if heir[0] == self.member:
            return
        moment = (peer, backup.serial, int(self.now() // 1000))
        if moment not in self.answered:
            self.answered = {a for a in self.answered if a[2] >= moment[2] - 1} | {moment}
            self._send(peer, {"t": "share", "serial": backup.serial, "share": backup.share})

    def _take_share(self, peer: str, backup: Backup, share: str) -> None:
        """A second share from another heir: the successor can now open the backup."""
        if self.unseal is not None or not self._waited() or share == backup.share:
            return
        if (backup.serial, share) in self.refused:
            return
        heir = self._heir(self.backups[-1])
        holders = {p for m, p in backup.heirs if m != self.member}
        if heir is not None and heir[0] == self.member and peer in holders:
            self.unseal = Unseal(backup, (backup.share, share))

    def unseal_failed(self) -> None:
        """The backup would not open with the share taken: that share is garbage (or
        its holder's copy is damaged). It is refused from now on, and the claim goes
        out again at the next beat, so another heir's share is tried."""
        if self.unseal is not None:
            self.refused.add((self.unseal.backup.serial, self.unseal.shares[1]))
            self.unseal = None

    def _update(self, msg: dict[str, Any]) -> None:
        if self.view is None or msg["base"] != self.version:
            if self.version is None or msg["version"] > self.version:
                self.sync()
            return
        view = {k: v for k, v in self.view.items() if k not in msg["drop"]}
        view.update(msg["set"])
        if _drawable(view):
            self.version, self.view = msg["version"], view

    def beat(self) -> None:
        """One timer beat: a host that has been silent too long is away."""
        if self.stopped:
            return
        self.quiet += 1
        if self.host is not None and self.quiet >= QUIET_BEATS:
            self.host, self.greeted = None, None
            self._away()
        self.retry()
        self._claim()

    def retry(self) -> None:
        """Greet the host again while it has not welcomed us (a greeting may be lost).

        A welcome without the lobby that follows it is no welcome either: a guest
        with no lobby cannot tell from a tick that the game started, so it would
        never ask for its view. The host answers a second hello from the same
        connection with the lobby and a snapshot for that guest alone.
        """
        if self.host is not None and (self.status == "searching" or self.lobby is None):
            self._hello()

    def _hello(self) -> None:
        """The only message that holds our seat token: to the verified host, never broadcast."""
        if self.host is not None:
            self._send(self.host, {"t": "hello", "token": self.token, "name": self.name})

    # -- the player's actions ------------------------------------------------------

    def submit(self, move: Move) -> str | None:
        """Send a move for this guest's seat; returns the intent id (None if no host)."""
        if self.stopped:
            self.notice = REPLACED if self.status == "replaced" else self.notice
            return None
        if self.host is None or self.version is None:
            self.notice = "The host is away: your move was not sent. Try again when it is back."
            return None
        intent = self.make_id()
        self.notice = None
        self._send(self.host, {"t": "intent", "id": intent, "version": self.version, "move": move})
        return intent

    def sit(self, seat: int | None) -> None:
        """Ask for a seat (None: stand up)."""
        if self.host is not None:
            self._send(self.host, {"t": "seat", "seat": seat})

    def rename(self, name: str) -> None:
        """Ask for a new name."""
        self.name = clean_name(name) or self.name
        if self.host is not None:
            self._send(self.host, {"t": "name", "name": self.name})

    def sync(self) -> None:
        """Ask the host for a full snapshot of this guest's view."""
        if self.host is not None:
            self._send(self.host, {"t": "sync", "version": self.version or 0})

    def _send(self, peer: str, msg: dict[str, Any]) -> None:
        if not self.stopped:  # a replaced or removed tab stops sending altogether
            self.send_text(peer, encode(msg))


def _drawable(view: dict[str, Any]) -> bool:
    """Whether a view from the host has a sound header: a damaged one is not kept."""
    try:
        read_header(view)
    except BadView:
        return False
    return True
