"""Offline play, the update prompt, the security policy and damaged offline copies.

These tests let the service worker run (the other tests block it for speed).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scripts.build import write_service_worker
from scripts.serve import serve_in_thread

from .conftest import BOOT_TIMEOUT_MS, DIST, SNAPSHOT_KEPT, open_app, wait_js
from .play import acknowledge_round, build_first, set_seats, vote_first_allowed

FIRST_VISIT = pytest.mark.cold_start
"""A first visit installs the offline copy and keeps the snapshot: the tests of that
start as one (the others, of headers and storage, start warm like the whole suite)."""

CSP_PROBE = (
    "window.__violations = [];"
    "document.addEventListener('securitypolicyviolation',"
    " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
)
SW_READY = (
    "() => navigator.serviceWorker.ready.then(r => r.active && r.active.state === 'activated')"
)


@pytest.fixture
def own_site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A private copy of the site, so a test may change it like a new deploy would."""
    site = tmp_path / "site"
    shutil.copytree(DIST, site)
    server, url = serve_in_thread(site)
    yield site, url
    server.shutdown()


def worker_page(new_page, url: str):
    page = new_page(service_workers="allow")
    context = page.context
    context.add_init_script(CSP_PROBE)
    open_app(page, url)
    # The offline copy is made once the lobby is usable: wait until it is complete.
    wait_js(page, SW_READY)
    return context, page


@FIRST_VISIT
def test_after_one_visit_a_game_plays_to_the_end_offline(new_page, own_site) -> None:
    _, url = own_site
    context, page = worker_page(new_page, url)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    set_seats(page, [("Robin", "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:random")])
    page.click("#start")
    for number in range(1, 6):
        build_first(page)
        vote_first_allowed(page)
        acknowledge_round(page, number)
    expect(page.locator(".final")).to_be_visible()
    page.click("#to-lobby")
    page.click("#create-room")
    expect(page.locator("#room-status")).to_contain_text("You are offline")
    assert page.evaluate("window.__violations") == []


@FIRST_VISIT
def test_a_new_deploy_is_offered_and_loaded_whole(new_page, own_site) -> None:
    site, url = own_site
    context, page = worker_page(new_page, url)
    # The second visit is the one the service worker controls.
    page.reload()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # A new version: one file changes, and the build writes a new service worker.
    rules = site / "static/rules/index.html"
    rules.write_text(rules.read_text() + "<!-- deploy 2 -->\n")
    write_service_worker(site)
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    banner = page.get_by_role("alert").filter(has_text="A new version of Quandary is ready")
    expect(banner).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    # Taking over makes the page load again, whole, from the new version.
    with page.expect_navigation(timeout=BOOT_TIMEOUT_MS):
        page.get_by_role("button", name="Reload to update").click()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    fetched = page.evaluate("fetch('./static/rules/index.html').then(r => r.text())")
    assert fetched.endswith("<!-- deploy 2 -->\n")
    expect(page.locator("#update")).to_be_hidden()


def test_the_page_runs_under_its_security_policy(new_page, base_url) -> None:
    page = new_page()
    page.context.add_init_script(CSP_PROBE)
    response = page.goto(base_url)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in policy
    # No script may be built from a string anywhere: not the page, not the engine's worker.
    assert "'unsafe-eval'" not in policy
    assert "connect-src 'self' wss:" in policy
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    page.click("#start")
    build_first(page)
    # The vote is drawn (the answer to the dilemma built) before the violations are read.
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()
    assert page.evaluate("window.__violations") == []
    asset = page.request.get(base_url + page.get_attribute("script[src$='app.mjs']", "src")[2:])
    assert "immutable" in asset.headers["cache-control"]
    assert page.request.get(base_url + "sw.js").headers["cache-control"] == "no-cache"
    assert page.request.get(base_url).headers["cache-control"] == "no-cache"


@FIRST_VISIT
def test_a_damaged_offline_copy_can_be_repaired(new_page, own_site, page_errors) -> None:
    # A start without the warm-start snapshot unpacks the package: it is damaged.
    page_errors.expect("is not a zip file")
    _, url = own_site
    context, page = worker_page(new_page, url)
    # The engine's snapshot is kept by now, and is thrown away with the package.
    wait_js(page, SNAPSHOT_KEPT)
    page.evaluate(
        """async () => {
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
              if (request.url.includes('quandary.zip')) {
                await cache.put(request, new Response('not a zip'));
              }
              if (name === 'quandary-snapshots') await cache.delete(request);
            }
          }
        }"""
    )
    page.reload()
    page.wait_for_selector("html[data-quandary=failed]", timeout=BOOT_TIMEOUT_MS)
    page.get_by_role("button", name="Clear the offline copy and reload").click()
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    page.click("#start")
    expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    assert page_errors.matching("is not a zip file")


def test_full_storage_is_reported_and_play_goes_on(new_page, base_url) -> None:
    page = new_page()
    page.context.add_init_script(
        "Storage.prototype.setItem = function () {"
        " throw new DOMException('full', 'QuotaExceededError'); };"
    )
    open_app(page, base_url)
    page.click("#start")
    expect(page.get_by_role("alert")).to_contain_text("storage is full")
    build_first(page)
    expect(page.get_by_role("heading", name="Vote on every dilemma")).to_be_visible()


def test_the_app_can_be_installed(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    href = page.get_attribute('link[rel="manifest"]', "href")
    manifest = page.request.get(base_url + href[2:])
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["display"] == "standalone" and data["short_name"] == "Quandary"
    folder = base_url + href[2:].rsplit("/", 1)[0] + "/"
    sizes = set()
    for icon in data["icons"]:
        response = page.request.get(folder + icon["src"])
        assert response.ok, icon["src"]
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
