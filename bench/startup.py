"""Start-up benchmark: Quandary against a bare page that boots the same runtime.

Both pages are served by the same server with the production headers (the bare
page gets the 'unsafe-eval' PyScript needs). The bare page loads PyScript and the
same Pyodide and runs one line of Python: the least any Python page can do. For
each page, in one run, side by side:

- cold: a new browser profile, until the page is usable (Quandary: the engine
  answered; bare: its line ran);
- warm: reloads in the same profile (HTTP cache, and for Quandary its service
  worker and the engine's snapshot), the two pages' reloads taking turns;
- a first visit over an emulated network (10 Mbit/s down, 40 ms round trip):
  time to usable and bytes transferred, by file;
- Quandary only: the longest main-thread task between first paint and usable
  (PerformanceObserver "longtask"), and how long a click made while the engine
  boots takes to show (from the click's timestamp to the next frame).

Medians of ``--runs`` runs each (9 by default); ratios are Quandary over bare.
Writes bench/results-startup.json.

    .venv/bin/python -m bench.startup [--runs 9]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from scripts.build import PYODIDE_FILES
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path, wait_js

ROOT = Path(__file__).resolve().parent.parent
BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="{core}"></script>
<script type="py" src="./bench-bare.py" config="./bench-bare.toml"></script>
"""
BARE_TOML = 'interpreter = "{interpreter}"\n'
BARE_PY = 'import js; js.document.documentElement.dataset.quandary = "ready"\n'
BARE_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; "
    "style-src 'self' 'unsafe-inline'; worker-src 'self' blob:"
)
NETWORK = {
    "offline": False,
    "latency": 40,
    "downloadThroughput": 10e6 / 8,
    "uploadThroughput": 5e6 / 8,
}
"""10 Mbit/s down, 5 up, 40 ms round trip (Chrome DevTools' units: bytes per second)."""

# Notes first paint, the moment the page marks itself ready, long tasks, and for
# every click the time from its timestamp to the next frame, on the page's clock.
PROBE = """
window.__longTasks = [];
window.__clicks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: true });
addEventListener('click', (event) => {
  const at = event.timeStamp;
  const ready = document.documentElement.dataset.quandary === 'ready';
  requestAnimationFrame(() => window.__clicks.push([at, performance.now() - at, ready]));
}, true);
new MutationObserver((_, observer) => {
  if (document.documentElement.dataset.quandary === 'ready') {
    window.__readyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-quandary'] });
"""
READY = "() => window.__readyAt !== undefined && window.__readyAt"
PAINT = "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
SW_ACTIVE = "() => navigator.serviceWorker.ready.then(r => r.active?.state === 'activated')"
SNAPSHOT_KEPT = "() => caches.open('quandary-snapshots').then(c => c.keys()).then(k => k.length)"


def ready_at(page: Page) -> float:
    """Milliseconds from navigation start until the page marked itself ready."""
    return float(wait_js(page, READY, None, 180_000))


def load(page: Page, url: str, reload: bool = False) -> float:
    if reload:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    return ready_at(page)


def bytes_by_file(sizes: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for url, size in sizes.items():
        key = url.split("?")[0].rsplit("/", 1)[-1] or "index.html"
        out[key] = out.get(key, 0) + size
    return out


def cold(browser: Browser, url: str, network: bool, clicks: bool) -> dict[str, Any]:
    """One first visit in a new profile; with ``clicks``, game cards are clicked while
    the engine boots, every quarter second."""
    context = browser.new_context(service_workers="allow")
    context.add_init_script(PROBE)
    page = context.new_page()
    sizes: dict[str, int] = {}

    def finished(request: Any) -> None:
        try:
            got = request.sizes()
            sizes[request.url] = got["responseBodySize"] + got["responseHeadersSize"]
        except Exception:  # noqa: BLE001 - a request the browser dropped has no sizes
            pass

    page.on("requestfinished", finished)
    if network:
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", NETWORK)
    page.goto(url, wait_until="commit")
    if clicks:
        cards = page.locator('[data-action="choose-game"]')
        cards.first.wait_for()
        turn = 0
        while page.evaluate("document.documentElement.dataset.quandary") == "loading":
            turn += 1
            cards.nth(turn % 4).click(timeout=10_000)
            page.wait_for_timeout(250)
    at = ready_at(page)
    result: dict[str, Any] = {"ready_ms": at, "bytes": bytes_by_file(sizes)}
    if url.endswith("/") and not network:  # Quandary's own page: the bare one paints nothing
        paint = float(wait_js(page, PAINT, None, 10_000) or 0)
        tasks = page.evaluate("window.__longTasks")
        during = [d for start, d in tasks if paint <= start <= at]
        result["longest_task_ms"] = max(during, default=0.0)
        result["long_tasks"] = len(during)
        result["clicks"] = [c for c in page.evaluate("window.__clicks") if not c[2]]
    context.close()
    return result


def returning(browser: Browser, url: str, quandary: bool) -> tuple[BrowserContext, Page]:
    """A profile whose first visit is over: it holds everything a return visit uses."""
    context = browser.new_context(service_workers="allow")
    context.add_init_script(PROBE)
    page = context.new_page()
    load(page, url)
    if quandary:
        wait_js(page, SW_ACTIVE, None, 180_000)  # the offline copy is complete
        wait_js(page, SNAPSHOT_KEPT, None, 180_000)  # and the engine's snapshot kept
        load(page, url, reload=True)  # the service worker now controls the page
    return context, page


def warm(browser: Browser, pages: dict[str, str], runs: int) -> dict[str, list[float]]:
    """Reloads of each page in a profile of its own, interleaved as the cold starts are
    (the order turned round each time): both pages see the same machine, whose speed
    drifts over the minutes a pass takes by more than a change being measured."""
    opened = {name: returning(browser, url, name == "quandary") for name, url in pages.items()}
    times: dict[str, list[float]] = {name: [] for name in pages}
    for turn in range(runs):
        names = list(pages) if turn % 2 == 0 else list(reversed(pages))
        for name in names:
            times[name].append(load(opened[name][1], pages[name], reload=True))
    assert opened["quandary"][1].evaluate("document.documentElement.dataset.engine") == "restored"
    for context, _ in opened.values():
        context.close()
    return times


def median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def assets_folder(dist: Path) -> str:
    """The built site's content-hashed asset folder, as the page names it."""
    index = (dist / "index.html").read_text()
    assets = re.search(r'<meta name="quandary-assets" content="([^"]+)"', index)
    assert assets, "build the site first (make build)"
    return assets.group(1)


def write_bare(dist: Path) -> list[Path]:
    """The reference page, beside the app in dist/ (removed after the run).

    It runs Pyodide as npm ships it (``bench-pyodide/`` in the asset folder, so served
    as the site's copy is, copied from node_modules): the build changes the site's copy
    (its standard library partly precompiled, scripts/stdlib.mjs), and the bare page is
    what any page gets without that."""
    folder = assets_folder(dist)
    stock = dist / folder / "bench-pyodide"
    stock.mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(ROOT / "node_modules" / "pyodide" / name, stock / name)
    files = {
        "bench-bare.html": BARE_HTML.format(core=folder + "pyscript/core.js"),
        "bench-bare.toml": BARE_TOML.format(interpreter=folder + "bench-pyodide/pyodide.mjs"),
        "bench-bare.py": BARE_PY,
    }
    for name, text in files.items():
        (dist / name).write_text(text)
    return [dist / name for name in files] + [stock]


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "ready_ms_median": median([r["ready_ms"] for r in runs]),
        "ready_ms_each": [round(r["ready_ms"]) for r in runs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="a built site")
    args = parser.parse_args()
    dist = args.dist
    bare_files = write_bare(dist)
    server, base = serve_in_thread(
        dist, extra_rules=[("/bench-bare*", {"Content-Security-Policy": BARE_POLICY})]
    )
    pages = {"bare": base + "bench-bare.html", "quandary": base}
    results: dict[str, Any] = {"runs": args.runs}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            colds: dict[str, list[dict[str, Any]]] = {"bare": [], "quandary": []}
            slow: dict[str, list[dict[str, Any]]] = {"bare": [], "quandary": []}
            for _ in range(args.runs):  # interleaved: both pages see the same machine
                for name, url in pages.items():
                    colds[name].append(cold(browser, url, network=False, clicks=False))
            warms = warm(browser, pages, args.runs)
            for _ in range(args.runs):
                for name, url in pages.items():
                    slow[name].append(cold(browser, url, network=True, clicks=False))
            clicked = [cold(browser, base, network=False, clicks=True) for _ in range(args.runs)]
            browser.close()
    finally:
        server.shutdown()
        for path in bare_files:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    for name in pages:
        results[name] = {
            "cold": summarize(colds[name]),
            "warm_ms_median": median(warms[name]),
            "warm_ms_each": [round(w) for w in warms[name]],
            "network_10mbit_40ms": {
                **summarize(slow[name]),
                "bytes": sum(slow[name][0]["bytes"].values()),
            },
        }
    q, b = results["quandary"], results["bare"]
    results["warm_ratio"] = round(q["warm_ms_median"] / b["warm_ms_median"], 3)
    # Each turn reloads both pages back to back, as the cold starts do: the median of
    # those turns' ratios, beside the ratio of the medians.
    turns = zip(warms["quandary"], warms["bare"], strict=True)
    results["warm_ratio_paired_median"] = round(median([qq / bb for qq, bb in turns]), 3)
    results["cold_extra_ms"] = round(q["cold"]["ready_ms_median"] - b["cold"]["ready_ms_median"])
    results["cold_ratio"] = round(q["cold"]["ready_ms_median"] / b["cold"]["ready_ms_median"], 3)
    # Each run boots the bare page and then ours back to back: the median of those
    # pairs' differences is steadier than the difference of medians when the
    # machine's load drifts over the minutes a run takes. Both are reported.
    pairs = zip(colds["quandary"], colds["bare"], strict=True)
    results["cold_extra_ms_paired_median"] = round(
        median([qq["ready_ms"] - bb["ready_ms"] for qq, bb in pairs])
    )
    net_q, net_b = q["network_10mbit_40ms"], b["network_10mbit_40ms"]
    results["network_ratio"] = round(net_q["ready_ms_median"] / net_b["ready_ms_median"], 3)
    results["network_extra_bytes"] = net_q["bytes"] - net_b["bytes"]
    bare_files_seen = slow["bare"][0]["bytes"]
    results["quandary_only_files"] = {
        name: size
        for name, size in slow["quandary"][0]["bytes"].items()
        if name not in bare_files_seen
    }
    results["files_of_both_extra_bytes"] = {
        name: size - bare_files_seen[name]
        for name, size in slow["quandary"][0]["bytes"].items()
        if name in bare_files_seen and size != bare_files_seen[name]
    }
    results["bare_only_files"] = {
        name: size
        for name, size in bare_files_seen.items()
        if name not in slow["quandary"][0]["bytes"]
    }
    tasks = [r["longest_task_ms"] for r in colds["quandary"] + clicked]
    feedback = [c[1] for r in clicked for c in r["clicks"]]
    results["main_thread"] = {
        "longest_task_ms_median": median(tasks),
        "longest_task_ms_max": round(max(tasks), 1),
        "long_tasks_per_boot": [r["long_tasks"] for r in colds["quandary"]],
        "clicks_during_boot": len(feedback),
        "click_to_frame_ms_median": median(feedback) if feedback else None,
        "click_to_frame_ms_max": round(max(feedback), 1) if feedback else None,
        "clicks_over_100ms": sum(1 for f in feedback if f > 100),
    }
    out = ROOT / "bench" / "results-startup.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
