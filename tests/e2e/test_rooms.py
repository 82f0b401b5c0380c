"""Rooms in real browsers: WebRTC through a real local Nostr relay, one context per device."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from quandary.net.host import PATIENCE
from quandary.net.succession import LEFT_MS, unpack

from .conftest import open_app
from .play import acknowledge_round, build_first, vote_first_allowed
from .rooms import (
    AHEAD,
    JOIN_TIMEOUT_MS,
    RECORDER,
    create_room,
    hand_ids,
    inbox,
    join,
    open_peer,
    rename,
)


def test_three_devices_play_a_whole_game_and_see_only_their_own_hands(new_page, room_url):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    assert re.search(r"#r=[\w-]{8,}\.[\w-]{22,}", link)
    anna, ben = open_peer(new_page, room_url, AHEAD), open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    join(ben, link, "Ben", 2)
    expect(host.locator(".members")).to_contain_text("Anna")
    expect(host.locator(".members")).to_contain_text("Ben")
    host.click("#room-start")
    devices = {"Hana": host, "Anna": anna, "Ben": ben}
    seen_hands: dict[str, set[str]] = {name: set() for name in devices}
    for number in range(1, 6):
        for name, page in devices.items():
            expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
            seen_hands[name] |= hand_ids(page)
            build_first(page)
        for page in devices.values():
            expect(page.locator(".vote-row")).to_have_count(3)
            vote_first_allowed(page)
        for page in devices.values():
            acknowledge_round(page, number)
    for page in devices.values():
        expect(page.locator(".final")).to_be_visible()
        expect(page.locator(".final-scores li")).to_have_count(3)
    # Each of Anna's moves (a dilemma built and a vote, five rounds) left her page at
    # the click, before her engine answered it: the page sends what the engine
    # prepared with the screen, rather than wait for the engine's answer to the click.
    # Her engine heard of the click only with the room's answer: one screen per move.
    assert anna.evaluate("window.__ahead") == [{"ahead": True, "held": True}] * 10
    # Audit every message each guest received, in order: a card another device
    # held may only appear once it has been shown on the table.
    for name in ("Anna", "Ben"):
        others = set().union(*(ids for other, ids in seen_hands.items() if other != name))
        assert_no_hidden_cards(inbox(devices[name]), others)
        # The audit can see cards at all: this device's own hand is in its inbox.
        assert seen_hands[name] <= set(CARD.findall(json.dumps(inbox(devices[name]))))
    # Once it is over every hand may be shown: a guest watches the game again from the
    # record the host sent it (py/quandary/replay.py), replayed on the guest's device.
    anna.get_by_role("button", name="Watch the replay").click()
    expect(anna.locator("#replay-position")).to_have_text(re.compile(r"Move 0 of \d+"))
    anna.keyboard.press("ArrowRight")
    expect(anna.locator("#replay-position")).to_have_text(re.compile(r"Move 1 of \d+"))


PATIENCE_MS = PATIENCE["normal"][0]
CARD = re.compile(r'"((?:family|deep-end)-[pnu]\d\d)"')


def assert_no_hidden_cards(messages: list[dict], hidden: set[str]) -> None:
    """Fail if a message carries a card from ``hidden`` before that card was revealed."""
    assert messages, "the recorder saw nothing"
    revealed: set[str] = set()
    for msg in messages:
        revealed |= _revealed_in(msg)
        leaked = (set(CARD.findall(json.dumps(msg))) & hidden) - revealed
        assert not leaked, f"a {msg['t']} message carried hidden cards {sorted(leaked)}"


def _revealed_in(msg: dict) -> set[str]:
    if msg.get("t") == "backed":  # a move's backup with its view: the view shows the move
        msg = msg["news"]
    view = msg.get("view") or msg.get("set") or {}
    # Lines arriving at the end of a list (net/view_diff.py).
    added = {k: m["lines"] for k, m in (msg.get("add") or {}).items()}
    tables = [view.get("dilemmas", []), added.get("dilemmas", [])] + [
        r["dilemmas"] for r in view.get("history", []) + added.get("history", [])
    ]
    return {d[k]["id"] for table in tables for d in table for k in ("positive", "negative")}


def _table_of_three(new_page, room_url):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    anna, ben = open_peer(new_page, room_url), open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    join(ben, link, "Ben", 2)
    host.click("#room-start")
    for page in (host, anna, ben):
        expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    return host, anna, ben, link


def test_a_guest_who_reloads_gets_seat_hand_and_choice_back(new_page, room_url):
    host, anna, ben, link = _table_of_three(new_page, room_url)
    used = {
        anna.locator(".card.positive").first.get_attribute("data-card"),
        anna.locator(".card.negative").first.get_attribute("data-card"),
    }
    kept = hand_ids(anna) - used
    built = build_first(anna)
    expect(anna.locator(".waiting")).to_contain_text(built[0])
    anna.reload()
    anna.wait_for_selector("html[data-quandary=ready]")
    expect(anna.locator(".waiting")).to_contain_text(built[0], timeout=JOIN_TIMEOUT_MS)
    expect(anna.locator(".scoreboard .me")).to_contain_text("Anna")
    for page in (host, ben):
        build_first(page)
    for page in (host, anna, ben):
        vote_first_allowed(page)
    for page in (host, anna, ben):
        acknowledge_round(page, 1)
    expect(anna.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    assert kept < hand_ids(anna), "the hand after the reload is the same hand"


def test_the_host_comes_back_after_its_successor_took_over_and_plays_its_seat_again(
    new_page, room_url
):
    """The host's page closes mid-round: a few seconds later Anna carries the room on,
    and the host, opening the link again, sits down as a guest in its own seat."""
    host, anna, ben, link = _table_of_three(new_page, room_url)
    build_first(anna)
    # Anna sees her dilemma accepted (the host has it, and has kept it)...
    expect(anna.locator(".waiting")).to_be_visible()
    # ...then the host's page goes away (its saved room stays in the browser's storage)...
    context = host.context
    host.close()
    # ...the guests are told the game is paused, and Anna's device takes it on.
    expect(ben.locator("#room-status")).to_contain_text("paused", timeout=JOIN_TIMEOUT_MS)
    expect(anna.locator("#room-status")).to_contain_text(
        "You are the host", timeout=LEFT_MS + JOIN_TIMEOUT_MS
    )
    expect(ben.locator(".scoreboard")).to_contain_text("bot playing for Hana")
    # The bot builds Hana's dilemma meanwhile.
    expect(ben.locator(".scoreboard li", has_text="Hana")).to_contain_text("ready")
    host = context.new_page()
    host.goto(link)
    host.wait_for_selector("html[data-quandary=ready]")
    # Its saved room makes it the host again for a moment, until it hears it was succeeded.
    expect(host.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    expect(host.locator(".scoreboard .me")).to_contain_text("Hana", timeout=JOIN_TIMEOUT_MS)
    for page in (anna, ben):
        expect(page.locator(".scoreboard")).not_to_contain_text(
            "bot playing for Hana", timeout=JOIN_TIMEOUT_MS
        )
    # The bot built Hana's dilemma while she was away; Ben's completes the round.
    build_first(ben)
    for page in (host, anna, ben):
        expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
        expect(page.locator(".vote-row")).to_have_count(3)


def test_a_wrong_secret_cannot_join(new_page, room_url):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    room, secret = re.search(r"#r=([\w-]+)\.([\w-]+)", link).groups()
    wrong = link.replace(f"{room}.{secret}", f"{room}.{secret[::-1]}")
    intruder = new_page()
    intruder.goto(wrong)
    intruder.wait_for_selector("html[data-quandary=ready]")
    expect(intruder.get_by_role("alert")).to_contain_text("Cannot join this room")
    expect(intruder.get_by_role("button", name="Create a room")).to_be_visible()
    expect(host.locator(".members li")).to_have_count(1)


def test_a_damaged_link_is_explained_with_a_way_out(new_page, room_url):
    page = new_page()
    page.goto(room_url + "#r=oops")
    page.wait_for_selector("html[data-quandary=ready]")
    expect(page.get_by_role("alert")).to_contain_text("room link is incomplete or damaged")
    page.click("#create-room")
    expect(page.locator("#room-link")).to_be_visible()


def test_a_guest_who_drops_is_shown_as_away(new_page, room_url):
    host, anna, ben, link = _table_of_three(new_page, room_url)
    presence = host.get_by_role("list", name="In the room")
    expect(presence).to_contain_text("Anna")
    anna.context.close()
    expect(presence.locator("li", has_text="Anna")).to_contain_text("away", timeout=JOIN_TIMEOUT_MS)
    expect(presence.locator("li", has_text="Ben")).not_to_contain_text("away")


def test_the_host_leaves_for_good_and_the_longest_seated_guest_carries_the_game_on(
    new_page, room_url
):
    """Real browsers, real WebCrypto: the host's tab closes for good.

    The backups the guests hold are a world nobody has seen: the others' hands in
    Ben's are not their real hands, his own part is his own hand. A few seconds
    after the host's page closed, Anna (seated first) gathers Ben's part, deals what
    neither of them has seen, signs with her own device's key, and the game goes on for both, a
    bot playing the host's seat.
    """
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    host.click("#room-more > summary")  # the room's settings are folded
    host.select_option("#room-patience", "short")
    anna, ben = open_peer(new_page, room_url), open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    join(ben, link, "Ben", 2)
    host.click("#room-start")
    for page in (host, anna, ben):
        expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    real = [hand_ids(host), hand_ids(anna), hand_ids(ben)]
    others = real[0] | real[1]
    build_first(anna)
    expect(ben.locator(".scoreboard")).to_contain_text("ready")
    received = inbox(ben)
    # Each backup comes alone, or with the view of the move it backs up (``backed``).
    backups = [m.get("backup", m) for m in received if m["t"] in ("backup", "backed")]
    assert backups, "the host backs the room up on the guests"
    # While the host was there Ben could read nothing of the others' hands, backups included.
    assert_no_hidden_cards(received, others)
    backup = backups[-1]
    world = unpack(backup["room"])["table"]["state"]
    dealt = [
        {c for c in [*h["positive"], *h["negative"], h["neutral"]] if c} for h in world["hands"]
    ]
    assert dealt[0] != real[0] and dealt[1] != real[1], "a backup held another's real hand"
    part = backup["part"]
    assert {*part["positive"], *part["negative"]} | ({part["neutral"]} - {None}) == real[2]
    host.context.close()
    expect(ben.locator("#room-status")).to_contain_text(
        "Anna's device takes the game on", timeout=JOIN_TIMEOUT_MS
    )
    expect(anna.locator("#room-status")).to_contain_text(
        "You are the host", timeout=LEFT_MS + JOIN_TIMEOUT_MS
    )
    expect(anna.locator(".notice")).to_contain_text("the room now runs on this device")
    expect(ben.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    for page in (anna, ben):
        expect(page.locator(".scoreboard")).to_contain_text("bot playing for Hana")
    expect(anna.locator(".waiting")).to_be_visible()  # Anna's dilemma was kept
    build_first(ben)
    for page in (anna, ben):
        expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
        expect(page.locator(".vote-row")).to_have_count(3)


@pytest.mark.walk
def test_a_guest_who_leaves_on_their_turn_is_played_by_a_bot_and_gets_the_seat_back(
    new_page, room_url
):
    host, anna, ben, link = _table_of_three(new_page, room_url)
    build_first(host)
    build_first(anna)
    context = ben.context
    ben.close()  # the table now waits for Ben alone
    offer = host.get_by_role("button", name="Let a bot play for Ben")
    expect(offer).to_be_visible(timeout=PATIENCE_MS + JOIN_TIMEOUT_MS)
    offer.click()
    for page in (host, anna):
        expect(page.locator(".scoreboard")).to_contain_text("bot playing for Ben")
        expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    ben = context.new_page()
    ben.goto(link)
    ben.wait_for_selector("html[data-quandary=ready]")
    expect(ben.get_by_role("heading", name="Vote on every dilemma")).to_be_visible(
        timeout=JOIN_TIMEOUT_MS
    )
    expect(host.locator(".scoreboard")).not_to_contain_text("bot playing for Ben")
    expect(ben.locator(".scoreboard .me")).to_contain_text("Ben")


HIGHEST_ID = "(() => { const real = Math.random; Math.random = () => (61 + real()) / 62; })();"
"""Every draw of ``Math.random`` in the page falls in the last 62nd of its range: the
last of Trystero's 62 id characters, 'z', which sorts after all the others."""


def test_a_device_that_has_been_in_the_room_for_minutes_still_connects_to_newcomers(
    new_page, room_url
):
    """Whoever has the smaller id makes the offer. A device that has been in the room
    for over a minute makes it from an offer prepared long ago, which the transport
    must still be able to use (static/js/room.entry.js, PooledPeerConnection).

    The host's clock is moved on by two minutes rather than waited for. The newcomer's
    id is made the largest there is (Trystero draws it from ``Math.random`` when its
    module loads), so that the host makes the offer; a random id would sort before
    the host's about half the time and test nothing.
    """
    host = new_page()
    host.context.add_init_script(RECORDER)
    host.clock.install()
    open_app(host, room_url)
    link = create_room(host, "Hana")
    host.clock.fast_forward("02:00")
    guest = new_page()
    guest.context.add_init_script(RECORDER + HIGHEST_ID)
    guest.goto(link)
    expect(guest.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    guest_id = guest.evaluate("window.__quandarySelf")
    host_id = host.evaluate("window.__quandarySelf")  # as it announced itself to the relay
    assert guest_id == "z" * 20 and guest_id > host_id, (guest_id, host_id)


def test_the_host_closes_the_room_to_newcomers_and_removes_a_player_whose_seat_a_bot_takes(
    new_page, room_url
):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    anna = open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    host.click("#room-more > summary")  # the room's settings are folded
    host.check("#room-locked")
    expect(host.locator("#room-locked")).to_be_checked()
    sam = open_peer(new_page, room_url)
    sam.goto(link)
    sam.wait_for_selector("html[data-quandary=ready]")
    expect(sam.locator("#room-status")).to_have_text(
        "The host has closed this room to newcomers.", timeout=JOIN_TIMEOUT_MS
    )
    host.uncheck("#room-locked")
    # The newcomer's page keeps asking, and gets in once the room is open again.
    expect(sam.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    rename(sam, "Sam")
    sam.click("#sit-2")
    expect(host.locator("#room-start")).to_be_enabled()
    host.click("#room-start")
    for page in (host, anna, sam):
        expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    host.get_by_role("button", name="Remove Sam from the room").click()
    expect(sam.locator("#room-status")).to_have_text("The host removed you from this room.")
    expect(sam.locator("#create-room")).to_be_visible()
    presence = host.get_by_role("list", name="In the room")
    expect(presence).not_to_contain_text("Sam")
    # A bot builds for the removed seat: the round reaches its vote.
    build_first(host)
    build_first(anna)
    for page in (host, anna):
        expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()


def test_on_a_phone_the_host_is_away_notice_is_in_view_wherever_the_player_scrolled(
    new_page, room_url
):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    anna = new_page(viewport={"width": 360, "height": 740}, has_touch=True)
    anna.context.add_init_script(RECORDER)
    join(anna, link, "Anna", 1)
    ben = open_peer(new_page, room_url)
    join(ben, link, "Ben", 2)
    host.click("#room-start")
    expect(anna.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    anna.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    status = anna.locator("#room-status")
    expect(status).not_to_be_in_viewport()
    host.context.close()
    expect(status).to_contain_text("host", timeout=JOIN_TIMEOUT_MS)
    expect(status).to_have_class(re.compile(r"\burgent\b"))
    expect(status).to_be_in_viewport()
    # A move made down at the table while the host is away: its answer is in view too.
    build_first(anna)
    notice = anna.locator("#room-notice")
    expect(notice).to_contain_text("your move was not sent")
    expect(notice).to_be_in_viewport()
