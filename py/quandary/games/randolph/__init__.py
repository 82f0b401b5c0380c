"""Dilemma (Alex Randolph): rules, throw model and bots. Importing it registers the game."""

from quandary.bots import Bot, register_bots
from quandary.engine import register

from .rules import SPEC, Randolph

GAME = register(Randolph())


def _heuristic() -> Bot:
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


register_bots("randolph", {"heuristic": _heuristic})

__all__ = ["GAME", "SPEC"]
