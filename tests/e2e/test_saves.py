"""Games in progress in the real page: several kept at once, continued, deleted on purpose."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from .conftest import open_app
from .play import build_first, choose_game


def saved_games(page: Page):
    """The list of games in progress in the lobby."""
    return page.get_by_role("region", name="Games in progress").locator(".save")


def test_two_games_are_kept_and_the_first_continues(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    page.click("#start")
    build_first(page)
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    dilemmas = page.locator(".vote-row .dilemma").all_inner_texts()
    page.click("#leave")
    expect(saved_games(page)).to_have_count(1)
    choose_game(page, "royal")
    page.click("#start")
    expect(page.get_by_role("heading", name="Choose a target and a value card")).to_be_visible()
    page.click("#leave")
    expect(saved_games(page)).to_have_count(2)
    # The game played last comes first.
    expect(saved_games(page).first).to_contain_text("Royal Dilemma")
    first = saved_games(page).filter(has_text="The Game of Dilemmas")
    expect(first).to_contain_text("round 1 of 5")
    expect(first).to_contain_text("You, Bot Ada and Bot Bo")
    expect(first).to_contain_text("last played just now")
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    expect(saved_games(page)).to_have_count(2)
    saved_games(page).filter(has_text="The Game of Dilemmas").get_by_role(
        "button", name="Continue"
    ).click()
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    assert page.locator(".vote-row .dilemma").all_inner_texts() == dilemmas


def test_deleting_a_saved_game_asks_first(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    page.click("#start")
    page.click("#leave")
    game = saved_games(page).first
    game.get_by_role("button", name="Delete", exact=True).click()
    # The focus stays on the safe choice: Enter now keeps the game.
    expect(game.get_by_role("button", name="Keep it")).to_be_focused()
    page.keyboard.press("Enter")
    expect(game.get_by_role("button", name="Continue")).to_be_visible()
    game.get_by_role("button", name="Delete", exact=True).click()
    game.get_by_role("button", name="Yes, delete").click()
    expect(page.get_by_role("region", name="Games in progress")).to_have_count(0)
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    expect(page.get_by_role("region", name="Games in progress")).to_have_count(0)


def test_an_old_unreadable_save_is_listed_as_damaged(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        ["quandary.save", json.dumps({"table": {"format": 1, "seats": "nope"}, "seen": 0})],
    )
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    damaged = saved_games(page).first
    expect(damaged).to_contain_text("cannot be continued")
    expect(damaged).to_contain_text("it has no seats")
    assert page.evaluate("localStorage.getItem('quandary.save')") is None
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    page.click("#leave")
    expect(saved_games(page)).to_have_count(2)
    damaged = saved_games(page).filter(has_text="cannot be continued")
    damaged.get_by_role("button", name="Delete", exact=True).click()
    damaged.get_by_role("button", name="Yes, delete").click()
    expect(saved_games(page)).to_have_count(1)
    expect(saved_games(page).first).to_contain_text("The Game of Dilemmas")
