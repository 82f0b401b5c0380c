"""Benchmark: the Dilemmas heuristic bot against three random bots.

Run as ``.venv/bin/python -m bench.bots [--games N]``. Plays N four-player games
with the heuristic bot's seat rotating and the seeds and options varied, so the
win share measures the strategy rather than a lucky seat or variant. Prints the
heuristic bot's share of wins (a shared win counts 1/k for each of k winners;
random baseline 25%), the random bots' average share, and the heuristic bot's
time per decision, which must stay well under the 50 ms Pyodide budget. The
numbers are also written to ``bench/results-bots.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time
from pathlib import Path
from typing import Any

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.bots import Bot, RandomBot, bot_rng
from quandary.games.dilemmas.bots import HeuristicBot

ROOT = Path(__file__).resolve().parent.parent

GAME = "dilemmas"
PLAYERS = 4
PACKS = (["family"], ["deep-end"], ["family", "deep-end"])
FLAGS = list(itertools.product((False, True), repeat=3))
RESULTS = ROOT / "bench" / "results-bots.json"


def table(index: int, base_seed: int) -> tuple[int, int, dict[str, Any]]:
    """(seed, heuristic seat, options) of game ``index``: every seat and variant in turn."""
    neutral, supervotes, coop = FLAGS[(index // PLAYERS) % len(FLAGS)]
    packs = PACKS[(index // (PLAYERS * len(FLAGS))) % len(PACKS)]
    options = {"neutral": neutral, "supervotes": supervotes, "coop": coop, "packs": packs}
    return base_seed + index, index % PLAYERS, options


def play(
    seed: int,
    clever_seat: int,
    options: dict[str, Any],
    times: dict[str, list[float]],
    invert: bool = False,
) -> tuple[list[int], list[int]]:
    """Play one game to the end; return winners and scores, add decision times by phase.

    With ``invert`` the table is turned round: three heuristic bots and one random
    bot in ``clever_seat`` (and only the first heuristic bot is timed).
    """
    bots: list[Bot] = [RandomBot() for _ in range(PLAYERS)]
    bots[clever_seat] = HeuristicBot()
    if invert:
        bots = [RandomBot() if s == clever_seat else HeuristicBot() for s in range(PLAYERS)]
        timed = (clever_seat + 1) % PLAYERS
    else:
        timed = clever_seat
    state = engine.setup(GAME, PLAYERS, options, seed)
    while engine.result(state) is None:
        for seat in engine.game_of(state).waiting_for(state):
            view = engine.view(state, seat)
            rng = bot_rng(seed, seat, state.version)
            if seat == timed:
                start = time.perf_counter()
                move = bots[seat].choose(view, rng)
                spent = (time.perf_counter() - start) * 1000.0
                times.setdefault(view["phase"], []).append(spent)
            else:
                move = bots[seat].choose(view, rng)
            state = engine.apply(state, seat, move)
    result = engine.result(state)
    assert result is not None
    return result["winners"], result["scores"]


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print a summary and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=20_000, help="seed of the first game")
    args = parser.parse_args(argv)

    clever = 0.0
    others = 0.0
    by_phase: dict[str, list[float]] = {}
    by_variant: dict[str, list[float]] = {}
    points = {"heuristic": 0, "random": 0}
    lone_random = 0.0
    for index in range(args.games):
        seed, seat, options = table(index, args.seed)
        winners, scores = play(seed, seat, options, by_phase)
        share = 1.0 / len(winners)
        won = share if seat in winners else 0.0
        clever += won
        others += share * sum(1 for w in winners if w != seat)
        points["heuristic"] += scores[seat]
        points["random"] += sum(scores) - scores[seat]
        turned, _ = play(seed, seat, options, {}, invert=True)
        lone_random += 1.0 / len(turned) if seat in turned else 0.0
        label = ",".join(k for k in ("neutral", "supervotes", "coop") if options[k]) or "base"
        by_variant.setdefault(label, []).append(won)

    games = max(1, args.games)
    times = [t for phase in by_phase.values() for t in phase]
    votes = by_phase.get("vote", [])
    summary: dict[str, Any] = {
        "games": args.games,
        "players": PLAYERS,
        "heuristic_win_share": clever / games,
        "random_win_share_avg": others / games / (PLAYERS - 1),
        "random_baseline": 1.0 / PLAYERS,
        "mean_points": {
            "heuristic": points["heuristic"] / games,
            "random": points["random"] / games / (PLAYERS - 1),
        },
        "lone_random_vs_3_heuristic_win_share": lone_random / games,
        "decisions": len(times),
        "decision_ms": {
            "p50": percentile(times, 0.50) if times else 0.0,
            "p95": percentile(times, 0.95) if times else 0.0,
            "max": max(times, default=0.0),
            "mean": statistics.fmean(times) if times else 0.0,
        },
        "vote_decision_ms": {
            "p50": percentile(votes, 0.50) if votes else 0.0,
            "p95": percentile(votes, 0.95) if votes else 0.0,
            "max": max(votes, default=0.0),
        },
        "win_share_by_variant": {k: sum(v) / len(v) for k, v in sorted(by_variant.items())},
    }
    ms = summary["decision_ms"]
    print(f"games: {args.games} (4 players: 1 heuristic vs 3 random)")
    print(f"heuristic win share: {summary['heuristic_win_share']:.1%} (random baseline 25.0%)")
    print(f"random bots' average share: {summary['random_win_share_avg']:.1%}")
    mp = summary["mean_points"]
    print(f"mean points per game: heuristic {mp['heuristic']:.2f}, random {mp['random']:.2f}")
    print(
        "turned round, one random bot against three heuristic bots wins"
        f" {summary['lone_random_vs_3_heuristic_win_share']:.1%}"
    )
    print(
        f"heuristic decision time: p50 {ms['p50']:.2f} ms, p95 {ms['p95']:.2f} ms,"
        f" max {ms['max']:.2f} ms over {len(times)} decisions"
    )
    vs = summary["vote_decision_ms"]
    print(
        f"  votes only: p50 {vs['p50']:.2f} ms, p95 {vs['p95']:.2f} ms, max {vs['max']:.2f} ms"
        f" over {len(votes)} decisions"
    )
    for label, share in summary["win_share_by_variant"].items():
        print(f"  {label:<24} {share:.1%}")
    RESULTS.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return summary


if __name__ == "__main__":
    main()
