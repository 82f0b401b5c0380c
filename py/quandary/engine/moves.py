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

from collections.abc import Callable, Iterable
from typing import Any

from .spec import Move


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
