"""Random playouts and option combinations for the conformance suite."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

from quandary import engine
from quandary.engine import Game


def option_combos(game: Game) -> list[dict[str, Any]]:
    """Every combination of flags and choices, with multi options tried one by one and all."""
    axes: list[list[tuple[str, Any]]] = []
    for opt in game.spec.options:
        values = [c for c, _ in opt.choices]
        if opt.kind == "flag":
            axes.append([(opt.key, False), (opt.key, True)])
        elif opt.kind == "choice":
            axes.append([(opt.key, v) for v in values])
        elif opt.kind == "data":
            axes.append([(opt.key, opt.default)])
        else:
            axes.append([(opt.key, [v]) for v in values] + [(opt.key, values)])
    return [dict(combo) for combo in itertools.product(*axes)]


def tables(game: Game, count: int) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(seed, players, options) for ``count`` games covering every size and combination."""
    sizes = range(game.spec.min_players, game.spec.max_players + 1)
    combos = option_combos(game)
    for i in range(count):
        yield 1000 + i, list(sizes)[i % len(sizes)], combos[(i // len(sizes)) % len(combos)]


def covering(game: Game, chunks: int) -> int:
    """The fewest playouts, in whole ``chunks``, that play every cell of ``game`` once
    (``tables`` plays every cell before any cell twice)."""
    cells = (game.spec.max_players - game.spec.min_players + 1) * len(option_combos(game))
    return -(-cells // chunks) * chunks


def roundtrip(state: Any) -> Any:
    """The state after a trip through JSON text."""
    return engine.from_json(json.loads(engine.dumps(state)))


def pick_move(state: Any, chooser: random.Random) -> tuple[int, Any] | None:
    """A random (seat, legal move), or None when nobody can act and no clock is running.

    When no seat can act but a timed window is open, time passes: the clock's due
    move at its deadline, under the clock's seat (as ``Table`` records it). Apply
    the result with ``play``, which sends a clock's move the authority's way.
    """
    seats = [s for s in range(state.players) if engine.legal_moves(state, s)]
    if not seats:
        clock = engine.clock(state)
        if clock is None:
            return None
        return clock.seat, clock.due | {"at": clock.deadline}
    seat = chooser.choice(seats)
    template = chooser.choice(engine.legal_moves(state, seat))
    return seat, engine.moves.concrete(template, chooser.randint)


def play(state: Any, seat: int, move: Any) -> Any:
    """``engine.apply``, or ``engine.apply_authority`` for a move of the table's clock."""
    if isinstance(move, dict) and move.get("type") in engine.game_of(state).spec.authority_moves:
        return engine.apply_authority(state, move)
    return engine.apply(state, seat, move)
