"""A room's host saves its room before it sends each move; the save keeps the game's
record and no copy of its state, which a reload replays from the record
(quandary/table.py ``Table.to_json`` without ``state``, net/host_save.py)."""

from __future__ import annotations

import json

import pytest

from quandary import engine

from .test_room_screens import play_on, started


def test_a_rooms_save_keeps_the_record_alone_and_a_reload_replays_it_to_the_same_state() -> None:
    net, host, guests = started("dilemmas", ("Anna", "Ben"))
    with pytest.raises(AssertionError, match="did not end"):
        play_on(net, [host, *guests], limit=12)  # a dozen moves in, not to its end
    room = host.controller.room
    assert room is not None and room.host is not None and room.host.table is not None
    before = engine.to_json(room.host.table.state)
    assert room.host.table.record.moves, "no move was made"
    room.persist()
    saved = [json.loads(v) for k, v in host.storage.items() if k.startswith("quandary.room.")]
    assert len(saved) == 1
    table = saved[0]["host"]["table"]
    assert "state" not in table and table["record"]["moves"]
    host.reload()
    net.settle()
    again = host.controller.room
    assert again is not None and again.host is not None and again.host.table is not None
    assert engine.to_json(again.host.table.state) == before
