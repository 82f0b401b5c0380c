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
(an ``int`` too), ``str``, ``bool``, ``None`` and ``object`` (anything). Pure
standard library.

>>> from typing import NotRequired, TypedDict
>>> class Seat(TypedDict):
...     name: str
...     score: int
...     hand: NotRequired[list[str] | None]
>>> problem({"name": "Anna", "score": 3}, Seat, "seat")
''
>>> problem({"name": "Anna", "score": True}, Seat, "seat")
'seat.score must be a whole number'
>>> problem({"name": "Anna", "score": 1, "hand": ["7H", 7]}, Seat, "seat")
'seat.hand[1] must be text'
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Mapping
from typing import (
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

T = TypeVar("T")

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
    module = sys.modules.get(cls.__module__)
    hints = get_type_hints(cls, vars(module) if module else None, include_extras=True)
    out = []
    for key, hint in hints.items():
        required = True
        while get_origin(hint) in (NotRequired, Required):
            required = get_origin(hint) is Required
            (hint,) = get_args(hint)
        out.append((key, hint, required))
    return tuple(out)


def describe(tp: Any) -> str:
    """What a value of ``tp`` is, in words: "text or nothing"."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return " or ".join(describe(arg) for arg in get_args(tp))
    if origin is Literal:
        return "one of " + ", ".join(repr(arg) for arg in get_args(tp))
    if is_typeddict(tp):
        return "an object"
    return _WORDS.get(origin or tp, "something else")


def problem(value: object, tp: Any, where: str) -> str:
    """What is wrong with ``value`` as a ``tp`` ("hand[2] must be text"), or ""."""
    origin = get_origin(tp)
    if tp is object or tp is Any:
        return ""
    if origin in (Union, types.UnionType):
        if any(not problem(value, arg, where) for arg in get_args(tp)):
            return ""
        if len(get_args(tp)) == 2 and type(None) in get_args(tp) and value is not None:
            inner = next(arg for arg in get_args(tp) if arg is not type(None))
            deeper = problem(value, inner, where)
            if not deeper.startswith(f"{where} must"):
                return deeper  # the value has the right shape; something inside it is wrong
        return f"{where} must be {describe(tp)}"
    if origin is Literal:
        ok = any(value == arg and type(value) is type(arg) for arg in get_args(tp))
        return "" if ok else f"{where} must be {describe(tp)}"
    if is_typeddict(tp):
        if not isinstance(value, Mapping):
            return f"{where} must be an object"
        for key, hint, required in _fields(tp):
            if key not in value:
                if required:
                    return f"{where} has no {key}"
                continue
            found = problem(value[key], hint, f"{where}.{key}")
            if found:
                return found
        return ""
    if origin is list:
        if not isinstance(value, list):
            return f"{where} must be a list"
        (item,) = get_args(tp)
        for index, element in enumerate(value):
            found = problem(element, item, f"{where}[{index}]")
            if found:
                return found
        return ""
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where} must be an object"
        _, item = get_args(tp)
        for key, element in value.items():
            found = problem(element, item, f"{where}.{key}")
            if not isinstance(key, str) or found:
                return found or f"{where} must have text keys"
        return ""
    return "" if _is_a(value, tp) else f"{where} must be {describe(tp)}"


def _is_a(value: object, tp: Any) -> bool:
    if tp is None or tp is type(None):
        return value is None
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(tp, type):
        return isinstance(value, tp)
    raise TypeError(f"{tp!r} is not a type a checked value may have")


def needed(value: T | None, what: str) -> T:
    """``value``, which the game's rules never leave empty here; a view that does
    (damaged, or from a hostile device) is refused as ``BadView``, never drawn."""
    if value is None:
        from .view import BadView

        raise BadView(f"The view has no {what}.")
    return value


def check_view(view: object, tp: Any, table: str) -> None:
    """Refuse ``view`` unless it is a ``tp`` (a game's declared view): ``BadView``
    names the table and the wrong field ("This Royal Dilemma table cannot be
    drawn: the view.steps[0].seat must be a whole number.")."""
    found = problem(view, tp, "view")
    if found:
        from .view import BadView

        raise BadView(f"This {table} cannot be drawn: the {found}.")
