"""One font stack, the same face in every engine: no text falls back to a serif face,
bold numbers included (WebKit drew bold score numbers in a serif; Royal Dilemma's cards
named Georgia, missing on Linux and Android, and fell back to a serif everywhere).

For each kind of text the table shows (a heading, a button, the scoreboard's bold
score and names, plain text, a playing card's bold rank), a probe sets a sample line
in that element's own font (family, weight, size, style) and in the browser's generic
serif and sans-serif at the same weight and size: if its width is the serif's and not
the sans-serif's, the stack fell through to a serif face. Chromium here; Firefox and
WebKit in tests/browsers/test_fonts.py, with the same probe.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import open_app
from .play import choose_game

SAMPLE = "Quandary 0123456789 wimbledon, HAMBURGEFONTSIV!"
TEXTS = (
    "h1, h2",
    "button.primary",
    ".scoreboard .score",
    ".scoreboard .who",
    "p",
    ".pcard svg text",
)
"""Royal Dilemma's table has each: its hand is drawn as playing cards."""

FONT_PROBE = """([selectors, sample]) => {
  const width = (style, family) => {
    const span = document.createElement('span');
    span.textContent = sample;
    span.style.cssText = 'position:absolute;left:-9999px;top:0;white-space:nowrap';
    span.style.fontFamily = family;
    span.style.fontWeight = style.fontWeight;
    span.style.fontSize = style.fontSize;
    span.style.fontStyle = style.fontStyle;
    document.body.append(span);
    const w = span.getBoundingClientRect().width;
    span.remove();
    return w;
  };
  const found = [];
  for (const selector of selectors) {
    const element = [...document.querySelectorAll(selector)]
      .find((e) => e.getClientRects().length);
    if (!element) { found.push({selector, missing: true}); continue; }
    const style = getComputedStyle(element);
    const own = width(style, style.fontFamily);
    const serif = width(style, 'serif');
    const sans = width(style, 'sans-serif');
    found.push({selector, family: style.fontFamily, weight: style.fontWeight,
                own, serif, sans,
                serifFallback: Math.abs(own - serif) < 0.5 && Math.abs(own - sans) >= 0.5});
  }
  return found;
}"""


def serif_fallbacks(measured: list[dict[str, object]]) -> list[dict[str, object]]:
    """The texts whose font is missing or fell back to a serif face."""
    return [m for m in measured if m.get("missing") or m.get("serifFallback")]


def test_every_text_is_set_in_the_sans_serif_stack(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    choose_game(page, "royal")
    page.click("#start")
    expect(page.locator(".pcard svg text").first).to_be_visible()
    measured = page.evaluate(FONT_PROBE, [list(TEXTS), SAMPLE])
    for m in measured:
        print("chromium", m)
    assert not serif_fallbacks(measured), f"chromium: {measured}"
