"""Games in progress: every local game kept apart, listed, continued and deleted on purpose.

The wall clock is the test's (seconds since the epoch), so "5 minutes ago" is exact.
"""

from __future__ import annotations

import json

import pytest

from quandary.table import Seat, Table
from quandary.web.controller import Controller
from quandary.web.saves import CAPACITY, LEGACY_KEY, DamagedSave, SavedGame, Shelf, key

from .test_controller import MemoryStorage, build_and_vote, seats

START = 1_750_000_000.0


class WallClock:
    """Seconds since the epoch that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def device(storage: MemoryStorage, clock: WallClock | None = None, seed: int = 3) -> Controller:
    """The page opened (again) on this storage: ids are numbered as ``make_id`` would not."""
    ids = iter(range(1, 1000))
    return Controller(storage, lambda: seed, lambda: f"g{next(ids)}", clock=clock or WallClock())


def start(c: Controller, game: str = "dilemmas", players: list[tuple[str, str]] | None = None):
    c.dispatch("choose-game", {"game": game})
    if players:
        seats(c, players)
    c.dispatch("start", {})
    if c.screen == "practice":  # Dilemma's practice throw, once per device
        c.dispatch("practice-done", {})
    assert c.screen == "table", c.form.error


def leave(c: Controller) -> None:
    c.dispatch("leave", {})
    assert c.screen == "lobby"


def entry(c: Controller, title: str) -> SavedGame:
    return next(e for e in c.saves if isinstance(e, SavedGame) and e.title == title)


def legacy_save(seed: int = 9) -> tuple[str, Table]:
    """What the single save slot of earlier versions held: a table after one build."""
    storage = MemoryStorage()
    c = device(storage, seed=seed)
    start(c)
    build_and_vote(c)
    table = c.table
    return json.dumps({"table": table.to_json(), "seen": 0}), table


# -- a list, not a slot -------------------------------------------------------------


def test_starting_a_game_never_overwrites_another() -> None:
    storage = MemoryStorage()
    c = device(storage)
    start(c)
    build_and_vote(c)
    leave(c)
    [first_key] = storage.saved_games()
    first = storage[first_key]
    start(c, "royal")
    leave(c)
    assert len(storage.saved_games()) == 2
    assert storage[first_key] == first, "the first game's save was touched"
    titles = [e.title for e in c.saves]
    assert sorted(titles) == ["Royal Dilemma", "The Game of Dilemmas"]


def test_every_game_is_kept_apart_and_continues_as_itself() -> None:
    storage = MemoryStorage()
    c = device(storage)
    states = {}
    for game in ("dilemmas", "randolph", "minister", "royal"):
        start(c, game)
        states[c.table.game] = c.table.state
        leave(c)
    again = device(storage)
    assert len(again.saves) == 4
    for saved in list(again.saves):
        again.dispatch("continue", {"save": saved.id})
        assert again.screen == "table"
        assert again.table.state == states[again.table.game]
        leave(again)


def test_hot_seat_games_are_listed_with_their_players() -> None:
    storage = MemoryStorage()
    c = device(storage)
    start(c, players=[("Anna", "human"), ("Ben", "human"), ("Bot Cy", "bot:random")])
    leave(c)
    html = c.render()
    assert "Anna, Ben and Bot Cy" in html and "round 1 of 5" in html


def test_the_lobby_says_what_each_game_is_and_when_it_was_last_played() -> None:
    storage = MemoryStorage()
    clock = WallClock()
    c = device(storage, clock)
    start(c)
    leave(c)
    clock.now += 3 * 3600
    start(c, "royal", [("Robin", "human"), ("Bot Ada", "bot:heuristic")])
    leave(c)
    clock.now += 5 * 60 + 20
    html = device(storage, clock).render()
    assert "Games in progress" in html
    royal = html.index("Royal Dilemma</strong> · round 1 (at most 6) · Robin and Bot Ada")
    dilemmas = html.index("The Game of Dilemmas</strong> · round 1 of 5 · You, Bot Ada and Bot Bo")
    assert royal < dilemmas, "the most recently played game comes first"
    assert "last played 5 minutes ago" in html[royal:dilemmas]
    assert "last played 3 hours ago" in html[dilemmas:]


def test_playing_on_updates_the_round_and_the_time() -> None:
    storage = MemoryStorage()
    clock = WallClock()
    c = device(storage, clock)
    start(c)
    for _ in range(2):
        build_and_vote(c)
    clock.now += 120
    c.dispatch("next", {})
    leave(c)
    saved = c.saves[0]
    assert isinstance(saved, SavedGame)
    assert (saved.round, saved.played) == (2, START + 120)


def test_a_finished_game_leaves_the_list() -> None:
    storage = MemoryStorage()
    c = device(storage, seed=11)
    start(c)
    leave(c)
    c.dispatch("continue", {"save": c.saves[0].id})
    for _ in range(5):
        build_and_vote(c)
        build_and_vote(c)
        c.dispatch("next", {})
    assert c.table.over
    c.dispatch("lobby", {})
    assert c.saves == [] and not storage.saved_games()


# -- delete, on purpose ----------------------------------------------------------------


def test_delete_asks_first_and_keeps_the_game_when_told_to() -> None:
    storage = MemoryStorage()
    c = device(storage)
    start(c)
    leave(c)
    save_id = c.saves[0].id
    c.dispatch("delete-save", {"save": save_id})
    html = c.render()
    assert "Delete this game for good?" in html and "Yes, delete" in html
    assert storage.saved_games(), "one press on Delete deleted the game"
    c.dispatch("delete-cancel", {})
    assert "Yes, delete" not in c.render() and storage.saved_games()
    c.dispatch("delete-save", {"save": save_id})
    c.dispatch("delete-confirm", {"save": save_id})
    assert c.saves == [] and not storage.saved_games()
    assert "Games in progress" not in c.render()


def test_a_confirmation_counts_only_for_the_game_that_asked() -> None:
    storage = MemoryStorage()
    c = device(storage)
    start(c)
    leave(c)
    start(c, "royal")
    leave(c)
    first, second = (e.id for e in c.saves)
    c.dispatch("delete-confirm", {"save": first})
    assert len(c.saves) == 2, "a confirmation with no question deleted a game"
    c.dispatch("delete-save", {"save": first})
    c.dispatch("delete-confirm", {"save": second})
    assert len(c.saves) == 2, "the confirmation of one game deleted another"
    c.dispatch("delete-save", {"save": second})
    c.dispatch("delete-confirm", {"save": second})
    assert [e.id for e in c.saves] == [first]
    assert storage.saved_games() == [key(first)]


# -- the old single slot ---------------------------------------------------------------


def test_the_old_single_save_moves_into_the_list() -> None:
    raw, table = legacy_save()
    storage = MemoryStorage({LEGACY_KEY: raw})
    c = device(storage)
    assert LEGACY_KEY not in storage and len(storage.saved_games()) == 1
    html = c.render()
    assert "The Game of Dilemmas</strong> · round 1 of 5" in html
    assert "last played a while ago" in html
    c.dispatch("continue", {"save": c.saves[0].id})
    assert c.table.state == table.state
    assert "Vote on every dilemma" in c.render()


def test_the_old_save_waits_when_storage_is_full() -> None:
    raw, _ = legacy_save()
    storage = MemoryStorage({LEGACY_KEY: raw})
    storage.full = True
    c = device(storage)
    assert storage[LEGACY_KEY] == raw and c.saves == []
    storage.full = False
    assert len(device(storage).saves) == 1 and LEGACY_KEY not in storage


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("not json", "not valid JSON"),
        (json.dumps({"table": {"format": 99}}), "unknown version"),
        (json.dumps({"table": {"format": 1, "seats": "nope"}, "seen": 0}), "has no seats"),
    ],
)
def test_an_unreadable_old_save_is_listed_as_damaged_not_lost(raw: str, reason: str) -> None:
    storage = MemoryStorage({LEGACY_KEY: raw})
    c = device(storage)
    assert LEGACY_KEY not in storage
    [kept] = storage.saved_games()
    assert storage[kept] == raw, "the damaged text was not kept as it was"
    [damaged] = c.saves
    assert isinstance(damaged, DamagedSave) and reason in damaged.reason
    assert "cannot be continued" in c.render() and reason in c.render()
    c.dispatch("delete-save", {"save": damaged.id})
    c.dispatch("delete-confirm", {"save": damaged.id})
    assert not storage.saved_games()


# -- damaged entries ---------------------------------------------------------------------


def two_games(storage: MemoryStorage) -> Controller:
    c = device(storage)
    start(c)
    build_and_vote(c)
    leave(c)
    start(c, "royal")
    leave(c)
    return c


def damage(storage: MemoryStorage, how: str) -> str:
    """Damage the Game of Dilemmas' entry; returns its key."""
    target = next(k for k in storage.saved_games() if '"game": "dilemmas"' in storage[k])
    data = json.loads(storage[target])
    if how == "text":
        storage[target] = '{"format": 1, "summ'
        return target
    if how == "version":
        data["format"] = 7
    elif how == "summary":
        data["summary"]["names"] = "Anna"
    elif how == "game":
        data["summary"]["game"] = "chess"
    elif how == "state":
        data["table"]["state"]["scores"][0] = 99
    storage[target] = json.dumps(data)
    return target


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("text", "not valid JSON"),
        ("version", "unknown version of Quandary"),
        ("summary", "its summary cannot be read"),
        ("game", "a game this version does not know"),
    ],
)
def test_a_damaged_entry_is_shown_with_its_reason_and_spares_the_others(how, reason) -> None:
    storage = MemoryStorage()
    two_games(storage)
    target = damage(storage, how)
    c = device(storage)
    damaged = next(e for e in c.saves if isinstance(e, DamagedSave))
    assert reason in damaged.reason and key(damaged.id) == target
    html = c.render()
    assert reason in html and "Royal Dilemma" in html
    assert f'id="continue-{damaged.id}"' not in html, "a damaged game offers Continue"
    royal = entry(c, "Royal Dilemma")
    c.dispatch("continue", {"save": royal.id})
    assert c.screen == "table" and c.table.game == "royal"
    leave(c)
    c.dispatch("delete-save", {"save": damaged.id})
    c.dispatch("delete-confirm", {"save": damaged.id})
    assert [e.id for e in c.saves] == [royal.id]


def test_a_save_whose_moves_disagree_is_marked_damaged_when_continued() -> None:
    storage = MemoryStorage()
    two_games(storage)
    damage(storage, "state")
    c = device(storage)
    tampered = entry(c, "The Game of Dilemmas")
    c.dispatch("continue", {"save": tampered.id})
    assert c.screen == "lobby"
    html = c.render()
    assert "moves do not lead to its state" in html and "Royal Dilemma" in html
    assert isinstance(next(e for e in c.saves if e.id == tampered.id), DamagedSave)


def test_an_unknown_save_id_does_nothing() -> None:
    storage = MemoryStorage()
    c = two_games(storage)
    before = dict(storage)
    for action in ("continue", "delete-save", "delete-confirm"):
        c.dispatch(action, {"save": "nope"})
    assert c.screen == "lobby" and dict(storage) == before


# -- the cap -----------------------------------------------------------------------------


def test_a_full_list_refuses_a_new_game_and_drops_nothing() -> None:
    storage = MemoryStorage()
    c = device(storage)
    for _ in range(CAPACITY):
        start(c)
        leave(c)
    kept = dict(storage)
    c.dispatch("start", {})
    assert c.screen == "lobby"
    html = c.render()
    assert f"keeps {CAPACITY} games in progress" in html and "delete one" in html
    assert dict(storage) == kept, "a full list dropped or changed a game"
    oldest = c.saves[-1].id
    c.dispatch("delete-save", {"save": oldest})
    c.dispatch("delete-confirm", {"save": oldest})
    start(c)
    assert len(storage.saved_games()) == CAPACITY


def test_ids_never_collide_even_when_make_id_repeats_itself() -> None:
    storage = MemoryStorage()
    shelf = Shelf(storage)
    table = Table.new("dilemmas", [Seat("A", "human"), Seat("B", "bot"), Seat("C", "bot")], None, 1)
    ids = []
    for _ in range(3):
        save_id = shelf.new_id(lambda: "same")
        shelf.put(save_id, table, 0, START)
        ids.append(save_id)
    assert ids == ["same", "same-2", "same-3"]


def test_names_in_a_stored_summary_render_as_text() -> None:
    storage = MemoryStorage()
    c = device(storage)
    start(c)
    leave(c)
    [stored] = storage.saved_games()
    data = json.loads(storage[stored])
    data["summary"]["names"] = ["<img src=x onerror=alert(1)>", "Bo"]
    storage[stored] = json.dumps(data)
    html = device(storage).render()
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt; and Bo" in html
