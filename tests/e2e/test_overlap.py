"""Nothing covers a control, ever: not a card turning over, not a tally rising, not points
flying to the scorer.

A watcher installed before the app loads looks at every frame (requestAnimationFrame):
for each visible, enabled control (a button, a link, a form field, a fold's summary) whose
centre is on the screen, the element the browser would hand a click at that centre
(``document.elementFromPoint``) must be the control or inside it. Anything else is an
offender, noted with what covered it. A round of each game is then played against bots,
at a phone's size and a desktop's, through its reveal, and no offender may be found.
(A round's result turning over once covered "On to round N" for up to half a second:
a card turning in perspective grows past its own box as its near edge swings out.)
An overlay that lets clicks through still hides what it covers, so the round's banner
and flying points count too (on a phone the banner once hid the header's Rules link).
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from .conftest import PRACTISED_DILEMMA, open_app, wait_js
from .test_phone import play_a_step

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 720}}
REVEALED = {
    "dilemmas": "#next",  # a round's votes turned over, and "On to round 2"
    "royal": "#next",
    "randolph": "[id^=reveal-outcome]",
    "minister": "[id^=reveal-ballot]",
}
"""What each game shows once its first round has been revealed."""
STEPS = 200

WATCH_FN = """() => {
  const found = (window.quandaryCovered = []);
  const seen = (window.quandarySeen = new Set());
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, summary';
  // Overlays that let clicks through (elementFromPoint looks past them) yet cover what is
  // under them: the round's banner, points flying to a score.
  const SEE_THROUGH = '.round-banner, .points-fly';
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className.trim()
      ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const frame = () => {
    const wanted = window.quandaryWanted || [];
    for (const selector of wanted) if (document.querySelector(selector)) seen.add(selector);
    for (const control of document.querySelectorAll(CONTROLS)) {
      if (control.disabled || control.closest('.sr-only, .skip, [hidden], [inert]')) continue;
      // Inside a closed fold (its summary aside), a control is not shown at all.
      const fold = control.closest('details:not([open])');
      if (fold && !(control.matches('summary') && control.parentElement === fold)) continue;
      const box = control.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      if (getComputedStyle(control).visibility !== 'visible') continue;
      // What takes no click (pointer-events: none) but still hides the control from sight.
      let hit = [...document.querySelectorAll(SEE_THROUGH)].find((over) => {
        if (over.contains(control)) return false;
        const look = getComputedStyle(over);
        if (look.visibility !== 'visible' || Number(look.opacity) < 0.05) return false;
        const r = over.getBoundingClientRect();
        return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
      });
      if (!hit) {
        hit = document.elementFromPoint(x, y);
        // The page's root lies over nothing: Firefox was seen to answer it, once, for the
        // lobby's file input mid-draw (no element covered it; alone, it never recurred).
        if (!hit || hit === control || control.contains(hit)) continue;
        if (hit === document.documentElement) continue;
        // A control inside a label (a checkbox) is reached through it as well.
        if (hit.control === control) continue;
      }
      const entry = name(control) + ' under ' + name(hit);
      if (found.length < 50 && !found.includes(entry)) found.push(entry);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""
"""Installs the watcher; a function, so an engine without init scripts (WebKit's
WebDriver) can call it once the page is open (tests/browsers/test_overlap.py)."""
WATCH = f"({WATCH_FN})();"

SETTLED = """() => document.getAnimations().every((a) =>
  a.playState !== 'running' || !(a.effect && a.effect.target
    && a.effect.target.closest && a.effect.target.closest('[data-reveal]')))"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(REVEALED))
def test_no_control_is_covered_through_a_round(new_page, base_url, game: str, size: str) -> None:
    phone = size == "phone"
    page: Page = new_page(viewport=SIZES[size], has_touch=True, is_mobile=phone)
    page.context.add_init_script(WATCH)
    # Bots take a moment (the page's own default), so each reveal is drawn and seen.
    page.context.add_init_script("localStorage.setItem('quandary:bot-speed', 'normal')")
    page.context.add_init_script(PRACTISED_DILEMMA)  # the usual pace: the reveal comes sooner
    open_app(page, base_url)
    page.evaluate("(s) => { window.quandaryWanted = [s]; }", REVEALED[game])
    page.tap(f'[data-action="choose-game"][data-game="{game}"]')
    expect(page.locator(f'[data-game="{game}"]')).to_have_attribute("aria-pressed", "true")
    page.tap("#start")
    expect(page.locator("#screen .table")).to_be_visible()
    rng = random.Random(7)
    thrown: list[str] = []
    for _ in range(STEPS):
        if page.evaluate("(s) => window.quandarySeen.has(s)", REVEALED[game]):
            break
        play_a_step(page, rng, thrown)
    else:
        raise AssertionError(f"{game}: no round revealed in {STEPS} steps")
    wait_js(page, SETTLED)
    covered = page.evaluate("window.quandaryCovered")
    assert not covered, f"{game} on a {size}: controls covered: {covered}"


def test_the_watcher_sees_a_control_covered_by_a_planted_sheet(new_page, base_url) -> None:
    """The check above can fail: a sheet laid over the lobby's controls is reported."""
    page = open_app(new_page(), base_url)
    page.evaluate(WATCH_FN)
    page.evaluate(
        "() => { const sheet = document.createElement('div'); sheet.id = 'planted';"
        " sheet.style.cssText = 'position:fixed;inset:0;z-index:99;background:#fff8';"
        " document.body.append(sheet); }"
    )
    covered = wait_js(page, "() => window.quandaryCovered.length && window.quandaryCovered")
    # The lobby's file input too: the root answered for it once is passed over, a sheet is not.
    assert "input#record-file under div#planted" in covered, covered
    assert "button#create-room under div#planted" in covered, covered
