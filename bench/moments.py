"""Moments benchmark: from a secret's reveal to the player's next possible action.

Plays a few rounds of each of the four games in Debian Chromium (bots instant,
so only the reveals are timed), once with animations on and once under
``prefers-reduced-motion: reduce``. For every reveal (elements with
``data-reveal`` appearing) the page's own clock notes when the next control the
player may press is usable (``action_ms``: target under 500 with animations on, 0
with reduced motion) and when the reveal's animations end (``planned_ms`` by
their timing, ``observed_ms`` as they really finished on this machine, or were
cut short: ``interrupted`` counts those the scripted player did not wait for). The
probe is tests/e2e/moments.py's. Writes bench/results-moments.json.

    .venv/bin/python -m bench.moments [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

from scripts.build import ensure_built
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, INSTANT_BOTS, chromium_path, open_app, wait_js
from tests.e2e.moments import PROBE, moments
from tests.e2e.play import build_first, vote_first_allowed
from tests.e2e.test_minister_game import _step as minister_step
from tests.e2e.test_randolph_game import challenge, start_against_bots
from tests.e2e.test_royal_game import choose_cards, start_royal

ROOT = Path(__file__).resolve().parent.parent
STEP_MS = 30_000


def dilemmas(page: Page, rounds: int) -> None:
    """Dilemmas turning over on the vote screen; tallies counting up on the result."""
    page.click("#start")
    for number in range(1, rounds + 1):
        build_first(page)
        vote_first_allowed(page)
        expect(page.get_by_role("heading", name=f"Round {number}: the votes")).to_be_visible()
        page.click("#next")


def minister(page: Page, rounds: int) -> None:
    """Ballots flipped in number order."""
    page.click('[data-game="minister"]')
    page.click("#start")
    for _ in range(600):
        if len({m["reveal"].split("-")[2] for m in moments(page, "ballot-")}) >= rounds:
            return
        if not minister_step(page):
            return


def royal(page: Page, rounds: int) -> None:
    """Royal Dilemma's choices, turned together."""
    start_royal(page, [("You", "human"), ("Bot Ada", "bot:heuristic")])
    screens = page.locator(".final, #next, button.pcard.capture, #submit")
    for _ in range(60):
        if len(moments(page, "choice-")) >= rounds * 2:
            return
        expect(screens.first).to_be_visible(timeout=STEP_MS)
        if page.locator(".final").count():
            return
        if page.locator("#next").count():
            heading = page.locator("#result-title").inner_text()
            page.click("#next")
            expect(page.get_by_role("heading", name=heading)).to_have_count(0)
        elif page.locator("button.pcard.capture").count():
            page.locator("button.pcard.capture").first.click()
            expect(page.locator("button.pcard.capture")).to_have_count(0)
        else:
            choose_cards(page)


RANDOLPH_STATE = """() => {
  if (document.querySelector('.final')) return 'over';
  if (document.querySelector('#duel-peace:not([disabled])')) return 'duel';
  if (document.querySelector('.rhand [data-action=draft]:not([disabled])')) return 'challenge';
  return (window.quandaryMoments || []).filter(
    m => m.reveal.startsWith('reveal-outcome-')).length + ':outcomes';
}"""


def randolph(page: Page, rounds: int) -> None:
    """Dilemma's duel outcomes uncovered (the player never throws: bots do)."""
    start_against_bots(page)
    outcomes = 0
    for _ in range(200):
        state = str(
            wait_js(
                page,
                f"last => {{ const s = ({RANDOLPH_STATE})(); return s !== last && s; }}",
                f"{outcomes}:outcomes",
                STEP_MS,
            )
        )
        if state == "over":
            return
        if state == "challenge":
            challenge(page)
        elif state == "duel":
            page.click("#duel-peace")
            expect(page.locator("#duel-peace")).to_have_count(0)
        else:
            outcomes = int(state.split(":")[0])
            if outcomes >= rounds:
                return


GAMES: dict[str, tuple[Callable[[Page, int], None], tuple[str, ...]]] = {
    "dilemmas": (dilemmas, ("dilemma-", "result-")),
    "minister": (minister, ("ballot-",)),
    "royal": (royal, ("choice-", "now-")),
    "randolph": (randolph, ("outcome-",)),
}


def measure(browser: Browser, url: str, motion: str, game: str, rounds: int) -> dict[str, Any]:
    """Play ``game`` with ``motion`` ("no-preference" or "reduce"); its reveals' figures."""
    context = browser.new_context(reduced_motion=motion, service_workers="block")  # type: ignore[arg-type]
    context.add_init_script(INSTANT_BOTS)
    context.add_init_script(PROBE)
    try:
        page = open_app(context.new_page(), url)
        play, prefixes = GAMES[game]
        play(page, rounds)
        found = [m for p in prefixes for m in moments(page, p)]
    finally:
        context.close()
    actions = [m["action"] for m in found if m["action"] is not None]
    return {
        "reveals": len(found),
        "elements_revealed": sum(m["count"] for m in found),
        "animations": sum(m["animations"] for m in found),
        "action_ms_max": round(max(actions, default=0.0), 1),
        "planned_ms_max": round(max((m["planned"] for m in found), default=0.0), 1),
        "observed_ms_max": round(max((m["observed"] for m in found), default=0.0), 1),
        "interrupted": sum(m["interrupted"] for m in found),
        "probe_ms_max": round(max((m["probe"] for m in found), default=0.0), 1),
    }


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    dist = ROOT / "dist"
    ensure_built(dist)
    server, url = serve_in_thread(dist)
    results: dict[str, Any] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for motion, label in (("no-preference", "animations_on"), ("reduce", "reduced_motion")):
            results[label] = {g: measure(browser, url, motion, g, args.rounds) for g in GAMES}
        browser.close()
    server.shutdown()
    on = results["animations_on"].values()
    still = results["reduced_motion"].values()
    results["target"] = {
        "action_ms_with_animations": "< 500",
        "action_ms_reduced_motion": "0",
        "met": max(r["action_ms_max"] for r in on) < 500
        and all(r["animations"] == 0 and r["action_ms_max"] == 0 for r in still),
    }
    out = ROOT / "bench" / "results-moments.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
