// The page's colours and sounds, as this device keeps them: system, light or dark,
// and whether a chime says "your turn" while the tab is hidden (static/js/turn.js).
//
// A classic script in <head>, neither a module nor deferred, so data-theme is set
// before the first paint (no light flash on a dark device); the page's security
// policy allows no inline script, hence a file of its own. It needs no engine: the
// header's Settings work while Python boots, and on the rules pages too.
(() => {
  const THEME = "quandary:theme";
  const CHIME = "quandary:chime";
  const CHOICES = ["system", "light", "dark"];
  const root = document.documentElement;
  const system = matchMedia("(prefers-color-scheme: dark)");

  // Storage may be disabled (some private modes): the system's theme, no chime.
  const read = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const write = (key, value) => {
    try {
      localStorage.setItem(key, value);
    } catch {
      // kept for this page only
    }
  };

  const choice = () => (CHOICES.includes(read(THEME)) ? read(THEME) : "system");

  function apply() {
    const chosen = choice();
    root.dataset.themeChoice = chosen;
    root.dataset.theme = chosen === "system" ? (system.matches ? "dark" : "light") : chosen;
  }

  // The header's controls show what is kept (another tab may have changed it).
  function show() {
    for (const input of document.querySelectorAll('input[name="theme"]')) {
      input.checked = input.value === root.dataset.themeChoice;
    }
    const chime = document.getElementById("chime");
    if (chime) chime.checked = read(CHIME) === "on";
  }

  function wire() {
    for (const input of document.querySelectorAll('input[name="theme"]')) {
      input.addEventListener("change", () => {
        if (!input.checked) return;
        write(THEME, input.value);
        apply();
      });
    }
    document.getElementById("chime")?.addEventListener("change", (event) => {
      write(CHIME, event.target.checked ? "on" : "off");
    });
    show();
  }

  apply();
  system.addEventListener("change", apply);
  addEventListener("storage", (event) => {
    if (event.key === THEME || event.key === CHIME || event.key === null) {
      apply();
      show();
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire, { once: true });
  else wire();
})();
