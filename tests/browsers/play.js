// A player's next move, chosen inside the page, the same in every engine
// (tests/browsers/test_games.py). The choice is tests/e2e/test_phone.py's: the way
// on if there is one (Next, Reveal, Submit some of the time, Peace, the practice's
// Done), else a seeded random control of the screen; in Dilemma, a throw at each
// window that opens. Returns what to do, for the driver to do it with its own
// pointer and keys:
//   {final: true}                      the end screen is shown
//   {click: selector, what}            click that control
//   {drag: [x, y, tx, ty], window}     drag a card from (x, y) towards (tx, ty), let go
//   false                              nothing to do yet (bots, a timed window)
// Called through the suite's wait (tests/browsers/conftest.py), which reads the
// screen only once the engine has answered the last click.
({ seed, step, thrown }) => {
  if (document.querySelector("#screen .final")) return { final: true };
  // Seeded: the same walk in each engine for the same screens.
  let s = (seed * 7919 + step * 104729) >>> 0 || 1;
  const random = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  // Inside a closed <details> (a fold the player has not opened) is not shown, though
  // Firefox and WebKit give its contents a box (Chromium gives none).
  const shown = (e) => {
    const box = e.getBoundingClientRect();
    const folded = e.closest("details:not([open])") && !e.closest("summary");
    return !folded && box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== "hidden";
  };
  // Dilemma: a window is open (its countdown said "throw!") and a card can be thrown.
  const box = document.querySelector("#arena-box");
  const card = [...document.querySelectorAll(".throw-card:not([disabled])")].find(shown);
  const window = box?.dataset.window ?? "practice";
  if (card && box && box.classList.contains("open") && !thrown.includes(window)) {
    card.scrollIntoView({ block: "center" });
    const from = card.getBoundingClientRect();
    const arena = document.querySelector("#arena").getBoundingClientRect();
    const x = from.left + from.width / 2;
    const y = from.top + from.height / 2;
    const tx = arena.left + arena.width / 2;
    const ty = arena.top + arena.height / 2;
    return { drag: [x, y, x + (tx - x) * 0.6, y + (ty - y) * 0.6], window };
  }
  // The controls a player could use now (the ways out of the game, Dilemma's practice
  // arena, which lies over the game, and Undo, which only goes back, excepted).
  const away = ["leave", "lobby", "again", "leave-room", "download-log", "practice", "undo"];
  const controls = [...document.querySelectorAll("#screen [data-action]")].filter(
    (e) => !e.disabled && shown(e) && !away.includes(e.dataset.action),
  );
  if (!controls.length) return false;
  const pick = (element) => {
    element.dataset.browsersPick = String(step);
    return {
      click: `[data-browsers-pick="${step}"]`,
      what: element.id || `${element.dataset.action} ${element.textContent.trim().slice(0, 20)}`,
    };
  };
  for (const id of ["next", "reveal", "submit", "duel-peace", "practice-done"]) {
    const element = controls.find((e) => e.id === id);
    if (element && (id !== "submit" || random() < 0.5)) return pick(element);
  }
  return pick(controls[Math.floor(random() * controls.length)]);
}
