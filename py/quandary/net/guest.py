"""A guest in a room: greets the host, sends intents, and keeps its own view in step.

The guest believes only messages its transport verified as signed with the
room's host key (the key in the link) and addressed to this connection: any
other peer, whatever it sends, is ignored. It speaks first to nobody; once the
host has spoken it greets that peer alone, so its secret seat token reaches
only the verified host. Updates apply only on top of the exact version they
were made from; anything else (a lost or reordered message) makes the guest
ask for a snapshot, so it always converges to what the host would show it.
Its part in a succession, once the host is gone, is ``HeirRole`` (net/heir.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypedDict

from quandary import catalog
from quandary.engine import BadSetup, BadView, Move
from quandary.engine.typed import Changed

from ..text import clean_name
from . import view_diff
from .chat import MUTED, ChatLines, ChatLog, Line, Window, clean_chat, slow_down
from .heir import HeirRole
from .lobby import RoomLobby, read_lobby
from .messages import MAX_LOG, ProtocolError, encode
from .succession import BACKUPS_KEPT, Backup
from .wire import (
    BackupNews,
    GuestMessage,
    Hello,
    HostMessage,
    Muted,
    PeerMessage,
    ReactionNews,
    Snapshot,
    Update,
    read_host,
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
ISSUED_KEPT = 8
"""``RoomGuest.ahead`` ids remembered with the connection each named: a click on a
screen drawn a few views ago still names one of them."""
HELLO_AGAIN_MS = 1_500
"""Less than a timer beat (2 s): a host that greets us again a beat after our hello
did not get it (``RoomGuest._hello_lost``)."""


class Ahead(TypedDict):
    """Where and as what a move made on the screen shown now travels (``RoomGuest.ahead``)."""

    peer: str
    id: str
    version: int


class RoomGuest(HeirRole):
    """One device's connection to a room it did not create."""

    def __init__(
        self,
        send: Callable[[str, str], None],
        make_id: Callable[[], str],
        name: str,
        token: str | None = None,
        now: Callable[[], float] = lambda: 0.0,
    ) -> None:
        super().__init__()
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
        self.sizes: view_diff.Sizes = {}
        """The JSON length of each field of ``view`` (bounded: ``view_diff.apply``)."""
        self.record: tuple[int, str] | None = None
        """The finished game's record the host sent, and the version it ended at."""
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
        self.key: str | None = None
        """This device's public key, named in the order of succession (``set_key``)."""
        self.trust: Callable[[str], None] = lambda key: None
        """Tells the transport to take messages signed with ``key`` as the host's: the
        successor's, once this guest has itself waited out the host."""
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
        self._ahead: tuple[dict[str, Any], str] | None = None
        """The view and intent id of the last ``ahead``: one id per view shown."""
        self._issued: dict[str, str] = {}
        """The last ``ahead`` ids, each with the host connection it named."""

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
        """Hold a backup of the room and this guest's own part.

        Its game log is rebuilt from the backup it names (``LogNews``): one this guest
        does not hold (it was refused, or the guest reloaded) makes this backup useless
        too, and the host is asked for the table, which has it send the next backup's
        log whole."""
        if msg["epoch"] != self.epoch:
            return
        news = msg["log"]
        if news["base"] == 0:
            held: tuple[Any, ...] | None = () if news["skip"] == 0 else None
        else:
            base = next(
                (b for b in self.backups if (b.epoch, b.serial) == (msg["epoch"], news["base"])),
                None,
            )
            held = base.log[news["skip"] :] if base and news["skip"] <= len(base.log) else None
        if held is None or len(held) + len(news["lines"]) > MAX_LOG:
            self.sync()
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
            log=(*held, *news["lines"]),
        )
        self.backups = [*self.backups[-(BACKUPS_KEPT - 1) :], backup]

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
                self.sizes = view_diff.sizes(msg["view"])
            return
        if self.view is None or msg["base"] != self.version:
            if self.version is None or msg["version"] > self.version:
                self.sync()
            return
        applied = view_diff.apply(self.view, self.sizes, msg["set"], msg["add"], msg["drop"])
        if applied is None:
            self.sync()  # it moved lines this view does not hold, or too many: all of it
        elif _drawable(applied[0], view_diff.changed(msg["set"], msg["add"])):
            self.version, (self.view, self.sizes) = msg["version"], applied

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
        if not self._can_send():
            return None
        assert self.host is not None and self.version is not None
        intent = self.make_id()
        self._send(self.host, {"t": "intent", "id": intent, "version": self.version, "move": move})
        return intent

    def ahead(self) -> Ahead | None:
        """The intent a move made on the view shown now goes as, for the page to send
        the moment the player clicks (None while nothing could be sent).

        The engine's answer to a click reaches the page only after the page's next
        frame (about 12 ms in Chromium, which draws before it reads a worker's message
        after input): a page that sends the intent itself saves that on every move.
        The id stays the same for one view, so a second click on it is the same
        intent, played at most once by the host; a new view gets a new id.
        """
        if self.stopped or self.host is None or self.version is None or self.view is None:
            return None
        kept = self._ahead
        if kept is None or kept[0] is not self.view or self._issued.get(kept[1]) != self.host:
            kept = self._ahead = (self.view, self.make_id())
            self._issued[kept[1]] = self.host
            while len(self._issued) > ISSUED_KEPT:
                del self._issued[next(iter(self._issued))]  # the oldest
        return {"peer": self.host, "id": kept[1], "version": self.version}

    def sent_ahead(self, intent: str) -> bool | None:
        """The page sent ``intent`` itself (``ahead``): what ``submit`` does, but the
        sending. True if it went to the host; False if to a connection that is no longer
        the host's (the host came back on a new one between the screen drawn and the
        click): the move must be submitted again. None, with the notice saying why,
        if nothing can be sent now."""
        if not self._can_send():
            return None
        return self._issued.get(intent) == self.host

    def _can_send(self) -> bool:
        if self.stopped:
            self.notice = REPLACED if self.status == "replaced" else self.notice
            return False
        if self.host is None or self.version is None:
            self.notice = "The host is away: your move was not sent. Try again when it is back."
            return False
        self.notice = None
        return True

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


def _drawable(view: dict[str, Any], changed: Changed | None = None) -> bool:
    """Whether a view from the host is sound (its header, and its game's own part where
    the game declares it as types): a damaged one is not kept. ``changed``: what an
    update set anew, the only part not checked already in the view it was applied to."""
    try:
        catalog.read_view(view, changed)
    except (BadView, BadSetup):
        return False
    return True
