"""The state of a game of Royal Dilemma, as immutable values.

Hidden: the value cards in each hand, the deck's order, every submitted but
unrevealed choice (``pending``), and which cards a realm without cards in play
surrendered from hand (known to the two players involved only). Public: each
realm's cards in play, hand sizes, the deck and discard counts, revealed
choices, every step of every round's resolution and the scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from quandary.engine import Event, GameState

Stage = Literal["choose", "capture", "over"]
StepKind = Literal["build", "battle", "invasion"]


@dataclass(frozen=True)
class Choice:
    """A revealed choice: the target card played, the seat it names, the value card."""

    target_card: str
    target: int
    card: str


@dataclass(frozen=True)
class Planned:
    """A battle or an invasion still to resolve this round, in resolution order."""

    kind: Literal["battle", "invasion"]
    seat: int
    other: int


@dataclass(frozen=True)
class Step:
    """One resolved step of a round, with everything needed to explain it.

    A builder's step names its card. A battle names both value cards, their
    strengths and whether each was doubled, and the winner (None on a tie); the
    winner's invasion follows as its own step with ``after_battle`` set. An
    invasion records what could be captured and what was, or which value cards
    the target surrendered from hand (secret to everyone but those two seats).
    """

    kind: StepKind
    seat: int
    target: int
    card: str
    strength: int = 0
    doubled: bool = False
    rival_card: str | None = None
    rival_strength: int = 0
    rival_doubled: bool = False
    winner: int | None = None
    after_battle: bool = False
    could_capture: tuple[str, ...] = ()
    captured: str | None = None
    surrendered: tuple[str, ...] = ()
    from_hand: bool = False


@dataclass(frozen=True)
class Capture:
    """An invasion waiting for its invader to pick a card to capture (or none)."""

    step: Step
    options: tuple[str, ...]


@dataclass(frozen=True)
class RoundRecord:
    """A finished round: draws, the revealed choices, each step, and the scores after."""

    round: int
    draws: tuple[int, ...]
    choices: tuple[Choice | None, ...]
    steps: tuple[Step, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class RoyalState(GameState):
    """The whole game. ``pending[seat]`` is that seat's submitted, unrevealed move.

    ``stage`` is what views call the ``phase`` ("choose", "capture", "over"); the
    field keeps the name games were saved under, so that those saves still load.

    During a round's resolution ``choices`` holds the revealed choices, ``table``
    the value cards lying face up in front of each seat, ``queue`` the battles
    and invasions still to come and ``steps`` the ones already resolved.
    """

    round: int
    stage: Stage
    hands: tuple[tuple[str, ...], ...]
    realms: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    pending: tuple[Any, ...]
    draws: tuple[int, ...]
    choices: tuple[Choice | None, ...]
    table: tuple[str | None, ...]
    queue: tuple[Planned, ...]
    steps: tuple[Step, ...]
    capture: Capture | None
    history: tuple[RoundRecord, ...]
    log: tuple[Event, ...]
