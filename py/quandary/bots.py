"""Bots: players that decide from a seat's view, never from the full state.

A bot sees exactly what a human in its seat would see (``engine.view``), so it
cannot cheat and can run on any device. Its randomness is a generator the
caller derives from the table's seed, so a game with bots replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar, cast

from quandary.engine import Move, Rng, ViewHeader, moves

ViewT = TypeVar("ViewT", contravariant=True)


class Bot(Protocol[ViewT]):
    """Anything that picks one of ``view["legal_moves"]``: a game's bot reads its game's
    own view type (``games/<game>/view.py``), which the engine's views are."""

    name: str

    def choose(self, view: ViewT, rng: Rng) -> Move | None:
        """One legal move for the seat the view belongs to.

        A legal move may be a template with ranges (``engine.moves``); the bot
        returns a concrete move. ``None`` means "not now", which only makes sense
        in a timed phase where doing nothing is a choice (not throwing a card).
        """
        ...


def seat_of(seat: int | None) -> int:
    """The seat a bot decides for: a view with moves to choose from is a seat's, never a
    spectator's (``None``)."""
    if seat is None:
        raise ValueError("A bot decides for a seat, not for a spectator.")
    return seat


def sent(move: Mapping[str, object]) -> Move:
    """A move a bot chose (its game's declared move type) as the plain JSON object the
    engine's door takes: the same object, only its static type widened, which mypy never
    does by itself for a TypedDict."""
    return cast(Move, move)


class RandomBot:
    """Picks uniformly among the legal moves: the baseline every game has.

    A view's legal moves never include the table clock's own moves (closing a
    timed window), so every one of them is a player's choice.
    """

    name = "random"

    def choose(self, view: ViewHeader, rng: Rng) -> Move | None:
        """A uniformly random legal move, its ranges filled in uniformly."""
        choices = view["legal_moves"]
        if not choices:
            return None
        return moves.concrete(rng.choice(choices), rng.randint)


BOT_NAMES = ("Ada", "Bo", "Cato", "Dee", "Eli", "Fay")
"""Names bots sit under, as "Bot Ada"; one list for the lobby and for rooms."""

BotFactory = Callable[[], Bot[Any]]
"""A game's bot of one level; the table gives it the views the engine makes, which are
its game's own view type."""
LEVELS: dict[str, str] = {"random": "Random", "heuristic": "Clever"}
"""The levels every game offers; a game may add characters of its own."""
_BOTS: dict[str, dict[str, BotFactory]] = {}
_LABELS: dict[str, dict[str, str]] = {}


def register_bots(
    game_id: str, factories: dict[str, BotFactory], labels: dict[str, str] | None = None
) -> None:
    """Make a game's bots available by level (``random`` is always available).

    ``labels`` names extra levels for the seat menus (``{"tit_for_tat": "Tit for
    tat"}``); without it a game offers the common ``LEVELS``.
    """
    _BOTS[game_id] = {"random": RandomBot, **factories}
    _LABELS[game_id] = {**LEVELS, **(labels or {})}


def levels(game_id: str) -> dict[str, str]:
    """The bot levels a seat of ``game_id`` can have, with their menu labels."""
    return _LABELS.get(game_id, LEVELS)


def make_bot(game_id: str, level: str) -> Bot[Any]:
    """A fresh bot for ``game_id``; an unknown level falls back to random."""
    factories = _BOTS.get(game_id, {"random": RandomBot})
    return factories.get(level, factories["random"])()


def bot_rng(seed: int, seat: int, version: int) -> Rng:
    """The generator a bot uses for one decision: fixed by table seed, seat and version."""
    return Rng.from_seed(seed).fork(seat * 1_000_003 + version)
