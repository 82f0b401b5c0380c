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
const ARCHIVE = new URL("quandary.zip", HERE).href; // [files] in pyscript.toml

// The page reads messages marked `quandary` (static/js/engine.entry.js).
const tell = (message) => globalThis.postMessage({ quandary: true, ...message });
const progress = (percent, text) => tell({ t: "progress", percent, text });

let wasmFailure = null; // the running start's way to end on a failed instantiate
let wasmCompiled = null; // and to hear that the runtime is compiled (archiveAhead)
for (const name of ["instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function watched(...args) {
    const result = original.apply(this, args);
    // The runtime is instantiated from its bytes, which answers with its module and
    // instance; Pyodide's small helper for errors, instantiated from a compiled
    // module as pyodide.mjs loads, answers with an instance alone.
    result.then(
      (made) => made?.instance && wasmCompiled?.(),
      (error) => wasmFailure?.(error),
    );
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

// Pyodide's output goes where PyScript says once it calls loadPyodide; until then
// (the start runs ahead of that call, below) it waits in these lines.
const early = { stdout: [], stderr: [] };
const output = {
  stdout: (text) => (early.stdout ? early.stdout.push(text) : output.to.stdout(text)),
  stderr: (text) => (early.stderr ? early.stderr.push(text) : output.to.stderr(text)),
  to: { stdout: console.log, stderr: console.error },
};

// The engine starts as soon as this module runs in its worker, not when PyScript
// calls loadPyodide: before that call PyScript opens its package cache in
// IndexedDB (which the engine, installing no package, never uses), and that wait
// would otherwise come before every download and restore. PyScript's call then
// takes the start already under way.
async function start() {
  progress(5, "Loading the Python runtime…");
  const settings = { indexURL: INDEX_URL, stdout: output.stdout, stderr: output.stderr };
  // The snapshot is read before Pyodide starts fetching its runtime, not beside it:
  // read side by side (both from the browser's storage) they took longer together.
  const snapshot = await cachedSnapshot(HERE);
  if (snapshot) {
    try {
      const pyodide = await startPyodide({ ...settings, _loadSnapshot: snapshot });
      tell({ t: "runtime", engine: "restored" });
      progress(85, "Setting the table…");
      skippedArchive(pyodide);
      skippedPyscriptPrologue(pyodide);
      return pyodide;
    } catch (error) {
      console.warn(`The warm-start snapshot could not be used: ${error}`);
      await forgetSnapshot(HERE);
    }
  }
  archiveAhead();
  const pyodide = await startPyodide(settings);
  wasmCompiled?.(); // at the latest: a runtime instantiated some other way never waits
  tell({ t: "runtime", engine: "fresh" });
  progress(70, "Loading the games…");
  skippedPyscriptPrologue(pyodide);
  return pyodide;
}

// A fresh start's package archive is fetched while Python starts, not after it:
// PyScript asks for it ([files] in pyscript.toml) only once the interpreter is up,
// about a second and a half of work that needs no network, and a first visit's
// half a megabyte then waited for a download of its own. The fetch begins once the
// runtime's WebAssembly is compiled (its download done, so the two do not share
// the line), and PyScript's own fetch of the archive, once, is answered by it,
// whatever it brings (a failure or a refusal reaches PyScript as its own would).
function archiveAhead() {
  const compiled = new Promise((resolve) => {
    wasmCompiled = resolve;
  });
  const plain = globalThis.fetch;
  const ahead = compiled.then(() => {
    wasmCompiled = null;
    return plain.call(globalThis, ARCHIVE);
  });
  ahead.catch(() => {}); // its failure is PyScript's to hear, when it asks
  globalThis.fetch = function fetchArchiveAhead(input, ...rest) {
    if (addressOf(input) !== ARCHIVE) return plain.call(this, input, ...rest);
    globalThis.fetch = plain;
    return ahead;
  };
}

// A fetch's absolute address, or "" for a relative one (never the archive's,
// which PyScript resolves first).
function addressOf(input) {
  try {
    return input instanceof Request ? input.url : new URL(String(input)).href;
  } catch {
    return "";
  }
}

// A restored engine holds every module of the package and the data they read as
// they were imported (py/quandary/web/preload.py): the archive PyScript fetches and
// unpacks ([files] in pyscript.toml) has nothing left to give it. Its fetch (half a
// megabyte through the service worker) answers at once, empty, and the unpacking
// does nothing. Only the archive's address, and only once: every other fetch goes on.
function skippedArchive(pyodide) {
  pyodide.unpackArchive = () => {};
  const plain = globalThis.fetch;
  globalThis.fetch = function fetchUnlessArchive(input, ...rest) {
    if (addressOf(input) !== ARCHIVE) return plain.call(this, input, ...rest);
    globalThis.fetch = plain;
    return Promise.resolve(new Response(new ArrayBuffer(0)));
  };
}

// Before the engine's first line, PyScript runs a prologue: Python that writes its
// own package's sources into the working folder and imports that package, the API
// that Python code in a page uses to reach the DOM. The engine uses none of it: the
// page calls the one function py/main.py exports, which PyScript's worker code
// serves without that package. So every start skips the prologue: on a restored
// start about 25 ms of writing and importing (and the snapshot need not hold the
// standard library modules that package imports: 4 MB less to read at every
// start); on a fresh one, importing those modules too. Only that exact prologue is
// skipped: a prologue of any other shape (another PyScript) runs as it is.
const PYSCRIPT_PROLOGUE = "import os as _os\nfrom pathlib import Path as _Path\n_path = None\n";
const PYSCRIPT_IMPORT = "\nimport pyscript as _pyscript\n";
const PYSCRIPT_END = /^(?:del _\w+\n)+\n*$/;

function isPyscriptPrologue(code) {
  if (typeof code !== "string" || !code.startsWith(PYSCRIPT_PROLOGUE)) return false;
  const at = code.indexOf(PYSCRIPT_IMPORT);
  return at >= 0 && PYSCRIPT_END.test(code.slice(at + PYSCRIPT_IMPORT.length));
}

function skippedPyscriptPrologue(pyodide) {
  const run = pyodide.runPythonAsync.bind(pyodide);
  pyodide.runPythonAsync = (code, ...rest) => {
    if (!isPyscriptPrologue(code)) return run(code, ...rest);
    pyodide.runPythonAsync = run; // PyScript's prologue comes once
    tell({ t: "pyscript-prologue", skipped: true });
    return Promise.resolve(undefined);
  };
}

// On the page's own thread there is no engine to start (see loadPyodide).
const started = globalThis.document ? null : start();
started?.catch(() => {}); // its failure is PyScript's to hear, when it asks

// What PyScript may pass to loadPyodide for this engine (pyscript.toml names no
// package): anything else asks for a start this module did not make.
const EXPECTED = new Set(["indexURL", "stdout", "stderr"]);

export async function loadPyodide(options = {}) {
  if (!started) {
    // PyScript falls back to the page's own thread when it cannot create the
    // engine's worker; Python there would freeze the page for seconds, so the
    // start ends here, with a sentence for the player.
    dispatchEvent(new CustomEvent("quandary:no-worker"));
    return new Promise(() => {});
  }
  const unexpected = Object.keys(options).filter((key) => !EXPECTED.has(key));
  if (unexpected.length) throw new Error(`the engine's settings ask for what it cannot give: ${unexpected.join(", ")}`);
  output.to = { stdout: options.stdout ?? console.log, stderr: options.stderr ?? console.error };
  for (const name of ["stdout", "stderr"]) {
    const lines = early[name];
    early[name] = null;
    for (const line of lines) output.to[name](line);
  }
  return started;
}
