"""Warm starts for the browser tests: one booted engine's snapshot, handed to every context.

Each test gets a browser context of its own, and a new context's Cache Storage is
empty: every page would start Pyodide cold (about 3 s here) and then, once idle,
boot a second interpreter to make the warm-start snapshot
(``static/js/snapshot.worker.js``). On two cores that was most of the suite's time.
A returning player's page restores that snapshot; so do the tests' pages, from the
one their worker's first cold start made: the same bytes a returning player's
browser would hold, for the same build, put where the page looks for them
(``static/js/snapshot-store.js``), so the page's own restore path runs unchanged.

Tests of the first start itself (test_boot.py, test_offline.py) are marked
``cold_start`` and get an empty context, as a first visit does.

The handover needs two paths the production site does not have; only the tests'
server answers them (``WarmHandler``): a blank page on the site's origin to write
the snapshot into its Cache Storage from, and the snapshot's bytes.
"""

from __future__ import annotations

import fcntl
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

from scripts.serve import Handler

PAGE = "/__warm__/"
FILE = "/__warm__/engine.snapshot"
LIMIT = 256 * 1024 * 1024
"""A snapshot far bigger than Pyodide's heap is no snapshot (the page keeps up to 96 MiB)."""

_snapshot: dict[str, Any] = {}
"""This worker's snapshot: ``bytes`` and ``path`` (its cache key's path, which names
the build's asset folder), read from the store or made by the first warm context."""

# Reads the snapshot the page kept and hands its bytes to the tests' server.
GIVE = """async (file) => {
  const cache = await caches.open('quandary-snapshots');
  const [request] = await cache.keys();
  const response = await cache.match(request);
  const sent = await fetch(file, {method: 'POST', body: await response.arrayBuffer()});
  if (!sent.ok) throw new Error(`the tests' server refused the snapshot: ${sent.status}`);
  return new URL(request.url).pathname;
}"""

# Writes the snapshot into this origin's Cache Storage, where the page restores it from.
TAKE = """async ([file, path]) => {
  const response = await fetch(file);
  if (!response.ok) throw new Error(`no snapshot from the tests' server: ${response.status}`);
  const cache = await caches.open('quandary-snapshots');
  await cache.put(new URL(path, location.origin).href, response);
}"""


class WarmHandler(Handler):
    """The site with the production headers, plus the handover's two paths."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        """The blank page and the snapshot; everything else as the site serves it."""
        path = self.path.split("?")[0]
        if path == PAGE:
            # No icon to ask for: the page is the test's own, and watched.
            page = b'<!doctype html><title>warming</title><link rel="icon" href="data:,">'
            self._bytes(page, "text/html; charset=utf-8")
        elif path == FILE and "bytes" in _snapshot:
            self._bytes(_snapshot["bytes"], "application/octet-stream")
        else:
            super().do_GET()

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        """The first cold start's snapshot, kept in this process for every later context."""
        length = int(self.headers.get("Content-Length") or 0)
        if self.path != FILE or not 0 < length <= LIMIT:
            self.send_error(404)
            return
        _snapshot["bytes"] = self.rfile.read(length)
        self.send_response(204)
        self.end_headers()

    def _bytes(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _make_snapshot(browser: Browser, origin: str, timeout_ms: int) -> None:
    """Boot the page once, cold, wait for the snapshot it keeps, and hand it over."""
    from .conftest import SNAPSHOT_KEPT, wait_js

    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.goto(origin)
        page.wait_for_selector("html[data-quandary=ready]", timeout=timeout_ms)
        wait_js(page, SNAPSHOT_KEPT, timeout=timeout_ms)
        _snapshot["path"] = page.evaluate(GIVE, FILE)
    finally:
        context.close()
    if "bytes" not in _snapshot:
        raise RuntimeError("the first cold start kept no snapshot to hand over")


def _load_or_make(store: Path, site: Path, browser: Browser, origin: str, timeout: int) -> None:
    """This build's snapshot, from ``store`` or made once and kept there.

    The store is shared by the test workers (the first makes it while the others
    wait) and by later runs of the same build: a snapshot is named by the build's
    asset folder, whose name hashes every source, as the page's own key does.
    """
    folder = re.search(r"static/v/([0-9a-f]+)/", (site / "index.html").read_text("utf-8"))
    if folder is None:
        raise RuntimeError(f"{site / 'index.html'} names no asset folder")
    kept = store / f"{folder[1]}.snapshot"
    store.mkdir(parents=True, exist_ok=True)
    with (store / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.is_file() and 0 < kept.stat().st_size <= LIMIT:
            _snapshot["bytes"] = kept.read_bytes()
            _snapshot["path"] = f"/static/v/{folder[1]}/engine.snapshot"
            return
        _make_snapshot(browser, origin, timeout)
        for old in store.glob("*.snapshot"):
            old.unlink()
        partial = kept.with_suffix(".partial")
        partial.write_bytes(_snapshot["bytes"])
        partial.replace(kept)


def warm_up(
    context: BrowserContext,
    origins: list[str],
    browser: Browser,
    store: Path,
    site: Path,
    timeout_ms: int,
) -> Page:
    """Put this build's booted-engine snapshot in ``context``'s storage for each origin,
    and give back the page that put it there, for the test to use as its first page.

    ``origins`` are base URLs of servers with ``WarmHandler`` (Cache Storage is kept
    per origin) serving the built ``site``. The snapshot comes from ``store``, or
    from one cold start of the page (see ``_load_or_make``). The page is the test's
    own: a second page would start a second renderer process, about half a second
    of each test on two cores.
    """
    page = context.new_page()
    if not origins:
        return page
    if "path" not in _snapshot:
        _load_or_make(store, site, browser, origins[0], timeout_ms)
    for origin in origins:
        page.goto(origin.rstrip("/") + PAGE)
        page.evaluate(TAKE, [FILE, _snapshot["path"]])
    return page
