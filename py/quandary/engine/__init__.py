"""The game engine shared by every game: protocol, registry, errors, randomness.

Pure standard library. Import the games package to fill the registry.
"""

from . import moves
from .core import apply, clock, dumps, from_json, game_of, legal_moves, result, setup, to_json, view
from .errors import (
    BadSetup,
    CorruptState,
    GameError,
    IllegalMove,
    MalformedMove,
    OutOfTurn,
)
from .record import Record
from .registry import all_games, get, register
from .rng import Rng
from .spec import Clock, Event, Game, GameSpec, Move, Option

__all__ = [
    "BadSetup",
    "Clock",
    "CorruptState",
    "Event",
    "Game",
    "GameError",
    "GameSpec",
    "IllegalMove",
    "MalformedMove",
    "Move",
    "Option",
    "OutOfTurn",
    "Record",
    "Rng",
    "all_games",
    "apply",
    "clock",
    "dumps",
    "from_json",
    "game_of",
    "get",
    "legal_moves",
    "moves",
    "register",
    "result",
    "setup",
    "to_json",
    "view",
]
