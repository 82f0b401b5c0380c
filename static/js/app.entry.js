// The page's side of Quandary: the main thread keeps the DOM, the storage, the
// room's WebRTC transport and the clipboard, and does nothing slow. The games run
// in Python in PyScript's worker (index.html, pyscript.toml, py/main.py): every
// click, field change and thrown card is sent there as data, and the engine
// answers with what to do (store this, send that, draw this screen).
//
// While the engine boots, the page already plays the lobby: the build painted it
// and every game's setup (scripts/shell.py, from the same Python renderer), so
// choosing a game, seats and options answers at once; each action is also kept
// for the engine, which replays it when ready, and "Start game" pressed early
// starts the game the moment the engine can. Bundled into static/vendor/app.mjs.

import { draw } from "./draw.entry.js";
import { yourTurn } from "./turn.js";
import { DAMAGED, isReplayFragment, makeReplayLink, readReplayLink } from "./replay-link.js";

const root = document.documentElement;
const screen = document.getElementById("screen");
const announcer = document.getElementById("announcer");
const status = document.getElementById("boot-status");
const HERE = new URL("./", import.meta.url);

let ready = false;
let room = null; // the open room's transport (static/js/room.entry.js)
let roomModule = null;
let drawing = Promise.resolve(); // draws wait for what the host just sent (see applyBatch)
let selectAfterDraw = "";
let unanswered = 0; // actions posted that the engine has not answered yet
let ahead = null; // how a guest's move on the screen drawn goes to the host (sendAhead)
let waitingForHost = null; // while a move sent ahead waits for the host's answer (holdForHost)
const qrCache = new Map();

// -- the engine -------------------------------------------------------------------------

// Messages wait here until the engine can take them, then go as one batch per call:
// while the engine answers one batch (a bot thinking), what happens meanwhile
// gathers for the next, in order.
const unsent = [];
let engine = null; // the engine's exports, once py/main.py has run
let calling = false;
let lastPosted = 0; // when the page last had something for the engine (keepSnapshotSoon)
let clock = null;
let heartbeat = null;
const HEARTBEAT_MS = 2000;
// Actions the page counts until answered (#screen is busy meanwhile).
const ACTIONS = new Set(["event", "hash"]);

function post(message) {
  message.now ??= performance.now(); // stamped when it happened, even if it waits
  lastPosted = performance.now();
  unsent.push(message);
  pump();
}

async function pump() {
  if (!engine || calling || !unsent.length || waitingForHost !== null) return;
  calling = true;
  const batch = unsent.splice(0);
  let reply = null;
  try {
    reply = JSON.parse(await engine.handle(JSON.stringify(batch)));
  } catch (error) {
    // The engine answers every bug itself; this is the engine failing under it.
    const text = String((error && error.message) || error);
    const answered = batch.filter((message) => ACTIONS.has(message.t)).length;
    reply = { out: [{ t: "bug", text, trace: String(error && error.stack) }], answered, wake: null, heartbeat: Boolean(heartbeat) };
  }
  calling = false;
  const first = !ready;
  applyBatch(reply.out, reply.answered);
  schedule(reply);
  if (first) becomeReady();
  // The engine sent the room's messages first and left its screen for this next call.
  if (reply.more) unsent.unshift({ t: "draw", now: performance.now() });
  pump();
}

// The engine's wishes about time: wake the table's clock, beat the room's heart.
function schedule(reply) {
  clearTimeout(clock);
  clock = null;
  if (reply.wake !== null && reply.wake !== undefined) {
    clock = setTimeout(() => post({ t: "clock" }), Math.max(0, reply.wake - performance.now()) + 1);
  }
  if (reply.heartbeat && heartbeat === null) {
    heartbeat = setInterval(() => post({ t: "timer" }), HEARTBEAT_MS);
  } else if (!reply.heartbeat && heartbeat !== null) {
    clearInterval(heartbeat);
    heartbeat = null;
  }
}

let runtime = { engine: "fresh", pyscriptPrologue: "run" };
let failed = false;

// PyScript starts the engine (index.html, pyscript.toml); static/js/engine.entry.js
// is the page's side of it, loaded by its own script tag as the page opens.
import(new URL("engine.mjs", HERE).href)
  .then((module) =>
    module.connectEngine({
      message: (message) => {
        if (message.t === "progress") tell("quandary:progress", message);
        else if (message.t === "runtime") runtime = { ...runtime, engine: message.engine };
        else if (message.t === "pyscript-prologue") runtime = { ...runtime, pyscriptPrologue: "skipped" };
      },
      failed: engineFailed,
    }),
  )
  .then((exports) => {
    engine = exports;
    pump();
  })
  .catch((error) => engineFailed(String((error && error.message) || error)));

function engineFailed(text) {
  if (failed) return;
  failed = true;
  if (ready) EFFECTS.bug({ text, trace: text });
  else tell("quandary:failed", { text });
}

function storedItems() {
  const items = {};
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith("quandary")) items[key] = localStorage.getItem(key);
    }
  } catch {
    // storage disabled (some private modes): the engine starts with none
  }
  return items;
}

const relays = (document.querySelector('meta[name="quandary-relays"]')?.content || "")
  .split(",")
  .filter(Boolean);

post({
  t: "start",
  storage: storedItems(),
  href: location.href,
  hash: location.hash,
  relays,
});
if (isReplayFragment(location.hash)) openReplayLink(location.hash);

// A replay link's record, inflated here (the browser's DecompressionStream), goes to
// the engine as text; the engine checks and replays it (py/quandary/replay.py).
function openReplayLink(hash) {
  readReplayLink(hash)
    .then((text) => post({ t: "record", text }))
    .catch((error) => post({ t: "record", error: String((error && error.message) || DAMAGED) }));
}

function tell(name, detail) {
  dispatchEvent(new CustomEvent(name, { detail }));
}

function becomeReady() {
  ready = true;
  root.dataset.engine = runtime.engine;
  root.dataset.pyscriptPrologue = runtime.pyscriptPrologue;
  root.dataset.quandary = "ready";
  tell("quandary:ready", {});
  if (runtime.engine === "fresh") keepSnapshotSoon();
}

// After a fresh start, a worker of its own makes the snapshot the next start
// restores (static/js/snapshot.worker.js), once the page has settled: nothing for
// the engine for a second since it was ready (no click, no room message, no call
// under way), or 20 s after it was ready at the latest. Made as soon as the page was
// idle, it booted a second interpreter right beside the room a first visit opens
// its link to: on two cores, finding the room (to "Connected to the room.") took
// 390 ms by the median of five runs against 164 in five with the snapshot made
// later (bench.rooms, find_room_ms). Not where nothing can be kept (a private window
// without the Cache API), where it would cost a second interpreter's start at every
// visit for nothing.
const SNAPSHOT_QUIET_MS = 1000;
const SNAPSHOT_LATEST_MS = 20000;
function keepSnapshotSoon() {
  const make = async () => {
    try {
      await caches.open("quandary-snapshots");
    } catch {
      return;
    }
    try {
      const maker = new Worker(new URL("snapshot.mjs", HERE), { type: "module" });
      maker.onmessage = () => maker.terminate();
      maker.onerror = (event) => {
        event.preventDefault();
        console.warn(`No warm-start snapshot this time: ${event.message}`);
        maker.terminate();
      };
    } catch (error) {
      console.warn(`No warm-start snapshot this time: ${error}`);
    }
  };
  const started = performance.now();
  const whenSettled = () => {
    const now = performance.now();
    const quiet = calling || unsent.length ? 0 : now - Math.max(lastPosted, started);
    if (quiet < SNAPSHOT_QUIET_MS && now - started < SNAPSHOT_LATEST_MS) {
      setTimeout(whenSettled, SNAPSHOT_QUIET_MS - quiet);
    } else if (globalThis.requestIdleCallback) {
      requestIdleCallback(make, { timeout: 2000 });
    } else {
      make();
    }
  };
  whenSettled();
}

const EFFECTS = {
  store: ({ writes }) => {
    for (const [key, value] of writes) {
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch {
        let held = null;
        try {
          held = localStorage.getItem(key);
        } catch {
          // unreadable too: the engine forgets the key
        }
        post({ t: "refused", key, value: held });
      }
    }
  },
  send: ({ peer, text }) => room?.send(peer, text),
  "become-host": ({ key }) => room?.becomeHost(key),
  "step-down": () => room?.stepDown(),
  trust: ({ key }) => room?.trust(key),
  certify: ({ text }) => certify(text),
  hash: ({ fragment }) => {
    history.replaceState(null, "", location.pathname + location.search + (fragment ? `#${fragment}` : ""));
  },
  "close-room": closeRoom,
  "make-host-key": makeHostKey,
  "open-room": ({ options }) => openRoom(options),
  copy: ({ text, field }) => {
    navigator.clipboard?.writeText(text).catch(() => {}); // no clipboard: the field is selected
    selectAfterDraw = field;
  },
  share: ({ title, url }) => navigator.share?.({ title, url }).catch(() => {}), // dismissed
  download,
  "replay-link": ({ text }) => {
    makeReplayLink(text)
      .then(({ url, reason }) => post({ t: "replay-link", url, reason }))
      .catch(() => post({ t: "replay-link", url: "", reason: "This browser could not make a replay link." }));
  },
  // A chat line was sent: its field is emptied before the screen is drawn (a line
  // that was not sent stays, to send again; one typed since is kept).
  "clear-field": ({ field, text }) => {
    const input = document.getElementById(field);
    if (input && input.value === text) input.value = "";
  },
  reveal: ({ selector }) => revealElement(selector),
  turn: ({ yours }) => yourTurn(yours),
  bug: ({ html, text, trace }) => {
    console.error(trace);
    if (html) {
      screen.insertAdjacentHTML("afterbegin", html); // built by bridge.py, escaped there
    } else {
      const notice = Object.assign(document.createElement("p"), { className: "form-error" });
      notice.setAttribute("role", "alert");
      notice.textContent = `Something went wrong: ${text}. Your game is saved; reload the page to continue.`;
      screen.prepend(notice);
    }
  },
};

// One answer of the engine, in order. A host signs what it sends, and WebCrypto
// answers in a later task: drawing the host's own screen first would hold every
// other device's update back by that drawing, so the screen waits for the last
// message sent (about a millisecond), and draws stay in order.
function applyBatch(out, answered) {
  let sent = null;
  let draw = null;
  for (const message of out) {
    if (message.t === "draw") {
      // Several screens in one answer (the moves made while booting): the last
      // one is drawn, with the last sentence worth announcing.
      draw = { ...message, announce: message.announce || draw?.announce || "", reveal: message.reveal || draw?.reveal || "" };
      continue;
    }
    try {
      const result = EFFECTS[message.t]?.(message);
      if (message.t === "send" && result) sent = result;
    } catch (error) {
      // One failed effect (a closed connection) must not stop those after it.
      EFFECTS.bug({ text: String(error.message || error), trace: String(error.stack || error) });
    }
  }
  const before = drawing;
  drawing = Promise.all([before, sent])
    .catch(() => {})
    .then(() => draw && linkStyle(draw.style))
    .then(() => draw && paint(draw))
    .catch((error) => console.error(error))
    .then(() => settle(answered));
}

// #screen is busy (aria-busy) from a player's action until its answer is drawn:
// assistive technology waits for the new screen, and so can a test.
function settle(answered) {
  unanswered = Math.max(0, unanswered - answered);
  if (unanswered === 0) screen.removeAttribute("aria-busy");
}

// -- drawing ---------------------------------------------------------------------------

function place() {
  return (screen.firstElementChild?.className || "").split(" ")[0];
}

// A game's own stylesheet is linked when its first table is drawn, not at start-up
// (the lobby does not need it); the table waits for it so it never shows unstyled.
// A sheet that cannot load (a broken network) leaves the app's own styles: the
// table is still drawn, at most a few seconds late.
function linkStyle(href) {
  if (!href || document.querySelector(`link[rel=stylesheet][href="${CSS.escape(href)}"]`)) return null;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise((resolve) => {
    link.onload = link.onerror = resolve;
    setTimeout(resolve, 3000);
  });
  document.head.append(link);
  return loaded;
}

// Morph the page into the new screen (draw.entry.js) and put the focus where it belongs.
function paint(drawn) {
  const { html, announce, reveal } = drawn;
  const focused = document.activeElement;
  const focusId = focused && focused !== document.body && screen.contains(focused) ? focused.id : "";
  const typing = focusId && focused.tagName === "INPUT" && focused.type === "text";
  const typed = typing ? [focused.value, focused.selectionStart, focused.selectionEnd] : null;
  const was = place();
  draw(screen, html);
  ahead = drawn.ahead || null;
  // A game opens at its top (and the lobby too), not where the last screen was.
  if (place() !== was) scrollTo(0, 0);
  drawQr();
  if (selectAfterDraw) {
    document.getElementById(selectAfterDraw)?.select();
    selectAfterDraw = "";
  }
  if (announce) {
    announcer.textContent = announce;
    const heading = screen.querySelector("[data-autofocus]");
    if (heading) focusWithFrame(heading);
  } else if (focusId) {
    const target = document.getElementById(focusId);
    if (target && typed && target.value !== typed[0]) {
      // Keep what the player typed while the engine drew from an older value.
      target.value = typed[0];
      target.setSelectionRange(typed[1], typed[2]);
    }
    // At once, not with the frame: a key pressed meanwhile goes where it was aimed.
    if (target && !target.matches(":focus")) target.focus({ preventScroll: true }); // lost by the morph
  }
  if (reveal) revealElement(reveal);
}

// A new screen's heading takes the focus (and is scrolled to) as the frame that shows it
// begins: focusing it at once made the browser lay out the whole new screen there and
// then, inside the draw (1 to 3.5 ms on every screen announced, measured in a room of
// four on two cores), and again for the frame if anything changed after; within the
// frame it is laid out once. A player who moves the focus meanwhile keeps it; a later
// screen's heading replaces the one still waiting.
let focusFrame = 0;
let focusedBefore = null; // where the focus was when the first heading still waiting was drawn
function focusWithFrame(heading) {
  if (focusFrame === 0) focusedBefore = document.activeElement;
  cancelAnimationFrame(focusFrame);
  focusFrame = requestAnimationFrame(() => {
    focusFrame = 0;
    const now = document.activeElement;
    const moved = now !== focusedBefore && now !== null && now !== document.body;
    focusedBefore = null;
    // A later draw may have put a new element in the heading's place.
    const target = heading.isConnected ? heading : heading.id && document.getElementById(heading.id);
    if (target && !moved) target.focus();
  });
}

// Scroll to a chosen game's setup (far below the game cards on a phone), gently,
// unless the player asked for less motion.
function revealElement(selector) {
  const element = document.querySelector(selector);
  const calm = matchMedia("(prefers-reduced-motion: reduce)").matches;
  element?.scrollIntoView({ block: "start", behavior: calm ? "auto" : "smooth" });
}

function drawQr() {
  const box = document.getElementById("room-qr");
  if (!box || !roomModule) return;
  const link = box.dataset.link;
  if (!qrCache.has(link)) qrCache.set(link, roomModule.qrSvg(link));
  box.innerHTML = qrCache.get(link);
}

// -- a file to keep ---------------------------------------------------------------------

function download({ name, text }) {
  // A Blob from memory, so offline and the page's security policy allow it.
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// -- a file to open -----------------------------------------------------------------------

// A file the player chose (an own card pack) goes to the engine as text, which
// checks it: a file too large or unreadable arrives as a sentence that says so.
const FILE_CHARS = 200_000;

function readChosenFile(element, field) {
  const file = element.files?.[0];
  element.value = ""; // the same file chosen again is read again
  if (!file) return;
  const send = (value) => act("field", { field, value }, element);
  if (file.size > FILE_CHARS * 4) {
    send("");
    return;
  }
  file.text().then(
    (text) => send(text.length > FILE_CHARS ? "" : text),
    () => send(""),
  );
}

// -- the room transport ----------------------------------------------------------------

async function loadRoomModule() {
  // Imported on first use: nobody without a room pays for WebRTC and Nostr.
  roomModule ??= await import(new URL("room.mjs", HERE).href);
  return roomModule;
}

async function makeHostKey() {
  try {
    const pair = await (await loadRoomModule()).makeHostKey();
    post({ t: "host-key", public: pair.public, private: pair.private });
  } catch (error) {
    console.error(error);
    post({ t: "host-key", error: String(error.message || error) });
  }
}

async function openRoom(options) {
  if (!navigator.onLine) {
    post({ t: "room-opened", offline: true });
    return;
  }
  let handle = null;
  let device = null;
  try {
    const module = await loadRoomModule();
    // This device's own key: named in the order of succession, it signs if this
    // device ever carries the room on.
    device = await module.makeHostKey();
    // Events of a room this page has since left are dropped.
    const event = (kind, extra) => {
      if (room === handle) post({ t: "room", kind, ...extra });
    };
    handle = module.openRoom(options, {
      onJoin: (peer) => event("join", { peer }),
      onLeave: (peer) => event("leave", { peer }),
      onMessage: (peer, text, fromHost, certified) => {
        event("message", { peer, text, fromHost: fromHost === true, certified: certified || null });
        if (fromHost === true && room === handle) releaseHeld(); // the answer to a move held
      },
      onError: (detail) => event("error", { detail: String(detail) }),
      onRoundTrip: (peer, ms) => event("rtt", { peer, ms }),
    });
  } catch (error) {
    post({ t: "room-opened", error: String(error.message || error) });
    return;
  }
  room = handle;
  post({ t: "room-opened", canShare: Boolean(navigator.share), device });
}

async function certify(text) {
  const handle = room;
  if (!handle) return;
  try {
    const signature = await handle.certify(text);
    if (room === handle) post({ t: "room", kind: "certified", text, signature });
  } catch (error) {
    // Not this device's to sign (it stepped down meanwhile): heirs keep the last mandate.
    console.warn("a mandate could not be signed", error);
  }
}

function closeRoom() {
  try {
    room?.leave();
  } catch {
    // already gone
  }
  room = null;
}

// A tab that closes (or navigates away) leaves its room at once: the other devices
// learn it now, not when the connection times out seconds later, so the room's
// waiting time for a host or a player who left starts from the moment they left.
addEventListener("pagehide", (event) => {
  if (!event.persisted) closeRoom();
});

// -- the player's actions ----------------------------------------------------------------

// The one error boundary of every page event: whatever a handler meets (an event
// with no detail, a bug), the player gets a sentence and the console the error.
function guarded(handler) {
  return (event) => {
    try {
      handler(event);
    } catch (error) {
      EFFECTS.bug({ text: String(error.message || error), trace: String(error.stack || error) });
    }
  };
}

function datasetOf(element) {
  return { ...element.dataset };
}

function act(action, data, element) {
  if (!ready) early(action, data, element);
  unanswered += 1;
  screen.setAttribute("aria-busy", "true");
  post({ t: "event", action, data, early: !ready });
}

screen.addEventListener("click", guarded((event) => {
  const target = event.target.closest?.("[data-action]");
  if (!target || target.disabled) return;
  const { action, ...data } = datasetOf(target);
  sendAhead(action, data);
  act(action, data, target);
}));

// A guest's move leaves for the host from here, at the click, as the intent the
// engine prepared with the screen drawn (py/quandary/net/guest.py, RoomGuest.ahead):
// after a click, Chromium draws its next frame before the page reads the engine's
// answer, about 12 ms on every move. Only on a screen that answers every action
// made on it (the draft drawn is the engine's), and the engine is told it went.
function sendAhead(action, data) {
  if (!ahead || !room || !ready || unanswered > 0) return;
  let move = null;
  if (action === "submit") {
    move = ahead.submit;
  } else if (action === "move") {
    try {
      move = JSON.parse(data.move);
    } catch {
      return; // the engine says what is wrong with the button
    }
  }
  if (move === null || move === undefined) return;
  const text = JSON.stringify({ t: "intent", id: ahead.id, version: ahead.version, move });
  try {
    // A connection closing meanwhile loses it, like any message sent on it.
    Promise.resolve(room.send(ahead.peer, text)).catch(() => {});
  } catch {
    return; // not sent: the engine sends it itself
  }
  data.sent = ahead.id;
  holdForHost();
}

// A move the page sent itself reaches the engine with the host's answer to it, in
// one call: the engine draws this device's screen once for the move, not once for
// the click and again for the answer, and is not busy with the first when the
// answer comes. Should no word come from the host, the click goes alone, a moment later.
const HOST_WAIT_MS = 250;

function holdForHost() {
  clearTimeout(waitingForHost);
  waitingForHost = setTimeout(releaseHeld, HOST_WAIT_MS);
}

function releaseHeld() {
  clearTimeout(waitingForHost);
  waitingForHost = null;
  pump();
}

screen.addEventListener("change", guarded((event) => {
  const element = event.target;
  const field = element.dataset?.field;
  if (!field || field === "seat-name") return;
  if (element.type === "file") {
    readChosenFile(element, field);
    return;
  }
  act("field", { ...datasetOf(element), value: String(element.value), checked: String(Boolean(element.checked)) }, element);
}));

// A form names its action (a room's chat line): its fields go with it, and the
// page never navigates (the policy allows no form submission anyway).
screen.addEventListener("submit", guarded((event) => {
  event.preventDefault();
  const form = event.target;
  const action = form.dataset?.action;
  if (!action) return;
  const data = {};
  for (const [key, value] of new FormData(form)) data[key] = String(value);
  act(action, { ...datasetOf(form), ...data }, form);
}));

// The chat panel opened or closed by the player (or by draw.entry.js at first, on a
// wide screen): lines that arrive while it is closed are counted as unread.
screen.addEventListener("toggle", guarded((event) => {
  if (event.target.id === "chat") act("chat-open", { open: String(event.target.open) }, event.target);
}), true);

// Lobby names are kept as typed; a room name is sent once, on change.
screen.addEventListener("input", guarded((event) => {
  const element = event.target;
  if (element.dataset?.field === "seat-name") act("field", { ...datasetOf(element), value: String(element.value) }, element);
}));

// A card thrown by drag, flick or keyboard (static/js/throw.entry.js measures the gesture).
screen.addEventListener("quandary:throw", guarded((event) => {
  const data = {};
  for (const [key, value] of Object.entries(event.detail)) data[key] = String(value);
  act("gesture", data, event.target);
}));

// A game record chosen in the lobby: read (no more than the engine would take) and
// handed to the engine as text; the same file may be chosen again afterwards.
screen.addEventListener("change", guarded((event) => {
  const element = event.target;
  if (element.dataset?.file !== "record" || !element.files?.length) return;
  const limit = Number(element.dataset.limit) || 400_000;
  element.files[0]
    .slice(0, limit + 1)
    .text()
    .then((text) => act("open-record", { text }, element))
    .catch(() => act("open-record", { text: "" }, element))
    .finally(() => {
      element.value = "";
    });
}));

// The replay steps with the arrow keys, unless the player is typing or choosing.
addEventListener("keydown", guarded((event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !document.getElementById("replay")) return;
  if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
  const button = document.getElementById(event.key === "ArrowLeft" ? "replay-back" : "replay-forward");
  if (!button || button.disabled) return;
  event.preventDefault();
  button.click();
}));

// Undo at a table against bots: Ctrl+Z (Cmd+Z on a Mac) presses the Undo button, unless
// the player is typing (a field keeps its own undo) or the button is off (it says why).
addEventListener("keydown", guarded((event) => {
  if (event.key !== "z" && event.key !== "Z") return;
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
  if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
  const button = document.getElementById("undo");
  if (!button || button.disabled) return;
  event.preventDefault();
  button.click();
}));

addEventListener(
  "hashchange",
  guarded(() => {
    if (isReplayFragment(location.hash)) {
      openReplayLink(location.hash);
      return;
    }
    unanswered += 1;
    screen.setAttribute("aria-busy", "true");
    post({ t: "hash", fragment: location.hash });
  }),
);

// -- before the engine is ready ----------------------------------------------------------

// What the page shows at once for an action made while the engine boots; the
// engine's own screen replaces it as soon as it has replayed the actions.
function early(action, data, element) {
  if (action === "choose-game") {
    chooseEarly(data.game);
  } else if (action === "field" && data.field === "seat-count") {
    seatRows(screen.querySelector(".setup"), Number(data.value), data.game);
  } else if (action !== "field") {
    element.setAttribute("aria-busy", "true");
    const label = element.textContent.trim() || "Your choice";
    status.dataset.waiting = `${label}: as soon as the game engine is ready.`;
    status.textContent = [status.dataset.step, status.dataset.waiting].filter(Boolean).join(" · ");
  }
}

function chooseEarly(game) {
  for (const card of screen.querySelectorAll('[data-action="choose-game"]')) {
    card.setAttribute("aria-pressed", String(card.dataset.game === game));
  }
  const template = document.querySelector(`template[data-setup="${CSS.escape(game)}"]`);
  const setup = screen.querySelector(".setup");
  if (!template || !setup) return;
  const fresh = template.content.firstElementChild.cloneNode(true);
  seatRows(fresh, Number(template.dataset.seats), game, template);
  fresh.querySelector(".game-length")?.remove(); // it depends on the seats: the engine says it
  setup.replaceWith(fresh);
  revealElement("#setup-title");
}

// The setup's seat rows for `count` seats: the template holds the rows the engine
// itself would add, up to the game's most players.
function seatRows(setup, count, game, template) {
  const source = template || document.querySelector(`template[data-setup="${CSS.escape(game || chosenGame())}"]`);
  const list = setup?.querySelector(".seats");
  if (!list || !source) return;
  const rows = source.content.querySelectorAll(".seats > li");
  while (list.children.length > count) list.lastElementChild.remove();
  while (list.children.length < count && rows[list.children.length]) {
    list.append(rows[list.children.length].cloneNode(true));
  }
  const select = setup.querySelector("#seat-count");
  if (select) select.value = String(count);
}

function chosenGame() {
  return screen.querySelector('[data-action="choose-game"][aria-pressed="true"]')?.dataset.game || "";
}
