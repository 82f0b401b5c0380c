// The engine: Pyodide and the Quandary package, in a worker of their own, so the
// page's main thread never waits for Python (booting it takes seconds on a phone,
// and a bot's move a moment). The page (static/js/app.entry.js) posts plain
// messages; each goes through py/quandary/web/bridge.py as JSON text, and what
// comes back (draw this, store that, send this to that peer) is posted to the
// page in one message, in order. Bundled by the build into static/vendor/engine.mjs,
// next to the Pyodide it imports.
//
// A warm start restores a memory snapshot of an interpreter that has already
// imported the package (Pyodide's _loadSnapshot), kept in the Cache API under this
// build's asset folder; a first start boots fresh and stores one for next time.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const HERE = new URL("./", import.meta.url);
const SNAPSHOTS = "quandary-snapshots";
const SNAPSHOT_URL = new URL("engine.snapshot", HERE).href;
// Pyodide restores a snapshot only into its initial 30 MiB heap (pyodide#6254):
// a bigger one would fail to load, so it is never stored.
const SNAPSHOT_LIMIT = 32 * 1024 * 1024;
const HEARTBEAT_MS = 2000;

let bridge = null;
let pageOrigin = performance.timeOrigin;
const inbox = [];
let clock = null;
let heartbeat = null;

// The page's performance.now(): the table's timed windows run on the clock the
// page measures throws with.
const pageNow = () => performance.timeOrigin + performance.now() - pageOrigin;

const progress = (percent, text) => postMessage({ t: "progress", percent, text });

function answer(message) {
  if (message.now === undefined) message.now = pageNow();
  return JSON.parse(bridge.handle(JSON.stringify(message)));
}

// The bridge's wishes about time: wake the table's clock, beat the room's heart.
function schedule(reply) {
  clearTimeout(clock);
  clock = null;
  if (reply.wake !== null) {
    clock = setTimeout(() => deliver({ t: "clock" }), Math.max(0, reply.wake - pageNow()) + 1);
  }
  if (reply.heartbeat && heartbeat === null) {
    heartbeat = setInterval(() => deliver({ t: "timer" }), HEARTBEAT_MS);
  } else if (!reply.heartbeat && heartbeat !== null) {
    clearInterval(heartbeat);
    heartbeat = null;
  }
}

// A player's action is answered even when nothing changes: the page counts what
// it is waiting for (static/js/app.entry.js marks #screen busy until then).
const ACTIONS = new Set(["event", "hash"]);

function deliver(...messages) {
  const out = [];
  let last = null;
  const answered = messages.filter((message) => ACTIONS.has(message.t)).length;
  for (const message of messages) {
    try {
      last = answer(message);
      out.push(...last.out);
    } catch (error) {
      // The bridge answers every bug itself; this is the engine failing under it.
      out.push({ t: "bug", text: String((error && error.message) || error), trace: String(error && error.stack) });
    }
  }
  if (out.length || answered) postMessage({ t: "out", out, answered });
  if (last) schedule(last);
}

let startArrived = null;
const startMessage = new Promise((resolve) => {
  startArrived = resolve;
});

onmessage = (event) => {
  if (bridge) deliver(event.data);
  else if (event.data?.t === "start" && startArrived) {
    startArrived(event.data);
    startArrived = null;
  } else inbox.push(event.data);
};
// The page holds its messages until it hears this (static/js/app.entry.js).
postMessage({ t: "listening" });

async function cachedSnapshot() {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) {
      if (request.url !== SNAPSHOT_URL) await cache.delete(request); // an older build's
    }
    const response = await cache.match(SNAPSHOT_URL);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null; // no Cache API here (a private window): a fresh start
  }
}

async function keepSnapshot(bytes) {
  if (bytes.byteLength > SNAPSHOT_LIMIT) return;
  try {
    const cache = await caches.open(SNAPSHOTS);
    await cache.put(SNAPSHOT_URL, new Response(bytes));
  } catch (error) {
    console.warn(`The warm-start snapshot was not kept: ${error}`);
  }
}

async function forgetSnapshot() {
  try {
    await (await caches.open(SNAPSHOTS)).delete(SNAPSHOT_URL);
  } catch {
    // nothing kept, nothing to forget
  }
}

const packageArchive = () =>
  fetch(new URL("quandary.zip", HERE)).then((response) => {
    if (!response.ok) throw new Error(`quandary.zip: ${response.status}`);
    return response.arrayBuffer();
  });

// Pyodide instantiates its runtime with WebAssembly.instantiateStreaming (or
// WebAssembly.instantiate on bytes), and when that fails (a damaged
// pyodide.asm.wasm, in a broken offline copy or cut short by the network) it only
// warns, and loadPyodide's promise never settles: the page would wait forever.
// So both are watched here, in this worker only, and a failure ends the start
// with its error: the page shows its failure screen, whose "repair" forgets the
// offline copy.
let wasmFailure = null; // the running start's way to end on a failed instantiate
for (const name of ["instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function watched(...args) {
    const result = original.apply(this, args);
    result.catch((error) => wasmFailure?.(error));
    return result;
  };
}

function startPyodide(options) {
  const failed = new Promise((_, reject) => {
    wasmFailure = (error) => reject(new Error(`the Python runtime is damaged (${error.message || error})`));
  });
  return Promise.race([loadPyodide(options), failed]).finally(() => {
    wasmFailure = null;
  });
}

// A restored interpreter has imported every module of the package already (and
// the card data they read at import), so it needs no files; a fresh one unpacks
// the package while Pyodide starts, and snapshots itself once the page is ready.
async function interpreter() {
  const indexURL = new URL("pyodide/", HERE).href;
  const quiet = { stdout: () => {}, stderr: (text) => console.warn(text) };
  const snapshot = await cachedSnapshot();
  if (snapshot) {
    try {
      const pyodide = await startPyodide({ indexURL, ...quiet, _loadSnapshot: snapshot });
      mark("interpreter_restored");
      return { pyodide, fresh: false };
    } catch (error) {
      console.warn(`The warm-start snapshot could not be used: ${error}`);
      await forgetSnapshot();
    }
  }
  const zip = packageArchive();
  const pyodide = await startPyodide({ indexURL, ...quiet, _makeSnapshot: true });
  mark("interpreter_fresh");
  progress(70, "Loading the games…");
  pyodide.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide" });
  mark("package_unpacked");
  progress(85, "Setting the table…");
  pyodide.runPython("import importlib, sys\nimportlib.invalidate_caches()\nsys.path.insert(0, '/home/pyodide')");
  return { pyodide, fresh: true };
}

// After a fresh start has drawn its first screen: import every module the engine
// may run, snapshot the interpreter and keep it for the next start. Python holds
// no JS object (a snapshot cannot hold one): the bridge only ever sees text.
function snapshotSoon(pyodide) {
  setTimeout(() => {
    try {
      pyodide.runPython("import quandary.web.preload");
      keepSnapshot(pyodide.makeMemorySnapshot());
    } catch (error) {
      console.warn(`No warm-start snapshot this time: ${error}`);
    }
  }, 0);
}

// How long each step of the start took (ms, on the worker's clock), for the bench.
const phases = {};
let lastMark = performance.now();
function mark(name) {
  const now = performance.now();
  phases[name] = Math.round(now - lastMark);
  lastMark = now;
}

async function boot() {
  progress(5, "Loading the Python runtime…");
  const { pyodide, fresh } = await interpreter();
  const start = await startMessage;
  pageOrigin = start.origin;
  start.now = pageNow();
  bridge = pyodide.pyimport("quandary.web.bridge").open_bridge(JSON.stringify(start));
  const waiting = inbox.splice(0);
  deliver({ t: "start", hash: start.hash }, ...waiting);
  mark("first_screen");
  postMessage({ t: "ready", engine: fresh ? "fresh" : "restored", phases });
  if (fresh) snapshotSoon(pyodide);
}

boot().catch((error) => {
  postMessage({ t: "failed", text: String((error && error.message) || error) });
});
