"""Typed errors: each way a move can be wrong has its own class.

Every error carries a sentence a player can read, because the UI and the room
protocol show ``str(error)`` as it is. Raising one never changes a state: the
engine only builds a new state after a move has been accepted.
"""

from __future__ import annotations


class GameError(Exception):
    """Base class: something a player tried was refused."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str]:
        """What a client is told: a stable code plus the readable sentence."""
        return {"code": self.code, "message": self.message}


class MalformedMove(GameError):
    """The move is not shaped like any move of this game (wrong type or fields)."""

    code = "malformed"


class IllegalMove(GameError):
    """The move is well formed but the rules do not allow it now."""

    code = "illegal"


class OutOfTurn(GameError):
    """The seat has nothing to do at this moment (or the game is over)."""

    code = "out_of_turn"


class BadSetup(GameError):
    """A game cannot be set up with these players or options."""

    code = "bad_setup"


class CorruptState(GameError):
    """A stored or received state cannot be decoded into a valid game state."""

    code = "corrupt"


class BadView(GameError):
    """A view whose header is missing a key or has one of the wrong type (or whose own
    part is not what its game declares: ``typed.check_view``)."""

    code = "bad_view"
