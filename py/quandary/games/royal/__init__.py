"""Royal Dilemma: rules and bots. Importing it registers the game and its bot levels."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from quandary.bots import Bot
from quandary.catalog import GameEntry, register
from quandary.engine import Game

from .spec import SPEC, length_note

if TYPE_CHECKING:
    from .view import RoyalView


def _bot(level: str) -> "Bot[RoyalView]":
    """A bot of ``level``, its module imported when a game first needs one."""
    from . import bots

    classes: dict[str, type[Bot[RoyalView]]] = {
        "heuristic": bots.HeuristicBot,
        "builder": bots.BuilderBot,
        "tit_for_tat": bots.TitForTatBot,
        "forgiving": bots.ForgivingBot,
        "grudger": bots.GrudgerBot,
        "opportunist": bots.OpportunistBot,
    }
    return classes[level]()


LEVELS = {
    "heuristic": "Clever",
    "builder": "Builder: always builds",
    "tit_for_tat": "Tit for tat: pays back in kind",
    "forgiving": "Forgiving: tit for tat, sometimes forgives",
    "grudger": "Grudger: never forgets",
    "opportunist": "Opportunist: invades the weakest",
}


def _factory(level: str) -> "Callable[[], Bot[RoyalView]]":
    return lambda: _bot(level)


def _rules() -> Game:
    """The game's rules, imported when a game of this kind is first played."""
    from .rules import Royal

    return Royal()


ENTRY = register(
    GameEntry(
        SPEC,
        _rules,
        ui="quandary.web.render.royal",
        views="quandary.games.royal.view",
        rules_page="royal-dilemma.html",
        credit="from a strategy-game wiki",
        stylesheet="royal.css",
        bots={level: _factory(level) for level in LEVELS},
        bot_labels=LEVELS,
        length_note=length_note,
    )
)
__all__ = ["ENTRY", "LEVELS", "SPEC"]
