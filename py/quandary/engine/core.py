"""The one entry point for moves, shared by every game and every transport.

A click on this device, a bot's choice and an intent from a remote peer all
reach a game through ``apply``: it checks the seat, the move's shape and
legality, and only then asks the game for the next state, so every game gets
the same guarantees (typed errors, unchanged state on error, a version bump on
success). ``view`` is the only way state leaves the authority.

The clock's moves (``GameSpec.authority_moves``, such as closing a timed
window) are no seat's to make: ``legal_moves`` and ``view`` never list them,
``apply`` refuses them, and the authority makes them through
``apply_authority`` when ``clock(state)`` says one is due.
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
from .view import HEADER_KEYS, LogEntry, Result, SharedHeader, Story

CLOCK_ONLY = "Only the table's clock can do that."
"""What a seat is told when it tries a move only the authority's clock makes."""


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
    """Every move ``seat`` may make now (empty when it cannot act); never the clock's."""
    if not _is_seat(state, seat):
        return []
    game = game_of(state)
    return _players_moves(game, game.legal_moves(state, seat))


def _players_moves(game: Game, legal: list[Move]) -> list[Move]:
    """``legal`` without the moves only the authority's clock makes."""
    clock_only = game.spec.authority_moves
    if not clock_only:
        return legal
    return [m for m in legal if m["type"] not in clock_only]


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
    if move["type"] in game.spec.authority_moves:
        raise IllegalMove(CLOCK_ONLY)
    offered = game.legal_moves(state, seat)
    # The clock's seat keeps the game's own explanations ("the provocateur does
    # not throw") even though the clock's move, its only one, is not its to make.
    if not offered:
        if game.result(state) is not None:
            raise OutOfTurn("The game is over.")
        raise OutOfTurn("It is not your turn: you have nothing to do right now.")
    if not moves.allowed(_players_moves(game, offered), move):
        raise IllegalMove(game.explain_illegal(state, seat, move))
    after = game.transition(state, seat, move)
    return dataclasses.replace(after, version=state.version + 1)


def apply_authority(state: Any, move: Any) -> Any:
    """The state after the authority's clock makes ``move`` (closing a timed window).

    Only the table that times the window calls this, when ``clock(state)`` has a
    move due: ``move`` must be of ``spec.authority_moves`` and shaped like the
    clock's ``due`` (plus the ``at`` the authority stamps), and the game must
    allow it now for the clock's seat. A player's attempt never comes this way:
    ``apply`` refuses it.
    """
    game = game_of(state)
    if not isinstance(move, dict) or move.get("type") not in game.spec.authority_moves:
        raise MalformedMove(f"{game.spec.title} has no such move for the table's clock.")
    game.check_shape(move)
    timer = clock(state)
    if timer is None:
        raise OutOfTurn("No timed window is open: the table's clock has nothing to do.")
    if any(move.get(k) != v for k, v in timer.due.items()):
        raise IllegalMove("The table's clock has a different move due now.")
    if not moves.allowed(game.legal_moves(state, timer.seat), move):
        raise IllegalMove(game.explain_illegal(state, timer.seat, move))
    after = game.transition(state, timer.seat, move)
    return dataclasses.replace(after, version=state.version + 1)


def view(state: Any, seat: int | None) -> dict[str, Json]:
    """What ``seat`` may know, with its legal moves; ``None`` for a spectator.

    The header (``ViewHeader``: ``SharedHeader`` plus the seat and its legal
    moves) is the engine's: it comes from the game's
    ``progress`` and the state's bookkeeping. A game view that sets a header key
    itself is a programming error (two spellings of one fact), refused here.
    """
    game = game_of(state)
    if seat is not None and not _is_seat(state, seat):
        seat = None
    own = game.view(state, seat)
    clash = HEADER_KEYS.intersection(own)
    if clash:
        raise TypeError(
            f"The {game.spec.id} view sets {', '.join(sorted(clash))}, which only the"
            " engine's header may set: give them through the game's progress instead."
        )
    out: dict[str, Json] = dict(own)
    out.update(_common_header(state, game))
    out["seat"] = seat
    out["legal_moves"] = legal_moves(state, seat) if seat is not None else []
    return out


_LAST_HEADER: list[Any] = [None, None]
"""The last state whose seat-independent header was built, and that header."""


def _common_header(state: Any, game: Game) -> SharedHeader[Story, LogEntry]:
    """The header keys every viewer of ``state`` sees alike, built once per state.

    An authority asks for every seat's view of one state in turn (a room after
    each move, the tests at each step), so they share one header: its values are
    the same objects in each view, which callers treat as read-only. Kept by
    identity, as states are immutable.
    """
    if _LAST_HEADER[0] is state:
        shared: SharedHeader[Story, LogEntry] = _LAST_HEADER[1]
        return shared
    progress = game.progress(state)
    common: SharedHeader[Story, LogEntry] = {
        "game": state.game,
        "version": state.version,
        "players": state.players,
        "waiting_for": game.waiting_for(state),
        "result": _told_result(state, game),
        "log": _recent_log(state),
        "phase": progress.phase,
        "round": progress.round,
        "round_limit": progress.round_limit_json(),
        "scores": list(progress.scores),
    }
    _LAST_HEADER[:] = [state, common]
    return common


def clock(state: Any) -> Clock | None:
    """The timed window open in ``state``, if its game has one (most games never do)."""
    timer = getattr(game_of(state), "clock", None)
    return timer(state) if timer is not None else None


def result(state: Any) -> Result[Story] | None:
    """Scores, winners and the game's story once it is over, else ``None``."""
    return _told_result(state, game_of(state))


def _told_result(state: Any, game: Game) -> Result[Story] | None:
    """The game's result with its public story: scores round by round, the deciding moment.

    A game that tells no story (``score_history``/``story`` are optional) ends
    with the bare result; the end screen then says less.
    """
    told = game.result(state)
    if told is None:
        return None
    history = getattr(game, "score_history", None)
    story = getattr(game, "story", None)
    told = Result[Story](scores=told["scores"], winners=told["winners"])
    if history is not None:
        told["history"] = [list(scores) for scores in history(state)]
    if story is not None:
        told["story"] = dict(story(state))
    return told


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
    retired = game.spec.retired_fields
    if retired.intersection(data):
        data = {k: v for k, v in data.items() if k not in retired}
    return decode(game.state_type, data)


def dumps(state: Any) -> str:
    """The state as a compact JSON string."""
    return json.dumps(to_json(state), separators=(",", ":"), sort_keys=True)


LOG_WINDOW = 24


def _recent_log(state: Any) -> list[LogEntry]:
    """The last events, each with its index so a client can tell which are new."""
    return _indexed(state, max(0, len(state.log) - LOG_WINDOW))


def full_log(state: Any) -> list[LogEntry]:
    """Every event the state still holds, each with its index in the whole game.

    A game that keeps only its recent events (``log_start``: how many it has
    dropped) still numbers them from the game's first, so a device that gathers
    the entries of successive views can put them in order and tell what is new.
    """
    return _indexed(state, 0)


def _indexed(state: Any, start: int) -> list[LogEntry]:
    """The state's events from position ``start`` on, numbered from the game's first."""
    first = getattr(state, "log_start", 0) + start
    # An event's data is JSON already (the conformance suite checks every view is),
    # so it is passed on as it is rather than re-encoded for every view.
    return [
        {"kind": e.kind, "data": e.data, "index": first + i}
        for i, e in enumerate(state.log[start:])
    ]


def _is_seat(state: Any, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
