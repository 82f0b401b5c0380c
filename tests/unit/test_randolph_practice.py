"""The practice throw before the first game of Dilemma on a device.

One screen, before the game starts: the player throws a card at the arena with
the game's own gestures and throw model, is told how it went, and goes on (or
skips it). The device remembers, so it never comes again.
"""

from __future__ import annotations

from quandary.games.randolph.throw import Flight
from quandary.web.controller import PRACTISED_KEY, Controller
from quandary.web.practice import verdict_words

from .test_controller import MemoryStorage, seats

STRAIGHT = {"card": "3", "aim": "0", "power": "50", "spin": "0"}


def lobby(storage: MemoryStorage) -> Controller:
    c = Controller(storage, lambda: 7)
    c.dispatch("choose-game", {"game": "randolph"})
    seats(c, [("Robin", "human"), ("Bot Ada", "bot:heuristic"), ("Bot Bo", "bot:heuristic")])
    return c


def test_the_first_game_on_a_device_starts_with_a_practice_throw() -> None:
    storage = MemoryStorage()
    c = lobby(storage)
    c.dispatch("start", {})
    assert c.screen == "practice" and c.table is None, "the game waits for the practice"
    html = c.render()
    assert "Practice a throw" in html and 'data-throw-card="3"' in html
    assert "Skip the practice" in html
    c.dispatch("gesture", STRAIGHT)
    html = c.render()
    assert "Well thrown: your card landed flat" in html
    assert 'class="arena-card flat' in html, "the card is drawn where it came to rest"
    assert "Start the game" in html
    c.dispatch("practice-done", {})
    assert c.screen == "table" and c.table is not None
    assert storage.get(PRACTISED_KEY) is not None
    # The device remembers: the next game starts at once.
    c.dispatch("leave", {})
    again = lobby(storage)
    again.dispatch("start", {})
    assert again.screen == "table"


def test_the_practice_can_be_skipped_without_throwing() -> None:
    storage = MemoryStorage()
    c = lobby(storage)
    c.dispatch("start", {})
    c.dispatch("practice-done", {})
    assert c.screen == "table" and storage.get(PRACTISED_KEY) is not None


def test_a_throw_that_misses_says_what_to_change() -> None:
    c = lobby(MemoryStorage())
    c.dispatch("start", {})
    c.dispatch("gesture", STRAIGHT | {"power": "100"})
    html = c.render()
    assert "missed the arena" in html and "softer" in html
    c.dispatch("gesture", STRAIGHT | {"power": "5"})
    assert "harder" in c.render()
    assert c.screen == "practice", "throwing again is allowed"


def test_the_verdicts_cover_every_landing() -> None:
    assert "slant" in verdict_words(Flight("diagonal", 0, 0, 0, 500))
    assert "rim" in verdict_words(Flight("edge", -950, 0, 0, 500))
    assert "more to the right" in verdict_words(Flight("edge", -950, 0, 0, 500))


def test_leaving_the_practice_goes_back_to_the_lobby_without_a_game() -> None:
    c = lobby(MemoryStorage())
    c.dispatch("start", {})
    c.dispatch("lobby", {})
    assert c.screen == "lobby" and not c.saves


def test_the_practice_opens_again_and_again_from_the_lobby() -> None:
    c = lobby(MemoryStorage())
    assert 'data-action="practice"' in c.render(), "the setup offers the practice"
    for round_trip in range(2):
        c.dispatch("practice", {})
        assert c.screen == "practice"
        for _ in range(3):
            c.dispatch("gesture", STRAIGHT)
        html = c.render()
        assert 'data-tries="3"' in html and "Throw 3:" in html, round_trip
        assert "Back to the lobby" in html
        c.dispatch("practice-done", {})
        assert c.screen == "lobby" and c.table is None


def test_the_practice_opens_during_a_game_and_leads_back_to_it() -> None:
    storage = MemoryStorage()
    storage.set(PRACTISED_KEY, "1")
    c = lobby(storage)
    c.dispatch("start", {})
    table = c.table
    assert c.screen == "table" and 'id="practice"' in c.render()
    c.dispatch("practice", {})
    assert c.screen == "practice" and "Back to the game" in c.render()
    c.dispatch("gesture", STRAIGHT)
    c.dispatch("gesture", STRAIGHT | {"power": "100"})
    assert "Flat so far: 1 of 2" in c.render()
    c.dispatch("practice-done", {})
    assert c.screen == "table" and c.table is table, "the same game, not a new one"
