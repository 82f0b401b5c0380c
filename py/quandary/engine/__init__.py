"""The game engine shared by every game: protocol, registry, errors, randomness.

Pure standard library. Import the games package to fill the registry.
``engine.dealing`` (a room's heirs and successors) is imported where it is used:
the first screen needs none of it.
"""

from . import moves
from .core import (
    CLOCK_ONLY,
    apply,
    apply_authority,
    clock,
    dumps,
    from_json,
    full_log,
    game_of,
    legal_moves,
    result,
    setup,
    to_json,
    view,
)
from .errors import (
    BadSetup,
    CorruptState,
    GameError,
    IllegalMove,
    MalformedMove,
    OutOfTurn,
)
from .record import Record
from .registry import all_games, get, register, spec_of, specs
from .rng import Rng
from .spec import Chooser, Clock, Event, Game, GameSpec, GameState, Move, Option
from .view import (
    HEADER_KEYS,
    BadView,
    Lead,
    LeadStory,
    LogEntry,
    Progress,
    Result,
    RoundLimit,
    Story,
    ViewHeader,
    ViewOf,
    last_round,
    read_header,
    round_words,
)

__all__ = [
    "CLOCK_ONLY",
    "HEADER_KEYS",
    "BadSetup",
    "BadView",
    "Chooser",
    "Clock",
    "CorruptState",
    "Event",
    "Game",
    "GameError",
    "GameSpec",
    "GameState",
    "IllegalMove",
    "Lead",
    "LeadStory",
    "LogEntry",
    "MalformedMove",
    "Move",
    "Option",
    "OutOfTurn",
    "Progress",
    "Record",
    "Result",
    "Rng",
    "RoundLimit",
    "Story",
    "ViewHeader",
    "ViewOf",
    "all_games",
    "apply",
    "apply_authority",
    "clock",
    "dumps",
    "from_json",
    "full_log",
    "game_of",
    "get",
    "last_round",
    "legal_moves",
    "moves",
    "read_header",
    "register",
    "result",
    "round_words",
    "setup",
    "spec_of",
    "specs",
    "to_json",
    "view",
]
