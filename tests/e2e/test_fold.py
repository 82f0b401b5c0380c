"""Every setup fits a screen: a newcomer sees Start without scrolling.

After a game is chosen the page brings its setup into view (app.entry.js); from there
the setup's Start button must be within the viewport, on a 360 x 740 phone and on a
1280 x 720 desktop, for every game and for a room's seat screen. Advanced options are
folded (a <details> whose summary line says what is chosen), so they cost one line.
Each measurement is printed (``pytest -s``) for the record.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from quandary import catalog
from tests.fifth import in_tests

from .conftest import open_app, wait_js
from .rooms import create_room

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 720}}
GAMES = [entry.id for entry in catalog.entries() if not in_tests(entry)]
"""Every game the app ships (a new game is walked with nothing to add here); the
tests' own game (``tests/fifth``) is not on the page."""

# The page has stopped moving (a smooth scroll to the setup ends): the same scroll
# position over a few frames.
SETTLED = """async () => {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const before = scrollY;
  await frames(); await frames();
  return scrollY === before;
}"""


def bottom_of(page: Page, selector: str) -> float:
    """How far below the viewport's top the element ends, in CSS pixels."""
    wait_js(page, SETTLED)
    box = page.locator(selector).evaluate("(e) => e.getBoundingClientRect().bottom")
    return float(box)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_a_chosen_setup_shows_its_start(new_page, base_url, game: str, size: str) -> None:
    viewport = SIZES[size]
    phone = size == "phone"
    page = open_app(new_page(viewport=viewport, has_touch=phone, is_mobile=phone), base_url)
    card = page.locator(f'[data-action="choose-game"][data-game="{game}"]')
    if phone:
        card.tap()
    else:
        card.click()
    expect(page.locator("#setup-title")).to_be_in_viewport()
    bottom = bottom_of(page, "#start")
    top = float(page.locator("#setup-title").evaluate("(e) => e.getBoundingClientRect().top"))
    print(
        f"| {game:<9} {size:<8} title at {top:.0f}, Start ends at {bottom:.0f}"
        f" of {viewport['height']} px"
    )
    assert bottom <= viewport["height"], (
        f"{game} on a {size}: Start ends {bottom - viewport['height']:.0f} px below the screen"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_a_room_seat_screen_shows_its_start(new_page, room_url, size: str) -> None:
    viewport = SIZES[size]
    phone = size == "phone"
    page = open_app(new_page(viewport=viewport, has_touch=phone, is_mobile=phone), room_url)
    create_room(page, "Ada")
    page.evaluate("scrollTo(0, 0)")
    expect(page.locator("#room-start")).to_be_attached()
    bottom = bottom_of(page, "#room-start")
    print(f"| room      {size:<8} Start the game ends at {bottom:.0f} of {viewport['height']} px")
    assert bottom <= viewport["height"], (
        f"room on a {size}: Start the game ends {bottom - viewport['height']:.0f} px below"
    )
