"""End-to-end fixtures: the built site on a loopback server, driven in Debian Chromium.

Every page records its requests and its errors; a test fails if any request left
127.0.0.1, or if a page showed an error the test did not expect (uncaught, a
console error, a PyScript error banner). Pages are
ready when Python sets ``<html data-quandary="ready">``: tests wait for that
marker (or another visible state), never for a fixed time.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

from quandary import catalog
from scripts.build import ensure_built
from scripts.relay import running_relay
from scripts.serve import serve_in_thread
from tests.fifth import in_tests

from .warm import WarmHandler, warm_up


def shipped_games(*first: str) -> list[str]:
    """Every game the site ships: ``first`` in that order (a walk may be seeded by its
    game's place), then any other, so a new game is walked with nothing to add."""
    ids = [entry.id for entry in catalog.entries() if not in_tests(entry)]
    assert set(first) <= set(ids), "a game the site does not ship"
    return [*first, *(game for game in ids if game not in first)]


ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""The features the pinned Playwright turns off when it launches Chromium. A second
``--disable-features`` replaces the first, so ours repeats them (test_launch.py fails,
naming the missing ones, if Playwright's list ever grows)."""
WEBUI_OMNIBOX = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
"""Chromium's address bar dropdown drawn as a web page: each new browser context (a
window, in headless Chromium too) started a renderer for it that took 2 to 3 s of CPU
(20 to 27 s for 8 empty contexts, 5.7 s without it). No test has an address bar."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + WEBUI_OMNIBOX),
]
WASM_BASELINE_ONLY = "--js-flags=--liftoff-only"
"""The browser tests' Chromium runs WebAssembly with V8's baseline compiler only.

Every test's browser context starts without the compiled-code cache a returning
player's browser keeps, so V8 compiled Pyodide's hottest functions again with its
optimising compiler in every context: traced, 1.1 s of CPU per page in its thread
pool, more than the whole game the page then played; on two cores that was a sixth
of the browser tests' time (32 room and game tests: 152 -> 131 s, Python's own
thread no slower). Both compilers run the same WebAssembly to the same effect.
`make monkey` (CI's long run, ``QUANDARY_WASM_TOP_TIER=1``), `make browsers`
and every benchmark run Chromium as players do, optimising compiler included."""
BOOT_TIMEOUT_MS = 90_000
INSTANT_BOTS = (
    "try { if (!localStorage.getItem('quandary:bot-speed'))"
    " localStorage.setItem('quandary:bot-speed', 'instant'); } catch (e) {}"
)
"""Bots answer at once in the browser tests (the page's own default is a normal
moment): a test of pacing chooses the speed in the lobby, which is then kept."""
PRACTISED_DILEMMA = "try { localStorage.setItem('quandary.finished.randolph', '1'); } catch (e) {}"
"""A device that has finished a game of Dilemma: its setup starts at the usual pace, not
a first game's (web/controller.py, FINISHED_KEY), for tests that walk a game quickly."""
POLICY_WATCH = (
    "document.addEventListener('securitypolicyviolation', (e) => console.error("
    "`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`));"
)
"""Every page of every test runs under the production security policy (the server
sends netlify.toml's headers); anything it blocks is a console error, so a test
fails on it like on any other error."""


def chromium_path() -> str:
    """Debian's Chromium; the test command installs it when missing."""
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("Debian chromium is not installed: run `make test`, which installs it.")
    return path


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site, rebuilt if its sources changed.

    Under pytest-xdist every worker has its own servers; the build is shared, and
    ``ensure_built`` locks it so only one worker rebuilds a stale one.
    """
    ensure_built(DIST)
    return DIST


@pytest.fixture(scope="session")
def base_url(built_site: Path) -> Iterator[str]:
    """The site served on a free loopback port."""
    server, url = serve_in_thread(built_site, handler=WarmHandler)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the session; each test gets its own context."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=suite_chromium_args())
        yield browser
        browser.close()


def suite_chromium_args() -> list[str]:
    """The browser tests' flags: ``CHROMIUM_ARGS`` and, unless CI's long run asks for
    the optimising compiler too, WebAssembly by the baseline compiler only."""
    if os.environ.get("QUANDARY_WASM_TOP_TIER"):
        return CHROMIUM_ARGS
    return [*CHROMIUM_ARGS, WASM_BASELINE_ONLY]


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


# Console errors from the browser or a library that say nothing about Quandary.
BENIGN_CONSOLE = (
    # A device that closes its WebRTC connection (a guest reloading, leaving) makes
    # Chromium fire an error on the other end's data channel; Trystero logs it and
    # drops the peer, which the room protocol then sees as a leave.
    re.compile(r"^Trystero peer error: OperationError: User-Initiated Abort, reason=Close called$"),
)


@dataclass(frozen=True)
class PageError:
    """One thing that went wrong on a page."""

    kind: str
    """One of: pageerror (uncaught), console (console.error)."""
    text: str
    url: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.text} ({self.url})"


class PageErrors:
    """Every error the test's pages showed; a test that expects one says which.

    Any error not expected fails the test at teardown: uncaught exceptions and
    console errors (the page logs there every bug the engine reports:
    ``static/js/app.entry.js``).
    """

    def __init__(self) -> None:
        self.seen: list[PageError] = []
        self._expected: list[re.Pattern[str]] = []

    def expect(self, pattern: str) -> None:
        """Errors whose text or URL matches ``pattern`` (a regex) are part of the test."""
        self._expected.append(re.compile(pattern))

    def matching(self, pattern: str) -> list[PageError]:
        """The errors seen whose text or URL matches ``pattern``."""
        found = re.compile(pattern)
        return [e for e in self.seen if found.search(e.text) or found.search(e.url)]

    def unexpected(self) -> list[PageError]:
        """The errors seen that no test expected."""
        return [
            e
            for e in self.seen
            if not any(p.search(e.text) or p.search(e.url) for p in self._expected)
        ]

    def watch(self, page: Page) -> None:
        """Record this page's uncaught errors and console errors."""
        page.on("pageerror", lambda e: self.seen.append(PageError("pageerror", str(e), page.url)))
        page.on("console", lambda m: self._console(m, page))

    def _console(self, message: ConsoleMessage, page: Page) -> None:
        if message.type != "error" or any(b.search(message.text) for b in BENIGN_CONSOLE):
            return
        where = message.location.get("url", "") if message.location else ""
        self.seen.append(PageError("console", message.text, where or page.url))


@pytest.fixture
def page_errors() -> PageErrors:
    """Errors of the test's pages; a test that expects one calls ``expect``."""
    return PageErrors()


WARM_SERVERS = ("base_url", "room_url")
"""The site's servers a test's new contexts are warmed for, when the test uses them."""


CONTEXTS = pytest.StashKey[list[BrowserContext]]()
"""The browser contexts a test made, for a failure's account (``pytest_runtest_makereport``)."""
SCREEN_SHOWN = 1500
"""How much of each page's screen a failure's account shows."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed test's report shows what each of its pages had on screen when it failed,
    so a failure seen once (in CI, under load) can be read without running it again."""
    report = yield
    if report.when == "call" and report.failed:
        for n, context in enumerate(item.stash.get(CONTEXTS, [])):
            for page in context.pages:
                report.sections.append((f"page {n}: {page.url}", _screen_of(page)))
    return report


def _screen_of(page: Page) -> str:
    """The page's table version, whether it is drawing frames, and the text of its screen,
    or why it could not be read.

    Frames: a click waits for its button to hold still over two animation frames, so a
    page whose frames stopped (headless Chromium has been seen to) hangs every click.
    """
    try:
        shown = page.evaluate(
            "async n => { const g = document.querySelector('.game');"
            " const s = document.getElementById('screen') || document.body;"
            " const frame = await new Promise((done) => { requestAnimationFrame(() =>"
            " done('drawing frames')); setTimeout(() => done('NO animation frame in 1 s'),"
            " 1000); });"
            " return `version ${g?.dataset.version} · ${document.visibilityState} · ${frame}"
            "\\n` + (s?.innerText || '').slice(0, n); }",
            SCREEN_SHOWN,
        )
    except Exception as exc:  # noqa: BLE001 - a closed or hung page: say so, keep the report
        return f"(could not be read: {exc})"
    return str(shown)


@pytest.fixture
def new_page(
    browser: Browser,
    requests_seen: Requests,
    page_errors: PageErrors,
    request: pytest.FixtureRequest,
) -> Iterator:
    """A factory of fresh pages (each in its own context unless one is given).

    Options are the browser context's (``has_touch``, ``service_workers``...).
    Every page of every context made here is watched: the test fails at
    teardown if any left this machine or showed an error nobody expected.

    A new context holds this build's warm-start snapshot for the site's servers the
    test uses, as a returning player's browser does (tests/e2e/warm.py); a test
    marked ``cold_start`` gets an empty one, as a first visit does.
    """
    contexts: list[BrowserContext] = []
    request.node.stash[CONTEXTS] = contexts
    cold = request.node.get_closest_marker("cold_start") is not None
    cache = getattr(request.config, "cache", None)  # none under -p no:cacheprovider
    store = cache.mkdir("quandary-warm") if cache else ROOT / "build" / "quandary-warm"
    used = [name for name in WARM_SERVERS if name in request.fixturenames]
    origins = [] if cold else [request.getfixturevalue(name) for name in used]

    def watch(page: Page) -> None:
        page.on("request", lambda r: requests_seen.urls.append(r.url))
        page_errors.watch(page)

    def make(
        viewport: dict[str, int] | None = None, context: BrowserContext | None = None, **options
    ) -> Page:
        if context is None:
            # The service worker is blocked unless a test asks: it would download the
            # runtime again in the background of every test (test_offline.py runs it).
            options.setdefault("service_workers", "block")
            context = browser.new_context(
                viewport=viewport or {"width": 1024, "height": 800}, **options
            )
            context.add_init_script(INSTANT_BOTS)
            context.add_init_script(POLICY_WATCH)
            # Pages the app opens itself (a rules page in a new tab) are watched too.
            context.on("page", watch)
            contexts.append(context)
            return warm_up(context, origins, browser, store, DIST, BOOT_TIMEOUT_MS)
        page = context.new_page()
        if context not in contexts:
            watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not requests_seen.foreign(), f"requests left 127.0.0.1: {requests_seen.foreign()}"
    unexpected = "\n".join(str(e) for e in page_errors.unexpected())
    assert not unexpected, f"errors on the page:\n{unexpected}"


def open_app(page: Page, url: str) -> Page:
    """Load the app and wait until the lobby is usable."""
    page.goto(url)
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    return page


@pytest.fixture(scope="session")
def room_url(built_site: Path) -> Iterator[str]:
    """The site served with a local relay, as `make run` serves it (for room tests).

    It does not depend on ``base_url``: a test's new contexts are warmed for every
    server among its fixtures (``new_page``), and a room test that never opens the
    plain site paid for a snapshot handed to it (48 of 178 in the suite).
    """
    with running_relay() as relay:
        server, url = serve_in_thread(built_site, (relay,), handler=WarmHandler)
        yield url
        server.shutdown()


SNAPSHOT_KEPT = "() => caches.open('quandary-snapshots').then(c => c.keys()).then(k => k.length)"
"""Whether the engine's warm-start snapshot is kept (static/js/snapshot.worker.js)."""


WAIT_JS = """async ([arg, timeout, source]) => {
  const predicate = %s;
  const end = performance.now() + timeout;
  for (;;) {
    // A screen the engine is still answering a click on is not read (app.entry.js).
    const value = !document.querySelector('#screen[aria-busy]') && (await predicate(arg));
    if (value) return value;
    if (performance.now() > end) {
      // What the page showed instead, so a failure says which way it went wrong.
      const screen = document.querySelector('#screen');
      const text = (screen?.innerText || '').replace(/\\s+/g, ' ').slice(0, 300);
      throw new Error(`waited ${timeout} ms for ${source} (the page was `
        + `${document.documentElement.dataset.quandary}, the screen `
        + `${screen?.hasAttribute('aria-busy') ? 'busy' : 'settled'}: "${text}")`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}"""


def wait_js(page: Page, predicate: str, arg: Any = None, timeout: int = BOOT_TIMEOUT_MS) -> Any:
    """Wait until the JS function ``predicate(arg)`` (it may be async) returns a truthy
    value, inside the page, on a settled screen (not while the engine has a player's
    action to answer); returns that value.

    Playwright's own ``wait_for_function`` builds its predicate from a string with
    ``new Function``, which the page's security policy forbids (it has no
    'unsafe-eval'); this sends the whole wait as one evaluation through the
    browser's debugging protocol, which the policy does not govern.
    """
    return page.evaluate(WAIT_JS % predicate, [arg, timeout, predicate])
