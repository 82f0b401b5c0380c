"""The Game of Dilemmas: rules, cards and bots. Importing it registers the game."""

from quandary.bots import register_bots
from quandary.engine import register

from .bots import HeuristicBot
from .rules import SPEC, Dilemmas

GAME = register(Dilemmas())
register_bots("dilemmas", {"heuristic": HeuristicBot})

__all__ = ["GAME", "SPEC"]
