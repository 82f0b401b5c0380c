"""Dilemma (Alex Randolph) in the real page: throwing by mouse, a whole game, a duel in a room."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import open_app
from .play import set_seats
from .rooms import create_room, join, open_peer

STEP_TIMEOUT_MS = 30_000
# What the player can do now, read from the page; windows already thrown at are skipped.
STATE_JS = """(thrown) => {
  if (document.querySelector('.final')) return 'over';
  if (document.querySelector('#duel-peace:not([disabled])')) return 'duel';
  if (document.querySelector('.rhand [data-action=draft]:not([disabled])')) return 'challenge';
  const box = document.querySelector('#arena-box');
  const card = document.querySelector('.throw-card:not([disabled])');
  if (card && box && !thrown.includes(box.dataset.window)) return 'throw:' + box.dataset.window;
  return false;
}"""


def start_against_bots(page: Page, name: str = "Robin") -> None:
    page.click('[data-game="randolph"]')
    expect(page.get_by_role("heading", name="Set up Dilemma")).to_be_visible()
    set_seats(page, [(name, "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:heuristic")])
    page.click("#start")


def next_state(page: Page, thrown: list[str]) -> str:
    handle = page.wait_for_function(STATE_JS, arg=thrown, timeout=STEP_TIMEOUT_MS)
    return str(handle.json_value())


def challenge(page: Page) -> None:
    page.locator(".rhand [data-action=draft]:not([disabled])").last.click()
    page.click("#submit")


def drag_throw(page: Page) -> str:
    """Drag the first throwable card towards the arena with the mouse and let go."""
    card = page.locator(".throw-card:not([disabled])").first
    value = card.inner_text()
    box = card.bounding_box()
    arena = page.locator("#arena").bounding_box()
    assert box is not None and arena is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tx, ty = arena["x"] + arena["width"] / 2, arena["y"] + arena["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + (tx - x) * 0.6, y + (ty - y) * 0.6, steps=12)
    page.mouse.up()
    return value


def test_a_mouse_drag_throws_a_card_and_its_landing_is_shown(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    start_against_bots(page)
    thrown: list[str] = []
    for _ in range(40):
        state = next_state(page, thrown)
        if state.startswith("throw:"):
            break
        if state == "challenge":
            challenge(page)
        elif state == "duel":
            page.click("#duel-peace")
    else:
        raise AssertionError("never got to throw")
    value = drag_throw(page)
    line = page.locator(".arena-list li", has_text=f"Your {value} landed")
    expect(line).to_have_count(1)
    expect(page.locator(".arena-card", has_text=value).first).to_be_visible()
    # A throw that lands, flat or not, is never offered again: the card left the hand.
    expect(page.locator(f"#throw-{value}")).to_have_count(0)


def test_a_whole_game_against_bots_to_the_end_screen(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    start_against_bots(page)
    thrown: list[str] = []
    seen: set[str] = set()
    for _ in range(400):
        state = next_state(page, thrown)
        seen.add(state.split(":")[0])
        if state == "over":
            break
        if state == "challenge":
            challenge(page)
        elif state == "duel":
            page.click("#duel-peace")
        else:
            thrown.append(state.split(":")[1])
            drag_throw(page)
    else:
        raise AssertionError("the game did not end")
    final = page.locator(".final")
    expect(final.locator(".final-scores li")).to_have_count(3)
    expect(final.get_by_role("heading")).to_contain_text("win")
    assert {"challenge", "throw"} <= seen


def test_a_duel_between_two_devices_in_a_room(new_page, room_url) -> None:
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    guest = open_peer(new_page, room_url)
    host.select_option("#room-game", "randolph")
    host.select_option("#room-seat-kind-2", "bot:heuristic")
    join(guest, link, "Gus", 1)
    host.click("#room-start")
    devices = {"Hana": host, "Gus": guest}
    thrown: dict[str, list[str]] = {name: [] for name in devices}
    for _ in range(80):
        version = in_step(host, guest)
        if all(p.locator("#duel-peace").count() for p in devices.values()):
            break
        acted = False
        for name, page in devices.items():
            state = page.evaluate(STATE_JS, thrown[name])
            if state == "challenge":
                challenge(page)
                acted = True
            elif state == "duel" and not all(
                p.locator("#duel-peace").count() for p in devices.values()
            ):
                page.click("#duel-peace")  # a duel with the bot: not the one we want
                acted = True
            elif state and state.startswith("throw:"):
                thrown[name].append(state.split(":")[1])
                perfect_throw(page)
                acted = True
        if not acted:
            host.wait_for_function(
                "v => document.querySelector('.game')?.dataset.version != v",
                arg=version,
                timeout=STEP_TIMEOUT_MS,
            )
    else:
        raise AssertionError("the two humans never duelled")
    # One chooses; the other sees only that a choice was made, never which.
    told = guest.content().count("Hana chose conflict")
    host.click("#duel-conflict")
    expect(host.locator(".turn .explain").first).to_contain_text("Waiting for Gus")
    expect(guest.locator(".scoreboard li").first).to_contain_text("ready")
    assert guest.content().count("Hana chose conflict") == told
    expect(guest.locator("#duel-peace")).to_be_enabled()
    guest.click("#duel-peace")
    # Each device speaks to its own player.
    sentences = {
        host: "You chose conflict and Gus peace: you win Gus's",
        guest: "Hana chose conflict and you peace: Hana wins your",
    }
    for page, sentence in sentences.items():
        expect(page.locator(".log")).to_contain_text(sentence)


def in_step(host: Page, guest: Page) -> str:
    """Wait until the guest shows the host's version of the table; returns that version."""
    version = host.locator(".game").get_attribute("data-version")
    guest.wait_for_function(
        "v => document.querySelector('.game')?.dataset.version == v",
        arg=version,
        timeout=STEP_TIMEOUT_MS,
    )
    return str(version)


def perfect_throw(page: Page) -> None:
    """The gesture the throw model rewards, sent the way the page's gesture code sends it."""
    challenge = page.locator(".arena-challenge").inner_text()
    card = page.locator(".throw-card:not([disabled])").filter(has_not_text=challenge).first
    card.evaluate(
        "el => document.getElementById('screen').dispatchEvent(new CustomEvent("
        "'quandary:throw', {bubbles: true, detail: {card: Number(el.dataset.throwCard),"
        " aim: 0, power: 50, spin: 0}}))"
    )
