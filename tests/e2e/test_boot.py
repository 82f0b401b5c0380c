"""Boot: PyScript starts the engine in its named worker under the production
policy; a lobby that plays before Python is ready, a progress bar driven by the
engine's start, a readable failure screen for each way a start can fail (never
PyScript's banner), and a warm start from the interpreter's snapshot."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from playwright.sync_api import Page, Route, expect

from scripts.serve import headers_for, netlify_headers

from .conftest import BOOT_TIMEOUT_MS, SNAPSHOT_KEPT, open_app, wait_js
from .play import wait_until_answered
from .rooms import JOIN_TIMEOUT_MS, create_room, rename

FIRST_START = pytest.mark.cold_start
"""A test of the first start itself: its page starts as on a first visit (the others
start warm, as the whole suite does: tests/e2e/warm.py)."""


def wait_until_held(page: Page, held: list[Route]) -> None:
    """Wait until the engine has asked for its package (PyScript asks once the
    interpreter is up) and the test holds that request."""
    if not held:
        page.wait_for_event(
            "request", lambda r: r.url.endswith("quandary.zip"), timeout=BOOT_TIMEOUT_MS
        )
    expect(page.locator("#boot-progress")).to_have_js_property("value", 70)
    assert held, "the package request should be waiting"


@FIRST_START
def test_the_lobby_plays_before_python_is_ready_and_a_game_started_then_starts_when_it_is(
    new_page, base_url
) -> None:
    """The lobby and the progress bar show before Python is ready; choosing a game,
    its seats and a name, then pressing Start, all before the engine can answer:
    each shows at once, and the game starts as set up."""
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
    wait_until_held(page, held)
    held[0].continue_()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(bar).to_be_hidden()
    expect(page.locator(".table")).to_have_attribute("aria-label", "Royal Dilemma")
    expect(page.locator(".table")).to_contain_text("Maud")
    expect(page.locator(".table")).to_contain_text("Bot Bo")


CLICK_ON = """async () => {
  let clicks = 0;
  for (const end = performance.now() + 2500; performance.now() < end; clicks += 1) {
    const game = clicks % 2 ? "dilemmas" : "royal";
    document.querySelector(`[data-action="choose-game"][data-game="${game}"]`).click();
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return clicks;
}"""
"""Clicks between two games for 2.5 s, as a player trying the lobby at once; how many."""


@FIRST_START
def test_a_first_start_runs_in_pyscripts_named_worker_and_the_second_restores_it(
    new_page, base_url
) -> None:
    """One first visit, then a return, under the production policy.

    The policy allows no eval, and workers only from this origin and PyScript's
    blob: URLs; booting and playing under it blocks nothing (any violation is a
    console error, which fails every browser test: conftest.POLICY_WATCH).

    PyScript imports every plugin for each script type with no settings of its own;
    MicroPython's type, which Quandary never uses, had none, so each start fetched
    the editor's, the terminal's and the game canvas's code (and a reload while they
    were coming made Firefox report them as failed imports).

    The first start keeps a snapshot of the booted interpreter, made once the page
    has settled (a second interpreter's start, beside a player's first clicks or a
    room being joined, slowed them); the next one starts from it and plays. (One
    page walks all three: each first start costs two interpreter boots, the
    engine's and the snapshot's.)
    """
    policy = headers_for("/", netlify_headers())["Content-Security-Policy"]
    assert "'unsafe-eval'" not in policy
    assert "worker-src 'self' blob:;" in policy
    page = new_page()
    makers: list[float] = []
    page.on("worker", lambda w: makers.append(time.monotonic()) if "snapshot" in w.url else None)
    page = open_app(page, base_url)
    # A player who clicks on at once: no snapshot is made while the page is busy. The
    # clicks are paced by the page's own timer (every 150 ms for 2.5 s), not by this
    # process's round trips to it, which a loaded machine can stretch past the second
    # of quiet that lets the snapshot begin.
    clicks = page.evaluate(CLICK_ON)
    wait_until_answered(page)
    settled = time.monotonic()
    assert not makers, f"the snapshot was begun {clicks} clicks into the player's first moments"
    assert page.evaluate("typeof document.querySelector('script[type=py][name=engine]').xworker")
    assert page.evaluate("document.querySelectorAll('script[type=py]:not([worker])').length") == 0
    names = "() => performance.getEntriesByType('resource').map((e) => e.name)"
    fetched = [n.rsplit("/", 1)[-1] for n in page.evaluate(names) if "/pyscript/" in n]
    unwanted = ("py-editor", "py-terminal", "py-game", "donkey", "deprecations-manager")
    assert [n for n in fetched if n.startswith(unwanted)] == []
    assert any(n.startswith("core") for n in fetched)
    assert page.evaluate("document.documentElement.dataset.engine") == "fresh"
    assert page.evaluate("document.documentElement.dataset.pyscriptPrologue") == "skipped"
    wait_js(page, SNAPSHOT_KEPT)
    assert makers and makers[0] >= settled, "the snapshot is made once the page settled"
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.engine") == "restored"
    # The engine's worker asked for its runtime, but not for the package's archive:
    # the snapshot holds all of it.
    assert any(url.endswith("/pyodide.asm.wasm") for url in requested)
    assert not [url for url in requested if url.endswith("/quandary.zip")]
    # PyScript's prologue (its Python API, which the engine does not use) was skipped
    # on both starts (static/js/runtime.entry.js).
    assert page.evaluate("document.documentElement.dataset.pyscriptPrologue") == "skipped"
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    assert page.locator(".py-error").count() == 0


@FIRST_START
def test_a_browser_that_cannot_create_the_worker_says_so(new_page, base_url, page_errors) -> None:
    """PyScript falls back to the page's own thread when it cannot create a worker;
    the engine refuses to run there (it would freeze the page) and says why."""
    page_errors.expect("Web Worker")
    page = new_page()
    page.add_init_script("window.Worker = function () { throw new Error('no workers here'); };")
    page.goto(base_url)
    page.wait_for_selector("html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-error")).to_contain_text("did not let it run in the background")
    assert page.locator(".py-error").count() == 0


@FIRST_START
def test_settings_that_cannot_be_read_show_the_failure_screen_not_a_banner(
    new_page, base_url, page_errors
) -> None:
    """A damaged pyscript.toml: PyScript would show its own banner; the page shows
    its failure screen (with its repair) instead, and the banner never stays."""
    page_errors.expect("pyscript.toml")
    page = new_page()
    page.route(
        "**/pyscript.toml",
        lambda route: route.fulfill(
            status=200, body='interpreter = "./x.mjs\n[files', content_type="text/plain"
        ),
    )
    page.goto(base_url)
    page.wait_for_selector("html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-error")).to_contain_text("pyscript.toml")
    expect(page.locator("#boot-repair")).to_be_visible()
    assert page.locator(".py-error").count() == 0


@FIRST_START
def test_a_runtime_that_cannot_be_found_shows_the_failure_screen(
    new_page, base_url, page_errors
) -> None:
    """pyscript.toml naming an interpreter that is not there (a foreign value, a
    half-deployed site): the start ends on the failure screen, not in a wait."""
    page_errors.expect("nowhere|runtime")
    page = new_page()

    def foreign(route: Route) -> None:
        text = route.fetch().text().replace("runtime.mjs", "nowhere.mjs")
        route.fulfill(status=200, body=text, content_type="text/plain")

    page.route("**/pyscript.toml", foreign)
    page.goto(base_url)
    page.wait_for_selector("html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-error")).to_contain_text("Quandary could not start")
    assert page.locator(".py-error").count() == 0


@FIRST_START
def test_a_page_reloaded_while_the_engine_boots_starts_again_without_a_failure(
    new_page, base_url
) -> None:
    """Leaving a page while its engine starts is not the engine failing: the page
    being left says nothing, and the reloaded one starts."""
    page = new_page()
    held: list[Route] = []
    page.route("**/quandary.zip", lambda route: held.append(route))
    # The engine says "Loading the games" (70%) just before it asks for the
    # package, so the reload waits for the request itself, not the bar.
    with page.expect_request("**/quandary.zip", timeout=BOOT_TIMEOUT_MS):
        page.goto(base_url, wait_until="domcontentloaded")
    expect(page.locator("#boot-progress")).to_have_js_property("value", 70, timeout=BOOT_TIMEOUT_MS)
    page.unroute("**/quandary.zip")
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("#boot-error")).to_be_hidden()
    assert held, "the first start was held while the page was reloaded"


@FIRST_START
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
    # Folded, in one line that says what is chosen; opened, every option is there.
    expect(page.locator("#setup-more > summary")).to_contain_text("Card packs: Family Table")
    expect(page.get_by_label("Supervotes")).not_to_be_visible()
    page.click("#setup-more > summary")
    for label in ("Neutral cards", "Supervotes", "Coop dilemmas", "Family Table", "The Deep End"):
        expect(page.get_by_label(label)).to_be_visible()
    expect(page.get_by_label("Family Table")).to_be_checked()


def test_a_redraw_morphs_the_screen_so_elements_that_stay_are_kept(new_page, base_url) -> None:
    """The screen is morphed into the next one, not rebuilt: the Start button a
    player was about to press is the same element after an option changes."""
    page = open_app(new_page(), base_url)
    page.evaluate("document.getElementById('start').__kept = true")
    page.click("#setup-more > summary")
    supervotes = page.get_by_label("Supervotes")
    was = supervotes.is_checked()
    supervotes.click()
    # The browser ticks the box itself at once: the redraw is the engine's answer.
    wait_until_answered(page)
    expect(supervotes).to_be_checked(checked=not was)
    assert page.evaluate("document.getElementById('start').__kept === true")
    # The fold the player opened stays open through the redraw, its line up to date.
    expect(page.locator("#setup-more")).to_have_attribute("open", "")
    expect(page.locator("#setup-more > summary")).to_contain_text(
        "no variants" if was else "Supervotes"
    )


def test_a_stamped_part_of_the_screen_is_walked_only_when_its_stamp_changes(
    new_page, base_url
) -> None:
    """The scoreboard and the player's turn carry a digest of their markup (data-h). A
    card picked changes the turn, not the scoreboard: the scoreboard is not walked, so
    a mark the morph would otherwise remove (an attribute Python never wrote) stays
    there, and the turn is morphed (its mark goes, the card shows picked)."""
    page = open_app(new_page(), base_url)
    page.click('[data-action="choose-game"][data-game="dilemmas"]')
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    wait_until_answered(page)
    board, turn = page.locator(".scoreboard"), page.locator(".turn")
    stamps = board.get_attribute("data-h"), turn.get_attribute("data-h")
    assert all(stamps)
    page.evaluate(
        "for (const part of document.querySelectorAll('.scoreboard, .turn'))"
        " part.dataset.mark = 'kept'"
    )
    page.locator(".card.positive").first.click()
    expect(page.locator('.card.positive[aria-pressed="true"]')).to_have_count(1)
    wait_until_answered(page)
    assert board.get_attribute("data-h") == stamps[0]
    expect(board).to_have_attribute("data-mark", "kept")
    assert turn.get_attribute("data-h") != stamps[1]
    expect(turn).not_to_have_attribute("data-mark", "kept")


def start_again_with_the_snapshot_changed(page: Page, other_runtime: bool) -> None:
    """Once the page has kept its snapshot, damage it (or, with ``other_runtime``, give
    it another runtime's build id), reload, and check the engine started fresh."""
    wait_js(page, SNAPSHOT_KEPT)
    page.evaluate(
        "async (flip) => { const c = await caches.open('quandary-snapshots');"
        " const [key] = await c.keys();"
        " const bytes = new Uint8Array(await (await c.match(key)).arrayBuffer());"
        " bytes[16] ^= 0xff;"
        " await c.put(key, new Response(flip ? bytes : 'not a snapshot')); }",
        other_runtime,
    )
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.engine") == "fresh"


@FIRST_START
def test_a_damaged_snapshot_or_one_of_another_runtime_is_replaced_by_a_fresh_start(
    new_page, base_url
) -> None:
    """A damaged snapshot is dropped, and the start goes on fresh. So does one of a
    deploy that changed Pyodide: its build id (bytes 16 to 47 of Pyodide's snapshot
    header) no longer matches the runtime. Each time the start goes on fresh, once
    and silently, plays, and keeps a snapshot of the runtime it has."""
    page = open_app(new_page(), base_url)
    start_again_with_the_snapshot_changed(page, other_runtime=False)
    start_again_with_the_snapshot_changed(page, other_runtime=True)
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    # The next start restores the snapshot the fresh one kept.
    wait_js(page, SNAPSHOT_KEPT)
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.engine") == "restored"


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


@FIRST_START
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


PACKING = """async () => {
  const {packSnapshot, unpackSnapshot} = await import('/static/js/snapshot-store.js');
  const same = (a, b) => a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
  // Non-empty stretches at the start (a header), across a page boundary, and in a last
  // partial page; empty pages between and an empty stretch inside a kept page.
  const made = new Uint8Array(10 * 4096 + 100);
  made.fill(7, 0, 144);
  made.fill(9, 2 * 4096 - 10, 2 * 4096 + 10);
  made[10 * 4096 + 99] = 1;
  const packed = packSnapshot(made);
  const refused = (bytes) => {
    try { unpackSnapshot(bytes); return false; } catch { return true; }
  };
  const broken = packed.slice();
  broken[broken.byteLength - 20] ^= 0x40; // a run's offset
  const cache = await caches.open('quandary-snapshots');
  const [key] = await cache.keys();
  const kept = new Uint8Array(await (await cache.match(key)).arrayBuffer());
  const booted = unpackSnapshot(kept);
  return {
    roundTrip: same(unpackSnapshot(packed), made),
    headerFirst: same(packed.subarray(0, 144), made.subarray(0, 144)),
    packedSize: packed.byteLength,
    plainSize: made.byteLength,
    refused: [
      refused(new TextEncoder().encode('not a snapshot')),
      refused(packed.subarray(0, packed.byteLength - 1)),
      refused(packed.subarray(1)),
      refused(broken),
      refused(made),
    ],
    kept: kept.byteLength,
    booted: booted.byteLength,
    keptAgain: same(packSnapshot(booted), kept),
  };
}"""


def test_the_snapshot_is_kept_without_its_empty_stretches(new_page, base_url) -> None:
    """The kept snapshot leaves out its empty pages (static/js/snapshot-store.js): the
    booted engine's is kept in well under its size, and unpacks to the same bytes;
    what is not a whole packed snapshot is refused (the start then goes on fresh)."""
    page = new_page()  # on the site's origin, with this build's snapshot kept
    found = page.evaluate(PACKING)
    assert found["roundTrip"] and found["headerFirst"]
    assert found["packedSize"] < found["plainSize"] / 2
    assert found["refused"] == [True] * 5
    assert found["keptAgain"]
    assert found["kept"] < 0.7 * found["booted"], found


def poisoned_stdlib(archive: bytes) -> bytes:
    """The standard library's archive with every module still in source form made to
    fail when it runs: one the build left uncompiled and a start imports stops it."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(archive)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".py"):
                # Said on the console too (every browser test fails on a console
                # error), in case the import is made where errors are caught.
                said = f"{info.filename} was compiled at the start"
                text = f"import js\njs.console.error({said!r})\nraise RuntimeError({said!r})\n"
                data = text.encode()
            target.writestr(info, data)
    return out.getvalue()


@FIRST_START
def test_a_first_start_compiles_none_of_the_standard_library_it_imports(
    new_page, room_url, built_site
) -> None:
    """Pyodide ships its standard library as source; the build precompiles the part
    the engine imports (scripts/stdlib.mjs), which took 2 of a first start's 3.5 s to
    compile. Here every module left in source form raises if it runs: a host and a
    guest start, open a room, sit and deal, and the host makes its snapshot (a second
    start), all from bytecode alone."""
    archive = next(built_site.glob("static/v/*/pyodide/python_stdlib.zip")).read_bytes()
    poisoned = poisoned_stdlib(archive)

    def fresh() -> Page:
        page = new_page()
        page.route(
            "**/pyodide/python_stdlib.zip",
            lambda route: route.fulfill(body=poisoned, content_type="application/zip"),
        )
        return page

    def start(page: Page, url: str) -> None:
        page.goto(url)
        page.wait_for_selector(
            "html[data-quandary=ready], html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS
        )
        assert page.evaluate("document.documentElement.dataset.quandary") == "ready", page.locator(
            "body"
        ).inner_text()

    host, guest = fresh(), fresh()
    start(host, room_url)
    link = create_room(host, "Hana")
    start(guest, link)
    expect(guest.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    rename(guest, "Anna")
    guest.click("#sit-1")
    expect(guest.locator("#sit-1")).to_have_count(0)
    host.select_option("#room-seat-kind-2", "bot:random")
    host.click("#room-start")
    expect(guest.locator(".scoreboard")).to_be_visible()
    wait_js(host, SNAPSHOT_KEPT)


@FIRST_START
def test_a_first_start_fetches_the_package_while_python_starts_and_only_once(
    new_page, base_url
) -> None:
    """PyScript asks for the package's archive once the interpreter is up; a first
    start asks as soon as the runtime is compiled, while Python starts, and
    PyScript's own fetch is answered by that one (static/js/runtime.entry.js,
    ``archiveAhead``). Not before: the runtime's download would share the line with
    it. With the runtime and the standard library held back, nothing is asked; once
    the runtime comes, the archive is asked for while Python still cannot start."""
    page = new_page()
    runtime: list[Route] = []
    stdlib: list[Route] = []
    asked: list[bool] = []  # for each request of the archive: was the runtime held?

    def archive(route: Route) -> None:
        asked.append(bool(runtime))
        route.continue_()

    page.route("**/pyodide/pyodide.asm.wasm", lambda route: runtime.append(route))
    page.route("**/pyodide/python_stdlib.zip", lambda route: stdlib.append(route))
    page.route("**/quandary.zip", archive)
    with (
        page.expect_request("**/pyodide/python_stdlib.zip", timeout=BOOT_TIMEOUT_MS),
        page.expect_request("**/pyodide/pyodide.asm.wasm", timeout=BOOT_TIMEOUT_MS),
    ):
        page.goto(base_url, wait_until="domcontentloaded")
    page.evaluate("0")  # the routes' handlers have run
    assert runtime and stdlib
    assert not asked, "the archive was asked for while the runtime was still coming"
    with page.expect_request("**/quandary.zip", timeout=BOOT_TIMEOUT_MS):
        held, runtime[:] = runtime[0], []
        held.continue_()
    assert page.evaluate("document.documentElement.dataset.quandary") == "loading"
    stdlib[0].continue_()
    page.unroute("**/pyodide/python_stdlib.zip")
    page.unroute("**/pyodide/pyodide.asm.wasm")
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert asked == [False], asked
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
