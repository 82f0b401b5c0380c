"""In a room, each device is awaited for its own seat only (its tab then says "your
turn" while hidden: static/js/turn.js), through the same controllers the page runs."""

from __future__ import annotations

import json

from quandary.engine import moves

from .test_room_screens import Device, open_room, seat_everyone


def play_first_move(device: Device) -> None:
    view = device.room_view()
    move = moves.concrete(view["legal_moves"][0], lambda low, high: low)
    device.press("move", move=json.dumps(move))


def test_each_device_is_awaited_for_its_own_seat_only() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    everyone = (host, anna, ben)
    assert not any(d.controller.awaited() for d in everyone), "a room's lobby awaits nobody"
    host.press("room-start")
    net.settle()
    assert all(d.controller.awaited() for d in everyone), "everyone builds a dilemma"
    play_first_move(host)
    net.settle()
    assert [d.controller.awaited() for d in everyone] == [False, True, True]
    play_first_move(anna)
    net.settle()
    assert [d.controller.awaited() for d in everyone] == [False, False, True]
    play_first_move(ben)
    net.settle()
    assert all(d.controller.awaited() for d in everyone), "everyone votes"
