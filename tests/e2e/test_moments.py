"""Moments in the real page: bots that take a moment, reveals that never hold a player back."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from .conftest import open_app, wait_js
from .moments import install, wait_for_moment
from .play import build_first, vote_first_allowed

HALF_SECOND_MS = 500
SEEN_THINKING = """() => {
  const line = document.querySelector('#thinking')?.textContent.trim();
  const status = [...document.querySelectorAll('.scoreboard .status')]
    .map((s) => s.textContent.trim());
  return line === 'Bot Ada and Bot Bo are thinking…'
    && status[1] === 'thinking…' && status[2] === 'thinking…';
}"""
"""Both bots shown thinking, in the line under the table and beside their names."""
WATCH_THINKING = (
    "() => {\n  const seen = "
    + SEEN_THINKING
    + """;
  window.thinkingSeen = false;
  const observer = new MutationObserver(() => {
    if (seen()) { window.thinkingSeen = true; observer.disconnect(); }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
}"""
)
"""Note in the page when SEEN_THINKING holds after any change to it, however briefly. A
polling wait looks every 20 ms and only at a screen not busy with a click's answer; on a
loaded machine (CI's did it once) the bots' moment, counted from the click, passed
between its looks."""


BANNER_PROPERTIES = """(banner) => [...new Set(banner.getAnimations().flatMap((animation) =>
  animation.effect.getKeyframes().flatMap((frame) => Object.keys(frame))))]
  .filter((key) => !['offset', 'computedOffset', 'easing', 'composite'].includes(key))"""


def test_a_normal_bot_is_seen_thinking_then_its_move_arrives(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    expect(page.locator("#bot-speed")).to_have_value("instant")  # the tests' preset
    page.click("#setup-more > summary")  # the setup's options are folded
    page.select_option("#bot-speed", "normal")
    wait_js(page, "() => true")  # the engine has answered: the choice is stored
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    expect(page.locator("#bot-speed")).to_have_value("normal")  # kept on the device
    page.evaluate(WATCH_THINKING)
    page.click("#start")
    started = page.evaluate("performance.now()")
    # The bots build their dilemmas while the player does: first they are seen thinking,
    # in the line and beside each name, on one screen (noted in the page as it is drawn)…
    wait_js(page, "() => window.thinkingSeen", None, 10_000)
    statuses = page.locator(".scoreboard .status")
    # …then their moves arrive by themselves, with the player still building.
    idle = "() => !document.querySelector('#thinking') && performance.now()"
    done = wait_js(page, idle, None, 10_000)
    expect(statuses.nth(1)).to_have_text("ready")
    expect(statuses.nth(2)).to_have_text("ready")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    assert done - started >= 700, "a normal bot takes 0.8 to 1.5 s"
    build_first(page)
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    expect(page.locator("#thinking")).to_have_text("Bot Ada and Bot Bo are thinking…")


def test_controls_are_usable_within_half_a_second_of_a_reveal(new_page, base_url) -> None:
    page = new_page()
    install(page)
    open_app(page, base_url)
    page.click("#start")
    build_first(page)
    turning = wait_for_moment(page, "dilemma-1-")
    assert turning["count"] == 3 and turning["animations"] == 3, "each dilemma turns over"
    assert turning["action"] is not None and turning["action"] < HALF_SECOND_MS
    assert 0 < turning["planned"] < HALF_SECOND_MS
    vote_first_allowed(page)
    result = wait_for_moment(page, "result-1-")
    assert result["control"] == "next"
    assert result["action"] is not None and result["action"] < HALF_SECOND_MS
    assert 0 < result["planned"] < HALF_SECOND_MS
    expect(page.locator("#next")).to_be_enabled()
    # The tallies count up to the real numbers.
    expect(page.locator(".results .yes [data-count]").first).to_have_text(re.compile(r"^\d+$"))
    # Points fly to the scorer when a score changes under the morph.
    page.evaluate(
        "() => { const s = document.querySelector('.scoreboard .score');"
        " s.textContent = String(Number(s.textContent) + 3); }"
    )
    expect(page.locator(".scoreboard li").first.locator(".points-fly").last).to_have_text("+3")
    expect(page.locator(".points-fly")).to_have_count(0)  # and go by themselves
    page.click("#next")
    banner = page.locator("#round-banner-2")
    expect(banner).to_have_text("Round 2 of 5")
    # It moves by opacity and transform alone, which the compositor runs without the
    # page's thread (one property more, and the page drew each of its frames itself).
    animated = banner.evaluate(BANNER_PROPERTIES)
    assert animated and set(animated) <= {"opacity", "transform"}, animated
    expect(banner).to_be_hidden(timeout=5_000)  # announced, then gone by itself


def test_reduced_motion_reveals_at_once(browser: Browser, new_page, base_url) -> None:
    context = browser.new_context(reduced_motion="reduce", service_workers="block")
    try:
        context.add_init_script("localStorage.setItem('quandary:bot-speed', 'instant')")
        page = new_page(context=context)
        install(page)
        open_app(page, base_url)
        page.click("#start")
        build_first(page)
        turning = wait_for_moment(page, "dilemma-1-")
        assert turning["animations"] == 0 and turning["planned"] == 0
        assert turning["action"] == 0
        vote_first_allowed(page)
        result = wait_for_moment(page, "result-1-")
        assert result["animations"] == 0 and result["planned"] == 0
        assert result["action"] == 0
    finally:
        context.close()
