"""Game records to keep and share: a finished game as versioned JSON, and its replay.

A record is what a player downloads, opens again from the lobby or sends as a
replay link. It holds no state, only what rebuilds one through the engine's one
door: the game, its options, who sat where, the seed and every accepted move
(the engine's own ``Record``, which the saves and the room already keep), plus
the result the game ended with::

    {"format": "quandary-record", "version": 1, "game": "royal",
     "options": {...}, "seats": [{"name": "Ada", "kind": "human"}, ...],
     "seed": 12345, "moves": [[0, {"type": "..."}], ...],
     "result": {"scores": [...], "winners": [...]}}

A room whose host left plays on from a successor's new deal, which no seed can
rebuild: its record carries that deal as ``start`` (the whole state, secrets
included, which is fine once the game is over: every hand may be shown then).

A record comes from anywhere (a file, a link someone sent), so ``parse`` trusts
nothing: the text's size and nesting are bounded before it is read, every field
is type-checked, the moves are replayed through ``engine.apply`` and the game
must end with exactly the stored result. Anything else is a ``BadRecord`` with a
sentence a player can read, and nothing is shown.

Pure standard library, like the engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from quandary import engine
from quandary.engine import BadSetup, GameError, Move, Record
from quandary.engine.spec import Json
from quandary.table import Table
from quandary.text import clean_line

FORMAT = "quandary-record"
VERSION = 1
MAX_CHARS = 400_000
"""The longest record text read: a long Maybe Minister game is about a tenth of it."""
MAX_DEPTH = 32
"""Deeper than any record nests (a successor's start state, about ten levels)."""
MAX_MOVES = 20_000
MAX_NAME = 40
MAX_SEED = 2**64
KEYS = frozenset({"format", "version", "game", "options", "seats", "seed", "moves", "result"})
_BRACKETS = re.compile(r"[\[\]{}]")


class SeatJson(TypedDict):
    """A seat as a record names it."""

    name: str
    kind: str


class ResultJson(TypedDict):
    """The result a record's game ended with."""

    scores: list[int]
    winners: list[int]


class RecordJson(TypedDict):
    """A record as JSON data: what ``build`` makes, ``dumps`` writes and ``parse`` reads."""

    format: str
    version: int
    game: str
    options: dict[str, Json]
    seats: list[SeatJson]
    seed: int
    moves: list[tuple[int, Move]]
    result: ResultJson
    start: NotRequired[dict[str, Json]]


class BadRecord(ValueError):
    """A record that cannot be shown, and why, in a sentence for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class SeatInfo:
    """Who sat in a seat, as the record names them."""

    name: str
    kind: str
    """"human" or "bot"."""


@dataclass(frozen=True)
class GameRecord:
    """A checked record and every position of its game, from the deal to the end."""

    record: Record
    seats: tuple[SeatInfo, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    states: tuple[Any, ...]
    """The state before any move, then after each move: ``len(moves) + 1`` positions."""

    @property
    def game(self) -> str:
        """The game's id."""
        return self.record.game

    @property
    def moves(self) -> tuple[tuple[int, Any], ...]:
        """Every accepted move, with its seat, in order."""
        return self.record.moves

    def to_json(self) -> RecordJson:
        """This checked record as JSON data, to download or send again.

        Made from what ``parse`` checked, not from the text it was given: a record
        passed on is exactly one that replays to its result.
        """
        seats: list[SeatJson] = [{"name": s.name, "kind": s.kind} for s in self.seats]
        return _as_json(self.record, seats, self.scores, self.winners)


def _as_json(
    record: Record, seats: list[SeatJson], scores: Sequence[int], winners: Sequence[int]
) -> RecordJson:
    """The one shape of a record's JSON, whether built from a table or read back."""
    data: RecordJson = {
        "format": FORMAT,
        "version": VERSION,
        "game": record.game,
        "options": record.options,
        "seats": seats,
        "seed": record.seed,
        "moves": list(record.moves),
        "result": {"scores": list(scores), "winners": list(winners)},
    }
    if record.start is not None:
        data["start"] = record.start
    return data


def build(table: Table) -> RecordJson:
    """The record of a finished game on ``table`` as JSON data.

    ``ValueError`` if the game is not over: a record of a game in progress
    would tell its secrets (the seed deals every hand).
    """
    told = engine.result(table.state)
    if told is None:
        raise ValueError("Only a finished game has a record to share.")
    seats: list[SeatJson] = [
        {"name": _shown_name(s.name, n), "kind": s.kind} for n, s in enumerate(table.seats)
    ]
    return _as_json(table.record, seats, told["scores"], told["winners"])


def _shown_name(name: str, seat: int) -> str:
    """A seat's name as a record may hold it: a name typed on this device may hold a
    tab or an invisible reordering character, which ``parse`` refuses in a record."""
    return clean_line(name, MAX_NAME) or f"Player {seat + 1}"


def dumps(data: RecordJson) -> str:
    """A record as compact JSON text (what a file or a link holds)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def game_named(text: str) -> str:
    """The game a record's text names, unchecked, for its file name ("" if none).

    >>> game_named('{"game": "royal"}'), game_named("[[[")
    ('royal', '')
    """
    try:
        data = json.loads(text) if len(text) <= MAX_CHARS else None
    except (ValueError, RecursionError):
        return ""
    game = data.get("game") if isinstance(data, dict) else None
    return game if isinstance(game, str) else ""


def file_name(game: str) -> str:
    """A file name for a record of ``game``: "quandary-royal-record.json"."""
    safe = "".join(c for c in game if c.isalnum()) or "game"
    return f"quandary-{safe}-record.json"


def parse(text: str) -> GameRecord:
    """A record read from ``text`` and replayed to its stored result, or ``BadRecord``.

    >>> parse('{"format": "a-spreadsheet"}')
    Traceback (most recent call last):
    ...
    quandary.replay.BadRecord: This is not a Quandary game record.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        raise BadRecord(
            f"This record is too large to open (more than {MAX_CHARS // 1000} thousand characters)."
        )
    _check_depth(text)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadRecord("This is not a Quandary game record: it is not readable JSON.") from None
    return read(data)


def read(data: Any) -> GameRecord:
    """``parse`` for data already read from JSON."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRecord("This is not a Quandary game record.")
    version = data.get("version")
    if type(version) is not int:
        raise BadRecord("This game record is damaged: it does not say its version.")
    if version > VERSION:
        raise BadRecord(
            "This game record was made by a newer version of Quandary: reload the page"
            " to update, then open it again."
        )
    if version != VERSION:
        raise BadRecord(f"This game record has an unknown version ({version}).")
    extra = set(data) - KEYS - {"start"}
    missing = KEYS - set(data)
    if extra or missing:
        field = sorted(missing or extra)[0]
        what = "lacks" if missing else "has an unknown field"
        raise BadRecord(f"This game record is damaged: it {what} {field!r}.")
    record = _record(data)
    seats = _seats(data["seats"])
    scores, winners = _result(data["result"])
    states = _replay(record)
    told = engine.result(states[-1])
    if told is None:
        raise BadRecord("This game record does not reach the end of its game, so it is not shown.")
    if tuple(told["scores"]) != scores or tuple(told["winners"]) != winners:
        raise BadRecord(
            "This game record's moves do not lead to the result it claims, so it is not shown."
        )
    return GameRecord(record, seats, scores, winners, states)


def _check_depth(text: str) -> None:
    """Refuse deep nesting before ``json`` reads it (its recursion could end the page).

    Brackets inside texts count too: that only makes the bound stricter, and no
    honest record has names full of brackets.
    """
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise BadRecord("This game record is damaged: it is nested too deeply.")


def _record(data: dict[str, Any]) -> Record:
    """The engine's record from the checked fields."""
    game, options, seed, moves = data["game"], data["options"], data["seed"], data["moves"]
    if not isinstance(game, str):
        raise BadRecord("This game record is damaged: its game is not named.")
    try:
        spec = engine.spec_of(game)
    except BadSetup:
        raise BadRecord(
            "This game record is of a game this version of Quandary does not know."
        ) from None
    if not isinstance(options, dict):
        raise BadRecord("This game record is damaged: its options are not readable.")
    try:
        if spec.normalise_options(options) != options:
            raise BadRecord("This game record is damaged: its options are incomplete.")
    except BadSetup as exc:
        raise BadRecord(f"This game record is damaged: {exc.message}") from None
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        raise BadRecord("This game record is damaged: its seed is not a whole number.")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise BadRecord("This game record is damaged: its moves are not a list.")
    played: list[tuple[int, Move]] = []
    for number, item in enumerate(moves, start=1):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or type(item[0]) is not int
            or not isinstance(item[1], dict)
        ):
            raise BadRecord(f"This game record is damaged: move {number} is not readable.")
        played.append((item[0], item[1]))
    seats = data["seats"]
    players = len(seats) if isinstance(seats, list) else 0
    try:
        spec.check_players(players)
    except BadSetup as exc:
        raise BadRecord(f"This game record is damaged: {exc.message}") from None
    start = data.get("start")
    if start is not None and not isinstance(start, dict):
        raise BadRecord("This game record is damaged: its starting deal is not readable.")
    return Record(game, players, options, seed, tuple(played), start)


def _seats(data: Any) -> tuple[SeatInfo, ...]:
    if not isinstance(data, list):
        raise BadRecord("This game record is damaged: its seats are not a list.")
    seats = []
    for seat in data:
        if (
            not isinstance(seat, dict)
            or set(seat) != {"name", "kind"}
            or not isinstance(seat["name"], str)
            or not seat["name"]
            or seat["name"] != clean_line(seat["name"], MAX_NAME)
            or seat["kind"] not in ("human", "bot")
        ):
            raise BadRecord("This game record is damaged: a seat's name or kind is unreadable.")
        seats.append(SeatInfo(seat["name"], seat["kind"]))
    return tuple(seats)


def _result(data: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    def numbers(value: Any) -> bool:
        return isinstance(value, list) and all(type(v) is int for v in value)

    if (
        not isinstance(data, dict)
        or set(data) != {"scores", "winners"}
        or not numbers(data["scores"])
        or not numbers(data["winners"])
    ):
        raise BadRecord("This game record is damaged: its result is not readable.")
    return tuple(data["scores"]), tuple(data["winners"])


def _replay(record: Record) -> tuple[Any, ...]:
    """Every position of the game, each move through the engine's one door.

    The same path as ``Record.replay`` (the clock's moves through the authority's
    door), keeping each position so a player can step through them.
    """
    try:
        if record.start is not None:
            state = engine.from_json(record.start)
            if state.game != record.game or state.players != record.players:
                raise BadRecord(
                    "This game record is damaged: its starting deal is of another game."
                )
        else:
            state = engine.setup(record.game, record.players, record.options, record.seed)
    except GameError as exc:
        raise BadRecord(f"This game record is damaged: {exc.message}") from None
    clock_only = engine.game_of(state).spec.authority_moves
    states = [state]
    for number, (seat, move) in enumerate(record.moves, start=1):
        try:
            if move.get("type") in clock_only:
                state = engine.apply_authority(state, move)
            else:
                state = engine.apply(state, seat, move)
        except GameError as exc:
            raise BadRecord(
                f"This game record does not replay: move {number} was refused"
                f" ({exc.message}), so it is not shown."
            ) from None
        states.append(state)
    return tuple(states)
