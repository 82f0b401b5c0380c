"""Each of the four games, against bots, played to its end screen through the page's own
controls, in Firefox and in WebKit. The moves are chosen inside the page by one script
(``play.js``), so both engines play the same way; the driver clicks and drags."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import BOOT_TIMEOUT_MS, Tab

PLAY_JS = (Path(__file__).parent / "play.js").read_text(encoding="utf-8")
GAMES = ["dilemmas", "randolph", "minister", "royal"]
STEPS = 600
"""Moves a game may take before it must have ended."""
WAIT_MS = 120_000
"""How long a screen may wait for bots and timed windows before it offers a move (in
Dilemma a player with no cards left watches the bots play on)."""


def choose_game(tab: Tab, game: str) -> None:
    """Choose the game in the lobby and wait until the lobby has redrawn for it."""
    selector = f'[data-action="choose-game"][data-game="{game}"]'
    tab.click(selector)
    tab.shown(f'{selector}[aria-pressed="true"]')
    tab.shown("#setup-title")


def one_human_and_bots(tab: Tab) -> int:
    """Seat 1 a human, every other seat a bot (the lobby's default, checked)."""
    kinds = tab.evaluate(
        "() => [...document.querySelectorAll('[id^=seat-kind-]')].map((s) => s.value)"
    )
    for i, kind in enumerate(kinds):
        want = "human" if i == 0 else "bot:heuristic"
        if kind != want and not (i and kind.startswith("bot:")):
            tab.select(f"#seat-kind-{i}", want)
    tab.wait(
        "() => [...document.querySelectorAll('[id^=seat-kind-]')]"
        ".every((s, i) => (i === 0) === (s.value === 'human'))"
    )
    return len(kinds)


def play_to_the_end(tab: Tab, game: str) -> list[str]:
    """Make the moves play.js chooses until the end screen shows; returns the moves."""
    thrown: list[str] = []
    moves: list[str] = []
    for step in range(STEPS):
        move = tab.wait(
            PLAY_JS, {"seed": GAMES.index(game) + 1, "step": step, "thrown": thrown}, WAIT_MS
        )
        if move.get("final"):
            return moves
        if "drag" in move:
            x, y, tx, ty = move["drag"]
            thrown.append(str(move["window"]))
            tab.mouse([("move", x, y, 1), ("down",), ("move", tx, ty, 8), ("up",)])
            moves.append("throw")
        else:
            tab.click(move["click"])
            moves.append(str(move["what"]))
    raise AssertionError(f"{game} did not end in {STEPS} moves; the last: {moves[-20:]}")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_against_bots_is_played_to_its_end_screen(new_tab, site_url, game: str) -> None:
    tab = new_tab().open(site_url)
    choose_game(tab, game)
    seats = one_human_and_bots(tab)
    if game == "randolph":
        tab.click("#setup-more > summary")  # the setup's options are folded
        tab.select("#choice-window", "quick")
        tab.wait("() => document.querySelector('#choice-window').value === 'quick'")
    tab.click("#start")
    # A first visit: while the first table is made, the page's own snapshot maker boots a
    # second interpreter (static/js/app.entry.js), so this wait is a boot's.
    tab.shown("#screen .table", BOOT_TIMEOUT_MS)
    moves = play_to_the_end(tab, game)
    print(f"{tab.engine} {game}: {len(moves)} moves")
    tab.shown("#screen .final")
    rows = tab.evaluate("() => document.querySelectorAll('.final .final-scores li').length")
    assert rows == seats
    tab.text(".final h1, .final h2", "win")
