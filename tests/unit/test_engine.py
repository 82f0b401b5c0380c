"""The engine's one door from the page (``quandary.web.engine``, exported by
``py/main.py`` in PyScript's worker), under CPython: batches in, the page's work out."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import quandary
from quandary.web import preload
from quandary.web.engine import Engine

MAIN = Path(__file__).resolve().parents[2] / "py" / "main.py"
START = {"t": "start", "storage": {}, "href": "http://x/", "hash": "", "relays": [], "now": 5.0}


def call(engine: Engine, *messages: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(engine.handle(json.dumps(list(messages))))
    return reply


def kinds(reply: dict[str, Any]) -> list[str]:
    return [m["t"] for m in reply["out"]]


def event(action: str, **data: str) -> dict[str, Any]:
    return {"t": "event", "action": action, "data": data, "early": False, "now": 10.0}


def test_the_first_batch_opens_with_the_start_and_draws_the_lobby() -> None:
    engine = Engine()
    reply = call(engine, START)
    assert engine.started and kinds(reply) == ["draw"]
    assert "Pick a dilemma" in reply["out"][0]["html"]
    assert reply["answered"] == 0 and reply["wake"] is None and reply["heartbeat"] is False


def test_actions_made_while_booting_follow_the_start_in_one_batch() -> None:
    """The page sends what a player did before Python was ready right after its
    start: every action is answered, and the screen drawn last is the game chosen."""
    engine = Engine()
    reply = call(engine, START, event("choose-game", game="royal"), {"t": "hash", "fragment": ""})
    assert reply["answered"] == 2
    draws = [m for m in reply["out"] if m["t"] == "draw"]
    assert "Set up Royal Dilemma" in draws[-1]["html"]


def test_nothing_is_done_before_the_page_has_started() -> None:
    engine = Engine()
    reply = call(engine, event("choose-game", game="royal"))
    assert reply["out"] == [] and not engine.started
    assert reply["answered"] == 1  # the page still stops waiting for it


def test_a_bad_batch_or_message_is_a_bug_for_the_page_and_changes_nothing() -> None:
    engine = Engine()
    call(engine, START)
    not_a_list: dict[str, Any] = json.loads(engine.handle('{"t": "start"}'))
    assert kinds(not_a_list) == ["bug"] and "list" in not_a_list["out"][0]["text"]
    not_json: dict[str, Any] = json.loads(engine.handle("[{"))
    assert kinds(not_json) == ["bug"]
    # A message that is not an object fails alone: the one after it still runs.
    reply = call(engine, 7, event("choose-game", game="minister"))
    assert kinds(reply)[0] == "bug"
    assert "Set up Maybe Minister" in reply["out"][-1]["html"]


def test_a_message_the_bridge_cannot_use_is_a_bug_and_the_next_one_runs() -> None:
    engine = Engine()
    call(engine, START)
    reply = call(engine, {"t": "no-such-kind"}, event("choose-game", game="randolph"))
    assert kinds(reply)[0] == "bug" and "no-such-kind" in reply["out"][0]["trace"]
    assert any("Set up Dilemma" in m.get("html", "") for m in reply["out"])


def test_the_script_pyscript_runs_exports_the_engines_door() -> None:
    """py/main.py, as PyScript's worker runs it: it names ``handle`` in ``__export__``,
    and ``handle`` is the engine's door."""
    spec = importlib.util.spec_from_file_location("quandary_main", MAIN)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__export__ == ["handle"]
    reply = json.loads(module.handle(json.dumps([START])))
    assert [m["t"] for m in reply["out"]] == ["draw"]


def test_the_snapshot_imports_every_module_of_the_package() -> None:
    """A restored engine has no files to import from: every module of the package is
    imported before the snapshot is taken, new ones included."""
    package = Path(quandary.__file__).parent
    files = set()
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        files.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    files.discard("quandary")
    assert set(preload.MODULES) == files
    assert all(name in sys.modules for name in files)


def test_a_hosts_messages_leave_before_its_own_screen_is_made() -> None:
    """A batch that sends to a room's peers is answered without its screen (``more``):
    the page sends them at once, then asks for the screen, which the action's count
    waits for, so the page stays busy until it is drawn."""
    engine = Engine()
    call(engine, START)
    call(engine, event("create-room"))
    call(engine, {"t": "host-key", "public": "A" * 43, "private": "B" * 64, "now": 11.0})
    call(engine, {"t": "room-opened", "canShare": False, "now": 12.0})
    call(engine, {"t": "room", "kind": "join", "peer": "peer-1", "now": 13.0}, {"t": "draw"})
    hello = json.dumps({"t": "hello", "name": "Ben", "token": None, "key": None, "waited": False})
    greeted = call(engine, {"t": "room", "kind": "message", "peer": "peer-1", "text": hello})
    # Ben is welcomed and the lobby names him: the messages go now, the screen next.
    assert "send" in kinds(greeted) and "draw" not in kinds(greeted) and greeted["more"] is True
    drawn = call(engine, {"t": "draw", "now": 14.0})
    assert kinds(drawn) == ["draw"] and "Ben" in drawn["out"][0]["html"]
    assert drawn["more"] is False
    changed = call(engine, event("field", field="room-seat-count", value="4"))
    assert "send" in kinds(changed) and "draw" not in kinds(changed)
    assert changed["answered"] == 0, "the action is answered with its screen"
    # The screen asked for is drawn first in the next batch, whatever else it sends.
    drawn = call(engine, {"t": "draw", "now": 15.0}, {"t": "room", "kind": "join", "peer": "p2"})
    assert "draw" in kinds(drawn) and drawn["answered"] == 1 and drawn["more"] is False
    assert 'value="4" selected' in [m for m in drawn["out"] if m["t"] == "draw"][-1]["html"]


def test_a_batch_that_sends_nothing_is_drawn_in_the_same_answer() -> None:
    engine = Engine()
    call(engine, START)
    reply = call(engine, event("choose-game", game="royal"))
    assert kinds(reply)[-1] == "draw" and reply["more"] is False and reply["answered"] == 1
