"""JSON encoding of the immutable state values, driven by their type hints.

A game state is a tree of frozen dataclasses, tuples and plain JSON values.
``encode`` turns it into JSON-ready data; ``decode`` rebuilds it from the type
hints and checks every field on the way, so a corrupt save or a tampered
snapshot is refused with ``CorruptState`` instead of producing a broken game.

Fields typed ``Any`` hold raw JSON (moves, options) and are copied as they are:
they must therefore use lists, never tuples, to survive the round trip.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class P:
...     name: str
...     cards: tuple[int, ...]
>>> decode(P, encode(P("Anna", (1, 2))))
P(name='Anna', cards=(1, 2))
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from .errors import CorruptState

T = TypeVar("T")


def encode(value: Any) -> Any:
    """JSON-ready data for a state value (dataclasses become objects, tuples lists)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _field_names(kind)
    if names is not None:
        # Most fields and items are scalars: tested inline, as a call each costs more.
        return {
            n: v if type(v) in _SCALARS else encode(v) for n in names for v in (getattr(value, n),)
        }
    if isinstance(value, tuple | list):
        return [v if type(v) in _SCALARS else encode(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else encode(v) for k, v in value.items()}
    return value


_SCALARS = frozenset({str, int, bool, float, type(None)})


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """Field names of a dataclass type (cached: encoding is on every save and snapshot)."""
    if kind not in _FIELD_NAMES:
        is_data = dataclasses.is_dataclass(kind)
        _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind)) if is_data else None
    return _FIELD_NAMES[kind]


def decode(cls: type[T], data: Any) -> T:
    """Rebuild a value of type ``cls`` from JSON data, checking every field.

    A decoder compiled once per type does the work without building a path for
    every field; it accepts exactly what the checking decoder below accepts, and
    on any refusal that decoder runs again to say where the data is damaged.
    """
    try:
        return typing.cast(T, _compiled(typing.cast(Any, cls))(data))
    except _Refused:
        return typing.cast(T, _decode(cls, data, "state"))


class _Refused(Exception):
    """The compiled decoder met data it does not accept (the message comes later)."""


Decoder = Callable[[Any], Any]


def _refuse() -> NoReturn:
    raise _Refused


@functools.cache
def _compiled(tp: Any) -> Decoder:
    """A decoder for ``tp`` with the same checks as ``_decode``, minus the paths."""
    if tp is Any:
        return _same
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(tp)
    if origin is tuple:
        return _tuple_decoder(tp)
    if origin is dict:
        value_of = _compiled(typing.get_args(tp)[1])

        def dict_of(data: Any) -> Any:
            if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
                _refuse()
            return {k: value_of(v) for k, v in data.items()}

        return dict_of
    if origin is typing.Literal:
        allowed = typing.get_args(tp)

        def literal(data: Any) -> Any:
            if data not in allowed:
                _refuse()
            return data

        return literal
    if dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    return _scalar_decoder(tp)


def _same(data: Any) -> Any:
    return data


def _union_decoder(tp: Any) -> Decoder:
    options = typing.get_args(tp)
    nullable = type(None) in options
    decoders = [_compiled(o) for o in options if o is not type(None)]

    def union(data: Any) -> Any:
        if data is None and nullable:
            return None
        for decoder in decoders:
            try:
                return decoder(data)
            except _Refused:
                pass
        _refuse()

    return union


def _tuple_decoder(tp: Any) -> Decoder:
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        item = _compiled(args[0])
        exact = args[0] if args[0] in (str, int) else None

        def many(data: Any) -> Any:
            if not isinstance(data, list):
                _refuse()
            if exact is not None and all(type(v) is exact for v in data):
                return tuple(data)
            return tuple(item(v) for v in data)

        return many
    items = [_compiled(a) for a in args]

    def fixed(data: Any) -> Any:
        if not isinstance(data, list) or len(data) != len(items):
            _refuse()
        return tuple(d(v) for d, v in zip(items, data, strict=True))

    return fixed


def _dataclass_decoder(tp: Any) -> Decoder:
    hints = _hints(tp)
    names = _field_names(tp) or ()
    fields = [(n, _compiled(hints[n])) for n in names]
    count = len(names)

    def record(data: Any) -> Any:
        if not isinstance(data, dict) or len(data) != count:
            _refuse()
        try:
            return tp(**{n: d(data[n]) for n, d in fields})
        except KeyError:
            _refuse()

    return record


def _scalar_decoder(tp: Any) -> Decoder:
    if tp is type(None):
        return lambda data: None if data is None else _refuse()
    if tp is bool:
        return lambda data: data if isinstance(data, bool) else _refuse()
    if tp is int:
        return lambda data: (
            data if isinstance(data, int) and not isinstance(data, bool) else _refuse()
        )
    if tp is float:
        return lambda data: (
            float(data)
            if isinstance(data, int | float) and not isinstance(data, bool)
            else _refuse()
        )
    if tp is str:
        return lambda data: data if isinstance(data, str) else _refuse()
    raise TypeError(f"codec cannot decode {tp!r}")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fail(path: str, expected: str, data: Any) -> CorruptState:
    shown = repr(data)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return CorruptState(f"The saved game is damaged: {path} should be {expected}, not {shown}.")


def _decode(tp: Any, data: Any, path: str) -> Any:
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(option, data, path)
            except CorruptState as exc:
                errors.append(exc)
        raise errors[0] if errors else _fail(path, "empty", data)
    if origin is tuple:
        return _decode_tuple(tp, data, path)
    if origin is dict:
        _, value_tp = typing.get_args(tp)
        if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
            raise _fail(path, "an object", data)
        return {k: _decode(value_tp, v, f"{path}.{k}") for k, v in data.items()}
    if origin is typing.Literal:
        if data not in typing.get_args(tp):
            raise _fail(path, " or ".join(map(repr, typing.get_args(tp))), data)
        return data
    if dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, data, path)
    return _decode_scalar(tp, data, path)


def _decode_tuple(tp: Any, data: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise _fail(path, "a list", data)
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        # Card ids and counts: most of a state. Checked in one pass, no path built.
        if args[0] is str and all(type(v) is str for v in data):
            return tuple(data)
        if args[0] is int and all(type(v) is int for v in data):
            return tuple(data)
        return tuple(_decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
    if len(args) != len(data):
        raise _fail(path, f"a list of {len(args)}", data)
    pairs = enumerate(zip(args, data, strict=True))
    return tuple(_decode(a, v, f"{path}[{i}]") for i, (a, v) in pairs)


def _decode_dataclass(tp: Any, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise _fail(path, "an object", data)
    hints = _hints(tp)
    names = _field_names(tp) or ()
    if len(data) != len(names) or any(n not in data for n in names):
        raise CorruptState(
            f"The saved game is damaged: {path} has fields {sorted(data)}, expected {list(names)}."
        )
    return tp(**{n: _decode(hints[n], data[n], f"{path}.{n}") for n in names})


def _decode_scalar(tp: Any, data: Any, path: str) -> Any:
    if tp is type(None):
        if data is not None:
            raise _fail(path, "null", data)
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise _fail(path, "true or false", data)
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise _fail(path, "a whole number", data)
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise _fail(path, "a number", data)
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise _fail(path, "text", data)
        return data
    raise TypeError(f"codec cannot decode {tp!r} at {path}")
