"""Dilemma (Alex Randolph) in the real page: throwing by mouse, a whole game, a duel in a room,
and a newcomer's first game from the practice throw to the end screen."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from .conftest import open_app, wait_js
from .play import set_seats, wait_until_answered
from .rooms import create_room, join, open_peer

STEP_TIMEOUT_MS = 60_000
"""The longest the player may have nothing to do while holding cards: a window passed
over (up to 18 s at a first game's pace), a second window, the bots' duel, the next
challenge and its countdown can follow each other; 30 s was crossed once under CI load."""
OUT_TIMEOUT_MS = 600_000
"""Bots alone may play on for minutes (a relaxed window lasts up to 18 s)."""
# What the player can do now, read from the page; windows already thrown at are skipped.
STATE_JS = """(thrown) => {
  if (document.querySelector('.final')) return 'over';
  if (document.querySelector('#duel-peace:not([disabled])')) return 'duel';
  if (document.querySelector('.rhand [data-action=draft]:not([disabled])')) return 'challenge';
  const box = document.querySelector('#arena-box');
  const card = document.querySelector('.throw-card:not([disabled])');
  // A window is open once its countdown has said "throw!" (the box is then "open").
  if (card && box && box.classList.contains('open') && !thrown.includes(box.dataset.window))
    return 'throw:' + box.dataset.window;
  return false;
}"""


def start_against_bots(page: Page, name: str = "Robin") -> None:
    page.click('[data-game="randolph"]')
    expect(page.get_by_role("heading", name="Set up Dilemma")).to_be_visible()
    set_seats(page, [(name, "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:heuristic")])
    page.click("#start")
    skip_practice(page)


def skip_practice(page: Page) -> None:
    """The first game on a device starts with a practice throw: skip it."""
    expect(page.get_by_role("heading", name="Practice a throw")).to_be_visible()
    page.click("#practice-done")
    expect(page.locator("#turn-title")).to_be_visible()


def next_state(page: Page, thrown: list[str], timeout: int = STEP_TIMEOUT_MS) -> str:
    return str(wait_js(page, STATE_JS, thrown, timeout))


def challenge(page: Page, timeout: float | None = None) -> None:
    """Choose the highest card (unless one is chosen already) and challenge with it."""
    if not page.locator(".rhand [data-action=draft][aria-pressed=true]").count():
        page.locator(".rhand [data-action=draft]:not([disabled])").last.click(timeout=timeout)
    page.click("#submit", timeout=timeout)


CLICK_TIMEOUT_MS = 10_000
"""How long a room test's click waits for its button before it reads the table again."""


def attempt(step: Callable[[], object]) -> bool:
    """Take a step that the table moving on may make void; whether it was taken."""
    try:
        step()
    except PlaywrightError:
        return False
    return True


def play_step(page: Page, state: str, thrown: list[str], throw: Callable[[Page], object]) -> None:
    """Take the step ``state`` names (``next_state``): lay a challenge, answer a duel
    with peace, or ``throw`` the card the state names (noted in ``thrown``)."""
    if state == "challenge":
        challenge(page)
    elif state == "duel":
        page.click("#duel-peace")
    else:
        thrown.append(state.split(":")[1])
        throw(page)


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


@pytest.mark.walk
def test_a_whole_game_against_bots_to_the_end_screen(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    start_against_bots(page)
    thrown: list[str] = []
    seen: set[str] = set()
    for _ in range(400):
        # With no cards left the player only watches the bots play on to the end (the
        # hand is read once the engine has answered the last throw or challenge).
        wait_until_answered(page)
        out = not page.locator(".players li.me .held .chip").count()
        state = next_state(page, thrown, OUT_TIMEOUT_MS if out else STEP_TIMEOUT_MS)
        seen.add(state.split(":")[0])
        if state == "over":
            break
        play_step(page, state, thrown, drag_throw)
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
            state = settled_state(page, thrown[name])
            if state == "challenge":
                # The cards may be drawn again under the click (the table moved on in
                # the meantime): then look at both devices again.
                acted = attempt(lambda page=page: challenge(page, CLICK_TIMEOUT_MS))
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
            # Nobody here can act: the table moves on by a bot or a closing window. If
            # it does not within a few seconds, look at both devices again (the loop is
            # bounded: a table that never gets to the duel still fails the test).
            with contextlib.suppress(PlaywrightError):
                wait_js(
                    host,
                    "v => document.querySelector('.game')?.dataset.version != v",
                    version,
                    5000,
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


def settled_state(page: Page, thrown: list[str]) -> str | bool:
    """What the player can do now, read once the page has no click left to answer."""
    state = wait_js(page, f"t => ({STATE_JS})(t) || 'none'", thrown, STEP_TIMEOUT_MS)
    return False if state == "none" else str(state)


def in_step(host: Page, guest: Page) -> str:
    """Wait until the guest has caught up with the host's version of the table (or passed
    it: the table may move on between two looks); returns that version."""
    version = host.locator(".game").get_attribute("data-version")
    wait_js(
        guest,
        "v => Number(document.querySelector('.game')?.dataset.version) >= Number(v)",
        version,
        STEP_TIMEOUT_MS,
    )
    return str(version)


def perfect_throw(page: Page) -> None:
    """The gesture the throw model rewards, sent the way the page's gesture code sends it."""
    challenge = page.locator(".arena-challenge").inner_text()
    card = page.locator(".throw-card:not([disabled])").filter(has_not_text=challenge).first
    card.evaluate(
        "el => document.getElementById('screen').dispatchEvent(new CustomEvent("
        "'quandary:throw', {bubbles: true, detail: {card: Number(el.dataset.throwCard),"
        " aim: 0, power: 50, spin: 0,"
        " window: document.getElementById('arena-box').dataset.window}}))"
    )


# -- a newcomer's first game ------------------------------------------------------

WORTH = 5
"""The newcomer answers challenges of 5 or more."""
REACTION_MS = 1500
"""The scripted slow human waits this long after "throw!" before picking a card up,"""
AIM_MS = 1000
"""and then takes this long to drag it and let go."""
LANDED_JS = """([value, window]) => {
  const box = document.querySelector('#arena-box');
  const error = document.querySelector('.turn .form-error');
  if (error) return 'refused: ' + error.textContent;
  const lines = [...document.querySelectorAll('ol[aria-label="Cards thrown"] li')];
  if (lines.some(li => li.textContent.startsWith('Your ' + value + ' landed'))) return 'landed';
  if (!box || box.dataset.window !== window) return 'window gone';
  return false;
}"""


def page_clock(page: Page, at: float) -> None:
    """Wait until the page's own clock (performance.now) reaches ``at``: no sleeps."""
    wait_js(page, "t => performance.now() >= t", at, STEP_TIMEOUT_MS)


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport as the page is scrolled now."""
    return bool(
        page.locator(selector).first.evaluate(
            "el => { const r = el.getBoundingClientRect();"
            " return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight"
            " && r.right <= innerWidth; }"
        )
    )


def slow_human_throw(page: Page) -> tuple[str, str]:
    """React 1.5 s after the window opened, then drag a card for 1 s and flick it.

    The moment the window opened is the page's own ``data-opens-at`` (on
    performance.now's clock); the drag's duration is the scripted aim. Returns
    the card thrown and what became of it ("landed", or why not).
    """
    box = page.locator("#arena-box")
    window = str(box.get_attribute("data-window"))
    opens = float(str(box.get_attribute("data-opens-at")))
    page_clock(page, opens + REACTION_MS)
    challenge = page.locator(".arena-challenge").inner_text()
    cards = page.locator(".throw-card:not([disabled])")
    other = cards.filter(has_not_text=challenge)
    card = other.first if other.count() else cards.first
    value = card.inner_text()
    start, target = card.bounding_box(), page.locator("#arena").bounding_box()
    assert start is not None and target is not None
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    tx, ty = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
    began = float(page.evaluate("performance.now()"))
    page.mouse.move(x, y)
    page.mouse.down()
    steps = 10
    for i in range(1, steps + 1):  # aiming: a slow drag over most of the second
        share = 0.25 * i / steps
        page.mouse.move(x + (tx - x) * share, y + (ty - y) * share)
        page_clock(page, began + (AIM_MS - 100) * i / steps)
    page.mouse.move(x + (tx - x) * 0.55, y + (ty - y) * 0.55, steps=6)  # the flick
    page_clock(page, began + AIM_MS)
    page.mouse.up()
    return value, str(wait_js(page, LANDED_JS, [value, window], STEP_TIMEOUT_MS))


COVERING_THE_CHALLENGE = """() => {
  const card = document.querySelector('.arena-challenge');
  const parts = [...document.querySelectorAll('.lead-in .lead-count, .lead-in .lead-news')];
  if (!card || !parts.length) return null;
  const c = card.getBoundingClientRect();
  const over = (r) => r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top;
  return parts.filter((p) => over(p.getBoundingClientRect())).map((p) => p.className);
}"""
"""During a countdown, the parts of its overlay that lie over the challenge card
(none: the race is for that card), or null when no countdown is drawn."""

NEWS_LINES = """() => {
  const news = document.querySelector('.lead-in .lead-news');
  if (!news) return null;
  return news.clientHeight / parseFloat(getComputedStyle(news).lineHeight);
}"""
"""How many lines of text the countdown's outcome shows (its box's inner height in
lines of its text), or null when no countdown is drawn."""


@pytest.mark.walk
def test_on_a_short_screen_the_countdowns_outcome_shows_whole_lines(new_page, base_url) -> None:
    """On a landscape phone (740 x 360) the arena is short, and the last outcome under
    the challenge card is clamped to the lines its half holds, with an ellipsis: never
    a line cut through, nor the top of a hidden one showing (the whole sentence is
    beside the arena)."""
    page = open_app(new_page({"width": 740, "height": 360}), base_url)
    start_against_bots(page)
    thrown: list[str] = []
    for _ in range(60):
        lines = page.evaluate(NEWS_LINES)
        if lines is not None:
            break
        state = next_state(page, thrown)
        if state == "over":
            break
        play_step(page, state, thrown, perfect_throw)
    assert lines is not None, "no countdown with the last outcome was seen"
    assert lines >= 1 and abs(lines - round(lines)) < 0.05, f"{lines:.2f} lines of the outcome"
    assert not page.evaluate(COVERING_THE_CHALLENGE)


@pytest.mark.walk
def test_a_newcomers_first_game_from_the_practice_throw_to_the_end(new_page, base_url) -> None:
    """Default seats and settings at 1280x800: practice, then every window is a race
    the slow human can take part in (the share is printed: it must be 100%)."""
    page = open_app(new_page({"width": 1280, "height": 800}), base_url)
    page.click('[data-game="randolph"]')
    expect(page.get_by_role("heading", name="Set up Dilemma")).to_be_visible()
    page.click("#start")  # the lobby's defaults: you and two clever bots, a first game's pace
    # The practice throw, once per device: throw, be told how it went, go on.
    expect(page.get_by_role("heading", name="Practice a throw")).to_be_visible()
    drag_throw(page)
    verdict = page.locator("#practice-verdict")
    expect(verdict).to_contain_text(re.compile("your card", re.IGNORECASE), timeout=STEP_TIMEOUT_MS)
    expect(page.locator(".arena-card")).to_have_count(1)
    page.click("#practice-done")
    thrown: list[str] = []
    outcomes: list[str] = []
    counted_down = False
    news_over_arena = 0
    for _ in range(400):
        # The screen is read once the engine has answered the last throw or challenge.
        wait_until_answered(page)
        if not counted_down and page.locator(".lead-in").count():
            # Before a window opens: "5, 4, 3, 2, 1, throw!" over the arena at a first
            # game's pace (a look may come as it says "Throw!": the count is then seen
            # at a later challenge).
            lead = page.evaluate("document.querySelector('.lead-in strong')?.textContent || ''")
            counted_down = bool(re.fullmatch(r"[1-5]", lead.strip()))
        if page.locator(".lead-news").count():
            covering = page.evaluate(COVERING_THE_CHALLENGE)
            assert not covering, f"the countdown's {covering} lie over the challenge card"
            news_over_arena += covering is not None
        # With no cards left the newcomer only watches the bots play on to the end.
        out = not page.locator(".players li.me .held .chip").count()
        state = next_state(page, thrown, OUT_TIMEOUT_MS if out else STEP_TIMEOUT_MS)
        if state == "over":
            break
        if state == "challenge":
            challenge(page)
        elif state == "duel":
            page.click("#duel-peace")
        else:
            thrown.append(state.split(":")[1])
            # The arena, the hand and the hint, all in view together.
            for part in ("#arena", ".throw-card", "#aim-readout"):
                assert in_view(page, part), f"{part} is out of view at 1280x800"
            # Like a newcomer, answer the worthwhile challenges and let the low ones pass.
            if int(page.locator(".arena-challenge").inner_text()) >= WORTH:
                outcomes.append(slow_human_throw(page)[1])
    else:
        raise AssertionError("the game did not end")
    landed = outcomes.count("landed")
    print(f"slow human (1.5 s + 1 s) got a card down in {landed} of {len(outcomes)} windows")
    assert outcomes and landed == len(outcomes), outcomes
    assert counted_down, "no countdown was seen before a window"
    assert news_over_arena, "no countdown with the last outcome was seen"
    final = page.locator(".final")
    expect(final.locator(".final-scores li")).to_have_count(3)
    expect(page.locator(".why-over")).to_contain_text("The game ended after challenge")
    expect(page.locator(".won-cards li")).to_have_count(3)


def test_on_a_phone_the_hand_is_in_view_with_the_arena(new_page, base_url) -> None:
    page = open_app(new_page({"width": 390, "height": 844}), base_url)
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
    page.locator("#turn-title").scroll_into_view_if_needed()
    for part in ("#arena", ".throw-card", "#aim-readout"):
        assert in_view(page, part), f"{part} is out of view on a phone"
    # The provocateur's badge is drawn whole inside its player's box.
    badge = page.locator(".players .block")
    expect(badge).to_have_count(1)
    assert badge.evaluate(
        "el => { const b = el.getBoundingClientRect();"
        " const p = el.closest('li').getBoundingClientRect();"
        " return el.scrollWidth <= el.clientWidth && b.left >= p.left && b.right <= p.right; }"
    ), "the provocateur badge is clipped"
    # A card thrown right at the centre never hides the challenge card's number.
    perfect_throw(page)
    landed = page.locator('ol[aria-label="Cards thrown"] li', has_text="Your ")
    expect(landed).to_have_count(1, timeout=STEP_TIMEOUT_MS)
    page_clock(page, float(page.evaluate("performance.now()")) + 1000)  # it has come to rest
    on_top = page.locator(".arena-challenge").evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return top === el || el.contains(top); }"
    )
    assert on_top, "a thrown card hides the challenge card's number"


STEP_CONTROLS = {
    "challenge": (".rhand [data-action=draft]", "#submit"),
    "throw": ("#arena", ".throw-card", "#aim-readout"),
    "duel": ("#duel-peace", "#duel-conflict"),
}
"""What a player needs in view at each step of Dilemma."""
OUT_OF_VIEW_JS = """(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)]
  .filter((el) => { const r = el.getBoundingClientRect();
    return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth; })
  .map((el) => `${s} ${el.id || el.textContent.trim()} at ${Math.round(
    el.getBoundingClientRect().bottom)} of ${innerHeight}`))"""


@pytest.mark.walk
def test_every_control_of_a_step_is_in_view_on_a_small_phone(new_page, base_url) -> None:
    """At 360 x 740, as the page scrolls itself at each step (to the step's title),
    the step's controls are all in view: the challenge cards and their button, the
    arena and the hand, Peace and Conflict."""
    page = open_app(new_page({"width": 360, "height": 740}, has_touch=True), base_url)
    start_against_bots(page)
    thrown: list[str] = []
    seen: dict[str, list[str]] = {}
    visits: dict[str, int] = {}
    for _ in range(80):
        wait_until_answered(page)
        state = next_state(page, thrown)
        step = state.split(":")[0]
        if step == "over":
            break
        # Every visit: a later challenge has the last one's outcome on the screen too.
        seen.setdefault(step, []).extend(page.evaluate(OUT_OF_VIEW_JS, list(STEP_CONTROLS[step])))
        covering = page.evaluate(COVERING_THE_CHALLENGE)
        assert not covering, f"at 360x740 the countdown's {covering} lie over the challenge card"
        visits[step] = visits.get(step, 0) + 1
        play_step(page, state, thrown, perfect_throw)
        if len(visits) == len(STEP_CONTROLS) and min(visits.values()) >= 3:
            break
    assert set(seen) == set(STEP_CONTROLS), f"steps never reached: {seen}"
    assert not any(seen.values()), f"out of view at 360x740: {seen}"
