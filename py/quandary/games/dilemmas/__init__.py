"""The Game of Dilemmas: rules, cards and bots. Importing it registers the game."""

from quandary.bots import Bot
from quandary.catalog import GameEntry, register

from .rules import SPEC, Dilemmas


def _heuristic() -> Bot:
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


ENTRY = register(
    GameEntry(
        Dilemmas(),
        ui="dilemmas",
        rules_page="the-game-of-dilemmas.html",
        credit="by Pandaqi",
        bots={"heuristic": _heuristic},
    )
)
GAME = ENTRY.game

__all__ = ["ENTRY", "GAME", "SPEC"]
