"""Bots: players that decide from a seat's view, never from the full state.

A bot sees exactly what a human in its seat would see (``engine.view``), so it
cannot cheat and can run on any device. Its randomness is a generator the
caller derives from the table's seed, so a game with bots replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from quandary.engine import Move, Rng


class Bot(Protocol):
    """Anything that picks one of ``view["legal_moves"]``."""

    name: str

    def choose(self, view: dict[str, Any], rng: Rng) -> Move:
        """One legal move for the seat the view belongs to."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves: the baseline every game has."""

    name = "random"

    def choose(self, view: dict[str, Any], rng: Rng) -> Move:
        """A uniformly random legal move."""
        move: Move = rng.choice(view["legal_moves"])
        return move


BOT_NAMES = ("Ada", "Bo", "Cato", "Dee", "Eli", "Fay")
"""Names bots sit under, as "Bot Ada"; one list for the lobby and for rooms."""

BotFactory = Callable[[], Bot]
LEVELS: dict[str, str] = {"random": "Random", "heuristic": "Clever"}
_BOTS: dict[str, dict[str, BotFactory]] = {}


def register_bots(game_id: str, factories: dict[str, BotFactory]) -> None:
    """Make a game's bots available by level (``random`` is always available)."""
    _BOTS[game_id] = {"random": RandomBot, **factories}


def make_bot(game_id: str, level: str) -> Bot:
    """A fresh bot for ``game_id``; an unknown level falls back to random."""
    factories = _BOTS.get(game_id, {"random": RandomBot})
    return factories.get(level, factories["random"])()


def bot_rng(seed: int, seat: int, version: int) -> Rng:
    """The generator a bot uses for one decision: fixed by table seed, seat and version."""
    return Rng.from_seed(seed).fork(seat * 1_000_003 + version)
