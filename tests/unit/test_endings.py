"""Endings that tell the story, and the log of the whole game.

The why-sentences are checked on real seeded games of each of the four games
(the engine's story, told through ``Cast``), the chart's markup on its numbers
and its escaping, and the log's completeness, order and gating through the same
controller the page runs.
"""

from __future__ import annotations

import collections
import functools
import random
import re
from typing import Any

import pytest

from quandary import engine
from quandary.web.actions import DownloadText
from quandary.web.controller import Controller
from quandary.web.game_log import GameLog, log_text
from quandary.web.phrases import Cast
from quandary.web.render import game_ui
from quandary.web.render.chart import COLOURS, score_chart
from quandary.web.render.ending import final_screen, why_line
from quandary.web.render.table import TO_LOBBY, Ui
from tests.conformance.playout import play
from tests.unit.game_logs import PLAYOUTS, _pick
from tests.unit.test_controller import MemoryStorage, build_and_vote

NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"]
GAMES = ("dilemmas", "randolph", "minister", "royal")


@functools.cache
def finished(game: str, index: int = 0) -> Any:
    """The final state of one of the game's seeded playouts."""
    seed, players, options = PLAYOUTS[game][index]
    state = engine.setup(game, players, options, seed)
    chooser, tried = random.Random(seed), collections.Counter[str]()
    for _ in range(20_000):
        step = _pick(state, chooser, tried)
        if step is None:
            break
        state = play(state, *step)
    assert engine.result(state) is not None
    return state


# -- the engine's story ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_score_history_ends_on_the_final_scores(game: str, index: int) -> None:
    state = finished(game, index)
    result = engine.result(state)
    assert result is not None
    history = result["history"]
    assert history, "a finished game has at least one round to chart"
    assert history[-1] == result["scores"]
    assert all(len(scores) == state.players for scores in history)
    view = engine.view(state, None)
    assert view["result"] == result, "every viewer reads the same story"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_why_sentence_names_the_winner_as_you_or_by_name(game: str, index: int) -> None:
    state = finished(game, index)
    result = engine.result(state)
    assert result is not None
    story = result["story"]
    seat = story["seat"]
    assert seat in result["winners"], "the story is about a winner"
    names = NAMES[: state.players]
    theirs = why_line(dict(result), Cast(names, seat), game_ui(game))
    others = why_line(dict(result), Cast(names, (seat + 1) % state.players), game_ui(game))
    assert theirs and others
    assert theirs.endswith(".") and others.endswith(".")
    if story["kind"] != "deck":  # "The decree cards ran out…": the winner comes later
        assert theirs.startswith("You "), theirs
        assert others.startswith(names[seat] + " "), others


def test_dilemmas_tells_the_round_from_which_the_winner_led() -> None:
    story = {"kind": "dilemma", "seat": 1, "round": 4, "points": 3}
    assert game_ui("dilemmas").why(story, Cast(NAMES[:3], 0)) == (
        "Bo won the most controversial dilemma of round 4 for 3 points and led from then on."
    )
    state = finished("dilemmas")
    result = engine.result(state)
    assert result is not None
    history, seat = result["history"], result["story"]["seat"]
    number = result["story"]["round"]
    assert all(h[seat] == max(h) for h in history[number - 1 :])
    if number > 1:
        assert history[number - 2][seat] < max(history[number - 2])


def test_randolph_tells_the_winners_last_duel() -> None:
    story = {"kind": "duel", "seat": 2, "round": 9, "rival": 0, "points": 14}
    assert game_ui("randolph").why(story, Cast(NAMES[:3], 0)) == (
        "Cy won the last duel of challenge 9 against you, taking 14 points."
    )
    state = next(
        s
        for i in range(len(PLAYOUTS["randolph"]))
        if engine.result(s := finished("randolph", i))["story"]["kind"] == "duel"
    )
    story = engine.result(state)["story"]
    last = [r for r in state.history if r.reason == "duel" and r.winner == story["seat"]][-1]
    assert story["round"] == last.round


def test_minister_tells_the_score_reached_and_the_newest_law() -> None:
    story = {"kind": "target", "seat": 1, "round": 14, "points": 27, "law": None}
    assert game_ui("minister").why(story, Cast(NAMES[:3], 0)) == (
        "Bo reached 27 points by the end of turn 14."
    )
    state = finished("minister")
    story = engine.result(state)["story"]
    assert story["kind"] == "target" and story["points"] >= 25
    assert story["law"] == state.laws[-1].card
    assert "the newest law" in game_ui("minister").why(story, Cast(NAMES[:4], None))


def test_royal_tells_the_winners_last_capture() -> None:
    story = {"kind": "capture", "seat": 3, "round": 3, "card": "KS", "from": 0}
    line = game_ui("royal").why(story, Cast(NAMES[:4], 0))
    assert line is not None
    assert line.startswith("Dee (") and "captured K" in line
    assert line.endswith("from you (Ace of Spades) in round 3.")
    state = finished("royal", 1)
    story = engine.result(state)["story"]
    assert story["kind"] == "capture"
    captures = [
        (r.round, s.captured)
        for r in state.history
        for s in r.steps
        if s.seat == story["seat"] and s.captured
    ]
    assert (story["round"], story["card"]) == captures[-1]


def test_old_minister_saves_load_without_the_new_fields() -> None:
    from quandary.table import Seat, Table

    table = Table.new(
        "minister", [Seat("Ada", "human")] + [Seat(n, "bot") for n in NAMES[1:3]], None, 7
    )
    table.advance(0.0)
    saved = table.to_json()
    for key in ("turn_scores", "log_start"):
        del saved["state"][key]
    again = Table.from_json(saved)
    assert again.state == table.state


# -- the chart ---------------------------------------------------------------------------


def test_the_chart_holds_every_number_in_its_table() -> None:
    history = [[1, 0, -3], [3, 2, 5], [3, 9, 5]]
    html = score_chart(history, ["Ada", "Bo", "Cy"], "round", viewer=0)
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', html)
    assert [int(n) for n, _ in rows] == [1, 2, 3]
    assert [
        [int(v) for v in re.findall(r"<td>(-?\d+)</td>", cells)] for _, cells in rows
    ] == history
    assert re.findall(r'<th scope="col">([^<]*)</th>', html) == ["Round", "Ada (you)", "Bo", "Cy"]
    assert html.count("<polyline") == 3, "one line per player"
    assert all(colour in html for colour in COLOURS[:3])
    assert 'aria-hidden="true"' in html.split("<table")[0], "the drawing is hidden from readers"
    assert '<table class="sr-only' in html


def test_the_chart_escapes_names_and_marks_each_player_with_a_shape() -> None:
    html = score_chart([[1, 2]], ['<img src=x onerror="x">', "Bo & co"], "turn", viewer=None)
    assert "<img" not in html and "&lt;img src=x onerror=&quot;x&quot;&gt;" in html
    assert "Bo &amp; co" in html
    legend = html.split('class="chart-legend"')[1].split("</ul>")[0]
    assert "<circle" in legend and "<rect" in legend, "a different marker for each player"
    assert score_chart([], ["Ada"], "round", None) == ""


def test_the_final_screen_has_the_chart_the_why_and_no_save_and_leave() -> None:
    state = finished("royal", 1)
    view = engine.view(state, 0)
    ui = Ui(NAMES[: state.players], ["human"] + ["bot"] * (state.players - 1), 0)
    html = final_screen(view, ui, True, TO_LOBBY, game_ui("royal"))
    assert 'class="why"' in html and "captured" in html
    assert 'class="score-chart"' in html and "Play again" in html
    assert "Save and leave" not in html


# -- the log -----------------------------------------------------------------------------


def log_items(html: str) -> list[str]:
    panel = html.split('<ol class="log-lines" id="log-lines">')[1].split("</ol>")[0]
    return re.findall(r"<li>(.*?)</li>", panel)


def test_the_log_is_complete_chronological_and_waits_for_the_round_result() -> None:
    c = Controller(MemoryStorage(), lambda: 11)
    c.dispatch("start", {})
    for number in range(1, 6):
        build_and_vote(c)
        build_and_vote(c)
        html = c.render()
        assert "the votes</h2>" in html
        lines = log_items(html)
        assert f"Round {number}: " not in " ".join(lines), "the log runs ahead of the screen"
        c.dispatch("next", {})
        lines = log_items(c.render())
        assert any(line.startswith(f"Round {number}: ") for line in lines)
    lines = log_items(c.render())
    assert lines[0] == "Round 1 begins.", "the log starts at the game's first event"
    begins = [int(m.group(1)) for line in lines if (m := re.match(r"Round (\d) begins", line))]
    assert begins == [1, 2, 3, 4, 5], "oldest first, nothing missing"
    assert lines[-1].startswith("The game is over")
    assert "Earlier events" not in c.render()


def test_the_log_is_whole_again_after_a_reload() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 11)
    c.dispatch("start", {})
    for _ in range(4):
        build_and_vote(c)
        build_and_vote(c)
        c.dispatch("next", {})
    assert len(c.table.state.log) > engine.core.LOG_WINDOW, "more than one view's window"
    before = log_items(c.render())
    again = Controller(storage, lambda: 11)
    again.dispatch("continue", {"save": again.saves[0].id})
    assert log_items(again.render()) == before
    assert before[0] == "Round 1 begins."


def test_the_log_downloads_as_text_with_names() -> None:
    c = Controller(MemoryStorage(), lambda: 11)
    c.dispatch("start", {})
    build_and_vote(c)
    build_and_vote(c)
    c.dispatch("next", {})
    c.take_effects()
    c.dispatch("download-log", {})
    (effect,) = [e for e in c.take_effects() if isinstance(e, DownloadText)]
    assert effect.name == "the-game-of-dilemmas-log.txt"
    text = effect.text.splitlines()
    assert text[0] == "The Game of Dilemmas" and text[1].startswith("Players: You, Bot")
    assert text[3] == "1. Round 1 begins."
    assert any(line.split(". ", 1)[1].startswith("Round 1: ") for line in text[3:])


def test_a_late_joiner_s_log_says_what_it_missed() -> None:
    log = GameLog()
    log.gather([{"kind": "x", "data": {}, "index": 7}], 12)
    assert not log.complete()
    assert "before this device joined" in log_text("Dilemma", ["Ada", "Bo"], ["A line."], False)
