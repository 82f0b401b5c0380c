"""The engine tells the page when the game starts and stops waiting for this device.

The page (static/js/turn.js) marks its title and icon with it while the tab is
hidden; here, under CPython, the ``turn`` messages themselves: sent once per change,
never for a bot's or another device's turn, never for the practice arena.
"""

from __future__ import annotations

from typing import Any

from quandary.web.bridge import Bridge
from tests.unit.test_bridge import event, kinds, send, start


def turns(answer: dict[str, Any]) -> list[bool]:
    return [m["yours"] for m in answer["out"] if m["t"] == "turn"]


def test_a_game_against_bots_awaits_the_player_once_and_the_lobby_does_not() -> None:
    bridge: Bridge = start()
    assert bridge.awaited is False
    answer = event(bridge, "start")
    assert turns(answer) == [True], kinds(answer)
    assert kinds(answer)[-1] == "draw", "the screen is still drawn last"
    # A redraw that changes nothing about the turn says nothing about it.
    assert turns(send(bridge, {"t": "clock"})) == []
    assert turns(event(bridge, "leave")) == [False]


def test_the_player_who_has_moved_is_not_awaited_until_the_bots_have() -> None:
    bridge = start()
    event(bridge, "start")
    table = bridge.controller.table
    assert table is not None
    table.speed = "relaxed"  # the bots take their moment: the player waits for them
    move = table.view(0)["legal_moves"][0]
    event(bridge, "draft", card=move["positive"])
    event(bridge, "draft", card=move["negative"])
    assert turns(event(bridge, "submit")) == [False]
    later = send(bridge, {"t": "clock", "now": 10_000})
    assert turns(later) == [True], "the vote awaits the player once the bots have built"


def test_the_practice_throw_awaits_nobody() -> None:
    bridge = start()
    event(bridge, "start")
    assert turns(event(bridge, "practice")) == [False]
