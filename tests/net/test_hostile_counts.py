"""A host's view with a huge whole number anywhere (a hostile host, a damaged one):
the guest's screen is drawn in bounded size, or says the table cannot be drawn; it
never builds a screen as large as the number, nor breaks.

Every whole number of views met along a game of each kind is set, one at a time, to
a million; what the guest keeps (its own check passed) is drawn. (A screen as large
as the number is then some megabytes: the test fails at once rather than wait for a
billion, which would take the page minutes and gigabytes.)
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest

from quandary import engine

from .test_room_screens import play_on, started

HUGE = 10**6
MOST_CHARS = 400_000


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where the whole numbers are in ``value`` (JSON), as key paths."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _paths(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _paths(v, (*path, i))]
    return []


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    copy = json.loads(json.dumps(value))
    inner = copy
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = new
    return copy


@pytest.mark.parametrize("game", [g.spec.id for g in engine.all_games()])
def test_a_million_anywhere_in_a_hosts_view_is_drawn_in_bounded_size(game: str) -> None:
    net, host, (anna,) = started(game, guests=("Anna",))
    seen: list[dict[str, Any]] = []
    guest = anna.controller.room.guest
    original = guest._news

    def keep(msg: Any) -> None:
        original(msg)
        if guest.view is not None and (not seen or seen[-1]["version"] != guest.view["version"]):
            seen.append(json.loads(json.dumps(guest.view)))

    guest._news = keep  # type: ignore[method-assign]
    with contextlib.suppress(AssertionError):  # "did not end": a part of the game is enough
        play_on(net, [host, anna], limit=60)
    guest._news = original  # type: ignore[method-assign]
    assert seen
    drawn = 0
    for view in seen[:: max(1, len(seen) // 6)]:
        for path in _paths(view):
            hostile = _set(view, path, HUGE)
            guest._news({"t": "snapshot", "version": view["version"], "view": hostile})
            html = anna.html()
            assert len(html) < MOST_CHARS, (path, len(html))
            drawn += 1
    assert drawn > 50
