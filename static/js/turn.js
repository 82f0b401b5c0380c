// "Your turn" while Quandary's tab is hidden. Rooms are played in background tabs,
// and a bot may take its time: when the engine says the game now waits for a person
// at this device (a "turn" message, py/quandary/web/bridge.py) and the tab is hidden,
// the tab's title and icon say so; with the chime on (header Settings, kept on the
// device by static/js/theme.js; off unless chosen) a short chime sounds, and a phone
// that can vibrates. Both come back as they were the moment the tab is seen again.

const PREFIX = "● Your turn · ";
const CHIME = "quandary:chime";
const MARKED_ICON = new URL("static/icons/icon-turn.svg", document.baseURI).href;

let yours = false;
let marked = null; // {title, icon} while the tab shows "your turn"
let audio = null;

function iconLink() {
  return document.querySelector('link[rel="icon"]');
}

function mark() {
  if (marked) return;
  const link = iconLink();
  marked = { title: document.title, icon: link?.href ?? null };
  document.title = PREFIX + document.title;
  if (link) link.href = MARKED_ICON;
  document.documentElement.dataset.yourTurn = "";
}

function unmark() {
  if (!marked) return;
  document.title = marked.title;
  const link = iconLink();
  if (link && marked.icon) link.href = marked.icon;
  marked = null;
  delete document.documentElement.dataset.yourTurn;
}

function chimeOn() {
  try {
    return localStorage.getItem(CHIME) === "on";
  } catch {
    return false;
  }
}

// Two soft notes, made here (no sound file to fetch or keep offline).
function chime() {
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) return;
  try {
    audio ??= new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.02;
    [659.25, 880].forEach((frequency, i) => {
      const at = start + i * 0.16;
      const tone = audio.createOscillator();
      const level = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      level.gain.setValueAtTime(0.0001, at);
      level.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      tone.connect(level).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.32);
    });
  } catch {
    // no sound here: the title and the icon still say it
  }
}

function alertPlayer() {
  if (chimeOn()) chime();
  // Browsers allow vibrating only after the player has touched the page.
  if (navigator.userActivation?.hasBeenActive) {
    try {
      navigator.vibrate?.([120, 80, 120]);
    } catch {
      // not on this device
    }
  }
}

/** The engine's word: whether the game now waits for a person at this device. */
export function yourTurn(now) {
  const was = yours;
  yours = Boolean(now);
  if (!yours) unmark();
  else if (!was && document.hidden) {
    mark();
    alertPlayer();
  }
}

document.addEventListener("visibilitychange", () => {
  // Leaving while awaited: the tab keeps saying so (no chime: the player knows).
  if (document.hidden && yours) mark();
  else if (!document.hidden) unmark();
});

// Turning the chime on plays it once (what it sounds like), and its click is the
// gesture that lets the page's sound start later, in a hidden tab.
document.getElementById("chime")?.addEventListener("change", (event) => {
  if (event.target.checked) chime();
});
