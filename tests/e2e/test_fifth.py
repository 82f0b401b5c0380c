"""The test-only fifth game (``tests/fifth``, Pebbles) on the real page, to its end.

It proves a game is one descriptor: the package registers itself as the four
games do, and a build for the tests alone (``scripts/build.py``, ``games``) puts
it beside ``quandary`` with nothing else added. The lobby lists it, a table of it
is drawn by its own renderer (which lives with it), and the shared end screen
follows, with no error on the page. The site's own build never holds it
(``test_the_sites_build_holds_no_game_of_the_tests``).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scripts.build import ensure_built
from scripts.serve import Handler, serve_in_thread

from .conftest import DIST, ROOT, open_app
from .play import (
    choose_game,
    expect_every_score_on_the_final_screen,
    lobby_seat_names,
    wait_until_answered,
)

GAMES = ("tests.fifth",)
FIFTH = ROOT / "build" / "dist-fifth"
"""The build for this test alone (git-ignored, rebuilt when a source changes)."""


@pytest.fixture(scope="module")
def fifth_url() -> Iterator[str]:
    """The site built with the test-only game, served on a free loopback port."""
    ensure_built(FIFTH, GAMES)
    server, url = serve_in_thread(FIFTH, handler=Handler)
    yield url
    server.shutdown()


def _archive(site: Path) -> list[str]:
    """The files of a build's Python archive."""
    (archive,) = site.glob("static/v/*/quandary.zip")
    with zipfile.ZipFile(archive) as opened:
        return opened.namelist()


@pytest.mark.cold_start  # its build's warm start would not hold the test game: first visit
def test_a_game_that_lives_in_the_tests_plays_to_its_end_on_the_page(
    new_page, fifth_url: str
) -> None:
    page: Page = open_app(new_page({"width": 1280, "height": 800}), fifth_url)
    choose_game(page, "pebbles")
    names = lobby_seat_names(page)
    assert len(names) >= 2, names
    page.click("#start")
    rounds = 0
    final = page.locator(".final")
    while True:
        # Each click is answered before the screen is read again: a round's result
        # still on the screen while its click is handled is not the next round's.
        wait_until_answered(page)
        pebble = page.locator("button.pebble[data-action=move]:not([disabled])").first
        after = page.locator("#next")
        expect(pebble.or_(after).or_(final).first).to_be_visible()
        if final.is_visible():
            break
        if after.is_visible():
            rounds += 1
            expect(page.locator("#result-title")).to_contain_text(f"Round {rounds}:")
            after.click()
        else:
            pebble.click()
        assert rounds <= 5, "more rounds than Pebbles has"
    assert rounds >= 1
    expect_every_score_on_the_final_screen(page, names)


def test_the_sites_build_holds_no_game_of_the_tests(base_url: str) -> None:
    """The site's own build (``dist/``) has no package of the tests and its engine
    imports none: only a build for the tests carries one."""
    assert not [name for name in _archive(DIST) if name.startswith("tests/")]
    (script,) = DIST.glob("static/v/*/main.py")
    assert not re.search(r"^import tests", script.read_text("utf-8"), re.M)
    assert "pebbles" not in (DIST / "index.html").read_text("utf-8")
