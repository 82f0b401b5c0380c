"""Bind the pure controller to the page: events in, HTML out, localStorage for saves.

This is the only module (with ``main.py``) that imports ``js``/``pyodide``. All
events are delegated from the one ``#screen`` element, so re-drawing a screen
never leaves stale listeners behind.
"""

from __future__ import annotations

import contextlib
import traceback
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from quandary import games  # noqa: F401 - registers every game
from quandary.web.controller import Controller
from quandary.web.html import esc


class LocalStorage:
    """``window.localStorage`` behind the controller's Storage protocol."""

    def get(self, key: str) -> str | None:
        """The stored text, or None (also when storage is unavailable)."""
        try:
            value = js.localStorage.getItem(key)
        except Exception:
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


def new_seed() -> int:
    """A 53-bit seed from the browser's cryptographic generator (never the clock)."""
    words = js.crypto.getRandomValues(js.Uint32Array.new(2))
    return (int(words[0]) << 21) ^ int(words[1])


def _dataset(element: Any) -> dict[str, str]:
    entries = js.Object.entries(element.dataset)
    return {str(k): str(v) for k, v in entries}


class App:
    """One page, one controller."""

    def __init__(self) -> None:
        self.root = js.document.getElementById("screen")
        self.announcer = js.document.getElementById("announcer")
        self.controller = Controller(LocalStorage(), new_seed)
        self._proxies = [
            create_proxy(self._on_click),
            create_proxy(self._on_change),
            create_proxy(self._on_input),
        ]
        self.root.addEventListener("click", self._proxies[0])
        self.root.addEventListener("change", self._proxies[1])
        self.root.addEventListener("input", self._proxies[2])
        self.draw()

    def _on_click(self, event: Any) -> None:
        target = event.target.closest("[data-action]")
        if target is None or target.disabled:
            return
        data = _dataset(target)
        self.run(data.pop("action"), data)

    def _on_change(self, event: Any) -> None:
        element = event.target
        if not element.dataset.field or element.type == "text":
            return
        data = _dataset(element)
        data["value"] = str(element.value)
        data["checked"] = "true" if getattr(element, "checked", False) else "false"
        self.run("field", data)

    def _on_input(self, event: Any) -> None:
        element = event.target
        if element.type == "text" and element.dataset.field:
            data = _dataset(element)
            data["value"] = str(element.value)
            self.run("field", data)

    def run(self, action: str, data: dict[str, str]) -> None:
        """Dispatch one action; a bug is shown, logged, and never loses the saved game."""
        try:
            if self.controller.dispatch(action, data):
                self.draw()
        except Exception as exc:
            js.console.error(traceback.format_exc())
            self.root.insertAdjacentHTML(
                "afterbegin",
                '<p class="form-error" role="alert">Something went wrong: '
                f"{esc(exc)}. Your game is saved; reload the page to continue.</p>",
            )

    def draw(self) -> None:
        """Write the current screen and put the keyboard focus where it belongs."""
        focused = js.document.activeElement
        focus_id = str(focused.id) if focused is not None and focused.id else ""
        self.root.innerHTML = self.controller.render()
        message = self.controller.announcement()
        if message:
            self.announcer.textContent = message
            target = self.root.querySelector("[data-autofocus]")
        else:
            target = js.document.getElementById(focus_id) if focus_id else None
        if target is not None:
            target.focus(js.Object.fromEntries([["preventScroll", bool(not message)]]))


def start() -> None:
    """Build the app and tell the page (and the tests) that the lobby is usable."""
    App()
    js.document.documentElement.dataset.quandary = "ready"
    js.dispatchEvent(js.CustomEvent.new("quandary:ready"))
