"""What a seat sees of The Game of Dilemmas, as types: the contract with its screens.

``rules.DilemmasGame.view`` builds a ``DilemmasOwnView``; the engine adds the
header every game shares (``engine.ViewOf``, with its moves), which makes a ``DilemmasView``.
The renderer (``web/render/dilemmas.py``) reads nothing else, so mypy follows each
field from the rules to the screen, and ``read_view`` checks a view from another
device against these same declarations before anything is drawn from it. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from quandary.engine import GameOver, Lead, Logged, Redealt, ViewOf
from quandary.engine.typed import Changed, PerSeat, Seat, check_view


class CardView(TypedDict):
    """A card as views show it: its id, kind, text and how strongly bots weigh it."""

    id: str
    kind: Literal["positive", "negative", "neutral"]
    text: str
    weight: int


class DilemmaCards(TypedDict):
    """A dilemma's cards: a good card, a "... but" card, perhaps a neutral one."""

    positive: CardView
    negative: CardView
    neutral: CardView | None


class DilemmaView(DilemmaCards):
    """A dilemma on the table, and who made it (two seats in coop)."""

    creators: list[Seat]


class RoundView(TypedDict):
    """A finished round: its dilemmas, each one's YES and NO count, who won what."""

    round: int
    dilemmas: list[DilemmaView]
    tallies: list[list[int]]
    winners: list[int]
    points: PerSeat[int]


class HandView(TypedDict):
    """The viewer's own cards (``hand_cards``: the good and "but" ones together)."""

    positive: list[CardView]
    negative: list[CardView]
    neutral: CardView | None


class Supervotes(TypedDict):
    """Whether a seat still holds its SUPER ACCEPT and its SUPER REJECT."""

    yes: bool
    no: bool


class OwnPackSize(TypedDict):
    """An own pack as views name it: its cards reach a view only as they are dealt."""

    name: str
    positive: int
    negative: int


class OwnPacks(TypedDict):
    """The own packs chosen, and whether they are mixed in or played instead."""

    use: str
    packs: list[OwnPackSize]


class DilemmasOptions(TypedDict):
    """The game's options as every view shows them."""

    neutral: bool
    supervotes: bool
    coop: bool
    packs: list[str]
    own: NotRequired[OwnPacks]


class BuildMove(TypedDict):
    """Make a dilemma from a good card and a "but" card (and perhaps the neutral card)."""

    type: Literal["build"]
    positive: str
    negative: str
    neutral: str | None


class LayMove(TypedDict):
    """Coop: lay one card for a neighbour to complete."""

    type: Literal["lay"]
    card: str


class SupplyMove(TypedDict):
    """Coop: complete a neighbour's laid card."""

    type: Literal["supply"]
    card: str
    neutral: str | None


class VoteMove(TypedDict):
    """One token on each dilemma, in the order they lie."""

    type: Literal["vote"]
    votes: list[str]


DilemmasMove = BuildMove | LayMove | SupplyMove | VoteMove
"""Every move of The Game of Dilemmas, told apart by its ``type``."""


class DilemmaStory(Lead):
    """How a game was won: the winner's lead (``round`` 0: none) and what the round it
    began won them, and whether that round's win was shared (``tied``)."""

    kind: Literal["dilemma"]
    points: int
    tied: bool


class RoundStarted(TypedDict):
    """A round begins."""

    round: int


class Submitted(TypedDict):
    """A seat made its choice in ``phase`` (what, nobody sees until everyone has)."""

    seat: Seat
    phase: str


class CardsLaid(TypedDict):
    """Coop: every seat laid a card for a neighbour to complete."""

    cards: list[str]


class DilemmasRevealed(TypedDict):
    """Every dilemma of the round, shown together once all were made."""

    round: int
    dilemmas: list[DilemmaView]


DilemmasEvent = (
    Logged[Literal["round_started"], RoundStarted]
    | Logged[Literal["submitted"], Submitted]
    | Logged[Literal["cards_laid"], CardsLaid]
    | Logged[Literal["dilemmas_revealed"], DilemmasRevealed]
    | Logged[Literal["votes_revealed"], RoundView]
    | GameOver
    | Redealt
)
"""Every event The Game of Dilemmas logs, told apart by its ``kind``."""


class DilemmasOwnView(TypedDict):
    """The Game of Dilemmas' own part of a view; a spectator gets no ``hand`` nor
    ``my_submission``, and only a coop supplier a ``supply_target``."""

    title: str
    options: DilemmasOptions
    submitted: PerSeat[bool]
    supervotes: PerSeat[Supervotes]
    tokens: int
    laid: PerSeat[CardView | None]
    dilemmas: list[DilemmaView]
    history: list[RoundView]
    supply_target: NotRequired[int]
    hand: NotRequired[HandView]
    my_submission: NotRequired[DilemmasMove | None]


class DilemmasView(DilemmasOwnView, ViewOf[DilemmasMove, DilemmaStory, DilemmasEvent]):
    """A whole view of The Game of Dilemmas: its own part and the shared header."""


def hand_cards(hand: HandView) -> list[CardView]:
    """The good and the "but" cards of a hand, in that order (not the neutral card)."""
    return hand["positive"] + hand["negative"]


def read_view(view: Mapping[str, object], changed: Changed | None = None) -> DilemmasView:
    """``view`` as a ``DilemmasView``, every field checked (or
    only those ``changed`` since a view checked whole: ``check_view``); ``BadView`` says
    what is wrong."""
    check_view(view, DilemmasView, "table of The Game of Dilemmas", changed)
    return cast(DilemmasView, view)
