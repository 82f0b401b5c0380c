"""The Maybe Minister bots: always legal, deterministic per seed, and the heuristic wins.

The full benchmark (1,000 games) is ``bench/minister_bots.py``; here a smaller
sample checks that the heuristic bot clearly beats random bots.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.bots import RandomBot, bot_rng, make_bot
from quandary.games.minister.bots import HeuristicBot

GAME = "minister"
KEYS = ("wildcard", "abstain", "undecided", "advanced")
COMBOS = [
    dict(zip(KEYS, flags, strict=True)) for flags in itertools.product((False, True), repeat=4)
]


def _play(seed: int, players: int, options: dict[str, Any], bots: list[Any]) -> Any:
    """A whole game, checking every bot move is one of those offered."""
    state = engine.setup(GAME, players, options, seed)
    bound = engine.get(GAME).spec.max_moves_per_seat * players
    game = engine.game_of(state)
    for _ in range(bound):
        waiting = game.waiting_for(state)
        if not waiting:
            break
        seat = waiting[0]
        view = engine.view(state, seat)
        move = bots[seat].choose(view, bot_rng(seed, seat, state.version))
        assert move in view["legal_moves"], (bots[seat].name, view["phase"], move)
        state = engine.apply(state, seat, move)
    assert engine.result(state) is not None, "the game did not end within its move bound"
    return state


@pytest.mark.parametrize("combo", range(len(COMBOS)))
def test_heuristic_and_random_bots_always_move_legally(combo: int) -> None:
    players = 3 + combo % 4
    bots: list[Any] = [HeuristicBot() if s % 2 == 0 else RandomBot() for s in range(players)]
    _play(200 + combo, players, COMBOS[combo], bots)


def test_the_heuristic_bot_is_registered_as_clever() -> None:
    assert isinstance(make_bot(GAME, "heuristic"), HeuristicBot)


def test_a_seeded_bot_decides_the_same_way_twice() -> None:
    state = engine.setup(GAME, 4, {"abstain": True}, 9)
    view = engine.view(state, 0)
    first = HeuristicBot().choose(view, bot_rng(9, 0, 0))
    assert HeuristicBot().choose(view, bot_rng(9, 0, 0)) == first


def test_the_heuristic_bot_beats_random_bots_clearly() -> None:
    games, share = 32, 0.0
    for index in range(games):
        clever = index % 4
        bots: list[Any] = [RandomBot() for _ in range(4)]
        bots[clever] = HeuristicBot()
        state = _play(7000 + index, 4, COMBOS[index % len(COMBOS)], bots)
        result = engine.result(state)
        assert result is not None
        if clever in result["winners"]:
            share += 1 / len(result["winners"])
    assert share / games > 0.5, f"heuristic share {share / games:.2f} (random baseline 0.25)"
