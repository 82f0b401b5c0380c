"""A table: one game in progress with its seats, the authority for local play.

This is the transport-agnostic seam: moves enter through ``submit`` (from a click
on this device today, from a remote peer's intent in a room later) and leave as
per-seat ``view``s. Bots act through the same door. A table saves itself as a
record plus the state; loading replays the record and refuses a save whose
state disagrees with it, so a damaged save is reported instead of played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from quandary import engine
from quandary.bots import bot_rng, make_bot
from quandary.engine import CorruptState, GameError, Move, Record

SeatKind = Literal["human", "bot"]
SAVE_FORMAT = 1


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a human on this device, or a bot of some level."""

    name: str
    kind: SeatKind
    level: str = "heuristic"


class Table:
    """Holds the current state and the record of accepted moves."""

    def __init__(self, record: Record, seats: list[Seat], state: Any | None = None) -> None:
        self.record = record
        self.seats = list(seats)
        self.state = state if state is not None else record.replay()
        self._views_of: Any = None
        self._views: dict[int | None, dict[str, Any]] = {}

    @classmethod
    def new(
        cls, game_id: str, seats: list[Seat], options: dict[str, Any] | None, seed: int
    ) -> Table:
        """Set up a fresh game (``BadSetup`` if the seats or options do not fit)."""
        state = engine.setup(game_id, len(seats), options, seed)
        record = Record(
            game_id, len(seats), engine.game_of(state).spec.normalise_options(options), seed
        )
        return cls(record, seats, state)

    @property
    def game(self) -> str:
        """The game's id."""
        return self.record.game

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return engine.result(self.state) is not None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, with seat names added for display.

        Views are built once per state and seat: a screen draw and a room broadcast
        ask for the same view several times. Callers must not modify the result.
        """
        if self._views_of is not self.state:
            self._views_of, self._views = self.state, {}
        if seat not in self._views:
            out = engine.view(self.state, seat)
            out["names"] = [s.name for s in self.seats]
            out["kinds"] = [s.kind for s in self.seats]
            self._views[seat] = out
        return self._views[seat]

    def humans_to_act(self) -> list[int]:
        """Human seats that the game is waiting for, in seat order."""
        return [
            s
            for s in engine.game_of(self.state).waiting_for(self.state)
            if self.seats[s].kind == "human" and engine.legal_moves(self.state, s)
        ]

    def submit(self, seat: int, move: Move) -> None:
        """Apply ``seat``'s move, or raise its ``GameError`` leaving everything unchanged."""
        self.state = engine.apply(self.state, seat, move)
        self.record = self.record.with_move(seat, move)

    def play_bots(self, limit: int = 10_000) -> int:
        """Let every bot that can act do so, until none can; returns how many moved."""
        moved = 0
        progress = True
        while progress and moved < limit:
            progress = False
            for seat, who in enumerate(self.seats):
                if who.kind != "bot":
                    continue
                view = engine.view(self.state, seat)
                if not view["legal_moves"]:
                    continue
                bot = make_bot(self.game, who.level)
                self.submit(
                    seat, bot.choose(view, bot_rng(self.record.seed, seat, self.state.version))
                )
                moved += 1
                progress = True
        return moved

    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume: seats, record and state."""
        return {
            "format": SAVE_FORMAT,
            "seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in self.seats],
            "record": self.record.to_json(),
            "state": engine.to_json(self.state),
        }

    @classmethod
    def from_json(cls, data: Any) -> Table:
        """A table from ``to_json`` output; ``CorruptState`` if anything disagrees."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise CorruptState("The saved game is from an unknown version of Quandary.")
        seats = _seats(data.get("seats"))
        record = Record.from_json(data.get("record"))
        state = engine.from_json(data.get("state"))
        if len(seats) != record.players:
            raise CorruptState("The saved game is damaged: its seats do not match.")
        try:
            replayed = record.replay()
        except GameError as exc:
            raise CorruptState(f"The saved game is damaged: {exc.message}") from None
        if replayed != state:
            raise CorruptState("The saved game is damaged: its moves do not lead to its state.")
        return cls(record, seats, state)


def _seats(data: Any) -> list[Seat]:
    if not isinstance(data, list) or not data:
        raise CorruptState("The saved game is damaged: it has no seats.")
    seats = []
    for s in data:
        if (
            not isinstance(s, dict)
            or not isinstance(s.get("name"), str)
            or s.get("kind") not in ("human", "bot")
            or not isinstance(s.get("level"), str)
        ):
            raise CorruptState("The saved game is damaged: a seat is unreadable.")
        seats.append(Seat(s["name"], s["kind"], s["level"]))
    return seats
