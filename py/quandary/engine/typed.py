"""JSON checked against the type that declares it, so a renderer can trust its types.

A game declares its view as ``TypedDict`` classes; mypy then follows every field
from the rules that fill it to the renderer that draws it. But a view may come
from another device (a room's host), and a damaged or hostile one must be refused
before anything reads it, with a sentence that says what is wrong. ``problem``
walks a value against the same declaration, so the type that mypy checks is the
type that is checked at the door: there is no second description to keep in step.

Understood: ``TypedDict`` (``NotRequired`` keys may be missing; keys it does not
declare are allowed and never read), ``list[T]``, ``dict[str, T]``,
``Literal[...]``, unions (``T | None``), ``int`` (never a ``bool``), ``float``
(an ``int`` too), ``str``, ``bool``, ``None`` and ``object`` (anything); generic
TypedDicts, their parameters bound by the bases as written (``ViewOf[RoyalMove,
RoyalStory, RoyalEvent]``) or by an alias (``Result[RoyalStory]``); and unions of TypedDicts
told apart by a literal ``type`` or ``kind`` (a log's events: ``Logged[Literal["kind"],
Data]``), each member checked as its tag says; and ``Seat``, a whole number that
must name a seat of the view being checked (``check_view`` knows its ``players``),
and ``PerSeat[T]``, a list of one ``T`` for each of its seats.
Pure standard library.

>>> from typing import NotRequired, TypedDict
>>> class Player(TypedDict):
...     name: str
...     score: int
...     hand: NotRequired[list[str] | None]
>>> problem({"name": "Anna", "score": 3}, Player, "player")
''
>>> problem({"name": "Anna", "score": True}, Player, "player")
'player.score must be a whole number'
>>> problem({"name": "Anna", "score": 1, "hand": ["7H", 7]}, Player, "player")
'player.hand[1] must be text'
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from .errors import BadView

T = TypeVar("T")

SEAT = "seat at the table"
"""The mark of a whole number that names a seat (``Seat``)."""
Seat = Annotated[int, SEAT]
"""A whole number that names a seat of the table the view is of: from 0 to one less
than the view's ``players``, checked at the door (``check_view``), so a hostile host's
story or event cannot point a screen past the end of its list of names."""
PER_SEAT = "one for each seat"
"""The mark of a list that holds one entry for each seat (``PerSeat``)."""
PerSeat = Annotated[list[T], PER_SEAT]
"""A list with one entry for each seat of the table the view is of (``PerSeat[int]``:
each seat's lives), checked at the door like ``Seat``, so a screen that reads the entry
of every seat never reads past a short list from a hostile host."""
_SEATS: ContextVar[int | None] = ContextVar("seats", default=None)
"""How many seats the view being checked has (None: no view, so any whole number)."""

_WORDS: dict[object, str] = {
    int: "a whole number",
    float: "a number",
    str: "text",
    bool: "true or false",
    type(None): "nothing",
    list: "a list",
    dict: "an object",
}


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """A TypedDict's keys, each with its type and whether it must be there.

    Read from the annotations themselves (``NotRequired`` included), not from
    ``__required_keys__``, which Python 3.11 gets wrong for annotations written
    as text (``from __future__ import annotations``).
    """
    declared = get_origin(cls) or cls  # ``Result[RoyalStory]``: ``Result``'s keys, bound
    module = sys.modules.get(declared.__module__)
    hints = get_type_hints(declared, vars(module) if module else None, include_extras=True)
    bound: dict[Any, Any] = {}
    if declared is not cls:
        bound.update(zip(getattr(declared, "__parameters__", ()), get_args(cls), strict=True))
    for param, value in _type_arguments(declared).items():
        bound.setdefault(param, _bind(value, bound))
    out = []
    for key, hint in hints.items():
        required = True
        while get_origin(hint) in (NotRequired, Required):
            required = get_origin(hint) is Required
            (hint,) = get_args(hint)
        out.append((key, _bind(hint, bound), required))
    return tuple(out)


def hints(cls: Any) -> dict[str, Any]:
    """Each key of the TypedDict ``cls`` with its type, the type parameters bound
    (``RoyalView``'s ``log`` is a ``list`` of ``RoyalEvent``): what the door checks."""
    return {key: hint for key, hint, _ in _fields(cls)}


def _type_arguments(cls: type) -> dict[Any, Any]:
    """What each type parameter of a generic TypedDict that ``cls`` extends stands for.

    ``class RoyalView(RoyalOwnView, ViewOf[RoyalMove, RoyalStory, RoyalEvent])`` reads
    ``ViewOf``'s ``legal_moves: list[MoveT]`` as ``list[RoyalMove]``: the annotations
    themselves keep the parameter, so it is bound here from the bases as written (and through
    them, what their own bases' parameters stand for).
    """
    bound: dict[Any, Any] = {}
    for base in getattr(cls, "__orig_bases__", ()):
        origin = get_origin(base)
        if origin is None or not is_typeddict(origin):
            continue
        args = [_bind(arg, bound) for arg in get_args(base)]
        bound.update(zip(getattr(origin, "__parameters__", ()), args, strict=True))
        deeper = _type_arguments(origin).items()
        bound.update({k: _bind(v, bound) for k, v in deeper if k not in bound})
    return bound


def _bind(hint: Any, bound: dict[Any, Any]) -> Any:
    """``hint`` with the type parameters ``bound`` names put in (``list[MoveT]``)."""
    if isinstance(hint, TypeVar):
        return bound.get(hint, hint)
    params = getattr(hint, "__parameters__", ())
    if params and all(p in bound for p in params):
        return hint[tuple(bound[p] for p in params)]
    return hint


def describe(tp: Any) -> str:
    """What a value of ``tp`` is, in words: "text or nothing"."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return " or ".join(describe(arg) for arg in get_args(tp))
    if origin is Literal:
        return "one of " + ", ".join(repr(arg) for arg in get_args(tp))
    if is_typeddict(tp) or is_typeddict(origin):
        return "an object"
    return _WORDS.get(origin or tp, "something else")


def problem(value: object, tp: Any, where: str) -> str:
    """What is wrong with ``value`` as a ``tp`` ("hand[2] must be text"), or ""."""
    return _said(_checker(tp)(value), where)


def _said(found: Found | None, where: str) -> str:
    """A check's finding as words ("view.hand[2] must be text"), or "" for none."""
    if found is None:
        return ""
    path, what = found
    return where + "".join(reversed(path)) + " " + what


Found = tuple[list[str], str]
"""A wrong value: the path to it, innermost step first (".seat", "[2]"), and what is
wrong there ("must be text"). The path is written only for a value that is wrong:
a view that is right, which is nearly every view, costs no text at all."""
Check = Callable[[object], Found | None]


@functools.cache
def _checker(tp: Any) -> Check:
    """The check for values of ``tp``, built once per type from its declaration."""
    origin = get_origin(tp)
    if tp is object or tp is Any:
        return lambda value: None
    if origin is Annotated:  # ``Seat``, ``PerSeat``; any other mark is the type it marks
        inner = _checker(get_args(tp)[0])
        if SEAT in tp.__metadata__:
            return _seat(inner)
        return _per_seat(inner) if PER_SEAT in tp.__metadata__ else inner
    wrong: Found = ([], f"must be {describe(tp)}")
    if origin in (Union, types.UnionType):
        return _union(tp, wrong)
    if origin is Literal:
        return _literal(get_args(tp), wrong[1])
    if is_typeddict(tp) or is_typeddict(origin):
        return _typeddict(tp)
    if origin is list:
        return _sequence(_checker(get_args(tp)[0]))
    if origin is dict:
        return _mapping(_checker(get_args(tp)[1]))
    if tp is None or tp is type(None):
        return lambda value: None if value is None else ([], wrong[1])
    if tp is int:
        return lambda value: (
            None if isinstance(value, int) and not isinstance(value, bool) else ([], wrong[1])
        )
    if tp is float:
        return lambda value: (
            None
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else ([], wrong[1])
        )
    if isinstance(tp, type):
        return lambda value: None if isinstance(value, tp) else ([], wrong[1])
    raise TypeError(f"{tp!r} is not a type a checked value may have")


def _seat(whole: Check) -> Check:
    """A seat: a whole number below the number of seats of the view being checked."""

    def check(value: object) -> Found | None:
        found = whole(value)
        seats = _SEATS.get()
        outside = seats is not None and isinstance(value, int) and not 0 <= value < seats
        if found is None and outside:
            return ([], f"must be a seat of this table of {seats}")
        return found

    return check


def _per_seat(items: Check) -> Check:
    """A list with one entry for each seat of the view being checked."""

    def check(value: object) -> Found | None:
        found = items(value)
        seats = _SEATS.get()
        if found is None and seats is not None and isinstance(value, list) and len(value) != seats:
            return ([], f"must hold one entry for each of the table's {seats} seats")
        return found

    return check


def _literal(args: tuple[object, ...], what: str) -> Check:
    allowed = {(type(arg), arg) for arg in args}

    def check(value: object) -> Found | None:
        try:
            return None if (type(value), value) in allowed else ([], what)
        except TypeError:  # a list or an object: unhashable, and no literal
            return ([], what)

    return check


TAGS = ("type", "kind")
"""The keys that tell the members of a union apart: a move's ``type``, a story's ``kind``."""


def _tags(tp: Any) -> tuple[str, dict[str, Any]] | None:
    """A union of TypedDicts told apart by a literal ``type`` (moves) or ``kind``
    (stories): the key, and each member by its value there."""
    members = get_args(tp)
    if not all(is_typeddict(get_origin(arg) or arg) for arg in members):
        return None
    for key in TAGS:
        tags: dict[str, Any] = {}
        for arg in members:
            tag = next((hint for name, hint, need in _fields(arg) if name == key and need), None)
            values = get_args(tag) if get_origin(tag) is Literal else ()
            if not values or not all(isinstance(v, str) and v not in tags for v in values):
                break
            tags.update(dict.fromkeys(values, arg))
        else:
            return key, tags
    return None


def _tagged(key: str, tags: dict[str, Any]) -> Check:
    """A move is checked as the move its ``type`` names (a story as its ``kind``), and a
    wrong one is named by its own fields ("[2].card must be text"), not as "an object
    or an object or ..."."""
    checks = {tag: _checker(arg) for tag, arg in tags.items()}
    unknown = "must be one of " + ", ".join(map(repr, tags))

    def check(value: object) -> Found | None:
        if not isinstance(value, dict):
            return ([], "must be an object")
        tag = value.get(key)
        found = checks.get(tag) if isinstance(tag, str) else None
        return ([f".{key}"], unknown) if found is None else found(value)

    return check


def _union(tp: Any, wrong: Found) -> Check:
    tagged = _tags(tp)
    if tagged is not None:
        return _tagged(*tagged)
    options = [_checker(arg) for arg in get_args(tp)]
    inner = [arg for arg in get_args(tp) if arg is not type(None)]
    optional = len(inner) == 1 and len(options) == 2

    def check(value: object) -> Found | None:
        if any(option(value) is None for option in options):
            return None
        if optional and value is not None:
            deeper = _checker(inner[0])(value)
            if deeper is not None and deeper[0]:
                return deeper  # the value has the right shape; something inside it is wrong
        return ([], wrong[1])

    return check


Field = tuple[str, Check, bool, Check | None]
"""A TypedDict's key: its check, whether it must be there, and the check of one of its
items where it is a plain list (``list[T]``: not a ``PerSeat``, whose length counts)."""


@functools.cache
def _field_checks(tp: Any) -> tuple[Field, ...]:
    """A TypedDict's keys (``Field``)."""
    return tuple(
        (
            key,
            _checker(hint),
            required,
            _checker(get_args(hint)[0]) if get_origin(hint) is list else None,
        )
        for key, hint, required in _fields(tp)
    )


Changed = Mapping[str, int | None]
"""The fields of a view set anew since it was last checked whole: None for a field
set whole, a count for a list that kept its earlier lines and gained that many at its
end (a host's update, ``net/view_diff.py``)."""


def _typeddict(tp: Any, only: Changed | None = None) -> Check:
    """A TypedDict's check; with ``only``, of those keys alone (a list's new lines
    alone where ``only`` counts them), and that every key it requires is there."""
    fields = _field_checks(tp)

    def check(value: object) -> Found | None:
        if not isinstance(value, dict):  # JSON's objects (an ABC's check costs more)
            return ([], "must be an object")
        for key, field, required, item in fields:
            if key not in value:
                if required:
                    return ([], f"has no {key}")
                continue
            if only is None:
                found = field(value[key])
            elif key not in only:
                continue
            else:
                found = _new_lines(value[key], only[key], field, item)
            if found is not None:
                found[0].append(f".{key}")
                return found
        return None

    return check


def _new_lines(value: object, new: int | None, field: Check, item: Check | None) -> Found | None:
    """A field of which only the last ``new`` items are new (None: all of it)."""
    if new is None or item is None or not isinstance(value, list) or new > len(value):
        return field(value)
    return _items_from(value, item, len(value) - new)


def _items_from(value: list[Any], item: Check, start: int) -> Found | None:
    """The first wrong item of ``value`` from ``start`` on, named by its index."""
    for index in range(start, len(value)):
        found = item(value[index])
        if found is not None:
            found[0].append(f"[{index}]")
            return found
    return None


def _sequence(item: Check) -> Check:
    def check(value: object) -> Found | None:
        if not isinstance(value, list):
            return ([], "must be a list")
        return _items_from(value, item, 0)

    return check


def _mapping(item: Check) -> Check:
    def check(value: object) -> Found | None:
        if not isinstance(value, dict):
            return ([], "must be an object")
        for key, element in value.items():
            found = item(element)
            if found is not None:
                found[0].append(f".{key}")
                return found
            if not isinstance(key, str):
                return ([], "must have text keys")
        return None

    return check


def needed(value: T | None, what: str) -> T:
    """``value``, which the game's rules never leave empty here; a view that does
    (damaged, or from a hostile device) is refused as ``BadView``, never drawn."""
    if value is None:
        raise BadView(f"The view has no {what}.")
    return value


WHOLE = frozenset({"game", "players"})
"""The fields whose change makes a view's every field checked again: the others' types
are the game's (``game``), and seats and per-seat lists are checked against ``players``."""


def check_view(view: object, tp: Any, table: str, changed: Changed | None = None) -> None:
    """Refuse ``view`` unless it is a ``tp`` (a game's declared view): ``BadView``
    names the table and the wrong field ("This Royal Dilemma table cannot be
    drawn: the view.steps[0].seat must be a whole number.").

    ``changed``: what a host's update set anew in a view whose every other field, and
    every earlier line of its lists, was checked before (``Changed``). Only that is
    walked, with the required fields' presence, unless one of ``WHOLE`` is among
    them: a guest checked its whole view at every move, log and history included,
    which was most of its Python for a move (0.35 of 0.59 ms for a Game of Dilemmas
    update, CPython).
    """
    players = view.get("players") if isinstance(view, dict) else None
    seats = _SEATS.set(players if isinstance(players, int) and not isinstance(players, bool) else 0)
    try:
        if changed is None or not WHOLE.isdisjoint(changed) or not is_typeddict(tp):
            found = problem(view, tp, "view")
        else:
            found = _said(_typeddict(tp, changed)(view), "view")
    finally:
        _SEATS.reset(seats)
    if found:
        raise BadView(f"This {table} cannot be drawn: the {found}.")
