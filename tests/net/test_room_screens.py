"""Room screens under CPython: whole devices (the page's controller) over the in-memory network.

Each device is the same ``Controller`` the browser runs, with its own storage;
this file plays the page glue: it carries out the controller's effects (open
the room's transport, change the address) by connecting the device's room to
the in-memory network, and presses buttons by dispatching actions.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from quandary import catalog, engine
from quandary.engine import BadView, moves
from quandary.net.host import ALONE_BEATS, PATIENCE
from quandary.net.succession import SUCCESSION_MS
from quandary.web.actions import (
    CloseRoom,
    CopyText,
    MakeHostKey,
    OpenRoom,
    SaveRoom,
    SetHash,
    UnknownAction,
)
from quandary.web.controller import Controller
from quandary.web.room_controller import SEARCH_PATIENCE
from quandary.web.storage import MemoryStorage

from .memnet import HostKey, Network, private_key


@dataclass
class Device:
    """One browser: a controller, its storage, its address and its connection."""

    name: str
    net: Network
    storage: MemoryStorage = field(default_factory=MemoryStorage)
    fragment: str = ""
    connection: int = 0
    controller: Controller = field(init=False)

    def __post_init__(self) -> None:
        self.boot()

    def boot(self) -> None:
        """Open the page (again): a new controller on the same storage and address."""
        ids = iter(range(10**6))
        self.controller = Controller(
            self.storage,
            lambda: 4242,
            lambda: f"{self.name}-{next(ids):04d}-secret-id-padding",
            page="http://127.0.0.1/",
            now=self.net.now,
        )
        self.controller.form.seats[0].name = self.typed_name()
        if self.fragment:
            self.controller.open_fragment("#" + self.fragment)
            self.glue()

    def typed_name(self) -> str:
        """The name the player typed (the network's ids are made from ``name``)."""
        return self.name

    @property
    def peer(self) -> str:
        return f"{self.name}#{self.connection}"

    def glue(self) -> list[Any]:
        """Carry out the controller's effects as the page would."""
        effects = self.controller.take_effects()
        for effect in effects:
            if isinstance(effect, MakeHostKey):
                # The page's WebCrypto makes it; here, the network's real Ed25519 key.
                self.controller.host_key_made(self.net.key.public, self.net.key.pkcs8)
                effects += self.controller.take_effects()
            elif isinstance(effect, SetHash):
                self.fragment = effect.fragment
            elif isinstance(effect, CloseRoom):
                self.net.disconnect(self.peer)
            elif isinstance(effect, OpenRoom):
                self.connection += 1
                room = self.controller.room
                assert room is not None
                # The room's key, or a successor's own device key kept with its room.
                key = private_key(effect.signing_key) if effect.signing_key else None
                send = self.net.sender(self.peer, key)
                # The page makes this device's own key pair as it opens the room.
                device = self.net.devices.setdefault(self.peer, HostKey())
                self.net.trusted[self.peer] = list(effect.trusted)
                signing = self.net.signing(self.peer)
                room.opened(send, False, signing, (device.public, device.pkcs8))
                self.net.connect(self.peer, room)
            elif isinstance(effect, SaveRoom) and self.controller.room is not None:
                self.controller.room.persist()
        return effects

    def press(self, action: str, **data: Any) -> None:
        self.controller.dispatch(action, {k: str(v) for k, v in data.items()})
        self.glue()

    def html(self) -> str:
        return self.controller.render()

    def room_view(self) -> dict[str, Any] | None:
        room = self.controller.room
        assert room is not None
        return room.table.view()

    def reload(self) -> None:
        """Close the tab and open the same address again (what it saved survives)."""
        self.glue()
        self.net.disconnect(self.peer)
        self.boot()

    def close(self) -> None:
        self.net.disconnect(self.peer)


def open_room(game: str = "dilemmas", guests: tuple[str, ...] = ("Anna", "Ben")):
    net = Network()
    host = Device("Hana", net)
    host.press("create-room")
    assert host.fragment.startswith("r=")
    if game != "dilemmas":
        host.press("field", field="room-game", value=game)
    devices = [Device(name, net, fragment=host.fragment) for name in guests]
    net.settle()
    return net, host, devices


def seat_everyone(net: Network, host: Device, guests: list[Device]) -> None:
    spec = engine.get(host.controller.room.lobby["game"]).spec
    count = max(spec.min_players, len(guests) + 1)
    host.press("field", field="room-seat-count", value=count)
    host.press("room-sit", seat=0)
    for i, guest in enumerate(guests, start=1):
        guest.press("room-sit", seat=i)
        net.settle()
    for seat in range(len(guests) + 1, count):
        host.press("field", field="room-seat-kind", seat=seat, value="bot:random")
    net.settle()


def started(game: str = "dilemmas", guests: tuple[str, ...] = ("Anna", "Ben")):
    """A room of ``game`` whose guests all sit, started by its host: (net, host, guests)."""
    net, host, devices = open_room(game, guests)
    seat_everyone(net, host, devices)
    host.press("room-start")
    net.settle()
    return net, host, devices


def beat(net: Network, devices: list[Device], times: int) -> None:
    """The two-second timer on each of ``devices``, ``times`` over."""
    for _ in range(times):
        net.clock += 2000
        for device in devices:
            device.controller.room.on_timer()
            device.glue()
        net.settle()


def play_on(net: Network, devices: list[Device], limit: int = 5000) -> None:
    """Every device acts through its screen until the game is over: results are stepped
    through with Next, moves are the first legal one pressed as a move button."""
    tried: dict[str, int] = {}
    for _ in range(limit):
        net.settle()
        acted = False
        for device in devices:
            room = device.controller.room
            view = room.table.view()
            if view is None:
                continue
            authority = engine.get(view["game"]).spec.authority_moves
            offered = [m for m in view["legal_moves"] if m["type"] not in authority]
            if room.table.seen < room.table.checkpoints():
                device.press("next")
                acted = True
            elif offered and not view.get("result") and tried.get(device.name) != view["version"]:
                # Once per state: in a timed window a move may wait for the clock.
                tried[device.name] = view["version"]
                device.press("move", move=json.dumps(moves.concrete(offered[0], lambda a, b: a)))
                acted = True
        if not acted:
            return
    raise AssertionError("the room's game did not end")


def play_to_the_end(net: Network, hosting: Device, devices: list[Device]) -> None:
    """``play_on``, and whenever nobody can act, the hosting device's table clock runs on
    (a throw window closes, a bot's timed move lands) until the game has its result."""
    clock = hosting.controller.room.table.authority
    for _ in range(400):
        play_on(net, devices)
        if hosting.room_view().get("result"):
            return
        wake = clock.next_wakeup()
        assert wake is not None, "nobody can act and no clock runs"
        net.clock = max(net.clock, wake + 1)
        assert hosting.controller.on_clock()


def test_a_guest_joins_sits_and_sees_the_host_start() -> None:
    net, host, (anna, ben) = open_room()
    assert 'id="room-link"' in host.html() and html.escape(host.fragment) in host.html()
    assert "You are the host" in host.html()
    assert "Connected to the room." in anna.html()
    assert "Anna" in host.html() and "Ben" in host.html()
    seat_everyone(net, host, [anna, ben])
    assert 'data-action="room-start"' in host.html()
    assert "disabled" not in re.search(r'<button[^>]*id="room-start"[^>]*>', host.html())[0]
    host.press("room-start")
    net.settle()
    for device in (host, anna, ben):
        assert 'class="scoreboard"' in device.html(), device.name
    assert anna.room_view()["seat"] == 1 and ben.room_view()["seat"] == 2


def test_a_whole_game_in_a_room_through_the_screens() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    play_on(net, [host, anna, ben])
    for device in (host, anna, ben):
        assert "final-title" in device.html(), device.name
    assert 'data-action="again"' in host.html()
    assert 'data-action="again"' not in anna.html()
    assert "The host can start the next game." in anna.html()
    assert 'data-action="leave-room"' in anna.html()
    host.press("again")
    net.settle()
    for device in (host, anna, ben):
        assert 'class="room-lobby"' in device.html(), device.name


@pytest.mark.parametrize("game", [g.spec.id for g in engine.all_games()])
def test_every_game_plays_to_the_end_in_a_room(game: str) -> None:
    net, host, (anna,) = open_room(game, guests=("Anna",))
    seat_everyone(net, host, [anna])
    host.press("room-start")
    net.settle()
    play_to_the_end(net, host, [host, anna])
    net.settle()
    assert anna.room_view() == host.controller.room.host.view_for(
        host.controller.room.host.members[anna.controller.room.my_member()].id
    )
    assert "final-title" in anna.html()
    # The guest has only views, yet tells the whole story: why, the chart, the log.
    screen = anna.html()
    assert 'class="why"' in screen and 'class="score-chart"' in screen
    assert screen.count('<tr><th scope="row">') == len(anna.room_view()["result"]["history"])
    assert 'id="download-log"' in screen


def test_a_guest_who_reloads_gets_the_seat_and_the_game_back() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    hand = anna.room_view()["hand"]
    device_key = anna.controller.room.device
    anna.reload()
    net.settle()
    assert anna.room_view()["seat"] == 1 and anna.room_view()["hand"] == hand
    assert anna.controller.room.device == device_key, "the device keeps its key with the room"
    # A damaged key pair in the record is dropped: the page's new one is used, the seat kept.
    anna.glue()  # what the page had to save is saved before the record is damaged
    key = next(k for k in anna.storage if k.startswith("quandary.room."))
    record = json.loads(anna.storage[key])
    anna.storage[key] = json.dumps({**record, "device": ["<b>x</b>", "\u202e" * 3]})
    anna.reload()
    net.settle()
    assert anna.room_view()["seat"] == 1 and anna.room_view()["hand"] == hand
    assert anna.controller.room.device not in (None, device_key, ("<b>x</b>", "\u202e" * 3))
    move = anna.room_view()["legal_moves"][0]
    anna.press("move", move=json.dumps(move))
    net.settle()
    assert host.controller.room.host.table.record.moves[-1][0] == 1


def test_the_host_reloads_and_the_game_goes_on() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    anna.press("move", move=json.dumps(anna.room_view()["legal_moves"][0]))
    net.settle()
    version = host.room_view()["version"]
    host.reload()
    net.settle()
    assert "You are the host" in host.html()
    assert host.room_view()["version"] == version
    assert anna.room_view()["version"] == version
    ben.press("move", move=json.dumps(ben.room_view()["legal_moves"][0]))
    net.settle()
    assert ben.room_view()["submitted"] == [False, True, True]


def test_a_move_while_the_host_is_away_is_not_sent_and_says_so() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    host.close()
    assert "paused" in anna.html()
    anna.press("move", move=json.dumps(anna.room_view()["legal_moves"][0]))
    assert "not sent" in anna.html()


def test_a_latecomer_watches_without_a_seat() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    cy = Device("Cy", net, fragment=host.fragment)
    net.settle()
    assert "You are watching" in cy.html()
    assert cy.room_view()["seat"] is None and cy.room_view()["legal_moves"] == []


def test_a_guest_cannot_start_or_configure_the_room() -> None:
    net, host, (anna, ben) = open_room()
    anna.press("room-start")
    assert "Only the host starts the game." in anna.html()
    anna.press("field", field="room-game", value="royal")
    net.settle()
    assert host.controller.room.lobby["game"] == "dilemmas"


def test_the_host_chooses_the_game_and_guests_see_it() -> None:
    net, host, (anna, ben) = open_room()
    host.press("field", field="room-game", value="royal")
    net.settle()
    assert "Royal Dilemma · room" in anna.html()


def test_copy_link_asks_the_page_to_copy_and_says_so() -> None:
    net, host, _ = open_room()
    host.glue()
    host.controller.dispatch("copy-link", {})
    effects = host.controller.take_effects()
    assert effects == [CopyText(host.controller.room.url, "room-link")]
    assert "Link copied" in host.html()


def test_leaving_the_room_closes_it_and_clears_the_address() -> None:
    net, host, (anna, ben) = open_room()
    anna.press("leave-room")
    assert anna.fragment == "" and anna.controller.room is None
    assert "Pick a dilemma" in anna.html()
    net.settle()
    # Anna had no seat: she has nothing to come back to, so the room forgets her.
    members = {m["name"]: m["connected"] for m in host.controller.room.lobby["members"]}
    assert "Anna" not in members and members["Ben"] is True


def test_a_guest_that_finds_nobody_is_told_so_after_a_while() -> None:
    net = Network()
    lonely = Device("Lone", net, fragment="")
    lonely.controller.open_fragment("#" + _fragment_of_a_room_nobody_hosts())
    lonely.glue()
    assert "Looking for the room" in lonely.html()
    for _ in range(SEARCH_PATIENCE):
        lonely.controller.room.on_timer()
    assert "Nobody has answered yet" in lonely.html()


def test_an_unknown_action_is_an_error_in_a_room_too() -> None:
    net, host, (anna, ben) = open_room()
    with pytest.raises(UnknownAction):
        anna.controller.dispatch("sitt", {})
    with pytest.raises(UnknownAction):
        anna.controller.dispatch("abandon", {})


def test_a_bad_move_button_is_refused_with_a_sentence() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    host.press("move", move="not json")
    assert "does not hold a move" in host.html()
    host.press("move", move=json.dumps({"type": "build", "positive": "nope"}))
    assert 'class="form-error"' in host.html()


def _fragment_of_a_room_nobody_hosts() -> str:
    from quandary.net.link import RoomLink

    return RoomLink.create("S" * 22, "K" * 43, ()).fragment()


def test_a_room_that_cannot_open_says_why_and_offers_a_new_one() -> None:
    net, host, (anna, ben) = open_room()
    anna.controller.room.failed("You are offline: rooms need a network connection.")
    html = anna.html()
    assert "You are offline" in html and 'data-action="create-room"' in html
    assert anna.controller.announcement() == "You are offline: rooms need a network connection."


def test_a_link_whose_secret_the_others_cannot_use_is_explained() -> None:
    net = Network()
    lonely = Device("Lone", net, fragment=_fragment_of_a_room_nobody_hosts())
    lonely.controller.room.on_join_error("incorrect room password when decrypting offer")
    assert "secret does not match" in lonely.html()


# What Trystero says when the offers were exchanged but no network path joined the devices.
NO_PATH = "could not connect to peer p1 after exchanging SDP; configure TURN servers"


def test_a_guest_behind_a_firewall_is_told_a_turn_server_helps_not_that_the_secret_is_wrong():
    net = Network()
    lonely = Device("Lone", net, fragment=_fragment_of_a_room_nobody_hosts())
    lonely.controller.room.on_join_error(NO_PATH)
    html = lonely.html()
    assert "cannot connect to the host&#x27;s" in html
    assert "TURN server under Connection settings" in html
    assert "secret" not in html


def test_a_guest_whose_room_turn_server_does_not_help_is_told_to_check_it() -> None:
    from quandary.net.link import RoomLink, Turn

    turn = Turn(("turn:turn.example.org:3478",), "u", "p")
    fragment = RoomLink.create("S" * 22, "K" * 43, (), turn).fragment()
    lonely = Device("Lone", Network(), fragment=fragment)
    lonely.controller.room.on_join_error(NO_PATH)
    html = lonely.html()
    assert "not even through the room&#x27;s TURN server" in html
    assert "secret" not in html


def test_a_guest_who_was_let_in_keeps_its_table_when_a_later_connection_fails() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    for error in (NO_PATH, "incorrect room password when decrypting answer"):
        anna.controller.room.on_join_error(error)
    assert "Connected to the room." in anna.html()
    host.close()  # away: a stray peer failing to connect does not end the game here
    for error in (NO_PATH, "incorrect room password when decrypting answer"):
        anna.controller.room.on_join_error(error)
    assert "paused" in anna.html() and anna.room_view() is not None


def test_a_host_whose_saved_room_is_damaged_is_told_and_can_start_afresh() -> None:
    net, host, _ = open_room()
    host.glue()
    key = next(k for k in host.storage if k.startswith("quandary.room."))
    secret = host.controller.room.link.secret
    record = json.loads(host.storage[key])
    host.storage[key] = json.dumps({"role": "host", "secret": secret, "key": record["key"]})
    host.reload()
    assert "saved game could not be read" in host.html()
    host.press("create-room")
    assert "You are the host" in host.html()


def test_a_damaged_view_from_the_host_is_reported_not_raised() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    guest = anna.controller.room.guest
    guest.view = {**guest.view, "hand": None, "history": 7}
    assert "This table cannot be drawn" in anna.html()
    assert anna.controller.announcement() is not None
    net.settle()
    host.controller.room.host.tick()
    net.settle()
    guest.view = host.controller.room.host.view_for(guest.member)
    assert "This table cannot be drawn" not in anna.html()


def test_a_damaged_lobby_from_the_host_is_refused_and_the_room_stays_drawn() -> None:
    """A lobby the screens could not draw, even signed with the room's key, is not kept
    (``net/lobby.py``): the guest's room screen stays as it was, with no error."""
    net, host, (anna, ben) = open_room()
    before = anna.html()
    assert "Dilemmas · room" in before
    good = anna.controller.room.guest.lobby
    send = net.sender(host.peer, net.key.private)
    for damaged in (
        {**good, "game": "chess", "seats": "all"},
        {**good, "started": True, "members": [None]},
    ):
        send(anna.peer, json.dumps({"t": "lobby", "lobby": damaged}))
        net.settle()
        assert anna.controller.room.guest.lobby == good
        assert anna.html() == before and "cannot be" not in before


def test_the_host_is_offered_a_bot_for_a_player_who_left_and_the_player_gets_it_back() -> None:
    net, host, (anna, ben) = open_room()
    host.press("field", field="room-patience", value="short")
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    ben.close()
    net.settle()
    assert "Let a bot play for Ben" not in host.html(), "not at once: he may be back soon"
    net.clock += PATIENCE["short"][0]
    assert host.controller.room.on_timer(), "the offer needs a redraw"
    assert "Ben has been away for a while" in host.html()
    assert "Let a bot play for Ben" not in anna.html(), "only the host decides"
    host.press("cover-seat", seat=2)
    net.settle()
    for device in (host, anna):
        assert "bot playing for Ben" in device.html(), device.name
    assert "Let a bot play for Ben" not in host.html()
    ben.boot()  # Ben opens his link again
    net.settle()
    assert ben.room_view()["seat"] == 2 and ben.room_view()["kinds"][2] == "human"
    assert "bot playing for Ben" not in host.html()
    play_on(net, [host, anna, ben])
    for device in (host, anna, ben):
        assert device.room_view()["result"] is not None, device.name


def test_a_turn_server_typed_in_connection_settings_goes_into_the_new_rooms_link() -> None:
    net = Network()
    host = Device("Hana", net)
    host.press("field", field="turn-urls", value="turn:127.0.0.1:3478")
    host.press("field", field="turn-user", value="ann")
    host.press("field", field="turn-pass", value="secret")
    host.press("create-room")
    assert "turn=turn%3A127.0.0.1%3A3478&tu=ann&tp=secret" in host.fragment
    guest = Device("Anna", net, fragment=host.fragment)
    net.settle()
    assert guest.controller.room.link.turn == host.controller.room.link.turn
    fresh = Device("Hana", net, storage=host.storage)
    assert 'value="turn:127.0.0.1:3478"' in fresh.html(), "kept on the device"
    fresh.press("field", field="turn-urls", value="http://nope")
    fresh.press("create-room")
    assert "The room was not created" in fresh.html()


def test_the_host_leaves_for_good_and_a_guests_device_carries_the_game_on() -> None:
    net, host, guests = open_room(guests=("Anna", "Ben", "Cleo"))
    anna, ben, cleo = guests
    host.press("field", field="room-patience", value="short")
    seat_everyone(net, host, guests)
    host.press("room-start")
    net.settle()
    anna.press("move", move=json.dumps(anna.room_view()["legal_moves"][0]))
    net.settle()
    version = anna.room_view()["version"]
    host.close()
    net.settle()
    assert "If they are not back soon, this device takes the game on" in anna.html()
    assert "If they are not back soon, Anna's device takes" in html.unescape(ben.html())
    beat(net, guests, SUCCESSION_MS["short"] // 2000 + 3)
    assert "the room now runs on this device" in anna.html()
    assert "You are the host" in anna.html()
    for device in guests:
        view = device.room_view()
        assert view["version"] >= version and view["kinds"][0] == "covered", device.name
    play_on(net, guests)
    for device in guests:
        assert device.room_view()["result"] is not None, device.name
    # With the record, Ben and Cleo check the deal they gave their shares to.
    for device in (ben, cleo):
        assert "cards nobody had seen were shuffled with every player" in html.unescape(
            device.html()
        ), device.name
    # The first host opens its page again: it was succeeded, and sits down as a guest.
    host.boot()
    # Anna greets it with the mandate that names her key; a reloaded host believes
    # that once it has been alone a while (its players all follow Anna now).
    for _ in range(ALONE_BEATS + 2):
        net.clock += 2000
        for device in (anna, host):
            device.controller.room.on_timer()
            device.glue()
        net.settle()
    assert "another player's device took over" in html.unescape(host.html())
    assert host.room_view()["seat"] == 0
    assert "You are the host" in anna.html() and "You are the host" not in host.html()
    # Anna leaves in turn. Hana came first of those seated here: her page, which spoke
    # for the old epoch on this same connection, now carries the room on.
    net.disconnect(anna.peer)
    rest = [host, ben, cleo]
    beat(net, rest, SUCCESSION_MS["short"] // 2000 + 4)
    assert "You are the host" in host.html()
    for device in (ben, cleo):
        assert "Connected to the room." in device.html(), device.name
        assert device.room_view()["version"] == host.room_view()["version"], device.name
    # Anna's page opens again. Her saved room says she hosts, at the epoch before: she
    # believes Hana by the mandates that name Hana's key, and sits down with the key
    # her device kept for this room (so the mandates name her already).
    device_key = anna.controller.room.device
    anna.boot()
    assert "You are the host" in anna.html()
    beat(net, [host, ben, cleo, anna], ALONE_BEATS + 2)
    assert "another player's device took over" in html.unescape(anna.html())
    assert anna.controller.room.device == device_key
    assert "You are the host" not in anna.html() and "You are the host" in host.html()
    assert anna.room_view()["version"] == host.room_view()["version"]


@pytest.mark.parametrize("game", [g.spec.id for g in engine.all_games()])
def test_the_host_of_one_guest_and_bots_leaves_and_the_guest_plays_to_the_end(game: str) -> None:
    """Hana, Anna and bots: Hana's tab closes, and after the waiting time Anna's page
    carries the game on by itself and plays it to the end."""
    net, host, guests = open_room(game, guests=("Anna",))
    (anna,) = guests
    host.press("field", field="room-patience", value="short")
    seat_everyone(net, host, guests)
    host.press("room-start")
    net.settle()
    host.close()
    beat(net, guests, SUCCESSION_MS["short"] // 2000 + 3)
    assert "the room now runs on this device" in anna.html()
    assert "You are the host" in anna.html()
    assert "shuffled and dealt again" in html.unescape(anna.html())
    play_to_the_end(net, anna, guests)
    assert anna.room_view()["result"] is not None


def test_heirs_that_cannot_reach_each_other_are_told_what_the_game_waits_for() -> None:
    net, host, guests = open_room(guests=("Anna", "Ben"))
    anna, ben = guests
    host.press("field", field="room-patience", value="short")
    seat_everyone(net, host, guests)
    host.press("room-start")
    net.settle()
    net.cut(anna.peer, ben.peer)
    host.close()
    beat(net, guests, SUCCESSION_MS["short"] // 2000 + 3)
    for device, other in ((anna, "Ben"), (ben, "Anna")):
        assert f"as soon as it reaches {other}'s device" in html.unescape(device.html())
    net.mend(anna.peer, ben.peer)
    beat(net, guests, 3)
    assert "You are the host" in anna.html()
    assert "Connected to the room." in ben.html()


def test_the_host_removes_a_player_from_the_screen_and_closes_the_room() -> None:
    net, host, (anna, ben) = open_room()
    seat_everyone(net, host, [anna, ben])
    assert 'id="room-locked"' in host.html() and 'id="room-locked"' not in anna.html()
    host.press("field", field="room-locked", value="on", checked="true")
    net.settle()
    assert host.controller.room.host.locked
    assert re.search(r'id="room-locked"[^>]*checked', host.html())
    cleo = Device("Cleo", net, fragment=host.fragment)
    net.settle()
    assert "closed this room to newcomers" in cleo.html()
    host.press("room-start")
    net.settle()
    ben_id = next(m.id for m in host.controller.room.host.members.values() if m.name == "Ben")
    assert f'data-member="{ben_id}"' in host.html()
    assert 'data-action="room-remove"' not in anna.html(), "only the host removes"
    host.press("room-remove", member=ben_id)
    net.settle()
    assert "The host removed you from this room." in ben.html()
    assert 'data-action="create-room"' in ben.html(), "a way on, not a dead end"
    presence = re.search(r'<ul class="presence".*?</ul>', host.html())[0]
    assert "Ben" not in presence and "Anna" in presence
    assert "bot playing for Ben" in host.html()
    play_on(net, [host, anna])
    assert "final-title" in anna.html()


def test_a_guest_practises_throwing_over_the_rooms_game_and_comes_back() -> None:
    """Dilemma's practice arena lies over a room's game: the room goes on meanwhile,
    and the way on leads back to it. The host's pace is everyone's."""
    net, host, (anna,) = open_room("randolph", guests=("Anna",))
    host.press("field", field="room-choice", key="window", value="first")
    seat_everyone(net, host, [anna])
    host.press("room-start")
    net.settle()
    assert 'id="practice"' in anna.html()
    anna.press("practice")
    assert anna.controller.screen == "practice" and "Back to the game" in anna.html()
    anna.press("gesture", card=3, aim=0, power=50, spin=0)
    assert 'data-tries="1"' in anna.html()
    host.press("draft", card=9)  # the host challenges meanwhile
    host.press("submit")
    net.settle()
    anna.press("practice-done")
    assert anna.controller.screen == "room"
    view = anna.room_view()
    assert view is not None and view["phase"] == "react" and view["challenge"] == 9
    assert view["window"]["lead"] == 5000, "the host's choice: a first game's pace"


def _bad_royal_step(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "steps": [{"kind": "build", "seat": "zero"}]}  # no rules make this step


def _bad_minister_vote(view: dict[str, Any]) -> dict[str, Any]:
    tables = [list(rows) for rows in view["tables"]]
    tables[1] = [{**tables[1][0], "votes": [{"id": "v7", "kind": "maybe", "number": 7}]}]
    return {**view, "tables": tables}


@pytest.mark.parametrize(
    ("game", "doctor", "path"),
    [
        ("royal", _bad_royal_step, r"view\.steps\[0\]\.seat"),
        ("minister", _bad_minister_vote, r"view\.tables\[1\]\[0\]\.votes\[0\]\.kind"),
    ],
)
def test_a_view_whose_game_part_is_not_what_its_game_declares_is_not_kept(
    game: str, doctor: Any, path: str
) -> None:
    """A verified host (or a doctored relay of it) sends a view with a sound header
    but a wrong field deep in the game's own part: the guest keeps the table it had,
    and takes the host's next sound view."""
    net, host, (anna, ben) = open_room(game)
    seat_everyone(net, host, [anna, ben])
    host.press("room-start")
    net.settle()
    guest = anna.controller.room.guest
    kept, version = guest.view, guest.version
    assert kept is not None and version is not None and kept["game"] == game
    bad = doctor(kept)
    with pytest.raises(BadView, match=path):
        catalog.read_view(bad)
    doctored = {"t": "snapshot", "version": version + 1, "view": bad}
    guest.on_message(guest.host, json.dumps(doctored), from_host=True)
    assert guest.view is kept and guest.version == version
    assert "This table cannot be drawn" not in anna.html()
    sound = {"t": "snapshot", "version": version + 1, "view": kept}
    guest.on_message(guest.host, json.dumps(sound), from_host=True)
    assert guest.version == version + 1


def test_a_lobby_with_markup_or_odd_unicode_in_names_never_reaches_the_page_raw() -> None:
    """Names and a title from the host's lobby are the host's word, not markup: tags are
    drawn as text; a lone surrogate or a right-to-left override (text that would lie
    about itself) makes the whole lobby refused, and the one before stays drawn."""
    net, host, (anna, ben) = open_room()
    good = anna.controller.room.guest.lobby
    send = net.sender(host.peer, net.key.private)

    def lobby_named(name: str) -> str:
        members = [{**m, "name": name} for m in good["members"]]
        return json.dumps({"t": "lobby", "lobby": {**good, "title": name, "members": members}})

    for lying in ("\ud800 Hana", "Ha\u202ena"):
        send(anna.peer, lobby_named(lying))
        net.settle()
        assert anna.controller.room.guest.lobby == good, repr(lying)
    odd = "<img src=x onerror=alert(1)>"
    send(anna.peer, lobby_named(odd))
    net.settle()
    assert anna.controller.room.guest.lobby["title"] == odd, "a sound lobby is kept"
    page = anna.html()
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
