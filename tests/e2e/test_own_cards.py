"""Own card packs for The Game of Dilemmas in the real page: made in the setup,
dealt in a game, exported, imported, refused when damaged, and too small for a table."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from .conftest import open_app
from .play import acknowledge_round, choose_game, vote_first_allowed, wait_until_answered

GOOD = [f"You can visit moon base number {i}" for i in range(1, 24)] + [
    '<img src=x onerror="document.title=1">You can fly'
]
BUT = [f"only on the {i}th Tuesday of a leap year" for i in range(1, 25)]


def _open_setup(page: Page) -> None:
    choose_game(page, "dilemmas")
    page.locator("#setup-more > summary").click()
    expect(page.locator("#own-cards")).to_be_visible()


def _make_pack(page: Page, name: str, good: list[str], but: list[str]) -> None:
    page.click("#own-new")
    page.fill("#own-name", name)
    page.fill("#own-positive", "\n".join(good))
    page.fill("#own-negative", "\n".join(but))
    page.click("#own-save")
    expect(page.locator("#own-notice")).to_contain_text(f"The pack {name} is kept")


def test_a_pack_is_made_dealt_exported_and_imported(new_page, base_url, tmp_path) -> None:
    page = open_app(new_page({"width": 1280, "height": 900}), base_url)
    _open_setup(page)
    expect(page.locator("#own-cards")).to_contain_text("No packs of your own")
    _make_pack(page, "Moon Pack", GOOD, BUT)
    item = page.locator(".own-pack", has_text="Moon Pack")
    expect(item).to_contain_text("24 good · 24 “but”")
    expect(item.locator('input[type="checkbox"]')).to_be_checked()
    page.select_option("#own-use", "instead")
    wait_until_answered(page)
    expect(page.locator("#start-blocked")).to_have_count(0)
    expect(page.locator("#start")).to_be_enabled()

    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    # Instead of the built-in packs: every card dealt is one of the pack's.
    hand = page.locator(".card.positive .card-text").all_inner_texts()
    assert hand and all(text in GOOD for text in hand), hand
    buts = page.locator(".card.negative .card-text").all_inner_texts()
    assert buts and all(text in BUT for text in buts), buts
    # Card text is text, never markup, whoever wrote it.
    expect(page.locator("#screen img")).to_have_count(0)
    page.locator(".card.positive").first.click()
    page.locator(".card.negative").first.click()
    page.click("#submit")
    vote_first_allowed(page)
    acknowledge_round(page, 1)
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    page.click("#leave")

    _open_setup(page)
    with page.expect_download() as info:
        page.click("#own-export-p1")
    download = info.value
    assert download.suggested_filename == "moon-pack.dilemmas-pack.json"
    saved = tmp_path / "moon.json"
    saved.write_text(Path(download.path()).read_text(encoding="utf-8"), encoding="utf-8")
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["pack"]["positive"] == GOOD and data["pack"]["negative"] == BUT

    page.click("#own-delete-p1")
    page.click("#own-delete-yes-p1")
    expect(page.locator(".own-pack")).to_have_count(0)
    page.set_input_files("#own-import", str(saved))
    expect(page.locator("#own-notice")).to_contain_text("The pack Moon Pack was imported")
    expect(page.locator(".own-pack", has_text="Moon Pack")).to_contain_text("24 good")

    # A damaged pack, and a file that is no pack at all: a sentence, nothing changed.
    damaged = json.dumps({**data, "pack": {**data["pack"], "positive": ["Twice", "twice"]}})
    page.set_input_files(
        "#own-import",
        {"name": "damaged.json", "mimeType": "application/json", "buffer": damaged.encode()},
    )
    expect(page.locator("#own-error")).to_contain_text("That card pack is damaged")
    expect(page.locator("#own-error")).to_contain_text("twice")
    page.set_input_files(
        "#own-import",
        {"name": "photo.json", "mimeType": "application/json", "buffer": b"\x89PNG not json"},
    )
    expect(page.locator("#own-error")).to_contain_text("That file is not a card pack")
    expect(page.locator(".own-pack")).to_have_count(1)


def test_a_tiny_pack_is_too_small_for_six_players(new_page, base_url) -> None:
    """On a phone: the pack's setup fits its width, editor open too."""
    page = open_app(new_page({"width": 360, "height": 740}), base_url)
    _open_setup(page)
    _make_pack(page, "Tiny", ["You can whistle", "You can hum"], ["you sneeze", "you cough"])
    page.click("#own-edit-p1")
    expect(page.locator("#own-positive")).to_have_value("You can whistle\nYou can hum")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("#own-cancel")
    expect(page.locator("#own-positive")).to_have_count(0)
    page.select_option("#own-use", "instead")
    page.select_option("#seat-count", "6")
    wait_until_answered(page)
    blocked = page.locator("#start-blocked")
    expect(blocked).to_have_text(
        "The chosen packs are too small for 6 players: 46 good cards and 46 “but” cards missing."
    )
    expect(page.locator("#start")).to_be_disabled()
    # Mixed into the default pack, there are enough for six.
    page.select_option("#own-use", "mix")
    wait_until_answered(page)
    expect(blocked).to_have_count(0)
    expect(page.locator("#start")).to_be_enabled()


def test_a_guest_is_dealt_the_hosts_own_cards_in_a_room(new_page, room_url) -> None:
    """The pack lives on the host's device only: the guest reads its name before the
    start, then holds its cards."""
    from .rooms import create_room, join, open_peer

    host = open_peer(new_page, room_url)
    _open_setup(host)
    _make_pack(host, "Moon Pack", GOOD, BUT)
    link = create_room(host, "Hana")
    guest = open_peer(new_page, room_url)
    host.select_option("#room-seat-kind-2", "bot:heuristic")
    host.click("#room-more > summary")
    host.check("#room-own-p1")
    host.select_option("#room-own-use", "instead")
    join(guest, link, "Gus", 1)
    expect(guest.locator(".own-chosen")).to_contain_text("Moon Pack")
    expect(guest.locator(".own-chosen")).to_contain_text("24 good · 24 “but”")
    host.click("#room-start")
    expect(guest.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    hand = guest.locator(".card.positive .card-text").all_inner_texts()
    assert len(hand) == 4 and all(text in GOOD for text in hand), hand
    expect(guest.locator("#screen img")).to_have_count(0)
