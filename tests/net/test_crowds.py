"""A crowd of strangers cannot keep friends out of a room, and the host decides who stays.

Seated players never count toward what a room takes in; those without a seat have
``WAITING`` places, and the one that has waited longest gives way to a newcomer
after ``WAIT_LIMIT_MS``. The host can remove anyone and close the room to newcomers.
"""

from __future__ import annotations

import json

from quandary.net import host as host_module
from quandary.net.members import WAIT_LIMIT_MS, WAITING

from .memnet import Network
from .test_hostile_peers import honest_move_still_works
from .test_room_protocol import rejections, room_of_three


def removals(net: Network, peer: str) -> list[dict]:
    return [m for m in map(json.loads, net.received.get(peer, [])) if m["t"] == "removed"]


def unseated(host) -> list:
    return [m for m in host.members.values() if m.seat is None and m.id != host.me]


def fake_crowd(net: Network, count: int) -> list:
    """``count`` strangers joining within a few seconds; none takes a seat."""
    fakes = [net.add_guest(f"F{i}", f"Fake {i}") for i in range(count)]
    net.settle()
    return fakes


def come_back(net: Network, guest, peer: str):
    """The guest's connection drops; it opens the link again, with its seat token."""
    net.disconnect(peer)
    net.settle()
    again = net.add_guest(peer + "2", guest.name, guest.token)
    net.settle()
    return again


def test_fifteen_fake_peers_cannot_keep_a_friend_out_for_more_than_a_minute() -> None:
    net, host, anna, ben = room_of_three()
    start = net.clock
    fake_crowd(net, 15)
    assert net.clock - start < 10_000, "the crowd arrives within ten seconds"
    assert len(unseated(host)) == WAITING
    assert "try again in a minute" in rejections(net, "F14")[-1]["reason"]
    # A friend who comes at once is told to come back; the guest page asks again by itself.
    cleo = net.add_guest("C", "Cleo")
    net.settle()
    assert cleo.status == "searching"
    assert "try again in a minute" in cleo.notice
    net.clock += WAIT_LIMIT_MS  # a minute after the last stranger came in
    cleo.beat()
    net.settle()
    assert cleo.status == "joined"
    assert cleo.notice is None, "the refusal is past: it no longer shows"
    assert len(unseated(host)) == WAITING
    # The stranger who waited longest gave way, and was told why.
    assert "without a seat" in removals(net, "F0")[-1]["reason"]
    honest_move_still_works(net, host, anna)


def test_seated_players_come_back_however_crowded_the_room() -> None:
    net, host, anna, ben = room_of_three()
    fake_crowd(net, 12)
    again = come_back(net, anna, "A")
    assert again.status == "joined"
    assert again.view is not None and again.view["seat"] == 1
    honest_move_still_works(net, host, again)


def test_a_stranger_who_leaves_without_a_seat_is_forgotten() -> None:
    net, host, anna, ben = room_of_three()
    fake_crowd(net, 3)
    assert len(unseated(host)) == 3
    net.disconnect("F1")
    net.settle()
    assert len(unseated(host)) == 2
    assert "Fake 1" not in [m["name"] for m in host.lobby()["members"]]


def test_the_host_removes_a_player_mid_game_and_a_bot_plays_on() -> None:
    net, host, anna, ben = room_of_three()
    host.remove(ben.member)
    net.settle()
    assert ben.status == "removed"
    assert ben.notice == "The host removed you from this room."
    assert ben.view is None and ben.token is None
    assert host.table.seats[2].covered
    assert "Ben" not in [m["name"] for m in host.lobby()["members"]]
    # The same connection cannot greet its way back in.
    host.on_message(
        "B", json.dumps({"t": "hello", "token": None, "name": "Ben", "key": None, "waited": False})
    )
    net.settle()
    assert rejections(net, "B")[-1]["code"] == "removed"
    honest_move_still_works(net, host, anna)
    assert host.leaks == 0


def test_the_host_removes_someone_from_the_lobby_and_their_seat_opens() -> None:
    net = Network()
    host = net.add_host()
    anna = net.add_guest("A", "Anna")
    net.settle()
    anna.sit(1)
    net.settle()
    host.remove(anna.member)
    net.settle()
    assert anna.status == "removed"
    assert all(s["member"] is None for s in host.lobby()["seats"][1:])


def test_a_room_closed_to_newcomers_still_takes_its_own_back() -> None:
    net, host, anna, ben = room_of_three()
    host.lock(True)
    net.settle()
    assert anna.lobby["locked"] is True
    stranger = net.add_guest("S", "Sam")
    net.settle()
    assert stranger.status == "searching"
    assert rejections(net, "S")[-1]["code"] == "locked"
    back = come_back(net, ben, "B")
    assert back.status == "joined"
    host.lock(False)
    stranger.beat()
    net.settle()
    assert stranger.status == "joined"


def test_the_host_cannot_remove_itself_or_nobody() -> None:
    net, host, anna, ben = room_of_three()
    for who in (host.me, "nobody"):
        try:
            host.remove(who)
        except host_module.BadSetup as exc:
            assert "cannot be removed" in exc.message
        else:
            raise AssertionError("removed " + who)


def test_a_reloaded_host_keeps_its_door_and_forgets_strangers() -> None:
    net, host, anna, ben = room_of_three()
    fake_crowd(net, 4)
    host.lock(True)
    saved = json.loads(json.dumps(host.to_json()))
    again = Network().add_host()
    again.restore(saved)
    assert again.locked is True
    assert unseated(again) == []
    assert sorted(m.seat for m in again.members.values()) == [0, 1, 2]
