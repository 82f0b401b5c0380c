"""Start-up benchmark: Quandary against a bare page that boots the same runtime.

Both pages are served by the same server with the production headers. The bare
page loads the same PyScript and Pyodide and runs one line of Python. For each:
the cold first load (new browser profile) and warm reloads (same profile, HTTP
cache and, for Quandary, its service worker) until the page marks itself ready,
plus the bytes the page transferred on its first load. Writes
bench/results-startup.json.

    .venv/bin/python -m bench.startup [--reloads 7]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path

ROOT = Path(__file__).resolve().parent.parent

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="{core}"></script>
<script type="py" src="./bare.py" config="./bare.toml"></script>
"""
BARE_TOML = 'interpreter = "{interpreter}"\n'
BARE_PY = 'import js; js.document.documentElement.dataset.quandary = "ready"\n'

# Notes the moment the page marks itself ready, on the page's own clock.
PROBE = """
new MutationObserver((_, observer) => {
  if (document.documentElement.dataset.quandary === 'ready') {
    window.__readyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-quandary']});
"""


def time_to_ready(page: Page, url: str, reload: bool = False) -> float:
    """Milliseconds from navigation start until the page is usable."""
    if reload:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function("window.__readyAt !== undefined", timeout=120_000)
    return float(page.evaluate("window.__readyAt"))


def transferred(page: Page) -> dict[str, int]:
    """Bytes over the network for this page load, by file (document and resources)."""
    entries = page.evaluate(
        "performance.getEntriesByType('navigation').concat("
        "performance.getEntriesByType('resource'))"
        ".map(e => [e.name, Math.max(e.transferSize, e.encodedBodySize)])"
    )
    out: dict[str, int] = {}
    for name, size in entries:
        key = name.split("?")[0].rsplit("/", 1)[-1] or "index.html"
        out[key] = out.get(key, 0) + int(size)
    return out


def measure(browser: Browser, url: str, reloads: int, with_worker: bool) -> dict[str, Any]:
    context = browser.new_context(service_workers="allow")
    context.add_init_script(PROBE)
    page = context.new_page()
    cold = time_to_ready(page, url)
    files = transferred(page)
    if with_worker:
        # Quandary makes its offline copy after start-up: let it finish first.
        page.wait_for_function(
            "navigator.serviceWorker.ready.then(r => r.active && r.active.state === 'activated')",
            timeout=120_000,
        )
    warm = [time_to_ready(page, url, reload=True) for _ in range(reloads)]
    context.close()
    return {
        "cold_ms": round(cold),
        "warm_ms_median": round(statistics.median(warm)),
        "warm_ms_each": [round(w) for w in warm],
        "first_load_bytes": sum(files.values()),
        "files": files,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reloads", type=int, default=7)
    args = parser.parse_args()
    dist = ROOT / "dist"
    index = (dist / "index.html").read_text()
    core = re.search(r'src="([^"]*/pyscript/core\.js)"', index)
    interpreter = re.search(r'interpreter = "([^"]+)"', (dist / "pyscript.toml").read_text())
    assert core and interpreter, "build the site first (make build)"
    bare = {
        "bare.html": BARE_HTML.format(core=core.group(1)),
        "bare.toml": BARE_TOML.format(interpreter=interpreter.group(1)),
        "bare.py": BARE_PY,
    }
    for name, text in bare.items():
        (dist / name).write_text(text)
    server, url = serve_in_thread(dist)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            results = {
                "bare": measure(browser, url + "bare.html", args.reloads, with_worker=False),
                "quandary": measure(browser, url, args.reloads, with_worker=True),
            }
            browser.close()
    finally:
        server.shutdown()
        for name in bare:
            (dist / name).unlink()
    q, b = results["quandary"], results["bare"]
    results["warm_ratio"] = round(q["warm_ms_median"] / b["warm_ms_median"], 3)
    results["first_load_extra_bytes"] = q["first_load_bytes"] - b["first_load_bytes"]
    results["quandary_only_files"] = {
        name: size for name, size in q.pop("files").items() if name not in b["files"]
    }
    b.pop("files")
    out = ROOT / "bench" / "results-startup.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
