"""Benchmark: the Maybe Minister heuristic bot against three random bots.

Run as ``.venv/bin/python -m bench.minister_bots [--games N]``. Plays N
four-player games with the heuristic bot's seat rotating and the expansions
varied (all 16 combinations in turn), so the win share measures the strategy
rather than a lucky seat or variant. Prints the heuristic bot's share of wins
(a shared win counts 1/k for each of k winners; the random baseline is 25%),
its average score against the random bots', how often a game ended at 25
points, and the heuristic bot's time per decision.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from typing import Any

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.bots import Bot, RandomBot, bot_rng
from quandary.games.minister.bots import HeuristicBot
from quandary.games.minister.state import TARGET

GAME = "minister"
PLAYERS = 4
KEYS = ("wildcard", "abstain", "undecided", "advanced")
COMBOS = [
    dict(zip(KEYS, flags, strict=True)) for flags in itertools.product((False, True), repeat=4)
]


def play(seed: int, clever: int, options: dict[str, Any], times: list[float]) -> dict[str, Any]:
    """One game to the end; returns the result and whether it ended at the target."""
    bots: list[Bot] = [RandomBot() for _ in range(PLAYERS)]
    bots[clever] = HeuristicBot()
    state = engine.setup(GAME, PLAYERS, options, seed)
    game = engine.game_of(state)
    while engine.result(state) is None:
        seat = game.waiting_for(state)[0]
        rng = bot_rng(seed, seat, state.version)
        if seat == clever:
            view = engine.view(state, seat)
            start = time.perf_counter()
            move = bots[seat].choose(view, rng)
            times.append((time.perf_counter() - start) * 1000.0)
        else:
            # A random bot reads only the legal moves: skip building its whole view.
            legal = engine.legal_moves(state, seat)
            move = bots[seat].choose({"game": GAME, "legal_moves": legal}, rng)
        assert move is not None
        state = engine.apply(state, seat, move)
    result = engine.result(state)
    assert result is not None
    # The game ends at the target only if someone has it when it ends.
    return {"result": result, "reached": max(result["scores"]) >= TARGET}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark and print a summary (also returned, for tests)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=30_000)
    args = parser.parse_args(argv)
    share = 0.0
    mine = theirs = 0
    reached = 0
    times: list[float] = []
    started = time.perf_counter()
    for index in range(args.games):
        clever = index % PLAYERS
        options = COMBOS[(index // PLAYERS) % len(COMBOS)]
        outcome = play(args.seed + index, clever, options, times)
        result = outcome["result"]
        if clever in result["winners"]:
            share += 1.0 / len(result["winners"])
        mine += result["scores"][clever]
        theirs += sum(result["scores"]) - result["scores"][clever]
        reached += outcome["reached"]
    games = max(1, args.games)
    times.sort()
    summary = {
        "games": args.games,
        "heuristic_share": round(share / games, 3),
        "random_baseline": 1 / PLAYERS,
        "heuristic_mean_score": round(mine / games, 2),
        "random_mean_score": round(theirs / games / (PLAYERS - 1), 2),
        "ended_at_target": round(reached / games, 3),
        "decision_ms_median": round(times[len(times) // 2], 3) if times else 0.0,
        "decision_ms_p99": round(times[int(len(times) * 0.99)], 3) if times else 0.0,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
