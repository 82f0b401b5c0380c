"""Room benchmark: four devices on loopback, through a real local relay and WebRTC.

Reports the time from opening the room link to being seated (with its parts:
page boot, finding the room, the seat round trip), and the move latency: from
the click that submits a move on one device until every device's page shows
the new table version, as p50/p95 over at least 100 moves (and the mover's own
round trip: until the clicking device shows it, ``round_trip``; and how long the host's
view messages are, ``view_message_chars``), with where that time
goes (``STAGES``: each page's data channels are watched as messages leave and
arrive, on the same clock; ``HOST_PARTS`` and the ``intent_*`` parts split the host's
and the clicking guest's share into their JS and their engine, watched as the page
calls its engine over PyScript's MessagePort). Writes bench/results.json.

    .venv/bin/python -m bench.rooms [--moves 100] [--runs 1] [--dist dist]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from scripts.relay import running_relay
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path, wait_js

ROOT = Path(__file__).resolve().parent.parent

# Each page notes when the table version it shows changes, and when it was clicked,
# on one clock shared by all pages of this machine (timeOrigin + now). Versions start
# again at each game, so a move is shown by the first change after its click. Each also
# notes when the frame that shows that version has been drawn (``__painted``): a message
# posted from the frame's animation callback is read once the frame's own work on the
# page's thread is done, about when the player can see the move.
PROBE = """
window.__now = () => performance.timeOrigin + performance.now();
window.__shown = [];
window.__painted = [];
// Posted past the engine log's own watch on ports (below): not an engine call.
const postUnwatched = MessagePort.prototype.postMessage;
const notePainted = (version) => requestAnimationFrame(() => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => window.__painted.push([window.__now(), version]);
  postUnwatched.call(channel.port2, null);
});
window.__clicks = [];
document.addEventListener('click', (event) => {
  window.__clicks.push(window.__now());
  window.__clickedOn = event.target.closest?.('[id]')?.id ?? null;
}, true);
let shownVersion = null;
new MutationObserver(() => {
  const version = document.querySelector('.game[data-version]')?.dataset.version ?? null;
  if (version !== shownVersion) {
    shownVersion = version;
    if (version !== null) {
      window.__shown.push([window.__now(), Number(version)]);
      notePainted(Number(version));
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
window.__wire = [];
const size = (data) => (typeof data === 'string' ? data.length : data.byteLength ?? data.size ?? 0);
const note = (way, data) => window.__wire.push([window.__now(), way, size(data)]);
const sendOnChannel = RTCDataChannel.prototype.send;
RTCDataChannel.prototype.send = function (data) {
  note('out', data);
  return sendOnChannel.call(this, data);
};
const watch = (channel) => channel.addEventListener('message', (event) => note('in', event.data));
const Connection = window.RTCPeerConnection;
window.RTCPeerConnection = function (...args) {
  const connection = new Connection(...args);
  connection.addEventListener('datachannel', (event) => watch(event.channel));
  const open = connection.createDataChannel.bind(connection);
  connection.createDataChannel = (...more) => {
    const channel = open(...more);
    watch(channel);
    return channel;
  };
  return connection;
};
window.RTCPeerConnection.prototype = Connection.prototype;
// Calls to the engine and its answers (PyScript talks to its worker over a
// MessagePort), to split a device's part of a move into its JS before, its engine,
// and its JS after.
window.__engine = [];
const postOnPort = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (...args) {
  window.__engine.push([window.__now(), 'to']);
  return postOnPort.apply(this, args);
};
const wrapped = new WeakMap();
const listen = EventTarget.prototype.addEventListener;
const unlisten = EventTarget.prototype.removeEventListener;
MessagePort.prototype.addEventListener = function (type, handler, ...rest) {
  if (type !== 'message' || typeof handler !== 'function') {
    return listen.call(this, type, handler, ...rest);
  }
  if (!wrapped.has(handler)) {
    wrapped.set(handler, function (...args) {
      window.__engine.push([window.__now(), 'from']);
      return handler.apply(this, args);
    });
  }
  return listen.call(this, type, wrapped.get(handler), ...rest);
};
MessagePort.prototype.removeEventListener = function (type, handler, ...rest) {
  return unlisten.call(this, type, wrapped.get(handler) || handler, ...rest);
};
"""

STAGES = ("to_host", "host_work", "to_guests", "drawn")
"""Where one move's time goes, each stage from the end of the one before (ms):
the clicking guest's intent reaching the host (its engine's answer to the click,
and the wire; 0 when the host moves), the host's engine judging it and sending
every view (and backup), the last guest's view arriving, and the last page
drawing the new version. A host's heartbeat may fall inside a move now and then;
the medians are what to read."""
VIEW_CHARS = 400
"""Messages the host sends that are at least this long are views: ticks and
greetings are shorter, so they are not taken for the move's answer."""


KEPT = """async () => {
  const cache = await caches.open("quandary-snapshots");
  return (await cache.keys()).length > 0;
}"""
"""Whether this page's warm-start snapshot is kept (the page's work after a first start)."""


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the values fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def _summary(values: list[float]) -> dict[str, float]:
    """A group of moves: how many, p50 and p95 (ms)."""
    return {
        "moves": len(values),
        "p50": round(percentile(values, 0.5), 1),
        "p95": round(percentile(values, 0.95), 1),
    }


def _summaries(groups: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Each group's ``_summary``."""
    return {name: _summary(values) for name, values in groups.items()}


def _sizes(values: list[float]) -> dict[str, float]:
    """How many, their median and their largest."""
    return {"messages": len(values), "p50": percentile(values, 0.5), "max": max(values)}


def ready(page: Page) -> None:
    page.wait_for_selector("html[data-quandary=ready]", timeout=90_000)


def version_of(page: Page) -> int:
    return int(page.get_attribute(".game[data-version]", "data-version") or -1)


def press(page: Page, selector: str) -> None:
    """Click the button as a person does, at the moment the bench gets to it.

    Playwright's own click first waits for the button to hold still across two of the
    page's frames, then clicks at once: every click landed just after a frame, and
    Chromium holds back the page's other tasks after a click until its next frame (the
    host's answer, arriving meanwhile, waited for it), so every move paid the longest
    wait a click can, a whole frame, where a person's click, landing anywhere within a
    frame, pays half of one on average. The button is brought into view only when it
    is not (a scroll is a frame of its own), and the click is checked to have hit it.
    """
    button = page.locator(selector)
    box = button.bounding_box()
    viewport = page.viewport_size
    if (
        box is None
        or viewport is None
        or min(box["x"], box["y"]) < 0
        or box["x"] + box["width"] > viewport["width"]
        or box["y"] + box["height"] > viewport["height"]
    ):
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
    assert box is not None, f"{selector} is not on the screen"
    clicks = page.evaluate("window.__clickedOn = null; window.__clicks.length")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    hit, after = page.evaluate("[window.__clickedOn, window.__clicks.length]")
    assert after == clicks + 1, f"the click meant for {selector} reached nothing"
    assert hit == selector.removeprefix("#"), f"the click meant for {selector} landed on {hit!r}"


def submit_with_latency(
    clicker: Page,
    pages: list[Page],
    stages: dict[str, list[float]] | None = None,
    last_pages: dict[str, int] | None = None,
) -> float:
    """Click the clicker's enabled submit; ms until every page shows a newer version.

    ``pages[0]`` is the host's. With ``stages``, the move's ``STAGES`` are added to it.
    """
    clicker.wait_for_selector("#submit:not([disabled])", timeout=30_000)
    before = version_of(clicker)
    for page in pages:
        page.evaluate("window.__wire = []; window.__engine = []")
    press(clicker, "#submit")
    clicked = clicker.evaluate("window.__clicks[window.__clicks.length - 1]")
    shown = []
    newer = f"window.__shown.filter(([t, v]) => t >= {clicked} && v > {before})"
    for page in pages:
        wait_js(page, f"() => {newer}.length > 0", None, 30_000)
        shown.append(page.evaluate(f"{newer}[0][0]"))
    if stages is not None:
        # The frame that shows it, on every page (``PAINTED``).
        painted = []
        for page, at in zip(pages, shown, strict=True):
            drawn = f"window.__painted.filter(([t, v]) => t >= {at} && v > {before})"
            wait_js(page, f"() => {drawn}.length > 0", None, 30_000)
            painted.append(page.evaluate(f"{drawn}[0][0]"))
        stages.setdefault(PAINTED, []).append(max(painted) - clicked)
        # The mover's own round trip: to the host and back, until the clicking page
        # shows the host's answer (the others may show it sooner or later).
        stages.setdefault(ROUND_TRIP, []).append(shown[pages.index(clicker)] - clicked)
        last_pages = {} if last_pages is None else last_pages
        wires = [page.evaluate("window.__wire") for page in pages]
        for name, value in _stages(clicked, max(shown), clicker is pages[0], wires).items():
            stages.setdefault(name, []).append(value)
        engine = pages[0].evaluate("window.__engine")
        for name, value in _host_parts(clicked, clicker is pages[0], wires[0], engine).items():
            stages.setdefault(name, []).append(value)
        sent = _first(wires[0], "out", clicked, VIEW_CHARS)
        stages.setdefault(VIEW_SIZES, []).extend(
            n for t, way, n in wires[0] if way == "out" and n >= VIEW_CHARS and t >= sent
        )
        for index, wire in enumerate(wires[1:], start=1):
            kind = "to_clicker" if pages[index] is clicker else "to_other"
            stages.setdefault(kind, []).append(_first(wire, "in", sent, VIEW_CHARS) - sent)
        last = shown.index(max(shown))
        role = "host" if last == 0 else "clicker" if pages[last] is clicker else "other"
        last_pages[role] = last_pages.get(role, 0) + 1
        if last != 0:
            arrived = _first(wires[last], "in", clicked, VIEW_CHARS)
            calls = pages[last].evaluate("window.__engine")
            asked, answered = _engine_call(calls, arrived, shown[last])
            for name, value in (
                ("last_js_before", asked - arrived),
                ("last_engine", answered - asked),
                ("last_js_after", shown[last] - answered),
            ):
                stages.setdefault(name, []).append(value)
        if clicker is not pages[0]:
            mine = clicker.evaluate("window.__engine")
            intent = _first(wires[pages.index(clicker)], "out", clicked, 0)
            asked, answered = _engine_call(mine, clicked, intent)
            if intent < asked:  # sent by the page at the click (app.entry.js, sendAhead)
                asked = answered = intent
            for name, value in (
                ("intent_js_before", asked - clicked),
                ("intent_engine", answered - asked),
                ("intent_js_after", intent - answered),
                ("intent_wire", _first(wires[0], "in", clicked, 0) - intent),
            ):
                stages.setdefault(name, []).append(value)
    return max(shown) - clicked


def _stages(
    clicked: float, shown: float, host_clicked: bool, wires: list[list[list[Any]]]
) -> dict[str, float]:
    """One move's ``STAGES`` from each page's wire log ([time, "in"/"out", length])."""
    host, guests = wires[0], wires[1:]
    heard = clicked if host_clicked else _first(host, "in", clicked, 0)
    sent = _first(host, "out", heard, VIEW_CHARS)
    arrived = max(_first(wire, "in", sent, VIEW_CHARS) for wire in guests)
    views = sorted(t for t, w, n in host if w == "out" and t >= sent and n >= VIEW_CHARS)
    return {
        "to_host": heard - clicked,
        "host_work": sent - heard,
        "to_guests": arrived - sent,
        "drawn": max(0.0, shown - arrived),
        "views_spread": views[min(len(guests), len(views)) - 1] - sent if views else 0.0,
    }


VIEW_SIZES = "view_chars"
"""Not a stage: the length of each view the host sent a guest for a move (its signed
envelope, as handed to the data channel), reported as ``view_message_chars``."""

PAINTED = "painted"
"""Not a stage: from the click until every page has drawn the frame that shows the move
(its animation callback and the frame's work on the page's thread after it: what a
player sees, where the latency stops at the screen's change), reported as ``painted``."""

ROUND_TRIP = "round_trip"
"""Not a stage: from the click to the clicking page showing the host's answer (the
move's round trip, as its player sees it), reported beside the every-page latency."""

LAST_PARTS = ("last_js_before", "last_engine", "last_js_after")
"""Which page shows a move last is counted (``last_page_counts``: the host's, the
clicking guest's or another guest's); when a guest's, its part from the view's arrival
is split: its JS before its engine (the signature checked), its engine, and its JS
after (the screen morphed). ``to_clicker`` and ``to_other``: from the host's first view
out to its arrival at the clicking guest and at each other guest."""

HOST_PARTS = ("host_js_before", "host_engine", "host_js_after")
"""``host_work`` split on the host's page: from the move heard to its first message to
the engine's worker, from there to the engine's last message back before the first view
left, and from that to the view leaving (signed by the transport)."""


def _host_parts(
    clicked: float, host_clicked: bool, wire: list[list[Any]], engine: list[list[Any]]
) -> dict[str, float]:
    heard = clicked if host_clicked else _first(wire, "in", clicked, 0)
    sent = _first(wire, "out", heard, VIEW_CHARS)
    asked, answered = _engine_call(engine, heard, sent)
    return {
        "host_js_before": asked - heard,
        "host_engine": answered - asked,
        "host_js_after": sent - answered,
    }


def _engine_call(engine: list[list[Any]], after: float, before: float) -> tuple[float, float]:
    """When a page first called its engine after ``after``, and when the engine's last
    answer before ``before`` arrived (both ``after`` when it made no call)."""
    asked = min((t for t, way in engine if way == "to" and t >= after), default=after)
    answers = [t for t, way in engine if way == "from" and asked <= t <= before]
    answered = max(answers, default=asked)
    return asked, answered


def _first(wire: list[list[Any]], way: str, after: float, chars: int) -> float:
    """When the first message going ``way`` and ``chars`` long or more passed, after ``after``."""
    return min((t for t, w, n in wire if w == way and t >= after and n >= chars), default=after)


def prepare(page: Page) -> None:
    """Select a legal move in the current phase without submitting it."""
    if page.locator(".vote-row").count():
        for row in range(page.locator(".vote-row").count()):
            # Each click is answered by a new screen (the YES tokens left may run
            # out), so the token is chosen afresh once the last answer is drawn.
            settled(page)
            token = page.evaluate(
                "(row) => document.querySelectorAll('.vote-row')[row]"
                "?.querySelector('.token:not([disabled])')?.id ?? null",
                row,
            )
            if token:
                page.click(f"#{token}")
    else:
        settled(page)
        page.locator(".card.positive").first.click()
        settled(page)
        page.locator(".card.negative").first.click()
    settled(page)


def settled(page: Page) -> None:
    """Wait until the page has drawn its answer to the last action (``aria-busy`` off)."""
    page.wait_for_selector("#screen:not([aria-busy])", state="attached", timeout=30_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument(
        "--dist", type=Path, default=ROOT / "dist", help="the built site to serve (A/B runs)"
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="whole runs, each with fresh browsers (see RUNS)"
    )
    args = parser.parse_args()
    each: list[dict[str, Any]] = []
    result: dict[str, Any] | None = None
    for _ in range(args.runs):
        try:
            result = one_run(args.dist, args.moves)
        except Exception as error:  # noqa: BLE001 - a failed run is counted, and the next goes on
            each.append({"failed": f"{type(error).__name__}: {str(error)[:300]}"})
        else:
            each.append(_run_figures(result))
    if result is None:
        raise SystemExit(f"no run of {args.runs} completed: {each}")
    if args.runs > 1:
        result["runs"] = _runs(each)
    out = ROOT / "bench" / "results.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


RUNS = """With ``--runs N`` the bench runs N times, each with fresh browsers, and results.json
holds the last completed run in full and, under ``runs``, each run's headline figures
(or why it failed) with their medians: this machine's speed moves from one minute to
the next (one build's move p50 measured 27 to 44 ms within an hour), so one run's
figure says little, and the issue's figures ask that every run completes."""


def _run_figures(result: dict[str, Any]) -> dict[str, float]:
    """One run's headline figures (ms)."""
    moves = result["move_latency_ms"]
    return {
        "p50": moves["p50"],
        "p95": moves["p95"],
        "round_trip_p50": moves["round_trip"]["p50"],
        "round_trip_p95": moves["round_trip"]["p95"],
        "link_to_seated_ms_median": result["join"]["link_to_seated_ms_median"],
    }


def _runs(each: list[dict[str, Any]]) -> dict[str, Any]:
    """How many runs completed, each one's figures, and their medians (``RUNS``)."""
    done = [run for run in each if "failed" not in run]
    return {
        "asked": len(each),
        "completed": len(done),
        "each": each,
        "median": {key: round(statistics.median(run[key] for run in done), 1) for key in done[0]},
    }


def one_run(dist: Path, moves: int) -> dict[str, Any]:
    """Four browsers join a room and play ``moves`` moves or more: the run's figures."""
    with running_relay() as relay, sync_playwright() as pw:
        _, url = serve_in_thread(dist, (relay,))
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        pages = []
        for _ in range(4):
            context = browser.new_context()
            context.add_init_script(PROBE)
            pages.append(context.new_page())
        host, guests = pages[0], pages[1:]
        host.goto(url)
        ready(host)
        host.click("#create-room")
        host.select_option("#room-seat-count", "4")
        link = host.input_value("#room-link")
        joins = []
        for seat, guest in enumerate(guests, start=1):
            # Each friend joins from a device of their own: the pages already open
            # finish their own start (the warm-start snapshot made after a first
            # visit) before the next one opens the link, not on the same cores.
            for page in pages[:seat]:
                wait_js(page, KEPT, None, 90_000)
            start = time.perf_counter()
            guest.goto(link)
            ready(guest)
            booted = time.perf_counter()
            guest.wait_for_selector("text=Connected to the room.", timeout=60_000)
            found = time.perf_counter()
            guest.click(f"#sit-{seat}")
            guest.wait_for_selector("#stand", timeout=30_000)
            seated = time.perf_counter()
            joins.append(
                {
                    "boot_ms": (booted - start) * 1000,
                    "find_room_ms": (found - booted) * 1000,
                    "seat_ms": (seated - found) * 1000,
                    "link_to_seated_ms": (seated - start) * 1000,
                }
            )
        # The moves are timed once every device has finished starting (the last
        # guest's snapshot too): play, not start-up, is what they measure.
        for page in pages:
            wait_js(page, KEPT, None, 90_000)
        latencies: list[float] = []
        stages: dict[str, list[float]] = {}
        by_clicker: dict[str, list[float]] = {}
        by_move: dict[str, list[float]] = {}
        last_pages: dict[str, int] = {}
        while len(latencies) < moves:
            host.click("#room-start")
            for _round in range(5):
                for _phase in range(2):
                    for page in pages:
                        page.wait_for_selector(
                            "#submit:not([disabled]), .vote-row, .card", timeout=30_000
                        )
                        prepare(page)
                        latency = submit_with_latency(page, pages, stages, last_pages)
                        latencies.append(latency)
                        by_clicker.setdefault("host" if page is host else "guest", []).append(
                            latency
                        )
                        # The last of a phase's four moves reveals what everyone chose:
                        # every page draws a new phase (and its animations) at once.
                        kind = "ends_phase" if page is pages[-1] else "within_phase"
                        by_move.setdefault(kind, []).append(latency)
                for page in pages:
                    page.click("#next")
            for page in pages:
                page.wait_for_selector(".final")
            host.click("#again")
        browser.close()
    result = {
        "peers": 4,
        "join": {
            "link_to_seated_ms_each": [round(j["link_to_seated_ms"]) for j in joins],
            "link_to_seated_ms_median": round(
                statistics.median(j["link_to_seated_ms"] for j in joins)
            ),
            "parts_ms_median": {
                k: round(statistics.median(j[k] for j in joins))
                for k in ("boot_ms", "find_room_ms", "seat_ms")
            },
        },
        "move_latency_ms": {
            "moves": len(latencies),
            "p50": round(percentile(latencies, 0.5), 1),
            "p95": round(percentile(latencies, 0.95), 1),
            "max": round(max(latencies), 1),
            "round_trip": _summary(stages.pop(ROUND_TRIP)),
            "painted": _summary(stages.pop(PAINTED)),
            "view_message_chars": _sizes(stages.pop(VIEW_SIZES)),
            "by_clicker": _summaries(by_clicker),
            "by_move": _summaries(by_move),
            "last_page_counts": last_pages,
            "stages_ms": {
                name: {
                    "p50": round(percentile(stages[name], 0.5), 1),
                    "p95": round(percentile(stages[name], 0.95), 1),
                }
                for name in stages
            },
        },
    }
    return result


if __name__ == "__main__":
    main()
