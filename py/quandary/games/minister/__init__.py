"""Maybe Minister: material, law engine, turn logic and bots. Importing it registers the game."""

from quandary.bots import Bot, register_bots
from quandary.engine import register

from .rules import SPEC, Minister

GAME = register(Minister())


def _heuristic() -> Bot:
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


register_bots("minister", {"heuristic": _heuristic})

__all__ = ["GAME", "SPEC"]
