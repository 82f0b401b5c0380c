"""A room on this device: as its host (the authority) or as a guest. Pure, no ``js``.

The page glue feeds it transport events (a peer joined or left, a message)
through methods, and the player's actions through ``act``; it answers with
HTML and with typed effects. Before the game starts it shows the room's lobby;
during the game the same ``TableController`` as a local table draws it, over
a ``HostAuthority`` or a ``GuestAuthority``. The host's room and a guest's seat
token are kept in storage, so a reload of either side picks the room up again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypedDict

from quandary.engine import BadSetup, CorruptState, GameError
from quandary.net.chat import REACTIONS, ChatLog
from quandary.net.guest import RoomGuest
from quandary.net.host import RoomHost
from quandary.net.link import RoomLink
from quandary.net.lobby import RoomLobby
from quandary.net.saved import RoomJson
from quandary.net.succession import Deal, DealJson, take_over
from quandary.table import BotSpeed

from .actions import (
    TABLE_ACTIONS,
    Action,
    ClearField,
    CopyText,
    Effect,
    SaveRoom,
    ShareLink,
    UnknownAction,
)
from .authority import GuestAuthority, HostAuthority
from .html import EMPTY, Markup, Remembered, attrs, markup
from .own_packs import GAME as OWN_GAME
from .own_packs import PackDesk
from .render.chat import chat_panel, reaction_bubble
from .render.lobby import chosen
from .render.room import (
    absent_offers,
    deal_check,
    presence,
    room_lobby,
    share_box,
    status_line,
)
from .render.table import OUT_OF_ROOM
from .storage import Storage
from .table_controller import DAMAGED, MoveAhead, TableController

CHAT_ACTIONS = frozenset({Action.CHAT_SEND, Action.CHAT_REACT, Action.CHAT_OPEN})
KEY_TEXT = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""A key as a room record keeps it: base64url, at most 128 characters (an Ed25519
key's PKCS#8 is 64)."""
SEARCH_PATIENCE = 8
"""Timer beats (2 s each) before a guest is told nobody has answered yet."""
WRONG_SECRET = (
    "Cannot join this room: the link's secret does not match. "
    "Ask for the link again, or create a new room."
)
UNREACHABLE = (
    "The room is there, but this device cannot connect to the host's: a firewall or"
    " the network is in the way. The host can name a TURN server under Connection"
    " settings, create a new room and send you its link."
)
UNREACHABLE_EVEN_BY_TURN = (
    "The room is there, but this device cannot connect to the host's, not even"
    " through the room's TURN server. Ask the host to check that server's address,"
    " username and password."
)


class Signing(Protocol):
    """What the transport does with keys besides sending (static/js/room.entry.js)."""

    def become_host(self, key: str) -> None:
        """Sign everything from now on with ``key`` (a successor: its own device key)."""
        ...

    def trust(self, key: str) -> None:
        """Take messages signed with ``key`` as the host's (a successor this guest follows)."""
        ...

    def certify(self, text: str) -> None:
        """Sign a mandate with the key this device signs with; answered by the host's
        ``certified`` (net/succession.py, ``mandate_text``)."""
        ...

    def step_down(self) -> None:
        """Stop signing: another device holds the room now."""
        ...


class HostRecord(TypedDict):
    """What the host's device keeps of its room (``RoomController.persist``)."""

    role: Literal["host"]
    secret: str
    key: str | None
    host: RoomJson
    device: list[str] | None
    seen: int
    deal: DealJson | None


class GuestRecord(TypedDict):
    """What a guest's device keeps of a room it sits in: its seat's token, its key."""

    role: Literal["guest"]
    token: str
    name: str
    trusted: list[str]
    device: list[str] | None


def room_key(room: str) -> str:
    """Where this device keeps what it knows about a room."""
    return f"quandary.room.{room}"


def _kept_device(record: dict[str, Any]) -> tuple[str, str] | None:
    """The key pair this device used in a room before, if its record has one that
    reads as keys (a damaged one is dropped: the page makes a new pair)."""
    kept = record.get("device")
    if not isinstance(kept, list) or len(kept) != 2:
        return None
    public, private = kept
    if not all(isinstance(k, str) and KEY_TEXT.fullmatch(k) for k in (public, private)):
        return None
    return public, private


class RoomController:
    """One room, seen from this device."""

    def __init__(
        self,
        storage: Storage,
        new_seed: Callable[[], int],
        make_id: Callable[[], str],
        link: RoomLink,
        page: str,
        name: str,
        signing_key: str | None = None,
        now: Callable[[], float] = lambda: 0.0,
        speed: BotSpeed = "instant",
    ) -> None:
        """``speed``: how long the bots of a room this device hosts take over a move."""
        self.storage = storage
        self.desk: PackDesk | None = None
        """The own card packs of this device, which a host may choose for the game."""
        self.link = link
        self.url = f"{page.split('#')[0]}#{link.fragment()}"
        self.send: Callable[[str, str], None] | None = None
        self.error: str | None = None
        self.notice: str | None = None
        self.effects: list[Effect] = []
        self.beats = 0
        self._absent_shown: list[int] = []
        """The absent seats the host was last shown an offer for (the timer redraws on change)."""
        self.can_share = False
        self.signing: Signing | None = None
        self.new_seed, self.make_id, self.now = new_seed, make_id, now
        self.speed: BotSpeed = speed
        self.chat_open = False
        """Whether the player has the chat panel open (the page says when it changes)."""
        self.chat_seen = 0
        """The newest line shown with the panel open: later ones count as unread."""
        self._chat = Remembered()
        """The chat panel last drawn: most draws come with a move, not a line said."""
        create = signing_key is not None
        record = {} if create else self._stored()
        self.device: tuple[str, str] | None = _kept_device(record)
        """This device's own key pair (public, private): named in the order of
        succession, signs if this device succeeds. Made by the page when it first
        opened the room, then kept with the room (``opened``), so a page that closes
        and opens again is the heir its host's mandates name already."""
        seen = 0
        self.signing_key = signing_key
        """The host's private key (PKCS#8, base64url): only the room's creator has it."""
        if not create and record.get("role") == "host" and record.get("secret") == link.secret:
            key = record.get("key")
            self.signing_key = key if isinstance(key, str) and key else None
        host: RoomHost | None = None
        if self.signing_key is not None:
            host = RoomHost(self._send, make_id, new_seed, name, now)
            host.speed = speed
        if host is not None and not create:
            try:
                host.restore(record.get("host"))
                host.deal = Deal.from_json(record.get("deal"))
                seen = int(record.get("seen", 0))
            except (CorruptState, ValueError) as exc:
                host, self.signing_key = None, None
                self.error = f"This room's saved game could not be read: {exc}"
        authority: HostAuthority | GuestAuthority
        if host is not None:
            self.side: RoomHost | RoomGuest = host
            authority = HostAuthority(host, now)
        else:
            token = record.get("token") if record.get("role") == "guest" else None
            guest = RoomGuest(self._send, make_id, record.get("name") or name, token, now)
            self.side = guest
            authority = GuestAuthority(guest, now)
        self.table = TableController(authority, OUT_OF_ROOM, seen, announce_every_version=False)
        self.persist()

    @property
    def host(self) -> RoomHost | None:
        """This device's side of the room if it is the host (the authority)."""
        return self.side if isinstance(self.side, RoomHost) else None

    @property
    def guest(self) -> RoomGuest | None:
        """This device's side of the room if it is a guest."""
        return self.side if isinstance(self.side, RoomGuest) else None

    # -- storage -------------------------------------------------------------------

    def _stored(self) -> dict[str, Any]:
        raw = self.storage.get(room_key(self.link.room))
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        return data if isinstance(data, dict) else {}

    def persist(self) -> None:
        """Save the host's room or the guest's token; a full storage is reported, not fatal."""
        record: HostRecord | GuestRecord
        if self.host is not None:
            record = {
                "role": "host",
                "secret": self.link.secret,
                "key": self.signing_key,
                "host": self.host.to_json(),
                "device": list(self.device) if self.device is not None else None,
                "seen": self.table.seen,
                # Apart from the room (whose copy goes into the backups): see ``Deal``.
                "deal": self.host.deal.to_json() if self.host.deal is not None else None,
            }
        elif self.guest is not None and self.guest.token:
            record = {
                "role": "guest",
                "token": self.guest.token,
                "name": self.guest.name,
                "trusted": sorted(self.guest.trusted),
                "device": list(self.device) if self.device is not None else None,
            }
        else:
            return
        try:
            self.storage.set(room_key(self.link.room), json.dumps(record))
        except Exception:  # noqa: BLE001 - quota errors differ by browser
            self.notice = "This device's storage is full: the room is not saved. Play on."

    def _save_soon(self) -> None:
        """Saved when the action is handled, before the page sends or draws anything."""
        if SaveRoom() not in self.effects:
            self.effects.append(SaveRoom())

    # -- the transport ---------------------------------------------------------------

    def trusted_keys(self) -> tuple[str, ...]:
        """Keys the transport takes as the host's besides the link's, from the start:
        on a guest, the successor it followed before a reload. A host trusts no
        other key: a guest's device key is whatever that guest said it is."""
        if self.host is not None:
            return ()
        kept = self._stored().get("trusted")
        if not isinstance(kept, list):
            return ()
        keys = tuple(k for k in kept if isinstance(k, str) and 0 < len(k) <= 64)[-1:]
        if self.guest is not None:
            self.guest.trusted = set(keys)
        return keys

    def opened(
        self,
        send: Callable[[str, str], None],
        can_share: bool,
        signing: Signing | None = None,
        device: tuple[str, str] | None = None,
    ) -> None:
        """The transport is open: how to reach a peer, its key work, this device's keys
        (the pair kept with the room, if there is one, rather than the page's new one)."""
        self.send = send
        self.can_share = can_share
        self.signing = signing
        self.device = self.device or device
        if self.host is not None and signing is not None:
            self.host.backups.on = True
            self.host.backups.certify = signing.certify
        if self.guest is not None and signing is not None:
            self.guest.trust = signing.trust
        if self.guest is not None and device is not None:
            self.guest.set_key(device[0])

    def failed(self, reason: str) -> None:
        """The transport could not be opened (offline, a refused relay): say why."""
        self.error = reason

    def _send(self, peer: str, text: str) -> None:
        if self.send is not None:
            self.send(peer, text)

    def on_join(self, peer: str) -> None:
        """A peer arrived."""
        self.side.on_join(peer)
        self._save_soon()

    def on_leave(self, peer: str) -> None:
        """A peer left."""
        self.side.on_leave(peer)

    def on_message(
        self, peer: str, text: str, from_host: bool = False, certified: str | None = None
    ) -> None:
        """A message arrived from a peer (``from_host``: its host signature verified;
        ``certified``: signed by an heir's key that mandates from the room's key name)."""
        self.side.on_message(peer, text, from_host, certified)
        if self.host is not None and self.host.superseded:
            self._step_down()
        self._carry_on()
        self.table.follow()
        self._save_soon()

    def on_round_trip(self, peer: str, rtt: float) -> None:
        """The browser measured a connection's round trip: the host caps latency credit by it."""
        if self.host is not None:
            self.host.on_transport_rtt(peer, rtt)

    def on_join_error(self, detail: str) -> None:
        """The transport could not join a room this guest is still looking for: say why.

        Trystero reports two things here. "could not connect to peer … after
        exchanging SDP": the devices found each other through the relays, but no
        network path joined them (a strict firewall, or a TURN server that cannot
        be reached or refuses the credential). Anything else: the link's secret
        does not open the host's offers. Telling a firewall apart from a wrong
        secret matters: only the first is fixed by a TURN server.
        """
        if self.guest is None or self.guest.status != "searching":
            return
        if "could not connect" not in detail:
            self.error = WRONG_SECRET
        elif self.link.turn is None:
            self.error = UNREACHABLE
        else:
            self.error = UNREACHABLE_EVEN_BY_TURN

    def on_timer(self) -> bool:
        """Every two seconds: greet again while searching, remind guests of the version.

        Returns whether anything this device shows changed, so the page redraws
        only then (the timer runs all game long).
        """
        if self.host is not None:
            shown = self.host.absent()
            self.host.tick()
            return self.host.absent() != shown or shown != self._absent_shown
        assert self.guest is not None
        before = (self.guest.status, self.notice)
        self.guest.beat()
        self._carry_on()
        if self.guest is None:
            return True  # this device carries the room on from now on
        self.beats = 0 if self.guest.host else self.beats + 1
        if self.guest.status == "searching" and self.beats >= SEARCH_PATIENCE:
            self.notice = (
                "Nobody has answered yet. The host may be offline: keep this page open, "
                "it keeps trying."
            )
        elif self.guest.status == "joined" and self.notice and "Nobody" in self.notice:
            self.notice = None
        return (self.guest.status, self.notice) != before

    # -- succession (net/succession.py) ---------------------------------------------

    def _carry_on(self) -> None:
        """This device is the successor and has gathered the heirs' parts: it becomes
        the room's host, signing with its own key, and the game goes on."""
        guest = self.guest
        if guest is None or guest.ready is None or guest.member is None:
            return
        if self.signing is None or self.device is None:
            return
        takeover = guest.ready
        host = RoomHost(self._send, self.make_id, self.new_seed, guest.name, self.now)
        host.speed = self.speed
        try:
            self.signing.become_host(self.device[1])  # the greetings below go out signed
            ran_on = guest.ran_on(takeover.backup)
            take_over(host, takeover, guest.member, set(guest.peers), ran_on, guest.token)
        except CorruptState as exc:
            self.signing.step_down()
            guest.ready = None
            guest.backups = [b for b in guest.backups if b.serial != takeover.backup.serial]
            guest.claims.pop(takeover.backup.serial, None)
            self.notice = f"This device could not take the host's place ({exc.message})."
            return
        host.backups.on = True
        host.backups.certify = self.signing.certify
        host.chat.carry_on(guest.chat)  # what was said before goes on being shown
        self.side, self.signing_key = host, self.device[1]
        self.table = TableController(
            HostAuthority(host, self.now),
            OUT_OF_ROOM,
            self.table.seen,
            announce_every_version=False,
        )
        self.table.follow()
        self.notice = (
            "The host left, so the room now runs on this device: keep this page open."
            " A bot plays for the host until they are back."
        )
        self.persist()

    def _step_down(self) -> None:
        """Another device carried the room on while this host was away: sit down as a guest."""
        host = self.host
        assert host is not None
        if self.signing is not None:
            self.signing.step_down()
        me = host.members[host.me]
        guest = RoomGuest(self._send, self.make_id, me.name, me.token, self.now)
        self.side, self.signing_key = guest, None
        if self.signing is not None:
            guest.trust = self.signing.trust
        if host.successor_key is not None:
            guest.follow(host.successor_key)  # the successor it stepped down for
        if self.device is not None:
            guest.key = self.device[0]  # said in the hello below: it may succeed in turn
        guest.chat.lines = list(host.chat.log.lines)
        for peer in sorted(host.peers):
            guest.on_join(peer)
        self.table = TableController(
            GuestAuthority(guest, self.now), OUT_OF_ROOM, 0, announce_every_version=False
        )
        self.notice = (
            "While this page was away, another player's device took over the room."
            " You are back at your seat as a guest."
        )
        self.persist()

    def on_clock(self) -> bool:
        """The host's table clock ran: bots' throws, a window closing. True if it moved.
        On a guest: the wait for a host that left is over."""
        gone = self.chat.expire(self.now())  # a reaction's two seconds are over
        if self.guest is not None:
            before = self.guest.status
            self.guest.wake()
            self._carry_on()
            return gone or self.guest is None or self.guest.status != before
        if not self.table.authority.advance():
            return gone
        self.table.follow()
        self._save_soon()
        return True

    def next_wakeup(self) -> float | None:
        """When ``on_clock`` next has work: a host's table clock, or a guest's wait for
        a host that left."""
        times = [self.chat.next_wakeup()]
        if self.guest is not None:
            times.append(self.guest.next_wakeup())
        else:
            times.append(self.table.authority.next_wakeup())
        return min((t for t in times if t is not None), default=None)

    # -- state seen from here --------------------------------------------------------

    @property
    def lobby(self) -> RoomLobby | None:
        """The room's lobby as this device knows it."""
        if self.host is not None:
            return self.host.lobby()
        assert self.guest is not None
        return self.guest.lobby

    @property
    def chat(self) -> ChatLog:
        """The room's chat as this device shows it."""
        if self.host is not None:
            return self.host.chat.log
        assert self.guest is not None
        return self.guest.chat

    def my_member(self) -> str | None:
        """This device's member id."""
        if self.host is not None:
            return self.host.me
        assert self.guest is not None
        return self.guest.member

    def my_name(self) -> str:
        """This device's player name."""
        if self.host is not None:
            return self.host.members[self.host.me].name
        assert self.guest is not None
        return self.guest.name

    # -- actions ---------------------------------------------------------------------

    def act(self, action: Action, data: dict[str, str]) -> None:
        """Handle a click or field change that belongs to the room."""
        if action in CHAT_ACTIONS:
            self._chat_act(action, data)
            return
        self.notice = None
        try:
            if action in TABLE_ACTIONS:
                self.table.act(action, data)
            elif action is Action.FIELD:
                self._field(data)
            elif action is Action.ROOM_SIT:
                self._sit(int(data["seat"]))
            elif action is Action.ROOM_STAND:
                self._sit(None)
            elif action is Action.ROOM_START:
                self._start()
            elif action is Action.COPY_LINK:
                self.effects.append(CopyText(self.url, "room-link"))
                self.notice = "Link copied. Send it to your friends."
            elif action is Action.SHARE_LINK:
                self.effects.append(ShareLink("Quandary room", self.url))
            elif action is Action.COVER_SEAT and self.host is not None:
                self.host.cover(int(data["seat"]))
                self.table.follow()
            elif action is Action.ROOM_REMOVE and self.host is not None:
                self.host.remove(data.get("member", ""))
                self.table.follow()
            elif action is Action.ROOM_MUTE and self.host is not None:
                self.host.mute(data.get("member", ""), data.get("muted") == "true")
            else:
                raise UnknownAction(f"A room has no action {action.value!r}.")
        except (BadSetup, GameError) as exc:
            self.notice = exc.message
        self.persist()

    def _field(self, data: dict[str, str]) -> None:
        field, value = data.get("field", ""), data.get("value", "")
        if field == "room-name":
            if value.strip() and self.host is not None:
                self.host.rename_me(value.strip())
            elif value.strip() and self.guest is not None:
                self.guest.rename(value.strip())
        elif field.startswith("room-") and self.host is not None:
            self._host_field(field, value, data)

    def _host_field(self, field: str, value: str, data: dict[str, str]) -> None:
        host = self.host
        assert host is not None
        if field == "room-game":
            host.configure(game=value)
            if self.desk is not None:
                self.desk.chosen = []  # a game chosen again starts without own packs
        elif field == "room-patience":
            host.set_patience(value)
        elif field == "room-locked":
            host.lock(data.get("checked") == "true")
        elif field == "room-seat-count":
            host.set_seat_count(int(value))
        elif field == "room-seat-kind":
            kind, _, level = value.partition(":")
            host.set_seat_kind(int(data["seat"]), kind, level or "heuristic")
        elif field == "room-option":
            host.configure(options={**host.options, data["key"]: data.get("checked") == "true"})
        elif field == "room-choice":
            host.configure(options={**host.options, data["key"]: value})
        elif field in ("room-own-pack", "room-own-use"):
            desk = self._desk()
            desk.change(field.removeprefix("room-"), data)
            host.configure(options={**host.options, "own": desk.option()})
        elif field == "room-multi":
            values = [v for v in chosen(host.options, data["key"]) if v != data["value"]]
            if data.get("checked") == "true":
                values.append(data["value"])
            host.configure(options={**host.options, data["key"]: values})

    def _chat_act(self, action: Action, data: dict[str, str]) -> None:
        """A chat action: its refusals are the chat's own note, and the room's notice
        (which answers the player's last room action, or says the room changed
        hands) stays, as the panel opening by itself must not wipe it."""
        if action is Action.CHAT_SEND:
            self._say(data.get("text", ""))
        elif action is Action.CHAT_REACT:
            self._react(data.get("emoji", ""))
        else:
            self.chat_open = data.get("open") == "true"

    def _say(self, text: str) -> None:
        """Send a chat line; the field is emptied only once it went (``ClearField``)."""
        if self.host is not None:
            before = self.host.chat.serial
            self.host.say(text)
            sent = self.host.chat.serial != before
        else:
            assert self.guest is not None
            sent = self.guest.say(text)
        if sent:
            self.effects.append(ClearField("chat-text", text))

    def _react(self, emoji: str) -> None:
        if emoji not in REACTIONS:
            self.chat.note = "There is no such reaction."
        elif self.host is not None:
            self.host.react(emoji)
        elif self.guest is not None:
            self.guest.react(emoji)

    def _sit(self, seat: int | None) -> None:
        if self.host is not None:
            reason = self.host.sit(self.host.me, seat)
            if reason:
                self.notice = reason
        elif self.guest is not None:
            self.guest.sit(seat)

    def _start(self) -> None:
        if self.host is None:
            raise BadSetup("Only the host starts the game.")
        self.host.start()
        self.table.seen = 0
        self.table.follow()

    # -- drawing ---------------------------------------------------------------------

    def render(self) -> Markup:
        """The room screen: lobby before the game, the table during it."""
        role = "host" if self.host is not None else "guest"
        status = self.guest.status if self.guest is not None else "joined"
        rejected = self.guest.notice if self.guest is not None else None
        head = Markup(
            '<section class="room" aria-label="Room">'
            '<div class="table-head"><p class="game-title">Room</p>'
            '<button type="button" class="quiet" data-action="leave-room" id="leave-room">'
            "Leave the room</button></div>"
        ) + status_line(
            role,
            status,
            self.error,
            self.notice or rejected,
            self.guest.handover() if self.guest is not None else None,
            self._names(),
        )
        if self.error or status == "removed":
            return head + _new_room_offer() + Markup("</section>")
        if self.guest is not None and self.guest.deal_verdict is not None:
            head += deal_check(self.guest.deal_verdict)
        if self.lobby is not None and status in ("joined", "away"):
            # Kept while the host is away: what was said stays readable, and the
            # panel stays as the player left it (open or closed).
            head += self._chat_panel()
        try:
            body = self._body()
        except DAMAGED:
            if self.host is not None:
                raise  # drawn from this device's own room: a bug the tests must see
            body = Markup(
                '<p class="form-error" role="alert">The room cannot be shown: what arrived'
                " for it is damaged. It will be shown again when the host sends it anew.</p>"
            )
        return head + body + Markup("</section>")

    def ahead(self) -> MoveAhead | None:
        """What the page needs to send this guest's move itself at the click
        (``TableController.ahead``); None for a host, or with no table to move at."""
        if self.error or self.guest is None or self.lobby is None:
            return None
        return self.table.ahead()

    def _chat_panel(self) -> Markup:
        """The reactions and the chat, with the lines that came while it was closed.

        Drawing it with the panel open is what reads the lines: the badge counts
        those after the newest line drawn that way."""
        chat, me = self.chat, self.my_member()
        newest = chat.lines[-1].n if chat.lines else 0
        if self.chat_open or newest < self.chat_seen:  # open, or a new host's lines
            self.chat_seen = newest
        unread = sum(1 for line in chat.lines if line.n > self.chat_seen and line.member != me)
        lines = tuple(chat.lines)  # frozen lines: a key that no later line changes
        return self._chat.get(
            (lines, me, unread, chat.note, chat.muted),
            lambda: chat_panel(lines, me, unread, chat.note, chat.muted),
        )

    def _bubbles(self, started: bool) -> tuple[dict[int, Markup], dict[str, Markup]]:
        """Reactions shown now: by seat on the scoreboard during a game, else by name."""
        by_seat: dict[int, Markup] = {}
        by_member: dict[str, Markup] = {}
        for reaction in self.chat.live(self.now()):
            if started and reaction.seat is not None:
                by_seat[reaction.seat] = reaction_bubble(reaction)
            else:
                by_member[reaction.member] = reaction_bubble(reaction)
        return by_seat, by_member

    def _names(self) -> dict[str, str]:
        """Member id → name, from the lobby as this device knows it (the host's word)."""
        lobby = self.lobby
        return {m["id"]: m["name"] for m in lobby["members"]} if lobby is not None else {}

    @property
    def game_shown(self) -> str | None:
        """The room's game, once its lobby is known: its stylesheet is linked while the
        room gathers, ready for the table (read from the authority, not from a view,
        which the host would compute again on every draw)."""
        return self.table.authority.game if self.lobby is not None else None

    def _own_cards(self, lobby: RoomLobby) -> tuple[Markup, str | None]:
        """The Game of Dilemmas' own packs in the room's lobby (the host chooses its own)."""
        if lobby["game"] != OWN_GAME:
            return EMPTY, None
        from .render.own_cards import room_own_cards

        return room_own_cards(lobby, self._desk() if self.host is not None else None)

    def _desk(self) -> PackDesk:
        """This device's own packs, read on first use."""
        if self.desk is None:
            self.desk = PackDesk(self.storage)
            if self.host is not None:
                # A room reloaded: the packs its game holds are this device's, ticked.
                own = self.host.options.get("own") or {}
                held = own.get("packs", [])
                self.desk.chosen = [i for i, p in self.desk.packs.items() if p in held]
                self.desk.use = own.get("use", "mix")
        return self.desk

    def _body(self) -> Markup:
        """The room's lobby before the game, its table during it."""
        lobby = self.lobby
        if lobby is None:
            return Markup('<p class="waiting">Waiting for the host to let you in…</p>')
        view = self.table.view()
        muted = self.host.chat.muted if self.host is not None else set()
        by_seat, by_member = self._bubbles(started=view is not None)
        self.table.reactions = by_seat
        if view is None:
            own, blocked = self._own_cards(lobby)
            body = room_lobby(
                lobby,
                self.my_member(),
                self.host is not None,
                self.my_name(),
                own,
                blocked,
                muted,
                by_member,
            )
            if self.host is not None:
                body = share_box(self.url, self.can_share) + body
            return body
        offers = Markup()
        if self.host is not None:
            absent = self.host.absent()
            self._absent_shown = absent
            names = view.get("names", [])
            offers = absent_offers({seat: names[seat] for seat in absent if seat < len(names)})
        # The version, phase and end mark which state is drawn (tests and benches wait on them).
        phase = view.get("phase")
        return markup(
            '<div class="game"{}>{}{}{}</div>',
            attrs(
                data_version=view.get("version"),
                data_phase=phase if isinstance(phase, str) else None,
                data_over="true" if view.get("result") is not None else None,
            ),
            presence(lobby, self.host is not None, muted, by_member),
            offers,
            self.table.render(),
        )

    def screen_key(self) -> tuple[str, str]:
        """What the screen shows, for announcing changes to screen readers."""
        if self.error:
            return "room-error", self.error
        if self.table.view() is None:
            return "room-lobby", "Room lobby."
        return self.table.screen_key()


def _new_room_offer() -> Markup:
    return Markup(
        '<p class="actions"><button type="button" class="primary" data-action="create-room" '
        'id="create-room">Create a new room</button> <button type="button" '
        'data-action="leave-room">Back to the lobby</button></p>'
    )
