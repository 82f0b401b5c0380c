"""A hidden tab says "your turn": its title and icon, a chime if the player asked for one.

Real Chromium contexts in a room through a local relay: the host's tab is hidden by
overriding ``document.hidden`` and ``visibilityState`` and sending
``visibilitychange``, as the browser does when another tab comes to the front. The
guest, played by the test, decides when the turn comes back to the host, so every
state the host's tab passes through lasts until the test moves on: no race with a
bot's moment. The chime is counted through WebAudio's oscillators (headless Chromium
plays to no speaker).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .play import build_first
from .rooms import create_room, join, open_peer

MARKED = re.compile(r"^● Your turn · ")

COUNT_TONES = """
window.tones = 0;
const made = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.tones += 1;
  return made.call(this);
};
"""
HIDE = """(hidden) => {
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  Object.defineProperty(document, 'visibilityState', {configurable: true,
    get: () => (hidden ? 'hidden' : 'visible')});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def icon(page: Page) -> str:
    return str(page.evaluate("document.querySelector('link[rel=icon]').href"))


def tones(page: Page) -> int:
    return int(page.evaluate("window.tones"))


def counting_tones(new_page):
    """A page factory whose pages count the chime's notes from their first script."""

    def make() -> Page:
        page = new_page()
        page.context.add_init_script(COUNT_TONES)
        return page

    return make


def test_a_hidden_tab_says_when_the_turn_comes_back_and_forgets_it_when_seen(
    new_page, room_url
) -> None:
    host = open_peer(counting_tones(new_page), room_url)
    # The chime is off until the player turns it on; turning it on plays it once.
    host.locator("#prefs summary").click()
    expect(host.locator("#chime")).not_to_be_checked()
    played = tones(host)
    host.locator("#chime").check()
    assert host.evaluate("localStorage.getItem('quandary:chime')") == "on"
    assert tones(host) == played + 2, "turning the chime on plays its two notes"
    host.locator("#prefs summary").click()

    link = create_room(host, "Hana")
    anna = open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    host.select_option("#room-seat-kind-2", "bot:random")
    host.click("#room-start")
    expect(host.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    title = host.title()
    assert not MARKED.match(title), title
    plain_icon = icon(host)

    # Hidden while the game waits for Hana: the tab says so at once, without a chime
    # (she left knowing it was her turn).
    played = tones(host)
    host.evaluate(HIDE, True)
    expect(host).to_have_title(MARKED)
    assert host.title() == "● Your turn · " + title
    assert icon(host).endswith("/static/icons/icon-turn.svg")

    # Hana builds; the game now waits for Anna, not for anyone at Hana's device: the
    # tab is as it was, however long Anna takes.
    build_first(host)
    expect(host).to_have_title(title)
    assert icon(host) == plain_icon
    assert tones(host) == played

    # Anna builds: the vote awaits Hana while her tab is still hidden. It says so, and
    # chimes once.
    build_first(anna)
    expect(host).to_have_title(MARKED, timeout=20_000)
    assert icon(host).endswith("/static/icons/icon-turn.svg")
    assert tones(host) == played + 2, "the chime's two notes"

    # Seen again: the tab is as it was, and the vote is on the screen.
    host.evaluate(HIDE, False)
    expect(host).to_have_title(title)
    assert icon(host) == plain_icon
    expect(host.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    assert tones(host) == played + 2
