"""The legal moves, the end's story and the log's events in a view are typed by their
game (``engine.ViewOf[ItsMove, ItsStory, ItsEvent]``) and checked at the door like every
other field.

A renderer reads ``view["legal_moves"]`` as the game's own moves, a finished game's
``result.story`` as its own story and each entry of ``log`` as one of its own events
(mypy follows their fields from the rules to the screen), so a view from another
device whose moves, story or events are not those must be refused, naming the wrong
field, before anything is drawn. The doctored
values here are made from what the rules actually produce, each field given a value
of another JSON kind, so the test does not trust the declarations it checks.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Generic, TypedDict, TypeVar

import pytest

from quandary import catalog, engine
from quandary.engine import BadView
from quandary.engine.moves import concrete
from quandary.engine.typed import Seat, problem
from tests.conformance.playout import pick_move, play

GAMES = [g.spec.id for g in engine.all_games()]
STEPS = 400


def offered(game: str, seed: int = 5) -> dict[str, tuple[dict[str, Any], int]]:
    """A view offering each type of move the game has, by type: the first met in a
    random game of the fewest players (the view, and the index of that move in it)."""
    spec = engine.spec_of(game)
    state = engine.setup(game, spec.min_players, {}, seed)
    chooser = random.Random(seed)
    found: dict[str, tuple[dict[str, Any], int]] = {}
    for _ in range(STEPS):
        movers = [s for s in range(spec.min_players) if engine.legal_moves(state, s)]
        for seat in movers:
            view = engine.view(state, seat)
            for index, move in enumerate(view["legal_moves"]):
                found.setdefault(move["type"], (view, index))
        if not movers:
            break
        seat = chooser.choice(movers)
        move = concrete(
            chooser.choice(engine.legal_moves(state, seat)), lambda lo, hi: chooser.randint(lo, hi)
        )
        state = engine.apply(state, seat, move)
    return found


def other_kind(value: object) -> object:
    """A JSON value of another kind than ``value``."""
    return [value] if not isinstance(value, list) else "text"


def refusal(view: dict[str, Any]) -> str:
    """Why the view is refused ("" if it is read)."""
    try:
        catalog.read_view(view)
    except BadView as exc:
        return exc.message
    return ""


@pytest.mark.parametrize("game", GAMES)
def test_each_offered_move_passes_and_each_of_its_fields_is_checked(game: str) -> None:
    found = offered(game)
    assert found, f"{game} offered no move in {STEPS} steps"
    for kind, (view, index) in found.items():
        assert refusal(view) == "", kind
        for key, value in view["legal_moves"][index].items():
            if key == "type":
                continue
            doctored = copy.deepcopy(view)
            doctored["legal_moves"][index][key] = other_kind(value)
            assert f"view.legal_moves[{index}].{key}" in refusal(doctored), (kind, key)
            doctored["legal_moves"][index].pop(key)
            assert f"view.legal_moves[{index}] has no {key}" in refusal(doctored), (kind, key)
            if isinstance(value, dict) and value:  # a field inside a field: a throw's spans
                inner, deep = next(iter(value.items()))
                doctored = copy.deepcopy(view)
                doctored["legal_moves"][index][key][inner] = other_kind(deep)
                assert f"view.legal_moves[{index}].{key}.{inner}" in refusal(doctored)


@pytest.mark.parametrize("game", GAMES)
def test_a_move_of_a_type_the_game_does_not_have_is_refused_naming_the_types_it_has(
    game: str,
) -> None:
    found = offered(game)
    view, index = next(iter(found.values()))
    doctored = copy.deepcopy(view)
    doctored["legal_moves"][index] = {"type": "steal"}
    said = refusal(doctored)
    assert f"view.legal_moves[{index}].type must be one of" in said
    assert all(repr(kind) in said for kind in found)
    doctored["legal_moves"][index] = "steal"  # the shared header refuses it first
    assert "legal moves must be a list of moves, each an object" in refusal(doctored)


def finished(game: str, seed: int = 3) -> dict[str, Any]:
    """A spectator's view of a random game of the fewest players, played to its end."""
    spec = engine.spec_of(game)
    state = engine.setup(game, spec.min_players, {}, seed)
    chooser = random.Random(seed)
    for _ in range(spec.max_moves_per_seat * spec.min_players):
        picked = pick_move(state, chooser)
        if picked is None:
            break
        state = play(state, *picked)
    view = engine.view(state, None)
    assert view["result"] is not None, f"{game} did not end"
    return view


@pytest.mark.parametrize("game", GAMES)
def test_the_story_of_the_end_passes_and_each_of_its_fields_is_checked(game: str) -> None:
    view = finished(game)
    story = view["result"]["story"]
    assert refusal(view) == ""
    for key, value in story.items():
        doctored = copy.deepcopy(view)
        doctored["result"]["story"][key] = other_kind(value)
        assert f"view.result.story.{key}" in refusal(doctored), key
    doctored = copy.deepcopy(view)
    doctored["result"]["story"]["kind"] = "luck"
    assert "view.result.story.kind must be one of" in refusal(doctored)


@pytest.mark.parametrize("game", GAMES)
def test_each_event_of_the_log_passes_and_each_of_its_facts_is_checked(game: str) -> None:
    view = finished(game)
    assert view["log"] and refusal(view) == ""
    checked: set[str] = set()
    for index, event in enumerate(view["log"]):
        if event["kind"] in checked:
            continue
        checked.add(event["kind"])
        for key, value in event["data"].items():
            doctored = copy.deepcopy(view)
            doctored["log"][index]["data"][key] = other_kind(value)
            assert f"view.log[{index}].data.{key}" in refusal(doctored), (event["kind"], key)
    doctored = copy.deepcopy(view)
    doctored["log"][0]["kind"] = "luck"
    assert "view.log[0].kind must be one of" in refusal(doctored)
    assert "'redealt'" in refusal(doctored), "a room successor's deal is every game's event"


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_past_the_table_in_a_story_or_an_event_is_refused(game: str) -> None:
    """A seat is a whole number below the view's ``players`` (``typed.Seat``): a hostile
    host's story or event naming seat 7 of 3 is refused at the door, never drawn."""
    view = finished(game)
    players = view["players"]
    assert refusal(view) == ""
    for seat in (players, -1, players + 40):
        doctored = copy.deepcopy(view)
        doctored["result"]["story"]["seat"] = seat
        said = refusal(doctored)
        assert f"view.result.story.seat must be a seat of this table of {players}" in said
    seated = [(i, e) for i, e in enumerate(view["log"]) if "seat" in e["data"]]
    assert seated, f"no event of {game} names a seat"
    index, _ = seated[0]
    doctored = copy.deepcopy(view)
    doctored["log"][index]["data"]["seat"] = players
    assert f"view.log[{index}].data.seat must be a seat of this table" in refusal(doctored)


ONE_FOR_EACH_SEAT = {
    "dilemmas": "supervotes",
    "randolph": "lives",
    "minister": "tables",
    "royal": "hand_sizes",
    "pebbles": "hand_sizes",
}
"""A list each game's screen reads an entry of for every seat, named here by the tests."""


@pytest.mark.parametrize("game", GAMES)
def test_a_list_of_one_entry_for_each_seat_that_is_short_or_long_is_refused(game: str) -> None:
    view = finished(game)
    key = ONE_FOR_EACH_SEAT[game]
    assert len(view[key]) == view["players"] and refusal(view) == ""
    for wrong in (view[key][:-1], [*view[key], view[key][0]]):
        doctored = copy.deepcopy(view)
        doctored[key] = wrong
        said = refusal(doctored)
        assert f"view.{key} must hold one entry for each of the table's" in said, said


@pytest.mark.parametrize("game", GAMES)
def test_a_table_with_more_players_than_its_game_seats_is_refused(game: str) -> None:
    """A hostile host cannot stretch every per-seat list to a table the game never has:
    the count of players is held to the game's own range first."""
    view = finished(game)
    spec = engine.spec_of(game)
    doctored = copy.deepcopy(view)
    more = spec.max_players + 1 - view["players"]
    doctored["players"], doctored["result"] = spec.max_players + 1, None
    for key, value in view.items():
        if isinstance(value, list) and len(value) == view["players"]:
            doctored[key] = value + value[-1:] * more
    assert f"seats {spec.min_players} to {spec.max_players} players, not" in refusal(doctored)


def test_a_seat_is_checked_only_against_the_view_it_is_in() -> None:
    """Outside a view's check any whole number passes, and a view's count of seats does
    not outlive its check (a context variable, reset even when the view is refused)."""
    assert problem(7, Seat, "x") == ""
    view = finished("royal")
    doctored = copy.deepcopy(view)
    doctored["result"]["story"]["seat"] = 99
    assert refusal(doctored)
    assert problem(99, Seat, "x") == ""


A = TypeVar("A")
B = TypeVar("B")


class Inner(TypedDict, Generic[A]):
    """A generic TypedDict, as ``SharedHeader`` is."""

    item: A


class Outer(Inner[B], Generic[B]):
    """One that passes its own parameter on to its base, under another name."""

    items: list[B]


class Bound(Outer[int]):
    """A declared type that binds it, as a game's view binds ``ViewOf``."""


def test_a_type_parameter_is_bound_through_every_base_and_through_an_alias() -> None:
    assert problem({"item": 1, "items": [2]}, Bound, "x") == ""
    assert problem({"item": "one", "items": [2]}, Bound, "x") == "x.item must be a whole number"
    assert problem({"item": 1, "items": ["two"]}, Bound, "x") == "x.items[0] must be a whole number"
    assert problem({"item": "a", "items": ["b"]}, Outer[str], "x") == ""
    assert problem({"item": 1, "items": ["b"]}, Outer[str], "x") == "x.item must be text"
