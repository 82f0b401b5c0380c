"""Rooms that survive people leaving, in real browsers: every phase of every game.

Three devices (Hana hosting, Anna and Ben) play each game through a local relay,
with the room's shortest waiting time. A random player (``act``) makes moves on
every device through the page's own controls. The first time the room reaches
each phase of the game, a device's tab is closed for good:

- in the host walk, the device that hosts at that moment: the others must carry
  the game on under a successor (after the first phase, the successor itself
  leaves, so the role passes again), and the closed device comes back through
  the link as a guest and gets its seat back;
- in the guest walk, a guest's: the host is offered a bot for the seat and takes
  it, the game goes on, and the guest comes back to its seat.

Either way the game must reach its end on every device still open, and no device
may have heard from any host a card that only another player held (``_audit``). These walks
take minutes (each succession waits out the room's waiting time), so they run in
``make monkey``, not in ``make test``.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from quandary.net.host import PATIENCE
from quandary.net.succession import SUCCESSION_MS

from .conftest import BOOT_TIMEOUT_MS, shipped_games
from .rooms import JOIN_TIMEOUT_MS, create_room, join, open_peer

GAMES = shipped_games("dilemmas", "randolph", "minister", "royal")
CLOSED = "page-closed"
"""Marks where a device's page closed in what it heard: it knew nothing until it came back."""
HIDDEN_HANDS = {"dilemmas", "minister", "royal"}
"""Games whose hands are secret (Dilemma's hands are open: its secrets are choices)."""
NAMES = ["Hana", "Anna", "Ben"]
WALK_S = 900
"""Time a walk may take (s): enough for four successions and a whole game."""
SUCCEEDED_MS = SUCCESSION_MS["short"] + JOIN_TIMEOUT_MS
OFFERED_MS = PATIENCE["short"][0] + JOIN_TIMEOUT_MS
QUICKEST = {"randolph": {"window": "quick"}}
"""The quickest pace a game offers, as the room's settings spell it: nobody throws in a
walk of Dilemma (its players only click), so every window runs to its end, and the
walk is about leaving, not about throwing (10 min a walk at the default pace, here)."""

# One random step of a player, chosen in the page: a ready submit button most of the
# time, else any enabled control that makes, shapes or acknowledges a move. Clicked
# in the page (the controls' own handlers run); returns what was clicked, or "".
ACT = """(roll) => {
  const screen = document.querySelector('#screen');
  if (!screen || screen.hasAttribute('aria-busy')) return '';
  const enabled = (sel) => [...screen.querySelectorAll(sel)].filter(
    (b) => !b.disabled && b.getAttribute('aria-disabled') !== 'true' && b.offsetParent !== null);
  const submit = enabled('[data-action="submit"]');
  const others = enabled('[data-action="move"],[data-action="draft"],' +
    '[data-action="next"],[data-action="reveal"]');
  const pool = submit.length && roll < 0.6 ? submit : others.length ? others : submit;
  if (!pool.length) return '';
  const button = pool[Math.floor(roll * 7919) % pool.length];
  button.click();
  return button.dataset.action;
}"""


@dataclass
class Device:
    name: str
    context: BrowserContext
    page: Page | None
    heard: list[dict[str, Any]] = field(default_factory=list)
    """Every message its pages verified as a host's (guests' messages are not counted:
    a successor hears other players' moves as the host, as any host does)."""

    def close(self) -> None:
        assert self.page is not None
        self.keep_heard()
        self.heard.append({"t": CLOSED})
        self.page.close()
        self.page = None

    def keep_heard(self) -> None:
        assert self.page is not None
        texts = self.page.evaluate("window.__quandaryInbox || []")
        for text in texts:
            if text.startswith('{"m":'):
                msg = json.loads(json.loads(text)["m"])
                # A backup with the view of its move: heard as the two, in that order.
                self.heard += [msg["backup"], msg["news"]] if msg.get("t") == "backed" else [msg]


def _strings(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)
    return out


def _hand_spans(heard: list[dict[str, Any]]) -> list[tuple[int, int, set[str]]]:
    """(from, to, cards): the table versions between two sightings of a device's own
    hand on one page, and the cards in both, so surely in that hand all along."""
    spans: list[tuple[int, int, set[str]]] = []
    last: tuple[int, set[str]] | None = None
    held: Any = None
    for msg in heard:
        if msg.get("t") == CLOSED:
            last, held = None, None
            continue
        if msg.get("t") == "snapshot" and isinstance(msg.get("view"), dict):
            held = msg["view"].get("hand")
        elif msg.get("t") == "update" and isinstance(msg.get("set"), dict):
            if "hand" in msg["set"]:
                held = msg["set"]["hand"]
            moved = (msg.get("add") or {}).get("hand")  # its cards moved (net/view_diff.py)
            if moved is not None and isinstance(held, list):
                held = held[moved["skip"] :] + moved["lines"]
        else:
            continue
        hand = _strings(held, set())
        version = msg.get("version")
        if isinstance(version, int):
            if last is not None:
                spans.append((last[0], version, last[1] & hand))
            last = (version, hand)
    return spans


def _told_openly(heard: list[dict[str, Any]]) -> dict[str, int]:
    """Each string a device heard outside its own hand, and the first version it did:
    what its owner is told openly about a card (say, that they captured it) is
    everyone's to know."""
    first: dict[str, int] = {}
    moment = 0
    for msg in heard:
        if isinstance(msg.get("version"), int):
            moment = msg["version"]
        view = msg.get("view") if msg.get("t") == "snapshot" else msg.get("set")
        added = msg.get("add") if msg.get("t") == "update" else None
        outside = {k: v for k, v in msg.items() if k not in ("view", "set", "add")}
        if isinstance(view, dict):
            outside["view"] = {k: v for k, v in view.items() if k != "hand"}
        if isinstance(added, dict):
            outside["add"] = {k: v for k, v in added.items() if k != "hand"}
        for text in _strings(outside, set()):
            first.setdefault(text, moment)
    return first


def _audit(devices: list[Device], hidden_hands: bool) -> None:
    """No device heard a card while it was secretly in another player's hand.

    Read from the messages alone, not from any game's list of secrets: a player's
    hand is known at each version their page was told it, and a card in it at two
    such versions of one page was in it all along in between (a device that was
    away, or hosting, heard nothing meanwhile: only what its pages saw counts). Any
    message another device heard from a host at a version in between must not
    hold that card (views, updates, logs and each backup's own part alike), unless
    the owner had been told of it outside their hand by then too (then it is open).
    A backup's room is compressed, a world in which every hidden card is dealt anew:
    that it depends on no secret is checked against the tests' own resampling in
    tests/conformance/test_dealing.py and tests/net/test_succession.py.
    """
    spans = {d.name: _hand_spans(d.heard) for d in devices}
    openly = {d.name: _told_openly(d.heard) for d in devices}
    held = {d.name: set().union(*(c for _, _, c in spans[d.name])) for d in devices}
    checked = 0
    for device in devices:
        moment = 0
        for msg in device.heard:
            if isinstance(msg.get("version"), int):
                moment = msg["version"]
            for text in _strings(msg, set()) - held[device.name]:
                for owner, owned in spans.items():
                    if owner == device.name or text not in held[owner]:
                        continue
                    checked += 1
                    if openly[owner].get(text, moment + 1) <= moment:
                        continue
                    leak = next((s for s in owned if s[0] <= moment <= s[1] and text in s[2]), None)
                    assert leak is None, (
                        f"{device.name} heard {text!r} at version {moment}, while it was in"
                        f" {owner}'s hand (versions {leak[0]} to {leak[1]}) and not open"
                    )
    if hidden_hands:
        assert checked, "no device ever heard a card another player held: the audit saw nothing"


def _phase(page: Page) -> str | None:
    return page.evaluate("document.querySelector('.game[data-phase]')?.dataset.phase ?? null")


def _over(page: Page) -> bool:
    return bool(page.evaluate("!!document.querySelector('.game[data-over]')"))


def _is_host(page: Page) -> bool:
    return "You are the host" in (page.text_content("#room-status") or "")


def _open_room(new_page, room_url: str, game: str) -> tuple[list[Device], str]:
    host = open_peer(new_page, room_url)
    link = create_room(host, NAMES[0])
    host.click("#room-more > summary")  # the room's settings are folded
    host.select_option("#room-patience", "short")
    host.select_option("#room-game", game)
    for key, value in QUICKEST.get(game, {}).items():
        host.select_option(f"#room-choice-{key}", value)
    devices = [Device(NAMES[0], host.context, host)]
    for seat, name in enumerate(NAMES[1:], start=1):
        guest = open_peer(new_page, room_url)
        join(guest, link, name, seat)
        devices.append(Device(name, guest.context, guest))
    host.click("#room-start")
    for device in devices:
        assert device.page is not None
        device.page.wait_for_selector(".game[data-phase]", timeout=JOIN_TIMEOUT_MS)
    return devices, link


def _come_back(device: Device, link: str) -> None:
    """The closed device opens the link again and must get its own seat back."""
    page = device.context.new_page()
    page.goto(link)
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    expect(page.locator(".scoreboard .me")).to_contain_text(device.name, timeout=JOIN_TIMEOUT_MS)
    device.page = page


def _drive(devices: list[Device], rng: random.Random, until) -> None:
    """Random moves on every open device until ``until()`` holds."""
    end = time.monotonic() + WALK_S
    while not until():
        assert time.monotonic() < end, "the room stopped moving"
        for device in devices:
            if device.page is not None and not _over(device.page):
                device.page.evaluate(ACT, rng.random())


def _host_leaves(devices: list[Device], link: str, rng: random.Random) -> None:
    gone = next(d for d in devices if d.page is not None and _is_host(d.page))
    gone.close()
    rest = [d for d in devices if d.page is not None]
    deadline = time.monotonic() + SUCCEEDED_MS / 1000
    # The others keep trying to play while they wait: a move now is refused, not lost.
    _drive(
        rest,
        rng,
        lambda: any(_is_host(d.page) for d in rest if d.page is not None)
        or time.monotonic() > deadline,
    )
    successor = next(d for d in rest if d.page is not None and _is_host(d.page))
    assert successor.page is not None
    # The bot may make the move that ends the game as it sits down: a finished game
    # has no seat to play, and says so no more.
    bot = f"bot playing for {gone.name}"
    successor.page.wait_for_function(
        """(bot) => document.querySelector('.game[data-over]')
            || (document.querySelector('.scoreboard')?.textContent ?? '').includes(bot)""",
        arg=bot,
        timeout=5000,
    )
    ended = _over(successor.page)
    for other in rest:
        assert other.page is not None
        if other is not successor:
            expect(other.page.locator("#room-status")).to_have_text(
                "Connected to the room.", timeout=JOIN_TIMEOUT_MS
            )
    _come_back(gone, link)
    if not ended:
        expect(successor.page.locator(".scoreboard")).not_to_contain_text(
            bot, timeout=JOIN_TIMEOUT_MS
        )


def _guest_leaves(devices: list[Device], link: str, rng: random.Random, turn: int) -> None:
    guests = [d for d in devices if d.page is not None and not _is_host(d.page)]
    gone = guests[turn % len(guests)]
    host = next(d for d in devices if d.page is not None and _is_host(d.page))
    assert host.page is not None
    gone.close()
    rest = [d for d in devices if d.page is not None]
    # Clicked in the page: the host's screen is redrawn all the time by the walk's moves.
    offer = f"""() => [...document.querySelectorAll('[data-action="cover-seat"]')]
        .find((b) => b.textContent === 'Let a bot play for {gone.name}')?.click()"""
    deadline = time.monotonic() + OFFERED_MS / 1000
    bot = f"bot playing for {gone.name}"
    host_page = host.page

    def bot_plays() -> bool:
        host_page.evaluate(offer)
        text = host_page.text_content(".scoreboard") or ""
        return bot in text or _over(host_page) or time.monotonic() > deadline

    _drive(rest, rng, bot_plays)
    if not _over(host_page):
        expect(host_page.locator(".scoreboard")).to_contain_text(bot)
    _come_back(gone, link)
    if not _over(host_page):
        expect(host_page.locator(".scoreboard")).not_to_contain_text(bot, timeout=JOIN_TIMEOUT_MS)


@pytest.mark.walk
@pytest.mark.parametrize("leaving", ["host", "guest"])
@pytest.mark.parametrize("game", GAMES)
def test_someone_leaves_at_every_phase_and_the_game_still_ends(
    new_page, room_url, game: str, leaving: str
):
    rng = random.Random(f"{game}-{leaving}")
    devices, link = _open_room(new_page, room_url, game)
    seen: list[str] = []
    while True:
        watcher = next(d.page for d in devices if d.page is not None)
        if _over(watcher):
            break
        phase = _phase(watcher)
        if phase is not None and phase not in seen:
            seen.append(phase)
            if leaving == "host":
                _host_leaves(devices, link, rng)
            else:
                _guest_leaves(devices, link, rng, len(seen))
            continue
        _drive(
            devices,
            rng,
            lambda w=watcher, p=phase: _over(w) or _phase(w) != p,
        )
    for device in devices:
        assert device.page is not None
        expect(device.page.locator(".game[data-over]")).to_be_visible(timeout=JOIN_TIMEOUT_MS)
        device.keep_heard()
    assert seen, "the game never showed a phase"
    _audit(devices, game in HIDDEN_HANDS)
