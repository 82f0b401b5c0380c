"""A view sent as what changed (net/view_diff.py): lines that move in a list go as
those lines, a guest rebuilds the host's view exactly, and a host's update that
would grow a view past one message, or move lines it does not hold, is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quandary.net import view_diff
from quandary.net.messages import MAX_BYTES

from .test_room_protocol import room_of_three
from .test_room_screens import play_on, started

LINE = st.fixed_dictionaries({"kind": st.sampled_from("abc"), "n": st.integers(0, 9)})
VIEW = st.dictionaries(
    st.sampled_from(["log", "history", "hand", "round", "names"]),
    st.one_of(st.lists(LINE, max_size=8), st.integers(0, 3), st.lists(st.text(max_size=3))),
)


@st.composite
def _changes(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A view, and the view after a move: fields set, dropped, and lists whose lines
    left at the start and arrived at the end (as a game's recent log does)."""
    old = draw(VIEW)
    new = dict(draw(VIEW))
    for key, value in old.items():
        if isinstance(value, list) and draw(st.booleans()):
            skip = draw(st.integers(0, len(value)))
            new[key] = value[skip:] + draw(st.lists(LINE, max_size=3))
        elif key not in new and draw(st.booleans()):
            new[key] = value
    return old, new


@settings(max_examples=300, deadline=None)
@given(_changes())
def test_an_update_makes_the_new_view_of_the_old_and_counts_its_lists_exactly(change):
    old, new = change
    changed, added, gone = view_diff.diff(old, new)
    assert view_diff.apply(old, view_diff.sizes(old), changed, added, gone) == (
        new,
        view_diff.sizes(new),
    )


def test_a_moved_log_goes_as_its_new_lines():
    lines = [{"kind": "played", "index": i} for i in range(24)]
    old = {"log": lines[:20], "round": 1, "waiting_for": [0, 1, 2]}
    new = {"log": lines[3:24], "round": 1, "waiting_for": [1, 2]}
    changed, added, gone = view_diff.diff(old, new)
    assert added == {"log": {"skip": 3, "lines": lines[20:24]}}
    assert changed == {"waiting_for": [1, 2]}  # numbers are shorter sent whole
    assert gone == []


@pytest.mark.parametrize(
    ("added", "why"),
    [
        ({"gone": {"skip": 0, "lines": [{}]}}, "a list the view does not hold"),
        ({"round": {"skip": 0, "lines": [{}]}}, "a field that is no list"),
        ({"log": {"skip": 3, "lines": []}}, "more lines leaving than the list holds"),
        ({"log": {"skip": 0, "lines": [{"x": "y" * MAX_BYTES}]}}, "a list past one message"),
    ],
)
def test_an_update_that_cannot_apply_changes_nothing(added, why):
    view = {"log": [{"a": 1}, {"a": 2}], "round": 1}
    known = view_diff.sizes(view)
    assert view_diff.apply(view, known, {}, added, []) is None, why
    assert view == {"log": [{"a": 1}, {"a": 2}], "round": 1}
    assert known == view_diff.sizes(view)
    # A field both set and moved is no update either.
    assert view_diff.apply(view, known, {"log": []}, {"log": {"skip": 0, "lines": []}}, []) is None


def test_many_small_updates_cannot_grow_a_view_past_one_message():
    """Each update fits in a message; together they may not pile up lines forever."""
    view: dict[str, Any] = {"log": [{"n": 0}]}
    known = view_diff.sizes(view)
    line = {"text": "x" * 1000}
    updates = 0
    while grown := view_diff.apply(view, known, {}, {"log": {"skip": 0, "lines": [line]}}, []):
        view, known = grown
        updates += 1
        assert updates < 100, "a view grew past one message, update by update"
    assert len(json.dumps(view["log"])) <= MAX_BYTES < len(json.dumps(view["log"])) + 1100
    # Lines leaving make room again: a window that slides is never refused.
    assert view_diff.apply(view, known, {}, {"log": {"skip": 2, "lines": [line]}}, [])


def _bad_update(guest: Any, added: dict[str, Any]) -> None:
    """The host's own connection sends ``guest`` an update moving ``added``."""
    text = json.dumps(
        {
            "t": "update",
            "base": guest.version,
            "version": guest.version + 1,
            "set": {},
            "add": added,
            "drop": [],
        }
    )
    guest.on_message(guest.host, text, from_host=True)


def test_a_guest_refuses_a_hosts_update_it_cannot_apply_and_asks_for_the_whole_view():
    net, host, anna, _ = room_of_three()
    before, version = json.dumps(anna.view), anna.version
    net.queue.clear()
    _bad_update(anna, {"nothing": {"skip": 0, "lines": [{"a": 1}]}})
    assert json.dumps(anna.view) == before and anna.version == version
    asked = [json.loads(m[2]) for m in net.queue if m[0] == "A"]
    assert {"t": "sync", "version": version} in asked
    net.settle()
    assert anna.view == host.view_for(anna.member)


# The games this page's random player (``play_on``) plays to a long end without a clock.
@pytest.mark.parametrize("game", ["dilemmas", "minister"])
def test_a_guests_view_is_the_hosts_and_updates_stay_short_to_the_end_of_a_game(game):
    """Late in a game an update is no longer than early on: the log's window goes as the
    lines that moved (sent whole, a Game of Dilemmas update grew from 3 KB to 15 KB)."""
    net, host, devices = started(game, ("Anna", "Ben", "Cleo"))
    play_on(net, [host, *devices])
    room = host.controller.room
    assert room is not None and room.host is not None
    for device in devices:
        guest = device.controller.room.guest
        assert guest.view == room.host.view_for(guest.member)
        sizes = []
        for text in net.received[device.peer]:
            msg = json.loads(text)
            news = msg.get("news", msg)
            if news.get("t") == "update":
                sizes.append(len(json.dumps(news)))
        assert len(sizes) > 20, sizes
        early, late = sizes[: len(sizes) // 4], sizes[-len(sizes) // 4 :]
        assert max(late) <= 2 * max(early), (game, max(early), max(late))
