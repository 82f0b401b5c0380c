"""The state of a game of Dilemma (Alex Randolph), as immutable values.

Everything on the table is public in this game: every card is seen when it is
placed or thrown, so hands, won piles and lives are shown to all. The only
secrets are a duellist's choice until both have chosen (``Duel.choices``) and
the generator state that decides how thrown cards land.

A card is named by its owner and value (``Card``): every player has a set
numbered 1 to 10, so "Anna's 8" and "Eric's 8" are different cards, and the
conservation audit can follow each one from hand to arena to a won pile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from quandary.engine import Event, GameState

Phase = Literal["challenge", "react", "duel", "over"]
Landing = Literal["flat", "diagonal", "edge", "outside"]
Status = Literal["pending", "duelling", "invalid", "removed", "returned"]
Choice = Literal["peace", "conflict"]
Outcome = Literal["peace", "conflict_won", "both_conflict", "kept"]

VALUES = tuple(range(1, 11))
"""Each player's cards: one of every value from 1 to 10."""


def starting_lives(players: int) -> int:
    """Life blocks per player: three at a table of three, two at four or five."""
    return 3 if players == 3 else 2


@dataclass(frozen=True, order=True)
class Card:
    """One physical card: whose set it came from, and its value."""

    owner: int
    value: int

    @property
    def id(self) -> str:
        """A name unique in the whole game, for the conservation audit."""
        return f"{self.owner}:{self.value}"


@dataclass(frozen=True)
class Throw:
    """A card thrown at the challenge card, and where the throw model put it.

    ``at`` is the release time and ``flight`` the time in the air, both in ms
    since the reaction window opened; the card lands at ``at + flight``. ``x``
    and ``y`` are in thousandths of the arena's radius (the arena is the unit
    circle), so they stay whole numbers in the state. ``status`` is "pending"
    while the window is open and settled when it closes; ``reason`` says why.
    The gesture itself is kept only in the game's record of moves.
    """

    seat: int
    card: int
    window: int
    at: int
    flight: int
    landing: Landing
    x: int
    y: int
    rotation: int
    status: Status
    reason: str | None

    @property
    def land_at(self) -> int:
        """When the card comes to rest, in ms since its window opened."""
        return self.at + self.flight


@dataclass(frozen=True)
class Window:
    """An open reaction window: its unique id, and whether it is the second chance."""

    id: int
    second: bool
    opened_round: int


@dataclass(frozen=True)
class Duel:
    """The agent provocateur against the owner of the duelling card.

    ``choices`` is (provocateur's, opponent's); secret until both are in.
    """

    opponent: int
    card: int
    choices: tuple[Choice | None, Choice | None]


@dataclass(frozen=True)
class RoundResult:
    """What happened in one finished round, for the milestone screens.

    ``gains[seat]`` are the card values that seat won this round; ``reason`` is
    machine-readable: "duel", "unanswered" (nobody threw) or "no_valid_card"
    (cards were thrown in both windows, none of them valid).
    """

    round: int
    provocateur: int
    challenge: int
    throws: tuple[Throw, ...]
    second_window: bool
    opponent: int | None
    card: int | None
    choices: tuple[Choice, ...]
    outcome: Outcome
    winner: int | None
    gains: tuple[tuple[int, ...], ...]
    lives_lost: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class RandolphState(GameState):
    """The whole game.

    ``hands[seat]`` holds that seat's own values still in hand, sorted.
    ``challenge`` is the provocateur's card in the arena; ``arena`` every card
    thrown this round (both windows) in landing order; ``removed`` the cards out
    of the game. ``two_left`` is fixed when a round starts: only two players
    hold cards, so every thrown card that does not duel comes back to the
    thrower's hand.
    """

    round: int
    phase: Phase
    provocateur: int
    hands: tuple[tuple[int, ...], ...]
    lives: tuple[int, ...]
    won: tuple[tuple[Card, ...], ...]
    removed: tuple[Card, ...]
    challenge: int | None
    two_left: bool
    window: Window | None
    windows_opened: int
    arena: tuple[Throw, ...]
    duel: Duel | None
    history: tuple[RoundResult, ...]
    log: tuple[Event, ...]

    def holders(self) -> list[int]:
        """Seats that still hold at least one card in hand."""
        return [s for s, hand in enumerate(self.hands) if hand]
