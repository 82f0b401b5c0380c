"""Every log event of seeded playouts of each game, as the engine wrote them (for the
sentence tests: real events, not hand-made ones)."""

from __future__ import annotations

import collections
import functools
import random
from typing import Any

from quandary import engine
from tests.conformance.playout import play

ALL_EXPANSIONS = {"wildcard": True, "abstain": True, "undecided": True, "advanced": True}
Seeded = list[tuple[int, int, dict[str, Any] | None]]
"""Seeded playouts: (seed, players, options) each."""
PLAYOUTS: dict[str, Seeded] = {
    "dilemmas": [
        (1, 3, None),
        (2, 4, {"supervotes": True}),
        (3, 5, {"neutral": True}),
        (4, 3, {"coop": True}),
        (5, 6, {"coop": True, "neutral": True}),
    ],
    "randolph": [(seed, 3 + seed % 3, None) for seed in range(1, 9)],
    "minister": [(seed, 3 + seed % 4, ALL_EXPANSIONS) for seed in range(1, 23)],
    "royal": [(seed, 2 + seed % 3, None) for seed in range(1, 9)],
}
"""The games whose rare events need options or many seeds to be reached."""


def playouts(game: str) -> Seeded:
    """The game's seeded playouts: its own list above, else eight seeds round its
    player counts with its default options (a new game needs no entry here)."""
    if game in PLAYOUTS:
        return PLAYOUTS[game]
    spec = engine.spec_of(game)
    span = spec.max_players - spec.min_players + 1
    return [(seed, spec.min_players + seed % span, None) for seed in range(1, 9)]


def _pick(state: Any, chooser: random.Random, tried: collections.Counter[str]) -> Any:
    """A random legal move, of the type this game has tried least so far.

    Plain random play almost never reaches the rare moves (a special resource
    card, two votes moved onto a red card); balancing the types does.
    """
    seats = [s for s in range(state.players) if engine.legal_moves(state, s)]
    if not seats:
        clock = engine.clock(state)
        return None if clock is None else (clock.seat, clock.due | {"at": clock.deadline})
    seat = chooser.choice(seats)
    moves = engine.legal_moves(state, seat)
    least = min(tried[m["type"]] for m in moves)
    template = chooser.choice([m for m in moves if tried[m["type"]] == least])
    tried[template["type"]] += 1
    return seat, engine.moves.concrete(template, chooser.randint)


@functools.cache
def events(game: str) -> list[tuple[int, dict[str, Any]]]:
    """(players, event) for every event of the game's playouts, in order."""
    found = []
    for seed, players, options in playouts(game):
        state = engine.setup(game, players, options, seed)
        chooser, tried = random.Random(seed), collections.Counter[str]()
        seen: list[dict[str, Any]] = []
        shown: list[dict[str, Any]] = []
        for _ in range(20_000):
            log = [{"kind": e["kind"], "data": e["data"]} for e in engine.view(state, None)["log"]]
            seen += _new(shown, log)
            shown = log
            step = _pick(state, chooser, tried)
            if step is None:
                break
            state = play(state, *step)
        found += [(players, event) for event in seen]
    return found


def _new(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events at the end of ``after`` that ``before`` did not show.

    A game that keeps only its last few events (Maybe Minister) slides its log,
    so an event's index is not stable; the overlap of the two windows is.
    """
    for fresh in range(len(after) + 1):
        keep = len(after) - fresh
        if keep <= len(before) and after[:keep] == before[len(before) - keep :]:
            return after[keep:]
    return after
