"""What proving the host costs: Ed25519 signing and checking per message, in Chromium.

Every message a room's host sends is signed by its transport and checked by the
receiving guest's (``static/js/room.entry.js``, WebCrypto). This measures both
in the real page with the built transport, for message sizes a room sends (a
tick, a view update, a full snapshot). The page's clock is coarse (0.1 ms), so
each sample times 10 messages in a row: median and p95 of 60 samples per size,
per message. Writes bench/results-crypto.json.

    .venv/bin/python -m bench.room_crypto
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import sync_playwright

from scripts.build import ensure_built
from scripts.serve import serve_in_thread
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """
async ([sizes, runs]) => {
  const BATCH = 10;
  const assets = document.querySelector('meta[name="quandary-assets"]').content;
  await import(new URL(assets + "room.mjs", document.baseURI).href);
  const alg = {name: "Ed25519"};
  const pair = await crypto.subtle.generateKey(alg, false, ["sign", "verify"]);
  const enc = new TextEncoder();
  const pct = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.max(0, Math.round(p * s.length) - 1))];
  };
  const out = {};
  for (const size of sizes) {
    const text = "x".repeat(size);
    const signs = [], checks = [];
    for (let i = 0; i < runs; i++) {
      const data = [];
      for (let j = 0; j < BATCH; j++) {
        data.push(enc.encode(`room\\nfrom\\nto\\n${i}.${j}\\n${text}`));
      }
      let t = performance.now();
      const sigs = [];
      for (const d of data) sigs.push(await crypto.subtle.sign(alg, pair.privateKey, d));
      signs.push((performance.now() - t) / BATCH);
      t = performance.now();
      for (let j = 0; j < BATCH; j++) {
        if (!(await crypto.subtle.verify(alg, pair.publicKey, sigs[j], data[j]))) {
          throw new Error("a signature did not verify");
        }
      }
      checks.push((performance.now() - t) / BATCH);
    }
    out[size] = {
      sign_ms: {p50: pct(signs, 0.5), p95: pct(signs, 0.95)},
      verify_ms: {p50: pct(checks, 0.5), p95: pct(checks, 0.95)},
    };
  }
  return out;
}
"""
SIZES = [60, 2_000, 16_000]
RUNS = 60


def main() -> None:
    """Measure and write the results."""
    dist = ROOT / "dist"
    ensure_built(dist)
    server, url = serve_in_thread(dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("html[data-quandary=ready]", timeout=90_000)
            measured = page.evaluate(MEASURE, [SIZES, RUNS])
            browser.close()
    finally:
        server.shutdown()
    result = {
        "samples_per_size": RUNS,
        "messages_per_sample": 10,
        "by_message_bytes": {
            size: {
                part: {k: round(v, 3) for k, v in figures.items()}
                for part, figures in measured[str(size)].items()
            }
            for size in SIZES
        },
    }
    (ROOT / "bench" / "results-crypto.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
