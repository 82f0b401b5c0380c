"""The app's controller under CPython: the same code the browser runs, minus the DOM."""

from __future__ import annotations

import re

import pytest

from quandary.web.controller import Controller
from quandary.web.saves import PREFIX


class MemoryStorage(dict):
    """localStorage stand-in; ``full`` makes every write fail like a quota error."""

    full = False

    def get(self, key):
        return dict.get(self, key)

    def set(self, key, value):
        if self.full:
            raise OSError("QuotaExceededError")
        self[key] = value

    def remove(self, key):
        self.pop(key, None)

    def saved_games(self) -> list[str]:
        """The keys of the games in progress."""
        return [k for k in self if k.startswith(PREFIX)]


def seats(c: Controller, spec: list[tuple[str, str]]) -> None:
    c.dispatch("field", {"field": "seat-count", "value": str(len(spec))})
    for i, (name, kind) in enumerate(spec):
        c.dispatch("field", {"field": "seat-kind", "seat": str(i), "value": kind})
        c.dispatch("field", {"field": "seat-name", "seat": str(i), "value": name})


def hand_texts(c: Controller) -> list[str]:
    return re.findall(r'<span class="card-text">([^<]+)</span>', c.render())


def build_and_vote(c: Controller) -> None:
    """Play the viewer's build or vote with the first allowed choices."""
    view = c.table.view(c.viewer)
    if view["phase"] == "build":
        move = view["legal_moves"][0]
        c.dispatch("draft", {"card": move["positive"]})
        c.dispatch("draft", {"card": move["negative"]})
    else:
        for i, token in enumerate(view["legal_moves"][0]["votes"]):
            c.dispatch("draft", {"dilemma": str(i), "token": token})
    c.dispatch("submit", {})


def test_a_whole_game_through_the_controller() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 11)
    c.dispatch("start", {})
    for _ in range(5):
        build_and_vote(c)
        assert "Vote on every dilemma" in c.render()
        build_and_vote(c)
        assert "the votes</h2>" in c.render()
        c.dispatch("next", {})
    html = c.render()
    assert "Play again" in html and "final-scores" in html
    assert not storage.saved_games(), "a finished game leaves no save behind"


def test_hot_seat_never_renders_another_players_hand() -> None:
    c = Controller(MemoryStorage(), lambda: 5)
    seats(c, [("Anna", "human"), ("Ben", "human"), ("Cy", "bot:random")])
    c.dispatch("start", {})
    assert "Pass the device to Anna" in c.render()
    assert hand_texts(c) == []
    c.dispatch("reveal", {})
    anna = hand_texts(c)
    assert len(anna) == 8
    build_and_vote(c)
    gate = c.render()
    assert "Pass the device to Ben" in gate
    assert not any(text in gate for text in anna)
    c.dispatch("reveal", {})
    assert not set(hand_texts(c)) & set(anna)


def test_the_form_refuses_duplicate_names_and_a_table_without_humans() -> None:
    c = Controller(MemoryStorage(), lambda: 1)
    seats(c, [("Ann", "human"), ("ann", "bot:random"), ("Bo", "bot:random")])
    c.dispatch("start", {})
    assert c.screen == "lobby" and "different name" in c.render()
    seats(c, [("Bot A", "bot:random"), ("Bot B", "bot:random"), ("Bot C", "bot:random")])
    c.dispatch("start", {})
    assert c.screen == "lobby" and "at least one human" in c.render()


def test_no_card_pack_is_refused_with_a_reason() -> None:
    c = Controller(MemoryStorage(), lambda: 1)
    c.dispatch("field", {"field": "multi", "key": "packs", "value": "family", "checked": "false"})
    c.dispatch("start", {})
    assert c.screen == "lobby" and "Choose at least one" in c.render()


def test_a_saved_game_continues_where_it_was() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 3)
    c.dispatch("start", {})
    build_and_vote(c)
    before = c.table.state
    again = Controller(storage, lambda: 4)
    assert "Games in progress" in again.render()
    assert "round 1 of 5" in again.render()
    again.dispatch("continue", {"save": again.saves[0].id})
    assert again.table.state == before
    assert "Vote on every dilemma" in again.render()


def test_full_storage_is_reported_and_the_game_goes_on() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 3)
    storage.full = True
    c.dispatch("start", {})
    assert "storage is full" in c.render()
    build_and_vote(c)
    assert "Vote on every dilemma" in c.render()


def test_a_refused_move_shows_its_reason_and_keeps_the_state() -> None:
    c = Controller(MemoryStorage(), lambda: 3)
    c.dispatch("start", {})
    before = c.table.state
    c.local.draft = {"positive": "not-a-card", "negative": "nope", "neutral": None}
    c.dispatch("submit", {})
    assert c.table.state == before
    assert "not in your hand" in c.render()


def test_leaving_keeps_the_game_for_later() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 3)
    c.dispatch("start", {})
    c.dispatch("leave", {})
    assert c.screen == "lobby" and "Continue" in c.render()
    c.dispatch("continue", {"save": c.saves[0].id})
    assert "Build your dilemma" in c.render()


def test_announcements_follow_screen_changes_only() -> None:
    c = Controller(MemoryStorage(), lambda: 3)
    assert c.announcement() == "Lobby. Choose a game and seats."
    assert c.announcement() is None
    c.dispatch("start", {})
    assert c.announcement() == "Round 1 of 5: Build your dilemma."
    c.dispatch("draft", {"card": c.table.view(0)["hand"]["positive"][0]["id"]})
    assert c.announcement() is None


def play_viewer_turn(c: Controller) -> None:
    """Pick the viewer's first legal move through the UI's own draft actions."""
    view = c.table.view(c.viewer)
    move = view["legal_moves"][0]
    if move["type"] == "vote":
        for i, token in enumerate(move["votes"]):
            c.dispatch("draft", {"dilemma": str(i), "token": token})
    else:
        for key in ("positive", "negative", "card", "neutral"):
            if move.get(key):
                c.dispatch("draft", {"card": move[key]})
    assert 'id="submit"' in c.render() and 'id="submit" disabled' not in c.render()
    c.dispatch("submit", {})
    assert c.error is None


@pytest.mark.parametrize("coop", [False, True])
@pytest.mark.parametrize("supervotes", [False, True])
@pytest.mark.parametrize("neutral", [False, True])
def test_every_variant_plays_to_the_end_through_the_ui(neutral, supervotes, coop) -> None:
    c = Controller(MemoryStorage(), lambda: 17)
    seats(
        c,
        [("Anna", "human"), ("Bo", "bot:heuristic"), ("Cy", "bot:random"), ("Di", "bot:heuristic")],
    )
    for key, on in (("neutral", neutral), ("supervotes", supervotes), ("coop", coop)):
        c.dispatch("field", {"field": "option", "key": key, "checked": str(on).lower()})
    c.dispatch("start", {})
    for _ in range(200):
        html = c.render()
        if "final-scores" in html:
            break
        if 'data-action="next"' in html:
            c.dispatch("next", {})
        else:
            play_viewer_turn(c)
    else:
        pytest.fail("the game did not end")
    assert c.table.state.options == {
        "neutral": neutral,
        "supervotes": supervotes,
        "coop": coop,
        "packs": ["family"],
        "own": {"use": "mix", "packs": []},
    }
