"""A probe of the page's moments, on the page's own clock (shared by tests and bench).

Installed before the app loads, it watches ``#screen``: whenever secrets are
revealed (elements with ``data-reveal`` appear), it notes on ``performance.now()``

* ``action``: how long until the next thing the player may press (the first
  enabled button of the turn area) is usable: present, enabled, and no running
  animation on it or around it. 0 when nothing holds it back (None: no control).
* ``probe``: what measuring took (reading the animations makes the browser
  compute styles), so the page's own handling is seen apart from any wait.
* ``planned``: when the reveal's animations end, by their own timing.
* ``observed``: when they had really finished (frames late on a busy machine),
  or were cut short (``interrupted``: the player moved on before they ended).
* ``animations``: how many animations the reveal ran (0 under reduced motion).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from .conftest import wait_js

PROBE = """
(() => {
  window.quandaryMoments = [];
  const seen = new WeakSet();
  const usable = (control) => !!control && !control.disabled;
  const holding = (control) => document.getAnimations().filter((a) => {
    const target = a.effect && a.effect.target;
    return target && target.contains(control) && a.playState !== "finished";
  });
  const measure = async (fresh) => {
    const t0 = performance.now();
    const animations = document.getAnimations().filter(
      (a) => a.effect && fresh.some((e) => e.contains(a.effect.target)));
    const planned = Math.max(0, ...animations.map((a) => {
      const timing = a.effect.getComputedTiming();
      return timing.endTime - (a.currentTime || 0);
    }));
    const control = document.querySelector("#screen .turn button:not([disabled])");
    let action = null;
    const probe = performance.now() - t0;
    if (usable(control)) {
      const blockers = holding(control);
      action = 0;
      if (blockers.length) {
        await Promise.all(blockers.map((a) => a.finished.catch(() => null)));
        action = performance.now() - t0;
      }
    }
    let interrupted = 0;  // the player moved on, or a redraw replaced the element
    await Promise.all(animations.map((a) => a.finished.catch(() => { interrupted += 1; })));
    window.quandaryMoments.push({
      reveal: fresh[0].id,
      count: fresh.length,
      animations: animations.length,
      planned,
      observed: animations.length ? performance.now() - t0 : 0,
      interrupted,
      probe,
      action,
      control: control ? control.id || control.textContent.trim() : null,
    });
  };
  const watch = () => {
    const screen = document.getElementById("screen");
    if (!screen) return;
    new MutationObserver(() => {
      const fresh = [...screen.querySelectorAll("[data-reveal]")].filter((e) => !seen.has(e));
      if (!fresh.length) return;
      fresh.forEach((e) => seen.add(e));
      measure(fresh);
    }).observe(screen, { subtree: true, childList: true });
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watch);
  } else {
    watch();
  }
})();
"""


def install(page: Page) -> None:
    """Watch every page of ``page``'s context from its first paint."""
    page.context.add_init_script(PROBE)


def moments(page: Page, prefix: str = "") -> list[dict[str, Any]]:
    """The reveals measured so far whose element id starts with ``reveal-`` + ``prefix``."""
    found: list[dict[str, Any]] = page.evaluate("window.quandaryMoments || []")
    return [m for m in found if str(m["reveal"]).startswith("reveal-" + prefix)]


def wait_for_moment(page: Page, prefix: str, timeout: float = 20_000) -> dict[str, Any]:
    """The first reveal measured whose id starts with ``reveal-`` + ``prefix``."""
    wait_js(
        page,
        "p => (window.quandaryMoments || []).some(m => m.reveal.startsWith('reveal-' + p))",
        prefix,
        timeout,
    )
    return moments(page, prefix)[0]
