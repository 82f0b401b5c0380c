"""Maybe Minister: material, law engine, turn logic and bots. Importing it registers the game."""

from quandary.bots import Bot
from quandary.catalog import GameEntry, register

from .rules import SPEC, Minister


def _heuristic() -> Bot:
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


ENTRY = register(
    GameEntry(
        Minister(),
        ui="minister",
        rules_page="maybe-minister.html",
        credit="by Pandaqi",
        stylesheet="minister.css",
        bots={"heuristic": _heuristic},
    )
)
GAME = ENTRY.game

__all__ = ["ENTRY", "GAME", "SPEC"]
