// Throwing a card in Dilemma: turn a drag and flick (mouse or finger), or the
// arrow keys and a held key, into a gesture {card, aim, power, spin} and hand it
// to Python as a `quandary:throw` event on #screen. Where the card lands is for
// the authority to decide; this only measures the hand.
//
// Python redraws the screen whenever the table changes, so nothing here keeps a
// reference to a card button: listeners sit on the document and a drag carries
// on with a ghost card attached to <body>. Bundled into static/vendor/throw.mjs.

const SAMPLE_MS = 90; // the release velocity is measured over the last 90 ms
// Release speed to power: a log scale centred on an easy drag, so every speed a
// hand throws at, from a slow drag (0.15 px/ms) to a quick flick (6 px/ms),
// carries the card into the arena (power 40-64), and only a crawl or a whip
// still falls short or flies over.
const CENTRE_SPEED = 0.7; // px per ms that reaches the arena's centre (power 50)
const POWER_PER_DOUBLING = 4.5;
const MIN_DRAG = 24; // px: anything shorter is a card let go, not a throw
const SPIN_DEAD_ZONE = 15; // degrees of turn a steady hand makes anyway: no spin
const SPIN_CHORD = 8; // px: a shorter stretch of the release has no direction to speak of
const AIM_STEP = 5; // degrees per arrow key press
const POWER_CYCLE_MS = 1400; // a held key's power rises to 100 and falls back in this time

let drag = null;
let aim = 0;
let charge = null;

const screen = () => document.getElementById("screen");

// The window a card was picked up in: the table refuses the throw if that
// challenge is over by the time it arrives, rather than land it on the next one.
function openWindow() {
  return document.getElementById("arena-box")?.dataset.window ?? "";
}

function throwCard(card, aimDeg, power, spin, windowId) {
  const detail = {
    window: windowId,
    card,
    aim: Math.round(Math.max(-45, Math.min(45, aimDeg))),
    power: Math.round(Math.max(0, Math.min(100, power))),
    spin: Math.round(Math.max(-100, Math.min(100, spin))),
  };
  screen()?.dispatchEvent(new CustomEvent("quandary:throw", { bubbles: true, detail }));
}

function arenaCentre() {
  const arena = document.getElementById("arena");
  if (!arena) return null;
  const box = arena.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

function readout(text) {
  const el = document.getElementById("aim-readout");
  if (el) el.textContent = text;
}

// Signed angle in degrees from vector a to vector b.
function angleBetween(a, b) {
  const cross = a.x * b.y - a.y * b.x;
  const dot = a.x * b.x + a.y * b.y;
  return (Math.atan2(cross, dot) * 180) / Math.PI;
}

// -- pointer: drag and flick ----------------------------------------------------

document.addEventListener("pointerdown", (event) => {
  const button = event.target.closest?.("[data-throw-card]");
  if (!button || button.disabled || event.button > 0) return;
  event.preventDefault();
  const ghost = document.createElement("div");
  ghost.className = "rcard ghost";
  ghost.textContent = button.textContent;
  document.body.appendChild(ghost);
  drag = {
    card: Number(button.dataset.throwCard),
    start: { t: event.timeStamp, x: event.clientX, y: event.clientY },
    samples: [{ t: event.timeStamp, x: event.clientX, y: event.clientY }],
    ghost,
    pointer: event.pointerId,
    windowId: openWindow(),
  };
  moveGhost(event.clientX, event.clientY);
});

function moveGhost(x, y) {
  drag.ghost.style.transform = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
}

document.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.pointer) return;
  const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
  for (const e of events.length ? events : [event]) {
    drag.samples.push({ t: e.timeStamp, x: e.clientX, y: e.clientY });
  }
  const cutoff = event.timeStamp - 4 * SAMPLE_MS;
  while (drag.samples.length > 3 && drag.samples[0].t < cutoff) drag.samples.shift();
  moveGhost(event.clientX, event.clientY);
});

// Power for a release speed (px per ms): see CENTRE_SPEED.
function powerFor(speed) {
  return 50 + POWER_PER_DOUBLING * Math.log2(Math.max(speed, 1e-3) / CENTRE_SPEED);
}

// The speed the card leaves the hand at: the velocity over the last SAMPLE_MS,
// or, when the hand slowed down before letting go (a slow drag eases off), the
// drag's own pace, so a deliberate drag towards the arena is still a throw.
function releaseSpeed(samples, start) {
  const last = samples[samples.length - 1];
  const recent = samples.filter((s) => s.t >= last.t - SAMPLE_MS);
  const first = recent.length > 1 ? recent[0] : samples[Math.max(0, samples.length - 2)];
  const dt = Math.max(1, last.t - first.t);
  const release = Math.hypot(last.x - first.x, last.y - first.y) / dt;
  const whole = Math.hypot(last.x - start.x, last.y - start.y) / Math.max(1, last.t - start.t);
  return { speed: Math.max(release, whole), recent };
}

// Spin: how far the path turned over the release, a curl of the wrist, read as
// the angle between the chords of the release's first and second halves (not
// summed over samples: pointer positions come in whole pixels, and the few
// pixels between two samples turn every which way). Small turns are no spin.
function spinOf(recent) {
  if (recent.length < 3) return 0;
  const a = recent[0];
  const b = recent[recent.length - 1];
  const half = (a.t + b.t) / 2;
  const m = recent.reduce((best, s) => (Math.abs(s.t - half) < Math.abs(best.t - half) ? s : best));
  const u = { x: m.x - a.x, y: m.y - a.y };
  const v = { x: b.x - m.x, y: b.y - m.y };
  if (Math.hypot(u.x, u.y) < SPIN_CHORD || Math.hypot(v.x, v.y) < SPIN_CHORD) return 0;
  const turn = angleBetween(u, v);
  return Math.sign(turn) * Math.max(0, Math.abs(turn) - SPIN_DEAD_ZONE) * 2;
}

function endDrag(event, cancelled) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { card, samples, start, ghost, windowId } = drag;
  drag = null;
  ghost.remove();
  if (cancelled) return;
  samples.push({ t: event.timeStamp, x: event.clientX, y: event.clientY });
  const last = samples[samples.length - 1];
  const travelled = Math.hypot(last.x - start.x, last.y - start.y);
  const centre = arenaCentre();
  if (!centre) return;
  if (travelled < MIN_DRAG) {
    readout(
      "You let go of the card without throwing it, so it stays in your hand. Drag it" +
        " towards the arena and let go while it moves.",
    );
    return;
  }
  // The aim is the line from where the card was picked up to where it was let
  // go, against the line from that same spot to the arena: the whole drag, not
  // its last wobble, says where the hand meant the card to go.
  const toArena = { x: centre.x - start.x, y: centre.y - start.y };
  const aimDeg = angleBetween(toArena, { x: last.x - start.x, y: last.y - start.y });
  if (Math.abs(aimDeg) > 90) {
    readout("That went away from the arena: flick the card towards it.");
    return;
  }
  const { speed, recent } = releaseSpeed(samples, start);
  throwCard(card, aimDeg, powerFor(speed), spinOf(recent), windowId);
}

document.addEventListener("pointerup", (event) => endDrag(event, false));
document.addEventListener("pointercancel", (event) => endDrag(event, true));

// -- keyboard: aim with the arrows, hold a key for power --------------------------

function powerAt(now) {
  const phase = ((now - charge.since) % POWER_CYCLE_MS) / POWER_CYCLE_MS;
  return 100 * (phase < 0.5 ? phase * 2 : 2 - phase * 2);
}

function showCharge() {
  if (!charge) return;
  const power = Math.round(powerAt(performance.now()));
  const meter = document.getElementById("power-meter");
  if (meter) meter.style.setProperty("--power", `${power}%`);
  requestAnimationFrame(showCharge);
}

function showAim() {
  const box = document.getElementById("arena-box");
  if (box) box.style.setProperty("--aim", `${aim}deg`);
  const side = aim === 0 ? "straight at the arena" : `${Math.abs(aim)}° ${aim < 0 ? "left" : "right"}`;
  readout(`Aim: ${side}. Hold Space or Enter, release to throw.`);
}

document.addEventListener("keydown", (event) => {
  const button = event.target.closest?.("[data-throw-card]");
  if (!button || button.disabled) return;
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    event.preventDefault();
    aim = Math.max(-45, Math.min(45, aim + (event.key === "ArrowLeft" ? -AIM_STEP : AIM_STEP)));
    showAim();
  } else if ((event.key === " " || event.key === "Enter") && !event.repeat) {
    event.preventDefault();
    charge = {
      card: Number(button.dataset.throwCard),
      since: performance.now(),
      windowId: openWindow(),
    };
    let meter = document.getElementById("power-meter");
    if (!meter) {
      meter = document.createElement("div");
      meter.id = "power-meter";
      meter.className = "power-meter";
      meter.setAttribute("aria-hidden", "true");
      document.body.appendChild(meter);
    }
    requestAnimationFrame(showCharge);
  } else if (event.key === " " || event.key === "Enter") {
    event.preventDefault(); // a held key repeats: keep charging
  }
});

document.addEventListener("keyup", (event) => {
  if (!charge || (event.key !== " " && event.key !== "Enter")) return;
  event.preventDefault();
  const { card, windowId } = charge;
  const power = powerAt(performance.now());
  charge = null;
  document.getElementById("power-meter")?.remove();
  throwCard(card, aim, power, 0, windowId);
});

// -- the countdown before a window opens: "3, 2, 1, throw!" --------------------
// The table's clock decides when the window opens; the page draws that moment as
// data-opens-at (on performance.now's clock) and this loop counts down to it
// between redraws, marking the box "open" once the window is open. It runs only
// while a count is on the screen: a loop on every frame of every screen kept an
// idle lobby drawing 60 frames a second (about 5% of a core here, and a phone's
// battery). A redraw that brings a count starts it again.

const SHOW_THROW_MS = 800; // "Throw!" stays this long after the opening
let counting = false;

function countdown() {
  counting = false;
  const box = document.getElementById("arena-box");
  const opensAt = Number(box?.dataset.opensAt);
  if (!box || !Number.isFinite(opensAt)) return;
  const left = opensAt - performance.now();
  const label = box.querySelector(".lead-in strong");
  if (left <= 0) {
    if (!box.classList.contains("open")) {
      box.classList.add("open");
      const hint = document.getElementById("aim-readout");
      if (hint?.dataset.openText) hint.textContent = hint.dataset.openText;
    }
    if (label && left > -SHOW_THROW_MS) label.textContent = "Throw!";
  } else if (label) {
    label.textContent = String(Math.ceil(left / 1000));
  }
  if (left > -SHOW_THROW_MS) countFrom();
}

function countFrom() {
  if (counting) return;
  counting = true;
  requestAnimationFrame(countdown);
}

// Most redraws bring no count: only one that does asks for a frame.
const COUNTED = "#arena-box[data-opens-at]";
new MutationObserver(() => {
  if (document.querySelector(COUNTED)) countFrom();
}).observe(screen() ?? document.documentElement, {
  subtree: true,
  childList: true,
  attributeFilter: ["data-opens-at"],
});
countFrom();
