"""The registry of games: one place that knows every game by its id.

A game registers its spec (what the lobby shows and the setup checks) and a
loader for its rules; the rules are imported the first time a game of that kind
is set up, continued or looked at, not when the app starts. So the first screen
costs only the specs, and a player who never opens Maybe Minister never pays
for its law engine. ``games/__init__`` imports every game package, which fills
the registry.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import BadSetup
from .spec import Game, GameSpec

_SPECS: dict[str, GameSpec] = {}
_LOADERS: dict[str, Callable[[], Game]] = {}
_GAMES: dict[str, Game] = {}


def register(spec: GameSpec, load: Callable[[], Game]) -> None:
    """Add a game by its spec and the function that imports and builds its rules;
    registering the same id twice is a programming error."""
    if spec.id in _SPECS and _SPECS[spec.id] is not spec:
        raise ValueError(f"game id {spec.id!r} registered twice")
    _SPECS[spec.id] = spec
    _LOADERS[spec.id] = load


def spec_of(game_id: str) -> GameSpec:
    """The spec of the game with this id (its rules stay unloaded), or ``BadSetup``."""
    try:
        return _SPECS[game_id]
    except (KeyError, TypeError):
        raise BadSetup(f"There is no game called {game_id!r}.") from None


def specs() -> list[GameSpec]:
    """Every registered game's spec, in registration order (the lobby's order)."""
    return list(_SPECS.values())


def get(game_id: str) -> Game:
    """The game with this id, its rules loaded on first use; ``BadSetup`` with a
    readable sentence if there is none."""
    game = _GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        spec = spec_of(game_id)
        game = _LOADERS[game_id]()
        if game.spec is not spec:
            raise ValueError(f"game {game_id!r} loaded rules for another spec")
        _GAMES[game_id] = game
    return game


def all_games() -> list[Game]:
    """Every registered game with its rules loaded, in registration order: for the
    tools and tests that walk them all (the app itself reads ``specs``)."""
    return [get(s.id) for s in specs()]
