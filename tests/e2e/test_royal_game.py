"""Royal Dilemma in the real page: a whole game against a bot, the phone width, and a room."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from .conftest import open_app
from .play import (
    choose_game,
    expect_every_score_on_the_final_screen,
    lobby_seat_names,
    set_seats,
    tab_to,
)
from .rooms import JOIN_TIMEOUT_MS, create_room, inbox, join, open_peer

CHOOSE = "Choose a target and a value card"


def hand(page: Page) -> set[str]:
    """The value cards this device shows in its hand."""
    return set(page.locator("button.pcard.value").evaluate_all("b => b.map(e => e.dataset.value)"))


def start_royal(page: Page, seats: list[tuple[str, str]] | None = None) -> list[str]:
    """Pick Royal Dilemma in the lobby, fill the seats (or keep its defaults) and start;
    the players' names."""
    choose_game(page, "royal")
    if seats is not None:
        set_seats(page, seats)
    names = lobby_seat_names(page)
    # Setup says up front how long the deck lets a game at this table last, and why.
    length = page.locator(".game-length")
    expect(length).to_contain_text(f"With {len(names)} players the game lasts")
    expect(length).to_contain_text(f"After the deal the deck holds {36 - len(names)} value cards")
    page.click("#start")
    return names


def choose_cards(page: Page, target_index: int = 1) -> None:
    """Pick a target card and the first value card by clicking, then play them face down."""
    expect(page.get_by_role("heading", name=CHOOSE)).to_be_visible()
    page.locator("button.pcard.target").nth(target_index).click()
    expect(page.locator('button.pcard.target[aria-pressed="true"]')).to_have_count(1)
    page.locator("button.pcard.value").first.click()
    expect(page.locator(".royal-preview")).to_contain_text("You will")
    page.click("#submit")
    expect(page.locator("#submit")).to_have_count(0)


def play_to_the_end(page: Page) -> int:
    """Choose, capture and read each round's retelling until the final screen; rounds seen."""
    rounds = 0
    screens = page.locator(".final, #next, button.pcard.capture, #submit")
    for _ in range(60):
        expect(screens.first).to_be_visible()
        if page.locator(".final").count():
            return rounds
        if page.locator("#next").count():
            heading = page.locator("#result-title").inner_text()
            expect(page.locator(".royal-steps li").first).to_be_visible()
            page.click("#next")
            expect(page.get_by_role("heading", name=heading)).to_have_count(0)
            rounds += 1
        elif page.locator("button.pcard.capture").count():
            page.locator("button.pcard.capture").first.click()
            expect(page.locator("button.pcard.capture")).to_have_count(0)
        else:
            choose_cards(page)
    raise AssertionError("the game did not end")


def test_a_newcomers_first_game_with_the_default_seats_to_the_end_screen(
    new_page, base_url
) -> None:
    """Royal Dilemma chosen and started with the lobby's defaults (you and a clever bot,
    no seat or option touched), played through the page to every player's score."""
    page = open_app(new_page({"width": 1280, "height": 800}), base_url)
    names = start_royal(page)
    assert len(names) == 2, names
    expect(page.get_by_role("heading", name=CHOOSE)).to_be_visible()
    # Both realms, the deck and the hand are drawn as cards.
    expect(page.locator(".realm")).to_have_count(2)
    expect(page.locator(".realm").first).to_contain_text("Ace of Spades")
    expect(page.locator("button.pcard.value svg").first).to_be_visible()
    rounds = play_to_the_end(page)
    assert rounds >= 2
    expect_every_score_on_the_final_screen(page, names)
    page.get_by_role("button", name="Play again").click()
    expect(page.get_by_role("heading", name=CHOOSE)).to_be_visible()


def test_phone_width_has_no_sideways_scrolling(new_page, base_url) -> None:
    page = open_app(new_page(viewport={"width": 360, "height": 740}), base_url)
    start_royal(
        page, [("Robin", "human"), ("Bot Ada", "bot:builder"), ("Bot Bo", "bot:opportunist")]
    )
    expect(page.get_by_role("heading", name=CHOOSE)).to_be_visible()
    # Three players: after round 1's draw of 9 to 12 the deck's 21 to 24 cards cover more.
    expect(page.locator("#turn-title")).to_contain_text(re.compile(r"round 1 \(at most [23]\)"))
    expect(page.locator("#royal-length")).to_contain_text("cover at most")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    choose_cards(page, target_index=0)
    expect(page.locator(".final, #next, button.pcard.capture").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


SPLIT_WORDS = """() => {
  const range = document.createRange();
  const out = [];
  const texts = document.createTreeWalker(document.querySelector('#screen'), NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const shown = node.parentElement;
    if (!shown || shown.closest('.sr-only, [hidden], svg')) continue;
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()]
        .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(`${m[0]} in ${shown.tagName.toLowerCase()}`);
    }
  }
  return out;
}"""
"""The words on the screen laid out over two lines (a Range per word has client rects on
two lines), as test_minister_game measures card titles."""


def test_no_word_or_number_breaks_inside_on_a_phone(new_page, base_url) -> None:
    """At 360 px, every screen of a game to its end keeps each word and number whole: a
    round's scores once split a score ('2' over '8') beside '(+10 this round)'. (A sweep of
    every screen of the other three games at 360 px found no split word.)"""
    page = open_app(new_page(viewport={"width": 360, "height": 740}), base_url)
    start_royal(
        page, [("Robin", "human"), ("Bot Ada", "bot:builder"), ("Bot Bo", "bot:opportunist")]
    )
    found: dict[str, list[str]] = {}
    screens = page.locator(".final, #next, button.pcard.capture, #submit")
    for _ in range(60):
        expect(screens.first).to_be_visible()
        split = page.evaluate(SPLIT_WORDS)
        if split:
            found[page.locator("#turn-title, #result-title, .final h2").first.inner_text()] = split
        if page.locator(".final").count():
            break
        # Each step waits for its own screen to go, as play_to_the_end does: a screen
        # read while the engine's answer is still coming may be the one just left.
        if page.locator("#next").count():
            heading = page.locator("#result-title").inner_text()
            page.click("#next")
            expect(page.get_by_role("heading", name=heading)).to_have_count(0)
        elif page.locator("button.pcard.capture").count():
            page.locator("button.pcard.capture").first.click()
            expect(page.locator("button.pcard.capture")).to_have_count(0)
        else:
            choose_cards(page)
    else:
        raise AssertionError("the game did not end")
    assert not found, f"words broken inside at 360 px: {found}"


def test_keyboard_alone_plays_a_choice(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    start_royal(page, [("Robin", "human"), ("Bot Ada", "bot:builder")])
    expect(page.get_by_role("heading", name=CHOOSE)).to_be_focused()

    tab_to(page, "button.pcard.target")
    page.keyboard.press("Enter")
    expect(page.locator('button.pcard.target[aria-pressed="true"]')).to_have_count(1)
    tab_to(page, "button.pcard.value")
    page.keyboard.press("Space")
    # Play is enabled by the engine's answer: tabbing before it would pass it by.
    expect(page.locator("#submit")).to_be_enabled()
    tab_to(page, "#submit:not([disabled])")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Round 1: how it resolved")).to_be_visible()


def test_a_round_in_a_room_with_two_people(new_page, room_url) -> None:
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    host.select_option("#room-game", "royal")
    expect(host.locator("#room-title")).to_contain_text("Royal Dilemma")
    host.select_option("#room-seat-count", "2")
    guest = open_peer(new_page, room_url)
    join(guest, link, "Gus", 1)
    expect(host.locator(".members")).to_contain_text("Gus")
    host.click("#room-start")
    for page in (host, guest):
        expect(page.get_by_role("heading", name=CHOOSE)).to_be_visible(timeout=JOIN_TIMEOUT_MS)
    host_hand, guest_hand = hand(host), hand(guest)
    assert host_hand and guest_hand and not host_hand & guest_hand
    # The host builds; the guest invades the host.
    built = host.locator("button.pcard.value").first.get_attribute("data-value")
    choose_cards(host, target_index=0)
    expect(guest.locator(".scoreboard")).to_contain_text("ready")
    choose_cards(guest, target_index=0)
    # The guest may have a capture to choose; then both read the round's retelling.
    capture = guest.locator("button.pcard.capture, #decline")
    result = guest.get_by_role("heading", name="Round 1: how it resolved")
    expect(capture.or_(result).first).to_be_visible(timeout=JOIN_TIMEOUT_MS)
    if capture.count():
        capture.first.click()
    # Each device tells the round to its own player.
    retold = {
        host: ["You (Ace of Spades) build", "Jack of Clubs (Gus) invades you (Ace of Spades)"],
        guest: ["Ace of Spades (Hana) builds", "You (Jack of Clubs) invade Ace of Spades (Hana)"],
    }
    for page, sentences in retold.items():
        expect(page.get_by_role("heading", name="Round 1: how it resolved")).to_be_visible(
            timeout=JOIN_TIMEOUT_MS
        )
        for sentence in sentences:
            expect(page.locator(".royal-steps")).to_contain_text(sentence)
        page.click("#next")
        expect(page.get_by_role("heading", name=CHOOSE)).to_be_visible(timeout=JOIN_TIMEOUT_MS)
    # Every message the guest received: the host's hand never shows, except the card it built.
    received = json.dumps(inbox(guest))
    assert received.count(f'"{built}"'), "the audit can see revealed cards"
    assert not [c for c in host_hand - {built} if f'"{c}"' in received]
