"""Where the focus goes as a new screen is drawn (static/js/draw.entry.js, app.entry.js).

A pressed button that the new screen no longer has is let go of before the morph,
on the screen it was pressed on; a new screen's heading takes the focus with the
frame that shows it, unless the player has moved the focus meanwhile.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import open_app, wait_js
from .play import wait_until_answered

FOCUS_LEFT = """
window.__left = [];
document.addEventListener('focusout', (event) => window.__left.push({
  id: event.target.id,
  connected: event.target.isConnected,
  // What the screen holds as it leaves: the old screen whole, or one half morphed.
  screen: [...document.getElementById('screen').children].map((part) => part.className).join(' '),
}));
"""

MOVE_FOCUS_AT_ONCE = """
// As soon as the table is drawn (a microtask after the morph, before the next frame),
// the player's focus lands on a card, as a quick Tab or click would.
new MutationObserver((records, observer) => {
  const card = document.querySelector('.card.positive');
  if (card === null) return;
  observer.disconnect();
  card.focus();
  window.__cardFocused = true;
}).observe(document.getElementById('screen'), { subtree: true, childList: true });
"""

NEXT_FRAMES = (
    "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
)


def test_the_pressed_button_that_leaves_is_let_go_of_on_the_screen_it_was_pressed_on(
    new_page, base_url
) -> None:
    """Start leaves with the lobby: it is blurred while the lobby is still drawn (not
    torn out mid-morph, which made the browser lay out the half-changed screen), and
    the table's heading then takes the focus."""
    page = open_app(new_page(), base_url)
    page.click('[data-action="choose-game"][data-game="dilemmas"]')
    page.evaluate(FOCUS_LEFT)
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_focused()
    left = page.evaluate("window.__left")
    assert {"id": "start", "connected": True, "screen": "lobby"} in left, left


def test_a_player_who_moves_the_focus_before_the_frame_keeps_it(new_page, base_url) -> None:
    """The table's heading waits for the frame; a focus the player moved meanwhile
    (here, within the same task as the draw) is not taken from them."""
    page = open_app(new_page(), base_url)
    page.click('[data-action="choose-game"][data-game="dilemmas"]')
    page.evaluate(MOVE_FOCUS_AT_ONCE)
    page.click("#start")
    wait_js(page, "() => window.__cardFocused === true")
    page.evaluate(NEXT_FRAMES)
    expect(page.locator(".card.positive").first).to_be_focused()
    expect(page.get_by_role("heading", name="Build your dilemma")).not_to_be_focused()


def test_a_focused_control_the_new_screen_keeps_keeps_the_focus(new_page, base_url) -> None:
    """An option ticked from the keyboard is redrawn in place (it has no id to match it
    by): the morph keeps it, and the focus stays on it for the next key."""
    page = open_app(new_page(), base_url)
    page.click('[data-action="choose-game"][data-game="dilemmas"]')
    option = page.locator('input[type="checkbox"][data-field="option"]').first
    fold = page.locator('details:has(input[type="checkbox"][data-field="option"])').first
    if fold.count() and not fold.evaluate("(details) => details.open"):
        fold.locator("summary").first.click()
    expect(option).to_be_visible()
    assert option.get_attribute("id") is None  # what the morph matches it by: its place
    option.focus()
    page.keyboard.press("Space")
    expect(option).to_be_checked()
    wait_until_answered(page)
    expect(option).to_be_focused()
