"""What a seat sees of a game of Pebbles: its types, and the JSON built to them.

Every seat sees the same table (hand sizes, the bag's size, the discarded
pebbles, every revealed round and who has picked this round); a seat also sees
its own hand and its own pick. A spectator sees the table only. The renderer
(``render.py``) takes these types, and ``read_view`` checks a view from another
device against them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from quandary.engine import GameOver, LeadStory, Logged, Redealt, ViewOf
from quandary.engine.typed import Changed, PerSeat, Seat, check_view

from .state import PebblesState, Round


class RoundView(TypedDict):
    """A revealed round: every seat's pick, who scored (None: nobody) and how much."""

    round: int
    picks: PerSeat[str]
    winner: Seat | None
    points: int


class PebblesOptions(TypedDict):
    """The options the table was set up with, public to all: the agreed rounds."""

    rounds: str


class PebblesOwnView(TypedDict):
    """Pebbles' own part of a view; ``hand`` and ``picked`` only in a seat's own view."""

    title: str
    options: PebblesOptions
    hand_sizes: PerSeat[int]
    bag: int
    discard: list[str]
    submitted: PerSeat[bool]
    history: list[RoundView]
    hand: NotRequired[list[str]]
    picked: NotRequired[str | None]


class PickMove(TypedDict):
    """Pick a pebble from your hand, in secret: Pebbles' only move."""

    type: Literal["pick"]
    pebble: str


class GameStarted(TypedDict):
    """The game begins: how many rounds it will last."""

    rounds: int


class Submitted(TypedDict):
    """A seat picked (what, nobody sees until everyone has)."""

    seat: Seat
    round: int


PebblesEvent = (
    Logged[Literal["game_started"], GameStarted]
    | Logged[Literal["submitted"], Submitted]
    | Logged[Literal["round_over"], RoundView]
    | GameOver
    | Redealt
)
"""Every event a game of Pebbles logs, told apart by its ``kind``."""


class PebblesView(PebblesOwnView, ViewOf[PickMove, LeadStory, PebblesEvent]):
    """A whole view of a game of Pebbles: its own part and the shared header."""


def read_view(view: Mapping[str, object], changed: Changed | None = None) -> PebblesView:
    """``view`` as a ``PebblesView``, every field checked (or only those ``changed``
    since a view checked whole: ``check_view``); ``BadView`` says what is wrong."""
    check_view(view, PebblesView, "table of Pebbles", changed)
    return cast(PebblesView, view)


def round_json(done: Round) -> RoundView:
    """A finished round as every viewer sees it."""
    return {
        "round": done.number,
        "picks": list(done.picks),
        "winner": done.winner,
        "points": done.points,
    }


def own_view(state: PebblesState, seat: int | None) -> PebblesOwnView:
    """What ``seat`` may know of ``state`` (``None``: a spectator)."""
    out: PebblesOwnView = {
        "title": "Pebbles",
        "options": {"rounds": state.options["rounds"]},
        "hand_sizes": [len(h) for h in state.hands],
        "bag": len(state.bag),
        "discard": list(state.discard),
        "submitted": [p is not None for p in state.picks],
        "history": [round_json(r) for r in state.history],
    }
    if seat is not None:
        out["hand"] = list(state.hands[seat])
        out["picked"] = state.picks[seat]
    return out
