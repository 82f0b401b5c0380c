"""A room's chat and reactions in real browsers, through a real relay: a host on a wide
screen and a guest on a phone talk, react, are slowed down, and hostile text stays text."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .rooms import create_room, join, open_peer

HOSTILE = "<img src=x onerror=\"document.title='pwned'\">"


def say(page: Page, text: str) -> None:
    """Type a line and send it with Enter; it went once the field is empty again."""
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("")


def test_two_devices_chat_react_and_are_slowed_down(new_page, room_url):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    anna = open_peer(lambda: new_page(viewport={"width": 390, "height": 800}), room_url)
    join(anna, link, "Anna", 1)

    # Open on the wide screen, closed on the phone, where a badge counts what arrives.
    expect(host.locator("#chat")).to_have_attribute("open", "")
    expect(anna.locator("#chat")).not_to_have_attribute("open", "")

    # Five lines in ten seconds go; the sixth is refused with a note and stays typed.
    for i in range(5):
        say(host, f"line {i}")
    host.fill("#chat-text", "one too many")
    host.press("#chat-text", "Enter")
    expect(host.locator("#chat-note")).to_contain_text("Slow down:")
    expect(host.locator("#chat-text")).to_have_value("one too many")
    expect(anna.locator("#chat-unread")).to_contain_text("5")
    expect(anna.locator("#chat-live")).to_have_text("Hana: line 4")
    anna.click("#chat summary")
    expect(anna.locator("#chat-lines li").last).to_have_text("Hana: line 4")
    expect(anna.locator("#chat-unread")).to_have_count(0)
    expect(anna.locator("#chat-lines")).not_to_contain_text("one too many")

    # Hostile text from the guest is shown on the host's screen as text, and runs nothing.
    say(anna, HOSTILE)
    line = host.locator("#chat-lines li").last
    expect(line).to_contain_text(HOSTILE)
    expect(line.locator(".chat-name")).to_have_text("Anna")
    assert host.locator("#chat-lines img").count() == 0
    assert host.title() != "pwned"

    # A reaction is a bubble by the sender's seat on the other device's scoreboard.
    host.select_option("#room-seat-kind-2", "bot:random")
    host.click("#room-start")
    expect(anna.locator(".scoreboard")).to_be_visible()
    anna.click("#react-7")
    bubble = host.locator(".scoreboard li", has_text="Anna").locator(".reaction")
    expect(bubble).to_have_text("🎉")
    expect(bubble).to_have_attribute("aria-label", "Anna reacts: party")
