"""Royal Dilemma tournament: every bot against every other, in the manner of Axelrod.

Run as ``.venv/bin/python -m bench.royal_tournament [--games N] [--seed S]``.
Every pair of bots meets in two-player matches, N games in each seat order (so
neither the Ace's seat nor the deck favours anyone), and every bot also plays
three- and four-player mixes with rotating seats. Seeds are fixed, so a run is
reproducible. Prints a Markdown standings table: wins (a shared win counts 1/k
for each of k winners), the win share, the average margin over the best rival,
and each bot's head-to-head share against every other.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import defaultdict
from statistics import median

import quandary.games  # noqa: F401  (fills the game and bot registries)
from bench.bots import percentile
from quandary import engine
from quandary.bots import levels
from quandary.engine import Rng
from quandary.games.royal.bots import HeuristicBot
from quandary.table import Seat, Table

GAME = "royal"
BOTS = list(levels(GAME))


def play(seats: list[str], seed: int) -> list[int]:
    """One game to the end, played by the table as any game with bots is; scores by seat."""
    table = Table.new(GAME, [Seat(f"{i}", "bot", level) for i, level in enumerate(seats)], {}, seed)
    table.play_bots()
    result = engine.result(table.state)
    assert result is not None
    return list(result["scores"])


class Standings:
    """Wins, games and margins per bot, and head-to-head shares per pair."""

    def __init__(self) -> None:
        self.wins: dict[str, float] = defaultdict(float)
        self.games: dict[str, int] = defaultdict(int)
        self.margin: dict[str, float] = defaultdict(float)
        self.duel: dict[tuple[str, str], float] = defaultdict(float)
        self.duels: dict[tuple[str, str], int] = defaultdict(int)

    def add(self, seats: list[str], scores: list[int]) -> None:
        """Count one finished game."""
        top = max(scores)
        winners = [s for s, v in enumerate(scores) if v == top]
        for seat, level in enumerate(seats):
            self.games[level] += 1
            if seat in winners:
                self.wins[level] += 1 / len(winners)
            best_rival = max(v for s, v in enumerate(scores) if s != seat)
            self.margin[level] += scores[seat] - best_rival
        if len(seats) == 2:
            for seat, level in enumerate(seats):
                other = seats[1 - seat]
                self.duels[(level, other)] += 1
                if seat in winners:
                    self.duel[(level, other)] += 1 / len(winners)

    def table(self) -> str:
        """The standings as Markdown, best win share first."""
        order = sorted(BOTS, key=lambda b: -self.wins[b] / max(1, self.games[b]))
        short = [b.replace("_", " ")[:11] for b in order]
        head = "| # | bot | games | wins | share | margin | " + " | ".join(short) + " |"
        rule = "|---|---|---:|---:|---:|---:|" + "---:|" * len(order)
        rows = [head, rule]
        for rank, bot in enumerate(order, 1):
            cells = []
            for other in order:
                n = self.duels[(bot, other)]
                cells.append("—" if other == bot or not n else f"{self.duel[(bot, other)] / n:.2f}")
            games = self.games[bot]
            rows.append(
                f"| {rank} | {bot} | {games} | {self.wins[bot]:.1f} |"
                f" {self.wins[bot] / games:.0%} | {self.margin[bot] / games:+.1f} | "
                + " | ".join(cells)
                + " |"
            )
        return "\n".join(rows)


def tournament(games: int, base: int) -> Standings:
    """Pairs in both seat orders, then rotating three- and four-player mixes."""
    standings = Standings()
    seed = base
    for a, b in itertools.combinations(BOTS, 2):
        for seats in ([a, b], [b, a]):
            for _ in range(games):
                standings.add(seats, play(seats, seed))
                seed += 1
    for size in (3, 4):
        for mix in itertools.combinations(BOTS, size):
            for turn in range(size):
                seats = list(mix[turn:] + mix[:turn])
                for _ in range(max(1, games // 8)):
                    standings.add(seats, play(seats, seed))
                    seed += 1
    return standings


def main() -> None:
    """Play the tournament and print the standings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair and seat order")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    started = time.perf_counter()
    standings = tournament(args.games, args.seed)
    print(f"## Royal Dilemma tournament ({args.games} games per pair and seat order)\n")
    print(
        "Two-player matches in both seat orders, plus three- and four-player mixes. "
        "Share: wins over games (a shared win counts 1/k). Margin: average points over "
        "the best rival. Columns: the row bot's share of two-player wins against that bot.\n"
    )
    print(standings.table())
    seats = sum(standings.games.values())
    print(f"\n{seats} seats played in {time.perf_counter() - started:.1f} s.")
    decide = decision_times()
    print(
        f"\nClever bot, one decision at a four-player table: median {median(decide) * 1e3:.2f} ms,"
        f" 95th percentile {percentile(decide, 0.95) * 1e3:.2f} ms"
        " (the browser's budget is well under 50 ms)."
    )


def decision_times(decisions: int = 200) -> list[float]:
    """Seconds per decision of the Clever bot on a fresh four-player table.

    Reported, never asserted: a shared or slow machine would fail a test with a
    clock in it for no fault of the code.
    """
    view = engine.view(engine.setup(GAME, 4, {}, seed=9), 0)
    times = []
    for k in range(decisions):
        started = time.perf_counter()
        HeuristicBot().choose(view, Rng.from_seed(k))
        times.append(time.perf_counter() - started)
    return times


if __name__ == "__main__":
    main()
