"""Game records: built from a game bots played to its end, read back, replayed, refused.

A record is hostile input (a file, a link): each way it can be wrong has its own
sentence and leaves nothing half-read.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import pytest

from quandary import engine, replay
from quandary.replay import BadRecord
from quandary.table import Seat, Table

GAMES = {"dilemmas": 3, "randolph": 3, "minister": 3, "royal": 2}


def bots_play(game: str, players: int, seed: int) -> Table:
    """A table of bots played to its end, the clock jumping to each next moment."""
    seats = [Seat(f"Bot {n}", "bot") for n in "ABCDEF"[:players]]
    table = Table.new(game, seats, None, seed)
    now = 0.0
    for _ in range(100_000):
        table.advance(now)
        if table.over:
            return table
        wake = table.next_wakeup()
        now = max(now + 1, wake if wake is not None else now + 1_000)
    raise AssertionError("the bots never finished")


@functools.cache
def finished(game: str) -> str:
    return replay.dumps(replay.build(bots_play(game, GAMES[game], 7)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_finished_game_round_trips_to_its_result(game: str) -> None:
    text = finished(game)
    data = json.loads(text)
    assert data["format"] == "quandary-record" and data["version"] == 1
    assert set(data) == replay.KEYS
    read = replay.parse(text)
    assert read.game == game
    assert len(read.states) == len(data["moves"]) + 1
    told = engine.result(read.states[-1])
    assert told is not None and list(read.scores) == told["scores"] == data["result"]["scores"]
    assert [s.name for s in read.seats] == [s["name"] for s in data["seats"]]
    assert engine.result(read.states[0]) is None
    # What is passed on again (a download, a link from the replay screen) is made
    # from the checked record, and is the same record, to the character.
    assert replay.dumps(read.to_json()) == text


def test_a_record_passed_on_is_the_checked_one_not_the_text_it_came_in() -> None:
    data = json.loads(finished("royal"))
    data["seats"][0]["name"] = "Ada"  # a field order changed, spaces added: still read
    text = json.dumps(dict(reversed(list(data.items()))), indent=2)
    read = replay.parse(text)
    assert replay.dumps(read.to_json()) == replay.dumps(json.loads(replay.dumps(data)))
    assert replay.file_name(replay.game_named(text)) == "quandary-royal-record.json"


def test_a_game_in_progress_has_no_record() -> None:
    table = Table.new("royal", [Seat("Ada", "human"), Seat("Bot", "bot")], None, 3)
    with pytest.raises(ValueError, match="finished"):
        replay.build(table)


def test_a_name_typed_with_invisible_characters_still_makes_a_readable_record() -> None:
    table = bots_play("royal", 2, 5)
    table.seats[0] = Seat("\u202eAda\t", "bot")
    table.seats[1] = Seat("\u2066", "bot")
    read = replay.parse(replay.dumps(replay.build(table)))
    assert [s.name for s in read.seats] == ["Ada", "Player 2"]


def _tampered(change: Any) -> str:
    data = json.loads(finished("royal"))
    change(data)
    return json.dumps(data)


def _swap_a_move(data: dict[str, Any]) -> None:
    """Play another of the legal moves somewhere in the middle: the game goes elsewhere."""
    record = replay.parse(finished("royal"))
    for number in range(len(record.moves) // 2, len(record.moves)):
        seat, move = record.moves[number]
        others = [m for m in engine.legal_moves(record.states[number], seat) if m != move]
        if others:
            data["moves"][number][1] = copy.deepcopy(others[0])
            return
    raise AssertionError("no move had an alternative")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_swap_a_move, "not shown"),
        (lambda d: d["moves"].pop(), "not shown"),
        (lambda d: d["moves"][0].__setitem__(0, 5), "move 1 was refused"),
        (lambda d: d["moves"][0][1].__setitem__("type", "cheat"), "move 1 was refused"),
        (lambda d: d["result"]["scores"].__setitem__(0, 999), "do not lead to the result"),
        (lambda d: d.__setitem__("seed", d["seed"] + 1), "not shown"),
        (lambda d: d.__setitem__("seed", "7"), "seed"),
        (lambda d: d["seats"][0].__setitem__("name", ""), "seat"),
        (lambda d: d["seats"][0].__setitem__("name", "x\u202ey"), "seat"),
        (lambda d: d["seats"].append({"name": "Z", "kind": "bot"}), "not shown"),
        (lambda d: d.__setitem__("options", {"bogus": 1}), "no option"),
        (lambda d: d.__setitem__("game", "chess"), "does not know"),
        (lambda d: d.__setitem__("extra", 1), "unknown field"),
        (lambda d: d.pop("moves"), "lacks 'moves'"),
        (lambda d: d.__setitem__("result", [1, 2]), "result"),
    ],
)
def test_a_tampered_record_is_refused(change: Any, words: str) -> None:
    with pytest.raises(BadRecord, match=words):
        replay.parse(_tampered(change))


def test_a_future_version_asks_for_an_update() -> None:
    with pytest.raises(BadRecord, match="newer version"):
        replay.parse(_tampered(lambda d: d.__setitem__("version", 2)))


@pytest.mark.parametrize(
    "text", ['{"format": "a-spreadsheet"}', "[1, 2]", '{"t": "sync"}', "not json", ""]
)
def test_foreign_text_is_not_a_record(text: str) -> None:
    with pytest.raises(BadRecord, match="not a Quandary game record"):
        replay.parse(text)


def test_an_oversized_or_deep_record_is_refused_before_it_is_read() -> None:
    with pytest.raises(BadRecord, match="too large"):
        replay.parse(" " * (replay.MAX_CHARS + 1))
    with pytest.raises(BadRecord, match="nested too deeply"):
        replay.parse("[" * 10_000 + "]" * 10_000)


def test_every_message_is_a_sentence_not_a_trace() -> None:
    try:
        replay.parse(_tampered(lambda d: d["moves"][0].__setitem__(1, "x")))
    except BadRecord as exc:
        assert exc.message.startswith("This game record") and exc.message.endswith(".")
    else:
        raise AssertionError("a damaged move was accepted")
