"""A room's finished game as a record: its host may watch, keep and share it.

The host holds the game itself, so its end screen offers the replay and the
record; a guest only ever had views, and is offered neither. A room whose host
left plays on from its successor's new deal: that record carries the deal, and
replays to the same result all the same.
"""

from __future__ import annotations

import json

import pytest

from quandary import engine, replay
from quandary.net.host import SUCCESSION_MS
from quandary.web.actions import DownloadText

from .test_room_screens import beat, open_room, play_on, play_to_the_end, seat_everyone


def _record_of(device) -> dict:
    device.controller.dispatch("download-record", {})
    (made,) = [e for e in device.glue() if isinstance(e, DownloadText)]
    return json.loads(made.text)


def test_the_host_watches_the_rooms_game_again_and_guests_are_not_offered_it() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    play_on(net, [host, anna, ben])
    assert 'data-action="watch-replay"' in host.html()
    assert 'data-action="watch-replay"' not in anna.html()
    anna.press("watch-replay")  # a doctored button on a guest's page does nothing
    assert anna.controller.screen == "room"
    host.press("watch-replay")
    assert host.controller.screen == "replay"
    assert "Move 0 of" in host.html() and "Anna" in host.html()
    host.press("replay-close")
    assert host.controller.screen == "room" and "final-title" in host.html()
    assert host.fragment.startswith("r="), "closing a replay keeps the room's address"


@pytest.mark.parametrize("game", ["dilemmas", "royal"])
def test_a_successors_record_carries_its_deal_and_replays_to_the_result(game: str) -> None:
    net, host, (anna,) = open_room(game, guests=("Anna",))
    host.press("field", field="room-patience", value="short")
    seat_everyone(net, host, [anna])
    host.press("room-start")
    net.settle()
    host.close()
    beat(net, [anna], SUCCESSION_MS["short"] // 2000 + 3)
    assert "the room now runs on this device" in anna.html()
    play_to_the_end(net, anna, [anna])
    data = _record_of(anna)
    assert "start" in data, "the successor's deal, which no seed rebuilds"
    read = replay.parse(replay.dumps(data))
    told = engine.result(read.states[-1])
    assert told is not None and told["scores"] == anna.room_view()["result"]["scores"]
