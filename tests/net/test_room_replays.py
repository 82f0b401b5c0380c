"""A room's finished game as a record: its host may watch, keep and share it.

The host holds the game itself; once it is over, it sends every guest the
record too (nothing in it is secret then), which a guest checks like any record
before offering it: a doctored one is not offered. A room whose host
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


def test_everyone_in_the_room_watches_its_game_again() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    play_on(net, [host, anna, ben])
    net.settle()
    for device in (host, anna, ben):
        assert 'data-action="watch-replay"' in device.html(), device.name
    assert _record_of(anna) == _record_of(host), "the host sends the guests its record"
    anna.press("watch-replay")
    assert anna.controller.screen == "replay" and "Hana" in anna.html()
    anna.press("replay-close")
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


def test_a_guest_offers_no_record_that_does_not_replay_to_its_result() -> None:
    net, host, (anna,) = open_room(guests=("Anna",))
    seat_everyone(net, host, [anna])
    host.press("room-start")
    play_on(net, [host, anna])
    net.settle()
    guest = anna.controller.room.guest
    version, text = guest.record
    data = json.loads(text)
    data["result"]["scores"][0] += 1
    guest.record = (version, json.dumps(data))
    assert 'data-action="watch-replay"' not in anna.html()
    anna.press("watch-replay")
    assert anna.controller.screen == "room"
