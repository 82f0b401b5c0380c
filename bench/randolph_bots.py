"""Benchmark: the Dilemma (Randolph) heuristic bot against random bots, in virtual time.

Run as ``.venv/bin/python -m bench.randolph_bots [--games N]``. Plays N games
through ``Table.advance`` with a virtual clock (throws happen at their planned
moments, windows close at their deadlines), one heuristic bot against random
bots, the table size (3, 4, 5), the heuristic seat and the window option
rotating. Prints the heuristic bot's share of wins (a shared win counts 1/k for
each of k winners) against the random baseline, mean points, how its throws
landed, and its time per decision. Writes ``bench/results-randolph-bots.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import quandary.games  # noqa: F401  (fills the game and bot registries)
from bench.bots import percentile  # one percentile for every benchmark
from quandary import table as table_module
from quandary.bots import Bot, make_bot
from quandary.engine import Move, Rng
from quandary.table import Seat, Table

ROOT = Path(__file__).resolve().parent.parent

GAME = "randolph"
SIZES = (3, 4, 5)
WINDOWS = ("standard", "relaxed")
RESULTS = ROOT / "bench" / "results-randolph-bots.json"


class Timed:
    """A bot wrapper that records how long each decision took, by phase."""

    def __init__(self, bot: Bot, times: dict[str, list[float]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, view: dict[str, Any], rng: Rng) -> Move | None:
        """The wrapped bot's choice, timed."""
        start = time.perf_counter()
        move = self.bot.choose(view, rng)
        self.times.setdefault(view["phase"], []).append((time.perf_counter() - start) * 1000)
        return move


def setting(index: int) -> tuple[int, int, str]:
    """(players, heuristic seat, window option) of game ``index``: all in turn."""
    players = SIZES[index % len(SIZES)]
    seat = (index // len(SIZES)) % players
    window = WINDOWS[(index // 15) % len(WINDOWS)]
    return players, seat, window


def play(seed: int, players: int, clever: int, window: str) -> Table:
    """One whole game in virtual time; returns the finished table."""
    seats = [
        Seat(f"Bot {s}", "bot", "heuristic" if s == clever else "random") for s in range(players)
    ]
    table = Table.new(GAME, seats, {"window": window}, seed)
    now = 0.0
    table.advance(now)
    while (wake := table.next_wakeup()) is not None:
        now = max(now, wake)
        table.advance(now)
    assert table.over, "the game stopped before its end"
    return table


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print a summary and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=40_000, help="seed of the first game")
    args = parser.parse_args(argv)

    times: dict[str, list[float]] = {}

    def timed_make_bot(game_id: str, level: str) -> Bot:
        bot = make_bot(game_id, level)
        return Timed(bot, times) if level == "heuristic" else bot

    table_module.make_bot = timed_make_bot  # type: ignore[attr-defined]
    share = baseline = 0.0
    points = {"heuristic": 0.0, "random": 0.0}
    by_size: dict[int, list[float]] = {}
    landings: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    start = time.perf_counter()
    for index in range(args.games):
        players, clever, window = setting(index)
        table = play(args.seed + index, players, clever, window)
        result = table.view(None)["result"]
        won = 1.0 / len(result["winners"]) if clever in result["winners"] else 0.0
        share += won
        baseline += 1.0 / players
        by_size.setdefault(players, []).append(won)
        scores = result["scores"]
        points["heuristic"] += scores[clever]
        points["random"] += (sum(scores) - scores[clever]) / (players - 1)
        for r in table.state.history:
            outcomes[r.outcome] += 1
            landings.update(t.landing for t in r.throws if t.seat == clever)
    elapsed = time.perf_counter() - start

    games = max(1, args.games)
    decisions = [t for phase in times.values() for t in phase]
    thrown = sum(landings.values()) or 1
    summary: dict[str, Any] = {
        "games": args.games,
        "heuristic_win_share": share / games,
        "random_baseline": baseline / games,
        "win_share_by_size": {
            str(k): {"share": sum(v) / len(v), "baseline": 1 / k}
            for k, v in sorted(by_size.items())
        },
        "mean_points": {k: v / games for k, v in points.items()},
        "heuristic_landings": {k: v / thrown for k, v in sorted(landings.items())},
        "round_outcomes": dict(sorted(outcomes.items())),
        "decisions": len(decisions),
        "decision_ms": {
            "p50": percentile(decisions, 0.5) if decisions else 0.0,
            "p95": percentile(decisions, 0.95) if decisions else 0.0,
            "max": max(decisions, default=0.0),
            "mean": statistics.fmean(decisions) if decisions else 0.0,
        },
        "seconds": elapsed,
    }
    print(f"games: {args.games} (1 heuristic vs random, sizes 3-5, virtual time)")
    print(
        f"heuristic win share: {summary['heuristic_win_share']:.1%}"
        f" (random baseline {summary['random_baseline']:.1%})"
    )
    for size, row in summary["win_share_by_size"].items():
        print(f"  {size} players: {row['share']:.1%} (baseline {row['baseline']:.1%})")
    mp = summary["mean_points"]
    print(f"mean points per game: heuristic {mp['heuristic']:.1f}, random {mp['random']:.1f}")
    print(
        "heuristic throws landed: "
        + ", ".join(f"{k} {v:.0%}" for k, v in summary["heuristic_landings"].items())
    )
    ms = summary["decision_ms"]
    print(
        f"heuristic decision time: p50 {ms['p50']:.3f} ms, p95 {ms['p95']:.3f} ms,"
        f" max {ms['max']:.2f} ms over {len(decisions)} decisions"
    )
    print(f"took {elapsed:.1f} s")
    RESULTS.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return summary


if __name__ == "__main__":
    main()
