"""Bots that take a human-like moment: due times per speed, the "thinking…" line, the setting."""

from __future__ import annotations

import pytest

from quandary import games  # noqa: F401 - registers every game
from quandary.table import BOT_SPEEDS, Seat, Table
from quandary.web.controller import SPEED_KEY, Controller
from tests.unit.test_controller import MemoryStorage, build_and_vote


def dilemmas(speed: str, seed: int = 3) -> Table:
    seats = [Seat("You", "human"), Seat("Bot Ada", "bot"), Seat("Bot Bo", "bot")]
    table = Table.new("dilemmas", seats, None, seed)
    table.speed = speed  # type: ignore[assignment]
    return table


def human_build(table: Table) -> None:
    table.submit(0, table.view(0)["legal_moves"][0])


def test_tables_keep_instant_bots_unless_told() -> None:
    table = Table.new("royal", [Seat("You", "human"), Seat("Bot Ada", "bot")], None, 1)
    assert table.speed == "instant"
    assert table.think_time(1) == 0


@pytest.mark.parametrize("speed", ["relaxed", "normal"])
def test_a_paced_bot_moves_only_when_its_moment_is_over(speed: str) -> None:
    low, high = BOT_SPEEDS[speed]  # type: ignore[index]
    table = dilemmas(speed)
    human_build(table)
    assert table.advance(1000.0) == 0, "no bot answers at once"
    assert table.thinking() == [1, 2]
    due = table.next_wakeup()
    assert due is not None and 1000 + low <= due <= 1000 + high
    first = min(1000 + table.think_time(s) for s in (1, 2))
    assert due == first
    assert table.advance(due - 1) == 0
    assert table.advance(due) == 1, "the first bot whose moment is over moves, alone"
    last = table.next_wakeup()
    assert last is not None and last >= due
    assert table.advance(last) == 1
    assert table.view(0)["phase"] == "vote"
    vote = table.next_wakeup()
    assert table.thinking() == [1, 2], "the vote is a new moment for both bots"
    assert vote is not None and last + low <= vote <= last + high


def test_think_times_vary_but_replay_the_same() -> None:
    times = {dilemmas("normal", seed).think_time(1) for seed in range(30)}
    assert len(times) > 10 and min(times) >= 800 and max(times) <= 1500
    assert dilemmas("normal", 5).think_time(2) == dilemmas("normal", 5).think_time(2)


def test_instant_bots_answer_within_the_same_advance() -> None:
    table = dilemmas("instant")
    human_build(table)
    assert table.advance(0.0) == 4, "both bots build, then both vote"
    assert table.next_wakeup() is None


def test_a_pending_think_is_not_saved_and_a_loaded_game_thinks_again() -> None:
    table = dilemmas("normal")
    human_build(table)
    table.advance(0.0)
    loaded = Table.from_json(table.to_json())
    assert loaded.to_json() == table.to_json()
    assert loaded.speed == "instant" and loaded.thinking() == []


def test_the_table_says_which_bot_is_thinking_then_shows_its_move() -> None:
    storage = MemoryStorage()
    clock = [0.0]
    c = Controller(storage, lambda: 7, now=lambda: clock[0], speed="normal")
    c.dispatch("start", {})
    build_and_vote(c)
    html = c.render()
    assert "Bot Ada and Bot Bo are thinking…" in html
    due = c.next_wakeup()
    assert due is not None and 800 <= due <= 1500
    clock[0] = due
    assert c.on_clock()
    html = c.render()
    assert "is thinking…" in html, "one bot is still taking its moment"
    clock[0] = c.next_wakeup() or 0.0
    assert c.on_clock()
    html = c.render()
    assert "Vote on every dilemma" in html
    assert "Bot Ada and Bot Bo are thinking…" in html, "now over their votes"
    build_and_vote(c)
    clock[0] = 10_000.0
    assert c.on_clock()
    assert "the votes</h2>" in c.render(), "both votes are in: the result is shown"


def test_the_bot_speed_is_kept_on_the_device() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 1, speed="normal")
    assert 'value="normal" selected' in c.render()
    c.dispatch("field", {"field": "bot-speed", "value": "relaxed"})
    assert storage[SPEED_KEY] == "relaxed"
    again = Controller(storage, lambda: 1, speed="normal")
    assert again.speed == "relaxed"
    assert 'value="relaxed" selected' in again.render()
    again.dispatch("field", {"field": "bot-speed", "value": "warp"})
    assert again.speed == "relaxed", "an unknown speed is ignored"
    again.dispatch("start", {})
    assert again.table is not None and again.table.speed == "relaxed"


def test_an_unreadable_stored_speed_falls_back_to_the_default() -> None:
    storage = MemoryStorage({SPEED_KEY: "ludicrous"})
    assert Controller(storage, lambda: 1, speed="normal").speed == "normal"
    assert Controller(storage, lambda: 1).speed == "instant"
