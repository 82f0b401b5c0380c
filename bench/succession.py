"""Succession benchmark: what a host's backups cost, and how soon a room plays on without it.

Two parts, written to bench/results-succession.json:

- In CPython, over the in-memory network with the transport's real cryptography
  (tests/net/memnet.py): for every game, rooms of a host and three guests play
  to a random move, the host vanishes, a guest takes over and the game is
  played to its end. Reports the bytes per move the backups add (all guests
  together) next to the bytes of the moves' own messages, and the logged events
  acknowledged before the host left and lost after (must be 0).
- In real browsers through a local relay: rooms of a host and one guest, and of a
  host and three guests; again and again the current host's page closes, the
  first seated guest takes over (``LEFT_MS`` after the close), and the closed
  device opens the link again and sits down as a guest. Reports, over the runs,
  the time from the close until the room is playable again (the successor hosts,
  every other guest is connected) and from a returning page's boot until its
  seat is back.

    .venv/bin/python -m bench.succession [--runs 20] [--rooms 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect, sync_playwright

import quandary.games  # noqa: F401 - fills the registry
from bench.rooms import percentile, ready
from quandary import engine
from quandary.net.messages import encode
from quandary.net.succession import LEFT_MS
from scripts.relay import running_relay
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path
from tests.net.test_succession import Room, _into, _log

ROOT = Path(__file__).resolve().parent.parent
PLAYABLE_MS = 120_000


def memnet_part(rooms: int) -> dict[str, Any]:
    """Backup bytes per move and acknowledged moves lost, per game."""
    out: dict[str, Any] = {}
    for game in [g.spec.id for g in engine.all_games()]:
        backup_bytes = other_bytes = moves = lost = 0
        for seed in range(rooms):
            room = Room(game, seed)
            _into(room, room.rng.randint(1, 4 if game == "royal" else 30))
            acknowledged = _log(room)
            for peer, texts in room.net.received.items():
                for text in texts:
                    size = len(text.encode())
                    if '"t":"backed"' in text:  # a backup with the view of its move
                        backed = json.loads(text)
                        part = len(encode(backed["backup"]).encode())
                        backup_bytes += part
                        other_bytes += size - part
                    elif '"t":"backup"' in text:
                        backup_bytes += size
                    elif peer in room.guests:
                        other_bytes += size
            moves += max(1, room.table.state.version)
            if room.table.over:
                continue
            room.vanish()
            room.succeed()
            after = _log(room)
            told = {index: rest for index, *rest in after}
            first = after[0][0] if after else 0
            lost += sum(1 for i, *rest in acknowledged if i >= first and told.get(i) != rest)
            room.play()
        out[game] = {
            "rooms": rooms,
            "backup_bytes_per_move": round(backup_bytes / moves),
            "other_bytes_per_move": round(other_bytes / moves),
            "acknowledged_events_lost": lost,
        }
    return out


def open_device(browser: Any, url: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(url)
    ready(page)
    return page


def wait_for_host(pages: list[Page]) -> Page:
    """The page among ``pages`` that becomes the room's host (within ``PLAYABLE_MS``)."""
    deadline = time.perf_counter() + PLAYABLE_MS / 1000
    while time.perf_counter() < deadline:
        for page in pages:
            if "You are the host" in (page.text_content("#room-status") or ""):
                return page
        pages[0].wait_for_timeout(100)  # polling the pages' text: a bench may pace itself
    raise AssertionError("nobody took the host's place")


def browser_part(runs: int, guests: int) -> dict[str, Any]:
    """Host closed → playable again, and a returning page's boot → seat back, in ms."""
    playable: list[float] = []
    seat_back: list[float] = []
    with running_relay() as relay, sync_playwright() as pw:
        _, url = serve_in_thread(ROOT / "dist", (relay,))
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        host = open_device(browser, url)
        host.click("#create-room")
        # The room's waiting time stays the default: a host whose page closed is
        # succeeded LEFT_MS later whatever it is.
        seats = max(3, guests + 1)  # the game needs three: bots fill the rest
        host.select_option("#room-seat-count", str(seats))
        link = host.input_value("#room-link")
        order = [host]
        for seat in range(1, guests + 1):
            guest = open_device(browser, link)
            guest.wait_for_selector("text=Connected to the room.", timeout=60_000)
            guest.click(f"#sit-{seat}")
            guest.wait_for_selector("#stand", timeout=30_000)
            order.append(guest)
        for seat in range(guests + 1, seats):
            host.select_option(f"#room-seat-kind-{seat}", "bot:heuristic")
        host.click("#room-start")
        for page in order:
            page.wait_for_selector(".game[data-version]", timeout=30_000)
        # order[0] hosts. Who succeeds is the room's choice (the earliest member still
        # seated and here): the bench only waits for one of the others to host.
        for _ in range(runs):
            gone, *rest = order
            context = gone.context
            gone.close()
            closed = time.perf_counter()
            successor = wait_for_host(rest)
            others = [p for p in rest if p is not successor]
            for other in others:
                expect(other.locator("#room-status")).to_have_text(
                    "Connected to the room.", timeout=PLAYABLE_MS
                )
                other.wait_for_selector(".game[data-version]", timeout=PLAYABLE_MS)
            playable.append((time.perf_counter() - closed) * 1000)
            back = context.new_page()
            back.goto(link)
            ready(back)
            booted = time.perf_counter()
            expect(back.locator("#room-status")).to_have_text(
                "Connected to the room.", timeout=PLAYABLE_MS
            )
            back.wait_for_selector(".scoreboard .me", timeout=PLAYABLE_MS)
            seat_back.append((time.perf_counter() - booted) * 1000)
            order = [successor, *others, back]
        browser.close()

    def summary(values: list[float]) -> dict[str, Any]:
        return {
            "runs": len(values),
            "median": round(statistics.median(values)),
            "p95": round(percentile(values, 0.95)),
            "max": round(max(values)),
        }

    return {
        "guests": guests,
        "wait_after_the_host_left_ms": LEFT_MS,
        "host_closed_to_playable_ms": summary(playable),
        "returning_page_ready_to_seat_back_ms": summary(seat_back),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="successions in real browsers")
    parser.add_argument("--rooms", type=int, default=10, help="memnet rooms per game")
    args = parser.parse_args()
    result = {"memnet": memnet_part(args.rooms)}
    if args.runs:
        result["browsers"] = [browser_part(args.runs, guests) for guests in (1, 3)]
    out = ROOT / "bench" / "results-succession.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
