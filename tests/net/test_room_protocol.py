"""The room protocol over an in-memory network: seats, moves, views, bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quandary import engine
from quandary.net.absence import TRANSPORT_SLACK_MS
from quandary.net.link import BadLink, RoomLink, Turn, WrongSecret, parse_fragment
from quandary.net.lobby import read_lobby
from quandary.net.messages import GUEST_TYPES, MAX_BYTES, ProtocolError, parse
from quandary.net.outbox import _quoted

from .memnet import Network


def room_of_three(host_name: str = "Hana"):
    net = Network()
    host = net.add_host(host_name)
    anna = net.add_guest("A", "Anna")
    ben = net.add_guest("B", "Ben")
    net.settle()
    ids = {m["name"]: m["id"] for m in host.lobby()["members"]}
    assert host.sit(ids["Hana"], 0) is None
    anna.sit(1)
    ben.sit(2)
    net.settle()
    host.start()
    net.settle()
    return net, host, anna, ben


def rejections(net: Network, peer: str) -> list[dict]:
    return [m for m in map(json.loads, net.received.get(peer, [])) if m["t"] == "rejected"]


def test_guests_are_welcomed_and_see_the_lobby() -> None:
    net = Network()
    net.add_host()
    anna = net.add_guest("A", "Anna")
    net.settle()
    assert anna.status == "joined" and anna.token
    assert [m["name"] for m in anna.lobby["members"]] == ["Hana", "Anna"]
    assert anna.lobby["members"][1]["connected"] is True
    assert anna.token not in json.dumps(anna.lobby), "tokens are never broadcast"


def test_each_seat_gets_its_own_view_and_moves_flow() -> None:
    net, host, anna, ben = room_of_three()
    assert anna.view["seat"] == 1 and ben.view["seat"] == 2
    assert anna.view == host.view_for(anna.member)
    anna.submit(anna.view["legal_moves"][0])
    net.settle()
    assert ben.view["submitted"] == [False, True, False]
    assert ben.view == host.view_for(ben.member)


def test_no_message_holds_another_seats_hand() -> None:
    net, host, anna, ben = room_of_three()
    for guest in (anna, ben):
        guest.submit(guest.view["legal_moves"][0])
    host.submit(host.view_for(host.me)["legal_moves"][0])
    net.settle()
    state = host.table.state
    game = engine.game_of(state)
    for peer, guest in (("A", anna), ("B", ben)):
        secrets = game.secrets(state, guest.view["seat"])
        for text in net.received[peer]:
            assert not any(json.dumps(s) in text for s in secrets)
    assert host.leaks == 0


def test_a_duplicate_intent_is_applied_once() -> None:
    net, host, anna, ben = room_of_three()
    move = anna.view["legal_moves"][0]
    anna.submit(move)
    net.queue.append(net.queue[-1])  # the same intent, twice
    net.settle()
    assert len(host.table.record.moves) == 1
    assert rejections(net, "A") == []


def test_a_move_for_a_seat_the_sender_does_not_hold_is_impossible() -> None:
    net, host, anna, ben = room_of_three()
    ben_move = ben.view["legal_moves"][0]
    anna.submit(ben_move)  # Ben's cards, sent by Anna: judged as Anna's move
    net.settle()
    assert rejections(net, "A")[-1]["reason"] == "That card is not in your hand."
    assert host.table.record.moves == ()


def test_a_stale_intent_is_refused_and_refreshed() -> None:
    net, host, anna, ben = room_of_three()
    for guest in (anna, ben):
        guest.submit(guest.view["legal_moves"][0])
    host.submit(host.view_for(host.me)["legal_moves"][0])
    net.settle()
    assert anna.view["phase"] == "vote"
    stale = {"t": "intent", "id": "old-1", "version": 0, "move": {"type": "vote", "votes": []}}
    host.on_message("A", json.dumps(stale))
    net.settle()
    assert rejections(net, "A")[-1]["code"] == "stale"
    assert anna.view == host.view_for(anna.member)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "not valid JSON"),
        ("[]", "object with a type"),
        ('{"t": "shout"}', "Unknown message type"),
        ('{"t": "seat"}', "needs exactly the fields"),
        ('{"t": "seat", "seat": "two"}', "is invalid"),
        ('{"t": "intent", "id": "x", "version": -1, "move": {}}', "is invalid"),
        (
            '{"t": "hello", "token": null, "key": null, "waited": false, "name": "'
            + "x" * 30
            + '"}',
            "is invalid",
        ),
        ('"' + "x" * (MAX_BYTES + 1) + '"', "too large"),
    ],
)
def test_malformed_messages_get_a_reason_and_change_nothing(text: str, reason: str) -> None:
    net, host, anna, ben = room_of_three()
    before = engine.dumps(host.table.state)
    host.on_message("A", text)
    net.settle()
    assert reason in rejections(net, "A")[-1]["reason"]
    assert engine.dumps(host.table.state) == before


def test_an_unknown_connection_must_say_hello_first() -> None:
    net, host, anna, ben = room_of_three()
    net.nodes["X"] = type(
        "Sink", (), {"on_message": lambda *a: None, "on_leave": lambda *a: None}
    )()
    host.on_message("X", json.dumps({"t": "sync", "version": 0}))
    net.settle()
    assert "Say hello first" in rejections(net, "X")[-1]["reason"]


def test_a_guest_that_reconnects_gets_its_seat_and_hand_back() -> None:
    net, host, anna, ben = room_of_three()
    anna.submit(anna.view["legal_moves"][0])
    net.settle()
    hand, token = anna.view["hand"], anna.token
    net.disconnect("A")
    assert host.lobby()["members"][1]["connected"] is False
    again = net.add_guest("A2", "Anna", token)
    net.settle()
    assert again.view["seat"] == 1 and again.view["hand"] == hand
    assert again.view["my_submission"] is not None, "the pending choice survives"


def test_a_latecomer_watches_without_seeing_hands() -> None:
    net, host, anna, ben = room_of_three()
    late = net.add_guest("L", "Lou")
    net.settle()
    assert late.view["seat"] is None and "hand" not in late.view
    late.sit(0)
    net.settle()
    assert "seats are fixed" in rejections(net, "L")[-1]["reason"]


def test_the_host_survives_a_reload_and_guests_reconnect() -> None:
    net, host, anna, ben = room_of_three()
    anna.submit(anna.view["legal_moves"][0])
    net.settle()
    saved = json.loads(json.dumps(host.to_json()))
    net.disconnect("H")
    assert anna.status == "away"
    assert ben.submit(ben.view["legal_moves"][0]) is None and "away" in ben.notice
    reborn = type(host)(net.sender("H2", net.key.private), net.make_id, lambda: 99, "Hana", net.now)
    reborn.restore(saved)
    net.connect("H2", reborn)
    net.settle()
    assert anna.status == "joined" and anna.host == "H2"
    assert anna.view == reborn.view_for(anna.member)
    assert reborn.table.state == host.table.state


def test_gap_in_updates_triggers_a_snapshot() -> None:
    net, host, anna, ben = room_of_three()
    ben.submit(ben.view["legal_moves"][0])
    net.settle()
    host.submit(host.view_for(host.me)["legal_moves"][0])
    # Drop Anna's update; the next one no longer fits her version.
    net.queue = [m for m in net.queue if m[1] != "A"]
    host.tick()
    net.settle()
    assert anna.view == host.view_for(anna.member)


def test_room_links_round_trip_and_damaged_ones_are_explained() -> None:
    link = RoomLink.create("s" * 22, "k" * 43, ("ws://127.0.0.1:6969",))
    assert parse_fragment("#" + link.fragment()) == link
    with pytest.raises(WrongSecret, match="Cannot join this room"):
        parse_fragment(f"r={link.room}.{'t' * 22}&k={'k' * 43}")
    with pytest.raises(WrongSecret, match="Cannot join this room"):
        parse_fragment(f"r={link.room}.{'s' * 22}&k={'j' * 43}")  # another host's key
    for bad in (
        "r=",
        "r=room123456",
        "r=short.secret",
        "r=room123456." + "s" * 22 + "&relays=http://x",
    ):
        with pytest.raises(BadLink):
            parse_fragment(bad)


def test_a_links_relays_and_turn_servers_belong_to_its_room() -> None:
    """Whoever doctors a link to send its guests through other servers makes a link
    that opens nothing: the servers are part of what derives the room id."""
    turn = Turn(("turn:127.0.0.1:3478",), "user", "pass")
    link = RoomLink.create("s" * 22, "k" * 43, ("wss://relay.example",), turn)
    assert parse_fragment(link.fragment()) == link
    plain = RoomLink.create("s" * 22, "k" * 43, ())
    assert plain.room != link.room  # the same secret and key, other servers: another room
    for doctored in (
        link.fragment().replace("relay.example", "evil.example"),
        link.fragment().replace("tp=pass", "tp=other"),
        link.fragment().replace("turn%3A127.0.0.1", "turn%3A10.0.0.9"),
        plain.fragment() + "&relays=wss%3A%2F%2Fevil.example",
        link.fragment().split("&relays=")[0],  # its servers taken away
    ):
        with pytest.raises(WrongSecret, match="not the link it was opened with"):
            parse_fragment(doctored)


def test_a_link_names_at_most_eight_servers_of_each_kind_and_only_wss_relays() -> None:
    start = f"r={'a' * 12}.{'s' * 22}&k={'k' * 43}"
    many = ",".join(f"wss%3A%2F%2Fr{i}.example" for i in range(3000))
    with pytest.raises(BadLink, match="more than 8"):
        parse_fragment(f"{start}&relays={many}")
    turns = ",".join(f"turn%3Ah{i}.example%3A3478" for i in range(9))
    with pytest.raises(BadLink, match="more than 8"):
        parse_fragment(f"{start}&turn={turns}")
    for relay in ("ws://relay.example", "http://relay.example", "wss://a b"):
        with pytest.raises(BadLink):
            parse_fragment(f"{start}&relays={relay}")
    # The host's own settings are held to the same bound: its link would open nothing.
    with pytest.raises(BadLink, match="at most 8"):
        Turn.parse(" ".join(f"turn:h{i}.example:3478" for i in range(9)), "u", "p")
    # A relay on this very machine (make run, the tests) is a ws:// address.
    local = RoomLink.create("s" * 22, "k" * 43, ("ws://127.0.0.1:6969", "ws://localhost:7000"))
    assert parse_fragment(local.fragment()) == local


def test_parse_accepts_exactly_the_declared_fields() -> None:
    assert parse('{"t":"name","name":"Zed"}', GUEST_TYPES) == {"t": "name", "name": "Zed"}
    with pytest.raises(ProtocolError):
        parse('{"t":"name","name":"Zed","seat":0}', GUEST_TYPES)


def test_a_message_that_would_leak_a_secret_is_counted_dropped_and_the_room_goes_on() -> None:
    net, host, anna, ben = room_of_three()
    honest_view = host.table.view
    bens_hand = honest_view(2)["hand"]

    def leaky_view(seat):
        view = honest_view(seat)
        return view | {"peek": bens_hand}  # Ben's hand, for anyone

    host.table.view = leaky_view
    before = len(net.queue)
    host.on_message("A", json.dumps({"t": "sync", "version": 0}))
    assert len(net.queue) == before and host.leaks == 1, "the snapshot was dropped, not sent"
    # No exception unwinds the room: Ben's move is still played, and only the
    # messages that would carry his hand to Anna are held back.
    ben.submit(ben.view["legal_moves"][0])
    net.settle()
    assert len(host.table.record.moves) == 1 and host.leaks > 1
    assert not any("peek" in text for text in net.received["A"])
    assert ben.view["submitted"] == [False, False, True], "Ben's own view is no leak: sent"
    # Once the view is honest again, Anna catches up on the next tick.
    host.table.view = honest_view
    host.tick()
    net.settle()
    assert anna.view == host.view_for(anna.member)


def test_a_silent_host_counts_as_away_and_a_reborn_host_is_recognised() -> None:
    net, host, anna, ben = room_of_three()
    saved = json.loads(json.dumps(host.to_json()))
    # The host's page is gone, but the transport has not said so (no leave event).
    del net.nodes["H"]
    for _ in range(3):
        anna.beat()
    assert anna.status == "away" and anna.host is None
    reborn = type(host)(net.sender("H2", net.key.private), net.make_id, lambda: 5, "Hana", net.now)
    reborn.restore(saved)
    net.connect("H2", reborn)
    net.settle()
    assert anna.status == "joined" and anna.host == "H2"
    assert anna.view == reborn.view_for(anna.member)


def test_ticks_keep_a_guest_in_the_lobby_joined() -> None:
    net = Network()
    host = net.add_host()
    anna = net.add_guest("A", "Anna")
    net.settle()
    for _ in range(5):
        host.tick()
        net.settle()
        anna.beat()
        net.settle()
    assert anna.status == "joined"


def test_the_host_measures_each_guests_delay_from_its_ticks() -> None:
    """Half the best round trip of a tick and its pong: the correction for timed moves."""
    net, host, anna, _ = room_of_three()
    clock = [1000.0]
    host.now = lambda: clock[0]
    host.tick()
    clock[0] = 1080.0  # the pong comes back 80 ms later
    net.settle()
    member = next(m for m in host.members.values() if m.id == anna.member)
    assert member.delay == 40
    host.tick()
    clock[0] = 1130.0  # a quicker round trip (50 ms) is the better estimate
    net.settle()
    assert member.delay == 25
    # A pong claiming a time in the future is no measurement.
    host.on_message(member.peer, json.dumps({"t": "pong", "at": 99_999}))
    assert member.delay == 25


def dilemma_of_three(clock: list[float]):
    """A started game of Dilemma: the host and two guests, on the host clock ``clock[0]``."""
    net = Network()
    host = net.add_host()
    host.now = lambda: clock[0]
    host.configure(game="randolph")
    anna, ben = net.add_guest("A", "Anna"), net.add_guest("B", "Ben")
    net.settle()
    anna.sit(1)
    ben.sit(2)
    net.settle()
    host.start()
    net.settle()
    return net, host, anna, ben


def test_a_remote_throw_is_timed_by_the_host_less_its_measured_delay_capped() -> None:
    """Release = arrival - one-way delay, the correction at most 150 ms.

    static/rules/dilemma.html, 'Rulings'.
    """
    clock = [0.0]
    net, host, anna, ben = dilemma_of_three(clock)
    members = {m.name: m for m in host.members.values()}
    # Anna is on a slow link (400 ms round trip), Ben on a quick one (60 ms).
    host.tick()
    deliver_between(net, "H", "B")  # Ben's tick; his pong is now on its way
    clock[0] = 60.0
    deliver_between(net, "B", "H")
    clock[0] = 400.0
    net.settle()
    assert members["Anna"].delay == 200 and members["Ben"].delay == 30
    host.submit({"type": "challenge", "card": 5})
    net.settle()
    opened = clock[0] + host.view_for(host.me)["window"]["lead"]  # "throw!" after the countdown
    for guest in (anna, ben):
        card = next(m["card"] for m in guest.view["legal_moves"] if m["card"] != 5)
        guest.submit({"type": "throw", "card": card, "aim": 0, "power": 50, "spin": 0, "at": 0})
    clock[0] = opened + 1000
    net.settle()
    released = {t["seat"]: t["at"] for t in host.view_for(host.me)["arena"]}
    assert released == {1: 850, 2: 970}, "Anna's 200 ms is capped at 150; Ben's 30 ms is taken"
    # A guest cannot close the window: that is the host's clock's move.
    anna.submit({"type": "close", "at": 99_999})
    net.settle()
    assert rejections(net, "A")[-1]["reason"] == "Only the table's clock can do that."


def deliver_between(net: Network, src: str, dst: str) -> None:
    """Deliver the first message in flight from ``src`` to ``dst``."""
    net.deliver(next(i for i, m in enumerate(net.queue) if (m[0], m[1]) == (src, dst)))


@settings(max_examples=300)
@given(st.text())
def test_a_secret_is_quoted_exactly_as_messages_write_it(text: str) -> None:
    """The host's leak check matches secrets as JSON strings: the quick quoting of
    plain text must agree with the encoder for every text, escapes included."""
    assert _quoted(text) == json.dumps(text, ensure_ascii=False)


def test_a_rooms_turn_server_travels_in_its_link_and_bad_ones_are_explained() -> None:
    turn = Turn.parse("turn:127.0.0.1:3478, turns:relay.example.org:5349", "ann", "p@ss")
    link = RoomLink.create("s" * 22, "k" * 43, (), turn)
    assert parse_fragment(link.fragment()) == link
    assert link.turn is not None and link.turn.ice_servers() == [
        {
            "urls": ["turn:127.0.0.1:3478", "turns:relay.example.org:5349"],
            "username": "ann",
            "credential": "p@ss",
        }
    ]
    assert Turn.parse("  ", "", "") is None
    with pytest.raises(BadLink, match="turn:host:port"):
        Turn.parse("http://example.org", "", "")
    with pytest.raises(BadLink, match="may not hold"):
        Turn.parse("turn:a:1", "a b", "")


def test_answering_ticks_late_buys_no_throw_time_once_the_connection_is_measured() -> None:
    """Issue: a guest that held back its pongs got up to 150 ms more to throw. The
    host's browser measures the connection itself (ICE checks no page can slow); the
    credit is at most half of that plus the pages' own answering time."""
    clock = [0.0]
    net, host, anna, ben = dilemma_of_three(clock)
    members = {m.name: m for m in host.members.values()}
    host.tick()
    clock[0] = 400.0  # Anna's (and Ben's) pongs come 400 ms after the tick
    net.settle()
    assert members["Anna"].delay == 200
    assert host.credit(members["Anna"]) == 200, "with nothing measured, the pongs are all there is"
    host.on_transport_rtt("A", 20.0)
    host.on_transport_rtt("nobody", 1.0)  # no such connection: ignored
    host.on_transport_rtt("B", -5.0)  # no such time: ignored
    assert host.credit(members["Anna"]) == (20.0 + TRANSPORT_SLACK_MS) / 2
    assert host.credit(members["Ben"]) == 200 and "nobody" not in host.transport_rtt
    host.submit({"type": "challenge", "card": 5})
    net.settle()
    opened = clock[0] + host.view_for(host.me)["window"]["lead"]
    card = next(m["card"] for m in anna.view["legal_moves"] if m["card"] != 5)
    anna.submit({"type": "throw", "card": card, "aim": 0, "power": 50, "spin": 0, "at": 0})
    clock[0] = opened + 1000
    net.settle()
    released = {t["seat"]: t["at"] for t in host.view_for(host.me)["arena"]}
    assert released == {1: 1000 - 25}, "Anna's late pongs are worth nothing beyond the link's 20 ms"
    net.disconnect("A")
    net.settle()
    assert "A" not in host.transport_rtt


def _lobby_with(**changes: object) -> dict[str, object]:
    """A lobby as a host makes it for three people at The Game of Dilemmas, changed."""
    lobby: dict[str, object] = {
        "game": "dilemmas",
        "title": "The Game of Dilemmas",
        "options": {},
        "started": True,
        "host": "m1",
        "min": 3,
        "max": 6,
        "seats": [{"kind": "open", "level": "heuristic", "member": None, "name": None}] * 3,
        "members": [{"id": "m1", "name": "Hana", "seat": 0, "connected": True}],
        "patience": "normal",
        "locked": False,
    }
    return lobby | changes


@pytest.mark.parametrize(
    "lobby",
    [
        {},
        _lobby_with(seats="three"),
        _lobby_with(game="chess"),
        _lobby_with(min=1),
        _lobby_with(seats=[{"kind": "open", "level": "x", "member": None, "name": None}] * 7),
        _lobby_with(members=[{"id": "m", "name": "x", "seat": None, "connected": True}] * 65),
        _lobby_with(patience="forever"),
        _lobby_with(seats=[{"kind": "human", "level": "x", "member": None, "name": None}] * 3),
        _lobby_with(members=[{"id": "m1", "name": 7, "seat": 0, "connected": True}]),
        _lobby_with(started="yes"),
    ],
)
def test_a_lobby_the_screens_could_not_draw_is_refused_even_from_the_host(
    lobby: dict[str, object],
) -> None:
    """The lobby comes from the network: one its screens could not draw (a missing field,
    a game Quandary has not, a table that game cannot have) is not kept, even signed
    with the room's key, and the room plays on with the lobby it had."""
    net, host, anna, ben = room_of_three()
    kept = json.loads(json.dumps(anna.lobby))
    assert _lobby_with() != kept and read_lobby(_lobby_with()) == _lobby_with(), "a sound one"
    net.sender("H")("A", json.dumps({"t": "lobby", "lobby": lobby}))
    net.settle()
    assert anna.lobby == kept
    anna.submit(anna.view["legal_moves"][0])
    net.settle()
    assert ben.view["submitted"] == [False, True, False]


def test_a_sound_lobby_from_the_host_is_kept() -> None:
    """The check refuses only what is wrong: the host's own next lobby is kept whole."""
    net, host, anna, ben = room_of_three()
    net.add_guest("C", "Cleo")
    net.settle()
    assert anna.lobby == host.lobby() and anna.lobby["members"][-1]["name"] == "Cleo"


def test_a_guest_whose_hello_was_lost_answers_the_hosts_next_greeting() -> None:
    """A guest greets a host once per connection; if that hello is lost (the host's rate
    bound dropped it unread with a flood from the same page, or it came before the
    device was the host), the host greets the connection again at every beat, and the guest must
    answer, or its player sits at no table for good: seen in a browser test
    (``test_room_security.py``), where Ben was left "away" at the successor's table."""
    net, host, anna, ben = room_of_three()
    net.disconnect("B")
    ben.on_leave("H")  # as its page's transport tells it
    net.connect("B", ben)
    while not any(src == "B" and json.loads(text)["t"] == "hello" for src, _, text in net.queue):
        net.deliver()  # the host's greeting, answered
    net.queue = [m for m in net.queue if not (m[0] == "B" and json.loads(m[2])["t"] == "hello")]
    net.settle()
    assert host.members[ben.member].peer is None, "the hello was lost: the host does not know B"
    net.clock += 2_000  # the page's next timer beat
    host.tick()
    net.settle()
    assert host.members[ben.member].peer == "B"
    assert ben.view == host.view_for(ben.member)
