// Boot feedback before Python runs: a loading bar driven by PyScript's
// `py:progress` events, a readable error screen if start-up fails, and the
// service worker that keeps Quandary working offline (with a prompt when a new
// version is ready). Python marks <html data-quandary="ready"> when the lobby
// is usable. Bundled by the build into static/vendor/boot.mjs.

import { Workbox } from "workbox-window";

const STEPS = {
  "Loading Pyodide": [5, "Loading the Python runtime…"],
  "Loading Storage": [12, "Loading the Python runtime…"],
  "Loading interpreter": [20, "Starting Python…"],
  "Loaded interpreter": [70, "Python is running…"],
  "Loading files": [74, "Loading the games…"],
  "Loaded files": [85, "Loading the games…"],
  "Loaded Pyodide": [90, "Setting the table…"],
};

const root = document.documentElement;
const bar = document.getElementById("boot-progress");
const status = document.getElementById("boot-status");

let waitingFor = "";

function setProgress(percent, text) {
  if (percent > bar.value) {
    bar.value = percent;
    bar.textContent = `${percent}%`;
  }
  if (text) status.textContent = text + waitingFor;
}

function fail(message) {
  if (root.dataset.quandary === "ready") return;
  root.dataset.quandary = "failed";
  document.getElementById("boot").hidden = true;
  const box = document.getElementById("boot-error");
  document.getElementById("boot-error-text").textContent = message;
  box.hidden = false;
  document.getElementById("boot-reload").focus();
}

// A game chosen while Python boots is kept: its card shows it is chosen at once,
// the bar says what it waits for, and Python opens that game's setup when ready
// (py/quandary/web/app.py reads `quandaryEarlyChoice`).
document.addEventListener(
  "click",
  (event) => {
    if (root.dataset.quandary !== "loading") return;
    const card = event.target.closest && event.target.closest('[data-action="choose-game"]');
    if (!card) return;
    globalThis.quandaryEarlyChoice = card.dataset.game;
    for (const other of document.querySelectorAll('[data-action="choose-game"]')) {
      other.setAttribute("aria-pressed", String(other === card));
    }
    const title = card.querySelector("strong");
    const shown = status.textContent.split(" · ")[0];
    waitingFor = ` · ${title ? title.textContent : "Your game"} opens as soon as it is ready.`;
    status.textContent = shown + waitingFor;
  },
  true,
);

addEventListener("py:progress", (event) => {
  const step = STEPS[event.detail];
  if (step) setProgress(step[0], step[1]);
});

addEventListener("error", (event) => {
  if (root.dataset.quandary === "loading") {
    fail(`The game engine failed to load: ${event.message || "a file could not be read"}.`);
  }
});

addEventListener("unhandledrejection", (event) => {
  if (root.dataset.quandary === "loading") {
    const reason = event.reason && (event.reason.message || String(event.reason));
    fail(`The game engine failed to load: ${reason || "unknown error"}.`);
  }
});

// PyScript reports a Python exception by adding an element with class py-error.
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.classList && node.classList.contains("py-error")) {
        fail(`Python stopped with an error: ${node.textContent.trim().split("\n").pop()}`);
      }
    }
  }
}).observe(document.body, { childList: true, subtree: true });

addEventListener("quandary:ready", () => {
  setProgress(100, "Ready");
  document.getElementById("boot").hidden = true;
});

document.getElementById("boot-reload").addEventListener("click", () => location.reload());

// A damaged offline copy must never leave the app unable to start: this button
// forgets it (service worker and caches) and loads everything from the network.
document.getElementById("boot-repair").addEventListener("click", async () => {
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((r) => r.unregister()));
    await Promise.all((await caches.keys()).map((key) => caches.delete(key)));
  } finally {
    location.reload();
  }
});

// The offline copy is made after the lobby is usable, so installing it never
// competes with Python's own start.
function keepOfflineCopy() {
  if (!("serviceWorker" in navigator)) return;
  const worker = new Workbox("./sw.js");
  let updating = false;
  worker.addEventListener("waiting", () => {
    const banner = document.getElementById("update");
    banner.hidden = false;
    document.getElementById("update-reload").addEventListener("click", () => {
      updating = true;
      worker.messageSkipWaiting();
    });
  });
  // The new worker took over because the player asked: load the new version whole.
  worker.addEventListener("controlling", () => {
    if (updating) location.reload();
  });
  worker.register().catch((error) => {
    console.warn(`Offline support is unavailable: ${error}`);
  });
}

addEventListener("quandary:ready", keepOfflineCopy, { once: true });
