"""Own card packs in a room: the host's chosen packs travel to the guests with the
game's options, checked, bounded and cleaned; guests play them without having them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from quandary import engine
from quandary.engine import BadSetup
from quandary.games.dilemmas.own_cards import MAX_BYTES, MAX_PACKS, MAX_TEXT
from quandary.net.messages import MAX_BYTES as MESSAGE_BYTES
from quandary.net.messages import encode
from quandary.web.render.own_cards import room_own_cards

from .memnet import Network

GOOD = [f"You can paint with sound {i}" for i in range(24)]
BUT = [f"only in the attic {i}" for i in range(24)]


def own(good: list[str], but: list[str], name: str = "Attic", use: str = "instead") -> Any:
    return {"use": use, "packs": [{"name": name, "positive": good, "negative": but}]}


def room(options_own: Any) -> tuple[Network, Any, Any, Any]:
    net = Network()
    host = net.add_host("Hana")
    anna = net.add_guest("A", "Anna")
    ben = net.add_guest("B", "Ben")
    net.settle()
    host.configure(game="dilemmas")
    host.configure(options={**host.options, "own": options_own})
    net.settle()
    ids = {m["name"]: m["id"] for m in host.lobby()["members"]}
    assert host.sit(ids["Hana"], 0) is None
    anna.sit(1)
    ben.sit(2)
    net.settle()
    return net, host, anna, ben


def test_a_guest_gets_the_hosts_pack_cleaned_and_is_dealt_its_cards() -> None:
    hostile = ["You can sing\u202e\u0007 <b>loud</b>", *GOOD[1:]]
    net, host, anna, ben = room(own(hostile, BUT, "Attic\u200b"))
    chosen = anna.lobby["options"]["own"]
    assert chosen["packs"][0]["name"] == "Attic"
    assert chosen["packs"][0]["positive"][0] == "You can sing <b>loud</b>"
    html = room_own_cards(anna.lobby, None)[0]
    assert "Attic" in html and "<b>" not in html
    host.start()
    net.settle()
    hand = [c["text"] for c in anna.view["hand"]["positive"]]
    assert len(hand) == 4 and all(t in chosen["packs"][0]["positive"] for t in hand)
    # The pack itself is public, as a printed deck is (the lobby lists it); which of
    # its cards lie where is not: no view or update names a card Anna has not seen.
    state = host.table.state
    secrets = engine.game_of(state).secrets(state, 1)
    assert any(t.startswith("You can paint") for t in secrets)
    tables = [t for t in net.received["A"] if '"t":"lobby"' not in t]
    assert any('"t":"snapshot"' in t for t in tables)
    for text in tables:
        assert not any(json.dumps(s) in text for s in secrets)
    assert host.leaks == 0


@pytest.mark.parametrize(
    "bad",
    [
        own(["x" * (MAX_TEXT + 1)], BUT),
        own(GOOD, ["same", "Same"]),
        {"use": "mix", "packs": [own(GOOD, BUT)["packs"][0]] * (MAX_PACKS + 1)},
        {"use": "mix", "packs": "everything"},
        own([], [], use="sometimes"),
    ],
)
def test_the_host_cannot_hand_its_guests_a_pack_the_rules_refuse(bad: Any) -> None:
    net = Network()
    host = net.add_host("Hana")
    anna = net.add_guest("A", "Anna")
    net.settle()
    host.configure(game="dilemmas")
    before = json.dumps(host.options)
    with pytest.raises(BadSetup):
        host.configure(options={**host.options, "own": bad})
    net.settle()
    assert json.dumps(host.options) == before
    assert anna.lobby["options"] == json.loads(before)


def test_a_pack_too_small_for_the_table_is_refused_at_the_start_with_the_count() -> None:
    net, host, anna, _ = room(own(GOOD[:20], BUT))
    text, blocked = room_own_cards(host.lobby(), None)
    assert blocked == ("The chosen packs are too small for 3 players: 4 good cards missing.")
    with pytest.raises(BadSetup, match="4 good cards missing"):
        host.start()
    assert host.table is None


def test_the_largest_packs_a_game_takes_fit_in_one_lobby_message() -> None:
    # Four packs of the longest cards in a three-byte script, up to the byte budget.
    packs, size = [], 0
    for p in range(MAX_PACKS):
        cards = [f"{p}{i:02d}" + "語" * (MAX_TEXT - 3) for i in range(25)]
        packs.append({"name": f"Pack {p}" + "名" * 30, "positive": cards, "negative": []})
    net, host, anna, _ = room({"use": "mix", "packs": packs[:2]})
    size = len(json.dumps(host.options["own"]["packs"], ensure_ascii=False).encode())
    assert size <= MAX_BYTES
    assert len(encode({"t": "lobby", "lobby": host.lobby()}).encode()) < MESSAGE_BYTES
    assert anna.lobby["options"]["own"]["packs"] == host.options["own"]["packs"]


def test_a_garbled_lobby_from_a_host_reads_as_no_own_packs() -> None:
    for lobby in (
        {},
        {"game": "dilemmas", "options": "x", "seats": []},
        {"game": "dilemmas", "options": {"own": {"use": "mix", "packs": [1]}}, "seats": [1]},
    ):
        assert room_own_cards(lobby, None) == ("", None)


def test_through_the_screens_the_host_ticks_its_pack_and_a_small_one_keeps_start_off() -> None:
    from quandary.web.own_packs import KEY

    from .test_room_screens import open_room, seat_everyone

    net, host, (anna, ben) = open_room()
    host.storage[KEY] = json.dumps(
        {"p1": {"name": "Attic", "positive": GOOD[:20], "negative": BUT}}
    )
    seat_everyone(net, host, [anna, ben])
    host.press("field", field="room-own-pack", pack="p1", checked="true")
    host.press("field", field="room-own-use", value="instead")
    net.settle()
    assert "Attic" in anna.html() and "20 good · 24 “but”" in anna.html()
    blocked = "The chosen packs are too small for 3 players: 4 good cards missing."
    assert blocked in anna.html() and blocked in host.html()
    start = re.search(r'<button[^>]*id="room-start"[^>]*>', host.html())
    assert start is not None and "disabled" in start[0]
    # The host reloads: its pack is still ticked, and the room's game still holds it.
    host.reload()
    net.settle()
    assert 'id="room-own-p1" checked' in host.html()
    host.press("field", field="room-own-pack", pack="p1", checked="false")
    host.press("field", field="room-own-use", value="mix")
    net.settle()
    assert "Attic" not in anna.html() and blocked not in host.html()
    host.press("room-start")
    net.settle()
    assert anna.room_view()["seat"] == 1
