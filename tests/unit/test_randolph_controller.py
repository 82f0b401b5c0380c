"""Dilemma through the app's controller: a clock in the test's hand, the real table and bots.

The page passes ``performance.now``; here time is a number the test moves on,
jumping to the controller's next wake-up as the page's timer would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from quandary.web.controller import Controller
from quandary.web.saves import key

from .test_controller import MemoryStorage, seats

GOOD_THROW = {"aim": 0, "power": 50, "spin": 0}


class Clock:
    """Milliseconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def start(
    clock: Clock, storage: MemoryStorage | None = None, window: str = "relaxed"
) -> Controller:
    """Robin and two clever bots; the window setting is chosen (a device's first game
    would start at a first game's pace)."""
    c = Controller(storage if storage is not None else MemoryStorage(), lambda: 7, now=clock)
    c.dispatch("choose-game", {"game": "randolph"})
    c.dispatch("field", {"field": "choice", "key": "window", "value": window})
    seats(c, [("Robin", "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:heuristic")])
    c.dispatch("start", {})
    if c.screen == "practice":  # the first game on this device: skip the practice throw
        c.dispatch("practice-done", {})
    assert c.screen == "table", c.form.error
    return c


def wait(c: Controller, clock: Clock) -> None:
    """Let time run to the next thing the table's clock will do, as the page's timer does."""
    when = c.next_wakeup()
    assert when is not None, "nothing to wait for, yet nobody can act"
    clock.now = max(clock.now, when)
    c.on_clock()


def play_turn(c: Controller, clock: Clock, thrown: list[int]) -> None:
    """One step for the human: challenge, throw once per window, or duel; else wait."""
    view = c.table.view(0)
    moves = view["legal_moves"]
    if view["phase"] == "challenge" and moves:
        c.dispatch("draft", {"card": str(moves[-1]["card"])})
        c.dispatch("submit", {})
    elif (
        view["phase"] == "react"
        and moves
        and view["window"]["id"] not in thrown
        and c.table.elapsed(clock.now) >= 0  # after the countdown's "throw!"
    ):
        thrown.append(view["window"]["id"])
        card = next(m["card"] for m in moves if m["card"] != view["challenge"])
        c.dispatch("move", {"move": json.dumps({"type": "throw", "card": card, **GOOD_THROW})})
    elif view["phase"] == "duel" and moves:
        choice = "conflict" if {"type": "duel", "choice": "conflict"} in moves else "peace"
        c.dispatch("move", {"move": json.dumps({"type": "duel", "choice": choice})})
    else:
        wait(c, clock)


def play_until(c: Controller, clock: Clock, wanted: Callable[[dict], bool], what: str) -> dict:
    """Play on, the human as ``play_turn`` plays, until the human's view is ``wanted``."""
    thrown: list[int] = []
    for _ in range(400):
        view = c.table.view(0)
        if wanted(view):
            return view
        play_turn(c, clock, thrown)
    raise AssertionError(f"the human never {what}")


def until_the_human_can_throw(c: Controller, clock: Clock) -> dict:
    """Play on (the bots challenge, the human duels) until someone else's window is open."""
    return play_until(
        c, clock, lambda v: v["phase"] == "react" and v["provocateur"] != 0, "got to throw"
    )


def test_a_whole_game_against_bots_with_throws_and_duels() -> None:
    clock = Clock()
    c = start(clock)
    thrown: list[int] = []
    screens = set()
    for _ in range(2000):
        if c.table.over:
            break
        html = c.render()
        screens |= {t for t in ("arena-box", "throw-card", "duel-choice", "rhand") if t in html}
        play_turn(c, clock, thrown)
        clock.now += 5
    assert c.table.over, "the game did not end"
    assert screens >= {"arena-box", "throw-card", "rhand"}
    history = c.table.view(None)["history"]
    assert any(t["seat"] == 0 for r in history for t in r["arena"]), "our throws never landed"
    final = c.render()
    assert "Play again" in final and re.search(r"wins?|Shared win", final)


def test_a_throw_is_stamped_by_the_tables_clock_not_by_the_page() -> None:
    clock = Clock()
    c = start(clock)
    view = until_the_human_can_throw(c, clock)
    opened = clock.now - c.table.elapsed(clock.now)
    clock.now = opened + 1200
    card = next(m["card"] for m in view["legal_moves"] if m["card"] != view["challenge"])
    claimed = {"type": "throw", "card": card, **GOOD_THROW, "at": 1}
    c.dispatch("move", {"move": json.dumps(claimed)})
    mine = [t for t in c.table.view(0)["arena"] if t["seat"] == 0]
    assert [t["at"] for t in mine] == [1200], "the claimed time must be replaced"
    assert "arena-card" in c.render()
    saved = json.loads(c.storage.get(key(c.local_id)))
    ours = [m for s, m in saved["table"]["record"]["moves"] if s == 0 and m["type"] == "throw"]
    assert [m["at"] for m in ours] == [1200], "the save holds the table's time"


def test_a_throw_after_the_window_closed_is_refused_with_a_reason() -> None:
    clock = Clock()
    c = start(clock)
    view = until_the_human_can_throw(c, clock)
    version = c.table.state.version
    deadline = view["window"]["deadline"]
    opened = clock.now - c.table.elapsed(clock.now)
    clock.now = opened + deadline + 500  # the timer has not fired yet
    card = next(m["card"] for m in view["legal_moves"] if m["type"] == "throw")
    c.dispatch("move", {"move": json.dumps({"type": "throw", "card": card, **GOOD_THROW})})
    assert c.error and "window" in c.error.lower()
    assert c.table.state.version == version


def test_two_people_cannot_share_one_device_for_a_racing_game() -> None:
    c = Controller(MemoryStorage(), lambda: 7)
    c.dispatch("choose-game", {"game": "randolph"})
    seats(c, [("Anna", "human"), ("Ben", "human"), ("Bot Ada", "bot:heuristic")])
    c.dispatch("start", {})
    assert c.screen == "lobby"
    assert "one person per device" in c.form.error


def test_the_banner_names_the_round_as_the_game_does() -> None:
    """Dilemma's rounds are challenges and Maybe Minister's are turns: the banner
    that announces one says the word the step's title says ("Round 3" over
    "· challenge 3" read as two counts)."""
    c = start(Clock())
    banner = re.search(r'class="round-banner"[^>]*>([^<]+)<', c.render())
    assert banner is not None and banner.group(1) == "Challenge 1"
    m = Controller(MemoryStorage(), lambda: 4)
    m.dispatch("choose-game", {"game": "minister"})
    m.dispatch("start", {})
    banner = re.search(r'class="round-banner"[^>]*>([^<]+)<', m.render())
    assert banner is not None and banner.group(1).startswith("Turn 1")


def test_a_challenge_card_that_is_no_card_changes_nothing_and_an_empty_draft_is_not_sent() -> None:
    clock = Clock()
    c = start(clock)
    view = play_until(
        c, clock, lambda v: v["phase"] == "challenge" and v["legal_moves"], "held the block"
    )
    before = c.table.state
    c.dispatch("draft", {"card": "ten"})  # a page's data damaged: no card at all
    c.dispatch("submit", {})
    assert c.table.state == before
    assert "Your choice is not complete yet." in c.render()
    c.dispatch("draft", {"card": str(view["legal_moves"][-1]["card"])})
    c.dispatch("submit", {})
    assert c.table.state.phase == "react"
