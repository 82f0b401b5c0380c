"""The Game of Dilemmas in the real page: a whole game, hot-seat privacy, reload and continue."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import open_app
from .play import (
    acknowledge_round,
    build_first,
    expect_every_score_on_the_final_screen,
    lobby_seat_names,
    set_seats,
    tab_to,
    vote_first_allowed,
)


def test_a_newcomers_first_game_with_the_default_seats_and_options(new_page, base_url) -> None:
    """Choose the game and press Start with what the lobby offers (no seat or option
    touched), then play all five rounds through the page to the end screen."""
    page = open_app(new_page({"width": 1280, "height": 800}), base_url)
    page.click('[data-action="choose-game"][data-game="dilemmas"]')
    expect(page.get_by_role("heading", name="Set up The Game of Dilemmas")).to_be_visible()
    names = lobby_seat_names(page)
    assert len(names) == 3, names  # you and two bots: the smallest table
    page.click("#start")
    for number in range(1, 6):
        expect(page.locator(".turn").get_by_text(f"round {number} of 5")).to_be_visible()
        build_first(page)
        expect(page.locator(".vote-row")).to_have_count(len(names))
        vote_first_allowed(page)
        acknowledge_round(page, number)
    expect_every_score_on_the_final_screen(page, names)


def test_a_whole_game_against_two_bots(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    set_seats(page, [("Robin", "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:random")])
    page.click("#start")
    expect(page.locator("#announcer")).to_contain_text("Round 1")
    for number in range(1, 6):
        expect(page.locator(".turn").get_by_text(f"round {number} of 5")).to_be_visible()
        build_first(page)
        # The three dilemmas are revealed: one is ours.
        expect(page.locator(".vote-row")).to_have_count(3)
        expect(page.locator(".vote-row").first).to_contain_text("by you")
        vote_first_allowed(page)
        acknowledge_round(page, number)
    final = page.locator(".final")
    expect(final).to_be_visible()
    expect(final.locator(".final-scores li")).to_have_count(3)
    expect(final.get_by_role("heading")).to_contain_text("win")
    # Scores on the final screen agree with the sum of the rounds' points.
    page.get_by_role("button", name="Play again").click()
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    expect(page.locator(".turn").get_by_text("round 1 of 5")).to_be_visible()


def test_hot_seat_hides_each_hand_behind_a_privacy_screen(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    set_seats(page, [("Anna", "human"), ("Ben", "human"), ("Bot Cy", "bot:heuristic")])
    page.click("#start")
    expect(page.get_by_role("heading", name="Pass the device to Anna")).to_be_visible()
    expect(page.locator(".card")).to_have_count(0)
    page.get_by_role("button", name="I am Anna: show my cards").click()
    expect(page.locator(".card .card-text")).to_have_count(8)  # drawn once the engine answers
    anna_cards = page.locator(".card .card-text").all_inner_texts()
    build_first(page)
    expect(page.get_by_role("heading", name="Pass the device to Ben")).to_be_visible()
    assert not any(text in page.content() for text in anna_cards), "Anna's hand is still shown"
    page.get_by_role("button", name="I am Ben: show my cards").click()
    expect(page.locator(".card .card-text")).to_have_count(8)
    ben_cards = page.locator(".card .card-text").all_inner_texts()
    assert not set(ben_cards) & set(anna_cards)
    build_first(page)
    # Voting is secret too: the gate comes back for each voter.
    expect(page.get_by_role("heading", name="Pass the device to Anna")).to_be_visible()
    expect(page.locator(".token")).to_have_count(0)
    page.get_by_role("button", name="I am Anna: show my cards").click()
    vote_first_allowed(page)
    expect(page.get_by_role("heading", name="Pass the device to Ben")).to_be_visible()
    page.get_by_role("button", name="I am Ben: show my cards").click()
    vote_first_allowed(page)
    acknowledge_round(page, 1)
    expect(page.get_by_role("heading", name="Pass the device to Anna")).to_be_visible()


def test_a_game_survives_a_reload_and_continues(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    page.click("#start")
    built = build_first(page)
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    dilemmas = page.locator(".vote-row .dilemma").all_inner_texts()
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    saved = page.get_by_role("region", name="Games in progress")
    expect(saved).to_contain_text("round 1 of 5")
    saved.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    assert page.locator(".vote-row .dilemma").all_inner_texts() == dilemmas
    assert built[0] in dilemmas[0]
    vote_first_allowed(page)
    acknowledge_round(page, 1)


def test_keyboard_alone_builds_a_dilemma(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    page.focus("#start")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_focused()

    tab_to(page, ".card.positive")
    page.keyboard.press("Enter")
    expect(page.locator('.card.positive[aria-pressed="true"]')).to_have_count(1)
    tab_to(page, ".card.negative")
    page.keyboard.press("Space")
    # Build is enabled by the engine's answer: tabbing before it would pass it by.
    expect(page.locator("#submit")).to_be_enabled()
    tab_to(page, "#submit")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()


def test_phone_width_has_no_sideways_scrolling(new_page, base_url) -> None:
    page = open_app(new_page(viewport={"width": 360, "height": 740}), base_url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    build_first(page)
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_build_button_stays_put_while_cards_are_picked(new_page, base_url) -> None:
    """The second card brings the preview; the button under the pointer must not move."""
    page = open_app(new_page({"width": 1280, "height": 800}), base_url)
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    button = page.locator("#submit")
    before = button.bounding_box()
    page.locator(".card.positive").first.click()
    expect(page.locator('.card.positive[aria-pressed="true"]')).to_have_count(1)
    page.locator(".card.negative").first.click()
    expect(page.locator(".preview")).to_be_visible()
    expect(button).to_be_enabled()
    after = button.bounding_box()
    assert before is not None and after is not None
    assert (round(after["x"]), round(after["y"])) == (round(before["x"]), round(before["y"]))
