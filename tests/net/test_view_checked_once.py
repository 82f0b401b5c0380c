"""A guest checks only what a host's update set anew (engine/typed.py ``check_view``
with ``changed``, net/guest.py ``_news``): the rest of its view was checked when it
arrived. An update's fields and its new lines are still checked, a change of
``players`` or ``game`` has the whole view checked again, and what is checked once
refuses exactly what the whole check refuses."""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quandary import catalog, engine
from quandary.engine import BadView
from quandary.net import view_diff

from .test_room_protocol import room_of_three


def _forge(guest: Any, **fields: Any) -> None:
    """An update as the host's own connection would send it (it verifies as the host's)."""
    message = {"t": "update", "base": guest.version, "version": guest.version + 1}
    message |= {"set": {}, "add": {}, "drop": [], **fields}
    guest.on_message(guest.host, json.dumps(message), from_host=True)


def _refused(guest: Any, **fields: Any) -> bool:
    """Whether the guest kept its view (and its version) after the forged update."""
    view, version = copy.deepcopy(guest.view), guest.version
    _forge(guest, **fields)
    return guest.view == view and guest.version == version


def test_a_bad_value_set_by_an_update_is_refused():
    net, host, anna, ben = room_of_three()
    assert _refused(anna, set={"round": "three"})
    assert _refused(anna, set={"submitted": [True]})  # one entry for three seats
    assert _refused(anna, drop=["laid"])  # a field the view must have
    # And a sound one is kept.
    assert not _refused(anna, set={"round": anna.view["round"]})


def test_a_bad_new_line_is_refused_and_the_lines_kept_are_not_walked_again():
    net, host, anna, ben = room_of_three()
    log = anna.view["log"]
    assert log, "the game logs its start"
    bad = {"kind": "dealt", "data": {"seat": 9}, "index": "x"}
    assert _refused(anna, add={"log": {"skip": 0, "lines": [bad]}})
    assert not _refused(anna, add={"log": {"skip": 0, "lines": [log[-1]]}})


def test_lines_added_to_a_per_seat_list_are_checked_with_its_length():
    """A list with one entry a seat is no log: lines arriving at its end make it too long."""
    net, host, anna, ben = room_of_three()
    assert _refused(anna, add={"submitted": {"skip": 0, "lines": [False]}})
    assert _refused(anna, add={"laid": {"skip": 0, "lines": [None]}})


def test_an_update_of_players_has_the_whole_view_checked():
    """A seat more, with a name, a kind and a score (as the header checks), leaves every
    list of one entry a seat too short, though none of them is in the update."""
    net, host, anna, ben = room_of_three()
    more = {key: [*anna.view[key], anna.view[key][-1]] for key in ("names", "kinds", "scores")}
    assert _refused(anna, set={"players": 4, **more})


def test_an_update_of_game_has_the_whole_view_checked():
    net, host, anna, ben = room_of_three()
    assert _refused(anna, set={"game": "royal"})


def _views(game: str, seed: int = 7) -> list[dict[str, Any]]:
    """Seat 1's view after every move of a random game of ``game`` at three seats."""
    state = engine.setup(game, 3, {}, seed)
    rng = random.Random(seed)
    seen = [engine.view(state, 1)]
    for _ in range(600):
        options = [(s, m) for s in range(state.players) for m in engine.legal_moves(state, s)]
        if not options:
            break
        seat, template = rng.choice(options)
        state = engine.apply(state, seat, engine.moves.concrete(template, rng.randint))
        seen.append(engine.view(state, 1))
    return seen


@pytest.mark.parametrize("game", ["dilemmas", "randolph", "royal", "minister"])
def test_checking_what_changed_judges_every_update_of_a_game_as_the_whole_check_does(game):
    """For each move of random games, the update the host would send: the view it makes
    passes both checks; with a field it sets made wrong (no view declares a list of
    objects holding sets), or a wrong line arriving with a list's new lines, it fails
    both."""
    pairs = []
    for seed in range(1, 40):
        views = _views(game, seed)
        pairs += itertools.pairwise(views)
        if len(pairs) > 60:
            break
    assert len(pairs) > 60
    for old, new in pairs:
        set_, added, gone = view_diff.diff(old, new)
        changed = view_diff.changed(set_, added)
        catalog.read_view(new)
        catalog.read_view(new, changed)
        for key in set_:
            spoiled = dict(new, **{key: [{"x": {1, 2}}]})
            for check in (None, changed):
                with pytest.raises(BadView):
                    catalog.read_view(spoiled, check)
        for key, count in changed.items():
            if key in added:
                spoiled = dict(new, **{key: [*new[key], {1}]})
                for check in (None, {**changed, key: (count or 0) + 1}):
                    with pytest.raises(BadView):
                        catalog.read_view(spoiled, check)


@functools.cache
def _pool() -> tuple[dict[str, list[Any]], list[Any]]:
    """Values honest views of every game hold, by field, and lines of their lists: what a
    hostile host would most likely try, beside plain junk."""
    values: dict[str, list[Any]] = {}
    lines: list[Any] = []
    for game in ("dilemmas", "randolph", "royal", "minister"):
        for view in _views(game, 3)[::7]:
            for key, value in view.items():
                values.setdefault(key, []).append(value)
                if isinstance(value, list):
                    lines += value[-2:]
    return values, lines


JUNK = st.sampled_from([None, 0, -1, 99, True, "x", [], {}, [None], [1], [{}], 1.5, [0, 0, 0, 0]])


@st.composite
def _forged(draw: Any, view: dict[str, Any]) -> dict[str, Any]:
    """An update a hostile host might send: fields set to other views' values or junk,
    lines added (kept or foreign, with any skip), fields dropped."""
    values, lines = _pool()
    keys = st.sampled_from(sorted({*view, *values}))
    value = st.one_of(
        JUNK, st.sampled_from(lines), keys.flatmap(lambda k: st.sampled_from(values.get(k, [None])))
    )
    set_ = draw(st.dictionaries(keys, value, max_size=3))
    added = {}
    for key in draw(st.lists(keys, max_size=2)):
        held = view.get(key)
        size = len(held) if isinstance(held, list) else 0
        own = st.sampled_from(held) if isinstance(held, list) and held else JUNK
        new = draw(st.lists(st.one_of(own, JUNK, st.sampled_from(lines)), max_size=2))
        added[key] = {"skip": draw(st.integers(0, size + 1)), "lines": copy.deepcopy(new)}
    dropped = draw(st.lists(keys, max_size=1))
    return {"set": copy.deepcopy(set_), "add": added, "drop": dropped}


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_no_run_of_forged_updates_leaves_a_guest_a_view_the_whole_check_refuses(data):
    """Checked once, every field and line: after any run of hostile updates that verify as
    the host's, what the guest keeps passes the whole check."""
    net, host, anna, ben = room_of_three()
    for _ in range(data.draw(st.integers(1, 10))):
        _forge(anna, **data.draw(_forged(anna.view)))
        catalog.read_view(anna.view)
