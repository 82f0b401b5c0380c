"""A Dilemma throw in Firefox and WebKit, by keys (focus a card, aim with the arrows, hold
Space, let go) and by a mouse drag (down on a card, moves towards the arena, up): the
throw reaches the table and the page says what became of the card."""

from __future__ import annotations

import pytest

from .conftest import Tab
from .test_games import choose_game, one_human_and_bots

# What the player can do now (tests/e2e/test_randolph_game.py's STATE_JS); for a throw,
# the value of a card other than the challenge's.
STATE_JS = """() => {
  if (document.querySelector('.final')) return 'over';
  if (document.querySelector('#duel-peace:not([disabled])')) return 'duel';
  if (document.querySelector('.rhand [data-action=draft]:not([disabled])')) return 'challenge';
  const box = document.querySelector('#arena-box');
  const cards = [...document.querySelectorAll('.throw-card:not([disabled])')];
  if (!cards.length || !box || !box.classList.contains('open')) return false;
  const challenge = document.querySelector('.arena-challenge')?.textContent.trim();
  const card = cards.find((c) => c.textContent.trim() !== challenge) || cards[0];
  return 'throw:' + card.dataset.throwCard;
}"""
THROWN_JS = """(value) => [...document.querySelectorAll('ol[aria-label="Cards thrown"] li')]
  .map((li) => li.textContent).find((t) => t.startsWith('Your ' + value + ' '))"""


def to_a_window(tab: Tab) -> str:
    """Start Dilemma against two bots and play until a throw window is open; returns the
    card to throw."""
    choose_game(tab, "randolph")
    one_human_and_bots(tab)
    # The relaxed window (not the quick one the games test uses): a throw driven
    # through WebDriver, one round trip per key or move, must land while it is open
    # even on a loaded machine (the quick window closed first in one WebKit run).
    tab.click("#setup-more > summary")  # the setup's options are folded
    tab.select("#choice-window", "relaxed")
    tab.wait("() => document.querySelector('#choice-window').value === 'relaxed'")
    tab.click("#start")
    tab.shown("#practice-done")  # the first game on a device offers a practice throw
    tab.click("#practice-done")
    tab.shown("#turn-title")
    for _ in range(40):
        state = str(tab.wait(STATE_JS))
        if state.startswith("throw:"):
            return state.split(":")[1]
        if state == "challenge":
            tab.click(".rhand [data-action=draft]:not([disabled]):last-of-type")
            tab.click("#submit")
        elif state == "duel":
            tab.click("#duel-peace")
        else:
            raise AssertionError(f"the game ended before a window opened: {state}")
    raise AssertionError("never got to throw")


@pytest.mark.parametrize("how", ["keys", "drag"])
def test_a_card_is_thrown(new_tab, site_url, how: str) -> None:
    tab = new_tab().open(site_url)
    value = to_a_window(tab)
    card = f"#throw-{value}"
    if how == "keys":
        tab.focus(card)
        tab.keys([("press", "ArrowLeft"), ("press", "ArrowRight"), ("down", " ")])
        # Held for most of the power cycle's rise (0.7 s to full), on the page's clock.
        now = float(tab.evaluate("() => performance.now()"))
        tab.evaluate(
            "(t) => new Promise((ok) => { const f = () => performance.now() >= t ? ok(true)"
            " : requestAnimationFrame(f); f(); })",
            now + 500,
        )
        tab.keys([("up", " ")])
    else:
        box = tab.evaluate(
            """(s) => { const c = document.querySelector(s); c.scrollIntoView({block: 'center'});
              const a = c.getBoundingClientRect();
              const b = document.querySelector('#arena').getBoundingClientRect();
              return [a.left + a.width / 2, a.top + a.height / 2,
                      b.left + b.width / 2, b.top + b.height / 2]; }""",
            card,
        )
        x, y, tx, ty = box
        tab.mouse(
            [
                ("move", x, y, 1),
                ("down",),
                ("move", x + (tx - x) * 0.6, y + (ty - y) * 0.6, 10),
                ("up",),
            ]
        )
    said = str(tab.wait(THROWN_JS, value))
    assert said.startswith(f"Your {value} "), said
    # A thrown card is never offered again: it left the hand.
    tab.wait("(s) => !document.querySelector(s)", card)
