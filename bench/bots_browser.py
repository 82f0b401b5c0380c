"""How long a bot takes to decide inside the browser (Pyodide in Debian Chromium).

Writes a throw-away page into dist/ that runs the real bots on real views of
random games, then reads the timings back. Target: every decision under 50 ms.
Merges its figures into bench/results-bots.json.

    .venv/bin/python -m bench.bots_browser [--decisions 400]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.startup import BARE_POLICY, assets_folder
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path, wait_js

ROOT = Path(__file__).resolve().parent.parent

PAGE = """<!doctype html><meta charset="utf-8"><title>bot timing</title>
<script type="module" src="{core}"></script>
<pre id="result"></pre>
<script type="py" src="./bench-bots.py" config="./bench-bots.toml"></script>
"""
CONFIG = """interpreter = "{folder}pyodide/pyodide.mjs"
[files]
"{folder}quandary.zip" = "./*"
"""

SCRIPT = """
import json, time, random
import js
import quandary.games
from quandary import engine
from quandary.bots import bot_rng, make_bot

LIMIT = {limit}
times = {{"heuristic": [], "random": []}}
chooser = random.Random(1)
seed = 0
while len(times["heuristic"]) < LIMIT:
    seed += 1
    options = {{"supervotes": seed % 2 == 0, "neutral": seed % 3 == 0, "coop": seed % 4 == 0}}
    state = engine.setup("dilemmas", 3 + seed % 4, options, seed)
    while engine.result(state) is None:
        for seat in range(state.players):
            view = engine.view(state, seat)
            if not view["legal_moves"]:
                continue
            for level in ("heuristic", "random"):
                bot = make_bot("dilemmas", level)
                start = time.perf_counter()
                move = bot.choose(view, bot_rng(seed, seat, state.version))
                times[level].append((time.perf_counter() - start) * 1000)
            state = engine.apply(state, seat, move)
js.document.getElementById("result").textContent = json.dumps(times)
"""


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def rank(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {"decisions": len(ordered), "p50": rank(0.5), "p95": rank(0.95), "max": rank(1.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=400)
    args = parser.parse_args()
    dist = ROOT / "dist"
    folder = assets_folder(dist)
    files = {
        "bench-bots.html": PAGE.format(core=folder + "pyscript/core.js"),
        "bench-bots.toml": CONFIG.format(folder=folder),
        "bench-bots.py": SCRIPT.format(limit=args.decisions),
    }
    for name, text in files.items():
        (dist / name).write_text(text)
    # PyScript on the main thread needs 'unsafe-eval', which the app's policy forbids.
    server, url = serve_in_thread(
        dist, extra_rules=[("/bench-bots*", {"Content-Security-Policy": BARE_POLICY})]
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(url + "bench-bots.html")
        wait_js(
            page, "() => document.getElementById('result').textContent.length > 0", None, 600_000
        )
        times = json.loads(page.inner_text("#result"))
        browser.close()
    server.shutdown()
    for name in files:
        (dist / name).unlink()
    result = {level: summary(values) for level, values in times.items()}
    out = ROOT / "bench" / "results-bots.json"
    merged = json.loads(out.read_text()) if out.exists() else {}
    merged["browser_decision_ms"] = result
    out.write_text(json.dumps(merged, indent=2) + "\n")
    print(json.dumps({"browser_decision_ms": result}, indent=2))


if __name__ == "__main__":
    main()
