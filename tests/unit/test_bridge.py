"""The engine worker's bridge under CPython: the page's messages in, its work out.

The engine (py/main.py, quandary.web.engine) only passes the page's messages to the bridge
and posts the answer; everything the page is asked to do is decided here, so the
whole exchange (storage, rooms, errors, the clock) is tested without a browser.
"""

from __future__ import annotations

import json
from typing import Any

from quandary.web.bridge import Bridge, MirrorStorage, open_bridge
from quandary.web.saves import PREFIX


def start(storage: dict[str, str] | None = None, fragment: str = "") -> Bridge:
    bridge = open_bridge(json.dumps({"storage": storage or {}, "href": "http://x/", "now": 0}))
    send(bridge, {"t": "start", "hash": fragment})
    return bridge


def send(bridge: Bridge, message: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(bridge.handle(json.dumps(message)))
    return answer


def kinds(answer: dict[str, Any]) -> list[str]:
    return [m["t"] for m in answer["out"]]


def one(answer: dict[str, Any], kind: str) -> dict[str, Any]:
    found = [m for m in answer["out"] if m["t"] == kind]
    assert len(found) == 1, kinds(answer)
    return found[0]


def event(bridge: Bridge, action: str, early: bool = False, **data: str) -> dict[str, Any]:
    return send(bridge, {"t": "event", "action": action, "data": data, "early": early})


def test_the_first_answer_draws_the_lobby_and_announces_it() -> None:
    bridge = open_bridge(json.dumps({"storage": {}, "href": "http://x/"}))
    answer = send(bridge, {"t": "start", "hash": ""})
    draw = one(answer, "draw")
    assert "Pick a dilemma" in draw["html"] and draw["announce"]
    assert answer["heartbeat"] is False and answer["wake"] is None


def test_a_chosen_game_is_scrolled_to_unless_the_page_showed_it_while_booting() -> None:
    bridge = start()
    shown = one(event(bridge, "choose-game", game="royal"), "draw")
    assert "Set up Royal Dilemma" in shown["html"] and shown["reveal"] == "#setup-title"
    early = one(event(bridge, "choose-game", early=True, game="minister"), "draw")
    assert "Set up Maybe Minister" in early["html"] and early["reveal"] == ""
    # Choosing the game already chosen changes nothing, but still shows its setup.
    again = event(bridge, "choose-game", game="minister")
    assert kinds(again) == ["reveal"] and one(again, "reveal")["selector"] == "#setup-title"


def test_an_unchanged_screen_is_not_drawn_again() -> None:
    bridge = start()
    assert kinds(send(bridge, {"t": "clock"})) == []


def test_a_started_game_is_stored_before_it_is_drawn() -> None:
    bridge = start()
    answer = event(bridge, "start")
    assert kinds(answer)[0] == "store" and kinds(answer)[-1] == "draw"
    (key, value), *_ = one(answer, "store")["writes"]
    assert key.startswith(PREFIX) and json.loads(value)
    # The next start of the page reads it back from the storage it was sent.
    assert "Games in progress" in start({key: value}).drawn[0]


def test_a_write_the_page_refused_is_undone_and_said() -> None:
    bridge = start()
    answer = event(bridge, "start")
    key = one(answer, "store")["writes"][0][0]
    refused = send(bridge, {"t": "refused", "key": key, "value": None})
    assert "storage is full" in one(refused, "draw")["html"]
    assert bridge.storage.get(key) is None


def test_bad_messages_are_reported_and_change_nothing() -> None:
    bridge = start()
    before = bridge.drawn
    for text in ("not json", "[1, 2]", json.dumps({"t": "nonsense"})):
        answer = json.loads(bridge.handle(text))
        bug = one(answer, "bug")
        assert "Something went wrong" in bug["html"] and bug["trace"]
    # An action no part of the app knows: a sentence, and the lobby stays.
    assert kinds(event(bridge, "no-such-action")) == ["bug"]
    assert bridge.drawn == before
    assert "Set up" in one(event(bridge, "choose-game", game="randolph"), "draw")["html"]


def test_a_bug_message_escapes_what_it_quotes() -> None:
    bridge = start()
    answer = event(bridge, "<img src=x onerror=alert(1)>")
    assert "<img" not in one(answer, "bug")["html"]


def test_a_room_is_created_through_the_page_and_its_heartbeat_starts() -> None:
    bridge = start()
    asked = event(bridge, "create-room")
    assert kinds(asked) == ["make-host-key"]
    opened = send(bridge, {"t": "host-key", "public": "A" * 43, "private": "B" * 64})
    assert kinds(opened).index("hash") < kinds(opened).index("open-room")
    options = one(opened, "open-room")["options"]
    assert options["signingKey"] == "B" * 64 and options["hostKey"] == "A" * 43
    answer = send(bridge, {"t": "room-opened", "canShare": False})
    assert answer["heartbeat"] is True
    # A guest knocks: the host answers through the page's transport.
    joined = send(bridge, {"t": "room", "kind": "join", "peer": "peer-1"})
    assert "send" in kinds(joined) or "draw" in kinds(joined)
    # The browser's measure of that connection reaches the host; a bad one does not.
    host = bridge.controller.room.host
    send(bridge, {"t": "room", "kind": "rtt", "peer": "peer-1", "ms": 18})
    send(bridge, {"t": "room", "kind": "rtt", "peer": "peer-1", "ms": "soon"})
    send(bridge, {"t": "room", "kind": "rtt", "peer": "peer-1", "ms": True})
    assert host.transport_rtt == {"peer-1": 18.0}
    left = event(bridge, "leave-room")
    assert "close-room" in kinds(left) and left["heartbeat"] is False


def test_a_page_without_network_is_told_rooms_need_one() -> None:
    bridge = start()
    event(bridge, "create-room")
    send(bridge, {"t": "host-key", "public": "A" * 43, "private": "B" * 64})
    answer = send(bridge, {"t": "room-opened", "offline": True})
    assert "You are offline" in one(answer, "draw")["html"] and answer["heartbeat"] is False


def test_a_key_the_page_could_not_make_is_explained_in_the_lobby() -> None:
    bridge = start()
    event(bridge, "create-room")
    answer = send(bridge, {"t": "host-key", "error": "no Ed25519"})
    assert "A room could not be created here: no Ed25519." in one(answer, "draw")["html"]


def test_timed_windows_run_on_the_clock_of_the_page() -> None:
    """Bots that take a moment wake the engine at a time on the page's own clock."""
    bridge = start()
    answer = send(bridge, {"t": "event", "action": "start", "data": {}, "now": 5_000_000})
    assert answer["wake"] is not None and 5_000_000 < answer["wake"] < 5_100_000
    woken = send(bridge, {"t": "clock", "now": answer["wake"] + 1})
    assert "draw" in kinds(woken)


def test_the_mirror_journals_writes_in_order() -> None:
    storage = MirrorStorage({"a": "1"})
    storage.set("b", "2")
    storage.remove("a")
    storage.remove("never")
    assert storage.take_writes() == [("b", "2"), ("a", None)]
    assert storage.take_writes() == [] and storage.keys() == ["b"]
    storage.refused("b", "old")
    assert storage.get("b") == "old"


def test_the_mirror_writes_only_what_changes_the_page_s_storage() -> None:
    storage = MirrorStorage({"a": "1"})
    storage.set("a", "1")
    storage.set("b", "2")
    storage.set("b", "2")
    assert storage.take_writes() == [("b", "2")]
    storage.set("b", "3")
    storage.set("b", "2")  # back to what the page held, but after a write it has not made
    assert storage.take_writes() == [("b", "3"), ("b", "2")]
    storage.refused("b", "old")  # the page could not write: it holds "old"
    storage.set("b", "2")
    assert storage.take_writes() == [("b", "2")]


def test_after_a_refused_write_the_next_write_of_its_key_reaches_the_page() -> None:
    storage = MirrorStorage({"k": "old"})
    storage.set("k", "big")  # journaled; the page's storage is full and refuses it
    storage.take_writes()
    storage.set("k", "small")  # journaled before the refusal came back: the page holds it
    storage.take_writes()
    storage.refused("k", "old")  # what the page held when it refused "big"
    storage.set("k", "old")  # the copy says "old", but the page may hold "small"
    assert storage.take_writes() == [("k", "old")]
    storage.set("k", "old")  # written once since: the copy is sure again
    assert storage.take_writes() == []


def test_a_room_write_the_page_refused_is_said_on_the_room_screen() -> None:
    bridge = start()
    event(bridge, "create-room")
    opened = send(bridge, {"t": "host-key", "public": "A" * 43, "private": "B" * 64})
    send(bridge, {"t": "room-opened", "canShare": False})
    room_keys = [w[0] for w in one(opened, "store")["writes"] if w[0].startswith("quandary.room.")]
    refused = send(bridge, {"t": "refused", "key": room_keys[0], "value": None})
    assert "the room is not saved" in one(refused, "draw")["html"]


# Run in a fresh interpreter: the other tests have imported every game long before.
LAZY_GAMES = """
import json, sys
from quandary.web.bridge import open_bridge

def loaded():
    return sorted(m.split('.')[2] for m in sys.modules
                  if m.startswith('quandary.games.') and m.endswith('.rules'))

bridge = open_bridge(json.dumps({"storage": {}, "href": "http://x/"}))
bridge.handle(json.dumps({"t": "start", "hash": ""}))
first = loaded()
heavy = [m for m in ("pathlib", "urllib.parse", "hashlib", "secrets") if m in sys.modules]
for action, data in [("choose-game", {"game": "royal"}), ("start", {})]:
    bridge.handle(json.dumps({"t": "event", "action": action, "data": data}))
print(json.dumps([first, heavy, loaded(), "quandary.net.host" in sys.modules]))
"""


def test_the_first_screen_imports_no_games_rules_and_a_game_only_its_own() -> None:
    """The lobby is drawn from the games' specs alone, and starting Royal Dilemma
    imports Royal Dilemma's rules and no other game's, nor the room protocol: what
    the worker's cold start waits for is only what the first screen needs (not even
    the standard modules for paths, URLs and hashing, slow to import in the browser)."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", LAZY_GAMES], capture_output=True, text=True, check=True
    )
    first, heavy, after_start, rooms = json.loads(run.stdout)
    assert first == [] and heavy == []
    assert after_start == ["royal"]
    assert rooms is False


def test_a_draw_names_the_stylesheet_of_the_game_on_the_table() -> None:
    """The page links a game's own stylesheet when its table is first drawn: the
    lobby names none, a Royal Dilemma table names Royal Dilemma's."""
    bridge = start()
    assert one(event(bridge, "choose-game", game="royal"), "draw")["style"] == ""
    table = one(event(bridge, "start"), "draw")
    assert "table" in table["html"] and table["style"] == "./static/css/royal.css"
    leave = one(event(bridge, "leave"), "draw")
    assert "Pick a dilemma" in leave["html"] and leave["style"] == ""
