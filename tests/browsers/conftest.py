"""The built page in Firefox and WebKit: `make browsers` (not `make test`, which runs
tests/e2e in Chromium and never collects this folder).

- Firefox: Debian's firefox-esr, driven by npm puppeteer-core over WebDriver BiDi from a
  Node process of its own (``firefox.mjs``), one per test worker, commanded over its
  stdin and stdout; each test gets a fresh browser context (its own storage).
- WebKit: Debian's WebKitGTK through its WebDriver (``WebKitWebDriver``, PyPI selenium),
  one session per test, under an X server (``xvfb-run`` in the Makefile). Classic
  WebDriver has no init scripts, so WebKit is served a copy of the built site whose
  page loads ``recorder.js`` first: it keeps every uncaught error, unhandled rejection
  and console.error for the test to read.

Both are driven through one small interface, :class:`Tab`, so a test is written once
and runs in each engine. A test fails if its page showed an error it did not expect.
Pages are ready when ``<html data-quandary="ready">``; tests wait for that marker or
another visible state inside the page, never for a fixed time.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scripts.build import ensure_built
from scripts.serve import serve_in_thread
from tests.e2e.conftest import BENIGN_CONSOLE, INSTANT_BOTS, WAIT_JS

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
HERE = Path(__file__).resolve().parent
BOOT_TIMEOUT_MS = 90_000
STEP_TIMEOUT_MS = 30_000
ENGINES = ("firefox", "webkit")
POLICY_WATCH = (
    "document.addEventListener('securitypolicyviolation', (e) => console.error("
    "`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`));"
)
"""Anything the production security policy blocks is a console error, so it fails a test."""
RECORDER_TAG = '<script src="./recorder.js"></script>'
CLICKABLE = """(() => {
  let last = '';
  const name = (e) => e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className.trim()
      ? '.' + e.className.trim().split(/ +/).join('.') : '') : 'nothing';
  const not = (why) => {
    window.__unclickable = why;
    return false;
  };
  return (s) => {
    const element = document.querySelector(s);
    const box = element?.getBoundingClientRect();
    if (!box || !box.width || !box.height) {
      last = '';
      return not(element ? 'without a box' : 'not in the page');
    }
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
      element.scrollIntoView({block: 'center', inline: 'center'});
      last = '';
      return not('out of view');
    }
    const place = [box.left, box.top, box.width, box.height].join();
    const hit = document.elementFromPoint(x, y);
    const reached = hit && (element.contains(hit)
      || (element.labels && [...element.labels].some((l) => l.contains(hit))));
    if (place === last && reached) return {x, y};
    const moved = place !== last;
    last = place;
    return not(moved ? 'moving' : `covered by ${name(hit)}`);
  };
})()"""
"""Where a click on the element lands, once a person could click it there: it is shown,
its middle is in view (scrolled there if not), it is where it was at the last look, and
nothing else is on top of its middle (its label counts as itself). Both engines wait for
it before a click, as Playwright does: a click aimed at where a control was before the
screen moved (a redraw, a late font) lands elsewhere, and WebDriver's click fails at once
if something is on top (a moment's animation, a toast). Meanwhile
``window.__unclickable`` says why not, for a failure to report."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browsers: the built page in Firefox and WebKit")
    # Selenium's own notice about its internals, on every WebKit session.
    config.addinivalue_line(
        "filterwarnings", "ignore:setting remote_server_addr:DeprecationWarning"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each engine's tests stay on one worker (pytest-xdist ``--dist loadgroup``), so each
    worker starts one Firefox at most; rooms (Chromium with Firefox) are a group of their own."""
    for item in items:
        item.add_marker(pytest.mark.browsers)
        engine = getattr(item, "callspec", None) and item.callspec.params.get("engine")
        group = "rooms" if "rooms" in item.nodeid else (engine or "other")
        item.add_marker(pytest.mark.xdist_group(group))


class Tab:
    """One page in one engine, driven the same way in each."""

    engine = ""

    def evaluate(self, source: str, arg: Any = None) -> Any:
        """Call the JS function ``source`` with ``arg`` in the page (awaited if async)."""
        raise NotImplementedError

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def click(self, selector: str) -> None:
        """A real click (the driver's pointer) in the middle of the element."""
        raise NotImplementedError

    def select(self, selector: str, value: str) -> None:
        raise NotImplementedError

    def fill(self, selector: str, text: str) -> None:
        raise NotImplementedError

    def focus(self, selector: str) -> None:
        raise NotImplementedError

    def keys(self, steps: list[tuple[str, str]]) -> None:
        """Keyboard steps: ("down" | "up" | "press", key), key as in KeyboardEvent.key."""
        raise NotImplementedError

    def mouse(self, steps: list[tuple[Any, ...]]) -> None:
        """Mouse steps: ("move", x, y, steps), ("down",), ("up",); viewport coordinates."""
        raise NotImplementedError

    def errors(self) -> list[str]:
        """Every error the page showed so far (uncaught, unhandled, console.error)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # -- built on the above --

    def wait(self, predicate: str, arg: Any = None, timeout: int = STEP_TIMEOUT_MS) -> Any:
        """Wait inside the page until the JS function ``predicate(arg)`` is truthy on a
        settled screen (no click still being answered); returns its value."""
        return self.evaluate(WAIT_JS % predicate, [arg, timeout, predicate])

    def shown(self, selector: str, timeout: int = STEP_TIMEOUT_MS) -> None:
        """Wait until an element matching ``selector`` is shown (has a box)."""
        self.wait(
            "(s) => [...document.querySelectorAll(s)].some((e) => e.getClientRects().length)",
            selector,
            timeout,
        )

    def text(self, selector: str, pattern: str, timeout: int = STEP_TIMEOUT_MS) -> str:
        """Wait until the text of an element matching ``selector`` matches the regex
        ``pattern``; returns that text."""
        return str(
            self.wait(
                "([s, p]) => [...document.querySelectorAll(s)].map((e) => e.textContent)"
                ".find((t) => new RegExp(p).test(t))",
                [selector, pattern],
                timeout,
            )
        )

    def ready(self, timeout: int = BOOT_TIMEOUT_MS) -> None:
        """Wait for the app's readiness marker; fail at once with its error if it failed."""
        state = self.evaluate(
            """async (timeout) => {
              const end = performance.now() + timeout;
              for (;;) {
                const state = document.documentElement.dataset.quandary;
                if (state === 'ready') return 'ready';
                if (state === 'failed') return 'failed: '
                  + document.getElementById('boot-error-text')?.textContent;
                if (performance.now() > end) return 'still ' + state;
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
            }""",
            timeout,
        )
        assert state == "ready", f"{self.engine}: the page did not boot: {state}"

    def click_point(self, selector: str) -> tuple[float, float]:
        """Where to click the element, once it can be clicked (``CLICKABLE``)."""
        try:
            point = self.wait(CLICKABLE, selector)
        except RuntimeError as error:
            why = self.evaluate("() => window.__unclickable")
            raise RuntimeError(f"{error}: {selector} was {why}") from error
        return point["x"], point["y"]

    def open(self, url: str) -> Tab:
        self.goto(url)
        self.ready()
        return self


# -- Firefox ---------------------------------------------------------------------


class Firefox:
    """A Node process running firefox.mjs: one Firefox, commanded a line at a time.

    Every command has a deadline: a browser that stops answering fails the test that
    was waiting, with the command's name, instead of holding the whole run until CI
    kills it. The stuck process is killed, and the next test starts a new one."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(HERE / "firefox.mjs")],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.lock = threading.Lock()
        self.next = 0
        hello = self._read("start", BOOT_TIMEOUT_MS / 1000)
        assert hello.get("ok") == "ready", hello

    def _pump(self) -> None:
        """The driver's replies, a line at a time, into a queue ("" once it exits)."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _read(self, op: str, seconds: float) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            self.kill()
            raise RuntimeError(f"firefox {op}: no answer in {seconds:.0f} s") from None
        if not line:
            raise RuntimeError(f"the Firefox driver exited ({self.process.poll()})")
        return dict(json.loads(line))

    def __call__(self, op: str, **fields: Any) -> Any:
        with self.lock:
            if not self.alive:
                raise RuntimeError(f"firefox {op}: the driver is no longer running")
            self.next += 1
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps({"id": self.next, "op": op, **fields}) + "\n")
            # The longest a command may take: an in-page wait for a boot, plus margin.
            reply = self._read(op, BOOT_TIMEOUT_MS / 1000 + 60)
        assert reply["id"] == self.next, reply
        if "error" in reply:
            raise RuntimeError(f"firefox {op}: {reply['error']}")
        return reply.get("ok")

    def close(self) -> None:
        if self.process.stdin:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """The driver and the Firefox it started, at once."""
        for pid in [*descendants(self.process.pid), self.process.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()


def descendants(pid: int) -> list[int]:
    """Every process started by ``pid``, its children's children included (Linux /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class FirefoxTab(Tab):
    engine = "firefox"

    def __init__(self, firefox: Firefox, context: str, init: list[str]) -> None:
        self.ff, self.context = firefox, context
        self.id = str(firefox("page", context=context, init=init))
        self.closed = False
        self.kept: list[str] = []

    def evaluate(self, source: str, arg: Any = None) -> Any:
        return self.ff("evaluate", page=self.id, source=source, arg=arg)

    def goto(self, url: str) -> None:
        self.ff("goto", page=self.id, url=url)

    def reload(self) -> None:
        self.ff("reload", page=self.id)

    def click(self, selector: str) -> None:
        x, y = self.click_point(selector)
        self.mouse([("move", x, y, 1), ("down",), ("up",)])

    def select(self, selector: str, value: str) -> None:
        self.ff("select", page=self.id, selector=selector, value=value)

    def fill(self, selector: str, text: str) -> None:
        self.ff("type", page=self.id, selector=selector, text=text)

    def focus(self, selector: str) -> None:
        self.ff("focus", page=self.id, selector=selector)

    def keys(self, steps: list[tuple[str, str]]) -> None:
        self.ff("keys", page=self.id, steps=steps)

    def mouse(self, steps: list[tuple[Any, ...]]) -> None:
        self.ff("mouse", page=self.id, steps=steps)

    def offline(self, offline: bool) -> None:
        self.ff("offline", page=self.id, offline=offline)

    def errors(self) -> list[str]:
        if self.closed or not self.ff.alive:
            return self.kept
        return [str(e) for e in self.ff("errors", page=self.id)]

    def close(self) -> None:
        if not self.closed and self.ff.alive:
            self.kept = self.errors()
            self.ff("close", page=self.id)
            self.closed = True


# -- WebKit ----------------------------------------------------------------------

RECORDER_JS = f"""// tests/browsers: what the page showed of errors, for WebKit's WebDriver to read.
(() => {{
  const seen = (window.__browsersErrors = []);
  addEventListener('error', (e) => seen.push('[error] ' + (e.message || e.type)));
  addEventListener('unhandledrejection', (e) =>
    seen.push('[unhandledrejection] ' + ((e.reason && e.reason.message) || e.reason)));
  const error = console.error.bind(console);
  console.error = (...args) => {{
    seen.push('[console] ' + args.map((a) => (a && a.message) || String(a)).join(' '));
    error(...args);
  }};
}})();
{INSTANT_BOTS}
{POLICY_WATCH}
"""

WEBKIT_KEYS = {
    "ArrowLeft": "\ue012",
    "ArrowUp": "\ue013",
    "ArrowRight": "\ue014",
    "ArrowDown": "\ue015",
    "Enter": "\ue007",
    "Tab": "\ue004",
    "Escape": "\ue00c",
    " ": " ",
}


def webkit_site(dist: Path, into: Path) -> Path:
    """A copy of the built site whose page runs the recorder before anything else."""
    site = into / "site"
    shutil.copytree(dist, site)
    page = site / "index.html"
    html = page.read_text(encoding="utf-8")
    assert "<head>" in html
    page.write_text(html.replace("<head>", "<head>\n  " + RECORDER_TAG, 1), encoding="utf-8")
    (site / "recorder.js").write_text(RECORDER_JS, encoding="utf-8")
    return site


class WebKitTab(Tab):
    engine = "webkit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        if not os.environ.get("DISPLAY"):
            pytest.fail("WebKit needs an X server: run under xvfb-run (make browsers does).")
        driver = shutil.which("WebKitWebDriver")
        if not driver:
            pytest.fail("WebKitWebDriver is missing: run `make browsers`, which installs it.")
        self.driver = webdriver.WebKitGTK(
            options=Options(), service=Service(executable_path=driver)
        )
        # No WebDriver call waits forever: a WebKit that stops answering fails the
        # test with a timeout instead of holding the run (selenium's default is none).
        self.driver.command_executor.client_config.timeout = BOOT_TIMEOUT_MS / 1000 + 60
        self.driver.set_window_size(1024, 800)
        self.driver.set_script_timeout(BOOT_TIMEOUT_MS / 1000 + 30)
        self.kept: list[str] = []
        self.closed = False
        self.browser_pid: int | None = None
        self._watch_browser()

    @property
    def lost(self) -> bool:
        """Whether its browser exited under it (rather than being closed by the test)."""
        return not self.closed and self.browser_pid is not None and not self._browser_alive()

    def _watch_browser(self) -> None:
        """Stop the driver as soon as its browser exits. A MiniBrowser that exited in
        the middle of a command left WebKitWebDriver waiting for it for good (seen: a
        game's test held for minutes until the client's deadline, then run again);
        with the driver stopped, the waiting command fails at once, and the test with
        it, saying why on its stderr."""
        service = self.driver.service.process
        browsers = [
            pid
            for pid in descendants(service.pid)
            if Path(f"/proc/{pid}/comm").read_text(errors="replace").strip() == "MiniBrowser"
        ]
        if not browsers:
            return
        self.browser_pid = browsers[0]
        execute = self.driver.execute

        def checked(*args: Any, **kwargs: Any) -> Any:
            """Every WebDriver command (elements' too): one that failed because the
            browser exited says so, and is run again (``make browsers``)."""
            try:
                return execute(*args, **kwargs)
            except Exception as error:
                if self.lost:
                    raise RuntimeError(
                        f"webkit: the browser exited (MiniBrowser {self.browser_pid})"
                    ) from error
                raise

        self.driver.execute = checked
        try:
            exited = os.pidfd_open(browsers[0])
        except ProcessLookupError:
            exited = -1
        self._closing_r, self._closing_w = os.pipe()

        def watch() -> None:
            if exited >= 0:
                ready, _, _ = select.select([exited, self._closing_r], [], [])
                os.close(exited)
            os.close(self._closing_r)
            if self.closed:
                return
            print(f"the WebKit browser (MiniBrowser {browsers[0]}) exited: its driver is stopped")
            with contextlib.suppress(ProcessLookupError):
                os.kill(service.pid, signal.SIGKILL)

        threading.Thread(target=watch, daemon=True).start()

    def _browser_alive(self) -> bool:
        try:
            stat = Path(f"/proc/{self.browser_pid}/stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")

    def evaluate(self, source: str, arg: Any = None) -> Any:
        reply = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({source})(arguments[0])).then("
            "(v) => done({ok: v === undefined ? null : v}),"
            "(e) => done({error: String((e && e.message) || e)}));",
            arg,
        )
        if "error" in reply:
            raise RuntimeError(f"webkit evaluate: {reply['error']}")
        return reply["ok"]

    def _keep(self) -> None:
        """The errors of the page about to be left (a new load starts a new list)."""
        # A page still loading has nothing to give.
        with contextlib.suppress(Exception):
            self.kept += [
                str(e) for e in self.driver.execute_script("return window.__browsersErrors || []")
            ]

    def goto(self, url: str) -> None:
        self._keep()
        self.driver.get(url)

    def reload(self) -> None:
        self._keep()
        self.driver.refresh()

    def _element(self, selector: str) -> Any:
        """The element, once a click there would reach it (``CLICKABLE``)."""
        from selenium.webdriver.common.by import By

        self.click_point(selector)
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def click(self, selector: str) -> None:
        self._element(selector).click()

    def select(self, selector: str, value: str) -> None:
        from selenium.webdriver.support.select import Select

        Select(self._element(selector)).select_by_value(value)

    def fill(self, selector: str, text: str) -> None:
        element = self._element(selector)
        element.clear()
        element.send_keys(text)

    def focus(self, selector: str) -> None:
        self.driver.execute_script("arguments[0].focus()", self._element(selector))

    def keys(self, steps: list[tuple[str, str]]) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        chain = ActionChains(self.driver)
        for what, key in steps:
            code = WEBKIT_KEYS.get(key, key)
            if what in ("down", "press"):
                chain.key_down(code)
            if what in ("up", "press"):
                chain.key_up(code)
        chain.perform()

    def mouse(self, steps: list[tuple[Any, ...]]) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        builder = ActionBuilder(self.driver, duration=0)
        pointer = builder.pointer_action
        at = (0.0, 0.0)
        for step in steps:
            if step[0] == "move":
                x, y, n = step[1], step[2], step[3] if len(step) > 3 else 1
                for i in range(1, n + 1):
                    pointer.move_to_location(
                        int(at[0] + (x - at[0]) * i / n), int(at[1] + (y - at[1]) * i / n)
                    )
                at = (x, y)
            elif step[0] == "down":
                pointer.pointer_down()
            else:
                pointer.pointer_up()
        builder.perform()

    def errors(self) -> list[str]:
        if self.closed or self.lost:
            return self.kept
        now = self.driver.execute_script("return window.__browsersErrors || []")
        return self.kept + [str(e) for e in now]

    def close(self) -> None:
        if not self.closed:
            self.kept = self.errors()
            lost = self.lost
            self.closed = True
            if hasattr(self, "_closing_w"):
                with contextlib.suppress(OSError):  # the watch ends: this exit is ours
                    os.write(self._closing_w, b"x")
                os.close(self._closing_w)
            if not lost:
                self.driver.quit()


# -- fixtures --------------------------------------------------------------------


@pytest.fixture(scope="session")
def built() -> Path:
    """dist/, rebuilt if its sources changed (one worker builds, the others wait)."""
    ensure_built(DIST)
    return DIST


@pytest.fixture(scope="session")
def firefox_url(built: Path) -> Iterator[str]:
    server, url = serve_in_thread(built)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def webkit_dir(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return webkit_site(built, tmp_path_factory.mktemp("webkit"))


@pytest.fixture(scope="session")
def webkit_url(webkit_dir: Path) -> Iterator[str]:
    server, url = serve_in_thread(webkit_dir)
    yield url
    server.shutdown()


@pytest.fixture
def site_dir(engine: str, request: pytest.FixtureRequest) -> Path:
    """The folder the test's engine is served from (for a server of the test's own)."""
    return Path(request.getfixturevalue("webkit_dir" if engine == "webkit" else "built"))


class Firefoxes:
    """The worker's Firefox, started again if the last one stopped answering."""

    def __init__(self) -> None:
        self.current: Firefox | None = None

    def get(self) -> Firefox:
        if self.current is None or not self.current.alive:
            if self.current is not None:
                self.current.close()
            self.current = Firefox()
        return self.current

    def close(self) -> None:
        if self.current is not None:
            self.current.close()


@pytest.fixture(scope="session")
def firefoxes() -> Iterator[Firefoxes]:
    if not Path(os.environ.get("QUANDARY_FIREFOX", "/usr/bin/firefox-esr")).exists():
        pytest.fail("firefox-esr is missing: run `make browsers`, which installs it.")
    kept = Firefoxes()
    yield kept
    kept.close()


@pytest.fixture
def firefox(firefoxes: Firefoxes) -> Firefox:
    return firefoxes.get()


class Errors:
    """The errors a test expects (regexes); any other error on its pages fails it."""

    def __init__(self) -> None:
        self.expected: list[re.Pattern[str]] = [*BENIGN_CONSOLE]

    def expect(self, pattern: str) -> None:
        self.expected.append(re.compile(pattern))

    def unexpected(self, seen: list[str]) -> list[str]:
        return [e for e in seen if not any(p.search(e) for p in self.expected)]


@pytest.fixture
def page_errors() -> Errors:
    return Errors()


TabFactory = Callable[..., Tab]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_tab(
    engine: str, request: pytest.FixtureRequest, page_errors: Errors
) -> Iterator[TabFactory]:
    """A factory of fresh pages of the test's engine, each in its own storage (a new
    context in Firefox, a new session in WebKit) with bots at instant speed; every page
    is audited for errors at teardown."""
    tabs: list[Tab] = []
    contexts: list[tuple[Firefox, str]] = []

    def make() -> Tab:
        tab: Tab
        if engine == "firefox":
            firefox = request.getfixturevalue("firefox")
            context = str(firefox("context"))
            contexts.append((firefox, context))
            tab = FirefoxTab(firefox, context, [INSTANT_BOTS, POLICY_WATCH])
        else:
            tab = WebKitTab()
        tabs.append(tab)
        return tab

    yield make
    seen: list[str] = []
    for tab in tabs:
        try:
            seen += tab.errors()
        finally:
            tab.close()
    for firefox, context in contexts:
        if firefox.alive:
            firefox("closeContext", context=context)
    unexpected = page_errors.unexpected(seen)
    assert not unexpected, "errors on the page:\n" + "\n".join(unexpected)


@pytest.fixture
def site_url(engine: str, request: pytest.FixtureRequest) -> str:
    """The built site, served for the test's engine."""
    return str(request.getfixturevalue(f"{engine}_url"))
