"""The setup's fold: options a newcomer can leave as they are fold into one line that
says what is chosen, and Start comes right after it (tests/e2e/test_fold.py measures
that it is on the first screen)."""

from __future__ import annotations

import re

import quandary.games  # noqa: F401  (fills the game registry)
from quandary.web.controller import Controller

from .test_controller import MemoryStorage


def _summary(html: str) -> str:
    found = re.search(r'<details class="more" id="setup-more"><summary>(.*?)</summary>', html)
    assert found, "the setup has no folded options"
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_the_folded_line_says_what_is_chosen_and_changes_with_it() -> None:
    c = Controller(MemoryStorage(), lambda: 1)
    c.dispatch("choose-game", {"game": "dilemmas"})
    html = c.render()
    assert '<details class="more" id="setup-more" open' not in html  # folded at first
    assert _summary(html).startswith("Options ")
    assert "no variants" in _summary(html)
    c.dispatch("field", {"field": "option", "key": "supervotes", "checked": "true"})
    assert "Supervotes" in _summary(c.render())
    c.dispatch("field", {"field": "bot-speed", "value": "relaxed"})
    assert "Bots: relaxed" in _summary(c.render())
    # Start follows the fold: nothing long stands between them.
    assert re.search(
        r"</details>(<p class=\"form-error\"[^>]*>.*?</p>)?<button[^>]*id=\"start\"", c.render()
    )


def test_a_choice_is_named_without_its_explanation() -> None:
    c = Controller(MemoryStorage(), lambda: 1)
    c.dispatch("choose-game", {"game": "randolph"})
    assert "Throw window: first game" in _summary(c.render())  # a device's first game
    c.dispatch("field", {"field": "choice", "key": "window", "value": "quick"})
    assert "Throw window: quick" in _summary(c.render())
