"""The view header: declared once, filled by the engine, read through ``read_header``.

Also the clock's moves: no seat's legal moves ever hold one, a player's attempt
is refused in one sentence, and only ``apply_authority`` makes one.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from quandary import engine
from quandary.engine import (
    HEADER_KEYS,
    BadView,
    IllegalMove,
    MalformedMove,
    OutOfTurn,
    read_header,
)
from quandary.table import Seat, Table
from tests.conformance.playout import pick_move, play

GAMES = [g.spec.id for g in engine.all_games()]


def _views(game: str, seed: int = 5, steps: int = 60) -> list[dict[str, Any]]:
    """Every seat's view and the spectator's, along a random playout."""
    players = engine.get(game).spec.min_players + 1
    state = engine.setup(game, players, None, seed)
    chooser = random.Random(seed)
    out = []
    for _ in range(steps):
        out += [engine.view(state, s) for s in [None, *range(players)]]
        picked = pick_move(state, chooser)
        if picked is None:
            break
        state = play(state, *picked)
    return out


# -- the header is the engine's ----------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_view_has_a_header_that_reads_back(game: str) -> None:
    for view in _views(game):
        header = read_header(view)
        assert HEADER_KEYS - {"names", "kinds"} <= set(header)
        assert "rounds" not in view and "stage" not in view


@pytest.mark.parametrize(
    ("game", "limit"),
    [
        ("dilemmas", {"count": 5, "exact": True}),
        ("royal", {"count": 6, "exact": False}),
        ("randolph", None),
        ("minister", None),
    ],
)
def test_each_game_states_its_bound_on_rounds_its_own_way(
    game: str, limit: dict[str, Any] | None
) -> None:
    players = engine.get(game).spec.min_players
    view = engine.view(engine.setup(game, players, None, 3), None)
    assert view["round"] == 1 and view["round_limit"] == limit


def test_royal_has_one_phase_that_says_what_happens() -> None:
    phases = {v["phase"] for v in _views("royal", seed=2, steps=40)}
    assert phases <= {"choose", "capture", "over"} and "choose" in phases


def test_round_words_follow_whether_the_bound_is_exact() -> None:
    assert engine.round_words(2, {"count": 5, "exact": True}) == "round 2 of 5"
    assert engine.round_words(1, {"count": 6, "exact": False}) == "round 1 (at most 6)"
    assert engine.last_round({"round": 5, "round_limit": {"count": 5, "exact": True}})
    assert not engine.last_round({"round": 6, "round_limit": {"count": 6, "exact": False}})


@pytest.mark.parametrize("key", sorted(HEADER_KEYS))
def test_a_game_view_that_sets_a_header_key_is_refused(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = engine.get("royal")
    state = engine.setup("royal", 2, None, 1)
    own = game.view
    monkeypatch.setattr(game, "view", lambda s, seat: {**own(s, seat), key: 1})
    with pytest.raises(TypeError, match=f"royal view sets {key}, which only"):
        engine.view(state, 0)


# -- read_header refuses each wrong type with a sentence ------------------------------

GOOD: dict[str, Any] = {
    "game": "dilemmas",
    "version": 3,
    "seat": 1,
    "players": 3,
    "waiting_for": [0, 2],
    "result": None,
    "log": [{"kind": "round_started", "data": {"round": 1}, "index": 0}],
    "phase": "vote",
    "round": 2,
    "round_limit": {"count": 5, "exact": True},
    "scores": [0, 4, 1],
    "legal_moves": [{"type": "vote"}],
    "names": ["Ann", "Bo", "Cy"],
    "kinds": ["human", "bot", "bot"],
    "hand": ["kept as it is"],
}

BAD = [
    ("game", 7, "game must be a non-empty text"),
    ("game", "", "game must be a non-empty text"),
    ("version", -1, "version must be a whole number"),
    ("version", True, "version must be a whole number"),
    ("version", 1.5, "version must be a whole number"),
    ("players", 0, "players must be a whole number, 1 or more"),
    ("players", "3", "players must be a whole number, 1 or more"),
    ("seat", 3, "seat must be a seat at the table or null"),
    ("seat", "0", "seat must be a seat at the table or null"),
    ("waiting_for", [0, 5], "waiting for must be a list of seats"),
    ("waiting_for", 0, "waiting for must be a list of seats"),
    ("result", {"scores": [1, 2, 3]}, "result must be null or have scores and winners"),
    (
        "result",
        {"scores": [1, 2, 3], "winners": [0], "history": [[1, 2]]},
        "result history must be a list of scores",
    ),
    ("result", {"scores": [1, 2, 3], "winners": [0], "story": []}, "result story must be"),
    ("result", {"scores": [1, 2], "winners": [0]}, "result must be a whole number for each seat"),
    ("result", {"scores": [1, 2, 3], "winners": [9]}, "result must be a list of seats"),
    ("log", {}, "log must be a list of events"),
    ("log", [{"kind": "x", "data": 1}], "each with a kind, its data and an index"),
    ("log", [{"kind": 1, "data": 1, "index": 0}], "each with a kind, its data and an index"),
    ("phase", None, "phase must be a non-empty text"),
    ("round", "2", "round must be a whole number"),
    ("round_limit", 5, "round limit must be null or a count of rounds"),
    ("round_limit", {"count": 5}, "round limit must be null or a count of rounds"),
    ("round_limit", {"count": 5, "exact": 1}, "round limit must be null or a count of rounds"),
    ("scores", [0, 4], "scores must be a whole number for each seat"),
    ("scores", [0, 4, "1"], "scores must be a whole number for each seat"),
    ("legal_moves", [{"no": "type"}], "legal moves must be a list of moves"),
    ("legal_moves", None, "legal moves must be a list of moves"),
    ("names", ["Ann", "Bo"], "names must be a text for each seat"),
    ("kinds", ["human", 1, "bot"], "kinds must be a text for each seat"),
]


def test_a_good_header_reads_back_as_the_view_itself_with_the_games_own_keys() -> None:
    """The view is typed by its header, not copied: a game's renderer reads its own
    keys from the same object (checked against its own types, ``catalog.read_view``)."""
    view = copy.deepcopy(GOOD)
    assert read_header(view) is view


@pytest.mark.parametrize(("key", "value", "words"), BAD, ids=[f"{k}={v!r}" for k, v, _ in BAD])
def test_read_header_refuses_each_wrong_type_with_a_sentence(
    key: str, value: Any, words: str
) -> None:
    with pytest.raises(BadView) as info:
        read_header(GOOD | {key: value})
    assert words in info.value.message
    assert info.value.message.startswith("The view") and info.value.message.endswith(".")
    assert info.value.code == "bad_view"


@pytest.mark.parametrize("key", sorted(HEADER_KEYS - {"names", "kinds"}))
def test_read_header_refuses_a_missing_key(key: str) -> None:
    view = {k: v for k, v in GOOD.items() if k != key}
    with pytest.raises(BadView, match=rf"^The view has no {key.replace('_', ' ')}\.$"):
        read_header(view)


def test_read_header_refuses_what_is_not_an_object() -> None:
    with pytest.raises(BadView, match=r"^A view must be an object\.$"):
        read_header([])  # type: ignore[arg-type]


# -- the clock's moves are nobody's ------------------------------------------------------


def _clock_games() -> list[str]:
    return [g.spec.id for g in engine.all_games() if g.spec.authority_moves]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("game", _clock_games())
def test_no_seats_legal_moves_ever_hold_a_clock_move(game: str, seed: int) -> None:
    spec = engine.get(game).spec
    players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    state = engine.setup(game, players, None, seed)
    chooser = random.Random(seed)
    closed = 0
    while (picked := pick_move(state, chooser)) is not None:
        for seat in range(players):
            offered = engine.legal_moves(state, seat)
            assert offered == engine.view(state, seat)["legal_moves"]
            assert not {m["type"] for m in offered} & spec.authority_moves
        closed += picked[1]["type"] in spec.authority_moves
        state = play(state, *picked)
    assert engine.result(state) is not None
    assert closed > 0, "the playout never needed the clock"


def _open_window() -> Any:
    state = engine.setup("randolph", 3, None, 1)
    return engine.apply(state, 0, {"type": "challenge", "card": 5})


def test_a_player_cannot_make_the_clocks_move() -> None:
    state = _open_window()
    clock = engine.clock(state)
    due = clock.due | {"at": clock.deadline}
    for seat in range(3):
        with pytest.raises(IllegalMove, match=f"^{re.escape(engine.CLOCK_ONLY)}$"):
            engine.apply(state, seat, due)
    table = Table.new(
        "randolph", [Seat("A", "human"), Seat("B", "human"), Seat("C", "human")], {}, 1
    )
    table.submit(0, {"type": "challenge", "card": 5})
    with pytest.raises(IllegalMove, match=f"^{re.escape(engine.CLOCK_ONLY)}$"):
        table.submit(0, due)
    assert table.humans_to_act() == [1, 2]


def test_only_the_due_move_at_the_deadline_goes_the_authoritys_way() -> None:
    state = _open_window()
    clock = engine.clock(state)
    with pytest.raises(IllegalMove, match="stays open until"):
        engine.apply_authority(state, {"type": "close", "at": clock.deadline - 1})
    with pytest.raises(MalformedMove, match="no such move for the table's clock"):
        engine.apply_authority(state, {"type": "challenge", "card": 3})
    after = engine.apply_authority(state, {"type": "close", "at": clock.deadline})
    assert after.version == state.version + 1 and engine.clock(after) is None
    with pytest.raises(OutOfTurn, match="No timed window is open"):
        engine.apply_authority(after, {"type": "close", "at": clock.deadline})


def test_a_record_with_the_clocks_move_replays() -> None:
    seats = [Seat("A", "human"), Seat("B", "bot", "random"), Seat("C", "bot", "random")]
    table = Table.new("randolph", seats, {}, 4)
    table.submit(0, {"type": "challenge", "card": 5})
    table.advance(0.0)
    table.advance(60_000.0)
    assert any(m["type"] == "close" for _, m in table.record.moves)
    assert table.record.replay() == table.state
    assert Table.from_json(table.to_json()).state == table.state
