"""Both themes, legible on every screen: axe-core finds no serious or critical violation.

One page walks the lobby, each game's setup, each game's first table and each end
screen, and runs axe-core (npm, pinned in package.json; never shipped to players) on
each of them in the light and the dark theme: the theme follows the system's
``prefers-color-scheme`` unless the player chose one, so emulating the system's
choice switches it without a reload. The end screens are reached through the lobby's
"Games in progress": a finished game is played here by bots in every seat (the
human's too), then handed to the page as a save whose results were all seen, so the
walk takes seconds instead of four whole games.

The pages ask for reduced motion: axe reads a screen as it stands, and points flying
to a score (fading out over 700 ms) would otherwise be read half transparent, in
colours between two states that no reader is ever asked to read.

axe is evaluated through the browser's debugging protocol, which the page's security
policy does not govern: the page keeps its production policy (no inline script).

The Settings control itself is checked too: a chosen theme is applied before the
first paint of the next visit and kept over the system's.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from quandary.table import Seat, Table
from quandary.web.bridge import MirrorStorage
from quandary.web.render import game_ui
from quandary.web.saves import Shelf

from .conftest import PRACTISED_DILEMMA, ROOT, open_app, shipped_games
from .play import build_first
from .rooms import JOIN_TIMEOUT_MS, create_room, join, open_peer

AXE = (ROOT / "node_modules/axe-core/axe.min.js").read_text(encoding="utf-8")
GAMES = shipped_games("dilemmas", "randolph", "minister", "royal")
THEMES = ("light", "dark")
BAD = ("serious", "critical")

RUN_AXE = """async () => {
  const found = await axe.run(document, {resultTypes: ['violations']});
  return found.violations
    .filter((v) => %s.includes(v.impact))
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 4).map((n) => [n.target.join(' '), n.failureSummary])}));
}""".replace("%s", json.dumps(list(BAD)))


def finished_save(game: str, seed: int) -> str:
    """A saved game of ``game`` that is over and whose results were all seen.

    The human seat is played by a bot (``Table.cover``) while the table runs to its
    end on a simulated clock (Dilemma's throws are timed), then given back.
    """
    bots = [Seat("Bot Ada", "bot", "random"), Seat("Bot Bo", "bot", "random")]
    seats = [Seat("You", "human"), *bots]
    table = Table.new(game, seats, None, seed)
    table.cover(0, "random")
    now = 0.0
    for _ in range(100_000):
        if table.over:
            break
        table.advance(now)
        wake = table.next_wakeup()
        now = wake if wake is not None and wake > now else now + 50
    assert table.over, f"{game} did not end"
    table.uncover(0)
    storage = MirrorStorage({})
    seen = game_ui(game).checkpoints(table.view(None))
    Shelf(storage).put(f"axe-{game}", table, seen, time.time())
    return storage.items[f"quandary.game.axe-{game}"]


def violations(page: Page, where: str) -> list[str]:
    """axe's serious and critical findings on the page, in both themes, as sentences."""
    found = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.evaluate(AXE)
        for v in page.evaluate(RUN_AXE):
            found.append(f"{where} ({theme}): {v['id']} [{v['impact']}] {v['help']}: {v['nodes']}")
    return found


def test_every_screen_is_legible_in_both_themes(new_page, base_url) -> None:
    saves = {f"quandary.game.axe-{g}": finished_save(g, 11 + i) for i, g in enumerate(GAMES)}
    page = new_page(color_scheme="light", reduced_motion="reduce")
    page.context.add_init_script(PRACTISED_DILEMMA)
    page.context.add_init_script(
        f"try {{ const saves = {json.dumps(saves)}; for (const [k, v] of Object.entries(saves))"
        " if (!localStorage.getItem(k)) localStorage.setItem(k, v); } catch (e) {}"
    )
    page = open_app(page, base_url)
    found = violations(page, "lobby with games in progress")
    page.locator("#prefs summary").click()
    found += violations(page, "lobby with Settings open")
    page.locator("#prefs summary").click()
    for game in GAMES:
        page.click(f'[data-action="choose-game"][data-game="{game}"]')
        expect(page.locator(f'[data-action="choose-game"][data-game="{game}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        found += violations(page, f"{game}: setup")
        page.click("#start")
        expect(page.locator("#screen .table")).to_be_visible()
        if game == "randolph":  # a first game of Dilemma opens its practice throw
            expect(page.locator("#practice-done")).to_be_visible()
            found += violations(page, f"{game}: practice")
            page.click("#practice-done")
        expect(page.locator("#screen .turn")).to_be_visible()
        found += violations(page, f"{game}: table")
        if game == "dilemmas":  # the shared screens: votes with tokens placed, a result
            build_first(page)
            expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
            rows = page.locator(".vote-row")
            for i in range(rows.count()):
                rows.nth(i).locator(".token:not([disabled])").first.click()
                expect(rows.nth(i).locator('.token[aria-pressed="true"]')).to_have_count(1)
            found += violations(page, f"{game}: vote")
            page.click("#submit")
            expect(page.locator(".results li.won").first).to_be_visible()
            found += violations(page, f"{game}: round result")
        page.click("#leave")
        expect(page.locator('[data-action="choose-game"]').first).to_be_visible()
        page.click(f'[data-action="continue"][data-save="axe-{game}"]')
        expect(page.locator("#screen .final")).to_be_visible()
        found += violations(page, f"{game}: end screen")
        page.locator("#log summary").click()
        found += violations(page, f"{game}: end screen with the log open")
        page.get_by_role("button", name="Back to the lobby").first.click()
        expect(page.locator('[data-action="choose-game"]').first).to_be_visible()
    assert not found, "\n".join(found)


THEME_AT_FIRST_PAINT = """
window.themeAtBody = 'unset';
new MutationObserver((_, watcher) => {
  if (document.body) {
    window.themeAtBody = document.documentElement.dataset.theme || 'none';
    watcher.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def test_a_chosen_theme_is_kept_and_applied_before_the_first_paint(new_page, base_url) -> None:
    page = new_page(color_scheme="light")
    page.context.add_init_script(THEME_AT_FIRST_PAINT)
    page = open_app(page, base_url)
    assert page.evaluate("window.themeAtBody") == "light"
    page.locator("#prefs summary").click()
    page.get_by_label("Dark").check()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(21, 19, 29)", background
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]")
    # Dark before the body was parsed, although the system says light.
    assert page.evaluate("window.themeAtBody") == "dark"
    page.locator("#prefs summary").click()
    expect(page.get_by_label("Dark")).to_be_checked()
    page.locator("#theme-system").check()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    rules = Path(ROOT / "static/rules/index.html").read_text(encoding="utf-8")
    assert "theme.js" in rules, "the rules pages follow the chosen theme too"


def test_a_room_and_its_table_are_legible_in_both_themes(new_page, room_url) -> None:
    """A room's own screens: the share box with its QR code and the room's lobby, then
    the table with who is here, on the host's device and a guest's."""
    host = open_peer(new_page, room_url)
    host.emulate_media(reduced_motion="reduce")
    link = create_room(host, "Hana")
    expect(host.locator("#room-qr svg")).to_have_count(1)
    host.select_option("#room-game", "royal")
    host.select_option("#room-seat-count", "2")
    found = violations(host, "room lobby, host")
    guest = open_peer(new_page, room_url)
    guest.emulate_media(reduced_motion="reduce")
    join(guest, link, "Gus", 1)
    expect(host.locator(".members")).to_contain_text("Gus")
    found += violations(guest, "room lobby, guest")
    host.click("#room-start")
    for page in (host, guest):
        expect(page.locator("#screen .scoreboard")).to_be_visible(timeout=JOIN_TIMEOUT_MS)
    found += violations(host, "room table, host")
    found += violations(guest, "room table, guest")
    assert not found, "\n".join(found)
