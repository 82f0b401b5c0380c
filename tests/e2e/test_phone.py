"""On a phone (360 px wide, touch): every screen of every game fits, and the page goes where
the player's attention goes.

The walk plays each game to its end as one or two humans among bots, tapping the controls
a player would (the way on first, else a seeded random choice), and measures every
distinct screen it meets: the page may not scroll sideways, and no element may
reach past the screen's right edge (unless it sits in a box that scrolls sideways
by itself, like the scoreboard). Each screen's overflow is printed
(``pytest -s``) so it can be reported. The walk is long, so it runs in ``make monkey``
(marked ``walk``); ``make test`` keeps the two quick checks below it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PRACTISED_DILEMMA, open_app, shipped_games, wait_js

PHONE = {"width": 360, "height": 740}
STEPS = 1000
"""Taps a walk may take before its game must have ended."""
STEP_TIMEOUT_MS = 30_000
"""How long a screen may wait for bots and timed windows before it offers a control."""
GAMES = shipped_games("dilemmas", "randolph", "minister", "royal")
PASS_AROUND = {"dilemmas", "royal"}
"""Games walked with two people at one device, so the hand-over screen (the same in every
game) is walked too. Dilemma is a race (one person per device); two random people
rarely end a game of Maybe Minister within the walk's taps."""

# Every <details> opened (a log read, settings shown), then: how far the page scrolls
# sideways, and the elements that reach past the right edge, outermost first.
MEASURE = """() => {
  const opened = [...document.querySelectorAll('details:not([open])')];
  opened.forEach((d) => { d.open = true; });
  const root = document.scrollingElement;
  const edge = root.clientWidth;
  const scrollsAside = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return true;
    }
    return false;
  };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className
      ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const past = [];
  for (const e of document.body.querySelectorAll('*')) {
    const box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right <= edge + 0.5) continue;
    if (e.closest('.sr-only, .skip, [hidden]') || scrollsAside(e)) continue;
    if (past.some((o) => o.element.contains(e))) continue;
    past.push({element: e, over: Math.ceil(box.right - edge)});
  }
  opened.forEach((d) => { d.open = false; });
  return {scroll: root.scrollWidth - edge,
          past: past.map((p) => name(p.element) + ' +' + p.over + 'px').slice(0, 6)};
}"""

# The screen's name: its headings with numbers and the players' names blurred,
# so round 2's vote is the same screen as round 1's.
SCREEN = """(names) => {
  const screen = document.querySelector('#screen');
  const heads = [...screen.querySelectorAll('h1, h2')].map((h) => h.textContent.trim());
  let text = (screen.querySelector('.final') ? 'final: ' : '') + heads.join(' / ');
  for (const n of names) text = text.split(n).join('…');
  return text.replace(/[0-9]+/g, '#').slice(0, 80);
}"""

# The controls a player could tap now (the way back to the lobby, the log's download,
# Dilemma's practice arena and Undo excepted: none moves the game on). A screen with only
# those is one where the bots are at work: counted as a control, Undo made a walk spin
# through its steps while the bots thought, and run out of them (seen in test_overlap.py).
CONTROLS = """() => [...document.querySelectorAll('#screen [data-action]')]
  .filter((e) => !e.disabled && e.getBoundingClientRect().width > 0
    && !['leave', 'lobby', 'again', 'leave-room', 'download-log', 'practice', 'undo']
      .includes(e.dataset.action))
  .map((e) => e.id || null)"""
# What the player can do now: tap a control, throw a card (Dilemma's open window not
# yet thrown at), or nothing yet (bots and timed windows at work).
TURN = f"""(thrown) => {{
  if (document.querySelector('#screen .final')) return 'final';
  const box = document.querySelector('#arena-box');
  const card = document.querySelector('.throw-card:not([disabled])');
  const open = box && box.dataset.window;
  if (card && open && !thrown.includes(open)) return 'throw:' + open;
  return ({CONTROLS})().length > 0 ? 'tap' : false;
}}"""
PROGRESS = ("next", "reveal", "submit", "duel-peace", "practice-done")
"""Buttons that move play on; tapped when shown (``submit`` only some of the time)."""


def measure(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(MEASURE))


def play_a_step(page: Page, rng: random.Random, thrown: list[str]) -> None:
    """Tap the way on if there is one, else a random control (never Undo: it only goes
    back); throw a card when a window opens; wait while the bots play."""
    turn = str(wait_js(page, TURN, thrown, STEP_TIMEOUT_MS))
    if turn.startswith("throw:"):
        thrown.append(turn.split(":")[1])
        throw_a_card(page)
        return
    if turn != "tap":
        return
    ids = page.evaluate(CONTROLS)
    for way_on in PROGRESS:
        if way_on in ids and (way_on != "submit" or rng.random() < 0.5):
            page.tap(f"#{way_on}")
            return
    controls = page.locator(
        "#screen [data-action]:not([disabled]):not([data-action=leave])"
        ":not([data-action=lobby]):not([data-action=again]):not([data-action=download-log])"
        ":not([data-action=practice]):not([data-action=undo])"
        " >> visible=true"
    )
    count = controls.count()
    if count:
        control = controls.nth(rng.randrange(count))
        control.scroll_into_view_if_needed()
        control.tap(timeout=STEP_TIMEOUT_MS)


def throw_a_card(page: Page) -> None:
    """Drag a card towards Dilemma's arena (a flick with the finger; the mouse stands in)."""
    card = page.locator(".throw-card:not([disabled])").first
    card.scroll_into_view_if_needed()
    box, arena = card.bounding_box(), page.locator("#arena").bounding_box()
    if box is None or arena is None:
        return
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tx, ty = arena["x"] + arena["width"] / 2, arena["y"] + arena["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + (tx - x) * 0.6, y + (ty - y) * 0.6, steps=8)
    page.mouse.up()


def check(page: Page, game: str, screens: dict[str, dict[str, Any]], name: str) -> None:
    """Measure a screen not seen before; print its overflow; fail at once if it has any."""
    if name in screens:
        return
    seen = screens[name] = measure(page)
    print(f"| {game:<9} {seen['scroll']:>4} px  {name}  {' '.join(seen['past'])}")
    assert seen["scroll"] <= 0 and not seen["past"], f"{game}, {name}: wider than a phone: {seen}"


@pytest.mark.walk
@pytest.mark.parametrize("game", GAMES)
def test_every_screen_fits_a_phone(new_page, base_url, game: str) -> None:
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.context.add_init_script(PRACTISED_DILEMMA)  # a walk at the usual pace
    page = open_app(page, base_url)
    screens: dict[str, dict[str, Any]] = {}
    check(page, game, screens, "lobby")
    page.tap(f'[data-action="choose-game"][data-game="{game}"]')
    expect(page.locator("#setup-title")).to_be_in_viewport()
    check(page, game, screens, "lobby: setup")
    if game in PASS_AROUND:
        # Two people at one device: the screens that hand it over are walked too.
        page.select_option("#seat-kind-1", "human")
    page.tap("#start")
    expect(page.locator("#screen .table")).to_be_visible()
    names = page.evaluate(
        "[...document.querySelectorAll('.scoreboard .who')]"
        ".map((who) => who.firstChild.textContent.trim())"
    )
    rng = random.Random(GAMES.index(game))
    thrown: list[str] = []
    for _ in range(STEPS):
        name = page.evaluate(SCREEN, names)
        check(page, game, screens, name)
        if name.startswith("final"):
            break
        play_a_step(page, rng, thrown)
    else:
        raise AssertionError(
            f"{game} did not end in {STEPS} taps; screens: {list(screens)};"
            f" controls now: {page.evaluate(CONTROLS)}"
        )


def test_a_chosen_game_shows_its_setup_then_opens_at_its_top(new_page, base_url) -> None:
    """On a phone the setup is far below the game cards: choosing brings it into view.
    Dilemma's first heading sits low enough that focusing it alone would leave the page
    scrolled (by 100 px): the page itself goes to the top."""
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.context.add_init_script(PRACTISED_DILEMMA)  # a walk at the usual pace
    page = open_app(page, base_url)
    start = page.locator("#start")
    expect(start).not_to_be_in_viewport()
    page.tap('[data-action="choose-game"][data-game="randolph"]')
    expect(page.locator("#setup-title")).to_be_in_viewport()
    expect(page.locator("#setup-title")).to_have_text("Set up Dilemma")
    start.scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 300, "Start is far down the lobby"
    start.tap()
    expect(page.locator("#screen .table")).to_be_visible()
    expect(page.locator(".game-title")).to_be_in_viewport()
    assert page.evaluate("scrollY") == 0


def test_six_scores_keep_to_one_row_and_rules_open_beside_the_game(new_page, base_url) -> None:
    """Six players at 360 px: one row of pills, which scrolls sideways by itself. The
    header's Rules link opens a new tab: the game stays where it was."""
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.context.add_init_script(PRACTISED_DILEMMA)  # a walk at the usual pace
    page = open_app(page, base_url)
    page.tap('[data-action="choose-game"][data-game="minister"]')
    expect(page.locator("#setup-title")).to_have_text("Set up Maybe Minister")
    page.select_option("#seat-count", "6")
    page.tap("#start")
    pills = page.locator(".scoreboard li")
    expect(pills).to_have_count(6)
    tops = {round(box["y"]) for box in (pills.nth(i).bounding_box() or {} for i in range(6))}
    assert len(tops) == 1, f"score pills in {len(tops)} rows"
    board = page.locator(".scoreboard")
    assert board.evaluate("(b) => b.scrollWidth > b.clientWidth"), "six pills should overflow"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]

    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Rules").tap()
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules.get_by_role("heading", name="The rules")).to_be_visible()
    expect(page.locator("#screen .table")).to_be_visible()
    assert page.url.startswith(base_url) and "rules" not in page.url
