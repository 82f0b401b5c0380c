"""A room's bots take the same human-like moment as bots on one device."""

from __future__ import annotations

from quandary.net.host import RoomHost

from .memnet import Network


def hosted(speed: str) -> tuple[RoomHost, list[float]]:
    """A room of the host (seat 0) and two bots, its clock in the list's first item."""
    net = Network()
    time = [0.0]
    send = net.sender("H", net.key.private)
    host = RoomHost(send, net.make_id, lambda: 5, "Hana", now=lambda: time[0])
    host.speed = speed  # type: ignore[assignment]
    net.connect("H", host)
    host.configure(game="dilemmas")
    host.set_seat_count(3)
    host.set_seat_kind(1, "bot", "heuristic")
    host.set_seat_kind(2, "bot", "heuristic")
    net.settle()
    host.start()
    return host, time


def test_a_hosts_bots_take_their_moment_then_move() -> None:
    host, time = hosted("normal")
    assert host.table is not None and host.table.speed == "normal"
    assert not host.advance(), "no bot answers at once"
    assert host.table.thinking() == [1, 2]
    due = host.next_wakeup()
    assert due is not None and 800 <= due <= 1500
    time[0] = due
    assert host.advance()
    time[0] = 2000.0
    host.advance()
    assert host.table.thinking() == []
    assert set(host.view_for(host.me)["waiting_for"]) == {0}, "only the host has to build"


def test_instant_room_bots_move_with_the_start_and_a_restored_room_keeps_the_speed() -> None:
    host, _ = hosted("instant")
    assert host.table is not None and host.table.thinking() == []
    assert set(host.view_for(host.me)["waiting_for"]) == {0}
    paced, _ = hosted("relaxed")
    saved = paced.to_json()
    paced.restore(saved)
    assert paced.table is not None and paced.table.speed == "relaxed"
