"""The typed header of every view: the part of a view that shared code reads.

A view is one game's own JSON plus a header that means the same in every game:
who is looking, who must act, the phase and round, the bound on rounds, the
scores, the recent log and the legal moves. The header is declared once here
(``ViewOf``); ``engine.view`` fills it from ``Game.progress`` and the
engine's own bookkeeping, so no game spells a shared word its own way.

Shared UI code reads a header through ``read_header``, which checks every key's
type and says in a sentence what is wrong: a view may come from a remote host,
and a damaged one must be refused before anything is drawn from it.

>>> header = read_header({
...     "game": "dilemmas", "version": 3, "seat": 0, "players": 3,
...     "waiting_for": [1, 2], "result": None, "log": [], "phase": "vote",
...     "round": 2, "round_limit": {"count": 5, "exact": True},
...     "scores": [0, 4, 1], "legal_moves": []})
>>> header["round_limit"]
{'count': 5, 'exact': True}
>>> read_header({"game": "dilemmas"})
Traceback (most recent call last):
...
quandary.engine.view.BadView: The view has no version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar, cast

from .errors import BadView
from .typed import Seat


class RoundLimit(TypedDict):
    """The last round there can be: exactly ``count`` rounds, or at most ``count``."""

    count: int
    exact: bool


Story = dict[str, Any]
"""The story of a finished game as shared code passes it on: each game declares its
own stories (``LeadStory`` and the game's kinds), which its view names."""
StoryT = TypeVar("StoryT")


class Result(TypedDict, Generic[StoryT]):
    """The end of a game: every seat's score and the seats that share the top score.

    The engine adds the story of the game, public and the same for every viewer,
    so an end screen can tell it on any device (a guest's, a reloaded save's):
    ``history`` holds every seat's score after each round (a turn in Maybe
    Minister, a challenge in Dilemma), oldest first; ``story`` the facts of the
    deciding moment as the game tells them (its ``kind`` says which facts: each
    game declares its stories, and its view type names them).
    """

    scores: list[int]
    winners: list[int]
    history: NotRequired[list[list[int]]]
    story: NotRequired[StoryT]


class Lead(TypedDict):
    """What an end screen may truly say of the winner's lead (``moves.lead_story``).

    ``round``: from when ``seat`` was never behind again (0: it never was);
    ``rounds``: how many rounds were played; ``alone``: whether it was strictly
    ahead of everyone after each of those rounds.
    """

    seat: Seat
    round: int
    rounds: int
    alone: bool


class LeadStory(Lead):
    """The story of a game won by a lead, for games with no sharper moment to tell."""

    kind: Literal["lead"]


KindT = TypeVar("KindT", bound=str)
DataT = TypeVar("DataT")


class Logged(TypedDict, Generic[KindT, DataT]):
    """One event of the log: its ``kind``, its facts (``data``) and its index in the whole
    game, so a device can tell which events are new.

    Each game declares its events as a union of ``Logged[Literal["kind"], ItsData]``
    (every kind its rules write, and ``Redealt``) and names that union in its view,
    so mypy follows an event's facts from the rules to its log line, and a view from
    another device is checked at the door, its events included (``typed.problem``).
    """

    kind: KindT
    data: DataT
    index: int


class NoData(TypedDict):
    """The facts of an event that has none beyond its kind."""


class Standings(TypedDict):
    """A finished game's scores and every seat with the top one (``moves.standings``)."""

    scores: list[int]
    winners: list[Seat]


GameOver = Logged[Literal["game_over"], Standings]
"""The event that ends a game, in the games that log the final standings."""
Redealt = Logged[Literal["redealt"], NoData]
"""Every game's event for a room successor's deal (``net/succession.py``)."""
LogEntry = Logged[str, Any]
"""An event as shared code passes it on (the log panel, the log file): its kind and
index read, its facts the game's own, which only the game's ``describe`` reads."""
EventT = TypeVar("EventT")


class SharedHeader(TypedDict, Generic[StoryT, EventT]):
    """The header keys every viewer of one state sees alike (the engine builds them once)."""

    game: str
    version: int
    players: int
    waiting_for: list[int]
    result: Result[StoryT] | None
    log: list[EventT]
    phase: str
    round: int
    round_limit: RoundLimit | None
    scores: list[int]


MoveT = TypeVar("MoveT")


class ViewOf(SharedHeader[StoryT, EventT], Generic[MoveT, StoryT, EventT]):
    """The keys every view has, whatever the game (``names``/``kinds``: ``Table.view``),
    with the moves its seat may make, the stories its end may tell and the events its
    log may hold, as the game declares them.

    A game's view extends ``ViewOf[ItsMove, ItsStory, ItsEvent]``, so mypy follows a
    legal move's fields, a story's and an event's from the rules to the screen, and
    ``typed.problem`` checks each one at the door.
    """

    seat: int | None
    legal_moves: list[MoveT]
    names: NotRequired[list[str]]
    kinds: NotRequired[list[str]]


ViewHeader = ViewOf[dict[str, Any], Story, LogEntry]
"""A view as shared code reads it: the header, each legal move a move of some game."""


@dataclass(frozen=True)
class Progress:
    """Where a game stands, in the words every game shares: the header of each view.

    The engine builds the view's ``phase``, ``round``, ``round_limit`` and
    ``scores`` from this, so no game can spell them its own way. ``round_limit``
    is the last round there can be: exactly that many (``round_limit_exact``:
    "round 2 of 5") or at most that many ("at most 6 rounds"); ``None`` when the
    game has no bound worth telling.

    >>> Progress("vote", 2, 5, True, (3, 1, 0)).round_limit_json()
    {'count': 5, 'exact': True}
    >>> Progress("duel", 4, None, False, (0, 0, 0)).round_limit_json() is None
    True
    """

    phase: str
    round: int
    round_limit: int | None
    round_limit_exact: bool
    scores: tuple[int, ...]

    def round_limit_json(self) -> RoundLimit | None:
        """The bound as the view carries it: ``{"count": n, "exact": bool}`` or None."""
        if self.round_limit is None:
            return None
        return {"count": self.round_limit, "exact": self.round_limit_exact}


HEADER_KEYS: frozenset[str] = frozenset(ViewOf.__required_keys__) | frozenset(
    ViewOf.__optional_keys__
)
"""Keys only the engine (and the table) may set: a game's own view must not."""


def round_words(number: int, limit: RoundLimit | None, word: str = "round") -> str:
    """The round as a player reads it, the bound worded by whether it is exact.

    >>> round_words(2, {"count": 5, "exact": True})
    'round 2 of 5'
    >>> round_words(1, {"count": 6, "exact": False})
    'round 1 (at most 6)'
    >>> round_words(4, None)
    'round 4'
    >>> round_words(10, None, "challenge")
    'challenge 10'
    """
    if limit is None:
        return f"{word} {number}"
    if limit["exact"]:
        return f"{word} {number} of {limit['count']}"
    return f"{word} {number} (at most {limit['count']})"


def last_round(header: Mapping[str, Any]) -> bool:
    """Whether the header's round is certainly the last (only an exact bound says so)."""
    limit = header["round_limit"]
    return limit is not None and limit["exact"] and header["round"] >= limit["count"]


def read_header(view: Mapping[str, Any]) -> ViewHeader:
    """``view``, typed by its header once every key of the header is checked;
    ``BadView`` says what is wrong.

    Only the header is checked: a game's own part is checked against its declared
    types (``catalog.read_view``) where a view arrives from another device.
    """
    if not isinstance(view, Mapping):
        raise BadView("A view must be an object.")
    for key, check in _CHECKS:
        if key not in view:
            raise BadView(f"The view has no {key.replace('_', ' ')}.")
        problem = check(view[key], view)
        if problem:
            raise BadView(f"The view's {key.replace('_', ' ')} {problem}.")
    for key in ("names", "kinds"):
        if key in view:
            problem = _strings(view[key], view)
            if problem:
                raise BadView(f"The view's {key} {problem}.")
    return cast(ViewHeader, view)


# -- the checks: each returns what is wrong as the end of a sentence, or "" --------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, view: Mapping[str, Any]) -> str:
    return "" if isinstance(value, str) and value else "must be a non-empty text"


def _count(value: Any, view: Mapping[str, Any]) -> str:
    return "" if _is_int(value) and value >= 0 else "must be a whole number, 0 or more"


def _players(value: Any, view: Mapping[str, Any]) -> str:
    return "" if _is_int(value) and value >= 1 else "must be a whole number, 1 or more"


def _seat_of(value: Any, view: Mapping[str, Any]) -> bool:
    players = view.get("players")
    return _is_int(value) and _is_int(players) and 0 <= value < players


def _seat(value: Any, view: Mapping[str, Any]) -> str:
    return "" if value is None or _seat_of(value, view) else "must be a seat at the table or null"


def _seats(value: Any, view: Mapping[str, Any]) -> str:
    if not isinstance(value, list) or not all(_seat_of(s, view) for s in value):
        return "must be a list of seats at the table"
    return ""


def _per_seat(value: Any, view: Mapping[str, Any]) -> str:
    if (
        not isinstance(value, list)
        or len(value) != view.get("players")
        or not all(_is_int(v) for v in value)
    ):
        return "must be a whole number for each seat"
    return ""


def _strings(value: Any, view: Mapping[str, Any]) -> str:
    if (
        not isinstance(value, list)
        or len(value) != view.get("players")
        or not all(isinstance(v, str) for v in value)
    ):
        return "must be a text for each seat"
    return ""


def _result(value: Any, view: Mapping[str, Any]) -> str:
    if value is None:
        return ""
    if not isinstance(value, Mapping) or not (
        {"scores", "winners"} <= set(value) <= {"scores", "winners", "history", "story"}
    ):
        return "must be null or have scores and winners (and perhaps history and story)"
    history = value.get("history", [])
    if not isinstance(history, list) or any(_per_seat(h, view) for h in history):
        return "history must be a list of scores, a whole number for each seat"
    if not isinstance(value.get("story", {}), Mapping):
        return "story must be an object"
    return _per_seat(value["scores"], view) or _seats(value["winners"], view)


def _log(value: Any, view: Mapping[str, Any]) -> str:
    if not isinstance(value, list):
        return "must be a list of events"
    for entry in value:
        if (
            not isinstance(entry, Mapping)
            or set(entry) != {"kind", "data", "index"}
            or not isinstance(entry["kind"], str)
            or not _is_int(entry["index"])
            or entry["index"] < 0
        ):
            return "must be a list of events, each with a kind, its data and an index"
    return ""


def _round_limit(value: Any, view: Mapping[str, Any]) -> str:
    if value is None:
        return ""
    if (
        not isinstance(value, Mapping)
        or set(value) != {"count", "exact"}
        or not _is_int(value["count"])
        or value["count"] < 0
        or not isinstance(value["exact"], bool)
    ):
        return "must be null or a count of rounds with whether it is exact"
    return ""


def _legal_moves(value: Any, view: Mapping[str, Any]) -> str:
    if not isinstance(value, list) or not all(
        isinstance(m, Mapping) and isinstance(m.get("type"), str) for m in value
    ):
        return "must be a list of moves, each an object with a type"
    return ""


_CHECKS: tuple[tuple[str, Callable[[Any, Mapping[str, Any]], str]], ...] = (
    ("game", _text),
    ("version", _count),
    ("players", _players),
    ("seat", _seat),
    ("waiting_for", _seats),
    ("result", _result),
    ("log", _log),
    ("phase", _text),
    ("round", _count),
    ("round_limit", _round_limit),
    ("scores", _per_seat),
    ("legal_moves", _legal_moves),
)
"""In reading order: ``players`` comes before the keys checked against it."""
