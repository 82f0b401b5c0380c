"""The engine's side of the page: one message in, the page's work out.

Python runs in PyScript's worker (``py/main.py``, through ``quandary.web.engine``),
so the page's main thread never freezes while Pyodide boots or a bot thinks. The main thread
(``static/js/app.entry.js``) keeps what only it can touch: the DOM, the storage,
the room's WebRTC transport and its keys, the clipboard. Everything that crosses
between them is JSON text: a message from the page goes in through
``Bridge.handle``, and what comes back is the list of things the page must do,
in order (store these keys, send this to that peer, draw this screen).

This module is pure: it runs the same under plain pytest as in the worker, so
the whole exchange is tested without a browser.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from typing import Any

from quandary import catalog, games  # noqa: F401 - games: registers every game
from quandary.engine import BadSetup
from quandary.web.actions import (
    ClearField,
    CloseRoom,
    CopyText,
    DownloadText,
    Effect,
    MakeHostKey,
    MakeReplayLink,
    OpenRoom,
    SaveRoom,
    SetHash,
    ShareLink,
)
from quandary.web.controller import Controller
from quandary.web.html import Markup, markup
from quandary.web.table_controller import MoveAhead

Message = dict[str, Any]

OFFLINE = (
    "You are offline: rooms need a network connection. Games against bots"
    " and on one device work offline."
)

NO_WEBRTC = "quandary:no-webrtc"
"""The room's failure when the browser has no WebRTC (static/js/room.entry.js throws it)."""
NO_WEBRTC_TEXT = (
    "This browser cannot open or join rooms: it has no WebRTC, which rooms need to"
    " connect devices. Open the room's link in Firefox, Chrome, Edge or Safari."
    " Games against bots and on one device work here."
)


class MirrorStorage:
    """The page's ``localStorage``, mirrored in the worker (which has none).

    Reads answer from the copy the page sent at start; writes change the copy at
    once and are journaled for the page, which applies them in order. The page
    may still refuse one (a full quota): it then says what the key really holds,
    and ``refused`` puts the copy back in line.
    """

    def __init__(self, items: dict[str, str]) -> None:
        self.items = dict(items)
        self.writes: list[tuple[str, str | None]] = []
        self.unsure: set[str] = set()
        """Keys whose write the page refused: what it holds there may since have been
        changed by a write journaled before the refusal came back, so the next write
        of one goes to the page even if the copy holds the same."""

    def get(self, key: str) -> str | None:
        """The stored text, or None."""
        return self.items.get(key)

    def set(self, key: str, value: str) -> None:
        """Store text (the page writes it after this message), unless the key holds it.

        A guest saves its seat on every message the room brings, and its record
        rarely changes: each write the page made of it anyway cost its main thread a
        ``localStorage.setItem`` (about a millisecond on two busy cores) before
        every move could be drawn. The copy is what the page holds once it has
        written the journal in order, so a write of what the copy holds changes
        nothing there (but for a key whose write was refused: ``unsure``).
        """
        if key not in self.unsure and self.items.get(key) == value:
            return
        self.unsure.discard(key)
        self.items[key] = value
        self.writes.append((key, value))

    def remove(self, key: str) -> None:
        """Forget a key."""
        if self.items.pop(key, None) is not None:
            self.writes.append((key, None))

    def keys(self) -> list[str]:
        """Every stored key."""
        return list(self.items)

    def take_writes(self) -> list[tuple[str, str | None]]:
        """The writes the page has not been told about yet, oldest first."""
        writes, self.writes = self.writes, []
        return writes

    def refused(self, key: str, value: str | None) -> None:
        """The page could not store ``key``: it held ``value`` there, so the copy does too
        (until the next write of the key, which goes to the page whatever it is)."""
        self.unsure.add(key)
        if value is None:
            self.items.pop(key, None)
        else:
            self.items[key] = value


def new_seed() -> int:
    """A 53-bit game seed from the operating system's (in the browser, WebCrypto's) randomness."""
    import secrets  # with its hashing modules, only once a game or room needs it

    return secrets.randbits(53)


def make_id() -> str:
    """128 random bits, base64url: room, member and save names nobody can guess."""
    import secrets

    return secrets.token_urlsafe(16)


class OutboxSigning:
    """The room transport's key work (``Signing``), asked of the page as messages."""

    def __init__(self, post: Callable[[Message], None]) -> None:
        self.post = post

    def become_host(self, key: str) -> None:
        """Sign from now on: this device carries the room on."""
        self.post({"t": "become-host", "key": key})

    def trust(self, key: str) -> None:
        """Take messages signed with ``key`` as the host's from now on."""
        self.post({"t": "trust", "key": key})

    def certify(self, text: str) -> None:
        """Sign a mandate; the page answers with a ``certified`` room event."""
        self.post({"t": "certify", "text": text})

    def step_down(self) -> None:
        """Stop signing: another device holds the room."""
        self.post({"t": "step-down"})


class Bridge:
    """One controller, driven by the page's messages."""

    def __init__(self, start: Message) -> None:
        """``start`` is the page's first message: its storage, address, relays, clock."""
        self.storage = MirrorStorage(_strings(start.get("storage")))
        self.moment = float(start.get("now", 0.0))
        """The page's ``performance.now()`` when the message being handled was sent: the
        table's timed windows run on the page's clock, where throws are measured."""
        self.outbox: list[Message] = []
        self.drawn: tuple[Markup, MoveAhead | None] = (Markup(""), None)
        """The last screen queued, and its ``ahead`` (``Controller.ahead``)."""
        self._wanted: tuple[bool, str] | None = None
        """(force, reveal) of a screen asked for and not yet made (``draw``, ``render``)."""
        self.heartbeat = False
        self.awaited = False
        """Whether the page was last told that the game waits for this device's player."""
        relays = start.get("relays") or []
        self.controller = Controller(
            self.storage,
            new_seed,
            make_id,
            str(start.get("href", "http://127.0.0.1/")),
            tuple(str(r) for r in relays if isinstance(r, str)),
            now=lambda: self.moment,
            clock=time.time,
            speed="normal",
        )

    # -- the one way in -----------------------------------------------------------------

    def handle(self, text: str) -> str:
        """One message from the page, as JSON; the answer, as JSON (see ``answer``)."""
        try:
            message = json.loads(text)
        except ValueError as exc:
            self._bug(exc)
            return json.dumps(self._answer())
        return json.dumps(self.answer(message))

    def answer(self, message: object, render: bool = True) -> Message:
        """One message from the page; what the page must do about it.

        The answer says what the page must do (``out``), when the table's clock next
        needs the engine (``wake``, on the page's clock), and whether the room's
        two-second heartbeat runs. With ``render`` off, a screen asked for is not
        drawn yet (``wants_draw``; ``render`` draws it): the engine sends a room's
        messages before it spends time drawing this device's own screen.
        """
        try:
            if not isinstance(message, dict):
                raise TypeError("a message must be an object")
            self.moment = float(message.get("now", self.moment))
            self._receive(message)
        except Exception as exc:  # noqa: BLE001 - the page must survive any bug
            self._bug(exc)
        if render:
            self.render()
        return self._answer()

    def _answer(self) -> Message:
        return {"out": self._flush(), "wake": self._wake(), "heartbeat": self.heartbeat}

    def _receive(self, message: Message) -> None:
        kind = message.get("t")
        controller = self.controller
        if kind == "draw":
            pass  # the screen an earlier answer left for later (``render``)
        elif kind == "start":
            controller.open_fragment(str(message.get("hash", "")))
            self.draw(force=True)
        elif kind == "event":
            self._event(message)
        elif kind == "hash":
            controller.open_fragment(str(message.get("fragment", "")))
            self.draw()
        elif kind == "clock":
            if controller.on_clock():
                self.draw()
        elif kind == "record":
            # A replay link the page inflated (or could not: ``error`` says why).
            error = message.get("error")
            if isinstance(error, str) and error:
                controller.record_link_failed(error)
            else:
                controller.open_record(str(message.get("text", "")))
            self.draw()
        elif kind == "replay-link":
            controller.replay_link_made(
                str(message.get("url") or ""), str(message.get("reason") or "")
            )
            self.draw()
        elif kind == "timer":
            self._room_timer()
        elif kind == "refused":
            self._refused(str(message.get("key", "")), message.get("value"))
        elif kind in ROOM_REPLIES:
            ROOM_REPLIES[kind](self, message)
            self.draw()
        else:
            raise ValueError(f"unknown message {kind!r}")

    def _event(self, message: Message) -> None:
        """A player's action on the page (a click, a field, a thrown card).

        One made while the engine booted (``early``) is replayed in order; the page
        showed it already, so it is not scrolled to again.
        """
        early = message.get("early") is True
        action = str(message.get("action", ""))
        data = _strings(message.get("data"))
        try:
            redraw = self.controller.dispatch(action, data)
        except Exception as exc:  # noqa: BLE001 - one bad action must not stop the rest
            self._bug(exc)
            return
        reveal = "#setup-title" if action == "choose-game" and not early else ""
        if redraw:
            self.draw(reveal=reveal)
        elif reveal:  # the game already chosen: its setup is shown all the same
            self._post({"t": "reveal", "selector": reveal})

    def _room_timer(self) -> None:
        room = self.controller.room
        if room is not None and room.on_timer():
            self.draw()

    def _refused(self, key: str, value: object) -> None:
        """The page's storage refused a write: the copy follows, and a lost save is said."""
        self.storage.refused(key, value if isinstance(value, str) else None)
        room = self.controller.room
        if room is not None and key.startswith("quandary.room."):
            room.notice = "This device's storage is full: the room is not saved. Play on."
            self.draw()
        local = self.controller.local
        if local is not None and key.startswith("quandary.game."):
            local.error = (
                "This device's storage is full, so the game is not saved. Play on, or"
                " delete a game in progress in the lobby to make room."
            )
            self.draw()

    # -- what the page must do ----------------------------------------------------------

    def draw(self, force: bool = False, reveal: str = "") -> None:
        """Ask for the screen to be drawn (by ``render``, once the message is handled):
        however many times a message asks, the screen is made once."""
        if self._wanted is not None:
            force, reveal = force or self._wanted[0], reveal or self._wanted[1]
        self._wanted = (force, reveal)

    @property
    def wants_draw(self) -> bool:
        """Whether a screen was asked for and not yet made (``render``)."""
        return self._wanted is not None

    def render(self) -> None:
        """Queue the screen asked for, unless it has not changed (and nothing is to be
        announced, and it is not ``force``d).

        A heartbeat or a delay measurement arrives every second or two; writing an
        unchanged screen again between a player's press and release would swallow
        the click. A screen that stays the same may still be scrolled to (``reveal``).
        """
        if self._wanted is None:
            return
        force, reveal = self._wanted
        self._wanted = None
        try:
            html = self.controller.render()
            # The door to the page: only markup built by the helpers in ``html.py``
            # (where every value is escaped) is written, never a plain string.
            assert isinstance(html, Markup), "the screen must be Markup, built by quandary.web.html"
            message = self.controller.announcement()
            ahead = self.controller.ahead()
        except Exception as exc:  # noqa: BLE001 - the page must survive any bug
            self._bug(exc)
            return
        if (html, ahead) == self.drawn and not message and not force:
            if reveal:
                self._post({"t": "reveal", "selector": reveal})
            return
        self.drawn = (html, ahead)
        self.outbox.append(
            {
                "t": "draw",
                "html": str(html),
                "announce": message or "",
                "reveal": reveal,
                "style": self._stylesheet(),
                # A guest's move made on this screen: the page sends it at the click.
                "ahead": ahead,
            }
        )

    def _stylesheet(self) -> str:
        """The shown game's own stylesheet, if it has one: the page links it before
        drawing its first table (each game's style loads when that game is played)."""
        game = self.controller.game_shown
        try:
            # A guest's view names its game as the host sent it: maybe no game at all.
            sheet = catalog.entry(game).stylesheet if game is not None else None
        except BadSetup:
            return ""
        return f"./static/css/{sheet}" if sheet else ""

    def _flush(self) -> list[Message]:
        """Everything queued, effects in the order asked. What is stored goes first: a
        host keeps a move before it tells anyone the move was accepted, so a host
        whose page dies right after loses nothing a guest saw accepted."""
        self._effects()
        out: list[Message] = []
        writes = self.storage.take_writes()
        if writes:
            out.append({"t": "store", "writes": [list(w) for w in writes]})
        out += self._turn()  # before the screen, which stays last
        out += self.outbox
        self.outbox = []
        return out

    def _turn(self) -> list[Message]:
        """``turn`` when the game starts or stops waiting for this device's player: the
        page marks its title and icon while its tab is hidden (static/js/turn.js)."""
        try:
            awaited = self.controller.awaited()
        except Exception as exc:  # noqa: BLE001 - a bug here must not stop the answer
            self._bug(exc)
            return [self.outbox.pop()]
        if awaited == self.awaited:
            return []
        self.awaited = awaited
        return [{"t": "turn", "yours": awaited}]

    def _wake(self) -> float | None:
        try:
            return self.controller.next_wakeup()
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the clock for good
            self._bug(exc)
            return None

    def _effects(self) -> None:
        """The controller's requests, as messages; a draw already queued stays last."""
        draws = [m for m in self.outbox if m["t"] == "draw"]
        self.outbox = [m for m in self.outbox if m["t"] != "draw"]
        for effect in self.controller.take_effects():
            self._effect(effect)
        self.outbox += draws

    def _effect(self, effect: Effect) -> None:
        out = self.outbox
        if isinstance(effect, SetHash):
            out.append({"t": "hash", "fragment": effect.fragment})
        elif isinstance(effect, CloseRoom):
            self.heartbeat = False
            out.append({"t": "close-room"})
        elif isinstance(effect, MakeHostKey):
            out.append({"t": "make-host-key"})
        elif isinstance(effect, OpenRoom):
            link = effect.link
            options = {
                "roomId": link.room,
                "secret": link.secret,
                "relays": list(link.relays),
                "turn": link.turn.ice_servers() if link.turn is not None else [],
                "hostKey": link.host_key,
                "signingKey": effect.signing_key,
                "trusted": list(effect.trusted),
            }
            out.append({"t": "open-room", "options": options})
        elif isinstance(effect, CopyText):
            out.append({"t": "copy", "text": effect.text, "field": effect.field})
        elif isinstance(effect, ShareLink):
            out.append({"t": "share", "title": effect.title, "url": effect.url})
        elif isinstance(effect, DownloadText):
            out.append({"t": "download", "name": effect.name, "text": effect.text})
        elif isinstance(effect, MakeReplayLink):
            out.append({"t": "replay-link", "text": effect.text})
        elif isinstance(effect, ClearField):
            out.append({"t": "clear-field", "field": effect.field, "text": effect.text})
        elif isinstance(effect, SaveRoom) and self.controller.room is not None:
            # At once, in the worker: the page's drawing does not wait for it.
            self.controller.room.persist()

    def _bug(self, exc: Exception) -> None:
        """A bug is logged and shown in a sentence; the saved game is untouched."""
        notice = markup(
            '<p class="form-error" role="alert">Something went wrong: {}.'
            " Your game is saved; reload the page to continue.</p>",
            exc,
        )
        self.outbox.append({"t": "bug", "html": str(notice), "trace": traceback.format_exc()})

    # -- the room transport's answers -----------------------------------------------------

    def _host_key(self, message: Message) -> None:
        if "error" in message:
            self.controller.room_not_created(
                f"A room could not be created here: {message['error']}."
            )
        else:
            self.controller.host_key_made(str(message["public"]), str(message["private"]))

    def _room_opened(self, message: Message) -> None:
        room = self.controller.room
        if room is None:
            return
        if message.get("offline"):
            room.failed(OFFLINE)
        elif message.get("error") == NO_WEBRTC:
            room.failed(NO_WEBRTC_TEXT)
        elif "error" in message:
            room.failed(f"Rooms need a network connection, and it failed: {message['error']}.")
        else:
            device = message.get("device")
            pair = None
            if isinstance(device, dict):
                public, private = device.get("public"), device.get("private")
                if isinstance(public, str) and isinstance(private, str):
                    pair = (public, private)
            signing = OutboxSigning(self._post)
            room.opened(self._send, bool(message.get("canShare")), signing, pair)
            self.heartbeat = True

    def _send(self, peer: str, text: str) -> None:
        self._post({"t": "send", "peer": peer, "text": text})

    def _post(self, message: Message) -> None:
        self.outbox.append(message)

    def _room_event(self, message: Message) -> None:
        room = self.controller.room
        if room is None:
            return
        peer = str(message.get("peer", ""))
        kind = message.get("kind")
        if kind == "join":
            room.on_join(peer)
        elif kind == "leave":
            room.on_leave(peer)
        elif kind == "message":
            certified = message.get("certified")
            room.on_message(
                peer,
                str(message.get("text", "")),
                message.get("fromHost") is True,
                certified if isinstance(certified, str) and certified else None,
            )
        elif kind == "certified":
            text, signature = message.get("text"), message.get("signature")
            if room.host is not None and isinstance(text, str) and isinstance(signature, str):
                room.host.certified(text, signature)
        elif kind == "error":
            room.on_join_error(str(message.get("detail", "")))
        elif kind == "rtt":
            rtt = message.get("ms")
            if isinstance(rtt, int | float) and not isinstance(rtt, bool):
                room.on_round_trip(peer, float(rtt))


ROOM_REPLIES: dict[str, Callable[[Bridge, Message], None]] = {
    "host-key": Bridge._host_key,
    "room-opened": Bridge._room_opened,
    "room": Bridge._room_event,
}
"""The page's answers to what the engine asked of the room transport, and its events."""


def open_bridge(start: str) -> Bridge:
    """The bridge for a page's start message (JSON): what the worker calls once."""
    message = json.loads(start)
    return Bridge(message if isinstance(message, dict) else {})


def _strings(value: object) -> dict[str, str]:
    """A JSON object's text entries (anything else is dropped)."""
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str | int | float | bool)}
