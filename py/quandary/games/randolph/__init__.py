"""Dilemma (Alex Randolph): rules, throw model and bots. Importing it registers the game."""

from quandary.bots import Bot
from quandary.catalog import GameEntry, register

from .rules import SPEC, Randolph


def _heuristic() -> Bot:
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


ENTRY = register(
    GameEntry(
        Randolph(),
        ui="randolph",
        rules_page="dilemma.html",
        credit="by Alex Randolph",
        stylesheet="randolph.css",
        bots={"heuristic": _heuristic},
    )
)
GAME = ENTRY.game

__all__ = ["ENTRY", "GAME", "SPEC"]
