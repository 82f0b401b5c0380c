"""What a seat sees of a game of Royal Dilemma, as types: the contract with its screens.

``rules.RoyalGame.view`` builds a ``RoyalOwnView``; the engine adds the header
every game shares (``engine.ViewOf``, with its moves), which makes a ``RoyalView``. The
renderer (``web/render/royal.py``) reads nothing else, so mypy follows each field
from the rules to the screen, and ``read_view`` checks a view from another device
against these same declarations before anything is drawn from it. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from quandary.engine import LeadStory, Logged, Redealt, Standings, ViewOf
from quandary.engine.typed import Changed, PerSeat, Seat, check_view


class RoyalChoice(TypedDict):
    """A revealed choice: the target card played, the seat it names, the value card."""

    target_card: str
    target: Seat
    card: str


class RoyalStep(TypedDict):
    """One resolved step of a round (``state.Step``), as a seat may see it.

    ``surrendered`` is None for everyone but the two seats involved, who see the
    cards; ``surrendered_count`` is public.
    """

    kind: Literal["build", "battle", "invasion"]
    seat: Seat
    target: Seat
    card: str
    strength: int
    doubled: bool
    rival_card: str | None
    rival_strength: int
    rival_doubled: bool
    winner: Seat | None
    after_battle: bool
    could_capture: list[str]
    captured: str | None
    surrendered: list[str] | None
    surrendered_count: int
    from_hand: bool


class RoyalCapture(TypedDict):
    """An invasion waiting for its invader to pick a card to capture (or none)."""

    step: RoyalStep
    options: list[str]


class RoyalRecord(TypedDict):
    """A finished round: draws, the revealed choices, each step, the scores after."""

    round: int
    draws: PerSeat[int]
    choices: PerSeat[RoyalChoice | None]
    steps: list[RoyalStep]
    scores: PerSeat[int]


class ChooseMove(TypedDict):
    """Play a target card (naming whom it targets) with a value card face down."""

    type: Literal["choose"]
    target: str
    value: str


class PassMove(TypedDict):
    """Play nothing this round."""

    type: Literal["pass"]


class CaptureMove(TypedDict):
    """Capture one of the defeated realm's cards in play."""

    type: Literal["capture"]
    card: str


class DeclineMove(TypedDict):
    """Capture nothing."""

    type: Literal["decline"]


RoyalMove = ChooseMove | PassMove | CaptureMove | DeclineMove
"""Every move of Royal Dilemma, told apart by its ``type``."""

CaptureStory = TypedDict(
    "CaptureStory",
    {"kind": Literal["capture"], "seat": Seat, "round": int, "card": str, "from": Seat},
)
"""How a game was won by a capture: the winner's last, the card taken and the seat it
was taken ``from`` (a word Python keeps for itself, hence this spelling)."""
RoyalStory = CaptureStory | LeadStory
"""The deciding moment of a game of Royal Dilemma, told apart by its ``kind``."""


class GameStarted(TypedDict):
    """The game begins: each seat's realm, its first cards in play."""

    realms: PerSeat[list[str]]


class RoundStarted(TypedDict):
    """A round begins: how many cards each seat drew."""

    round: int
    draws: PerSeat[int]


class Submitted(TypedDict):
    """A seat chose (what, nobody sees until everyone has)."""

    seat: Seat
    round: int


class ChoicesRevealed(TypedDict):
    """Every seat's choice of the round, shown together."""

    round: int
    choices: PerSeat[RoyalChoice | None]


class RoyalEnding(Standings):
    """How the game ended: ``reason`` ("deck": the deck could not cover the next draw,
    whose numbers ``deck`` and ``need`` keep; "empty": nothing left to play), in the
    round it ended; a save from before these were logged holds only the standings."""

    reason: NotRequired[Literal["deck", "empty"]]
    round: NotRequired[int]
    deck: NotRequired[int]
    need: NotRequired[int]


RoyalEvent = (
    Logged[Literal["game_started"], GameStarted]
    | Logged[Literal["round_started"], RoundStarted]
    | Logged[Literal["submitted"], Submitted]
    | Logged[Literal["choices_revealed"], ChoicesRevealed]
    | Logged[Literal["step"], RoyalStep]
    | Logged[Literal["game_over"], RoyalEnding]
    | Redealt
)
"""Every event a game of Royal Dilemma logs, told apart by its ``kind``."""


class RoyalOwnView(TypedDict):
    """Royal Dilemma's own part of a view; a spectator gets no ``hand``,
    ``targets`` nor ``my_choice``."""

    title: str
    faces: list[str]
    realms: PerSeat[list[str]]
    hand_sizes: PerSeat[int]
    deck: int
    discard: int
    draws: PerSeat[int]
    next_draw: PerSeat[int]
    submitted: PerSeat[bool]
    choices: PerSeat[RoyalChoice | None]
    table: PerSeat[str | None]
    steps: list[RoyalStep]
    capture: RoyalCapture | None
    history: list[RoyalRecord]
    hand: NotRequired[list[str]]
    targets: NotRequired[list[str]]
    my_choice: NotRequired[ChooseMove | PassMove | None]


class RoyalView(RoyalOwnView, ViewOf[RoyalMove, RoyalStory, RoyalEvent]):
    """A whole view of a game of Royal Dilemma: its own part and the shared header."""


def read_view(view: Mapping[str, object], changed: Changed | None = None) -> RoyalView:
    """``view`` as a ``RoyalView``, every field checked (or
    only those ``changed`` since a view checked whole: ``check_view``); ``BadView`` says
    what is wrong."""
    check_view(view, RoyalView, "Royal Dilemma table", changed)
    return cast(RoyalView, view)
