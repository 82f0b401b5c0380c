"""Dilemma (Alex Randolph): rules, throw model and bots. Importing it registers the game."""

from typing import TYPE_CHECKING

from quandary.bots import Bot
from quandary.catalog import GameEntry, register
from quandary.engine import Game

from .spec import SPEC

if TYPE_CHECKING:
    from .view import RandolphView


def _heuristic() -> "Bot[RandolphView]":
    """The heuristic bot, imported when a game first needs it (not at start-up)."""
    from .bots import HeuristicBot

    return HeuristicBot()


def _random() -> "Bot[RandolphView]":
    """The random level, with a person's reaction time (see ``bots.RandomThrower``)."""
    from .bots import RandomThrower

    return RandomThrower()


def _rules() -> Game:
    """The game's rules, imported when a game of this kind is first played."""
    from .rules import Randolph

    return Randolph()


ENTRY = register(
    GameEntry(
        SPEC,
        _rules,
        ui="quandary.web.render.randolph",
        views="quandary.games.randolph.view",
        rules_page="dilemma.html",
        credit="by Alex Randolph",
        stylesheet="randolph.css",
        bots={"heuristic": _heuristic, "random": _random},
        practice_first=True,
    )
)
__all__ = ["ENTRY", "SPEC"]
