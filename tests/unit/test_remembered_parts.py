"""Parts of the screen made once and kept (``Remembered``, ``GameLog.lines``) are made
anew whenever what they are made from changes: a kept part is never a stale one."""

from __future__ import annotations

from quandary.engine import LogEntry
from quandary.web.controller import Controller
from quandary.web.game_log import GameLog
from quandary.web.html import Markup, Remembered, markup
from quandary.web.phrases import Cast
from tests.unit.test_controller import MemoryStorage, build_and_vote, seats
from tests.unit.test_endings import log_items


def test_a_remembered_part_is_made_again_only_for_a_different_key() -> None:
    made: list[str] = []

    def make(text: str) -> Markup:
        made.append(text)
        return markup("<p>{}</p>", text)

    part = Remembered()
    first = part.get(("a", 1), lambda: make("a"))
    assert part.get(("a", 1), lambda: make("again")) is first
    assert part.get(("b", 1), lambda: make("b")) == Markup("<p>b</p>")
    assert part.get(("a", 1), lambda: make("a")) == Markup("<p>a</p>")  # only the last is kept
    assert made == ["a", "b", "a"]


def _entry(index: int, kind: str, who: str) -> LogEntry:
    return {"index": index, "kind": kind, "data": {"who": who}}


told: list[int] = []
"""The events ``_describe`` was asked to tell, in order."""


def _describe(entry: LogEntry, cast: Cast) -> str | None:
    """A game's words: one line per "said" event, none for others, naming the viewer."""
    told.append(entry["index"])
    if entry["kind"] != "said":
        return None
    who = entry["data"]["who"]
    return f"{'You' if cast.names.index(who) == cast.viewer else who} said hello."


def test_each_event_is_told_once_and_again_when_it_or_the_words_change() -> None:
    told.clear()
    log = GameLog()
    cast = Cast(["Ada", "Bo"], 0)
    log.gather([_entry(0, "said", "Ada"), _entry(1, "quiet", "Bo")], 1)
    assert log.lines(0, frozenset(), _describe, cast) == ["You said hello."]
    before = log.revision
    # The next view repeats the last event (equal, another object) and adds one.
    log.gather([_entry(1, "quiet", "Bo"), _entry(2, "said", "Bo")], 2)
    assert log.revision != before
    told.clear()
    assert log.lines(0, frozenset(), _describe, cast) == ["You said hello.", "Bo said hello."]
    assert told == [2]  # only the new event is told
    # Nothing new: the same revision, nothing told again.
    same = log.revision
    log.gather([_entry(2, "said", "Bo")], 2)
    assert log.revision == same
    # An event kept anew as something else (the whole log of a reloaded table).
    log.gather([_entry(2, "said", "Ada")], 3)
    assert log.revision != same
    told.clear()
    assert log.lines(0, frozenset(), _describe, cast) == ["You said hello.", "You said hello."]
    assert told == [2]
    # Another reader: every event is told again in their words.
    told.clear()
    assert log.lines(0, frozenset(), _describe, Cast(["Ada", "Bo"], 1)) == [
        "Ada said hello.",
        "Ada said hello.",
    ]
    assert told == [0, 1, 2]


def test_a_new_log_never_shares_a_revision_with_an_old_one() -> None:
    old = GameLog()
    old.gather([_entry(0, "said", "Ada")], 0)
    assert GameLog().revision not in (old.revision, GameLog().revision)


def test_the_log_panel_follows_its_reader_when_nothing_else_changed() -> None:
    """A device passed to the next player (hot seat) shows the same log in the new
    reader's words, though no event came meanwhile: the panel kept for the last
    reader is not shown to the next."""
    c = Controller(MemoryStorage(), lambda: 5)
    seats(c, [("Anna", "human"), ("Ben", "human"), ("Cy", "bot:random")])
    c.dispatch("start", {})
    while "the votes</h2>" not in c.render():  # a whole round, each at their turn
        if "Pass the device" in c.render():
            c.dispatch("reveal", {})
        else:
            build_and_vote(c)
    c.dispatch("next", {})
    c.dispatch("reveal", {})
    local = c.local
    assert local is not None
    first = local.viewer
    assert first is not None
    mine = log_items(c.render())
    assert any("Ben" in line for line in mine)  # the round's result names a player
    assert mine == log_items(c.render())  # drawn again unchanged: the same lines
    local.viewer = 1 - first  # the other player looks, no event since
    theirs = log_items(c.render())
    assert theirs != mine and len(theirs) == len(mine)
