"""The state of a game of Pebbles, as immutable values.

Hidden: each hand (its size is public), the bag's order and contents, and a
pick made but not yet revealed (``picks``). Public: every round's revealed
picks, who scored, the discarded pebbles and the scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quandary.engine import Event, GameState

Phase = Literal["pick", "over"]


@dataclass(frozen=True)
class Round:
    """A finished round: each seat's revealed pick, who scored (None: nobody) and how much."""

    number: int
    picks: tuple[str, ...]
    winner: int | None
    points: int


@dataclass(frozen=True)
class PebblesState(GameState):
    """The whole game. ``picks[seat]`` is that seat's pick this round, still in its hand."""

    round: int
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    bag: tuple[str, ...]
    discard: tuple[str, ...]
    picks: tuple[str | None, ...]
    scores: tuple[int, ...]
    history: tuple[Round, ...]
    log: tuple[Event, ...]
