// The interpreter PyScript starts for the engine: pyscript.toml names this module
// as its `interpreter`, and PyScript calls its `loadPyodide` in the engine's
// worker as it would call Pyodide's own. It is Pyodide's own, with two things
// added:
//
// - a warm start: when this build's snapshot of a booted engine is kept (made
//   after a first start by static/js/snapshot.worker.js), the interpreter is
//   restored from it, with every module of the package imported already; a
//   snapshot that no longer matches the runtime is dropped and the start goes on
//   fresh, once, silently;
// - a start that ends: a damaged pyodide.asm.wasm makes Pyodide only warn and
//   never settle, so a failed WebAssembly instantiation ends the start with its
//   error (the page then shows its failure screen and its repair).
//
// It also tells the page how the start goes (progress, fresh or restored), as
// plain messages on the worker's own channel. Bundled by the build into
// runtime.mjs, beside the Pyodide it imports.

import { loadPyodide as loadPlainPyodide, version } from "./pyodide/pyodide.mjs";
import { cachedSnapshot, forgetSnapshot } from "./snapshot-store.js";

export { version };

const HERE = new URL("./", import.meta.url);
const INDEX_URL = new URL("pyodide/", HERE).href;

// The page reads messages marked `quandary` (static/js/engine.entry.js).
const tell = (message) => globalThis.postMessage({ quandary: true, ...message });
const progress = (percent, text) => tell({ t: "progress", percent, text });

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
  return Promise.race([loadPlainPyodide(options), failed]).finally(() => {
    wasmFailure = null;
  });
}

// The kept snapshot is read from the Cache API as soon as this module runs in the
// engine's worker, while PyScript goes on with its own start, rather than once it
// calls loadPyodide. (On the page's own thread there is no engine to restore.)
const kept = globalThis.document ? Promise.resolve(null) : cachedSnapshot(HERE);

// How long each step of the start took (ms, on the worker's clock), for the bench.
const phases = {};
let lastMark = performance.now();
function mark(name) {
  const now = performance.now();
  phases[name] = Math.round(now - lastMark);
  lastMark = now;
}

export async function loadPyodide(options = {}) {
  if (globalThis.document) {
    // PyScript falls back to the page's own thread when it cannot create the
    // engine's worker; Python there would freeze the page for seconds, so the
    // start ends here, with a sentence for the player.
    dispatchEvent(new CustomEvent("quandary:no-worker"));
    return new Promise(() => {});
  }
  progress(5, "Loading the Python runtime…");
  // PyScript's indexURL is this module's folder: Pyodide's files are beside it.
  const settings = { ...options, indexURL: INDEX_URL };
  const snapshot = await kept;
  if (snapshot) {
    try {
      const pyodide = await startPyodide({ ...settings, _loadSnapshot: snapshot });
      mark("interpreter_restored");
      tell({ t: "runtime", engine: "restored", phases });
      progress(85, "Setting the table…");
      // A restored engine holds every module of the package, the data they read
      // as they were imported, and PyScript's own bytecode (py/quandary/web/preload.py):
      // the archive PyScript unpacks ([files] in pyscript.toml) has nothing left to
      // give it, and unpacking its files would only cost the start time.
      pyodide.unpackArchive = () => {};
      return pyodide;
    } catch (error) {
      console.warn(`The warm-start snapshot could not be used: ${error}`);
      await forgetSnapshot(HERE);
    }
  }
  const pyodide = await startPyodide(settings);
  mark("interpreter_fresh");
  tell({ t: "runtime", engine: "fresh", phases });
  progress(70, "Loading the games…");
  return pyodide;
}
