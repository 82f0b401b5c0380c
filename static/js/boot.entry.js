// Boot feedback while the engine starts: a loading bar driven by the engine
// worker's progress, a readable error screen if start-up fails, and the service
// worker that keeps Quandary working offline (with a prompt when a new version
// is ready). static/js/app.entry.js marks <html data-quandary="ready"> when the
// engine answers. Bundled by the build into static/vendor/boot.mjs.

import { Workbox } from "workbox-window";

const root = document.documentElement;
const bar = document.getElementById("boot-progress");
const status = document.getElementById("boot-status");

function setProgress(percent, text) {
  if (percent > bar.value) {
    bar.value = percent;
    bar.textContent = `${percent}%`;
  }
  if (text) status.dataset.step = text;
  // What the player asked for while waiting stays said (static/js/app.entry.js).
  status.textContent = [status.dataset.step, status.dataset.waiting].filter(Boolean).join(" · ");
}

// A page being closed or reloaded stops its engine under it: what fails then is the
// page going away, not the engine (Firefox reports the worker's scripts as failed
// to load while it unloads), so nothing is said.
let leaving = false;
addEventListener("beforeunload", () => {
  leaving = true;
});
addEventListener("pagehide", () => {
  leaving = true;
});
addEventListener("pageshow", () => {
  leaving = false;
});

function fail(message) {
  if (root.dataset.quandary === "ready" || leaving) return;
  console.error(message);
  root.dataset.quandary = "failed";
  document.getElementById("boot").hidden = true;
  const box = document.getElementById("boot-error");
  document.getElementById("boot-error-text").textContent = message;
  box.hidden = false;
  document.getElementById("boot-reload").focus();
}

// The engine's worker reports its steps (static/js/app.entry.js passes them on).
addEventListener("quandary:progress", (event) => setProgress(event.detail.percent, event.detail.text));
addEventListener("quandary:failed", (event) => fail(`The game engine failed to load: ${event.detail.text}.`));

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
