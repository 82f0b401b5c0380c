"""Nothing covers a control in Firefox and WebKit either: the watcher of
tests/e2e/test_overlap.py, installed once the page is open, looks at every frame while a
round of each game with an "On to round N" button is played against bots and revealed
(where a turning result once covered that button in every engine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_overlap import REVEALED, SETTLED, WATCH_FN

from .test_games import choose_game, one_human_and_bots

PLAY_JS = (Path(__file__).parent / "play.js").read_text(encoding="utf-8")
STEPS = 200
WAIT_MS = 60_000


@pytest.mark.parametrize("game", ["dilemmas", "royal"])
def test_no_control_is_covered_through_a_round(new_tab, site_url, game: str) -> None:
    tab = new_tab().open(site_url)
    tab.evaluate(WATCH_FN)
    tab.evaluate("(s) => { window.quandaryWanted = [s]; }", REVEALED[game])
    choose_game(tab, game)
    one_human_and_bots(tab)
    tab.click("#start")
    tab.shown("#screen .table")
    thrown: list[str] = []
    for step in range(STEPS):
        if tab.evaluate("(s) => window.quandarySeen.has(s)", REVEALED[game]):
            break
        move = tab.wait(PLAY_JS, {"seed": 3, "step": step, "thrown": thrown}, WAIT_MS)
        if move.get("final"):
            break
        tab.click(move["click"])
    else:
        raise AssertionError(f"{game}: no round revealed in {STEPS} moves")
    assert tab.evaluate("(s) => window.quandarySeen.has(s)", REVEALED[game]), "no reveal seen"
    tab.wait(SETTLED)
    covered = tab.evaluate("() => window.quandaryCovered")
    assert not covered, f"{tab.engine}, {game}: controls covered: {covered}"
