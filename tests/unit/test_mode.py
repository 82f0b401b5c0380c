"""The app's mode is one value: one place (lobby, local table or room) and at most one
overlay (the practice throw or a replay) over it.

The types make a room beside a local table unrepresentable; these tests check the
transitions between them: a place left is left properly (a local game saved, a room
closed), and an overlay closed shows again the place it was opened from.
"""

from __future__ import annotations

import contextlib
import random
from itertools import count

from quandary.web.actions import CloseRoom, MakeHostKey, OpenRoom, SetHash, UnknownAction
from quandary.web.controller import PRACTISED_KEY, Controller
from quandary.web.mode import AtTable, InLobby, InRoom, Mode, PendingGame, Practising, Watching
from tests.net.memnet import HostKey
from tests.unit.test_controller import MemoryStorage, seats
from tests.unit.test_replay_records import finished
from tests.unit.test_replay_screen import at_the_end

KEY = HostKey()


def device(storage: MemoryStorage | None = None) -> Controller:
    """A controller whose ids differ each time (a save's id, a room's secret)."""
    ids = count()
    return Controller(
        storage or MemoryStorage(), lambda: 7, lambda: f"id-{next(ids):04d}-padding-padding"
    )


def create_room(c: Controller) -> None:
    """Create a room as the page would: it makes the host's key when asked."""
    c.dispatch("create-room", {})
    assert MakeHostKey() in c.take_effects()
    c.host_key_made(KEY.public, KEY.pkcs8)


def test_the_app_opens_in_the_lobby_with_nothing_over_it() -> None:
    c = device()
    assert c.mode == Mode(InLobby(), None)
    assert (c.screen, c.room, c.local, c.local_id, c.practice, c.replay) == (
        "lobby",
        None,
        None,
        "",
        None,
        None,
    )


def test_entering_a_room_from_a_local_table_leaves_no_local_table() -> None:
    c = device()
    c.dispatch("start", {})
    assert isinstance(c.mode.place, AtTable) and c.screen == "table"
    save_id = c.local_id
    create_room(c)
    assert isinstance(c.mode.place, InRoom) and c.screen == "room"
    assert c.local is None and c.local_id == "" and c.table is None
    assert [e.id for e in c.saves] == [save_id], "the game waits among the games in progress"


def test_a_room_left_for_another_is_closed_and_a_room_left_for_the_lobby_too() -> None:
    c = device()
    create_room(c)
    first = c.room
    c.take_effects()
    create_room(c)
    effects = c.take_effects()
    assert c.room is not first and c.room is not None
    assert [type(e) for e in effects if isinstance(e, CloseRoom | OpenRoom)] == [
        CloseRoom,
        OpenRoom,
    ]
    c.dispatch("leave-room", {})
    assert c.mode == Mode(InLobby(), None)
    assert c.take_effects() == [CloseRoom(), SetHash("")]


def test_closing_a_replay_returns_to_the_room_it_was_opened_over() -> None:
    c = device()
    create_room(c)
    room = c.room
    assert room is not None
    c.take_effects()
    c.open_record(finished("royal"))
    assert isinstance(c.mode.overlay, Watching) and c.mode.place == InRoom(room)
    assert c.screen == "replay"
    c.dispatch("replay-close", {})
    assert c.mode == Mode(InRoom(room), None)
    assert c.screen == "room"
    assert SetHash(room.link.fragment()) in c.take_effects()


def test_closing_a_replay_from_an_end_screen_returns_to_that_table() -> None:
    c = at_the_end()
    local, save_id = c.local, c.local_id
    c.dispatch("watch-replay", {})
    assert isinstance(c.mode.overlay, Watching) and c.screen == "replay"
    assert c.local is local, "the finished game stays at its place under the replay"
    c.dispatch("replay-close", {})
    assert c.mode.overlay is None and c.screen == "table"
    assert c.local is local and c.local_id == save_id


def test_closing_a_replay_opened_in_the_lobby_returns_to_the_lobby() -> None:
    c = device()
    c.open_record(finished("royal"))
    assert c.mode.place == InLobby() and c.screen == "replay"
    c.dispatch("replay-close", {})
    assert c.mode == Mode(InLobby(), None) and c.screen == "lobby"


def test_the_practice_over_a_game_leads_back_to_that_game() -> None:
    c = device()
    c.dispatch("start", {})
    local = c.local
    assert local is not None
    c.dispatch("practice", {})
    assert c.mode.place == AtTable(local, c.local_id) and c.screen == "practice"
    c.dispatch("practice-done", {})
    assert c.mode.overlay is None and c.local is local and c.screen == "table"


def test_a_first_game_waits_under_the_practice_and_nowhere_else() -> None:
    c = device()
    c.dispatch("choose-game", {"game": "randolph"})
    seats(c, [("Robin", "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:heuristic")])
    c.dispatch("start", {})
    overlay = c.mode.overlay
    assert isinstance(overlay, Practising) and isinstance(overlay.pending, PendingGame)
    assert c.mode.place == InLobby() and c.local is None, "not sat down before the practice"
    c.dispatch("practice-done", {})
    assert c.mode.overlay is None and isinstance(c.mode.place, AtTable)
    assert c.local_id == overlay.pending.save_id


def test_a_record_opened_over_a_first_games_practice_keeps_that_game() -> None:
    """A replay link pasted during the practice: the waiting game is not lost but
    waits among the games in progress, and the replay shows over the lobby."""
    c = device()
    c.dispatch("choose-game", {"game": "randolph"})
    seats(c, [("Robin", "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:heuristic")])
    c.dispatch("start", {})
    overlay = c.mode.overlay
    assert isinstance(overlay, Practising) and overlay.pending is not None
    c.open_record(finished("royal"))
    assert isinstance(c.mode.overlay, Watching) and c.mode.place == InLobby()
    assert [e.id for e in c.saves] == [overlay.pending.save_id]


def test_a_random_walk_never_leaves_a_room_open_behind_or_two_places_at_once() -> None:
    """Whatever the order of clicks and page messages, one place at a time: every room
    opened is closed before another place is entered, and the screen says the mode."""
    rng = random.Random(26)
    storage = MemoryStorage()
    storage.set(PRACTISED_KEY, "1")
    c = device(storage)
    record = finished("royal")
    clicks = ["start", "leave", "lobby", "practice", "practice-done", "create-room"]
    clicks += ["leave-room", "replay-close", "continue"]
    open_rooms, shown = 0, set()
    for _ in range(300):
        before = c.mode.place
        if rng.random() < 0.1:
            c.open_record(record)  # a replay link pasted into the address bar
        else:
            click = rng.choice(clicks)
            save = c.saves[0].id if c.saves else ""
            with contextlib.suppress(UnknownAction):  # not a click this screen offers
                c.dispatch(click, {"save": save})
        effects = c.take_effects()
        if MakeHostKey() in effects:
            c.host_key_made(KEY.public, KEY.pkcs8)
            effects += c.take_effects()
        for effect in effects:
            open_rooms += isinstance(effect, OpenRoom) - isinstance(effect, CloseRoom)
        place, overlay = c.mode.place, c.mode.overlay
        assert open_rooms == isinstance(place, InRoom)
        assert (c.room is None) or (c.local is None)
        if isinstance(before, AtTable) and place != before:
            assert any(e.id == before.save_id for e in c.saves), "a game left is saved"
        expected = {Practising: "practice", Watching: "replay"}.get(type(overlay)) or {
            InLobby: "lobby",
            AtTable: "table",
            InRoom: "room",
        }[type(place)]
        assert c.screen == expected
        shown.add(expected)
    assert shown == {"lobby", "table", "room", "practice", "replay"}, "the walk went everywhere"
