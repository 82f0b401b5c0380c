"""A monkey at the table: hundreds of seeded random clicks, taps, drags and keys per game.

Each game is chosen in the lobby and started against bots; then the monkey acts
at random: clicks and taps on visible controls or anywhere on the screen, drags
(Dilemma's throws), wheel scrolls, and keys (Tab, Enter, Space, Escape, arrows,
letters). A finished game is played again; a monkey that wandered into the lobby
for long is sat down again. No action may put an error on the page (the
``new_page`` fixture fails the test on any uncaught error, console error or
PyScript banner).

The run is fixed by its seed: the monkey's choices come from ``random.Random(seed)``
and the page's own randomness (deals, bots) from a generator seeded the same way.
What bots do on a timer (Dilemma's throws) still depends on time. Set
QUANDARY_MONKEY_SEED to explore another run and QUANDARY_MONKEY_ACTIONS for a
shorter or longer one. It runs in ``make monkey`` (in CI, after ``make test``), not in
``make test``.
"""

from __future__ import annotations

import os
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS, PageErrors, open_app, shipped_games, wait_js

ACTIONS = int(os.environ.get("QUANDARY_MONKEY_ACTIONS", "500"))
SEED = int(os.environ.get("QUANDARY_MONKEY_SEED", "1"))
LOBBY_PATIENCE = 40
"""Actions the monkey may spend in the lobby before it is sat down at its game again."""
KEYS = [
    *("Tab", "Tab", "Shift+Tab", "Enter", "Enter", " ", " ", "Escape"),
    *("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Backspace", "Home", "End"),
    *"aqzxm7",
]


@dataclass(frozen=True)
class Game:
    id: str
    viewport: dict[str, int]


DESKTOP = {"width": 1024, "height": 800}
VIEWPORTS = {
    "dilemmas": DESKTOP,
    "randolph": {"width": 360, "height": 740},
    "minister": {"width": 390, "height": 844},
    "royal": DESKTOP,
}
"""The screen each game's monkey plays on (seeded by its place here); a game not named
is played on a desktop's, after these."""
GAMES = [Game(game, VIEWPORTS.get(game, DESKTOP)) for game in shipped_games(*VIEWPORTS)]

# The page's crypto.getRandomValues, seeded (xorshift32): the same deals every run.
SEEDED_RANDOM = """
(() => {
  let s = (%d >>> 0) || 1;
  crypto.getRandomValues = (array) => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
      bytes[i] = s & 255;
    }
    return array;
  };
})();
"""
# Rooms need a relay and a second device (tests/e2e/test_rooms.py plays them):
# the monkey's clicks on "Create a room" are swallowed before the app hears them.
NO_ROOMS = """
addEventListener('click', (event) => {
  if (event.target.closest?.('#create-room')) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);
"""
# Where the page is, and (for an element action) a visible control picked by the
# monkey's number, scrolled into view, with the point to press.
LOOK = """([pick]) => {
  const state = document.documentElement.dataset.quandary || 'elsewhere';
  const where = document.querySelector('#screen .final') ? 'final'
    : document.querySelector('#screen .lobby') ? 'lobby' : 'table';
  if (pick === null) return {state, where};
  // The brand link reloads the page: only random points and keys may reach it.
  const all = document.querySelectorAll(
    'button, a[href]:not(.brand), input, select, summary, [tabindex]:not([tabindex="-1"])');
  const shown = [...all].filter((e) => {
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  });
  if (!shown.length) return {state, where};
  const element = shown[Math.floor(pick * shown.length)];
  element.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const box = element.getBoundingClientRect();
  const what = element.id ? '#' + element.id
    : element.tagName.toLowerCase() + (element.dataset.action ? '[' + element.dataset.action + ']'
    : '') + ' ' + (element.textContent || '').trim().slice(0, 24);
  return {state, where, what, x: box.left + box.width * (0.2 + 0.6 * pick),
          y: box.top + box.height / 2};
}"""

# The shown, enabled button that moves play on, scrolled into view, with its middle.
WAY_ON = """() => {
  for (const id of ['next', 'reveal', 'submit', 'duel-peace', 'duel-conflict']) {
    const element = document.getElementById(id);
    if (!element || element.disabled || !element.getBoundingClientRect().width) continue;
    element.scrollIntoView({block: 'nearest'});
    const box = element.getBoundingClientRect();
    return {what: '#' + id, x: box.left + box.width / 2, y: box.top + box.height / 2};
  }
  return null;
}"""


class Monkey:
    """Random actions on one page, all drawn from one seeded generator."""

    def __init__(self, page: Page, url: str, game: Game, seed: int) -> None:
        self.page, self.url, self.game = page, url, game
        self.rng = random.Random(seed)
        self.width, self.height = game.viewport["width"], game.viewport["height"]
        self.log: deque[str] = deque(maxlen=25)
        self.in_lobby = 0
        self.games_started = 0
        self.games_finished = 0

    def sit_down(self) -> None:
        """Choose the game in the lobby (its setup opens) and start it with the default seats."""
        page = self.page
        other = "royal" if self.game.id != "royal" else "dilemmas"
        # Choosing another game and back resets the setup the monkey may have scrambled.
        page.click(f'[data-action="choose-game"][data-game="{other}"]')
        page.click(f'[data-action="choose-game"][data-game="{self.game.id}"]')
        expect(page.locator("#setup-title")).to_be_visible()
        page.click("#start")
        expect(page.locator("#screen .table")).to_be_visible()
        self.games_started += 1
        self.log.append("sat down")

    def look(self, pick: float | None = None) -> dict[str, Any]:
        """What ``LOOK`` sees, once a navigation the last action started has landed and
        the engine has drawn its answer to the last click (a screen read while that
        answer is on its way may be gone by the next action)."""
        for _ in range(5):
            try:
                return dict(wait_js(self.page, LOOK, [pick]))
            except PlaywrightError as error:
                if "destroyed" not in error.message and "navigat" not in error.message:
                    raise
                self.page.wait_for_load_state("domcontentloaded")
        raise AssertionError("the page kept navigating")

    def recover(self) -> dict[str, Any]:
        """Back to the app if an action left it (a link, a reload); where the page is."""
        seen = self.look()
        if seen["state"] == "elsewhere":
            self.log.append(f"left for {self.page.url}")
            open_app(self.page, self.url)
            seen = self.look()
        elif seen["state"] != "ready":
            self.page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
            seen = self.look()
        return seen

    def act(self) -> None:
        """One random action (or, at a game's end, the next game)."""
        seen = self.recover()
        if seen["where"] == "final":
            self.games_finished += 1
            self.log.append("play again")
            self.page.click("#again")
            return
        self.in_lobby = self.in_lobby + 1 if seen["where"] == "lobby" else 0
        if self.in_lobby > LOBBY_PATIENCE:
            self.in_lobby = 0
            self.sit_down()
            return
        roll = self.rng.random()
        if roll < 0.12:
            self.press_way_on()
        elif roll < 0.4:
            self.press_control()
        elif roll < 0.6:
            self.press_point(self.rng.uniform(0, self.width), self.rng.uniform(0, self.height))
        elif roll < 0.68:
            self.drag()
        elif roll < 0.72:
            delta = self.rng.choice((-600, -200, 200, 600))
            self.log.append(f"wheel {delta}")
            self.page.mouse.wheel(0, delta)
        else:
            key = self.rng.choice(KEYS)
            self.log.append(f"key {key!r}")
            self.page.keyboard.press(key)

    def press_way_on(self) -> None:
        """Now and then the button that moves play on, so the monkey sees every screen of a
        game (round results, the end) and not only the first ones."""
        target = self.page.evaluate(WAY_ON)
        if target is None:
            self.press_control()
            return
        self.log.append(f"way on {target['what']}")
        self.press_point(target["x"], target["y"], logged=True)

    def press_control(self) -> None:
        target = self.look(self.rng.random())
        if "x" in target:
            self.log.append(f"control {target['what']}")
            self.press_point(target["x"], target["y"], logged=True)

    def press_point(self, x: float, y: float, logged: bool = False) -> None:
        tap = self.rng.random() < 0.5
        if not logged:
            self.log.append(f"{'tap' if tap else 'click'} {x:.0f},{y:.0f}")
        if tap:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def drag(self) -> None:
        """Press on a control (a card to throw) and let go elsewhere, moving."""
        target = self.look(self.rng.random())
        if "x" not in target:
            return
        x, y = self.rng.uniform(0, self.width), self.rng.uniform(0, self.height)
        steps = self.rng.randint(2, 14)
        self.log.append(f"drag {target['what']} to {x:.0f},{y:.0f} in {steps}")
        mouse = self.page.mouse
        mouse.move(target["x"], target["y"])
        mouse.down()
        mouse.move(x, y, steps=steps)
        mouse.up()


@pytest.mark.walk
@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_a_monkey_puts_no_error_on_the_page(
    new_page, base_url, page_errors: PageErrors, game: Game
) -> None:
    seed = SEED * 1000 + GAMES.index(game)
    page = new_page(viewport=game.viewport, has_touch=True)
    page.context.add_init_script(SEEDED_RANDOM % seed)
    page.context.add_init_script(NO_ROOMS)
    # A rules page opened in a new tab is read elsewhere: the monkey stays here.
    page.context.on("page", lambda opened: opened.close())
    open_app(page, base_url)
    monkey = Monkey(page, base_url, game, seed)
    monkey.sit_down()
    done = 0
    while done < ACTIONS and not page_errors.unexpected():
        monkey.act()
        done += 1
    # The last action's error may still be on its way: one more look lets it arrive.
    monkey.look()
    trail = "\n  ".join(monkey.log)
    assert not page_errors.unexpected(), (
        f"seed {seed}: after {done} actions on {game.id}; the last ones:\n  {trail}"
    )
    print(
        f"{game.id}: {done} actions, {monkey.games_started} games started,"
        f" {monkey.games_finished} finished"
    )
