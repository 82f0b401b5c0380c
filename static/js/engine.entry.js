// The page's line to the engine. PyScript starts it: index.html declares it with
// PyScript's own tags (<py-config src="./pyscript.toml"> and a named worker,
// "engine", running py/main.py), and this module is the page's side of that
// worker. The engine exports one function, `handle`: a batch of the page's
// messages in (JSON text), the page's work out (static/js/app.entry.js does it).
// Bundled into engine.mjs; PyScript's core stays the file the build copied
// beside it.

// PyScript's core is imported here, not at the top: a module whose imports are
// still evaluating (core.js awaits its settings) can be handed, in WebKit, to an
// import() of it before its own body has run. With no await of its own, this
// module is whole whenever static/js/app.entry.js imports it.
const core = import("./pyscript/core.js").then((module) => {
  // PyScript's default worker hook registers the module behind `pyscript.fs`,
  // which the engine does not use, and a worker hook is compiled from its text
  // with Function(): the page's policy allows no eval. With no worker hook left,
  // PyScript compiles nothing. This runs before PyScript reads its hooks: it
  // defines its script types only once its plugins have loaded (more files to
  // fetch), later than the import it has just finished.
  module.hooks.worker.onBeforeRunAsync.clear();
  module.hooks.worker.onBeforeRun.clear();
  return module;
});

let onFailure = null;
let failure = null; // what went wrong before anyone asked
function failed(text) {
  failure ??= text;
  onFailure?.(failure);
}

// The engine's worker, once PyScript has created it: PyScript sets it on its
// script element as `xworker` (right after telling its onWorker hooks).
const script = document.querySelector('script[type="py"][name="engine"]');
const created = core.then(
  ({ hooks }) =>
    new Promise((resolve) => {
      if (script?.xworker) resolve(script.xworker);
      else hooks.main.onWorker.add(() => queueMicrotask(() => resolve(script?.xworker)));
    }),
);

// PyScript shows a configuration it cannot read in a banner of its own, whatever
// the configuration says of banners (it could not read that either). The page
// says it in its own words instead, on its failure screen, before the banner is
// ever painted (an observer runs before the next frame).
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === 1 && node.classList.contains("py-error")) {
        node.remove();
        failed(`its settings (pyscript.toml) could not be read: ${describe(node.textContent)}`);
      }
    }
  }
}).observe(document.body, { childList: true });

// The runtime (static/js/runtime.entry.js) says so when PyScript, unable to
// create a worker, tries to run the engine on the page's own thread.
addEventListener("quandary:no-worker", () =>
  failed("this browser did not let it run in the background (no Web Worker)"),
);

/**
 * Connect to the engine: `events.message` hears the engine's start (progress,
 * runtime), `events.failed` a start that cannot end; the promise gives the
 * engine's exports once py/main.py has run.
 */
export async function connectEngine(events) {
  onFailure = events.failed;
  if (failure) events.failed(failure);
  const xworker = await created;
  // PyScript logs a worker's failure to the console; the page says it instead.
  xworker.onerror = (event) => failed(describe(event?.error ?? event));
  // An error the worker did not catch would otherwise be the page's uncaught error
  // too (Firefox reports one as a page is left while its engine starts).
  xworker.addEventListener("error", (event) => {
    event.preventDefault();
    failed(describe(event.error ?? event.message ?? "the engine's worker stopped"));
  });
  xworker.addEventListener("message", (event) => {
    const data = event.data;
    if (data && typeof data === "object" && data.quandary === true) events.message(data);
  });
  try {
    await xworker.ready;
  } catch (error) {
    failed(describe(error));
    return new Promise(() => {});
  }
  return xworker.sync;
}

// One line for the failure screen: PyScript's messages open with its own error
// code, "(PY1000): ..."; a Python traceback says what happened on its last line.
function describe(error) {
  const text = String((error && error.message) || error || "unknown error");
  const lines = text.replace(/^\s*\(PY\d+\):?\s*/, "").split("\n").map((line) => line.trim()).filter(Boolean);
  const line = lines[0]?.startsWith("Traceback") ? lines[lines.length - 1] : lines[0];
  return line || "unknown error";
}
