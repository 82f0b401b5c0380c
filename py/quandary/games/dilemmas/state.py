"""The state of a game of The Game of Dilemmas, as immutable values.

Hidden: each hand, the draw piles' order, and every submitted but unrevealed
choice (``pending``). Public: laid coop cards, revealed dilemmas, vote tallies,
scores, which super tokens are still unused, and the history of rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from quandary.engine import Event, GameState

Phase = Literal["build", "lay", "supply", "vote", "over"]
HAND_SIZE = 4


@dataclass(frozen=True)
class Hand:
    """One player's cards. ``neutral`` is the single neutral card, if any is left."""

    positive: tuple[str, ...]
    negative: tuple[str, ...]
    neutral: str | None


@dataclass(frozen=True)
class Dilemma:
    """A dilemma on the table.

    ``creators`` is (owner,) or, in coop, (layer, supplier); ``laid`` is the card
    the layer laid in coop (the supplier gave the other kind), else None.
    """

    positive: str
    negative: str
    neutral: str | None
    creators: tuple[int, ...]
    laid: str | None = None

    def card_ids(self) -> list[str]:
        """The cards it is made of."""
        return [self.positive, self.negative] + ([self.neutral] if self.neutral else [])


@dataclass(frozen=True)
class Pile:
    """A draw pile (top is the end of the tuple) and its discard pile."""

    draw: tuple[str, ...]
    discard: tuple[str, ...]


@dataclass(frozen=True)
class RoundResult:
    """What every player saw when the votes of a round were revealed."""

    round: int
    dilemmas: tuple[Dilemma, ...]
    tallies: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class DilemmasState(GameState):
    """The whole game. ``pending[seat]`` is that seat's submitted, unrevealed move."""

    round: int
    phase: Phase
    hands: tuple[Hand, ...]
    scores: tuple[int, ...]
    super_yes: tuple[bool, ...]
    super_no: tuple[bool, ...]
    positive: Pile
    negative: Pile
    neutral: Pile
    pending: tuple[Any, ...]
    laid: tuple[str | None, ...]
    dilemmas: tuple[Dilemma, ...]
    history: tuple[RoundResult, ...]
    log: tuple[Event, ...]
