"""A page with nothing moving on it asks the browser for no frames.

A loop on every animation frame keeps a page drawing 60 times a second, on a phone's
battery: Dilemma's countdown loop once ran from the page's load on every screen, and an
idle lobby cost about 5% of a core. Frames are counted by wrapping
``requestAnimationFrame`` before the page's own code runs, over a second of the page's
own clock (``performance.now``), not a sleep.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import open_app, wait_js
from .play import build_first
from .test_randolph_game import challenge, page_clock, start_against_bots

FRAME_COUNTER = """(() => {
  window.__framesAsked = 0;
  const ask = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => { window.__framesAsked += 1; return ask(callback); };
})();"""

QUIET_MS = 1_000
"""How long, on the page's clock, a still screen is watched."""

COUNT_SHOWN = """() => {
  const box = document.getElementById('arena-box');
  const label = box && box.querySelector('.lead-in strong');
  const opensAt = Number(box && box.dataset.opensAt);
  if (!label || !(opensAt - performance.now() > 300)) return null;
  return opensAt;
}"""
"""The moment the shown countdown ends, while it has more than 0.3 s to run."""
TO_LAY = ".rhand [data-action=draft]:not([disabled])"
"""A card this player may lay as the challenge."""


def frames_asked_while_still(page: Page) -> int:
    """Frames the page asks for during ``QUIET_MS`` of its own clock, from now."""
    page.evaluate("window.__framesAsked = 0")
    page_clock(page, float(page.evaluate("performance.now()")) + QUIET_MS)
    return int(page.evaluate("window.__framesAsked"))


def test_an_idle_lobby_and_a_table_waiting_for_the_player_ask_for_no_frames(
    new_page, base_url
) -> None:
    page = new_page()
    page.context.add_init_script(FRAME_COUNTER)
    open_app(page, base_url)
    assert frames_asked_while_still(page) == 0
    page.click('[data-game="dilemmas"]')
    page.click("#start")
    build_first(page)  # the bots answer at once: the table then waits for this vote
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    assert frames_asked_while_still(page) == 0


def test_dilemmas_countdown_counts_on_every_frame_until_the_window_opens(
    new_page, base_url
) -> None:
    """The count between redraws is the page's own ("3, 2, 1, throw!"): while a count is
    shown, the page asks for frames, and the box opens when the count ends."""
    page = new_page()
    page.context.add_init_script(FRAME_COUNTER)
    open_app(page, base_url)
    start_against_bots(page)
    first = f"() => document.querySelector({TO_LAY!r}) ? 'lay' : ({COUNT_SHOWN})() && 'count'"
    if wait_js(page, first) == "lay":
        challenge(page)  # this player lays the first challenge; the bots race for it
    opens_at = float(wait_js(page, COUNT_SHOWN))
    page.evaluate("window.__framesAsked = 0")
    page_clock(page, opens_at)
    assert int(page.evaluate("window.__framesAsked")) > 0, "nothing counted down"
    expect(page.locator("#arena-box")).to_have_class("arena-box open")
