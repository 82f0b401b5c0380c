"""The replay screen through the controller the page runs: from an end screen, a file, a link.

Every position of all four games is drawn from every seat: a replay must never
break the page, whatever moment it stops at.
"""

from __future__ import annotations

import json
import random

import pytest

from quandary import replay
from quandary.web.actions import CopyText, DownloadText, MakeReplayLink, SetHash
from quandary.web.controller import Controller
from quandary.web.replay_screen import ReplayScreen
from tests.unit.test_controller import MemoryStorage
from tests.unit.test_replay_records import GAMES, bots_play, finished


def at_the_end(game: str = "royal") -> Controller:
    """A controller showing the end screen of a game its bots finished."""
    c = Controller(MemoryStorage(), lambda: 7)
    c._begin(bots_play(game, GAMES[game], 7), 0, "g")
    assert c.local is not None
    c.local.seen = c.local.checkpoints()
    return c


def test_the_end_screen_offers_the_replay_and_the_record() -> None:
    c = at_the_end()
    html = str(c.render())
    assert 'data-action="watch-replay"' in html and 'data-action="download-record"' in html
    c.dispatch("download-record", {})
    (effect,) = [e for e in c.take_effects() if isinstance(e, DownloadText)]
    assert effect.name.endswith(".json")
    assert replay.parse(effect.text).game == "royal"


def test_stepping_moves_the_position_and_the_log_and_stays_in_bounds() -> None:
    c = at_the_end()
    c.dispatch("watch-replay", {})
    assert c.screen == "replay" and c.replay is not None
    last = c.replay.last
    assert "Move 0 of" in str(c.render())
    c.dispatch("replay-step", {"to": "back"})
    assert c.replay.step == 0
    before = c.replay.log_lines(0)
    for _ in range(3):
        c.dispatch("replay-step", {"to": "forward"})
    assert c.replay.step == 3 and "Move 3 of" in str(c.render())
    assert len(c.replay.log_lines(3)) > len(before)
    c.dispatch("replay-step", {"to": "end"})
    c.dispatch("replay-step", {"to": "forward"})
    assert c.replay.step == last
    c.dispatch("replay-step", {"to": "-4"})
    assert c.replay.step == 0
    c.dispatch("replay-step", {"to": "nonsense"})
    assert c.replay.step == 0
    c.dispatch("replay-seat", {"seat": "1"})
    assert 'id="replay-seat-1" aria-pressed="true"' in str(c.render())
    c.dispatch("replay-seat", {"seat": "9"})
    assert c.replay.seat == 1
    c.dispatch("replay-close", {})
    assert c.screen == "table", "the end screen it was opened from is there again"


def test_the_replay_link_is_made_by_the_page_then_shown_and_copied() -> None:
    c = at_the_end()
    c.dispatch("watch-replay", {})
    c.take_effects()
    c.dispatch("replay-link", {})
    (made,) = c.take_effects()
    assert isinstance(made, MakeReplayLink) and replay.parse(made.text)
    c.replay_link_made("http://127.0.0.1/#replay=abc", "")
    assert CopyText("http://127.0.0.1/#replay=abc", "replay-link-field") in c.take_effects()
    assert 'value="http://127.0.0.1/#replay=abc"' in str(c.render())


def test_a_record_opens_from_the_lobby_and_a_damaged_one_says_why() -> None:
    c = Controller(MemoryStorage(), lambda: 7)
    assert 'id="record-file"' in str(c.render())
    c.dispatch("open-record", {"text": '{"format": "quandary-record", "version": 9}'})
    assert c.screen == "lobby"
    assert "newer version" in str(c.render())
    c.dispatch("open-record", {"text": finished("dilemmas")})
    assert c.screen == "replay" and c.record_error is None
    c.dispatch("lobby", {})
    assert c.screen == "lobby"
    assert SetHash("") in c.take_effects()


def test_hostile_names_are_text_never_markup() -> None:
    data = json.loads(finished("royal"))
    data["seats"][0]["name"] = "<img src=x onerror=alert(1)>"
    c = Controller(MemoryStorage(), lambda: 7)
    c.open_record(json.dumps(data))
    html = str(c.render())
    assert "<img src=x" not in html and "&lt;img src=x" in html


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_position_draws_from_every_seat(game: str) -> None:
    record = replay.parse(finished(game))
    screen = ReplayScreen(record)
    some = random.Random(1).sample(range(screen.last), min(60, screen.last))
    steps = sorted({0, screen.last, *some})
    for step in steps:
        screen.step = step
        for seat in range(len(record.seats)):
            screen.seat = seat
            html = str(screen.render())
            assert "This moment has no table to show" not in html, (step, seat)


def test_the_page_hands_over_a_links_record_and_the_link_it_made() -> None:
    """The bridge's two messages: a replay link's inflated record (or why it could not
    be read), and the link the page made when asked (or why not)."""
    from tests.unit.test_bridge import event, one, send, start

    bridge = start(fragment="#replay=AAAA")
    failed = send(
        bridge, {"t": "record", "error": "This replay link is damaged: it cannot be read."}
    )
    assert "This replay link is damaged" in one(failed, "draw")["html"]
    assert one(failed, "hash")["fragment"] == ""
    opened = send(bridge, {"t": "record", "text": finished("royal")})
    assert 'id="replay"' in one(opened, "draw")["html"]
    asked = event(bridge, "replay-link")
    assert replay.parse(one(asked, "replay-link")["text"]).game == "royal"
    made = send(bridge, {"t": "replay-link", "url": "", "reason": "Too long for a link."})
    assert "Too long for a link." in one(made, "draw")["html"]
    made = send(bridge, {"t": "replay-link", "url": "http://x/#replay=eJw", "reason": ""})
    assert one(made, "copy")["field"] == "replay-link-field"
