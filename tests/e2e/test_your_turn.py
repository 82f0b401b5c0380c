"""A hidden tab says "your turn": its title and icon, a chime if the player asked for one.

Chromium runs the page; the tab is hidden by overriding ``document.hidden`` and
``visibilityState`` and sending ``visibilitychange``, as the browser does when
another tab comes to the front. The bots take their relaxed moment, so the turn
comes back to the player while the tab is hidden. The chime is counted through
WebAudio's oscillators (headless Chromium plays to no speaker).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import open_app, wait_js

TITLE = "Quandary · dilemma games to play together"
MARKED = re.compile(r"^● Your turn · Quandary")

RELAXED_BOTS = "try { localStorage.setItem('quandary:bot-speed', 'relaxed'); } catch (e) {}"
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


TAB_LOG = """() => {
  window.tabLog = [];
  const icon = () => document.querySelector('link[rel=icon]').href;
  new MutationObserver(() => window.tabLog.push([document.title, icon()]))
    .observe(document.querySelector('title'), {childList: true, characterData: true,
      subtree: true});
}"""
"""Every title the tab takes from now on, with the icon it has then (the two change
together, so the observer, which runs once they have, sees each pair as the tab showed
it): a state that lasts a moment is still seen, however busy the machine."""


def icon(page: Page) -> str:
    return str(page.evaluate("document.querySelector('link[rel=icon]').href"))


def test_a_hidden_tab_says_when_the_turn_comes_back_and_forgets_it_when_seen(
    new_page, base_url
) -> None:
    page = new_page()
    page.context.add_init_script(RELAXED_BOTS)
    page.context.add_init_script(COUNT_TONES)
    page = open_app(page, base_url)
    expect(page).to_have_title(TITLE)
    # The chime is off until the player turns it on; turning it on plays it once.
    page.locator("#prefs summary").click()
    expect(page.locator("#chime")).not_to_be_checked()
    page.locator("#chime").check()
    assert page.evaluate("localStorage.getItem('quandary:chime')") == "on"
    page.locator("#prefs summary").click()

    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    page.locator(".card.positive").first.click()
    page.locator(".card.negative").first.click()
    expect(page.locator("#submit")).to_be_enabled()
    # Hidden while the game waits for the player: the tab says so at once.
    page.evaluate(HIDE, True)
    expect(page).to_have_title(MARKED)
    assert icon(page).endswith("/static/icons/icon-turn.svg")
    tones = page.evaluate("window.tones")
    page.evaluate(TAB_LOG)
    page.click("#submit")
    # The bots build now: nobody here is awaited, the tab is as it was.
    shown = wait_js(page, "(title) => window.tabLog.find(([t]) => t === title)", TITLE, 20_000)
    assert shown[1].endswith("/static/icons/icon.svg"), shown
    # The vote awaits the player again while the tab is still hidden.
    expect(page).to_have_title(MARKED, timeout=20_000)
    assert icon(page).endswith("/static/icons/icon-turn.svg")
    assert page.evaluate("window.tones") == tones + 2, "the chime's two notes"
    page.evaluate(HIDE, False)
    expect(page).to_have_title(TITLE)
    assert icon(page).endswith("/static/icons/icon.svg")
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
