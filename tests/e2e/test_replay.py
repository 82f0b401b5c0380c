"""Replays in the real page: watch a finished game again, keep its record, share its link.

One short game (The Game of Dilemmas against two bots) to its end screen; its
replay steps forwards and back with the buttons and the arrow keys, the log
beside it following; the record downloads as a file that the lobby opens again;
the replay link opens straight into the replay in a fresh browser context (a
phone's width); and a
damaged record or link is refused with a sentence, changing nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from .conftest import open_app
from .play import acknowledge_round, build_first, set_seats, vote_first_allowed

NAMES = ["Robin", "Bot Ada", "Bot Bo"]


def finish_a_game(page: Page) -> None:
    """The Game of Dilemmas against two random bots, played to its end screen."""
    set_seats(page, [("Robin", "human"), ("Bot Ada", "bot:random"), ("Bot Bo", "bot:random")])
    page.click("#start")
    for number in range(1, 6):
        build_first(page)
        vote_first_allowed(page)
        acknowledge_round(page, number)
    expect(page.locator(".final")).to_be_visible()


def position(page: Page) -> tuple[int, int]:
    """The move shown and how many there are, as the replay says it."""
    text = page.locator("#replay-position").inner_text()
    found = re.fullmatch(r"Move (\d+) of (\d+)", text)
    assert found, text
    return int(found[1]), int(found[2])


def test_a_finished_game_replays_downloads_reopens_and_shares(
    new_page, base_url, tmp_path: Path
) -> None:
    page = open_app(new_page(), base_url)
    finish_a_game(page)
    page.get_by_role("button", name="Watch the replay").click()
    replay = page.locator("#replay")
    expect(replay.get_by_role("heading", name="Replay: The Game of Dilemmas")).to_be_visible()
    expect(page.locator("#replay-position")).to_have_text(re.compile(r"Move 0 of \d+"))
    _, last = position(page)
    assert last > 15, "five rounds of three builders and three voters"
    expect(page.locator("#replay-back")).to_be_disabled()
    log = page.locator("#replay-log li")
    at_deal = log.count()

    # Forwards with the button, then the arrow key; the log grows with the moves.
    page.click("#replay-forward")
    expect(page.locator("#replay-position")).to_have_text(f"Move 1 of {last}")
    for step in range(2, 8):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-position")).to_have_text(f"Move {step} of {last}")
    expect(page.locator("#replay-now")).not_to_be_empty()
    assert log.count() > at_deal, "the round's reveal and result are in the log by move 7"
    later = log.count()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-position")).to_have_text(f"Move 6 of {last}")
    page.click("#replay-back")
    expect(page.locator("#replay-position")).to_have_text(f"Move 5 of {last}")
    expect(log).not_to_have_count(later)
    page.click("#replay-end")
    expect(page.locator("#replay-position")).to_have_text(f"Move {last} of {last}")
    expect(replay.locator(".replay-over")).to_contain_text("Game over")
    expect(page.locator("#replay-forward")).to_be_disabled()
    page.keyboard.press("ArrowRight")  # nothing past the end
    expect(page.locator("#replay-position")).to_have_text(f"Move {last} of {last}")

    # Every hand may be shown: Bot Ada's side of the table at the deal.
    page.click("#replay-start")
    page.click("#replay-seat-1")
    expect(page.locator("#replay-seat-1")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".replay-board .card.positive").first).to_be_visible()

    # The record, as a file.
    with page.expect_download() as info:
        page.click("#download-record")
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    assert saved.name == "quandary-dilemmas-record.json"
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["format"] == "quandary-record" and data["version"] == 1
    assert [s["name"] for s in data["seats"]] == NAMES and len(data["moves"]) == last

    # The replay link, made by the page and put in a field (and on the clipboard).
    page.click("#replay-link")
    field = page.locator("#replay-link-field")
    expect(field).to_have_value(re.compile(r"#replay=[A-Za-z0-9_-]+$"))
    link = field.input_value()
    assert link.startswith(base_url.rstrip("/")) and "#r=" not in link

    # Closing the replay goes back to the end screen; the lobby opens the file again.
    page.click("#replay-close")
    expect(page.locator(".final")).to_be_visible()
    page.click("#to-lobby")
    page.set_input_files("#record-file", str(saved))
    expect(page.locator("#replay-position")).to_have_text(f"Move 0 of {last}")
    page.click("#replay-close")
    expect(page.locator("#record-file")).to_be_visible()

    # A damaged record (a move changed) is refused with a sentence; nothing opens.
    data["moves"][0][1] = {"type": "build", "positive": "nothing", "negative": "nothing"}
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(data), encoding="utf-8")
    page.set_input_files("#record-file", str(damaged))
    expect(page.locator("#record-error")).to_contain_text("does not replay")
    expect(page.locator("#replay")).to_have_count(0)
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"t": "sync", "version": 3}', encoding="utf-8")
    page.set_input_files("#record-file", str(foreign))
    expect(page.locator("#record-error")).to_have_text("This is not a Quandary game record.")

    # The link, in a fresh browser context: straight into the replay.
    friend = new_page(viewport={"width": 360, "height": 740})
    friend.goto(link)
    friend.wait_for_selector("html[data-quandary=ready]")
    expect(friend.locator("#replay-position")).to_have_text(f"Move 0 of {last}")
    assert friend.evaluate("document.documentElement.scrollWidth") <= 360, "fits a phone"
    expect(friend.locator("#replay-seat-0")).to_have_text("Robin")
    friend.keyboard.press("ArrowRight")
    expect(friend.locator("#replay-position")).to_have_text(f"Move 1 of {last}")
    friend.click("#replay-close")
    expect(friend.locator("#record-file")).to_be_visible()
    assert "#replay=" not in friend.url


def test_a_damaged_replay_link_says_so_in_the_lobby(new_page, base_url) -> None:
    page = new_page()
    page.goto(base_url.rstrip("/") + "/#replay=bm90LWRlZmxhdGVk")
    page.wait_for_selector("html[data-quandary=ready]")
    expect(page.locator("#record-error")).to_contain_text("This replay link is damaged")
    expect(page.locator("#replay")).to_have_count(0)
    assert "#replay=" not in page.url
