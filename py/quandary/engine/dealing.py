"""Dealing again: what a room's heir may hold, and how a successor deals (RULINGS §5).

While a room's host is present, a guest must never hold anything its seat
could not see at the table, not even sealed. So what the host leaves with an
heir is a *possible world* (``redeal`` for that heir's seat alone): the public
table and the heir's own hidden part exactly, everything else dealt anew from
cards the heir could not place anyway. When the host is gone, each present
owner tells the successor its own hidden part (``hidden``), which the successor
checks against the public ``commitment`` and puts back (``reinstate``); what no
present seat has seen is then dealt again with a seed every present seat
contributed to (``redeal`` for all of them).

Each game says what is hidden in its own state (``Game.redeal``, ``hidden``,
``reinstate``); this module adds the checks every game shares: cards are
conserved, a reinstated part is exactly what its owner said.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from . import moves
from .core import game_of, legal_moves
from .errors import CorruptState
from .rng import Rng
from .spec import Chooser, Json, Move


def random_chooser(rng: Rng) -> Chooser:
    """A seat's secret choice made again uniformly among its legal moves."""

    def choose(state: Any, seat: int) -> Move:
        options = legal_moves(state, seat)
        if not options:
            raise CorruptState(f"Seat {seat} has no choice to make again.")
        return moves.concrete(rng.choice(options), rng.randint)

    return choose


def redeal(state: Any, keep: Iterable[int], seed: int, choose: Chooser | None = None) -> Any:
    """``Game.redeal`` with its generator from ``seed``; choices made again at random
    unless ``choose`` is given (a successor passes its bots)."""
    game = game_of(state)
    rng = Rng.from_seed(seed)
    chooser = choose if choose is not None else random_chooser(rng.fork(1))
    out = game.redeal(state, frozenset(keep), rng, chooser)
    if Counter(game.cards(out)) != Counter(game.cards(state)):
        raise AssertionError(f"{game.spec.title} lost or made a card when dealing again.")
    return out


def hidden(state: Any, seat: int) -> Json:
    """``seat``'s own hidden part (``Game.hidden``)."""
    return game_of(state).hidden(state, seat)


def reinstate(state: Any, parts: Mapping[int, Json]) -> Any:
    """``state`` with the given seats' hidden parts put back, each checked to be exact.

    ``CorruptState`` when a part cannot be one the seat holds: the game says so,
    or the result would not hold it exactly as told.
    """
    game = game_of(state)
    for seat in parts:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise CorruptState(f"There is no seat {seat!r} to put a hidden part back at.")
    try:
        out = game.reinstate(state, parts)
    except (KeyError, TypeError, ValueError, IndexError):
        raise CorruptState("A hidden part told for a seat is not shaped like one.") from None
    if Counter(game.cards(out)) != Counter(game.cards(state)):
        raise CorruptState("A hidden part names cards that are not there to be held.")
    for seat, part in parts.items():
        if _canonical(game.hidden(out, seat)) != _canonical(part):
            raise CorruptState(f"Seat {seat}'s hidden part cannot be what it said.")
    return out


def commitment(salt: str, part: Json) -> str:
    """A salted SHA-256 of a hidden part: public, it binds the owner without telling it.

    The salt is the owner's alone (it comes with the owner's own view), so nobody
    else can test guesses of the part against the commitment; with it the owner
    can later show a successor its part and the successor can check it.
    """
    return hashlib.sha256(f"{salt}\n{_canonical(part)}".encode()).hexdigest()


def _canonical(part: Json) -> str:
    """One text for one JSON value, whatever the order of its keys."""
    return json.dumps(part, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
