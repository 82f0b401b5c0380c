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

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from quandary import catalog
from quandary.engine import BadSetup, BadView, CorruptState, Move, dealing

from ..text import clean_name
from .chat import MUTED, ChatLines, ChatLog, Line, Window, clean_chat, slow_down
from .lobby import RoomLobby, read_lobby
from .messages import ProtocolError, encode
from .succession import (
    BACKUPS_KEPT,
    CLAIM_WAIT_MS,
    GIVE_UP_MS,
    LEFT_MS,
    OPENING_WAIT_MS,
    SUCCESSION_MS,
    TAKEOVER_MS,
    Backup,
    DealJson,
    Heir,
    Takeover,
    check_deal,
    mandates,
    seats_of,
    seed_commitment,
    successor,
    unpack,
)
from .wire import (
    BackupNews,
    Claim,
    GuestMessage,
    Hello,
    HostMessage,
    Muted,
    Opening,
    PeerMessage,
    ReactionNews,
    Snapshot,
    Update,
    read_host,
    read_peer,
)

Status = Literal["searching", "joined", "away", "replaced", "removed"]
REPLACED = (
    "Your seat is now open in another tab or window, so this page stopped."
    " Reload it to take the seat back here."
)
TOKEN_PATIENCE = 8
"""Timer beats a page with a seat token searches for the room's own host before it
follows a successor known only by its mandates (``RoomGuest._follows``)."""
QUIET_BEATS = 3
"""Timer beats without a word from the host (it ticks every beat) before it counts as away."""
HELLO_AGAIN_MS = 1_500
"""Less than a timer beat (2 s): a host that greets us again a beat after our hello
did not get it (``RoomGuest._hello_lost``)."""


@dataclass(frozen=True)
class Handover:
    """Where the host's succession stands, as this guest sees it: what its players are told.

    Without it a room whose heirs cannot reach each other looks merely paused,
    for ever; with it each device says who takes the game on and what it waits for.
    """

    successor: str | None
    """The member whose device takes the game on (None: no heir is here)."""
    heirs: tuple[str, ...]
    """Every heir of the newest backup but this guest: the devices whose parts count."""
    waited: bool
    """The room's waiting time for the host is over on this device."""
    partners: bool
    """The successor can go on: on the successor, it reaches a majority of the heirs
    (itself included); elsewhere, this guest is an heir and the successor is connected."""


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
        self.lobby: RoomLobby | None = None
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.record: tuple[int, str] | None = None
        """The finished game's record the host sent, and the version it ended at."""
        self.opened: dict[tuple[str, int], tuple[str, int, Backup]] = {}
        """(successor's connection, backup serial) -> (its commitment, this heir's share
        of the seed, the backup): what this heir gave a successor, to check its deal."""
        self.deal_verdict: str | None = None
        """Once a game dealt again by a successor is over: "" if its deal was made with
        every share as promised, else why not (None: nothing to check here)."""
        self.notice: str | None = None
        self.peers: set[str] = set()
        self.quiet = 0
        self.greeted: str | None = None
        """The host connection this guest last said hello to."""
        self.waited_out = False
        """Whether this guest had waited out the room's host before it greeted the host
        it follows now: said in each hello, so a reloaded host knows this guest was
        free to follow a successor (``Standing.yields_to``)."""
        self.now = now
        self.epoch = 0
        """The newest host epoch heard of: a host of an older one is no longer the host."""
        self.stale: set[str] = set()
        """Connections that spoke as a host of an older epoch (a host that was succeeded)."""
        self.backups: list[Backup] = []
        self.away_since: float | None = None
        self.left_at: float | None = None  # when the host's connection closed, if it did
        self.claimed: dict[str, float] = {}
        """Successors this heir opened its part to since the host went away -> when it
        first did: each has ``TAKEOVER_MS`` from then to carry the room on."""
        self.first_opening: float | None = None
        """When another heir first opened its part to this device as the successor."""
        self.passed_over: set[str] = set()
        """Heirs passed over for good: answered here and did not carry the room on in
        their time (``TAKEOVER_MS``), and this device once it gave up its own claim."""
        self.silent: set[str] = set()
        """Heirs passed over for not claiming in their time (``CLAIM_WAIT_MS``): one that
        claims after all is taken back while this heir has promised its part to no
        one else (its own view of who is here may have been the odd one out)."""
        self.choosing: tuple[str, float] | None = None  # the heir chosen here, and since when
        self.answered: set[tuple[str, int, int]] = set()
        """(peer, serial, second) claims answered: one opening per claimant and second."""
        self.key: str | None = None
        """This device's public key, named in the order of succession (``set_key``)."""
        self.trust: Callable[[str], None] = lambda key: None
        """Tells the transport to take messages signed with ``key`` as the host's: the
        successor's, once this guest has itself waited out the host."""
        self.trusted: set[str] = set()
        self.claims: dict[int, Takeover] = {}
        """The successor's gathering, per backup serial claimed."""
        self.ready: Takeover | None = None
        """Set when this guest is the successor and has gathered what it can: the page
        carries the room on (``succession.take_over``)."""
        self.false_openings = 0
        """Openings that did not match their commitment (refused, and counted)."""
        self._seat_cache: dict[tuple[int, int], tuple[dict[str, int], dict[str, Any]]] = {}
        """(epoch, serial) -> the members' seats and commitments in that backup's room."""
        self.searched = 0
        """Timer beats spent searching with no host heard (``_follows``)."""
        self.heard_at = 0.0
        """When the host last spoke (this guest's clock, ms)."""
        self.hello_at = float("-inf")
        """When this guest last said hello to a host (its clock, ms)."""
        self.chat = ChatLog()
        """The room's chat as the host relayed it (net/chat.py)."""
        self._said = Window()
        self._reacted = Window()
        """The host's limits, kept here too: an honest player over them is told at once,
        and their line stays in the field to send again."""

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
            self._host_left()

    def _host_left(self) -> None:
        """The host's connection closed, or the host said it is gone: wait ``LEFT_MS``."""
        self.host, self.greeted = None, None
        if not self.stopped:
            self._away()
            self.left_at = self.now()

    def _away(self) -> None:
        self.status = "away"
        if self.away_since is None:
            self.away_since = self.now()

    def on_message(
        self, peer: str, text: Any, from_host: bool = False, certified: str | None = None
    ) -> None:
        """Use a message the transport verified as the host's; ignore everything else.

        ``from_host`` is the transport's word that the message carries a valid
        signature of the room's host key (or of a successor's this guest trusts),
        addressed to us, newer than the last. ``certified``: the message is signed
        with a key that a chain of mandates from the room's key names as an heir's
        (a successor this guest never saw take over). Within that, each message is
        checked and handled in its own boundary.
        """
        if self.stopped:
            return
        if not from_host and not (certified and self._follows(text, certified)):
            self._from_guest(peer, text)
            return
        try:
            msg = read_host(text)
        except ProtocolError:
            return
        if not self._current(peer, msg):
            return
        if peer != self.host and msg["t"] not in ("host", "tick"):
            return  # only a greeting or a tick, which name their epoch, makes a host
        if msg["t"] == "gone":
            self._host_left()  # it stepped down for a successor: follow that one soon
            return
        if peer != self.host:
            # The host on a new connection (it reloaded): carry on with that one.
            self.host = peer
        self.quiet = 0
        if self.greeted != peer or (msg["t"] == "host" and self._hello_lost()):
            if self.greeted != peer:
                self.waited_out = self._waited()
            self.greeted = peer
            self._hello()
        if self.status == "away":
            self.status = "joined"
        self.away_since, self.left_at, self.ready = None, None, None
        self.claims.clear()
        self.claimed, self.passed_over, self.silent, self.choosing = {}, set(), set(), None
        self.first_opening = None
        self.heard_at = self.now()
        if msg["t"] == "host":
            return
        if msg["t"] == "backup":
            self._keep(msg)
            return
        if msg["t"] == "backed":
            self._keep(msg["backup"])  # kept before its move is shown
            self._news(msg["news"])
            return
        if msg["t"] == "replaced":
            self.status, self.notice = "replaced", None
            return
        if msg["t"] == "removed":
            self.status, self.notice = "removed", msg["reason"]
            self.token, self.member, self.view, self.version = None, None, None, None
            return
        if msg["t"] == "welcome":
            if msg["member"] != self.member:
                self.version, self.view = None, None
            self.token, self.member, self.status = msg["token"], msg["member"], "joined"
            self.notice = None  # why it was kept out before (a full or closed room) is past
        elif msg["t"] == "lobby":
            try:
                self.lobby = read_lobby(msg["lobby"])
            except ProtocolError:
                return  # a lobby the screens could not draw is not kept: nothing changes
        elif msg["t"] == "snapshot" or msg["t"] == "update":
            self._news(msg)
        elif msg["t"] == "record":
            self.record = (msg["version"], msg["record"])
            self._check_deal(peer, msg["deal"], msg["record"])
        elif msg["t"] == "chat" or msg["t"] == "react" or msg["t"] == "muted":
            self._chat(msg)
        elif msg["t"] == "rejected":
            if msg["code"].startswith("chat"):
                self.chat.note = msg["reason"]  # for the chat panel, not the room's status
            else:
                self.notice = msg["reason"]
        elif msg["t"] == "tick":
            # Answered at once: the host times the round trip to correct our throws.
            self._send(peer, {"t": "pong", "at": msg["at"]})
            started = bool(self.lobby and self.lobby.get("started"))
            if started and msg["version"] != self.version:
                self.sync()

    def _current(self, peer: str, msg: HostMessage) -> bool:
        """Whether ``peer`` speaks for the host of the newest epoch this guest knows.

        Every host greets with its epoch before anything else, so a host that was
        succeeded (it kept the room's key) is known as stale from its first word.
        """
        epoch = msg["epoch"] if msg["t"] == "host" or msg["t"] == "tick" else None
        if epoch is None:
            return peer not in self.stale
        if epoch < self.epoch:
            self.stale.add(peer)
            if peer == self.host:
                self.host, self.greeted = None, None
            return False
        if epoch > self.epoch and peer != self.host and not self._may_change_host():
            return False  # a claim while the host is here (or not yet waited for) deposes nobody
        if epoch == self.epoch and peer != self.host and self._pledged(peer):
            return False  # the host it helped replace, back: it would split the room in two
        # A device that spoke for an older epoch, stepped down and now carries the
        # room on itself (it was next in line) is the host again, on the same connection.
        self.stale.discard(peer)
        if epoch > self.epoch:
            self.epoch = epoch
            self.backups = [b for b in self.backups if b.epoch >= epoch]
        return True

    def _follows(self, text: Any, key: str) -> bool:
        """Whether to follow a successor known only by its mandates, and trust its key.

        Only a page still searching (a newcomer, or a player back after the
        succession), and only once it has listened for the room's own key for a
        while: any heir holds a mandate and could sign a longer chain of its own,
        so a page holding a seat token waits longer (``TOKEN_PATIENCE``) before it
        hands it to a host it knows only that way.
        """
        try:
            msg = read_host(text)
        except ProtocolError:
            return False
        if msg["t"] != "host" or len(msg["chain"]) != msg["epoch"] or msg["epoch"] == 0:
            return False
        if not self._may_change_host() or msg["epoch"] < self.epoch:
            return False
        patience = TOKEN_PATIENCE if self.token else QUIET_BEATS
        if self.status != "searching" or self.searched < patience:
            return False
        self.follow(key)
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

    def set_key(self, key: str) -> None:
        """This device's key is made: the host hears it (a second hello changes nothing else)."""
        self.key = key
        if self.host is not None and self.greeted == self.host:
            self._hello()

    def _keep(self, msg: BackupNews) -> None:
        """Hold a backup of the room and this guest's own part."""
        if msg["epoch"] != self.epoch:
            return
        heirs = tuple((m, p, k) for m, p, k in msg["heirs"])
        chain = tuple((text, signature) for text, signature in msg["chain"])
        backup = Backup(
            msg["serial"],
            msg["epoch"],
            msg["version"],
            heirs,
            msg["room"],
            msg["part"],
            msg["salt"],
            chain,
            kept_at=self.now(),
        )
        self.backups = [*self.backups[-(BACKUPS_KEPT - 1) :], backup]

    # -- succession (net/succession.py) -----------------------------------------

    def _waited(self) -> bool:
        """Whether the host has been away for the room's whole waiting time here, or
        for ``LEFT_MS`` since its connection closed."""
        return self.status == "away" and self.now() >= (self._wait_ends() or float("inf"))

    def _wait_ends(self) -> float | None:
        """When (on ``now``'s clock) the wait for the host ends here, while it is away."""
        if self.status != "away" or self.away_since is None:
            return None
        wait = SUCCESSION_MS[self.lobby["patience"]] if self.lobby else SUCCESSION_MS["normal"]
        ends = self.away_since + wait
        return ends if self.left_at is None else min(ends, self.left_at + LEFT_MS)

    def next_wakeup(self) -> float | None:
        """When the succession next has work here: the end of the wait for the host, or
        of the chosen heir's time to claim (the page's timer beats every two seconds,
        too coarse for ``LEFT_MS``)."""
        ends = self._wait_ends()
        if ends is None or not self.backups or self.ready is not None:
            return None
        if self.choosing is not None:
            ends = max(ends, self.choosing[1] + CLAIM_WAIT_MS)
        heir = self._heir(self.backups[-1])
        if heir is not None and heir[1] in self.claimed:
            ends = max(ends, self.claimed[heir[1]] + TAKEOVER_MS)
        if self.claims and heir is not None and heir[0] == self.member:
            first = min(c.claimed_at for c in self.claims.values())
            ends = max(ends, first + OPENING_WAIT_MS)
            if self.first_opening is not None:
                ends = max(ends, self.first_opening + GIVE_UP_MS)
        return ends if ends >= self.now() else None

    def _pass_over_silent_heirs(self) -> None:
        """Pass over the chosen successor if it has not claimed in its time, or has
        claimed and not carried the room on in its time (``TAKEOVER_MS``), and the next.

        Its time runs from when this guest chose it (the wait for the host over, and
        that heir here): an heir that was out of reach and comes back gets its whole
        time again. Every heir here sees the same silence and passes over the same
        heirs at about the same moment; one that has not yet simply refuses the new
        claimant until it has (the claimant asks again at every beat). An heir passed
        over that speaks up later is refused by those that passed it over, and the
        majority needed for a deal keeps there from being two successors.
        """
        if not self.backups or not self._waited():
            return
        while True:
            heir = self._heir(self.backups[-1])
            if heir is None or heir[0] == self.member:
                self.choosing = None
                return
            claimed = self.claimed.get(heir[1])
            if claimed is not None:
                self.choosing = None
                if self.now() < claimed + TAKEOVER_MS:
                    return
                self.passed_over.add(heir[1])
                continue
            if self.choosing is None or self.choosing[0] != heir[1]:
                self.choosing = (heir[1], self.now())
            if self.now() < self.choosing[1] + CLAIM_WAIT_MS:
                return
            self.silent.add(heir[1])
            self.choosing = None

    def _heir(self, backup: Backup) -> Heir | None:
        """The successor this guest would choose for ``backup``'s order of succession:
        the first heir here, but for those passed over (this device too, once it gave
        up its own claim)."""
        mine = {peer for member, peer, _ in backup.heirs if member == self.member}
        here = (set(self.peers) | mine) - self.passed_over - self.silent
        return successor(backup.heirs, here)

    def handover(self) -> Handover | None:
        """The succession as it stands here, while the host is away and a backup is held."""
        if self.status != "away" or not self.backups:
            return None
        newest = self.backups[-1]
        heir = self._heir(newest)
        others = tuple(m for m, _, _ in newest.heirs if m != self.member)
        mine = any(m == self.member for m, _, _ in newest.heirs)
        if heir is None:
            partners = False
        elif heir[0] == self.member:
            here = sum(1 for m, p, _ in newest.heirs if m == self.member or p in self.peers)
            partners = 2 * here > len(newest.heirs)
        else:
            partners = mine and heir[1] in self.peers
        return Handover(heir[0] if heir else None, others, self._waited(), partners)

    def ran_on(self, backup: Backup) -> float:
        """How long (ms) the host was still heard of after it sent ``backup``: the
        room it describes ran on that long, open windows included."""
        return max(0.0, self.heard_at - backup.kept_at)

    def _claim(self) -> None:
        """If this guest is the successor, ask the other heirs here for their parts.

        Who succeeds is read from the newest backup, as every heir reads it from its
        own (``_answer``). Every backup kept is claimed: the host may have died
        after this guest got its newest backup but before the others did. An heir
        hears of a change only after it holds that change's backup (it comes first
        on the same connection), so the newest one all present heirs open loses
        nothing any of them saw (``_gathered``).
        """
        if not self._waited() or not self.backups or self.ready is not None:
            return
        heir = self._heir(self.backups[-1])
        if heir is None or heir[0] != self.member:
            return
        own = _seed_from(self.make_id())
        for backup in reversed(self.backups):
            chain = mandates(self.backups, backup.epoch)
            claim = self.claims.setdefault(
                backup.serial, Takeover(backup, self.now(), own, chain=chain)
            )
            msg: Claim = {
                "t": "claim",
                "serial": backup.serial,
                "epoch": backup.epoch,
                "commit": seed_commitment(claim.seed),
            }
            for member, peer, _ in backup.heirs:
                if member != self.member and peer in self.peers:
                    self._send(peer, msg)
        self.ready = self._gathered()
        if self.ready is None and self._given_up():
            self._give_up()

    def _answered_in_time(self) -> set[str]:
        """The successors this heir opened its part to that are still in their time
        (``TAKEOVER_MS`` from its answer) to carry the room on."""
        now = self.now()
        return {p for p, t in self.claimed.items() if now < t + TAKEOVER_MS}

    def _pledged(self, peer: str) -> bool:
        """Whether this heir opened its part to a successor other than ``peer`` that is
        still in its time to carry the room on.

        That part may be what the successor deals with: were this guest to greet the
        old host back meanwhile (its page reloaded, its greeting quicker than the
        successor's), each would run a table of its own, and the old host, answered by
        a player, would never step down. Once that time is over the old host is the
        host again, as before the wait.
        """
        return bool(self._answered_in_time() - {peer})

    def _free(self) -> bool:
        """Whether this heir may open its part to a successor it had passed over: it is
        not claiming itself, and every successor it answered has had its time."""
        return not self.claims and not self._answered_in_time()

    def _given_up(self) -> bool:
        """Whether this successor's time to carry on is over: ``GIVE_UP_MS`` since the
        first heir opened its part to it. The heirs that answered pass it over a
        margin later (``TAKEOVER_MS`` from their answer), so it never carries on a room
        they have passed it over in. One no heir answered (cut off from them all)
        loses nothing by waiting and claims on until it can reach them."""
        return self.first_opening is not None and self.now() >= self.first_opening + GIVE_UP_MS

    def _give_up(self) -> None:
        """Stop claiming and follow the next heir: this device did not gather a
        majority's parts in its time, or its page stalled. What it gathered is dropped."""
        self.passed_over |= {p for m, p, _ in self.backups[-1].heirs if m == self.member}
        self.claims.clear()
        self.first_opening = None
        self.wake()

    def _gathered(self) -> Takeover | None:
        """The claim to carry on from, once it is complete or the wait for it is over.

        Complete: every other heir of the newest backup still here has opened its
        part for it (the newest complete claim wins). After ``OPENING_WAIT_MS`` the claim with the
        most openings goes ahead (the newest of equals), and the seats of heirs
        that did not answer are dealt for. Never without a majority of the
        backup's heirs, this device included: two groups of heirs that cannot
        reach each other can then never both carry the room on.
        """
        # Judged by the heirs of the newest backup: an older backup's order may not
        # even name them, and theirs are the parts at stake and the majority needed.
        heirs = self.backups[-1].heirs
        away = self.passed_over | self.silent
        here = [m for m, p, _ in heirs if m != self.member and p in self.peers - away]
        claims = sorted(self.claims.values(), key=lambda c: c.backup.serial, reverse=True)
        # Never back to a table older than this guest was shown: every heir held that
        # backup before anyone saw it, so an heir that opens only an older one is
        # trying to undo moves (and is dealt for as absent), not one that lags.
        seen = [c for c in claims if c.backup.version >= (self.version or 0)]
        usable = [c for c in (seen or claims) if self._quorum(c, heirs)]
        for claim in usable:
            seats = self._seats(claim.backup)
            if all(seats.get(member) in claim.parts for member in here):
                return claim
        if not claims or self.now() - min(c.claimed_at for c in claims) < OPENING_WAIT_MS:
            return None
        # The host may have died between sending one heir its newest backup and the
        # next (backups go with the views, unacknowledged): if no majority holds what
        # this guest saw, the room goes on from the newest backup a majority opened,
        # a move or two back, rather than waiting for ever.
        usable = usable or [c for c in claims if self._quorum(c, heirs)]
        if not usable:
            return None
        return max(usable, key=lambda c: (len(c.parts), c.backup.serial))

    def _quorum(self, claim: Takeover, heirs: tuple[Heir, ...]) -> bool:
        """Whether a majority of ``heirs`` (the newest order of succession), this device
        included, opened their parts for ``claim``: what it takes to carry the room on."""
        seats = self._seats(claim.backup)
        opened = sum(1 for m, _, _ in heirs if m != self.member and seats.get(m) in claim.parts)
        return 2 * (opened + 1) > len(heirs)

    def _seats(self, backup: Backup) -> dict[str, int]:
        """Member -> seat in a backup's room (read once per backup)."""
        cached = self._seat_cache.get((backup.epoch, backup.serial))
        if cached is None:
            try:
                room = unpack(backup.room)
            except CorruptState:
                room = {}
            commitments = room.get("commitments")
            cached = (seats_of(room), commitments if isinstance(commitments, dict) else {})
            kept = {(b.epoch, b.serial) for b in self.backups}
            self._seat_cache = {k: v for k, v in self._seat_cache.items() if k in kept}
            self._seat_cache[(backup.epoch, backup.serial)] = cached
        return cached[0]

    def _commitment(self, backup: Backup, seat: int) -> Any:
        self._seats(backup)
        return self._seat_cache[(backup.epoch, backup.serial)][1].get(str(seat))

    def _from_guest(self, peer: str, text: Any) -> None:
        """A claim or an opening from another guest, untrusted, each in its own boundary."""
        try:
            msg = read_peer(text)
        except ProtocolError:
            return
        backup = next((b for b in self.backups if b.serial == msg["serial"]), None)
        if backup is None:
            return
        if msg["t"] == "claim":
            self._answer(peer, backup, msg["epoch"], msg["commit"])
        else:
            self._take_opening(peer, backup, msg)

    def _answer(self, peer: str, backup: Backup, epoch: int, commit: str = "") -> None:
        """Open our part only to the successor we would choose ourselves (by our newest
        backup, whichever backup it asks about), the host away here too; and from then
        on take that successor's signed messages as the host's."""
        if epoch != backup.epoch or not self._waited():
            return  # a claim about another room's epoch is no claim
        if peer in self.silent and self._free():
            self.silent.discard(peer)  # it claims after all: it may be the successor yet
            self.choosing = None
        heir = self._heir(self.backups[-1])
        if heir is None or heir[1] != peer or heir[0] == self.member:
            return
        self.claimed.setdefault(peer, self.now())
        self.follow(heir[2])
        moment = (peer, backup.serial, int(self.now() // 1000))
        if moment not in self.answered:
            self.answered = {a for a in self.answered if a[2] >= moment[2] - 1} | {moment}
            # One share per successor and backup, asked again or not: the one it must use.
            opened = self.opened.get((peer, backup.serial))
            seed = opened[1] if opened is not None else _seed_from(self.make_id())
            self.opened[(peer, backup.serial)] = (commit, seed, backup)
            opening: Opening = {
                "t": "opening",
                "serial": backup.serial,
                "part": backup.part,
                "salt": backup.salt,
                "seed": seed,
            }
            self._send(peer, opening)

    def _take_opening(self, peer: str, backup: Backup, msg: Opening) -> None:
        """Another heir's part: kept for the deal if it matches its commitment."""
        claim = self.claims.get(backup.serial)
        if claim is None or self.ready is not None or not self._waited():
            return
        if self._given_up():
            return  # too late to carry on: the next beat gives the claim up
        member = next((m for m, p, _ in backup.heirs if p == peer and m != self.member), None)
        seat = self._seats(backup).get(member or "")
        if seat is None:
            return
        told = dealing.commitment(msg["salt"], msg["part"])
        if told != self._commitment(backup, seat):
            self.false_openings += 1  # not what the host committed to: dealt for instead
            return
        claim.parts[seat] = msg["part"]
        claim.seeds[seat] = msg["seed"]
        if self.first_opening is None:
            self.first_opening = self.now()
        self.ready = self._gathered()

    def _check_deal(self, peer: str, deal: DealJson | None, record: str) -> None:
        """A finished game's record from a host this heir opened its part to: was the
        deal it carried on from made with every share as promised (``check_deal``)?"""
        serial = deal["serial"] if deal is not None else None
        given = [k for k in self.opened if k[0] == peer]
        if not given:
            return  # this device gave that host nothing: nothing of its own to check
        opened = self.opened.get((peer, serial)) if type(serial) is int else None
        if opened is None:
            self.deal_verdict = "the new host did not show how it dealt"
            return
        commit, share, backup = opened
        try:
            seat = seats_of(unpack(backup.room)).get(self.member or "")
        except CorruptState:
            seat = None  # the host that sent it damaged it: nothing can be dealt from it
        if seat is None:
            self.deal_verdict = "its deal cannot be made again from the backup"
            return
        from quandary import replay  # only once a game is over

        try:
            made = replay.parse(record).record
        except replay.BadRecord:
            self.deal_verdict = "its record of the game cannot be read"
            return
        self.deal_verdict = check_deal(backup, commit, seat, share, deal, made)

    def follow(self, key: str) -> None:
        """Follow the successor with ``key`` (and no other successor before it)."""
        if self.trusted != {key}:
            self.trusted = {key}
            self.trust(key)

    def _chat(self, msg: ChatLines | ReactionNews | Muted) -> None:
        """Lines, a reaction or a mute from the verified host: only its word counts, so
        no other peer can make anyone seem to say anything."""
        if msg["t"] == "chat":
            self.chat.add([Line.from_json(line) for line in msg["lines"]], msg["whole"])
        elif msg["t"] == "react":
            self.chat.react(msg["member"], msg["name"], msg["seat"], msg["emoji"], self.now())
        else:
            self.chat.muted = msg["muted"]
            self.chat.note = MUTED if msg["muted"] else None

    def say(self, text: str) -> bool:
        """Send a chat line to the host; whether it went (if not, ``chat.note`` says why)."""
        self.chat.note = None
        text = clean_chat(text)
        if not text:
            return False
        if self.host is None or self.stopped:
            self.chat.note = "The host is away: your line was not sent."
            return False
        if self.chat.muted:
            self.chat.note = MUTED
            return False
        wait = self._said.wait("me", self.now())
        if wait:
            self.chat.note = slow_down(wait)
            return False
        self._send(self.host, {"t": "chat", "text": text})
        return True

    def react(self, emoji: str) -> None:
        """Send a reaction to the host (``chat.note`` says why, if it was not sent)."""
        self.chat.note = None
        if self.host is None or self.stopped:
            self.chat.note = "The host is away: your reaction was not sent."
        elif self.chat.muted:
            self.chat.note = MUTED
        elif wait := self._reacted.wait("me", self.now()):
            self.chat.note = slow_down(wait, "reactions")
        else:
            self._send(self.host, {"t": "react", "emoji": emoji})

    def _news(self, msg: Snapshot | Update) -> None:
        """The host's view of the table now: whole, or what changed since ``base``."""
        if msg["t"] == "snapshot":
            if _drawable(msg["view"]):
                self.version, self.view = msg["version"], msg["view"]
            return
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
        if self.status == "searching" and self.host is None:
            self.searched += 1
        if self.host is not None and self.quiet >= QUIET_BEATS:
            self.host, self.greeted = None, None
            self._away()
        self.retry()
        self.wake()

    def wake(self) -> None:
        """Once the wait for the host is over: follow the successor, or claim as it."""
        if self.stopped:
            return
        self._pass_over_silent_heirs()
        if self._waited() and self.backups:
            heir = self._heir(self.backups[-1])
            if heir is not None and heir[0] != self.member:
                self.follow(heir[2])
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
            hello: Hello = {
                "t": "hello",
                "token": self.token,
                "name": self.name,
                "key": self.key,
                "waited": self.waited_out,
            }
            self._send(self.host, hello)
            self.hello_at = self.now()

    def _hello_lost(self) -> bool:
        """Whether the host greeting us again means our hello never reached it.

        A host greets a connection it does not know, and again at every beat (a
        greeting may be lost). A greeting from the host we already said hello to is
        the host asking who we are: our hello was lost (dropped unread in a flood, or
        sent a moment before that device was the host). A hello still in flight is no
        loss, so the host is answered again only once a beat's worth has passed.
        """
        return self.now() - self.hello_at >= HELLO_AGAIN_MS

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

    def _send(self, peer: str, msg: GuestMessage | PeerMessage) -> None:
        if not self.stopped:  # a replaced or removed tab stops sending altogether
            self.send_text(peer, encode(msg))


def _drawable(view: dict[str, Any]) -> bool:
    """Whether a view from the host is sound (its header, and its game's own part where
    the game declares it as types): a damaged one is not kept."""
    try:
        catalog.read_view(view)
    except (BadView, BadSetup):
        return False
    return True


def _seed_from(random_id: str) -> int:
    """A share of a deal's seed from a random id (this device's randomness)."""
    return int.from_bytes(hashlib.sha256(random_id.encode()).digest()[:6], "big")
