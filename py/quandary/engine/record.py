"""Game records: setup plus seed plus moves, which replay to the same state.

A record is what a save keeps besides the state, and what a bug report or a
transcript test is written in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import core
from .codec import decode, encode
from .spec import Json, Move


@dataclass(frozen=True)
class Record:
    """Everything needed to rebuild a game exactly."""

    game: str
    players: int
    options: dict[str, Json]
    seed: int
    moves: tuple[tuple[int, Any], ...] = field(default=())
    start: dict[str, Json] | None = None
    """The state the moves start from, when the game did not start here: a room's
    successor deals the unseen cards again (``engine.dealing``) and plays on from
    that deal, which no seed and moves could rebuild. ``None``: from ``seed``'s setup."""

    def with_move(self, seat: int, move: Move) -> Record:
        """This record with one more accepted move."""
        moves = (*self.moves, (seat, move))
        return Record(self.game, self.players, self.options, self.seed, moves, self.start)

    def replay(self) -> Any:
        """The state after every move (raises the game's error if one is illegal).

        A move of the table's clock (closing a timed window) is kept under the
        clock's seat, like every move, but replays through the authority's path:
        a record is the authority's own history, not a player's request.
        """
        if self.start is not None:
            state = core.from_json(self.start)
        else:
            state = core.setup(self.game, self.players, self.options, self.seed)
        clock_only = core.game_of(state).spec.authority_moves
        for seat, move in self.moves:
            if isinstance(move, dict) and move.get("type") in clock_only:
                state = core.apply_authority(state, move)
            else:
                state = core.apply(state, seat, move)
        return state

    def to_json(self) -> dict[str, Json]:
        """The record as JSON data (without ``start`` when it has none, as saves always were)."""
        data: dict[str, Json] = encode(self)
        if data.get("start") is None:
            data.pop("start", None)
        return data

    @staticmethod
    def from_json(data: Any) -> Record:
        """A record rebuilt from JSON data, checked field by field."""
        if isinstance(data, dict) and "start" not in data:
            data = {**data, "start": None}
        return decode(Record, data)
