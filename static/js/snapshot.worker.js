// Makes the engine's warm-start snapshot, once, after a fresh start has drawn its
// first screen: a second interpreter, in a worker of its own, imports every module
// of the package (py/quandary/web/preload.py), and is snapshotted before it holds
// any object of the page's (a snapshot cannot hold one). Making it here keeps it
// off the engine's own start and off the worker that answers the player; the next
// start restores it (static/js/runtime.entry.js). Bundled into snapshot.mjs.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { keepSnapshot } from "./snapshot-store.js";

const HERE = new URL("./", import.meta.url);

async function make() {
  const quiet = { stdout: () => {}, stderr: (text) => console.warn(text) };
  const archive = fetch(new URL("quandary.zip", HERE)).then((response) => {
    if (!response.ok) throw new Error(`quandary.zip: ${response.status}`);
    return response.arrayBuffer();
  });
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", HERE).href, ...quiet, _makeSnapshot: true });
  // Where PyScript unpacks the package for the engine ([files] in pyscript.toml).
  pyodide.unpackArchive(await archive, "zip", { extractDir: "/home/pyodide" });
  pyodide.runPython(`
import importlib, sys
importlib.invalidate_caches()
if "/home/pyodide" not in sys.path:
    sys.path.insert(0, "/home/pyodide")
from quandary.web import preload
`);
  return keepSnapshot(HERE, pyodide.makeMemorySnapshot());
}

make().then(
  (kept) => postMessage({ kept }),
  (error) => {
    console.warn(`No warm-start snapshot this time: ${error}`);
    postMessage({ kept: false });
  },
);
