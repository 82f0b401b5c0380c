"""Benchmark: how long a newcomer's first Maybe Minister game against two bots takes.

Run as ``.venv/bin/python -m bench.minister_pacing [--games N] [--speed normal]``.
Plays N seeded three-seat games as the lobby sets them up (you and two clever
bots, no expansion); the heuristic bot stands in for the newcomer's choices, so
the games last as long as a sensible player's. Counts every decision the
newcomer makes (each move of seat 0 is one: the rules skip steps with no
choice) and every reveal they read, and every move the bots make outside the
vote (in the vote the bots think while the newcomer does). The time is then
modelled: a newcomer's seconds per decision of each kind (``SECONDS``), plus
each paced bot move's mean moment at the table's bot speed.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from typing import Any

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.bots import bot_rng
from quandary.games.minister.bots import HeuristicBot
from quandary.table import BOT_SPEEDS, BotSpeed

GAME = "minister"
PLAYERS = 3
SECONDS = {
    "propose": 30.0,  # read five cards and the laws, choose a few
    "vote": 15.0,  # read the proposal, pick one stored vote, confirm
    "take": 10.0,  # compare the cards left on the side they land
    "store": 4.0,  # one click on a card with room
    "trade": 8.0,
    "collect": 5.0,
    "discard_vote": 6.0,
    "move_law": 12.0,
    "move_card": 12.0,
    "pass": 5.0,
    "shop": 10.0,
    "special": 10.0,
    "done": 4.0,
    "reveal": 10.0,  # read the votes, the result and the picking order, then Continue
}
"""A newcomer's seconds per decision, from watching the screens: reading comes first."""


def play(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One game to the end: the newcomer's decisions by kind, reveals, bot moves."""
    bot = HeuristicBot()
    state = engine.setup(GAME, PLAYERS, options, seed)
    game = engine.game_of(state)
    mine: Counter[str] = Counter()
    bots = 0
    reveals = 0
    while engine.result(state) is None:
        seat = game.waiting_for(state)[0]
        view = engine.view(state, seat)
        move = bot.choose(view, bot_rng(seed, seat, state.version))
        if seat == 0:
            mine[move["type"]] += 1
        elif state.phase != "vote":
            bots += 1
        before = state.reveals
        state = engine.apply(state, seat, move)
        reveals += state.reveals - before
    return {"mine": mine, "bots": bots, "reveals": reveals, "turns": state.turn}


def minutes(game: dict[str, Any], speed: BotSpeed) -> float:
    """The modelled length of one game, in minutes."""
    low, high = BOT_SPEEDS[speed]
    human = sum(SECONDS[kind] * n for kind, n in game["mine"].items())
    human += SECONDS["reveal"] * game["reveals"]
    return (human + game["bots"] * (low + high) / 2000) / 60


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--speed", default="normal", choices=list(BOT_SPEEDS))
    args = parser.parse_args(argv)
    games = [play(seed, {}) for seed in range(1, args.games + 1)]
    lengths = [minutes(g, args.speed) for g in games]
    kinds: Counter[str] = Counter()
    for g in games:
        kinds.update(g["mine"])
    out = {
        "games": len(games),
        "turns": statistics.mean(g["turns"] for g in games),
        "decisions": {k: round(n / len(games), 1) for k, n in kinds.most_common()},
        "reveals": statistics.mean(g["reveals"] for g in games),
        "bot_moves": statistics.mean(g["bots"] for g in games),
        "minutes_mean": round(statistics.mean(lengths), 1),
        "minutes_max": round(max(lengths), 1),
    }
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
