"""Benchmark: how often Maybe Minister shows every law in force and every player's
points without scrolling, on a 1280x800 laptop.

Run as ``.venv/bin/python -m bench.minister_fold [--games N]``. Plays N seeded first
games through the app's real ``Controller`` (``bench.minister_newcomer``: you and two
bots, a sensible player's moves) and keeps every screen the player acts on. Each is
then drawn in Debian's Chromium at 1280x800 inside the built page, with the game's
stylesheet, scrolled to its top, and its glance column measured: a screen counts as
hidden when a law or a score line ends below the window. The browser test
``tests/e2e/test_minister_game.py`` checks the same on the one game it plays; this
sees the long games a single run seldom meets (the most laws in force sets the
column's height). Writes ``bench/results-minister-fold.json`` (git-ignored).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from bench.minister_newcomer import Newcomer
from scripts.serve import serve_in_thread
from tests.e2e.conftest import BOOT_TIMEOUT_MS, CHROMIUM_ARGS, DIST, chromium_path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1280, 800
STYLE = """() => new Promise((done, failed) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = './static/css/minister.css';
  link.onload = done;
  link.onerror = failed;
  document.head.append(link);
})"""
MEASURE = """(html) => {
  document.querySelector('main').innerHTML = html;
  window.scrollTo(0, 0);
  const lines = [...document.querySelectorAll('.mm-laws .mm-law, .mm-scores .mm-score')];
  return {laws: document.querySelectorAll('.mm-laws .mm-law').length,
          bottom: Math.max(0, ...lines.map((e) => e.getBoundingClientRect().bottom)),
          height: window.innerHeight};
}"""
"""Draw one screen as the page draws it (the same HTML into ``main``) and measure it."""


class Recorder(Newcomer):
    """A newcomer's game that keeps the HTML of every screen acted on."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.screens: list[str] = []

    def _act(self) -> None:
        self.screens.append(str(self.c.render()))
        super()._act()


def measure(screens: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """Each screen's laws in force and the lowest law or score line's bottom (px)."""
    server, url = serve_in_thread(DIST, ())
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto(url)
            page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
            page.evaluate(STYLE)
            rows = [{"seed": seed, **page.evaluate(MEASURE, html)} for seed, html in screens]
            browser.close()
    finally:
        server.shutdown()
    return rows


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games (default 20)")
    args = parser.parse_args(argv)
    screens: list[tuple[int, str]] = []
    for seed in range(1, args.games + 1):
        game = Recorder(seed)
        game.play()
        screens += [(seed, html) for html in game.screens]
    rows = measure(screens)
    hidden = [r for r in rows if r["bottom"] > r["height"]]
    worst = max(rows, key=lambda r: r["bottom"])
    result = {
        "games": args.games,
        "screens": len(rows),
        "hidden": len(hidden),
        "most_laws": max(r["laws"] for r in rows),
        "lowest_bottom_px": round(worst["bottom"]),
        "lowest_seed": worst["seed"],
        "window_px": HEIGHT,
    }
    print(
        f"Maybe Minister at 1280x800: every law and score in the first screen on "
        f"{len(rows) - len(hidden)} of {len(rows)} screens ({args.games} games); "
        f"most laws in force {result['most_laws']}; lowest line ends at "
        f"{result['lowest_bottom_px']} px of {HEIGHT} (seed {worst['seed']})"
    )
    (ROOT / "bench" / "results-minister-fold.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
