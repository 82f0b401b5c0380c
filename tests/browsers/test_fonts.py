"""One font stack in Firefox and WebKit: no text falls back to a serif face, bold numbers
included (the probe and what it measures: tests/e2e/test_fonts.py)."""

from __future__ import annotations

from tests.e2e.test_fonts import FONT_PROBE, SAMPLE, TEXTS, serif_fallbacks

from .test_games import choose_game


def test_every_text_is_set_in_the_sans_serif_stack(new_tab, site_url) -> None:
    tab = new_tab().open(site_url)
    choose_game(tab, "royal")
    tab.click("#start")
    tab.shown(".pcard svg text")
    measured = tab.evaluate(FONT_PROBE, [list(TEXTS), SAMPLE])
    for m in measured:
        print(tab.engine, m)
    assert not serif_fallbacks(measured), f"{tab.engine}: {measured}"
