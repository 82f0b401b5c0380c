"""Bind the pure controller to the page: events in, HTML out, storage and rooms.

This is the only module (with ``main.py``) that imports ``js``/``pyodide``. All
events are delegated from the one ``#screen`` element, so re-drawing a screen
never leaves stale listeners behind. Rooms load the bundled Trystero module
only when a room is opened.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import traceback
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull, to_js  # type: ignore[import-not-found]

from quandary import games  # noqa: F401 - registers every game
from quandary.web.actions import (
    CloseRoom,
    CopyText,
    DownloadText,
    MakeHostKey,
    OpenBackup,
    OpenRoom,
    SaveRoom,
    SetHash,
    ShareLink,
)
from quandary.web.controller import Controller
from quandary.web.html import Markup, markup

ROOM_MODULE = "room.mjs"
TIMER_MS = 2000


class LocalStorage:
    """``window.localStorage`` behind the controller's Storage protocol."""

    def get(self, key: str) -> str | None:
        """The stored text, or None (also when storage is unavailable)."""
        try:
            value = js.localStorage.getItem(key)
        except Exception:  # noqa: BLE001 - the browser may disable storage entirely
            return None
        # A missing key is JS null, which Pyodide passes as ``jsnull``, not None.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        """Store text; raises when the browser refuses (quota, private mode)."""
        js.localStorage.setItem(key, value)

    def remove(self, key: str) -> None:
        """Forget a key, quietly."""
        with contextlib.suppress(Exception):  # unavailable storage has nothing to remove
            js.localStorage.removeItem(key)

    def keys(self) -> list[str]:
        """Every stored key (none when storage is unavailable)."""
        try:
            return [str(k) for k in js.Object.keys(js.localStorage)]
        except Exception:  # noqa: BLE001 - the browser may disable storage entirely
            return []


def new_seed() -> int:
    """A 53-bit seed from the browser's cryptographic generator (never the clock)."""
    words = js.crypto.getRandomValues(js.Uint32Array.new(2))
    return (int(words[0]) << 21) ^ int(words[1])


def make_id() -> str:
    """128 random bits from the browser's cryptographic generator, base64url."""
    data = bytes(js.crypto.getRandomValues(js.Uint8Array.new(16)).to_py())
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def page_relays() -> tuple[str, ...]:
    """Relays named by the page (a local one under `make run`); empty means public ones."""
    meta = find('meta[name="quandary-relays"]')
    content = str(meta.content) if meta is not None else ""
    return tuple(r for r in content.split(",") if r)


def find(selector: str) -> Any:
    """The first element matching ``selector``, or None.

    The DOM answers "nothing" with JS null, which Pyodide passes as ``jsnull``;
    every lookup goes through here so no caller has to remember that.
    """
    element = js.document.querySelector(selector)
    return None if element is None or element is jsnull else element


def find_from(element: Any, selector: str) -> Any:
    """The nearest ancestor of ``element`` (itself included) matching ``selector``, or None.

    Like ``find``, it turns the DOM's "nothing" (``jsnull``) into None; an event
    target that is not an element (a text node, the document) has no ancestors.
    """
    closest = getattr(element, "closest", None)
    if closest is None:
        return None
    found = closest(selector)
    return None if found is None or found is jsnull else found


def assets_folder() -> str:
    """Where the build put the bundled modules (a content-hashed folder)."""
    meta = find('meta[name="quandary-assets"]')
    return str(meta.content) if meta is not None else "./static/vendor/"


def _dataset(element: Any) -> dict[str, str]:
    entries = js.Object.entries(element.dataset)
    return {str(k): str(v) for k, v in entries}


def _js_object(value: dict[str, Any]) -> Any:
    return to_js(value, dict_converter=js.Object.fromEntries)


class TransportSigning:
    """The room transport's key work, as the room controller asks for it (``Signing``)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def backup(self, text: str, holders: list[str], template: str) -> None:
        """Seal a backup of the room for the seated guests (see static/js/room.entry.js)."""
        self.handle.backup(text, to_js(holders), template)

    def become_host(self, key: str) -> None:
        """Sign from now on: this device carries the room on."""
        self.handle.becomeHost(key)

    def step_down(self) -> None:
        """Stop signing: another device holds the room."""
        self.handle.stepDown()


class App:
    """One page, one controller, at most one open room."""

    def __init__(self) -> None:
        self.root = js.document.getElementById("screen")
        self.announcer = js.document.getElementById("announcer")
        self.controller = Controller(
            LocalStorage(),
            new_seed,
            make_id,
            str(js.location.href),
            page_relays(),
            now=lambda: float(js.performance.now()),
            clock=lambda: float(js.Date.now()) / 1000,
            speed="normal",
        )
        self.room_handle: Any = None
        self.room_module: Any = None
        self.timer: Any = None
        self.clock_timer: Any = None
        self.opening: Any = None
        self.sending: Any = None
        self.qr_cache: dict[str, str] = {}
        self.drawn = ""
        self.select_after_draw = ""
        handlers: dict[str, Callable[..., None]] = {
            "click": self._on_click,
            "change": self._on_change,
            "input": self._on_input,
            "hash": self._on_hash,
            "timer": self._on_timer,
            "persist": self._persist_room,
            "clock": self._on_clock,
            "throw": self._on_throw,
            "draw": self._draw_when_sent,
            "downloaded": self._downloaded,
        }
        self._proxies = {name: create_proxy(self._guarded(h)) for name, h in handlers.items()}
        self.downloads: list[Any] = []
        for name in ("click", "change", "input"):
            self.root.addEventListener(name, self._proxies[name])
        # A card thrown by drag, flick or keyboard (static/js/throw.js measures the gesture).
        self.root.addEventListener("quandary:throw", self._proxies["throw"])
        js.window.addEventListener("hashchange", self._proxies["hash"])
        self.controller.open_fragment(str(js.location.hash))
        self.apply_effects()
        self.draw()

    # -- page events -------------------------------------------------------------

    def _guarded(self, handler: Callable[..., None]) -> Callable[..., None]:
        """The one error boundary of every callback the page makes into Python.

        Whatever a handler meets (a DOM answer of JS null where Python expects None,
        a bug), the player gets a sentence and the console the traceback, never
        PyScript's red banner, and the page keeps working.
        """

        def call(*args: Any) -> None:
            try:
                handler(*args)
            except Exception as exc:  # noqa: BLE001 - the page must survive any bug
                self._show_bug(exc)

        return call

    def _on_click(self, event: Any) -> None:
        target = find_from(event.target, "[data-action]")
        if target is None or target.disabled:
            return
        data = _dataset(target)
        action = data.pop("action")
        self.run(action, data)
        if action == "choose-game":
            self._reveal("#setup-title")

    def _on_change(self, event: Any) -> None:
        element = event.target
        if not element.dataset.field or element.dataset.field == "seat-name":
            return
        data = _dataset(element)
        data["value"] = str(element.value)
        data["checked"] = "true" if getattr(element, "checked", False) else "false"
        self.run("field", data)

    def _on_input(self, event: Any) -> None:
        # Lobby names are kept as typed; a room name is sent once, on change.
        element = event.target
        if element.dataset.field == "seat-name":
            data = _dataset(element)
            data["value"] = str(element.value)
            self.run("field", data)

    def _on_throw(self, event: Any) -> None:
        """A gesture measured on the page (a card thrown); the game's UI makes it a move."""
        detail = event.detail
        data = {str(k): str(v) for k, v in js.Object.entries(detail)}
        self.run("gesture", data)

    def _on_clock(self) -> None:
        self.clock_timer = None
        try:
            if self.controller.on_clock():
                self.apply_effects()
                self._draw_after_sending()
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the clock for good
            self._show_bug(exc)
        self._schedule_clock()

    def _schedule_clock(self) -> None:
        """Wake up when the table's clock next has work (a bot's throw, a closing window)."""
        if self.clock_timer is not None:
            js.clearTimeout(self.clock_timer)
            self.clock_timer = None
        when = self.controller.next_wakeup()
        if when is not None:
            wait = max(0.0, when - float(js.performance.now()))
            self.clock_timer = js.setTimeout(self._proxies["clock"], wait + 1)

    def _on_hash(self, event: Any) -> None:
        try:
            self.controller.open_fragment(str(js.location.hash))
            self.apply_effects()
            self.draw()
        except Exception as exc:  # noqa: BLE001 - the page must survive any bug
            self._show_bug(exc)

    def _on_timer(self) -> None:
        room = self.controller.room
        try:
            if room is not None and room.on_timer():
                self._draw_after_sending()
            self.apply_effects()  # a successor's timer asks to open the backup
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the room's heartbeat
            self._show_bug(exc)

    def run(self, action: str, data: dict[str, str]) -> None:
        """Dispatch one action; a bug is shown, logged, and never loses the saved game."""
        try:
            redraw = self.controller.dispatch(action, data)
            self.apply_effects()  # an action may ask for work without changing the screen
            if redraw:
                self._draw_after_sending()
        except Exception as exc:  # noqa: BLE001 - the page must survive any bug
            self._show_bug(exc)

    def _show_bug(self, exc: Exception) -> None:
        """A bug is logged and shown in a sentence; the saved game is untouched."""
        js.console.error(traceback.format_exc())
        self.root.insertAdjacentHTML(
            "afterbegin",
            markup(
                '<p class="form-error" role="alert">Something went wrong: {}.'
                " Your game is saved; reload the page to continue.</p>",
                exc,
            ),
        )

    # -- effects and rooms ---------------------------------------------------------

    def apply_effects(self) -> None:
        """Carry out what the controller asked for, in order."""
        for effect in self.controller.take_effects():
            if isinstance(effect, SetHash):
                url = str(js.location.pathname) + str(js.location.search)
                fragment = effect.fragment
                js.history.replaceState(None, "", url + (f"#{fragment}" if fragment else ""))
            elif isinstance(effect, CloseRoom):
                self._close_room()
            elif isinstance(effect, MakeHostKey):
                self.opening = asyncio.ensure_future(self._make_host_key())
            elif isinstance(effect, OpenRoom):
                # Keep the task referenced until it is done, or it may be collected.
                self.opening = asyncio.ensure_future(self._open_room(effect))
            elif isinstance(effect, CopyText):
                with contextlib.suppress(Exception):  # no clipboard: the field is selected
                    js.navigator.clipboard.writeText(effect.text)
                self.select_after_draw = effect.field
            elif isinstance(effect, ShareLink):
                if getattr(js.navigator, "share", None):
                    js.navigator.share(_js_object({"title": effect.title, "url": effect.url}))
            elif isinstance(effect, OpenBackup):
                self.opening = asyncio.ensure_future(self._open_backup(effect))
            elif isinstance(effect, DownloadText):
                self._download(effect)
            elif isinstance(effect, SaveRoom):
                # Save in a later task, so the browser paints the new screen first.
                js.setTimeout(self._proxies["persist"], 0)

    def _download(self, effect: DownloadText) -> None:
        """Save the text as a file: a Blob from memory, so offline and the page's CSP allow it."""
        blob = js.Blob.new(to_js([effect.text]), _js_object({"type": "text/plain;charset=utf-8"}))
        url = js.URL.createObjectURL(blob)
        link = js.document.createElement("a")
        link.href, link.download, link.hidden = url, effect.name, True
        js.document.body.append(link)
        link.click()
        link.remove()
        self.downloads.append(url)
        js.setTimeout(self._proxies["downloaded"], 10_000)

    def _downloaded(self) -> None:
        """The browser has the file by now: let go of the memory behind its address."""
        if self.downloads:
            js.URL.revokeObjectURL(self.downloads.pop(0))

    async def _room_module(self) -> Any:
        """The bundled room transport, imported on first use.

        The pyscript package costs start-up time nobody without a room should pay.
        """
        if self.room_module is None:
            from pyscript import js_import  # type: ignore[import-not-found]

            # Resolved against the page: js_import alone resolves against PyScript's file.
            url = js.URL.new(assets_folder() + ROOM_MODULE, js.document.baseURI).href
            (self.room_module,) = await js_import(url)
        return self.room_module

    async def _make_host_key(self) -> None:
        """A new room's Ed25519 key pair, made by the browser's WebCrypto."""
        try:
            module = await self._room_module()
            pair = await module.makeHostKey()
            self.controller.host_key_made(str(pair.public), str(pair.private))
        except Exception as exc:  # noqa: BLE001 - no WebCrypto Ed25519, a blocked module
            js.console.error(traceback.format_exc())
            self.controller.room_not_created(f"A room could not be created here: {exc}.")
        self.apply_effects()
        self.draw()

    async def _open_room(self, effect: OpenRoom) -> None:
        link = effect.link
        room = self.controller.room
        if not js.navigator.onLine:
            if room is not None:
                room.failed(
                    "You are offline: rooms need a network connection. Games against bots"
                    " and on one device work offline."
                )
            self.draw()
            return
        try:
            module = await self._room_module()
            handlers = {
                "onJoin": create_proxy(lambda peer: self._room_event("on_join", str(peer))),
                "onLeave": create_proxy(lambda peer: self._room_event("on_leave", str(peer))),
                "onMessage": create_proxy(
                    lambda peer, text, from_host: self._room_event(
                        "on_message", str(peer), str(text), from_host is True
                    )
                ),
                "onError": create_proxy(
                    lambda detail: self._room_event("on_join_error", str(detail))
                ),
            }
            options = {
                "roomId": link.room,
                "secret": link.secret,
                "relays": list(link.relays),
                "turn": link.turn.ice_servers() if link.turn is not None else [],
                "hostKey": link.host_key,
                "signingKey": effect.signing_key,
            }
            handle = module.openRoom(_js_object(options), _js_object(handlers))
        except Exception as exc:  # noqa: BLE001 - offline, blocked module, refused relay
            if room is not None:
                room.failed(f"Rooms need a network connection, and it failed: {exc}.")
            self.draw()
            return
        self.room_handle = handle

        def send(peer: str, text: str) -> None:
            promise = handle.send(peer, text)
            if room is not None and room.host is not None:
                self.sending = promise

        if room is not None and room is self.controller.room:
            room.opened(
                send,
                can_share=bool(getattr(js.navigator, "share", None)),
                signing=TransportSigning(handle),
            )
            if self.timer is None:
                self.timer = js.setInterval(self._proxies["timer"], TIMER_MS)
        self.draw()

    async def _open_backup(self, effect: OpenBackup) -> None:
        """Open the room's sealed backup (this device is the host's successor)."""
        room = self.controller.room
        if room is None or self.room_handle is None:
            return
        try:
            text = await self.room_handle.unseal(effect.blob, to_js(list(effect.shares)))
        except Exception as exc:  # noqa: BLE001 - shares that do not fit, a damaged blob
            room.backup_failed(str(exc))
        else:
            try:
                room.backup_opened(str(text))
            except Exception as exc:  # noqa: BLE001 - the page must survive any bug
                self._show_bug(exc)
        self.apply_effects()
        self._draw_after_sending()

    def _draw_after_sending(self) -> None:
        """Draw, but on a host only once what it just sent is on its way.

        A host signs each message, and WebCrypto answers in a later task: drawing
        the host's own screen first would hold every other device's update back
        by that drawing. So the host's screen waits for its signed messages
        (about a millisecond), and everyone sees a move sooner.
        """
        pending, self.sending = self.sending, None
        if pending is None:
            self.draw()
        else:
            pending.then(self._proxies["draw"])

    def _draw_when_sent(self, *_sent: Any) -> None:
        try:
            self.draw()
        except Exception as exc:  # noqa: BLE001 - the page must survive any bug
            self._show_bug(exc)

    def _room_event(self, name: str, *args: Any) -> None:
        room = self.controller.room
        if room is None:
            return
        events: dict[str, Callable[..., None]] = {
            "on_join": room.on_join,
            "on_leave": room.on_leave,
            "on_message": room.on_message,
            "on_join_error": room.on_join_error,
        }
        try:
            events[name](*args)
            self.apply_effects()
            self._draw_after_sending()
        except Exception as exc:  # noqa: BLE001 - one bad event must not stop the room
            self._show_bug(exc)

    def _persist_room(self) -> None:
        room = self.controller.room
        if room is not None:
            room.persist()

    def _close_room(self) -> None:
        if self.room_handle is not None:
            with contextlib.suppress(Exception):
                self.room_handle.leave()
            self.room_handle = None
        if self.timer is not None:
            js.clearInterval(self.timer)
            self.timer = None

    def _draw_qr(self) -> None:
        box = find("#room-qr")
        if box is None or self.room_module is None:
            return
        link = str(box.dataset.link)
        if link not in self.qr_cache:
            self.qr_cache[link] = str(self.room_module.qrSvg(link))
        box.innerHTML = self.qr_cache[link]

    # -- drawing -----------------------------------------------------------------

    def _reveal(self, selector: str) -> None:
        """Scroll an element to the top of the window (a chosen game's setup, far
        below the game cards on a phone); gently, unless the player asked for less motion."""
        element = find(selector)
        if element is None:
            return
        calm = bool(js.matchMedia("(prefers-reduced-motion: reduce)").matches)
        element.scrollIntoView(
            _js_object({"block": "start", "behavior": "auto" if calm else "smooth"})
        )

    def _place(self) -> str:
        """Which kind of screen is showing (lobby, table, room): its outer element's class."""
        screen = self.root.firstElementChild
        if screen is None or screen is jsnull:
            return ""
        return str(screen.className).split(" ")[0]

    def draw(self) -> None:
        """Write the current screen and put the keyboard focus where it belongs.

        The page is morphed into the new screen, not replaced, so the element
        that had the focus usually keeps it. A screen that has not changed is not
        written again: a heartbeat or a delay
        measurement arrives every second or two, and replacing the buttons between
        a player's press and release would swallow the click.
        """
        html = self.controller.render()
        # The door to the page: only markup built by the helpers in ``html.py``
        # (where every value is escaped) is written, never a plain string.
        assert isinstance(html, Markup), "the screen must be Markup, built by quandary.web.html"
        message = self.controller.announcement()
        if html == self.drawn and not message:
            self._schedule_clock()
            return
        self.drawn = html
        focused = find(":focus")
        focus_id = str(focused.id) if focused is not None and focused.id else ""
        typing = bool(focus_id) and str(focused.tagName) == "INPUT" and str(focused.type) == "text"
        typed = (
            (str(focused.value), focused.selectionStart, focused.selectionEnd) if typing else None
        )
        place = self._place()
        morph = getattr(js.globalThis, "quandaryDraw", None)
        if morph is not None:
            morph(self.root, str(html))  # static/js/draw.entry.js: elements that stay, stay
        else:
            self.root.innerHTML = html
        if self._place() != place:
            # A game opens at its top (and the lobby too), not where the last screen was.
            js.window.scrollTo(0, 0)
        self._draw_qr()
        if self.select_after_draw:
            field = find(f"#{self.select_after_draw}")
            self.select_after_draw = ""
            if field is not None:
                field.select()
        if message:
            self.announcer.textContent = message
            target = find("#screen [data-autofocus]")
        else:
            target = find(f"#{focus_id}") if focus_id else None
            if target is not None and typed is not None and str(target.value) != typed[0]:
                # Keep what the player is typing when a message redraws the screen.
                target.value = typed[0]
                target.setSelectionRange(typed[1], typed[2])
            if target is not None and target.matches(":focus"):
                target = None  # kept by the morph: focusing again would force a layout
        if target is not None:
            target.focus(_js_object({"preventScroll": not message}))
        self._schedule_clock()


def start() -> None:
    """Build the app and tell the page (and the tests) that the lobby is usable.

    A game chosen while Python booted (static/js/boot.entry.js) is opened now.
    """
    app = App()
    chosen = getattr(js.globalThis, "quandaryEarlyChoice", None)
    if isinstance(chosen, str) and app.controller.room is None and app.controller.local is None:
        app.run("choose-game", {"game": chosen})
    js.document.documentElement.dataset.quandary = "ready"
    js.dispatchEvent(js.CustomEvent.new("quandary:ready"))
