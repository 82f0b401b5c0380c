"""The state of a game of Maybe Minister, as immutable values.

Hidden: each hand, the decree deck's and vote deck's order, the votes stored on
each player's won cards (face down: the owner knows them, others see how many),
the votes drawn but not yet stored, and every vote cast until the reveal.
Public: the proposal on the table, enacted laws and the votes moved onto them,
won cards and their side, the reveal of each vote, abstain counts and bonuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, TypeVar

from quandary.engine import Event, GameState, Rng

Phase = Literal[
    "shop_start", "propose", "vote", "pick", "collect", "move", "shop_end", "powers", "over"
]
TARGET = 25
"""Points that end the game: at the end of a turn, if someone has them at that moment."""
HAND_SIZE = 5


@dataclass(frozen=True)
class Won:
    """A card a player has won: which side is up, and the vote ids stored on it."""

    card: str
    green: bool
    votes: tuple[str, ...]


@dataclass(frozen=True)
class Enacted:
    """A law in the law area, with the votes moved onto it (Undecided Voters), face up."""

    card: str
    votes: tuple[str, ...]


@dataclass(frozen=True)
class Reveal:
    """The outcome of one vote, as every player saw it at the reveal."""

    turn: int
    proposer: int
    proposal: tuple[str, ...]
    ballots: tuple[str | None, ...]
    yes: int
    no: int
    accepted: bool
    order: tuple[int, ...]
    enacted: tuple[str, ...]


@dataclass(frozen=True)
class MinisterState(GameState):
    """The whole game.

    ``actor`` is the seat whose step it is in a sequential phase; ``queue`` the
    seats still to come in a phase that goes round the table (collect, move).
    ``drawn`` are votes the actor has drawn and must still store. ``owed`` is how
    many stored votes the collecting actor must still give up (negative support)
    and ``traded`` how many resources they traded this turn. ``picks`` is the
    picking order and ``pick_at`` the position in it (cycling).
    """

    turn: int
    phase: Phase
    proposer: int
    actor: int
    queue: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    laws: tuple[Enacted, ...]
    won: tuple[tuple[Won, ...], ...]
    starters: tuple[str, ...]
    vote_deck: tuple[str, ...]
    vote_discard: tuple[str, ...]
    drawn: tuple[str, ...]
    owed: int
    traded: int
    proposal: tuple[str, ...]
    ballots: tuple[str | None, ...]
    reveal: Reveal | None
    reveals: int
    picks: tuple[int, ...]
    pick_at: int
    abstains: tuple[int, ...]
    bonus: tuple[int, ...]
    log: tuple[Event, ...]
    turn_scores: tuple[tuple[int, ...], ...] = ()
    """Every seat's score at the end of each turn so far, for the end screen's chart."""
    log_start: int = 0
    """How many of the game's events ``log`` no longer keeps (it keeps the recent ones)."""


T = TypeVar("T")
_FIELDS: dict[type, frozenset[str]] = {}


def replace(value: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these frozen values, at a fraction of its cost.

    The generic one goes through ``__init__`` with every field by name; a move
    replaces the state several times, and the state has thirty-odd fields, so that
    was a large share of every move. None of these classes checks anything in
    ``__init__`` (no ``__post_init__``), so copying the fields is the same value.
    An unknown field is still refused, as ``dataclasses.replace`` refuses it.
    """
    kind = type(value)
    known = _FIELDS.get(kind)
    if known is None:
        known = _FIELDS[kind] = frozenset(f.name for f in fields(kind))  # type: ignore[arg-type]
    if not changes.keys() <= known:
        raise TypeError(f"{kind.__name__} has no field {sorted(changes.keys() - known)[0]!r}")
    new = object.__new__(kind)
    new.__dict__.update(value.__dict__)
    new.__dict__.update(changes)
    return new


# -- changes every step makes: the log and the draws (``turn`` and ``upkeep`` share them)

LOG_KEPT = 12
"""Public events a state keeps (older ones are counted in ``log_start``)."""


def log(state: MinisterState, kind: str, data: Mapping[str, object]) -> MinisterState:
    """The state with one more public event (only the recent ones are kept)."""
    dropped = max(0, len(state.log) - (LOG_KEPT - 1))
    return replace(
        state,
        log=(*state.log[dropped:], Event(kind, data)),
        log_start=state.log_start + dropped,
    )


def draw_decrees(state: MinisterState, seat: int, count: int) -> MinisterState:
    """``seat`` draws up to ``count`` decree cards (the deck is never reshuffled)."""
    take = min(count, len(state.deck))
    if take <= 0:
        return state
    drawn = state.deck[len(state.deck) - take :][::-1]
    hands = list(state.hands)
    hands[seat] = hands[seat] + drawn
    return replace(state, hands=tuple(hands), deck=state.deck[: len(state.deck) - take])


def draw_votes(state: MinisterState, count: int) -> MinisterState:
    """The actor draws ``count`` votes into ``drawn``; the discards are reshuffled if needed."""
    deck, discard = list(state.vote_deck), list(state.vote_discard)
    rng = Rng(state.rng)
    got: list[str] = []
    for _ in range(count):
        if not deck:
            if not discard:
                break
            deck, discard = rng.shuffled(discard), []
        got.append(deck.pop())
    return replace(
        state,
        vote_deck=tuple(deck),
        vote_discard=tuple(discard),
        drawn=state.drawn + tuple(got),
        rng=rng.state,
    )
