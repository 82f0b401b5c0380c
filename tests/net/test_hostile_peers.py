"""A hostile guest against the room protocol: each attack is refused and the room goes on."""

from __future__ import annotations

import json

import pytest

from quandary import engine
from quandary.net import budget
from quandary.net import host as host_module
from quandary.net.messages import GUEST_TYPES, HOST_TYPES, MAX_DEPTH, ProtocolError, parse

from .hostile import HostilePeer
from .memnet import HostKey, Network, sign
from .test_room_protocol import rejections, room_of_three


def honest_move_still_works(net: Network, host, guest) -> None:
    """The room is alive: an honest guest's move is played and everyone hears of it."""
    before = len(host.table.record.moves)
    guest.submit(guest.view["legal_moves"][0])
    net.settle()
    assert len(host.table.record.moves) == before + 1
    assert guest.view == host.view_for(guest.member)


@pytest.mark.parametrize("types", [GUEST_TYPES, HOST_TYPES], ids=["to-host", "to-guest"])
def test_deep_nesting_is_refused_before_parsing(types) -> None:
    for depth in (MAX_DEPTH + 1, 6_000, 30_000):
        with pytest.raises(ProtocolError, match="nested too deeply"):
            parse('{"t":"sync","version":' + "[" * depth + "]" * depth + "}", types)
        with pytest.raises(ProtocolError):
            parse("[" * depth, types)  # unbalanced, however deep: refused without recursion


def test_nesting_within_the_limit_and_brackets_in_text_are_fine() -> None:
    parse('{"t":"name","name":"[[[[{{{{"}', GUEST_TYPES)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ('"\\ud800"', "lone surrogate"),
        ('"Zed\\u0000"', "control characters"),
        ('"a\\u202eb"', "control characters"),
    ],
)
def test_broken_text_is_refused_and_the_room_goes_on(name: str, reason: str) -> None:
    net, host, anna, ben = room_of_three()
    host.on_message("A", '{"t": "name", "name": ' + name + "}")
    host.on_message(
        "A", '{"t": "hello", "token": null, "key": null, "waited": false, "name": ' + name + "}"
    )
    net.settle()
    assert reason in rejections(net, "A")[-1]["reason"]
    assert all(len(m["name"]) <= 20 for m in host.lobby()["members"])
    honest_move_still_works(net, host, ben)
    json.dumps(host.to_json()).encode("utf-8")  # what is saved with the room encodes


def test_names_are_normalised_before_anyone_stores_them() -> None:
    net = Network()
    host = net.add_host()
    zoe = net.add_guest("Z", "  Zoe\u0301   x ")
    net.settle()
    assert [m["name"] for m in host.lobby()["members"]] == ["Hana", "Zoé x"]
    assert zoe.status == "joined"


@pytest.mark.parametrize("name", ["\ud800Hana", "Hana\udfff", "\u0007Ha\u200bna\ud83d"])
def test_the_hosts_own_name_is_cleaned_like_any_guests_and_the_room_lives(name: str) -> None:
    """The host's own input is input too: a name with a lone surrogate (pasted
    from a broken clipboard, or typed by a cheat) used to make every broadcast
    fail to encode, so the room died on its host's own words."""
    net, host, anna, ben = room_of_three(host_name=name)  # the host sits as "Hana"
    assert [m["name"] for m in host.lobby()["members"]] == ["Hana", "Anna", "Ben"]
    honest_move_still_works(net, host, anna)
    json.dumps(host.to_json()).encode("utf-8")  # what is saved with the room encodes


def test_a_move_whose_type_is_not_text_is_refused_with_a_reason() -> None:
    net, host, anna, ben = room_of_three()
    bad = {"t": "intent", "id": "x1", "version": 0, "move": {"type": ["build"]}}
    host.on_message("A", json.dumps(bad))
    net.settle()
    assert "is invalid" in rejections(net, "A")[-1]["reason"]
    assert host.table.record.moves == ()
    honest_move_still_works(net, host, anna)


def test_a_hello_flood_from_one_connection_makes_one_member() -> None:
    net, host, anna, ben = room_of_three()
    before = len(host.members)
    for i in range(2_000):
        host.on_message(
            "A",
            json.dumps(
                {"t": "hello", "token": None, "name": f"x{i}", "key": None, "waited": False}
            ),
        )
    net.settle()
    assert len(host.members) == before
    honest_move_still_works(net, host, ben)


def test_a_room_takes_a_bounded_number_of_members() -> None:
    net = Network()
    host = net.add_host()
    for i in range(60):
        net.add_guest(f"G{i}", f"Guest {i}")
    net.settle()
    seats = engine.get(host.game).spec.max_players
    assert len(host.members) <= seats + host_module.WAITING
    assert "try again in a minute" in rejections(net, "G59")[-1]["reason"]
    assert len(json.dumps(host.lobby())) < 8_000


def test_a_sync_flood_costs_one_snapshot() -> None:
    net, host, anna, ben = room_of_three()
    net.settle()
    net.received.clear()
    for _ in range(2_000):
        host.on_message("A", json.dumps({"t": "sync", "version": 0}))
    snapshots = [t for src, dst, t in net.queue if dst == "A" and "snapshot" in t]
    assert len(snapshots) == 1
    net.settle()
    honest_move_still_works(net, host, ben)


def test_a_flood_of_any_kind_is_cut_off_cheaply_and_the_room_goes_on(monkeypatch) -> None:
    net, host, anna, ben = room_of_three()
    parsed = []
    real_read = host_module.read_guest
    monkeypatch.setattr(host_module, "read_guest", lambda *a: parsed.append(1) or real_read(*a))
    for i in range(2_000):
        host.on_message("A", json.dumps({"t": "name", "name": f"n{i}"}))
    assert len(parsed) <= budget.BURST + 10, "a flood must not be parsed message by message"
    net.settle()
    honest_move_still_works(net, host, ben)


def test_a_pong_for_a_tick_never_sent_measures_nothing() -> None:
    net, host, anna, ben = room_of_three()
    clock = [5_000.0]
    host.now = lambda: clock[0]
    member = next(m for m in host.members.values() if m.id == anna.member)
    host.on_message("A", json.dumps({"t": "pong", "at": 4_999}))  # a tick never sent
    assert member.round_trips == []
    host.tick()
    clock[0] = 5_080.0
    net.settle()
    assert member.delay == 40
    host.on_message("A", json.dumps({"t": "pong", "at": 5_000}))  # the same tick, again
    assert member.round_trips == [80.0]


def test_one_bad_message_never_breaks_the_room(monkeypatch) -> None:
    """A bug in handling one message is contained: the sender is told, the room goes on."""
    net, host, anna, ben = room_of_three()

    def broken(*args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(host, "_rename", broken)
    host.on_message("A", json.dumps({"t": "name", "name": "Ann"}))
    net.settle()
    assert host.errors == 1
    assert "could not be handled" in rejections(net, "A")[-1]["reason"]
    honest_move_still_works(net, host, ben)


def forged_snapshot(version: int = 999) -> str:
    view = {"seat": 1, "version": version, "legal_moves": [], "names": ["<script>"]}
    return json.dumps({"t": "snapshot", "version": version, "view": view})


def test_a_guest_cannot_speak_as_the_host_to_anyone() -> None:
    net, host, anna, ben = room_of_three()
    view = dict(anna.view)
    # Ben sends Anna a "host" message, plain and with a signature of his own key.
    impostor = HostKey()
    net.queue.append(("B", "A", forged_snapshot()))
    forged = sign(impostor.private, "testroom0001", "B", "A", 1, forged_snapshot())
    net.queue.append(("B", "A", forged))
    net.settle()
    assert anna.view == view and anna.host == "H"
    assert net.forged == 1


def test_a_captured_host_message_cannot_be_replayed() -> None:
    net, host, anna, ben = room_of_three()
    host.tick()
    signed = next(t for src, dst, t in net.queue if (src, dst) == ("H", "A"))
    net.settle()
    before = net.forged
    net.queue.append(("B", "A", signed))  # replayed by another connection
    net.queue.append(("H", "A", signed))  # or by the network itself, again
    net.settle()
    assert net.forged == before + 2


def test_seat_tokens_go_to_the_verified_host_only_also_across_a_host_reload() -> None:
    net, host, anna, ben = room_of_three()
    saved = json.loads(json.dumps(host.to_json()))
    sent: list[tuple[str, str, str]] = []
    real_deliver = net.deliver

    def audit(index: int = 0) -> None:
        sent.append(net.queue[index])
        real_deliver(index)

    net.deliver = audit
    net.disconnect("H")
    # A guest (or anyone with the link) joins while the host is away and waits to be greeted.
    lurker = net.add_guest("X", "Xavier")
    net.settle()
    for guest in (anna, ben):
        guest.beat()
    net.settle()
    reborn = type(host)(net.sender("H2", net.key.private), net.make_id, lambda: 5, "Hana", net.now)
    reborn.restore(saved)
    net.connect("H2", reborn)
    net.settle()
    assert anna.status == "joined" and anna.host == "H2"
    for token in (anna.token, ben.token):
        carriers = {(src, dst) for src, dst, text in sent if token in text}
        assert carriers and all(dst == "H2" or src in ("H", "H2") for src, dst in carriers)
    assert lurker.token is not None and lurker.token not in (anna.token, ben.token)


def test_the_same_seat_in_a_second_tab_takes_it_and_the_first_stops() -> None:
    net, host, anna, ben = room_of_three()
    second = net.add_guest("A2", "Anna", anna.token)
    net.settle()
    assert second.view["seat"] == 1 and second.status == "joined"
    assert anna.status == "replaced"
    queued = len(net.queue)
    assert anna.submit(anna.view["legal_moves"][0]) is None and "another tab" in anna.notice
    anna.beat()
    anna.retry()
    assert len(net.queue) == queued, "the replaced tab sends nothing"
    second.submit(second.view["legal_moves"][0])
    net.settle()
    assert host.table.record.moves[-1][0] == 1
    for _ in range(3):
        host.tick()
        net.settle()
    assert second.status == "joined" and anna.status == "replaced"


def assert_the_room_goes_on(net: Network, host, guests, mallory: HostilePeer) -> None:
    """Nothing lost, nothing leaked: every honest guest sees what the host shows it,
    no seat's secret or token reached the attacker, and a move is still played."""
    net.settle()
    host.tick()
    net.settle()
    for guest in guests:
        assert guest.status == "joined" and guest.host == "H"
        assert guest.view == host.view_for(guest.member)
        assert guest.token not in mallory.heard()
    state = host.table.state
    game = engine.game_of(state)
    for secret in game.secrets(state, None):
        assert json.dumps(secret) not in mallory.heard()
    assert host.leaks == 0 and host.errors == 0
    honest_move_still_works(net, host, guests[-1])


def test_every_attack_at_once_and_the_room_goes_on() -> None:
    net, host, anna, ben = room_of_three()
    moves_before = host.table.record.moves
    mallory = HostilePeer(net)
    mallory.greet("H")
    net.settle()
    host.tick()
    captured = next(t for src, dst, t in net.queue if (src, dst) == ("H", "A"))
    net.settle()
    for target in ("A", "B"):
        mallory.pose_as_host(target)
        mallory.replay_host_message(captured, target)
        mallory.nest(target)
    mallory.claim_seat_with("H", "not-a-token-anyone-has")
    mallory.broken_names("H")
    mallory.nest("H")
    mallory.forge_pong("H", 1)
    mallory.odd_moves("H")
    mallory.flood("H", {"t": "sync", "version": 0})
    mallory.flood("H", {"t": "hello", "token": None, "name": "again", "key": None, "waited": False})
    net.settle()
    assert host.table.record.moves == moves_before
    assert all(m.name != "Anna 2" for m in host.members.values())
    assert_the_room_goes_on(net, host, [anna, ben], mallory)


def test_an_attack_during_a_host_reload_finds_nobody_to_fool() -> None:
    net, host, anna, ben = room_of_three()
    saved = json.loads(json.dumps(host.to_json()))
    mallory = HostilePeer(net)
    net.disconnect("H")
    for target in ("A", "B"):
        mallory.pose_as_host(target)
    net.settle()
    assert anna.host is None and anna.status == "away"
    reborn = type(host)(net.sender("H2", net.key.private), net.make_id, lambda: 5, "Hana", net.now)
    reborn.restore(saved)
    net.connect("H2", reborn)
    net.settle()
    assert anna.host == "H2" and ben.host == "H2"
    assert anna.token not in mallory.heard() and ben.token not in mallory.heard()
    assert anna.view == reborn.view_for(anna.member)


def test_a_guest_cannot_take_a_name_that_only_looks_like_the_hosts() -> None:
    net = Network()
    host = net.add_host("Hana")
    net.add_guest("Z", "Ha\u200bna\u2060")
    net.settle()
    assert [m["name"] for m in host.lobby()["members"]] == ["Hana", "Hana 2"]
