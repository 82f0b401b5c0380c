"""A flood and a 30 MB message between real browsers, over the real transport.

Three devices on loopback (a real local relay, WebRTC): the host, Anna (honest)
and Mallory. An honest round trip is Anna renaming herself until her page shows
the name the host sends back, timed inside her page. Measured quiet, then while
Mallory sends 2,000 messages as fast as her transport takes them. Then Mallory
sends one 30 MB message, and the host's main thread is watched from the send until
the host's transport has closed Mallory's connection for it (at its first chunk,
static/js/gate.js): its longest task (the Long Tasks API reports those of 50 ms
or more) and the longest gap between two timer callbacks (every other task, down
to a few ms). The same over the quiet round trips is the host's own block at work,
for comparison: watched until thirty honest round trips after the big message had
passed too, as it was before, the big message's figure was mostly the host's own
work on those renames (its quiet block was as long, 57 ms, in a slow hour). Called by
``bench.room_flood``, which writes the figures to bench/results-flood.json.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from bench.rooms import percentile, ready
from scripts.relay import running_relay
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, ROOT, chromium_path
from tests.e2e.rooms import RECORDER, SEND, join

FLOOD = 2_000
BIG = 30_000_000
ROUND_TRIPS = 30

WATCH = """
window.__longest = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
}).observe({ type: 'longtask' });
window.__gap = 0;
let last = performance.now();
const beat = () => {
  const now = performance.now();
  window.__gap = Math.max(window.__gap, now - last);
  last = now;
  setTimeout(beat, 0);
};
setTimeout(beat, 0);
"""

RENAME = """async (name) => {
  const field = document.querySelector('#room-name');
  const start = performance.now();
  field.value = name;
  field.dispatchEvent(new Event('change', { bubbles: true }));
  while (!document.querySelector('.members')?.textContent.includes(name)) {
    await new Promise((done) => requestAnimationFrame(done));
  }
  return performance.now() - start;
}"""

START_FLOOD = (
    "(args) => { const start = performance.now(); window.__flood = (" + SEND + ")(args)"
    ".then(() => performance.now() - start); }"
)
"""The flood, left running while the honest round trips are timed."""


CLOSED = """async () => {
  const end = performance.now() + 30000;
  while (!window.__quandaryChannels.some((entry) => entry.channel.readyState !== 'open')) {
    if (performance.now() > end) throw new Error('the host never closed the 30 MB sender');
    await new Promise((done) => setTimeout(done, 5));
  }
}"""
"""Until one of this page's data channels (the one to Mallory) is no longer open."""


def round_trips(anna: Page, prefix: str) -> list[float]:
    return [float(anna.evaluate(RENAME, f"{prefix}{i}")) for i in range(ROUND_TRIPS)]


def host_block(host: Page) -> float:
    """The host's longest task or gap between two timer callbacks since the last reset."""
    return max(float(host.evaluate("window.__longest")), float(host.evaluate("window.__gap")))


def reset(host: Page) -> None:
    host.evaluate("() => { window.__longest = 0; window.__gap = 0; }")


def measure(dist: Path = ROOT / "dist") -> dict[str, Any]:
    """The figures, as bench/results-flood.json's "browsers" holds them."""
    with running_relay() as relay, sync_playwright() as pw:
        server, url = serve_in_thread(dist, (relay,))
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        pages = []
        for _ in range(3):
            context = browser.new_context()
            context.add_init_script(RECORDER)
            context.add_init_script(WATCH)
            pages.append(context.new_page())
        host, anna, mallory = pages
        host.goto(url)
        ready(host)
        host.click("#create-room")
        link = host.input_value("#room-link")
        join(anna, link, "Anna", 1)
        join(mallory, link, "Mallory", 2)
        reset(host)
        quiet = round_trips(anna, "Quiet")
        quiet_block = host_block(host)
        mallory.evaluate(START_FLOOD, ['{"t": "sync", "version": 0}', FLOOD])
        flooded = round_trips(anna, "Flood")
        flood_ms = float(mallory.evaluate("() => window.__flood"))
        reset(host)
        mallory.evaluate(SEND, ["y" * BIG, 1])
        host.evaluate(CLOSED)  # the host has dropped the big one, unread
        longest = float(host.evaluate("window.__longest"))
        block = host_block(host)
        after = round_trips(anna, "After")
        browser.close()
        server.shutdown()
    return {
        "honest_round_trip_ms_p50_quiet": round(statistics.median(quiet), 1),
        "honest_round_trip_ms_p95_quiet": round(percentile(quiet, 0.95), 1),
        "honest_round_trip_ms_p50": round(statistics.median(flooded), 1),
        "honest_round_trip_ms_p95": round(percentile(flooded, 0.95), 1),
        "flood_adds_ms_p50": round(statistics.median(flooded) - statistics.median(quiet), 1),
        "flood_messages": FLOOD,
        "flood_sent_in_ms": round(flood_ms),
        "big_message_bytes": BIG,
        "big_message_host_block_ms": round(block, 1),
        "big_message_host_long_task_ms": round(longest, 1),
        "host_block_quiet_ms": round(quiet_block, 1),
        "round_trip_after_big_message_ms_p50": round(statistics.median(after), 1),
        "round_trips_each": ROUND_TRIPS,
    }
