"""A guest's part in a succession: waiting out the host, choosing and answering the
successor, and gathering the heirs' openings when it is the successor itself.

Every seated guest is an heir (net/succession.py): while the host is here it only
keeps the backups the host sends; once the host has been away for the room's
waiting time, it chooses the same successor every other heir chooses, opens its
own hidden part to that one alone, and, if it is that successor, gathers the
others' parts until it can carry the room on. ``RoomGuest`` (net/guest.py) is the
connection to the room and hands this part what it hears; kept apart so each can be
read in one sitting.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quandary.engine import CorruptState, dealing

from .lobby import RoomLobby
from .messages import ProtocolError
from .succession import (
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
from .wire import Claim, GuestMessage, Opening, PeerMessage, read_peer


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


class HeirRole:
    """The succession's state and steps on one guest (mixed into ``RoomGuest``).

    What it reads of the guest's connection is declared here; the guest sets it."""

    member: str | None
    backups: list[Backup]
    peers: set[str]
    status: str
    lobby: RoomLobby | None
    version: int | None
    heard_at: float
    away_since: float | None
    left_at: float | None
    now: Callable[[], float]
    make_id: Callable[[], str]
    trust: Callable[[str], None]

    def __init__(self) -> None:
        self.opened: dict[tuple[str, int], tuple[str, int, Backup]] = {}
        """(successor's connection, backup serial) -> (its commitment, this heir's share
        of the seed, the backup): what this heir gave a successor, to check its deal."""
        self.deal_verdict: str | None = None
        """Once a game dealt again by a successor is over: "" if its deal was made with
        every share as promised, else why not (None: nothing to check here)."""
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
        self.trusted: set[str] = set()
        """The successor's key this heir follows (``follow``): at most one."""
        self.claims: dict[int, Takeover] = {}
        """The successor's gathering, per backup serial claimed."""
        self.ready: Takeover | None = None
        """Set when this guest is the successor and has gathered what it can: the page
        carries the room on (``succession.take_over``)."""
        self.false_openings = 0
        """Openings that did not match their commitment (refused, and counted)."""
        self._seat_cache: dict[tuple[int, int], tuple[dict[str, int], dict[str, Any]]] = {}
        """(epoch, serial) -> the members' seats and commitments in that backup's room."""

    def _send(self, peer: str, msg: GuestMessage | PeerMessage) -> None:
        """Send to one peer (the guest's door out)."""
        raise NotImplementedError

    def wake(self) -> None:
        """Look at the succession again now (the guest's own step)."""
        raise NotImplementedError

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


def _seed_from(random_id: str) -> int:
    """A share of a deal's seed from a random id (this device's randomness)."""
    return int.from_bytes(hashlib.sha256(random_id.encode()).digest()[:6], "big")
