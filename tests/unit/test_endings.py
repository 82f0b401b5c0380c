"""Endings that tell the story, and the log of the whole game.

The why-sentences are checked on real seeded games of each of the four games
(the engine's story, told through ``Cast``), the chart's markup on its numbers
and its escaping, and the log's completeness, order and gating through the same
controller the page runs.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import random
import re
from typing import Any

import pytest

from quandary import engine
from quandary.games.royal.cards import seat_title, short_name
from quandary.web.actions import DownloadText
from quandary.web.controller import Controller
from quandary.web.game_log import GameLog, log_text
from quandary.web.phrases import Cast, plural
from quandary.web.render import game_ui
from quandary.web.render.chart import COLOURS, score_chart
from quandary.web.render.ending import final_screen, why_line
from quandary.web.render.table import TO_LOBBY, Ui
from tests.conformance.playout import play
from tests.unit.game_logs import _pick, playouts
from tests.unit.test_controller import MemoryStorage, build_and_vote

NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"]
GAMES = ("dilemmas", "randolph", "minister", "royal")


@functools.cache
def finished(game: str, index: int = 0) -> Any:
    """The final state of one of the game's seeded playouts."""
    seed, players, options = playouts(game)[index]
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


# -- every why-sentence, true of the game played ----------------------------------------
# Each test builds a game whose history has the shape a sentence is about, then checks
# the sentence against facts the test works out itself from the scores round by round.


def totals(points: list[list[int]]) -> list[list[int]]:
    """Running scores after each round, from each round's points (worked out here)."""
    out, running = [], [0] * len(points[0])
    for row in points:
        running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out


def behind(scores: list[int], seat: int) -> bool:
    return any(v > scores[seat] for v in scores)


def alone(scores: list[int], seat: int) -> bool:
    return all(v < scores[seat] for s, v in enumerate(scores) if s != seat)


def dilemmas_game(points: list[list[int]], tied: bool = False) -> Any:
    """A finished three-player Game of Dilemmas whose rounds scored ``points``."""
    state = finished("dilemmas")
    assert len(points) == len(state.history) == 5 and state.players == 3
    history = tuple(
        dataclasses.replace(r, points=tuple(p), winners=(0, 1) if tied else (0,))
        for r, p in zip(state.history, points, strict=True)
    )
    return dataclasses.replace(state, history=history, scores=tuple(totals(points)[-1]))


def told(state: Any, viewer: int | None = None) -> str:
    result = engine.result(state)
    assert result is not None
    line = why_line(dict(result), Cast(NAMES[: state.players], viewer), game_ui(state.game))
    assert line is not None
    return line


def test_a_lead_taken_in_the_last_round_is_not_kept_from_then_on() -> None:
    points = [[2, 3, 0], [1, 3, 0], [2, 1, 0], [2, 1, 0], [4, 0, 0]]
    runs = totals(points)
    assert behind(runs[3], 0) and alone(runs[4], 0), "Ada overtakes in round 5 only"
    line = told(dilemmas_game(points))
    assert "from then on" not in line and "to the end" not in line, line
    assert line == (
        f"Ada scored {points[4][0]} points with the most controversial dilemma of round 5,"
        " the last, which moved Ada ahead."
    )


def test_a_draw_made_in_the_last_round_is_told_as_level_not_ahead() -> None:
    points = [[0, 3, 0], [0, 3, 0], [0, 0, 1], [2, 0, 0], [4, 0, 0]]
    runs = totals(points)
    assert behind(runs[3], 0) and runs[4][0] == runs[4][1] == max(runs[4])
    line = told(dilemmas_game(points), viewer=0)
    assert line == (
        "You scored 4 points with the most controversial dilemma of round 5, the last,"
        " which brought you level at the top."
    )


def test_a_sole_leader_from_the_first_round_led_alone_from_then_on() -> None:
    points = [[3, 1, 0], [0, 1, 0], [1, 1, 1], [0, 0, 2], [1, 0, 0]]
    runs = totals(points)
    assert all(alone(r, 0) for r in runs), "Ada is ahead of everyone after every round"
    line = told(dilemmas_game(points, tied=True))
    assert line == (
        "Ada scored 3 points with a dilemma tied for the most controversial of round 1,"
        " and led alone from then on."
    )


def test_a_winner_level_with_someone_since_is_never_said_to_have_led() -> None:
    points = [[0, 2, 0], [3, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 0]]
    runs = totals(points)
    first = next(n for n in range(1, 6) if not any(behind(r, 0) for r in runs[n - 1 :]))
    assert first == 2 and not all(alone(r, 0) for r in runs[first - 1 :])
    line = told(dilemmas_game(points))
    assert " led" not in line
    assert line == (
        f"Ada scored {points[first - 1][0]} points with the most controversial dilemma of round"
        f" {first}, and was never behind from then on."
    )


def test_nobody_scoring_in_round_one_is_no_lead() -> None:
    points = [[0, 0, 0], [2, 1, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]]
    runs = totals(points)
    assert runs[0] == [0, 0, 0] and not any(behind(r, 0) for r in runs)
    assert told(dilemmas_game(points)) == "Ada was never behind, from round 1 to the end."


def royal_game(scores: list[list[int]], realms: tuple[tuple[str, ...], ...]) -> Any:
    """A finished Royal Dilemma without captures, its rounds ending on ``scores``."""
    state = finished("royal", 2)  # two players
    assert state.players == len(realms) == 2
    record = state.history[0]
    history = tuple(
        dataclasses.replace(record, round=n, steps=(), scores=tuple(row))
        for n, row in enumerate(scores, start=1)
    )
    return dataclasses.replace(state, history=history, realms=realms)


def test_royal_tells_a_last_round_comeback_without_a_capture() -> None:
    realms = (("5C",), ("7C",))  # 5 for the Ace of Spades, 14 for the Jack of Clubs (Clubs)
    scores = [[5, 2], [5, 4], [5, 14]]
    state = royal_game(scores, realms)
    assert engine.result(state)["scores"] == scores[-1]  # type: ignore[index]
    assert behind(scores[-2], 1) and alone(scores[-1], 1)
    assert told(state) == "Bo moved ahead only in the last round, round 3."


def test_royal_tells_a_one_round_game_as_its_only_round() -> None:
    state = royal_game([[5, 14]], (("5C",), ("7C",)))
    assert told(state, viewer=1) == "You were ahead after the only round."
    level = royal_game([[7, 7]], (("7H",), ("7H",)))
    assert engine.result(level)["winners"] == [0, 1]  # type: ignore[index]
    assert told(level) == "Ada was level at the top after the only round."


def test_royal_tells_a_lead_kept_alone_from_the_start() -> None:
    scores = [[10, 2], [10, 4], [12, 4]]
    assert all(alone(r, 0) for r in scores)
    state = royal_game(scores, (("6S",), ("4D",)))
    assert told(state) == "Ada led after every round."


def test_randolph_tells_a_lead_when_the_winner_won_no_duel() -> None:
    state = finished("randolph")
    assert state.players == 4
    gains = [[(3,), (), (), ()], [(), (5,), (), ()], [(4,), (), (), ()], [(), (), (), ()]]
    history = tuple(
        dataclasses.replace(
            state.history[0],
            round=n,
            reason="unanswered",
            winner=None,
            opponent=None,
            gains=tuple(g),
        )
        for n, g in enumerate(gains, start=1)
    )
    from quandary.games.randolph.state import Card

    won = ((Card(1, 3), Card(2, 4)), (Card(0, 5),), (), ())
    state = dataclasses.replace(state, history=history, won=won)
    runs = totals([[sum(g) for g in row] for row in gains])
    assert runs[0][0] == 3 and behind(runs[1], 0) and all(alone(r, 0) for r in runs[2:])
    assert told(state) == "Ada led alone from challenge 3 to the end."


def test_randolph_tells_the_winners_last_duel_won() -> None:
    story = {"kind": "duel", "seat": 2, "round": 9, "rival": 0, "points": 14}
    assert game_ui("randolph").why(story, Cast(NAMES[:3], 0)) == (
        "Cy last won a duel in challenge 9, against you, taking 14 points."
    )
    state = next(
        s
        for i in range(len(playouts("randolph")))
        if engine.result(s := finished("randolph", i))["story"]["kind"] == "duel"
    )
    result = engine.result(state)
    assert result is not None
    seat = result["story"]["seat"]
    last = [r for r in state.history if r.reason == "duel" and r.winner == seat][-1]
    rival = last.opponent if last.provocateur == seat else last.provocateur
    line = told(state)
    assert line == (
        f"{NAMES[seat]} last won a duel in challenge {last.round}, against {NAMES[rival]},"
        f" taking {plural(sum(last.gains[seat]), 'point')}."
    )


def test_minister_tells_the_score_reached_and_the_newest_law() -> None:
    story = {"kind": "target", "seat": 1, "round": 14, "points": 27, "law": None}
    assert game_ui("minister").why(story, Cast(NAMES[:3], 0)) == (
        "Bo reached 27 points by the end of turn 14."
    )
    state = finished("minister", 7)  # a seeded playout that reaches the target
    scores = engine.result(state)["scores"]  # type: ignore[index]
    seat = scores.index(max(scores))
    assert max(scores) >= 25 and len(state.turn_scores) == state.turn
    line = told(state)
    law = game_ui("minister").name(state.laws[-1].card)
    assert line == (
        f"{NAMES[seat]} reached {max(scores)} points by the end of turn {state.turn},"
        f" with “{law}” the newest law."
    )


@pytest.mark.parametrize("index", [0, 18])  # a sole leader; three level at the top
def test_minister_tells_the_decree_cards_running_out_and_who_was_level(index: int) -> None:
    state = finished("minister", index)
    assert not state.deck and not any(state.hands), "the game ended as the cards ran out"
    scores = engine.result(state)["scores"]  # type: ignore[index]
    top = [s for s, v in enumerate(scores) if v == max(scores)]
    line = told(state)
    assert line.startswith(f"The decree cards ran out in turn {len(state.turn_scores)} with ")
    if len(top) == 1:
        assert f"{NAMES[top[0]]} ahead on {max(scores)} points" in line
    else:
        assert " ahead" not in line
        listed = Cast(NAMES[: state.players], None).listing(top)
        assert f"{listed} level at the top on {plural(max(scores), 'point')}" in line


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
    panel = html.split('id="log-lines"')[1].split(">", 1)[1].split("</ol>")[0]
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


# -- the headline, the scores and how the game ended ---------------------------------------


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_headline_names_every_winner_and_only_them(index: int) -> None:
    state = finished("dilemmas", index)
    scores = engine.result(state)["scores"]  # type: ignore[index]
    top = [s for s, v in enumerate(scores) if v == max(scores)]
    names = NAMES[: state.players]
    html = final_screen(
        engine.view(state, 0),
        Ui(names, ["human"] * state.players, 0),
        True,
        TO_LOBBY,
        game_ui("dilemmas"),
    )
    headline = re.search(r'<h2 id="final-title"[^>]*>(.*?)</h2>', html).group(1)  # type: ignore[union-attr]
    if len(top) == 1:
        assert headline == ("You win!" if top == [0] else f"{names[top[0]]} wins!")
    else:
        assert headline.startswith("Shared win: ")
        assert all(("you" if s == 0 else names[s]) in headline for s in top)
    winners = re.findall(r'<li class="winner"><span class="who">([^<]*)', html)
    assert sorted(winners) == sorted(names[s] for s in top)


def test_a_seat_a_bot_finished_for_a_player_who_left_says_so() -> None:
    state = finished("royal", 2)
    names = NAMES[:2]
    html = final_screen(
        engine.view(state, 0), Ui(names, ["human", "covered"], 0), True, TO_LOBBY, game_ui("royal")
    )
    assert "a bot finished the game for Bo" in html
    assert "a bot finished the game for Ada" not in html


@pytest.mark.parametrize("index", [0, 1, 2])
def test_royal_says_in_numbers_why_the_deck_ended_the_game(index: int) -> None:
    state = finished("royal", index)
    in_play = [c for realm in state.realms for c in realm]
    suits = "SCHD"
    need = sum(len(in_play) + sum(c[-1] == suits[s] for c in in_play) for s in range(state.players))
    assert need > len(state.deck), "the deck could not cover the next draw"
    over = [e for e in state.log if e.kind == "game_over"][-1]
    line = game_ui("royal").describe(
        {"kind": over.kind, "data": over.data}, Cast(NAMES[: state.players], None)
    )
    assert line is not None and line.startswith(
        f"The deck's {plural(len(state.deck), 'card')} cannot cover the next draw of {need}:"
        " the game is over."
    ), line
    view = engine.view(state, 0)
    ui = Ui(NAMES[: state.players], ["human"] * state.players, 0)
    last = game_ui("royal").render_round_result(view, ui, len(view["history"]) - 1)
    cards = plural(len(state.deck), "card")
    assert f"The deck&#x27;s {cards} cannot cover the next draw of {need}: the game ends." in last


@pytest.mark.parametrize("game", GAMES)
def test_every_seeded_ending_says_only_what_its_scores_show(game: str) -> None:
    """Over every seeded playout: "led" only for a winner alone at the top since, "then on"
    and "to the end" only for a lead older than the last round, "the last" only for it."""
    for index in range(len(playouts(game))):
        state = finished(game, index)
        result = engine.result(state)
        assert result is not None
        history, seat = result["history"], result["story"]["seat"]
        line = told(state)
        since = next(
            n
            for n in range(1, len(history) + 1)
            if not any(behind(row, seat) for row in history[n - 1 :])
        )
        if " led" in line:
            assert all(alone(row, seat) for row in history[since - 1 :]), line
        if "then on" in line or "to the end" in line:
            assert since < len(history), line
        if "the last" in line and result["story"]["kind"] in ("dilemma", "lead"):
            assert since == len(history), line
        if "ahead on" in line:
            assert alone(history[-1], seat), line


@pytest.mark.parametrize("game", ["randolph", "royal"])
def test_every_seeded_last_duel_or_capture_is_the_winners_last(game: str) -> None:
    """The duel or capture told is the winner's very last, found here in the game's history."""
    told_any = 0
    for index in range(len(playouts(game))):
        state = finished(game, index)
        story = engine.result(state)["story"]  # type: ignore[index]
        seat, cast = story["seat"], Cast(NAMES[: state.players], None)
        if game == "randolph":
            won = [r for r in state.history if r.reason == "duel" and r.winner == seat]
            if not won:
                assert story["kind"] == "lead"
                continue
            last = won[-1]
            rival = last.opponent if last.provocateur == seat else last.provocateur
            expected = (
                f"{NAMES[seat]} last won a duel in challenge {last.round}, against"
                f" {NAMES[rival]}, taking {plural(sum(last.gains[seat]), 'point')}."
            )
        else:
            taken = [(r.round, s) for r in state.history for s in r.steps]
            taken = [(n, s) for n, s in taken if s.seat == seat and s.captured]
            if not taken:
                assert story["kind"] == "lead"
                continue
            number, step = taken[-1]
            expected = (
                f"{cast.object(seat, start=True)} ({seat_title(seat)}) captured"
                f" {short_name(step.captured)} from {NAMES[step.target]}"
                f" ({seat_title(step.target)}) in round {number}."
            )
        assert why_line(dict(engine.result(state)), cast, game_ui(game)) == expected  # type: ignore[arg-type]
        told_any += 1
    assert told_any
