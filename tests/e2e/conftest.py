"""End-to-end fixtures: the built site on a loopback server, driven in Debian Chromium.

Every page records its requests; a test fails if any left 127.0.0.1. Pages are
ready when Python sets ``<html data-quandary="ready">``: tests wait for that
marker (or another visible state), never for a fixed time.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from scripts.build import ensure_built
from scripts.relay import running_relay
from scripts.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOOT_TIMEOUT_MS = 90_000
INSTANT_BOTS = (
    "try { if (!localStorage.getItem('quandary:bot-speed'))"
    " localStorage.setItem('quandary:bot-speed', 'instant'); } catch (e) {}"
)
"""Bots answer at once in the browser tests (the page's own default is a normal
moment): a test of pacing chooses the speed in the lobby, which is then kept."""


def chromium_path() -> str:
    """Debian's Chromium; the test command installs it when missing."""
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("Debian chromium is not installed: run `make test`, which installs it.")
    return path


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """The site, rebuilt if its sources changed, served on a free loopback port.

    Under pytest-xdist every worker has its own server; the build is shared, and
    ``ensure_built`` locks it so only one worker rebuilds a stale one.
    """
    ensure_built(DIST)
    server, url = serve_in_thread(DIST)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the session; each test gets its own context."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Requests:
    """Every URL a page asked for, to prove nothing left this machine."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def foreign(self) -> list[str]:
        """Requests to anything but 127.0.0.1 (data: and blob: URLs are local)."""
        return [
            u
            for u in self.urls
            if urlparse(u).scheme not in ("data", "blob") and urlparse(u).hostname != "127.0.0.1"
        ]


@pytest.fixture
def requests_seen() -> Requests:
    """The request log of the test's pages."""
    return Requests()


@pytest.fixture
def page_errors() -> list[str]:
    """Uncaught errors of the test's pages; a test that expects one empties it."""
    return []


@pytest.fixture
def new_page(browser: Browser, requests_seen: Requests, page_errors: list[str]) -> Iterator:
    """A factory of fresh pages (each in its own context unless one is given)."""
    contexts = []
    errors = page_errors

    def make(viewport: dict[str, int] | None = None, context=None) -> Page:
        if context is None:
            # The service worker is blocked here: it would download the runtime again
            # in the background of every test. tests/e2e/test_offline.py runs it.
            context = browser.new_context(
                viewport=viewport or {"width": 1024, "height": 800}, service_workers="block"
            )
            context.add_init_script(INSTANT_BOTS)
            contexts.append(context)
        page = context.new_page()
        page.on("request", lambda r: requests_seen.urls.append(r.url))
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not requests_seen.foreign(), f"requests left 127.0.0.1: {requests_seen.foreign()}"
    assert not errors, f"uncaught page errors: {errors}"


def open_app(page: Page, url: str) -> Page:
    """Load the app and wait until the lobby is usable."""
    page.goto(url)
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    return page


@pytest.fixture(scope="session")
def room_url(base_url: str) -> Iterator[str]:
    """The site served with a local relay, as `make run` serves it (for room tests)."""
    with running_relay() as relay:
        server, url = serve_in_thread(DIST, (relay,))
        yield url
        server.shutdown()
