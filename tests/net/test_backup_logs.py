"""A backup's world leaves the game's log out; each heir is sent the events its last
backup did not hold, and rebuilds the whole log from them (net/deliveries.py
``backup_log``, net/guest.py ``_keep``, net/succession.py ``world_of``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from quandary.engine import codec
from quandary.net.succession import world_of

from .test_succession import GAMES, Room, _host_moves


def _host_log(room: Room) -> list[Any]:
    """The host's game log now, as a backup carries it."""
    return [codec.encode(e) for e in room.table.state.log]


def _backups_to(room: Room, peer: str) -> list[dict[str, Any]]:
    """Every backup the host has sent ``peer`` so far, in order."""
    out = []
    for text in room.net.received.get(peer, []):
        msg = json.loads(text)
        if msg["t"] == "backed":
            msg = msg["backup"]
        if msg["t"] == "backup":
            out.append(msg)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_each_heir_rebuilds_the_whole_log_from_backups_that_bring_only_what_is_new(
    game_id: str,
) -> None:
    room = Room(game_id, 3)
    checked = 0
    for _ in range(60):
        if room.table.over:
            break
        room.step()
        for guest in room.guests.values():
            newest = guest.backups[-1]
            if newest.version == room.table.state.version:
                assert list(newest.log) == _host_log(room)
                state = world_of(newest)["table"]["state"]
                assert state["log"] == _host_log(room)
                checked += 1
    assert checked >= 10, "too few backups of the table as it stood"
    sent = _backups_to(room, "A")
    assert sent[0]["log"]["base"] == 0, "the first backup's log goes whole"
    later = [m["log"] for m in sent[1:]]
    assert later and all(news["base"] > 0 for news in later)
    # Each event goes about once: a log that lets its oldest go, or puts an event
    # before its last, goes whole once in a while.
    logged = len(room.guests["A"].backups[-1].log)
    assert sum(len(news["lines"]) for news in later) <= 3 * logged + len(later)


def test_an_heir_that_missed_a_backup_asks_for_the_table_and_the_next_log_comes_whole() -> None:
    """Anna's connection loses one move's messages: the next backup's log, sent against
    the one she never got, cannot be rebuilt, so she keeps nothing of it and asks for
    the table; the host then sends her next backup's log whole, and she holds the room
    again."""
    room = Room("dilemmas", 1)
    for _ in range(6):
        room.step()
    anna = room.guests["A"]
    _host_moves(room)  # its messages stay in flight ...
    room.net.queue = [m for m in room.net.queue if m[1] != "A"]  # ... and Anna's are lost
    room.net.settle()
    lost = room.host.backups.serial
    assert anna.backups[-1].serial < lost
    for _ in range(12):
        room.step()
    newest = anna.backups[-1]
    assert newest.serial > lost + 1, "Anna holds no backup since the one she lost"
    assert newest.version == room.table.state.version
    assert list(newest.log) == _host_log(room)
    sent = [m["log"]["base"] for m in _backups_to(room, "A") if m["serial"] > lost]
    assert sent[0] == lost, "the first backup after the lost one was sent against it"
    assert 0 in sent, "a later one went whole"
