"""Legal moves with continuous parameters, kept enumerable as templates.

Most moves are finite choices and ``legal_moves`` lists each one. A throw has a
direction, a power and a spin: listing every combination would be millions of
moves. So a legal move may hold a *range* ``{"min": a, "max": b}`` in place of a
whole number; a submitted move matches it when every other field is equal and
that field is a whole number within the range. The legal set stays a finite
list of templates that views, bots and the conformance suite can read.

>>> template = {"type": "throw", "card": 7, "power": {"min": 1, "max": 100}}
>>> allowed([template], {"type": "throw", "card": 7, "power": 40})
True
>>> allowed([template], {"type": "throw", "card": 7, "power": 140})
False
>>> concrete(template, lambda low, high: high)
{'type': 'throw', 'card': 7, 'power': 100}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .errors import MalformedMove
from .spec import Move
from .view import Lead, Result, Standings, Story

Schema = Mapping[str, Mapping[str, type | tuple[type, ...]]]
"""Each move type's fields and the JSON types each may hold."""


def is_range(value: Any) -> bool:
    """Whether a template field is a range rather than a fixed value."""
    return isinstance(value, dict) and set(value) == {"min", "max"}


def is_template(move: Move) -> bool:
    """Whether a legal move has any range left to fill in."""
    return any(is_range(v) for v in move.values())


def matches(template: Move, move: Move) -> bool:
    """Whether ``move`` is one concrete instance of ``template``."""
    if set(template) != set(move):
        return False
    for key, want in template.items():
        got = move[key]
        if is_range(want):
            if isinstance(got, bool) or not isinstance(got, int):
                return False
            if not want["min"] <= got <= want["max"]:
                return False
        elif got != want:
            return False
    return True


def allowed(legal: Iterable[Move], move: Move) -> bool:
    """Whether ``move`` is a member of the legal set (templates included)."""
    return any(matches(t, move) for t in legal)


def concrete(template: Move, pick: Callable[[int, int], int]) -> Move:
    """A move from a template, each range filled by ``pick(low, high)``."""
    return {k: pick(v["min"], v["max"]) if is_range(v) else v for k, v in template.items()}


def check_fields(move: Move, schema: Schema, title: str) -> None:
    """``MalformedMove`` unless ``move`` is a known type with exactly its fields, well typed.

    Every game checks shapes the same way, so the sentences a player reads are the
    same in every game. A boolean is never a number here, though Python says it is.

    >>> check_fields({"type": "take", "card": 3}, {"take": {"card": str}}, "This game")
    Traceback (most recent call last):
    ...
    quandary.engine.errors.MalformedMove: The field 'card' of a take move must be text.
    """
    fields = schema.get(move["type"])
    if fields is None:
        raise MalformedMove(f"{title} has no move called {move['type']!r}.")
    if set(move) - {"type"} != set(fields):
        if not fields:
            raise MalformedMove(f"A {move['type']} move takes no other fields.")
        raise MalformedMove(f"A {move['type']} move needs the fields {', '.join(sorted(fields))}.")
    for key, kinds in fields.items():
        value = move[key]
        if (isinstance(value, bool) and bool not in _as_tuple(kinds)) or not isinstance(
            value, kinds
        ):
            wanted = " or ".join(_TYPE_WORDS.get(k, k.__name__) for k in _as_tuple(kinds))
            raise MalformedMove(f"The field {key!r} of a {move['type']} move must be {wanted}.")


_TYPE_WORDS = {int: "a whole number", str: "text", list: "a list", bool: "true or false"}
_TYPE_WORDS[type(None)] = "empty"


def _as_tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def final_result(scores: list[int]) -> Result[Story]:
    """A finished game's result: the scores and every seat with the top one (ties share).

    >>> final_result([3, 7, 7])
    {'scores': [3, 7, 7], 'winners': [1, 2]}
    """
    top = max(scores)
    return {"scores": list(scores), "winners": [s for s, v in enumerate(scores) if v == top]}


def standings(scores: list[int]) -> Standings:
    """``final_result`` as plain event data, for a game's "game over" log event."""
    result = final_result(scores)
    return {"scores": result["scores"], "winners": result["winners"]}


def lead_kept_from(history: Sequence[Sequence[int]], seat: int) -> int:
    """The first round (from 1) after which ``seat`` was never behind anyone again.

    The round that decided a game, as a story tells it: from then on ``seat``
    held the top score (perhaps shared) after every round. 0 for no rounds.

    >>> lead_kept_from([[2, 0], [2, 3], [5, 3], [6, 6]], 0)
    3
    >>> lead_kept_from([], 1)
    0
    """
    start = len(history)
    for number in range(len(history), 0, -1):
        scores = history[number - 1]
        if scores[seat] < max(scores):
            break
        start = number
    return start


def lead_story(history: Sequence[Sequence[int]], seat: int) -> Lead:
    """What an end screen may truly say of ``seat``'s lead, as plain story fields.

    ``round``: from when ``seat`` was never behind again (``lead_kept_from``);
    ``rounds``: how many rounds were played; ``alone``: whether ``seat`` was
    strictly ahead of everyone after each of those rounds (else it shared the
    top at least once, so "led" would overstate it). A lead taken in the last
    round is no lead kept "from then on": the sentence must say so.

    >>> lead_story([[2, 0], [2, 3], [5, 3], [6, 6]], 0)
    {'seat': 0, 'round': 3, 'rounds': 4, 'alone': False}
    >>> lead_story([[0, 1], [4, 1]], 0)
    {'seat': 0, 'round': 2, 'rounds': 2, 'alone': True}
    """
    number = lead_kept_from(history, seat)
    alone = all(
        all(score < scores[seat] for other, score in enumerate(scores) if other != seat)
        for scores in history[max(0, number - 1) :]
    )
    return {"seat": seat, "round": number, "rounds": len(history), "alone": alone and number > 0}
