"""The registry of games: one place that knows every game by its id.

Games register themselves when their package is imported; ``games/__init__``
imports them all, so importing ``quandary.games`` fills the registry.
"""

from __future__ import annotations

from .errors import BadSetup
from .spec import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game; registering the same id twice is a programming error."""
    if game.spec.id in _GAMES and _GAMES[game.spec.id] is not game:
        raise ValueError(f"game id {game.spec.id!r} registered twice")
    _GAMES[game.spec.id] = game
    return game


def get(game_id: str) -> Game:
    """The game with this id, or ``BadSetup`` with a readable sentence."""
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise BadSetup(f"There is no game called {game_id!r}.") from None


def all_games() -> list[Game]:
    """Every registered game, in registration order (the lobby's order)."""
    return list(_GAMES.values())
