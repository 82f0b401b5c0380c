"""The designers are credited on each game's card in the lobby and on its rules page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quandary import games  # noqa: F401 - registers every game
from quandary.catalog import entry
from quandary.web.render.lobby import game_list
from scripts.shell import fill_rules

RULES = Path(__file__).resolve().parents[2] / "static" / "rules"
CREDITS = {
    "dilemmas": "Pandaqi",
    "minister": "Pandaqi",
    "randolph": "Alex Randolph",
}


@pytest.mark.parametrize(("game", "designer"), CREDITS.items())
def test_a_designer_is_named_on_the_games_card_and_rules_page(game: str, designer: str) -> None:
    cards = str(game_list([entry(g).spec for g in (*CREDITS, "royal")], game))
    card = re.search(rf'data-game="{game}">(.*?)</button>', cards)
    assert card is not None
    assert f"by {designer}" in card.group(1)
    page = (RULES / entry(game).rules_page).read_text()
    assert re.search(rf'<p class="credit">Designed by <strong>{designer}</strong>', page)
    assert f"by {designer}" in fill_rules((RULES / "index.html").read_text())


def test_royal_dilemma_names_only_where_it_comes_from() -> None:
    """Its rule text (a strategy-game wiki) names no designer: none is made up."""
    cards = str(game_list([entry("royal").spec], "royal"))
    assert "from a strategy-game wiki" in cards
    assert "Designed by" not in (RULES / "royal-dilemma.html").read_text()
