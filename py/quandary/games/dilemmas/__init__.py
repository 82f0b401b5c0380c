"""The Game of Dilemmas: rules, cards and bots. Importing it registers the game."""

from typing import TYPE_CHECKING

from quandary.bots import Bot
from quandary.catalog import GameEntry, register
from quandary.engine import Game

from .spec import SPEC

if TYPE_CHECKING:
    from .view import DilemmasView


def _heuristic() -> "Bot[DilemmasView]":
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


def _rules() -> Game:
    """The game's rules, imported when a game of this kind is first played."""
    from .rules import Dilemmas

    return Dilemmas()


ENTRY = register(
    GameEntry(
        SPEC,
        _rules,
        ui="quandary.web.render.dilemmas",
        views="quandary.games.dilemmas.view",
        rules_page="the-game-of-dilemmas.html",
        credit="by Pandaqi",
        bots={"heuristic": _heuristic},
    )
)
__all__ = ["ENTRY", "SPEC"]
