"""Undo in the real page: a proposal against bots taken back by the button and by Ctrl+Z,
then, once the votes are revealed, the button off with its reason (quandary/undo.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import open_app
from .play import choose_game
from .test_minister_game import _propose, _vote

PROPOSE = "Make a proposal"
VOTE = "Vote in secret"


def _hand(page: Page) -> list[str]:
    """The cards in the person's hand, as the proposal screen lists them."""
    cards = page.locator(".mm-handpick button[data-card]")
    return [cards.nth(i).get_attribute("data-card") or "" for i in range(cards.count())]


def _heading(page: Page, name: str) -> None:
    expect(page.get_by_role("heading", name=name)).to_be_visible()


def test_a_proposal_is_taken_back_until_the_votes_are_revealed(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    choose_game(page, "minister")
    page.click("#start")
    _heading(page, PROPOSE)
    undo = page.locator("#undo")
    expect(undo).to_be_disabled()
    expect(page.locator("#undo-why")).to_have_text("You have no move to take back yet.")
    hand = _hand(page)
    assert hand

    # The bots vote in secret on the proposal: nothing hidden is shown yet.
    _propose(page)
    _heading(page, VOTE)
    expect(undo).to_be_enabled()
    expect(page.locator("#undo-why")).to_have_count(0)
    undo.click()
    _heading(page, PROPOSE)
    assert _hand(page) == hand
    expect(page.locator('.mm-handpick button[aria-pressed="true"]')).to_have_count(0)

    # Ctrl+Z presses the same button (Cmd+Z on a Mac).
    _propose(page)
    _heading(page, VOTE)
    page.keyboard.press("Control+z")
    _heading(page, PROPOSE)
    assert _hand(page) == hand

    # The vote reveals everyone's votes: from then on this proposal stands.
    _propose(page)
    _heading(page, VOTE)
    _vote(page)
    expect(page.locator("#undo-why")).to_have_text(
        "Cards or choices were revealed since your move."
    )
    expect(undo).to_be_disabled()
    page.keyboard.press("Control+z")
    expect(page.get_by_role("heading", name=PROPOSE)).to_have_count(0)

    # After a reload the save gives the same answer: the reveal still stands in the way.
    page.click("#leave")
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    page.get_by_role("button", name="Continue").first.click()
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#undo-why")).to_have_text(
        "Cards or choices were revealed since your move."
    )
