"""Rooms between Chromium and Firefox, each way round: real WebRTC through a real local
Nostr relay. The host opens a room, the guest joins from its link and sits down, the
game starts on both; then the host's tab closes and the guest is told, as the README's
"Play with friends" says of a room of two devices, that the game waits for its host."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from quandary.net.succession import SUCCESSION_MS
from scripts.relay import running_relay
from scripts.serve import serve_in_thread
from tests.e2e.conftest import BENIGN_CONSOLE, CHROMIUM_ARGS, INSTANT_BOTS, chromium_path

from .conftest import POLICY_WATCH, Tab

JOIN_TIMEOUT_MS = 45_000


@pytest.fixture(scope="session")
def room_url(built) -> Iterator[str]:
    with running_relay() as relay:
        server, url = serve_in_thread(built, (relay,))
        yield url
        server.shutdown()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class ChromiumTab(Tab):
    """Tests/e2e's Chromium (Playwright), behind the suite's interface."""

    engine = "chromium"

    def __init__(self, browser: Browser) -> None:
        self.context = browser.new_context(service_workers="block")
        self.context.add_init_script(INSTANT_BOTS)
        self.context.add_init_script(POLICY_WATCH)
        self.page: Page = self.context.new_page()
        self.seen: list[str] = []
        self.page.on("pageerror", lambda e: self.seen.append(f"[pageerror] {e}"))
        self.page.on(
            "console",
            lambda m: m.type == "error"
            and not any(b.search(m.text) for b in BENIGN_CONSOLE)
            and self.seen.append(f"[console] {m.text}"),
        )

    def evaluate(self, source: str, arg: Any = None) -> Any:
        return self.page.evaluate(source, arg)

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def click(self, selector: str) -> None:
        self.page.click(selector)

    def select(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)

    def fill(self, selector: str, text: str) -> None:
        self.page.fill(selector, text)

    def focus(self, selector: str) -> None:
        self.page.focus(selector)

    def keys(self, steps: list[tuple[str, str]]) -> None:
        for what, key in steps:
            getattr(self.page.keyboard, what)("Space" if key == " " else key)

    def errors(self) -> list[str]:
        return self.seen

    def close(self) -> None:
        self.context.close()


def create_room(host: Tab, name: str) -> str:
    host.click("#create-room")
    host.shown("#room-link")
    rename(host, name)
    return str(host.evaluate("() => document.querySelector('#room-link').value"))


def rename(tab: Tab, name: str) -> None:
    tab.fill("#room-name", name)
    tab.keys([("press", "Enter")])
    tab.evaluate("() => document.querySelector('#room-name').blur()")


def join(guest: Tab, link: str, name: str, seat: int) -> None:
    guest.open(link)
    guest.text("#room-status", "^Connected to the room\\.$", JOIN_TIMEOUT_MS)
    rename(guest, name)
    guest.click(f"#sit-{seat}")
    guest.wait("(s) => !document.querySelector(s)", f"#sit-{seat}")


@pytest.mark.parametrize("engine", ["firefox"])
@pytest.mark.parametrize("hosting", ["chromium", "firefox"])
def test_a_room_between_chromium_and_firefox(new_tab, chromium, room_url, hosting) -> None:
    chrome = ChromiumTab(chromium)
    try:
        fox = new_tab()
        host, guest = (chrome, fox) if hosting == "chromium" else (fox, chrome)
        host.open(room_url)
        link = create_room(host, "Hana")
        join(guest, link, "Gus", 1)
        host.text(".members", "Gus", JOIN_TIMEOUT_MS)
        host.select("#room-seat-kind-2", "bot:heuristic")
        host.wait("() => document.querySelector('#room-seat-kind-2').value === 'bot:heuristic'")
        host.click("#room-more > summary")  # the room's settings are folded
        host.select("#room-patience", "short")
        host.wait("() => document.querySelector('#room-patience').value === 'short'")
        host.click("#room-start")
        for tab in (host, guest):
            tab.text("#screen h1, #screen h2", "Build your dilemma", JOIN_TIMEOUT_MS)
        # The guest's hand is its own, drawn on its own device.
        assert guest.evaluate("() => document.querySelectorAll('.card[data-card]').length") > 0
        host.close()
        # The one guest holds a backup with nothing secret in it: after the waiting
        # time it carries the game on, signing with its own device's key.
        guest.text("#room-status", "paused", JOIN_TIMEOUT_MS)
        guest.text("#room-status", "You are the host", SUCCESSION_MS["short"] + JOIN_TIMEOUT_MS)
        guest.text(".scoreboard", "bot playing for Hana", JOIN_TIMEOUT_MS)
    finally:
        errors = chrome.errors()
        chrome.close()
    assert not errors, errors
