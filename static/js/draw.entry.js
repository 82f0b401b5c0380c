// Applying a new screen: Python renders the whole screen as HTML, and this
// morphs the page into it (idiomorph), so elements that stay keep their
// identity. Focus, a half-typed name and its selection survive without being
// put back by hand, CSS transitions can run from one state to the next, and the
// browser restyles only what changed instead of rebuilding the table on every
// update; parts Python stamped as unchanged are not even walked. Imported by the
// app (static/js/app.entry.js), bundled with it.

import { Idiomorph } from "idiomorph";

// The log ("What happened"), folded options ("details.more") and Maybe Minister's
// folds (its decks, its special resources, a score's reasons, a vote's own places)
// are opened and closed by the player, not by Python: their open state is left as
// the player set it, so a redraw while they read or change them (another player's
// move, a bot's, a box they ticked) does not close them.
const FOLDS =
  "details.log, details.more, details.chat, details.mm-supply, details.mm-powers, details.mm-score, details.mm-own-places";
const keepFoldOpen = (name, element) => !(name === "open" && element.matches(FOLDS));

// A room's chat opens by itself on a wide screen, once, when it first appears; on a
// phone it starts closed (its badge counts what arrives). After that it is the player's.
const WIDE = "(min-width: 601px)";
const placed = new WeakSet();
const placeChat = (root) => {
  const chat = root.querySelector("details.chat");
  if (chat === null || placed.has(chat)) return;
  placed.add(chat);
  if (matchMedia(WIDE).matches) chat.open = true;
};

// Newest at the bottom: a reader at the bottom of the open log stays there as
// lines arrive; one who scrolled up to read is left where they are.
const LINES = "details.log[open] .log-lines";
const atBottom = (list) => list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
const toBottom = (list) => {
  list.scrollTop = list.scrollHeight;
};

// Maybe Minister's decks are left out of a vote's reveal, so the fold a player opened
// is a new element on the next turn: it opens as the player last left it.
const SUPPLY = "details.mm-supply";
let supplyOpen = false;
const placeSupply = (root) => {
  const supply = root.querySelector(SUPPLY);
  if (supply !== null && supplyOpen && !supply.open) supply.open = true;
};

// A part of the screen Python stamped with a digest of its whole markup (data-h, see
// stamped in py/quandary/web/html.py) is left as it is when the new screen's part has
// the same digest: the morph would change nothing there, and walking it (the log, the
// chat, the scoreboard) was most of the morph's time on a move that changed one line.
const changed = (old, fresh) =>
  !(old.nodeType === 1 && fresh.nodeType === 1 && fresh.hasAttribute("data-h") &&
    old.getAttribute("data-h") === fresh.getAttribute("data-h"));

// The new screen is parsed by one inert template, kept: idiomorph given a string builds
// a whole new document for it with DOMParser, a quarter of its time on every draw.
const parser = document.createElement("template");

// A focused element with an id the new screen does not have (the button just pressed,
// a heading) leaves with the morph: it is let go of before the morph, while the page
// is still laid out as drawn. Removed in the middle of the morph, it made the browser
// lay out the half-changed screen there and then (1.4 to 5 ms, on every move that
// replaced a focused button or heading, in a room of four on two cores). The focus
// goes where removal would have left it, nowhere. One without an id may well stay
// (the morph matches it by its place): it is left to the morph, focus and all. So is a
// field being typed in: blurred, it would send its half-typed value as a change.
const EDITABLE = "input, textarea, select, [contenteditable]";
const letGoOfLeaving = (root) => {
  const focused = document.activeElement;
  if (focused === null || focused === document.body || !root.contains(focused)) return;
  if (!focused.id || focused.matches(EDITABLE)) return;
  if (parser.content.getElementById(focused.id) === null) focused.blur();
};

export function draw(root, html) {
  const before = root.querySelector(LINES); // only an open log is measured: no layout otherwise
  const pinned = before === null || atBottom(before);
  parser.innerHTML = html;
  letGoOfLeaving(root);
  try {
    Idiomorph.morph(root, parser.content, {
      morphStyle: "innerHTML",
      callbacks: { beforeAttributeUpdated: keepFoldOpen, beforeNodeMorphed: changed },
    });
  } catch (error) {
    // A part whose stamp was written before the morph failed inside it would be
    // skipped from then on: no stamp is trusted, and the next draw walks it all.
    for (const part of root.querySelectorAll("[data-h]")) part.removeAttribute("data-h");
    throw error;
  }
  const after = root.querySelector(LINES);
  if (after !== null && pinned) toBottom(after);
  placeChat(root);
  placeSupply(root);
}

// Opening the log shows its newest lines first ("toggle" does not bubble: caught on the way down).
document.addEventListener(
  "toggle",
  (event) => {
    const list = event.target.matches?.("details.log[open]") && event.target.querySelector(".log-lines");
    if (list) toBottom(list);
    if (event.target.matches?.(SUPPLY)) supplyOpen = event.target.open;
  },
  true,
);
