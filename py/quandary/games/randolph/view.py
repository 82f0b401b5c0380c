"""What a seat sees of a game of Dilemma: its types, and the JSON built to them.

Every card played is seen by everyone, so all seats get the same table. The
one thing held back is a duellist's choice until both have chosen: the view
shows only who has chosen (``submitted``), never what.

The view is declared as types (``RandolphOwnView``; with the engine's header, a
``RandolphView``), and the functions here build exactly those, so mypy follows
each field from the rules to the renderer (``web/render/randolph.py``), and
``read_view`` checks a view from another device against the same declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from quandary.engine import GameOver, LeadStory, Logged, Redealt, ViewOf
from quandary.engine.typed import Changed, PerSeat, Seat, check_view

from . import arena
from .state import Landing, Outcome, RandolphState, RoundResult, Status, Throw, starting_lives


class Seating(TypedDict):
    """Where the viewer sits at a table of ``players``, and the phase: all that
    drawing a card in the arena needs (the practice throw draws one too)."""

    seat: int | None
    players: int
    phase: str


class Landed(TypedDict):
    """A card thrown: who threw what, where it rests (x and y in arena radii) and,
    once settled, its fate and why."""

    seat: Seat
    card: int
    window: int
    landing: Landing
    x: float
    y: float
    rotation: int
    at: int
    land_at: int
    status: Status
    reason: str | None


class ArenaEntry(Landed):
    """A card in the arena now: also how long it flies, and whether it would duel."""

    flight: int
    leading: bool


class WindowView(TypedDict):
    """The open reaction window, its times in ms from its opening."""

    id: int
    deadline: int
    release_limit: int
    second: bool
    opened_round: int
    grace: int
    cap: int
    lead: int


class DuelView(TypedDict):
    """A duel under way: the two seats, the challenge and the card that took it up."""

    seats: list[Seat]
    challenge: int | None
    card: int


class DuelResult(TypedDict):
    """A finished duel: also each side's choice, shown once both were in."""

    seats: list[Seat]
    challenge: int
    card: int | None
    choices: list[Literal["peace", "conflict"]]


class RoundView(TypedDict):
    """A finished challenge; events leave out its ``arena``."""

    round: int
    provocateur: Seat
    challenge: int
    second_window: bool
    duel: DuelResult | None
    outcome: Outcome
    winner: Seat | None
    gains: PerSeat[list[int]]
    lives_lost: PerSeat[int]
    reason: str
    arena: NotRequired[list[Landed]]


class RandolphOptions(TypedDict):
    """The game's options: how long a throw window stays open."""

    window: str


class ChallengeMove(TypedDict):
    """The provocateur lays a card from hand as the challenge."""

    type: Literal["challenge"]
    card: int


class ThrowMove(TypedDict):
    """A card thrown at the arena, as the page measured the gesture; the table stamps
    its time (``at``) and drops the ``window`` it names once it has checked it."""

    type: Literal["throw"]
    card: int
    aim: int
    power: int
    spin: int
    window: NotRequired[int]


class DuelMove(TypedDict):
    """A duellist's secret choice."""

    type: Literal["duel"]
    choice: Literal["peace", "conflict"]


class Span(TypedDict):
    """The whole numbers from ``min`` to ``max`` a throw's measure may take."""

    min: int
    max: int


class ThrowOffer(TypedDict):
    """A throw the seat may make: its card, and the span of each measure of the gesture
    (aim, power, spin, and the release time ``at`` on the table's clock, in ms)."""

    type: Literal["throw"]
    card: int
    aim: Span
    power: Span
    spin: Span
    at: Span


RandolphOffer = ChallengeMove | ThrowOffer | DuelMove
"""A move a view offers its seat: a throw is offered as the spans a gesture may take."""


class DuelStory(TypedDict):
    """How a game was won by a duel: the winner's last won, against whom, for how much."""

    kind: Literal["duel"]
    seat: Seat
    round: int
    rival: Seat
    points: int


RandolphStory = DuelStory | LeadStory
"""The deciding moment of a game of Dilemma, told apart by its ``kind``."""


class RoundStarted(TypedDict):
    """A challenge begins, and who lays it."""

    round: int
    provocateur: Seat


class ChallengePlaced(TypedDict):
    """The provocateur laid ``card`` as the challenge."""

    round: int
    seat: Seat
    card: int


class CardLanded(Landed):
    """A thrown card came to rest in the arena."""

    round: int


class Settled(TypedDict):
    """A thrown card once its window closed: its fate and why."""

    seat: Seat
    card: int
    status: Status
    reason: str | None


Closing = Literal["duel", "second_window", "kept"]
"""What a closing window led to: a duel, a second window, or the challenge kept."""


class WindowClosed(TypedDict):
    """A throw window closed: what it led to, and every card thrown in it, settled."""

    round: int
    window: int
    second: bool
    at: int
    outcome: Closing
    duelling: Settled | None
    settled: list[Settled]


class SecondWindow(TypedDict):
    """No card took the challenge up: a second window opens until ``deadline`` (ms)."""

    round: int
    window: int
    deadline: int


class DuelChosen(TypedDict):
    """A duellist chose (what, nobody sees until both have)."""

    round: int
    seat: Seat


class DuelRevealed(TypedDict):
    """Both duellists' choices, shown together, and what they led to."""

    round: int
    seats: list[Seat]
    challenge: int
    card: int
    choices: list[Literal["peace", "conflict"]]
    outcome: Outcome
    winner: Seat | None
    gains: PerSeat[list[int]]
    lives_lost: PerSeat[int]


RandolphEvent = (
    Logged[Literal["round_started"], RoundStarted]
    | Logged[Literal["challenge_placed"], ChallengePlaced]
    | Logged[Literal["card_landed"], CardLanded]
    | Logged[Literal["window_closed"], WindowClosed]
    | Logged[Literal["second_window"], SecondWindow]
    | Logged[Literal["duel_chosen"], DuelChosen]
    | Logged[Literal["duel_revealed"], DuelRevealed]
    | Logged[Literal["round_over"], RoundView]
    | GameOver
    | Redealt
)
"""Every event a game of Dilemma logs, told apart by its ``kind``."""


class RandolphOwnView(TypedDict):
    """Dilemma's own part of a view: the same table for every seat."""

    title: str
    options: RandolphOptions
    provocateur: Seat
    hands: PerSeat[list[int]]
    lives: PerSeat[int]
    lives_start: int
    won: PerSeat[list[int]]
    removed: PerSeat[list[int]]
    challenge: int | None
    two_left: bool
    window: WindowView | None
    arena: list[ArenaEntry]
    duel: DuelView | None
    submitted: PerSeat[bool]
    history: list[RoundView]


class RandolphView(RandolphOwnView, ViewOf[RandolphOffer, RandolphStory, RandolphEvent]):
    """A whole view of a game of Dilemma: its own part and the shared header."""


def read_view(view: Mapping[str, object], changed: Changed | None = None) -> RandolphView:
    """``view`` as a ``RandolphView``, every field checked (or
    only those ``changed`` since a view checked whole: ``check_view``); ``BadView`` says
    what is wrong."""
    check_view(view, RandolphView, "table of Dilemma", changed)
    return cast(RandolphView, view)


def entry_json(t: Throw, leading: bool) -> ArenaEntry:
    """One card in the arena: who threw what, how, where it rests and its fate."""
    return {**landed_json(t), "flight": t.flight, "leading": leading}


def landed_json(t: Throw) -> Landed:
    """A throw as events and finished rounds tell it: where it rests and, once settled, why."""
    return {
        "seat": t.seat,
        "card": t.card,
        "window": t.window,
        "landing": t.landing,
        "x": t.x / 1000,
        "y": t.y / 1000,
        "rotation": t.rotation,
        "at": t.at,
        "land_at": t.land_at,
        "status": t.status,
        "reason": t.reason,
    }


def result_json(r: RoundResult, with_arena: bool = True) -> RoundView:
    """A finished round, for the milestone screens (the round_over event leaves out the arena)."""
    duel: DuelResult | None = None
    if r.opponent is not None:
        duel = {
            "seats": [r.provocateur, r.opponent],
            "challenge": r.challenge,
            "card": r.card,
            "choices": list(r.choices),
        }
    out: RoundView = {
        "round": r.round,
        "provocateur": r.provocateur,
        "challenge": r.challenge,
        "second_window": r.second_window,
        "duel": duel,
        "outcome": r.outcome,
        "winner": r.winner,
        "gains": [list(g) for g in r.gains],
        "lives_lost": list(r.lives_lost),
        "reason": r.reason,
    }
    if with_arena:
        out["arena"] = [landed_json(t) for t in r.throws]
    return out


def table_view(state: RandolphState, title: str, timing: arena.Timing) -> RandolphOwnView:
    """The public table (the same for every seat)."""
    number = 2 if state.window is not None and state.window.second else 1
    open_now = state.phase == "react"
    leading = None
    if open_now and state.challenge is not None:
        current = arena.current(state.arena, number)
        index = arena.duelling_index(current, state.challenge)
        leading = current[index] if index is not None else None
    window: WindowView | None = None
    if state.window is not None:
        throws = arena.current(state.arena, number)
        window = {
            "id": state.window.id,
            "deadline": arena.deadline(throws, timing),
            "release_limit": arena.release_limit(throws, timing),
            "second": state.window.second,
            "opened_round": state.window.opened_round,
            "grace": timing.grace,
            "cap": timing.cap,
            "lead": timing.lead,
        }
    duel: DuelView | None = None
    submitted = [False] * state.players
    if state.duel is not None:
        seats = [state.provocateur, state.duel.opponent]
        duel = {"seats": seats, "challenge": state.challenge, "card": state.duel.card}
        for seat, choice in zip(seats, state.duel.choices, strict=True):
            submitted[seat] = choice is not None
    return {
        "title": title,
        "options": {"window": state.options["window"]},
        "provocateur": state.provocateur,
        "hands": [list(h) for h in state.hands],
        "lives": list(state.lives),
        "lives_start": starting_lives(state.players),
        "won": [[c.value for c in pile] for pile in state.won],
        "removed": [
            sorted(c.value for c in state.removed if c.owner == s) for s in range(state.players)
        ],
        "challenge": state.challenge,
        "two_left": state.two_left,
        "window": window,
        "arena": [entry_json(t, t is leading) for t in state.arena],
        "duel": duel,
        "submitted": submitted,
        "history": [result_json(r) for r in state.history],
    }
