"""After one visit the page works offline in Firefox and WebKit: its service worker keeps
the site and the engine keeps its snapshot; with the server gone, a reload boots and a
game starts."""

from __future__ import annotations

from pathlib import Path

from scripts.serve import serve_in_thread
from tests.e2e.conftest import SNAPSHOT_KEPT

SW_READY = (
    "() => navigator.serviceWorker.ready.then(r => r.active && r.active.state === 'activated')"
)


def test_a_reload_with_the_server_gone_boots_and_plays(new_tab, site_dir: Path) -> None:
    server, url = serve_in_thread(site_dir)  # this test's own: it is stopped below
    try:
        tab = new_tab().open(url)
        tab.wait(SW_READY, timeout=90_000)
        tab.wait(SNAPSHOT_KEPT, timeout=90_000)
    finally:
        server.shutdown()
        server.server_close()
    tab.reload()
    tab.ready()
    tab.click("#start")
    tab.shown("#screen .table")
    assert tab.evaluate("() => navigator.serviceWorker.controller !== null")
