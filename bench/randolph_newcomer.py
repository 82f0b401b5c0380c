"""Benchmark: can a slow newcomer get a card down in Dilemma's windows?

Run as ``.venv/bin/python -m bench.randolph_newcomer [--games N]``. Plays N games
per window setting through ``Table.advance`` in virtual time, at the lobby's
default table (you and two clever bots). The human in seat 0 is scripted as a
slow newcomer: in every window it may throw in, it waits ``REACTION_MS`` after
the countdown's "throw!", takes ``AIM_MS`` to aim, and lets go of a card (of
another value than the challenge when it has one) with a newcomer's shaky hand.

Prints, per setting, the share of windows in which that throw was accepted (a
card down; it must be 100% at the default, relaxed, setting), how often it was
the duelling card, and the newcomer's share of wins. The browser measures the
same with real drags in tests/e2e/test_randolph_game.py. Writes
``bench/results-randolph-newcomer.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.engine import GameError, Rng
from quandary.table import Seat, Table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results-randolph-newcomer.json"
SETTINGS = ("first", "relaxed", "standard", "quick")
REACTION_MS = 1500
AIM_MS = 1000


def newcomer_throw(view: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A card of another value if there is one, thrown at the centre with a shaky hand."""
    cards = view["hands"][view["seat"]]  # whether the throw is still allowed is the table's call
    other = [c for c in cards if c != view["challenge"]]
    card = rng.choice(other or cards)
    return {
        "type": "throw",
        "card": card,
        "aim": rng.randint(-12, 12),
        "power": rng.randint(35, 70),
        "spin": rng.randint(-30, 30),
        "window": view["window"]["id"],
    }


def play(seed: int, setting: str) -> dict[str, Any]:
    """One game; the newcomer's windows, throws accepted and duels, and the result."""
    seats = [Seat("You", "human"), Seat("Bot Ada", "bot"), Seat("Bot Bo", "bot")]
    table = Table.new("randolph", seats, {"window": setting}, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    now = 0.0
    table.advance(now)
    windows = accepted = 0
    refusals: list[str] = []
    handled: set[int] = set()
    due: float | None = None
    aimed: dict[str, Any] = {}
    while not table.over:
        if table.humans_to_act() and (clock := engine.clock(table.state)) is None:
            view = table.view(0)  # the newcomer's challenge or duel: decided at once
            move = (
                {"type": "challenge", "card": view["legal_moves"][-1]["card"]}
                if view["phase"] == "challenge"
                else {"type": "duel", "choice": "peace"}
            )
            table.submit(0, move, now)
            table.advance(now)
            continue
        clock = engine.clock(table.state)
        if clock is not None and clock.window not in handled and table.humans_to_act():
            handled.add(clock.window)
            opened = now - table.elapsed(now)  # "throw!", on this clock
            due = opened + REACTION_MS + AIM_MS
            aimed = newcomer_throw(table.view(0), rng)  # the card picked up, for this window
            windows += 1
        wake = table.next_wakeup()
        times = [t for t in (wake, due) if t is not None]
        assert times, "the game stopped before its end"
        now = max(now, min(times))
        if due is not None and now >= due:
            due = None
            try:
                table.submit(0, aimed, now)
                accepted += 1
            except GameError as exc:
                refusals.append(exc.message)
        table.advance(now)
    result = table.view(None)["result"]
    duels = sum(1 for r in table.state.history if r.opponent == 0)
    won = 1 / len(result["winners"]) if 0 in result["winners"] else 0.0
    return {
        "windows": windows,
        "accepted": accepted,
        "refusals": refusals,
        "duels": duels,
        "won": won,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print a summary and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per setting (default 200)")
    parser.add_argument("--seed", type=int, default=70_000, help="seed of the first game")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    summary: dict[str, Any] = {
        "games_per_setting": args.games,
        "reaction_ms": REACTION_MS,
        "aim_ms": AIM_MS,
        "settings": {},
    }
    print(f"slow newcomer (react {REACTION_MS} ms, aim {AIM_MS} ms) against two clever bots")
    for setting in SETTINGS:
        games = [play(args.seed + i, setting) for i in range(args.games)]
        windows = sum(g["windows"] for g in games)
        accepted = sum(g["accepted"] for g in games)
        refusals = [r for g in games for r in g["refusals"]]
        row = {
            "windows": windows,
            "card_down_share": accepted / max(1, windows),
            "refused": len(refusals),
            "refusal_examples": sorted(set(refusals))[:3],
            "duels_per_game": sum(g["duels"] for g in games) / max(1, len(games)),
            "newcomer_win_share": sum(g["won"] for g in games) / max(1, len(games)),
        }
        summary["settings"][setting] = row
        print(
            f"  {setting:8}: a card down in {accepted}/{windows} windows"
            f" ({row['card_down_share']:.1%}); duels per game {row['duels_per_game']:.1f};"
            f" newcomer's win share {row['newcomer_win_share']:.1%} (baseline 33.3%)"
        )
    summary["seconds"] = time.perf_counter() - start
    print(f"took {summary['seconds']:.1f} s")
    RESULTS.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return summary


if __name__ == "__main__":
    main()
