"""The one entry point for moves, shared by every game and every transport.

A click on this device, a bot's choice and an intent from a remote peer all
reach a game through ``apply``: it checks the seat, the move's shape and
legality, and only then asks the game for the next state, so every game gets
the same guarantees (typed errors, unchanged state on error, a version bump on
success). ``view`` is the only way state leaves the authority.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from . import moves, registry
from .codec import decode, encode
from .errors import BadSetup, CorruptState, IllegalMove, MalformedMove, OutOfTurn
from .rng import Rng
from .spec import Clock, Game, Json, Move
from .view import HEADER_KEYS, LogEntry, Result, ViewHeader


def setup(
    game_id: str, players: int, options: Mapping[str, Json] | None = None, seed: int = 0
) -> Any:
    """A new game of ``game_id`` for ``players`` seats, its randomness fixed by ``seed``."""
    game = registry.get(game_id)
    game.spec.check_players(players)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise CorruptState("A seed must be a whole number.")
    return game.setup(players, game.spec.normalise_options(options), Rng.from_seed(seed))


def game_of(state: Any) -> Game:
    """The rules that a state belongs to."""
    return registry.get(state.game)


def legal_moves(state: Any, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (empty when it cannot act)."""
    if not _is_seat(state, seat):
        return []
    return game_of(state).legal_moves(state, seat)


def apply(state: Any, seat: int, move: Any) -> Any:
    """The state after ``seat`` plays ``move``; a typed ``GameError`` if it may not.

    The given state is never modified (it is immutable), so after an error the
    caller still holds the unchanged state.
    """
    game = game_of(state)
    if not _is_seat(state, seat):
        raise MalformedMove(f"There is no seat {seat!r} at this table.")
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise MalformedMove("A move must be an object with a type.")
    game.check_shape(move)
    legal = game.legal_moves(state, seat)
    if not legal:
        if game.result(state) is not None:
            raise OutOfTurn("The game is over.")
        raise OutOfTurn("It is not your turn: you have nothing to do right now.")
    if not moves.allowed(legal, move):
        raise IllegalMove(game.explain_illegal(state, seat, move))
    after = game.transition(state, seat, move)
    return dataclasses.replace(after, version=state.version + 1)


def view(state: Any, seat: int | None) -> dict[str, Json]:
    """What ``seat`` may know, with its legal moves; ``None`` for a spectator.

    The header (``ViewHeader``) is the engine's: it comes from the game's
    ``progress`` and the state's bookkeeping. A game view that sets a header key
    itself is a programming error (two spellings of one fact), refused here.
    """
    game = game_of(state)
    if seat is not None and not _is_seat(state, seat):
        seat = None
    progress = game.progress(state)
    header: ViewHeader = {
        "game": state.game,
        "version": state.version,
        "seat": seat,
        "players": state.players,
        "waiting_for": game.waiting_for(state),
        "result": game.result(state),
        "log": _recent_log(state.log),
        "phase": progress.phase,
        "round": progress.round,
        "round_limit": progress.round_limit_json(),
        "scores": list(progress.scores),
        "legal_moves": game.legal_moves(state, seat) if seat is not None else [],
    }
    own = game.view(state, seat)
    clash = HEADER_KEYS.intersection(own)
    if clash:
        raise TypeError(
            f"The {game.spec.id} view sets {', '.join(sorted(clash))}, which only the"
            " engine's header may set: give them through the game's progress instead."
        )
    out: dict[str, Json] = dict(own)
    out.update(header)
    return out


def clock(state: Any) -> Clock | None:
    """The timed window open in ``state``, if its game has one (most games never do)."""
    timer = getattr(game_of(state), "clock", None)
    return timer(state) if timer is not None else None


def result(state: Any) -> Result | None:
    """Scores and winners once the game is over, else ``None``."""
    return game_of(state).result(state)


def to_json(state: Any) -> dict[str, Json]:
    """The full state as JSON data (authority and saves only: it holds secrets)."""
    data: dict[str, Json] = encode(state)
    return data


def from_json(data: Any) -> Any:
    """A state rebuilt from ``to_json`` output, checked field by field."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise CorruptState("The saved game is damaged: it does not say which game it is.")
    try:
        game = registry.get(data["game"])
    except BadSetup:
        raise CorruptState(f"The saved game is of an unknown game {data['game']!r}.") from None
    return decode(game.state_type, data)


def dumps(state: Any) -> str:
    """The state as a compact JSON string."""
    return json.dumps(to_json(state), separators=(",", ":"), sort_keys=True)


LOG_WINDOW = 24


def _recent_log(log: tuple[Any, ...]) -> list[LogEntry]:
    """The last events, each with its index so a client can tell which are new."""
    start = max(0, len(log) - LOG_WINDOW)
    # An event's data is JSON already (the conformance suite checks every view is),
    # so it is passed on as it is rather than re-encoded for every view.
    return [{"kind": e.kind, "data": e.data, "index": start + i} for i, e in enumerate(log[start:])]


def _is_seat(state: Any, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
