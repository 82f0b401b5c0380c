"""A guest's move sent by its page at the click (``RoomGuest.ahead``), under CPython.

The page (static/js/app.entry.js, ``sendAhead``) sends the intent the engine
prepared with the screen it drew, then tells the engine which one went
(``sent``). This file plays that page: it sends exactly what ``sendAhead``
would, and checks what the engine does and does not do about it.
"""

from __future__ import annotations

import json
from typing import Any

from .test_room_screens import Device
from .test_room_screens import started as started_room


def started() -> tuple[Any, Device, Device, Device]:
    net, host, (anna, ben) = started_room()
    return net, host, anna, ben


def send_ahead(net: Any, device: Device, ahead: dict[str, Any], move: Any) -> None:
    """What the page sends at the click: the intent, to the peer ``ahead`` names."""
    text = json.dumps({"t": "intent", "id": ahead["id"], "version": ahead["version"], "move": move})
    net.sender(device.peer)(ahead["peer"], text)


def host_state(host: Device) -> Any:
    table = host.controller.room.host.table
    assert table is not None
    return table.state


def sent_by(net: Any, peer: str) -> list[str]:
    return [text for src, _dst, text in net.queue if src == peer]


def test_a_guest_screen_names_where_and_as_what_its_move_goes() -> None:
    net, host, anna, _ben = started()
    ahead = anna.controller.ahead()
    assert ahead is not None
    assert ahead["peer"] == host.peer and ahead["version"] == anna.room_view()["version"]
    assert ahead["submit"] is None, "no card chosen yet: the submit button makes no move"
    # The same view drawn again keeps its id: a second click is the same intent.
    assert anna.controller.ahead() == ahead
    # Choosing cards makes the submit button's move; it is the one the engine would send.
    view = anna.room_view()
    move = view["legal_moves"][0]
    anna.press("draft", card=move["positive"])
    anna.press("draft", card=move["negative"])
    assert anna.controller.ahead()["submit"] == move
    assert anna.controller.ahead()["id"] == ahead["id"]


def test_a_move_sent_ahead_is_played_once_and_the_engine_sends_nothing_more() -> None:
    net, host, anna, _ben = started()
    ahead = anna.controller.ahead()
    move = anna.room_view()["legal_moves"][0]
    send_ahead(net, anna, ahead, move)
    anna.press("move", move=json.dumps(move), sent=ahead["id"])
    assert len(sent_by(net, anna.peer)) == 1, "the engine sent the move a second time"
    assert 'class="form-error"' not in anna.html()
    # A double click sends the same intent again: the host plays it once.
    send_ahead(net, anna, ahead, move)
    net.settle()
    assert host_state(host).pending[1] == move, "the host never played the move sent ahead"
    assert anna.room_view()["legal_moves"] == [], "Anna built her dilemma: nothing left to do"
    assert not [r for r in net.received.get(anna.peer, []) if '"rejected"' in r]
    # A new view is a new screen: a new id.
    assert anna.controller.ahead() is None or anna.controller.ahead()["id"] != ahead["id"]


def test_the_submit_button_sent_ahead_clears_the_draft() -> None:
    net, host, anna, _ben = started()
    move = anna.room_view()["legal_moves"][0]
    anna.press("draft", card=move["positive"])
    anna.press("draft", card=move["negative"])
    ahead = anna.controller.ahead()
    send_ahead(net, anna, ahead, ahead["submit"])
    anna.press("submit", sent=ahead["id"])
    assert len(sent_by(net, anna.peer)) == 1
    assert anna.controller.room.table.draft == {}
    net.settle()
    assert host_state(host).pending[1] == move


def test_nothing_goes_ahead_where_the_move_is_not_a_guests_to_send() -> None:
    net, host, anna, _ben = started()
    assert host.controller.ahead() is None, "the host plays its moves on its own device"
    # A host's page that claims to have sent one is refused, and nothing changes.
    move = host.room_view()["legal_moves"][0]
    host.press("move", move=json.dumps(move), sent="made-up")
    assert "was not sent" in host.html()
    assert host.room_view()["legal_moves"], "the host's move was played all the same"
    # A guest without a host to send to has nothing to send ahead.
    host.close()
    assert anna.controller.ahead() is None


def test_a_move_sent_ahead_as_the_host_left_says_it_was_not_sent() -> None:
    net, host, anna, _ben = started()
    ahead = anna.controller.ahead()
    move = anna.room_view()["legal_moves"][0]
    host.close()
    send_ahead(net, anna, ahead, move)
    anna.press("move", move=json.dumps(move), sent=ahead["id"])
    assert "not sent" in anna.html()


def test_a_stale_move_sent_ahead_is_refused_by_the_host_in_words() -> None:
    """The page sent the move of the screen it showed; the table had moved on under it
    (every dilemma built, the vote begun) before the move arrived."""
    net, host, anna, ben = started()
    old = anna.controller.ahead()
    move = anna.room_view()["legal_moves"][0]
    for device in (anna, ben, host):
        device.press("move", move=json.dumps(device.room_view()["legal_moves"][0]))
        net.settle()
    assert anna.room_view()["phase"] != "build"
    send_ahead(net, anna, {**old, "id": "a-later-click"}, move)
    net.settle()
    assert "The table changed before your move arrived" in anna.html()


def test_a_damaged_view_from_the_host_has_nothing_to_send_ahead_and_breaks_nothing() -> None:
    net, host, anna, _ben = started()
    guest = anna.controller.room.guest
    # Its header damaged: nothing can be sent from it.
    for damaged in (
        {**guest.view, "players": "four"},
        {**guest.view, "phase": 12, "round": -1},
        {**guest.view, "legal_moves": "all of them"},
    ):
        guest.view = damaged
        assert anna.controller.ahead() is None
        assert "This table cannot be drawn" in anna.html()
    # Its game's own part damaged: the screen says so (no button to press), and asking
    # what a click would send raises nothing.
    guest.view = {**host.controller.room.host.view_for(guest.member), "hand": None}
    anna.controller.ahead()
    assert "This table cannot be drawn" in anna.html()


def test_a_move_sent_ahead_to_a_host_connection_that_closed_meanwhile_is_sent_again() -> None:
    """The host's page reloads and its new connection greets Anna before her transport
    notices the old one close: her engine follows the new connection, but her page still
    shows the screen drawn before, whose ``ahead`` names the old one. Clicked then, the
    move goes to the closed connection: the engine sends it again, to the host."""
    net, host, anna, _ben = started()
    drawn = anna.controller.ahead()
    move = anna.room_view()["legal_moves"][0]
    old_peer = host.peer
    room = anna.controller.room
    room.on_leave = lambda peer: None  # the old connection's close not noticed yet
    host.reload()
    net.settle()
    del room.on_leave
    assert room.guest.host == host.peer != old_peer
    send_ahead(net, anna, drawn, move)
    anna.press("move", move=json.dumps(move), sent=drawn["id"])
    net.settle()
    room.on_leave(old_peer)  # noticed at last
    net.settle()
    assert host_state(host).pending[1] == move
    assert 'class="form-error"' not in anna.html()
