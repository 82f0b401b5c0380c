"""Boot: a lobby that plays before Python is ready, a progress bar driven by the
engine worker, errors on failure, and a warm start from the interpreter's snapshot."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from .conftest import BOOT_TIMEOUT_MS, SNAPSHOT_KEPT, open_app, wait_js
from .play import wait_until_answered


def test_lobby_markup_and_progress_show_before_python_is_ready(new_page, base_url) -> None:
    page = new_page()
    held: list[Route] = []
    # Hold the game package until the page has been checked: Python cannot finish
    # booting without it, so what we see is what shows before Python is ready.
    page.route("**/quandary.zip", lambda route: held.append(route))
    page.goto(base_url, wait_until="domcontentloaded")
    expect(page).to_have_title("Quandary · dilemma games to play together")
    expect(page.get_by_role("heading", name="Pick a dilemma")).to_be_visible()
    bar = page.locator("#boot-progress")
    expect(bar).to_be_visible()
    # The engine's progress moves the bar past "Python is running" while the
    # package is still held back.
    expect(bar).to_have_js_property("value", 70, timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.quandary") == "loading"
    # The lobby is the engine's own, painted by the build: Start is there already.
    expect(page.locator("#start")).to_be_enabled()
    assert held, "the package request should be waiting"
    held[0].continue_()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(bar).to_be_hidden()
    expect(page.locator("#start")).to_be_enabled()


def test_a_failed_boot_shows_a_readable_error(new_page, base_url, page_errors) -> None:
    page_errors.expect("quandary.zip")  # the 404 and what PyScript makes of it
    page = new_page()
    page.route("**/quandary.zip", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(base_url)
    page.wait_for_selector("html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS)
    alert = page.locator("#boot-error")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Quandary could not start")
    expect(alert).to_contain_text("404")
    expect(page.get_by_role("button", name="Reload", exact=True)).to_be_focused()
    assert page_errors.matching("quandary.zip")


def test_lobby_lists_the_game_and_its_options(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    expect(page.get_by_role("button", name="The Game of Dilemmas")).to_have_attribute(
        "aria-pressed", "true"
    )
    for label in ("Neutral cards", "Supervotes", "Coop dilemmas", "Family Table", "The Deep End"):
        expect(page.get_by_label(label)).to_be_visible()
    expect(page.get_by_label("Family Table")).to_be_checked()


def test_a_redraw_morphs_the_screen_so_elements_that_stay_are_kept(new_page, base_url) -> None:
    """The screen is morphed into the next one, not rebuilt: the Start button a
    player was about to press is the same element after an option changes."""
    page = open_app(new_page(), base_url)
    page.evaluate("document.getElementById('start').__kept = true")
    supervotes = page.get_by_label("Supervotes")
    was = supervotes.is_checked()
    supervotes.click()
    # The browser ticks the box itself at once: the redraw is the engine's answer.
    wait_until_answered(page)
    expect(supervotes).to_be_checked(checked=not was)
    assert page.evaluate("document.getElementById('start').__kept === true")


def test_a_game_set_up_and_started_while_python_boots_starts_when_it_is_ready(
    new_page, base_url
) -> None:
    """Choosing a game, its seats and a name, then pressing Start, all before the
    engine can answer: each shows at once, and the game starts as set up."""
    page = new_page()
    held: list[Route] = []
    page.route("**/quandary.zip", lambda route: held.append(route))
    page.goto(base_url, wait_until="domcontentloaded")
    royal = page.get_by_role("button", name="Royal Dilemma")
    royal.click()
    expect(royal).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="The Game of Dilemmas")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(page.locator("#setup-title")).to_have_text("Set up Royal Dilemma")
    page.select_option("#seat-count", "3")
    expect(page.locator(".seats > li")).to_have_count(3)
    page.fill("#seat-name-0", "Maud")
    page.click("#start")
    expect(page.locator("#boot-status")).to_contain_text("Start game: as soon as")
    assert page.evaluate("document.documentElement.dataset.quandary") == "loading"
    assert held, "the package request should be waiting"
    held[0].continue_()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator(".table")).to_have_attribute("aria-label", "Royal Dilemma")
    expect(page.locator(".table")).to_contain_text("Maud")
    expect(page.locator(".table")).to_contain_text("Bot Bo")


def test_a_second_start_restores_the_booted_engine(new_page, base_url) -> None:
    """The first start keeps a snapshot of the booted interpreter; the next one
    starts from it and plays."""
    page = open_app(new_page(), base_url)
    assert page.evaluate("document.documentElement.dataset.engine") == "fresh"
    wait_js(page, SNAPSHOT_KEPT)
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.engine") == "restored"
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()


def test_a_damaged_snapshot_is_dropped_and_the_engine_boots_fresh(
    new_page, base_url, page_errors
) -> None:
    page = open_app(new_page(), base_url)
    wait_js(page, SNAPSHOT_KEPT)
    page.evaluate(
        "caches.open('quandary-snapshots').then(async c => {"
        " const [key] = await c.keys(); await c.put(key, new Response('not a snapshot')); })"
    )
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.engine") == "fresh"
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()


def test_a_games_stylesheet_loads_with_its_first_table(new_page, base_url) -> None:
    """The lobby loads no game's own style; starting Royal Dilemma links its sheet and
    draws its table already styled (its cards laid out as its sheet says)."""
    page = open_app(new_page(), base_url)
    styles = "() => performance.getEntriesByType('resource').map((e) => e.name)"
    assert not [n for n in page.evaluate(styles) if n.endswith(("royal.css", "minister.css"))]
    page.click('[data-action="choose-game"][data-game="royal"]')
    page.click("#start")
    card = page.locator(".pcard").first
    expect(card).to_be_visible()
    assert card.evaluate("(e) => getComputedStyle(e).display") == "inline-flex"
    assert page.locator('link[rel=stylesheet][href$="royal.css"]').count() == 1
    assert not [n for n in page.evaluate(styles) if n.endswith("minister.css")]


def test_a_damaged_runtime_shows_the_failure_screen_not_an_endless_wait(
    new_page, base_url, page_errors
) -> None:
    """A cut-short pyodide.asm.wasm (a broken offline copy, a dropped download) makes
    Pyodide abort without settling its start; the engine notices the failed
    instantiation and the page says so, with the way to repair the copy."""
    page_errors.expect("wasm|WebAssembly|damaged")  # the runtime's own complaints
    page = new_page()

    def cut_short(route: Route) -> None:
        body = route.fetch().body()
        route.fulfill(status=200, body=body[: len(body) // 3], content_type="application/wasm")

    page.route("**/pyodide.asm.wasm", cut_short)
    page.goto(base_url)
    page.wait_for_selector("html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-error")).to_contain_text("damaged")
    expect(page.locator("#boot-repair")).to_be_visible()
