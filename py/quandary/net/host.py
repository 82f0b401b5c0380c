"""The host of a room: the one authority that holds the game and judges every move.

Guests send intents; the host checks each message and reads it as its type
(``wire.read_guest``), works out who sent it from the connection it came on (never
from a seat number inside the message), applies it through the table like a local
move, and sends every connected peer its own seat's view, never the full state. Each
view carries the state version; updates are diffs against the last view that peer
was sent, and a peer whose base does not match asks for a snapshot. Every outgoing
message is checked for the recipient's secrets before it leaves.

The host is the room's one authority; its parts live beside it, each small enough
to read in one go: who comes in and goes (``admission``), how the table is set
before the start (``seating``), the room kept across a reload (``host_save``),
who is in the room (``members``), players away and far (``absence``), what
each connection holds and gets next (``deliveries``), whether this device still
holds the room when another speaks as its host (``standing``), the chat's routing
(``host_chat``), and the backups heirs carry on from (``backups``,
``succession``). ``host_base`` names what the parts share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quandary import engine
from quandary.engine import BadSetup, GameError, Move
from quandary.table import BotSpeed, Seat, Table

from ..text import clean_name
from .absence import COVER_LEVEL, PATIENCE, TURN_SHARE, absent_seats, credit, note_pong, patience_of
from .admission import AdmissionRole
from .backups import Backups, Outgoing
from .budget import Budget
from .chat import ChatRoom
from .deliveries import Deliveries
from .host_chat import HostChat
from .host_save import SavedRoom
from .lobby import Patience
from .members import (
    LOCAL,
    SEEN_LIMIT,
    TICKS_REMEMBERED,
    WAITING,
    Member,
    SeatPlan,
    bot_name,
)
from .messages import ProtocolError
from .outbox import Outbox
from .seating import SeatingRole
from .standing import ALONE_BEATS, Standing, company
from .succession import SUCCESSION_MS, Deal, heirs_of
from .wire import (
    BackupNews,
    GuestMessage,
    HostMessage,
    Rejected,
    Tick,
    read_guest,
    read_host,
)

__all__ = [
    "ALONE_BEATS",
    "LOCAL",
    "PATIENCE",
    "TURN_SHARE",
    "WAITING",
    "Member",
    "RoomHost",
    "SeatPlan",
]


class RoomHost(AdmissionRole, SeatingRole, SavedRoom):
    """The authority of one room: its parts (``HostBase``) and the game's moves."""

    def __init__(
        self,
        send: Callable[[str, str], None],
        make_id: Callable[[], str],
        new_seed: Callable[[], int],
        host_name: str,
        now: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.send_text = send
        self.now = now
        self.make_id = make_id
        self.new_seed = new_seed
        me = Member(make_id(), make_id(), clean_name(host_name) or "Host", 0, LOCAL)
        self.me = me.id
        self.members: dict[str, Member] = {me.id: me}
        spec = engine.specs()[0]
        self.game = spec.id
        self.options = spec.normalise_options(None)
        self.plan = [SeatPlan() for _ in range(spec.min_players)]
        self.table: Table | None = None
        self.speed: BotSpeed = "instant"
        """How long the room's bots take over a move (the host's device setting)."""
        self.epochs: list[int] = []
        # Through ``send_text`` at each call: whoever holds the host may re-route it.
        self.deliveries = Deliveries(lambda peer, text: self.send_text(peer, text))
        self.beats = 0
        """Timer beats so far (``tick``): the clock of retries."""
        self.errors = 0
        """Messages whose handling failed unexpectedly (a bug), each contained."""
        self.budget = Budget()
        self.peers: set[str] = set()
        """Open connections, members or not."""
        self.patience: Patience = "normal"
        """How long an absent player's seat waits for them (a key of ``PATIENCE``)."""
        self.epoch = 0
        """Successions so far: guests ignore a host of an older epoch (net/succession.py)."""
        self.backups = Backups(make_id, new_seed)
        self.standing = Standing()
        self.deal: Deal | None = None
        """How this host dealt when it took a leaving host's place, shown with the
        record once the game is over (never in a backup: see ``Deal``)."""
        self.locked = False
        """Closed to newcomers by the host: only members already known get back in."""
        self.removed: set[str] = set()
        """Connections the host removed: their greetings are refused."""
        self.heard: dict[str, float] = {}
        """When each connection last sent this host anything (host's clock)."""
        self.transport_rtt: dict[str, float] = {}
        """Each connection's round trip (ms) as the host's own browser measures it."""
        self.chat = ChatRoom()
        """The room's chat (net/chat.py): beside the game, never in its state or views."""
        self.talk = HostChat(self.chat, self.outbox, self._reject, now)

    # -- incoming ------------------------------------------------------------------

    @property
    def leaks(self) -> int:
        """Messages dropped because they held a recipient's secret (``Outbox``): 0."""
        return self.outbox.leaks

    @property
    def outbox(self) -> Outbox:
        """The one door out (``Deliveries``)."""
        return self.deliveries.outbox

    @property
    def superseded(self) -> bool:
        """Another device holding the room's key took over while this one was away."""
        return self.standing.superseded

    @property
    def successor_key(self) -> str | None:
        """The key of the successor this host stepped down for, if it was one known by
        its mandates: the host's page follows it as a guest."""
        return self.standing.successor_key

    def certified(self, text: str, signature: str) -> None:
        """The transport signed a mandate: the heirs get a backup that carries it now,
        though no move was made (a successor shows it to devices that were not here)."""
        if self.backups.certified(text, signature):
            self.broadcast()

    def on_leave(self, peer: str) -> None:
        """A connection closed: its member is away, its seat kept; a member without a
        seat has nothing to keep and is forgotten."""
        self.peers.discard(peer)
        self.budget.forget(peer)
        self.transport_rtt.pop(peer, None)
        for member in list(self.members.values()):
            if member.peer == peer:
                member.peer, member.away_since = None, self.now()
                if member.seat is None and member.id != self.me:
                    del self.members[member.id]
        self.deliveries.forget(peer)
        self.broadcast()

    def on_message(
        self, peer: str, text: Any, from_host: bool = False, certified: str | None = None
    ) -> None:
        """Check and handle one message; anything wrong is answered with a reason.

        A connection over its rate is dropped without a word (answering would
        cost as much as the flood), and each message is handled inside its own
        boundary, so one bad message can never stop the room. ``from_host``: signed
        with the room's key (this host's other tab); ``certified``: signed with a
        key that mandates from the room's key name (a successor, or an heir
        pretending to be one).
        """
        if from_host or certified:
            self._other_host(peer, text, certified)
            return
        self.heard[peer] = self.now()
        if not self.budget.allows(peer, text, self.now()):
            return
        try:
            msg = read_guest(text)
        except ProtocolError as exc:
            self._reject(peer, "malformed", exc.message)
            return
        try:
            self._handle(peer, msg)
        except Exception:  # noqa: BLE001 - a bug in one message's handling must not stop the room
            self.errors += 1
            self._reject(peer, "error", "That message could not be handled.")

    def _other_host(self, peer: str, text: Any, certified: str | None) -> None:
        """Another device speaks as the room's host: step down (``Standing.yields_to``)?

        A host that steps down tells its players it is gone, as if its connection had
        closed: they follow the successor after ``LEFT_MS`` instead of the room's
        whole waiting time again.
        """
        try:
            msg = read_host(text)
        except ProtocolError:
            return
        silent = self.now() - self.heard.get(peer, float("-inf"))
        wait = SUCCESSION_MS[self.patience]
        kept = company(self.members.values(), self.me)
        if not self.standing.yields_to(msg, self.epoch, silent, wait, certified, self.beats, kept):
            return
        for member in self.members.values():
            if member.peer is not None and member.peer != LOCAL:
                self._send(member.peer, {"t": "gone"}, None)

    def _handle(self, peer: str, msg: GuestMessage) -> None:
        if msg["t"] == "hello":
            self._hello(peer, msg["token"], msg["name"], msg["key"], msg["waited"])
            return
        member = self._member_at(peer)
        if member is None:
            self._reject(peer, "unknown", "Say hello first: this connection has no place here.")
            return
        if msg["t"] == "pong":
            note_pong(member, msg["at"], self.now())
        elif msg["t"] == "sync":
            self._sync(member)
        elif msg["t"] == "name":
            self._rename(member, msg["name"])
        elif msg["t"] == "seat":
            self._sit(member, msg["seat"])
        elif msg["t"] == "chat":
            self.talk.say(self.members.values(), member, msg["text"])
        elif msg["t"] == "react":
            self.talk.react(self.members.values(), member, msg["emoji"])
        else:
            self._intent(member, msg["id"], msg["version"], msg["move"])

    def _sync(self, member: Member) -> None:
        """A snapshot on request, at most once per version and timer beat.

        A guest that lost an update asks again at the next beat; a flood of
        requests costs one snapshot.
        """
        version = self.table.state.version if self.table is not None else 0
        if member.peer is not None:
            # It may have refused a backup whose log it could not rebuild: the next goes whole.
            self.deliveries.logs.pop(member.peer, None)
        if member.snapshot_at == (version, self.beats):
            return
        member.snapshot_at = (version, self.beats)
        self._send_view(member, snapshot=True)

    def on_transport_rtt(self, peer: str, rtt: float) -> None:
        """The connection's round trip (ms), measured by this device's browser."""
        if peer in self.peers and 0 <= rtt < 10_000:
            self.transport_rtt[peer] = rtt

    def credit(self, member: Member) -> float:
        """How much earlier than it arrived a member's timed move counts (ms): ``credit``."""
        measured = self.transport_rtt.get(member.peer) if member.peer is not None else None
        return credit(member, measured)

    def _intent(self, member: Member, intent: str, version: int, move: Move) -> None:
        """Play a guest's move, once: a refused one changes nothing, not even the
        list of intents seen (the same intent again is judged again, and refused again)."""
        if intent in member.seen:
            return  # a duplicate of a move already played
        if self.table is None:
            self._reject(member.peer, "not_started", "The game has not started yet.", intent)
        elif member.seat is None:
            self._reject(
                member.peer, "spectator", "You are watching: only seated players move.", intent
            )
        elif version < self.epochs[member.seat]:
            self._reject(
                member.peer,
                "stale",
                "The table changed before your move arrived, so it was not played. Look again.",
                intent,
            )
            self._send_view(member, snapshot=True)
        else:
            try:
                self._play(member.seat, move, self.credit(member))
            except GameError as exc:
                self._reject(member.peer, exc.code, exc.message, intent)
            else:
                member.seen = [*member.seen[-(SEEN_LIMIT - 1) :], intent]

    # -- chat (net/host_chat.py) ------------------------------------------------

    def say(self, text: str) -> None:
        """The host's own line (a refusal is noted on its own chat log)."""
        self.chat.log.note = None
        self.talk.say(self.members.values(), self.members[self.me], text)

    def react(self, emoji: str) -> None:
        """The host's own reaction."""
        self.chat.log.note = None
        self.talk.react(self.members.values(), self.members[self.me], emoji)

    def mute(self, member_id: str, muted: bool) -> None:
        """Mute a member's lines and reactions, or let them speak again; they are told."""
        member = self.members.get(member_id)
        if member is None or member.id == self.me:
            raise BadSetup("That member cannot be muted.")
        self.talk.mute(member, muted)

    # -- the host's own actions (checked too: BadSetup or GameError says why) -------

    def start(self) -> None:
        """Start the game once every seat is a bot or taken (``BadSetup`` otherwise)."""
        if self.table is not None:
            raise BadSetup("The game has already started.")
        holders = {m.seat: m for m in self.members.values() if m.seat is not None}
        seats = []
        for i, plan in enumerate(self.plan):
            if plan.kind == "bot":
                seats.append(Seat(bot_name(i), "bot", plan.level))
            elif i in holders:
                seats.append(Seat(holders[i].name, "human"))
            else:
                raise BadSetup(f"Seat {i + 1} is still empty: wait for a player or add a bot.")
        self.table = Table.new(self.game, seats, self.options, self.new_seed())
        self.table.speed = self.speed
        self.epochs = [0] * len(seats)
        self._after_move(self._legal_now())

    def reopen(self) -> None:
        """After a finished game, back to the room's lobby with the same seats."""
        if self.table is not None and self.table.over:
            self.table, self.epochs = None, []
            self.deliveries.views.clear()
            self.broadcast()

    def submit(self, move: Move) -> None:
        """The host's own move (a ``GameError`` says why it was refused)."""
        seat = self.members[self.me].seat
        if self.table is None or seat is None:
            raise BadSetup("You have no seat in a game.")
        self._play(seat, move)

    def _play(self, seat: int, move: Move, delay: float = 0.0) -> None:
        assert self.table is not None
        before = self._legal_now()
        self.table.submit(seat, move, self.now(), delay)
        self._after_move(before)

    def _after_move(self, before: list[list[Move]]) -> None:
        assert self.table is not None
        self.table.advance(self.now())
        version = self.table.state.version
        for seat, moves in enumerate(self._legal_now()):
            if moves != before[seat]:
                self.epochs[seat] = version
        self.broadcast()

    def advance(self) -> bool:
        """Let the table's clock run (bots' throws, a window's close); True if it moved."""
        if self.table is None:
            return False
        before = self._legal_now()
        if not self.table.advance(self.now()):
            return False
        self._after_move(before)
        return True

    def next_wakeup(self) -> float | None:
        """When ``advance`` next has something to do, on the host's clock."""
        return self.table.next_wakeup() if self.table is not None else None

    def _legal_now(self) -> list[list[Move]]:
        """Each seat's legal moves, with the time limits of timed moves left out.

        A throw's allowed times move with every landing; that is not a change of
        what the seat may do, so it must not make a throw in flight stale.
        """
        assert self.table is not None
        state = self.table.state
        spec = engine.game_of(state).spec
        timed = spec.timed_moves
        return [
            [
                m if m["type"] not in timed else {**m, "at": None}
                for m in engine.legal_moves(state, s)
            ]
            for s in range(len(self.table.seats))
        ]

    # -- absent players --------------------------------------------------------------

    def absent(self, due: bool = False) -> list[int]:
        """Seats whose player is away long enough for a bot to be offered for them (with
        ``due``: for a bot to take over by itself): ``absence.absent_seats``."""
        return absent_seats(self.members.values(), self.table, self.patience, self.now(), due)

    def cover(self, seat: int) -> None:
        """Let a bot play ``seat`` until its player is back (``BadSetup`` if they are here)."""
        if seat not in self.absent():
            raise BadSetup("That player is here, or their seat is already played by a bot.")
        assert self.table is not None
        before = self._legal_now()
        self.table.cover(seat, COVER_LEVEL)
        self._after_move(before)

    def set_patience(self, patience: str) -> None:
        """How long absent players are waited for (a key of ``PATIENCE``)."""
        known = patience_of(patience)
        if known is None:
            raise BadSetup(f"There is no waiting time called {patience!r}.")
        self.patience = known

    # -- outgoing ------------------------------------------------------------------

    def view_for(self, member_id: str) -> dict[str, Any] | None:
        """What a member may see of the game (a spectator's view without a seat)."""
        if self.table is None:
            return None
        return self.table.view(self.members[member_id].seat)

    def broadcast(self) -> None:
        """Send every connected guest what changed for them, once the room is backed up.

        Each heir's backup goes with its view, in one message (``backed``), or just
        before it on the same ordered connection, so no heir hears of a move it could
        not carry the room on from (``Backups``); a backup whose heir's view did not
        change goes alone.
        """
        backups = {peer: msg for peer, msg, _ in self._backups_due()}
        lobby = self.lobby()
        for member in list(self.members.values()):
            peer = member.peer
            if peer is None or peer == LOCAL:
                continue
            self.deliveries.lobby(member, lobby, self.table, again=False)
            if self.table is not None:
                self._send_view(member, backup=backups.get(peer))

    def _backups_due(self) -> list[Outgoing]:
        """A backup for every seated guest to carry the room on from, if one is due
        (``Backups``): the caller sends each with, or before, its heir's view."""
        if not self.backups.on or self.table is None:
            return []
        order = [(m.id, m.peer, m.seat, m.key) for m in self.members.values()]
        heirs = [h for h in heirs_of(order, self.me) if h[1] != LOCAL]
        seats = {m.id: m.seat for m in self.members.values() if m.seat is not None}
        covered = tuple(s.covered for s in self.table.seats)
        named = [
            (m.id, m.key)
            for m in self.members.values()
            if m.id != self.me and m.seat is not None and m.key is not None
        ]
        state = self.table.state
        return self.backups.make(
            state,
            covered,
            heirs,
            seats,
            lambda: self.to_json(history=False),
            self.epoch,
            named,
            self.deliveries.backup_log,
        )

    def tick(self) -> None:
        """Tell every guest the host is here and which version is current.

        A guest that has fallen behind asks for a snapshot; one that hears nothing
        for a while knows the host is away.
        """
        if self.superseded:
            return  # its page sits down as a guest: it speaks as the host no more
        self.beats += 1
        self.standing.beat(self.beats, company(self.members.values(), self.me))
        wait = SUCCESSION_MS[self.patience]
        self.heard = {p: t for p, t in self.heard.items() if self.now() - t < wait}
        for seat in self.absent(due=True):
            self.cover(seat)
        version = self.table.state.version if self.table is not None else 0
        at = max(0, round(self.now()))
        for member in self.members.values():
            if member.peer is not None and member.peer != LOCAL:
                member.ticks = [*member.ticks[-(TICKS_REMEMBERED - 1) :], at]
                tick: Tick = {"t": "tick", "version": version, "at": at, "epoch": self.epoch}
                self._send(member.peer, tick, None)
        known = {m.peer for m in self.members.values()}
        for peer in sorted(self.peers - known):
            self._send(peer, self._greeting(), None)  # a greeting may be lost

    def _send_view(
        self, member: Member, snapshot: bool = False, backup: BackupNews | None = None
    ) -> None:
        """What changed of the member's view, with its backup (``Deliveries.view``)."""
        self.deliveries.view(member, self.table, self.deal, snapshot, backup)

    def _reject(self, peer: str | None, code: str, reason: str, intent: str | None = None) -> None:
        if peer is not None and peer != LOCAL:
            msg: Rejected = {"t": "rejected", "code": code, "reason": reason, "id": intent}
            self._send(peer, msg, None)

    def _send(self, peer: str, msg: HostMessage, seat: int | None, text: str | None = None) -> None:
        """Through the one door out (``Outbox``; ``text``: ``msg`` already encoded by
        it). A message dropped for a leak makes the view last sent to that peer
        forgotten, so its next view goes whole (and is checked whole) rather than as a
        diff against a view it never got."""
        self.deliveries.send(peer, msg, seat, self.table, text)
