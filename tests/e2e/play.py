"""Steps of The Game of Dilemmas as a player clicks them, shared by the e2e tests."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def wait_until_answered(page: Page) -> None:
    """Wait until the engine has answered every action the page sent it, and drawn the
    answer: ``#screen`` is busy (aria-busy) from a click or a field change until then
    (static/js/app.entry.js). For an action whose new screen has no mark of its own
    (a field set to the value the test typed, a redraw that should change nothing);
    in a room it covers this device's engine only, not the host's reply."""
    expect(page.locator("#screen[aria-busy]")).to_have_count(0)


def choose_game(page: Page, game: str) -> None:
    """Choose a game in the lobby and wait until the lobby has redrawn for it: a click
    reaches Python asynchronously, so the seats read or set straight after it could
    still be the previous game's."""
    page.click(f'[data-action="choose-game"][data-game="{game}"]')
    expect(page.locator(f'[data-action="choose-game"][data-game="{game}"]')).to_have_attribute(
        "aria-pressed", "true"
    )


def set_seats(page: Page, seats: list[tuple[str, str]]) -> None:
    """Fill the lobby's seats: (name, "human" | "bot:heuristic" | "bot:random"), and wait
    until the lobby shows them as the engine has them.

    Each change is answered asynchronously, and an answer drawn from before a later
    change morphs that field back until the next answer: the fields read straight
    after the last change may still show an older seat's name or kind.
    """
    page.select_option("#seat-count", str(len(seats)))
    for i, (name, kind) in enumerate(seats):
        page.select_option(f"#seat-kind-{i}", kind)
        page.fill(f"#seat-name-{i}", name)
    wait_until_answered(page)
    expect(page.locator("#seat-count")).to_have_value(str(len(seats)))
    for i, (name, kind) in enumerate(seats):
        expect(page.locator(f"#seat-kind-{i}")).to_have_value(kind)
        expect(page.locator(f"#seat-name-{i}")).to_have_value(name)


def lobby_seat_names(page: Page) -> list[str]:
    """The names the lobby's seats hold now (its defaults, when nobody typed), once the
    engine has answered the lobby's last change."""
    wait_until_answered(page)
    count = int(page.input_value("#seat-count"))
    return [page.input_value(f"#seat-name-{i}") for i in range(count)]


def expect_every_score_on_the_final_screen(page: Page, names: list[str]) -> None:
    """The end screen lists every player once with their points, as the scoreboard has them."""
    final = page.locator(".final")
    expect(final).to_be_visible()
    rows = final.locator(".final-scores li")
    expect(rows).to_have_count(len(names))
    expect(final.get_by_role("heading")).to_contain_text("win")
    shown = {}
    for i in range(len(names)):
        who = rows.nth(i).locator(".who").inner_text()
        points = rows.nth(i).locator(".score").inner_text()
        assert re.fullmatch(r"-?\d+ points?", points), (who, points)
        shown[who] = points.split()[0]
    assert sorted(shown) == sorted(names), (shown, names)
    # The scoreboard's seats are in seat order, as the lobby listed them.
    board = page.locator(".scoreboard li .score").all_inner_texts()
    assert board == [shown[name] for name in names], (board, shown)


def build_first(page: Page) -> tuple[str, str]:
    """Build a dilemma from the first good card and the first "but" card."""
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    positive = page.locator(".card.positive").first
    negative = page.locator(".card.negative").first
    texts = (
        positive.locator(".card-text").inner_text(),
        negative.locator(".card-text").inner_text(),
    )
    positive.click()
    negative.click()
    expect(page.locator(".preview")).to_contain_text(texts[0])
    page.click("#submit")
    return texts


def vote_first_allowed(page: Page) -> None:
    """Place on every dilemma the first token still allowed, then cast the votes."""
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    rows = page.locator(".vote-row")
    for i in range(rows.count()):
        rows.nth(i).locator(".token:not([disabled])").first.click()
        expect(rows.nth(i).locator('.token[aria-pressed="true"]')).to_have_count(1)
    expect(page.locator("#submit")).to_be_enabled()
    page.click("#submit")


def acknowledge_round(page: Page, number: int) -> None:
    """Read the round's result and move on."""
    expect(page.get_by_role("heading", name=f"Round {number}: the votes")).to_be_visible()
    expect(page.locator(".results li.won").first).to_be_visible()
    page.click("#next")


def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``selector`` (keyboard-only play)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")
