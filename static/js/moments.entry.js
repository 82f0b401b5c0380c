// Moments CSS cannot make alone: points flying to the scorer and tallies
// counting up. Python redraws #screen by morphing it (draw.entry.js), so a
// score's element stays and only its text changes: a MutationObserver sees the
// change and floats "+2" from it. Everything here is decoration over text that is
// already right; under prefers-reduced-motion nothing is added and tallies show
// their number at once. Bundled into static/vendor/moments.mjs.

const COUNT_MS = 300; // a tally counts up in this time (every reveal ends in 0.5 s)
const FLY_MS = 800; // a "+2" is removed after this, should animationend never come

const still = window.matchMedia("(prefers-reduced-motion: reduce)");
const scores = new WeakMap(); // a score's element -> the number it showed last

function scoreOf(node) {
  const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
  return element?.closest(".scoreboard .score") ?? null;
}

function flyPoints(score, delta) {
  const row = score.closest("li");
  if (!row || still.matches) return;
  score.classList.remove("bumped");
  void score.offsetWidth; // restart the bump if it is still running
  score.classList.add("bumped");
  const fly = document.createElement("span");
  fly.className = delta > 0 ? "points-fly" : "points-fly lost";
  fly.setAttribute("aria-hidden", "true");
  fly.textContent = delta > 0 ? `+${delta}` : `${delta}`;
  row.appendChild(fly);
  const done = () => fly.remove();
  fly.addEventListener("animationend", done, { once: true });
  setTimeout(done, FLY_MS);
}

function noteScore(score, fly) {
  const value = Number.parseInt(score.textContent, 10);
  if (Number.isNaN(value)) return;
  const before = scores.get(score);
  scores.set(score, value);
  if (fly && before !== undefined && before !== value) flyPoints(score, value - before);
}

function countUp(element) {
  const target = Number.parseInt(element.textContent, 10);
  if (still.matches || !(target > 0)) return;
  const start = performance.now();
  const tick = (now) => {
    // A redraw may have written the number back already: never fight it.
    if (!element.isConnected) return;
    const share = Math.min(1, (now - start) / COUNT_MS);
    element.textContent = String(Math.round(target * share));
    if (share < 1) requestAnimationFrame(tick);
  };
  element.textContent = "0";
  requestAnimationFrame(tick);
}

function watch(root) {
  root.querySelectorAll(".scoreboard .score").forEach((s) => noteScore(s, false));
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "characterData") {
        const score = scoreOf(record.target);
        if (score) noteScore(score, true);
        continue;
      }
      const score = scoreOf(record.target);
      if (score) noteScore(score, true);
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        if (node.matches("[data-count]")) countUp(node);
        node.querySelectorAll("[data-count]").forEach(countUp);
        // A new scoreboard (another game): remember its scores, nothing flies.
        node.querySelectorAll(".scoreboard .score").forEach((s) => noteScore(s, false));
        if (node.matches(".scoreboard .score")) noteScore(node, false);
      }
    }
  }).observe(root, { subtree: true, childList: true, characterData: true });
}

const root = document.getElementById("screen");
if (root) watch(root);
