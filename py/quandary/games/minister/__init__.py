"""Maybe Minister: material, law engine, turn logic and bots. Importing it registers the game."""

from typing import TYPE_CHECKING

from quandary.bots import Bot
from quandary.catalog import GameEntry, register
from quandary.engine import Game

from .spec import SPEC

if TYPE_CHECKING:
    from .view_types import MinisterView


def _heuristic() -> "Bot[MinisterView]":
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


def _rules() -> Game:
    """The game's rules, imported when a game of this kind is first played."""
    from .rules import Minister

    return Minister()


ENTRY = register(
    GameEntry(
        SPEC,
        _rules,
        ui="quandary.web.render.minister",
        views="quandary.games.minister.view_types",
        rules_page="maybe-minister.html",
        credit="by Pandaqi",
        stylesheet="minister.css",
        bots={"heuristic": _heuristic},
    )
)
__all__ = ["ENTRY", "SPEC"]
