// Firefox for tests/browsers: Debian's firefox-esr driven by puppeteer-core over
// WebDriver BiDi, one browser per process, commanded by tests/browsers/conftest.py
// over stdin and stdout, one JSON object a line each way:
//   in:  {"id": 1, "op": "goto", "page": "p1", "url": "..."}
//   out: {"id": 1, "ok": <result>}  or  {"id": 1, "error": "<message>"}
// Every page's uncaught errors and console errors are kept for the "errors" op.

import readline from "node:readline";
import puppeteer from "puppeteer-core";

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.env.QUANDARY_FIREFOX || "/usr/bin/firefox-esr",
  protocol: "webDriverBiDi",
  headless: true,
  // Loopback only: nothing of Firefox's own may reach the network.
  extraPrefsFirefox: {
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "browser.safebrowsing.downloads.remote.enabled": false,
    "app.update.auto": false,
    "datareporting.policy.dataSubmissionEnabled": false,
    "toolkit.telemetry.enabled": false,
  },
});

// Longer than any in-page wait a test makes (90 s for a boot), shorter than the
// deadline conftest.py gives each command (150 s).
const OP_TIMEOUT_MS = 120_000;
const contexts = new Map();
const pages = new Map();
let next = 0;

function watch(id, page) {
  const entry = { page, errors: [] };
  page.on("console", (message) => {
    if (message.type() === "error") entry.errors.push(`[console] ${message.text()}`);
  });
  page.on("pageerror", (error) => entry.errors.push(`[pageerror] ${error?.message ?? error}`));
  pages.set(id, entry);
  return entry;
}

function page(id) {
  const entry = pages.get(id);
  if (!entry) throw new Error(`no page ${id}`);
  return entry.page;
}

// A function's source and its argument, called in the page; async functions are awaited.
function call(source, arg) {
  return `(${source})(${JSON.stringify(arg ?? null)})`;
}

const ops = {
  async context() {
    const id = `c${++next}`;
    contexts.set(id, await browser.createBrowserContext());
    return id;
  },
  async page({ context, init = [] }) {
    const made = await contexts.get(context).newPage();
    const id = `p${++next}`;
    watch(id, made);
    for (const script of init) await made.evaluateOnNewDocument(script);
    return id;
  },
  async goto({ page: id, url }) {
    await page(id).goto(url, { waitUntil: "domcontentloaded" });
    return page(id).url();
  },
  async reload({ page: id }) {
    await page(id).reload({ waitUntil: "domcontentloaded" });
    return null;
  },
  async evaluate({ page: id, source, arg }) {
    return (await page(id).evaluate(call(source, arg))) ?? null;
  },
  async focus({ page: id, selector }) {
    await page(id).focus(selector);
    return null;
  },
  async type({ page: id, selector, text }) {
    const element = await page(id).$(selector);
    await element.click({ count: 3 });
    await element.type(text);
    return null;
  },
  async select({ page: id, selector, value }) {
    await page(id).select(selector, value);
    return null;
  },
  async keys({ page: id, steps }) {
    // [["down", " "], ["up", " "], ["press", "ArrowLeft"]]
    const keyboard = page(id).keyboard;
    for (const [what, key] of steps) await keyboard[what](key);
    return null;
  },
  async mouse({ page: id, steps }) {
    // [["move", x, y, steps], ["down"], ["up"]]
    const mouse = page(id).mouse;
    for (const [what, x, y, n] of steps) {
      if (what === "move") await mouse.move(x, y, { steps: n || 1 });
      else await mouse[what]();
    }
    return null;
  },
  async offline({ page: id, offline }) {
    await page(id).setOfflineMode(offline);
    return null;
  },
  async errors({ page: id }) {
    return pages.get(id)?.errors ?? [];
  },
  async close({ page: id }) {
    const entry = pages.get(id);
    await entry.page.close();
    return null;
  },
  async closeContext({ context }) {
    await contexts.get(context)?.close();
    contexts.delete(context);
    return null;
  },
  async version() {
    return await browser.version();
  },
};

const lines = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on("line", (line) => {
  const request = JSON.parse(line);
  // One command at a time, in order: the tests are sequential.
  queue = queue.then(async () => {
    let reply;
    let timer;
    // A command that never settles (a page that stopped answering) fails on its own,
    // and the commands after it still run.
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${OP_TIMEOUT_MS} ms`)), OP_TIMEOUT_MS);
    });
    try {
      reply = { id: request.id, ok: await Promise.race([ops[request.op](request), late]) };
    } catch (error) {
      reply = { id: request.id, error: String(error?.message ?? error) };
    }
    clearTimeout(timer);
    process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
});
lines.on("close", async () => {
  await queue;
  await browser.close();
  process.exit(0);
});
process.stdout.write(`${JSON.stringify({ id: 0, ok: "ready" })}\n`);
